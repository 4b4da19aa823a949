#!/usr/bin/env bash
# test-mutate.sh - the mutation engine without a GPU: every lab gets mutants, each one change
# inside one student region, with stable ids, and the core operators all fire somewhere
#   scripts/test-mutate.sh [LAB...]      (no build, no grading: scripts/mutate.py --self-test)
set -u
if [ ! -d solutions ]; then
    echo "SKIP  mutate: no solutions/ here (a handout)"; exit 0
fi
exec python3 scripts/mutate.py --self-test "$@"
