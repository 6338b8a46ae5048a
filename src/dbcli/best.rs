//! `orcl db best`: the winning configuration per (region, device, input sizes).

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context};
use comfy_table::Cell;
use serde_json::{Map, Value as Json};

use crate::db::{Db, EvaluationRow, ExperimentSummary};

use super::{
    config_display, fmt_ms, num, open, parse_json, print_json, right, sizes_display, table,
};

/// One `orcl db best --json` object (a struct, so the keys keep this order).
#[derive(serde::Serialize)]
struct BestRow<'a> {
    file: &'a str,
    line: u32,
    function: &'a str,
    region: String,
    device: &'a str,
    input_sizes: String,
    input_params: &'a Map<String, Json>,
    configuration: String,
    config: Json,
    config_key: &'a str,
    median_ms: Json,
    experiment_id: i64,
    chosen_by: &'static str,
}

/// One winner of `orcl db best`.
struct Winner<'a> {
    summary: &'a ExperimentSummary,
    evaluation: EvaluationRow,
    /// `winner`: the experiment's `winner` metadata; `fastest`: its fastest `ok` evaluation.
    chosen_by: &'static str,
    /// Parsed input params, for grouping and sorting.
    params: Map<String, Json>,
}

/// `orcl db best`: the winning configuration per (region, device, input sizes).
///
/// The winner of an experiment is the configuration named by its `winner` metadata (chosen by
/// `orcl tune` after re-measuring the fastest variants) when that evaluation exists and is
/// `ok`, else its fastest `ok` evaluation; experiments without an `ok` evaluation have no
/// winner and are skipped. A region is `file` + `line` + `function`. When several experiments
/// with a winner share a (region, device name, input sizes) — other search settings, another
/// spec — the most recent one is shown (latest `started_at`, then highest id). The median is
/// that evaluation's stored `median_ms`.
///
/// Filters (all must hold): `region` is a substring of `file`, `function` or `file:line`;
/// `device` a case-insensitive substring of the device name; each `NAME=VALUE` of `sizes` must
/// equal the experiment's input param `NAME` (numerically when both parse as numbers) — or, when
/// no experiment was recorded at those sizes, the nearest recorded ones ([`nearest_recorded`]).
///
/// Columns: region, device, input sizes, configuration, median ms, experiment id. `--json`: an
/// array of objects with `file`, `line`, `function`, `region`, `device`, `input_sizes`,
/// `input_params`, `configuration`, `config`, `config_key`, `median_ms`, `experiment_id`,
/// `chosen_by` (`winner` or `fastest`).
pub fn best(
    db: &Path,
    region: Option<&str>,
    device: Option<&str>,
    size: &[String],
    json: bool,
) -> anyhow::Result<()> {
    let sizes: Vec<(String, String)> = size
        .iter()
        .map(|s| parse_size(s))
        .collect::<anyhow::Result<_>>()?;
    let device_lc = device.map(str::to_lowercase);
    let conn = open(db)?;
    let ctx = || format!("cannot read the experiments of {}", db.display());
    let summaries = conn.experiment_summaries().with_context(ctx)?;
    let sizes = nearest_recorded(&summaries, region, device_lc.as_deref(), sizes);

    // (file, line, function, device, canonical input params) → winner.
    let mut groups: BTreeMap<(String, u32, String, String, String), Winner> = BTreeMap::new();
    for s in &summaries {
        let params = match parse_json(&s.experiment.input_params_json) {
            Json::Object(o) => o,
            _ => Map::new(),
        };
        if !region.is_none_or(|r| region_matches(s, r))
            || !device_lc
                .as_deref()
                .is_none_or(|d| s.device_name.to_lowercase().contains(d))
            || !sizes.iter().all(|(n, v)| size_matches(&params, n, v))
        {
            continue;
        }
        let Some((evaluation, chosen_by)) = winner_of(&conn, s).with_context(ctx)? else {
            continue;
        };
        let key = (
            s.file.clone(),
            s.line,
            s.function.clone(),
            s.device_name.clone(),
            canonical(&params),
        );
        let newer = groups.get(&key).is_none_or(|w| {
            let (a, b) = (&s.experiment, &w.summary.experiment);
            (&a.started_at, a.id) > (&b.started_at, b.id)
        });
        if newer {
            groups.insert(
                key,
                Winner {
                    summary: s,
                    evaluation,
                    chosen_by,
                    params,
                },
            );
        }
    }
    let mut winners: Vec<Winner> = groups.into_values().collect();
    winners.sort_by(|a, b| {
        let (x, y) = (a.summary, b.summary);
        (&x.file, x.line, &x.function, &x.device_name)
            .cmp(&(&y.file, y.line, &y.function, &y.device_name))
            .then_with(|| cmp_params(&a.params, &b.params))
            .then(x.experiment.id.cmp(&y.experiment.id))
    });

    if json {
        let rows: Vec<BestRow> = winners
            .iter()
            .map(|w| {
                let s = w.summary;
                BestRow {
                    file: &s.file,
                    line: s.line,
                    function: &s.function,
                    region: region_display(s),
                    device: &s.device_name,
                    input_sizes: sizes_display(&s.experiment.input_params_json),
                    input_params: &w.params,
                    configuration: config_display(&w.evaluation.config_key),
                    config: parse_json(&w.evaluation.config_json),
                    config_key: &w.evaluation.config_key,
                    median_ms: num(w.evaluation.median_ms),
                    experiment_id: s.experiment.id,
                    chosen_by: w.chosen_by,
                }
            })
            .collect();
        print_json(&rows)?;
        return Ok(());
    }
    if winners.is_empty() {
        orcl_frontend::errln!("no winner matches the filters in {}", db.display());
        return Ok(());
    }
    let mut t = table(&[
        "region",
        "device",
        "input sizes",
        "configuration",
        "median ms",
        "experiment",
    ]);
    for w in &winners {
        let s = w.summary;
        t.add_row(vec![
            Cell::new(region_display(s)),
            Cell::new(&s.device_name),
            Cell::new(sizes_display(&s.experiment.input_params_json)),
            Cell::new(config_display(&w.evaluation.config_key)),
            right(fmt_ms(w.evaluation.median_ms)),
            right(s.experiment.id),
        ]);
    }
    orcl_frontend::outln!("{t}");
    Ok(())
}

/// The experiment's winner: its `winner` metadata if that names an `ok` evaluation, else its
/// fastest `ok` evaluation.
fn winner_of(
    conn: &Db,
    s: &ExperimentSummary,
) -> crate::db::Result<Option<(EvaluationRow, &'static str)>> {
    let id = s.experiment.id;
    if let Some(key) = &s.winner {
        if let Some(ev) = conn.evaluation_by_key(id, key)? {
            if ev.status == "ok" {
                return Ok(Some((ev, "winner")));
            }
        }
    }
    Ok(conn
        .best(id, 1)?
        .into_iter()
        .next()
        .map(|ev| (ev, "fastest")))
}

fn region_display(s: &ExperimentSummary) -> String {
    format!("{}:{} {}()", s.file, s.line, s.function)
}

/// The `--size` values to show: `sizes` when an experiment (of the regions and devices
/// selected) was recorded at them; otherwise, for a size that was never tuned, the recorded size
/// nearest to them ([`crate::db::sizes`]: by Σ |ln(recorded / asked)|, ties to the newest
/// experiment) among those where every size asked that is not a number matches, with a note on
/// stderr. This is how a program picks the tuned configuration for an input size it was not
/// tuned at.
fn nearest_recorded(
    summaries: &[ExperimentSummary],
    region: Option<&str>,
    device: Option<&str>,
    sizes: Vec<(String, String)>,
) -> Vec<(String, String)> {
    if sizes.is_empty() {
        return sizes;
    }
    let recorded: Vec<(i64, Map<String, Json>)> = summaries
        .iter()
        .filter(|s| {
            region.is_none_or(|r| region_matches(s, r))
                && device.is_none_or(|d| s.device_name.to_lowercase().contains(d))
        })
        .filter_map(|s| match parse_json(&s.experiment.input_params_json) {
            Json::Object(params) => Some((s.experiment.id, params)),
            _ => None,
        })
        .collect();
    let best = crate::db::sizes::nearest(&sizes, recorded.iter().map(|(id, p)| (*id, p, p)))
        .filter(|(d, _)| d.unmatched == 0);
    if best.as_ref().is_some_and(|(d, _)| d.is_zero()) {
        return sizes;
    }
    let Some((_, params)) = best else {
        return sizes;
    };
    let nearest: Vec<(String, String)> = sizes
        .iter()
        .map(|(n, _)| {
            (
                n.clone(),
                params.get(n).map(Json::to_string).unwrap_or_default(),
            )
        })
        .collect();
    let show = |v: &[(String, String)]| {
        v.iter()
            .map(|(n, x)| format!("{n}={x}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    orcl_frontend::errln!(
        "note: no experiment at {}: the nearest recorded size is {}",
        show(&sizes),
        show(&nearest)
    );
    nearest
}

fn region_matches(s: &ExperimentSummary, pattern: &str) -> bool {
    s.file.contains(pattern)
        || s.function.contains(pattern)
        || format!("{}:{}", s.file, s.line).contains(pattern)
}

/// Parses `NAME=VALUE` of `--size`.
pub(super) fn parse_size(s: &str) -> anyhow::Result<(String, String)> {
    match s.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() && !v.trim().is_empty() => {
            Ok((n.trim().to_string(), v.trim().to_string()))
        }
        _ => bail!("invalid --size `{s}`: use NAME=VALUE, e.g. --size N=100000"),
    }
}

/// Whether input param `name` equals `value` ([`crate::db::sizes::matches`]: numerically when
/// both are numbers, else as text).
pub(super) fn size_matches(params: &Map<String, Json>, name: &str, value: &str) -> bool {
    params
        .get(name)
        .is_some_and(|v| crate::db::sizes::matches(v, value))
}

/// A grouping key for input params independent of their key order.
pub(super) fn canonical(params: &Map<String, Json>) -> String {
    let sorted: BTreeMap<&String, &Json> = params.iter().collect();
    serde_json::to_string(&sorted).unwrap_or_default()
}

/// Orders input params by name, then value (numbers numerically, before text).
pub(super) fn cmp_params(a: &Map<String, Json>, b: &Map<String, Json>) -> Ordering {
    let sa: BTreeMap<&String, &Json> = a.iter().collect();
    let sb: BTreeMap<&String, &Json> = b.iter().collect();
    for ((ka, va), (kb, vb)) in sa.iter().zip(sb.iter()) {
        let o = ka.cmp(kb).then_with(|| match (va.as_f64(), vb.as_f64()) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => va.to_string().cmp(&vb.to_string()),
        });
        if o != Ordering::Equal {
            return o;
        }
    }
    sa.len().cmp(&sb.len())
}
