#!/usr/bin/env python3
# mutate.py - mutation testing of the graders: one-change mutants of each lab's reference, built and graded
"""Mutation testing of the workbook's graders (`make mutate [LAB=...]`).

Each mutant is the lab's reference (solutions/LAB/TOPIC.cu) with ONE change at ONE site
inside a student region, made by a named operator. It is written whole to
build/mutate/LAB/ID.cu (line numbers stay the reference's), built like a student's library
(the Makefile's rule for build/mutate/%.so), and graded with the lab's grader, the same SEED
as the unmutated reference. A mutant is killed when a test the reference passes fails.
  scripts/mutate.py [LAB...]       build, grade, write build/mutate/report.md and mutants.csv
  scripts/mutate.py --list [LAB...]      print the mutants only (no build)
  scripts/mutate.py --self-test [LAB...] check the generator (no build, no GPU)
Environment: SEED (default 1), MUTANTS_PER_OP (default 6), MUTATE_TIMEOUT (seconds per
grader run, default 900), JOBS (parallel builds, default the CPU count), MUTATE_ONLY
(space-separated mutant ids), MUTATE_EQUIVALENTS (another equivalents file),
CK_TIMEOUT_MULTIPLIER (default 0.5, as for the broken variants). Mutants are graded with
--first-fail: the first test that fails kills them, and the rest do not run.
"""
import concurrent.futures
import csv
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = "build/mutate"
EQUIV = os.environ.get("MUTATE_EQUIVALENTS", "tests/mutate/equivalent.txt")
CAP = int(os.environ.get("MUTANTS_PER_OP", "6"))
SEED = os.environ.get("SEED", "1")
TIMEOUT = int(os.environ.get("MUTATE_TIMEOUT", "900"))
BEGIN, END = "/* BEGIN STUDENT CODE */", "/* END STUDENT CODE */"
REQUIRED_OPS = ["barrier_remove", "bound_off_by_one", "swap_xy", "swap_min_max", "stream_to_default"]

# What an H100 SXM (the grading GPU) reports: the literal a hard-coding student types in.
H100_ATTR = {
    "MultiProcessorCount": "132", "ClockRate": "1980000", "MaxThreadsPerMultiProcessor": "2048",
    "L2CacheSize": "52428800", "ComputeCapabilityMajor": "9", "ComputeCapabilityMinor": "0",
    "MaxRegistersPerMultiprocessor": "65536", "MaxSharedMemoryPerMultiprocessor": "233472",
    "MaxSharedMemoryPerBlock": "49152", "MaxSharedMemoryPerBlockOptin": "232448",
    "MaxBlocksPerMultiprocessor": "32", "MaxThreadsPerBlock": "1024", "WarpSize": "32",
    "MemoryClockRate": "2619000", "GlobalMemoryBusWidth": "5120", "MaxRegistersPerBlock": "65536",
}
H100_PROP = {
    "multiProcessorCount": "132", "clockRate": "1980000", "maxThreadsPerMultiProcessor": "2048",
    "l2CacheSize": "52428800", "totalGlobalMem": "85045477376ULL", "major": "9", "minor": "0",
    "sharedMemPerMultiprocessor": "233472", "regsPerMultiprocessor": "65536", "warpSize": "32",
}


# ------------------------------------------------------------------ source text

def mask_code(text, keep_strings=False):
    """The text with comments and (unless keep_strings) the insides of string and character
    literals blanked (same length, newlines kept), so that operators match code only."""
    out, i, n = list(text), 0, len(text)
    while i < n:
        c, nx = text[i], text[i + 1] if i + 1 < n else ""
        if c == "/" and nx in "*/":
            end = text.find("*/", i + 2) + 2 if nx == "*" else text.find("\n", i)
            end = n if end < 2 or end == -1 else end
            for k in range(i, end):
                out[k] = "\n" if text[k] == "\n" else " "
            i = end
        elif c in "\"'":
            k = i + 1
            while k < n and text[k] != c and text[k] != "\n":
                k += 2 if text[k] == "\\" else 1
            for m in range(i + 1, min(k, n)):
                out[m] = text[m] if keep_strings else " "
            i = k + 1
        else:
            i += 1
    return "".join(out)


def student_regions(lines):
    """(first, last) 0-based line indexes of each region's interior, markers excluded;
    raises ValueError on an unbalanced marker."""
    regions, start = [], None
    for i, line in enumerate(lines):
        if BEGIN in line:
            if start is not None:
                raise ValueError(f"line {i + 1}: BEGIN inside a region")
            start = i + 1
        elif END in line:
            if start is None:
                raise ValueError(f"line {i + 1}: END outside a region")
            regions.append((start, i - 1))
            start = None
    if start is not None:
        raise ValueError("a region is never closed")
    return regions


def top_defs(masked_lines):
    """Top-level definitions: (name, first, last, header) with 0-based lines; functions,
    variables and #defines, found by brace depth at column 0."""
    defs, depth, cur = [], 0, None
    for i, line in enumerate(masked_lines):
        if depth == 0 and cur is None:
            m = re.match(r"#\s*define\s+(\w+)", line)
            if m:
                defs.append((m.group(1), i, i, line))
                continue
            if line[:1].strip() and not line.startswith(("#", "}")):
                cur = [i, ""]
        if cur is not None and depth == 0:
            cur[1] += line + " "
        depth += line.count("{") - line.count("}")
        if cur is not None and depth == 0 and re.search(r"[;}]\s*$", line):
            defs.append((def_name(cur[1]), cur[0], i, cur[1]))
            cur = None
    return defs


def def_name(header):
    """The name a definition's header declares: the function before its parameter list,
    else the variable before '=', '[' or ';'."""
    head = header.split("{")[0]
    # a variable whose initializer calls a macro or function ("t[] = TABLE(k);"): its own name
    eq = re.search(r"(?<![=!<>])=(?!=)", head)
    if eq and not re.search(r"\w+\s*\(", head[:eq.start()]):
        m = re.search(r"(\w+)\s*(\[[^\]]*\])?\s*$", head[:eq.start()].strip())
        if m:
            return m.group(1)
    skip = {"__launch_bounds__", "__attribute__", "__align__", "__typeof__", "sizeof", "CLIFF_BOUNDS"}
    for m in re.finditer(r"(\w+)\s*\(", head):
        if m.group(1) not in skip:
            return m.group(1)
    m = re.search(r"(\w+)\s*(\[[^\]]*\])?\s*(=|;|$)", head.strip())
    return m.group(1) if m else "?"


def enclosing_def(defs, line):
    """The top-level definition holding a line, or None."""
    for d in defs:
        if d[1] <= line <= d[2]:
            return d
    return None


# ------------------------------------------------------------------ the operators
# Each operator takes a Source and yields candidate hunks (first line, old lines, new lines):
# one contiguous change inside one student region.

class Source:
    """A lab's reference: its lines, the same with comments blanked, regions, definitions."""

    def __init__(self, path):
        self.path = path
        with open(path) as f:
            self.text = f.read()
        self.lines = self.text.split("\n")
        self.masked = mask_code(self.text).split("\n")
        self.regions = student_regions(self.lines)
        self.defs = top_defs(self.masked)

    def region_lines(self):
        """Every line index inside a student region, in order."""
        return [i for a, b in self.regions for i in range(a, b + 1)]

    def region_of(self, line):
        """The index of the region holding a line, or -1."""
        return next((k for k, (a, b) in enumerate(self.regions) if a <= line <= b), -1)

    def is_device(self, line):
        """Whether the line lies in device code (a __global__ or __device__ definition)."""
        d = enclosing_def(self.defs, line)
        return bool(d) and re.search(r"__(global|device)__", d[3]) is not None


def sub_at(s, line, m, new, group=0):
    """A one-line hunk replacing match m (its group) on line `line` of s."""
    old = s.lines[line]
    a, b = m.span(group)
    return (line, [old], [old[:a] + new + old[b:]])


def op_barrier_remove(s):
    """Remove a barrier: __syncthreads()/__syncwarp()/__pipeline_wait_prior() statements,
    and a host-side synchronisation call replaced by cudaSuccess."""
    for i in s.region_lines():
        for m in re.finditer(r"\b(__syncthreads|__syncwarp|__pipeline_wait_prior)\s*\([^;]*\)\s*;", s.masked[i]):
            yield sub_at(s, i, m, "")
        for m in re.finditer(r"\bcuda(Device|Stream|Event)Synchronize\s*\([^()]*\)", s.masked[i]):
            yield sub_at(s, i, m, "cudaSuccess")


def op_barrier_move(s):
    """Move a line that is only __syncthreads(); one statement up or down (swapped with
    the neighbouring line when that is a simple statement or a closing brace)."""
    for i in s.region_lines():
        if s.masked[i].strip() != "__syncthreads();":
            continue
        for j in (i - 1, i + 1):
            nb = s.masked[j].strip() if s.region_of(j) == s.region_of(i) else ""
            ctl = s.masked[min(i, j) - 1].strip()  # the neighbour is the body of a brace-less for
            if re.match(r"for\b", ctl) and not ctl.endswith(("{", ";")):
                continue
            if nb and (nb.endswith(";") or nb == "}") and not nb.startswith(("for", "if", "while")):
                a, b = min(i, j), max(i, j)
                yield (a, [s.lines[a], s.lines[b]], [s.lines[b], s.lines[a]])


def op_bound_off_by_one(s):
    """A bound off by one: < <-> <=, > <-> >= (not shifts, arrows, launches), or a + 1 / - 1
    dropped (not the - 1 of a ceiling division)."""
    flip = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
    for i in s.region_lines():
        if s.masked[i].lstrip().startswith("#"):
            continue
        for m in re.finditer(r"(?<![<>=!\-])(<=|>=|<|>)(?![<>=])", s.masked[i]):
            yield sub_at(s, i, m, flip[m.group(1)])
        for m in re.finditer(r"(?<=[\w)\]])\s+[+-]\s*1\b(?![.\w])(?!\s*\)\s*/)", s.masked[i]):
            if not re.search(r"\b(return|case)$", s.masked[i][:m.start()]):  # a binary + or - only
                yield sub_at(s, i, m, "")


def _swap_dims(s, a, b):
    """One member access .a made .b or .b made .a."""
    for i in s.region_lines():
        for m in re.finditer(r"(?<=\.)(%s|%s)\b" % (a, b), s.masked[i]):
            yield sub_at(s, i, m, b if m.group(1) == a else a)


def op_swap_xy(s):
    """Swap x and y at one member access (threadIdx.x -> threadIdx.y, b.y -> b.x)."""
    yield from _swap_dims(s, "x", "y")


def op_swap_yz(s):
    """Swap y and z at one member access."""
    yield from _swap_dims(s, "y", "z")


def op_runtime_to_literal(s):
    """A value read from the runtime replaced by the H100's literal: a direct
    cudaDeviceGetAttribute, a cudaDeviceProp field, a device count, or the assignment from a
    variable that a table of attributes filled."""
    table = {}
    for i in s.region_lines():
        line = s.masked[i]
        for m in re.finditer(r"\bcudaDeviceGetAttribute\s*\(\s*(&?)([\w.\->\[\]]+)\s*,\s*cudaDevAttr(\w+)\s*,\s*\w+\s*\)", line):
            if m.group(3) in H100_ATTR:
                var = m.group(2) if m.group(1) else "*" + m.group(2)
                yield sub_at(s, i, m, f"({var} = {H100_ATTR[m.group(3)]}, cudaSuccess)")
        for m in re.finditer(r"\bcudaGetDeviceCount\s*\(\s*(&?)(\w+)\s*\)", line):
            yield sub_at(s, i, m, f"({m.group(2) if m.group(1) else '*' + m.group(2)} = 1, cudaSuccess)")
        for m in re.finditer(r"\b\w+\.(\w+)\b", line):
            if m.group(1) in H100_PROP and re.search(r"\bcudaDeviceProp\b", "\n".join(s.masked[:i])):
                yield sub_at(s, i, m, H100_PROP[m.group(1)])
        for m in re.finditer(r"\{\s*&(\w+)\s*,\s*cudaDevAttr(\w+)\s*\}", line):
            table[m.group(1)] = H100_ATTR.get(m.group(2))
        m = re.match(r"\s*[\w.\->\[\]]+\s*=\s*(\([\w ]+\)\s*)?(\w+)\s*;", line)
        if m and table.get(m.group(2)):
            yield sub_at(s, i, m, table[m.group(2)], 2)


def _call_args(line, open_paren):
    """The argument strings of the call whose '(' is at open_paren, and the index of its ')'."""
    depth, args, start = 0, [], open_paren + 1
    for k in range(open_paren, len(line)):
        c = line[k]
        depth += c in "(["
        depth -= c in ")]"
        if depth == 1 and c == ",":
            args.append(line[start:k].strip())
            start = k + 1
        if depth == 0:
            args.append(line[start:k].strip())
            return args, k
    return None, -1


def op_atomic_to_plain(s):
    """An atomic update made a plain read-modify-write: atomicAdd(&x, v) -> x += v, ..."""
    ops = {"atomicAdd": "+=", "atomicSub": "-=", "atomicOr": "|=", "atomicAnd": "&=",
           "atomicXor": "^=", "atomicExch": "="}
    for i in s.region_lines():
        for m in re.finditer(r"\b(atomic\w+)\s*\(", s.masked[i]):
            args, end = _call_args(s.masked[i], m.end() - 1)
            if m.group(1) in ops and args and len(args) == 2 and args[0].startswith("&"):
                old = s.lines[i]
                new = f"{args[0][1:]} {ops[m.group(1)]} {old[m.end():end].split(',', 1)[1].strip()}"
                yield (i, [old], [old[:m.start()] + new + old[end + 1:]])


def op_drop_warmup(s):
    """Drop a warm-up: a WARMUP constant made 0, a loop bounded by a warm-up count made to
    run zero times, a loop whose comment says its first lap warms up started at 1, and a
    call to a warm-up function replaced by cudaSuccess."""
    for i in s.region_lines():
        line, raw = s.masked[i], s.lines[i]
        m = re.match(r"\s*#\s*define\s+\w*WARM\w*\s+(\S+)", line, re.I)
        if m:
            yield sub_at(s, i, m, "0", 1)
        m = re.search(r"\bfor\s*\([^;]*;[^;]*?\b(\w*warm\w*)\b[^;]*;", line, re.I)
        if m:
            yield sub_at(s, i, m, "0", 1)
        near = " ".join(s.lines[max(i - 2, 0):i + 1]).lower()
        m = re.search(r"\bfor\s*\(\s*int\s+\w+\s*=\s*(0)\s*;", line)
        if m and "warm" in near and "warm" not in line.lower():
            yield sub_at(s, i, m, "1", 1)
        m = re.search(r"\b\w*warm\w*\s*\(\s*\)", line, re.I)
        if m and not re.search(r"\b(void|static|cudaError_t)\s+\w*warm", line, re.I):
            yield sub_at(s, i, m, "cudaSuccess")


def _streams(s, line):
    """The cudaStream_t names declared in the definition holding the line, up to it."""
    d = enclosing_def(s.defs, line)
    text = " ".join(s.masked[d[1]:line + 1]) if d else ""
    return set(re.findall(r"\bcudaStream_t\s+(\w+)", text))


def op_stream_to_default(s):
    """A launch or an asynchronous call moved from the given stream to stream 0."""
    for i in s.region_lines():
        names = _streams(s, i)
        if not names:
            continue
        pat = r"(?<=[,(])\s*(%s)\s*(?=[,)]|>>>)" % "|".join(sorted(names))
        for m in re.finditer(pat, s.masked[i]):
            if not re.search(r"cudaStream(Create\w*|Destroy|BeginCapture|EndCapture)\s*\([^()]*$", s.masked[i][:m.start()]):
                yield sub_at(s, i, m, "0", 1)


def op_default_to_stream(s):
    """A launch that names no stream, in a function given one, put on that stream."""
    for i in s.region_lines():
        names = sorted(_streams(s, i))
        for m in re.finditer(r"<<<([^<>]*)>>>", s.masked[i]):
            args = [a for a in m.group(1).split(",")]
            if names and len(args) in (2, 3):
                extra = (", 0" if len(args) == 2 else "") + ", " + names[0]
                yield sub_at(s, i, m, m.group(1) + extra, 1)


def op_halve_trip(s):
    """A loop's trip count halved: for (...; i < N; ...) -> i < (N) / 2."""
    for i in s.region_lines():
        m = re.search(r"\bfor\s*\([^;]*;\s*[\w.\->\[\]()+* ]*?(<=?)\s*([^;&|]+?)\s*(?=;|&&|\|\|)", s.masked[i])
        if m:
            yield sub_at(s, i, m, f"({m.group(2)}) / 2", 2)


def op_ceil_floor(s):
    """Integer ceiling made a floor, (a + b - 1) / b -> (a) / b, and a plain integer division
    of counts made a ceiling, a / b -> (a + b - 1) / b."""
    for i in s.region_lines():
        line = s.masked[i]
        for m in re.finditer(r"\((?P<a>[^()]+?)\s*\+\s*(?P<b>[\w.\->]+)\s*-\s*1\s*\)\s*/\s*(?P=b)\b", line):
            yield sub_at(s, i, m, f"({m.group('a')}) / {m.group('b')}")
        if re.search(r"double|float|\d\.\d|\d\.\s|1e\d|sizeof|\*\s*[\w.\->]+\s*/", line):
            continue
        for m in re.finditer(r"(?<![\w.>)+\-] )(?<![\w.>)])([A-Za-z_][\w.\->]*)\s*/\s*([A-Za-z_][\w.\->]*)\b(?!\s*[(\[.])", line):
            if "- 1" not in line[max(m.start() - 12, 0):m.start()]:
                a, b = m.group(1), m.group(2)
                yield sub_at(s, i, m, f"({a} + {b} - 1) / {b}")


def op_swap_min_max(s):
    """min <-> max (and fminf/fmaxf, fmin/fmax), and a ternary maximum made a minimum."""
    swap = {"min": "max", "max": "min", "fminf": "fmaxf", "fmaxf": "fminf", "fmin": "fmax", "fmax": "fmin"}
    for i in s.region_lines():
        for m in re.finditer(r"\b(min|max|fminf|fmaxf|fmin|fmax)\s*(?=\()", s.masked[i]):
            yield sub_at(s, i, m, swap[m.group(1)], 1)
        for m in re.finditer(r"\b(\w+)\s*([<>])\s*(\w+)\s*\?\s*(\w+)\s*:\s*(\w+)", s.masked[i]):
            if {m.group(1), m.group(3)} == {m.group(4), m.group(5)}:
                yield sub_at(s, i, m, "<" if m.group(2) == ">" else ">", 2)
        # if (x < n) n = x;  (a running minimum) -> a running maximum
        m = re.search(r"\bif\s*\(\s*([\w.\->]+)\s*([<>])\s*(\w+)\s*\)", s.masked[i])
        nxt = s.masked[i + 1] if i + 1 < len(s.masked) else ""
        if m and re.match(r"\s*%s\s*=\s*[^;]*\b%s\s*;" % (re.escape(m.group(3)), re.escape(m.group(1))), nxt):
            yield sub_at(s, i, m, "<" if m.group(2) == ">" else ">", 2)


def op_remove_padding(s):
    """Remove shared-memory padding: '+ 1]' in a __shared__ array, or '+ PAD'/'+ padding'."""
    for i in s.region_lines():
        line = s.masked[i]
        if "__shared__" in line:
            for m in re.finditer(r"\s*\+\s*1\s*(?=\])", line):
                yield sub_at(s, i, m, "")
        for m in re.finditer(r"\s*\+\s*(pad\w*|PAD\w*)\b", line):
            yield sub_at(s, i, m, "")


def _thread_vars(s, line):
    """Names assigned from threadIdx in the definition holding the line (and t, tid, lane)."""
    d = enclosing_def(s.defs, line)
    text = " ".join(s.masked[d[1]:line]) if d else ""
    return {"t", "tid", "lane"} | set(re.findall(r"\b(\w+)\s*=\s*[^;]*threadIdx", text))


def op_sync_in_branch(s):
    """Insert __syncthreads(); inside the body of an `if` on the thread's index (device code)."""
    for i in s.region_lines():
        m = re.match(r"(\s*)(?:else\s+)?if\s*\((.*)\)\s*(\{?)\s*$", s.masked[i])
        if not m or not s.is_device(i):
            continue
        ids = set(re.findall(r"\b\w+\b", m.group(2)))
        if "threadIdx" not in m.group(2) and not ids & _thread_vars(s, i):
            continue
        if m.group(3):
            yield (i, [s.lines[i]], [s.lines[i] + " __syncthreads();"])
        elif s.masked[i + 1].rstrip().endswith(";") and s.region_of(i + 1) == s.region_of(i):
            body = s.lines[i + 1]
            ind = len(body) - len(body.lstrip())
            yield (i + 1, [body], [body[:ind] + "{ __syncthreads(); " + body[ind:] + " }"])


OPERATORS = [
    ("barrier_remove", op_barrier_remove), ("barrier_move", op_barrier_move),
    ("bound_off_by_one", op_bound_off_by_one), ("swap_xy", op_swap_xy), ("swap_yz", op_swap_yz),
    ("runtime_to_literal", op_runtime_to_literal), ("atomic_to_plain", op_atomic_to_plain),
    ("drop_warmup", op_drop_warmup), ("stream_to_default", op_stream_to_default),
    ("default_to_stream", op_default_to_stream), ("halve_trip", op_halve_trip),
    ("ceil_floor", op_ceil_floor), ("swap_min_max", op_swap_min_max),
    ("remove_padding", op_remove_padding), ("sync_in_branch", op_sync_in_branch),
]


# ------------------------------------------------------------------ mutants

def pick(cands, cap):
    """At most cap candidates, spread evenly over the file, one per line while there are
    enough lines (deterministic)."""
    if len(cands) <= cap:
        return cands
    firsts = [c for k, c in enumerate(cands) if k == 0 or cands[k - 1][0] != c[0]]
    pool = firsts if len(firsts) >= cap else cands
    return [pool[k * len(pool) // cap] for k in range(cap)]


def generate(src):
    """The mutants of a Source: dicts with id, op, line (1-based), old, new, text."""
    mutants = []
    for name, op in OPERATORS:
        seen, cands = set(), []
        for hunk in op(src):
            key = (hunk[0], tuple(hunk[2]))
            if hunk[1] != hunk[2] and key not in seen:
                seen.add(key)
                cands.append(hunk)
        cands.sort(key=lambda h: (h[0], h[2]))
        for k, (first, old, new) in enumerate(pick(cands, CAP), 1):
            lines = src.lines[:first] + new + src.lines[first + len(old):]
            mutants.append({"id": f"{name}-{k}", "op": name, "line": first + 1,
                            "old": " / ".join(l.strip() for l in old),
                            "new": " / ".join(l.strip() for l in new), "text": "\n".join(lines)})
    return mutants


def lab_source(lab):
    """solutions/LAB/TOPIC.cu (the one .cu that labs/LAB has); None when there is none."""
    cus = [f for f in sorted(os.listdir(os.path.join("labs", lab))) if f.endswith(".cu")]
    path = os.path.join("solutions", lab, cus[0]) if cus else ""
    return path if cus and os.path.exists(path) else None


def all_labs():
    """The live labs, as `make -s list-labs` names them."""
    env = {k: v for k, v in os.environ.items() if k not in ("LABS", "MAKEFLAGS", "MFLAGS")}
    out = subprocess.run(["make", "-s", "--no-print-directory", "list-labs"], env=env,
                         capture_output=True, text=True, check=True).stdout
    return out.split()


def resolve_labs(args):
    """Labs named on the command line (00, device-query or 00-device-query), or all of them;
    exits 2 on a name that matches no lab."""
    labs = all_labs()
    if not args:
        return labs
    picked = []
    for a in args:
        hit = [l for l in labs if l == a or l.startswith(a + "-") or l.endswith("-" + a)]
        if not hit:
            sys.exit(f"mutate: {a} names no lab; labs are: {' '.join(labs)}")
        picked += [l for l in hit if l not in picked]
    return picked


# ------------------------------------------------------------------ which tests can judge a site

def def_graph(paths):
    """name -> set of identifiers its text uses, over the top-level definitions of the files
    (comments blanked, strings kept)."""
    graph = {}
    for p in paths:
        with open(p) as f:
            text = f.read()
        nocomment = mask_code(text, keep_strings=True).split("\n")
        for name, a, b, _ in top_defs(mask_code(text).split("\n")):
            ids = set(re.findall(r"\b[A-Za-z_]\w*\b", "\n".join(nocomment[a:b + 1])))
            graph.setdefault(name, set()).update(ids - {name})
    return graph


def reach(graph, roots):
    """Every name reachable from roots through the graph (roots included)."""
    seen, todo = set(), list(roots)
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo += list(graph.get(n, ()))
    return seen


def judging_tests(lab, src):
    """test id -> the reference's definitions that test can reach (through the grader's code
    and the reference's own calls); a code test that reaches none may judge anything (None)."""
    gdir = os.path.join("grader", lab)
    files = [os.path.join(gdir, f) for f in sorted(os.listdir(gdir)) if f.endswith((".c", ".cu", ".h"))]
    ggraph, sgraph = def_graph(files), def_graph([src.path])
    tests = {}
    for p in files:
        with open(p) as f:
            body = f.read()
        for m in re.finditer(r"WB_(HOST|GPU|MEASURE|PERF|QUESTION_FN)\(\s*\"([^\"]+)\"\s*,\s*\w+\s*,\s*(\w+)", body):
            sol = reach(ggraph, [m.group(3)]) & set(sgraph)
            # a question that calls no student code judges the answers file only
            tests[m.group(2)] = reach(sgraph, sol) if sol else set() if m.group(1) == "QUESTION_FN" else None
    # a sanitizer test judges what the test it runs under the tool reaches; AddressSanitizer's
    # (WB_ASAN_OF) what any of its targets reaches
    for p in files:
        with open(p) as f:
            body = f.read()
        for m in re.finditer(r'WB_SANITIZER_OF\(\s*"([^"]+)"\s*,\s*\w+\s*,\s*"[^"]*"\s*,\s*"([^"]+)"', body):
            tests[m.group(1)] = tests.get(m.group(2))
        for tid, targets in asan_rows(body):
            reached = [tests.get(t) for t in targets]
            tests[tid] = None if not targets or None in reached else set().union(*reached)
    return tests


def asan_rows(body):
    """(id, [target ids]) of each WB_ASAN_OF row of a grader's source: the targets are string
    literals, or a macro #defined as string literals."""
    rows = []
    for m in re.finditer(r'WB_ASAN_OF\(\s*"([^"]+)"\s*,\s*\w+\s*,\s*((?:"[^"]*"\s*)+|\w+)', body):
        arg = m.group(2)
        if not arg.startswith('"'):
            d = re.search(r"#\s*define\s+%s\b((?:[^\n]*\\\n)*[^\n]*)" % re.escape(arg), body)
            arg = d.group(1) if d else ""
        rows.append((m.group(1), "".join(re.findall(r'"([^"]*)"', arg)).split()))
    return rows


def has_asan(lab):
    """Whether the lab's grader has an AddressSanitizer test (its mutants are built for it too)."""
    gdir = os.path.join("grader", lab)
    return any(asan_rows(open(os.path.join(gdir, f)).read())
               for f in sorted(os.listdir(gdir)) if f.endswith((".c", ".cu")))


# ------------------------------------------------------------------ build and grade

def write_if_changed(path, text):
    """Write text to path unless it already holds it (so make keeps an up-to-date build)."""
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path, "w") as f:
        f.write(text)


def make_env():
    """The environment for a sub-make: the caller's, minus its jobserver (the pool is ours)."""
    env = dict(os.environ)
    flags = env.get("MAKEFLAGS", "")
    env["MAKEFLAGS"] = " ".join(w for w in flags.split() if not w.startswith(("--jobserver", "-j", "j")))
    env.pop("MFLAGS", None)
    return env


def build(lab, mid, asan=False):
    """Build build/mutate/LAB/ID.so with the Makefile's rule, and with asan its build for
    AddressSanitizer beside it (ID.asan.so, for the grader's sanitizer.host; where it does
    not build, that test says so, or SKIPs without libasan); True when the first compiled."""
    so, log = f"{OUT}/{lab}/{mid}.so", f"{OUT}/{lab}/{mid}.build.log"
    with open(log, "w") as f:
        rc = subprocess.run(["make", "-s", "--no-print-directory", so], stdout=f,
                            stderr=subprocess.STDOUT, env=make_env()).returncode
    if rc == 0 and asan:
        with open(f"{OUT}/{lab}/{mid}.asan.build.log", "w") as f:
            subprocess.run(["make", "-s", "--no-print-directory", f"{OUT}/{lab}/{mid}.asan.so"],
                           stdout=f, stderr=subprocess.STDOUT, env=make_env())
    return rc == 0 and os.path.exists(so)


def test_requires(lab):
    """test id -> the tests it requires, from `grade --list` ("... requires a b")."""
    out = subprocess.run([f"build/solutions/{lab}/grade", "--list"], capture_output=True,
                         text=True).stdout
    req = {}
    for line in out.splitlines():
        words = line.split()
        if words and words[0] != "total":
            req[words[0]] = words[words.index("requires") + 1:] if "requires" in words else []
    return req


def tests_to_run(m, judges, req):
    """The tests worth running on mutant m: those that can reach the definition it changes
    (or could judge anything), with everything they require; None: all of them."""
    site = judges.get("__site__", {}).get(m["id"])
    could = [t for t, defs in judges.items() if t != "__site__" and (defs is None or site in defs)]
    if not could or site is None:
        return None
    todo, keep = list(could), set()
    while todo:
        t = todo.pop()
        if t not in keep:
            keep.add(t)
            todo += req.get(t, [])
    return sorted(keep)


def grade(lab, mid, only=None):
    """Grade build/mutate/LAB/ID.so (only the tests named, when given); the test verdicts
    {id: (verdict, reason)}, or a string saying why there are none (a timeout, no
    results.json)."""
    rdir, so = f"{OUT}/{lab}/{mid}", f"{OUT}/{lab}/{mid}.so"
    shutil.rmtree(rdir, ignore_errors=True)
    env = dict(os.environ, SEED=SEED, NO_COLOR="1",
               CK_TIMEOUT_MULTIPLIER=os.environ.get("CK_TIMEOUT_MULTIPLIER", "0.5"))
    # A mutant is killed by its first failed test: the rest need not run (a hung
    # kernel would otherwise cost every later test its whole time limit).
    cmd = [f"build/solutions/{lab}/grade", "--set", "solutions", "--student", so,
           "--answers", f"solutions/{lab}/answers.txt", "--report-dir", rdir]
    if mid != "reference":
        cmd.append("--first-fail")
    if only:
        cmd += ["--only", ",".join(only)]
    with open(f"{rdir}.log", "w") as f:
        if not run_grader(cmd, f, env, TIMEOUT):
            return f"the grader ran past {TIMEOUT} s"
    return read_results(f"{rdir}/results.json")


def run_grader(cmd, out, env, timeout):
    """Run cmd in a session of its own (a timeout kills all it started), its output to out;
    False when it ran past timeout seconds and was killed."""
    p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    GRADING.add(p.pid)
    try:
        p.wait(timeout=timeout)
        return True
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        return False
    finally:
        GRADING.discard(p.pid)


# The process groups of the graders running now. Each runs in a session of its own (so that a
# timeout kills all it started), out of reach of a signal sent to this script's group: stopped
# (by `timeout`, Ctrl-C, a batch system), this script ends them too, or a mutant's grader would
# go on using the GPU under whatever runs next and disturb its timings.
GRADING = set()


def stop_graders(signum, frame):
    for pgid in list(GRADING):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    sys.exit(128 + signum)


def read_results(path):
    """{test id: (verdict, reason)} from a results.json through wb-summary --tsv, or a string."""
    r = subprocess.run(["build/tools/wb-summary", "--tsv", path], capture_output=True, text=True)
    if r.returncode != 0:
        return "the grader wrote no results.json"
    rows = [l.split("\t") for l in r.stdout.splitlines() if l]
    return {row[0]: (row[1], row[4] if len(row) > 4 else "") for row in rows}


def classify(m, ref, got, judges):
    """The mutant's verdict and its detail, from the reference's verdicts and its own."""
    if isinstance(got, str):
        return "grader error", got
    killers = [t for t, (v, why) in got.items() if v == "FAIL" and ref.get(t, ("",))[0] == "PASS"
               and not why.endswith("(--first-fail)")]
    if killers:
        return "killed", ", ".join(killers)
    site = judges.get("__site__", {}).get(m["id"])
    could = [t for t, defs in judges.items() if t != "__site__" and (defs is None or site in defs)]
    skipped = [t for t in could if ref.get(t, ("SKIP",))[0] != "PASS"]
    ran = [t for t in could if t not in skipped]
    if skipped or not could:
        return "not judged", "its tests need a GPU: " + brief(skipped) + \
            (f"; it passed those that ran here: {brief(ran)}" if ran else "")
    return "survived", "tests that ran: " + brief(could)


def brief(ids, n=4):
    """A list of test ids, the first n named."""
    return ", ".join(ids[:n]) + (f" and {len(ids) - n} more" if len(ids) > n else "")


def read_equivalents():
    """{(lab, id): justification} from tests/mutate/equivalent.txt."""
    eq = {}
    if os.path.exists(EQUIV):
        for line in open(EQUIV):
            parts = line.strip().split(None, 2)
            if len(parts) >= 2 and not parts[0].startswith("#"):
                eq[(parts[0], parts[1])] = parts[2] if len(parts) > 2 else "(no justification given)"
    return eq


def run_lab(lab, eq):
    """Generate, build and grade one lab's mutants; the report rows and the stale equivalents."""
    src = Source(lab_source(lab))
    os.makedirs(f"{OUT}/{lab}", exist_ok=True)
    mutants = generate(src)
    only = os.environ.get("MUTATE_ONLY", "").split()
    mutants = [m for m in mutants if not only or m["id"] in only]
    write_if_changed(f"{OUT}/{lab}/reference.cu", src.text)
    for m in mutants:
        write_if_changed(f"{OUT}/{lab}/{m['id']}.cu", m["text"])
    ids = ["reference"] + [m["id"] for m in mutants]
    jobs = int(os.environ.get("JOBS", os.cpu_count() or 1))
    print(f"== {lab}: {len(mutants)} mutants; building with {jobs} jobs", flush=True)
    asan = has_asan(lab)
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        built = dict(zip(ids, pool.map(lambda i: build(lab, i, asan), ids)))
    if not built["reference"]:
        print(f"  the unmutated reference does not build: see {OUT}/{lab}/reference.build.log")
        return [], []
    ref = grade(lab, "reference")
    if isinstance(ref, str):
        print(f"  the reference's own run failed ({ref}): see {OUT}/{lab}/reference.log")
        return [], []
    judges = judging_tests(lab, src)
    judges["__site__"] = {m["id"]: site_def(src, m) for m in mutants}
    req = test_requires(lab)
    rows = []
    for m in mutants:
        verdict, detail = ("stillborn", f"does not compile: {OUT}/{lab}/{m['id']}.build.log") \
            if not built[m["id"]] else \
            classify(m, ref, grade(lab, m["id"], tests_to_run(m, judges, req)), judges)
        if (lab, m["id"]) in eq and verdict in ("survived", "not judged"):
            verdict, detail = ("equivalent", eq[(lab, m["id"])]) if verdict == "survived" else \
                (verdict, f"{detail}; listed as equivalent: {eq[(lab, m['id'])]}")
        rows.append(dict(m, lab=lab, verdict=verdict, detail=detail, file=src.path))
        print(f"  {verdict.upper():12s} {m['id']:22s} {detail[:90]}", flush=True)
    # listed but gone, or judged and not surviving (a not-judged one may still be equivalent)
    verdicts = {r["id"]: r["verdict"] for r in rows}
    stale = [(l, i, f"it is {verdicts[i]}" if i in verdicts else "there is no such mutant")
             for (l, i) in eq if l == lab and verdicts.get(i) not in ("equivalent", "not judged")]
    return rows, stale


def site_def(src, m):
    """The name of the top-level definition a mutant changes."""
    d = enclosing_def(src.defs, m["line"] - 1)
    return d[0] if d else None


# ------------------------------------------------------------------ report

def score(rows):
    """killed, survived, not judged, and the score text (killed / (killed + survived))."""
    k = sum(r["verdict"] == "killed" for r in rows)
    s = sum(r["verdict"] == "survived" for r in rows)
    nj = sum(r["verdict"] == "not judged" for r in rows)
    text = f"{k}/{k + s} = {100.0 * k / (k + s):.0f}%" if k + s else "no mutant judged"
    return k, s, nj, text


def verdict_text(r):
    """The verdict column of the report."""
    v, d = r["verdict"], r["detail"]
    return {"killed": f"killed by {d}", "survived": f"survived ({d})",
            "equivalent": f"equivalent ({d})", "not judged": f"not judged here ({d})",
            "stillborn": "stillborn (does not compile)"}.get(v, f"{v}: {d}")


def md_cell(t):
    """Text made safe for a Markdown table cell."""
    return t.replace("|", "\\|").replace("`", "'")


def write_report():
    """build/mutate/report.md and build/mutate/mutants.csv, from every lab's latest results."""
    labs, old = load_labs()
    md = ["# Mutation testing of the graders", "",
          f"At most {CAP} mutants per operator and lab (`make mutate [LAB=...]`). Score = killed / (killed + survived);",
          "equivalent, stillborn and not-judged mutants (their tests need a GPU that this run did not have) are",
          f"left out. Equivalent mutants are listed, with a reason, in `{EQUIV}`.", ""]
    stale = [s for rows, st, _ in labs.values() for s in st]
    for lab, (rows, _, seed) in labs.items():
        k, s, nj, text = score(rows)
        md += [f"## {lab}", "", f"SEED={seed}. Score: {text} (killed {k}, survived {s}, not judged here {nj}, "
               f"equivalent {sum(r['verdict'] == 'equivalent' for r in rows)}, "
               f"stillborn {sum(r['verdict'] == 'stillborn' for r in rows)})", "",
               "| mutant | operator | change | verdict |", "|---|---|---|---|"]
        md += [f"| {r['id']} | {r['op']} | `{md_cell(r['file'])}:{r['line']}: {md_cell(r['old'])} -> {md_cell(r['new'])}` "
               f"| {md_cell(verdict_text(r))} |" for r in rows] + [""]
    allrows = [r for rows, _, _ in labs.values() for r in rows]
    k, s, nj, text = score(allrows)
    md += ["## Total", "", f"Score: {text} (killed {k}, survived {s}, not judged here {nj})", ""]
    if old:
        md += ["Not reported (their reference changed since they were run): " + ", ".join(old), ""]
    if stale:
        md += ["## Stale equivalents", ""] + [f"- {l} {i}: {why}" for l, i, why in stale] + [""]
    with open(f"{OUT}/report.md", "w") as f:
        f.write("\n".join(md))
    with open(f"{OUT}/mutants.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["lab", "mutant", "operator", "file", "line", "old", "new", "verdict", "detail"])
        for r in allrows:
            w.writerow([r["lab"], r["id"], r["op"], r["file"], r["line"], r["old"], r["new"], r["verdict"], r["detail"]])
    return text


# ------------------------------------------------------------------ self-test

def check_mutant(src, m):
    """Empty when the mutant differs from the reference in exactly one student region and
    nowhere else; else what is wrong."""
    new = m["text"].split("\n")
    if len(new) != len(src.lines):
        return "changes the number of lines"
    changed = [i for i, (a, b) in enumerate(zip(src.lines, new)) if a != b]
    if not changed:
        return "is the reference unchanged"
    regions = {src.region_of(i) for i in changed}
    if -1 in regions:
        return f"changes line {changed[0] + 1}, outside every student region"
    return "" if len(regions) == 1 else "changes more than one student region"


def check_the_checker(labs):
    """The mutant check itself refuses a change outside the regions and a non-change; 1 if not."""
    path = next((lab_source(l) for l in labs if lab_source(l)), None)
    if path is None:
        return 0
    src = Source(path)
    outside = dict(text="\n".join(["/* changed */"] + src.lines[1:]))
    same = dict(text=src.text)
    if not (check_mutant(src, outside) and check_mutant(src, same)):
        print("FAIL  mutate: the self-test's check accepts a change outside the regions or no change")
        return 1
    return check_verdicts()


def check_verdicts():
    """The verdict rules on made-up runs: a SKIP never kills and never lets a mutant survive."""
    ref = {"host": ("PASS", ""), "gpu": ("SKIP", "")}
    judges = {"host": {"f"}, "gpu": {"g"}, "__site__": {"m-1": "f", "m-2": "g"}}
    cases = [("m-1", {"host": ("FAIL", ""), "gpu": ("SKIP", "")}, "killed"),
             ("m-1", {"host": ("PASS", ""), "gpu": ("SKIP", "")}, "survived"),
             ("m-2", {"host": ("PASS", ""), "gpu": ("SKIP", "")}, "not judged"),
             ("m-2", {"host": ("PASS", ""), "gpu": ("FAIL", "")}, "not judged"),
             ("m-1", "the grader wrote no results.json", "grader error")]
    wrong = [(i, want) for i, got, want in cases if classify({"id": i}, ref, got, judges)[0] != want]
    for i, want in wrong:
        print(f"FAIL  mutate: a made-up run of {i} is not classed {want}")
    if not wrong:
        print("PASS  mutate: verdict rules (a kill needs FAIL where the reference PASSes; SKIP decides nothing)")
    return 1 if wrong else 0


def check_selection(labs):
    """The tests chosen to judge a mutant reach the definition it changes: a sanitizer test
    judges what its target reaches, and a table initialised by a macro call is named by its
    own name (else lab 04's removed barriers never met racecheck, and lab 09's async kernel
    was judged by asm.ldgsts alone). Checked where those labs are here; 1 on a fault."""
    want = [("04-barriers", "barriers_block_sum", ["sanitizer.racecheck", "sanitizer.synccheck"]),
            ("09-prefetching", "prefetching_async_kernel", ["correct.async", "correct.best"]),
            ("06-latency-hiding", "random_cycle", ["sanitizer.host"]),
            ("07-latency-model", "latency_model_time_one_rep", ["sanitizer.host"]),
            ("01-block-scheduling", "block_scheduling_analyze", ["sanitizer.host"]),
            ("02-warp-partitioning", "warp_partitioning_idle_lanes", ["sanitizer.host"]),
            ("05-occupancy", "occupancy_calc", ["sanitizer.host"]),
            ("00-device-query", "device_query_fp32_lanes", ["sanitizer.host"]),
            ("08-launch-overhead", "launch_overhead_empty_async", ["sanitizer.host"]),
            ("08-launch-overhead", "time_wait", ["sanitizer.host"]),
            ("09-prefetching", "prefetching_conflict_ways", ["sanitizer.host"])]
    src_names = {"t[] = TABLE(k);": "t", "static const f t[] = TABLE(k);": "t", "int f(int x);": "f"}
    bad = [f"def_name({h!r}) is {def_name(h)!r}, expected {n!r}" for h, n in src_names.items()
           if def_name(h) != n]
    rows = {'#define T2 "a.x " \\\n    "b.y"\nWB_ASAN_OF("s.h", 2, T2),': [("s.h", ["a.x", "b.y"])],
            'WB_ASAN_OF("s.h", 2,\n    "a.x b.y "\n    "c.z", .needs_gpu = 1),': [("s.h", ["a.x", "b.y", "c.z"])]}
    bad += [f"asan_rows({b!r}) is {asan_rows(b)}, expected {r}" for b, r in rows.items()
            if asan_rows(b) != r]
    judged = {}
    for lab, site, tests in want:
        if lab not in labs or lab_source(lab) is None:
            continue
        if lab not in judged:
            judged[lab] = judging_tests(lab, Source(lab_source(lab)))
        judges = judged[lab]
        bad += [f"{lab}: {t} does not judge {site}" for t in tests
                if t not in judges or (judges[t] is not None and site not in judges[t])]
    for b in bad:
        print(f"FAIL  mutate: test selection: {b}")
    if not bad:
        print("PASS  mutate: test selection (sanitizer tests judge their target's code, "
              "AddressSanitizer's what its targets reach; a table initialised by a macro keeps "
              "its name)")
    return 1 if bad else 0


def self_test(labs):
    """Run the generator twice on every lab and check the mutants; exit status 1 on a fault."""
    bad, ops = 0, set()
    for lab in labs:
        path = lab_source(lab)
        if path is None:
            print(f"SKIP  mutate/{lab}: no reference (a handout?)")
            continue
        first, second = generate(Source(path)), generate(Source(path))
        faults = [f"{m['id']} {check_mutant(Source(path), m)}" for m in first if check_mutant(Source(path), m)]
        if [(m["id"], m["text"]) for m in first] != [(m["id"], m["text"]) for m in second]:
            faults.append("two runs give different mutants or ids")
        if not first:
            faults.append("no mutant at all")
        ops |= {m["op"] for m in first}
        for f in faults:
            print(f"FAIL  mutate/{lab}: {f}")
        bad |= bool(faults)
        if not faults:
            counts = {}
            for m in first:
                counts[m["op"]] = counts.get(m["op"], 0) + 1
            print(f"PASS  mutate/{lab}: {len(first)} mutants, each one change in one student region ("
                  + ", ".join(f"{o} {n}" for o, n in counts.items()) + ")")
    bad |= check_the_checker(labs)
    bad |= check_selection(labs)
    bad |= check_stop()
    missing = [o for o in REQUIRED_OPS if o not in ops]
    if missing and any(lab_source(l) for l in labs):
        print(f"FAIL  mutate: operators with no mutant anywhere: {' '.join(missing)}")
        bad = 1
    return 1 if bad else 0


def check_stop():
    """Stopped by a signal while a grader runs, this script ends the grader's whole session:
    a child copy of it runs a grader stand-in (a shell whose own child sleeps), is sent
    SIGTERM, and the sleeper must be gone. 1 on a fault."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        pidf = os.path.join(tmp, "pid")
        child = subprocess.Popen([sys.executable, "-c", f"""
import os, signal, subprocess, sys
sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})
import mutate
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(sig, mutate.stop_graders)
mutate.run_grader(["sh", "-c", "sleep 60 & echo $! > {pidf}; wait"], subprocess.DEVNULL, None, 60)
"""])
        for _ in range(100):
            if os.path.exists(pidf) and open(pidf).read().strip():
                break
            subprocess.run(["sleep", "0.05"])
        try:
            sleeper = int(open(pidf).read())
        except (OSError, ValueError):
            child.kill()
            print("FAIL  mutate: the grader stand-in of the stop check did not start")
            return 1
        child.send_signal(signal.SIGTERM)
        rc = child.wait(timeout=10)
        gone = False
        for _ in range(100):
            try:
                os.kill(sleeper, 0)
            except ProcessLookupError:
                gone = True
                break
            subprocess.run(["sleep", "0.05"])
        if not gone:
            os.kill(sleeper, signal.SIGKILL)
            print("FAIL  mutate: stopped by SIGTERM, it left its grader running (it would disturb "
                  "the timings of whatever runs next on the GPU)")
            return 1
        print(f"PASS  mutate: stopped while grading (SIGTERM), it ends the grader's session too (exit {rc})")
        return 0


def main(argv):
    """Parse the mode, resolve the labs, and run."""
    os.chdir(ROOT)
    mode = argv[0] if argv and argv[0] in ("--self-test", "--list") else ""
    labs = resolve_labs(argv[1:] if mode else argv)
    if mode == "--self-test":
        return self_test(labs)
    if mode == "--list":
        for lab in labs:
            for m in generate(Source(lab_source(lab))):
                print(f"{lab}\t{m['id']}\t{lab_source(lab)}:{m['line']}: {m['old']} -> {m['new']}")
        return 0
    if not any(lab_source(l) for l in labs):
        print("mutate: no solutions/ here (a handout): nothing to mutate")
        return 2
    eq = read_equivalents()
    for lab in labs:
        rows, stale = run_lab(lab, eq)
        save_lab(lab, rows, stale)
        k, s, nj, text = score(rows)
        print(f"  {lab}: mutation score {text}" + (f", {nj} not judged here" if nj else ""))
        for l, i, why in stale:
            print(f"  stale equivalent: {l} {i} in {EQUIV}: {why}")
    total = write_report()
    print(f"mutation score {total}; report: {OUT}/report.md, {OUT}/mutants.csv")
    return 0


def ref_hash(lab):
    """A digest of the lab's reference, so results of an older reference are not reported."""
    with open(lab_source(lab), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def save_lab(lab, rows, stale):
    """build/mutate/LAB/results.json: this run's rows (without the mutant's text)."""
    keep = [{k: v for k, v in r.items() if k != "text"} for r in rows]
    with open(f"{OUT}/{lab}/results.json", "w") as f:
        json.dump({"ref": ref_hash(lab), "seed": SEED, "rows": keep, "stale": stale}, f, indent=1)


def load_labs():
    """{lab: (rows, stale, seed)} for every live lab with results of its current reference;
    and the labs whose results are out of date."""
    got, old = {}, []
    for lab in all_labs():
        path = f"{OUT}/{lab}/results.json"
        if lab_source(lab) and os.path.exists(path):
            with open(path) as f:
                d = json.load(f)
            if d["ref"] == ref_hash(lab):
                got[lab] = (d["rows"], [tuple(x) for x in d["stale"]], d["seed"])
            else:
                old.append(lab)
    return got, old


if __name__ == "__main__":
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, stop_graders)
    sys.exit(main(sys.argv[1:]))
