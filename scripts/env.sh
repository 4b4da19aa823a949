#!/bin/sh
# env.sh - what `make env` prints: GPU, driver, toolkit, Check, optional tools
nvcc=${1:-nvcc}; arch=${2:-}
echo "toolkit:   $("$nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/CUDA \1/p') ($nvcc)"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    nvidia-smi --query-gpu=index,name,compute_cap,driver_version,memory.total \
        --format=csv,noheader | sed 's/^/gpu:       /'
else
    echo "gpu:       none found (nvidia-smi absent or no device): GPU tests will be skipped"
fi
echo "build for: $arch"
echo "check:     $(pkg-config --modversion check 2>/dev/null || echo 'not known to pkg-config')"
echo "json-c:    $(pkg-config --modversion json-c 2>/dev/null || echo 'not known to pkg-config')"
asan=$(g++ -print-file-name=libasan.so 2>/dev/null)
case $asan in
/*) [ -e "$asan" ] && echo "libasan:   $asan" || echo "libasan:   absent: sanitizer.host is skipped (install libasan8)" ;;
*) echo "libasan:   absent: sanitizer.host is skipped (install g++, or libasan8)" ;;
esac
[ "$(ulimit -v)" = unlimited ] || echo "ulimit -v: $(ulimit -v) KiB: sanitizer.host is skipped (AddressSanitizer needs it unlimited)"
for t in compute-sanitizer ncu cuobjdump; do
    p=$(command -v $t 2>/dev/null)
    [ -z "$p" ] && [ -x "$(dirname "$nvcc")/$t" ] && p="$(dirname "$nvcc")/$t (not on PATH)"
    echo "$(printf '%-10s' "$t:") ${p:-absent: the tests that use it are skipped}"
done
