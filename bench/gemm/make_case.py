#!/usr/bin/env python3
"""Writes the annotated C file of one GEMM case for bench/gemm.sh (the BLAS-style naive loop of
issue 13, C = alpha*op(A)*op(B) + beta*C, row-major 1-D arrays).

usage: make_case.py TYPE FORM M N K SPACE > file.c
  TYPE  s | d            float | double
  FORM  NN | NT | TN | TT   A (m x k) and/or B (k x n) stored transposed
  SPACE full (132 configurations) | fullvl (full x vecLoad 1/4, 264) | big (10,824, the recorded
        space of bench/gemm/record_space.sh) | ladder (32: tiny x vecLoad x loadItems of A x warpTile) | small (16) | tiny (4) | tinydb (tiny x doubleBuffer, 8) | "TI=128 TJ=128 TK=16 RI=8 RJ=8 VW=4 PAD=0 VL=4" (one configuration;
        VL (vecLoad), DB (doubleBuffer), LA and LB (loadItems of A's and B's slabs),
        WI and WJ (warpTile), SH (sizeHint in OpenCL / launchBounds in CUDA: declare the work-group
        size), MR (CUDA only: cudaFlags '-maxrregcount=MR'; 0 = none) optional)
        | polish (36: the winner x TJ x RJ x TK x VL x LA, sizeHint on) | cudalb (16: the ladder winner x TK x LA x launchBounds x maxrregcount 128) | sh (32: the
        ladder winner x TK x PAD x LA x WJ x sizeHint)
"""
import sys

ty, form, m, n, k, space = sys.argv[1:7]
T = {"s": "float", "d": "double"}[ty]
zero = "0.0f" if T == "float" else "0.0"
a = "A[l*m+i]" if form[0] == "T" else "A[i*k+l]"
b = "B[j*k+l]" if form[1] == "T" else "B[l*n+j]"
v = 4 if T == "float" else 2
if space == "full":
    params = {"TI": [64, 128], "TJ": [64, 128], "TK": [8, 16, 32], "RI": [4, 8], "RJ": [4, 8],
              "VW": [1, v], "PAD": [0, v]}
elif space == "fullvl":
    params = {"TI": [64, 128], "TJ": [64, 128], "TK": [8, 16, 32], "RI": [4, 8], "RJ": [4, 8],
              "VW": [1, v], "PAD": [0, v], "VL": [1, v]}
elif space == "big":
    # The recorded space of issue 13 (bench/gemm/record_space.sh): 10,824 configurations satisfy
    # the constraints below (work-group 64-256, VW <= RI and RJ, RI*RJ <= 64 accumulators, local
    # tiles within 48 KiB).
    params = {"TI": [32, 64, 128, 256], "TJ": [32, 64, 128, 256], "TK": [4, 8, 16, 32],
              "RI": [2, 4, 8, 16], "RJ": [2, 4, 8, 16], "VW": [1, 2, v], "PAD": [0, v],
              "VL": [1, 2, v], "DB": [False, True]}
elif space == "ladder":
    # The tiny winner's neighbourhood with the vector global loads (VL), A's loading layout (LA
    # work-items along k; LA = 1: one row of A per work-item, conflict-free transposed store) and
    # warp-level tiling (WI x WJ = 4 x 8 work-items per warp; WJ = 16 is the whole row: none).
    params = {"TI": [128], "TJ": [128], "TK": [8, 16], "RI": [8], "RJ": [8], "VW": [v],
              "PAD": [0, v], "VL": [1, v], "LA": [1, 4], "WI": [4], "WJ": [8, 16]}
elif space == "cudalb":
    params = {"TI": [128], "TJ": [128], "TK": [8, 16], "RI": [8], "RJ": [8], "VW": [v],
              "PAD": [v], "VL": [1], "LA": [1, 4], "SH": [False, True], "MR": [0, 128]}
elif space == "sh":
    params = {"TI": [128], "TJ": [128], "TK": [8, 16], "RI": [8], "RJ": [8], "VW": [v],
              "PAD": [0, v], "VL": [1], "LA": [1, 4], "WI": [4], "WJ": [8, 16], "SH": [False, True]}
elif space == "polish":
    # Around the 4096^3 winner (TI=TJ=128 RI=RJ=8 TK=16 PAD=4 LA=4, sizeHint / launchBounds):
    # wider j tiles with 16 outputs per work-item along j, a deeper k-slab, A's loading layout.
    params = {"TI": [128], "TJ": [128, 256], "TK": [16, 32], "RI": [8], "RJ": [8, 16], "VW": [v],
              "PAD": [v], "VL": [1, v], "LA": [2, 4, 8], "SH": [True]}
elif space == "small":
    params = {"TI": [64, 128], "TJ": [64, 128], "TK": [16, 32], "RI": [8], "RJ": [8], "VW": [v],
              "PAD": [0, v]}
elif space in ("tiny", "tinydb"):
    params = {"TI": [128], "TJ": [128], "TK": [8, 16], "RI": [8], "RJ": [8], "VW": [v], "PAD": [0, v]}
    if space == "tinydb":
        params["DB"] = [False, True]
else:
    params = {kv.split("=")[0]: [kv.split("=")[1] == "True" if kv.split("=")[1] in ("True", "False") else int(kv.split("=")[1])]
              for kv in space.split()}
constraints = ["wg = ((TI / RI) * (TJ / RJ) >= 64 and (TI / RI) * (TJ / RJ) <= 256)"]
if space == "polish":
    constraints += ["acc = (RI * RJ <= 128)"]
if space == "big":
    size = 4 if T == "float" else 8
    constraints += ["vw = (VW <= RI and VW <= RJ)", "acc = (RI * RJ <= 64)",
                    f"lmem = ((TI + TJ + 2 * PAD) * TK * {size} <= 24576 or "
                    f"(not DB and (TI + TJ + 2 * PAD) * TK * {size} <= 49152))"]
loop = f"""    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++) {{
            {T} s = {zero};
            for (l=0; l<=k-1; l++)
                s += {a}*{b};
            C[i*n+j] = alpha*s + beta*C[i*n+j];
        }}"""
if "MR" in params:
    # cudaFlags takes a string: one value per MR ('' for MR = 0).
    params["CF"] = ["''" if r == 0 else f"'-maxrregcount={r}'" for r in params.pop("MR")]
lines = "\n".join(f"            param {p}[] = [{', '.join(str(x) for x in vals)}];" for p, vals in params.items())
cons = "\n".join(f"            constraint {c};" for c in constraints)
args = ("tile=[('i',TI),('j',TJ),('l',TK)], regTile=[('i',RI),('j',RJ)], cacheBlocks=True, "
        "vecWidth=VW, padLocal=PAD" + (", vecLoad=VL" if "VL" in params else "")
        + (", loadItems=[" + ",".join(f"('{x}',L{y})" for x, y in (("i", "A"), ("j", "B")) if f"L{y}" in params) + "]"
           if "LA" in params or "LB" in params else "")
        + (", warpTile=[" + ",".join(f"('{x}',W{y})" for x, y in (("i", "I"), ("j", "J")) if f"W{y}" in params) + "]"
           if "WI" in params or "WJ" in params else "")
        + (", doubleBuffer=DB" if "DB" in params else ""))
cl_args = args + (", sizeHint=SH" if "SH" in params else "")
cu_args = args + (", launchBounds=SH" if "SH" in params else "") + (", cudaFlags=CF" if "CF" in params else "")
print(f"""/* bench/gemm.sh case {ty}gemm {form} {m} x {n} x {k} ({space}), generated by bench/gemm/make_case.py */
void Gemm(int m, int n, int k, {T} alpha, const {T} *A, const {T} *B, {T} beta, {T} *C) {{
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
            decl {T} alpha = random;
            decl {T} beta = random;
            decl static {T} A[M*K] = random;
            decl static {T} B[K*N] = random;
            decl static {T} C[M*N] = random;
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
