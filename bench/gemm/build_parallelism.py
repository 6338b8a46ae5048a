#!/usr/bin/env python3
"""Is the OpenCL compiler serialised within a process? (docs/THROUGHPUT.md, "Why processes")

Builds N kernels sampled from bench/gemm/make_case.py's `big` space (emitted by `orcl emit`) on the
first platform whose name contains PLATFORM (default NVIDIA): one after another, from 16 threads of
one process sharing a context, and from 16 processes. Needs pyopencl (and numpy).

usage: python3 bench/gemm/build_parallelism.py [N=48]     (repository root, orcl built)
"""
import itertools, multiprocessing, os, random, subprocess, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor
import warnings

warnings.filterwarnings("ignore")
import pyopencl as cl

ORCL = os.environ.get("ORCL", "./target/release/orcl")
PLATFORM = os.environ.get("PLATFORM", "NVIDIA")
C = None


def init():
    global C
    p = next(p for p in cl.get_platforms() if PLATFORM in p.name)
    C = cl.Context([p.get_devices()[0]])


def build(src):
    src += f"\n// {time.time()} {os.getpid()}\n"  # no cache can answer
    t = time.time()
    cl.Program(C, src).build()
    return time.time() - t


def kernels(n, d):
    space = {"TI": [32, 64, 128, 256], "TJ": [32, 64, 128, 256], "TK": [4, 8, 16, 32],
             "RI": [2, 4, 8, 16], "RJ": [2, 4, 8, 16], "VW": [1, 2, 4], "PAD": [0, 4],
             "VL": [1, 2, 4], "DB": [False, True]}
    ok = []
    for vals in itertools.product(*space.values()):
        c = dict(zip(space, vals))
        wg = (c["TI"] // c["RI"]) * (c["TJ"] // c["RJ"])
        lmem = (c["TI"] + c["TJ"] + 2 * c["PAD"]) * c["TK"] * 4
        if 64 <= wg <= 256 and c["VW"] <= min(c["RI"], c["RJ"]) and c["RI"] * c["RJ"] <= 64 \
                and (lmem <= 24576 or (not c["DB"] and lmem <= 49152)):
            ok.append(c)
    case = os.path.join(d, "big.c")
    with open(case, "w") as f:
        subprocess.run([sys.executable, "bench/gemm/make_case.py", "s", "NN", "1024", "1024", "1024", "big"],
                       stdout=f, check=True)
    random.seed(7)
    out = []
    for c in random.sample(ok, n):
        sets = sum([["--set", f"{k}={v}"] for k, v in c.items()], [])
        t = subprocess.run([ORCL, "emit", case, "--backend", "opencl"] + sets,
                           capture_output=True, text=True, check=True).stdout
        out.append(t.split("kernel ----")[1].split("/* ---- host code")[0].split("*/", 1)[1])
    return out


def report(name, secs, ts):
    ts = sorted(ts)
    print(f"{name}: {len(ts)} builds in {secs:.1f} s; per build median {ts[len(ts) // 2]:.2f} s, max {ts[-1]:.2f} s",
          flush=True)


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 48
    with tempfile.TemporaryDirectory() as d:
        srcs = kernels(n, d)
    init()
    t = time.time(); ts = [build(s) for s in srcs]; report("one after another", time.time() - t, ts)
    t = time.time(); ts = list(ThreadPoolExecutor(16).map(build, srcs)); report("16 threads, one process", time.time() - t, ts)
    with multiprocessing.get_context("spawn").Pool(16, initializer=init) as pool:
        pool.map(build, srcs[:16])  # contexts made, compilers loaded
        t = time.time(); ts = pool.map(build, srcs); report("16 processes", time.time() - t, ts)
