#!/usr/bin/env bash
# TF32 tensor-core GEMM from the naive annotated triple loop vs cuBLAS TF32, in the same run
# (issue 23, phase 1). For each case FORM:M:N:K:SPACE (see bench/tensor/make_case.py) it writes the
# annotated C file (mathMode='tf32'), tunes it with NVIDIA OpenCL and with CUDA (orcl tune,
# exhaustive over SPACE, every variant validated against the loop at the TF32 tolerance), runs
# cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32 on the same shape, and prints orcl's best TFLOP/s
# (2*M*N*K / median kernel time), cuBLAS's, the ratio, the tuning wall time, the configurations
# measured ok / wrong / pruned, and the largest relative error of the winner.
#
# Run on the GPU machine from the repository root, orcl built (cargo build --release):
#   bash bench/tensor.sh OUT_DIR [CASE...]        default case: NN:4096:4096:4096:starter
# Env: PREC=tf32|fp16|bf16 (operand precision: float arrays on TF32, _Float16 / __bf16 arrays on
#      FP16 / BF16 tensor cores; cuBLAS in the same precision, cublasGemmEx with FP32 compute),
#      BACKENDS="opencl cuda", ORCL=path, TUNE_TIMEOUT (seconds per tune, default 900),
#      TIME_LIMIT (orcl's --time-limit per tune, e.g. 8m), VARIANT_TIMEOUT (orcl's --timeout per
#      variant, e.g. 60s).
# Writes OUT_DIR/tensor.tsv (one row per case and backend, appended as each tune ends), and one
# database, log and tuned file per tune; OUT_DIR/cublas-*.json the reference figures.
set -u -o pipefail
out=${1:-${OUT:-/tmp/orcl-tensor}}
shift || true
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(NN:4096:4096:4096:starter)
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
orcl=${ORCL:-./target/release/orcl}
say() { printf '[tensor.sh %s] %s\n' "$(date -u +%H:%M:%S)" "$*" | tee -a "$out/progress.log"; }
[ -x "$orcl" ] || { say "no orcl binary at $orcl (cargo build --release, or ORCL=path)"; exit 2; }
if [ -f shared/gpu/opencl-icd.sh ]; then bash shared/gpu/opencl-icd.sh >/dev/null 2>&1; fi
if [ -f ../shared/gpu/opencl-icd.sh ]; then bash ../shared/gpu/opencl-icd.sh >/dev/null 2>&1; fi
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
say "building the cuBLAS TF32 reference"
if ! timeout 300 nvcc -O2 -std=c++17 -o "$out/cublas_tf32" "$here/tensor/cublas_tf32.cu" -lcublas >"$out/nvcc.log" 2>&1; then
  say "nvcc failed (see $out/nvcc.log); cuBLAS column left empty"
fi
timeout 60 "$orcl" devices >"$out/devices.txt" 2>&1
platform=${PLATFORM:-$(timeout 60 "$orcl" devices --json 2>/dev/null | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except Exception:
    print(0); sys.exit()
d = d.get("devices", d) if isinstance(d, dict) else d
print(next((x["platform_index"] for x in d if x.get("backend") == "opencl" and "NVIDIA" in x.get("platform", "")), 0))')}
say "NVIDIA OpenCL platform: $platform"
[ -f "$out/tensor.tsv" ] || printf 'case\tbackend\tok\twrong\tpruned\tother\ttune_s\tbest_ms\tTFLOPs\tcublas_tf32_TFLOPs\tratio\tmax_rel_error\tbest_configuration\n' >"$out/tensor.tsv"

for c in "${cases[@]}"; do
  IFS=: read -r form m n k space <<<"$c"
  prec=${PREC:-tf32}
  name="${prec}_${form}_${m}x${n}x${k}_${space// /_}"
  name=${name//=/}
  python3 "$here/tensor/make_case.py" "$form" "$m" "$n" "$k" "$space" "$prec" >"$out/$name.c" || { say "$name: make_case failed"; continue; }
  cublas=""
  if [ -x "$out/cublas_tf32" ]; then
    timeout 120 "$out/cublas_tf32" "$form" "$m" "$n" "$k" "$prec" >"$out/cublas-$name.json" 2>&1 &&
      cublas=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tflops"])' "$out/cublas-$name.json")
  fi
  say "$name: cuBLAS ${prec^^} ${cublas:-?} TFLOP/s"
  for b in ${BACKENDS:-opencl cuda}; do
    db="$out/$name-$b.db"
    rm -f "$db" "$db"-*
    extra=()
    [ "$b" = opencl ] && extra=(--platform "$platform")
    [ -n "${TIME_LIMIT:-}" ] && extra+=(--time-limit "$TIME_LIMIT")
    [ -n "${VARIANT_TIMEOUT:-}" ] && extra+=(--timeout "$VARIANT_TIMEOUT")
    say "$name $b: tuning (log $out/$name-$b.log)"
    t0=$(date +%s.%N)
    timeout "${TUNE_TIMEOUT:-900}" "$orcl" tune "$out/$name.c" --backend "$b" "${extra[@]}" --db "$db" \
      -o "$out/_$name-$b.c" >"$out/$name-$b.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    [ $rc -eq 0 ] || { say "$name $b: orcl tune exit $rc, last lines:"; tail -5 "$out/$name-$b.log" | tee -a "$out/progress.log"; }
    [ -f "$db" ] || continue
    python3 - "$db" "$name" "$b" "$m" "$n" "$k" "${cublas:-0}" "$t0" "$t1" <<'PY' | tee -a "$out/tensor.tsv"
import sqlite3, sys
db, name, backend, m, n, k, cublas, t0, t1 = sys.argv[1:10]
secs = float(t1) - float(t0)
flop = 2.0 * int(m) * int(n) * int(k)
c = sqlite3.connect(db)
count = lambda s: c.execute("select count(*) from evaluation where status = ?", (s,)).fetchone()[0]
ok, bad, pruned = count("ok"), count("wrong_result"), count("device_limit")
other = c.execute("select count(*) from evaluation where status not in ('ok', 'wrong_result', 'device_limit')").fetchone()[0]
row = c.execute("select median_ms, max_error, config_key from evaluation where status = 'ok' order by median_ms limit 1").fetchone()
if row is None:
    print(f"{name}\t{backend}\t{ok}\t{bad}\t{pruned}\t{other}\t{secs:.0f}\t-\t-\t{float(cublas):.1f}\t-\t-\t-")
else:
    ms, err, cfg = row
    tf = flop / (ms * 1e-3) / 1e12
    ratio = f"{tf / float(cublas):.3f}" if float(cublas) > 0 else "-"
    err = f"{err:.2e}" if err is not None else "-"
    print(f"{name}\t{backend}\t{ok}\t{bad}\t{pruned}\t{other}\t{secs:.0f}\t{ms:.4f}\t{tf:.1f}\t{float(cublas):.1f}\t{ratio}\t{err}\t{cfg}")
PY
    # The failures' first messages, for the report.
    python3 - "$db" <<'PY' >"$out/$name-$b.failures.txt"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for st, msg, cfg in c.execute("select status, substr(coalesce(message, ''), 1, 300), config_key from evaluation where status != 'ok' limit 20"):
    print(st, cfg, msg.replace("\n", " "))
PY
  done
done
say "done"
(column -t -s $'\t' "$out/tensor.tsv" 2>/dev/null || cat "$out/tensor.tsv")
