//! SIGINT/SIGTERM during a tune: the first signal is recorded (the tune stops at the next safe
//! point, marks its experiment `interrupted` and exits 128 + signal), a second one exits at once.
//! Child processes (timing workers, build shells) are started with a parent-death signal so that
//! they never outlive orcl, even after `kill -9` (issue 15 F6, F7, F18).

use std::sync::atomic::{AtomicI32, Ordering};

static SIGNAL: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    if SIGNAL.swap(sig, Ordering::SeqCst) != 0 {
        // Second signal: the user insists; only async-signal-safe calls here.
        unsafe { libc::_exit(128 + sig) };
    }
}

/// Install the SIGINT and SIGTERM handlers (idempotent), and ignore SIGXFSZ. Called by
/// `orcl tune` and `orcl compare`.
///
/// SIGXFSZ is what the kernel sends a process that writes past its file-size limit
/// (`ulimit -f`); its default action kills orcl mid-write, with no message. Ignored, the write
/// fails with `EFBIG` instead, which SQLite reports as a full disk, so the tune stops with
/// exit 3 naming the database, as on a full file system (`ENOSPC`); `tests/faults.sh` checks it.
pub fn install() {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only touches an atomic and calls `_exit`, both async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// The signal number (2 = SIGINT, 15 = SIGTERM) received since [`install`], if any.
pub fn requested() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
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

/// SIGKILL the process group `pgid` (a child started with `tie_to_parent(.., true)`; its pid).
pub fn kill_group(pgid: u32) {
    // SAFETY: kill(2) with a negative pid signals the group; an exited group gives ESRCH.
    unsafe {
        libc::kill(-(pgid as libc::pid_t), libc::SIGKILL);
    }
}
