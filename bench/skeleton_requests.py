#!/usr/bin/env python3
"""Per-variant cost of a timing skeleton (issue 14 step 2, docs/THROUGHPUT.md): sends REQUESTS
identical RUN requests (one warm-up-free run, one timed repetition, the same kernel, so the program
is built once) of a vecAXPY kernel to a skeleton built for bench/vecAXPY_2p26.c or examples/vecAXPY.c
(arguments n, y, a, x) and prints the wall time per request, which is then copies, resets,
validation and the kernel, and the kernel time the skeleton reports.

    python3 bench/skeleton_requests.py SKELETON [REQUESTS] [PLATFORM] [DEVICE]

SKELETON: the path in the `skeleton` metadata of a tune of that file (orcl db show, or
sqlite3 DB "select value from experiment_metadata where key='skeleton'").
"""
import json
import statistics
import subprocess
import sys
import time

KERNEL = """#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void orcl_kernel(const int n, __global double *y, const double a, __global const double *x) {
    for (long i = get_global_id(0); i < n; i += get_global_size(0)) y[i] += a * x[i];
}
"""


def main():
    exe = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    plat, dev = (sys.argv[3:5] + ["0", "0"])[:2] if len(sys.argv) > 3 else ("0", "0")
    t0 = time.time()
    p = subprocess.Popen([exe, plat, dev], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    hello = json.loads(p.stdout.readline())
    start_s = time.time() - t0
    walls, kernels, replies = [], [], []
    src = KERNEL.encode()
    for i in range(n + 1):
        t = time.time()
        # global 65536 work-items, 256 per work-group, 0 warm-ups, 1 timed run
        p.stdin.write(b"RUN %d 65536 256 %d 0 0 1\n" % (i, len(src)) + src)
        p.stdin.flush()
        r = json.loads(p.stdout.readline())
        if r["status"] != "ok":
            sys.exit(f"request {i}: {r}")
        if i > 0:  # the first one builds the kernel
            walls.append((time.time() - t) * 1e3)
            kernels.append(r["kernel_ms"][0])
            replies.append(r)
    p.stdin.write(b"QUIT\n")
    p.stdin.flush()
    p.wait()
    moved = ""
    if "h2d_bytes" in replies[-1]:
        moved = f", per request {replies[-1]['h2d_bytes']} B in, {replies[-1]['d2h_bytes']} B out"
    print(f"start-up {start_s:.2f} s (reference run, uploads); {n} requests: wall per request median "
          f"{statistics.median(walls):.1f} ms (kernel {statistics.median(kernels):.1f} ms){moved}; "
          f"validation {hello.get('validation', 'host (before issue 14 step 2)')}")


if __name__ == "__main__":
    main()
