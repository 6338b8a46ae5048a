//! `orcl tune --warm-start`: seeds the search with the best configurations the database holds for
//! the same loop (same loop hash: the loop and its measurement settings, in any file) at other
//! input sizes or on other devices (issue 27).
//!
//! The recorded experiments of the loop are ranked by similarity to the one being tuned: the same
//! device first, then a device of the same model (same name and backend), then any other; within
//! a rank, the nearest input size first (the sum over the input parameters of |ln(a/b)|, a
//! parameter that is not a positive number on both sides counting 1), then the newest. The most
//! similar experiment with a successful evaluation gives its [`crate::replay::WARM_COUNT`] fastest
//! configurations, which the strategy proposes first ([`orcl_search::Strategy::warm_start`]).

use crate::db::{Db, ExperimentRow};
use orcl_frontend::space::Configuration;
use std::collections::BTreeMap;

/// What a warm start seeds a search with.
pub(super) struct Seeds {
    /// The configurations, fastest first.
    pub configs: Vec<Configuration>,
    /// One line for the user: how many, from which experiment, why it was chosen.
    pub line: String,
}

/// The seeds for experiment `current` (on device `device_id`) of the loop `loop_hash`, `None`
/// when no other experiment of the loop has a successful evaluation.
///
/// Errors: the database.
pub(super) fn seeds(
    db: &Db,
    loop_hash: &str,
    current: i64,
    device_id: i64,
    count: usize,
) -> Result<Option<Seeds>, crate::db::DbError> {
    let Some(me) = db.experiment(current)? else {
        return Ok(None);
    };
    let my_device = db.device(device_id)?;
    let mut ranked: Vec<(u8, f64, i64, ExperimentRow)> = Vec::new();
    for e in db.experiments_of_loop(loop_hash)? {
        if e.id == current {
            continue;
        }
        let rank = if e.device_id == device_id {
            0
        } else {
            let same_model = match (&my_device, db.device(e.device_id)?) {
                (Some(a), Some(b)) => a.name == b.name && a.backend == b.backend,
                _ => false,
            };
            if same_model {
                1
            } else {
                2
            }
        };
        let d = size_distance(&me.input_params_json, &e.input_params_json);
        ranked.push((rank, d, -e.id, e));
    }
    ranked.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
    for (rank, _, _, e) in ranked {
        let configs: Vec<Configuration> = db
            .best(e.id, count)?
            .iter()
            .filter_map(|r| Configuration::from_key(&r.config_key).ok())
            .collect();
        if configs.is_empty() {
            continue;
        }
        let why = match rank {
            0 => "same device",
            1 => "same device model",
            _ => "another device",
        };
        let line = format!(
            "warm start: seeding the search with the {} fastest configurations of experiment {} ({why}, input {})",
            configs.len(),
            e.id,
            sizes_text(&e.input_params_json)
        );
        return Ok(Some(Seeds { configs, line }));
    }
    Ok(None)
}

/// The input parameters of an experiment's `input_params_json` as numbers (non-numbers: NaN).
fn sizes(json: &str) -> BTreeMap<String, f64> {
    let v: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    v.as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), v.as_f64().unwrap_or(f64::NAN)))
                .collect()
        })
        .unwrap_or_default()
}

/// `N=1000, M=20` (or `no input parameters`).
fn sizes_text(json: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    let parts: Vec<String> = v
        .as_object()
        .map(|o| o.iter().map(|(k, v)| format!("{k}={v}")).collect())
        .unwrap_or_default();
    if parts.is_empty() {
        "with no input parameters".into()
    } else {
        parts.join(", ")
    }
}

/// Σ |ln(a/b)| over the input parameters of either side; 1 for a parameter that is not a
/// positive number on both sides.
pub(super) fn size_distance(a: &str, b: &str) -> f64 {
    let (a, b) = (sizes(a), sizes(b));
    let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    keys.iter()
        .map(|k| match (a.get(*k), b.get(*k)) {
            (Some(&x), Some(&y)) if x > 0.0 && y > 0.0 => (x / y).ln().abs(),
            (Some(&x), Some(&y)) if x == y => 0.0,
            _ => 1.0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::size_distance;

    #[test]
    fn nearest_size_is_by_ratio() {
        let d = |a, b| size_distance(a, b);
        assert_eq!(d(r#"{"N":1000}"#, r#"{"N":1000}"#), 0.0);
        assert!(d(r#"{"N":1000}"#, r#"{"N":2000}"#) < d(r#"{"N":1000}"#, r#"{"N":100}"#));
        assert_eq!(d(r#"{"N":1000}"#, r#"{"M":1000}"#), 2.0);
    }
}
