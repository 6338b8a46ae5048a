//! `orcl db show ID --pareto`: the time/energy Pareto front of an experiment (docs/ENERGY.md).

use std::path::Path;

use anyhow::{bail, Context};
use comfy_table::Cell;
use serde_json::json;

use crate::db::EvaluationRow;

use super::{config_display, fmt_ms, num, open, parse_json, print_json, right, table};

/// Indices of the points of `points` (time, energy), both minimised, that no other point
/// dominates (no other is at most as large in both and smaller in one), ordered by time
/// ascending (energy then descending). Of identical points the first is kept. Sort and sweep,
/// O(n log n) (Kung, Luccio and Preparata, "On finding the maxima of a set of vectors", JACM
/// 1975). Points with a NaN coordinate are never on the front.
pub fn front(points: &[(f64, f64)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len())
        .filter(|&i| !points[i].0.is_nan() && !points[i].1.is_nan())
        .collect();
    order.sort_by(|&a, &b| {
        (points[a].0.total_cmp(&points[b].0))
            .then(points[a].1.total_cmp(&points[b].1))
            .then(a.cmp(&b))
    });
    let mut out = Vec::new();
    let mut best = f64::INFINITY;
    for i in order {
        if points[i].1 < best {
            best = points[i].1;
            out.push(i);
        }
    }
    out
}

/// The `ok` evaluations of `rows` with a median and an energy reading, and the indices (into
/// that list) of its Pareto front in time (median ms) and energy (J per call).
pub fn front_of(rows: &[EvaluationRow]) -> (Vec<&EvaluationRow>, Vec<usize>) {
    let measured: Vec<&EvaluationRow> = rows
        .iter()
        .filter(|r| r.status == "ok" && r.median_ms.is_some() && r.energy_j.is_some())
        .collect();
    let points: Vec<(f64, f64)> = measured
        .iter()
        .map(|r| {
            (
                r.median_ms.unwrap_or(f64::NAN),
                r.energy_j.unwrap_or(f64::NAN),
            )
        })
        .collect();
    let f = front(&points);
    (measured, f)
}

/// `orcl db show ID --pareto`: the configurations of experiment `id` on the time/energy Pareto
/// front (no other configuration is both as fast and as efficient and better in one), fastest
/// first: configuration, median ms, energy per call mJ, power W. `--json`: `{"experiment_id",
/// "with_energy": n, "front": [{"config_key", "config", "configuration", "median_ms", "energy_j",
/// "power_w", "evaluation_id"}]}` (J, W). Errors: no database, no such experiment, or an
/// experiment without energy readings (tuned with objective `time`; `orcl tune --objective
/// energy` measures them on an NVIDIA GPU).
pub fn show_pareto(db: &Path, id: i64, json: bool) -> anyhow::Result<()> {
    let conn = open(db)?;
    let ctx = || format!("cannot read experiment {id} of {}", db.display());
    if conn.experiment(id).with_context(ctx)?.is_none() {
        bail!("no experiment {id} in {}", db.display());
    }
    let rows = conn.evaluations(id).with_context(ctx)?;
    let (measured, f) = front_of(&rows);
    if measured.is_empty() {
        bail!(
            "experiment {id} has no energy readings: tune with `--objective energy` (or `edp`) on an NVIDIA GPU to measure them"
        );
    }
    if json {
        let front: Vec<serde_json::Value> = f
            .iter()
            .map(|&i| {
                let r = measured[i];
                json!({
                    "evaluation_id": r.id,
                    "config_key": r.config_key,
                    "config": parse_json(&r.config_json),
                    "configuration": config_display(&r.config_key),
                    "median_ms": num(r.median_ms),
                    "energy_j": num(r.energy_j),
                    "power_w": num(r.power_w),
                })
            })
            .collect();
        return print_json(&json!({
            "experiment_id": id,
            "with_energy": measured.len(),
            "front": front,
        }));
    }
    orcl_frontend::outln!(
        "experiment {id}: {} of {} configurations with energy readings on the time/energy Pareto front",
        f.len(),
        measured.len()
    );
    let mut t = table(&["configuration", "median ms", "energy mJ", "power W"]);
    for &i in &f {
        let r = measured[i];
        t.add_row(vec![
            Cell::new(config_display(&r.config_key)),
            right(fmt_ms(r.median_ms)),
            right(
                r.energy_j
                    .map(|j| format!("{:.4}", j * 1e3))
                    .unwrap_or_default(),
            ),
            right(r.power_w.map(|w| format!("{w:.1}")).unwrap_or_default()),
        ]);
    }
    orcl_frontend::outln!("{t}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::front;

    /// Against the definition: a point is on the front iff no other point dominates it.
    #[test]
    fn front_is_the_non_dominated_points() {
        let pts = [
            (1.0, 9.0),
            (2.0, 5.0),
            (2.0, 6.0),
            (3.0, 5.0),
            (4.0, 1.0),
            (5.0, 2.0),
            (0.5, f64::NAN),
            (2.0, 5.0),
        ];
        let f = front(&pts);
        assert_eq!(f, vec![0, 1, 4]);
        let dominated = |i: usize| {
            pts.iter().enumerate().any(|(j, q)| {
                j != i && q.0 <= pts[i].0 && q.1 <= pts[i].1 && (q.0 < pts[i].0 || q.1 < pts[i].1)
            })
        };
        for i in [0usize, 1, 2, 3, 4, 5] {
            assert_eq!(f.contains(&i), !dominated(i), "point {i}");
        }
    }
}
