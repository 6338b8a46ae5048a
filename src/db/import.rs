//! Imported experiments (src/interchange: `orcl db import`): a whole finished experiment in
//! one transaction.

use rusqlite::{params, OptionalExtension};

use super::schema::{check_json, check_one_of, classify};
use super::sql::{FIND_EXPERIMENT, FINISH_EXPERIMENT, INSERT_EVALUATION, SET_METADATA};
use super::time::now_utc;
use super::{
    Db, DbError, EvaluationRow, NewExperiment, Result, BACKENDS, EVALUATION_STATUSES,
    EXPERIMENT_STATUSES,
};

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
        super::experiments::insert_experiment(&tx, e, started_at)?;
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
                    None::<i64>,
                    ev.energy_j.filter(|x| x.is_finite()),
                    ev.power_w.filter(|x| x.is_finite())
                ])
                .map_err(|err| classify(err, id, Some(&ev.config_key)))?;
            }
        }
        tx.execute(FINISH_EXPERIMENT, params![id, status, finished_at])?;
        tx.commit()?;
        Ok((id, true))
    }
}
