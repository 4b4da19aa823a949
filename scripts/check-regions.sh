#!/usr/bin/env bash
# check-regions.sh - each solution matches its stub outside the student regions,
# and both answers.txt files ask the same questions
set -u
status=0
for lab in "$@"; do
    for stub in labs/"$lab"/*.cu; do
        sol=solutions/$lab/${stub##*/}
        if [ ! -f "$sol" ]; then
            echo "FAIL  $sol is missing (solutions use the lab's file names)"; status=1; continue
        fi
        if ! diff -u "$stub" "$sol" >/dev/null 2>&1 &&
            ! diff -u --label "$stub" --label "$sol" \
                <(scripts/strip-student.sh "$stub") <(scripts/strip-student.sh "$sol") \
                >/tmp/wb-regions.$$ 2>&1; then
            echo "FAIL  $sol differs from $stub outside the student regions:"
            sed 's/^/        /' /tmp/wb-regions.$$ | head -20
            status=1
        else
            echo "PASS  $sol matches $stub outside the student regions"
        fi
        # Every TODO names this lab (a renumbering must not leave another lab's name behind).
        other=$(grep -ho 'TODO([^)]*)' "$stub" "$sol" | grep -v -F "TODO($lab)" | sort -u | tr '\n' ' ')
        if [ -n "$other" ]; then
            echo "FAIL  $stub or $sol: $other instead of TODO($lab)"; status=1
        fi
        n_stub=$(grep -c 'BEGIN STUDENT CODE' "$stub"); n_sol=$(grep -c 'BEGIN STUDENT CODE' "$sol")
        if [ "$n_stub" != "$n_sol" ]; then
            echo "FAIL  $stub has $n_stub student regions, $sol has $n_sol"; status=1
        fi
    done
    keys() { sed -n 's/^[[:space:]]*\([a-z0-9_]*\)[[:space:]]*=.*/\1/p' "$1" | sort; }
    if [ "$(keys labs/"$lab"/answers.txt)" != "$(keys solutions/"$lab"/answers.txt)" ]; then
        echo "FAIL  labs/$lab/answers.txt and solutions/$lab/answers.txt ask different questions"
        status=1
    fi
done
rm -f /tmp/wb-regions.$$
exit $status
