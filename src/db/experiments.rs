//! Experiments: opening (or resuming) one, finishing it, its metadata, reading them back.

use std::collections::BTreeMap;

use rusqlite::{params, OptionalExtension, Row};
use serde::{Deserialize, Serialize};

use super::schema::{check_json, check_one_of, classify};
use super::sql::{
    FIND_EXPERIMENT, FINISH_EXPERIMENT, INSERT_EXPERIMENT, RESUME_EXPERIMENT, SELECT_EXPERIMENT,
    SELECT_EXPERIMENTS, SELECT_EXPERIMENTS_OF_LOOP, SELECT_METADATA, SET_METADATA,
};
use super::time::now_utc;
use super::{Db, DbError, Result, BACKENDS, EXPERIMENT_STATUSES};

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

impl Db {
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
                insert_experiment(&tx, e, &now_utc())?;
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

    /// The experiments of every region whose loop hash is `loop_hash` (the same loop and
    /// measurement settings, in any file), oldest first: where `orcl tune --warm-start` looks.
    pub fn experiments_of_loop(&self, loop_hash: &str) -> Result<Vec<ExperimentRow>> {
        let mut stmt = self.conn.prepare_cached(SELECT_EXPERIMENTS_OF_LOOP)?;
        let rows = stmt.query_map([loop_hash], experiment_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// All experiments, oldest first.
    pub fn list_experiments(&self) -> Result<Vec<ExperimentRow>> {
        let mut stmt = self.conn.prepare_cached(SELECT_EXPERIMENTS)?;
        let rows = stmt.query_map([], experiment_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

/// Insert the experiment row of `e`, started at `started_at` (ISO-8601 UTC); used by
/// [`Db::open_experiment`] (now) and by imports (the recorded start).
pub(super) fn insert_experiment(
    tx: &rusqlite::Transaction<'_>,
    e: &NewExperiment,
    started_at: &str,
) -> rusqlite::Result<usize> {
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
    )
}

pub(super) fn experiment_from_row(r: &Row<'_>) -> rusqlite::Result<ExperimentRow> {
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
