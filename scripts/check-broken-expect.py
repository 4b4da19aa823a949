#!/usr/bin/env python3
# check-broken-expect.py - the expectations of each broken variant agree with its grader's dependencies
"""A test whose prerequisite fails is not graded, and counts as failed. So a variant
(tests/broken/LAB/NAME.cu) that expects a test to FAIL must expect every test that
requires it, directly or through others, to FAIL as well (not ANY: that verdict is
certain); otherwise the variant is found wrong only on a GPU, where test-broken.sh
grades it. This check reads the dependencies from `grade --list` and needs no GPU.
  scripts/check-broken-expect.py LAB...      (the graders in build/solutions/LAB/grade)
  scripts/check-broken-expect.py --self-test (the rule on made-up tables; no build)
"""
import os
import re
import subprocess
import sys


def requirements(lab):
    """{test: set of the tests it requires} from the lab's `grade --list`."""
    out = subprocess.run([f"build/solutions/{lab}/grade", "--list"], check=True,
                         capture_output=True, text=True).stdout
    req = {}
    for line in out.splitlines():
        words = line.split()
        if not words or words[0] == "total":
            continue
        req[words[0]] = set(words[words.index("requires") + 1:]) if "requires" in words else set()
    return req


def expectations(src):
    """{test: verdict} from the variant's `expect:` lines."""
    with open(src, encoding="utf-8") as f:
        return {m.group(1): m.group(2)
                for m in re.finditer(r"expect:\s*(\S+)\s+([A-Z]+)", f.read())}


def problems(req, exp):
    """What is wrong with a variant's expectations exp, given the table's requirements req."""
    out = []
    failed = {t for t, v in exp.items() if v == "FAIL"}
    # Every test that a failing test leaves ungraded, however many steps away.
    ungraded, grew = set(failed), True
    while grew:
        more = {t for t, r in req.items() if r & ungraded} - ungraded
        ungraded |= more
        grew = bool(more)
    for t in sorted(ungraded - failed):  # ANY is for a verdict the GPU's timing decides
        cause = " ".join(sorted(req[t] & ungraded))
        out.append(f"{t} requires {cause}, which is expected to fail, so {t} is not graded "
                   f"there, certainly a FAIL; expected a line 'expect: {t} FAIL not graded'")
    for t in sorted(set(exp) - set(req)):
        out.append(f"it expects {t}, which the grader's table (grade --list) does not have")
    return out


def self_test():
    req = {"a": set(), "b": {"a"}, "c": {"b"}, "d": set(), "q": {"d"}}
    cases = [({"a": "FAIL", "b": "FAIL", "c": "FAIL"}, 0),   # the whole chain: right
             ({"a": "FAIL", "b": "FAIL"}, 1),                 # c, two steps away, missing
             ({"a": "FAIL", "b": "ANY", "c": "FAIL"}, 1),     # b is certain, not ANY
             ({"d": "FAIL"}, 1),                              # q missing
             ({"d": "FAIL", "q": "FAIL", "zz": "FAIL"}, 1),   # a test the table lacks
             ({"b": "FAIL", "c": "FAIL"}, 0),                 # a's verdict is a's own
             ({}, 0)]
    bad = 0
    for exp, want in cases:
        got = len(problems(req, exp))
        if (got > 0) != bool(want):
            print(f"FAIL  check-broken-expect self-test: {exp} gave {got} problem(s), expected "
                  f"{'some' if want else 'none'}")
            bad = 1
    if not bad:
        print(f"PASS  check-broken-expect self-test: {len(cases)} cases")
    return bad


def main(labs):
    bad = 0
    for lab in labs:
        folder = f"tests/broken/{lab}"
        if not os.path.isdir(folder):
            continue
        req = requirements(lab)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".cu") or name.startswith("compile_"):
                continue
            exp = expectations(os.path.join(folder, name))
            for line in problems(req, exp):
                print(f"FAIL  broken/{lab}/{name[:-3]}: {line} (see {folder}/{name})")
                bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(self_test() if sys.argv[1:] == ["--self-test"] else main(sys.argv[1:]))
