#!/usr/bin/env bash
# Records the large GEMM space of issue 13 exhaustively into a tuning database, one chunk per call,
# so that each call fits the device tool's per-command limit; the next call resumes the same
# experiment (database rows are free) and measures the next configurations.
#
#   bash bench/gemm/record_space.sh DIR          # one chunk; repeat until it prints `complete`
#
# DIR holds the generated case file (sgemm_SPACE_MxNxK.c), the database (SPACE.db), the tuned file
# and one log per chunk. When $OUT is set (device tool), the database and the logs are copied
# there after the chunk; carry DIR/SPACE.db back into the next call at the same path.
#
# Env (defaults): BACKEND=opencl (or cuda: the CUDA variants, built by the CUDA build pool), SPACE=big (bench/gemm/make_case.py; big = 10,824 configurations), TYPE=s,
# FORM=NN, M=N=K=2048, CHUNK=420s (orcl's --time-limit: a chunk ends after the batch in flight,
# so leave a minute or two of margin under the command limit), RUNS (optional: also stop a chunk
# after this many new rows, orcl's --more), JOBS (optional: orcl's --jobs, kernel
# builds at a time; default the host's cores: NVIDIA OpenCL takes about 0.5 s per GEMM kernel, in one build process per job, so
# the builds bound a chunk and a host with more cores records faster), DEVICES=all (orcl --devices:
# one measuring worker per identical GPU), ORCL=./target/release/orcl, PLATFORM (OpenCL
# platform index; default: the NVIDIA one).
#
# Exit status: 0 when every configuration that satisfies the constraints has a row (the space is
# complete), 75 when more chunks are needed, anything else on failure (orcl tune's status).
# Resuming needs the same DIR (the region is keyed by the file's path), the same SPACE, TYPE,
# FORM, M, N, K and the same device model and driver (the experiment's identity holds the device
# fingerprint and the --platform selection, not the --devices list): chunks may run on one, two or
# eight identical GPUs, but an H200 after an H100 starts a new experiment.
set -euo pipefail
dir=${1:?usage: record_space.sh DIR}
space=${SPACE:-big}
ty=${TYPE:-s} form=${FORM:-NN} m=${M:-2048} n=${N:-2048} k=${K:-2048}
chunk=${CHUNK:-420s}
here=$(cd "$(dirname "$0")" && pwd)
orcl=${ORCL:-./target/release/orcl}
mkdir -p "$dir"
if [ -f shared/gpu/opencl-icd.sh ]; then bash shared/gpu/opencl-icd.sh >/dev/null; fi
platform=${PLATFORM:-$({ "$orcl" devices --json 2>/dev/null || true; } | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except ValueError:
    d = []
d = d.get("devices", d) if isinstance(d, dict) else d
print(next((x["platform_index"] for x in d if x.get("backend") == "opencl" and "NVIDIA" in x.get("platform", "")), 0))')}
case="$dir/${ty}gemm_${space}_${m}x${n}x${k}.c"
db="$dir/$space.db"
python3 "$here/make_case.py" "$ty" "$form" "$m" "$n" "$k" "$space" >"$case"
# The number of configurations that satisfy the constraints, as `orcl check` counts them.
want=$("$orcl" check "$case" | sed -n 's/.*configurations, \([0-9]*\) satisfy the constraints.*/\1/p' | head -1)
[ -n "$want" ] || { echo "record_space: could not count the space of $case" >&2; exit 1; }
backend=${BACKEND:-opencl}
case "$backend" in
  opencl) extra=(--backend opencl --platform "$platform") ;;
  cuda) extra=(--backend cuda) ;;
  *) echo "record_space: BACKEND must be opencl or cuda, not $backend" >&2; exit 2 ;;
esac
[ "${DEVICES:-all}" != none ] && extra+=(--devices "${DEVICES:-all}")
# Every chunk reopens the experiment on purpose (--more): a `done` one is otherwise replayed,
# not extended (issue 25 G8); RUNS bounds the chunk's new rows.
if [ -n "${RUNS:-}" ]; then extra+=(--more "$RUNS"); else extra+=(--more 1000000000); fi
[ -n "${JOBS:-}" ] && extra+=(--jobs "$JOBS")
logs=("$dir"/chunk-*.log)
[ -e "${logs[0]}" ] || logs=()
log="$dir/chunk-$((${#logs[@]} + 1)).log"
t0=$(date +%s)
rc=0
"$orcl" tune "$case" "${extra[@]}" --db "$db" \
  --search Exhaustive --time-limit "$chunk" -o "$dir/_$(basename "$case")" >"$log" 2>&1 || rc=$?
t1=$(date +%s)
if [ "$rc" -ne 0 ]; then
  echo "record_space: orcl tune exited $rc, see $log" >&2
  tail -20 "$log" >&2
fi
# Rows of the experiment (the newest one of the file: the chunks share it) and how they ended.
python3 - "$db" "$want" "$((t1 - t0))" <<'PY' | tee -a "$dir/progress.txt"
import sqlite3, sys
db, want, secs = sys.argv[1], int(sys.argv[2]), sys.argv[3]
c = sqlite3.connect(db)
exp = c.execute("select max(id) from experiment").fetchone()[0]
rows = dict(c.execute("select status, count(*) from evaluation where experiment_id = ? group by status", (exp,)).fetchall())
have = sum(rows.values())
best = c.execute("select min(median_ms) from evaluation where experiment_id = ? and status = 'ok'", (exp,)).fetchone()[0]
state = "complete" if have >= want else "run again"
print(f"record_space: experiment {exp}: {have} of {want} configurations recorded "
      f"({', '.join(f'{k} {v}' for k, v in sorted(rows.items()))}); best {best} ms; chunk {secs} s; {state}")
PY
if [ -n "${OUT:-}" ]; then
  cp "$db" "$dir"/chunk-*.log "$dir/progress.txt" "$OUT"/ 2>/dev/null || true
fi
# 1 is `orcl tune`'s "no correct variant so far" (every configuration of the chunk failed): the rows
# are recorded all the same. Anything else (2 input error, 3 no device, 130 interrupted) stops.
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || exit "$rc"
tail -1 "$dir/progress.txt" | grep -q "complete$" && exit 0
exit 75
