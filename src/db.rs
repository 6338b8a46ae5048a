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
//!   max error.
//! - `experiment_metadata(experiment_id, key, value)`: free key/value pairs.
//!
//! Invariants: the file is in WAL mode with a 30 s busy timeout, so several orcl processes may
//! write to one database; every write is its own committed transaction, so a killed run loses
//! nothing already recorded; times are ISO-8601 UTC text (`2024-05-01T12:34:56.789Z`); all SQL is
//! in the `const`s at the top of this module. Schema changes are appended to `MIGRATIONS`, never
//! edited in place.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{
    params, Connection, OpenFlags, OptionalExtension, Row, Transaction, TransactionBehavior,
};
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------------------------
// SQL
// ---------------------------------------------------------------------------------------------

const PRAGMA_JOURNAL_WAL: &str = "PRAGMA journal_mode = WAL";
const PRAGMA_FOREIGN_KEYS: &str = "PRAGMA foreign_keys = ON";

const CREATE_META: &str = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)";
const META_TABLE_EXISTS: &str =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'";
const SELECT_SCHEMA_VERSION: &str = "SELECT value FROM meta WHERE key = 'schema_version'";
const SET_SCHEMA_VERSION: &str = "INSERT INTO meta (key, value) VALUES ('schema_version', ?1)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value";

/// Version 0 → 1: the initial schema.
const MIGRATION_1: &str = "
CREATE TABLE device (
    id                  INTEGER PRIMARY KEY,
    backend             TEXT    NOT NULL CHECK (backend IN ('opencl', 'cuda')),
    platform            TEXT    NOT NULL,            -- OpenCL platform name; CUDA: 'CUDA'
    name                TEXT    NOT NULL,
    vendor              TEXT    NOT NULL,
    driver_version      TEXT    NOT NULL,
    device_version      TEXT    NOT NULL,            -- e.g. 'OpenCL 3.0 ...', CUDA 'sm_90'
    compute_units       INTEGER NOT NULL,            -- count (CUs / SMs)
    max_work_group_size INTEGER NOT NULL,            -- work-items (threads per block)
    local_mem_bytes     INTEGER NOT NULL,            -- bytes (shared memory per block)
    global_mem_bytes    INTEGER NOT NULL,            -- bytes
    max_clock_mhz       INTEGER NOT NULL,            -- MHz
    fingerprint         TEXT    NOT NULL UNIQUE,
    properties_json     TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(properties_json))
);

CREATE TABLE region (
    id             INTEGER PRIMARY KEY,
    file           TEXT    NOT NULL,
    line           INTEGER NOT NULL,                 -- 1-based line of the annotation
    function       TEXT    NOT NULL,                 -- enclosing C function
    loop_hash      TEXT    NOT NULL,                 -- hex SHA-256 of loop and transform text
    transform_text TEXT    NOT NULL,
    UNIQUE (file, loop_hash)
);

CREATE TABLE experiment (
    id                  INTEGER PRIMARY KEY,
    identity_key        TEXT    NOT NULL UNIQUE,
    region_id           INTEGER NOT NULL REFERENCES region (id),
    device_id           INTEGER NOT NULL REFERENCES device (id),
    backend             TEXT    NOT NULL CHECK (backend IN ('opencl', 'cuda')),
    input_params_json   TEXT    NOT NULL CHECK (json_valid(input_params_json)),
    spec_hash           TEXT    NOT NULL,
    algorithm           TEXT    NOT NULL,
    search_options_json TEXT    NOT NULL CHECK (json_valid(search_options_json)),
    seed                INTEGER,                     -- u64 stored as two's-complement i64
    orcl_version        TEXT    NOT NULL,
    host                TEXT    NOT NULL,
    build_command       TEXT    NOT NULL,
    started_at          TEXT    NOT NULL,            -- ISO-8601 UTC
    finished_at         TEXT,                        -- ISO-8601 UTC; NULL while running
    status              TEXT    NOT NULL
        CHECK (status IN ('running', 'done', 'interrupted', 'failed'))
);
CREATE INDEX experiment_region ON experiment (region_id);
CREATE INDEX experiment_device ON experiment (device_id);

CREATE TABLE evaluation (
    id              INTEGER PRIMARY KEY,
    experiment_id   INTEGER NOT NULL REFERENCES experiment (id) ON DELETE CASCADE,
    config_key      TEXT    NOT NULL,
    config_json     TEXT    NOT NULL CHECK (json_valid(config_json)),
    kernel_hash     TEXT,                            -- hex SHA-256 of the kernel source
    status          TEXT    NOT NULL CHECK (status IN ('ok', 'constraint', 'device_limit',
                        'compile_error', 'launch_error', 'crash', 'timeout', 'wrong_result')),
    build_ms        REAL,                            -- ms
    samples_ms_json TEXT    NOT NULL DEFAULT '[]'    -- JSON array: kernel ms per repetition
                        CHECK (json_valid(samples_ms_json)),
    median_ms       REAL,                            -- ms; the objective
    transfer_ms     REAL,                            -- ms
    max_error       REAL,                            -- max |output - reference|
    message         TEXT,
    created_at      TEXT    NOT NULL,                -- ISO-8601 UTC
    UNIQUE (experiment_id, config_key)
);
CREATE INDEX evaluation_best ON evaluation (experiment_id, status, median_ms);

CREATE TABLE experiment_metadata (
    experiment_id INTEGER NOT NULL REFERENCES experiment (id) ON DELETE CASCADE,
    key           TEXT    NOT NULL,
    value         TEXT    NOT NULL,
    PRIMARY KEY (experiment_id, key)
);
";

/// Version 1 → 2 (issue 14, `--devices`): the device that measured an evaluation, as its index
/// (OpenCL device index within the experiment's platform, CUDA ordinal). NULL: the experiment's
/// own device (every row of a single-device tune, and rows of older orcl versions and imports).
const MIGRATION_2: &str = "ALTER TABLE evaluation ADD COLUMN device_index INTEGER";

/// Forward migrations: `MIGRATIONS[i]` takes the schema from version `i` to `i + 1`.
/// Append, never edit.
const MIGRATIONS: &[&str] = &[MIGRATION_1, MIGRATION_2];

const UPSERT_DEVICE: &str = "
INSERT INTO device (backend, platform, name, vendor, driver_version, device_version,
    compute_units, max_work_group_size, local_mem_bytes, global_mem_bytes, max_clock_mhz,
    fingerprint, properties_json)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
ON CONFLICT (fingerprint) DO UPDATE SET
    backend = excluded.backend, platform = excluded.platform, name = excluded.name,
    vendor = excluded.vendor, driver_version = excluded.driver_version,
    device_version = excluded.device_version, compute_units = excluded.compute_units,
    max_work_group_size = excluded.max_work_group_size,
    local_mem_bytes = excluded.local_mem_bytes, global_mem_bytes = excluded.global_mem_bytes,
    max_clock_mhz = excluded.max_clock_mhz, properties_json = excluded.properties_json
RETURNING id";
const SELECT_DEVICE: &str = "
SELECT backend, platform, name, vendor, driver_version, device_version, compute_units,
    max_work_group_size, local_mem_bytes, global_mem_bytes, max_clock_mhz, fingerprint,
    properties_json
FROM device WHERE id = ?1";

const UPSERT_REGION: &str = "
INSERT INTO region (file, line, function, loop_hash, transform_text) VALUES (?1, ?2, ?3, ?4, ?5)
ON CONFLICT (file, loop_hash) DO UPDATE SET
    line = excluded.line, function = excluded.function, transform_text = excluded.transform_text
RETURNING id";
const SELECT_REGION: &str =
    "SELECT file, line, function, loop_hash, transform_text FROM region WHERE id = ?1";

const FIND_EXPERIMENT: &str = "SELECT id FROM experiment WHERE identity_key = ?1";
const RESUME_EXPERIMENT: &str =
    "UPDATE experiment SET status = 'running', finished_at = NULL WHERE id = ?1";
const INSERT_EXPERIMENT: &str = "
INSERT INTO experiment (identity_key, region_id, device_id, backend, input_params_json,
    spec_hash, algorithm, search_options_json, seed, orcl_version, host, build_command,
    started_at, finished_at, status)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, NULL, 'running')";
const FINISH_EXPERIMENT: &str = "UPDATE experiment SET status = ?2, finished_at = ?3 WHERE id = ?1";
macro_rules! experiment_columns {
    () => {
        "id, identity_key, region_id, device_id, backend, input_params_json, spec_hash, \
         algorithm, search_options_json, seed, orcl_version, host, build_command, started_at, \
         finished_at, status"
    };
}
const SELECT_EXPERIMENT: &str = concat!(
    "SELECT ",
    experiment_columns!(),
    " FROM experiment WHERE id = ?1"
);
const SELECT_EXPERIMENTS: &str = concat!(
    "SELECT ",
    experiment_columns!(),
    " FROM experiment ORDER BY id"
);

const SET_METADATA: &str = "
INSERT INTO experiment_metadata (experiment_id, key, value) VALUES (?1, ?2, ?3)
ON CONFLICT (experiment_id, key) DO UPDATE SET value = excluded.value";
const SELECT_METADATA: &str =
    "SELECT key, value FROM experiment_metadata WHERE experiment_id = ?1 ORDER BY key";

const INSERT_EVALUATION: &str = "
INSERT INTO evaluation (experiment_id, config_key, config_json, kernel_hash, status, build_ms,
    samples_ms_json, median_ms, transfer_ms, max_error, message, created_at, device_index)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)";
const SELECT_EVALUATION_DEVICES: &str =
    "SELECT config_key, device_index FROM evaluation WHERE experiment_id = ?1 ORDER BY id";
macro_rules! evaluation_columns {
    () => {
        "id, config_key, config_json, kernel_hash, status, build_ms, samples_ms_json, median_ms, \
         transfer_ms, max_error, message, created_at"
    };
}
const SELECT_EVALUATIONS: &str = concat!(
    "SELECT ",
    evaluation_columns!(),
    " FROM evaluation WHERE experiment_id = ?1 ORDER BY id"
);
const SELECT_BEST: &str = concat!(
    "SELECT ",
    evaluation_columns!(),
    " FROM evaluation WHERE experiment_id = ?1 AND status = 'ok' AND median_ms IS NOT NULL
      ORDER BY median_ms ASC, id ASC LIMIT ?2"
);

// ---------------------------------------------------------------------------------------------
// Public constants and types
// ---------------------------------------------------------------------------------------------

/// How long [`Db::open_read_only`] waits for a database that another process is creating.
pub const HALF_CREATED_WAIT: Duration = Duration::from_secs(2);

/// The schema version this orcl writes and reads (stored in `meta.schema_version`).
pub const SCHEMA_VERSION: i64 = 2;
/// The oldest schema a read-only opening accepts: the migrations after version 1 only add nullable
/// columns that no reader of an older file needs (`evaluation.device_index`), so `orcl db`,
/// `plot`, `replay` and `export` read version-1 files (e.g. `bench/data/*.db`) without writing.
pub const READ_COMPATIBLE_VERSION: i64 = 1;
const _: () = assert!(MIGRATIONS.len() == SCHEMA_VERSION as usize);

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
    /// A field has a value the schema does not allow (unknown status or backend, non-finite
    /// sample, invalid JSON).
    #[error("invalid {field}: {reason}")]
    Invalid { field: &'static str, reason: String },
}

/// Result of database operations.
pub type Result<T, E = DbError> = std::result::Result<T, E>;

/// One device (`device` table). Identified by `fingerprint`; the other fields are refreshed on
/// every [`Db::upsert_device`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceRow {
    /// `opencl` or `cuda`.
    pub backend: String,
    /// OpenCL platform name; `CUDA` for CUDA devices.
    pub platform: String,
    pub name: String,
    pub vendor: String,
    pub driver_version: String,
    /// `CL_DEVICE_VERSION`, or the CUDA compute capability (`sm_90`).
    pub device_version: String,
    /// Compute units (OpenCL) / streaming multiprocessors (CUDA).
    pub compute_units: u32,
    /// Maximum work-items per work-group (threads per block).
    pub max_work_group_size: u64,
    /// Local memory per work-group (shared memory per block), bytes.
    pub local_mem_bytes: u64,
    /// Global memory, bytes.
    pub global_mem_bytes: u64,
    /// Maximum clock frequency, MHz.
    pub max_clock_mhz: u32,
    /// Stable identity of the device (e.g. a hash of backend, platform, name, driver): the key.
    pub fingerprint: String,
    /// Every queried device property, as a JSON object.
    pub properties_json: String,
}

/// One annotated loop (`region` table), identified by `(file, loop_hash)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegionRow {
    /// Source file as given on the command line.
    pub file: String,
    /// 1-based line of the annotation.
    pub line: u32,
    /// Enclosing C function.
    pub function: String,
    /// Hex hash of the loop and its transform text.
    pub loop_hash: String,
    /// The annotation's transform (spec) text.
    pub transform_text: String,
}

/// What identifies and describes an experiment when it is opened ([`Db::open_experiment`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewExperiment {
    /// Unique key of the experiment (`orcl tune`: a hash of the region, the loop and spec without
    /// its search section, input params, device and backend): opening the same key again resumes it.
    pub identity_key: String,
    /// `region.id`.
    pub region_id: i64,
    /// `device.id`.
    pub device_id: i64,
    /// `opencl` or `cuda`.
    pub backend: String,
    /// Input sizes/parameters of this run, JSON object.
    pub input_params_json: String,
    /// Hash of the tuning spec.
    pub spec_hash: String,
    /// Search algorithm name (`exhaustive`, `random`, ...).
    pub algorithm: String,
    /// Search options, JSON object.
    pub search_options_json: String,
    /// Search seed, if the algorithm is randomised.
    pub seed: Option<u64>,
    pub orcl_version: String,
    /// Host name of the machine that ran the experiment.
    pub host: String,
    /// The spec's build command for the timing skeleton.
    pub build_command: String,
}

/// An experiment as stored (`experiment` table).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExperimentRow {
    pub id: i64,
    pub identity_key: String,
    pub region_id: i64,
    pub device_id: i64,
    pub backend: String,
    pub input_params_json: String,
    pub spec_hash: String,
    pub algorithm: String,
    pub search_options_json: String,
    pub seed: Option<u64>,
    pub orcl_version: String,
    pub host: String,
    pub build_command: String,
    /// ISO-8601 UTC time of the first opening.
    pub started_at: String,
    /// ISO-8601 UTC time of the last [`Db::finish_experiment`]; `None` while running.
    pub finished_at: Option<String>,
    /// One of [`EXPERIMENT_STATUSES`].
    pub status: String,
}

/// One evaluated configuration (`evaluation` table). `id` and `created_at` are ignored on
/// insert and filled on read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EvaluationRow {
    /// Row id (insertion order); `None` before insertion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// Canonical key of the configuration, unique within an experiment.
    pub config_key: String,
    /// The configuration (tuning parameter → value), JSON object.
    pub config_json: String,
    /// Hex hash of the generated kernel source; `None` if none was generated.
    pub kernel_hash: Option<String>,
    /// One of [`EVALUATION_STATUSES`].
    pub status: String,
    /// Kernel build time, ms.
    pub build_ms: Option<f64>,
    /// Kernel time of each timed repetition (device events), ms; finite values only.
    pub samples_ms: Vec<f64>,
    /// Median of `samples_ms`, ms: the objective.
    pub median_ms: Option<f64>,
    /// Host↔device transfer time, ms.
    pub transfer_ms: Option<f64>,
    /// Largest absolute difference from the reference outputs. A NaN is stored as `None`.
    pub max_error: Option<f64>,
    /// Compiler log, error text, or other note.
    pub message: Option<String>,
    /// ISO-8601 UTC insertion time; `None` before insertion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
}

/// A connection to the tuning database. Cheap to open; one per thread or process.
#[derive(Debug)]
pub struct Db {
    conn: Connection,
    /// The file and its (device, inode) when opened; `None` in memory.
    file: Option<(std::path::PathBuf, (u64, u64))>,
}

// ---------------------------------------------------------------------------------------------
// Db
// ---------------------------------------------------------------------------------------------

impl Db {
    /// Opens (creating if missing) the database at `path` for reading and writing, migrating an
    /// older schema forward. The parent directory must exist.
    ///
    /// Errors: [`DbError::NewerSchema`] for a file written by a newer orcl,
    /// [`DbError::BadSchemaVersion`], or [`DbError::Sqlite`] (not a database, I/O, locked for
    /// longer than [`BUSY_TIMEOUT`]).
    pub fn open(path: &Path) -> Result<Db> {
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

    /// Opens an existing database read-only. The schema must be from [`READ_COMPATIBLE_VERSION`]
    /// to [`SCHEMA_VERSION`]: [`DbError::NewerSchema`] or [`DbError::OlderSchema`] otherwise.
    ///
    /// A file another process is creating right now (no schema yet, or a version below this
    /// one) is waited for, up to [`HALF_CREATED_WAIT`], before it counts as older (issue 15 F19).
    pub fn open_read_only(path: &Path) -> Result<Db> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let start = std::time::Instant::now();
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
        Ok(Db { conn, file: None })
    }

    /// Opens a fresh in-memory database (for tests and dry runs).
    pub fn open_in_memory() -> Result<Db> {
        Db::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<Db> {
        conn.execute_batch(PRAGMA_FOREIGN_KEYS)?;
        migrate(&conn)?;
        Ok(Db { conn, file: None })
    }

    /// The schema version stored in the file.
    pub fn schema_version(&self) -> Result<i64> {
        stored_version(&self.conn)
    }

    /// Inserts the device, or refreshes every column of the row with the same `fingerprint`.
    /// Returns `device.id`.
    pub fn upsert_device(&self, d: &DeviceRow) -> Result<i64> {
        check_one_of("device.backend", &d.backend, &BACKENDS)?;
        check_json("device.properties_json", &d.properties_json)?;
        let id = self.conn.query_row(
            UPSERT_DEVICE,
            params![
                d.backend,
                d.platform,
                d.name,
                d.vendor,
                d.driver_version,
                d.device_version,
                d.compute_units,
                d.max_work_group_size,
                d.local_mem_bytes,
                d.global_mem_bytes,
                d.max_clock_mhz,
                d.fingerprint,
                d.properties_json
            ],
            |r| r.get(0),
        )?;
        Ok(id)
    }

    /// The device with this id, if any.
    pub fn device(&self, id: i64) -> Result<Option<DeviceRow>> {
        let row = self
            .conn
            .query_row(SELECT_DEVICE, [id], |r| {
                Ok(DeviceRow {
                    backend: r.get(0)?,
                    platform: r.get(1)?,
                    name: r.get(2)?,
                    vendor: r.get(3)?,
                    driver_version: r.get(4)?,
                    device_version: r.get(5)?,
                    compute_units: r.get(6)?,
                    max_work_group_size: r.get(7)?,
                    local_mem_bytes: r.get(8)?,
                    global_mem_bytes: r.get(9)?,
                    max_clock_mhz: r.get(10)?,
                    fingerprint: r.get(11)?,
                    properties_json: r.get(12)?,
                })
            })
            .optional()?;
        Ok(row)
    }

    /// Inserts the region, or refreshes `line`, `function` and `transform_text` of the row with
    /// the same `(file, loop_hash)`. Returns `region.id`.
    pub fn upsert_region(&self, r: &RegionRow) -> Result<i64> {
        let id = self.conn.query_row(
            UPSERT_REGION,
            params![r.file, r.line, r.function, r.loop_hash, r.transform_text],
            |row| row.get(0),
        )?;
        Ok(id)
    }

    /// The region with this id, if any.
    pub fn region(&self, id: i64) -> Result<Option<RegionRow>> {
        let row = self
            .conn
            .query_row(SELECT_REGION, [id], |r| {
                Ok(RegionRow {
                    file: r.get(0)?,
                    line: r.get(1)?,
                    function: r.get(2)?,
                    loop_hash: r.get(3)?,
                    transform_text: r.get(4)?,
                })
            })
            .optional()?;
        Ok(row)
    }

    /// Opens the experiment with `e.identity_key`: inserts it with status `running` and
    /// `started_at` = now, or, if that key exists, sets its status back to `running` (clearing
    /// `finished_at`) and keeps its other columns and its evaluations. Returns
    /// `(experiment.id, resumed)`.
    pub fn open_experiment(&self, e: &NewExperiment) -> Result<(i64, bool)> {
        check_one_of("experiment.backend", &e.backend, &BACKENDS)?;
        check_json("experiment.input_params_json", &e.input_params_json)?;
        check_json("experiment.search_options_json", &e.search_options_json)?;
        let tx = self.write_tx()?;
        let existing: Option<i64> = tx
            .query_row(FIND_EXPERIMENT, [&e.identity_key], |r| r.get(0))
            .optional()?;
        let result = match existing {
            Some(id) => {
                tx.execute(RESUME_EXPERIMENT, [id])?;
                (id, true)
            }
            None => {
                tx.execute(
                    INSERT_EXPERIMENT,
                    params![
                        e.identity_key,
                        e.region_id,
                        e.device_id,
                        e.backend,
                        e.input_params_json,
                        e.spec_hash,
                        e.algorithm,
                        e.search_options_json,
                        e.seed.map(|s| s as i64),
                        e.orcl_version,
                        e.host,
                        e.build_command,
                        now_utc()
                    ],
                )?;
                (tx.last_insert_rowid(), false)
            }
        };
        tx.commit()?;
        Ok(result)
    }

    /// Sets the experiment's final `status` (`done`, `interrupted` or `failed`) and
    /// `finished_at` = now. Errors: [`DbError::NoSuchExperiment`], [`DbError::Invalid`].
    pub fn finish_experiment(&self, id: i64, status: &str) -> Result<()> {
        check_one_of("experiment.status", status, &EXPERIMENT_STATUSES[1..])?;
        self.check_file()?;
        let n = self
            .conn
            .execute(FINISH_EXPERIMENT, params![id, status, now_utc()])?;
        if n == 0 {
            return Err(DbError::NoSuchExperiment(id));
        }
        Ok(())
    }

    /// Sets (inserts or replaces) one metadata pair of the experiment.
    pub fn set_metadata(&self, experiment_id: i64, key: &str, value: &str) -> Result<()> {
        self.conn
            .execute(SET_METADATA, params![experiment_id, key, value])
            .map_err(|e| classify(e, experiment_id, None))?;
        Ok(())
    }

    /// All metadata pairs of the experiment, by key.
    pub fn metadata(&self, experiment_id: i64) -> Result<BTreeMap<String, String>> {
        let mut stmt = self.conn.prepare_cached(SELECT_METADATA)?;
        let rows = stmt.query_map([experiment_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The experiment with this id, if any.
    pub fn experiment(&self, id: i64) -> Result<Option<ExperimentRow>> {
        Ok(self
            .conn
            .query_row(SELECT_EXPERIMENT, [id], experiment_from_row)
            .optional()?)
    }

    /// All experiments, oldest first.
    pub fn list_experiments(&self) -> Result<Vec<ExperimentRow>> {
        let mut stmt = self.conn.prepare_cached(SELECT_EXPERIMENTS)?;
        let rows = stmt.query_map([], experiment_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Records one evaluated configuration in its own committed transaction (a killed run loses
    /// nothing already recorded). `e.id` and `e.created_at` are ignored; `created_at` is now.
    /// Returns `evaluation.id`.
    ///
    /// Errors: [`DbError::Duplicate`] if the experiment already has `e.config_key`,
    /// [`DbError::NoSuchExperiment`], [`DbError::Invalid`] for an unknown status, invalid
    /// `config_json` or a non-finite sample.
    pub fn insert_evaluation(&self, experiment_id: i64, e: &EvaluationRow) -> Result<i64> {
        self.insert_evaluation_on(experiment_id, e, None)
    }

    /// [`Db::insert_evaluation`], recording the device that measured it (`device_index`: OpenCL
    /// device index within the experiment's platform, CUDA ordinal; `None`: the experiment's
    /// device). `orcl tune --devices` records it for every row.
    pub fn insert_evaluation_on(
        &self,
        experiment_id: i64,
        e: &EvaluationRow,
        device_index: Option<usize>,
    ) -> Result<i64> {
        check_one_of("evaluation.status", &e.status, &EVALUATION_STATUSES)?;
        check_json("evaluation.config_json", &e.config_json)?;
        if let Some(bad) = e.samples_ms.iter().find(|s| !s.is_finite()) {
            return Err(DbError::Invalid {
                field: "evaluation.samples_ms",
                reason: format!("non-finite sample {bad}"),
            });
        }
        let samples = serde_json::to_string(&e.samples_ms).expect("finite f64s serialise");
        self.check_file()?;
        let tx = self.write_tx()?;
        tx.execute(
            INSERT_EVALUATION,
            params![
                experiment_id,
                e.config_key,
                e.config_json,
                e.kernel_hash,
                e.status,
                e.build_ms,
                samples,
                e.median_ms,
                e.transfer_ms,
                e.max_error,
                e.message,
                now_utc(),
                device_index.and_then(|d| i64::try_from(d).ok())
            ],
        )
        .map_err(|err| classify(err, experiment_id, Some(&e.config_key)))?;
        let id = tx.last_insert_rowid();
        tx.commit()?;
        Ok(id)
    }

    /// All evaluations of the experiment, in insertion order.
    pub fn evaluations(&self, experiment_id: i64) -> Result<Vec<EvaluationRow>> {
        let mut stmt = self.conn.prepare_cached(SELECT_EVALUATIONS)?;
        let rows = stmt.query_map([experiment_id], evaluation_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// (config_key, device_index) of every evaluation of the experiment, in insertion order: the
    /// device that measured it (`None`: the experiment's device; see [`Db::insert_evaluation_on`]).
    /// A schema-1 file (read-only, not migrated) has no such column: every device is `None`.
    pub fn evaluation_devices(&self, experiment_id: i64) -> Result<Vec<(String, Option<i64>)>> {
        if self.schema_version()? < 2 {
            return Ok(self
                .evaluations(experiment_id)?
                .into_iter()
                .map(|e| (e.config_key, None))
                .collect());
        }
        let mut stmt = self.conn.prepare_cached(SELECT_EVALUATION_DEVICES)?;
        let rows = stmt.query_map([experiment_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The `n` fastest `ok` evaluations of the experiment, by ascending `median_ms` (ties: first
    /// inserted first).
    pub fn best(&self, experiment_id: i64, n: usize) -> Result<Vec<EvaluationRow>> {
        let limit = i64::try_from(n).unwrap_or(i64::MAX);
        let mut stmt = self.conn.prepare_cached(SELECT_BEST)?;
        let rows = stmt.query_map(params![experiment_id, limit], evaluation_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Begins a write transaction that takes the write lock at once (waiting up to the busy
    /// timeout), so it never fails half-way on a stale WAL snapshot.
    fn write_tx(&self) -> rusqlite::Result<Transaction<'_>> {
        Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate)
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

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

fn check_one_of(field: &'static str, value: &str, allowed: &[&str]) -> Result<()> {
    if allowed.contains(&value) {
        Ok(())
    } else {
        Err(DbError::Invalid {
            field,
            reason: format!("{value:?} is not one of {}", allowed.join(", ")),
        })
    }
}

fn check_json(field: &'static str, value: &str) -> Result<()> {
    serde_json::from_str::<serde_json::Value>(value)
        .map(drop)
        .map_err(|e| DbError::Invalid {
            field,
            reason: format!("not JSON: {e}"),
        })
}

/// Turns unique-key and foreign-key violations into [`DbError::Duplicate`] and
/// [`DbError::NoSuchExperiment`].
fn classify(err: rusqlite::Error, experiment_id: i64, config_key: Option<&str>) -> DbError {
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

fn experiment_from_row(r: &Row<'_>) -> rusqlite::Result<ExperimentRow> {
    Ok(ExperimentRow {
        id: r.get(0)?,
        identity_key: r.get(1)?,
        region_id: r.get(2)?,
        device_id: r.get(3)?,
        backend: r.get(4)?,
        input_params_json: r.get(5)?,
        spec_hash: r.get(6)?,
        algorithm: r.get(7)?,
        search_options_json: r.get(8)?,
        seed: r.get::<_, Option<i64>>(9)?.map(|s| s as u64),
        orcl_version: r.get(10)?,
        host: r.get(11)?,
        build_command: r.get(12)?,
        started_at: r.get(13)?,
        finished_at: r.get(14)?,
        status: r.get(15)?,
    })
}

fn evaluation_from_row(r: &Row<'_>) -> rusqlite::Result<EvaluationRow> {
    let samples_json: String = r.get(6)?;
    let samples_ms = serde_json::from_str(&samples_json).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(6, rusqlite::types::Type::Text, Box::new(e))
    })?;
    Ok(EvaluationRow {
        id: Some(r.get(0)?),
        config_key: r.get(1)?,
        config_json: r.get(2)?,
        kernel_hash: r.get(3)?,
        status: r.get(4)?,
        build_ms: r.get(5)?,
        samples_ms,
        median_ms: r.get(7)?,
        transfer_ms: r.get(8)?,
        max_error: r.get(9)?,
        message: r.get(10)?,
        created_at: Some(r.get(11)?),
    })
}

// ---------------------------------------------------------------------------------------------
// Time
// ---------------------------------------------------------------------------------------------

/// The current time as ISO-8601 UTC text with milliseconds (`2024-05-01T12:34:56.789Z`).
pub fn now_utc() -> String {
    format_utc(SystemTime::now())
}

/// Formats a time as ISO-8601 UTC text with milliseconds (`2024-05-01T12:34:56.789Z`); times
/// before 1970 are handled too. Text of years 0–9999 sorts chronologically.
pub fn format_utc(t: SystemTime) -> String {
    let ms: i128 = match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_millis() as i128,
        Err(e) => -(e.duration().as_millis() as i128),
    };
    let secs = ms.div_euclid(1000) as i64;
    let milli = ms.rem_euclid(1000);
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let sod = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{milli:03}Z",
        sod / 3600,
        sod / 60 % 60,
        sod % 60
    )
}

/// Converts days since 1970-01-01 to a proleptic Gregorian `(year, month 1–12, day 1–31)`
/// (Howard Hinnant's `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097); // 400-year eras
    let doe = z.rem_euclid(146_097); // day of era, [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // day of year from March 1, [0, 365]
    let mp = (5 * doy + 2) / 153; // month from March, [0, 11]
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_leap(y: i64) -> bool {
        (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
    }

    #[test]
    fn civil_from_days_known_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(-719_468), (0, 3, 1));
    }

    #[test]
    fn civil_from_days_matches_day_by_day_walk() {
        // Walk 1900-01-01 .. 2400-12-31 one day at a time.
        let mut days = -25_567; // 1900-01-01
        for y in 1900..=2400 {
            for m in 1..=12u32 {
                let len = match m {
                    2 if is_leap(y) => 29,
                    2 => 28,
                    4 | 6 | 9 | 11 => 30,
                    _ => 31,
                };
                for d in 1..=len {
                    assert_eq!(civil_from_days(days), (y, m, d), "day {days}");
                    days += 1;
                }
            }
        }
    }

    #[test]
    fn format_utc_examples() {
        assert_eq!(format_utc(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_millis(1_700_000_000_123);
        assert_eq!(format_utc(t), "2023-11-14T22:13:20.123Z");
        let t = UNIX_EPOCH - Duration::from_millis(1);
        assert_eq!(format_utc(t), "1969-12-31T23:59:59.999Z");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400 + 86_399); // 2000-02-29 23:59:59
        assert_eq!(format_utc(t), "2000-02-29T23:59:59.000Z");
    }

    #[test]
    fn now_is_iso() {
        let s = now_utc();
        assert_eq!(s.len(), 24, "{s}");
        assert!(s.ends_with('Z') && s.as_bytes()[10] == b'T', "{s}");
    }

    #[test]
    fn in_memory_has_current_schema() {
        let db = Db::open_in_memory().unwrap();
        assert_eq!(db.schema_version().unwrap(), SCHEMA_VERSION);
    }

    #[test]
    fn invalid_values_are_refused() {
        let db = Db::open_in_memory().unwrap();
        let e = EvaluationRow {
            config_key: "k".into(),
            config_json: "{}".into(),
            status: "great".into(),
            ..Default::default()
        };
        assert!(matches!(
            db.insert_evaluation(1, &e),
            Err(DbError::Invalid { .. })
        ));
        let e = EvaluationRow {
            status: "ok".into(),
            samples_ms: vec![f64::NAN],
            ..e
        };
        assert!(matches!(
            db.insert_evaluation(1, &e),
            Err(DbError::Invalid { .. })
        ));
        let e = EvaluationRow {
            samples_ms: vec![1.0],
            ..e
        };
        assert!(matches!(
            db.insert_evaluation(1, &e),
            Err(DbError::NoSuchExperiment(1))
        ));
        assert!(matches!(
            db.finish_experiment(1, "done"),
            Err(DbError::NoSuchExperiment(1))
        ));
        assert!(matches!(
            db.finish_experiment(1, "running"),
            Err(DbError::Invalid { .. })
        ));
        assert!(matches!(
            db.set_metadata(7, "a", "b"),
            Err(DbError::NoSuchExperiment(7))
        ));
    }
}

// ---------------------------------------------------------------------------------------------
// Read-only queries for `orcl db` (src/dbcli.rs)
// ---------------------------------------------------------------------------------------------

/// Every experiment with its region, device name, evaluation counts (constraint rejections that
/// `orcl tune` counted in metadata `constraint_rejected` instead of storing rows are added to the
/// evaluations, failures and constraint counts), fastest `ok` median and `winner` metadata,
/// oldest first. Columns 0–15 are `experiment_columns!()` (read by
/// `experiment_from_row`); subqueries avoid ambiguous names.
const SELECT_EXPERIMENT_SUMMARIES: &str = concat!(
    "SELECT ",
    experiment_columns!(),
    ",
    (SELECT file FROM region WHERE region.id = experiment.region_id),
    (SELECT line FROM region WHERE region.id = experiment.region_id),
    (SELECT function FROM region WHERE region.id = experiment.region_id),
    (SELECT name FROM device WHERE device.id = experiment.device_id),
    (SELECT count(*) FROM evaluation WHERE evaluation.experiment_id = experiment.id)
      + coalesce((SELECT CAST(value AS INTEGER) FROM experiment_metadata
      WHERE experiment_metadata.experiment_id = experiment.id
        AND experiment_metadata.key = 'constraint_rejected'), 0),
    (SELECT count(*) FROM evaluation
      WHERE evaluation.experiment_id = experiment.id AND evaluation.status <> 'ok')
      + coalesce((SELECT CAST(value AS INTEGER) FROM experiment_metadata
      WHERE experiment_metadata.experiment_id = experiment.id
        AND experiment_metadata.key = 'constraint_rejected'), 0),
    (SELECT count(*) FROM evaluation
      WHERE evaluation.experiment_id = experiment.id AND evaluation.status = 'constraint')
      + coalesce((SELECT CAST(value AS INTEGER) FROM experiment_metadata
      WHERE experiment_metadata.experiment_id = experiment.id
        AND experiment_metadata.key = 'constraint_rejected'), 0),
    (SELECT min(median_ms) FROM evaluation
      WHERE evaluation.experiment_id = experiment.id AND evaluation.status = 'ok'),
    (SELECT value FROM experiment_metadata
      WHERE experiment_metadata.experiment_id = experiment.id
        AND experiment_metadata.key = 'winner')
FROM experiment ORDER BY id"
);
const SELECT_STATUS_COUNTS: &str =
    "SELECT status, count(*) FROM evaluation WHERE experiment_id = ?1 GROUP BY status";
const SELECT_EVALUATION_BY_KEY: &str = concat!(
    "SELECT ",
    evaluation_columns!(),
    " FROM evaluation WHERE experiment_id = ?1 AND config_key = ?2"
);
const PRAGMA_QUERY_ONLY: &str = "PRAGMA query_only = ON";

/// One experiment as `orcl db list` shows it ([`Db::experiment_summaries`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExperimentSummary {
    /// The `experiment` row.
    pub experiment: ExperimentRow,
    /// `region.file`.
    pub file: String,
    /// `region.line`.
    pub line: u32,
    /// `region.function`.
    pub function: String,
    /// `device.name`.
    pub device_name: String,
    /// Number of evaluations, every status.
    pub evaluations: i64,
    /// Number of evaluations whose status is not `ok` (`constraint` included).
    pub failures: i64,
    /// Number of evaluations with status `constraint` (a subset of `failures`).
    pub constraint: i64,
    /// Lowest `median_ms` of the `ok` evaluations, if any.
    pub best_median_ms: Option<f64>,
    /// The `winner` metadata value (a `config_key`), if the experiment recorded one.
    pub winner: Option<String>,
}

/// Columns and rows of an ad-hoc query ([`Db::query_read_only`]).
#[derive(Debug, Clone, PartialEq)]
pub struct QueryResult {
    /// Column names, in order.
    pub columns: Vec<String>,
    /// One `Vec` per row, one value per column.
    pub rows: Vec<Vec<rusqlite::types::Value>>,
}

/// Why [`Db::query_read_only`] did not run, or failed.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// The statement would write (SQLite's `sqlite3_stmt_readonly` says so), or is an `ATTACH`
    /// or `DETACH`, which SQLite calls read-only but which open other files.
    #[error("only read-only statements are allowed (SELECT, WITH ... SELECT, read-only PRAGMAs); the statement would modify the database")]
    WouldModify,
    /// More SQL follows the first statement.
    #[error("only one statement is allowed; found more SQL after the first `;`")]
    MultipleStatements,
    /// Nothing but whitespace and comments.
    #[error("the query is empty")]
    Empty,
    /// SQLite refused or failed the statement (syntax error, no such table, ...).
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<rusqlite::Error> for QueryError {
    fn from(e: rusqlite::Error) -> Self {
        match e {
            rusqlite::Error::MultipleStatement => QueryError::MultipleStatements,
            e => QueryError::Db(DbError::Sqlite(e)),
        }
    }
}

impl Db {
    /// Every experiment with its region, device name, evaluation counts and fastest `ok`
    /// median, oldest first.
    pub fn experiment_summaries(&self) -> Result<Vec<ExperimentSummary>> {
        let mut stmt = self.conn.prepare_cached(SELECT_EXPERIMENT_SUMMARIES)?;
        let rows = stmt.query_map([], |r| {
            Ok(ExperimentSummary {
                experiment: experiment_from_row(r)?,
                file: r.get::<_, Option<String>>(16)?.unwrap_or_default(),
                line: r.get::<_, Option<u32>>(17)?.unwrap_or_default(),
                function: r.get::<_, Option<String>>(18)?.unwrap_or_default(),
                device_name: r.get::<_, Option<String>>(19)?.unwrap_or_default(),
                evaluations: r.get(20)?,
                failures: r.get(21)?,
                constraint: r.get(22)?,
                best_median_ms: r.get(23)?,
                winner: r.get(24)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The number of evaluations of the experiment per status; statuses without evaluations
    /// are absent.
    pub fn status_counts(&self, experiment_id: i64) -> Result<BTreeMap<String, i64>> {
        let mut stmt = self.conn.prepare_cached(SELECT_STATUS_COUNTS)?;
        let rows = stmt.query_map([experiment_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The evaluation of the experiment with this `config_key`, if any.
    pub fn evaluation_by_key(
        &self,
        experiment_id: i64,
        config_key: &str,
    ) -> Result<Option<EvaluationRow>> {
        Ok(self
            .conn
            .query_row(
                SELECT_EVALUATION_BY_KEY,
                params![experiment_id, config_key],
                evaluation_from_row,
            )
            .optional()?)
    }

    /// Runs one ad-hoc SQL statement that must not write, and returns its columns and rows.
    ///
    /// Refused before anything runs: more than one statement
    /// ([`QueryError::MultipleStatements`]), a statement that SQLite reports as writing
    /// (`sqlite3_stmt_readonly`), and `ATTACH`/`DETACH` ([`QueryError::WouldModify`]). The
    /// connection is also switched to `PRAGMA query_only` first. Open the database with
    /// [`Db::open_read_only`] for a third guard: the file itself is then opened read-only.
    pub fn query_read_only(&self, sql: &str) -> Result<QueryResult, QueryError> {
        self.conn.execute_batch(PRAGMA_QUERY_ONLY)?;
        let mut stmt = self.conn.prepare(sql)?;
        if stmt.column_count() == 0 && sql_is_blank(sql) {
            return Err(QueryError::Empty);
        }
        if !stmt.readonly() || opens_other_database(sql) {
            return Err(QueryError::WouldModify);
        }
        let columns: Vec<String> = stmt.column_names().iter().map(|c| c.to_string()).collect();
        let n = columns.len();
        let mut rows = Vec::new();
        let mut cursor = stmt.query([])?;
        while let Some(row) = cursor.next()? {
            let mut values = Vec::with_capacity(n);
            for i in 0..n {
                values.push(row.get::<_, rusqlite::types::Value>(i)?);
            }
            rows.push(values);
        }
        Ok(QueryResult { columns, rows })
    }
}

/// The SQL with its comments removed and its whitespace collapsed, outside string literals and
/// quoted identifiers (which are kept verbatim): enough to find the first keyword.
fn strip_sql_comments(sql: &str) -> String {
    let b = sql.as_bytes();
    let mut out = String::with_capacity(sql.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'-' if b.get(i + 1) == Some(&b'-') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                out.push(' ');
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i = (i + 2).min(b.len());
                out.push(' ');
            }
            q @ (b'\'' | b'"' | b'`' | b'[') => {
                let close = if q == b'[' { b']' } else { q };
                let start = i;
                i += 1;
                while i < b.len() && b[i] != close {
                    i += 1;
                }
                i = (i + 1).min(b.len());
                out.push_str(&sql[start..i]);
            }
            _ => {
                // Copy one whole UTF-8 character.
                let len = sql[i..].chars().next().map_or(1, char::len_utf8);
                out.push_str(&sql[i..i + len]);
                i += len;
            }
        }
    }
    out
}

/// Whether the SQL is nothing but whitespace, comments and `;`.
fn sql_is_blank(sql: &str) -> bool {
    strip_sql_comments(sql)
        .chars()
        .all(|c| c.is_whitespace() || c == ';')
}

/// Whether the statement starts with `ATTACH` or `DETACH` (SQLite reports both as read-only,
/// but `ATTACH` opens — and may create — another file).
fn opens_other_database(sql: &str) -> bool {
    let s = strip_sql_comments(sql);
    let first: String = s
        .trim_start_matches(|c: char| c.is_whitespace() || c == ';' || c == '(')
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    first.eq_ignore_ascii_case("attach") || first.eq_ignore_ascii_case("detach")
}

// ---------------------------------------------------------------------------------------------
// Imported experiments (src/interchange.rs: `orcl db import`)
// ---------------------------------------------------------------------------------------------

impl Db {
    /// The id of the experiment with this `identity_key`, if any. Unlike
    /// [`Db::open_experiment`] it writes nothing (it never resumes the experiment).
    pub fn find_experiment_id(&self, identity_key: &str) -> Result<Option<i64>> {
        Ok(self
            .conn
            .query_row(FIND_EXPERIMENT, [identity_key], |r| r.get(0))
            .optional()?)
    }

    /// Inserts a complete experiment in one transaction, for importers: the experiment row
    /// (`started_at`, then finished with `status` at `finished_at`), its `metadata` pairs and its
    /// `evaluations` in order. A failed insert leaves nothing behind. An evaluation's
    /// `created_at`, when set, is kept (imports keep the original times); otherwise it is now.
    ///
    /// If `e.identity_key` already exists nothing is written and `(existing id, false)` is
    /// returned; otherwise `(new id, true)`.
    ///
    /// Errors: [`DbError::Invalid`] (unknown backend or status, invalid JSON, non-finite sample),
    /// [`DbError::Duplicate`] (two evaluations with one `config_key`).
    pub fn insert_finished_experiment(
        &self,
        e: &NewExperiment,
        status: &str,
        started_at: &str,
        finished_at: &str,
        metadata: &[(String, String)],
        evaluations: &[EvaluationRow],
    ) -> Result<(i64, bool)> {
        check_one_of("experiment.backend", &e.backend, &BACKENDS)?;
        check_one_of("experiment.status", status, &EXPERIMENT_STATUSES[1..])?;
        check_json("experiment.input_params_json", &e.input_params_json)?;
        check_json("experiment.search_options_json", &e.search_options_json)?;
        let mut samples = Vec::with_capacity(evaluations.len());
        for ev in evaluations {
            check_one_of("evaluation.status", &ev.status, &EVALUATION_STATUSES)?;
            check_json("evaluation.config_json", &ev.config_json)?;
            if let Some(bad) = ev.samples_ms.iter().find(|s| !s.is_finite()) {
                return Err(DbError::Invalid {
                    field: "evaluation.samples_ms",
                    reason: format!("non-finite sample {bad}"),
                });
            }
            samples.push(serde_json::to_string(&ev.samples_ms).expect("finite f64s serialise"));
        }
        let tx = self.write_tx()?;
        let existing: Option<i64> = tx
            .query_row(FIND_EXPERIMENT, [&e.identity_key], |r| r.get(0))
            .optional()?;
        if let Some(id) = existing {
            return Ok((id, false));
        }
        tx.execute(
            INSERT_EXPERIMENT,
            params![
                e.identity_key,
                e.region_id,
                e.device_id,
                e.backend,
                e.input_params_json,
                e.spec_hash,
                e.algorithm,
                e.search_options_json,
                e.seed.map(|s| s as i64),
                e.orcl_version,
                e.host,
                e.build_command,
                started_at
            ],
        )?;
        let id = tx.last_insert_rowid();
        for (key, value) in metadata {
            tx.execute(SET_METADATA, params![id, key, value])
                .map_err(|err| classify(err, id, None))?;
        }
        {
            let mut stmt = tx.prepare_cached(INSERT_EVALUATION)?;
            for (ev, samples) in evaluations.iter().zip(&samples) {
                let created = ev.created_at.clone().unwrap_or_else(now_utc);
                stmt.execute(params![
                    id,
                    ev.config_key,
                    ev.config_json,
                    ev.kernel_hash,
                    ev.status,
                    ev.build_ms,
                    samples,
                    ev.median_ms,
                    ev.transfer_ms,
                    ev.max_error,
                    ev.message,
                    created,
                    None::<i64>
                ])
                .map_err(|err| classify(err, id, Some(&ev.config_key)))?;
            }
        }
        tx.execute(FINISH_EXPERIMENT, params![id, status, finished_at])?;
        tx.commit()?;
        Ok((id, true))
    }
}
