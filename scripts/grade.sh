#!/bin/sh
# grade.sh - build and run the grader of each lab named, then print the summary
# Called by `make grade`; SET=labs|solutions chooses the sources. A lab that
# does not compile is still graded: its tests fail with the compiler's message.
set -u
set=${SET:-labs}
make=${MAKE:-make}
# Every lab's code and grader are built before any student code runs: code loaded by one lab's
# tests cannot change what grades the next (the sources of a later grader, say).
built=
for lab in "$@"; do
    dir=build/$set/$lab
    mkdir -p "$dir"
    log=$dir/build.log
    if ! $make --no-print-directory "$dir/libstudent.so" >"$log" 2>&1; then
        rm -f "$dir/libstudent.so"
        echo "  $set/$lab does not compile; its tests will fail. First lines of $log:"
        # The compiler quotes the student's file: its control characters (terminal escapes) as '?'.
        grep -m 3 -i -e error -e 'out of memory' "$log" | LC_ALL=C tr '\000-\011\013-\037\177' '[?*]' | sed 's/^/    /'
    fi
    # The same file built for AddressSanitizer, where the lab's grader has a test that runs it
    # (sanitizer.host, WB_ASAN_OF); that test says what went wrong when it did not build, and
    # SKIPs without libasan.
    if grep -qs WB_ASAN_OF grader/"$lab"/*.c && [ -f "$dir/libstudent.so" ] &&
        ! $make --no-print-directory "$dir/libstudent.asan.so" >"$dir/build-asan.log" 2>&1; then
        rm -f "$dir/libstudent.asan.so"
    fi
    if ! $make --no-print-directory "$dir/grade" >"$dir/grader-build.log" 2>&1; then
        echo "  the grader of $lab did not build: see $dir/grader-build.log"
        continue
    fi
    built="$built $lab"
done
for lab in $built; do
    dir=build/$set/$lab
    "$dir/grade" --set "$set" --build-log "$dir/build.log"
    # 2: a usage error (a bad SEED=, DEVICE=, ...) or a table the grader refuses: stop here.
    [ $? = 2 ] && exit 2
    echo
done
exec build/tools/wb-summary "$set" "$@"
