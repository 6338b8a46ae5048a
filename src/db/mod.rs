//! The SQLite tuning database (DESIGN.md §5): every measured variant, with its metadata.
//!
//! TAUdb-like: one row per evaluated configuration, failures included, tied to the experiment
//! (region × device × input size × search) that produced it. See `docs/DATABASE.md` for the
//! column reference and example queries.
//!
//! Schema (version [`SCHEMA_VERSION`]):
//! - `meta(key, value)`: `schema_version`.
//! - `device`: one OpenCL/CUDA device, keyed by `fingerprint`; limits in bytes / work-items / MHz,
//!   every queried property in `properties_json`.
//! - `region`: one annotated loop, keyed by `(file, loop_hash)`.
//! - `experiment`: one tuning run of a region on a device for one input size, keyed by
//!   `identity_key`; re-running the same experiment resumes it ([`Db::open_experiment`]).
//! - `evaluation`: one configuration of an experiment, keyed by `(experiment_id, config_key)`:
//!   status (`ok` or a failure class), build ms, kernel ms per repetition, median ms, transfer ms,
//!   max error, energy per call (J) and average power (W) where measured (schema 3).
//! - `experiment_metadata(experiment_id, key, value)`: free key/value pairs.
//!
//! Invariants: the file is in WAL mode with a 30 s busy timeout, so several orcl processes may
//! write to one database; every write is its own committed transaction, so a killed run loses
//! nothing already recorded; times are ISO-8601 UTC text (`2024-05-01T12:34:56.789Z`); all SQL is
//! in the `const`s of `sql.rs`. Schema changes are appended to `MIGRATIONS`, never
//! edited in place.
//!
//! The module by concept: `sql` (every statement), `schema` (opening, WAL, migrations, the values
//! the schema allows), `devices` (devices and regions), `experiments`, `evaluations`, `queries`
//! (the read-only queries of `orcl db`), `import` (whole experiments at once, for `orcl db
//! import`), `time` (ISO-8601 UTC text), `sizes` (which recorded input size is nearest to
//! another: `db best --size` and `tune --warm-start`).

use std::time::Duration;

use rusqlite::Connection;

mod devices;
mod evaluations;
mod experiments;
mod import;
mod locate;
mod queries;
mod schema;
pub mod sizes;
mod sql;
mod time;

pub use devices::{DeviceRow, RegionRow};
pub use evaluations::EvaluationRow;
pub use experiments::{ExperimentRow, NewExperiment};
pub use locate::open_for_reading;
pub use queries::{ExperimentSummary, FailureGroup, QueryError, QueryResult};
pub use schema::GZIP_MAGIC;
pub use time::{format_utc, now_utc};

/// How long [`Db::open_read_only`] waits for a database that another process is creating.
pub const HALF_CREATED_WAIT: Duration = Duration::from_secs(2);

/// The schema version this orcl writes and reads (stored in `meta.schema_version`).
pub const SCHEMA_VERSION: i64 = 3;
/// The oldest schema a read-only opening accepts: the migrations after version 1 only add nullable
/// columns that no reader of an older file needs (`evaluation.device_index`, `energy_j`,
/// `power_w`: read as NULL there), so `orcl db`,
/// `plot`, `replay` and `export` read version-1 files (e.g. `bench/data/*.db`) without writing.
pub const READ_COMPATIBLE_VERSION: i64 = 1;
const _: () = assert!(sql::MIGRATIONS.len() == SCHEMA_VERSION as usize);

/// How long a writer waits for another process's write lock before failing.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// Backends: values of `device.backend` and `experiment.backend`.
pub const BACKENDS: [&str; 2] = ["opencl", "cuda"];

/// Values of `experiment.status`: `running` (being tuned, or killed without a chance to say so),
/// `done`, `interrupted` (stopped by the user or budget cut short), `failed`.
pub const EXPERIMENT_STATUSES: [&str; 4] = ["running", "done", "interrupted", "failed"];

/// Values of `evaluation.status`: `ok`, or the failure class (DESIGN.md §3). Only `ok` rows are
/// ranked.
pub const EVALUATION_STATUSES: [&str; 8] = [
    "ok",
    "constraint",
    "device_limit",
    "compile_error",
    "launch_error",
    "crash",
    "timeout",
    "wrong_result",
];

/// Errors of the tuning database. Messages do not name the file: callers add it as context.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// Any SQLite error not classified below (I/O, "file is not a database", locked past the
    /// busy timeout, ...).
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The file was written by a newer orcl.
    #[error("database schema version {found} is newer than this orcl supports ({supported}); upgrade orcl")]
    NewerSchema { found: i64, supported: i64 },
    /// The file has an older schema and was opened read-only, so it cannot be migrated.
    #[error("database schema version {found} is older than this orcl's ({supported}) and it was opened read-only; open it once read-write to migrate it")]
    OlderSchema { found: i64, supported: i64 },
    /// `meta.schema_version` is not a non-negative integer.
    #[error("database schema version {0:?} is not a valid version number")]
    BadSchemaVersion(String),
    /// The experiment already has an evaluation with this configuration key.
    #[error("experiment {experiment_id} already has an evaluation of configuration {config_key}")]
    Duplicate {
        experiment_id: i64,
        config_key: String,
    },
    /// No experiment with this id.
    #[error("no experiment with id {0}")]
    NoSuchExperiment(i64),
    /// The database file was deleted, renamed or replaced while orcl had it open: what is
    /// written now would be lost (issue 15 F11).
    #[error("the database file {0} was deleted or replaced while orcl was using it; the results since then are lost. Stopped; run again to recreate it")]
    FileGone(String),
    /// No file at the database path; `hint` names the nearest database, if any.
    #[error("no tuning database at {path}{hint}")]
    Missing { path: String, hint: String },
    /// An SQLite database of another program (tables, no orcl `meta` table): refused, never
    /// written to (issue 25 G10).
    #[error("{0} is an SQLite database of another program (it has tables but no orcl `meta` table); orcl leaves it as it is: give --db a new file or an orcl database")]
    Foreign(String),
    /// A database in a directory orcl may not write to, which SQLite cannot read in place (a
    /// write-ahead log without its index) and orcl could not copy (path, reason).
    #[error("cannot read the database {0}: its directory is read-only and its write-ahead log (-wal) needs an index SQLite must create beside it; copying it elsewhere failed too ({1}). Copy the database with its -wal file to a writable directory")]
    ReadOnlyDir(String, String),
    /// The database path is a directory.
    #[error("{0} is a directory, not a tuning database")]
    NotAFile(String),
    /// A gzip'd database that cannot be decompressed (path, reason).
    #[error("cannot decompress the gzip'd database {0}: {1}; check the file, or decompress it with `gunzip -k`")]
    Unzip(String, String),
    /// A field has a value the schema does not allow (unknown status or backend, non-finite
    /// sample, invalid JSON).
    #[error("invalid {field}: {reason}")]
    Invalid { field: &'static str, reason: String },
}

/// Result of database operations.
pub type Result<T, E = DbError> = std::result::Result<T, E>;

/// A connection to the tuning database. Cheap to open; one per thread or process.
#[derive(Debug)]
pub struct Db {
    conn: Connection,
    /// The file and its (device, inode) when opened; `None` in memory.
    file: Option<(std::path::PathBuf, (u64, u64))>,
    /// A gzip'd database's decompressed copy, read through `conn` and deleted on drop (declared
    /// after `conn`, so the connection closes first).
    _unzipped: Option<tempfile::TempPath>,
    /// A database read from a copy (a write-ahead log in a read-only directory): the copy's
    /// directory, deleted on drop.
    _copy: Option<tempfile::TempDir>,
}
