#!/usr/bin/env python3
"""Writes the annotated C file of one TF32 GEMM case for bench/tensor.sh: the BLAS-style naive loop
of examples/sgemm_tf32.c (C = alpha*op(A)*op(B) + beta*C, float, row-major 1-D arrays) with
mathMode='tf32' and a space of tensor-core schedules (docs/GEMM.md, "Tensor cores").

usage: make_case.py FORM M N K SPACE [PREC] > file.c
  FORM  NN | NT | TN | TT   A (m x k) and/or B (k x n) stored transposed
  PREC  tf32 (default: float arrays) | fp16 (_Float16 arrays, mathMode='fp16') | bf16 (__bf16
        arrays, mathMode='bf16'); FP16/BF16 products read `(float)A[..] * (float)B[..]`
  SPACE starter (the documented starter space: block tiles 64x64, 128x64, 128x128; warp tiles
        32x32, 64x32, 32x64, 64x64; k-slab 8/16/32; padLocal 8 (conflict-free fragment reads);
        float4 slab loads; no staging, doubleBuffer, or stages 2/3 (cp.async); 4 or 8 warps;
        local tiles within 48 KiB)
        | frag (128x128 tiles, 64x64 / 64x32 warps, k-slab 16/32, fragLoad 1/2/4 x doubleBuffer or
        stages 2/3/4; CUDA tiles past 48 KiB in dynamic shared memory; 48 configurations)
        | wide (256x128 tiles of 8 warps of 64x64, k-slab 16/32, fragLoad 1/2, stages 2/3: CUDA
        only, 100-200 KiB of tiles; 8 configurations)
        | h16 (FP16/BF16: 128x128 tiles, k-slab 32/64, doubleBuffer or stages 2/3, vecLoad 4)
        | h16x (FP16/BF16: fragLoad 1 / 'ldmatrix' x 128x128 or 256x128 tiles x k-slab 32/64 x
        stages 2/3/4 of 8-byte copies; 36 configurations)
        | h16fb (FP16/BF16: fragBuffers 1 / 2 x 128x128 tiles of 4 or 8 warps x k-slab 32/64 x
        stages 2/3, ldmatrix; 16 configurations)
        | conv (128x128 tiles, 64x64 / 64x32 warps, k-slab 16/32, doubleBuffer or stages 2/3,
        tf32Convert 'fragment' / 'stage'; CUDA tiles past 48 KiB in dynamic shared memory)
        | ldm (128x128 tiles, 64x64 / 64x32 warps, k-slab 16/32, fragLoad 1 / 'ldmatrix' x
        doubleBuffer or stages 2, tf32Convert 'stage' with doubleBuffer; 24 configurations)
        | h16r (FP16/BF16 register levers, session 33: 16-byte cp.async (vecLoad 8) x minBlocks 1/2
        (CUDA __launch_bounds__(threads, 2): 8 warps of 64x32 within 128 registers, two blocks per
        SM) x 128x128 / 256x128 tiles of 4-16 warps x k-slab 32/64 x 2-3 stages, ldmatrix; the
        session-32 best (vecLoad 4) as baseline; 21 configurations)
        | h16s (FP16/BF16, session 33: asyncCache 'ca' for the 16-byte copies x blockSwizzle 1/8 x
        minBlocks 1/2 x 128x128 tiles of 4 warps of 64x64 or 8 of 64x32, k-slab 64, 2-3 stages,
        vecLoad 4 or 8, ldmatrix; 20 configurations)
        | t32s (TF32, session 33: asyncCache 'cg'/'ca' x blockSwizzle 1/8 x 128x128 tiles of 64x64 /
        64x32 warps x k-slab 16/32 x 2-3 stages, ldmatrix, float4 copies; OpenCL prunes past 48 KiB)
        | t32i / h16i (session 33: indexBits 32 / 64 on the TF32 (t32s's tiles, 2 stages) and
        FP16/BF16 (h16s's best, minBlocks 1/2) forms)
        | h16j (FP16/BF16, session 33: indexBits 32 with minBlocks 2 (64x32 warps) or 4 warps of
        64x64, or 256x128 tiles of 16 warps of 64x32 x blockSwizzle 1/8 x 2-3 stages, TK 64, vecLoad 8
        through L1; 12 configurations)
        | h16k (FP16/BF16, session 33: k-slabs of 64 / 128 x 128x128 and 256x128 tiles, indexBits 32,
        vecLoad 8 through L1, 2 stages, minBlocks 2 where two blocks fit; 7 configurations)
        | h16l (FP16/BF16, session 33: fragBuffers 1/2 on 64x32 warps with minBlocks 2 and on 64x64
        warps, k-slab 32 with 2-4 stages, 8 warps of 32x64; indexBits 32, vecLoad 8 through L1;
        8 configurations)
        | h16p / t32p (session 33: prefetchResult 0/1/2 (the result's lines prefetched into L2
        one or two k-slabs before the epilogue) on the FP16/BF16 bests, 8 warps of 64x32 with
        minBlocks 2 and 4 of 64x64, 6 configurations / TF32's best, 2 configurations)
        | h16q (the FP16/BF16 best, 8 warps of 64x32 with minBlocks 2, prefetchResult 0 / 1)
        | wg (FP16/BF16 with mmaInstruction='wgmma', session 34: 128 x 128 / 256 tiles of two
        warpgroups along i, warpgroup tiles 64 x 64 / 128 / 256, k-slab 64, 3-4 stages of 16-byte
        copies ('cg' / 'ca'), indexBits 32; 20 configurations; CUDA on sm_90a only)
        | wgb (the wgmma levers, session 34: 128x128 / 128x256 / 256x128 tiles of warpgroups of
        64 x 128, 4 stages, blockSwizzle 1/8, prefetchResult 0/1; 12 configurations)
        | wgc (wgmma, session 34: 256x128 tiles of 4 warpgroups of 64 x 128 / 8 of 64 x 64, 3-4
        stages, 'cg' / 'ca', and 128x128 tiles with 3 stages and minBlocks 2 (two blocks per SM);
        7 configurations)
        | wgs (the wgmma starter space, session 34: 128x128 / 128x256 / 256x128 tiles of 2-4
        warpgroups of 64 x 64 / 128 / 256, 3-4 stages, 16-byte copies; 10 configurations)
        | wgd (wgmma, session 34: three warpgroups of 64 x 128 / 64 x 256 (192-row tiles, 384 threads:
        up to 170 registers), 5-6 stages of 128x128 and 192x128 tiles; the 256x128 winner as
        baseline; 7 configurations)
        | wt (TF32 with mmaInstruction='wgmma', session 35, for NT (both operands k-contiguous,
        copied as they lie; other forms transpose an operand element by element), 128x128 / 128x256 / 256x128 tiles of 2-4
        warpgroups of 64 x 64 / 128 / 256, k-slab 32 (one 128-byte row of floats), 3-6 stages of
        16-byte copies within 227 KiB, indexBits 32; 14 configurations)
        | wtn (TF32 wgmma with a transposed operand (NN: B stored K-major element by element from
        float4 loads), session 35: 128x128 / 256x128 tiles of 2-4 warpgroups of 64 x 64 / 128, 4
        stages, loadItems of B 8 / 16 / 32 (32: the linearised slab); 9 configurations)
        | t32o (TF32 in NVIDIA OpenCL, session 35: tf32Convert 'fragment' / 'truncate' x 128x128 tiles
        of 64x64 / 64x32 warps x TK 8 with 2-4 stages / TK 16 with 2, ldmatrix, .ca, blockSwizzle 8;
        16 configurations within 48 KiB)
        | wtr (TF32 wgmma, the transposed operand register-staged (its next slab loaded into
        registers while the slab's wgmma run, stored transposed one slab later), session 35: 128x128
        / 128x256 / 256x128 tiles of 1-4 warpgroups of 64 x 128 / 256, 3-6 stages within 227 KiB,
        loadItems of B 8 / 16; 20 configurations; the NN starter space)
        | wts (the TF32 wgmma NN starter space, session 35: wtr's tiles with 3-4 stages and
        loadItems of B 16 / 32 (8 is 21-205% slower in wtr once B is register-staged); 16 configurations)
        | wtt (TF32 wgmma NN, session 36: transposeRows 1 / 2 / 4 (the transposed operand's register
        transpose: blocks of 1, 2 or 4 k-rows per work-item stored as 4-, 8- or 16-byte K-major
        chunks) on wts's best tiles, 256x128 and 128x256 of 4 warpgroups of 64 x 128 and 128x128 of
        two, 3-4 stages, loadItems of B 16 (unused where transposeRows > 1); configurations the
        block does not fit pruned)
        | wto (wtt's 256x128 and 128x256 tiles with 4 stages only, transposeRows 1 / 2 / 4; 5
        configurations, one pruned)
        | deep (starter's 128x128 tiles x k-slab 16/32/64 x loadItems of A 1/4/8 x doubleBuffer)
        | "TI=128 TJ=128 TK=32 WI=64 WJ=32 PAD=8 VL=4" (one configuration; LA (loadItems of A),
        LB (loadItems of B), DB (doubleBuffer), ST (stages, cp.async), FL (fragLoad), LD (fragLoad='ldmatrix'), TC (tf32Convert: fragment / stage),
        SH (sizeHint / launchBounds), FB (fragBuffers), MB (minBlocks, CUDA only), AC (asyncCache),
        SW (blockSwizzle), IB (indexBits), PF (prefetchResult), MI (mmaInstruction), TR (transposeRows)
        optional)
"""
import sys

form, m, n, k, space = sys.argv[1:6]
prec = sys.argv[6] if len(sys.argv) > 6 else "tf32"
ety = {"tf32": "float", "fp16": "_Float16", "bf16": "__bf16"}[prec]
a = "A[l*m+i]" if form[0] == "T" else "A[i*k+l]"
b = "B[j*k+l]" if form[1] == "T" else "B[l*n+j]"
if prec != "tf32":
    a, b = "(float)" + a, "(float)" + b
if space == "starter":
    params = {"TI": [64, 128], "TJ": [64, 128], "TK": [8, 16, 32], "WI": [32, 64], "WJ": [32, 64],
              "PAD": [8], "VL": [4], "DB": [False, True], "ST": [1, 2, 3], "SH": [True]}
elif space == "frag":
    # fragLoad (vector fragment reads, swizzled tiles) x staging, CUDA's dynamic shared memory
    # past 48 KiB (OpenCL prunes those as device_limit): 128x128 tiles, 4 or 8 warps.
    params = {"TI": [128], "TJ": [128], "TK": [16, 32], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [4], "FL": [1, 2, 4], "DB": [False, True], "ST": [1, 2, 3, 4],
              "SH": [True]}
elif space == "wide":
    # 256x128 tiles of 8 warps of 64x64 with k-slabs of 16/32 and 2-3 stages: 100-200 KiB of
    # tiles, possible in CUDA only (dynamic shared memory).
    params = {"TI": [256], "TJ": [128], "TK": [16, 32], "WI": [64], "WJ": [64],
              "PAD": [8], "VL": [4], "FL": [1, 2], "DB": [False], "ST": [2, 3], "SH": [True]}
elif space == "conv":
    # tf32Convert (TF32 rounding per fragment register or once when staging) x staging, 128x128
    # tiles of 64x64 / 64x32 warps; CUDA tiles past 48 KiB in dynamic shared memory.
    params = {"TI": [128], "TJ": [128], "TK": [16, 32], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [4], "DB": [False, True], "ST": [1, 2, 3], "SH": [True],
              "TC": ["fragment", "stage"]}
elif space == "ldm":
    # fragLoad 1 / 'ldmatrix' (k-contiguous tiles read by ldmatrix.x4) x doubleBuffer or 2 stages,
    # tf32Convert 'stage' with doubleBuffer only (in place after cp.async it loses 2x).
    params = {"TI": [128], "TJ": [128], "TK": [16, 32], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [4], "LD": [False, True], "DB": [False, True], "ST": [1, 2],
              "SH": [True], "TC": ["fragment", "stage"]}
elif space == "h16":
    # FP16/BF16 (k-slabs multiple of 16): 128x128 tiles of 4 or 8 warps, k-slab 32/64,
    # doubleBuffer or 2-3 cp.async stages (vecLoad 4: 8-byte copies), CUDA past 48 KiB.
    params = {"TI": [128], "TJ": [128], "TK": [32, 64], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [4], "DB": [False, True], "ST": [1, 2, 3], "SH": [True]}
elif space == "h16x":
    # FP16/BF16 latency levers (session 32): fragLoad 1 / 'ldmatrix' (.x4, .trans for the k-major
    # tile) x 128x128 tiles of 4 or 8 warps or 256x128 of 8 warps x k-slab 32/64 x 2-4 cp.async
    # stages of 8-byte copies (vecLoad 4); CUDA past 48 KiB in dynamic shared memory.
    params = {"TI": [128, 256], "TJ": [128], "TK": [32, 64], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [4], "LD": [False, True], "DB": [False], "ST": [2, 3, 4],
              "SH": [True]}
elif space == "h16fb":
    # fragBuffers 1 / 2 (double-buffered ldmatrix fragments) on h16x's best tiles: 128x128 of 4 or
    # 8 warps, k-slab 32/64, 2-3 stages, ldmatrix; 16 configurations.
    params = {"TI": [128], "TJ": [128], "TK": [32, 64], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [4], "LD": [True], "FB": [1, 2], "DB": [False], "ST": [2, 3],
              "SH": [True]}
elif space == "h16r":
    # 16-byte copies (vecLoad 8) and minBlocks=2 (two blocks of 8 warps of 64x32 per SM, within
    # 128 registers); 256x128 tiles of 16 warps of 64x32 (within 128 registers by their 512
    # threads) or 8 of 64x64; the session-32 best (128x128, 4 warps of 64x64, TK 64, 2 stages of
    # 8-byte copies) as the baseline of the same run.
    params = {"TI": [128, 256], "TJ": [128], "TK": [32, 64], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [4, 8], "LD": [True], "DB": [False], "ST": [2, 3],
              "MB": [1, 2], "SH": [True]}
elif space == "h16s":
    # asyncCache 'ca' (16-byte copies through L1, measured +4% over .cg in a harness) x
    # blockSwizzle x minBlocks on the session-32 bests (128x128 tiles, TK 64).
    params = {"TI": [128], "TJ": [128], "TK": [64], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [4, 8], "LD": [True], "DB": [False], "ST": [2, 3],
              "MB": [1, 2], "SH": [True], "AC": ["ca"], "SW": [1, 8]}
elif space == "t32s":
    params = {"TI": [128], "TJ": [128], "TK": [16, 32], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [4], "LD": [True], "DB": [False], "ST": [2, 3],
              "SH": [True], "AC": ["cg", "ca"], "SW": [1, 8]}
elif space == "t32i":
    params = {"TI": [128], "TJ": [128], "TK": [16, 32], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [4], "LD": [True], "DB": [False], "ST": [2],
              "SH": [True], "AC": ["cg", "ca"], "SW": [8], "IB": [32, 64]}
elif space == "h16i":
    params = {"TI": [128], "TJ": [128], "TK": [64], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [8], "LD": [True], "DB": [False], "ST": [2],
              "MB": [1, 2], "SH": [True], "AC": ["ca"], "SW": [1], "IB": [32, 64]}
elif space == "h16j":
    params = {"TI": [128, 256], "TJ": [128], "TK": [64], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [8], "LD": [True], "DB": [False], "ST": [2, 3],
              "MB": [1, 2], "SH": [True], "AC": ["ca"], "SW": [1, 8], "IB": [32]}
elif space == "h16k":
    params = {"TI": [128, 256], "TJ": [128], "TK": [64, 128], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [8], "LD": [True], "DB": [False], "ST": [2],
              "MB": [1, 2], "SH": [True], "AC": ["ca"], "SW": [1], "IB": [32]}
elif space == "h16l":
    params = {"TI": [128], "TJ": [128], "TK": [32, 64], "WI": [32, 64], "WJ": [32, 64],
              "PAD": [8], "VL": [8], "LD": [True], "DB": [False], "ST": [2, 3, 4], "FB": [1, 2],
              "MB": [1, 2], "SH": [True], "AC": ["ca"], "SW": [1], "IB": [32]}
elif space == "h16p":
    params = {"TI": [128], "TJ": [128], "TK": [64], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [8], "LD": [True], "DB": [False], "ST": [2],
              "MB": [1, 2], "SH": [True], "AC": ["ca"], "SW": [1], "IB": [32], "PF": [0, 1, 2]}
elif space == "h16q":
    params = {"TI": [128], "TJ": [128], "TK": [64], "WI": [64], "WJ": [32],
              "PAD": [8], "VL": [8], "LD": [True], "DB": [False], "ST": [2],
              "MB": [2], "SH": [True], "AC": ["ca"], "SW": [1], "IB": [32], "PF": [0, 1]}
elif space == "t32p":
    params = {"TI": [128], "TJ": [128], "TK": [32], "WI": [64], "WJ": [64],
              "PAD": [8], "VL": [4], "LD": [True], "DB": [False], "ST": [2],
              "SH": [True], "AC": ["cg"], "SW": [8], "IB": [32], "PF": [0, 2]}
elif space == "wg":
    params = {"TI": [128], "TJ": [128, 256], "TK": [64], "WI": [64], "WJ": [64, 128, 256],
              "PAD": [0], "VL": [8], "ST": [3, 4], "SH": [True], "AC": ["cg", "ca"], "IB": [32],
              "MI": ["wgmma"]}
elif space == "wgb":
    params = {"TI": [128, 256], "TJ": [128, 256], "TK": [64], "WI": [64], "WJ": [128],
              "PAD": [0], "VL": [8], "ST": [4], "SH": [True], "AC": ["cg"], "SW": [1, 8],
              "IB": [32], "PF": [0, 1], "MI": ["wgmma"]}
elif space == "wgc":
    params = {"TI": [128, 256], "TJ": [128], "TK": [64], "WI": [64], "WJ": [64, 128],
              "PAD": [0], "VL": [8], "ST": [3, 4], "SH": [True], "AC": ["cg", "ca"], "IB": [32],
              "MB": [1, 2], "MI": ["wgmma"]}
elif space == "wgs":
    params = {"TI": [128, 256], "TJ": [128, 256], "TK": [64], "WI": [64], "WJ": [64, 128, 256],
              "PAD": [0], "VL": [8], "ST": [3, 4], "SH": [True], "IB": [32], "MI": ["wgmma"]}
elif space == "wgd":
    params = {"TI": [128, 192, 256], "TJ": [128, 256], "TK": [64], "WI": [64], "WJ": [128, 256],
              "PAD": [0], "VL": [8], "ST": [4, 5, 6], "SH": [True], "IB": [32], "MI": ["wgmma"]}
elif space == "wt":
    params = {"TI": [128, 256], "TJ": [128, 256], "TK": [32], "WI": [64], "WJ": [64, 128, 256],
              "PAD": [0], "VL": [4], "ST": [3, 4, 5, 6], "SH": [True], "IB": [32], "MI": ["wgmma"]}
elif space == "wtn":
    params = {"TI": [128, 256], "TJ": [128], "TK": [32], "WI": [64], "WJ": [64, 128],
              "PAD": [0], "VL": [4], "ST": [4], "SH": [True], "IB": [32], "MI": ["wgmma"],
              "LB": [8, 16, 32]}
elif space == "t32o":
    # TF32 for NVIDIA OpenCL (48 KiB of local memory), session 35: tf32Convert 'fragment' /
    # 'truncate' x 128x128 tiles of 64x64 / 64x32 warps x TK 8 (2-4 stages) / 16 (2 stages),
    # ldmatrix, .ca copies, blockSwizzle 8; 16 configurations.
    params = {"TI": [128], "TJ": [128], "TK": [8, 16], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [4], "LD": [True], "DB": [False], "ST": [2, 3, 4],
              "SH": [True], "AC": ["ca"], "SW": [8], "TC": ["fragment", "truncate"]}
elif space == "wtr":
    params = {"TI": [128, 256], "TJ": [128, 256], "TK": [32], "WI": [64], "WJ": [128, 256],
              "PAD": [0], "VL": [4], "ST": [3, 4, 5, 6], "SH": [True], "IB": [32], "MI": ["wgmma"],
              "LB": [8, 16]}
elif space == "wts":
    params = {"TI": [128, 256], "TJ": [128, 256], "TK": [32], "WI": [64], "WJ": [128, 256],
              "PAD": [0], "VL": [4], "ST": [3, 4], "SH": [True], "IB": [32], "MI": ["wgmma"],
              "LB": [16, 32]}
elif space == "wtt":
    params = {"TI": [128, 256], "TJ": [128, 256], "TK": [32], "WI": [64], "WJ": [128],
              "PAD": [0], "VL": [4], "ST": [3, 4], "SH": [True], "IB": [32], "MI": ["wgmma"],
              "LB": [16], "TR": [1, 2, 4]}
elif space == "wto":
    params = {"TI": [128, 256], "TJ": [128, 256], "TK": [32], "WI": [64], "WJ": [128],
              "PAD": [0], "VL": [4], "ST": [4], "SH": [True], "IB": [32], "MI": ["wgmma"],
              "LB": [16], "TR": [1, 2, 4]}
elif space == "deep":
    params = {"TI": [128], "TJ": [128], "TK": [16, 32, 64], "WI": [64], "WJ": [32, 64],
              "PAD": [8], "VL": [4], "LA": [1, 4, 8], "DB": [False, True], "SH": [True]}
else:
    def value(v):
        if v in ("True", "False"):
            return v == "True"
        return int(v) if v.lstrip("-").isdigit() else v
    params = {kv.split("=")[0]: [value(kv.split("=")[1])] for kv in space.split()}
# 4 or 8 warps of at most 64 x 64 outputs; no 64x128 block (the starter's blocks are 64x64,
# 128x64, 128x128); static local memory within 48 KiB.
constraints = ["warps = ((TI / WI) * (TJ / WJ) >= 4 and (TI / WI) * (TJ / WJ) <= "
               + ("16)" if space == "h16r" else "8)"),
               "blocks = (TI >= TJ)",
               "lmem = ((TI * (TK + 4) + TK * (TJ + PAD)) * 4 * "
               + ("(2 if DB else ST)" if "ST" in params else "(2 if DB else 1)" if "DB" in params else "1")
               + (" <= 232448)" if space in ("frag", "wide", "conv", "ldm", "h16", "h16x", "h16fb", "h16r", "h16s", "t32s", "t32i", "h16i", "h16j", "h16k", "h16l", "h16p", "h16q", "t32p") else " <= 49152)")]
if space in ("frag", "wide", "conv", "ldm", "h16", "h16x", "h16fb", "h16r", "h16s", "t32s", "t32i", "h16i", "h16j", "h16k", "h16l", "h16p", "h16q", "t32p"):
    # doubleBuffer or stages 2-4, not both, not neither.
    constraints.append("staged = ((DB and ST == 1) or (not DB and ST > 1))")
if space == "ldm":
    constraints.append("convert = (TC == 'fragment' or DB)")
if "ST" in params:
    constraints.append("staging = (not (DB and ST > 1))")
if prec != "tf32":
    constraints[2] = constraints[2].replace(" * 4 * ", " * 2 * ")
if space == "h16l":
    # 64x32 / 32x64 warps with minBlocks 2, 64x64 with 1; fragBuffers 2 on 64-row warps; k-slab 32
    # with 2-4 stages on the 64x32 form only: 8 configurations.
    constraints[2] = constraints[2].replace("(TK + 4)", "(TK + 8)")
    constraints += ["mb = ((WI * WJ == 2048) == (MB == 2))", "st = (ST == 2 or TK == 32)",
                    "tk = (TK == 64 or (WI == 64 and WJ == 32 and FB == 1))",
                    "fb = (FB == 1 or WI == 64)", "w = (WI == 64 or (TK == 64 and FB == 1))"]
if space == "h16p":
    constraints[2] = constraints[2].replace("(TK + 4)", "(TK + 8)")
    constraints += ["mb = ((WJ == 32) == (MB == 2))"]
if space == "h16k":
    constraints[2] = constraints[2].replace("(TK + 4)", "(TK + 8)")
    constraints += ["mb = (MB == 1 or (TI == 128 and WJ == 32 and TK == 64))"]
if space == "h16j":
    constraints[2] = constraints[2].replace("(TK + 4)", "(TK + 8)")
    constraints += ["mb = ((TI == 128 and WJ == 32) == (MB == 2))", "wide = (TI == 128 or WJ == 32)"]
if space == "h16i":
    constraints[2] = constraints[2].replace("(TK + 4)", "(TK + 8)")
    constraints += ["mb = (MB == 1 or WJ == 32)"]
if space == "h16s":
    constraints[2] = constraints[2].replace("(TK + 4)", "(TK + 8)")
    constraints += ["mb = (MB == 1 or WJ == 32)", "st = (ST == 2 or WJ == 32)"]
if space == "t32s":
    constraints += ["st = (ST == 2 or TK == 16)"]
if space == "h16r":
    # k-contiguous tiles of 16-bit elements are padded by 8 halves (ldmatrix rows of 16 bytes);
    # minBlocks 2 only where two blocks can fit (8 warps of 64x32); vecLoad 4 only as the
    # baseline.
    constraints[2] = constraints[2].replace("(TK + 4)", "(TK + 8)")
    constraints += ["mb = (MB == 1 or (TI == 128 and WJ == 32))",
                    "base = (VL == 8 or (TI == 128 and WJ == 64 and TK == 64 and ST == 2 and MB == 1))"]
if space == "wg":
    constraints = ["wj = (TJ % WJ == 0)"]
elif space == "wgb":
    constraints = ["size = (TI * TJ <= 32768)"]
elif space == "wgs":
    constraints = ["wj = (TJ % WJ == 0)", "size = (TI * TJ <= 32768)",
                   "groups = ((TI / 64) * (TJ / WJ) <= 4)"]
elif space == "wt":
    constraints = ["wj = (TJ % WJ == 0)", "size = (TI * TJ <= 32768)",
                   "groups = ((TI / 64) * (TJ / WJ) <= 4)", "smem = ((TI + TJ) * TK * 4 * ST <= 232448)"]
elif space == "wtn":
    constraints = ["groups = ((TI / 64) * (TJ / WJ) <= 4)"]
elif space in ("wtr", "wts", "wtt"):
    constraints = ["wj = (TJ % WJ == 0)", "size = (TI * TJ <= 32768)",
                   "groups = ((TI / 64) * (TJ / WJ) <= 4)", "smem = ((TI + TJ) * TK * 4 * ST <= 232448)"]
elif space == "wto":
    constraints = ["size = (TI * TJ == 32768)"]
elif space == "wgd":
    constraints = ["pick = ((TI == 256 and TJ == 128 and WJ == 128 and ST == 4)"
                   " or (TI == 192 and TJ == 128 and WJ == 128 and ST >= 4 and ST <= 5)"
                   " or (TI == 192 and TJ == 256 and WJ == 256 and ST == 4)"
                   " or (TI == 128 and TJ == 128 and WJ == 128 and ST >= 5)"
                   " or (TI == 128 and TJ == 256 and WJ == 128 and ST == 4))"]
elif space == "wgc":
    constraints = ["pick = ((TI == 256 and MB == 1 and (ST == 4 or (WJ == 128 and AC == 'cg')))"
                   " or (TI == 128 and ST == 3 and MB == 2 and AC == 'cg'))"]
elif space not in ("starter", "deep", "t32o", "frag", "wide", "conv", "ldm", "h16", "h16x", "h16fb", "h16r", "h16s", "t32s", "t32i", "h16i", "h16j", "h16k", "h16l", "h16p", "h16q", "t32p"):
    constraints = []
loop = """    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++) {
            float s = 0.0f;
            for (l=0; l<=k-1; l++)
                s += %s*%s;
            C[i*n+j] = alpha*s + beta*C[i*n+j];
        }""" % (a, b)
lines = "\n".join(f"            param {p}[] = [{', '.join(repr(x) if isinstance(x, str) else str(x) for x in vals)}];"
                  for p, vals in params.items())
cons = "\n".join(f"            constraint {c};" for c in constraints)
args = (f"mathMode='{prec}', tile=[('i',TI),('j',TJ),('l',TK)], warpTile=[('i',WI),('j',WJ)], padLocal=PAD"
        + (", vecLoad=VL" if "VL" in params else "")
        + (", loadItems=[" + ", ".join(f"('{v}',{p})" for v, p in (("i", "LA"), ("j", "LB")) if p in params) + "]"
           if "LA" in params or "LB" in params else "")
        + (", doubleBuffer=DB" if "DB" in params else "")
        + (", stages=ST" if "ST" in params else "")
        + (", fragLoad=FL" if "FL" in params else "")
        + (", fragLoad=('ldmatrix' if LD else 1)" if "LD" in params else "")
        + (", tf32Convert=TC" if "TC" in params else "")
        + (", fragBuffers=FB" if "FB" in params else "")
        + (", asyncCache=AC" if "AC" in params else "")
        + (", blockSwizzle=SW" if "SW" in params else "")
        + (", indexBits=IB" if "IB" in params else "")
        + (", prefetchResult=PF" if "PF" in params else "")
        + (", mmaInstruction=MI" if "MI" in params else "")
        + (", transposeRows=TR" if "TR" in params else ""))
cl_args = args + (", sizeHint=SH" if "SH" in params else "")
cu_args = args + (", launchBounds=SH" if "SH" in params else "") + (", minBlocks=MB" if "MB" in params else "")
print(f"""/* bench/tensor.sh case {prec.upper()} {form} {m} x {n} x {k} ({space}), generated by bench/tensor/make_case.py */
void Gemm(int m, int n, int k, float alpha, const {ety} *A, const {ety} *B, float beta, float *C) {{
    int i, j, l;
    /*@ begin PerfTuning(
        def performance_params {{
{lines}
{cons}
        }}
        def build {{ arg build_command = 'cc -O2'; }}
        def input_params {{ param M[] = [{m}]; param N[] = [{n}]; param K[] = [{k}]; }}
        def input_vars {{
            decl int m = M;
            decl int n = N;
            decl int k = K;
            decl float alpha = random;
            decl float beta = random;
            decl static {ety} A[M*K] = random;
            decl static {ety} B[K*N] = random;
            decl static float C[M*N] = random;
        }}
        def performance_counter {{ arg repetitions = 5; }}
        def search {{ arg algorithm = 'Exhaustive'; }}
    ) @*/
    /*@ begin Loop(transform OpenCL({cl_args})
                   transform CUDA({cu_args})
{loop}
    ) @*/
{loop}
    /*@ end @*/
    /*@ end @*/
}}""")
