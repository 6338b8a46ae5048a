#!/bin/bash
# bench/polybench_gpu.sh OUT [KERNEL...]: orcl against PolyBench/GPU's hand-written CUDA kernels
# (Grauer-Gray et al., "Auto-tuning a high-level language targeted to GPU codes", InPar 2012;
# github.com/sgrauerg/polybenchGpu) on an NVIDIA GPU, issue 22.
#
# For each kernel (default: the 17 below; DOITGEN's program has no .cuh and no timer; name PolyBench/GPU folders to pick some):
#  1. builds PolyBench/GPU's CUDA/<K>/<k>.cu (nvcc -O3 -arch=sm_90 -DPOLYBENCH_TIME, its CPU run
#     compiled out) and runs it RUNS times: "GPU Time in seconds" is their gettimeofday timer around
#     the kernel launches + cudaThreadSynchronize, transfers outside; the median is kept;
#  2. tunes tests/polybench/<k>.c with orcl (`--backend cuda`) at the same sizes (read from the
#     .cuh's STANDARD_DATASET block), DATA_TYPE float as PolyBench/GPU's (the annotated files use
#     PolyBench/C's double), a GPU-sized space, TUNE_S seconds per kernel split over its regions;
#     orcl's figure is the sum over regions of the winner's median (CUDA events around the kernel
#     launches; for a time-loop region, the whole region: every step, uploads and downloads);
#  3. appends "kernel sizes polybench_gpu_ms orcl_ms speedup" to OUT/polybench_gpu.tsv as each
#     kernel ends, prints the table and the geometric mean of the speed-ups (theirs / orcl).
#
# Environment: PBG (PolyBench/GPU's CUDA/ folder, default .pb/CUDA, with ../common beside it),
# ORCL (default .pb/orcl), TUNE_S (60), REPS (orcl repetitions, 5), RUNS (3), NVCC_ARCH (sm_90).
# Run from the repository root on the GPU machine. Every step is under `timeout`.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: bench/polybench_gpu.sh OUT [KERNEL...]}
shift
pbg=${PBG:-$root/.pb/CUDA}
orcl=${ORCL:-$root/.pb/orcl}
tune_s=${TUNE_S:-60}
reps=${REPS:-5}
runs=${RUNS:-3}
arch=${NVCC_ARCH:-sm_90}
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
# Load PolyBench/GPU's kernels at context creation, not inside their timer (CUDA 12+ loads lazily).
export CUDA_MODULE_LOADING=EAGER
[ -x "$orcl" ] || { echo "error: $orcl not found (ORCL=...)" >&2; exit 2; }
[ -f "$pbg/../common/polybench.h" ] || { echo "error: $pbg is not PolyBench/GPU's CUDA/ folder" >&2; exit 2; }
mkdir -p "$out/work"
tsv=$out/polybench_gpu.tsv
printf 'kernel\tsizes\tpolybench_gpu_ms\torcl_ms\tspeedup\n' > "$tsv"

# PolyBench/GPU folder | its .cu | tests/polybench file | orcl size = .cuh macro, ...
table='2DCONV 2DConvolution 2DCONV NI=NI,NJ=NJ
3DCONV 3DConvolution 3DCONV NI=NI,NJ=NJ,NK=NK
GEMM gemm gemm NI=NI,NJ=NJ,NK=NK
2MM 2mm 2mm NI=NI,NJ=NJ,NK=NK,NL=NL
3MM 3mm 3mm NI=NI,NJ=NJ,NK=NK,NL=NL,NM=NM
ATAX atax atax M=NX,N=NY
BICG bicg bicg N=NX,M=NY
MVT mvt mvt N=N
GESUMMV gesummv gesummv N=N
SYRK syrk syrk N=NI,M=NJ
SYR2K syr2k syr2k N=NI,M=NJ
JACOBI2D jacobi2D jacobi-2d T=TSTEPS,N=N
FDTD-2D fdtd2d fdtd-2d T=TMAX,NX=NX,NY=NY
GEMVER gemver gemver N=N
JACOBI1D jacobi1D jacobi-1d T=TSTEPS,N=N
CORR correlation correlation M=M,N=N
COVAR covariance covariance M=M,N=N'

# cuh_value FILE MACRO: MACRO's value in the STANDARD_DATASET block of a PolyBench/GPU header.
cuh_value() {
  awk -v m="$2" '/ifdef STANDARD_DATASET/ {p = 1; next} p && /endif/ {exit}
    p && $0 ~ "define[ \t]+" m "[ \t]" {print $NF; exit}' "$1"
}

# space K: perl substitutions giving the GPU-sized performance_params of tests/polybench/K.c.
space() {
  case $1 in
    # The triangle over its bounding square as a contraction, the operands' k-slabs staged or not.
    syrk|syr2k) echo 's/param TI\[\] = \[[^]]*\]/param TI[] = [16, 32, 64]/g;
      s/param TJ\[\] = \[[^]]*\]/param TJ[] = [16, 32]/g; s/param TK\[\] = \[[^]]*\];/param TK[] = [8, 16]; param CB[] = [False, True];/g;
      s/device=0, platform=0\)/cacheBlocks=CB, device=0, platform=0)/g' ;;
    gemm|2mm|3mm) echo 's/param TI\[\] = \[[^]]*\]/param TI[] = [16, 32, 64]/g;
      s/param TJ\[\] = \[[^]]*\]/param TJ[] = [16, 32]/g; s/param TK\[\] = \[[^]]*\]/param TK[] = [8, 16]/g' ;;
    2DCONV|3DCONV|jacobi-2d) echo 's/param TI\[\] = \[[^]]*\]/param TI[] = [4, 8, 16, 32]/g;
      s/param TJ\[\] = \[[^]]*\]/param TJ[] = [32, 64]/g' ;;
    # The 2-D nests tiled, the 1-D first nest of the step the 1-D map of WI.
    fdtd-2d) echo 's/param TI\[\] = \[[^]]*\]/param TI[] = [4, 8, 16, 32]/g;
      s/param TJ\[\] = \[[^]]*\]/param TJ[] = [32, 64]/g; s/param WI\[\] = \[[^]]*\]/param WI[] = [256]/g' ;;
    *) echo 's/param WI\[\] = \[[^]]*\]/param WI[] = [64, 128, 256]/g;
      s/param WG\[\] = \[[^]]*\]/param WG[] = [16, 64, 256]/g' ;;
  esac
}

# spec_copy K SIZES TOL DEST: tests/polybench/K.c with input_params set to SIZES ("N=4096 M=4096"),
# its size constraints dropped, float data, the GPU-sized space and validation tolerance TOL.
spec_copy() {
  local subst="" kv
  for kv in $2; do
    subst+="s/param ${kv%%=*}\\[\\] = \\[[^]]*\\]/param ${kv%%=*}[] = [${kv#*=}]/g; "
  done
  perl -0pe "s{(def input_params \\{.*?\\n?\\s*\\})}{ my \$b = \$1; \$b =~ s/constraint [^;]*;//g; \$b }gse;
    s/\\bdouble\\b/float/g; s/(def performance_counter \\{[^}]*\\})/\$1 def validation { arg tolerance = $3; }/g;
    $subst $(space "$1")" "$root/tests/polybench/$1.c" > "$4"
}

median() { sort -g | awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]}'; }

# Build every PolyBench/GPU program first, in parallel (the CPU comparison compiled out).
sel=("$@")
picked() { [ ${#sel[@]} -eq 0 ] && return 0; local s; for s in "${sel[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
while read -r dir cu k map; do
  picked "$dir" || continue
  # cudaThreadSynchronize is gone from CUDA 13: its successor, cudaDeviceSynchronize, does the same.
  sed 's/^#define RUN_ON_CPU/\/\/ RUN_ON_CPU (orcl bench: CPU comparison off)/; s/cudaThreadSynchronize/cudaDeviceSynchronize/g' \
    "$pbg/$dir/$cu.cu" > "$pbg/$dir/orcl_bench.cu"
  timeout 300 nvcc -O3 -arch="$arch" -DPOLYBENCH_TIME -I"$pbg/$dir" -o "$out/work/$dir.exe" \
    "$pbg/$dir/orcl_bench.cu" > "$out/work/$dir.nvcc" 2>&1 &
done <<< "$table"
wait

logs=()
while read -r dir cu k map; do
  picked "$dir" || continue
  sizes=""
  for kv in ${map//,/ }; do sizes+="${kv%%=*}=$(cuh_value "$pbg/$dir/$cu.cuh" "${kv#*=}") "; done
  sizes=${sizes% }
  theirs=NA; ours=NA
  if [ -x "$out/work/$dir.exe" ]; then
    for r in $(seq "$runs"); do
      (cd "$pbg/$dir" && timeout 120 "$out/work/$dir.exe") > "$out/work/$dir.run$r" 2>/dev/null
      grep -A1 'GPU Time in seconds' "$out/work/$dir.run$r" | tail -1
    done | median > "$out/work/$dir.s"
    s=$(cat "$out/work/$dir.s")
    [ -n "$s" ] && theirs=$(awk -v s="$s" 'BEGIN {printf "%.4f", s * 1000}')
  fi
  f=$out/work/$k.c
  # orcl validates at PolyBench/GPU's own threshold (PERCENT_DIFF_ERROR_THRESHOLD, a percentage):
  # its default (1e-9) is a double's, and these kernels are float as PolyBench/GPU's.
  pct=$(grep -h 'define PERCENT_DIFF_ERROR_THRESHOLD' "$pbg/$dir/"*.cu* | awk '{print $3; exit}')
  tol=$(awk -v p="${pct:-0.05}" 'BEGIN {print p / 100}')
  spec_copy "$k" "$sizes" "$tol" "$f"
  regions=$(grep -c 'begin Loop' "$f")
  limit=$((tune_s / regions))
  timeout $((tune_s * 2 + 60)) "$orcl" tune --backend cuda "$f" --db "$out/work/$k.db" \
    --time-limit "${limit}s" --repetitions "$reps" > "$out/work/$k.tune" 2>&1
  echo "tune exit $?" >> "$out/work/$k.tune"
  timeout 60 "$orcl" db best --db "$out/work/$k.db" --json > "$out/work/$k.best.json" 2>&1
  # One winner per region: the sum of their medians (ms) is orcl's time for the kernel.
  n=$(grep -o '"median_ms": *[0-9.eE+-]*' "$out/work/$k.best.json" | awk '{t += $2; n++} END {if (n) print n, t}')
  if [ -n "$n" ] && [ "${n%% *}" -eq "$regions" ]; then ours=$(awk -v t="${n#* }" 'BEGIN {printf "%.4f", t}'); fi
  sp=NA
  [ "$theirs" != NA ] && [ "$ours" != NA ] && sp=$(awk -v a="$theirs" -v b="$ours" 'BEGIN {printf "%.2f", a / b}')
  printf '%s\t%s\t%s\t%s\t%s\n' "$dir" "$sizes" "$theirs" "$ours" "$sp" >> "$tsv"
  printf '%-9s %-30s PolyBench/GPU %10s ms  orcl %10s ms  speed-up %s\n' "$dir" "$sizes" "$theirs" "$ours" "$sp"
done <<< "$table"
awk -F'\t' 'NR > 1 && $5 != "NA" {s += log($5); n++} END {if (n) printf "geometric mean speed-up: %.2f over %d kernels\n", exp(s / n), n}' "$tsv" | tee -a "$out/summary.txt"
