//! Evaluations: one committed transaction per evaluated configuration; reading them back.

use rusqlite::{params, Row};
use serde::{Deserialize, Serialize};

use super::schema::{check_json, check_one_of, classify};
use super::sql::{
    INSERT_EVALUATION, SELECT_BEST, SELECT_BEST_V2, SELECT_EVALUATIONS, SELECT_EVALUATIONS_V2,
    SELECT_EVALUATION_DEVICES,
};
use super::time::now_utc;
use super::{Db, DbError, Result, EVALUATION_STATUSES};

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
    /// Energy of one call (J), measured over an energy window (docs/ENERGY.md); `None` where not
    /// measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy_j: Option<f64>,
    /// Average device power over that window (W).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_w: Option<f64>,
}

impl Db {
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
                device_index.and_then(|d| i64::try_from(d).ok()),
                e.energy_j.filter(|x| x.is_finite()),
                e.power_w.filter(|x| x.is_finite())
            ],
        )
        .map_err(|err| classify(err, experiment_id, Some(&e.config_key)))?;
        let id = tx.last_insert_rowid();
        tx.commit()?;
        Ok(id)
    }

    /// All evaluations of the experiment, in insertion order.
    pub fn evaluations(&self, experiment_id: i64) -> Result<Vec<EvaluationRow>> {
        let q = if self.has_energy()? {
            SELECT_EVALUATIONS
        } else {
            SELECT_EVALUATIONS_V2
        };
        let mut stmt = self.conn.prepare_cached(q)?;
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
        let q = if self.has_energy()? {
            SELECT_BEST
        } else {
            SELECT_BEST_V2
        };
        let mut stmt = self.conn.prepare_cached(q)?;
        let rows = stmt.query_map(params![experiment_id, limit], evaluation_from_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

impl Db {
    /// Whether the file has `evaluation.energy_j` and `power_w` (schema 3 or later; an older file
    /// opened read-only is not migrated).
    pub(super) fn has_energy(&self) -> Result<bool> {
        Ok(self.schema_version()? >= 3)
    }
}

pub(super) fn evaluation_from_row(r: &Row<'_>) -> rusqlite::Result<EvaluationRow> {
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
        // Absent (not NULL) in the `_V2` statements.
        energy_j: r.get(12).unwrap_or(None),
        power_w: r.get(13).unwrap_or(None),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
