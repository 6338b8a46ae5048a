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
use orcl_search::{algorithm_names, make_strategy};

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
