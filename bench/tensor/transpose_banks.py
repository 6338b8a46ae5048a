#!/usr/bin/env python3
"""Checks the work-item layout of `transposeRows` (kernel_ir/contraction/groups.rs,
`Cx::block_position`) by enumeration: for a TF32 wgmma k-slab of 32 and tiles of 64 / 128 / 256 along the
transposed operand over 128 / 256 / 512 work-items, every (k-row, column group) of the slab is loaded
exactly once, and each pass of the chunk stores (`st.shared.v4`: 8 lanes of 16 bytes;
`st.shared.v2`: 16 lanes of 8 bytes; 128 bytes a pass) meets 32 distinct banks under the
128-byte swizzle (float column kk ^ 4 * (row % 8) of tile row `row`, rows of 32 floats).

usage: python3 bench/tensor/transpose_banks.py   (prints one line per case, exits 1 on a failure)
"""
import sys
from collections import Counter

TK = 32


def position(lin, q, r, nt):
    """(k-row, tile column) of group q of work-item lin, as block_position writes it."""
    kb = TK // r
    e = lin + (q // r) * nt
    hi = (e // 32 % (kb // 8)) * 8 if kb // 8 > 1 else 0
    return (hi + e // 2 % 8) * r + q % r, (e // (4 * kb) * 4 + e // 16 % 2 * 2 + e % 2) * 4


def check(r, cols, nt):
    groups = TK * cols
    if groups % (nt * r) or cols % 4 or (TK // r) % 8:
        return None
    per = groups // nt
    seen = {position(lin, q, r, nt) for lin in range(nt) for q in range(per)}
    if len(seen) != groups:
        return "not a bijection"
    lanes = 128 // (4 * r)
    worst = 1
    for w0 in range(0, nt, 32):
        for b in range(per // r):
            for x in range(4):
                for p0 in range(0, 32, lanes):
                    slots = []
                    for lane in range(p0, p0 + lanes):
                        kk, t = position(w0 + lane, b * r, r, nt)
                        row = t + x
                        slots.append(((kk ^ ((row & 7) << 2)) % 32) // r)
                    worst = max(worst, max(Counter(slots).values()))
    return None if worst == 1 else f"{worst}-way bank conflict"


bad = 0
for r in (2, 4):
    for cols in (16, 32, 64):
        for nt in (128, 256, 512):
            fits = (TK * cols) % (nt * r) == 0
            why = check(r, cols, nt) if fits else "pruned"
            print(f"R={r} groups per row={cols} work-items={nt}: {why or 'ok'}")
            bad += why not in (None, "pruned")
sys.exit(1 if bad else 0)
