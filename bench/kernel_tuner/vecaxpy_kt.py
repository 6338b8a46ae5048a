"""Kernel Tuner on the OrCL paper's Figure 2 vecAXPY space, for a side-by-side with orcl (issue 14).

The kernel below is the one orcl generates for examples/vecAXPY.c (`orcl emit examples/vecAXPY.c
--set ...`), written once with the tuning parameters as the preprocessor macros Kernel Tuner
defines: WI (local size), WG (work-groups; global size WG*WI), SH (reqd_work_group_size and
work_group_size_hint), VH (vec_type_hint), UI (#pragma unroll), CB (x staged through local
memory). CL ('' or '-cl-fast-relaxed-math') cannot vary per configuration in Kernel Tuner (its
compiler options are fixed for a run), so it is a macro with no effect: the space keeps its 1728
configurations and Kernel Tuner builds each one, as it always does (one program per
configuration; orcl builds each distinct kernel once: 117 for this space).

Usage: python3 vecaxpy_kt.py N CACHE_FILE [PLATFORM: index or part of its name] ; prints one JSON line:
{"configurations": ..., "wall_s": ..., "configs_per_s": ..., "best_ms": ..., "device": ..., "best": {...}}.
Kernel Tuner: https://github.com/KernelTuner/kernel_tuner (tune_kernel, cache=, verify via answer=).
"""
import json
import sys
import time

import numpy as np
from kernel_tuner import tune_kernel

KERNEL = r"""
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define ORCL_STR(x) #x
#define ORCL_PRAGMA_UNROLL(u) _Pragma(ORCL_STR(unroll u))
#if VH == 2
#define ORCL_VH __attribute__((vec_type_hint(double2)))
#elif VH == 4
#define ORCL_VH __attribute__((vec_type_hint(double4)))
#else
#define ORCL_VH
#endif
#if SH
#define ORCL_SH __attribute__((work_group_size_hint(WI, 1, 1))) __attribute__((reqd_work_group_size(WI, 1, 1)))
#else
#define ORCL_SH
#endif
__kernel ORCL_VH ORCL_SH
void vecaxpy(const int n, __global double *y, const double a, __global const double *x)
{
    const long orcl_trip = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
#if CB
    __local double orcl_tile_x[WI];
    ORCL_PRAGMA_UNROLL(UI)
    for (long orcl_base = (long)get_group_id(0) * WI; orcl_base < orcl_trip; orcl_base += (long)get_global_size(0)) {
        const long orcl_k = orcl_base + get_local_id(0);
        if (orcl_k < orcl_trip) {
            const int i = (int)orcl_k;
            orcl_tile_x[get_local_id(0)] = x[i];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (orcl_k < orcl_trip) {
            const int i = (int)orcl_k;
            y[i] += a * orcl_tile_x[get_local_id(0)];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#else
    ORCL_PRAGMA_UNROLL(UI)
    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {
        const int i = (int)orcl_k;
        y[i] += a * x[i];
    }
#endif
}
"""


def platform_index(sel):
    """pyopencl's index of the platform `sel` names: an index, or a substring of the platform's name
    (orcl and pyopencl may enumerate platforms in different orders, so scripts pass the name)."""
    if sel.isdigit():
        return int(sel)
    import pyopencl as cl
    names = [p.name for p in cl.get_platforms()]
    for i, name in enumerate(names):
        if sel.lower() in name.lower():
            return i
    sys.exit(f"no OpenCL platform named like {sel!r}; platforms: {names}")


def main():
    n = int(sys.argv[1])
    cache = sys.argv[2]
    platform = platform_index(sys.argv[3] if len(sys.argv) > 3 else "0")
    rng = np.random.default_rng(1)
    x = rng.random(n)
    y = rng.random(n)
    a = np.float64(rng.random())
    expected = y + a * x
    tune_params = {
        "WI": [32, 64, 128, 256],
        "WG": [4, 8, 16, 32, 64, 128],
        "CB": [1, 0],
        "SH": [1, 0],
        "UI": [1, 2, 3],
        "VH": [0, 2, 4],
        "CL": [0, 1],
    }
    start = time.time()
    results, _env = tune_kernel(
        "vecaxpy",
        KERNEL,
        "WG",  # problem size = WG work-groups (grid_div_x=[]): global size WG*WI, like orcl's workGroups
        [np.int32(n), y, a, x],
        tune_params,
        lang="OpenCL",
        platform=platform,
        block_size_names=["WI"],
        grid_div_x=[],
        answer=[None, expected, None, None],
        atol=1e-12,
        iterations=5,
        cache=cache,
        quiet=True,
        verbose=False,
    )
    wall = time.time() - start
    ok = [r for r in results if isinstance(r.get("time"), float)]
    best = min(ok, key=lambda r: r["time"]) if ok else None
    print(json.dumps({
        "configurations": len(results),
        "valid": len(ok),
        "wall_s": round(wall, 2),
        "configs_per_s": round(len(results) / wall, 2) if wall > 0 else None,
        "best_ms": best["time"] if best else None,
        "device": _env.get("device_name"),
        "best": {k: best[k] for k in tune_params} if best else None,
    }))


if __name__ == "__main__":
    main()
