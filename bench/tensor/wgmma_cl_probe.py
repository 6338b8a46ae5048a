#!/usr/bin/env python3
"""Probe (issue 23, session 36): the TF32 `wgmma` form in NVIDIA's OpenCL. NVIDIA's OpenCL compiler
targets sm_90, where ptxas rejects `wgmma`; its program binaries are PTX, and a PTX binary with
`.target sm_90a` is accepted by clCreateProgramWithBinary (bench/tensor/nvarch_probe.c). This edits
the OpenCL kernel text `orcl emit --backend opencl` prints for a `mmaInstruction='wgmma'`
configuration into a form that builds on sm_90 and can be retargeted: the hardware form switched on
(`#if 0` -> `#if 1`), the tiles 1024-byte aligned (the 128-byte swizzle repeats every 1024 bytes),
and each `wgmma.` instruction written as a PTX comment `//ORCL90A wgmma....`;
bench/tensor/cl_harness.c with RETARGET=1 then rewrites the PTX (`.target sm_90a`, the marker
removed) and builds it from the binary.

NVIDIA's OpenCL compiler crashes (segfault in clBuildProgram) on the `wgmma.mma_async` asm
statements as the CUDA text writes them (32+ "+f" accumulator operands plus descriptors), so the
accumulators become named PTX registers `orcl_d<N>` declared once at the top of the kernel, zeroed
there, named in each `wgmma` without operands, and moved into the C accumulators after the final
`wgmma.wait_group 0`.

usage: wgmma_cl_probe.py IN OUT [operands]   (IN: the emit text or just its kernel; operands: keep
the "+f" accumulator operands, only `ulong` descriptors)"""
import re
import sys

s = open(sys.argv[1]).read()
if "/* ---- OpenCL kernel ---- */" in s:
    s = s.split("/* ---- OpenCL kernel ---- */", 1)[1].split("/* ---- host code ---- */", 1)[0]
s = s.replace("#if 0 && !defined(ORCL_EMULATE_MMA)", "#if 1")
s = s.replace("__attribute__((aligned(16)))", "__attribute__((aligned(1024)))")
mma = re.compile(r'asm volatile\("\{\\n\.reg \.pred p;\\nsetp\.ne\.b32 p, %(\d+), 0;\\n(wgmma\.mma_async[^ ]*) \{[^}]*\}, %\d+, %\d+, p, 1, 1;\\n\}\\n"\s*: (.*?)\s*: "l"\((\w+)\), "l"\((\w+)\), "r"\(1\)\);', re.S)
outs = None
def named(mt):
    global outs
    lv = re.findall(r'"\+f"\(([^)]*)\)', mt.group(3))
    assert outs is None or outs == lv, "warpgroups with different accumulators"
    outs = lv
    regs = ",".join(f"orcl_d{r}" for r in range(len(lv)))
    return (f'asm volatile("//ORCL90A {mt.group(2)} {{{regs}}}, %0, %1, orcl_pd, 1, 1;" '
            f':: "l"({mt.group(4)}), "l"({mt.group(5)}) : "memory");')
if len(sys.argv) > 3 and sys.argv[3] == "operands":  # keep the CUDA text's "+f" operands
    s = s.replace("unsigned long long", "ulong").replace("1ull << 62", "1ul << 62")
    open(sys.argv[2], "w").write(s.replace("wgmma.", "//ORCL90A wgmma."))
    sys.exit(0)
s, count = mma.subn(named, s)
assert count > 0, "no wgmma.mma_async statement found"
n = len(outs)
zero = "\\n".join(f"mov.b32 orcl_d{r}, 0;" for r in range(n))
decl = (f'    asm volatile(".reg .f32 orcl_d<{n}>;\\n.reg .pred orcl_pd;\\n{zero}\\nsetp.ne.b32 orcl_pd, %0, 0;" :: "r"(1));\n')
body = s.index("{\n") + 2
s = s[:body] + decl + s[body:]
# after the final wait_group 0: the named registers into the C accumulators, 8 per statement
fin = re.compile(r'(asm volatile\("wgmma\.wait_group\.sync\.aligned 0;" ::: "memory"\);\n)((\s*asm volatile\("" : [^\n]*\n)+)')
def moves(mt):
    out = mt.group(1)
    for c in range(0, n, 8):
        part = outs[c:c + 8]
        text = "\\n".join(f"mov.b32 %{i}, orcl_d{c + i};" for i in range(len(part)))
        out += f'    asm volatile("{text}" : ' + ", ".join(f'"=f"({x})' for x in part) + ' :: "memory");\n'
    return out
s, fc = fin.subn(moves, s)
assert fc == 1, f"final wait found {fc} times"
# OpenCL C reserves `long long` (128 bits): the descriptors are `ulong`
s = s.replace("unsigned long long", "ulong").replace("1ull << 62", "1ul << 62")
s = s.replace("wgmma.", "//ORCL90A wgmma.").replace("//ORCL90A //ORCL90A ", "//ORCL90A ")
open(sys.argv[2], "w").write(s)
