#!/bin/sh
# handout.sh - the student tarball: everything tracked except solutions/, tests/broken/ and the
# instructor's slides (they show the fixes)
set -eu
mkdir -p build
git ls-files | grep -v -e '^solutions/' -e '^tests/broken/' -e '^slides/' -e '^grader/[0-9][0-9]-[a-z-]*/stub-passes$' |
    tar -czf build/handout.tar.gz --transform 's,^,cuda-workbook/,' -T -
echo "wrote build/handout.tar.gz ($(tar -tzf build/handout.tar.gz | wc -l) files, no solutions/)"
