//! The finalists: the few fastest distinct variants of an experiment re-measured with three times
//! the repetitions before the winner is chosen, so that a single noisy sample does not decide the
//! tuned file. Under an energy objective the finalists are the most efficient and their energy is
//! measured again too (docs/ENERGY.md).

use super::energy::Objective;
use super::pipeline::{measure_objective, variant_for, variant_key, Skeletons, Workers};
use super::settings::objective_is_total;
use super::{Confirmed, Evaluated, TuneError, TuneOptions, FINALISTS};
use crate::db::Db;
use crate::prepare::Prepared;
use orcl_frontend::space::SearchSpace;
use std::collections::HashSet;

/// Re-measures up to [`FINALISTS`] distinct variants (by `variant_key`: source, build options,
/// NDRange or grid, skeleton plan), fastest first, on the first device with `3 × reps`
/// repetitions; records them as the experiment's `final_remeasurement` and `winner` metadata.
/// Returns the finalists and the winner (the fastest re-measured median; under an energy or EDP
/// objective, the smallest re-measured objective value), or `None` when none could be
/// re-measured.
#[allow(clippy::too_many_arguments)]
pub(super) fn confirm(
    db: &Db,
    experiment_id: i64,
    p: &Prepared,
    space: &SearchSpace,
    opts: &TuneOptions,
    skeletons: &Skeletons,
    workers: &mut Workers,
    reps: u32,
    evaluations: &[Evaluated],
    objective: Objective,
) -> Result<Option<Confirmed>, TuneError> {
    let mut ranked: Vec<(usize, f64)> = evaluations
        .iter()
        .enumerate()
        .filter_map(|(i, e)| objective.value(&e.outcome).map(|m| (i, m)))
        .collect();
    ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
    let mut seen = HashSet::new();
    let mut finals = Vec::new();
    // (finalist, objective value) where it differs from the median (energy, EDP).
    let mut values: Vec<(usize, f64)> = Vec::new();
    let runner = &mut workers.runner;
    runner.repetitions = reps.saturating_mul(3).max(reps);
    for (i, _) in ranked {
        if finals.len() >= FINALISTS {
            break;
        }
        let Ok(v) = variant_for(p, space, &evaluations[i].config, opts, None) else {
            continue;
        };
        let Ok(plan) = skeletons.plan_for(space, &evaluations[i].config) else {
            continue;
        };
        let Some(exe) = skeletons.built(&plan) else {
            continue;
        };
        // Distinct as measurements are distinct (source, options, NDRange or grid, build plan).
        if !seen.insert(variant_key(&v, &plan)) {
            continue;
        }
        runner.use_skeleton(exe);
        let mut o = measure_objective(runner, &v, objective_is_total(p));
        if let Some(meter) = workers.energy.as_mut() {
            meter.measure(runner, &v, &evaluations[i].config, &mut o);
        }
        if let (Some(m), Some(x)) = (o.median_ms(), objective.value(&o)) {
            finals.push((i, m));
            values.push((i, x));
        }
    }
    let Some(&(i, _)) = values.iter().min_by(|a, b| a.1.total_cmp(&b.1)) else {
        return Ok(None);
    };
    let m = finals.iter().find(|f| f.0 == i).map_or(0.0, |f| f.1);
    let json: Vec<serde_json::Value> = finals
        .iter()
        .zip(&values)
        .map(|((i, m), (_, x))| {
            let mut j = serde_json::json!({"config": evaluations[*i].config.key(), "median_ms": m, "repetitions": runner.repetitions});
            if objective.needs_energy() {
                j["objective"] = serde_json::json!(x);
            }
            j
        })
        .collect();
    db.set_metadata(
        experiment_id,
        "final_remeasurement",
        &serde_json::Value::Array(json).to_string(),
    )?;
    db.set_metadata(experiment_id, "winner", &evaluations[i].config.key())?;
    Ok(Some(Confirmed {
        winner: i,
        winner_ms: m,
        finalists: finals,
        repetitions: Some(runner.repetitions),
    }))
}
