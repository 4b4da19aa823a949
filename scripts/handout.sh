#!/bin/sh
# handout.sh - the student tarball: everything tracked except solutions/, tests/broken/, the
# grader's stub-passes lists and the solution decks (slides/solutions/: they show the fixes);
# the concept decks ship
# usage: scripts/handout.sh [OUT.tar.gz]   (default build/handout.tar.gz)
set -eu
out=${1:-build/handout.tar.gz}
mkdir -p "$(dirname "$out")"
# Labs that are not live (DRAFT: not yet measured on a GPU) stay out too.
live=" $(unset LABS MAKEFLAGS MFLAGS; make -s --no-print-directory list-labs) "
drafts=$(for d in labs/[0-9][0-9]-*/; do d=$(basename "$d"); case $live in *" $d "*) ;; *) echo "$d" ;; esac; done | tr '\n' '|')
# Of slides/: the concept decks (NN-topic.md: no graded code) with what renders and tests
# them (theme, render.sh, slides.mk, test-slides.*, package.json and its lock for `npm ci`,
# README.md), `make plots` (plot.sh, the plot scripts and their samples), and the figures a
# concept deck or a chapter shows, with plot-missing.svg (render.sh's stand-in for a plot not
# drawn yet). Never the solution decks (slides/solutions/), a figure only they show, or a
# figure that shows graded code:
#   05-register-cliff.svg labels lab 05's graded __launch_bounds__ as "fix".
slides_kept='^slides/([0-9][0-9]-[^/]+\.md|README\.md|theme\.css|package(-lock)?\.json|slides\.mk|render\.sh|test-slides\.(sh|js)|plot\.sh|plots/[^/]+\.gp|samples/[^/]+)$'
slides_held='^slides/(solutions/|figures/05-register-cliff\.svg$)'
figures_shown=$(printf '%s\n' slides/figures/plot-missing.svg
    grep -oh 'figures/[A-Za-z0-9_.-]*\.svg' slides/[0-9][0-9]-*.md labs/*/README.md | sed 's#^#slides/#')
git ls-files |
    grep -v -E -e '^solutions/' -e '^tests/broken/' -e '^grader/[0-9][0-9]-[a-z-]*/stub-passes$' \
        -e '^slides/' |
    { cat; git ls-files slides | grep -E "$slides_kept";
      git ls-files slides/figures | grep -x -F "$figures_shown";
    } | grep -v -E "$slides_held" |
    { if [ -n "$drafts" ]; then grep -v -E -e "^(labs|grader)/(${drafts%|})/" -e "^slides/(${drafts%|})\.md$"; else cat; fi; } |
    tar -czf "$out" --transform 's,^,cuda-workbook/,' -T -
echo "wrote $out ($(tar -tzf "$out" | wc -l) files, no solutions/)"
