//! Charts: the layers (lines, points, boxes) of a sorted or by-parameter chart.

use anyhow::bail;
use plotters::prelude::*;
use serde_json::Value;

use super::axis::{nice_ticks, Axis, Labels};
use super::data::{jitter, natural_cmp, subject, value_label, Series, Summary};
use super::PALETTE;

/// A backend-independent description of what to draw.
#[derive(Debug, Clone)]
pub(super) struct Chart {
    pub(super) title: String,
    pub(super) x: Axis,
    pub(super) y: Axis,
    pub(super) layers: Vec<Layer>,
    /// Texts at plot coordinates (e.g. "no ok" under an empty category).
    pub(super) notes: Vec<(f64, f64, String)>,
}

#[derive(Debug, Clone)]
pub(super) struct Layer {
    pub(super) color: RGBColor,
    pub(super) label: String,
    pub(super) kind: LayerKind,
}

#[derive(Debug, Clone)]
pub(super) enum LayerKind {
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
pub(super) const MARKERS_UP_TO: usize = 60;

impl Chart {
    pub(super) fn sorted(series: &[Series]) -> Chart {
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

    pub(super) fn by_param(series: &[Series], param: &str) -> anyhow::Result<Chart> {
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
