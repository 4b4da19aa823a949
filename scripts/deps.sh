#!/bin/sh
# deps.sh - the build's prerequisites: `check` says what is missing and how to install it; `install` installs them
#   scripts/deps.sh check      (make runs it before building; CC, CFLAGS_DEPS, LIBS_DEPS from make)
#   scripts/deps.sh install    (make setup: Debian/Ubuntu packages, with sudo when not root)
set -u
packages="check libsubunit-dev pkg-config libjson-c-dev libseccomp-dev make gcc g++"
how() {
    if command -v apt-get >/dev/null 2>&1; then
        echo "  install them with: make setup   (or: sudo apt-get install $packages)"
    else
        echo "  install Check 0.15+, json-c 0.15+, libseccomp 2.5+ and pkg-config with your system's package manager"
    fi
}
case ${1:-check} in
check)
    cc=${CC:-cc}
    missing=""
    # Each library alone, so the message names the one that is missing.
    for lib in "check.h:Check" "json-c/json.h:json-c" "seccomp.h:libseccomp"; do
        hdr=${lib%%:*}; name=${lib#*:}
        printf '#include <%s>\nint main(void) { return 0; }\n' "$hdr" |
            $cc ${CFLAGS_DEPS:-} -x c - -fsyntax-only 2>/dev/null || missing="$missing $name ($hdr)"
    done
    if [ -z "$missing" ]; then
        printf '#include <check.h>\n#include <json-c/json.h>\n#include <seccomp.h>\nint main(void) { srunner_free(0); json_object_put(0); seccomp_release(0); return 0; }\n' |
            $cc ${CFLAGS_DEPS:-} -x c - -o /dev/null ${LIBS_DEPS:-} 2>/dev/null ||
            missing=" the Check, json-c or libseccomp library (headers found, linking failed: is libsubunit-dev installed?)"
    fi
    if [ -n "$missing" ]; then
        echo "missing prerequisites:$missing"
        command -v pkg-config >/dev/null 2>&1 || echo "  (pkg-config is missing too)"
        how
        exit 1
    fi
    ;;
install)
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "make setup knows Debian and Ubuntu (apt-get) only:"; how; exit 1
    fi
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update && $sudo apt-get install -y --no-install-recommends $packages || exit 1
    echo "installed: $packages"
    echo "the CUDA Toolkit is not installed by this: https://developer.nvidia.com/cuda-downloads"
    ;;
*)
    echo "usage: $0 check|install" >&2; exit 2 ;;
esac
