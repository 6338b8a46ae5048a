#!/usr/bin/env bash
# Tuning throughput on the GPU machine (issue 14, docs/BENCHMARKS.md "Tuning throughput: build pool"):
# the OrCL paper's Figure 2 vecAXPY space (examples/vecAXPY.c, 1728 configurations) at N = 10^6 on
# NVIDIA OpenCL, serial (--jobs 0: the worker builds; --jobs 1: one pool thread) vs --jobs 16, each with a cold and a warm kernel
# cache; and bench/vecAXPY_2p26.c (280 configurations, N = 2^26) with --jobs 16.
#
# Run from the repository root with orcl built (cargo build --release) and shared/ present:
#   bash bench/throughput.sh [OUT_DIR]
# Prints one line per run (configurations, wall time, configurations/s) and writes OUT_DIR/throughput.tsv.
# NVIDIA's own JIT cache is disabled (CUDA_CACHE_DISABLE=1) so "cold" means every kernel is built.
# Smoke test elsewhere (e.g. PoCL): PLATFORM=0 EXTRA='--total-runs 20' JOBS='0 2' SKIP_2P26=1 bash bench/throughput.sh
set -euo pipefail
out=${1:-${OUT:-/tmp/orcl-throughput}}
mkdir -p "$out"
orcl=${ORCL:-./target/release/orcl}
if [ -f shared/gpu/opencl-icd.sh ]; then bash shared/gpu/opencl-icd.sh >/dev/null; fi
export CUDA_CACHE_DISABLE=1
platform=${PLATFORM:-$("$orcl" devices --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d.get("devices", d) if isinstance(d, dict) else d
print(next((x["platform_index"] for x in d if x.get("backend") == "opencl" and "NVIDIA" in x.get("platform", "")), 0))')}
printf 'run\tconfigurations\twall_s\tconfigs_per_s\tvalidation\tbytes_moved_per_variant\n' >"$out/throughput.tsv"

# run NAME FILE SIZE CACHE_DIR ARGS...: a fresh database, the given kernel cache.
run() {
  local name=$1 file=$2 size=$3 cache=$4
  shift 4
  local db="$out/$name.db"
  rm -f "$db" "$db"-*
  local t0 t1
  t0=$(date +%s.%N)
  ORCL_CACHE_DIR=$cache "$orcl" tune "$file" --platform "$platform" --size "$size" --db "$db" \
    -o "$out/_$name.c" "$@" ${EXTRA:-} >"$out/$name.log" 2>&1 || { echo "$name failed: see $out/$name.log"; return 1; }
  t1=$(date +%s.%N)
  local n
  n=$(python3 -c "import sqlite3; print(sqlite3.connect('$db').execute('select count(*) from evaluation').fetchone()[0])")
  python3 - "$name" "$n" "$t0" "$t1" "$db" <<'PY' | tee -a "$out/throughput.tsv"
import json, sqlite3, sys
name, n, t0, t1 = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
# the `transfers` metadata (docs/DATABASE.md): where outputs were validated, bytes a variant moved
row = sqlite3.connect(sys.argv[5]).execute(
    "select value from experiment_metadata where key = 'transfers'").fetchone()
t = json.loads(row[0]) if row else {}
per = (t.get("variant_h2d_bytes", 0) + t.get("variant_d2h_bytes", 0)) / max(1, t.get("variants", 0))
print(f"{name}\t{n}\t{t1 - t0:.1f}\t{n / (t1 - t0):.1f}\t{t.get('validation', '-')}\t{per:.0f}")
PY
}

for jobs in ${JOBS:-0 1 16}; do
  cache="$out/cache-j$jobs"
  rm -rf "$cache"
  # cold: the skeleton is compiled first (not a kernel build); warm: the same cache, a new database
  run "fig2-1e6-jobs$jobs-cold" examples/vecAXPY.c N=1000000 "$cache" --jobs "$jobs"
  run "fig2-1e6-jobs$jobs-warm" examples/vecAXPY.c N=1000000 "$cache" --jobs "$jobs"
done
j=${JOBS:-16}
j=${j##* }
rm -rf "$out/cache-2p26"
[ -n "${SKIP_2P26:-}" ] || run "vecAXPY-2p26-jobs$j-cold" bench/vecAXPY_2p26.c N=67108864 "$out/cache-2p26" --jobs "$j"
# Do concurrent builds disturb the timings? The same configurations' medians, builds in the worker
# (never overlapping a measurement) vs the pool's last run (cold: builds overlap measurements).
set -- $(echo ${JOBS:-0 1 16})
first=$1
last=${!#}
python3 - "$out/fig2-1e6-jobs$first-cold.db" "$out/fig2-1e6-jobs$last-cold.db" <<'PY' | tee "$out/disturbance.txt"
import sqlite3, statistics, sys
a, b = sys.argv[1], sys.argv[2]
c = sqlite3.connect(a)
c.execute("attach ? as b", (b,))
rows = c.execute(
    "select x.median_ms, y.median_ms from evaluation x join b.evaluation y using (config_key)"
    " where x.status = 'ok' and y.status = 'ok'").fetchall()
r = sorted(y / x for x, y in rows if x > 0)
if r:
    q = lambda f: r[min(len(r) - 1, int(f * len(r)))]
    print(f"{len(r)} configurations: median_ms(pool, builds overlapping) / median_ms(worker builds): "
          f"median {statistics.median(r):.3f}, 10th pct {q(0.1):.3f}, 90th pct {q(0.9):.3f}")
    print(f"best: {min(x for x, _ in rows):.5f} ms (worker builds), {min(y for _, y in rows):.5f} ms (pool)")
PY
echo "results: $out/throughput.tsv, $out/disturbance.txt"
