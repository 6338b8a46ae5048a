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
//!
//! The module by concern: `budget` (`--budget` values), `recorded` (the experiment as a space
//! and its outcomes), `runs` (strategy runs and their statistics), `output` (table and JSON).

use std::path::Path;

use anyhow::{anyhow, bail, Result};
use orcl_frontend::expr::Value;
use orcl_frontend::space::Configuration;
use orcl_frontend::spec::Located;
use orcl_search::{algorithm_names, default_algorithm, make_strategy};

mod budget;
mod output;
mod recorded;
mod runs;
#[cfg(test)]
mod tests;

pub use budget::Budget;
pub use output::{render_json, render_table};
pub use recorded::{natural_cmp, Recorded};
pub use runs::{percentile_nearest_rank, stats, FractionStats, SeedRun, Summary};

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
    settings: &Settings,
) -> Result<()> {
    let (recorded, summaries) = replay_with(db, experiment, algorithm, budget, seeds, settings)?;
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
    replay_with(
        db,
        experiment,
        algorithm,
        budget,
        seeds,
        &Settings::default(),
    )
}

/// What `orcl replay` can change beyond the algorithm, budget and seeds.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Strategy options (`arg NAME = VALUE;` of a spec's `def search`), for every algorithm
    /// replayed (options of other algorithms are ignored, as in a spec).
    pub options: Vec<(String, Located<Value>)>,
    /// `--warm-from`: an experiment of the same database whose best configurations seed every
    /// run (as `orcl tune --warm-start` seeds a tune with the database's records).
    pub warm_from: Option<i64>,
    /// How many of its best configurations (`--warm-count`, default [`WARM_COUNT`]).
    pub warm_count: usize,
}

/// Configurations a warm start seeds the search with, by default (`orcl tune --warm-start`,
/// `orcl replay --warm-from`).
pub const WARM_COUNT: usize = 5;

/// The `count` fastest `ok` configurations of experiment `experiment` of `db`, fastest first.
///
/// Errors: no such experiment, or none of its evaluations succeeded.
pub fn best_configurations(db: &Path, experiment: i64, count: usize) -> Result<Vec<Configuration>> {
    let conn = crate::db::open_for_reading(db)?;
    conn.experiment(experiment)?.ok_or_else(|| {
        anyhow!(
            "--warm-from: no experiment with id {experiment} in {}",
            db.display()
        )
    })?;
    let mut rows: Vec<(f64, String)> = conn
        .evaluations(experiment)?
        .into_iter()
        .filter(|r| r.status == "ok")
        .filter_map(|r| {
            r.median_ms
                .filter(|m| m.is_finite())
                .map(|m| (m, r.config_key))
        })
        .collect();
    if rows.is_empty() {
        bail!("--warm-from: experiment {experiment} has no successful evaluation to start from");
    }
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    rows.iter()
        .take(count)
        .map(|(_, k)| {
            Configuration::from_key(k).map_err(|e| anyhow!("experiment {experiment}: {e}"))
        })
        .collect()
}

/// `NAME=VALUE` strings as spec-style search options: an integer, a number, `True`/`False`, or a
/// string (quotes optional). Errors: no `=`, an empty name.
pub fn parse_options(list: &[String]) -> Result<Vec<(String, Located<Value>)>> {
    list.iter()
        .map(|s| {
            let (name, value) = s
                .split_once('=')
                .ok_or_else(|| anyhow!("--option `{s}`: write NAME=VALUE, e.g. bayes_trees=20"))?;
            let name = name.trim();
            if name.is_empty() {
                bail!("--option `{s}`: the option name is empty");
            }
            let v = value.trim();
            let value = if let Ok(i) = v.parse::<i64>() {
                Value::Int(i)
            } else if let Ok(f) = v.parse::<f64>() {
                Value::Float(f)
            } else if v == "True" || v == "False" {
                Value::Bool(v == "True")
            } else {
                Value::Str(v.trim_matches(|c| c == '\'' || c == '"').to_string())
            };
            Ok((
                name.to_string(),
                Located {
                    value,
                    span: Default::default(),
                },
            ))
        })
        .collect()
}

/// [`replay`] with [`Settings`].
pub fn replay_with(
    db: &Path,
    experiment: i64,
    algorithm: &str,
    budget: &str,
    seeds: u64,
    settings: &Settings,
) -> Result<(Recorded, Vec<Summary>)> {
    let algorithms = resolve_algorithms(algorithm)?;
    let budgets = Budget::parse_list(budget)?;
    if seeds == 0 {
        bail!("--seeds must be at least 1");
    }
    let recorded = Recorded::load(db, experiment)?;
    let warm = match settings.warm_from {
        Some(from) => best_configurations(db, from, settings.warm_count.max(1))?,
        None => Vec::new(),
    };
    let mut summaries = Vec::with_capacity(budgets.len() * algorithms.len());
    for b in budgets {
        let budget = b.evaluations(recorded.space_size);
        for a in &algorithms {
            let (name, default) = match *a {
                DEFAULT => (
                    default_algorithm(recorded.space_size, Some(budget), false).name,
                    true,
                ),
                a => (a, false),
            };
            let mut s = recorded.summarize_warm(name, &settings.options, &warm, budget, seeds)?;
            if default {
                s.algorithm = format!("default ({name})");
            }
            summaries.push(s);
        }
    }
    Ok((recorded, summaries))
}

/// `--algorithm default`: what `orcl tune` runs when no algorithm is named, for each budget
/// ([`orcl_search::default_algorithm`]).
const DEFAULT: &str = "default";

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
    if arg.trim().eq_ignore_ascii_case(DEFAULT) {
        return Ok(vec![DEFAULT]);
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
