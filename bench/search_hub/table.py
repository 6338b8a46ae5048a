#!/usr/bin/env python3
"""The side-by-side table of bench/search_hub.sh: OUT_DIR/orcl/<space>@<budget>.json (orcl replay
--json) and OUT_DIR/kt/<space>.json or OUT_DIR/kt/<space>~<strategy>.json (kt_replay.py, one row per seed).

Usage: table.py OUT_DIR BUDGETS
Statistics as orcl replay computes them: median (mean of the two middle values for an even count)
and nearest-rank 10th percentile of the fraction of the optimum over the seeds.
"""
import glob
import json
import math
import os
import sys
from collections import defaultdict


def stats(xs):
    v = sorted(xs)
    n = len(v)
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    p10 = v[max(1, math.ceil(10 * n / 100)) - 1]
    return med, p10


def main():
    out, budgets = sys.argv[1], sys.argv[2].split(",")
    spaces = [line.split("\t")[0] for line in open(os.path.join(out, "spaces.tsv")) if line.strip()]
    # res[tool][space][budget][strategy] = (median, p10)
    res = {"orcl": defaultdict(lambda: defaultdict(dict)), "kt": defaultdict(lambda: defaultdict(dict))}
    for s in spaces:
        stem = s.replace("/", "-")
        for b in budgets:
            for suffix in ("", "~default"):
                p = os.path.join(out, "orcl", f"{stem}@{b}{suffix}.json")
                if os.path.exists(p) and os.path.getsize(p):
                    rows = json.load(open(p))
                    for r in rows if isinstance(rows, list) else [rows]:
                        f = r["fraction_of_optimum"]
                        res["orcl"][s][b][r["algorithm"]] = (f["median"], f["p10"])
        per = defaultdict(list)
        # kt/<space>.json (every strategy) or kt/<space>~<strategy>.json (one strategy each)
        for p in [os.path.join(out, "kt", f"{stem}.json")] + sorted(glob.glob(os.path.join(out, "kt", f"{glob.escape(stem)}~*.json"))):
            if not os.path.exists(p) or not os.path.getsize(p):
                continue
            for r in json.load(open(p)):
                per[(r["budget"], r["strategy"])].append(r["fraction"])
        if per:
            for (b, st), xs in per.items():
                res["kt"][s][b][st] = stats(xs)
    have_kt = any(res["kt"][s] for s in spaces)
    fmt = lambda m: f"{m[0]:.3f} / {m[1]:.3f}"  # noqa: E731
    best = lambda d: max(d.items(), key=lambda kv: (kv[1][1] + kv[1][0], kv[1][0]))  # noqa: E731
    print("| space | budget | best orcl strategy | orcl default | best Kernel Tuner strategy |")
    print("|---|---|---|---|---|")
    for s in spaces:
        for b in budgets:
            o = {k: v for k, v in res["orcl"][s][b].items() if k != "Exhaustive"}
            if not o:
                continue
            ob = best({k: v for k, v in o.items() if not k.startswith("default")})
            d = next(((k, v) for k, v in o.items() if k.startswith("default")), None)
            k = res["kt"][s].get(b)
            kb = best(k) if k else None
            print(f"| {s} | {b} | {ob[0]} {fmt(ob[1])} | "
                  + (f"{d[0]} {fmt(d[1])}" if d else "–") + " | "
                  + (f"{kb[0]} {fmt(kb[1])}" if kb else "–") + " |")
    print()
    common = [s for s in spaces if res["kt"][s]] if have_kt else spaces
    print(f"Mean over the {len(common)} spaces"
          + (" replayed by both tools" if have_kt else "")
          + " of the median / p10 (each strategy at its default options):")
    print()
    print("| tool | strategy | " + " | ".join(budgets) + " |")
    print("|---|---|" + "---|" * len(budgets))
    for tool in ("orcl", "kt") if have_kt else ("orcl",):
        names = sorted({st for s in spaces for b in budgets for st in res[tool][s][b]} - {"Exhaustive"})
        rows = []
        for st in names:
            cells = []
            for b in budgets:
                xs = [res[tool][s][b][st] for s in common if st in res[tool][s][b]]
                cells.append((sum(x[0] for x in xs) / len(xs), sum(x[1] for x in xs) / len(xs)) if xs else None)
            # a strategy replayed on only some of the spaces (a run stopped early) says on how many
            n = len({s for s in common for b in budgets if st in res[tool][s][b]})
            rows.append((st if n == len(common) else f"{st} ({n} of {len(common)} spaces)", cells))
        for label, pick in (("best per space", None),):
            cells = []
            for b in budgets:
                xs = [best({k: v for k, v in res[tool][s][b].items() if not k.startswith("default")})[1]
                      for s in common if res[tool][s][b]]
                cells.append((sum(x[0] for x in xs) / len(xs), sum(x[1] for x in xs) / len(xs)) if xs else None)
            rows.append((label, cells))
        name = "orcl" if tool == "orcl" else "Kernel Tuner"
        for st, cells in rows:
            print(f"| {name} | {st} | " + " | ".join(fmt(c) if c else "–" for c in cells) + " |")


if __name__ == "__main__":
    main()
