#!/bin/bash
# bench/polybench.sh [POLYBENCH_DIR]: `orcl check` and a short `orcl tune` (2 configurations per
# region and input size) of every annotated PolyBench kernel in tests/polybench/*.c, one line per
# kernel (tuned / checked / refused, with the first error) and a total. POLYBENCH_DIR (a
# PolyBench/C 4.2.1 tree) adds -I DIR/utilities and the kernel's own directory, for files that
# #include PolyBench's headers. Run from the repository root after `cargo build --release`;
# ORCL overrides the binary. Issue 22.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
orcl=${ORCL:-$root/target/release/orcl}
pb=${1:-}
[ -x "$orcl" ] || { echo "error: $orcl not found: cargo build --release first" >&2; exit 2; }
if [ -n "$pb" ] && [ ! -d "$pb/utilities" ]; then
  echo "error: $pb is not a PolyBench/C tree (no utilities/)" >&2; exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/orcl-polybench.XXXXXX")
trap 'rm -rf "$work"' EXIT
total=0; tuned=0; checked=0; refused=0
for f in "$root"/tests/polybench/*.c; do
  k=$(basename "$f" .c)
  total=$((total + 1))
  inc=()
  if [ -n "$pb" ]; then
    inc=(-I "$pb/utilities")
    h=$(find "$pb" -name "$k.h" -print -quit)
    [ -n "$h" ] && inc+=(-I "$(dirname "$h")")
  fi
  cp "$f" "$work/$k.c"
  "$orcl" check "${inc[@]}" "$work/$k.c" > "$work/$k.check" 2>&1
  rc=$?
  first=$(grep -m1 '^error' "$work/$k.check"; grep -m1 -- '-->' "$work/$k.check" | sed 's/^ *//')
  if [ $rc -ne 0 ] && [ $rc -ne 4 ]; then
    refused=$((refused + 1))
    printf '%-14s refused  %s\n' "$k" "$(echo $first)"
    continue
  fi
  "$orcl" tune "${inc[@]}" "$work/$k.c" --db "$work/$k.db" --total-runs 2 > "$work/$k.tune" 2>&1
  trc=$?
  regions=$(grep -c 'region [0-9]* in' "$work/$k.check")
  note=""
  [ $rc -eq 4 ] && note=" (some regions refused: $(echo $first))"
  case $trc in
    0|4) tuned=$((tuned + 1)); printf '%-14s tuned    %s region(s)%s\n' "$k" "$regions" "$note" ;;
    *) checked=$((checked + 1))
       printf '%-14s checked  tune exit %s: %s\n' "$k" "$trc" "$(grep -m1 '^error' "$work/$k.tune")" ;;
  esac
done
echo "total: $total kernels: $tuned tuned, $checked checked only, $refused refused"
[ $refused -eq 0 ] && [ $checked -eq 0 ]
