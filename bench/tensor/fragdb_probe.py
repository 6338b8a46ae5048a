#!/usr/bin/env python3
"""Probe (issue 23, helper C): warp-level fragment double buffering for orcl's TF32 mma.sync OpenCL
kernel (NN, fragLoad='ldmatrix' for A, scalar 32-bit local reads for B, cp.async stages=2).
Rewrites the main k-loop of `orcl emit --backend opencl` text:
  the loop is rotated so that the wait_group/barrier/next-slab issue of slab k0+TK sits before the
  LAST k-step's mma.sync of slab k0 (all reads of the current buffer happen before that barrier),
  and the fragments of k-step s+1 (or of the next slab's k-step 0) are read before / among the
  mma.sync of k-step s.
Per operand (A: ldmatrix fragments, B: 32-bit local reads) a mode:
  jit  - as orcl today: step s's fragments read at the start of step s (before its mmas)
  db   - two register sets (CUTLASS warp_frag[2]): step s+1's fragments read at the start of step s
  roll - one register set, reloaded as it dies: A's a_mi of step s+1 read right after the row of
         mmas (mi, *) of step s; B's b_ni of step s+1 read right after mma (last mi, ni) of step s
The emulated (non-NVIDIA) path keeps the same schedule with private copies of the fragments, so
PoCL checks the buffer / barrier logic.
usage: fragdb.py IN OUT AMODE BMODE   (IN: the emit text or just its kernel)"""
import re, sys

src, out, amode, bmode = sys.argv[1:5]
s = open(src).read()
if "/* ---- OpenCL kernel ---- */" in s:
    s = s.split("/* ---- OpenCL kernel ---- */", 1)[1].split("/* ---- host code ---- */", 1)[0]
lines = s.split("\n")
loop_i = next(i for i, l in enumerate(lines) if l.startswith("    for (long orcl_k0 = 0; orcl_k0 < orcl_kn; orcl_k0 += "))
TK = int(re.search(r"orcl_k0 \+= (\d+)\)", lines[loop_i]).group(1))
epi_i = max(i for i, l in enumerate(lines) if l == "    #pragma unroll")
assert lines[epi_i - 1] == "    }"
body = lines[loop_i:epi_i]
iss0 = next(i for i, l in enumerate(body) if l == f"        if (orcl_k0 + {TK} < orcl_kn) {{")
com = next(i for i, l in enumerate(body) if "cp.async.commit_group" in l)
assert body[com - 1] == "#if ORCL_MMA_SYNC"
issue = "\n".join(body[iss0:com - 1])
issue = re.sub(r"\borcl_k0\b", "orcl_k0n", issue)
m = re.search(r"float orcl_acc\[(\d+)\]\[(\d+)\]\[4\];", s)
MI, NI = int(m.group(1)), int(m.group(2))
S = TK // 8
trunc = "orcl_tf32" not in s.split("orcl_ks")[1] if False else True  # truncate text: fragments are the bits

def loadA(p, mi, buf, ks):
    hw = (f"asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{%0,%1,%2,%3}}, [%4];\" : "
          + ", ".join(f"\"=r\"(orcl_fa{p}_{mi}_{x})" for x in range(4))
          + f" : \"r\"(orcl_smem(&orcl_tile0[{buf}][orcl_wm0 + {mi} * 16 + (orcl_lane % 8) + 8 * ((orcl_lane / 8) % 2)][{ks} + 4 * ((orcl_lane / 8) / 2)])));")
    emu = (f"for (int orcl_r = 0; orcl_r < 16; orcl_r++) for (int orcl_c = 0; orcl_c < 8; orcl_c++) "
           f"orcl_ea{p}_{mi}[orcl_r][orcl_c] = orcl_tile0[{buf}][orcl_wm0 + {mi} * 16 + orcl_r][{ks} + orcl_c];")
    return hw, emu

def loadB(p, ni, buf, ks):
    hw = (f"orcl_fb{p}_{ni}_0 = as_uint(orcl_tile1[{buf}][{ks} + orcl_tig][orcl_wn0 + {ni} * 8 + orcl_gid]); "
          f"orcl_fb{p}_{ni}_1 = as_uint(orcl_tile1[{buf}][{ks} + orcl_tig + 4][orcl_wn0 + {ni} * 8 + orcl_gid]);")
    emu = (f"for (int orcl_r = 0; orcl_r < 8; orcl_r++) for (int orcl_c = 0; orcl_c < 8; orcl_c++) "
           f"orcl_eb{p}_{ni}[orcl_r][orcl_c] = orcl_tile1[{buf}][{ks} + orcl_r][orcl_wn0 + {ni} * 8 + orcl_c];")
    return hw, emu

def mma(mi, ni, pa, pb):
    hw = ("asm volatile(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\" : "
          + ", ".join(f"\"+f\"(orcl_acc[{mi}][{ni}][{q}])" for q in range(4)) + " : "
          + ", ".join(f"\"r\"(orcl_fa{pa}_{mi}_{x})" for x in range(4)) + ", "
          + ", ".join(f"\"r\"(orcl_fb{pb}_{ni}_{x})" for x in range(2)) + ");")
    emu = (f"for (int orcl_q = 0; orcl_q < 4; orcl_q++) {{ const int orcl_r = orcl_gid + 8 * (orcl_q / 2); const int orcl_c = 2 * orcl_tig + orcl_q % 2; "
           f"float orcl_d = orcl_acc[{mi}][{ni}][orcl_q]; for (int orcl_kk = 0; orcl_kk < 8; orcl_kk++) "
           f"orcl_d += as_float(as_uint(orcl_ea{pa}_{mi}[orcl_r][orcl_kk]) & 0xffffe000u) * as_float(as_uint(orcl_eb{pb}_{ni}[orcl_kk][orcl_c]) & 0xffffe000u); "
           f"orcl_acc[{mi}][{ni}][orcl_q] = orcl_d; }}")
    return hw, emu

def emit(out, ind, pair):
    out.append(ind + "#if ORCL_MMA_SYNC" if False else "#if ORCL_MMA_SYNC")
    out.append(ind + pair[0])
    out.append("#else")
    out.append(ind + pair[1])
    out.append("#endif")

def sync_issue(ind, k0n, fill):
    t = [f"{ind}{{",
         f"{ind}    const long orcl_k0n = {k0n};",
         f"{ind}    const int orcl_fill = {fill};",
         "#if ORCL_MMA_SYNC",
         f"{ind}    asm volatile(\"cp.async.wait_group 0;\" ::: \"memory\");",
         "#endif",
         f"{ind}    barrier(CLK_LOCAL_MEM_FENCE);",
         issue,
         "#if ORCL_MMA_SYNC",
         f"{ind}    asm volatile(\"cp.async.commit_group;\" ::: \"memory\");",
         "#endif",
         f"{ind}}}"]
    return t

nsets = {"jit": 1, "roll": 1, "db": 2}
o = []
ind = "    "
# declarations
o.append("#if ORCL_MMA_SYNC")
for p in range(nsets[amode]):
    for mi in range(MI):
        o.append(ind + "unsigned int " + ", ".join(f"orcl_fa{p}_{mi}_{x}" for x in range(4)) + ";")
for p in range(nsets[bmode]):
    for ni in range(NI):
        o.append(ind + "unsigned int " + ", ".join(f"orcl_fb{p}_{ni}_{x}" for x in range(2)) + ";")
o.append("#else")
for p in range(nsets[amode]):
    for mi in range(MI):
        o.append(ind + f"float orcl_ea{p}_{mi}[16][8];")
for p in range(nsets[bmode]):
    for ni in range(NI):
        o.append(ind + f"float orcl_eb{p}_{ni}[8][8];")
o.append("#endif")
# prologue: wait for slab 0, barrier, issue slab TK into buffer 1, then the first fragments
o += sync_issue(ind, "0", "1")
if amode != "jit":
    for mi in range(MI):
        emit(o, ind, loadA(0, mi, "0", "0"))
if bmode != "jit":
    for ni in range(NI):
        emit(o, ind, loadB(0, ni, "0", "0"))
o.append(f"    for (long orcl_k0 = 0; orcl_k0 < orcl_kn; orcl_k0 += {TK}) {{")
ind2 = "        "
o.append(f"{ind2}const int orcl_buf = (int)((orcl_k0 / {TK}) % 2);")
nsteps_total = S  # sets alternate per step; with db and odd S the parity must carry across slabs
assert S % 2 == 0 or (amode != "db" and bmode != "db"), "db needs an even number of k-steps per slab"
for st in range(S):
    last = st == S - 1
    pa = st % 2 if amode == "db" else 0
    pb = st % 2 if bmode == "db" else 0
    pan = (st + 1) % 2 if amode == "db" else 0
    pbn = (st + 1) % 2 if bmode == "db" else 0
    ks = f"{st * 8}"
    nbuf, nks = ("orcl_buf", f"{(st + 1) * 8}") if not last else ("(orcl_buf ^ 1)", "0")
    o.append(f"{ind2}/* k-step {st} */")
    if amode == "jit":
        for mi in range(MI):
            emit(o, ind2, loadA(0, mi, "orcl_buf", ks))
    if bmode == "jit":
        for ni in range(NI):
            emit(o, ind2, loadB(0, ni, "orcl_buf", ks))
    if last:
        o += sync_issue(ind2, f"orcl_k0 + {TK}", "orcl_buf")
    if amode == "db":
        for mi in range(MI):
            emit(o, ind2, loadA(pan, mi, nbuf, nks))
    if bmode == "db":
        for ni in range(NI):
            emit(o, ind2, loadB(pbn, ni, nbuf, nks))
    for mi in range(MI):
        for ni in range(NI):
            emit(o, ind2, mma(mi, ni, pa, pb))
            if bmode == "roll" and mi == MI - 1:
                emit(o, ind2, loadB(0, ni, nbuf, nks))
        if amode == "roll":
            emit(o, ind2, loadA(0, mi, nbuf, nks))
o.append("    }")
# the barrier-free jit variant needs its last-step jit reads before the barrier: they are (emitted above)
new = "\n".join(lines[:loop_i] + o + lines[epi_i:])
new = new.replace("barrier(CLK_LOCAL_MEM_FENCE);\n#if ORCL_MMA_SYNC\n", "barrier(CLK_LOCAL_MEM_FENCE);\n#if ORCL_MMA_SYNC\n")
open(out, "w").write(new)
print(f"TK={TK} MI={MI} NI={NI} steps={S} A={amode} B={bmode}")
