//! Every SQL statement of the database, as `const`s. Schema changes are appended to
//! `MIGRATIONS`, never edited in place.

pub(super) const PRAGMA_JOURNAL_WAL: &str = "PRAGMA journal_mode = WAL";
pub(super) const PRAGMA_FOREIGN_KEYS: &str = "PRAGMA foreign_keys = ON";

pub(super) const CREATE_META: &str =
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)";
pub(super) const META_TABLE_EXISTS: &str =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'";
/// How many schema objects (tables, indexes, views, triggers) the file holds: 0 for a new or
/// empty database.
pub(super) const SCHEMA_OBJECTS: &str = "SELECT count(*) FROM sqlite_master";
pub(super) const SELECT_SCHEMA_VERSION: &str =
    "SELECT value FROM meta WHERE key = 'schema_version'";
pub(super) const SET_SCHEMA_VERSION: &str =
    "INSERT INTO meta (key, value) VALUES ('schema_version', ?1)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value";

/// Version 0 → 1: the initial schema.
pub(super) const MIGRATION_1: &str = "
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
pub(super) const MIGRATION_2: &str = "ALTER TABLE evaluation ADD COLUMN device_index INTEGER";

/// Version 2 → 3 (issue 27, energy as an objective): the energy of one call of the variant (J)
/// and the device's average power (W) over the energy window that measured it (docs/ENERGY.md).
/// NULL: not measured (objective `kernel`/`total`, no energy counter, older rows, imports
/// without energy).
pub(super) const MIGRATION_3: &str = "
ALTER TABLE evaluation ADD COLUMN energy_j REAL;
ALTER TABLE evaluation ADD COLUMN power_w REAL;
";

/// Forward migrations: `MIGRATIONS[i]` takes the schema from version `i` to `i + 1`.
/// Append, never edit.
pub(super) const MIGRATIONS: &[&str] = &[MIGRATION_1, MIGRATION_2, MIGRATION_3];

pub(super) const UPSERT_DEVICE: &str = "
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
pub(super) const SELECT_DEVICE: &str = "
SELECT backend, platform, name, vendor, driver_version, device_version, compute_units,
    max_work_group_size, local_mem_bytes, global_mem_bytes, max_clock_mhz, fingerprint,
    properties_json
FROM device WHERE id = ?1";

pub(super) const UPSERT_REGION: &str = "
INSERT INTO region (file, line, function, loop_hash, transform_text) VALUES (?1, ?2, ?3, ?4, ?5)
ON CONFLICT (file, loop_hash) DO UPDATE SET
    line = excluded.line, function = excluded.function, transform_text = excluded.transform_text
RETURNING id";
pub(super) const SELECT_REGION: &str =
    "SELECT file, line, function, loop_hash, transform_text FROM region WHERE id = ?1";

pub(super) const FIND_EXPERIMENT: &str = "SELECT id FROM experiment WHERE identity_key = ?1";
pub(super) const RESUME_EXPERIMENT: &str =
    "UPDATE experiment SET status = 'running', finished_at = NULL WHERE id = ?1";
pub(super) const INSERT_EXPERIMENT: &str = "
INSERT INTO experiment (identity_key, region_id, device_id, backend, input_params_json,
    spec_hash, algorithm, search_options_json, seed, orcl_version, host, build_command,
    started_at, finished_at, status)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, NULL, 'running')";
pub(super) const FINISH_EXPERIMENT: &str =
    "UPDATE experiment SET status = ?2, finished_at = ?3 WHERE id = ?1";
macro_rules! experiment_columns {
    () => {
        "id, identity_key, region_id, device_id, backend, input_params_json, spec_hash, \
         algorithm, search_options_json, seed, orcl_version, host, build_command, started_at, \
         finished_at, status"
    };
}
pub(super) const SELECT_EXPERIMENT: &str = concat!(
    "SELECT ",
    experiment_columns!(),
    " FROM experiment WHERE id = ?1"
);
pub(super) const SELECT_EXPERIMENTS_OF_LOOP: &str = concat!(
    "SELECT ",
    experiment_columns!(),
    " FROM experiment WHERE region_id IN (SELECT id FROM region WHERE loop_hash = ?1) ORDER BY id"
);
pub(super) const SELECT_EXPERIMENTS: &str = concat!(
    "SELECT ",
    experiment_columns!(),
    " FROM experiment ORDER BY id"
);

pub(super) const SET_METADATA: &str = "
INSERT INTO experiment_metadata (experiment_id, key, value) VALUES (?1, ?2, ?3)
ON CONFLICT (experiment_id, key) DO UPDATE SET value = excluded.value";
pub(super) const SELECT_METADATA: &str =
    "SELECT key, value FROM experiment_metadata WHERE experiment_id = ?1 ORDER BY key";

pub(super) const INSERT_EVALUATION: &str = "
INSERT INTO evaluation (experiment_id, config_key, config_json, kernel_hash, status, build_ms,
    samples_ms_json, median_ms, transfer_ms, max_error, message, created_at, device_index,
    energy_j, power_w)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)";
pub(super) const SELECT_EVALUATION_DEVICES: &str =
    "SELECT config_key, device_index FROM evaluation WHERE experiment_id = ?1 ORDER BY id";
/// The columns `evaluation_from_row` reads; a schema-1 or -2 file (read-only) has no
/// `energy_j, power_w` and is read with the `_V2` statements.
macro_rules! evaluation_columns_v2 {
    () => {
        "id, config_key, config_json, kernel_hash, status, build_ms, samples_ms_json, median_ms, \
         transfer_ms, max_error, message, created_at"
    };
}
macro_rules! evaluation_columns {
    () => {
        concat!(evaluation_columns_v2!(), ", energy_j, power_w")
    };
}
pub(super) const SELECT_EVALUATIONS_V2: &str = concat!(
    "SELECT ",
    evaluation_columns_v2!(),
    " FROM evaluation WHERE experiment_id = ?1 ORDER BY id"
);
pub(super) const SELECT_BEST_V2: &str = concat!(
    "SELECT ",
    evaluation_columns_v2!(),
    " FROM evaluation WHERE experiment_id = ?1 AND status = 'ok' AND median_ms IS NOT NULL
      ORDER BY median_ms ASC, id ASC LIMIT ?2"
);
pub(super) const SELECT_EVALUATION_BY_KEY_V2: &str = concat!(
    "SELECT ",
    evaluation_columns_v2!(),
    " FROM evaluation WHERE experiment_id = ?1 AND config_key = ?2"
);
pub(super) const SELECT_EVALUATIONS: &str = concat!(
    "SELECT ",
    evaluation_columns!(),
    " FROM evaluation WHERE experiment_id = ?1 ORDER BY id"
);
pub(super) const SELECT_BEST: &str = concat!(
    "SELECT ",
    evaluation_columns!(),
    " FROM evaluation WHERE experiment_id = ?1 AND status = 'ok' AND median_ms IS NOT NULL
      ORDER BY median_ms ASC, id ASC LIMIT ?2"
);

/// Every experiment with its region, device name, evaluation counts (constraint rejections that
/// `orcl tune` counted in metadata `constraint_rejected` instead of storing rows are added to the
/// evaluations and constraint counts; failures are the other statuses but `ok`), fastest `ok` median and `winner` metadata,
/// oldest first. Columns 0–15 are `experiment_columns!()` (read by
/// `experiment_from_row`); subqueries avoid ambiguous names.
pub(super) const SELECT_EXPERIMENT_SUMMARIES: &str = concat!(
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
    (SELECT count(*) FROM evaluation WHERE evaluation.experiment_id = experiment.id
      AND evaluation.status NOT IN ('ok', 'constraint')),
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
/// The failures of an experiment grouped by status (every status but `ok` and `constraint`), most
/// frequent first: status, count, and the message and configuration key of the first such
/// evaluation (lowest id).
pub(super) const SELECT_FAILURE_GROUPS: &str = "
    SELECT status, count(*),
      (SELECT message FROM evaluation f
        WHERE f.experiment_id = ?1 AND f.status = evaluation.status ORDER BY f.id LIMIT 1),
      (SELECT config_key FROM evaluation f
        WHERE f.experiment_id = ?1 AND f.status = evaluation.status ORDER BY f.id LIMIT 1)
    FROM evaluation WHERE experiment_id = ?1 AND status NOT IN ('ok', 'constraint')
    GROUP BY status ORDER BY count(*) DESC, status";
pub(super) const SELECT_STATUS_COUNTS: &str =
    "SELECT status, count(*) FROM evaluation WHERE experiment_id = ?1 GROUP BY status";
pub(super) const SELECT_EVALUATION_BY_KEY: &str = concat!(
    "SELECT ",
    evaluation_columns!(),
    " FROM evaluation WHERE experiment_id = ?1 AND config_key = ?2"
);
pub(super) const PRAGMA_QUERY_ONLY: &str = "PRAGMA query_only = ON";
