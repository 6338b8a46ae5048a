//! Output files written safely: never onto an input or the tuning database (compared by device and
//! inode, so hard links and symbolic links count) or the database's SQLite journal, WAL or
//! shared-memory file; a regular file (or a new path) through a temporary file in the same
//! directory renamed into place, so a failed write leaves the old file whole (issue 15 F3, F4); a
//! character device or FIFO (`-o /dev/null`, `-o >(cat)`) written through, never replaced; any
//! other kind of file (symbolic link, directory, socket, block device) refused (issue 25 G2, G3).

use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

/// Why an output file was not written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// `out` is the same file (device, inode) as a file that must not be overwritten.
    #[error("the output file {out} is the {what} {other} (the same file on disk); choose another output file")]
    Clobber {
        out: String,
        /// `input file`, `database`, ...
        what: &'static str,
        other: String,
    },
    /// `out` is a kind of file orcl neither replaces nor writes through.
    #[error("the output file {out} is {kind}; orcl writes only regular files (replaced through a temporary file), character devices and FIFOs (written through)")]
    NotRegular { out: String, kind: &'static str },
    /// Creating, writing or renaming the file failed (full disk, permissions, missing directory).
    #[error("cannot write {path}: {error}")]
    Io { path: String, error: std::io::Error },
}

/// (device, inode) of `p`, following symbolic links; `None` when it does not exist.
pub fn file_id(p: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
}

/// Refuse `out` when it is, on disk, one of `protected` (`(what, path)`: e.g. `("input file",
/// f.c)`, `("database", orcl.db)`), or, for a database, its SQLite `-journal`, `-wal` or `-shm`
/// file (compared by name in the same directory: they need not exist yet; writing one would make
/// SQLite read the database as corrupt). Paths that do not exist are otherwise never equal.
///
/// Errors: [`OutputError::Clobber`] naming which file it is.
pub fn refuse_same(out: &Path, protected: &[(&'static str, &Path)]) -> Result<(), OutputError> {
    let clobber = |what: &'static str, other: String| OutputError::Clobber {
        out: out.display().to_string(),
        what,
        other,
    };
    for (what, p) in protected {
        if *what == "database" {
            if let Some(side) = sqlite_sidecar(out, p) {
                return Err(clobber("SQLite file", format!("{}{side}", p.display())));
            }
        }
    }
    let Some(o) = file_id(out) else {
        return Ok(());
    };
    for (what, p) in protected {
        if file_id(p) == Some(o) {
            return Err(clobber(what, p.display().to_string()));
        }
    }
    Ok(())
}

/// The suffix (`-journal`, `-wal`, `-shm`) when `out` names one of SQLite's files beside `db`.
fn sqlite_sidecar(out: &Path, db: &Path) -> Option<&'static str> {
    let dir_of = |p: &Path| {
        let d = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        std::fs::canonicalize(d).ok()
    };
    let (out_name, db_name) = (out.file_name()?.to_str()?, db.file_name()?.to_str()?);
    let side = ["-journal", "-wal", "-shm"]
        .into_iter()
        .find(|s| out_name.strip_suffix(s) == Some(db_name))?;
    (dir_of(out)? == dir_of(db)?).then_some(side)
}

/// How `out` is to be written: `Ok(true)` through a temporary file (a regular file or a new
/// path), `Ok(false)` directly (a character device or FIFO).
///
/// Errors: [`OutputError::NotRegular`] for any other kind of file.
fn replaced(out: &Path) -> Result<bool, OutputError> {
    use std::os::unix::fs::FileTypeExt;
    let Ok(m) = std::fs::symlink_metadata(out) else {
        return Ok(true);
    };
    let t = m.file_type();
    let kind = if t.is_file() {
        return Ok(true);
    } else if t.is_char_device() || t.is_fifo() {
        return Ok(false);
    } else if t.is_symlink() {
        "a symbolic link (remove it, or give the path of the file it points to)"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_block_device() {
        "a block device"
    } else {
        "a socket"
    };
    Err(OutputError::NotRegular {
        out: out.display().to_string(),
        kind,
    })
}

/// Whether `out` can be written, checked before the work that produces it (a tune): not one of
/// `protected` ([`refuse_same`]), not a kind of file [`write`] refuses, and in a directory that
/// exists (issue 25 G16: `-o nodir/x.c` was refused only after the whole tune).
///
/// Errors: as [`write`]'s, without writing anything.
pub fn check(out: &Path, protected: &[(&'static str, &Path)]) -> Result<(), OutputError> {
    refuse_same(out, protected)?;
    replaced(out)?;
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if dir.is_dir() {
        return Ok(());
    }
    Err(OutputError::Io {
        path: out.display().to_string(),
        error: std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("the directory {} does not exist", dir.display()),
        ),
    })
}

/// Write `bytes` to `out` through a temporary file in `out`'s directory, flushed to disk and then
/// renamed over `out` (an existing `out` keeps its permission bits; a new one gets 0644); to a
/// character device or FIFO directly (`-o /dev/null`).
///
/// Errors: [`OutputError::Clobber`] when `out` is one of `protected` (see [`refuse_same`]);
/// [`OutputError::NotRegular`] for a symbolic link, directory, socket or block device (left as
/// it is); [`OutputError::Io`] for any failure of the file system (nothing is left behind then).
pub fn write(
    out: &Path,
    bytes: &[u8],
    protected: &[(&'static str, &Path)],
) -> Result<(), OutputError> {
    refuse_same(out, protected)?;
    let io = |error| OutputError::Io {
        path: out.display().to_string(),
        error,
    };
    if !replaced(out)? {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(out)
            .map_err(io)?;
        return f.write_all(bytes).and_then(|()| f.flush()).map_err(io);
    }
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mode = std::fs::symlink_metadata(out)
        .ok()
        .filter(|m| m.file_type().is_file())
        .map(|m| m.permissions().mode() & 0o7777)
        .unwrap_or(0o644);
    let mut tmp = tempfile::Builder::new()
        .prefix(".orcl-out-")
        .tempfile_in(dir)
        .map_err(io)?;
    tmp.write_all(bytes).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    tmp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(mode))
        .map_err(io)?;
    tmp.persist(out).map_err(|e| io(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hard_link_of_a_protected_file_is_refused_and_left_intact() {
        let d = tempfile::tempdir().unwrap();
        let input = d.path().join("f.c");
        std::fs::write(&input, "int x;\n").unwrap();
        let link = d.path().join("link.c");
        std::fs::hard_link(&input, &link).unwrap();
        let e = write(&link, b"tuned", &[("input file", &input)]).unwrap_err();
        assert!(
            matches!(
                e,
                OutputError::Clobber {
                    what: "input file",
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "int x;\n");
        let sym = d.path().join("sym.c");
        std::os::unix::fs::symlink(&input, &sym).unwrap();
        assert!(write(&sym, b"tuned", &[("input file", &input)]).is_err());
    }

    /// Issue 25 G2: `-o /dev/null` writes through and leaves the device a device; a FIFO is
    /// written through; a symbolic link (to anything) and a directory are refused and left as they
    /// are; `/dev/full` is an I/O error, not a replaced device.
    #[test]
    fn devices_and_fifos_are_written_through_other_kinds_refused() {
        use std::os::unix::fs::FileTypeExt;
        write(Path::new("/dev/null"), b"tuned", &[]).unwrap();
        assert!(std::fs::symlink_metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
        if Path::new("/dev/full").exists() {
            let e = write(Path::new("/dev/full"), b"tuned", &[]).unwrap_err();
            assert!(matches!(e, OutputError::Io { .. }), "{e}");
            assert!(std::fs::symlink_metadata("/dev/full")
                .unwrap()
                .file_type()
                .is_char_device());
        }
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        write(&fifo, b"through the pipe", &[]).unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo());
        let target = d.path().join("t.c");
        std::fs::write(&target, "kept").unwrap();
        let link = d.path().join("link.c");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = write(&link, b"tuned", &[]).unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept");
        let e = write(d.path(), b"tuned", &[]).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
    }

    /// Issue 25 G3: the database's `-journal`, `-wal` and `-shm` files are refused as outputs,
    /// existing or not, also through another spelling of the directory.
    #[test]
    fn sqlite_files_beside_the_database_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let db = d.path().join("t.db");
        std::fs::write(&db, "").unwrap();
        for side in ["-journal", "-wal", "-shm"] {
            let out = d.path().join("sub/../").join(format!("t.db{side}"));
            std::fs::create_dir_all(d.path().join("sub")).unwrap();
            let e = write(&out, b"x", &[("database", &db)]).unwrap_err();
            assert!(matches!(e, OutputError::Clobber { .. }), "{e}");
            assert!(!d.path().join(format!("t.db{side}")).exists());
        }
        write(&d.path().join("t.db-other"), b"x", &[("database", &db)]).unwrap();
    }

    #[test]
    fn writes_through_a_temporary_file_and_keeps_the_mode() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out.c");
        write(&out, b"one", &[]).unwrap();
        assert_eq!(
            std::fs::metadata(&out).unwrap().permissions().mode() & 0o777,
            0o644
        );
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o600)).unwrap();
        write(&out, b"two", &[]).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "two");
        assert_eq!(
            std::fs::metadata(&out).unwrap().permissions().mode() & 0o777,
            0o600
        );
        assert_eq!(
            std::fs::read_dir(d.path()).unwrap().count(),
            1,
            "no temp file left"
        );
        // A missing directory is an I/O error, not a panic, and `check` finds it first.
        let e = write(&d.path().join("no/such/dir.c"), b"x", &[]).unwrap_err();
        assert!(matches!(e, OutputError::Io { .. }), "{e}");
        let e = check(&d.path().join("no/such/dir.c"), &[]).unwrap_err();
        assert!(e.to_string().contains("does not exist"), "{e}");
        check(&d.path().join("new.c"), &[]).unwrap();
    }
}
