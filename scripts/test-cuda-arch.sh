#!/bin/sh
# test-cuda-arch.sh - the architecture choice: GPUs found, none found, flags
set -u
fail=0
expect() { # name, expected, actual
    if [ "$2" = "$3" ]; then echo "PASS  cuda-arch: $1"; else
        echo "FAIL  cuda-arch: $1: expected '$2', got '$3'"; fail=1; fi
}
expect "no GPU gives the explicit list" "sm_75 sm_80 sm_86 sm_89 sm_90" "$(WB_GPU_CAPS= scripts/cuda-arch.sh)"
expect "one H100" "sm_90" "$(WB_GPU_CAPS='9.0' scripts/cuda-arch.sh)"
expect "two kinds, repeats dropped" "sm_90 sm_86" "$(WB_GPU_CAPS='9.0 8.6 9.0' scripts/cuda-arch.sh)"
expect "garbage ignored" "sm_75 sm_80 sm_86 sm_89 sm_90" "$(WB_GPU_CAPS='No devices were found' scripts/cuda-arch.sh)"
expect "gencode with PTX of the last" \
    "-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90" \
    "$(scripts/cuda-arch.sh --gencode sm_80 90)"
scripts/cuda-arch.sh --gencode 'sm_9;0' >/dev/null 2>&1
expect "bad name refused" "2" "$?"
exit $fail
