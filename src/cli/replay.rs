//! `orcl replay`: strategies replayed on a recorded space by [`crate::replay`].

use super::failure::Failure;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub(super) struct ReplayArgs {
    /// The tuning database (a gzip'd one is read too).
    #[arg(long, default_value = "orcl.db")]
    db: PathBuf,
    /// The recorded experiment (an exhaustive tune or an import) to replay on.
    #[arg(long)]
    experiment: i64,
    /// Strategy name, or `all`.
    #[arg(long, default_value = "all")]
    algorithm: String,
    /// Evaluations allowed: a count (`50`) or a share of the space (`5%`), or a comma-separated
    /// list of them (`1%,3%,5%,100`: one row per budget and strategy).
    #[arg(long, default_value = "5%")]
    budget: String,
    /// Number of seeds (0..seeds).
    #[arg(long, default_value_t = 20)]
    seeds: u64,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// A strategy option, as `arg NAME = VALUE;` in a spec's `def search`
    /// (`--option bayes_trees=20`); repeatable. Options of other strategies are ignored.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Warm-start every run with the best configurations of this experiment of the same database
    /// (e.g. the same kernel on another device), as `orcl tune --warm-start` does from the
    /// database; compare the `evals to 0.95` column with a cold replay.
    #[arg(long, value_name = "EXPERIMENT")]
    warm_from: Option<i64>,
    /// How many of the best configurations `--warm-from` seeds with.
    #[arg(long, default_value_t = crate::replay::WARM_COUNT)]
    warm_count: usize,
}

pub(super) fn run(a: ReplayArgs) -> Result<i32, Failure> {
    let settings = crate::replay::Settings {
        options: crate::replay::parse_options(&a.options)
            .map_err(|e| Failure::Usage(format!("{e:#}")))?,
        warm_from: a.warm_from,
        warm_count: a.warm_count,
    };
    crate::replay::run(
        &a.db,
        a.experiment,
        &a.algorithm,
        &a.budget,
        a.seeds,
        a.json,
        &settings,
    )
    .map(|_| 0)
    .map_err(|e| Failure::Usage(format!("{e:#}")))
}
