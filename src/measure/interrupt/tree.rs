//! Ending a supervisor's whole descendant tree, from the forked supervisor of
//! [`super::supervise`] (issue 25 G4: a hook's descendant that calls `setsid` leaves the process
//! group, so a group kill misses it).
//!
//! The supervisor is a subreaper (`PR_SET_CHILD_SUBREAPER`, prctl(2)): every descendant whose
//! parent dies is reparented to it, whatever its process group or session. So killing its
//! children, reaping them, and killing the children that this reparents to it, until it has
//! none, ends every descendant: each round ends one generation, a process killed by SIGKILL
//! forks no more, and a fork racing the kill either completes (the new process is reparented
//! and found in the next round) or fails. Children are found by scanning `/proc/*/stat` for a
//! parent pid equal to the supervisor's.
//!
//! Everything here runs in a child forked from a multi-threaded process, so it only uses
//! async-signal-safe system calls (open, getdents64, read, close, kill, waitpid, sigtimedwait)
//! on stack buffers: no allocation, no lock, no standard-library I/O.

/// SIGKILL every descendant of the calling process (which must be a subreaper with SIGCHLD
/// blocked) and reap them all; returns `true` once it has no child left, `false` at once when
/// `/proc` cannot be read (the caller then falls back to its process group, which misses the
/// descendants that left it).
///
/// # Safety
/// Only in the forked supervisor, single-threaded, with SIGCHLD blocked.
pub(super) unsafe fn end_descendants() -> bool {
    let me = libc::getpid();
    let mut chld: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut chld);
    libc::sigaddset(&mut chld, libc::SIGCHLD);
    loop {
        // Reap what has ended; no child at all (ECHILD) means the tree is gone.
        loop {
            let mut status = 0;
            let r = libc::waitpid(-1, &mut status, libc::WNOHANG);
            if r < 0 {
                return true;
            }
            if r == 0 {
                break;
            }
        }
        if !kill_children(me) {
            return false;
        }
        // Wait for a child to change state (SIGCHLD, blocked, is taken here); the timeout only
        // bounds the wait for one that the scan missed because it was being reparented.
        let ten_ms = libc::timespec {
            tv_sec: 0,
            tv_nsec: 10_000_000,
        };
        libc::sigtimedwait(&chld, std::ptr::null_mut(), &ten_ms);
    }
}

/// SIGKILL every process whose parent is `me`; `false` when `/proc` cannot be read.
///
/// # Safety
/// Async-signal-safe; see the module.
unsafe fn kill_children(me: libc::pid_t) -> bool {
    let dir = libc::open(
        c"/proc".as_ptr(),
        libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
    );
    if dir < 0 {
        return false;
    }
    // linux_dirent64: d_ino u64, d_off i64, d_reclen u16 at 16, d_type u8 at 18, d_name at 19.
    let mut buf = [0u64; 1024];
    loop {
        let n = libc::syscall(
            libc::SYS_getdents64,
            dir,
            buf.as_mut_ptr(),
            std::mem::size_of_val(&buf),
        );
        if n <= 0 {
            break;
        }
        let bytes = buf.as_ptr().cast::<u8>();
        let mut off = 0usize;
        while off < n as usize {
            let rec = bytes.add(off);
            let reclen = std::ptr::read_unaligned(rec.add(16).cast::<u16>()) as usize;
            if let Some(pid) = parse_pid(rec.add(19), reclen.saturating_sub(19)) {
                if parent_of(pid) == Some(me) {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
            off += reclen.max(1);
        }
    }
    libc::close(dir);
    true
}

/// The decimal pid in the NUL-terminated name at `name` (at most `max` bytes), if it is one.
unsafe fn parse_pid(name: *const u8, max: usize) -> Option<libc::pid_t> {
    let mut pid: libc::pid_t = 0;
    for k in 0..max.min(11) {
        match *name.add(k) {
            0 if k > 0 => return Some(pid),
            c @ b'0'..=b'9' => {
                pid = pid
                    .checked_mul(10)?
                    .checked_add((c - b'0') as libc::pid_t)?
            }
            _ => return None,
        }
    }
    None
}

/// The parent pid of `pid`, from `/proc/PID/stat` (`pid (comm) state ppid ...`; the command
/// name may hold spaces and parentheses, so the field after the last `)` is read).
unsafe fn parent_of(pid: libc::pid_t) -> Option<libc::pid_t> {
    // "/proc/" + up to 10 digits + "/stat" + NUL.
    let mut path = [0u8; 32];
    path[..6].copy_from_slice(b"/proc/");
    let mut digits = [0u8; 10];
    let (mut n, mut v) = (0, pid);
    loop {
        digits[n] = b'0' + (v % 10) as u8;
        n += 1;
        v /= 10;
        if v == 0 || n == digits.len() {
            break;
        }
    }
    for k in 0..n {
        path[6 + k] = digits[n - 1 - k];
    }
    path[6 + n..6 + n + 5].copy_from_slice(b"/stat");
    let fd = libc::open(path.as_ptr().cast(), libc::O_RDONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return None;
    }
    let mut stat = [0u8; 512];
    let len = libc::read(fd, stat.as_mut_ptr().cast(), stat.len());
    libc::close(fd);
    let stat = &stat[..usize::try_from(len).ok()?];
    let close = stat.iter().rposition(|&c| c == b')')?;
    // ") S PPID ": skip the state field.
    let rest = stat.get(close + 2..)?;
    let space = rest.iter().position(|&c| c == b' ')?;
    let mut ppid: libc::pid_t = 0;
    for &c in rest
        .get(space + 1..)?
        .iter()
        .take_while(|c| c.is_ascii_digit())
    {
        ppid = ppid
            .checked_mul(10)?
            .checked_add((c - b'0') as libc::pid_t)?;
    }
    Some(ppid)
}

#[cfg(test)]
mod tests {
    /// The stat parser reads this process's parent as getppid(2) does, and a name is a pid
    /// only when it is all digits.
    #[test]
    fn reads_the_parent_from_proc() {
        unsafe {
            assert_eq!(
                super::parent_of(libc::getpid()),
                Some(libc::getppid()),
                "parent of this process"
            );
            assert_eq!(super::parse_pid(c"1234".as_ptr().cast(), 8), Some(1234));
            assert_eq!(super::parse_pid(c"self".as_ptr().cast(), 8), None);
            assert_eq!(super::parse_pid(c"".as_ptr().cast(), 8), None);
        }
    }
}
