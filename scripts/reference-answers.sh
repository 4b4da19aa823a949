#!/usr/bin/env bash
# reference-answers.sh - the reference's answers.txt for the GPU here: a copy of
# solutions/LAB/answers.txt in which the readings a student takes with the profiler on their own
# GPU (the `my_` lines that solutions/LAB/read-profiler.sh prints) are taken again on this one, with
# the commands the lab's README gives. The other lines are kept as they are. Used where the
# reference is graded (scripts/check-grades.sh, scripts/bench.sh); a handout has no solutions/,
# and its students take their own readings.
# usage: scripts/reference-answers.sh LAB   prints the path of the answers file to grade with
set -u
lab=$1
src=solutions/$lab/answers.txt
reader=solutions/$lab/read-profiler.sh
# Readings need a GPU (and ncu): without one the file is used as it is.
if [ ! -x "$reader" ] || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "$src"
    exit 0
fi
out=build/answers/$lab
mkdir -p "$out"
# key = value lines; nothing where ncu is missing or the counters are closed (the grader then
# skips those questions, whatever the answer says); a run that hangs is stopped after 10 minutes.
to=$(command -v timeout >/dev/null && echo "timeout 600")
$to "$reader" >"$out/readings.txt" 2>"$out/readings.log" || true
awk -F' = ' 'FILENAME == ARGV[1] { if (NF == 2) v[$1] = $2; next }
    { split($0, kv, " = ") } (kv[1] in v) && $0 !~ /^#/ { print kv[1] " = " v[kv[1]]; next } { print }' \
    "$out/readings.txt" "$src" >"$out/answers.txt"
echo "$out/answers.txt"
