//! Output files written safely: never onto an input or the tuning database (compared by device and
//! inode, so hard links and symbolic links count), always through a temporary file in the same
//! directory renamed into place, so a failed write leaves the old file whole (issue 15 F3, F4).

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
    /// Creating, writing or renaming the file failed (full disk, permissions, missing directory).
    #[error("cannot write {path}: {error}")]
    Io { path: String, error: std::io::Error },
}

/// (device, inode) of `p`, following symbolic links; `None` when it does not exist.
pub fn file_id(p: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
}

/// Refuse `out` when it is, on disk, one of `protected` (`(what, path)`: e.g. `("input file",
/// f.c)`, `("database", orcl.db)`); paths that do not exist are never equal.
///
/// Errors: [`OutputError::Clobber`] naming which file it is.
pub fn refuse_same(out: &Path, protected: &[(&'static str, &Path)]) -> Result<(), OutputError> {
    let Some(o) = file_id(out) else {
        return Ok(());
    };
    for (what, p) in protected {
        if file_id(p) == Some(o) {
            return Err(OutputError::Clobber {
                out: out.display().to_string(),
                what,
                other: p.display().to_string(),
            });
        }
    }
    Ok(())
}

/// Write `bytes` to `out` through a temporary file in `out`'s directory, flushed to disk and then
/// renamed over `out` (an existing `out` keeps its permission bits; a new one gets 0644). A
/// symbolic link at `out` is replaced, never written through.
///
/// Errors: [`OutputError::Clobber`] when `out` is one of `protected` (see [`refuse_same`]);
/// [`OutputError::Io`] for any failure of the file system (nothing is left behind then).
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
        // A missing directory is an I/O error, not a panic.
        let e = write(&d.path().join("no/such/dir.c"), b"x", &[]).unwrap_err();
        assert!(matches!(e, OutputError::Io { .. }), "{e}");
    }
}
