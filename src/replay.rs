//! `orcl replay`: runs search strategies against a recorded exhaustive experiment, with no device
//! (DESIGN.md §6, replay mode).
//!
//! The experiment's evaluations are the ground truth. The search space is rebuilt from them: the
//! parameters in the order of the configuration keys, each with the distinct recorded values in
//! natural order (numbers numerically, `False < True`, strings lexicographically). What the
//! recording knows before building a configuration becomes the space's
//! [`Prefilter`](orcl_frontend::space::Prefilter), as `orcl tune` knows it from the constraints and the
//! device limits: configurations recorded as `constraint` (or not recorded, see below) break a
//! constraint, those recorded as `device_limit` exceed the device. Each strategy then runs on that
//! space once per seed, and every configuration it proposes is looked up instead of measured:
//!
//! - recorded with a measurement status: `ok` is observed as its `median_ms`, any failure
//!   (`compile_error`, `crash`, `timeout`, `wrong_result`, ...) as `None`; both spend one
//!   evaluation of the budget, as on a real device;
//! - recorded as `constraint` or `device_limit`, or not recorded at all: free, as in `orcl tune`,
//!   where neither is ever run (a `device_limit` configuration is observed as `None`). The
//!   adaptive strategies never propose them; Exhaustive and Random propose them and pay nothing.
//!
//! A run stops when it has spent the budget or the strategy has nothing more to propose. Per seed,
//! `fraction = best_ms / best time found` (1 = the optimum, 0 = nothing measured successfully), and
//! `hit` = the run found an optimal configuration (the best recorded time). Over the seeds the
//! summary gives the median (mean of the two middle values for an even count), the **nearest-rank
//! 10th percentile** `p10` (the ⌈0.1·n⌉-th smallest of the n fractions) and the mean of the
//! fraction, and the share of seeds that hit the optimum. Strategies are seeded with the seed
//! number and use their default options, so the same arguments always give the same output.
//!
//! Replay needs a complete recorded space: every configuration of the rebuilt grid must be
//! recorded, unless the experiment's algorithm is `Exhaustive` (e.g. an imported run that did not
//! record infeasible points), or the number of unrecorded points is the experiment's
//! `constraint_rejected` count (`orcl tune` counts constraint-breaking configurations instead of
//! storing them); the unrecorded points are then taken as infeasible.

use crate::db::{Db, EvaluationRow};
use anyhow::{anyhow, bail, Context, Result};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use orcl_frontend::expr::Value;
use orcl_frontend::expr::Value as SpecValue;
use orcl_frontend::space::{Configuration, Param, Rejection, SearchSpace};
use orcl_frontend::spec::Located;
use orcl_search::{algorithm_names, make_strategy, random::PERMUTATION_LIMIT, Strategy};
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

/// Most configurations proposed per `propose` call (as `orcl tune` does).
const BATCH: u64 = 16;

/// Replay `algorithm` (or `all`) on `experiment` with each of the comma-separated `budget`s over
/// `seeds` seeds, and print the summaries: a table (one row per budget and algorithm), or JSON (one
/// object, or an array for `all` or several budgets, budget by budget).
pub fn run(
    db: &Path,
    experiment: i64,
    algorithm: &str,
    budget: &str,
    seeds: u64,
    json: bool,
) -> Result<()> {
    let (recorded, summaries) = replay(db, experiment, algorithm, budget, seeds)?;
    if let Some(note) = recorded.note() {
        orcl_frontend::errln!("note: {note}");
    }
    if json {
        let list = is_all(algorithm) || budget.contains(',');
        orcl_frontend::outln!("{}", render_json(&summaries, list));
    } else {
        orcl_frontend::outln!("{}", recorded.describe());
        orcl_frontend::outln!("{}", render_table(&summaries));
    }
    Ok(())
}

/// Validate the arguments, load the experiment and replay every selected algorithm with each
/// budget of the comma-separated list `budget` (summaries budget by budget, algorithms in order).
pub fn replay(
    db: &Path,
    experiment: i64,
    algorithm: &str,
    budget: &str,
    seeds: u64,
) -> Result<(Recorded, Vec<Summary>)> {
    let algorithms = resolve_algorithms(algorithm)?;
    let budgets = Budget::parse_list(budget)?;
    if seeds == 0 {
        bail!("--seeds must be at least 1");
    }
    let recorded = Recorded::load(db, experiment)?;
    let mut summaries = Vec::with_capacity(budgets.len() * algorithms.len());
    for b in budgets {
        let budget = b.evaluations(recorded.space_size);
        for a in &algorithms {
            summaries.push(recorded.summarize(a, budget, seeds)?);
        }
    }
    Ok((recorded, summaries))
}

fn is_all(algorithm: &str) -> bool {
    algorithm.trim().eq_ignore_ascii_case("all")
}

/// The canonical names of the algorithms `arg` selects: every implemented one for `all`.
///
/// Errors: an unknown algorithm, with a did-you-mean suggestion.
pub fn resolve_algorithms(arg: &str) -> Result<Vec<&'static str>> {
    if is_all(arg) {
        return Ok(algorithm_names());
    }
    match make_strategy(arg, &[], 0) {
        Ok(s) => Ok(vec![s.name()]),
        Err(d) => {
            let help = match d.help {
                Some(h) if h.starts_with("did you mean") => h,
                other => {
                    orcl_frontend::diag::did_you_mean(&arg.trim().to_ascii_lowercase(), ["all"])
                        .or(other)
                        .unwrap_or_default()
                }
            };
            let names = algorithm_names().join(", ");
            Err(anyhow!(
                "--algorithm: {}; {help} (the algorithms are {names}, or `all`)",
                d.message
            ))
        }
    }
}

/// The evaluation budget of one strategy run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Budget {
    /// A number of evaluations (≥ 1).
    Evaluations(u64),
    /// A share of the measured space, in percent (0 < p ≤ 100).
    Percent(f64),
}

impl Budget {
    /// `50` (evaluations) or `5%` (of the space).
    ///
    /// Errors: not a positive integer or a percentage in (0, 100].
    pub fn parse(s: &str) -> Result<Budget> {
        let t = s.trim();
        let usage = "use a number of evaluations (`50`) or a share of the space (`5%`)";
        if let Some(p) = t.strip_suffix('%') {
            let p: f64 = p
                .trim()
                .parse()
                .ok()
                .filter(|p: &f64| p.is_finite())
                .ok_or_else(|| anyhow!("invalid budget `{s}`: {usage}"))?;
            if p <= 0.0 || p > 100.0 {
                bail!("invalid budget `{s}`: a share of the space must be more than 0% and at most 100%");
            }
            return Ok(Budget::Percent(p));
        }
        match t.parse::<u64>() {
            Ok(0) => bail!("invalid budget `{s}`: at least 1 evaluation is needed"),
            Ok(n) => Ok(Budget::Evaluations(n)),
            Err(_) => bail!("invalid budget `{s}`: {usage}"),
        }
    }

    /// A comma-separated list of budgets (`1%,3%,5%,100`), in the order given.
    ///
    /// Errors: an element that [`Budget::parse`] refuses (an empty one included).
    pub fn parse_list(s: &str) -> Result<Vec<Budget>> {
        s.split(',').map(Budget::parse).collect()
    }

    /// The number of evaluations for a space of `space_size` measurements: at least 1 and at
    /// most `space_size` (when it is not 0). A percentage is rounded up (`5%` of 30 is 2).
    pub fn evaluations(self, space_size: u64) -> u64 {
        let n = match self {
            Budget::Evaluations(n) => n,
            Budget::Percent(p) => {
                let x = p * space_size as f64 / 100.0;
                let r = x.round();
                // 10% of 30 is 3, although 0.1 * 30 is not exactly 3 in binary.
                if (x - r).abs() <= 1e-9 * x.max(1.0) {
                    r as u64
                } else {
                    x.ceil() as u64
                }
            }
        };
        let n = n.max(1);
        if space_size > 0 {
            n.min(space_size)
        } else {
            n
        }
    }
}

/// What a proposed configuration costs and returns in replay.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Outcome {
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
    outcomes: HashMap<String, Outcome>,
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

/// One strategy run on a recorded experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct SeedRun {
    /// The best time found, if any measurement succeeded.
    pub best_ms: Option<f64>,
    /// Evaluations spent (measurements, failed ones included).
    pub spent: u64,
    /// Configurations proposed, infeasible and unrecorded ones included.
    pub proposed: u64,
}

/// Statistics of the per-seed `best_ms / best time found`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FractionStats {
    pub median: f64,
    /// Nearest-rank 10th percentile: the ⌈0.1·n⌉-th smallest of the n values.
    pub p10: f64,
    pub mean: f64,
}

/// The replay summary of one algorithm (the `--json` object).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub algorithm: String,
    pub space_size: u64,
    pub budget: u64,
    pub seeds: u64,
    pub fraction_of_optimum: FractionStats,
    /// Share of the seeds whose run found an optimal configuration.
    pub hit_optimum: f64,
}

impl Recorded {
    /// Load experiment `experiment` of the database at `db` (opened read-only).
    ///
    /// Errors: no such experiment, no evaluations, an incomplete recorded space (see the module
    /// documentation), no `ok` evaluation.
    pub fn load(db: &Path, experiment: i64) -> Result<Recorded> {
        let conn = Db::open_read_only(db).with_context(|| format!("opening {}", db.display()))?;
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
        // Parameters in key order, and each row's values in that order.
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
                names = c.values.iter().map(|(n, _)| n.clone()).collect();
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
        let params: Vec<Param> = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let mut values: Vec<Value> = Vec::new();
                for c in &configs {
                    if !values.contains(&c[i]) {
                        values.push(c[i].clone());
                    }
                }
                values.sort_by(natural_cmp);
                Param {
                    name: name.clone(),
                    values,
                }
            })
            .collect();
        let mut space = SearchSpace {
            params,
            constraints: vec![],
            fixed: BTreeMap::new(),
            prefilter: None,
        };

        let mut outcomes: HashMap<String, Outcome> = HashMap::with_capacity(rows.len());
        let mut rejections: HashMap<String, Option<Rejection>> = HashMap::with_capacity(rows.len());
        let mut best: Option<(f64, u64)> = None;
        for (row, values) in rows.iter().zip(&configs) {
            let config = Configuration {
                values: names.iter().cloned().zip(values.iter().cloned()).collect(),
            };
            let outcome = match row.status.as_str() {
                "constraint" => Outcome::Infeasible,
                "device_limit" => Outcome::DeviceLimit,
                "ok" => Outcome::Measured(row.median_ms.filter(|m| m.is_finite())),
                _ => Outcome::Measured(None),
            };
            let rejection = match outcome {
                Outcome::Infeasible => Some(Rejection::Constraint(constraint_name(row))),
                Outcome::DeviceLimit => Some(Rejection::DeviceLimit(
                    row.message
                        .clone()
                        .unwrap_or_else(|| "recorded as device_limit".into()),
                )),
                Outcome::Measured(_) => None,
            };
            rejections.entry(config.key()).or_insert(rejection);
            if let Outcome::Measured(Some(ms)) = outcome {
                let index = space.index_of(&config).unwrap_or(u64::MAX);
                if best.is_none_or(|(b, i)| ms < b || (ms == b && index < i)) {
                    best = Some((ms, index));
                }
            }
            outcomes.entry(config.key()).or_insert(outcome);
        }

        let grid = space.size();
        let recorded = outcomes.len() as u64;
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

    /// Run `algorithm` (default options) with `seed` until it has spent `budget` evaluations or
    /// proposes nothing.
    pub fn run_seed(&self, algorithm: &str, seed: u64, budget: u64) -> Result<SeedRun> {
        self.run_seed_with(algorithm, &[], seed, budget)
    }

    /// [`Recorded::run_seed`] with the spec-style `options` (`("annealing_cooling_factor",
    /// value)`, as in a `search` section).
    pub fn run_seed_with(
        &self,
        algorithm: &str,
        options: &[(String, Located<SpecValue>)],
        seed: u64,
        budget: u64,
    ) -> Result<SeedRun> {
        let mut strategy =
            make_strategy(algorithm, options, seed).map_err(|d| anyhow!("{}", d.message))?;
        self.run_strategy(strategy.as_mut(), budget)
    }

    /// Drive `strategy` as `orcl tune` does (batches of at most 16, each candidate observed
    /// before the next batch) until it has spent `budget` evaluations or proposes nothing.
    pub fn run_strategy(&self, strategy: &mut dyn Strategy, budget: u64) -> Result<SeedRun> {
        let mut run = SeedRun {
            best_ms: None,
            spent: 0,
            proposed: 0,
        };
        while run.spent < budget {
            let max = (budget - run.spent).min(BATCH) as usize;
            let batch = strategy
                .propose(&self.space, max)
                .map_err(|d| anyhow!("{}: {}", strategy.name(), d.message))?;
            if batch.is_empty() {
                break;
            }
            for cand in batch {
                run.proposed += 1;
                if cand.violated.is_some() {
                    continue;
                }
                let outcome = self
                    .outcomes
                    .get(&cand.config.key())
                    .copied()
                    .unwrap_or(Outcome::Infeasible);
                match outcome {
                    Outcome::Infeasible | Outcome::DeviceLimit => {
                        strategy.observe(&cand.config, None)
                    }
                    Outcome::Measured(ms) => {
                        // `max` never exceeds the budget left, so this cannot overspend.
                        run.spent += 1;
                        if let Some(ms) = ms {
                            if run.best_ms.is_none_or(|b| ms < b) {
                                run.best_ms = Some(ms);
                            }
                        }
                        strategy.observe(&cand.config, ms);
                    }
                }
            }
        }
        Ok(run)
    }

    /// `best_ms / found` (1 for the optimum, 0 when nothing was found).
    pub fn fraction(&self, found: Option<f64>) -> f64 {
        match found {
            None => 0.0,
            Some(f) if f <= self.best_ms => 1.0,
            Some(f) => self.best_ms / f,
        }
    }

    /// Replay `algorithm` (default options) for seeds `0..seeds` with `budget` evaluations each.
    pub fn summarize(&self, algorithm: &str, budget: u64, seeds: u64) -> Result<Summary> {
        self.summarize_with(algorithm, &[], budget, seeds)
    }

    /// [`Recorded::summarize`] with the spec-style `options`.
    pub fn summarize_with(
        &self,
        algorithm: &str,
        options: &[(String, Located<SpecValue>)],
        budget: u64,
        seeds: u64,
    ) -> Result<Summary> {
        let name = make_strategy(algorithm, options, 0)
            .map_err(|d| anyhow!("{}", d.message))?
            .name()
            .to_string();
        let mut fractions = Vec::with_capacity(seeds as usize);
        let mut hits = 0u64;
        for seed in 0..seeds {
            let run = self.run_seed_with(algorithm, options, seed, budget)?;
            if run.best_ms.is_some_and(|b| b <= self.best_ms) {
                hits += 1;
            }
            fractions.push(self.fraction(run.best_ms));
        }
        Ok(Summary {
            algorithm: name,
            space_size: self.space_size,
            budget,
            seeds,
            fraction_of_optimum: stats(&fractions),
            hit_optimum: if seeds == 0 {
                0.0
            } else {
                hits as f64 / seeds as f64
            },
        })
    }
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

/// Median, nearest-rank 10th percentile and mean of `values` (all 0 when empty).
pub fn stats(values: &[f64]) -> FractionStats {
    if values.is_empty() {
        return FractionStats {
            median: 0.0,
            p10: 0.0,
            mean: 0.0,
        };
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    FractionStats {
        median,
        p10: percentile_nearest_rank(&v, 10),
        mean: v.iter().sum::<f64>() / n as f64,
    }
}

/// The nearest-rank `p`-th percentile of the sorted, non-empty `sorted`: the ⌈p·n/100⌉-th
/// smallest value (the smallest for p = 0).
pub fn percentile_nearest_rank(sorted: &[f64], p: u32) -> f64 {
    let n = sorted.len();
    let rank = (p as usize * n).div_ceil(100).max(1);
    sorted[rank.min(n) - 1]
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
            .zip(y)
            .map(|(p, q)| natural_cmp(p, q))
            .find(|o| o.is_ne())
            .unwrap_or(x.len().cmp(&y.len())),
        _ => rank(a).cmp(&rank(b)),
    }
}

/// The `--json` output: one object, or an array of them when `all` algorithms were replayed.
pub fn render_json(summaries: &[Summary], all: bool) -> String {
    let r = if all || summaries.len() != 1 {
        serde_json::to_string_pretty(summaries)
    } else {
        serde_json::to_string_pretty(&summaries[0])
    };
    r.expect("summaries serialise")
}

/// The table output: one row per algorithm.
pub fn render_table(summaries: &[Summary]) -> String {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec![
        "algorithm",
        "space size",
        "budget",
        "seeds",
        "fraction median",
        "fraction p10",
        "fraction mean",
        "hit optimum",
    ]);
    let right = |s: String| Cell::new(s).set_alignment(CellAlignment::Right);
    for s in summaries {
        let f = &s.fraction_of_optimum;
        t.add_row(vec![
            Cell::new(&s.algorithm),
            right(s.space_size.to_string()),
            right(s.budget.to_string()),
            right(s.seeds.to_string()),
            right(format!("{:.3}", f.median)),
            right(format!("{:.3}", f.p10)),
            right(format!("{:.3}", f.mean)),
            right(format!("{:.0}%", s.hit_optimum * 100.0)),
        ]);
    }
    t.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{DeviceRow, NewExperiment, RegionRow};
    use std::path::PathBuf;

    const A: [i64; 4] = [2, 10, 40, 100];
    const B: [&str; 5] = ["a", "b", "c", "d", "e"];

    /// The 4 × 5 grid in natural order: (A, B, status, median_ms). Optimum 0.5 at A=100 B=c, the
    /// last measurement in grid order; 4 constraint points (the first one among them), 3 failures.
    const GRID: [(i64, &str, &str, f64); 20] = [
        (2, "a", "constraint", 0.0),
        (2, "b", "ok", 2.0),
        (2, "c", "compile_error", 0.0),
        (2, "d", "ok", 1.6),
        (2, "e", "ok", 3.0),
        (10, "a", "wrong_result", 0.0),
        (10, "b", "ok", 1.25),
        (10, "c", "ok", 4.0),
        (10, "d", "ok", 2.5),
        (10, "e", "ok", 1.0),
        (40, "a", "ok", 5.0),
        (40, "b", "timeout", 0.0),
        (40, "c", "ok", 0.8),
        (40, "d", "ok", 2.0),
        (40, "e", "constraint", 0.0),
        (100, "a", "ok", 1.0),
        (100, "b", "ok", 0.625),
        (100, "c", "ok", 0.5),
        (100, "d", "constraint", 0.0),
        (100, "e", "constraint", 0.0),
    ];

    /// A database with one experiment of `algorithm` holding the grid (rows inserted in a
    /// scrambled order) except the points of `skip`.
    fn synthetic(algorithm: &str, skip: &[(i64, &str)]) -> (tempfile::TempDir, PathBuf, i64) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("replay.db");
        let db = Db::open(&path).unwrap();
        let device_id = db
            .upsert_device(&DeviceRow {
                backend: "opencl".into(),
                platform: "Test".into(),
                name: "test device".into(),
                vendor: "test".into(),
                driver_version: "1".into(),
                device_version: "OpenCL 3.0".into(),
                compute_units: 1,
                max_work_group_size: 256,
                local_mem_bytes: 1 << 15,
                global_mem_bytes: 1 << 30,
                max_clock_mhz: 1000,
                fingerprint: "test-device".into(),
                properties_json: "{}".into(),
            })
            .unwrap();
        let region_id = db
            .upsert_region(&RegionRow {
                file: "grid.c".into(),
                line: 1,
                function: "f".into(),
                loop_hash: "abc".into(),
                transform_text: "".into(),
            })
            .unwrap();
        let (id, _) = db
            .open_experiment(&NewExperiment {
                identity_key: "grid".into(),
                region_id,
                device_id,
                backend: "opencl".into(),
                input_params_json: "{}".into(),
                spec_hash: "s".into(),
                algorithm: algorithm.into(),
                search_options_json: "{}".into(),
                seed: Some(0),
                orcl_version: "test".into(),
                host: "host".into(),
                build_command: "cc".into(),
            })
            .unwrap();
        // Scrambled insertion order: 7 is coprime with 20.
        for k in 0..GRID.len() {
            let (a, b, status, ms) = GRID[(k * 7 + 3) % GRID.len()];
            if skip.contains(&(a, b)) {
                continue;
            }
            let key = format!(r#"{{"A":{a},"B":"{b}"}}"#);
            db.insert_evaluation(
                id,
                &EvaluationRow {
                    config_key: key.clone(),
                    config_json: key,
                    status: status.into(),
                    samples_ms: if status == "ok" { vec![ms] } else { vec![] },
                    median_ms: (status == "ok").then_some(ms),
                    ..Default::default()
                },
            )
            .unwrap();
        }
        db.finish_experiment(id, "done").unwrap();
        (dir, path, id)
    }

    fn load(algorithm: &str, skip: &[(i64, &str)]) -> Recorded {
        let (_dir, path, id) = synthetic(algorithm, skip);
        Recorded::load(&path, id).unwrap()
    }

    fn summary(r: &Recorded, algorithm: &str, budget: &str, seeds: u64) -> Summary {
        let b = Budget::parse(budget).unwrap().evaluations(r.space_size);
        r.summarize(algorithm, b, seeds).unwrap()
    }

    fn exact(s: &Summary, fraction: f64, hit: f64) {
        let f = &s.fraction_of_optimum;
        assert_eq!(
            (f.median, f.p10, f.mean),
            (fraction, fraction, fraction),
            "{s:?}"
        );
        assert_eq!(s.hit_optimum, hit, "{s:?}");
    }

    #[test]
    fn rebuilds_the_grid_in_natural_order() {
        let r = load("Exhaustive", &[]);
        assert_eq!(r.space.params.len(), 2);
        assert_eq!(r.space.params[0].name, "A");
        assert_eq!(
            r.space.params[0].values,
            A.iter().map(|&a| Value::Int(a)).collect::<Vec<_>>()
        );
        assert_eq!(
            r.space.params[1].values,
            B.iter().map(|&b| Value::Str(b.into())).collect::<Vec<_>>()
        );
        assert!(r.space.constraints.is_empty() && r.space.fixed.is_empty());
        assert_eq!(r.space.size(), 20);
        assert_eq!((r.space_size, r.constraint, r.unrecorded), (16, 4, 0));
        assert_eq!(r.best_ms, 0.5);
        assert_eq!(r.best.key(), r#"{"A":100,"B":"c"}"#);
        assert!(r.note().is_none());
    }

    #[test]
    fn natural_order_of_values() {
        let mut v = vec![
            Value::Str("b".into()),
            Value::Int(10),
            Value::Bool(true),
            Value::Float(2.5),
            Value::Int(2),
            Value::Str("a".into()),
            Value::Bool(false),
            Value::Float(2.0),
            Value::Str("".into()),
            Value::Int(-3),
        ];
        v.sort_by(natural_cmp);
        let shown: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        assert_eq!(
            shown,
            ["False", "True", "-3", "2", "2.0", "2.5", "10", "''", "'a'", "'b'"]
        );
    }

    #[test]
    fn exhaustive_full_budget_hits_the_optimum() {
        let r = load("Exhaustive", &[]);
        let s = summary(&r, "exhaustive", "100%", 5);
        assert_eq!(s.algorithm, "Exhaustive");
        assert_eq!((s.space_size, s.budget, s.seeds), (16, 16, 5));
        exact(&s, 1.0, 1.0);
        // Also as an explicit count.
        exact(&summary(&r, "Exhaustive", "16", 3), 1.0, 1.0);
    }

    #[test]
    fn constraint_points_never_count_in_the_budget() {
        let r = load("Exhaustive", &[]);
        // The optimum is the 16th measurement but the 18th grid point.
        let run = r.run_seed("Exhaustive", 0, 16).unwrap();
        assert_eq!(run.spent, 16);
        assert_eq!(
            run.proposed, 18,
            "the budget is spent at the optimum, grid point 18"
        );
        assert_eq!(run.best_ms, Some(0.5));
        // One evaluation: the first grid point breaks a constraint, so the first measurement
        // is A=2 B=b (2.0 ms).
        let run = r.run_seed("Exhaustive", 0, 1).unwrap();
        assert_eq!((run.spent, run.proposed, run.best_ms), (1, 2, Some(2.0)));
        exact(&summary(&r, "Exhaustive", "1", 4), 0.25, 0.0);
        // 15 evaluations stop just before the optimum: best 0.625.
        exact(&summary(&r, "Exhaustive", "15", 2), 0.8, 0.0);
        // 50% of 16 = 8 evaluations: the best of the first 8 measurements is 1.25.
        let s = summary(&r, "Exhaustive", "50%", 2);
        assert_eq!(s.budget, 8);
        exact(&s, 0.4, 0.0);
        // Random: the budget is spent on measurements only, whatever the order.
        for seed in 0..10 {
            let run = r.run_seed("Random", seed, 16).unwrap();
            assert_eq!(run.spent, 16);
            assert!(run.proposed >= 16 && run.proposed <= 20);
            let run = r.run_seed("Random", seed, 3).unwrap();
            assert_eq!(run.spent, 3);
        }
    }

    #[test]
    fn random_with_the_whole_space_always_hits() {
        let r = load("Exhaustive", &[]);
        let s = summary(&r, "Random", "16", 20);
        assert_eq!(s.algorithm, "Random");
        exact(&s, 1.0, 1.0);
    }

    #[test]
    fn one_evaluation_misses_for_some_seeds() {
        let r = load("Exhaustive", &[]);
        let mut fractions = Vec::new();
        for seed in 0..20 {
            let run = r.run_seed("Random", seed, 1).unwrap();
            assert_eq!(run.spent, 1);
            fractions.push(r.fraction(run.best_ms));
        }
        assert!(fractions.iter().any(|&f| f < 1.0));
        assert!(fractions.iter().all(|&f| (0.0..=1.0).contains(&f)));
        let s = summary(&r, "Random", "1", 20);
        assert!(s.fraction_of_optimum.p10 < 1.0);
        assert!(s.hit_optimum < 1.0);
        assert_eq!(s.fraction_of_optimum, stats(&fractions));
        let hits = fractions.iter().filter(|&&f| f == 1.0).count() as f64;
        assert_eq!(s.hit_optimum, hits / 20.0);
    }

    #[test]
    fn constraint_and_device_limit_rows_are_free_and_known_before_building() {
        let row = |a: i64, status: &str, ms: Option<f64>, message: Option<&str>| EvaluationRow {
            config_key: format!(r#"{{"A":{a}}}"#),
            status: status.into(),
            median_ms: ms,
            message: message.map(String::from),
            ..Default::default()
        };
        let rows = [
            row(1, "ok", Some(2.0), None),
            row(
                2,
                "device_limit",
                None,
                Some("local size 2048 exceeds 1024"),
            ),
            row(3, "ok", Some(1.0), None),
            row(4, "constraint", None, Some("breaks constraint `small`")),
            row(5, "crash", None, None),
        ];
        let r = Recorded::from_rows(1, "Exhaustive", &rows).unwrap();
        assert_eq!((r.space_size, r.constraint, r.device_limit), (3, 1, 1));
        assert!(
            r.describe().contains("1 over the device limits"),
            "{}",
            r.describe()
        );
        let at = |a: i64| r.space.config_at(a as u64 - 1);
        assert_eq!(
            r.space.device_limit(&at(2)).as_deref(),
            Some("local size 2048 exceeds 1024")
        );
        assert_eq!(r.space.check(&at(2)).unwrap(), None);
        assert_eq!(r.space.check(&at(4)).unwrap().as_deref(), Some("small"));
        assert_eq!(
            r.space.rejection(&at(3)).unwrap(),
            None,
            "measured rows are feasible"
        );
        // Exhaustive proposes the device-limit point (free) and flags the constraint one.
        let run = r.run_seed("Exhaustive", 0, 2).unwrap();
        assert_eq!((run.spent, run.proposed, run.best_ms), (2, 3, Some(1.0)));
        let run = r.run_seed("Exhaustive", 0, 10).unwrap();
        assert_eq!((run.spent, run.proposed), (3, 5));
        // The adaptive strategies never propose either, and spend only measurements.
        for alg in ["NelderMead", "Annealing", "Genetic"] {
            for seed in 0..5 {
                let mut s = make_strategy(alg, &[], seed).unwrap();
                let run = r.run_strategy(s.as_mut(), 10).unwrap();
                assert_eq!(
                    (run.spent, run.proposed, run.best_ms),
                    (3, 3, Some(1.0)),
                    "{alg}"
                );
            }
        }
    }

    #[test]
    fn every_strategy_respects_the_budget() {
        let r = load("Exhaustive", &[]);
        for alg in algorithm_names() {
            for budget in 1..=16 {
                for seed in 0..3 {
                    let run = r.run_seed(alg, seed, budget).unwrap();
                    assert_eq!(run.spent, budget, "{alg} budget {budget}");
                }
            }
            // With the whole space every strategy finds the optimum.
            exact(&summary(&r, alg, "100%", 5), 1.0, 1.0);
        }
    }

    #[test]
    fn statistics() {
        let v = [0.3, 1.0, 0.5, 0.2, 0.9, 0.1, 0.4, 0.8, 0.6, 0.7, 1.0, 0.0];
        let s = stats(&v);
        // Sorted: 0.0 0.1 0.2 ... ; n = 12, p10 rank ⌈1.2⌉ = 2 → 0.1; median (0.5 + 0.6) / 2.
        assert_eq!(s.p10, 0.1);
        assert_eq!(s.median, (0.5 + 0.6) / 2.0);
        assert_eq!(s.mean, v.iter().sum::<f64>() / 12.0);
        let s = stats(&[0.25, 1.0, 0.5]);
        assert_eq!((s.median, s.p10), (0.5, 0.25));
        assert_eq!(percentile_nearest_rank(&[1.0, 2.0], 0), 1.0);
        assert_eq!(percentile_nearest_rank(&[1.0, 2.0], 100), 2.0);
        let twenty: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(percentile_nearest_rank(&twenty, 10), 2.0);
        assert_eq!(stats(&[]).mean, 0.0);
    }

    #[test]
    fn same_seeds_same_output() {
        let (_dir, path, id) = synthetic("Exhaustive", &[]);
        let once = |alg: &str| {
            let (_, s) = replay(&path, id, alg, "25%", 20).unwrap();
            (render_json(&s, is_all(alg)), render_table(&s))
        };
        assert_eq!(once("Random"), once("Random"));
        assert_eq!(once("all"), once("all"));
        let (json, table) = once("Random");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["algorithm"], "Random");
        assert_eq!(v["space_size"], 16);
        assert_eq!(v["budget"], 4);
        assert_eq!(v["seeds"], 20);
        for k in ["median", "p10", "mean"] {
            assert!(v["fraction_of_optimum"][k].is_f64(), "{json}");
        }
        assert!(v["hit_optimum"].is_f64());
        assert!(
            table.contains("Random") && table.contains("hit optimum"),
            "{table}"
        );
    }

    #[test]
    fn all_lists_every_algorithm() {
        let (_dir, path, id) = synthetic("Exhaustive", &[]);
        let (_, s) = replay(&path, id, "ALL", "100%", 2).unwrap();
        let names: Vec<&str> = s.iter().map(|x| x.algorithm.as_str()).collect();
        assert_eq!(names, algorithm_names());
        assert!(names.contains(&"Exhaustive") && names.contains(&"Random"));
        let v: serde_json::Value = serde_json::from_str(&render_json(&s, true)).unwrap();
        assert_eq!(v.as_array().unwrap().len(), names.len());
        let table = render_table(&s);
        assert!(
            table.contains("Exhaustive") && table.contains("Random"),
            "{table}"
        );
    }

    #[test]
    fn incomplete_experiments() {
        // A Random experiment with a grid point missing is refused.
        let (_dir, path, id) = synthetic("Random", &[(40, "c")]);
        let e = format!("{:#}", Recorded::load(&path, id).unwrap_err());
        assert!(
            e.contains("is not exhaustive: 1 of the 20 configurations")
                && e.contains("replay needs a complete recorded space"),
            "{e}"
        );
        // A complete Random experiment is fine.
        let r = load("Random", &[]);
        assert_eq!(r.space_size, 16);
        // An Exhaustive one with gaps: the missing points are infeasible (free).
        let r = load("exhaustive", &[(40, "c"), (100, "d")]);
        assert_eq!((r.space_size, r.unrecorded, r.constraint), (15, 2, 3));
        assert!(r.note().unwrap().contains("2 of the 20"));
        let run = r.run_seed("Exhaustive", 0, 15).unwrap();
        assert_eq!((run.spent, run.proposed, run.best_ms), (15, 18, Some(0.5)));
        // No experiment, no ok evaluation.
        let (_dir, path, _) = synthetic("Exhaustive", &[]);
        let e = format!("{:#}", Recorded::load(&path, 99).unwrap_err());
        assert!(e.contains("no experiment with id 99"), "{e}");
        let row = |status: &str| EvaluationRow {
            config_key: r#"{"A":1}"#.into(),
            status: status.into(),
            ..Default::default()
        };
        let e = Recorded::from_rows(1, "Exhaustive", &[row("crash")]).unwrap_err();
        assert!(e.to_string().contains("no successful"), "{e}");
        let e = Recorded::from_rows(1, "Exhaustive", &[]).unwrap_err();
        assert!(e.to_string().contains("no evaluations"), "{e}");
        let mut other = row("ok");
        other.config_key = r#"{"B":1}"#.into();
        let e = Recorded::from_rows(1, "Exhaustive", &[row("ok"), other]).unwrap_err();
        assert!(
            e.to_string().contains("does not have the parameters A"),
            "{e}"
        );
    }

    #[test]
    fn argument_errors() {
        let e = resolve_algorithms("Randm").unwrap_err().to_string();
        assert!(
            e.contains("unknown search algorithm `Randm`") && e.contains("did you mean `Random`?"),
            "{e}"
        );
        let e = resolve_algorithms("al").unwrap_err().to_string();
        assert!(e.contains("did you mean `all`?"), "{e}");
        assert_eq!(resolve_algorithms("randomsearch").unwrap(), ["Random"]);
        for bad in ["0", "150%", "abc", "0%", "-5", "1.5", "nan%", "%", ""] {
            assert!(Budget::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Budget::parse(" 50 ").unwrap(), Budget::Evaluations(50));
        assert_eq!(Budget::parse("2.5%").unwrap(), Budget::Percent(2.5));
        assert_eq!(Budget::parse("10%").unwrap().evaluations(30), 3);
        assert_eq!(Budget::parse("5%").unwrap().evaluations(30), 2);
        assert_eq!(Budget::parse("1%").unwrap().evaluations(8), 1);
        assert_eq!(Budget::parse("100%").unwrap().evaluations(1728), 1728);
        assert_eq!(Budget::parse("50").unwrap().evaluations(8), 8);
        let (_dir, path, id) = synthetic("Exhaustive", &[]);
        let e = replay(&path, id, "Random", "20", 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("--seeds"), "{e}");
    }
}
