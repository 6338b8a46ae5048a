//! Finding the tuning database a reading command meant: `orcl tune` writes its database beside
//! the tuned file (`examples/orcl.db`), while `db`, `plot` and `replay` read `--db`, by default
//! `orcl.db` in the current directory. When that file is missing, [`nearest`] names the closest
//! file of the same name, for the error's hint.

use std::path::{Path, PathBuf};

use super::{Db, DbError};

/// [`Db::open_existing`] for a reading command: a missing file or a directory is its own error
/// (with the hint), any other error names the database (`cannot open the tuning database P`).
pub fn open_for_reading(path: &Path) -> anyhow::Result<Db> {
    use anyhow::Context;
    match Db::open_existing(path) {
        Err(e @ (DbError::Missing { .. } | DbError::NotAFile(_))) => Err(e.into()),
        r => r.with_context(|| format!("cannot open the tuning database {}", path.display())),
    }
}

/// How deep below the current directory [`nearest`] looks (`examples/orcl.db` is depth 1).
const DEPTH: usize = 2;

/// The nearest existing file named like `missing` (its file name, e.g. `orcl.db`): in the
/// directories below `missing`'s own directory (up to [`DEPTH`] levels, hidden directories and
/// `target` skipped), then in its parent directories; the most recently modified when several
/// are as near. `None` when there is none.
pub fn nearest(missing: &Path) -> Option<PathBuf> {
    let name = missing.file_name()?;
    let dir = match missing.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut level = vec![dir.clone()];
    for _ in 0..DEPTH {
        level = level.iter().flat_map(|d| subdirectories(d)).collect();
        if let Some(found) = newest(level.iter().map(|d| d.join(name))) {
            // `./examples/orcl.db` as the user would type it: `examples/orcl.db`.
            return Some(
                found
                    .strip_prefix(".")
                    .map_or(found.clone(), Path::to_path_buf),
            );
        }
    }
    let absolute = std::fs::canonicalize(&dir).ok()?;
    absolute
        .ancestors()
        .skip(1)
        .map(|a| a.join(name))
        .find(|p| p.is_file())
}

/// The visible subdirectories of `dir` (not `target`), sorted by name.
fn subdirectories(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| {
            let n = e.file_name();
            let n = n.to_string_lossy();
            !n.starts_with('.') && n != "target"
        })
        .map(|e| e.path())
        .collect();
    dirs.sort();
    dirs
}

/// Of the candidate paths, the existing regular file modified last.
fn newest(candidates: impl Iterator<Item = PathBuf>) -> Option<PathBuf> {
    candidates
        .filter_map(|p| {
            let m = std::fs::metadata(&p).ok().filter(|m| m.is_file())?;
            Some((m.modified().ok(), p))
        })
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn finds_the_database_below_then_above() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        std::fs::create_dir_all(r.join("work/examples")).unwrap();
        std::fs::create_dir_all(r.join("work/target/x")).unwrap();
        std::fs::write(r.join("work/target/x/orcl.db"), b"").unwrap();
        assert_eq!(nearest(&r.join("work/orcl.db")), None, "target/ is skipped");
        std::fs::write(r.join("work/examples/orcl.db"), b"").unwrap();
        assert_eq!(
            nearest(&r.join("work/orcl.db")),
            Some(r.join("work/examples/orcl.db"))
        );
        std::fs::write(r.join("orcl.db"), b"").unwrap();
        std::fs::create_dir_all(r.join("work/examples/sub")).unwrap();
        let above = nearest(&r.join("work/examples/sub/orcl.db"));
        assert_eq!(
            above,
            Some(r.join("work/examples/orcl.db").canonicalize().unwrap())
        );
    }
}
