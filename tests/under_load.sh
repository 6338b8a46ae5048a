#!/usr/bin/env bash
# Run a command while CPU-bound loads keep every core busy (issue 25: the tests must hold on a
# loaded machine, since they wait on events, not on wall time). Usage:
#   tests/under_load.sh [-n LOADS] COMMAND [ARGS...]
# LOADS (default: one per core, at least 2) processes spin (`yes > /dev/null`) for the whole run
# and are ended (by their process ids) when COMMAND exits, whatever its outcome; exit status:
# COMMAND's.
set -uo pipefail
loads=$(( $(nproc) > 2 ? $(nproc) : 2 ))
if [ "${1:-}" = "-n" ]; then loads=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: $0 [-n LOADS] COMMAND [ARGS...]" >&2; exit 2; }
pids=()
stop() { [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null; pids=(); }
trap stop EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
for _ in $(seq "$loads"); do
    yes > /dev/null &
    pids+=($!)
done
echo "under_load: $loads CPU-bound loads (pids ${pids[*]}) while: $*" >&2
start=$(date +%s)
"$@"
status=$?
echo "under_load: exit $status after $(( $(date +%s) - start )) s" >&2
exit $status
