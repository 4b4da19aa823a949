#!/usr/bin/env bash
# bench-restricted.sh - the bench with every test confined to fewer SMs: does each limit still hold?
#
#   SMS_LIST="16 32 64" RUNS=3 scripts/bench-restricted.sh LAB...
#
# For each count n in SMS_LIST, grades both sets RUNS times with SMS=n (a green context confines
# every test's kernels to n SMs, while the runtime still reports the whole GPU) into
# build/bench/sms-n/, then gathers every configuration's limits table into
# build/bench/restricted.md, with each count's ledger entry (build/bench/sms-n/ledger-entry.csv,
# to be listed as ledger/<model>-smsN.csv). A test whose contract reads the SM count from the
# runtime is SKIP there, with its reason. APPEND=1 adds runs to earlier ones (bench.sh).
set -u
list=${SMS_LIST:-16 32 64}
for n in $list; do
    case $n in [1-9]|[1-9][0-9]|[1-9][0-9][0-9]) ;; *) echo "bench-restricted: SMS_LIST holds \"$n\": expected whole numbers of SMs from 1 to 999" >&2; exit 2;; esac
done
status=0
for n in $list; do
    echo "== bench with every test on $n SMs"
    # REPLACE=1 without RUNS: as many runs as each count's bench has (bench.sh)
    r=${RUNS:-3}; [ "${REPLACE:-0}" = 1 ] && r=${RUNS:-}
    SMS=$n RUNS=$r scripts/bench.sh "$@" >/dev/null || status=1
done
out=build/bench/restricted.md
{
    echo "# Grader bench on fewer SMs"
    echo
    echo "Every test confined to n SMs by a green context (SMS=n), RUNS=${RUNS:-3} runs of each set per count."
    echo "Tests that cannot run restricted are SKIP (their reason is in each run's log) and absent below."
    for n in $list; do
        r=build/bench/sms-$n/report.md
        echo
        echo "## $n SMs"
        echo
        [ -f "$r" ] || { echo "(no report: see build/bench/sms-$n/)"; continue; }
        awk '/^## Limits/ { on = 1; next } /^## Grading time/ { on = 0 } on' "$r"
        # The ledger's verdict on this count, and the command that adds its entry.
        [ -f "build/bench/sms-$n/ledger.txt" ] && { echo '```'; cat "build/bench/sms-$n/ledger.txt"; echo '```'; }
    done
} >"$out"
cat "$out"
exit $status
