#!/usr/bin/env python3
"""Compare the code two orcl binaries generate, configuration by configuration.

Usage: scripts/emit_diff.py OLD_ORCL NEW_ORCL FILE.c...

For each annotated file, the values of every tuning parameter of `performance_params` written as
a list or `range(a, b[, s])` are taken (all of them when at most 4, else the first, middle and
last), and up to 40 of their combinations (seeded shuffle) are emitted with `orcl emit --backend
opencl` and `--backend cuda` by both binaries. Exit code, standard output (kernel, launch
geometry, host code) and standard error must be identical; the first 5 differences are printed
as unified diffs. Use it to check that a refactoring of the code generator leaves its output
unchanged beyond the goldens of tests/golden.rs (issue 12: the 1-D path moved to the kernel IR
was checked this way on examples/, tests/in, tests/inputs and Orio's sandbox files).

Exit status: 0 when nothing differs, 1 otherwise.
"""
import difflib
import itertools
import random
import re
import subprocess
import sys


def split_list(s):
    """The top-level comma-separated items of a list literal's inside."""
    out, depth, cur, quote = [], 0, "", None
    for ch in s:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def values(expr):
    """The values of a parameter written as a list or an integer range, else None."""
    expr = expr.strip()
    m = re.fullmatch(r"\[(.*)\]", expr, re.S)
    if m:
        return split_list(m.group(1))
    m = re.fullmatch(r"range\(([^)]*)\)", expr)
    if m:
        try:
            return [str(v) for v in range(*[int(x) for x in m.group(1).split(",")])]
        except ValueError:
            return None
    return None


def configurations(text):
    """(names, up to 40 value combinations) of the file's tuning parameters."""
    a = text.find("performance_params")
    block = text[a : text.find("}", a)] if a >= 0 else ""
    params = {}
    for m in re.finditer(
        r"param\s+(\w+)\s*\[\]\s*=\s*(\[[^\]]*\]|range\([^)]*\))\s*;", block
    ):
        v = values(m.group(2))
        if v:
            params[m.group(1)] = v if len(v) <= 4 else [v[0], v[len(v) // 2], v[-1]]
    names = list(params)
    combos = list(itertools.product(*[params[n] for n in names]))
    random.shuffle(combos)
    return names, combos[:40]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    old, new, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    random.seed(1)
    total = differ = generated = 0
    for f in files:
        names, combos = configurations(open(f, errors="replace").read())
        for backend in ["opencl", "cuda"]:
            for c in combos:
                args = ["emit", f, "--backend", backend]
                for n, v in zip(names, c):
                    args += ["--set", f"{n}={v}"]
                r1 = subprocess.run([old] + args, capture_output=True, text=True)
                r2 = subprocess.run([new] + args, capture_output=True, text=True)
                total += 1
                generated += r2.returncode == 0
                a = (r1.returncode, r1.stdout, r1.stderr)
                b = (r2.returncode, r2.stdout, r2.stderr)
                if a != b:
                    differ += 1
                    if differ <= 5:
                        print(f"DIFF {f} {backend} {dict(zip(names, c))}: exit {a[0]} vs {b[0]}")
                        diff = difflib.unified_diff(
                            (a[1] + a[2]).splitlines(), (b[1] + b[2]).splitlines(), lineterm=""
                        )
                        for line in list(diff)[:30]:
                            print(line)
    print(f"{total} emits compared ({generated} generated), {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
