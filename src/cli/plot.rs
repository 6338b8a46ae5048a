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
    #[arg(long, conflicts_with = "pareto")]
    by: Option<String>,
    /// What to draw of each variant: `time` (median kernel time, ms), `energy` (J per call, as
    /// mJ) or `power` (W); energy and power exist where tuned with `--objective energy`/`edp`.
    #[arg(long, default_value = "time", value_parser = ["time", "energy", "power"])]
    metric: String,
    /// Energy per call against median time of every variant with an energy reading, each
    /// experiment's time/energy Pareto front joined by a line.
    #[arg(long)]
    pareto: bool,
    /// Output file: .svg or .png.
    #[arg(short, long)]
    output: PathBuf,
}

pub(super) fn run(a: PlotArgs) -> Result<i32, Failure> {
    crate::outfile::refuse_same(&a.output, &[("database", &a.db)])?;
    let metric = crate::plot::Metric::parse(&a.metric).unwrap_or_default();
    let view = match (&a.by, a.pareto) {
        (_, true) => crate::plot::View::Pareto,
        (Some(p), _) => crate::plot::View::By(p, metric),
        (None, _) => crate::plot::View::Sorted(metric),
    };
    crate::plot::plot_view(&a.db, &a.experiments, view, &a.output)
        .map(|_| 0)
        .map_err(classify)
}
