#!/usr/bin/env python3
"""Leave-one-space-out choice of the default strategy (issue 27, docs/SEARCH.md "The default
strategy").

Usage: held_out.py DIR [BUDGETS]
DIR holds `orcl replay --json --algorithm all` outputs named `<space>@<budget>.json` (one per
recorded space and budget; bench/search_hub/held_out.sh writes them), and `<space>@<budget>~LABEL.json`
for a strategy with other options (named `<algorithm>[LABEL]`, compared as one more strategy). For each budget and
each space s, the strategy with the best mean score over the *other* spaces is chosen (score: the
mean of the median and the 10th percentile of the fraction of the optimum), and its figures on s
are the held-out figures: the choice is never judged on a space it was chosen on. Prints, per
budget, the held-out mean median / p10 / worst p10, the strategies chosen, and the strategy chosen
on all spaces (the default).
"""
import glob
import json
import os
import sys
from collections import Counter, defaultdict


def main():
    d = sys.argv[1]
    budgets = sys.argv[2].split(",") if len(sys.argv) > 2 else ["1%", "3%", "100"]
    res = defaultdict(lambda: defaultdict(dict))  # budget -> space -> strategy -> (med, p10)
    for p in glob.glob(os.path.join(d, "*@*.json")):
        if not os.path.getsize(p):
            continue
        space, b = os.path.basename(p)[:-5].rsplit("@", 1)
        b, _, label = b.partition("~")  # `<space>@<budget>~LABEL.json`: an option setting
        rows = json.load(open(p))
        for r in rows if isinstance(rows, list) else [rows]:
            if r["algorithm"] == "Exhaustive" or r["algorithm"].startswith("default"):
                continue
            f = r["fraction_of_optimum"]
            name = f"{r['algorithm']}[{label}]" if label else r["algorithm"]
            res[b][space][name] = (f["median"], f["p10"])
    score = lambda m: (m[0] + m[1]) / 2  # noqa: E731
    print("| budget | spaces | held-out median | held-out p10 | worst p10 | chosen (held out) | chosen on all spaces |")
    print("|---|---|---|---|---|---|---|")
    for b in budgets:
        names = sorted({a for s in res[b] for a in res[b][s]})
        # only spaces every strategy was replayed on (a stopped run leaves some out)
        spaces = sorted(s for s in res[b] if all(a in res[b][s] for a in names))
        def pick(train):
            return max(names, key=lambda a: (sum(score(res[b][s][a]) for s in train if a in res[b][s]) / max(1, len(train)), a))
        meds, p10s, chosen = [], [], Counter()
        for s in spaces:
            c = pick([t for t in spaces if t != s])
            chosen[c] += 1
            m = res[b][s][c]
            meds.append(m[0])
            p10s.append(m[1])
        allc = pick(spaces)
        means = {a: (sum(res[b][s][a][0] for s in spaces) / len(spaces), sum(res[b][s][a][1] for s in spaces) / len(spaces)) for a in names}
        print(f"| {b} | {len(spaces)} | {sum(meds)/len(meds):.3f} | {sum(p10s)/len(p10s):.3f} | {min(p10s):.3f} | "
              + ", ".join(f"{k} ×{v}" for k, v in chosen.most_common()) + f" | {allc} |")
    print()
    print("Mean over the spaces (median / p10), every strategy:")
    print()
    print("| budget | " + " | ".join(sorted({a for b in budgets for s in res[b] for a in res[b][s]})) + " |")
    names = sorted({a for b in budgets for s in res[b] for a in res[b][s]})
    print("|---|" + "---|" * len(names))
    for b in budgets:
        spaces = [s for s in res[b] if all(a in res[b][s] for a in names)]
        cells = []
        for a in names:
            xs = [res[b][s][a] for s in spaces if a in res[b][s]]
            cells.append(f"{sum(x[0] for x in xs)/len(xs):.3f} / {sum(x[1] for x in xs)/len(xs):.3f}" if xs else "–")
        print(f"| {b} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
