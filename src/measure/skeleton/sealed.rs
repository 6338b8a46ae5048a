//! A cache file sealed by its digest: `NAME` with `NAME.sha256` beside it, holding the SHA-256
//! (FIPS 180-4) of NAME's bytes as 64 lowercase hexadecimal digits (whitespace around them is
//! ignored when read). The one mechanism for every cache entry orcl must not trust blindly: the
//! compiled skeletons ([`super::cache`]) and the reference outputs ([`super::reference`]).
//!
//! Sealing ([`seal`]): the content is written first (under any name), made writable by its owner
//! only, and its digest is written under a scratch name (`NAME.sum<pid>`) renamed to
//! `NAME.sha256` — rename(2) is atomic, so a reader finds no digest or a whole one. Opening
//! ([`open`]): both files must be regular files of this user that no one else may write to
//! (opened without following a link), and the content — hashed from the very descriptor that is
//! returned — must have the recorded digest. A missing, partial, changed or foreign entry is
//! `None`: the caller rebuilds it, never trusts it.
//!
//! Every access is relative to a directory descriptor (`openat(2)`, `renameat(2)`,
//! `unlinkat(2)`), so the directory is the one the caller opened and checked, whatever its path
//! names later (issue 25 G1).

use sha2::{Digest, Sha256};
use std::io::{Read, Seek, Write};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, Mode, OFlags};

/// The name of the digest of `name`: `name.sha256`.
pub fn digest_name(name: &str) -> String {
    format!("{name}.sha256")
}

/// The path of the digest of the file at `path`: `path.sha256` (for callers that only name an
/// entry by its digest, such as the reference cache keyed by the skeleton's).
pub fn digest_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".sha256");
    PathBuf::from(s)
}

/// The digest recorded for the file at `path` (64 hexadecimal digits), read by path; `None` when
/// there is none or it is not a digest. It says which content was sealed, not that the file
/// still has it: only [`open`] checks that.
pub fn recorded(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(digest_path(path)).ok()?;
    let d = text.trim();
    (d.len() == 64 && d.bytes().all(|b| b.is_ascii_hexdigit())).then(|| d.to_ascii_lowercase())
}

/// The SHA-256 of everything `r` yields, in lowercase hexadecimal (read 1 MiB at a time).
///
/// Errors: reading.
pub fn sha256_hex(mut r: impl Read) -> std::io::Result<String> {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = r.read(&mut buf)?;
        if n == 0 {
            return Ok(hex::encode(h.finalize()));
        }
        h.update(&buf[..n]);
    }
}

/// Open `name` in `dir` for reading without following a link (nor blocking on a FIFO) when it is
/// a regular file of this user's that no one else may write to (checked on the descriptor).
pub fn open_ours(dir: impl AsFd, name: &str) -> Option<std::fs::File> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
    let fd = rustix::fs::openat(dir, name, flags, Mode::empty()).ok()?;
    let st = rustix::fs::fstat(&fd).ok()?;
    // SAFETY: geteuid cannot fail.
    let me = unsafe { libc::geteuid() };
    let regular = st.st_mode & libc::S_IFMT == libc::S_IFREG;
    (regular && st.st_uid == me && st.st_mode & 0o022 == 0).then(|| std::fs::File::from(fd))
}

/// Seal `file` (in `dir`) as the content of `name`: `file` is made writable by its owner only
/// (group and others lose write permission), and its SHA-256 is recorded as `name.sha256`
/// (written as `name.sum<pid>`, mode 0600, then renamed). `file` is `name` for a file sealed in
/// place; the skeleton cache seals its binary under its scratch name before renaming it to
/// `name`, so that the name it looks for never appears without its digest. Returns the digest.
///
/// Errors: `file` cannot be opened (a link is refused) or read; the digest cannot be written.
pub fn seal(dir: impl AsFd, file: &str, name: &str) -> std::io::Result<String> {
    let dir = dir.as_fd();
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
    let fd = rustix::fs::openat(dir, file, flags, Mode::empty())?;
    let mode = rustix::fs::fstat(&fd)?.st_mode & 0o7777;
    if mode & 0o022 != 0 {
        rustix::fs::fchmod(&fd, Mode::from_raw_mode(mode & !0o022))?;
    }
    let digest = sha256_hex(std::fs::File::from(fd))?;
    let scratch = format!("{name}.sum{}", std::process::id());
    let _ = rustix::fs::unlinkat(dir, &scratch, AtFlags::empty());
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = rustix::fs::openat(dir, &scratch, flags, Mode::from_raw_mode(0o600))?;
    let written = std::fs::File::from(fd).write_all(digest.as_bytes());
    let renamed = written.and_then(|()| {
        rustix::fs::renameat(dir, &scratch, dir, digest_name(name)).map_err(Into::into)
    });
    if renamed.is_err() {
        let _ = rustix::fs::unlinkat(dir, &scratch, AtFlags::empty());
    }
    renamed.map(|()| digest)
}

/// `name` in `dir`, opened (see [`open_ours`]) and positioned at its start, when its content has
/// the digest recorded in `name.sha256` (also one of [`open_ours`]' files); `None` otherwise.
pub fn open(dir: impl AsFd, name: &str) -> Option<std::fs::File> {
    let dir = dir.as_fd();
    let mut want = String::new();
    open_ours(dir, &digest_name(name))?
        .read_to_string(&mut want)
        .ok()?;
    let mut file = open_ours(dir, name)?;
    let have = sha256_hex(&mut file).ok()?;
    file.rewind().ok()?;
    (have.eq_ignore_ascii_case(want.trim())).then_some(file)
}

/// Remove `name` and its digest from `dir` (either may be missing).
pub fn remove(dir: impl AsFd, name: &str) {
    let dir = dir.as_fd();
    let _ = rustix::fs::unlinkat(dir, name, AtFlags::empty());
    let _ = rustix::fs::unlinkat(dir, digest_name(name), AtFlags::empty());
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn dir() -> (tempfile::TempDir, std::fs::File) {
        let d = tempfile::tempdir().unwrap();
        let fd = std::fs::File::open(d.path()).unwrap();
        (d, fd)
    }

    /// A sealed file opens while its content is the one sealed; a changed byte, a missing or
    /// garbled digest, a digest another user may write, or a link in the file's place does not.
    #[test]
    fn a_sealed_file_opens_only_with_its_digest() {
        let (d, fd) = dir();
        let p = d.path().join("r");
        std::fs::write(&p, b"outputs").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o666)).unwrap();
        let digest = seal(&fd, "r", "r").unwrap();
        assert_eq!(digest, hex::encode(Sha256::digest(b"outputs")));
        assert_eq!(recorded(&p).as_deref(), Some(digest.as_str()));
        // Sealing took group and others' write permission away.
        let mode = std::fs::metadata(&p).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644);
        let mut b = String::new();
        open(&fd, "r").unwrap().read_to_string(&mut b).unwrap();
        assert_eq!(b, "outputs", "not positioned at the start");

        std::fs::write(&p, b"Outputs").unwrap();
        assert!(open(&fd, "r").is_none(), "a changed file opened");
        seal(&fd, "r", "r").unwrap();
        assert!(open(&fd, "r").is_some());
        std::fs::write(digest_path(&p), "not a digest").unwrap();
        assert!(open(&fd, "r").is_none() && recorded(&p).is_none());
        seal(&fd, "r", "r").unwrap();
        std::fs::set_permissions(digest_path(&p), std::fs::Permissions::from_mode(0o622)).unwrap();
        assert!(
            open(&fd, "r").is_none(),
            "a digest others may write was trusted"
        );
        remove(&fd, "r");
        assert!(!p.exists() && !digest_path(&p).exists());
        assert!(open(&fd, "r").is_none());

        // A link in the entry's place is not followed, even to a file with the right content.
        std::fs::write(d.path().join("real"), b"x").unwrap();
        seal(&fd, "real", "l").unwrap();
        std::os::unix::fs::symlink(d.path().join("real"), d.path().join("l")).unwrap();
        assert!(open(&fd, "l").is_none(), "a link was followed");
    }

    /// Sealed under a scratch name: the digest is that of the scratch file, recorded for the
    /// final name, and no scratch digest is left behind.
    #[test]
    fn a_file_sealed_under_its_scratch_name_opens_under_its_own() {
        let (d, fd) = dir();
        std::fs::write(d.path().join("x.tmp1"), b"binary").unwrap();
        seal(&fd, "x.tmp1", "x").unwrap();
        assert!(open(&fd, "x").is_none(), "no file `x` yet");
        std::fs::rename(d.path().join("x.tmp1"), d.path().join("x")).unwrap();
        assert!(open(&fd, "x").is_some());
        let names: Vec<String> = std::fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.contains(".sum")), "{names:?}");
    }
}
