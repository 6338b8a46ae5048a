//! SIGINT/SIGTERM during a tune: the first signal is recorded (the tune stops at the next safe
//! point, marks its experiment `interrupted` and exits 128 + signal), a second one exits at once.
//! Child processes (timing workers, build shells) are started with a parent-death signal so that
//! they never outlive orcl, even after `kill -9` (issue 15 F6, F7, F18).

mod tree;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The signal received (0: none), and whether one was: set by the handlers [`install`] registers.
struct Flags {
    signal: Arc<AtomicUsize>,
    any: Arc<AtomicBool>,
}

static FLAGS: OnceLock<Flags> = OnceLock::new();

/// A signal within this time of the first is the same request, not a second one: `timeout(1)`
/// sends SIGTERM to orcl and then to its whole process group, orcl included (issue 25 G12: 2 runs
/// in 10 exited at once, with no message and the experiment `running`). The two are sent
/// microseconds apart, but the kernel may hand the second to a thread that is blocked in
/// uninterruptible I/O (SQLite's fsync on a loaded disk), whose handler then runs much later: a
/// 500 ms window still failed 1 run in 4 on a loaded CI machine. Within [`GRACE`] the watchdog
/// ends the run anyway, so a repeated signal before it has had its chance adds nothing; the
/// window is GRACE plus a second for the watchdog's last words. A signal after it (the watchdog
/// itself stuck) exits at once.
pub const DUPLICATE_WINDOW: std::time::Duration = std::time::Duration::from_millis(GRACE_MS + 1000);

/// When the first signal arrived (CLOCK_MONOTONIC, ns), for [`DUPLICATE_WINDOW`].
static FIRST_AT_NS: AtomicU64 = AtomicU64::new(0);

/// CLOCK_MONOTONIC in nanoseconds (clock_gettime(2) is async-signal-safe).
fn monotonic_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t) };
    (t.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(t.tv_nsec as u64)
        .max(1)
}

/// Install the SIGINT and SIGTERM handlers (idempotent). Called by
/// `orcl tune` and `orcl compare`. The first signal is recorded ([`requested`]); the tune stops
/// at its next safe point with a message and the experiment marked `interrupted`. A second
/// signal more than [`DUPLICATE_WINDOW`] after the first exits at once with 128 + signal and a
/// one-line message; one within the window is the first one again (`timeout(1)` signals the
/// process and its group) and is ignored. The handler only uses atomics, clock_gettime(2),
/// write(2) and _exit(2), all async-signal-safe.
///
/// SIGXFSZ is caught for every command by [`guard_process_exit`].
pub fn install() {
    FLAGS.get_or_init(|| {
        let flags = Flags {
            signal: Arc::new(AtomicUsize::new(0)),
            any: Arc::new(AtomicBool::new(false)),
        };
        for sig in [libc::SIGINT, libc::SIGTERM] {
            let (any, signal) = (Arc::clone(&flags.any), Arc::clone(&flags.signal));
            let handler = move || {
                let now = monotonic_ns();
                if !any.swap(true, Ordering::SeqCst) {
                    FIRST_AT_NS.store(now, Ordering::SeqCst);
                    signal.store(sig as usize, Ordering::SeqCst);
                    return;
                }
                let first = FIRST_AT_NS.load(Ordering::SeqCst);
                if now.saturating_sub(first) < DUPLICATE_WINDOW.as_nanos() as u64 {
                    return;
                }
                let msg: &[u8] = match sig {
                    libc::SIGINT => b"orcl: second signal (SIGINT): exiting at once (the experiment stays `running`; the next run resumes it)\n",
                    _ => b"orcl: second signal (SIGTERM): exiting at once (the experiment stays `running`; the next run resumes it)\n",
                };
                // SAFETY: write(2) and _exit(2) are async-signal-safe.
                unsafe {
                    libc::write(2, msg.as_ptr().cast(), msg.len());
                    libc::_exit(128 + sig);
                }
            };
            // SAFETY: the handler is async-signal-safe (see above).
            if let Err(e) = unsafe { signal_hook::low_level::register(sig, handler) } {
                orcl_frontend::errln!("warning: cannot handle signal {sig}: {e}");
            }
        }
        save_dispositions();
        start_watchdog();
        flags
    });
}

/// orcl's SIGINT and SIGTERM dispositions, as [`install`] left them.
static SAVED: std::sync::Mutex<Vec<(libc::c_int, libc::sigaction)>> =
    std::sync::Mutex::new(Vec::new());

fn save_dispositions() {
    let mut saved = SAVED.lock().unwrap_or_else(|e| e.into_inner());
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: queries the disposition into a zeroed sigaction.
        let mut cur: libc::sigaction = unsafe { std::mem::zeroed() };
        if unsafe { libc::sigaction(sig, std::ptr::null(), &mut cur) } == 0 {
            saved.push((sig, cur));
        }
    }
}

/// Put orcl's SIGINT/SIGTERM handlers back where a library replaced them. PoCL's LLVM, inside
/// orcl's process, installs its own SIGTERM handler with `SA_RESETHAND` about 80 ms into a tune:
/// the first SIGTERM then resets the disposition to the default until LLVM restores orcl's, and
/// `timeout(1)`'s second SIGTERM, microseconds later, killed orcl with no message (issue 25 G12:
/// 1 to 3 runs in 25 of `timeout 0.2 orcl tune` on a loaded machine). Called by the watchdog
/// every 20 ms.
fn restore_dispositions() {
    let saved = SAVED.lock().unwrap_or_else(|e| e.into_inner());
    for (sig, ours) in saved.iter() {
        // SAFETY: queries and, where changed, sets a disposition from a saved sigaction.
        unsafe {
            let mut cur: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(*sig, std::ptr::null(), &mut cur) == 0
                && cur.sa_sigaction != ours.sa_sigaction
            {
                libc::sigaction(*sig, ours, std::ptr::null_mut());
            }
        }
    }
}

/// Set when orcl's `main` returns its exit code (or a panic ends it): an `exit()` before that
/// was called by a library inside orcl (see [`guard_process_exit`]).
static EXITING_NORMALLY: AtomicBool = AtomicBool::new(false);

/// For every command, once at start (issue 25 G11):
///
/// - SIGXFSZ, which the kernel sends a process writing past its file-size limit (`ulimit -f`),
///   is caught by a handler that does nothing (a handler, unlike `SIG_IGN`, is not inherited by
///   the compilers orcl runs), so such a write fails with `EFBIG` and is reported like a full
///   disk (exit 3) instead of killing orcl with no message (`orcl devices` did);
/// - an atexit(3) handler catches an `exit()` that a library calls inside orcl before orcl's
///   own `main` returns — PoCL's LLVM does on "File too large" — and turns it into exit 3 with
///   a message, naming the file-size limit when there is one (it used to exit 1, the code of
///   "no correct variant", with nothing said). Call [`exiting_normally`] before orcl's own exit.
pub fn guard_process_exit() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let ignored = Arc::new(AtomicBool::new(false));
        if let Err(e) = signal_hook::flag::register(libc::SIGXFSZ, ignored) {
            orcl_frontend::errln!("warning: cannot catch SIGXFSZ: {e}");
        }
        // SAFETY: registers a plain extern "C" function.
        unsafe { libc::atexit(exit_from_a_library) };
    });
}

/// Mark orcl's own exit (see [`guard_process_exit`]).
pub fn exiting_normally() {
    EXITING_NORMALLY.store(true, Ordering::SeqCst);
}

/// The soft file-size limit (`ulimit -f`) in bytes, `None` when unlimited.
pub fn file_size_limit() -> Option<u64> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `r` is a valid rlimit.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_FSIZE, &mut r) } == 0;
    (ok && r.rlim_cur != libc::RLIM_INFINITY).then_some(r.rlim_cur)
}

/// What a file-size limit of `bytes` does, for messages.
pub fn file_size_note(bytes: u64) -> String {
    format!(
        "the file-size limit is {bytes} bytes (`ulimit -f {}`): a write past it fails with \"File too large\" (EFBIG), as the OpenCL compiler's cache files and the database do; raise it (`ulimit -f unlimited`)",
        bytes / 1024
    )
}

extern "C" fn exit_from_a_library() {
    if EXITING_NORMALLY.load(Ordering::SeqCst) {
        return;
    }
    let limit = match file_size_limit() {
        Some(b) => format!("; {}", file_size_note(b)),
        None => String::new(),
    };
    orcl_frontend::errln!(
        "error: a library inside orcl (the OpenCL runtime or its compiler; its message is above) ended the process{limit}"
    );
    // SAFETY: _exit(2) ends the process without running the remaining exit handlers.
    unsafe { libc::_exit(3) };
}

/// How long after the first SIGINT/SIGTERM the watchdog waits for the run to stop at a safe
/// point before it ends the process itself (issue 24: within 2 s at every stage).
pub const GRACE: std::time::Duration = std::time::Duration::from_millis(GRACE_MS);

/// [`GRACE`] in milliseconds.
const GRACE_MS: u64 = 1200;

/// The stage the run is in ([`enter_stage`]), named by the watchdog and the stage log.
static STAGE: std::sync::Mutex<&'static str> = std::sync::Mutex::new("start-up");

/// What the watchdog does before it ends the process: mark the open experiment `interrupted`
/// (set by the tuning driver once the experiment exists); returns a note for its message.
type LastWords = Box<dyn Fn(i32) -> Option<String> + Send>;
static LAST_WORDS: std::sync::Mutex<Option<LastWords>> = std::sync::Mutex::new(None);

/// Sets (or with `None` clears) what the watchdog does before it ends the process (see
/// [`GRACE`]): typically marking the open experiment `interrupted` through its own database
/// connection. Called with the signal number; its `Some(note)` ends the watchdog's message.
pub fn set_last_words(f: Option<LastWords>) {
    *LAST_WORDS.lock().unwrap_or_else(|e| e.into_inner()) = f;
}

/// The stage the run is in (`discovery`, `skeleton`, `workers`, `search`, `finalists`,
/// `database`, ...).
pub fn stage() -> &'static str {
    *STAGE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The run enters `stage`: recorded for the watchdog's message. With `ORCL_TEST_PAUSE=stage`
/// (tests only: `tests/stages.rs`), prints `orcl: test pause at stage STAGE` on stderr and
/// blocks there for ever, as a hung stage would (cuInit, NVRTC): only a signal ends it.
pub fn enter_stage(stage: &'static str) {
    *STAGE.lock().unwrap_or_else(|e| e.into_inner()) = stage;
    test_pause(stage);
}

/// The `ORCL_TEST_PAUSE` hook of [`enter_stage`].
pub fn test_pause(stage: &str) {
    static PAUSE: OnceLock<Option<String>> = OnceLock::new();
    let pause = PAUSE.get_or_init(|| std::env::var("ORCL_TEST_PAUSE").ok());
    if pause.as_deref() == Some(stage) {
        orcl_frontend::errln!("orcl: test pause at stage {stage}");
        loop {
            std::thread::park();
        }
    }
}

/// Starts the watchdog thread: once SIGINT/SIGTERM has arrived, the run has [`GRACE`] to stop at
/// a safe point (its experiment marked `interrupted`, exit 128 + signal); a stage that cannot see
/// the signal (a hung driver call, NVRTC in a build thread, a stuck device discovery) is ended
/// here: the last words run (the experiment marked `interrupted`), one line on stderr naming the
/// stage, and `_exit(128 + signal)` (no destructors or atexit handlers, which may themselves hang
/// in a GPU driver). Children die with orcl (`tie_to_parent`).
fn start_watchdog() {
    let spawned = std::thread::Builder::new()
        .name("orcl-watchdog".into())
        .spawn(|| {
            // A poll, and the only way: nothing reports that a library replaced orcl's handlers
            // (sigaction(2) has no notification; PoCL's LLVM installs its own at any point), so
            // they are checked every 20 ms. The same tick reads the request flag, which the
            // handler can only set (a signal handler may not notify a condition variable); the
            // 20 ms are small beside the GRACE that follows.
            let signal = loop {
                if let Some(s) = requested() {
                    break s;
                }
                restore_dispositions();
                std::thread::sleep(std::time::Duration::from_millis(20));
            };
            std::thread::sleep(GRACE);
            // The supervisors end their trees (orcl's exit below would also make them, through
            // their parent-death signal); a SIGKILL here would end them first.
            if let Ok(groups) = GROUPS.lock() {
                groups.iter().for_each(|&g| end_group(g));
            }
            let note = LAST_WORDS
                .lock()
                .ok()
                .and_then(|f| f.as_ref().and_then(|f| f(signal)));
            let line = format!(
                "interrupted by {}: stage `{}` did not stop within {:.1} s; ended{}\n",
                name(signal),
                stage(),
                GRACE.as_secs_f64(),
                note.map(|n| format!("; {n}; run the same command again to resume it"))
                    .unwrap_or_default()
            );
            // SAFETY: write(2) of a valid buffer, then _exit(2): no lock, no destructor.
            unsafe {
                libc::write(2, line.as_ptr().cast(), line.len());
                libc::_exit(128 + signal);
            }
        });
    if let Err(e) = spawned {
        orcl_frontend::errln!("warning: cannot start the signal watchdog: {e}");
    }
}

/// The signal number (2 = SIGINT, 15 = SIGTERM) received since [`install`], if any.
pub fn requested() -> Option<i32> {
    let flags = FLAGS.get()?;
    match flags.signal.load(Ordering::SeqCst) {
        0 => None,
        s => i32::try_from(s).ok(),
    }
}

/// The signal's name, for messages.
pub fn name(sig: i32) -> &'static str {
    match sig {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}

/// Make `cmd`'s process die with SIGKILL when orcl dies (Linux `PR_SET_PDEATHSIG`), and, when
/// `own_group`, lead its own process group so that [`kill_group`] reaches its children too.
pub fn tie_to_parent(cmd: &mut std::process::Command, own_group: bool) {
    use std::os::unix::process::CommandExt;
    if own_group {
        cmd.process_group(0);
    }
    let parent = unsafe { libc::getpid() };
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            );
            // The parent may have died before prctl took effect.
            if libc::getppid() != parent {
                libc::_exit(137);
            }
            Ok(())
        });
    }
}

/// Run `cmd` under a supervisor (issue 25 G4): the process orcl starts (the group leader of
/// [`tie_to_parent`]`(cmd, true)`, which must be called first) forks; the child runs the
/// command, the parent stays behind as a subreaper (`PR_SET_CHILD_SUBREAPER`, so the command's
/// orphaned children are reparented to it, not to init) that reaps them. When the command
/// ends, the supervisor SIGKILLs every descendant still running, then exits with the command's
/// status. When orcl dies, even by `kill -9`, or asks it to stop ([`end_group`]), its
/// SIGUSR1 (the parent-death signal; blocked and taken with sigwaitinfo(2)) makes it SIGKILL
/// every descendant and exit 137. "Every descendant" is found in `/proc` (module `tree`), so
/// it includes those that left the process group or the session (`setsid sleep 1000 &`, a
/// double fork), which a group kill missed and which used to outlive orcl under PID 1; only a
/// process that leaves the supervisor's tree altogether (a PID namespace, a service manager
/// asked to start it) escapes. Without a readable `/proc` it falls back to the group kill.
pub fn supervise(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    let parent = unsafe { libc::getpid() };
    // SAFETY: only async-signal-safe calls (prctl, sigprocmask, fork, sigwaitinfo, waitpid,
    // kill, _exit) between fork and exec; nothing allocates.
    unsafe {
        cmd.pre_exec(move || {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGCHLD);
            libc::sigaddset(&mut set, libc::SIGUSR1);
            libc::sigprocmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
            libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGUSR1 as libc::c_ulong,
                0,
                0,
                0,
            );
            if libc::getppid() != parent {
                libc::kill(0, libc::SIGKILL);
                libc::_exit(137);
            }
            let me = libc::getpid();
            let child = libc::fork();
            if child < 0 {
                return Err(std::io::Error::last_os_error());
            }
            if child == 0 {
                // The command: dies with the supervisor, starts with no signal blocked.
                libc::prctl(
                    libc::PR_SET_PDEATHSIG,
                    libc::SIGKILL as libc::c_ulong,
                    0,
                    0,
                    0,
                );
                if libc::getppid() != me {
                    libc::_exit(137);
                }
                libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
                return Ok(());
            }
            // The supervisor never execs: close its copies of every descriptor above stderr,
            // among them the pipe through which the standard library learns that the exec
            // succeeded (it would wait for the supervisor's end otherwise).
            if libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, 0u32) != 0 {
                for fd in 3..libc::sysconf(libc::_SC_OPEN_MAX).clamp(0, 1 << 16) as i32 {
                    libc::close(fd);
                }
            }
            supervisor_loop(&set, child)
        });
    }
}

/// The supervisor of [`supervise`]: reap children until `child` ends, then end the other
/// descendants and exit as it did; end every descendant and exit 137 when orcl dies or asks
/// (SIGUSR1). Never returns.
///
/// # Safety
/// Only in a forked child, with `set`'s signals blocked.
unsafe fn supervisor_loop(set: &libc::sigset_t, child: libc::pid_t) -> ! {
    loop {
        let sig = libc::sigwaitinfo(set, std::ptr::null_mut());
        if sig == libc::SIGUSR1 {
            if !tree::end_descendants() {
                libc::kill(0, libc::SIGKILL);
            }
            libc::_exit(137);
        }
        loop {
            let mut status = 0;
            let pid = libc::waitpid(-1, &mut status, libc::WNOHANG);
            if pid <= 0 {
                break;
            }
            if pid != child {
                continue;
            }
            // The command is done: whatever it left running goes (orcl's group kill after the
            // supervisor's end remains the fallback without /proc).
            tree::end_descendants();
            if libc::WIFSIGNALED(status) {
                let s = libc::WTERMSIG(status);
                libc::signal(s, libc::SIG_DFL);
                let mut one: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut one);
                libc::sigaddset(&mut one, s);
                libc::sigprocmask(libc::SIG_UNBLOCK, &one, std::ptr::null_mut());
                libc::kill(libc::getpid(), s);
                libc::_exit(128 + s);
            }
            libc::_exit(libc::WEXITSTATUS(status));
        }
    }
}

/// Spawn `cmd` tied to orcl ([`tie_to_parent`]) from one thread that lives as long as orcl.
/// `PR_SET_PDEATHSIG` fires when the *thread* that forked the child exits, not the process: a
/// worker started on a short-lived thread (the `--devices`/`--slurm` batch threads restart a
/// crashed worker on their own thread; `--slurm` workers start side by side) was SIGKILLed as
/// soon as that thread ended.
pub fn spawn_tied(
    mut cmd: std::process::Command,
    own_group: bool,
) -> std::io::Result<std::process::Child> {
    use std::sync::mpsc::{channel, Sender};
    type Job = (
        std::process::Command,
        Sender<std::io::Result<std::process::Child>>,
    );
    static SPAWNER: std::sync::OnceLock<std::sync::Mutex<Sender<Job>>> = std::sync::OnceLock::new();
    tie_to_parent(&mut cmd, own_group);
    let gone = || std::io::Error::other("orcl's process-spawning thread is gone");
    let spawner = SPAWNER.get_or_init(|| {
        let (tx, rx) = channel::<Job>();
        std::thread::Builder::new()
            .name("orcl-spawner".into())
            .spawn(move || {
                for (mut c, back) in rx {
                    let _ = back.send(c.spawn());
                }
            })
            .expect("cannot start a thread");
        std::sync::Mutex::new(tx)
    });
    let (back, answer) = channel();
    spawner
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send((cmd, back))
        .map_err(|_| gone())?;
    answer.recv().map_err(|_| gone())?
}

/// The process groups of running build steps ([`track_group`]): the watchdog kills them before
/// it ends orcl, since the parent-death signal reaches only their leader, not a grandchild.
static GROUPS: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

/// Adds (`running`) or removes the process group `pgid` (a child started with
/// `tie_to_parent(.., true)`) from those the watchdog kills before it ends orcl.
pub fn track_group(pgid: u32, running: bool) {
    let mut g = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    g.retain(|&p| p != pgid);
    if running {
        g.push(pgid);
    }
}

/// End the process group `pgid` (a child started with `tie_to_parent(.., true)`; its pid):
/// SIGUSR1 to the group, which a [`supervise`]d step's supervisor takes as "end every
/// descendant (those outside the group too) and exit 137" and which ends the other members
/// (its default action). Wait for the
/// supervisor's exit after this: the tree is gone when it has exited. Use [`kill_group`] once
/// the supervisor has exited.
pub fn end_group(pgid: u32) {
    // SAFETY: kill(2) with a negative pid signals the group; an exited group gives ESRCH.
    unsafe {
        libc::kill(-(pgid as libc::pid_t), libc::SIGUSR1);
    }
}

/// SIGKILL the process group `pgid` (a child started with `tie_to_parent(.., true)`; its pid).
/// For a [`supervise`]d step, call [`end_group`] first and this only after its supervisor has
/// exited: a SIGKILL would end the supervisor before it ends the descendants outside the group.
pub fn kill_group(pgid: u32) {
    // SAFETY: kill(2) with a negative pid signals the group; an exited group gives ESRCH.
    unsafe {
        libc::kill(-(pgid as libc::pid_t), libc::SIGKILL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;
    use std::time::Duration;

    fn sleeper() -> Command {
        let mut c = Command::new("sleep");
        c.arg("30");
        c
    }

    /// A child started on a thread that then ends: with `tie_to_parent` + `spawn` on that thread
    /// the parent-death signal kills it; with `spawn_tied` it lives until orcl ends.
    #[test]
    fn children_outlive_the_thread_that_asked_for_them() {
        let tied = std::thread::spawn(|| spawn_tied(sleeper(), false).unwrap())
            .join()
            .unwrap();
        let plain = std::thread::spawn(|| {
            let mut c = sleeper();
            tie_to_parent(&mut c, false);
            c.spawn().unwrap()
        })
        .join()
        .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let (mut tied, mut plain) = (tied, plain);
        assert!(
            tied.try_wait().unwrap().is_none(),
            "the child died with the thread that asked for it"
        );
        let _ = tied.kill();
        let _ = tied.wait();
        // The pitfall spawn_tied avoids (Linux PR_SET_PDEATHSIG is per thread).
        assert!(
            plain.try_wait().unwrap().is_some(),
            "PR_SET_PDEATHSIG did not fire at the thread's end"
        );
    }
}
