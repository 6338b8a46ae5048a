#!/usr/bin/env python3
"""Replay Kernel Tuner's strategies on a Kernel Tuner cache file (its simulation mode), as
`orcl replay` replays orcl's strategies on the same cache imported with `orcl db import`.

Usage: kt_replay.py CACHE.json[.gz] BUDGETS SEEDS STRATEGIES OUT.json
  BUDGETS: comma-separated, `1%` (of the valid configurations, rounded up as orcl does) or `100`;
  STRATEGIES: comma-separated Kernel Tuner strategy names.
Writes a JSON list of {strategy, budget, seed, fraction, hit, seconds}: fraction = optimum / best time
found (0 when nothing valid was found), seconds the run's wall time. Budgets count evaluations as Kernel Tuner's `max_fevals` does:
every configuration of the cache run, failed ones included; configurations outside the cache
(Kernel Tuner's restrictions: here, "is in the cache") are free, as in `orcl replay`.
"""
import gzip
import json
import math
import os
import sys
import tempfile
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore")
from kernel_tuner import tune_kernel  # noqa: E402


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        text = f.read().rstrip()
    if not text.endswith("}"):  # an unterminated cache (Kernel Tuner appends as it goes)
        text = text.rstrip(",") + "}}"
    return json.loads(text)


def slim(cache):
    """The cache without per-repetition arrays (fast to reload once per run)."""
    keep = set(cache["tune_params_keys"]) | {"time", "compile_time", "verification_time",
                                              "benchmark_time", "strategy_time", "framework_time",
                                              "timestamp"}
    out = dict(cache)
    out["cache"] = {k: {f: v for f, v in r.items() if f in keep} for k, r in cache["cache"].items()}
    return out


def evaluations(budget, valid):
    if budget.endswith("%"):
        x = float(budget[:-1]) * valid / 100.0
        r = round(x)
        n = r if abs(x - r) <= 1e-9 * max(x, 1.0) else math.ceil(x)
    else:
        n = int(budget)
    return max(1, min(n, valid))


def main():
    path, budgets, seeds, strategies, out = sys.argv[1:6]
    cache = load(path)
    entries = cache["cache"]
    times = [r["time"] for r in entries.values() if isinstance(r.get("time"), (int, float))]
    optimum = min(times)
    measured = len(entries)  # what orcl replay calls the space size: failures included
    keys = set(entries)
    params = cache["tune_params_keys"]
    tune_params = {p: cache["tune_params"][p] for p in params}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(slim(cache), f)
        slim_path = f.name

    def restrict(*args):
        # Kernel Tuner calls it with the values in parameter order (when it builds the search
        # space) or with a dict (when it checks one configuration).
        values = [args[0][k] for k in params] if len(args) == 1 and isinstance(args[0], dict) else args
        return ",".join(str(v) for v in values) in keys

    rows = []
    for strategy in strategies.split(","):
        for budget in budgets.split(","):
            n = evaluations(budget, measured)
            for seed in range(int(seeds)):
                np.random.seed(seed)
                import random
                random.seed(seed)
                best = None
                start = time.perf_counter()
                try:
                    with open(os.devnull, "w") as null:
                        old = sys.stdout
                        sys.stdout = null
                        try:
                            results, _ = tune_kernel(
                                cache["kernel_name"], "// simulated", cache["problem_size"], [],
                                tune_params, restrictions=restrict, strategy=strategy,
                                strategy_options={"max_fevals": n}, cache=slim_path,
                                simulation_mode=True, verbose=False, quiet=True)
                        finally:
                            sys.stdout = old
                    ok = [r["time"] for r in results if isinstance(r.get("time"), (int, float))]
                    best = min(ok) if ok else None
                except Exception as e:  # a strategy that fails on this space scores 0
                    print(f"{strategy} {budget} seed {seed}: {type(e).__name__}: {e}", file=sys.stderr)
                frac = 0.0 if best is None else min(1.0, optimum / best)
                rows.append({"strategy": strategy, "budget": budget, "evaluations": n,
                             "seed": seed, "fraction": frac, "hit": frac >= 1.0,
                             "seconds": round(time.perf_counter() - start, 3)})
    os.unlink(slim_path)
    with open(out, "w") as f:
        json.dump(rows, f)


if __name__ == "__main__":
    main()
