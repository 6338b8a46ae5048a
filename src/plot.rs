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

use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

use anyhow::{anyhow, bail, Context};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use crate::db::Db;

/// Chart size in pixels (SVG user units).
pub const SIZE: (u32, u32) = (1200, 700);

/// The y axis becomes logarithmic when max/min of the plotted times exceeds this.
pub const LOG_RATIO: f64 = 20.0;

/// Font family of every text; registered with the embedded font for the bitmap backend (and for
/// text measurement, which the SVG backend needs too).
const FONT: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

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

/// Draw `experiments` into `output` (.svg or .png).
pub fn plot(db: &Path, experiments: &[i64], by: Option<&str>, output: &Path) -> anyhow::Result<()> {
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
    if !db.exists() {
        bail!("database {} does not exist", db.display());
    }
    let conn =
        Db::open_read_only(db).with_context(|| format!("cannot open database {}", db.display()))?;
    let series = experiments
        .iter()
        .map(|&id| Series::load(&conn, db, id))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let chart = match by {
        None => Chart::sorted(&series),
        Some(param) => Chart::by_param(&series, param)?,
    };
    render(&chart, format, output)
}

// ---------------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------------

/// A JSON object with its keys in document order (serde_json's `Map` may sort them).
#[derive(Debug, Clone, Default, PartialEq)]
struct Ordered(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
                let mut v = Vec::new();
                while let Some(entry) = map.next_entry::<String, Value>()? {
                    v.push(entry);
                }
                Ok(Ordered(v))
            }
        }
        d.deserialize_map(V)
    }
}

impl Ordered {
    fn parse(text: &str, what: &str) -> anyhow::Result<Ordered> {
        serde_json::from_str(text).with_context(|| format!("{what} is not a JSON object: {text}"))
    }

    fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// One evaluation: its configuration and, if it is `ok`, its objective.
#[derive(Debug, Clone)]
struct Eval {
    config: Ordered,
    /// Median kernel time (ms) of an `ok` evaluation; `None` for failures.
    ms: Option<f64>,
}

/// One experiment, ready to plot.
#[derive(Debug, Clone)]
struct Series {
    id: i64,
    /// `function (file)` of the region.
    region: String,
    /// Legend text.
    label: String,
    /// Every evaluation except those excluded by a constraint, in insertion order.
    evals: Vec<Eval>,
    /// Tuning parameter names in declaration order (first appearance).
    params: Vec<String>,
}

impl Series {
    fn load(db: &Db, path: &Path, id: i64) -> anyhow::Result<Series> {
        let Some(e) = db.experiment(id)? else {
            let ids: Vec<String> = db
                .list_experiments()?
                .iter()
                .map(|e| e.id.to_string())
                .collect();
            let has = match ids.len() {
                0 => "it has no experiments".to_string(),
                1 => format!("it has experiment {}", ids[0]),
                _ => format!("it has experiments {}", ids.join(", ")),
            };
            bail!("no experiment with id {id} in {} ({has})", path.display());
        };
        let region = db
            .region(e.region_id)?
            .ok_or_else(|| anyhow!("experiment {id}: region {} is missing", e.region_id))?;
        let device = db
            .device(e.device_id)?
            .map(|d| d.name)
            .unwrap_or_else(|| format!("device {}", e.device_id));
        let mut evals = Vec::new();
        let mut params: Vec<String> = Vec::new();
        let mut failed = 0usize;
        let mut statuses: Vec<(String, usize)> = Vec::new();
        for row in db.evaluations(id)? {
            match statuses.iter_mut().find(|(s, _)| *s == row.status) {
                Some((_, n)) => *n += 1,
                None => statuses.push((row.status.clone(), 1)),
            }
            let config = Ordered::parse(&row.config_json, "evaluation.config_json")?;
            for (k, _) in &config.0 {
                if !params.contains(k) {
                    params.push(k.clone());
                }
            }
            if row.status == "constraint" {
                continue;
            }
            let ms = match (row.status.as_str(), row.median_ms) {
                ("ok", Some(ms)) if ms.is_finite() => Some(ms),
                ("ok", _) => continue, // no objective: nothing to rank
                _ => {
                    failed += 1;
                    None
                }
            };
            evals.push(Eval { config, ms });
        }
        let ok = evals.iter().filter(|e| e.ms.is_some()).count();
        if ok == 0 {
            let what = if statuses.is_empty() {
                "it has no evaluations".to_string()
            } else {
                let list: Vec<String> = statuses.iter().map(|(s, n)| format!("{n} {s}")).collect();
                format!("its evaluations: {}", list.join(", "))
            };
            bail!("experiment {id} has no correct (`ok`) evaluation to plot; {what}");
        }
        let file = Path::new(&region.file)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| region.file.clone());
        let sizes = Ordered::parse(&e.input_params_json, "experiment.input_params_json")?;
        let mut label = format!("experiment {id}: {}", region.function);
        for (k, v) in &sizes.0 {
            label.push_str(&format!(", {k}={}", value_label(v)));
        }
        label.push_str(&format!(" on {device} ({ok} ok, {failed} failed)"));
        Ok(Series {
            id,
            region: format!("{} ({file})", region.function),
            label,
            evals,
            params,
        })
    }

    /// The objective of every `ok` evaluation, in insertion order.
    fn times(&self) -> impl Iterator<Item = f64> + '_ {
        self.evals.iter().filter_map(|e| e.ms)
    }
}

/// The title's subject: the region(s) of the experiments.
fn subject(series: &[Series]) -> String {
    let mut regions: Vec<&str> = Vec::new();
    for s in series {
        if !regions.contains(&s.region.as_str()) {
            regions.push(&s.region);
        }
    }
    regions.join(" / ")
}

/// How a parameter value is written: as in the annotation (`True`, `64`, `'-O3'`).
fn value_label(v: &Value) -> String {
    match v {
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Null => "None".into(),
        Value::String(s) if s.is_empty() => "'' (empty)".into(),
        Value::String(s) => format!("'{s}'"),
        other => other.to_string(),
    }
}

/// Natural order of parameter values: booleans (False < True), then numbers (numerically), then
/// strings (lexicographically), then anything else (by JSON text).
fn natural_cmp(a: &Value, b: &Value) -> Ordering {
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Bool(_) => 0,
            Value::Number(_) => 1,
            Value::String(_) => 2,
            _ => 3,
        }
    }
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            x.total_cmp(&y)
        }
        (Value::String(x), Value::String(y)) => x.cmp(y),
        _ => rank(a)
            .cmp(&rank(b))
            .then_with(|| a.to_string().cmp(&b.to_string())),
    }
}

/// Min, quartiles, median and max (quartiles by linear interpolation between order statistics,
/// like numpy's default). `sorted` must be sorted ascending and non-empty.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Summary {
    min: f64,
    q1: f64,
    median: f64,
    q3: f64,
    max: f64,
}

impl Summary {
    fn of(sorted: &[f64]) -> Summary {
        let q = |p: f64| {
            let h = p * (sorted.len() - 1) as f64;
            let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
            sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
        };
        Summary {
            min: sorted[0],
            q1: q(0.25),
            median: q(0.5),
            q3: q(0.75),
            max: sorted[sorted.len() - 1],
        }
    }
}

/// Deterministic jitter in [-0.5, 0.5) for the `k`-th point of a strip: the golden-ratio
/// sequence, which spreads any number of points evenly.
fn jitter(k: usize) -> f64 {
    const PHI: f64 = 0.618_033_988_749_894_9;
    ((k as f64 + 1.0) * PHI).fract() - 0.5
}

// ---------------------------------------------------------------------------------------------
// Axes
// ---------------------------------------------------------------------------------------------

/// One axis: its range and tick positions in plot coordinates, and how a tick is labelled.
#[derive(Debug, Clone)]
struct Axis {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
    light: Vec<f64>,
    desc: String,
    labels: Labels,
}

#[derive(Debug, Clone)]
enum Labels {
    /// Plain numbers with this many decimals.
    Decimals(usize),
    /// Plot coordinate is log10 of the value.
    Log10,
    /// Category `i` sits at x = i.
    Categories(Vec<String>),
}

impl Axis {
    fn label(&self, v: f64) -> String {
        match &self.labels {
            Labels::Decimals(d) => format!("{v:.d$}"),
            Labels::Log10 => {
                let value = 10f64.powf(v);
                let decimals = (-(v + 1e-9).floor()).max(0.0) as usize;
                format!("{value:.decimals$}")
            }
            Labels::Categories(c) => {
                let i = v.round();
                if i >= 0.0 && (i as usize) < c.len() {
                    c[i as usize].clone()
                } else {
                    String::new()
                }
            }
        }
    }

    /// The time axis for these times: log10 when they span more than [`LOG_RATIO`].
    fn time(times: impl Iterator<Item = f64>) -> (Axis, bool) {
        let (min, max) = times.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), t| {
            (lo.min(t), hi.max(t))
        });
        let log = min > 0.0 && max / min > LOG_RATIO;
        if log {
            let (a, b) = (min.log10(), max.log10());
            let pad = 0.04 * (b - a);
            let (mut lo, mut hi) = (a - pad, b + pad);
            // Extend an end to the next labelled tick when it is close, so both ends are labelled.
            let decades = hi - lo;
            let (wide, _) = log_ticks(lo - 0.5, hi + 0.5, decades);
            let reach = 0.1 * (b - a);
            if let Some(t) = wide.iter().rev().find(|t| **t <= lo) {
                if lo - t <= reach {
                    lo = *t;
                }
            }
            if let Some(t) = wide.iter().find(|t| **t >= hi) {
                if t - hi <= reach {
                    hi = *t;
                }
            }
            let (ticks, light) = log_ticks(lo, hi, decades);
            let axis = Axis {
                lo,
                hi,
                ticks,
                light,
                desc: format!("{Y_LABEL}, log scale"),
                labels: Labels::Log10,
            };
            return (axis, true);
        }
        let span = max - min;
        let pad = if span > 0.0 {
            0.05 * span
        } else {
            0.1 * max.abs().max(1e-9)
        };
        // Start at zero when that costs less than the data's own height: honest proportions.
        let lo = if min >= 0.0 && min < 0.5 * max {
            0.0
        } else {
            min - pad
        };
        let hi = max + pad;
        let (ticks, step) = nice_ticks(lo, hi, 8);
        let axis = Axis {
            lo,
            hi,
            ticks,
            light: Vec::new(),
            desc: Y_LABEL.to_string(),
            labels: Labels::Decimals(decimals(step)),
        };
        (axis, false)
    }
}

/// Ticks at 1, 2, 5 × 10^k inside [lo, hi] (step ≥ 1, 2 or 5 such that about `n` fit) and the
/// step.
fn nice_ticks(lo: f64, hi: f64, n: usize) -> (Vec<f64>, f64) {
    let raw = (hi - lo) / n as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let c = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .find(|c| c * mag >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0);
    let step = c * mag;
    // k·c / 10^n rather than k·c·10^-n: 0.6, not 0.6000000000000001.
    let at = |k: f64| {
        if mag < 1.0 {
            k * c / (1.0 / mag).round()
        } else {
            k * c * mag
        }
    };
    let mut ticks = Vec::new();
    let mut k = (lo / step).ceil();
    while at(k) <= hi + step * 1e-9 {
        ticks.push(at(k));
        k += 1.0;
    }
    (ticks, step)
}

fn decimals(step: f64) -> usize {
    (-(step.log10() + 1e-9).floor()).max(0.0) as usize
}

/// Bold and light ticks of a log10 axis over [lo, hi] (in log10 units) that spans `decades`:
/// labelled ticks at 1, 2, 5 × 10^k (1, 3 × 10^k beyond 2 decades, only 10^k beyond 4), light
/// lines at every m × 10^k.
fn log_ticks(lo: f64, hi: f64, decades: f64) -> (Vec<f64>, Vec<f64>) {
    let bold_m: &[f64] = if decades > 4.0 {
        &[1.0]
    } else if decades > 2.0 {
        &[1.0, 3.0]
    } else {
        &[1.0, 2.0, 5.0]
    };
    let light_m: Vec<f64> = if decades > 8.0 {
        vec![1.0]
    } else {
        (1..10).map(f64::from).collect()
    };
    let at = |ms: &[f64]| {
        let mut v = Vec::new();
        for k in (lo.floor() as i32)..=(hi.ceil() as i32) {
            for m in ms {
                let t = m.log10() + f64::from(k);
                if t >= lo && t <= hi {
                    v.push(t);
                }
            }
        }
        v
    };
    (at(bold_m), at(&light_m))
}

// ---------------------------------------------------------------------------------------------
// Charts
// ---------------------------------------------------------------------------------------------

/// A backend-independent description of what to draw.
#[derive(Debug, Clone)]
struct Chart {
    title: String,
    x: Axis,
    y: Axis,
    layers: Vec<Layer>,
    /// Texts at plot coordinates (e.g. "no ok" under an empty category).
    notes: Vec<(f64, f64, String)>,
}

#[derive(Debug, Clone)]
struct Layer {
    color: RGBColor,
    label: String,
    kind: LayerKind,
}

#[derive(Debug, Clone)]
enum LayerKind {
    /// The sorted objective: a line, with markers when there are few points.
    Line(Vec<(f64, f64)>),
    /// Boxes at x with half-width `half` (summaries in plot coordinates) over jittered points.
    Boxes {
        boxes: Vec<(f64, Summary)>,
        half: f64,
        points: Vec<(f64, f64)>,
    },
}

/// Lines with markers up to this many points.
const MARKERS_UP_TO: usize = 60;

impl Chart {
    fn sorted(series: &[Series]) -> Chart {
        let (y, log) = Axis::time(series.iter().flat_map(Series::times));
        let t = |ms: f64| if log { ms.log10() } else { ms };
        let n = series.iter().map(|s| s.times().count()).max().unwrap_or(1);
        let pad = (0.01 * n as f64).max(0.5);
        let (lo, hi) = (1.0 - pad, n as f64 + pad);
        let (mut ticks, _) = nice_ticks(lo, hi, 10);
        ticks.retain(|v| *v >= 1.0 && v.fract() == 0.0); // ranks are whole numbers
        if ticks.first() != Some(&1.0) {
            ticks.insert(0, 1.0);
        }
        let x = Axis {
            lo,
            hi,
            ticks,
            light: Vec::new(),
            desc: "variant rank (fastest first)".into(),
            labels: Labels::Decimals(0),
        };
        let layers = series
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut times: Vec<f64> = s.times().collect();
                times.sort_by(f64::total_cmp);
                let points = times
                    .iter()
                    .enumerate()
                    .map(|(r, ms)| ((r + 1) as f64, t(*ms)))
                    .collect();
                Layer {
                    color: PALETTE[i % PALETTE.len()],
                    label: s.label.clone(),
                    kind: LayerKind::Line(points),
                }
            })
            .collect();
        let what = if series.len() == 1 {
            format!("the {n} correct variants, sorted")
        } else {
            "every correct variant, sorted".into()
        };
        Chart {
            title: format!("{}: median kernel time of {what}", subject(series)),
            x,
            y,
            layers,
            notes: Vec::new(),
        }
    }

    fn by_param(series: &[Series], param: &str) -> anyhow::Result<Chart> {
        for s in series {
            if !s.params.iter().any(|p| p == param) {
                let mut msg = format!("experiment {} has no tuning parameter `{param}`", s.id);
                if let Some(hint) =
                    orcl_frontend::diag::did_you_mean(param, s.params.iter().map(String::as_str))
                {
                    msg.push_str(&format!("; {hint}"));
                }
                let list = if s.params.is_empty() {
                    "none".to_string()
                } else {
                    s.params.join(", ")
                };
                msg.push_str(&format!(" (its parameters: {list})"));
                bail!(msg);
            }
        }
        // Categories: every value any (non-constraint) evaluation has, sorted naturally.
        let mut values: Vec<Value> = Vec::new();
        for s in series {
            for e in &s.evals {
                if let Some(v) = e.config.get(param) {
                    if !values.contains(v) {
                        values.push(v.clone());
                    }
                }
            }
        }
        values.sort_by(natural_cmp);
        let (y, log) = Axis::time(series.iter().flat_map(Series::times));
        let t = |ms: f64| if log { ms.log10() } else { ms };
        let m = series.len();
        let slot = 0.8 / m as f64;
        let mut layers = Vec::new();
        let mut notes = Vec::new();
        for (j, s) in series.iter().enumerate() {
            let mut boxes = Vec::new();
            let mut points = Vec::new();
            for (i, v) in values.iter().enumerate() {
                let x = i as f64 - 0.4 + (j as f64 + 0.5) * slot;
                let mut times: Vec<f64> = s
                    .evals
                    .iter()
                    .filter(|e| e.config.get(param) == Some(v))
                    .filter_map(|e| e.ms)
                    .collect();
                if times.is_empty() {
                    notes.push((x, y.lo + 0.03 * (y.hi - y.lo), "no ok".to_string()));
                    continue;
                }
                for (k, ms) in times.iter().enumerate() {
                    points.push((x + jitter(k) * 0.8 * slot, t(*ms)));
                }
                times.sort_by(f64::total_cmp);
                let sum = Summary::of(&times);
                let sum = Summary {
                    min: t(sum.min),
                    q1: t(sum.q1),
                    median: t(sum.median),
                    q3: t(sum.q3),
                    max: t(sum.max),
                };
                boxes.push((x, sum));
            }
            layers.push(Layer {
                color: PALETTE[j % PALETTE.len()],
                label: s.label.clone(),
                kind: LayerKind::Boxes {
                    boxes,
                    half: 0.25 * slot,
                    points,
                },
            });
        }
        let k = values.len();
        let x = Axis {
            lo: -0.5,
            hi: k as f64 - 0.5,
            ticks: (0..k).map(|i| i as f64).collect(),
            light: Vec::new(),
            desc: param.to_string(),
            labels: Labels::Categories(values.iter().map(value_label).collect()),
        };
        Ok(Chart {
            title: format!("{}: median kernel time by {param}", subject(series)),
            x,
            y,
            layers,
            notes,
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Svg,
    Png,
}

impl Format {
    fn of(output: &Path) -> anyhow::Result<Format> {
        let ext = output
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ext.as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            Some(other) => bail!(
                "cannot write `.{other}` charts ({}): the output must end in .svg or .png",
                output.display()
            ),
            None => bail!(
                "output {} has no extension: it must end in .svg or .png",
                output.display()
            ),
        }
    }
}

/// Registers the embedded font once; plotters measures (SVG) and draws (PNG) text with it.
pub(crate) fn register_font() -> anyhow::Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES).is_ok()
    });
    if ok {
        Ok(())
    } else {
        bail!("the embedded font assets/DejaVuSans.ttf is not a valid font")
    }
}

fn render(chart: &Chart, format: Format, output: &Path) -> anyhow::Result<()> {
    register_font()?;
    let result = match format {
        Format::Svg => draw(SVGBackend::new(output, SIZE).into_drawing_area(), chart),
        Format::Png => draw(BitMapBackend::new(output, SIZE).into_drawing_area(), chart),
    };
    result.with_context(|| format!("cannot write {}", output.display()))
}

/// Width of `text` in pixels at `size` in the embedded font (0 if it cannot be measured).
fn text_width(text: &str, size: u32) -> u32 {
    let font: FontDesc = (FONT, size).into_font();
    font.box_size(text).map(|(w, _)| w).unwrap_or(0)
}

fn err<E: fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("{e}")
}

/// Height of the legend strip below the plot area.
fn legend_height(rows: usize) -> u32 {
    16 + 26 * rows as u32
}

fn darker(c: RGBColor) -> RGBColor {
    RGBColor(
        (f64::from(c.0) * 0.62) as u8,
        (f64::from(c.1) * 0.62) as u8,
        (f64::from(c.2) * 0.62) as u8,
    )
}

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, chart: &Chart) -> anyhow::Result<()> {
    root.fill(&WHITE).map_err(err)?;
    let (_, height) = root.dim_in_pixel();
    let legend_h = legend_height(chart.layers.len()).min(height / 2);
    let (top, bottom) = root.split_vertically(height - legend_h);
    // Category labels that would collide are turned 90°, in a taller label area.
    let (width, _) = top.dim_in_pixel();
    let widest = match &chart.x.labels {
        Labels::Categories(c) => c.iter().map(|l| text_width(l, 15)).max().unwrap_or(0),
        _ => 0,
    };
    let rotate = match &chart.x.labels {
        Labels::Categories(c) => widest + 12 > width.saturating_sub(140) / c.len().max(1) as u32,
        _ => false,
    };
    let x_label_area = if rotate {
        (widest + 46).min(height / 3)
    } else {
        52
    };
    let mut cc = ChartBuilder::on(&top)
        .caption(&chart.title, (FONT, 22).into_font().color(&TEXT))
        .margin_top(12)
        .margin_left(16)
        .margin_right(28)
        .margin_bottom(4)
        .x_label_area_size(x_label_area)
        .y_label_area_size(86)
        .build_cartesian_2d(Fixed::from(&chart.x), Fixed::from(&chart.y))
        .map_err(err)?;
    let x_fmt = |v: &f64| chart.x.label(*v);
    let y_fmt = |v: &f64| chart.y.label(*v);
    let mut mesh = cc.configure_mesh();
    mesh.x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .x_desc(chart.x.desc.as_str())
        .y_desc(chart.y.desc.as_str())
        .label_style((FONT, 15).into_font().color(&TEXT))
        .axis_desc_style((FONT, 17).into_font().color(&TEXT))
        .bold_line_style(RGBColor(0xD4, 0xD4, 0xD4))
        .light_line_style(RGBColor(0xEE, 0xEE, 0xEE))
        .axis_style(GREY);
    // plotters centres every x label on its tick, also a turned one: draw those ourselves.
    let blank = |_: &f64| String::new();
    if rotate {
        mesh.x_label_formatter(&blank);
    }
    if let Labels::Categories(c) = &chart.x.labels {
        mesh.disable_x_mesh();
        mesh.draw().map_err(err)?;
        // Light separators between categories instead of grid lines through the boxes.
        let sep = RGBColor(0xE4, 0xE4, 0xE4);
        cc.draw_series((1..c.len()).map(|i| {
            let x = i as f64 - 0.5;
            PathElement::new(vec![(x, chart.y.lo), (x, chart.y.hi)], sep)
        }))
        .map_err(err)?;
        if rotate {
            let style = (FONT, 15)
                .into_font()
                .color(&TEXT)
                .transform(FontTransform::Rotate270)
                .pos(Pos::new(HPos::Right, VPos::Center));
            for (i, label) in c.iter().enumerate() {
                let (px, py) = cc.backend_coord(&(i as f64, chart.y.lo));
                top.draw(&Text::new(label.clone(), (px, py + 10), style.clone()))
                    .map_err(err)?;
            }
        }
    } else {
        mesh.draw().map_err(err)?;
    }
    for layer in &chart.layers {
        draw_layer(&mut cc, layer)?;
    }
    for (x, y, text) in &chart.notes {
        let style = (FONT, 13)
            .into_font()
            .color(&GREY)
            .pos(Pos::new(HPos::Center, VPos::Bottom));
        cc.draw_series(std::iter::once(Text::new(text.clone(), (*x, *y), style)))
            .map_err(err)?;
    }
    draw_legend(&bottom, chart, cc.plotting_area().get_pixel_range().0.start)?;
    root.present().map_err(err)?;
    Ok(())
}

/// A linear f64 axis whose tick marks and grid lines are exactly the [`Axis`]'s (plotters' own
/// key-point choice is replaced; its label formatter is ours too).
#[derive(Debug, Clone)]
struct Fixed {
    lo: f64,
    hi: f64,
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl From<&Axis> for Fixed {
    fn from(a: &Axis) -> Fixed {
        Fixed {
            lo: a.lo,
            hi: a.hi,
            bold: a.ticks.clone(),
            light: a.light.clone(),
        }
    }
}

impl Ranged for Fixed {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        if self.hi == self.lo {
            return (limit.0 + limit.1) / 2;
        }
        let share = ((v - self.lo) / (self.hi - self.lo)).clamp(-10.0, 10.0);
        limit.0 + (f64::from(limit.1 - limit.0) * share).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

type Coords = Cartesian2d<Fixed, Fixed>;

fn draw_layer<DB: DrawingBackend>(
    cc: &mut ChartContext<'_, DB, Coords>,
    layer: &Layer,
) -> anyhow::Result<()> {
    let color = layer.color;
    match &layer.kind {
        LayerKind::Line(points) => {
            cc.draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                .map_err(err)?;
            if points.len() <= MARKERS_UP_TO {
                cc.draw_series(points.iter().map(|p| Circle::new(*p, 4, color.filled())))
                    .map_err(err)?;
            }
        }
        LayerKind::Boxes {
            boxes,
            half,
            points,
        } => {
            // Order: a faint box, the points, then the box's lines on top of them.
            let dark = darker(color);
            let line = dark.stroke_width(2);
            cc.draw_series(boxes.iter().map(|(x, s)| {
                Rectangle::new(
                    [(x - half, s.q1), (x + half, s.q3)],
                    color.mix(0.12).filled(),
                )
            }))
            .map_err(err)?;
            let per_box = points.len() / boxes.len().max(1);
            let (radius, alpha) = match per_box {
                0..=40 => (4, 0.75),
                41..=300 => (3, 0.5),
                _ => (2, 0.4),
            };
            cc.draw_series(
                points
                    .iter()
                    .map(|p| Circle::new(*p, radius, color.mix(alpha).filled())),
            )
            .map_err(err)?;
            for (x, s) in boxes {
                let (l, r) = (x - half, x + half);
                let cap = half * 0.5;
                // Closed paths, not stroked Rectangles: the SVG backend ignores a rectangle's
                // stroke width.
                let shapes = [
                    PathElement::new(
                        vec![(l, s.q1), (r, s.q1), (r, s.q3), (l, s.q3), (l, s.q1)],
                        line,
                    ),
                    PathElement::new(vec![(*x, s.q3), (*x, s.max)], line),
                    PathElement::new(vec![(*x, s.q1), (*x, s.min)], line),
                    PathElement::new(vec![(x - cap, s.max), (x + cap, s.max)], line),
                    PathElement::new(vec![(x - cap, s.min), (x + cap, s.min)], line),
                    PathElement::new(vec![(l, s.median), (r, s.median)], dark.stroke_width(4)),
                ];
                cc.draw_series(shapes).map_err(err)?;
            }
        }
    }
    Ok(())
}

/// One row per layer: a swatch of its colour and its label, left-aligned with the plot area.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &Chart,
    left: i32,
) -> anyhow::Result<()> {
    let style = (FONT, 15)
        .into_font()
        .color(&TEXT)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, layer) in chart.layers.iter().enumerate() {
        let y = 8 + 13 + 26 * i as i32;
        match layer.kind {
            LayerKind::Line(_) => {
                area.draw(&PathElement::new(
                    vec![(left, y), (left + 34, y)],
                    layer.color.stroke_width(3),
                ))
                .map_err(err)?;
            }
            LayerKind::Boxes { .. } => {
                area.draw(&Rectangle::new(
                    [(left + 8, y - 8), (left + 26, y + 8)],
                    layer.color.mix(0.45).filled(),
                ))
                .map_err(err)?;
                let (l, r, t, b) = (left + 8, left + 26, y - 8, y + 8);
                area.draw(&PathElement::new(
                    vec![(l, t), (r, t), (r, b), (l, b), (l, t)],
                    darker(layer.color).stroke_width(2),
                ))
                .map_err(err)?;
            }
        }
        area.draw(&Text::new(
            layer.label.clone(),
            (left + 44, y),
            style.clone(),
        ))
        .map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A configuration and its time (`None`: failed).
    type Row<'a> = (Vec<(&'a str, Value)>, Option<f64>);

    fn series(id: i64, evals: Vec<Row<'_>>) -> Series {
        let evals: Vec<Eval> = evals
            .into_iter()
            .map(|(c, ms)| Eval {
                config: Ordered(c.into_iter().map(|(k, v)| (k.to_string(), v)).collect()),
                ms,
            })
            .collect();
        let params = evals[0].config.0.iter().map(|(k, _)| k.clone()).collect();
        Series {
            id,
            region: "f (f.c)".into(),
            label: format!("experiment {id}"),
            evals,
            params,
        }
    }

    #[test]
    fn ordered_keeps_document_order() {
        let o = Ordered::parse(r#"{"WI":1,"CB":true,"A":"x"}"#, "t").unwrap();
        let keys: Vec<&str> = o.0.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["WI", "CB", "A"]);
        assert!(Ordered::parse("[1]", "t").is_err());
    }

    #[test]
    fn natural_order() {
        let mut v: Vec<Value> =
            serde_json::from_str(r#"["b", 10, true, 2, "", false, 2.5, "a"]"#).unwrap();
        v.sort_by(natural_cmp);
        let labels: Vec<String> = v.iter().map(value_label).collect();
        assert_eq!(
            labels,
            [
                "False",
                "True",
                "2",
                "2.5",
                "10",
                "'' (empty)",
                "'a'",
                "'b'"
            ]
        );
    }

    #[test]
    fn quartiles() {
        let s = Summary::of(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(
            s,
            Summary {
                min: 1.0,
                q1: 2.0,
                median: 3.0,
                q3: 4.0,
                max: 5.0
            }
        );
        let s = Summary::of(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!((s.q1, s.median, s.q3), (1.75, 2.5, 3.25));
        let s = Summary::of(&[7.0]);
        assert_eq!(
            (s.min, s.q1, s.median, s.q3, s.max),
            (7.0, 7.0, 7.0, 7.0, 7.0)
        );
    }

    #[test]
    fn jitter_is_bounded_and_deterministic() {
        for k in 0..1000 {
            assert!((-0.5..0.5).contains(&jitter(k)));
            assert_eq!(jitter(k), jitter(k));
        }
    }

    #[test]
    fn ticks() {
        let (t, step) = nice_ticks(0.0, 1.0, 8);
        assert_eq!(step, 0.2);
        assert_eq!(t, [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(decimals(step), 1);
        assert_eq!(decimals(5.0), 0);
        assert_eq!(decimals(0.05), 2);
        let (bold, light) = log_ticks(-1.7, 0.4, 2.0); // 0.02 .. 2.5
        let labels: Vec<String> = bold
            .iter()
            .map(|v| {
                Axis {
                    lo: 0.0,
                    hi: 0.0,
                    ticks: vec![],
                    light: vec![],
                    desc: String::new(),
                    labels: Labels::Log10,
                }
                .label(*v)
            })
            .collect();
        assert_eq!(labels, ["0.02", "0.05", "0.1", "0.2", "0.5", "1", "2"]);
        assert!(light.len() > bold.len());
    }

    #[test]
    fn log_scale_only_when_wide() {
        let (_, log) = Axis::time([1.0, 15.0].into_iter());
        assert!(!log);
        let (a, log) = Axis::time([1.0, 25.0].into_iter());
        assert!(log);
        assert!(a.desc.starts_with(Y_LABEL));
    }

    #[test]
    fn format_by_extension() {
        assert_eq!(Format::of(Path::new("a.svg")).unwrap(), Format::Svg);
        assert_eq!(Format::of(Path::new("a.PNG")).unwrap(), Format::Png);
        assert!(Format::of(Path::new("a.pdf")).is_err());
        assert!(Format::of(Path::new("a")).is_err());
    }

    #[test]
    fn unknown_parameter_suggests() {
        let s = series(
            3,
            vec![(vec![("WI", 1.into()), ("CB", true.into())], Some(1.0))],
        );
        let e = Chart::by_param(&[s], "WJ").unwrap_err().to_string();
        assert!(
            e.contains("experiment 3 has no tuning parameter `WJ`"),
            "{e}"
        );
        assert!(e.contains("did you mean `WI`?"), "{e}");
        assert!(e.contains("WI, CB"), "{e}");
    }

    #[test]
    fn by_param_categories_and_boxes() {
        let s = series(
            1,
            vec![
                (vec![("WI", 64.into())], Some(2.0)),
                (vec![("WI", 8.into())], Some(1.0)),
                (vec![("WI", 64.into())], Some(4.0)),
                (vec![("WI", 16.into())], None),
            ],
        );
        let c = Chart::by_param(&[s], "WI").unwrap();
        match &c.x.labels {
            Labels::Categories(l) => assert_eq!(l, &["8", "16", "64"]),
            other => panic!("{other:?}"),
        }
        assert_eq!(c.notes.len(), 1, "WI=16 has no ok evaluation");
        match &c.layers[0].kind {
            LayerKind::Boxes { boxes, points, .. } => {
                assert_eq!(points.len(), 3);
                assert_eq!(boxes.len(), 2);
                assert_eq!((boxes[1].0.round(), boxes[1].1.median), (2.0, 3.0));
            }
            other => panic!("{other:?}"),
        }
    }

    /// Draws into an in-memory bitmap and checks that it is not blank and that text was drawn.
    #[test]
    fn bitmap_is_drawn_with_text() {
        register_font().unwrap();
        let s = series(
            1,
            (1..=100)
                .map(|i| (vec![("WI", (i % 4).into())], Some(f64::from(i) * 0.37)))
                .collect(),
        );
        for chart in [
            Chart::sorted(std::slice::from_ref(&s)),
            Chart::by_param(&[s], "WI").unwrap(),
        ] {
            let mut buf = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
            draw(
                BitMapBackend::with_buffer(&mut buf, SIZE).into_drawing_area(),
                &chart,
            )
            .unwrap();
            let px = |x: u32, y: u32| {
                let i = ((y * SIZE.0 + x) * 3) as usize;
                (buf[i], buf[i + 1], buf[i + 2])
            };
            let non_white = (0..SIZE.1)
                .flat_map(|y| (0..SIZE.0).map(move |x| (x, y)))
                .filter(|&(x, y)| px(x, y) != (255, 255, 255))
                .count();
            assert!(non_white > 5_000, "{non_white} non-white pixels");
            // The title: dark pixels in the top band.
            let dark_title = (0..40)
                .flat_map(|y| (0..SIZE.0).map(move |x| (x, y)))
                .filter(|&(x, y)| px(x, y).0 < 100)
                .count();
            assert!(
                dark_title > 200,
                "{dark_title} dark pixels in the title band"
            );
        }
    }

    /// Degenerate data still draws: one variant, identical times, many crowded categories.
    #[test]
    fn degenerate_charts_draw() {
        register_font().unwrap();
        let one = series(1, vec![(vec![("WI", 1.into())], Some(0.5))]);
        let same = series(
            2,
            (0..5)
                .map(|i| (vec![("WI", i.into())], Some(2.0)))
                .collect(),
        );
        let crowded = series(
            3,
            (0..200)
                .map(|i| {
                    let flag = Value::String(format!("-cl-option-number-{}", i % 40));
                    (vec![("CL", flag)], Some(1.0 + f64::from(i)))
                })
                .collect(),
        );
        let charts = [
            Chart::sorted(std::slice::from_ref(&one)),
            Chart::by_param(std::slice::from_ref(&one), "WI").unwrap(),
            Chart::sorted(std::slice::from_ref(&same)),
            Chart::by_param(&[same], "WI").unwrap(),
            Chart::by_param(&[crowded], "CL").unwrap(),
        ];
        let sorted_one = &charts[0];
        assert_eq!(sorted_one.x.ticks, [1.0], "whole ranks only");
        for chart in &charts {
            let mut buf = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
            draw(
                BitMapBackend::with_buffer(&mut buf, SIZE).into_drawing_area(),
                chart,
            )
            .unwrap();
        }
    }
}
