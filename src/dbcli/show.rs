//! `orcl db show ID`: one experiment in full.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context};
use comfy_table::Cell;
use serde_json::{json, Map, Value as Json};

use crate::db::{
    DeviceRow, EvaluationRow, ExperimentRow, FailureGroup, RegionRow, EVALUATION_STATUSES,
};

use super::{
    config_display, fmt_ms, key_value_table, min_sample, num, open, parse_json, print_json,
    remeasurement_display, right, sizes_display, table, to_object,
};

/// `orcl db show ID`: one experiment in full.
///
/// Sections: the experiment (every column), its metadata (key/value; `winner` shown as a
/// configuration), the region (file, line, function, loop hash), the device (every column,
/// then the properties of `properties_json` not already shown), the `top` fastest `ok`
/// configurations by median (rank, configuration, median, min, transfer and build ms, max
/// error; energy mJ per call and power W where measured), and the number of evaluations of every status of [`EVALUATION_STATUSES`] (`ok`
/// included, so the counts sum to the number of evaluations).
///
/// `--json`: one object with the keys `experiment` (every column; `input_params_json` and
/// `search_options_json` also parsed, as `input_params` and `search_options`), `metadata`
/// (key → value text), `region`, `device` (every column with `id`; `properties_json` parsed as
/// `properties`), `top` (array) and `failures` (status → count, every status).
pub fn show(db: &Path, id: i64, top: usize, json: bool) -> anyhow::Result<()> {
    let s = Shown::read(db, id, top)?;
    if json {
        show_json(&s)
    } else {
        show_tables(id, &s);
        Ok(())
    }
}

/// `orcl db show ID --failures`: the experiment's failures grouped by class (status), most
/// frequent first, each with its count and the first message (its first line, at most
/// [`MESSAGE_CHARS`] characters, in the table) and configuration of that class; then how many
/// configurations constraints rejected (not failures). `--json`: `{"experiment_id", "failures":
/// [{"status", "count", "first_message", "first_config_key"}], "constraint"}` with full messages.
///
/// Errors: no database, no such experiment, an unreadable database.
pub fn show_failures(db: &Path, id: i64, json: bool) -> anyhow::Result<()> {
    let conn = open(db)?;
    let ctx = || format!("cannot read experiment {id} of {}", db.display());
    if conn.experiment(id).with_context(ctx)?.is_none() {
        bail!("no experiment {id} in {}", db.display());
    }
    let groups = conn.failure_groups(id).with_context(ctx)?;
    let stored = conn.status_counts(id).with_context(ctx)?;
    let counted: i64 = conn
        .metadata(id)
        .with_context(ctx)?
        .get("constraint_rejected")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let constraint = stored.get("constraint").copied().unwrap_or(0) + counted;
    if json {
        return print_json(&json!({
            "experiment_id": id,
            "failures": groups,
            "constraint": constraint,
        }));
    }
    show_failure_groups(id, &groups, constraint);
    Ok(())
}

/// The longest first line of a failure message `db show --failures` prints in its table.
pub const MESSAGE_CHARS: usize = 100;

fn show_failure_groups(id: i64, groups: &[FailureGroup], constraint: i64) {
    let total: i64 = groups.iter().map(|g| g.count).sum();
    orcl_frontend::outln!("experiment {id}: {total} failed evaluation(s)");
    if !groups.is_empty() {
        let mut t = table(&["status", "count", "first message", "first configuration"]);
        for g in groups {
            t.add_row(vec![
                Cell::new(&g.status),
                right(g.count),
                Cell::new(first_line(g.first_message.as_deref().unwrap_or(""))),
                Cell::new(config_display(&g.first_config_key)),
            ]);
        }
        orcl_frontend::outln!("{t}");
    }
    if constraint > 0 {
        orcl_frontend::outln!(
            "{constraint} configuration(s) rejected by constraints of the spec (not failures)"
        );
    }
}

/// The first non-empty line of `message`, cut to [`MESSAGE_CHARS`] characters (`…` when cut).
fn first_line(message: &str) -> String {
    let line = message
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if line.chars().count() <= MESSAGE_CHARS {
        return line.to_string();
    }
    let cut: String = line.chars().take(MESSAGE_CHARS - 1).collect();
    format!("{cut}…")
}

/// What `orcl db show` prints, read from the database once.
struct Shown {
    e: ExperimentRow,
    metadata: BTreeMap<String, String>,
    region: Option<RegionRow>,
    device: Option<DeviceRow>,
    best: Vec<EvaluationRow>,
    /// `orcl tune --devices`: configurations measured by each device (empty otherwise).
    per_device: BTreeMap<String, usize>,
    /// Evaluations per status, every status of [`EVALUATION_STATUSES`] in order.
    counts: Vec<(&'static str, i64)>,
    /// The experiment's columns, with `input_params` and `search_options` parsed.
    experiment: Map<String, Json>,
    region_json: Json,
    device_json: Json,
}

impl Shown {
    pub(super) fn read(db: &Path, id: i64, top: usize) -> anyhow::Result<Shown> {
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
        Ok(Shown {
            e,
            metadata,
            region,
            device,
            best,
            per_device,
            counts,
            experiment,
            region_json,
            device_json,
        })
    }
}

/// `orcl db show --json`.
fn show_json(s: &Shown) -> anyhow::Result<()> {
    let top_json: Vec<Json> = s
        .best
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
        experiment: &s.experiment,
        metadata: &s.metadata,
        region: &s.region_json,
        device: &s.device_json,
        top: top_json,
        failures: Counts(&s.counts),
        measured_per_device: &s.per_device,
    })
}

/// `orcl db show` as tables: the experiment, its metadata, region, device, top configurations
/// and evaluations by status.
fn show_tables(id: i64, s: &Shown) {
    let e = &s.e;
    let title = match &s.region {
        Some(r) => format!("{}:{} {}()", r.file, r.line, r.function),
        None => format!("region {}", e.region_id),
    };
    let device_name = s.device.as_ref().map_or("?", |d| d.name.as_str());
    orcl_frontend::outln!(
        "experiment {id}: {title} [{}] on {device_name} — {}",
        sizes_display(&e.input_params_json),
        e.status
    );
    orcl_frontend::outln!(
        "{}",
        key_value_table(
            s.experiment
                .iter()
                .filter(|(k, _)| { !matches!(k.as_str(), "input_params" | "search_options") })
        )
    );

    orcl_frontend::outln!("\nmetadata");
    let mut t = table(&["key", "value"]);
    for (k, v) in &s.metadata {
        let shown = match k.as_str() {
            "winner" => config_display(v),
            "final_remeasurement" => remeasurement_display(v),
            _ => v.clone(),
        };
        t.add_row(vec![Cell::new(k), Cell::new(shown)]);
    }
    orcl_frontend::outln!("{t}");

    orcl_frontend::outln!("\nregion");
    match &s.region {
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

    show_device(s);
    show_top(&s.best);
    show_counts(&s.counts);
}

/// The device section of `orcl db show`: every column, then the properties not already shown,
/// and the evaluations per device of `orcl tune --devices`.
fn show_device(s: &Shown) {
    orcl_frontend::outln!("\ndevice");
    match &s.device_json {
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
        _ => orcl_frontend::outln!("(device {} is missing)", s.e.device_id),
    }
    if !s.per_device.is_empty() {
        let each: Vec<String> = s
            .per_device
            .iter()
            .map(|(d, n)| format!("device {d}: {n}"))
            .collect();
        orcl_frontend::outln!("measured per device (--devices): {}", each.join(", "));
    }
}

/// The top section of `orcl db show`: the fastest `ok` configurations by median.
fn show_top(best: &[EvaluationRow]) {
    orcl_frontend::outln!("\ntop {} ok configurations by median", best.len());
    let mut header = vec![
        "rank",
        "configuration",
        "median ms",
        "min ms",
        "transfer ms",
        "build ms",
        "max error",
    ];
    // Energy columns only where some row has a reading (`--objective energy`, docs/ENERGY.md).
    let energy = best.iter().any(|e| e.energy_j.is_some());
    if energy {
        header.extend(["energy mJ", "power W"]);
    }
    let mut t = table(&header);
    for (k, ev) in best.iter().enumerate() {
        let mut row = vec![
            right(k + 1),
            Cell::new(config_display(&ev.config_key)),
            right(fmt_ms(ev.median_ms)),
            right(fmt_ms(min_sample(ev))),
            right(fmt_ms(ev.transfer_ms)),
            right(ev.build_ms.map(|x| format!("{x:.1}")).unwrap_or_default()),
            right(ev.max_error.map(|x| format!("{x:.1e}")).unwrap_or_default()),
        ];
        if energy {
            row.push(right(
                ev.energy_j
                    .map(|j| format!("{:.4}", j * 1e3))
                    .unwrap_or_default(),
            ));
            row.push(right(
                ev.power_w.map(|w| format!("{w:.1}")).unwrap_or_default(),
            ));
        }
        t.add_row(row);
    }
    orcl_frontend::outln!("{t}");
}

/// The last section of `orcl db show`: evaluations by status, and their total.
fn show_counts(counts: &[(&str, i64)]) {
    orcl_frontend::outln!("\nevaluations by status");
    let mut t = table(&["status", "count"]);
    for (s, n) in counts {
        t.add_row(vec![Cell::new(s), right(n)]);
    }
    t.add_row(vec![
        Cell::new("total"),
        right(counts.iter().map(|(_, n)| n).sum::<i64>()),
    ]);
    orcl_frontend::outln!("{t}");
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
    let mut j = json!({
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
    });
    // Energy per call (J) and power (W) where measured (docs/ENERGY.md).
    if ev.energy_j.is_some() {
        j["energy_j"] = num(ev.energy_j);
        j["power_w"] = num(ev.power_w);
    }
    j
}
