#!/usr/bin/env bash
# The hang reproduction loop of issue 24: N first tunes of a fresh shell (`orcl tune ... --backend
# cuda`), each in its own fresh kernel/skeleton cache and database, under `timeout` (SIGTERM, then
# SIGKILL KILL_AFTER seconds later), with the stage log captured (ORCL_LOG=debug), so that a hang
# says where it was (the last `stage start` without its `stage end`). Half the runs take every GPU
# (`--devices all`, the multigpu.sh case), half one GPU with a Random search (the sgemm4096 case).
#
# Run on the GPU machine from the repository root, orcl built:
#   bash bench/hangloop.sh OUT_DIR
# Env: N (default 30), ORCL, LIMIT (seconds per run, default 60), KILL_AFTER (default 5),
# SIZE (GEMM size, default 1024), RUNS (--total-runs per tune, default 12), BUDGET (stop starting
# runs after this many seconds, default 240). Prints one line per run and a summary; writes
# OUT_DIR/hangloop.tsv and OUT_DIR/run-I.log. Exit 1 if any run hung (exit 124 or 137) or was deaf
# (SIGKILL needed).
set -uo pipefail
out=${1:-${OUT:-/tmp/orcl-hangloop}}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
orcl=${ORCL:-./target/release/orcl}
n=${N:-30}
size=${SIZE:-1024}
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
python3 "$here/gemm/make_case.py" s NN "$size" "$size" "$size" full >"$out/sgemm.c"
printf 'run\targs\texit\twall_s\tlast_stage\n' >"$out/hangloop.tsv"
t_start=$(date +%s)
bad=0
done_runs=0
for i in $(seq 1 "$n"); do
  if [ $(( $(date +%s) - t_start )) -ge "${BUDGET:-240}" ]; then
    echo "budget of ${BUDGET:-240} s spent after $done_runs runs"
    break
  fi
  if [ $((i % 2)) = 1 ]; then
    args="--devices all --search Random --seed $i --total-runs ${RUNS:-12}"
  else
    args="--device 0 --search Random --seed $i --total-runs ${RUNS:-12}"
  fi
  rm -rf "$out/cache" "$out/t.db"*
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  env -i PATH="$PATH" HOME="$HOME" LD_LIBRARY_PATH="$LD_LIBRARY_PATH" ORCL_LOG=debug \
    ORCL_CACHE_DIR="$out/cache" timeout -k "${KILL_AFTER:-5}" "${LIMIT:-60}" \
    "$orcl" tune "$out/sgemm.c" --backend cuda --db "$out/t.db" -o "$out/_sgemm.cu" $args \
    >"$out/run-$i.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  last=$(grep -o 'stage start stage="[a-z-]*"' "$out/run-$i.log" | tail -1 | sed 's/.*="//; s/"//')
  wall=$(python3 -c "print(f'{$t1 - $t0:.1f}')")
  printf '%s\t%s\t%s\t%s\t%s\n' "$i" "$args" "$rc" "$wall" "${last:-none}" | tee -a "$out/hangloop.tsv"
  case $rc in
    0) ;;
    124|137) bad=$((bad + 1)); echo "run $i HUNG (exit $rc) in stage ${last:-before any stage}:"; tail -5 "$out/run-$i.log" ;;
    *) echo "run $i: exit $rc"; tail -3 "$out/run-$i.log" ;;
  esac
  done_runs=$i
done
echo "hangloop: $done_runs runs, $bad hung"
[ "$bad" = 0 ]
