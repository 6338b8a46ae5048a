#!/usr/bin/env bash
# orcl vs Kernel Tuner on the same kernel and space (issue 14): the OrCL paper's Figure 2 vecAXPY
# space (examples/vecAXPY.c, 1728 configurations) at N = 10^6 on one OpenCL platform, both cold
# (empty caches, CUDA_CACHE_DISABLE=1 so NVIDIA's JIT cache helps neither), then warm (orcl: the
# same database, so every configuration is a database hit; Kernel Tuner: its cache file).
#
# Needs: orcl built (target/release/orcl), python3 with numpy, and kernel_tuner + pyopencl
# (pip install kernel_tuner pyopencl; on the GPU machine carry them as wheels: see docs/BENCHMARKS.md).
# Usage (repository root): bash bench/kernel_tuner/compare.sh OUT_DIR [N]
# Environment: PLATFORM (OpenCL platform index; default: the NVIDIA one, else 0), ORCL.
set -euo pipefail
out=${1:?usage: compare.sh OUT_DIR [N]}
n=${2:-1000000}
mkdir -p "$out"
orcl=${ORCL:-./target/release/orcl}
export CUDA_CACHE_DISABLE=1 POCL_KERNEL_CACHE=0
platform=${PLATFORM:-$("$orcl" devices --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d.get("devices", d) if isinstance(d, dict) else d
print(next((x["platform_index"] for x in d if x.get("backend") == "opencl" and "NVIDIA" in x.get("platform", "")), 0))')}
# Kernel Tuner gets the platform by name: pyopencl may number the platforms differently from orcl
# (on the GPU machine it did, and Kernel Tuner silently tuned PoCL's CPU device instead).
pname=$("$orcl" devices --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d.get("devices", d) if isinstance(d, dict) else d
print(next((x["platform"] for x in d if x.get("backend") == "opencl" and x["platform_index"] == int(sys.argv[1])), ""))' "$platform")
[ -n "$pname" ] || { echo "compare.sh: no OpenCL platform $platform" >&2; exit 1; }
printf 'tool\trun\tconfigurations\twall_s\tconfigs_per_s\tbest_ms\tdevice\n' | tee "$out/compare.tsv"
db="$out/orcl.db"; rm -f "$db" "$db"-*
for run in cold warm; do
  s=$(date +%s.%N)
  ORCL_CACHE_DIR="$out/orcl-cache" "$orcl" tune examples/vecAXPY.c --size N="$n" --platform "$platform" \
    --db "$db" -o "$out/_vecAXPY.c" >"$out/orcl-$run.log" 2>&1
  e=$(date +%s.%N)
  python3 - "$db" "$s" "$e" "$run" <<'PY' | tee -a "$out/compare.tsv"
import sqlite3, sys
db, s, e, run = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
c = sqlite3.connect(db)
n = c.execute("select count(*) from evaluation").fetchone()[0]
bad = c.execute("select count(*) from evaluation where status = 'wrong_result'").fetchone()[0]
best = c.execute("select min(median_ms) from evaluation where status = 'ok'").fetchone()[0]
dev = c.execute("select d.name from experiment x join device d on d.id = x.device_id order by x.id desc limit 1").fetchone()[0]
assert bad == 0, f"{bad} wrong results"
print(f"orcl\t{run}\t{n}\t{e - s:.2f}\t{n / (e - s):.2f}\t{best}\t{dev}")
PY
done
rm -f "$out/kt_cache.json"
for run in cold warm; do
  python3 bench/kernel_tuner/vecaxpy_kt.py "$n" "$out/kt_cache.json" "$pname" 2>"$out/kt-$run.err" | tail -1 \
    | python3 -c "
import json, sys
r = json.loads(sys.stdin.read())
print(f\"kernel_tuner\t$run\t{r['configurations']}\t{r['wall_s']}\t{r['configs_per_s']}\t{r['best_ms']}\t{r['device']}\")" | tee -a "$out/compare.tsv"
done
