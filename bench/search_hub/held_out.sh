#!/usr/bin/env bash
# Leave-one-space-out replay of orcl's strategies over every recorded space (issue 27;
# docs/SEARCH.md "The default strategy (held out)").
#
# Usage (repository root): bash bench/search_hub/held_out.sh BENCHMARK_HUB_DIR OUT_DIR
#   Replays ALGORITHMS (default all) at BUDGETS (default 1%,3%,100) over SEEDS (default 20) seeds on
#   benchmark_hub's 13 spaces (imported from BENCHMARK_HUB_DIR/cachefiles/*_milo/*.json.gz) and the
#   7 recorded spaces of bench/data, writes OUT_DIR/<space>@<budget>.json (orcl replay --json) and
#   prints held_out.py's tables. OPTIONS: extra `orcl replay` arguments (e.g.
#   "--option bayes_scaling=0") and LABEL (the rows are then named `<algorithm>[LABEL]`, in files
#   `<space>@<budget>~LABEL.json`, so that held_out.py compares option settings as strategies);
#   TEVC_DIR: a directory of the TEVC paper's GEMM spaces (Kernel Tuner caches `GEMM_<GPU>.json`:
#   see docs/SEARCH.md), replayed too. ORCL: the binary. bench/data's databases are read from copies.
set -euo pipefail
hub=${1:?usage: held_out.sh BENCHMARK_HUB_DIR OUT_DIR}
out=${2:?usage: held_out.sh BENCHMARK_HUB_DIR OUT_DIR}
orcl=${ORCL:-$PWD/target/release/orcl}
budgets=${BUDGETS:-1%,3%,100}
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../data
mkdir -p "$out"
db="$out/hub.db"
if [ ! -s "$out/spaces.tsv" ]; then
  rm -f "$db" "$db"-*
  for f in "$hub"/cachefiles/{convolution,dedispersion}_milo/*.json.gz; do
    case $f in *_T4.json.gz) continue ;; esac
    id=$("$orcl" db import "$f" --db "$db" | sed -n 's/.*experiment \([0-9]*\).*/\1/p')
    printf '%s\t%s\t%s\n' "$(basename "$(dirname "$f")" _milo)-$(basename "$f" .json.gz)" "$db" "$id"
  done >"$out/spaces.tsv"
  for f in h100-nvidia-opencl-vecaxpy.db h200-nvidia-opencl-spaces.db \
    h100x2-nvidia-opencl-sgemm1024-big.db.gz h100-cuda-sgemm1024-big-part.db.gz; do
    cp "$data/$f" "$out/$f"
  done
  data=$out
  {
    for e in 1 2 3; do printf 'h100-vecaxpy-%s\t%s\t%s\n' $e "$data/h100-nvidia-opencl-vecaxpy.db" $e; done
    printf 'h200-matvec\t%s\t1\n' "$data/h200-nvidia-opencl-spaces.db"
    printf 'h200-vecaxpy-2p24\t%s\t2\n' "$data/h200-nvidia-opencl-spaces.db"
    printf 'h100-opencl-sgemm1024-big\t%s\t1\n' "$data/h100x2-nvidia-opencl-sgemm1024-big.db.gz"
    printf 'h100-cuda-sgemm1024-big-part\t%s\t1\n' "$data/h100-cuda-sgemm1024-big-part.db.gz"
  } >>"$out/spaces.tsv"
  for f in "${TEVC_DIR:-/nonexistent}"/GEMM_*.json; do
    [ -e "$f" ] || continue
    id=$("$orcl" db import "$f" --db "$out/tevc.db" | sed -n 's/.*experiment \([0-9]*\).*/\1/p')
    printf 'tevc-%s\t%s\t%s\n' "$(basename "$f" .json)" "$out/tevc.db" "$id"
  done >>"$out/spaces.tsv"
fi
suffix=${LABEL:+~$LABEL}
while IFS=$'\t' read -r name file id; do
  for b in ${budgets//,/ }; do
    # shellcheck disable=SC2086 # OPTIONS is a list of arguments
    "$orcl" replay --db "$file" --experiment "$id" --algorithm "${ALGORITHMS:-all}" --budget "$b" \
      --seeds "${SEEDS:-20}" --json ${OPTIONS:-} >"$out/$name@$b$suffix.json" 2>/dev/null </dev/null
  done
done <"$out/spaces.tsv"
python3 "$here/held_out.py" "$out" "$budgets"
