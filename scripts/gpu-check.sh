#!/bin/sh
# gpu-check.sh - on a GPU machine: build, `make check`, grade both sets, keep the logs in DIR
#   scripts/gpu-check.sh DIR          (LABS="00-device-query ..." limits the labs)
set -u
out=${1:-build/gpu-check}
mkdir -p "$out"
export PATH="${CUDA_PATH:-/usr/local/cuda}/bin:$PATH" NO_COLOR=1
{ nvidia-smi; make env; } >"$out/env.txt" 2>&1
start=$(date +%s)
make -j"$(nproc)" all >"$out/build.log" 2>&1 || { echo "build failed"; tail -20 "$out/build.log"; }
echo "build from clean: $(( $(date +%s) - start )) s" >>"$out/env.txt"
s=$(date +%s)
make check >"$out/check.log" 2>&1; echo "make check exit $?, $(( $(date +%s) - s )) s" >>"$out/check.log"
for set in solutions labs; do
    s=$(date +%s%N)
    make grade SET=$set >"$out/grade-$set.log" 2>&1; rc=$?
    echo "make grade SET=$set: exit $rc, $(( ($(date +%s%N) - s) / 1000000 )) ms" >>"$out/env.txt"
done
cat build/report/solutions/*/measurements.csv build/report/labs/*/measurements.csv >"$out/measurements.csv" 2>/dev/null
cat "$out/env.txt"; grep -E '^(PASS|FAIL|SKIP|NOTE)|make check' "$out/check.log"
