//! How a command fails: the exit classes (docs/RELIABILITY.md) and their messages.

use orcl_frontend::diag::InputError;

/// Exit code of an environment failure: the database, the device, the compiler or the file
/// system failed, not the input (issue 15 F12).
pub const EXIT_ENVIRONMENT: i32 = 3;

/// Exit code when some regions of the file were refused (their located errors printed) and the
/// others were checked, or tuned and the tuned file written with the refused regions as written.
/// When every region is refused the exit code is 2, as for any input error.
pub const EXIT_REFUSED: i32 = 4;

pub(crate) enum Failure {
    Input(InputError),
    Usage(String),
    Other(String),
    /// Exit [`EXIT_ENVIRONMENT`].
    Env(String),
    /// Stopped by this signal: exit 128 + signal (130 SIGINT, 143 SIGTERM).
    Interrupted(i32, String),
}

impl Failure {
    /// Print the failure on stderr; returns the exit code.
    pub(crate) fn report(self) -> i32 {
        match self {
            Failure::Input(e) => {
                orcl_frontend::errout!("{e}");
                2
            }
            Failure::Usage(m) => {
                orcl_frontend::errln!("error: {}", orcl_frontend::diag::escape_controls(&m));
                2
            }
            Failure::Other(m) => {
                orcl_frontend::errln!("error: {}", orcl_frontend::diag::escape_controls(&m));
                1
            }
            Failure::Env(m) => {
                orcl_frontend::errln!("error: {}", orcl_frontend::diag::escape_controls(&m));
                // Under `ulimit -f` a write fails with EFBIG, which SQLite reports as an I/O
                // error or a full disk: say which limit it was (issue 25 G11).
                let io = ["I/O error", "full", "File too large"];
                if let Some(b) = orcl_measure::interrupt::file_size_limit()
                    .filter(|_| io.iter().any(|w| m.contains(w)))
                {
                    orcl_frontend::errln!("note: {}", orcl_measure::interrupt::file_size_note(b));
                }
                EXIT_ENVIRONMENT
            }
            Failure::Interrupted(signal, m) => {
                orcl_frontend::errln!("{m}");
                128 + signal
            }
        }
    }
}

impl From<crate::outfile::OutputError> for Failure {
    fn from(e: crate::outfile::OutputError) -> Self {
        match e {
            crate::outfile::OutputError::Clobber { .. }
            | crate::outfile::OutputError::NotRegular { .. } => Failure::Usage(e.to_string()),
            crate::outfile::OutputError::Io { .. } => Failure::Env(e.to_string()),
        }
    }
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Self {
        Failure::Input(e)
    }
}

/// Whether `e` says that the `--db` file is not a tuning database this orcl can use: not an
/// SQLite file, another program's database, a newer orcl's schema. That is a wrong argument
/// (exit 2), like a missing input file; a database that fails (corrupt pages, I/O, locked, full)
/// is an environment failure (exit 3). The table is in docs/RELIABILITY.md (issue 25 G17).
pub(crate) fn wrong_database_file(e: &crate::db::DbError) -> bool {
    use crate::db::DbError as D;
    match e {
        D::Foreign(_) | D::NewerSchema { .. } | D::BadSchemaVersion(_) => true,
        D::Sqlite(s) => s.sqlite_error_code() == Some(rusqlite::ErrorCode::NotADatabase),
        _ => false,
    }
}

/// The exit class of a `db`/`plot` error: the database or the file system failing is an
/// environment failure ([`EXIT_ENVIRONMENT`]), anything else (a file that is not an orcl
/// database included, [`wrong_database_file`]) a usage error.
pub(crate) fn classify(e: anyhow::Error) -> Failure {
    use crate::outfile::OutputError;
    use rusqlite::ErrorCode as C;
    let env = e.chain().any(|c| {
        let sqlite_env = c
            .downcast_ref::<rusqlite::Error>()
            .and_then(|s| s.sqlite_error_code())
            .is_some_and(|code| {
                matches!(
                    code,
                    C::CannotOpen
                        | C::DatabaseCorrupt
                        | C::DiskFull
                        | C::SystemIoFailure
                        | C::DatabaseBusy
                        | C::DatabaseLocked
                        | C::PermissionDenied
                        | C::ReadOnly
                        | C::FileLockingProtocolFailed
                        | C::OutOfMemory
                )
            });
        sqlite_env
            || c.is::<std::io::Error>()
            || matches!(
                c.downcast_ref::<crate::db::DbError>(),
                Some(crate::db::DbError::FileGone(_))
            )
            || matches!(
                c.downcast_ref::<OutputError>(),
                Some(OutputError::Io { .. })
            )
    });
    if env {
        Failure::Env(format!("{e:#}"))
    } else {
        Failure::Usage(format!("{e:#}"))
    }
}
