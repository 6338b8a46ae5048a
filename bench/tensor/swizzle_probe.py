#!/usr/bin/env python3
"""Probe (session 35, docs/BENCHMARKS.md): rewrite an orcl-emitted tensor-core kernel (A k-contiguous tile orcl_tile0
[S][T][TK+4], B k-major tile orcl_tile1[S][TK][TJ+PAD]) to unpadded XOR-swizzled tiles:
A [S][T][TK], 16-byte chunk c of row r at c ^ ((r / R) % C) (C = TK/4 chunks per row, R = 8/C
rows per 128-byte line): the 8 rows of an ldmatrix phase hit 8 distinct chunk columns;
B [S][TK][TJ], column t of row kk at t ^ (8 * (kk % 4)): the 4 threadID_in_group rows of a
fragment read hit distinct banks. usage: swizzle_probe.py IN OUT TK (probe only: the emulated form is rewritten alike)"""
import re, sys
src, dst, tk = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = open(src).read()
C = tk // 4
R = max(1, 8 // C)
s = re.sub(r"(__local float orcl_tile0\[\d+\]\[\d+\])\[\d+\]", lambda m: f"{m.group(1)}[{tk}]", s)
def a(m):
    x, y, z = m.group(1), m.group(2), m.group(3)
    return f"orcl_tile0[{x}][{y}][({z}) ^ (((({y}) / {R}) % {C}) << 2)]"
def b(m):
    x, y, z = m.group(1), m.group(2), m.group(3)
    return f"orcl_tile1[{x}][{y}][({z}) ^ ((({y}) & 3) << 3)]"
def each(line):
    if "__local float orcl_tile" in line:
        return line
    line = re.sub(r"orcl_tile0\[([^\[\]]*)\]\[([^\[\]]*)\]\[([^\[\]]*)\]", a, line)
    return re.sub(r"orcl_tile1\[([^\[\]]*)\]\[([^\[\]]*)\]\[([^\[\]]*)\]", b, line)
s = "\n".join(each(l) for l in s.split("\n"))
open(dst, "w").write(s)
