//! The data of a chart: each experiment's correct evaluations and their configurations.

use std::cmp::Ordering;
use std::fmt;
use std::path::Path;

use anyhow::{anyhow, bail, Context};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use crate::db::Db;

/// A JSON object with its keys in document order (serde_json's `Map` may sort them).
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Ordered(pub(super) Vec<(String, Value)>);

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
    pub(super) fn parse(text: &str, what: &str) -> anyhow::Result<Ordered> {
        serde_json::from_str(text).with_context(|| format!("{what} is not a JSON object: {text}"))
    }

    pub(super) fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// One evaluation: its configuration and, if it is `ok`, its objective.
#[derive(Debug, Clone)]
pub(super) struct Eval {
    pub(super) config: Ordered,
    /// The plotted value ([`Metric`]) of an `ok` evaluation; `None` for failures.
    pub(super) ms: Option<f64>,
    /// Median kernel time (ms) and energy per call (mJ) of an `ok` evaluation, where measured.
    pub(super) time_ms: Option<f64>,
    pub(super) energy_mj: Option<f64>,
}

/// What a chart plots of each correct variant (`orcl plot --metric`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Metric {
    /// Median kernel time (ms).
    #[default]
    Time,
    /// Energy per call (mJ), measured under `--objective energy` (docs/ENERGY.md).
    Energy,
    /// Average device power over the energy window (W).
    Power,
}

impl Metric {
    /// Parses `time`, `energy` or `power`.
    pub fn parse(s: &str) -> Option<Metric> {
        match s {
            "time" => Some(Metric::Time),
            "energy" => Some(Metric::Energy),
            "power" => Some(Metric::Power),
            _ => None,
        }
    }

    /// The axis text of the metric.
    pub(super) fn label(self) -> &'static str {
        match self {
            Metric::Time => super::Y_LABEL,
            Metric::Energy => "energy per call (mJ)",
            Metric::Power => "average power (W)",
        }
    }

    /// The title's words for the metric.
    pub(super) fn what(self) -> &'static str {
        match self {
            Metric::Time => "median kernel time",
            Metric::Energy => "energy per call",
            Metric::Power => "average power",
        }
    }

    fn of(self, row: &crate::db::EvaluationRow) -> Option<f64> {
        match self {
            Metric::Time => row.median_ms,
            Metric::Energy => row.energy_j.map(|j| j * 1e3),
            Metric::Power => row.power_w,
        }
    }
}

/// One experiment, ready to plot.
#[derive(Debug, Clone)]
pub(super) struct Series {
    pub(super) id: i64,
    /// `function (file)` of the region.
    pub(super) region: String,
    /// Legend text.
    pub(super) label: String,
    /// Every evaluation except those excluded by a constraint, in insertion order.
    pub(super) evals: Vec<Eval>,
    /// Tuning parameter names in declaration order (first appearance).
    pub(super) params: Vec<String>,
}

impl Series {
    pub(super) fn load(db: &Db, path: &Path, id: i64, metric: Metric) -> anyhow::Result<Series> {
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
            let ms = match (row.status.as_str(), metric.of(&row)) {
                ("ok", Some(ms)) if ms.is_finite() => Some(ms),
                ("ok", _) => continue, // no objective: nothing to rank
                _ => {
                    failed += 1;
                    None
                }
            };
            let ok = row.status == "ok";
            evals.push(Eval {
                config,
                ms,
                time_ms: row.median_ms.filter(|_| ok),
                energy_mj: row.energy_j.filter(|_| ok).map(|j| j * 1e3),
            });
        }
        let ok = evals.iter().filter(|e| e.ms.is_some()).count();
        if ok == 0 && metric != Metric::Time {
            bail!(
                "experiment {id} has no {} readings to plot: tune with `--objective energy` on an NVIDIA GPU to measure them",
                metric.what()
            );
        }
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
    pub(super) fn times(&self) -> impl Iterator<Item = f64> + '_ {
        self.evals.iter().filter_map(|e| e.ms)
    }
}

/// The title's subject: the region(s) of the experiments.
pub(super) fn subject(series: &[Series]) -> String {
    let mut regions: Vec<&str> = Vec::new();
    for s in series {
        if !regions.contains(&s.region.as_str()) {
            regions.push(&s.region);
        }
    }
    regions.join(" / ")
}

/// How a parameter value is written: as in the annotation (`True`, `64`, `'-O3'`).
pub(super) fn value_label(v: &Value) -> String {
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
pub(super) fn natural_cmp(a: &Value, b: &Value) -> Ordering {
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
pub(super) struct Summary {
    pub(super) min: f64,
    pub(super) q1: f64,
    pub(super) median: f64,
    pub(super) q3: f64,
    pub(super) max: f64,
}

impl Summary {
    pub(super) fn of(sorted: &[f64]) -> Summary {
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
pub(super) fn jitter(k: usize) -> f64 {
    const PHI: f64 = 0.618_033_988_749_894_9;
    ((k as f64 + 1.0) * PHI).fract() - 0.5
}
