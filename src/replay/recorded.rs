//! A recorded experiment as a search space with known outcomes (the replay's ground truth).

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use anyhow::{anyhow, bail, Context, Result};
use orcl_frontend::expr::Value;
use orcl_frontend::space::{Configuration, Param, Rejection, SearchSpace};
use orcl_search::random::PERMUTATION_LIMIT;

use crate::db::EvaluationRow;

/// What a proposed configuration costs and returns in replay.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Outcome {
    /// Recorded as `constraint` (or not recorded): free, never observed.
    Infeasible,
    /// Recorded as `device_limit`: free, observed as a failure.
    DeviceLimit,
    /// A measurement: `Some(median_ms)` for `ok`, `None` for a failure.
    Measured(Option<f64>),
}

/// A recorded experiment, ready to replay.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub experiment: i64,
    /// The experiment's search algorithm as stored.
    pub algorithm: String,
    /// The grid rebuilt from the recorded values, with no constraint expressions; its prefilter
    /// rejects the configurations recorded as `constraint` or `device_limit`, and unrecorded ones.
    pub space: SearchSpace,
    /// Canonical configuration key → outcome.
    pub(super) outcomes: HashMap<String, Outcome>,
    /// Number of measurements: recorded evaluations whose status is neither `constraint` nor
    /// `device_limit`.
    pub space_size: u64,
    /// Recorded `constraint` evaluations.
    pub constraint: u64,
    /// Recorded `device_limit` evaluations (free, like `constraint` ones).
    pub device_limit: u64,
    /// Grid configurations that are not recorded (taken as infeasible; only for `Exhaustive`).
    pub unrecorded: u64,
    /// The best recorded time, ms.
    pub best_ms: f64,
    /// A configuration with the best time (the first in grid order).
    pub best: Configuration,
}

impl Recorded {
    /// Load experiment `experiment` of the database at `db` (opened read-only).
    ///
    /// Errors: no such experiment, no evaluations, an incomplete recorded space (see the module
    /// documentation), no `ok` evaluation.
    pub fn load(db: &Path, experiment: i64) -> Result<Recorded> {
        let conn = crate::db::open_for_reading(db)?;
        let exp = conn
            .experiment(experiment)
            .with_context(|| format!("reading {}", db.display()))?
            .ok_or_else(|| anyhow!("no experiment with id {experiment} in {}", db.display()))?;
        let rows = conn
            .evaluations(experiment)
            .with_context(|| format!("reading {}", db.display()))?;
        // Since issue 15 F8, `orcl tune` counts constraint rejections (metadata
        // `constraint_rejected`) instead of storing a row each.
        let counted = conn
            .metadata(experiment)
            .with_context(|| format!("reading {}", db.display()))?
            .get("constraint_rejected")
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0);
        Recorded::from_rows_counted(experiment, &exp.algorithm, &rows, counted)
    }

    /// Build from the evaluations of experiment `experiment`, whose search algorithm was
    /// `algorithm`.
    pub fn from_rows(experiment: i64, algorithm: &str, rows: &[EvaluationRow]) -> Result<Recorded> {
        Recorded::from_rows_counted(experiment, algorithm, rows, 0)
    }

    /// As [`Recorded::from_rows`], for an experiment whose tune counted `constraint_rejected`
    /// configurations as breaking a constraint without storing them: when exactly that many
    /// configurations of the rebuilt grid are unrecorded, they are those, and the recorded space
    /// is complete.
    pub fn from_rows_counted(
        experiment: i64,
        algorithm: &str,
        rows: &[EvaluationRow],
        constraint_rejected: u64,
    ) -> Result<Recorded> {
        if rows.is_empty() {
            bail!("experiment {experiment} has no evaluations: nothing to replay");
        }
        let (names, configs) = recorded_values(experiment, rows)?;
        let mut space = SearchSpace {
            params: grid_params(&names, &configs).into(),
            constraints: Arc::from([]),
            fixed: BTreeMap::new(),
            prefilter: None,
        };

        let mut outcomes: HashMap<String, Outcome> = HashMap::with_capacity(rows.len());
        let mut rejections: HashMap<String, Option<Rejection>> = HashMap::with_capacity(rows.len());
        let mut best: Option<(f64, u64)> = None;
        for (row, values) in rows.iter().zip(&configs) {
            let config = Configuration {
                values: names
                    .iter()
                    .map(|n| Arc::from(n.as_str()))
                    .zip(values.iter().cloned())
                    .collect(),
            };
            let outcome = outcome_of(row);
            rejections
                .entry(config.key())
                .or_insert(rejection_of(outcome, row));
            if let Outcome::Measured(Some(ms)) = outcome {
                let index = space.index_of(&config).unwrap_or(u64::MAX);
                if best.is_none_or(|(b, i)| ms < b || (ms == b && index < i)) {
                    best = Some((ms, index));
                }
            }
            outcomes.entry(config.key()).or_insert(outcome);
        }

        let recorded = outcomes.len() as u64;
        let unrecorded =
            check_complete(experiment, algorithm, &space, recorded, constraint_rejected)?;
        let constraint = outcomes
            .values()
            .filter(|o| **o == Outcome::Infeasible)
            .count() as u64;
        let device_limit = outcomes
            .values()
            .filter(|o| **o == Outcome::DeviceLimit)
            .count() as u64;
        let space_size = recorded - constraint - device_limit;
        let rejections = Arc::new(rejections);
        space = space.with_prefilter(move |c: &Configuration| match rejections.get(&c.key()) {
            Some(r) => r.clone(),
            None => Some(Rejection::Constraint("not recorded".into())),
        });
        let Some((best_ms, best_index)) = best else {
            bail!("experiment {experiment} has no successful (`ok`) evaluation: there is no optimum to find");
        };
        let best = space.config_at(best_index);
        Ok(Recorded {
            experiment,
            algorithm: algorithm.to_string(),
            space,
            outcomes,
            space_size,
            constraint,
            device_limit,
            unrecorded,
            best_ms,
            best,
        })
    }

    /// A note for the user when unrecorded grid points are taken as infeasible.
    pub fn note(&self) -> Option<String> {
        (self.unrecorded > 0).then(|| {
            format!(
                "{} of the {} configurations of experiment {}'s recorded grid are not recorded; as the experiment's algorithm is {}, replay takes them as infeasible",
                self.unrecorded,
                self.space.size(),
                self.experiment,
                self.algorithm
            )
        })
    }

    /// One line describing the replayed space and its optimum.
    pub fn describe(&self) -> String {
        let limits = if self.device_limit > 0 {
            format!(", {} over the device limits", self.device_limit)
        } else {
            String::new()
        };
        format!(
            "experiment {}: {} measured configurations ({} infeasible{limits}, grid of {}); optimum {:.4} ms at {}",
            self.experiment,
            self.space_size,
            self.constraint + self.unrecorded,
            self.space.size(),
            self.best_ms,
            self.best.display()
        )
    }
}

/// The parameter names in the order of the first configuration key, and each row's values in
/// that order. Errors: an invalid key, or a row whose parameters differ from the first row's.
fn recorded_values(
    experiment: i64,
    rows: &[EvaluationRow],
) -> Result<(Vec<String>, Vec<Vec<Value>>)> {
    let mut names: Vec<String> = Vec::new();
    let mut configs: Vec<Vec<Value>> = Vec::with_capacity(rows.len());
    for (k, row) in rows.iter().enumerate() {
        let c = Configuration::from_key(&row.config_key).with_context(|| {
            format!(
                "experiment {experiment}: invalid configuration key {}",
                row.config_key
            )
        })?;
        if k == 0 {
            names = c.values.iter().map(|(n, _)| n.to_string()).collect();
        }
        let same = c.values.len() == names.len() && names.iter().all(|n| c.get(n).is_some());
        if !same {
            bail!(
                "experiment {experiment}: configuration {} does not have the parameters {} of {}",
                row.config_key,
                names.join(", "),
                rows[0].config_key
            );
        }
        configs.push(names.iter().map(|n| c.get(n).cloned().unwrap()).collect());
    }
    Ok((names, configs))
}

/// The grid's parameters: each with its distinct recorded values in natural order.
fn grid_params(names: &[String], configs: &[Vec<Value>]) -> Vec<Param> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut values: Vec<Value> = Vec::new();
            for c in configs {
                if !values.contains(&c[i]) {
                    values.push(c[i].clone());
                }
            }
            values.sort_by(natural_cmp);
            Param {
                name: Arc::from(name.as_str()),
                values: values.into(),
            }
        })
        .collect()
}

/// What proposing the configuration of `row` costs and returns in replay.
fn outcome_of(row: &EvaluationRow) -> Outcome {
    match row.status.as_str() {
        "constraint" => Outcome::Infeasible,
        "device_limit" => Outcome::DeviceLimit,
        "ok" => Outcome::Measured(row.median_ms.filter(|m| m.is_finite())),
        _ => Outcome::Measured(None),
    }
}

/// The prefilter's answer for the configuration of `row`.
fn rejection_of(outcome: Outcome, row: &EvaluationRow) -> Option<Rejection> {
    match outcome {
        Outcome::Infeasible => Some(Rejection::Constraint(constraint_name(row))),
        Outcome::DeviceLimit => Some(Rejection::DeviceLimit(
            row.message
                .clone()
                .unwrap_or_else(|| "recorded as device_limit".into()),
        )),
        Outcome::Measured(_) => None,
    }
}

/// The number of unrecorded configurations of the rebuilt grid, when the recorded space counts
/// as complete (none unrecorded, an `Exhaustive` experiment, or exactly the `constraint_rejected`
/// it counted); an error otherwise.
fn check_complete(
    experiment: i64,
    algorithm: &str,
    space: &SearchSpace,
    recorded: u64,
    constraint_rejected: u64,
) -> Result<u64> {
    let grid = space.size();
    let unrecorded = grid.saturating_sub(recorded);
    if unrecorded > 0 {
        let exhaustive = algorithm.trim().eq_ignore_ascii_case("exhaustive")
            || unrecorded == constraint_rejected;
        let sizes: Vec<String> = space
            .params
            .iter()
            .map(|p| format!("{} {}", p.values.len(), p.name))
            .collect();
        if !exhaustive {
            bail!(
                "experiment {experiment} is not exhaustive: {unrecorded} of the {grid} configurations of its recorded grid ({}) are missing; replay needs a complete recorded space (tune with `--search Exhaustive`)",
                sizes.join(" × ")
            );
        }
        if grid > PERMUTATION_LIMIT {
            bail!(
                "experiment {experiment}: its recorded grid ({}) has {grid} configurations but only {recorded} are recorded; replay needs a complete recorded space",
                sizes.join(" × ")
            );
        }
    }
    Ok(unrecorded)
}

/// The constraint a `constraint` row breaks, from its message (`breaks constraint `NAME``).
fn constraint_name(row: &EvaluationRow) -> String {
    row.message
        .as_deref()
        .and_then(|m| m.split('`').nth(1))
        .filter(|n| !n.is_empty())
        .unwrap_or("recorded as constraint")
        .to_string()
}

/// Natural order of recorded values: `False < True` < numbers (numerically; an `Int` before an
/// equal `Float`) < strings (lexicographically) < lists (element by element).
pub fn natural_cmp(a: &Value, b: &Value) -> Ordering {
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Bool(_) => 0,
            Value::Int(_) | Value::Float(_) => 1,
            Value::Str(_) => 2,
            Value::List(_) => 3,
        }
    }
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Int(x), Value::Int(y)) => x.cmp(y),
        (Value::Float(x), Value::Float(y)) => x.total_cmp(y),
        (Value::Int(x), Value::Float(y)) => (*x as f64).total_cmp(y).then(Ordering::Less),
        (Value::Float(x), Value::Int(y)) => x.total_cmp(&(*y as f64)).then(Ordering::Greater),
        (Value::Str(x), Value::Str(y)) => x.cmp(y),
        (Value::List(x), Value::List(y)) => x
            .iter()
            .zip(y.iter())
            .map(|(p, q)| natural_cmp(p, q))
            .find(|o| o.is_ne())
            .unwrap_or(x.len().cmp(&y.len())),
        _ => rank(a).cmp(&rank(b)),
    }
}
