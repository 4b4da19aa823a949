#!/usr/bin/env bash
# bench.sh - measure the grader itself: grade both sets RUNS times and report the margins of every
# limit, the verdict flips and the grading time (`make bench [LAB=...] [RUNS=n] [LOAD=1]`)
#
#   scripts/bench.sh LAB...
#
# Writes build/bench/raw.csv (every measurement of every run), build/bench/bench.csv (one row per
# limit and set: median, min, max, worst margin, flips) and build/bench/report.md, and the ledger
# entry of this GPU model, build/bench/ledger-entry.csv (ledger/README.md): the report's last
# section says whether the model is in ledger/, how each limit stands against the 25 % target
# and against the listed figures, and the command that adds the entry. With LOAD=1 a
# second process keeps the same GPU busy the whole time (build/tools/wb-load), to see what a
# shared GPU does to the verdicts. With SMS=n every test runs confined to n SMs (a green context)
# and the results go to build/bench/sms-n/ (make bench-restricted runs several such n). With
# APPEND=1 the runs are added to those already there (numbered after them), so that runs spread
# over several sittings add up in one report. With REPLACE=1 the labs named are benched again
# into the runs already there: their rows in raw.csv and times.csv give way to new runs numbered
# 1..RUNS (RUNS defaults to the runs already there), the other labs' rows stay, and config.txt
# records which labs were replaced, when and by which grader (a lab or a limit that changed
# since a bench, without benching every lab again).
#   scripts/bench.sh --report DIR     rebuild DIR/bench.csv, DIR/report.md and DIR/ledger-entry.csv
#                                     from DIR/raw.csv, DIR/times.csv and DIR/config.txt (for the
#                                     tests of this script; LEDGER_DIR=dir reads another ledger)
set -u
case ${REPLACE:-0} in 0|1) ;; *) echo "bench: REPLACE=$REPLACE is not valid: expected 0 or 1 (1: bench the labs named again into the runs already there)" >&2; exit 2;; esac
runs=${RUNS:-10}
case $runs in ''|*[!0-9]*|0) echo "bench: RUNS=$runs is not valid: expected a whole number of runs, 1 or more" >&2; exit 2;; esac
case ${LOAD:-0} in 0|1) ;; *) echo "bench: LOAD=$LOAD is not valid: expected 0 or 1 (1: a second process loads the GPU)" >&2; exit 2;; esac
case ${APPEND:-0} in 0|1) ;; *) echo "bench: APPEND=$APPEND is not valid: expected 0 or 1 (1: add these runs to the earlier ones)" >&2; exit 2;; esac
case ${SMS:-} in ''|[1-9]|[1-9][0-9]|[1-9][0-9][0-9]) ;; *) echo "bench: SMS=$SMS is not valid: expected a whole number of SMs from 1 to 999" >&2; exit 2;; esac
out=$(pwd)/build/bench${SMS:+/sms-$SMS}
if [ "${REPLACE:-0}" = 1 ] && [ "${1-}" != --report ]; then
    [ "${APPEND:-0}" = 1 ] && { echo "bench: REPLACE=1 and APPEND=1 exclude each other: REPLACE benches the labs named again into the runs there, APPEND adds runs" >&2; exit 2; }
    [ -s "$out/times.csv" ] || { echo "bench: REPLACE=1 needs an earlier bench to replace labs in: expected $out/times.csv (extract ledger/runs/<entry>.tar.gz into $out first; ledger/README.md)" >&2; exit 2; }
    [ $# -gt 0 ] || { echo "bench: REPLACE=1 needs the labs to bench again (LAB=...)" >&2; exit 2; }
    # as many runs as the bench there has, unless RUNS says otherwise
    [ -n "${RUNS:-}" ] || runs=$(tail -n +2 "$out/times.csv" | cut -d, -f1 | sort -u | wc -l)
    [ "$runs" -gt 0 ] || { echo "bench: REPLACE=1 found no runs in $out/times.csv to replace labs in (expected rows under its header)" >&2; exit 2; }
fi
report_only=0
loadpid=
if [ "${1-}" = --report ]; then
    report_only=1 out=$2
    runs=$(tail -n +2 "$out/times.csv" | cut -d, -f1 | sort -u | wc -l)
    build_all=-2
fi
raw=$out/raw.csv times=$out/times.csv
if [ $report_only = 0 ]; then
first=1
# The labs benched again into these runs before (REPLACE=1), kept whenever the runs are kept.
replaced=
if [ "${REPLACE:-0}" = 1 ] || { [ "${APPEND:-0}" = 1 ] && [ -s "$times" ]; }; then
    replaced=$(grep -E '^replaced=' "$out/config.txt" 2>/dev/null)
fi
if [ "${REPLACE:-0}" = 1 ]; then
    # The labs named give way: their rows and run folders go, the other labs' stay.
    for f in "$raw" "$times"; do
        awk -F, -v labs=" $* " 'NR == 1 || index(labs, " " $3 " ") == 0' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
    done
    for lab in "$@"; do [ -n "$lab" ] && rm -rf "$out"/runs/*/*/"$lab" "$out"/runs/*/*/"$lab".*; done
    mkdir -p "$out/runs"
    # What the earlier bench recorded, and the replacements before this one.
    old_version=$(sed -n 's/^grader_version=//p' "$out/config.txt" 2>/dev/null | tail -1)
    old_date=$(sed -n 's/^date=//p' "$out/config.txt" 2>/dev/null | tail -1)
elif [ "${APPEND:-0}" = 1 ] && [ -s "$times" ]; then
    first=$(( $(tail -n +2 "$times" | cut -d, -f1 | sort -n | tail -1) + 1 ))
else
    rm -rf "$out"; mkdir -p "$out/runs"
    echo "run,set,lab,test,metric,value,limit,comparison,verdict" >"$raw"
    echo "run,set,lab,seconds" >"$times"
fi
export NO_COLOR=1

if [ "${LOAD:-0}" = 1 ]; then
    build/tools/wb-load >"$out/load.log" 2>&1 &
    loadpid=$!
    sleep 2
    echo "bench: a second process loads the GPU (pid $loadpid)"
fi
trap '[ -n "$loadpid" ] && kill "$loadpid" 2>/dev/null' EXIT

# Build time of each lab, from clean, in a copy of the workbook (this tree's build/ stays);
# once per bench, not for runs added to it.
build_all=-2
if [ "$first" = 1 ] && [ "${REPLACE:-0}" != 1 ]; then
tmp=$(mktemp -d /tmp/wb-bench.XXXXXX)
{ git ls-files 2>/dev/null || find . -path ./build -prune -o -type f -print; } | tar -cf - -T - | tar -xf - -C "$tmp"
s=$(date +%s%N)
if (cd "$tmp" && unset LABS MAKEFLAGS MFLAGS && make -j"$(nproc)" all >"$out/build.log" 2>&1); then
    build_all=$(( ($(date +%s%N) - s) / 1000000 ))
else
    build_all=-1
    echo "bench: building from clean failed, see $out/build.log"
fi
rm -rf "$tmp"
fi

last=$((first + runs - 1))
for run in $(seq "$first" "$last"); do
    for set in solutions labs; do
        for lab in "$@"; do
            dir=$out/runs/$run/$set/$lab
            mkdir -p "$dir"
            s=$(date +%s%N)
            ans=$set/$lab/answers.txt
            # the reference's profiler readings taken on this GPU (scripts/reference-answers.sh)
            [ "$set" = solutions ] && ans=$(scripts/reference-answers.sh "$lab")
            build/$set/$lab/grade --set "$set" --answers "$ans" --report-dir "$dir" >"$dir.log" 2>&1
            ms=$(( ($(date +%s%N) - s) / 1000000 ))
            echo "$run,$set,$lab,$(awk -v m="$ms" 'BEGIN { printf "%.3f", m / 1000 }')" >>"$times"
            # Each limit's measurement, with the verdict of its test in this run.
            build/tools/wb-summary --tsv "$dir/results.json" 2>/dev/null | cut -f1,2 >"$dir.verdicts"
            awk -F, -v run="$run" -v set="$set" -v lab="$lab" -v vf="$dir.verdicts" '
                BEGIN { while ((getline l < vf) > 0) { split(l, a, "\t"); v[a[1]] = a[2] } }
                NR > 1 && ($8 == "ge" || $8 == "le" || $8 == "eq") {
                    print run "," set "," lab "," $3 "," $4 "," $5 "," $7 "," $8 "," v[$3] }' \
                "$dir/measurements.csv" >>"$raw"
            # Tests without a measurement still count for flips.
            awk -F'\t' -v run="$run" -v set="$set" -v lab="$lab" \
                '{ print run "," set "," lab "," $1 ",verdict,,,," $2 }' "$dir.verdicts" >>"$raw"
        done
    done
    echo "bench: run $run of $first..$last done"
done
runs=$(tail -n +2 "$times" | cut -d, -f1 | sort -u | wc -l)

# What the runs measured on, for the ledger entry: from the graders' own records (results.json),
# never from console text; rewritten by each sitting, so the date is the last one's.
# Only the labs graded now: under REPLACE=1 the other labs' folders are an earlier grader's.
j=
for lab in "$@"; do
    for f in "$out/runs/$first/solutions/$lab/results.json" "$out/runs/$first/labs/$lab/results.json"; do
        [ -f "$f" ] && { j=$f; break 2; }
    done
done
info() { [ -n "$j" ] && build/tools/wb-summary --info "$j" "$1" 2>/dev/null; }
arch=$(info arch) arch=${arch#sm_}
{
    echo "gpu=$(info gpu)"
    echo "sms=$(info sm_count)"
    echo "cc=${arch:+${arch%?}.${arch#"${arch%?}"}}"
    echo "driver=$(info driver)"
    echo "cuda_driver=$(info cuda_driver)"
    echo "cuda_runtime=$(info cuda_runtime)"
    echo "grader_version=$(info grader_version)"
    echo "date=$(date -u +%Y-%m-%d)"
    echo "restricted_sms=${SMS:-0}"
    echo "load=${LOAD:-0}"
    # A REPLACE=1 bench: the labs benched again, and what the other labs' rows come from.
    [ -n "$replaced" ] && echo "$replaced"
    [ "${REPLACE:-0}" = 1 ] &&
        echo "replaced=$* benched again $(date -u +%Y-%m-%d) by grader $(info grader_version), into a bench last written ${old_date:-on an unknown date} by grader ${old_version:-unknown}"
} >"$out/config.txt"
fi

# One row per (set, lab, test, metric): median, min, max, worst margin against the limit, flips.
build/tools/wb-bench-stats limits "$raw" >"$out/bench.csv" || exit 1

# The ledger entry of this GPU model (ledger/README.md): the settings of config.txt and the rows
# of bench.csv; then how it stands against the entry listed in ledger/, if any, or against the
# 25 % target alone (wb-bench-stats ledger). Never for a loaded GPU: the ledger vouches for an
# idle one.
entry=$out/ledger-entry.csv
rm -f "$entry" "$out/ledger.txt"
setting() { sed -n "s/^$1=//p" "$out/config.txt" 2>/dev/null | tail -1; }
if [ ! -s "$out/config.txt" ]; then
    echo "No ledger entry: $out/config.txt is missing (expected the GPU, driver and date of the runs; a bench from before the ledger: run make bench again)." >"$out/ledger.txt"
elif [ "$(setting load)" = 1 ]; then
    echo "No ledger entry: this bench ran with LOAD=1 (a shared GPU), and the ledger vouches for an idle one: run make bench without LOAD=1." >"$out/ledger.txt"
elif gpu=$(setting gpu); [ -z "$gpu" ] || [ "$gpu" = "no GPU" ]; then
    echo "No ledger entry: the runs saw no GPU (config.txt: gpu=$gpu; the graders' logs are in $out/runs/)." >"$out/ledger.txt"
else
    {
        echo "# ledger entry: make bench on one GPU model (format: ledger/README.md)"
        grep -E '^[a-z_]+=' "$out/config.txt" | grep -v -E '^(load|runs|labs)=' | sed 's/^/# /'
        echo "# runs=$runs"
        echo "# labs=$(tail -n +2 "$out/bench.csv" | cut -d, -f2 | sort -u | tr '\n' ' ' | sed 's/ $//')"
        cat "$out/bench.csv"
    } >"$entry"
    build/tools/wb-bench-stats ledger "${entry#"$PWD"/}" "${LEDGER_DIR:-ledger}" >"$out/ledger.txt" 2>&1 ||
        echo "bench: checking $entry against ${LEDGER_DIR:-ledger}/ failed (above)" >>"$out/ledger.txt"
fi

# The report.
flips=$(awk -F, 'NR > 1 && $4 == "verdict" { s += $14 } END { print s + 0 }' "$out/bench.csv")
{
    echo "# Grader bench"
    echo
    gpu=$(for j in "$out"/runs/1/solutions/*/results.json; do build/tools/wb-summary --info "$j" gpu 2>/dev/null && break; done)
    gpu=${gpu:-$(setting gpu)}
    echo "$(date -u +%Y-%m-%d), $runs runs of each set; GPU: ${gpu:-unknown}"
    [ -n "${SMS:-}" ] && echo "Every test confined to about $SMS SMs by a green context (SMS=$SMS); tests that cannot run so are SKIP, with the reason in runs/*/*/*.log."
    [ -n "$loadpid" ] && echo "; a second process loaded the GPU throughout"
    echo
    echo "## Limits: reference and stub against each limit"
    echo
    echo "| lab | test | metric | limit | reference median (min..max) | reference worst margin | stub median (min..max) | stub worst margin |"
    echo "|---|---|---|---|---|---|---|---|"
    awk -F, 'NR > 1 && $4 != "verdict" { k = $2 "|" $3 "|" $4; lim[k] = $6 " " $5
        txt = sprintf("%s (%s..%s)", $8, $9, $10); m = $11 "%"
        if ($1 == "solutions") { r[k] = txt; rm[k] = m } else { st[k] = txt; sm[k] = m }; keys[k] = 1 }
        END { for (k in keys) { split(k, a, "|")
            printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", a[1], a[2], a[3], lim[k],
                   (k in r) ? r[k] : "-", (k in rm) ? rm[k] : "-", (k in st) ? st[k] : "not reached", (k in sm) ? sm[k] : "-" } }' \
        "$out/bench.csv" | sort
    echo
    echo "A margin is how far the worst run is from the limit, on the passing side when positive."
    echo "Targets: reference at least +25 %, stub at most -25 % (or not graded)."
    echo
    echo "## Verdict flips"
    echo
    echo "$flips flip(s) over all tests of both sets (a test that passed in one run and failed in another)."
    awk -F, 'NR > 1 && $4 == "verdict" && $14 > 0 { printf "- %s %s %s: %d passes, %d fails\n", $1, $2, $3, $12, $13 }' "$out/bench.csv"
    rerun=$(awk -F, 'NR > 1 && $9 == "RERUN" && $5 == "verdict" { n++ } END { print n + 0 }' "$raw")
    echo
    echo "$rerun inconclusive verdict(s) (RERUN: a near miss too noisy to call, or a measurement taken while another process used the GPU; counted as fails above)."
    echo
    echo "## Grading time (seconds, after building)"
    echo
    echo "| lab | reference median | stub median |"
    echo "|---|---|---|"
    build/tools/wb-bench-stats times "$times" | awk -F, '{ printf "| %s | %s | %s |\n", $1, $2, $3 }'
    total=$(awk -F, 'NR > 1 && $2 == "solutions" { t[$1] += $4 } END { for (r in t) if (t[r] > m) m = t[r]; printf "%.1f", m }' "$times")
    echo
    echo "All labs of the reference, slowest run: $total s (target: under 60 s)."
    [ "$build_all" = -2 ] || { [ "$build_all" -ge 0 ] && echo "Building every lab of both sets from clean: $(awk -v m="$build_all" 'BEGIN { printf "%.1f", m / 1000 }') s with $(nproc) cores (target: under 3 minutes on 2 cores)." ||
        echo "Building from clean failed: see $out/build.log."; }
    echo
    echo "## Ledger of validated GPUs"
    echo
    echo '```'
    cat "$out/ledger.txt"
    echo '```'
} >"$out/report.md"
cat "$out/report.md"
