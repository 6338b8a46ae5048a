#!/usr/bin/env bash
# The Orio acceptance corpus: runs `orcl check` on every annotated file of Orio's own
# testsuite/sandbox/opencl and testsuite/sandbox/cuda directories, unmodified, and prints one line
# per file and a total.
#
# Usage: bench/orio_corpus.sh ORIO [--tune] [--cuda] [--keep DIR]
#   ORIO     an Orio checkout (a directory holding testsuite/), or a bare git snapshot of it
#            (e.g. the one the search tool's fetch brings: /work/.mirror/brnorris03+Orio/repo)
#   --tune   also tune each OpenCL file that passes check, on the first OpenCL device (PoCL in CI),
#            with a small budget (--total-runs 4), and compile the `_file.c` it writes; the files name
#            their authors' `device=1`, so the tune runs with `--device $ORCL_DEVICE` (default 0)
#   --cuda   also tune each CUDA file that passes check, on CUDA device $ORCL_DEVICE (the GPU
#            machine), with --total-runs 4, and compile the `_file.cu` it writes with nvcc -c
#   --keep D copy the files into D and leave the outputs there (default: a temporary directory)
# Environment: ORCL (the orcl binary; default target/release/orcl), ORCL_DEVICE (device index for
# --tune; default 0).
# Exit status: 0 when every file passes, 1 otherwise.
set -uo pipefail

orio=${1:?usage: bench/orio_corpus.sh ORIO [--tune] [--keep DIR]}
shift
tune=0
cuda=0
keep=""
while [ $# -gt 0 ]; do
    case "$1" in
        --tune) tune=1 ;;
        --cuda) cuda=1 ;;
        --keep) keep=${2:?--keep needs a directory}; shift ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
    shift
done

here=$(cd "$(dirname "$0")/.." && pwd)
orcl=${ORCL:-$here/target/release/orcl}
[ -x "$orcl" ] || { echo "no orcl binary at $orcl (cargo build --release, or set ORCL)" >&2; exit 2; }
orcl=$(cd "$(dirname "$orcl")" && pwd)/$(basename "$orcl")

if [ -n "$keep" ]; then
    mkdir -p "$keep"; work=$(cd "$keep" && pwd)
else
    work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fi

# Bring the two sandbox directories into $work/{opencl,cuda}, from a checkout or a bare snapshot.
if [ -d "$orio/testsuite/sandbox" ]; then
    cp -r "$orio/testsuite/sandbox/opencl" "$orio/testsuite/sandbox/cuda" "$work/"
elif git --git-dir="$orio" rev-parse --verify -q HEAD >/dev/null; then
    git --git-dir="$orio" archive HEAD testsuite/sandbox/opencl testsuite/sandbox/cuda 2>/dev/null \
        | tar -x -C "$work" --strip-components=2
else
    echo "$orio is neither an Orio checkout nor a git snapshot of one" >&2; exit 2
fi

pass=0; fail=0; tuned=0; tune_fail=0
for f in $(cd "$work" && grep -l 'begin PerfTuning' opencl/*.c cuda/*.c 2>/dev/null | sort); do
    out=$(cd "$work/$(dirname "$f")" && "$orcl" check "$(basename "$f")" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then
        pass=$((pass + 1))
        warn=$(printf '%s\n' "$out" | grep -m1 '^warning' || true)
        line="PASS  $f${warn:+  ($warn)}"
        if [ $tune -eq 1 ] && [ "${f%%/*}" = opencl ]; then
            d="$work/$(dirname "$f")"; b=$(basename "$f")
            if (cd "$d" && "$orcl" tune "$b" --db corpus.db --total-runs 4 --device "${ORCL_DEVICE:-0}" >"$b.tune.log" 2>&1) \
                && (cd "$d" && cc -c -w -o /dev/null "_$b" 2>"$b.cc.log"); then
                tuned=$((tuned + 1)); line="$line; tuned, _$b compiles"
            else
                tune_fail=$((tune_fail + 1))
                line="$line; TUNE FAILED: $(grep -m1 -E 'error|failed' "$d/$b.tune.log" "$d/$b.cc.log" 2>/dev/null | head -1)"
            fi
        fi
        if [ $cuda -eq 1 ] && [ "${f%%/*}" = cuda ]; then
            d="$work/$(dirname "$f")"; b=$(basename "$f")
            if (cd "$d" && "$orcl" tune "$b" --backend cuda --db corpus.db --total-runs 4 --device "${ORCL_DEVICE:-0}" >"$b.tune.log" 2>&1) \
                && (cd "$d" && nvcc -c -w -o /dev/null "_${b%.c}.cu" 2>"$b.cc.log"); then
                tuned=$((tuned + 1)); line="$line; tuned on CUDA, _${b%.c}.cu compiles"
            else
                tune_fail=$((tune_fail + 1))
                line="$line; CUDA TUNE FAILED: $(grep -m1 -E 'error|failed' "$d/$b.tune.log" "$d/$b.cc.log" 2>/dev/null | head -1)"
            fi
        fi
        echo "$line"
    else
        fail=$((fail + 1))
        echo "FAIL  $f  (exit $rc) $(printf '%s\n' "$out" | grep -m1 -E '^(error|warning)' || printf '%s\n' "$out" | head -1)"
    fi
done
total=$((pass + fail))
echo "total: $pass of $total pass orcl check"
[ $tune -eq 1 ] || [ $cuda -eq 1 ] && echo "tune: $tuned files tuned and compiled, $tune_fail failed"
[ $fail -eq 0 ] && [ $tune_fail -eq 0 ]
