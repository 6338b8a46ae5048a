//! `orcl plot`: an experiment's objective drawn by [`crate::plot`].

use super::failure::{classify, Failure};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub(super) struct PlotArgs {
    /// Experiment id(s); several are drawn on one chart.
    #[arg(required = true)]
    experiments: Vec<i64>,
    /// The tuning database (a gzip'd one is read too).
    #[arg(long, default_value = "orcl.db")]
    db: PathBuf,
    /// Draw the objective against each value of this tuning parameter.
    #[arg(long)]
    by: Option<String>,
    /// Output file: .svg or .png.
    #[arg(short, long)]
    output: PathBuf,
}

pub(super) fn run(a: PlotArgs) -> Result<i32, Failure> {
    crate::outfile::refuse_same(&a.output, &[("database", &a.db)])?;
    crate::plot::plot(&a.db, &a.experiments, a.by.as_deref(), &a.output)
        .map(|_| 0)
        .map_err(classify)
}
