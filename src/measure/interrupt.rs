//! SIGINT/SIGTERM during a tune: the first signal is recorded (the tune stops at the next safe
//! point, marks its experiment `interrupted` and exits 128 + signal), a second one exits at once.
//! Child processes (timing workers, build shells) are started with a parent-death signal so that
//! they never outlive orcl, even after `kill -9` (issue 15 F6, F7, F18).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The signal received (0: none), and whether one was: set by the handlers [`install`] registers.
struct Flags {
    signal: Arc<AtomicUsize>,
    any: Arc<AtomicBool>,
}

static FLAGS: OnceLock<Flags> = OnceLock::new();

/// Install the SIGINT and SIGTERM handlers (idempotent), and ignore SIGXFSZ. Called by
/// `orcl tune` and `orcl compare`. The handlers are signal-hook's: the first signal is recorded
/// ([`requested`]); a second one exits at once with 128 + signal
/// (`signal_hook::flag::register_conditional_shutdown`, registered before the flag so that it
/// sees the first signal's flag only from the second signal on).
///
/// SIGXFSZ is what the kernel sends a process that writes past its file-size limit
/// (`ulimit -f`); its default action kills orcl mid-write, with no message. Caught by a handler
/// that does nothing, the write fails with `EFBIG` instead, which SQLite reports as a full disk,
/// so the tune stops with exit 3 naming the database, as on a full file system (`ENOSPC`);
/// `tests/faults.sh` checks it.
pub fn install() {
    FLAGS.get_or_init(|| {
        let flags = Flags {
            signal: Arc::new(AtomicUsize::new(0)),
            any: Arc::new(AtomicBool::new(false)),
        };
        for sig in [libc::SIGINT, libc::SIGTERM] {
            let code = 128 + sig;
            let registered =
                signal_hook::flag::register_conditional_shutdown(sig, code, Arc::clone(&flags.any))
                    .and_then(|_| signal_hook::flag::register(sig, Arc::clone(&flags.any)))
                    .and_then(|_| {
                        signal_hook::flag::register_usize(
                            sig,
                            Arc::clone(&flags.signal),
                            sig as usize,
                        )
                    });
            if let Err(e) = registered {
                orcl_frontend::errln!("warning: cannot handle signal {sig}: {e}");
            }
        }
        let ignored = Arc::new(AtomicBool::new(false));
        if let Err(e) = signal_hook::flag::register(libc::SIGXFSZ, ignored) {
            orcl_frontend::errln!("warning: cannot catch SIGXFSZ: {e}");
        }
        start_watchdog();
        flags
    });
}

/// How long after the first SIGINT/SIGTERM the watchdog waits for the run to stop at a safe
/// point before it ends the process itself (issue 24: within 2 s at every stage).
pub const GRACE: std::time::Duration = std::time::Duration::from_millis(1200);

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
            let signal = loop {
                if let Some(s) = requested() {
                    break s;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            };
            std::thread::sleep(GRACE);
            if let Ok(groups) = GROUPS.lock() {
                groups.iter().for_each(|&g| kill_group(g));
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

/// SIGKILL the process group `pgid` (a child started with `tie_to_parent(.., true)`; its pid).
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
