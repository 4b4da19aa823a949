#!/bin/sh
# cuda-arch.sh - choose the GPU architectures to build for, and turn them into nvcc flags
#
#   cuda-arch.sh                 print the architectures: those of the GPUs present, else the list
#   cuda-arch.sh --gencode A...  print nvcc -gencode flags for architectures A (sm_90 or 90)
#
# Without a GPU, -arch=native silently builds sm_75 only, so the fallback is an
# explicit list. WB_GPU_CAPS="9.0 8.6" stands in for nvidia-smi (used by the tests).
set -eu
FALLBACK="sm_75 sm_80 sm_86 sm_89 sm_90"

detect() {
    if [ -n "${WB_GPU_CAPS+set}" ]; then
        caps=$WB_GPU_CAPS
    else
        caps=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null || true)
    fi
    archs=""
    for c in $caps; do
        case $c in
        [0-9]*.[0-9]*) a="sm_$(echo "$c" | tr -d .)" ;;
        *) continue ;;
        esac
        case " $archs " in *" $a "*) ;; *) archs="$archs $a" ;; esac
    done
    if [ -n "$archs" ]; then echo $archs; else echo "$FALLBACK"; fi
}

gencode() {
    last=""
    for a in "$@"; do
        n=${a#sm_}
        n=${n#compute_}
        case $n in
        *[!0-9a-z]* | "") echo "cuda-arch.sh: bad architecture '$a'" >&2; exit 2 ;;
        esac
        printf -- '-gencode arch=compute_%s,code=sm_%s ' "$n" "$n"
        last=$n
    done
    # PTX of the newest one, so a newer GPU can still run the code (JIT).
    [ -n "$last" ] && printf -- '-gencode arch=compute_%s,code=compute_%s' "$last" "$last"
    echo
}

case "${1-}" in
--gencode) shift; gencode "$@" ;;
"") detect ;;
*) echo "usage: cuda-arch.sh [--gencode ARCH...]" >&2; exit 2 ;;
esac
