//! `orcl tune --json` and `orcl check --json`: what the tables say, as one JSON document on
//! standard output, for scripts and CI (progress and errors stay on standard error).

use crate::prepare::Prepared;
use crate::tune::{InputResult, RegionResult};
use orcl_frontend::diag::InputError;
use orcl_frontend::expr::Value;
use orcl_frontend::space::SearchSpace;
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;

fn sizes(input: &BTreeMap<String, Value>) -> Json {
    Json::Object(
        input
            .iter()
            .map(|(k, v)| (k.clone(), json!(v.to_string())))
            .collect(),
    )
}

fn function(p: &Prepared) -> &str {
    p.region
        .raw
        .function
        .as_ref()
        .map_or("?", |f| f.name.as_str())
}

/// The refused regions: index and every located error (line, column, message, help).
pub(super) fn refused(refused: &[(usize, InputError)]) -> Json {
    let errors = |e: &InputError| -> Vec<Json> {
        e.diagnostics
            .iter()
            .map(|d| {
                let (line, column) = orcl_frontend::diag::line_col(&e.source, d.span.start);
                json!({"line": line, "column": column, "message": d.message, "help": d.help})
            })
            .collect()
    };
    refused
        .iter()
        .map(|(index, e)| json!({"region": index, "errors": errors(e)}))
        .collect()
}

/// `orcl check --json`: per region its place, kernel arguments, loop, outputs, tuning parameters,
/// constraints and, per input size, the configurations and how many satisfy the constraints
/// (`exact`: false when only a lower bound was counted, as `check::count_within` enumerates
/// within one budget for the command; `feasible` null for the sizes past it).
pub(super) fn check(path: &str, text: &str, regions: &[Prepared]) -> Json {
    let left = std::cell::Cell::new(super::check::CheckLeft::new());
    let region = |p: &Prepared| {
        let (line, column) = orcl_frontend::diag::line_col(text, p.region.raw.span.start);
        let spec = &p.region.spec;
        let base = SearchSpace::unbound(spec);
        let inputs: Vec<Json> = p
            .inputs
            .iter()
            .map(|input| {
                let space = base.at_input(spec, input);
                let mut l = left.get();
                let counted = super::check::count_within(&space, &mut l);
                left.set(l);
                let (n, exact) = match counted {
                    Ok(None) => (None, false),
                    Ok(Some((n, exact))) => (Some(n), exact),
                    Err(_) => (Some(0), false),
                };
                json!({"sizes": sizes(input), "configurations": space.size(),
                       "feasible": n, "exact": exact})
            })
            .collect();
        let k = &p.kernel;
        json!({
            "region": p.region.index, "file": path, "line": line, "column": column,
            "function": function(p),
            "transforms": p.region.raw.loop_ann.transforms.iter().map(|t| t.backend.as_str()).collect::<Vec<_>>(),
            "kernel_arguments": k.args.iter().map(|a| json!({"name": a.name, "type": a.ty.c_name(),
                "array": a.is_array, "written": a.written})).collect::<Vec<_>>(),
            "parallel_loop": k.parallel.var,
            "kernels_per_step": k.steps.as_ref().map(|s| s.kernels.len()),
            "outputs": k.args.iter().filter(|a| a.written).map(|a| a.name.as_str()).collect::<Vec<_>>(),
            "parameters": spec.performance_params.iter().map(|prm| json!({"name": prm.name,
                "values": prm.values.iter().map(|v| v.to_string()).collect::<Vec<_>>()})).collect::<Vec<_>>(),
            "constraints": spec.constraints.iter().map(|c| text.get(c.expr.span.start..c.expr.span.end).unwrap_or("?").trim()).collect::<Vec<_>>(),
            "inputs": inputs,
            // Every command `orcl tune` would run for this region (issue 25 G9).
            "commands": orcl_measure::skeleton::commands::listing(spec).into_iter()
                .map(|(setting, command)| json!({"setting": setting, "command": command}))
                .collect::<Vec<_>>(),
        })
    };
    json!({"file": path, "regions": regions.iter().map(region).collect::<Vec<_>>()})
}

/// One region × input size of `orcl tune --json`: the experiment, counts, the `top` ranking,
/// the re-measured finalists and the winner, failures by status.
fn input_result(r: &RegionResult, i: &InputResult, top: usize) -> Json {
    let ranking: Vec<Json> = i
        .ranking()
        .iter()
        .take(top)
        .enumerate()
        .map(|(k, e)| {
            let o = &e.outcome;
            let min = o.samples_ms.iter().cloned().fold(f64::INFINITY, f64::min);
            let mut j = json!({"rank": k + 1, "configuration": e.config.display(), "config_key": e.config.key(),
                   "median_ms": o.median_ms(), "min_ms": min.is_finite().then_some(min),
                   "transfer_ms": o.transfer_ms, "build_ms": o.build_ms, "max_error": o.max_error});
            // Energy per call (J) and power (W) under an energy objective (docs/ENERGY.md).
            if o.energy_j.is_some() {
                j["energy_j"] = json!(o.energy_j);
                j["power_w"] = json!(o.power_w);
            }
            j
        })
        .collect();
    let finalists: Vec<Json> = i.confirmed.iter().flat_map(|c| &c.finalists).map(|(k, m)| {
        let e = &i.evaluations[*k];
        json!({"configuration": e.config.display(), "search_median_ms": e.outcome.median_ms(), "remeasured_ms": m})
    }).collect();
    let winner = i.best.as_ref().map(|(b, _)| {
        json!({"configuration": i.evaluations[*b].config.display(),
               "config_key": i.evaluations[*b].config.key(), "ms": i.winner_ms})
    });
    json!({
        "region": r.prepared.region.index, "function": function(&r.prepared),
        "sizes": sizes(&i.input), "experiment": i.experiment_id,
        "device": i.device.name, "platform": i.device.platform,
        "evaluated": i.evaluations.len(), "measured": i.measured, "from_database": i.reused,
        "rejected_by_constraints": i.rejected, "elapsed_s": i.elapsed.as_secs_f64(),
        "ranking": ranking, "finalists": finalists, "winner": winner,
        "not_ranked": i.failures(), "stopped": i.stopped,
    })
}

/// `orcl tune --json`: every region × input size ([`input_result`]), the tuned file (null when
/// none was written), the database and the refused regions.
pub(super) fn tune(
    results: &[RegionResult],
    top: usize,
    tuned_file: Option<&str>,
    db: &str,
    refused_regions: &[(usize, InputError)],
) -> Json {
    let inputs: Vec<Json> = results
        .iter()
        .flat_map(|r| r.inputs.iter().map(move |i| input_result(r, i, top)))
        .collect();
    json!({"results": inputs, "tuned_file": tuned_file, "database": db,
           "refused": refused(refused_regions)})
}
