# slides/slides.mk - slide decks and plots: `make slides`, `make plots`, `make test-slides`
# SPDX-License-Identifier: MIT
# Included from the top-level Makefile; paths are relative to the repository root.
# Everything here is optional: without Node.js/Marp, Chromium or gnuplot,
# `make slides` and `make plots` say what to install, and `make test-slides`
# (part of `make check`) prints SKIP lines and succeeds. Nothing is downloaded.

MARP        ?= slides/node_modules/.bin/marp
CHROME_PATH ?= $(firstword $(foreach c,chromium chromium-browser google-chrome google-chrome-stable,$(shell command -v $(c) 2>/dev/null)))
GNUPLOT     ?= gnuplot

.PHONY: slides plots test-slides

# build/plots/NN-name.svg from each slides/plots/NN-name.gp (SET=labs|solutions picks whose run).
plots:
	@SET=$(SET) GNUPLOT="$(GNUPLOT)" sh slides/plot.sh

# build/slides/NN-topic.html (and .pdf with Chromium) from each slides/NN-topic.md.
slides:
	@SET=$(SET) GNUPLOT="$(GNUPLOT)" sh slides/plot.sh --optional
	@MARP="$(MARP)" CHROME_PATH="$(CHROME_PATH)" sh slides/render.sh

# Every deck renders, every image it references exists, and in Chromium every
# slide shows its text and figures with nothing cut off (screenshots in
# build/slides/screenshots/).
test-slides:
	@MARP="$(MARP)" CHROME_PATH="$(CHROME_PATH)" GNUPLOT="$(GNUPLOT)" sh slides/test-slides.sh
