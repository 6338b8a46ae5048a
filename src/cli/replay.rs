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
}

pub(super) fn run(a: ReplayArgs) -> Result<i32, Failure> {
    crate::replay::run(
        &a.db,
        a.experiment,
        &a.algorithm,
        &a.budget,
        a.seeds,
        a.json,
    )
    .map(|_| 0)
    .map_err(|e| Failure::Usage(format!("{e:#}")))
}
