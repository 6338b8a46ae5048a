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

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use rusqlite::types::Value as SqlValue;
use serde_json::{json, Map, Value as Json};

use crate::db::{Db, EvaluationRow, ExperimentSummary, QueryError, EVALUATION_STATUSES};
use orcl_frontend::space::Configuration;

/// Opens an existing database read-only; never creates one.
fn open(db: &Path) -> anyhow::Result<Db> {
    if !db.exists() {
        bail!("no tuning database at {}", db.display());
    }
    if db.is_dir() {
        bail!("{} is a directory, not a tuning database", db.display());
    }
    Db::open_read_only(db)
        .with_context(|| format!("cannot open the tuning database {}", db.display()))
}

/// `orcl db list`: one row per experiment, oldest first.
///
/// Columns: id, file, region (`function:line`), device name, backend, input sizes, algorithm,
/// experiment status, evaluations (every status), failures, best median ms (fastest `ok`
/// evaluation), started (UTC).
///
/// `failures` counts **every** evaluation whose status is not `ok`, `constraint` included (so
/// `evaluations - failures` is the number of ranked variants); the `constraint` share is shown
/// separately: in the table as `5 (3 constraint)`, in JSON as its own `constraint` field.
/// Constraint rejections that `orcl tune` counted (metadata `constraint_rejected`) rather than
/// stored are included in all three counts.
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
        let failures = if s.constraint > 0 {
            format!("{} ({} constraint)", s.failures, s.constraint)
        } else {
            s.failures.to_string()
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
            right(s.evaluations),
            right(failures),
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

/// `orcl db show ID`: one experiment in full.
///
/// Sections: the experiment (every column), its metadata (key/value; `winner` shown as a
/// configuration), the region (file, line, function, loop hash), the device (every column,
/// then the properties of `properties_json` not already shown), the `top` fastest `ok`
/// configurations by median (rank, configuration, median, min, transfer and build ms, max
/// error), and the number of evaluations of every status of [`EVALUATION_STATUSES`] (`ok`
/// included, so the counts sum to the number of evaluations).
///
/// `--json`: one object with the keys `experiment` (every column; `input_params_json` and
/// `search_options_json` also parsed, as `input_params` and `search_options`), `metadata`
/// (key → value text), `region`, `device` (every column with `id`; `properties_json` parsed as
/// `properties`), `top` (array) and `failures` (status → count, every status).
pub fn show(db: &Path, id: i64, top: usize, json: bool) -> anyhow::Result<()> {
    let conn = open(db)?;
    let ctx = || format!("cannot read experiment {id} of {}", db.display());
    let Some(e) = conn.experiment(id).with_context(ctx)? else {
        bail!("no experiment {id} in {}", db.display());
    };
    let metadata = conn.metadata(id).with_context(ctx)?;
    let region = conn.region(e.region_id).with_context(ctx)?;
    let device = conn.device(e.device_id).with_context(ctx)?;
    let best = conn.best(id, top).with_context(ctx)?;
    let stored = conn.status_counts(id).with_context(ctx)?;
    // `orcl tune --devices`: configurations measured by each device (empty otherwise).
    let mut per_device: BTreeMap<String, usize> = BTreeMap::new();
    for (_, d) in conn.evaluation_devices(id).with_context(ctx)? {
        if let Some(d) = d {
            *per_device.entry(d.to_string()).or_insert(0) += 1;
        }
    }
    let counts: Vec<(&str, i64)> = EVALUATION_STATUSES
        .iter()
        .map(|s| (*s, stored.get(*s).copied().unwrap_or(0)))
        .collect();

    let experiment = {
        let mut o = to_object(&e)?;
        o.insert("input_params".into(), parse_json(&e.input_params_json));
        o.insert("search_options".into(), parse_json(&e.search_options_json));
        o
    };
    let region_json = match &region {
        Some(r) => {
            let mut o = Map::new();
            o.insert("id".into(), json!(e.region_id));
            o.extend(to_object(r)?);
            Json::Object(o)
        }
        None => Json::Null,
    };
    let device_json = match &device {
        Some(d) => {
            let mut o = Map::new();
            o.insert("id".into(), json!(e.device_id));
            o.extend(to_object(d)?);
            o.insert("properties".into(), parse_json(&d.properties_json));
            Json::Object(o)
        }
        None => Json::Null,
    };

    if json {
        let top_json: Vec<Json> = best
            .iter()
            .enumerate()
            .map(|(k, ev)| top_json(k + 1, ev))
            .collect();
        #[derive(serde::Serialize)]
        struct Show<'a> {
            experiment: &'a Map<String, Json>,
            metadata: &'a BTreeMap<String, String>,
            region: &'a Json,
            device: &'a Json,
            top: Vec<Json>,
            failures: Counts<'a>,
            /// `orcl tune --devices`: device index → evaluations it measured.
            #[serde(skip_serializing_if = "BTreeMap::is_empty")]
            measured_per_device: &'a BTreeMap<String, usize>,
        }
        print_json(&Show {
            experiment: &experiment,
            metadata: &metadata,
            region: &region_json,
            device: &device_json,
            top: top_json,
            failures: Counts(&counts),
            measured_per_device: &per_device,
        })?;
        return Ok(());
    }

    let title = match &region {
        Some(r) => format!("{}:{} {}()", r.file, r.line, r.function),
        None => format!("region {}", e.region_id),
    };
    let device_name = device.as_ref().map_or("?", |d| d.name.as_str());
    orcl_frontend::outln!(
        "experiment {id}: {title} [{}] on {device_name} — {}",
        sizes_display(&e.input_params_json),
        e.status
    );
    orcl_frontend::outln!(
        "{}",
        key_value_table(
            experiment
                .iter()
                .filter(|(k, _)| { !matches!(k.as_str(), "input_params" | "search_options") })
        )
    );

    orcl_frontend::outln!("\nmetadata");
    let mut t = table(&["key", "value"]);
    for (k, v) in &metadata {
        let shown = match k.as_str() {
            "winner" => config_display(v),
            "final_remeasurement" => remeasurement_display(v),
            _ => v.clone(),
        };
        t.add_row(vec![Cell::new(k), Cell::new(shown)]);
    }
    orcl_frontend::outln!("{t}");

    orcl_frontend::outln!("\nregion");
    match &region {
        Some(r) => {
            let mut t = table(&["key", "value"]);
            t.add_row(vec![Cell::new("file"), Cell::new(&r.file)]);
            t.add_row(vec![Cell::new("line"), Cell::new(r.line)]);
            t.add_row(vec![Cell::new("function"), Cell::new(&r.function)]);
            t.add_row(vec![Cell::new("loop_hash"), Cell::new(&r.loop_hash)]);
            orcl_frontend::outln!("{t}");
        }
        None => orcl_frontend::outln!("(region {} is missing)", e.region_id),
    }

    orcl_frontend::outln!("\ndevice");
    match &device_json {
        Json::Object(o) => {
            let mut rows: Vec<(String, Json)> = o
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "properties" | "properties_json"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if let Some(Json::Object(props)) = o.get("properties") {
                for (k, v) in props {
                    if !o.contains_key(k) {
                        rows.push((format!("properties.{k}"), v.clone()));
                    }
                }
            }
            orcl_frontend::outln!("{}", key_value_table(rows.iter().map(|(k, v)| (k, v))));
        }
        _ => orcl_frontend::outln!("(device {} is missing)", e.device_id),
    }
    if !per_device.is_empty() {
        let each: Vec<String> = per_device
            .iter()
            .map(|(d, n)| format!("device {d}: {n}"))
            .collect();
        orcl_frontend::outln!("measured per device (--devices): {}", each.join(", "));
    }

    orcl_frontend::outln!("\ntop {} ok configurations by median", best.len());
    let mut t = table(&[
        "rank",
        "configuration",
        "median ms",
        "min ms",
        "transfer ms",
        "build ms",
        "max error",
    ]);
    for (k, ev) in best.iter().enumerate() {
        t.add_row(vec![
            right(k + 1),
            Cell::new(config_display(&ev.config_key)),
            right(fmt_ms(ev.median_ms)),
            right(fmt_ms(min_sample(ev))),
            right(fmt_ms(ev.transfer_ms)),
            right(ev.build_ms.map(|x| format!("{x:.1}")).unwrap_or_default()),
            right(ev.max_error.map(|x| format!("{x:.1e}")).unwrap_or_default()),
        ]);
    }
    orcl_frontend::outln!("{t}");

    orcl_frontend::outln!("\nevaluations by status");
    let mut t = table(&["status", "count"]);
    for (s, n) in &counts {
        t.add_row(vec![Cell::new(s), right(n)]);
    }
    t.add_row(vec![
        Cell::new("total"),
        right(counts.iter().map(|(_, n)| n).sum::<i64>()),
    ]);
    orcl_frontend::outln!("{t}");
    Ok(())
}

/// Status → count as a JSON object in [`EVALUATION_STATUSES`] order.
struct Counts<'a>(&'a [(&'a str, i64)]);

impl serde::Serialize for Counts<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

fn top_json(rank: usize, ev: &EvaluationRow) -> Json {
    json!({
        "rank": rank,
        "evaluation_id": ev.id,
        "config_key": ev.config_key,
        "config": parse_json(&ev.config_json),
        "configuration": config_display(&ev.config_key),
        "median_ms": num(ev.median_ms),
        "min_ms": num(min_sample(ev)),
        "transfer_ms": num(ev.transfer_ms),
        "build_ms": num(ev.build_ms),
        "max_error": num(ev.max_error),
        "samples_ms": ev.samples_ms,
        "kernel_hash": ev.kernel_hash,
    })
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
/// equal the experiment's input param `NAME` (numerically when both parse as numbers).
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

fn region_matches(s: &ExperimentSummary, pattern: &str) -> bool {
    s.file.contains(pattern)
        || s.function.contains(pattern)
        || format!("{}:{}", s.file, s.line).contains(pattern)
}

/// Parses `NAME=VALUE` of `--size`.
fn parse_size(s: &str) -> anyhow::Result<(String, String)> {
    match s.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() && !v.trim().is_empty() => {
            Ok((n.trim().to_string(), v.trim().to_string()))
        }
        _ => bail!("invalid --size `{s}`: use NAME=VALUE, e.g. --size N=100000"),
    }
}

/// Whether input param `name` equals `value`: numerically when both are numbers, else as text
/// (a JSON string without its quotes; booleans case-insensitively, so `True` matches `true`).
fn size_matches(params: &Map<String, Json>, name: &str, value: &str) -> bool {
    let Some(v) = params.get(name) else {
        return false;
    };
    let text = match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    };
    match (text.parse::<f64>(), value.parse::<f64>()) {
        (Ok(a), Ok(b)) => a == b,
        _ if v.is_boolean() => text.eq_ignore_ascii_case(value),
        _ => text == value,
    }
}

/// A grouping key for input params independent of their key order.
fn canonical(params: &Map<String, Json>) -> String {
    let sorted: BTreeMap<&String, &Json> = params.iter().collect();
    serde_json::to_string(&sorted).unwrap_or_default()
}

/// Orders input params by name, then value (numbers numerically, before text).
fn cmp_params(a: &Map<String, Json>, b: &Map<String, Json>) -> Ordering {
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

/// `orcl db query SQL`: runs one read-only statement and prints its rows.
///
/// Three guards keep the database unchanged: the file is opened read-only
/// ([`Db::open_read_only`], `SQLITE_OPEN_READ_ONLY`), the connection is set to
/// `PRAGMA query_only`, and the prepared statement is refused before it runs unless SQLite
/// reports it read-only (`Statement::readonly`); `ATTACH`/`DETACH` and more than one statement
/// are refused too (see [`Db::query_read_only`]). Note that SQLite counts some PRAGMAs that only
/// read (e.g. `PRAGMA journal_mode`) as writing; they are refused as well.
///
/// Output: a table with the column names as header (NULL shown as `NULL`, blobs as hex), or
/// with `--json` an array of objects, column name → value (integers and reals as numbers, text
/// as strings, NULL as `null`, blobs as lower-case hex strings), one object per line with the
/// keys in column order. As with `sqlite3 -json`, columns that share a name are all written
/// (most JSON readers keep the last); alias them (`AS`) to keep both. A statement without
/// result columns prints nothing (`[]` with `--json`).
pub fn query(db: &Path, sql: &str, json: bool) -> anyhow::Result<()> {
    let conn = open(db)?;
    let result = match conn.query_read_only(sql) {
        Ok(r) => r,
        Err(QueryError::Db(e)) => {
            return Err(anyhow::Error::new(e).context(format!("query failed on {}", db.display())))
        }
        Err(refused) => return Err(refused.into()),
    };
    if json {
        orcl_frontend::outln!("{}", rows_json(&result.columns, &result.rows));
        return Ok(());
    }
    if result.columns.is_empty() {
        return Ok(());
    }
    let header: Vec<&str> = result.columns.iter().map(String::as_str).collect();
    let mut t = table(&header);
    for row in &result.rows {
        t.add_row(row.iter().map(|v| match v {
            SqlValue::Integer(_) | SqlValue::Real(_) => right(sql_text(v)),
            _ => Cell::new(sql_text(v)),
        }));
    }
    orcl_frontend::outln!("{t}");
    Ok(())
}

/// Rows as a JSON array of objects, one object per line, keys in column order (serde_json's
/// `Map` would sort them).
fn rows_json(columns: &[String], rows: &[Vec<SqlValue>]) -> String {
    let keys: Vec<String> = columns
        .iter()
        .map(|c| Json::from(c.as_str()).to_string())
        .collect();
    let objects: Vec<String> = rows
        .iter()
        .map(|row| {
            let fields: Vec<String> = keys
                .iter()
                .zip(row)
                .map(|(k, v)| format!("{k}: {}", sql_json(v)))
                .collect();
            format!("  {{{}}}", fields.join(", "))
        })
        .collect();
    if objects.is_empty() {
        "[]".into()
    } else {
        format!("[\n{}\n]", objects.join(",\n"))
    }
}

fn sql_json(v: &SqlValue) -> Json {
    match v {
        SqlValue::Null => Json::Null,
        SqlValue::Integer(i) => json!(i),
        SqlValue::Real(f) => num(Some(*f)),
        SqlValue::Text(s) => Json::String(s.clone()),
        SqlValue::Blob(b) => Json::String(hex(b)),
    }
}

fn sql_text(v: &SqlValue) -> String {
    match v {
        SqlValue::Null => "NULL".into(),
        SqlValue::Integer(i) => i.to_string(),
        SqlValue::Real(f) => f.to_string(),
        SqlValue::Text(s) => s.clone(),
        SqlValue::Blob(b) => hex(b),
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn params(s: &str) -> Map<String, Json> {
        match serde_json::from_str(s).unwrap() {
            Json::Object(o) => o,
            _ => unreachable!(),
        }
    }

    #[test]
    fn size_filter_compares_numbers_numerically() {
        let p = params(r#"{"N": 1000, "S": "abc", "F": 2.5, "B": true, "T": "0100"}"#);
        assert!(size_matches(&p, "N", "1000"));
        assert!(size_matches(&p, "N", "1e3"));
        assert!(size_matches(&p, "N", "1000.0"));
        assert!(!size_matches(&p, "N", "100"));
        assert!(size_matches(&p, "S", "abc"));
        assert!(!size_matches(&p, "S", "ABC"));
        assert!(size_matches(&p, "F", "2.50"));
        assert!(size_matches(&p, "B", "True"));
        assert!(size_matches(&p, "T", "100"));
        assert!(!size_matches(&p, "M", "1000"));
    }

    #[test]
    fn size_arguments_are_parsed() {
        assert_eq!(
            parse_size(" N = 10 ").unwrap(),
            ("N".to_string(), "10".to_string())
        );
        for bad in ["N", "=5", "N=", ""] {
            let e = parse_size(bad).unwrap_err().to_string();
            assert!(e.contains("NAME=VALUE"), "{e}");
        }
    }

    #[test]
    fn params_sort_numerically_and_group_by_content() {
        let a = params(r#"{"N": 1000}"#);
        let b = params(r#"{"N": 20011}"#);
        let c = params(r#"{"N": 300}"#);
        assert_eq!(cmp_params(&a, &b), Ordering::Less);
        assert_eq!(cmp_params(&c, &a), Ordering::Less);
        assert_eq!(
            canonical(&params(r#"{"A": 1, "B": 2}"#)),
            canonical(&params(r#"{"B": 2, "A": 1}"#))
        );
    }

    #[test]
    fn displays() {
        assert_eq!(
            config_display(r#"{"WI":64,"CB":false,"UI":1}"#),
            "WI=64 CB=False UI=1"
        );
        assert_eq!(sizes_display(r#"{"N":1000}"#), "N=1000");
        assert_eq!(config_display("not json"), "not json");
        assert_eq!(fmt_date("2024-05-01T12:34:56.789Z"), "2024-05-01 12:34:56");
        assert_eq!(fmt_date("yesterday"), "yesterday");
        assert_eq!(hex(&[0, 255, 16]), "00ff10");
        assert_eq!(num(Some(f64::NAN)), Json::Null);
        assert_eq!(sql_json(&SqlValue::Blob(vec![1, 2])), json!("0102"));
        assert_eq!(sql_text(&SqlValue::Null), "NULL");
        let cols = ["z".to_string(), "a\"b".to_string()];
        let rows = [
            vec![SqlValue::Integer(1), SqlValue::Text("x".into())],
            vec![SqlValue::Null, SqlValue::Real(0.5)],
        ];
        let text = rows_json(&cols, &rows);
        assert_eq!(
            text,
            "[\n  {\"z\": 1, \"a\\\"b\": \"x\"},\n  {\"z\": null, \"a\\\"b\": 0.5}\n]"
        );
        let parsed: Json = serde_json::from_str(&text).unwrap();
        assert_eq!(
            parsed,
            json!([{"z": 1, "a\"b": "x"}, {"z": null, "a\"b": 0.5}])
        );
        assert_eq!(rows_json(&cols, &[]), "[]");
        assert_eq!(
            remeasurement_display(
                r#"[{"config":"{\"WI\":64}","median_ms":0.015613,"repetitions":6},{"config":"{\"WI\":16}","median_ms":0.02}]"#
            ),
            "WI=64: 0.0156 ms (6 repetitions)\nWI=16: 0.0200 ms"
        );
        assert_eq!(remeasurement_display("[1]"), "[1]");
    }

    #[test]
    fn writes_are_refused_before_running() {
        let db = Db::open_in_memory().unwrap();
        for sql in [
            "DELETE FROM evaluation",
            "INSERT INTO meta (key, value) VALUES ('a', 'b')",
            "UPDATE meta SET value = '2'",
            "DROP TABLE evaluation",
            "CREATE TABLE t (x)",
            "PRAGMA journal_mode=DELETE",
            "PRAGMA user_version = 3",
            "ATTACH 'other.db' AS o",
            "  /* c */ attach database ':memory:' AS o",
            "DETACH o",
            "VACUUM INTO 'copy.db'",
            "WITH x AS (SELECT 1) DELETE FROM evaluation",
        ] {
            assert!(
                matches!(db.query_read_only(sql), Err(QueryError::WouldModify)),
                "{sql}"
            );
        }
        for sql in [
            "SELECT 1; DELETE FROM evaluation",
            "SELECT 1;SELECT 2",
            "SELECT 1; -- c\n SELECT 2",
        ] {
            assert!(
                matches!(db.query_read_only(sql), Err(QueryError::MultipleStatements)),
                "{sql}"
            );
        }
        for sql in ["", "  ", "-- only a comment", ";"] {
            assert!(
                matches!(db.query_read_only(sql), Err(QueryError::Empty)),
                "{sql:?}"
            );
        }
        assert_eq!(db.schema_version().unwrap(), crate::db::SCHEMA_VERSION);
    }

    #[test]
    fn reads_are_allowed() {
        let db = Db::open_in_memory().unwrap();
        let r = db
            .query_read_only("SELECT 1 AS one, 2.5 AS two, 'x;y' AS t, NULL AS n, x'00ff' AS b;")
            .unwrap();
        assert_eq!(r.columns, ["one", "two", "t", "n", "b"]);
        assert_eq!(
            r.rows,
            [vec![
                SqlValue::Integer(1),
                SqlValue::Real(2.5),
                SqlValue::Text("x;y".into()),
                SqlValue::Null,
                SqlValue::Blob(vec![0, 255]),
            ]]
        );
        for sql in [
            "WITH x AS (SELECT 1) SELECT * FROM x",
            "PRAGMA table_info(evaluation)",
            "SELECT count(*) FROM evaluation -- trailing comment",
            "select ';' || 'attach'",
        ] {
            db.query_read_only(sql)
                .unwrap_or_else(|e| panic!("{sql}: {e}"));
        }
    }
}
