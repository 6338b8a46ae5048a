//! `orcl tune --warm-start`: seeds the search with the best configurations the database holds for
//! the same loop (same loop hash: the loop and its measurement settings, in any file) at other
//! input sizes or on other devices (issue 27).
//!
//! The recorded experiments of the loop are ranked by similarity to the one being tuned: the same
//! device first, then a device of the same model (same name and backend), then any other; within
//! a rank, the nearest input size first ([`crate::db::sizes`]: the fewest input parameters that
//! differ and are not positive numbers on both sides, then Σ |ln(recorded / current)|), then the
//! newest. The most
//! similar experiment with a successful evaluation gives its [`crate::replay::WARM_COUNT`] fastest
//! configurations, which the strategy proposes first ([`orcl_search::Strategy::warm_start`]).

use crate::db::sizes::{self, SizeDistance};
use crate::db::{Db, ExperimentRow};
use orcl_frontend::space::Configuration;
use serde_json::{Map, Value as Json};

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
    let wanted = sizes::wanted_of(&me.input_params_json);
    let mut ranked: Vec<(u8, SizeDistance, i64, ExperimentRow)> = Vec::new();
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
        let recorded = match serde_json::from_str(&e.input_params_json) {
            Ok(Json::Object(o)) => o,
            _ => Map::new(),
        };
        ranked.push((rank, sizes::distance(&wanted, &recorded), -e.id, e));
    }
    // Within a rank, the order of `sizes::nearest`: least distance, ties to the newest.
    ranked.sort_by_key(|r| (r.0, r.1, r.2));
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
