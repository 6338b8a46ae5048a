#!/usr/bin/env bash
# Fault injection on a PoCL tune (issue 15, docs/RELIABILITY.md), run by `make faults` and by
# .ci/run after `make test`. Bounded: under a minute on 2 cores, stops at FAULTS_BUDGET seconds
# (default 300) whatever is left.
#
#   1. a clean tune of a 16-configuration vecAXPY: the reference set of configurations;
#   2. kill -9 at random moments of a tune and of its resumed tunes (skeleton build with an
#      emptied cache, measurements, database writes), then resume to the end;
#   3. SIGTERM at random moments: exit 143 and the experiment `interrupted` (or exit 0 when
#      the tune was already done), then resume to the end; kill -9 again with the build pool
#      (--jobs 2) writing the kernel-binary cache;
#   4. a variant whose kernel never ends (ORCL_TEST_FAULT=hang) under --timeout: recorded as
#      `timeout`, the tune finishes; then kill -9 of orcl while that variant spins;
#   5. a full disk for the database (a small tmpfs, or `ulimit -f`): orcl stops with exit 3
#      naming the database, then resumes once there is room.
#
# After every fault: no process of the run is left (orcl, its timing workers, build shells),
# the database holds one experiment, no configuration twice, every row recorded before the
# fault is still there after the resume, and the final set of configurations equals the clean
# run's. FAULTS_SEED=N replays the same random moments.
set -euo pipefail
cd "$(dirname "$0")/.."

ORCL=${ORCL:-$PWD/target/release/orcl}
SEED=${FAULTS_SEED:-$(( $(date +%s) % 32768 ))}
RANDOM=$SEED
BUDGET=${FAULTS_BUDGET:-300}
START=$SECONDS
WORK=$(mktemp -d "${TMPDIR:-/tmp}/orcl-faults.XXXXXX")
FAILS=0
CHILD=

cleanup() {
    if [[ -n $CHILD ]]; then kill -9 "$CHILD" 2>/dev/null || true; fi
    if [[ $FAILS -eq 0 && -z ${FAULTS_KEEP:-} ]]; then rm -rf "$WORK"; else echo "faults: kept $WORK"; fi
}
trap cleanup EXIT

say() { printf 'faults: %s\n' "$*"; }
fail() { say "FAIL: $*"; FAILS=$((FAILS + 1)); }
over_budget() { (( SECONDS - START > BUDGET )); }

[[ -x $ORCL ]] || { say "building orcl"; cargo build --release; }
say "seed $SEED (FAULTS_SEED=$SEED replays it), work dir $WORK"

# The input: tests/inputs/ok/axpy_faults.c with 4 x 4 configurations, N = 200000 and 20
# repetitions, so that a tune lasts a few seconds.
sed -e 's/param WI\[\] = \[16, 64\];/param WI[] = [8, 16, 32, 64];/' \
    -e 's/param UI\[\] = \[1, 2\];/param UI[] = [1, 2, 3, 4];/' \
    -e 's/param N\[\] = \[1000\];/param N[] = [200000];/' \
    -e 's/arg repetitions = 2;/arg repetitions = 20;/' \
    tests/inputs/ok/axpy_faults.c > "$WORK/k.c"
grep -q 'UI\[\] = \[1, 2, 3, 4\]' "$WORK/k.c" || { say "cannot build the input"; exit 1; }

export ORCL_CACHE_DIR=$WORK/cache
unset ORCL_TEST_FAULT

# One value of `orcl db query --json "SELECT ... AS v"` per line.
q() { "$ORCL" db --db "$1" query --json "$2" | sed -n 's/^  {"v": \(.*\)}[,]\{0,1\}$/\1/p'; }
keys() { q "$1" "SELECT config_key AS v FROM evaluation ORDER BY config_key"; }
rows() { if [[ -e $1 ]]; then q "$1" "SELECT count(*) AS v FROM evaluation" 2>/dev/null || echo 0; else echo 0; fi; }

# Processes whose command line mentions the work dir: orcl, skeleton workers (their binary is
# in the cache), build shells and compilers. The pattern is bracketed so that the grep that
# looks for them does not find itself.
procs_left() {
    local pat="[${WORK:0:1}]${WORK:1}" f p out=
    for f in $(grep -las -- "$pat" /proc/[0-9]*/cmdline 2>/dev/null || true); do
        p=${f#/proc/}; p=${p%/cmdline}
        [[ $p == "$$" ]] && continue
        out+="$p: $(tr '\0' ' ' 2>/dev/null < "$f" || true); "
    done
    printf '%s' "$out"
}

# Waits up to $1 s for the processes of the run to go; a failure names them.
assert_none_left() {
    local limit=$1 t=0 left
    while :; do
        left=$(procs_left)
        [[ -z $left ]] && return 0
        if (( t >= limit * 10 )); then fail "processes left after $2: $left"; return 1; fi
        sleep 0.1; t=$((t + 1))
    done
}

# The database is consistent: at most one experiment, no configuration twice, and every key of file
# $2 (recorded before a fault) still present.
assert_consistent() {
    local db=$1 before=$2 what=$3
    local exps dups
    exps=$(q "$db" "SELECT count(*) AS v FROM experiment")
    dups=$(q "$db" "SELECT count(*) - count(DISTINCT config_key) AS v FROM evaluation")
    # None yet when the fault came before the experiment was opened (the skeleton build).
    [[ $exps == 1 || $exps == 0 ]] || fail "$what: $exps experiments, expected 1"
    [[ $dups == 0 ]] || fail "$what: $dups duplicated configurations"
    if [[ -s $before ]]; then
        local lost
        lost=$(comm -23 <(sort "$before") <(keys "$db" | sort) | wc -l)
        [[ $lost == 0 ]] || fail "$what: $lost rows recorded before the fault are gone"
    fi
}

# A tune of the input into database $1 (a function: run it in the foreground only; a
# background tune must start the binary itself, so that a signal reaches orcl, not a subshell).
tune() { "$ORCL" tune "$WORK/k.c" --db "$1" -o "$WORK/_k.c" "${@:2}"; }

# --- 1. clean run --------------------------------------------------------------------------
tune "$WORK/clean.db" > "$WORK/clean.log" 2>&1 || { say "the clean tune failed:"; cat "$WORK/clean.log"; exit 1; }
keys "$WORK/clean.db" > "$WORK/clean.keys"
N=$(wc -l < "$WORK/clean.keys")
[[ $N == 16 ]] || fail "clean run: $N configurations, expected 16"
# A second clean tune with warm caches: how long the faults below have to land in.
rm -rf "$WORK/cache"
t0=$(date +%s%N)
tune "$WORK/clean2.db" > "$WORK/clean2.log" 2>&1 || { say "the second clean tune failed:"; cat "$WORK/clean2.log"; exit 1; }
T_MS=$(( ($(date +%s%N) - t0) / 1000000 ))
diff -q "$WORK/clean.keys" <(keys "$WORK/clean2.db") > /dev/null || fail "two clean runs tuned different configurations"
say "clean tune: $N configurations, ${T_MS} ms with the skeleton built"

# Resume $1 to the end (more tune arguments after $2) and compare its configurations with the
# clean run's; no scratch file of an interrupted build is left in the caches.
finish_and_compare() {
    local db=$1 what=$2
    if ! tune "$db" "${@:3}" > "$WORK/finish.log" 2>&1; then fail "$what: the resumed tune failed: $(tail -3 "$WORK/finish.log")"; return; fi
    assert_consistent "$db" "$WORK/before.keys" "$what"
    if ! diff -q "$WORK/clean.keys" <(keys "$db") > /dev/null; then fail "$what: configurations differ from the clean run"; fi
    local st
    st=$(q "$db" "SELECT status AS v FROM experiment")
    [[ $st == '"done"' ]] || fail "$what: experiment status $st after the resume, expected done"
    assert_none_left 10 "$what (resume)"
    local scratch
    scratch=$(find "$ORCL_CACHE_DIR" -name '*.tmp[0-9]*' -o -name 'skeleton-*.[0-9]*.c' 2> /dev/null || true)
    [[ -z $scratch ]] || fail "$what: scratch files left in the cache: $scratch"
}

# Start a tune on $1 (more tune arguments after $3), deliver signal $2 after a random moment in
# [0, $3) ms, wait for it. Sets EXIT to its exit status.
signal_run() {
    local db=$1 sig=$2 window_ms=$3
    local delay_ms=$(( RANDOM % window_ms ))
    "$ORCL" tune "$WORK/k.c" --db "$db" -o "$WORK/_k.c" "${@:4}" > "$WORK/run.log" 2>&1 &
    CHILD=$!
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    keys "$db" 2>/dev/null > "$WORK/before.keys" || : > "$WORK/before.keys"
    kill "-$sig" "$CHILD" 2>/dev/null || true
    set +e; { wait "$CHILD"; } 2>/dev/null; EXIT=$?; set -e
    CHILD=
    # Rows committed between the snapshot and the signal are kept too; read them again.
    keys "$db" 2>/dev/null > "$WORK/after.keys" || : > "$WORK/after.keys"
    comm -23 <(sort "$WORK/before.keys") <(sort "$WORK/after.keys") | grep -q . && fail "rows vanished at the $sig at ${delay_ms} ms"
    cp "$WORK/after.keys" "$WORK/before.keys"
    say "  $sig after ${delay_ms} ms: exit $EXIT, $(wc -l < "$WORK/before.keys") rows"
}

# --- 2, 3. kill -9 and SIGTERM -------------------------------------------------------------
# Each trial (six per signal): a fresh database, the signal at a random moment of a first tune,
# again at random moments of two resumed tunes, then a resume to the end. Every other trial starts with an emptied
# skeleton cache, so that the signal may land in the skeleton build.
window=$(( T_MS + 300 ))
check_signal_exit() { # $1 signal, $2 what, $3 database
    case $1:$EXIT in
        KILL:137|KILL:0|TERM:0) ;;
        TERM:3) fail "$2: exit 3 (an environment failure) for a SIGTERM: $(tail -3 "$WORK/run.log")" ;;
        TERM:143)
            local st
            st=$(q "$3" "SELECT status AS v FROM experiment" 2>/dev/null || true)
            # Before the experiment row exists there is nothing to mark.
            [[ $st == '"interrupted"' || -z $st ]] || fail "$2: exit 143 with the experiment $st, expected interrupted"
            ;;
        *) fail "$2: exit $EXIT: $(tail -3 "$WORK/run.log")" ;;
    esac
}
# KILL-pool: kill -9 with two build threads ahead of the worker (`--jobs 2`) writing the
# kernel-binary cache.
for trial in KILL TERM KILL-pool; do
    sig=${trial%-pool}
    extra=()
    [[ $trial == *-pool ]] && extra=(--jobs 2)
    for i in 1 2 3 4 5 6; do
        over_budget && break
        [[ $trial == *-pool && $i -gt 4 ]] && break
        db=$WORK/$trial-$i.db
        : > "$WORK/before.keys"
        (( i % 2 )) && rm -rf "$ORCL_CACHE_DIR"
        for round in 1 2 3; do
            signal_run "$db" "$sig" "$window" "${extra[@]}"
            check_signal_exit "$sig" "$trial #$i.$round" "$db"
            assert_none_left 10 "$trial #$i.$round"
            [[ -e $db ]] && assert_consistent "$db" "$WORK/before.keys" "$trial #$i.$round"
        done
        finish_and_compare "$db" "$trial #$i" "${extra[@]}"
    done
done

# --- 4. a hanging variant ------------------------------------------------------------------
if ! over_budget; then
    db=$WORK/hang.db
    t0=$SECONDS
    set +e
    ORCL_TEST_FAULT=hang:WI=32,UI=3 tune "$db" --timeout 2s > "$WORK/hang.log" 2>&1
    e=$?
    set -e
    [[ $e == 0 ]] || fail "hang: exit $e: $(tail -3 "$WORK/hang.log")"
    st=$(q "$db" "SELECT status AS v FROM evaluation WHERE config_key = '{\"WI\":32,\"UI\":3}'")
    [[ $st == '"timeout"' ]] || fail "hang: the hanging variant is recorded as $st, expected timeout"
    (( SECONDS - t0 < 60 )) || fail "hang: the tune took $(( SECONDS - t0 )) s"
    assert_none_left 10 "hang"
    say "hanging variant: recorded as timeout, tune done in $(( SECONDS - t0 )) s"

    # kill -9 of orcl while the variant spins: the worker dies with it.
    db=$WORK/hang9.db
    rm -f "$db"*
    ORCL_TEST_FAULT=hang:WI=8,UI=1 "$ORCL" tune "$WORK/k.c" --db "$db" -o "$WORK/_k.c" \
        --timeout 60s > "$WORK/hang9.log" 2>&1 &
    CHILD=$!
    spin=0
    for _ in $(seq 1 300); do
        # A timing worker runs the cached skeleton: wait for it, then let the variant spin.
        if [[ $(procs_left) == *"$WORK/cache/skeleton-"* ]]; then spin=1; break; fi
        sleep 0.1
    done
    sleep 1.5
    kill -9 "$CHILD" 2>/dev/null || true
    wait "$CHILD" 2>/dev/null || true
    CHILD=
    [[ $spin == 1 ]] || fail "hang + kill -9: no worker seen"
    assert_none_left 5 "kill -9 during a hanging variant"
fi

# --- 5. full disk for the database ---------------------------------------------------------
# A 256 KiB tmpfs for the database (room for the schema and a few evaluations), mounted in a
# user and mount namespace (`unshare -rm`, no root needed where user namespaces are allowed):
# SQLite gets ENOSPC. The database is copied out of the namespace before it goes, then resumed.
# Without namespaces, `ulimit -f 256` instead: orcl ignores SIGXFSZ, so a write past the limit
# fails with EFBIG; the limit then also applies to the OpenCL compiler's cache files.
if ! over_budget; then
    db=$WORK/full.db
    mkdir -p "$WORK/mnt"
    : > "$WORK/before.keys"
    set +e
    if unshare -rm true 2> /dev/null; then
        how="a 256 KiB tmpfs"
        unshare -rm sh -c 'mount -t tmpfs -o size=256k tmpfs "$1/mnt" || exit 99
            "$2" tune "$1/k.c" --db "$1/mnt/full.db" -o "$1/_full.c" > "$1/full.log" 2>&1
            e=$?; cp "$1/mnt/full.db" "$1/mnt/full.db-wal" "$1/" 2> /dev/null; exit $e' \
            sh "$WORK" "$ORCL"
    else
        how="ulimit -f 256"
        ( ulimit -f 256; exec "$ORCL" tune "$WORK/k.c" --db "$db" -o "$WORK/_full.c" ) > "$WORK/full.log" 2>&1
    fi
    e=$?
    set -e
    n=$(rows "$db")
    case $e in
        3) grep -q "tuning database: .*\(full\|I/O\)" "$WORK/full.log" || fail "full disk ($how): exit 3 without naming the database: $(tail -3 "$WORK/full.log")" ;;
        0) say "full disk ($how): the limit was not reached ($n rows)" ;;
        99) say "full disk: cannot mount a tmpfs in a namespace; skipped" ;;
        *) if grep -q "LLVM ERROR" "$WORK/full.log"; then
               say "full disk ($how): the OpenCL compiler hit the file-size limit first; skipped"
           else
               fail "full disk ($how): exit $e, expected 3: $(tail -3 "$WORK/full.log")"
           fi ;;
    esac
    grep -q "panicked" "$WORK/full.log" && fail "full disk: orcl panicked"
    assert_none_left 10 "full disk"
    if [[ -e $db ]]; then
        keys "$db" > "$WORK/before.keys" 2> /dev/null || : > "$WORK/before.keys"
        say "full disk ($how): exit $e with $n of $N rows: $(grep -m1 error: "$WORK/full.log" || true)"
        finish_and_compare "$db" "full disk"
    fi
fi

# --- 6. issue 25, round three (G4, G12, G11, G1) ------------------------------------------

# Polls (bounded, $2 s) until process $1 is gone or a zombie; 1 when it is still running.
gone_within() {
    local pid=$1 t=0 st
    while :; do
        st=$(sed -n 's/^[0-9]* (.*) \(.\).*/\1/p' "/proc/$pid/stat" 2>/dev/null || true)
        [[ -z $st || $st == Z || $st == X ]] && return 0
        (( t >= $2 * 10 )) && return 1
        sleep 0.1; t=$((t + 1))
    done
}

# G4: kill -9 of orcl while a pre-build hook runs; the hook's backgrounded grandchild must go
# with it (it used to live on under PID 1). Synchronised on the hook writing the pid.
fault_hook_grandchild() {
    local c=$WORK/hook.c pidf=$WORK/grandchild.pid script=$WORK/grandchild.sh orcl_pid gc t hook shape
    # The grandchild writes its own pid, then becomes `sleep 1000`.
    printf 'echo $$ > %s.tmp && mv %s.tmp %s\nexec sleep 1000\n' "$pidf" "$pidf" "$pidf" > "$script"
    for shape in background setsid; do
        # `setsid` leaves the hook's process group and session, in a double fork (issue 25 G4).
        case $shape in
            background) hook="sh $script \& wait" ;;
            setsid) hook="(setsid sh $script \&); sleep 1000" ;;
        esac
        sed "s|arg build_command = 'cc -O2';|arg build_command = 'cc -O2'; arg prebuild_command = '$hook';|" \
            "$WORK/k.c" > "$c"
        rm -f "$pidf"
        ORCL_CACHE_DIR=$WORK/cache-hook "$ORCL" tune "$c" --db "$WORK/hook.db" -o "$WORK/_hook.c" > "$WORK/hook.log" 2>&1 &
        orcl_pid=$!; CHILD=$orcl_pid; t=0
        while [[ ! -s $pidf ]] && (( t < 600 )); do sleep 0.1; t=$((t + 1)); done
        gc=$(cat "$pidf" 2>/dev/null || true)
        kill -9 "$orcl_pid" 2>/dev/null || true
        wait "$orcl_pid" 2>/dev/null || true
        CHILD=
        if [[ -z $gc ]]; then fail "hook grandchild ($shape): the hook never wrote its pid: $(tail -3 "$WORK/hook.log")"; return; fi
        if gone_within "$gc" 10; then say "hook grandchild ($shape): gone with orcl (kill -9)"; else fail "hook grandchild $gc ($shape) outlived orcl"; kill -9 "$gc" 2>/dev/null || true; fi
    done
}

# G12: timeout(1) sends SIGTERM to orcl and then to its process group, so orcl may see two:
# exit 143 with a message and the experiment `interrupted` (or 0 when the tune was done).
fault_timeout() {
    local i e db ms st
    for i in 1 2 3 4; do
        db=$WORK/timeout$i.db
        ms=$(( 200 + RANDOM % (T_MS + 1) ))
        set +e
        timeout --preserve-status "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))" "$ORCL" tune "$WORK/k.c" --db "$db" -o "$WORK/_t.c" > "$WORK/timeout.log" 2>&1
        e=$?
        set -e
        case $e in
            0) ;;
            143) grep -q SIGTERM "$WORK/timeout.log" || fail "timeout(1) at $ms ms: exit 143 with no message"
                 if [[ -e $db ]]; then
                     st=$(q "$db" "SELECT status AS v FROM experiment" 2>/dev/null || true)
                     [[ -z $st || $st == '"interrupted"' ]] || fail "timeout(1) at $ms ms: experiment $st, expected interrupted"
                 fi ;;
            *) fail "timeout(1) at $ms ms: exit $e: $(tail -2 "$WORK/timeout.log")" ;;
        esac
        assert_none_left 10 "timeout(1)"
    done
    say "timeout(1): 4 runs, each 143 with the experiment interrupted, or done"
}

# G11: under `ulimit -f`, with PoCL's kernel cache empty, `orcl devices` and `orcl tune` end
# with exit 3 and a message naming the limit (or `devices` with 0 when it wrote nothing).
fault_ulimit() {
    local what e
    for what in devices tune; do
        rm -rf "$WORK/pocl-empty" "$WORK/ulimit.db"*; mkdir -p "$WORK/pocl-empty"
        set +e
        if [[ $what == devices ]]; then
            ( ulimit -f 64; POCL_CACHE_DIR=$WORK/pocl-empty exec "$ORCL" devices ) > "$WORK/ulimit.log" 2>&1
        else
            ( ulimit -f 64; POCL_CACHE_DIR=$WORK/pocl-empty ORCL_CACHE_DIR=$WORK/cache-ulimit exec "$ORCL" tune "$WORK/k.c" --db "$WORK/ulimit.db" -o "$WORK/_u.c" ) > "$WORK/ulimit.log" 2>&1
        fi
        e=$?
        set -e
        if [[ $what == devices && $e == 0 ]]; then continue; fi
        [[ $e == 3 ]] || fail "ulimit -f 64, orcl $what: exit $e, expected 3: $(tail -2 "$WORK/ulimit.log")"
        grep -q "file-size limit is 65536 bytes" "$WORK/ulimit.log" || fail "ulimit -f 64, orcl $what: the message does not name the limit: $(tail -2 "$WORK/ulimit.log")"
    done
    assert_none_left 10 "ulimit -f"
    say "ulimit -f 64: exit 3 naming the limit"
}

# G1: a cache path through a symbolic link owned by another user is refused (exit 3), while
# that user keeps switching it between root's cache and one holding a planted skeleton; the
# planted one never runs. Needs root and a second user (nobody); skipped otherwise.
fault_cache_symlink() {
    if [[ $(id -u) != 0 ]] || ! id nobody > /dev/null 2>&1; then
        say "swapped cache symlink: skipped (needs root and the user nobody)"; return
    fi
    local link=$WORK/cachelink i e sw
    mkdir -p "$WORK/evil"
    printf '#!/bin/sh\ntouch %s/PWNED\n' "$WORK" > "$WORK/evil/plant"; chmod 755 "$WORK/evil/plant"
    for f in "$WORK"/cache/skeleton-*; do [[ $f == *.* ]] || cp "$WORK/evil/plant" "$WORK/evil/${f##*/}"; done
    chown -R nobody "$WORK/evil"
    ln -sfn "$WORK/cache" "$link"; chown -h nobody "$link"
    ( while :; do ln -sfn "$WORK/evil" "$link.n" && chown -h nobody "$link.n" && mv -T "$link.n" "$link"
                  ln -sfn "$WORK/cache" "$link.n" && chown -h nobody "$link.n" && mv -T "$link.n" "$link"; done ) &
    sw=$!
    for i in 1 2 3 4 5 6; do
        set +e
        ORCL_CACHE_DIR=$link "$ORCL" tune "$WORK/k.c" --db "$WORK/link.db" -o "$WORK/_l.c" > "$WORK/link.log" 2>&1
        e=$?
        set -e
        [[ $e == 3 ]] && grep -q "symbolic link owned by user id" "$WORK/link.log" || fail "swapped cache symlink, try $i: exit $e: $(tail -2 "$WORK/link.log")"
    done
    kill "$sw"; wait "$sw" 2>/dev/null || true
    [[ -e $WORK/PWNED ]] && fail "swapped cache symlink: the planted skeleton ran"
    say "swapped cache symlink: refused 6/6, nothing planted ran"
}

if ! over_budget; then fault_hook_grandchild; fi
if ! over_budget; then fault_timeout; fi
if ! over_budget; then fault_ulimit; fi
if ! over_budget; then fault_cache_symlink; fi

# --- 7. resume budgets (issue 25 G8) -------------------------------------------------------
# kill -9 at random moments of a tune with --total-runs 8 (of 16), resumed with the same budget:
# the experiment ends with exactly 8 rows (it used to add 8 per run); a rerun of the done
# experiment adds none and says so, exit 0; --more 3 adds exactly 3.
g8_resume_budgets() {
    local db=$WORK/g8.db n e
    signal_run "$db" KILL "$window" --total-runs 8
    signal_run "$db" KILL "$window" --total-runs 8
    tune "$db" --total-runs 8 > "$WORK/g8.log" 2>&1 || { fail "G8: the resumed tune failed: $(tail -3 "$WORK/g8.log")"; return; }
    n=$(rows "$db")
    [[ $n == 8 ]] || fail "G8: $n rows after kill -9 and resume with --total-runs 8, expected 8"
    set +e; tune "$db" --total-runs 8 > "$WORK/g8.log" 2>&1; e=$?; set -e
    n=$(rows "$db")
    [[ $e == 0 && $n == 8 ]] || fail "G8: a rerun of the done experiment: exit $e, $n rows (expected 0, 8)"
    grep -q "is done (8 evaluation(s) in the database)" "$WORK/g8.log" || fail "G8: the rerun does not say the experiment is done"
    tune "$db" --more 3 > "$WORK/g8.log" 2>&1 || fail "G8: --more 3 failed: $(tail -3 "$WORK/g8.log")"
    n=$(rows "$db")
    [[ $n == 11 ]] || fail "G8: $n rows after --more 3, expected 11"
    assert_consistent "$db" "$WORK/before.keys" "G8"
    assert_none_left 10 "G8"
    say "G8: kill -9 twice, resume, rerun, --more 3: 8, 8, 11 rows"
}
over_budget || g8_resume_budgets

over_budget && say "stopped at the ${BUDGET} s budget"
assert_none_left 10 "the end" || true

if (( FAILS > 0 )); then say "$FAILS failure(s) (seed $SEED)"; exit 1; fi
say "all faults handled in $(( SECONDS - START )) s (seed $SEED)"
