//! `orcl db list | show | best | query`: the tuning database from the command line, as tables
//! (comfy-table) or JSON (`--json`).
//!
//! Every command opens the database with [`Db::open_read_only`] and never creates it: a missing
//! file is the error `no tuning database at PATH`. Errors are `anyhow` errors; the CLI prints them
//! as `error: ...` and exits with code 2.
//!
//! Conventions shared by the commands:
//! - a configuration is shown as `WI=64 CB=False UI=1` (parameter order of its key) and, in JSON,
//!   as the parsed object (`config`) next to the raw key (`config_key`);
//! - input sizes are shown as `N=1000` (several joined by spaces) and, in JSON, as the parsed
//!   `input_params` object next to that text (`input_sizes`);
//! - times are milliseconds (4 decimals in tables, full precision in JSON); absent values are
//!   empty cells in tables and `null` in JSON.
//!
//! The module by command: `show`, `pareto` (`show --pareto`), `best`, `query`; `orcl db list` and the shared formatting
//! helpers are here.

use std::path::Path;

use anyhow::{bail, Context};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use serde_json::{Map, Value as Json};

use crate::db::{Db, EvaluationRow, ExperimentSummary};
use orcl_frontend::space::Configuration;

mod best;
pub mod pareto;
mod query;
mod show;
#[cfg(test)]
mod tests;

pub use best::best;
pub use pareto::show_pareto;
pub use query::query;
pub use show::{show, show_failures};

/// Opens an existing database read-only; never creates one.
fn open(db: &Path) -> anyhow::Result<Db> {
    crate::db::open_for_reading(db)
}

/// `orcl db list`: one row per experiment, oldest first.
///
/// Columns: id, file, region (`function:line`), device name, backend, input sizes, algorithm,
/// experiment status, evaluations (every status), failures, best median ms (fastest `ok`
/// evaluation), started (UTC).
///
/// `failures` counts the evaluations that failed (every status but `ok` and `constraint`): a
/// configuration a constraint of the spec rejected is not a failure. `evaluations` counts every
/// configuration, constraint rejections included (so `evaluations - constraint - failures` is the
/// number of ranked variants); the `constraint` share is shown in the table as `45 (5
/// constraint)`, in JSON as its own `constraint` field. Constraint rejections that `orcl tune`
/// counted (metadata `constraint_rejected`) rather than stored are included in both.
///
/// `--json`: an array of objects with the keys `id`, `file`, `line`, `function`, `region`,
/// `device`, `backend`, `input_sizes`, `input_params`, `algorithm`, `status`, `evaluations`,
/// `failures`, `constraint`, `best_median_ms`, `started_at`, `finished_at`.
pub fn list(db: &Path, json: bool) -> anyhow::Result<()> {
    let summaries = open(db)?
        .experiment_summaries()
        .with_context(|| format!("cannot read the experiments of {}", db.display()))?;
    if json {
        let rows: Vec<ListRow> = summaries.iter().map(list_json).collect();
        print_json(&rows)?;
        return Ok(());
    }
    let mut t = table(&[
        "id",
        "file",
        "region",
        "device",
        "backend",
        "input sizes",
        "algorithm",
        "status",
        "evaluations",
        "failures",
        "best median ms",
        "started (UTC)",
    ]);
    for s in &summaries {
        let e = &s.experiment;
        let evaluations = if s.constraint > 0 {
            format!("{} ({} constraint)", s.evaluations, s.constraint)
        } else {
            s.evaluations.to_string()
        };
        t.add_row(vec![
            right(e.id),
            Cell::new(&s.file),
            Cell::new(format!("{}:{}", s.function, s.line)),
            Cell::new(&s.device_name),
            Cell::new(&e.backend),
            Cell::new(sizes_display(&e.input_params_json)),
            Cell::new(&e.algorithm),
            Cell::new(&e.status),
            right(evaluations),
            right(s.failures),
            right(fmt_ms(s.best_median_ms)),
            Cell::new(fmt_date(&e.started_at)),
        ]);
    }
    orcl_frontend::outln!("{t}");
    Ok(())
}

/// One `orcl db list --json` object (a struct, so the keys keep this order).
#[derive(serde::Serialize)]
struct ListRow<'a> {
    id: i64,
    file: &'a str,
    line: u32,
    function: &'a str,
    region: String,
    device: &'a str,
    backend: &'a str,
    input_sizes: String,
    input_params: Json,
    algorithm: &'a str,
    status: &'a str,
    evaluations: i64,
    failures: i64,
    constraint: i64,
    best_median_ms: Json,
    started_at: &'a str,
    finished_at: Option<&'a str>,
}

fn list_json(s: &ExperimentSummary) -> ListRow<'_> {
    let e = &s.experiment;
    ListRow {
        id: e.id,
        file: &s.file,
        line: s.line,
        function: &s.function,
        region: format!("{}:{}", s.function, s.line),
        device: &s.device_name,
        backend: &e.backend,
        input_sizes: sizes_display(&e.input_params_json),
        input_params: parse_json(&e.input_params_json),
        algorithm: &e.algorithm,
        status: &e.status,
        evaluations: s.evaluations,
        failures: s.failures,
        constraint: s.constraint,
        best_median_ms: num(s.best_median_ms),
        started_at: &e.started_at,
        finished_at: e.finished_at.as_deref(),
    }
}

// ---------------------------------------------------------------------------------------------
// Formatting helpers
// ---------------------------------------------------------------------------------------------

fn table(header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(header.to_vec());
    t
}

fn right<T: std::fmt::Display>(x: T) -> Cell {
    Cell::new(x).set_alignment(CellAlignment::Right)
}

/// A two-column key/value table; strings are shown without quotes, `null` as an empty cell.
fn key_value_table<'a>(rows: impl Iterator<Item = (&'a String, &'a Json)>) -> Table {
    let mut t = table(&["key", "value"]);
    for (k, v) in rows {
        let shown = match v {
            Json::Null => String::new(),
            Json::String(s) => s.clone(),
            other => other.to_string(),
        };
        t.add_row(vec![Cell::new(k), Cell::new(shown)]);
    }
    t
}

fn print_json<T: serde::Serialize + ?Sized>(v: &T) -> anyhow::Result<()> {
    orcl_frontend::outln!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}

/// A serializable row as a JSON object (its fields in declaration order).
fn to_object<T: serde::Serialize>(x: &T) -> anyhow::Result<Map<String, Json>> {
    match serde_json::to_value(x)? {
        Json::Object(o) => Ok(o),
        other => bail!("expected a JSON object, got {other}"),
    }
}

/// Parses a `*_json` column; text that is not JSON is returned as a JSON string.
fn parse_json(s: &str) -> Json {
    serde_json::from_str(s).unwrap_or_else(|_| Json::String(s.to_string()))
}

/// A finite number as JSON, anything else (absent, NaN, infinite) as `null`.
fn num(x: Option<f64>) -> Json {
    x.and_then(serde_json::Number::from_f64)
        .map_or(Json::Null, Json::Number)
}

fn fmt_ms(x: Option<f64>) -> String {
    x.map(|x| format!("{x:.4}")).unwrap_or_default()
}

/// `2024-05-01T12:34:56.789Z` → `2024-05-01 12:34:56`; other text unchanged.
fn fmt_date(s: &str) -> String {
    match (s.get(..10), s.get(11..19)) {
        (Some(d), Some(t)) if s.as_bytes().get(10) == Some(&b'T') => format!("{d} {t}"),
        _ => s.to_string(),
    }
}

/// A configuration key (JSON object) as `WI=64 CB=False UI=1`; other text unchanged.
fn config_display(key: &str) -> String {
    Configuration::from_key(key)
        .map(|c| c.display())
        .unwrap_or_else(|_| key.to_string())
}

/// Input params (JSON object) as `N=1000 M=20`; other text unchanged.
fn sizes_display(input_params_json: &str) -> String {
    config_display(input_params_json)
}

/// `final_remeasurement` metadata (`[{"config": KEY, "median_ms": M, "repetitions": R}, ...]`)
/// as one line per configuration, `WI=64 CB=False UI=1: 0.0156 ms (6 repetitions)`; other text
/// unchanged.
fn remeasurement_display(value: &str) -> String {
    let Ok(Json::Array(items)) = serde_json::from_str::<Json>(value) else {
        return value.to_string();
    };
    let lines: Option<Vec<String>> = items
        .iter()
        .map(|item| {
            let config = config_display(item.get("config")?.as_str()?);
            let ms = item.get("median_ms")?.as_f64()?;
            Some(match item.get("repetitions").and_then(Json::as_u64) {
                Some(r) => format!("{config}: {ms:.4} ms ({r} repetitions)"),
                None => format!("{config}: {ms:.4} ms"),
            })
        })
        .collect();
    lines.map_or_else(|| value.to_string(), |l| l.join("\n"))
}

fn min_sample(ev: &EvaluationRow) -> Option<f64> {
    ev.samples_ms.iter().copied().reduce(f64::min)
}
