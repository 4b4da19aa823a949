#!/bin/sh
# handout.sh - the student tarball: everything tracked except solutions/, tests/broken/ and the
# instructor's slides (they show the fixes)
set -eu
mkdir -p build
# Labs that are not live (DRAFT: not yet measured on a GPU) stay out too.
live=" $(unset LABS MAKEFLAGS MFLAGS; make -s --no-print-directory list-labs) "
drafts=$(for d in labs/[0-9][0-9]-*/; do d=$(basename "$d"); case $live in *" $d "*) ;; *) echo "$d" ;; esac; done | tr '\n' '|')
git ls-files | grep -v -e '^solutions/' -e '^tests/broken/' -e '^slides/' -e '^grader/[0-9][0-9]-[a-z-]*/stub-passes$' |
    { if [ -n "$drafts" ]; then grep -v -E "^(labs|grader)/(${drafts%|})/"; else cat; fi; } |
    tar -czf build/handout.tar.gz --transform 's,^,cuda-workbook/,' -T -
echo "wrote build/handout.tar.gz ($(tar -tzf build/handout.tar.gz | wc -l) files, no solutions/)"
