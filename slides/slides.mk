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

# Two kinds of deck. The concept decks (slides/NN-topic.md: the concept, figures and
# questions, no graded code) ship in the handout. The solution decks
# (slides/solutions/NN-topic.md: the walkthrough of the reference) are built only
# where solutions/ exists, so a handout renders its concept decks alone.
SLIDE_DECKS    := $(wildcard slides/[0-9][0-9]-*.md)
SOLUTION_DECKS := $(if $(wildcard solutions/[0-9][0-9]-*),$(wildcard slides/solutions/[0-9][0-9]-*.md))

# build/slides/NN-topic.html (and .pdf with Chromium) from each concept deck, and
# build/slides/solutions/NN-topic.html from each solution deck.
slides:
ifeq ($(SLIDE_DECKS)$(SOLUTION_DECKS),)
	@echo "slides: no slide decks here (slides/NN-topic.md); nothing to render."
	@echo "        The figures are in slides/figures/; make plots draws your own runs into build/plots/."
else
	@SET=$(SET) GNUPLOT="$(GNUPLOT)" sh slides/plot.sh --optional
	@MARP="$(MARP)" CHROME_PATH="$(CHROME_PATH)" sh slides/render.sh $(SLIDE_DECKS) $(SOLUTION_DECKS)
endif

# Every deck of both kinds renders, every image it references exists, and in
# Chromium every slide shows its text and figures with nothing cut off
# (screenshots in build/slides/screenshots/, solution decks' in
# build/slides/screenshots/solutions/).
test-slides:
ifeq ($(SLIDE_DECKS)$(SOLUTION_DECKS),)
	@echo "  SKIP  slides                 no slide decks here"
else
	@MARP="$(MARP)" CHROME_PATH="$(CHROME_PATH)" GNUPLOT="$(GNUPLOT)" sh slides/test-slides.sh $(SLIDE_DECKS) $(SOLUTION_DECKS)
endif
