//! Opening the database (read-write with WAL and migrations, read-only with a schema check, in
//! memory), the schema version, write transactions, and the values the schema allows.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, Transaction, TransactionBehavior};

use super::sql::{
    CREATE_META, META_TABLE_EXISTS, MIGRATIONS, PRAGMA_FOREIGN_KEYS, PRAGMA_JOURNAL_WAL,
    SCHEMA_OBJECTS, SELECT_SCHEMA_VERSION, SET_SCHEMA_VERSION,
};
use super::{
    Db, DbError, Result, BUSY_TIMEOUT, HALF_CREATED_WAIT, READ_COMPATIBLE_VERSION, SCHEMA_VERSION,
};

impl Db {
    /// Opens (creating if missing) the database at `path` for reading and writing, migrating an
    /// older schema forward. The parent directory must exist.
    ///
    /// Another program's SQLite database (schema objects but no `meta` table) is refused before
    /// anything is written to it, through a read-only connection (issue 25 G10): orcl used to
    /// add its tables and switch the file to WAL for good.
    ///
    /// Errors: [`DbError::Foreign`], [`DbError::NewerSchema`] for a file written by a newer orcl,
    /// [`DbError::BadSchemaVersion`], or [`DbError::Sqlite`] (not a database, I/O, locked for
    /// longer than [`BUSY_TIMEOUT`]).
    pub fn open(path: &Path) -> Result<Db> {
        if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
            // A probe that cannot read the file leaves the error to the read-write opening.
            if let Ok(probe) = Connection::open_with_flags(path, flags) {
                probe.busy_timeout(BUSY_TIMEOUT)?;
                if is_foreign(&probe).unwrap_or(false) {
                    return Err(DbError::Foreign(path.display().to_string()));
                }
            }
        }
        let conn = Connection::open(path)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        set_wal(&conn)?;
        let mut db = Db::init(conn)?;
        db.file = crate::outfile::file_id(path).map(|id| (path.to_path_buf(), id));
        Ok(db)
    }

    /// Checks that the file at the opened path is still the one this connection writes to (same
    /// device and inode). Errors: [`DbError::FileGone`] when it was deleted, renamed or replaced.
    pub fn check_file(&self) -> Result<()> {
        match &self.file {
            Some((path, id)) if crate::outfile::file_id(path) != Some(*id) => {
                Err(DbError::FileGone(path.display().to_string()))
            }
            _ => Ok(()),
        }
    }

    /// Opens the existing database at `path` read-only, as every reading command (`db`, `plot`,
    /// `replay`) does; never creates one. Errors: [`DbError::Missing`] (its hint names the
    /// nearest file of the same name: `orcl tune` writes its database beside the tuned file),
    /// [`DbError::NotAFile`], and those of [`Db::open_read_only`].
    pub fn open_existing(path: &Path) -> Result<Db> {
        if path.is_dir() {
            return Err(DbError::NotAFile(path.display().to_string()));
        }
        if !path.exists() {
            let hint = match super::locate::nearest(path) {
                Some(p) => format!(
                    "; the nearest is {} (orcl tune writes its database beside the tuned file): \
                     use --db {}",
                    p.display(),
                    p.display()
                ),
                None => "; orcl tune writes one beside the tuned file (--db names another)".into(),
            };
            let path = path.display().to_string();
            return Err(DbError::Missing { path, hint });
        }
        Db::open_read_only(path)
    }

    /// Opens an existing database read-only. The schema must be from [`READ_COMPATIBLE_VERSION`]
    /// to [`SCHEMA_VERSION`]: [`DbError::NewerSchema`] or [`DbError::OlderSchema`] otherwise.
    ///
    /// A file another process is creating right now (no schema yet, or a version below this
    /// one) is waited for, up to [`HALF_CREATED_WAIT`], before it counts as older (issue 15 F19).
    ///
    /// A gzip'd database (`orcl.db.gz`, as shared or archived; recognised by its magic bytes,
    /// RFC 1952 §2.3.1) is decompressed into a temporary file, read from there and deleted when
    /// the `Db` is dropped.
    ///
    /// A database SQLite cannot open in a read-only directory (a write-ahead log whose index,
    /// `-shm`, is missing: SQLite must create it beside the file) is read from a copy of the
    /// file and its log in a temporary directory, deleted when the `Db` is dropped (issue 25
    /// G15); [`DbError::ReadOnlyDir`] when that fails too.
    pub fn open_read_only(path: &Path) -> Result<Db> {
        match Db::open_read_only_in_place(path) {
            Err(DbError::Sqlite(e))
                if e.sqlite_error_code() == Some(rusqlite::ErrorCode::CannotOpen)
                    && !dir_writable(path) =>
            {
                let copy = copy_with_log(path)
                    .map_err(|c| DbError::ReadOnlyDir(path.display().to_string(), c.to_string()))?;
                let mut db = Db::open_read_only_in_place(&copy.path().join("copy.db"))?;
                db._copy = Some(copy);
                Ok(db)
            }
            other => other,
        }
    }

    fn open_read_only_in_place(path: &Path) -> Result<Db> {
        let unzipped = gunzip_if_gzip(path)?;
        let path = unzipped.as_deref().unwrap_or(path);
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let start = std::time::Instant::now();
        if is_foreign(&conn)? {
            return Err(DbError::Foreign(path.display().to_string()));
        }
        let found = loop {
            match stored_version(&conn) {
                Ok(v) if v >= READ_COMPATIBLE_VERSION || start.elapsed() >= HALF_CREATED_WAIT => {
                    break v
                }
                Ok(_) => {}
                Err(DbError::Sqlite(e))
                    if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                        && start.elapsed() < HALF_CREATED_WAIT => {}
                Err(e) => return Err(e),
            }
            // A poll, and the only way: SQLite tells one process nothing of another's commits
            // (its busy handler, set above, waits out locks, but a WAL reader takes none and sees
            // the schema missing until the creator commits it), so the version is read again.
            std::thread::sleep(Duration::from_millis(20));
        };
        if found > SCHEMA_VERSION {
            return Err(DbError::NewerSchema {
                found,
                supported: SCHEMA_VERSION,
            });
        }
        if found < READ_COMPATIBLE_VERSION {
            return Err(DbError::OlderSchema {
                found,
                supported: SCHEMA_VERSION,
            });
        }
        Ok(Db {
            conn,
            file: None,
            _unzipped: unzipped,
            _copy: None,
        })
    }

    /// Opens a fresh in-memory database (for tests and dry runs).
    pub fn open_in_memory() -> Result<Db> {
        Db::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<Db> {
        conn.execute_batch(PRAGMA_FOREIGN_KEYS)?;
        migrate(&conn)?;
        Ok(Db {
            conn,
            file: None,
            _unzipped: None,
            _copy: None,
        })
    }

    /// The schema version stored in the file.
    pub fn schema_version(&self) -> Result<i64> {
        stored_version(&self.conn)
    }

    /// Begins a write transaction that takes the write lock at once (waiting up to the busy
    /// timeout), so it never fails half-way on a stale WAL snapshot.
    pub(super) fn write_tx(&self) -> rusqlite::Result<Transaction<'_>> {
        Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate)
    }
}

/// Whether this process may create files in `path`'s directory (access(2) with W_OK: a
/// read-only mount or a directory without write permission answers no).
fn dir_writable(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(c) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a NUL-terminated path.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

/// `path` and its write-ahead log (`-wal`, when there is one) copied into a new temporary
/// directory as `copy.db` and `copy.db-wal`.
fn copy_with_log(path: &Path) -> std::io::Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new().prefix("orcl-db-copy-").tempdir()?;
    std::fs::copy(path, dir.path().join("copy.db"))?;
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    if Path::new(&wal).exists() {
        std::fs::copy(&wal, dir.path().join("copy.db-wal"))?;
    }
    Ok(dir)
}

/// The first two bytes of every gzip stream (RFC 1952 §2.3.1): how a gzip'd database or
/// imported file is told from a plain one.
pub const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// For a gzip file (magic bytes [`GZIP_MAGIC`]), its content decompressed into a new temporary file;
/// `None` for any other file. Errors: [`DbError::Unzip`] when the file cannot be read or is not
/// a valid gzip stream, or the temporary file cannot be written.
fn gunzip_if_gzip(path: &Path) -> Result<Option<tempfile::TempPath>> {
    use std::io::Read;
    let unzip_error = |e: std::io::Error| DbError::Unzip(path.display().to_string(), e.to_string());
    let mut magic = [0u8; 2];
    let is_gzip = std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && magic == GZIP_MAGIC;
    if !is_gzip {
        return Ok(None);
    }
    let file = std::fs::File::open(path).map_err(unzip_error)?;
    let mut out = tempfile::Builder::new()
        .prefix("orcl-unzipped-")
        .suffix(".db")
        .tempfile()
        .map_err(unzip_error)?;
    std::io::copy(&mut flate2::read::MultiGzDecoder::new(file), &mut out).map_err(unzip_error)?;
    Ok(Some(out.into_temp_path()))
}

/// Whether the file is another program's SQLite database: schema objects, no `meta` table
/// (orcl creates `meta` in the same transaction as its tables, so no orcl database is ever
/// seen half-made that way).
fn is_foreign(conn: &Connection) -> Result<bool> {
    let objects: i64 = conn.query_row(SCHEMA_OBJECTS, [], |r| r.get(0))?;
    let has_meta: i64 = conn.query_row(META_TABLE_EXISTS, [], |r| r.get(0))?;
    Ok(objects > 0 && has_meta == 0)
}

/// The schema version in `meta`, 0 if there is no `meta` table or no version row.
fn stored_version(conn: &Connection) -> Result<i64> {
    let has_meta: i64 = conn.query_row(META_TABLE_EXISTS, [], |r| r.get(0))?;
    if has_meta == 0 {
        return Ok(0);
    }
    let value: Option<Option<String>> = conn
        .query_row(SELECT_SCHEMA_VERSION, [], |r| r.get(0))
        .optional()?;
    match value.flatten() {
        None => Ok(0),
        Some(v) => match v.trim().parse::<i64>() {
            Ok(n) if n >= 0 => Ok(n),
            _ => Err(DbError::BadSchemaVersion(v)),
        },
    }
}

/// Switches the file to WAL mode. Changing the journal mode needs an exclusive lock and SQLite
/// answers `SQLITE_BUSY` at once, without the busy handler, while another connection holds one
/// (e.g. two processes creating the same file), so retry up to [`BUSY_TIMEOUT`].
fn set_wal(conn: &Connection) -> Result<()> {
    let start = std::time::Instant::now();
    loop {
        match conn.query_row(PRAGMA_JOURNAL_WAL, [], |r| r.get::<_, String>(0)) {
            Ok(_mode) => return Ok(()),
            Err(e)
                if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                    && start.elapsed() < BUSY_TIMEOUT =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Applies `MIGRATIONS[stored..]` in one immediate transaction and records the new version.
fn migrate(conn: &Connection) -> Result<()> {
    let check = |found: i64| {
        if found > SCHEMA_VERSION {
            Err(DbError::NewerSchema {
                found,
                supported: SCHEMA_VERSION,
            })
        } else {
            Ok(found)
        }
    };
    if check(stored_version(conn)?)? == SCHEMA_VERSION {
        return Ok(());
    }
    let tx = Transaction::new_unchecked(conn, TransactionBehavior::Immediate)?;
    tx.execute_batch(CREATE_META)?;
    // Re-read under the write lock: another process may have migrated meanwhile.
    let found = check(stored_version(&tx)?)?;
    for sql in &MIGRATIONS[found as usize..] {
        tx.execute_batch(sql)?;
    }
    tx.execute(SET_SCHEMA_VERSION, [SCHEMA_VERSION.to_string()])?;
    tx.commit()?;
    Ok(())
}

pub(super) fn check_one_of(field: &'static str, value: &str, allowed: &[&str]) -> Result<()> {
    if allowed.contains(&value) {
        Ok(())
    } else {
        Err(DbError::Invalid {
            field,
            reason: format!("{value:?} is not one of {}", allowed.join(", ")),
        })
    }
}

pub(super) fn check_json(field: &'static str, value: &str) -> Result<()> {
    serde_json::from_str::<serde_json::Value>(value)
        .map(drop)
        .map_err(|e| DbError::Invalid {
            field,
            reason: format!("not JSON: {e}"),
        })
}

/// Turns unique-key and foreign-key violations into [`DbError::Duplicate`] and
/// [`DbError::NoSuchExperiment`].
pub(super) fn classify(
    err: rusqlite::Error,
    experiment_id: i64,
    config_key: Option<&str>,
) -> DbError {
    if let rusqlite::Error::SqliteFailure(f, _) = &err {
        match (f.extended_code, config_key) {
            (rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY, _) => {
                return DbError::NoSuchExperiment(experiment_id)
            }
            (
                rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                | rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY,
                Some(key),
            ) => {
                return DbError::Duplicate {
                    experiment_id,
                    config_key: key.to_string(),
                };
            }
            _ => {}
        }
    }
    DbError::Sqlite(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_memory_has_current_schema() {
        let db = Db::open_in_memory().unwrap();
        assert_eq!(db.schema_version().unwrap(), SCHEMA_VERSION);
    }
}
