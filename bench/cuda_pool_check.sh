#!/usr/bin/env bash
# CUDA build pool check on the GPU machine (issue 13; docs/THROUGHPUT.md "CUDA").
#
# Tunes the CUDA variant of the BLAS-style SGEMM loop of examples/sgemm.c (written by
# bench/gemm/make_case.py, space `small`: 16 configurations, m = n = k = 1024) twice, with the
# worker compiling every kernel itself (ORCL_CUDA_POOL=0: NVRTC to PTX, JIT in the skeleton,
# serially) and with the build pool (NVRTC to a CUBIN on --jobs threads of orcl, the skeleton only
# loads it), each with a fresh ORCL_CACHE_DIR and database; then the same pool run again on its
# warm kernel cache; and the CUDA reduction examples/vecDot.c (N = 10^6, 16 configurations) with
# and without the pool. Prints, per run: wall time, configurations measured, failures by status,
# best median time, summed build time and the `build_pool` metadata; and for each pair whether
# both runs reached the same verdict (ok / wrong / build_failed / ...) on every configuration.
#
# Run from the repository root, orcl built (cargo build --release), CUDA at /usr/local/cuda:
#   bash bench/cuda_pool_check.sh OUT_DIR
# Everything goes under OUT_DIR (summary.txt, one log, database and tuned file per run). Every
# step has its own `timeout`; the whole script stops itself at 295 s.
set -uo pipefail
out=${1:?usage: bash bench/cuda_pool_check.sh OUT_DIR}
if [ -z "${ORCL_POOL_CHECK_INNER:-}" ]; then
  mkdir -p "$out"
  ORCL_POOL_CHECK_INNER=1 timeout -k 5 295 bash "$0" "$@" 2>&1 | tee "$out/summary.txt"
  exit "${PIPESTATUS[0]}"
fi
out=$(cd "$out" && pwd)
orcl=$(realpath "${ORCL:-./target/release/orcl}")
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
# The driver's own JIT cache would make the no-pool run's second PTX load of a kernel free.
export CUDA_CACHE_DISABLE=1
start=$(date +%s)
echo "== cuda_pool_check $(date -u +%FT%TZ) on $(hostname), $(nproc) cores; orcl $(git rev-parse --short HEAD 2>/dev/null)"
timeout 15 nvidia-smi -L || echo "nvidia-smi failed"
timeout 30 "$orcl" devices --json >"$out/devices.json" 2>"$out/devices.err" || echo "orcl devices failed: $(tail -3 "$out/devices.err")"
python3 - "$out/devices.json" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"devices: unreadable ({e})"); sys.exit(0)
d = d.get("devices", d) if isinstance(d, dict) else d
for x in d:
    if x.get("backend") == "cuda":
        print(f"cuda device {x.get('device_index')}: {x.get('name')} cc {x.get('compute_capability')} driver {x.get('driver_version')} nvrtc {x.get('nvrtc_version')}")
PY

python3 bench/gemm/make_case.py s NN 1024 1024 1024 small >"$out/sgemm_1024.c"
cp examples/vecDot.c "$out/vecDot.c"

# tune NAME LIMIT_S POOL(0|1) CACHE FILE ARGS...: one orcl tune under `timeout`, fresh database.
tune() {
  local name=$1 limit=$2 pool=$3 cache=$4 file=$5
  shift 5
  local db="$out/$name.db" env=()
  rm -f "$db" "$db"-*
  [ "$pool" = 0 ] && env=(ORCL_CUDA_POOL=0)
  local t0 t1 rc
  t0=$(date +%s.%N)
  env "${env[@]}" ORCL_CACHE_DIR="$cache" timeout -k 5 "$limit" "$orcl" tune "$file" --backend cuda \
    --db "$db" -o "$out/_$name.c" "$@" >"$out/$name.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  echo "$name $rc $t0 $t1" >>"$out/runs.txt"
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    echo "$name: cut by its ${limit} s timeout (exit $rc); rows committed so far are compared below"
  elif [ "$rc" != 0 ]; then
    echo "$name: orcl tune exited $rc; tail of $out/$name.log:"
    tail -5 "$out/$name.log"
  fi
}
: >"$out/runs.txt"
tune gemm-pool 70 1 "$out/cache-gemm-pool" "$out/sgemm_1024.c"
tune gemm-nopool 110 0 "$out/cache-gemm-nopool" "$out/sgemm_1024.c"
tune vecdot-pool 30 1 "$out/cache-vecdot-pool" "$out/vecDot.c" --size N=1000000
tune vecdot-nopool 30 0 "$out/cache-vecdot-nopool" "$out/vecDot.c" --size N=1000000
# The same pool run again on its kernel cache: nothing should be built (cached = configurations).
tune gemm-pool-warm 40 1 "$out/cache-gemm-pool" "$out/sgemm_1024.c"

python3 - "$out" <<'PY'
import json, os, sqlite3, sys
out = sys.argv[1]
runs = {}
for line in open(os.path.join(out, "runs.txt")):
    name, rc, t0, t1 = line.split()
    runs[name] = (int(rc), float(t1) - float(t0))
VERDICT = {"ok": "ok", "wrong_result": "wrong", "compile_error": "build_failed"}

def load(name):
    db = os.path.join(out, name + ".db")
    if not os.path.exists(db):
        return None
    c = sqlite3.connect(db)
    rows = c.execute("select config_key, status, median_ms, build_ms, message from evaluation").fetchall()
    meta = dict(c.execute("select key, value from experiment_metadata").fetchall())
    return rows, meta

print()
print(f"{'run':<16} {'rc':>3} {'wall_s':>7} {'measured':>8} {'failures':>9} {'best_ms':>9} {'build_s':>8}  build_pool")
data = {}
for name, (rc, wall) in runs.items():
    got = load(name)
    if got is None:
        print(f"{name:<16} {rc:>3} {wall:>7.1f}  (no database)")
        continue
    rows, meta = got
    data[name] = rows
    measured = [r for r in rows if r[1] not in ("constraint", "device_limit")]
    fails = {}
    for r in measured:
        if r[1] != "ok":
            fails[r[1]] = fails.get(r[1], 0) + 1
    oks = [r for r in rows if r[1] == "ok" and r[2] is not None]
    best = min(oks, key=lambda r: r[2]) if oks else None
    build_s = sum(r[3] or 0 for r in rows) / 1e3
    fail_s = ",".join(f"{k}:{v}" for k, v in sorted(fails.items())) or "0"
    pool = meta.get("build_pool", "(no build_pool metadata)")
    print(f"{name:<16} {rc:>3} {wall:>7.1f} {len(measured):>8} {fail_s:>9} {best[2] if best else float('nan'):>9.4f} {build_s:>8.1f}  {pool}")
    if best:
        print(f"{'':<16} best: {best[0]}")
    for r in measured:
        if r[1] != "ok":
            msg = (r[4] or "").replace("\n", " | ")[:300]
            print(f"{'':<16} {r[1]} {r[0]}: {msg}")

print()
for a, b in (("gemm-nopool", "gemm-pool"), ("vecdot-nopool", "vecdot-pool"), ("gemm-pool", "gemm-pool-warm")):
    if a not in data or b not in data:
        print(f"{a} vs {b}: cannot compare (a run has no database)")
        continue
    va = {r[0]: VERDICT.get(r[1], r[1]) for r in data[a]}
    vb = {r[0]: VERDICT.get(r[1], r[1]) for r in data[b]}
    both = sorted(set(va) & set(vb))
    diff = [k for k in both if va[k] != vb[k]]
    only = sorted(set(va) ^ set(vb))
    agree = "yes" if both and not diff and not only else ("NO (nothing to compare)" if not both else "NO")
    ta, tb = runs[a][1], runs[b][1]
    ba = min((r[2] for r in data[a] if r[1] == "ok" and r[2] is not None), default=None)
    bb = min((r[2] for r in data[b] if r[1] == "ok" and r[2] is not None), default=None)
    ratio = f", best {ba:.4f} vs {bb:.4f} ms ({bb / ba:.3f}x)" if ba and bb else ""
    print(f"{a} vs {b}: verdicts agree on every configuration: {agree} ({len(both) - len(diff)}/{len(both)} same"
          f"{', ' + str(len(only)) + ' in one run only' if only else ''}); wall {ta:.1f} s vs {tb:.1f} s ({ta / tb:.2f}x){ratio}")
    for k in diff:
        print(f"    {k}: {va[k]} vs {vb[k]}")
PY
echo "== done in $(( $(date +%s) - start )) s; files under $out"
