#!/usr/bin/env bash
# test-check-limits.sh - check-limits.sh refuses a README whose grading table is wrong in the ways
# that matter: a limit changed in its own column (even when the right number stands elsewhere in
# the row), points changed, a test's row missing.
set -u
lab=04-barriers
t=$(mktemp -d /tmp/wb-limits-test.XXXXXX)
trap 'rm -rf "$t"' EXIT
status=0
refused() { # what, sed expression
    sed "$2" "labs/$lab/README.md" >"$t/README.md"
    if cmp -s "$t/README.md" "labs/$lab/README.md"; then
        echo "FAIL  check-limits test \"$1\": the edit changed nothing (update this test)"; status=1
    elif scripts/check-limits.sh --readme "$t/README.md" "$lab" >"$t/out" 2>&1; then
        echo "FAIL  check-limits accepted a README with $1"; status=1
    fi
}
refused "the limit changed in its column, the right number left in another" \
    's/at least \*\*1\.35x\*\* faster/at least **1.30x** faster/; s/| the reference clears it by 34 %/| 1.35: the reference clears it by 34 %/'
refused "a test's points changed" 's/^| `perf\.sum` | 25 |/| `perf.sum` | 20 |/'
refused "a test's row missing" '/^| `sanitizer\.synccheck` |/d'
scripts/check-limits.sh "$lab" >"$t/out" 2>&1 || { echo "FAIL  check-limits refuses the real README: $(cat "$t/out")"; status=1; }
[ $status = 0 ] && echo "PASS  check-limits refuses a limit changed in its column, points changed, a row missing"
exit $status
