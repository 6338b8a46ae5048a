//! `orcl plot`: SVG/PNG charts of experiments (sorted objective; objective per parameter value).
//!
//! Two kinds of chart, both of the objective (the median kernel time, ms) of the correct (`ok`)
//! evaluations of one or more experiments of the tuning database:
//!
//! - **sorted** (default), the OrCL paper's Figures 9/10: every correct variant, sorted fastest
//!   first; x = rank 1..n, y = ms. Each experiment is one line.
//! - **by parameter** (`--by PARAM`): one box (min, quartiles, median, max) per value of the tuning
//!   parameter, over the individual variants drawn as points with a small deterministic jitter.
//!   The values are categories, sorted naturally (numbers numerically, `False` < `True`, strings
//!   lexicographically). Several experiments are drawn side by side within each category, one
//!   colour each; every experiment must have the parameter.
//!
//! The y axis is logarithmic when the largest time is more than [`LOG_RATIO`] times the smallest.
//! The legend (below the plot area, so that it never hides data) names each experiment: id,
//! function, input sizes, device, and its number of correct and failed variants; configurations
//! excluded by a spec constraint were never variants and are not counted as failed.
//!
//! The output format follows the extension: `.svg` (SVG, text drawn by the viewer) or `.png`
//! (1200×700 bitmap, text drawn with the embedded DejaVu Sans, `assets/DejaVuSans.ttf`).
//!
//! The module by concern: `data` (experiments read from the database, quartiles, jitter), `axis`
//! (tick positions and labels, linear or logarithmic), `chart` (the layers of a sorted or
//! by-parameter chart), `render` (SVG/PNG drawing with plotters).

use std::collections::HashSet;
use std::path::Path;

use anyhow::bail;
use plotters::style::RGBColor;

mod axis;
mod chart;
mod data;
mod pareto;
mod render;
#[cfg(test)]
mod tests;

use chart::Chart;
pub use data::Metric;
use data::Series;
pub(crate) use render::register_font;
use render::{render, Format};

/// Chart size in pixels (SVG user units).
pub const SIZE: (u32, u32) = (1200, 700);

/// The y axis becomes logarithmic when max/min of the plotted times exceeds this.
pub const LOG_RATIO: f64 = 20.0;

/// Font family of every text; registered with the embedded font for the bitmap backend (and for
/// text measurement, which the SVG backend needs too).
const FONT: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// Tableau 10, a palette that stays distinguishable for most colour-vision deficiencies.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x4E, 0x79, 0xA7),
    RGBColor(0xF2, 0x8E, 0x2B),
    RGBColor(0xE1, 0x57, 0x59),
    RGBColor(0x76, 0xB7, 0xB2),
    RGBColor(0x59, 0xA1, 0x4F),
    RGBColor(0xED, 0xC9, 0x48),
    RGBColor(0xB0, 0x7A, 0xA1),
    RGBColor(0xFF, 0x9D, 0xA7),
    RGBColor(0x9C, 0x75, 0x5F),
    RGBColor(0xBA, 0xB0, 0xAC),
];

const TEXT: RGBColor = RGBColor(0x22, 0x22, 0x22);
const GREY: RGBColor = RGBColor(0x77, 0x77, 0x77);

const Y_LABEL: &str = "median kernel time (ms)";

/// Draw `experiments` into `output` (.svg or .png): median kernel time, sorted or `by` a parameter.
pub fn plot(db: &Path, experiments: &[i64], by: Option<&str>, output: &Path) -> anyhow::Result<()> {
    let view = match by {
        Some(p) => View::By(p, Metric::Time),
        None => View::Sorted(Metric::Time),
    };
    plot_view(db, experiments, view, output)
}

/// What `orcl plot` draws.
#[derive(Debug, Clone, Copy)]
pub enum View<'a> {
    /// Every correct variant's metric, sorted (the default).
    Sorted(Metric),
    /// The metric per value of a tuning parameter (`--by PARAM`).
    By(&'a str, Metric),
    /// Energy per call (mJ) against median time (ms) of every variant with an energy reading,
    /// its time/energy Pareto front drawn as a line (`--pareto`; docs/ENERGY.md).
    Pareto,
}

/// Draw `experiments` into `output` (.svg or .png) as `view`. Errors: an unwritable output, no
/// or a repeated experiment, an experiment without `ok` evaluations (or, for energy and power,
/// without readings), a `--by` parameter the experiment does not have.
pub fn plot_view(db: &Path, experiments: &[i64], view: View, output: &Path) -> anyhow::Result<()> {
    let format = Format::of(output)?;
    if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            bail!(
                "cannot write {}: directory {} does not exist",
                output.display(),
                dir.display()
            );
        }
    }
    if experiments.is_empty() {
        bail!("no experiment to plot: give at least one experiment id");
    }
    let mut seen = HashSet::new();
    if let Some(dup) = experiments.iter().find(|id| !seen.insert(**id)) {
        bail!("experiment {dup} is given more than once");
    }
    let conn = crate::db::open_for_reading(db)?;
    let metric = match view {
        View::Sorted(m) | View::By(_, m) => m,
        View::Pareto => Metric::Energy,
    };
    let series = experiments
        .iter()
        .map(|&id| Series::load(&conn, db, id, metric))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut chart = match view {
        View::Sorted(_) => Chart::sorted(&series),
        View::By(param, _) => Chart::by_param(&series, param)?,
        View::Pareto => Chart::pareto(&series),
    };
    if metric != Metric::Time && !matches!(view, View::Pareto) {
        chart.y.desc = chart.y.desc.replace(Y_LABEL, metric.label());
        chart.title = chart.title.replace(Metric::Time.what(), metric.what());
    }
    render(&chart, format, output)
}
