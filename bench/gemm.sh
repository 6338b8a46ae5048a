#!/usr/bin/env bash
# GEMM from the naive annotated triple loop vs cuBLAS, in the same run (issue 13).
# For each case TYPE:FORM:M:N:K:SPACE (see bench/gemm/make_case.py) it writes the annotated C file,
# tunes it with NVIDIA OpenCL and with CUDA (orcl tune, exhaustive over SPACE, every variant
# validated against the loop), runs cublasSgemm / cublasDgemm on the same shape, and prints orcl's
# best TFLOP/s (2*M*N*K / median kernel time), cuBLAS's, the ratio, the tuning wall time and the
# number of configurations measured.
#
# Run on the GPU machine from the repository root, orcl built (cargo build --release):
#   bash bench/gemm.sh OUT_DIR [CASE...]          default case: s:NN:4096:4096:4096:full
# Env: BACKENDS="opencl cuda", ORCL=path, TIME_LIMIT (per tune, orcl's --time-limit, e.g. 4m).
# Writes OUT_DIR/gemm.tsv and one database and log per tune.
set -euo pipefail
out=${1:-${OUT:-/tmp/orcl-gemm}}
shift || true
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(s:NN:4096:4096:4096:full)
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
orcl=${ORCL:-./target/release/orcl}
if [ -f shared/gpu/opencl-icd.sh ]; then bash shared/gpu/opencl-icd.sh >/dev/null; fi
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvcc -O2 -std=c++17 -o "$out/cublas_gemm" "$here/gemm/cublas_gemm.cu" -lcublas
platform=${PLATFORM:-$("$orcl" devices --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d.get("devices", d) if isinstance(d, dict) else d
print(next((x["platform_index"] for x in d if x.get("backend") == "opencl" and "NVIDIA" in x.get("platform", "")), 0))')}
[ -f "$out/gemm.tsv" ] || printf 'case\tbackend\tconfigurations_ok\twrong\ttune_s\tbest_ms\tTFLOPs\tcublas_TFLOPs\tratio\tbest_configuration\n' >"$out/gemm.tsv"

for c in "${cases[@]}"; do
  IFS=: read -r ty form m n k space <<<"$c"
  name="${ty}gemm_${form}_${m}x${n}x${k}_${space// /_}"
  name=${name//=/}
  python3 "$here/gemm/make_case.py" "$ty" "$form" "$m" "$n" "$k" "$space" >"$out/$name.c"
  cublas=$("$out/cublas_gemm" "$ty" "$form" "$m" "$n" "$k" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tflops"])')
  for b in ${BACKENDS:-opencl cuda}; do
    db="$out/$name-$b.db"
    rm -f "$db" "$db"-*
    extra=()
    [ "$b" = opencl ] && extra=(--platform "$platform")
    [ -n "${TIME_LIMIT:-}" ] && extra+=(--time-limit "$TIME_LIMIT")
    t0=$(date +%s.%N)
    if ! "$orcl" tune "$out/$name.c" --backend "$b" "${extra[@]}" --db "$db" -o "$out/_$name-$b.c" \
      >"$out/$name-$b.log" 2>&1; then
      echo "$name $b: orcl tune failed, see $out/$name-$b.log" >&2
      tail -5 "$out/$name-$b.log" >&2
      continue
    fi
    t1=$(date +%s.%N)
    python3 - "$db" "$name" "$b" "$m" "$n" "$k" "$cublas" "$t0" "$t1" <<'PY' | tee -a "$out/gemm.tsv"
import sqlite3, sys
db, name, backend, m, n, k, cublas, t0, t1 = sys.argv[1:10]
secs = float(t1) - float(t0)
flop = 2.0 * int(m) * int(n) * int(k)
c = sqlite3.connect(db)
bad = c.execute("select count(*) from evaluation where status = 'wrong_result'").fetchone()[0]
ok = c.execute("select count(*) from evaluation where status = 'ok'").fetchone()[0]
ms, cfg = c.execute("select median_ms, config_key from evaluation where status = 'ok' order by median_ms limit 1").fetchone()
tf = flop / (ms * 1e-3) / 1e12
print(f"{name}\t{backend}\t{ok}\t{bad}\t{secs:.0f}\t{ms:.4f}\t{tf:.2f}\t{float(cublas):.2f}\t{tf / float(cublas):.3f}\t{cfg}")
PY
  done
done
(column -t -s $'\t' "$out/gemm.tsv" 2>/dev/null || cat "$out/gemm.tsv")
