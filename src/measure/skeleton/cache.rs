//! The skeleton cache directory, reached through one descriptor (issue 25 G1).
//!
//! [`CacheDir::open`] checks the path (no symbolic link owned by another user on the way),
//! creates the directory (mode 0700) if missing, opens it once with
//! `O_DIRECTORY|O_NOFOLLOW` and checks the *descriptor* with fstat(2): a directory, owned by
//! this user, writable by no one else. Every later access is relative to that descriptor —
//! `openat` (always `O_NOFOLLOW`), `renameat`, `unlinkat` — and the compiler is given paths
//! through it (`/proc/<orcl's pid>/fd/<dir>/<name>`, which resolve to the directory opened, not
//! to whatever the cache path names now). A cached skeleton is run by descriptor: its file is
//! opened, checked (a regular file of this user's, writable by no one else, whose SHA-256 is the
//! recorded digest — a [`super::sealed`] file —, beside the source it would be built from) and kept open for orcl's life, and
//! the path handed to the worker is `/proc/<orcl's pid>/fd/<file>` — exec(2) of that path runs
//! the very file whose content was hashed, whatever is renamed or linked in the directory
//! afterwards (it is fexecve(3) by name, and works for a script too, whose interpreter opens
//! the same path). So swapping the cache path, or a link on it, after orcl opened it changes
//! nothing orcl reads, writes or runs. Linux only (`/proc`), as orcl is.

use std::io::{Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, Mode, OFlags};

use super::{sealed, BuildError};

/// The cache directory opened once; see the module.
pub struct CacheDir {
    /// The path as given (for messages and `--slurm`, whose nodes run skeletons by path).
    path: PathBuf,
    fd: OwnedFd,
}

impl CacheDir {
    /// Open `path` (creating it, mode 0700): refuses a path through another user's symbolic
    /// link, a final symbolic link (`O_NOFOLLOW`), and — checked on the descriptor — anything
    /// but a directory owned by this user and writable by no one else.
    ///
    /// Errors: [`BuildError::UnsafeCache`] naming the problem; [`BuildError::Io`].
    pub fn open(path: &Path) -> Result<CacheDir, BuildError> {
        use std::os::unix::fs::DirBuilderExt;
        let io = |error: std::io::Error| BuildError::Io {
            path: path.display().to_string(),
            error,
        };
        let unsafe_cache = |reason: String| BuildError::UnsafeCache {
            path: path.display().to_string(),
            reason,
        };
        let me = unsafe { libc::geteuid() };
        if let Some((link, owner)) = super::foreign_link(path, me) {
            return Err(unsafe_cache(format!(
                "its path passes through {}, a symbolic link owned by user id {owner}; set ORCL_CACHE_DIR to a directory of yours",
                link.display()
            )));
        }
        if std::fs::symlink_metadata(path).is_err() {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(path)
                .map_err(io)?;
        }
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = match rustix::fs::open(path, flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(e) if e == rustix::io::Errno::LOOP || e == rustix::io::Errno::NOTDIR => {
                let what = if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink()) {
                    "it is a symbolic link (the cache directory itself must not be one)"
                } else {
                    "it is not a directory"
                };
                return Err(unsafe_cache(what.into()));
            }
            Err(e) => return Err(io(e.into())),
        };
        let st = rustix::fs::fstat(&fd).map_err(|e| io(e.into()))?;
        if st.st_uid != me {
            return Err(unsafe_cache(format!(
                "it belongs to user id {}, not to you ({me})",
                st.st_uid
            )));
        }
        if st.st_mode & 0o022 != 0 {
            return Err(unsafe_cache(format!(
                "others may write to it (mode {:o}); `chmod go-w` it",
                st.st_mode & 0o7777
            )));
        }
        let dir = CacheDir {
            path: path.to_path_buf(),
            fd,
        };
        dir.remove_stale_scratch();
        Ok(dir)
    }

    /// The path given to [`CacheDir::open`].
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A path to `name` in the directory opened, valid in any process of this user while orcl
    /// runs (for the compiler, which is given paths): `/proc/<pid>/fd/<dir>/<name>`.
    pub fn through_fd(&self, name: &str) -> PathBuf {
        PathBuf::from(format!(
            "/proc/{}/fd/{}/{name}",
            std::process::id(),
            self.fd.as_raw_fd()
        ))
    }

    /// Remove the scratch files of build processes that no longer run (killed builds; issue 15
    /// F5, F14).
    fn remove_stale_scratch(&self) {
        let Ok(dir) = rustix::fs::Dir::read_from(&self.fd) else {
            return;
        };
        for e in dir.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(pid) = super::scratch_pid(&name) {
                // kill(pid, 0) fails with ESRCH when no such process exists.
                let gone = unsafe { libc::kill(pid as libc::pid_t, 0) } != 0
                    && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
                if gone {
                    self.remove(&name);
                }
            }
        }
    }

    /// Whether `name` exists in the directory (as anything).
    pub fn exists(&self, name: &str) -> bool {
        rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW).is_ok()
    }

    /// Write `bytes` to a new file `name` (mode 0600; an existing name is replaced first).
    pub fn write_new(&self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        self.remove(name);
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&self.fd, name, flags, Mode::from_raw_mode(0o600))?;
        std::fs::File::from(fd).write_all(bytes)
    }

    /// Make `name` (a file the compiler wrote) readable, writable and runnable by its owner only,
    /// so that a umask of 0 does not leave a skeleton that others may change.
    pub fn restrict(&self, name: &str) -> std::io::Result<()> {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
        let fd = rustix::fs::openat(&self.fd, name, flags, Mode::empty())?;
        Ok(rustix::fs::fchmod(&fd, Mode::from_raw_mode(0o700))?)
    }

    /// Rename `from` to `to`, both in the directory.
    pub fn rename(&self, from: &str, to: &str) -> std::io::Result<()> {
        Ok(rustix::fs::renameat(&self.fd, from, &self.fd, to)?)
    }

    /// Remove `name` (ignoring a missing one).
    pub fn remove(&self, name: &str) {
        let _ = rustix::fs::unlinkat(&self.fd, name, AtFlags::empty());
    }

    /// The contents of `name` if it is one of this user's files ([`sealed::open_ours`]).
    fn read_ours(&self, name: &str) -> Option<Vec<u8>> {
        let mut b = Vec::new();
        sealed::open_ours(self, name)?.read_to_end(&mut b).ok()?;
        Some(b)
    }

    /// The cached entry `exe` (with `exe.c` and `exe.sha256`) opened for running when it may be
    /// run for `source`: the binary is [`sealed`] (its SHA-256 — computed from the descriptor
    /// that is returned — is the recorded digest; it and its digest are this user's regular
    /// files that no one else may write to) and the source copy `exe.c`, such a file too, is
    /// `source` (issue 15 F5, issue 25 G1). `None` otherwise.
    pub fn open_verified(&self, exe: &str, source: &str) -> Option<Verified> {
        let bin = sealed::open(self, exe)?;
        (self.read_ours(&format!("{exe}.c"))? == source.as_bytes()).then(|| Verified {
            fd: OwnedFd::from(bin),
            on_disk: self.path.join(exe),
        })
    }
}

impl AsFd for CacheDir {
    /// The directory's descriptor (every access to the cache is relative to it).
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

/// A verified skeleton, open: run it through [`Verified::keep`]'s path.
pub struct Verified {
    fd: OwnedFd,
    on_disk: PathBuf,
}

/// The descriptors of the verified skeletons, open for orcl's life, by the path that runs them.
static KEPT: std::sync::Mutex<Vec<(PathBuf, PathBuf, OwnedFd)>> = std::sync::Mutex::new(Vec::new());

impl Verified {
    /// Keep the descriptor open for orcl's life and return the path that runs it:
    /// `/proc/<orcl's pid>/fd/<fd>` (the same path for the same file on disk: the first one
    /// kept).
    pub fn keep(self) -> PathBuf {
        let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
        let same = |st: &rustix::fs::Stat, fd: &OwnedFd| {
            rustix::fs::fstat(fd).is_ok_and(|o| o.st_dev == st.st_dev && o.st_ino == st.st_ino)
        };
        if let Ok(st) = rustix::fs::fstat(&self.fd) {
            if let Some((run, _, _)) = kept
                .iter()
                .find(|(_, p, fd)| *p == self.on_disk && same(&st, fd))
            {
                return run.clone();
            }
        }
        let run = PathBuf::from(format!(
            "/proc/{}/fd/{}",
            std::process::id(),
            self.fd.as_fd().as_raw_fd()
        ));
        kept.push((run.clone(), self.on_disk, self.fd));
        run
    }
}

/// The cache path of the skeleton that `run` (a path from [`Verified::keep`]) runs, for
/// `--slurm`, whose nodes run it by path from a shared file system; any other path unchanged.
pub fn on_disk(run: &Path) -> PathBuf {
    let kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    kept.iter()
        .find(|(r, _, _)| r == run)
        .map(|(_, p, _)| p.clone())
        .unwrap_or_else(|| run.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    /// Put an entry (a shell script printing `word`) in `dir` by path, with its source copy and
    /// digest.
    fn plant(dir: &Path, name: &str, source: &str, word: &str) {
        use std::os::unix::fs::PermissionsExt;
        let body = format!("#!/bin/sh\necho {word}\n");
        let tmp = dir.join(format!("{name}.new"));
        std::fs::write(&tmp, &body).unwrap();
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::write(dir.join(format!("{name}.c")), source).unwrap();
        std::fs::write(
            dir.join(format!("{name}.sha256")),
            hex::encode(Sha256::digest(body.as_bytes())),
        )
        .unwrap();
        std::fs::rename(&tmp, dir.join(name)).unwrap();
    }

    fn run(path: &Path) -> String {
        let out = std::process::Command::new(path).output().unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Issue 25 G1: once opened, the cache is the directory opened: after its path is moved
    /// away and replaced (by a directory or a link to one holding another entry of the same
    /// name), writes, renames, reads and runs still reach the directory opened; and a verified
    /// entry runs the file that was hashed even after another is renamed over its name.
    #[test]
    fn the_cache_is_the_directory_opened() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("cache");
        let cache = CacheDir::open(&path).unwrap();
        plant(&path, "skeleton-x", "src", "opened");
        // The path is swapped: moved away, and a link to a directory of planted entries put
        // in its place.
        let moved = d.path().join("moved");
        std::fs::rename(&path, &moved).unwrap();
        let evil = d.path().join("evil");
        std::fs::create_dir(&evil).unwrap();
        plant(&evil, "skeleton-x", "src", "planted");
        std::os::unix::fs::symlink(&evil, &path).unwrap();

        let verified = cache.open_verified("skeleton-x", "src").expect("verifies");
        let run_path = verified.keep();
        assert_eq!(run(&run_path), "opened");
        cache.write_new("new.c", b"x").unwrap();
        cache.rename("new.c", "renamed.c").unwrap();
        assert!(moved.join("renamed.c").exists() && !evil.join("renamed.c").exists());
        assert_eq!(std::fs::read(cache.through_fd("renamed.c")).unwrap(), b"x");
        cache.remove("renamed.c");
        assert!(!moved.join("renamed.c").exists());

        // Another file renamed over the verified one: the kept descriptor still runs what was
        // hashed; a fresh verification sees the new file (and refuses it: wrong digest).
        plant(&moved, "skeleton-y", "src", "first");
        let first = cache.open_verified("skeleton-y", "src").unwrap().keep();
        std::fs::write(moved.join("other"), "#!/bin/sh\necho second\n").unwrap();
        std::fs::rename(moved.join("other"), moved.join("skeleton-y")).unwrap();
        assert_eq!(run(&first), "first");
        assert!(cache.open_verified("skeleton-y", "src").is_none());
        // `--slurm` runs it by its cache path.
        assert_eq!(on_disk(&first), path.join("skeleton-y"));

        // Opening the path now refuses it: the cache directory itself is a link.
        let e = CacheDir::open(&path)
            .err()
            .expect("a link is refused")
            .to_string();
        assert!(e.contains("is a symbolic link"), "{e}");
    }
}
