#!/usr/bin/env bash
# Scaling with the GPUs of one node (issue 14 step 3, issue 24, docs/BENCHMARKS.md "Every GPU of a
# node"): each case tuned with one device (`--device 0`) and with each device list of DEVICES
# (`--devices 0,1`, `--devices 0,1,2,3`), a fresh database each time, the kernel-binary cache warmed
# first so builds do not hide the measuring workers' scaling. Prints configurations, wall time,
# configurations/s, the speed-up and where the time went (the run's `stage_seconds` metadata).
#
# Run on a machine with >= 2 identical GPUs from the repository root, orcl built:
#   bash bench/multigpu.sh OUT_DIR
# Env: DEVICES (device lists separated by spaces, default "0,1"), CASES (default: all below), ORCL, JOBS (default 16), EXTRA (more tune args),
# NOWARM=1 (no warm-up run: the caches of OUT_DIR as they are), ORCL_REFERENCE_CACHE_MB=0 (every run computes the reference outputs).
# Smoke test on PoCL: POCL_DEVICES="pthread pthread" CASES=fig2 JOBS=0 EXTRA="--total-runs 20" bash bench/multigpu.sh
set -uo pipefail
out=${1:-${OUT:-/tmp/orcl-multigpu}}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
orcl=${ORCL:-./target/release/orcl}
devs=${DEVICES:-0,1}
if [ -f shared/gpu/opencl-icd.sh ]; then bash shared/gpu/opencl-icd.sh >/dev/null; fi
export PATH=/usr/local/cuda/bin:$PATH
platform=$("$orcl" devices --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d.get("devices", d) if isinstance(d, dict) else d
print(next((x["platform_index"] for x in d if x.get("backend") == "opencl" and "NVIDIA" in x.get("platform", "")), 0))')
python3 "$here/gemm/make_case.py" s NN 2048 2048 2048 full >"$out/sgemm2048.c"
python3 "$here/gemm/make_case.py" s NN 4096 4096 4096 big >"$out/sgemm4096.c"
printf 'case\tbackend\tdevices\tconfigurations\twall_s\tconfigs_per_s\tstage_seconds\n' >"$out/scaling.tsv"

# one NAME BACKEND FILE SIZE DEVICE-ARGS...
one() {
  local name=$1 backend=$2 file=$3 size=$4
  shift 4
  local db="$out/$name.db"
  rm -f "$db" "$db"-*
  local t0 t1
  t0=$(date +%s.%N)
  ORCL_CACHE_DIR="$out/cache" timeout -k 5 ${LIMIT:-280} "$orcl" tune "$file" --backend "$backend" --platform "$platform" \
    --size "$size" --db "$db" -o "$out/_$name.c" --jobs ${JOBS:-16} ${EXTRA:-} "$@" >"$out/$name.log" 2>&1 || echo "$name: exit $? (see $name.log)"
  t1=$(date +%s.%N)
  python3 - "$name" "$backend" "$*" "$db" "$t0" "$t1" <<'PY' | tee -a "$out/scaling.tsv"
import sqlite3, sys
name, backend, devs, db, t0, t1 = sys.argv[1:7]
c = sqlite3.connect(db)
n = c.execute("select count(*) from evaluation").fetchone()[0]
st = c.execute("select value from experiment_metadata where key = 'stage_seconds'").fetchone()
w = float(t1) - float(t0)
print(f"{name}\t{backend}\t{devs}\t{n}\t{w:.1f}\t{n / w:.1f}\t{st[0] if st else '-'}")
PY
}

for c in ${CASES:-fig2 axpy2p26 sgemm-opencl sgemm-cuda}; do
  case $c in
    fig2) b=opencl f=examples/vecAXPY.c s=N=1000000 x=() ;;
    axpy2p26) b=opencl f=bench/vecAXPY_2p26.c s=N=67108864 x=(--total-runs 60) ;;
    sgemm-opencl) b=opencl f=$out/sgemm2048.c s=M=2048 x=() ;;
    sgemm-cuda) b=cuda f=$out/sgemm2048.c s=M=2048 x=() ;;
    sgemm4096-cuda) b=cuda f=$out/sgemm4096.c s=M=4096 x=(--search Random --seed 3 --total-runs ${RUNS4096:-160}) ;;
  esac
  # warm the kernel-binary cache (not for the 2^26 case: its 60 configurations are few kernels)
  # (the warm-up's wall time is the cold run: every kernel built, CUDA_CACHE_DISABLE=1)
  [ "$c" = axpy2p26 ] || [ -n "${NOWARM:-}" ] || CUDA_CACHE_DISABLE=1 one "$c-warmup" "$b" "$f" "$s" --device 0 "${x[@]}"
  # and NVIDIA's JIT cache, which the cold run leaves empty: otherwise the first timed run (one
  # GPU) re-JITs every cached program binary (~13 ms each) and the later ones do not, a bias that
  # made one GPU look 1.5x slower than it is (session 32)
  [ -n "${NOWARM:-}" ] || one "$c-jitwarmup" "$b" "$f" "$s" --device 0 "${x[@]}"
  one "$c-1dev" "$b" "$f" "$s" --device 0 "${x[@]}"
  for d in $devs; do
    one "$c-${d//,/_}" "$b" "$f" "$s" --devices "$d" "${x[@]}"
  done
done
python3 - "$out/scaling.tsv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
by = {}
for r in rows:
    if r["case"].endswith("warmup"):
        continue
    by.setdefault(r["case"].rsplit("-", 1)[0], []).append(r)
for case, rs in by.items():
    a = rs[0]
    for b in rs[1:]:
        print(f"{case} {b['devices']}: {a['configs_per_s']} -> {b['configs_per_s']} configs/s, x{float(b['configs_per_s']) / max(float(a['configs_per_s']), 1e-9):.2f}")
PY
