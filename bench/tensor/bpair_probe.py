#!/usr/bin/env python3
"""Probe (session 35, docs/BENCHMARKS.md): B fragments of 8-column blocks 2p and 2p+1 read by one 64-bit local read: the
mma column c of block ni is tile column 16*(ni/2) + 2*c + ni%2, so lane (g, t)'s registers x of
blocks 2p, 2p+1 are adjacent (float2 at 16p + 2g of k-row t + 4x); the epilogue's j follows.
Hardware form only (the emulated form keeps the PTX mapping, so PoCL gives wrong results).
usage: bpair_probe.py IN OUT (IN: a text with tf32Convert truncate, `orcl_bN_x = as_uint(...)`)"""
import re, sys
s = open(sys.argv[1]).read()
pat = re.compile(r"( *)orcl_b(\d+)_(\d) = as_uint\(orcl_tile1\[orcl_buf\]\[([^\]]*)\]\[orcl_wn0 \+ (\d+) \* 8 \+ orcl_gid\]\);")
def rep(m):
    ind, ni, x, row = m.group(1), int(m.group(2)), m.group(3), m.group(4)
    if ni % 2 == 1:
        return f"{ind}orcl_b{ni}_{x} = as_uint(orcl_bp{ni-1}_{x}.y);"
    return (f"{ind}const float2 orcl_bp{ni}_{x} = *(__local const float2 *)&orcl_tile1[orcl_buf][{row}][orcl_wn0 + {ni//2} * 16 + 2 * orcl_gid];\n"
            f"{ind}orcl_b{ni}_{x} = as_uint(orcl_bp{ni}_{x}.x);")
s, n = pat.subn(rep, s)
assert n > 0, "no B fragment reads"
old = "orcl_wn0 + orcl_ni * 8 + 2 * orcl_tig + orcl_q % 2"
assert old in s
s = s.replace(old, "orcl_wn0 + (orcl_ni / 2) * 16 + 2 * (2 * orcl_tig + orcl_q % 2) + orcl_ni % 2")
open(sys.argv[2], "w").write(s)
print(n)
