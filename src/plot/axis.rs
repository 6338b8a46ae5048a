//! Axes: tick positions and labels, linear or logarithmic.

use super::{LOG_RATIO, Y_LABEL};

/// One axis: its range and tick positions in plot coordinates, and how a tick is labelled.
#[derive(Debug, Clone)]
pub(super) struct Axis {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) ticks: Vec<f64>,
    pub(super) light: Vec<f64>,
    pub(super) desc: String,
    pub(super) labels: Labels,
}

#[derive(Debug, Clone)]
pub(super) enum Labels {
    /// Plain numbers with this many decimals.
    Decimals(usize),
    /// Plot coordinate is log10 of the value.
    Log10,
    /// Category `i` sits at x = i.
    Categories(Vec<String>),
}

impl Axis {
    pub(super) fn label(&self, v: f64) -> String {
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
    pub(super) fn time(times: impl Iterator<Item = f64>) -> (Axis, bool) {
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
pub(super) fn nice_ticks(lo: f64, hi: f64, n: usize) -> (Vec<f64>, f64) {
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

pub(super) fn decimals(step: f64) -> usize {
    (-(step.log10() + 1e-9).floor()).max(0.0) as usize
}

/// Bold and light ticks of a log10 axis over [lo, hi] (in log10 units) that spans `decades`:
/// labelled ticks at 1, 2, 5 × 10^k (1, 3 × 10^k beyond 2 decades, only 10^k beyond 4), light
/// lines at every m × 10^k.
pub(super) fn log_ticks(lo: f64, hi: f64, decades: f64) -> (Vec<f64>, Vec<f64>) {
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
