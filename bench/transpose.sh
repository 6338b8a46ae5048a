#!/usr/bin/env bash
# Transpose and 2-D stencil bandwidth on the GPU machine (issue 12): tunes bench/transpose_8192.c
# (8192 x 8192 floats, tile/regTile/cacheBlocks), bench/copy2d_8192.c (the device-copy baseline:
# the same bytes, both accesses contiguous) and bench/jacobi2d_8192.c (8192 x 8192 doubles, staged
# halo) with NVIDIA OpenCL and with CUDA, and prints each best variant's bandwidth (bytes read +
# written once / median kernel time) and the ratio to the copy's (goal: transpose >= 0.8x copy).
#
# Run from the repository root with orcl built (cargo build --release) and shared/ present:
#   bash bench/transpose.sh [OUT_DIR]
# Writes OUT_DIR/transpose.tsv and one database and log per run.
set -euo pipefail
out=${1:-${OUT:-/tmp/orcl-transpose}}
mkdir -p "$out"
orcl=${ORCL:-./target/release/orcl}
if [ -f shared/gpu/opencl-icd.sh ]; then bash shared/gpu/opencl-icd.sh >/dev/null; fi
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
platform=${PLATFORM:-$("$orcl" devices --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d.get("devices", d) if isinstance(d, dict) else d
print(next((x["platform_index"] for x in d if x.get("backend") == "opencl" and "NVIDIA" in x.get("platform", "")), 0))')}
printf 'kernel\tbackend\tconfigurations_ok\tbest_ms\tGB_per_s\tbest_configuration\n' >"$out/transpose.tsv"

# tune NAME FILE BACKEND BYTES: prints "ms GB/s" of the best ok variant.
tune() {
  local name=$1 file=$2 backend=$3 bytes=$4
  local db="$out/$name-$backend.db"
  rm -f "$db" "$db"-*
  local extra=()
  [ "$backend" = opencl ] && extra=(--platform "$platform")
  "$orcl" tune "$file" --backend "$backend" "${extra[@]}" --db "$db" -o "$out/_$name-$backend.c" \
    ${EXTRA:-} >"$out/$name-$backend.log" 2>&1 || { echo "$name $backend failed: see $out/$name-$backend.log" >&2; return 1; }
  python3 - "$db" "$name" "$backend" "$bytes" <<'PY' | tee -a "$out/transpose.tsv"
import sqlite3, sys
db, name, backend, nbytes = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
c = sqlite3.connect(db)
bad = c.execute("select count(*) from evaluation where status = 'wrong_result'").fetchone()[0]
n = c.execute("select count(*) from evaluation where status = 'ok'").fetchone()[0]
ms, cfg = c.execute("select median_ms, config_key from evaluation where status = 'ok' order by median_ms limit 1").fetchone()
if bad:
    print(f"# {name} {backend}: {bad} wrong results", file=sys.stderr)
print(f"{name}\t{backend}\t{n}\t{ms:.4f}\t{nbytes / (ms * 1e-3) / 1e9:.0f}\t{cfg}")
PY
}

f4=$((2 * 8192 * 8192 * 4))
f8=$((2 * 8192 * 8192 * 8))
for b in opencl cuda; do
  tune copy2d bench/copy2d_8192.c "$b" "$f4"
  tune transpose bench/transpose_8192.c "$b" "$f4"
  tune jacobi2d bench/jacobi2d_8192.c "$b" "$f8"
done
python3 - "$out/transpose.tsv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
for b in ("opencl", "cuda"):
    copy = next(float(r["GB_per_s"]) for r in rows if r["kernel"] == "copy2d" and r["backend"] == b)
    for r in rows:
        if r["backend"] == b and r["kernel"] != "copy2d":
            print(f"{b:7} {r['kernel']:10} {float(r['GB_per_s']):7.0f} GB/s = {float(r['GB_per_s']) / copy:.2f}x copy ({copy:.0f} GB/s); {r['best_configuration']}")
PY
