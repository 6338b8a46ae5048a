#!/usr/bin/env bash
# PolyBench gemm as written (DATA_TYPE float) on the H100's tensor cores, cuBLAS TF32 in the same run.
# Run on the GPU machine from the repository root, orcl built: bash bench/tensor_polybench.sh OUT_DIR
# (ORCL=path). Both backends: the wgmma starter space `wts` (NVIDIA OpenCL since session 36, its PTX
# retargeted to sm_90a); BACKENDS="cuda opencl" (default both); OPENCL_SPACE=t32o for session 35's
# mma.sync form (the `t32o` winner: TK 16, 2 stages, 64x64 warps, ldmatrix, .ca, blockSwizzle 8,
# tf32Convert=truncate). Prints each backend's best three with TFLOP/s and the ratio to
# cublasGemmEx TF32 (bench/tensor/cublas_tf32.cu) on the same shape.
set -u
out=${1:-${OUT:-/tmp/orcl-polybench-tensor}}; mkdir -p "$out"
orcl=${ORCL:-./target/release/orcl}
[ -f shared/gpu/opencl-icd.sh ] && bash shared/gpu/opencl-icd.sh >/dev/null 2>&1
[ -f ../shared/gpu/opencl-icd.sh ] && bash ../shared/gpu/opencl-icd.sh >/dev/null 2>&1
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > "$out/gpu.txt" 2>&1
timeout 120 nvcc -O2 -std=c++17 -o "$out/cublas_tf32" bench/tensor/cublas_tf32.cu -lcublas > "$out/nvcc.log" 2>&1
timeout 60 "$out/cublas_tf32" NN 4096 4096 4096 tf32 > "$out/cublas.json" 2>&1; cat "$out/cublas.json"
platform=$(timeout 60 "$orcl" devices --json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin); d = d.get("devices", d) if isinstance(d, dict) else d
print(next((x["platform_index"] for x in d if x.get("backend") == "opencl" and "NVIDIA" in x.get("platform", "")), 0))')
echo "platform $platform"
python3 bench/tensor/polybench_gemm.py wts 4096 cuda > "$out/pb_cuda.c"
if [ "${OPENCL_SPACE:-wts}" = t32o ]; then
  python3 bench/tensor/polybench_gemm.py t32o 4096 opencl "TK=16,WJ=64,ST=2,TC='truncate'" > "$out/pb_opencl.c"
else
  python3 bench/tensor/polybench_gemm.py wts 4096 opencl > "$out/pb_opencl.c"
fi
for b in ${BACKENDS:-cuda opencl}; do
  extra=(); [ $b = opencl ] && extra=(--platform "$platform")
  t0=$(date +%s)
  timeout 250 "$orcl" tune "$out/pb_$b.c" --backend $b "${extra[@]}" --timeout 60s --db "$out/pb_$b.db" -o "$out/_pb_$b.c" > "$out/pb_$b.log" 2>&1
  echo "$b rc=$? $(( $(date +%s) - t0 )) s"
  tail -4 "$out/pb_$b.log"
  python3 - "$out/pb_$b.db" "$out/cublas.json" <<'PY'
import json, sqlite3, sys
c = sqlite3.connect(sys.argv[1]); cub = json.load(open(sys.argv[2]))["tflops"]
for st, n in c.execute("select status, count(*) from evaluation group by status"): print(" ", st, n)
for ms, err, cfg in c.execute("select median_ms, max_error, config_key from evaluation where status='ok' order by median_ms limit 3"):
    tf = 2 * 4096**3 / (ms * 1e-3) / 1e12
    print(f"  {ms:.4f} ms {tf:.1f} TFLOP/s {tf/cub:.3f}x cuBLAS TF32 {cub:.1f}; max rel err {err:.2e}; {cfg}")
PY
done
