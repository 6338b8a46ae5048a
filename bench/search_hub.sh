#!/usr/bin/env bash
# orcl's search strategies, and Kernel Tuner's, on the brute-forced spaces of the Auto-Tuning
# Association's benchmark_hub (issue 27): `cachefiles/<kernel>_milo/<GPU>.json.gz`, Kernel Tuner
# cache files (convolution on 7 GPUs, dedispersion on 6; Willemsen et al., FGCS 2024).
#
# Usage (repository root): bash bench/search_hub.sh BENCHMARK_HUB_DIR [OUT_DIR]
#   BENCHMARK_HUB_DIR: a checkout of github.com/AutoTuningAssociation/benchmark_hub (MIT licence),
#   or any directory with cachefiles/*_milo/*.json.gz (the `_T4` twins are skipped).
# Environment:
#   ORCL        the orcl binary (default target/release/orcl)
#   BUDGETS     comma-separated budgets (default 1%,3%,100: shares of the valid configurations, or
#               evaluations)
#   SEEDS       seeds per strategy and budget (default 20)
#   ALGORITHMS  orcl strategies (default all)
#   KT          1 (default): also replay Kernel Tuner's strategies in its simulation mode, in a venv
#               (KT_VENV, default OUT_DIR/venv; made with `pip install kernel_tuner` when missing);
#               0: orcl only
#   KT_SEEDS    seeds per Kernel Tuner strategy (default SEEDS); KT_STRATEGIES (default: its 15
#               single-objective strategies, the strongest of the last comparison first). Kernel
#               Tuner is slow here (0.5–25 s per run: 60 runs of one strategy on one space took
#               14–460 s on a 2-core machine, more under load), so it runs at nice 19, strategy
#               by strategy, and a rerun with the same OUT_DIR resumes.
#   KERNELS     kernel directories to use (default: convolution_milo dedispersion_milo)
# Prints one table: per space and budget the best orcl strategy, orcl's default strategy and the
# best Kernel Tuner strategy (median / p10 of the fraction of the optimum over the seeds), then the
# mean over spaces per strategy and budget. Raw results: OUT_DIR/orcl/*.json, OUT_DIR/kt/*.json.
set -euo pipefail
hub=${1:?usage: search_hub.sh BENCHMARK_HUB_DIR [OUT_DIR]}
out=${2:-$(mktemp -d /tmp/search_hub.XXXXXX)}
orcl=${ORCL:-$PWD/target/release/orcl}
budgets=${BUDGETS:-1%,3%,100}
seeds=${SEEDS:-20}
algorithms=${ALGORITHMS:-all}
kernels=${KERNELS:-convolution_milo dedispersion_milo}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/orcl" "$out/kt"
db="$out/hub.db"
rm -f "$db" "$db"-*
caches=()
for k in $kernels; do
  for f in "$hub"/cachefiles/"$k"/*.json.gz; do
    case $f in *_T4.json.gz) continue ;; esac
    [ -e "$f" ] && caches+=("$f")
  done
done
[ ${#caches[@]} -gt 0 ] || { echo "search_hub.sh: no cachefiles/{${kernels// /,}}/*.json.gz under $hub" >&2; exit 2; }
: >"$out/spaces.tsv"
for f in "${caches[@]}"; do
  name="$(basename "$(dirname "$f")" _milo)/$(basename "$f" .json.gz)"
  id=$("$orcl" db import "$f" --db "$db" | sed -n 's/.*experiment \([0-9]*\).*/\1/p')
  printf '%s\t%s\t%s\n' "$name" "$id" "$f" >>"$out/spaces.tsv"
  for b in ${budgets//,/ }; do
    "$orcl" replay --db "$db" --experiment "$id" --algorithm "$algorithms" --budget "$b" \
      --seeds "$seeds" --json >"$out/orcl/${name//\//-}@$b.json" 2>/dev/null
    "$orcl" replay --db "$db" --experiment "$id" --algorithm default --budget "$b" \
      --seeds "$seeds" --json >"$out/orcl/${name//\//-}@$b~default.json" 2>/dev/null
  done
  echo "orcl: $name (experiment $id) replayed" >&2
done
if [ "${KT:-1}" = 1 ]; then
  venv=${KT_VENV:-$out/venv}
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import kernel_tuner' 2>/dev/null; then
    python3 -m venv "$venv" && "$venv/bin/pip" install -q kernel_tuner \
      || { echo "search_hub.sh: could not install kernel_tuner; set KT=0 for orcl alone" >&2; exit 1; }
  fi
  kt_strategies=${KT_STRATEGIES:-genetic_algorithm,adaptive_tabu_greywolf,basinhopping,bayes_opt,simulated_annealing,random_sample,dual_annealing,greedy_ils,diff_evo,pso,firefly_algorithm,mls,greedy_mls,ordered_greedy_mls,minimize}
  # Strategy by strategy over the spaces, one file each (kt/<space>~<strategy>.json), at nice 19:
  # a run stopped early still gives whole strategies, and a rerun skips what is done.
  for st in ${kt_strategies//,/ }; do
    while IFS=$'\t' read -r name id f; do
      o="$out/kt/${name//\//-}~$st.json"
      [ -s "$o" ] && continue
      nice -n 19 "$venv/bin/python" "$here/search_hub/kt_replay.py" "$f" "$budgets" "${KT_SEEDS:-$seeds}" \
        "$st" "$o.part" 2>"$out/kt/${name//\//-}~$st.err" && mv "$o.part" "$o"
    done <"$out/spaces.tsv"
    echo "kernel_tuner: $st replayed" >&2
  done
fi
python3 "$here/search_hub/table.py" "$out" "$budgets"
echo "raw results: $out" >&2
