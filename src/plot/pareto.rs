//! The time/energy chart (`orcl plot --pareto`): every variant with an energy reading as a point
//! (median time, energy per call), the time/energy Pareto front of each experiment as a line.

use super::axis::Axis;
use super::chart::{Chart, Layer, LayerKind};
use super::data::{subject, Series};
use super::{PALETTE, Y_LABEL};

impl Chart {
    /// Points (x = median ms, y = mJ per call; each axis logarithmic past [`super::LOG_RATIO`])
    /// and, per experiment, its front ([`crate::dbcli::pareto::front`]) joined by a line, fastest
    /// first.
    pub(super) fn pareto(series: &[Series]) -> Chart {
        let pairs = |s: &Series| -> Vec<(f64, f64)> {
            s.evals
                .iter()
                .filter_map(|e| Some((e.time_ms?, e.energy_mj?)))
                .collect()
        };
        let all: Vec<(f64, f64)> = series.iter().flat_map(pairs).collect();
        let (mut x, xlog) = Axis::time(all.iter().map(|p| p.0));
        let (mut y, ylog) = Axis::time(all.iter().map(|p| p.1));
        y.desc = y.desc.replace(Y_LABEL, "energy per call (mJ)");
        x.desc = x.desc.replace(Y_LABEL, "median kernel time (ms)");
        let at = |p: (f64, f64)| {
            (
                if xlog { p.0.log10() } else { p.0 },
                if ylog { p.1.log10() } else { p.1 },
            )
        };
        let mut layers = Vec::new();
        for (i, s) in series.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let pts = pairs(s);
            let front: Vec<(f64, f64)> = crate::dbcli::pareto::front(&pts)
                .into_iter()
                .map(|k| at(pts[k]))
                .collect();
            layers.push(Layer {
                color,
                label: s.label.clone(),
                kind: LayerKind::Boxes {
                    boxes: Vec::new(),
                    half: 0.0,
                    points: pts.into_iter().map(at).collect(),
                },
            });
            layers.push(Layer {
                color,
                label: format!(
                    "experiment {}: Pareto front ({} variants)",
                    s.id,
                    front.len()
                ),
                kind: LayerKind::Line(front),
            });
        }
        Chart {
            title: format!(
                "{}: energy per call against median kernel time, Pareto front joined",
                subject(series)
            ),
            x,
            y,
            layers,
            notes: Vec::new(),
        }
    }
}
