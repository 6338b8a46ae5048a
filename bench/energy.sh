#!/usr/bin/env bash
# Energy vs time on an NVIDIA GPU (issue 27, docs/ENERGY.md): tunes the OrCL paper's Figure 2
# space (examples/vecAXPY.c, N = 10^6, a seeded random sample of AXPY_RUNS configurations) and
# an SGEMM 4096³ space (bench/gemm/make_case.py, GEMM_SPACE, NVIDIA OpenCL) with
# `--objective energy` (every configuration's median time and, over a window of >= 100 ms of
# calls, its energy per call from NVML's total-energy counter), then prints per space the fastest
# configuration's energy and the most energy-efficient one's time, and the time/energy Pareto
# front. Default clocks and power limits: nothing here changes them (nvidia-smi only queries).
#
# Run on the GPU machine from the repository root, orcl built:
#   bash bench/energy.sh OUT_DIR
# Env: ORCL=path, AXPY_RUNS (default 150), GEMM_SPACE (default full), GEMM_LIMIT (default 150s).
set -euo pipefail
out=${1:-/tmp/orcl-energy}
mkdir -p "$out"
orcl=${ORCL:-./target/release/orcl}
if [ -f shared/gpu/opencl-icd.sh ]; then bash shared/gpu/opencl-icd.sh >/dev/null; fi
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,power.limit,power.default_limit,clocks.max.sm,clocks.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv >"$out/gpu.csv" || true
platform=${PLATFORM:-$("$orcl" devices --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d.get("devices", d) if isinstance(d, dict) else d
print(next((x["platform_index"] for x in d if x.get("backend") == "opencl" and "NVIDIA" in x.get("platform", "")), 0))')}

cp examples/vecAXPY.c "$out/vecAXPY.c"
timeout 280 "$orcl" tune "$out/vecAXPY.c" --platform "$platform" --device 0 --size N=1000000 \
  --objective energy --search Random --seed 1 --total-runs "${AXPY_RUNS:-150}" \
  --db "$out/axpy.db" -o "$out/_vecAXPY.c" >"$out/axpy.log" 2>&1 || echo "vecAXPY tune failed: see axpy.log"
python3 bench/gemm/make_case.py s NN 4096 4096 4096 "${GEMM_SPACE:-full}" >"$out/sgemm.c"
timeout 280 "$orcl" tune "$out/sgemm.c" --backend opencl --platform "$platform" --device 0 \
  --objective energy --time-limit "${GEMM_LIMIT:-150s}" \
  --db "$out/sgemm.db" -o "$out/_sgemm.c" >"$out/sgemm.log" 2>&1 || echo "SGEMM tune failed: see sgemm.log"

for db in axpy sgemm; do
  [ -f "$out/$db.db" ] || continue
  "$orcl" db show 1 --pareto --db "$out/$db.db" >"$out/$db-pareto.txt" 2>&1 || true
  python3 - "$out/$db.db" "$db" <<'PY'
import sqlite3, sys, json, math
db, name = sys.argv[1:3]
c = sqlite3.connect(db)
rows = c.execute("select config_key, median_ms, energy_j, power_w from evaluation "
                 "where status = 'ok' and energy_j is not null").fetchall()
n_ok = c.execute("select count(*) from evaluation where status = 'ok'").fetchone()[0]
meta = dict(c.execute("select key, value from experiment_metadata"))
if not rows:
    print(f"{name}: no energy readings ({n_ok} ok rows)"); sys.exit()
fast = min(rows, key=lambda r: r[1])
eff = min(rows, key=lambda r: r[2])
print(f"{name}: {len(rows)} ok configurations with energy ({n_ok} ok), method {meta.get('energy_method')}")
for what, r in (("fastest", fast), ("most efficient", eff)):
    print(f"  {what:15s} {r[1]:.4f} ms  {r[2]*1e3:.4f} mJ/call  {r[3]:.1f} W  {r[0]}")
print(f"  efficient/fastest: time x{eff[1]/fast[1]:.3f}, energy x{eff[2]/fast[2]:.3f}")
print(f"  winner: {meta.get('winner')}")
keyed = {r[0]: r for r in rows}
for f in json.loads(meta.get("final_remeasurement", "[]")):
    r = keyed.get(f["config"])
    if r:
        print(f"  finalist {f['config']}: search {r[1]:.4f} ms {r[2]*1e3:.4f} mJ, again {f['median_ms']:.4f} ms {f.get('objective', float('nan'))*1e3:.4f} mJ")
PY
done | tee "$out/summary.txt"
