//! Export and import of experiments: CSV, JSON, T4 results, Kernel Tuner cache files.
//!
//! `orcl db export ID --format csv|json|t4` ([`export`]) writes one experiment:
//! - `csv`: one row per evaluation, in insertion order. Columns: the tuning parameters (in
//!   parameter order; the union over the evaluations, first seen first), then `status`,
//!   `median_ms`, `samples_ms` (`;`-joined), `transfer_ms`, `build_ms`, `max_error`, `message`.
//!   Booleans are `true`/`false`, numbers are the shortest text that reads back exactly, absent
//!   values are empty.
//! - `json`: one object `{format: "orcl-experiment", format_version, orcl_version, experiment,
//!   region, device, metadata, evaluations}`: the database rows as they are, and each evaluation
//!   with its `configuration` as a JSON object (parameter order) beside its `config_key`.
//! - `t4`: the community T4 results format (`schema_version` "1.0.0", `results`), valid against
//!   `t4-results-schema.json`. One result per evaluation: `configuration`, `objectives: ["time"]`,
//!   `times.runtimes` (every repetition) and `times.compilation_time`, `invalidity` (`correct` or
//!   the failure class: see [`t4_invalidity`]), `correctness` (0 for `wrong_result`, else 1),
//!   `measurements` (`time` = the median, `transfer_time`, `max_error`), `timestamp`. All times
//!   are **milliseconds**, as Kernel Tuner and the T4 tooling (autotuning_methodology) write
//!   them; every measurement names its unit (`ms`). orcl's own data rides along where the schema
//!   allows additional properties: each result's `orcl` object (exact `status`, `config_key`,
//!   `message`, `kernel_hash`) and a top-level `metadata` object shaped like T4's metadata schema
//!   (`environment.device_query` = the device row, `orcl` = experiment, region, metadata).
//!
//! `orcl db import FILE [--format kerneltuner|t4|json]` ([`import`]) adds one finished
//! experiment, in one transaction (a failed import leaves no experiment behind):
//! - the format is detected from the content when not given: a Kernel Tuner cache has `cache`
//!   and `tune_params_keys`; a T4 results file has `results` (and `schema_version`); an orcl JSON
//!   export has `experiment` and `evaluations`. An unterminated Kernel Tuner cache (a run that
//!   was cut short) is closed and read; metadata `repaired` says so.
//! - device: `backend` `opencl` unless the file says otherwise, the device name from the file,
//!   fingerprint `imported|<device name>` (orcl exports: `imported|<original fingerprint>`, with
//!   the original limits and properties; an already imported device keeps its fingerprint).
//! - region: `file` = the imported file's name, `line` 0 (not a source line), `function` = the
//!   kernel name, `loop_hash` = SHA-256 of the file's bytes, `transform_text` = the parameter
//!   space as JSON (`{"param": [values...]}`) or the original spec text.
//! - experiment: `identity_key` = SHA-256 of the file's bytes, so **importing the same file
//!   twice is an error** ("FILE is already imported as experiment N") and writes nothing.
//!   Algorithm `Exhaustive` (Kernel Tuner caches usually come from brute force; orcl exports keep
//!   theirs), status `done`, started/finished at the first/last evaluation time when the file
//!   has them. Metadata `imported_from` (`kerneltuner`, `t4` or `json`), `imported_file`,
//!   `source_sha256`, plus the format's own (`objective`, `problem_size`, the original
//!   experiment's metadata, ...; a clashing key is kept as `original_KEY`).
//! - one evaluation per cache entry / result, configuration key in orcl's canonical form
//!   ([`Configuration::key`]: parameter order, ints stay ints, floats floats, strings, bools).
//!   Kernel Tuner: `time` → `median_ms`, `times` → `samples_ms` (else `[time]`),
//!   `compile_time` → `build_ms`; failure strings → status ([`kerneltuner_failure_status`]).
//!   T4: the `time` (objective) measurement → `median_ms` (else the median of the runtimes),
//!   runtimes → samples, invalidity → status ([`t4_status`]); a result's `orcl` object, when
//!   present, restores the exact status and message. A configuration seen twice keeps its first
//!   result (metadata `duplicate_results_skipped`).
//!
//! Round trip: `export --format t4` (or `json`) then `import` gives an experiment with the same
//! evaluations: configuration keys, statuses, medians, samples, build/transfer times, errors and
//! messages. Numbers are written exactly (shortest round-trip form), but serde_json's parser
//! (built without `float_roundtrip`) may read a 17-digit number back 1 ulp off.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::marker::PhantomData;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::db::{
    Db, DeviceRow, EvaluationRow, ExperimentRow, NewExperiment, RegionRow, EVALUATION_STATUSES,
};
use orcl_frontend::expr::Value;
use orcl_frontend::space::Configuration;

/// The T4 results schema version written by [`export`].
pub const T4_SCHEMA_VERSION: &str = "1.0.0";

/// `format` of orcl's JSON export.
pub const JSON_FORMAT: &str = "orcl-experiment";

/// `format_version` of orcl's JSON export.
pub const JSON_FORMAT_VERSION: u32 = 1;

/// The columns of the CSV export after the tuning parameters.
pub const CSV_COLUMNS: [&str; 7] = [
    "status",
    "median_ms",
    "samples_ms",
    "transfer_ms",
    "build_ms",
    "max_error",
    "message",
];

// ---------------------------------------------------------------------------------------------
// Formats
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ExportFormat {
    Csv,
    Json,
    T4,
}

impl ExportFormat {
    fn parse(s: &str) -> Result<ExportFormat> {
        match s.to_ascii_lowercase().as_str() {
            "csv" => Ok(ExportFormat::Csv),
            "json" => Ok(ExportFormat::Json),
            "t4" => Ok(ExportFormat::T4),
            _ => bail!("unknown export format `{s}`: use csv, json or t4"),
        }
    }
}

/// The formats [`import`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportFormat {
    /// A Kernel Tuner cache file.
    KernelTuner,
    /// A T4 results file.
    T4,
    /// orcl's own JSON export.
    Json,
}

impl ImportFormat {
    /// Parses a `--format` value: `kerneltuner` (also `kernel_tuner`, `kernel-tuner`, `kt`),
    /// `t4` or `json`.
    pub fn parse(s: &str) -> Result<ImportFormat> {
        match s.to_ascii_lowercase().as_str() {
            "kerneltuner" | "kernel_tuner" | "kernel-tuner" | "kt" => Ok(ImportFormat::KernelTuner),
            "t4" => Ok(ImportFormat::T4),
            "json" | "orcl" => Ok(ImportFormat::Json),
            _ => bail!("unknown import format `{s}`: use kerneltuner, t4 or json"),
        }
    }

    /// The value of the `imported_from` metadata.
    pub fn name(self) -> &'static str {
        match self {
            ImportFormat::KernelTuner => "kerneltuner",
            ImportFormat::T4 => "t4",
            ImportFormat::Json => "json",
        }
    }

    /// Tells the format from a parsed document's top-level keys, if it is one of ours.
    pub fn detect(doc: &serde_json::Value) -> Option<ImportFormat> {
        let obj = doc.as_object()?;
        if obj.contains_key("cache") && obj.contains_key("tune_params_keys") {
            Some(ImportFormat::KernelTuner)
        } else if obj.contains_key("experiment") && obj.contains_key("evaluations") {
            Some(ImportFormat::Json)
        } else if obj.get("results").is_some_and(|r| r.is_array()) {
            Some(ImportFormat::T4)
        } else {
            None
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Status mappings
// ---------------------------------------------------------------------------------------------

/// The evaluation status of a Kernel Tuner failure string, and whether the string is one Kernel
/// Tuner documents: `InvalidConfig` → `constraint`, `CompilationFailedConfig` →
/// `compile_error`, `RuntimeFailedConfig` → `launch_error`, anything else → `launch_error`
/// (unknown; the caller keeps the string in `message`).
pub fn kerneltuner_failure_status(s: &str) -> (&'static str, bool) {
    match s {
        "InvalidConfig" => ("constraint", true),
        "CompilationFailedConfig" => ("compile_error", true),
        "RuntimeFailedConfig" => ("launch_error", true),
        _ => ("launch_error", false),
    }
}

/// The T4 `invalidity` of an evaluation status: `ok` → `correct`, `constraint` and
/// `device_limit` → `constraints`, `compile_error` → `compile`, `launch_error` and `crash` →
/// `runtime`, `timeout` → `timeout`, `wrong_result` → `correctness`.
pub fn t4_invalidity(status: &str) -> &'static str {
    match status {
        "ok" => "correct",
        "constraint" | "device_limit" => "constraints",
        "compile_error" => "compile",
        "timeout" => "timeout",
        "wrong_result" => "correctness",
        _ => "runtime",
    }
}

/// The evaluation status of a T4 `invalidity` (absent = `correct`) and `correctness` (0 makes
/// a correct result `wrong_result`): `compile` → `compile_error`, `runtime` → `launch_error`,
/// `timeout` → `timeout`, `correctness` → `wrong_result`, `constraints` → `constraint`; `None`
/// for an invalidity T4 does not define.
pub fn t4_status(invalidity: Option<&str>, correctness: Option<f64>) -> Option<&'static str> {
    Some(match invalidity.unwrap_or("correct") {
        "correct" if correctness == Some(0.0) => "wrong_result",
        "correct" => "ok",
        "compile" => "compile_error",
        "runtime" => "launch_error",
        "timeout" => "timeout",
        "correctness" => "wrong_result",
        "constraints" => "constraint",
        _ => return None,
    })
}

// ---------------------------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------------------------

/// One experiment as read from the database.
struct Loaded {
    experiment: ExperimentRow,
    region: RegionRow,
    device: DeviceRow,
    metadata: BTreeMap<String, String>,
    evaluations: Vec<(EvaluationRow, Configuration)>,
}

fn load(db: &Db, id: i64) -> Result<Loaded> {
    let experiment = db
        .experiment(id)?
        .ok_or_else(|| anyhow!("no experiment with id {id}"))?;
    let region = db
        .region(experiment.region_id)?
        .ok_or_else(|| anyhow!("experiment {id}: no region {}", experiment.region_id))?;
    let device = db
        .device(experiment.device_id)?
        .ok_or_else(|| anyhow!("experiment {id}: no device {}", experiment.device_id))?;
    let metadata = db.metadata(id)?;
    let evaluations = db
        .evaluations(id)?
        .into_iter()
        .map(|e| {
            let cfg = Configuration::from_key(&e.config_key)
                .or_else(|_| Configuration::from_key(&e.config_json))
                .with_context(|| {
                    format!("evaluation {:?}: configuration is not a JSON object", e.id)
                })?;
            Ok((e, cfg))
        })
        .collect::<Result<_>>()?;
    Ok(Loaded {
        experiment,
        region,
        device,
        metadata,
        evaluations,
    })
}

/// `orcl db export ID --format csv|json|t4`: writes experiment `id` of database `db` to `output`
/// (default: standard output). Errors: unknown format or id, unreadable database, I/O.
pub fn export(db: &Path, id: i64, format: &str, output: Option<&Path>) -> Result<()> {
    let format = ExportFormat::parse(format)?;
    if !db.exists() {
        bail!("database {} does not exist", db.display());
    }
    let conn = Db::open_read_only(db).with_context(|| format!("cannot open {}", db.display()))?;
    let loaded = load(&conn, id).map_err(|e| {
        if conn.experiment(id).is_ok_and(|x| x.is_none()) {
            anyhow!("no experiment with id {id} in {}", db.display())
        } else {
            e.context(format!("cannot read experiment {id} from {}", db.display()))
        }
    })?;
    drop(conn);
    // Rendered in memory, then written whole: a file output goes through a temporary file and
    // is never the database itself (issue 15 F4); standard output may be a closed pipe.
    let mut out: Vec<u8> = Vec::new();
    match format {
        ExportFormat::Csv => write_csv(&loaded, &mut out)?,
        ExportFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &json_doc(&loaded))?;
            writeln!(out)?;
        }
        ExportFormat::T4 => {
            serde_json::to_writer_pretty(&mut out, &t4_doc(&loaded))?;
            writeln!(out)?;
        }
    }
    match output {
        Some(p) => crate::outfile::write(p, &out, &[("database", db)])?,
        None => {
            let mut so = std::io::stdout().lock();
            match so.write_all(&out).and_then(|_| so.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    return Err(anyhow!("cannot write to standard output: {e}"))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// A configuration serialised as a JSON object in parameter order.
struct OrderedConfig<'a>(&'a Configuration);

impl Serialize for OrderedConfig<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.values.len()))?;
        for (name, value) in &self.0.values {
            m.serialize_entry(name, value)?;
        }
        m.end()
    }
}

/// Shortest text that reads back as the same `f64` (`1.0`, `2.5e-16`).
fn fmt_f64(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_else(|_| x.to_string())
}

fn fmt_opt(x: Option<f64>) -> String {
    x.map(fmt_f64).unwrap_or_default()
}

/// A parameter value as a CSV cell: strings bare, booleans `true`/`false`, numbers as JSON.
fn csv_cell(v: &Value) -> String {
    match v {
        Value::Str(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => fmt_f64(*f),
        Value::List(_) => serde_json::to_string(v).unwrap_or_default(),
    }
}

fn write_csv(l: &Loaded, out: &mut dyn Write) -> Result<()> {
    let mut params: Vec<&str> = Vec::new();
    for (_, cfg) in &l.evaluations {
        for (name, _) in &cfg.values {
            if !params.contains(&name.as_str()) {
                params.push(name);
            }
        }
    }
    let mut w = csv::Writer::from_writer(out);
    w.write_record(params.iter().copied().chain(CSV_COLUMNS))?;
    for (e, cfg) in &l.evaluations {
        let mut row: Vec<String> = params
            .iter()
            .map(|p| cfg.get(p).map(csv_cell).unwrap_or_default())
            .collect();
        row.push(e.status.clone());
        row.push(fmt_opt(e.median_ms));
        row.push(
            e.samples_ms
                .iter()
                .map(|s| fmt_f64(*s))
                .collect::<Vec<_>>()
                .join(";"),
        );
        row.push(fmt_opt(e.transfer_ms));
        row.push(fmt_opt(e.build_ms));
        row.push(fmt_opt(e.max_error));
        row.push(e.message.clone().unwrap_or_default());
        w.write_record(&row)?;
    }
    w.flush()?;
    Ok(())
}

#[derive(Serialize)]
struct JsonDoc<'a> {
    format: &'static str,
    format_version: u32,
    orcl_version: &'static str,
    experiment: &'a ExperimentRow,
    region: &'a RegionRow,
    device: &'a DeviceRow,
    metadata: &'a BTreeMap<String, String>,
    evaluations: Vec<JsonEval<'a>>,
}

#[derive(Serialize)]
struct JsonEval<'a> {
    id: Option<i64>,
    configuration: OrderedConfig<'a>,
    config_key: &'a str,
    status: &'a str,
    median_ms: Option<f64>,
    samples_ms: &'a [f64],
    build_ms: Option<f64>,
    transfer_ms: Option<f64>,
    max_error: Option<f64>,
    message: Option<&'a str>,
    kernel_hash: Option<&'a str>,
    created_at: Option<&'a str>,
}

fn json_doc(l: &Loaded) -> JsonDoc<'_> {
    JsonDoc {
        format: JSON_FORMAT,
        format_version: JSON_FORMAT_VERSION,
        orcl_version: env!("CARGO_PKG_VERSION"),
        experiment: &l.experiment,
        region: &l.region,
        device: &l.device,
        metadata: &l.metadata,
        evaluations: l
            .evaluations
            .iter()
            .map(|(e, cfg)| JsonEval {
                id: e.id,
                configuration: OrderedConfig(cfg),
                config_key: &e.config_key,
                status: &e.status,
                median_ms: e.median_ms,
                samples_ms: &e.samples_ms,
                build_ms: e.build_ms,
                transfer_ms: e.transfer_ms,
                max_error: e.max_error,
                message: e.message.as_deref(),
                kernel_hash: e.kernel_hash.as_deref(),
                created_at: e.created_at.as_deref(),
            })
            .collect(),
    }
}

#[derive(Serialize)]
struct T4Doc<'a> {
    schema_version: &'static str,
    results: Vec<T4Result<'a>>,
    metadata: T4Metadata<'a>,
}

#[derive(Serialize)]
struct T4Result<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    timestamp: Option<&'a str>,
    configuration: OrderedConfig<'a>,
    objectives: [&'static str; 1],
    times: T4Times<'a>,
    invalidity: &'static str,
    correctness: u8,
    measurements: Vec<T4Measurement>,
    orcl: T4OrclResult<'a>,
}

#[derive(Serialize)]
struct T4Times<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    compilation_time: Option<f64>,
    runtimes: &'a [f64],
}

#[derive(Serialize)]
struct T4Measurement {
    name: &'static str,
    value: f64,
    unit: &'static str,
}

/// orcl's exact record of a result, beside the T4 fields.
#[derive(Serialize, Deserialize)]
struct T4OrclResult<'a> {
    status: &'a str,
    config_key: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kernel_hash: Option<&'a str>,
}

#[derive(Serialize)]
struct T4Metadata<'a> {
    environment: T4Environment<'a>,
    orcl: T4OrclMetadata<'a>,
}

#[derive(Serialize)]
struct T4Environment<'a> {
    device_query: &'a DeviceRow,
}

#[derive(Serialize)]
struct T4OrclMetadata<'a> {
    orcl_version: &'static str,
    experiment: &'a ExperimentRow,
    region: &'a RegionRow,
    metadata: &'a BTreeMap<String, String>,
}

fn t4_doc(l: &Loaded) -> T4Doc<'_> {
    let results = l
        .evaluations
        .iter()
        .map(|(e, cfg)| {
            let mut measurements = Vec::new();
            if let Some(m) = e.median_ms {
                measurements.push(T4Measurement {
                    name: "time",
                    value: m,
                    unit: "ms",
                });
            }
            if let Some(t) = e.transfer_ms {
                measurements.push(T4Measurement {
                    name: "transfer_time",
                    value: t,
                    unit: "ms",
                });
            }
            if let Some(x) = e.max_error {
                measurements.push(T4Measurement {
                    name: "max_error",
                    value: x,
                    unit: "",
                });
            }
            T4Result {
                timestamp: e.created_at.as_deref(),
                configuration: OrderedConfig(cfg),
                objectives: ["time"],
                times: T4Times {
                    compilation_time: e.build_ms,
                    runtimes: &e.samples_ms,
                },
                invalidity: t4_invalidity(&e.status),
                correctness: u8::from(e.status != "wrong_result"),
                measurements,
                orcl: T4OrclResult {
                    status: &e.status,
                    config_key: &e.config_key,
                    message: e.message.as_deref(),
                    kernel_hash: e.kernel_hash.as_deref(),
                },
            }
        })
        .collect();
    T4Doc {
        schema_version: T4_SCHEMA_VERSION,
        results,
        metadata: T4Metadata {
            environment: T4Environment {
                device_query: &l.device,
            },
            orcl: T4OrclMetadata {
                orcl_version: env!("CARGO_PKG_VERSION"),
                experiment: &l.experiment,
                region: &l.region,
                metadata: &l.metadata,
            },
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Import
// ---------------------------------------------------------------------------------------------

/// A JSON object read as `(key, value)` pairs in document order (serde_json's own map sorts).
#[derive(Debug, Clone, PartialEq)]
struct Ordered<T>(Vec<(String, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Ordered<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Ordered<T>, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry::<String, T>()? {
                    out.push(entry);
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(V(PhantomData))
    }
}

impl<T: Serialize> Serialize for Ordered<T> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// A parameter value from JSON: integers stay `Int`, other numbers are `Float`, strings `Str`,
/// booleans `Bool`, arrays `List`; `null` and objects are refused.
pub fn value_from_json(v: &serde_json::Value) -> Result<Value> {
    Ok(match v {
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(
                n.as_f64()
                    .ok_or_else(|| anyhow!("number {n} is not an f64"))?,
            ),
        },
        serde_json::Value::String(s) => Value::Str(s.clone()),
        serde_json::Value::Array(a) => {
            Value::List(a.iter().map(value_from_json).collect::<Result<_>>()?)
        }
        serde_json::Value::Null | serde_json::Value::Object(_) => {
            bail!("unsupported parameter value {v} (use numbers, strings, booleans or lists)")
        }
    })
}

/// Lowercase hex SHA-256.
fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A timestamp as orcl's ISO-8601 UTC text with milliseconds (`2022-12-23T12:11:26.411Z`), if it
/// is `YYYY-MM-DD[T ]HH:MM:SS[.fraction]` followed by `Z`, `+00:00` or nothing (taken as UTC).
pub fn normalize_timestamp(s: &str) -> Option<String> {
    let s = s.trim();
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r.clone())
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let shape = b.len() >= 19
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && (b[10] == b'T' || b[10] == b' ')
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19);
    if !shape {
        return None;
    }
    let mut rest = &s[19..];
    let mut millis = String::from("000");
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        let f = &frac[..n];
        millis = format!("{:0<3}", &f[..n.min(3)]);
        rest = &frac[n..];
    }
    if !matches!(rest, "" | "Z" | "z" | "+00:00" | "+0000" | "-00:00") {
        return None;
    }
    Some(format!("{}T{}.{millis}Z", &s[..10], &s[11..19]))
}

fn median(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// Everything an import writes, before it is written.
struct Imported {
    device: DeviceRow,
    region: RegionRow,
    experiment: NewExperiment,
    metadata: Vec<(String, String)>,
    evaluations: Vec<EvaluationRow>,
}

/// A device row with only a name (the other limits unknown: 0 / empty).
fn bare_device(backend: &str, name: &str) -> DeviceRow {
    DeviceRow {
        backend: backend.to_string(),
        platform: if backend == "cuda" {
            "CUDA"
        } else {
            "imported"
        }
        .to_string(),
        name: name.to_string(),
        vendor: String::new(),
        driver_version: String::new(),
        device_version: String::new(),
        compute_units: 0,
        max_work_group_size: 0,
        local_mem_bytes: 0,
        global_mem_bytes: 0,
        max_clock_mhz: 0,
        fingerprint: format!("imported|{name}"),
        properties_json: "{}".to_string(),
    }
}

fn new_experiment(
    backend: &str,
    algorithm: &str,
    input_params_json: String,
    spec: &str,
) -> NewExperiment {
    NewExperiment {
        identity_key: String::new(),
        region_id: 0,
        device_id: 0,
        backend: backend.to_string(),
        input_params_json,
        spec_hash: sha256_hex(spec.as_bytes())[..32].to_string(),
        algorithm: algorithm.to_string(),
        search_options_json: "{}".to_string(),
        seed: None,
        orcl_version: env!("CARGO_PKG_VERSION").to_string(),
        host: String::new(),
        build_command: String::new(),
    }
}

/// The parameter space seen in a list of configurations: each parameter's distinct values in
/// order of appearance, as a JSON object text (`{"WI":[16,64],...}`).
fn space_text(configs: &[&Configuration]) -> String {
    let mut space: Vec<(String, Vec<Value>)> = Vec::new();
    for cfg in configs {
        for (name, v) in &cfg.values {
            match space.iter_mut().find(|(n, _)| n == name) {
                Some((_, vals)) => {
                    if !vals.contains(v) {
                        vals.push(v.clone());
                    }
                }
                None => space.push((name.clone(), vec![v.clone()])),
            }
        }
    }
    serde_json::to_string(&Ordered(space)).unwrap_or_default()
}

/// `orcl db import FILE [--format kerneltuner|t4|json]`: adds the file's experiment to database
/// `db` (created if missing) and returns its id. See the module documentation for the mapping.
/// Errors: unreadable or unrecognised file, a file already imported ("already imported as
/// experiment N"), invalid values.
pub fn import(db: &Path, file: &Path, format: Option<&str>) -> Result<i64> {
    let forced = format.map(ImportFormat::parse).transpose()?;
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let text = std::str::from_utf8(&bytes)
        .with_context(|| format!("{} is not UTF-8 text", file.display()))?;
    let hash = sha256_hex(&bytes);
    let file_name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| file.display().to_string());

    // Parse, closing an unterminated Kernel Tuner cache if need be.
    let mut repaired = false;
    let (doc, text): (serde_json::Value, std::borrow::Cow<str>) = match serde_json::from_str(text) {
        Ok(doc) => (doc, text.into()),
        Err(e) => {
            let closed = format!("{}\n}}\n}}\n", text.trim_end().trim_end_matches(','));
            match serde_json::from_str::<serde_json::Value>(&closed) {
                Ok(doc)
                    if forced.unwrap_or(ImportFormat::KernelTuner) == ImportFormat::KernelTuner
                        && ImportFormat::detect(&doc) == Some(ImportFormat::KernelTuner) =>
                {
                    repaired = true;
                    (doc, closed.into())
                }
                _ => {
                    return Err(anyhow!(e))
                        .with_context(|| format!("{} is not valid JSON", file.display()))
                }
            }
        }
    };
    let format = match forced {
        Some(f) => f,
        None => ImportFormat::detect(&doc).ok_or_else(|| {
            anyhow!(
                "cannot tell the format of {}: expected a Kernel Tuner cache (keys `cache`, \
                 `tune_params_keys`), a T4 results file (`schema_version`, `results`) or an orcl \
                 JSON export (`experiment`, `evaluations`); use --format",
                file.display()
            )
        })?,
    };
    drop(doc);
    let mut imp = match format {
        ImportFormat::KernelTuner => from_kerneltuner(&text),
        ImportFormat::T4 => from_t4(&text),
        ImportFormat::Json => from_json(&text),
    }
    .with_context(|| format!("cannot import {} as {}", file.display(), format.name()))?;

    imp.region.file = file_name.clone();
    imp.region.loop_hash = hash.clone();
    imp.experiment.identity_key = hash.clone();
    let mut metadata = vec![
        ("imported_from".to_string(), format.name().to_string()),
        ("imported_file".to_string(), file_name),
        ("source_sha256".to_string(), hash.clone()),
    ];
    if repaired {
        metadata.push((
            "repaired".to_string(),
            "unterminated Kernel Tuner cache closed before reading".to_string(),
        ));
    }
    // The file's own pairs; one that clashes with ours (e.g. the `imported_from` of an export of
    // an imported experiment) is kept as `original_KEY`.
    for (k, v) in imp.metadata {
        let k = if metadata.iter().any(|(mk, _)| *mk == k) {
            format!("original_{k}")
        } else {
            k
        };
        if !metadata.iter().any(|(mk, _)| *mk == k) {
            metadata.push((k, v));
        }
    }

    let conn = Db::open(db).with_context(|| format!("cannot open {}", db.display()))?;
    if let Some(id) = conn.find_experiment_id(&hash)? {
        bail!("{} is already imported as experiment {id}", file.display());
    }
    let device_id = conn.upsert_device(&imp.device)?;
    let region_id = conn.upsert_region(&imp.region)?;
    imp.experiment.device_id = device_id;
    imp.experiment.region_id = region_id;
    let times: Vec<&str> = imp
        .evaluations
        .iter()
        .filter_map(|e| e.created_at.as_deref())
        .collect();
    let now = crate::db::now_utc();
    let started = times.iter().min().map_or(now.clone(), |s| s.to_string());
    let finished = times.iter().max().map_or(now, |s| s.to_string());
    let (id, created) = conn.insert_finished_experiment(
        &imp.experiment,
        "done",
        &started,
        &finished,
        &metadata,
        &imp.evaluations,
    )?;
    if !created {
        bail!("{} is already imported as experiment {id}", file.display());
    }
    Ok(id)
}

/// Keeps the first evaluation of each configuration key; returns how many were dropped.
fn dedup(evaluations: &mut Vec<EvaluationRow>) -> usize {
    let before = evaluations.len();
    let mut seen = std::collections::HashSet::new();
    evaluations.retain(|e| seen.insert(e.config_key.clone()));
    before - evaluations.len()
}

fn parse<T: DeserializeOwned>(text: &str) -> Result<T> {
    Ok(serde_json::from_str(text)?)
}

#[derive(Deserialize)]
struct KtCache {
    #[serde(default)]
    device_name: Option<String>,
    #[serde(default)]
    kernel_name: Option<String>,
    #[serde(default)]
    problem_size: Option<serde_json::Value>,
    tune_params_keys: Vec<String>,
    #[serde(default)]
    tune_params: Option<Ordered<serde_json::Value>>,
    #[serde(default)]
    objective: Option<String>,
    #[serde(default)]
    objective_higher_is_better: Option<bool>,
    #[serde(default)]
    schema_version: Option<serde_json::Value>,
    /// Not written by Kernel Tuner itself; honoured when present (`CUDA`, `OpenCL`, ...).
    #[serde(default)]
    lang: Option<String>,
    cache: Ordered<serde_json::Value>,
}

fn backend_of(lang: Option<&str>) -> &'static str {
    match lang.map(str::to_ascii_lowercase).as_deref() {
        Some(l) if l.contains("cuda") || l.contains("cupy") || l == "nvcuda" => "cuda",
        _ => "opencl",
    }
}

fn from_kerneltuner(text: &str) -> Result<Imported> {
    let kt: KtCache = parse(text)?;
    let objective = kt.objective.clone().unwrap_or_else(|| "time".to_string());
    let mut evaluations = Vec::with_capacity(kt.cache.0.len());
    for (cache_key, entry) in &kt.cache.0 {
        let ctx = || format!("cache entry {cache_key:?}");
        let parts: Vec<&str> = cache_key.split(',').collect();
        let mut values = Vec::with_capacity(kt.tune_params_keys.len());
        for (i, name) in kt.tune_params_keys.iter().enumerate() {
            let v = match entry.get(name) {
                Some(v) => value_from_json(v).with_context(|| format!("{}: `{name}`", ctx()))?,
                // Not in the entry: read it from the cache key (values joined with ',').
                None => {
                    let part = parts
                        .get(i)
                        .filter(|_| parts.len() == kt.tune_params_keys.len());
                    let part = part.ok_or_else(|| anyhow!("{}: no value for `{name}`", ctx()))?;
                    match serde_json::from_str::<serde_json::Value>(part) {
                        Ok(j) => {
                            value_from_json(&j).unwrap_or_else(|_| Value::Str(part.to_string()))
                        }
                        Err(_) => Value::Str(part.to_string()),
                    }
                }
            };
            values.push((name.clone(), v));
        }
        let key = Configuration { values }.key();
        let number = |k: &str| entry.get(k).and_then(serde_json::Value::as_f64);
        // The objective's value decides success; `time` is the median kernel time.
        let verdict = entry
            .get(&objective)
            .or_else(|| entry.get("time"))
            .or(Some(entry));
        let failure = match verdict {
            Some(serde_json::Value::String(s)) => Some(s.clone()),
            Some(serde_json::Value::Number(_)) => None,
            _ => Some(format!("no `{objective}` in the cache entry")),
        };
        let mut e = EvaluationRow {
            config_json: key.clone(),
            config_key: key,
            build_ms: number("compile_time").filter(|x| x.is_finite()),
            created_at: entry
                .get("timestamp")
                .and_then(serde_json::Value::as_str)
                .and_then(normalize_timestamp),
            ..Default::default()
        };
        match failure {
            Some(s) => {
                e.status = kerneltuner_failure_status(&s).0.to_string();
                e.message = Some(s);
            }
            None => {
                e.status = "ok".to_string();
                e.median_ms = number("time");
                let times: Vec<f64> = entry
                    .get("times")
                    .and_then(serde_json::Value::as_array)
                    .map(|a| a.iter().filter_map(serde_json::Value::as_f64).collect())
                    .unwrap_or_default();
                e.samples_ms = if !times.is_empty() {
                    times
                } else {
                    e.median_ms.into_iter().collect()
                };
                e.samples_ms.retain(|x| x.is_finite());
                if e.median_ms.is_none() {
                    e.median_ms = median(&e.samples_ms);
                }
            }
        }
        evaluations.push(e);
    }
    let skipped = dedup(&mut evaluations);

    let backend = backend_of(kt.lang.as_deref());
    let device_name = kt
        .device_name
        .clone()
        .unwrap_or_else(|| "unknown device".into());
    let space = match &kt.tune_params {
        Some(tp) => serde_json::to_string(tp)?,
        None => {
            let cfgs: Vec<Configuration> = evaluations
                .iter()
                .filter_map(|e| Configuration::from_key(&e.config_key).ok())
                .collect();
            space_text(&cfgs.iter().collect::<Vec<_>>())
        }
    };
    let input = serde_json::json!({ "problem_size": kt.problem_size.clone().unwrap_or(serde_json::Value::Null) });
    let mut metadata = vec![("objective".to_string(), objective.clone())];
    if let Some(ps) = &kt.problem_size {
        metadata.push(("problem_size".into(), ps.to_string()));
    }
    if let Some(h) = kt.objective_higher_is_better {
        metadata.push(("objective_higher_is_better".into(), h.to_string()));
    }
    if let Some(v) = &kt.schema_version {
        metadata.push((
            "kerneltuner_schema_version".into(),
            v.as_str().map_or(v.to_string(), str::to_string),
        ));
    }
    if skipped > 0 {
        metadata.push(("duplicate_results_skipped".into(), skipped.to_string()));
    }
    Ok(Imported {
        device: bare_device(backend, &device_name),
        region: RegionRow {
            file: String::new(),
            line: 0,
            function: kt.kernel_name.clone().unwrap_or_default(),
            loop_hash: String::new(),
            transform_text: space.clone(),
        },
        experiment: new_experiment(backend, "Exhaustive", input.to_string(), &space),
        metadata,
        evaluations,
    })
}

#[derive(Deserialize)]
struct T4In {
    results: Vec<T4ResultIn>,
    #[serde(default)]
    metadata: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct T4ResultIn {
    #[serde(default)]
    timestamp: Option<serde_json::Value>,
    configuration: Ordered<serde_json::Value>,
    #[serde(default)]
    objectives: Vec<serde_json::Value>,
    #[serde(default)]
    times: Option<serde_json::Value>,
    #[serde(default)]
    invalidity: Option<String>,
    #[serde(default)]
    correctness: Option<f64>,
    #[serde(default)]
    measurements: Vec<T4MeasurementIn>,
    #[serde(default)]
    orcl: Option<T4OrclResultIn>,
}

#[derive(Deserialize)]
struct T4MeasurementIn {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    value: Option<serde_json::Value>,
    #[serde(default)]
    unit: Option<String>,
}

#[derive(Deserialize)]
struct T4OrclResultIn {
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    kernel_hash: Option<String>,
}

/// The original experiment, region and metadata of an orcl export (`metadata.orcl`).
#[derive(Deserialize)]
struct OrclOrigin {
    #[serde(default)]
    orcl_version: Option<String>,
    experiment: ExperimentRow,
    region: RegionRow,
    #[serde(default)]
    metadata: BTreeMap<String, String>,
}

/// Milliseconds per `unit` (`ms` when none or empty); `None` for a non-time unit.
fn ms_per(unit: Option<&str>) -> Option<f64> {
    match unit.unwrap_or("").to_ascii_lowercase().as_str() {
        "" | "ms" | "millisecond" | "milliseconds" => Some(1.0),
        "s" | "sec" | "second" | "seconds" => Some(1e3),
        "us" | "µs" | "microsecond" | "microseconds" => Some(1e-3),
        "ns" | "nanosecond" | "nanoseconds" => Some(1e-6),
        _ => None,
    }
}

/// The experiment, region, device and metadata of an orcl export, applied to `imp`.
fn apply_origin(imp: &mut Imported, origin: OrclOrigin, device: Option<DeviceRow>) {
    let OrclOrigin {
        orcl_version,
        experiment: ex,
        region,
        metadata,
    } = origin;
    if let Some(mut d) = device {
        if !d.fingerprint.starts_with("imported|") {
            d.fingerprint = format!("imported|{}", d.fingerprint);
        }
        imp.device = d;
    }
    imp.region.line = region.line;
    imp.region.function = region.function;
    imp.region.transform_text = region.transform_text;
    imp.experiment.backend = ex.backend;
    imp.experiment.input_params_json = ex.input_params_json;
    imp.experiment.spec_hash = ex.spec_hash;
    imp.experiment.algorithm = ex.algorithm;
    imp.experiment.search_options_json = ex.search_options_json;
    imp.experiment.seed = ex.seed;
    imp.experiment.host = ex.host;
    imp.experiment.build_command = ex.build_command;
    imp.metadata.extend(metadata);
    imp.metadata
        .push(("original_experiment_id".into(), ex.id.to_string()));
    imp.metadata
        .push(("original_region_file".into(), region.file));
    imp.metadata
        .push(("original_started_at".into(), ex.started_at));
    imp.metadata.push(("original_status".into(), ex.status));
    let version = orcl_version.unwrap_or(ex.orcl_version);
    imp.metadata.push(("original_orcl_version".into(), version));
}

fn from_t4(text: &str) -> Result<Imported> {
    let doc: T4In = parse(text)?;
    let mut evaluations = Vec::with_capacity(doc.results.len());
    for (i, r) in doc.results.iter().enumerate() {
        let values = r
            .configuration
            .0
            .iter()
            .map(|(k, v)| Ok((k.clone(), value_from_json(v)?)))
            .collect::<Result<Vec<_>>>()
            .with_context(|| format!("result {i}: configuration"))?;
        let key = Configuration { values }.key();
        let times = r.times.as_ref();
        let num = |v: Option<&serde_json::Value>| v.and_then(serde_json::Value::as_f64);
        let runtimes: Vec<f64> = times
            .and_then(|t| t.get("runtimes"))
            .and_then(serde_json::Value::as_array)
            .map(|a| a.iter().filter_map(serde_json::Value::as_f64).collect())
            .unwrap_or_default();
        let compile = num(times.and_then(|t| t.get("compilation_time")))
            .or_else(|| num(times.and_then(|t| t.get("compilation"))));
        let objective = r
            .objectives
            .first()
            .and_then(serde_json::Value::as_str)
            .unwrap_or("time");
        let measurement = |name: &str, time: bool| {
            r.measurements
                .iter()
                .filter(|m| m.name.as_deref() == Some(name))
                .find_map(|m| {
                    let v = m.value.as_ref()?.as_f64()?;
                    if time {
                        Some(v * ms_per(m.unit.as_deref())?)
                    } else {
                        Some(v)
                    }
                })
        };
        let median_ms = measurement(objective, true)
            .or_else(|| measurement("time", true))
            .or_else(|| median(&runtimes));
        let orcl = r.orcl.as_ref();
        let orcl_status = orcl
            .and_then(|o| o.status.as_deref())
            .filter(|s| EVALUATION_STATUSES.contains(s));
        let (status, mut message) = match orcl_status {
            Some(s) => (s.to_string(), None),
            None => match t4_status(r.invalidity.as_deref(), r.correctness) {
                Some(s) => (s.to_string(), None),
                None => (
                    "launch_error".to_string(),
                    r.invalidity.as_ref().map(|x| format!("T4 invalidity: {x}")),
                ),
            },
        };
        if let Some(m) = orcl.and_then(|o| o.message.clone()) {
            message = Some(m);
        }
        evaluations.push(EvaluationRow {
            config_json: key.clone(),
            config_key: key,
            kernel_hash: orcl.and_then(|o| o.kernel_hash.clone()),
            status,
            build_ms: compile.filter(|x| x.is_finite()),
            samples_ms: runtimes.into_iter().filter(|x| x.is_finite()).collect(),
            median_ms,
            transfer_ms: measurement("transfer_time", true),
            max_error: measurement("max_error", false),
            message,
            created_at: r
                .timestamp
                .as_ref()
                .and_then(serde_json::Value::as_str)
                .and_then(normalize_timestamp),
            ..Default::default()
        });
    }
    let skipped = dedup(&mut evaluations);

    let meta = doc.metadata.as_ref();
    let device_query = meta
        .and_then(|m| m.get("environment"))
        .and_then(|e| e.get("device_query"));
    let device_name = device_query
        .and_then(|d| d.get("name").or_else(|| d.get("device_name")))
        .and_then(serde_json::Value::as_str)
        .unwrap_or("unknown device")
        .to_string();
    let cfgs: Vec<Configuration> = evaluations
        .iter()
        .filter_map(|e| Configuration::from_key(&e.config_key).ok())
        .collect();
    let space = space_text(&cfgs.iter().collect::<Vec<_>>());
    let mut imp = Imported {
        device: bare_device("opencl", &device_name),
        region: RegionRow {
            file: String::new(),
            line: 0,
            function: String::new(),
            loop_hash: String::new(),
            transform_text: space.clone(),
        },
        experiment: new_experiment("opencl", "Exhaustive", "{}".into(), &space),
        metadata: Vec::new(),
        evaluations,
    };
    let origin = meta
        .and_then(|m| m.get("orcl"))
        .and_then(|o| serde_json::from_value::<OrclOrigin>(o.clone()).ok());
    if let Some(origin) = origin {
        let device = device_query.and_then(|d| serde_json::from_value::<DeviceRow>(d.clone()).ok());
        apply_origin(&mut imp, origin, device);
    }
    if skipped > 0 {
        imp.metadata
            .push(("duplicate_results_skipped".into(), skipped.to_string()));
    }
    Ok(imp)
}

#[derive(Deserialize)]
struct JsonIn {
    experiment: ExperimentRow,
    region: RegionRow,
    device: DeviceRow,
    #[serde(default)]
    metadata: BTreeMap<String, String>,
    evaluations: Vec<JsonEvalIn>,
    #[serde(default)]
    orcl_version: Option<String>,
}

#[derive(Deserialize)]
struct JsonEvalIn {
    config_key: String,
    status: String,
    #[serde(default)]
    median_ms: Option<f64>,
    #[serde(default)]
    samples_ms: Vec<f64>,
    #[serde(default)]
    build_ms: Option<f64>,
    #[serde(default)]
    transfer_ms: Option<f64>,
    #[serde(default)]
    max_error: Option<f64>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    kernel_hash: Option<String>,
    #[serde(default)]
    created_at: Option<String>,
}

fn from_json(text: &str) -> Result<Imported> {
    let doc: JsonIn = parse(text)?;
    let mut evaluations = doc
        .evaluations
        .into_iter()
        .enumerate()
        .map(|(i, e)| {
            let key = Configuration::from_key(&e.config_key)
                .with_context(|| format!("evaluation {i}: config_key is not a JSON object"))?
                .key();
            Ok(EvaluationRow {
                id: None,
                config_json: key.clone(),
                config_key: key,
                kernel_hash: e.kernel_hash,
                status: e.status,
                build_ms: e.build_ms,
                samples_ms: e.samples_ms,
                median_ms: e.median_ms,
                transfer_ms: e.transfer_ms,
                max_error: e.max_error,
                message: e.message,
                created_at: e.created_at.as_deref().and_then(normalize_timestamp),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let skipped = dedup(&mut evaluations);
    let mut imp = Imported {
        device: bare_device("opencl", ""),
        region: RegionRow {
            file: String::new(),
            line: 0,
            function: String::new(),
            loop_hash: String::new(),
            transform_text: String::new(),
        },
        experiment: new_experiment("opencl", "Exhaustive", "{}".into(), ""),
        metadata: Vec::new(),
        evaluations,
    };
    let origin = OrclOrigin {
        orcl_version: doc.orcl_version,
        experiment: doc.experiment,
        region: doc.region,
        metadata: doc.metadata,
    };
    apply_origin(&mut imp, origin, Some(doc.device));
    if skipped > 0 {
        imp.metadata
            .push(("duplicate_results_skipped".into(), skipped.to_string()));
    }
    Ok(imp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_from_json_keep_their_kind() {
        let j: serde_json::Value =
            serde_json::from_str(r#"{"a":16,"b":1.0,"c":"x","d":true,"e":[1,2.5]}"#).unwrap();
        let cfg = Configuration {
            values: ["a", "b", "c", "d", "e"]
                .iter()
                .map(|k| (k.to_string(), value_from_json(&j[*k]).unwrap()))
                .collect(),
        };
        assert_eq!(cfg.values[0].1, Value::Int(16));
        assert_eq!(cfg.values[1].1, Value::Float(1.0));
        assert_eq!(
            cfg.key(),
            r#"{"a":16,"b":1.0,"c":"x","d":true,"e":[1,2.5]}"#
        );
        assert!(value_from_json(&serde_json::Value::Null).is_err());
    }

    #[test]
    fn status_mappings() {
        assert_eq!(
            kerneltuner_failure_status("InvalidConfig"),
            ("constraint", true)
        );
        assert_eq!(
            kerneltuner_failure_status("CompilationFailedConfig"),
            ("compile_error", true)
        );
        assert_eq!(
            kerneltuner_failure_status("RuntimeFailedConfig"),
            ("launch_error", true)
        );
        assert_eq!(kerneltuner_failure_status("Weird"), ("launch_error", false));
        for s in EVALUATION_STATUSES {
            let back = t4_status(
                Some(t4_invalidity(s)),
                Some(if s == "wrong_result" { 0.0 } else { 1.0 }),
            );
            assert!(back.is_some(), "{s}");
        }
        assert_eq!(t4_status(None, None), Some("ok"));
        assert_eq!(t4_status(Some("correct"), Some(0.0)), Some("wrong_result"));
        assert_eq!(t4_status(Some("nonsense"), None), None);
    }

    #[test]
    fn timestamps_normalise() {
        assert_eq!(
            normalize_timestamp("2022-12-23 12:11:26.411558+00:00").as_deref(),
            Some("2022-12-23T12:11:26.411Z")
        );
        assert_eq!(
            normalize_timestamp("2024-05-01T12:34:56.789Z").as_deref(),
            Some("2024-05-01T12:34:56.789Z")
        );
        assert_eq!(
            normalize_timestamp("2024-05-01T12:34:56").as_deref(),
            Some("2024-05-01T12:34:56.000Z")
        );
        assert_eq!(
            normalize_timestamp("2024-05-01T12:34:56.5").as_deref(),
            Some("2024-05-01T12:34:56.500Z")
        );
        assert_eq!(normalize_timestamp("2024-05-01T12:34:56+02:00"), None);
        assert_eq!(normalize_timestamp("yesterday"), None);
    }

    #[test]
    fn formats_are_detected() {
        let d = |s: &str| ImportFormat::detect(&serde_json::from_str(s).unwrap());
        assert_eq!(
            d(r#"{"cache":{},"tune_params_keys":[]}"#),
            Some(ImportFormat::KernelTuner)
        );
        assert_eq!(
            d(r#"{"schema_version":"1.0.0","results":[]}"#),
            Some(ImportFormat::T4)
        );
        assert_eq!(
            d(r#"{"experiment":{},"evaluations":[]}"#),
            Some(ImportFormat::Json)
        );
        assert_eq!(d(r#"{"results":{}}"#), None);
        assert_eq!(d("[1]"), None);
    }

    const KT: &str = r#"{
        "device_name": "Dev X", "kernel_name": "k", "problem_size": [64, 2],
        "tune_params_keys": ["bx", "f"],
        "tune_params": {"bx": [32, 64], "f": [0.5, 1.0]},
        "objective": "time",
        "cache": {
            "64,0.5": {"bx": 64, "f": 0.5, "time": 2.0, "times": [1.0, 2.0, 4.0], "compile_time": 10.0,
                       "timestamp": "2022-12-23 12:11:26.411558+00:00"},
            "32,0.5": {"bx": 32, "f": 0.5, "time": "InvalidConfig"},
            "32,1.0": {"bx": 32, "f": 1.0, "time": "CompilationFailedConfig"},
            "64,1.0": {"bx": 64, "f": 1.0, "time": "SomethingElse"}
        }
    }"#;

    #[test]
    fn kerneltuner_cache_import() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("k.json");
        std::fs::write(&file, KT).unwrap();
        let dbp = dir.path().join("x.db");
        let id = import(&dbp, &file, None).unwrap();
        let err = import(&dbp, &file, None).unwrap_err().to_string();
        assert!(
            err.contains(&format!("already imported as experiment {id}")),
            "{err}"
        );

        let db = Db::open(&dbp).unwrap();
        let ex = db.experiment(id).unwrap().unwrap();
        assert_eq!(ex.algorithm, "Exhaustive");
        assert_eq!(ex.status, "done");
        assert_eq!(ex.started_at, "2022-12-23T12:11:26.411Z");
        let md = db.metadata(id).unwrap();
        assert_eq!(md["imported_from"], "kerneltuner");
        let dev = db.device(ex.device_id).unwrap().unwrap();
        assert_eq!(
            (dev.name.as_str(), dev.backend.as_str()),
            ("Dev X", "opencl")
        );
        assert_eq!(dev.fingerprint, "imported|Dev X");
        let region = db.region(ex.region_id).unwrap().unwrap();
        assert_eq!(
            (region.file.as_str(), region.function.as_str()),
            ("k.json", "k")
        );
        assert_eq!(region.transform_text, r#"{"bx":[32,64],"f":[0.5,1.0]}"#);

        let evs = db.evaluations(id).unwrap();
        let got: Vec<(&str, &str, Option<&str>)> = evs
            .iter()
            .map(|e| {
                (
                    e.config_key.as_str(),
                    e.status.as_str(),
                    e.message.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (r#"{"bx":64,"f":0.5}"#, "ok", None),
                (r#"{"bx":32,"f":0.5}"#, "constraint", Some("InvalidConfig")),
                (
                    r#"{"bx":32,"f":1.0}"#,
                    "compile_error",
                    Some("CompilationFailedConfig")
                ),
                (
                    r#"{"bx":64,"f":1.0}"#,
                    "launch_error",
                    Some("SomethingElse")
                ),
            ]
        );
        assert_eq!(evs[0].median_ms, Some(2.0));
        assert_eq!(evs[0].samples_ms, vec![1.0, 2.0, 4.0]);
        assert_eq!(evs[0].build_ms, Some(10.0));
    }

    #[test]
    fn unterminated_kerneltuner_cache_is_closed() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cut.json");
        let cut = r#"{"device_name": "D", "kernel_name": "k", "tune_params_keys": ["bx"],
            "tune_params": {"bx": [1, 2]}, "cache": {
            "1": {"bx": 1, "time": 3.0},
            "2": {"bx": 2, "time": 4.0},
"#;
        std::fs::write(&file, cut).unwrap();
        let dbp = dir.path().join("x.db");
        let id = import(&dbp, &file, None).unwrap();
        let db = Db::open(&dbp).unwrap();
        assert_eq!(db.evaluations(id).unwrap().len(), 2);
        assert!(db.metadata(id).unwrap().contains_key("repaired"));
        // Not JSON at all, and not a known format.
        std::fs::write(&file, "{\"a\": 1}").unwrap();
        let err = format!("{:#}", import(&dbp, &file, None).unwrap_err());
        assert!(err.contains("cannot tell the format"), "{err}");
    }

    /// An experiment with one evaluation of each status, built through the `Db` API.
    fn sample_db(path: &Path) -> i64 {
        let db = Db::open(path).unwrap();
        let mut dev = bare_device("opencl", "Test Device");
        dev.fingerprint = "fp-1".into();
        dev.compute_units = 4;
        let device_id = db.upsert_device(&dev).unwrap();
        let region_id = db
            .upsert_region(&RegionRow {
                file: "a.c".into(),
                line: 3,
                function: "f".into(),
                loop_hash: "abc".into(),
                transform_text: "spec".into(),
            })
            .unwrap();
        let mut ne = new_experiment("opencl", "Random", r#"{"N":10}"#.into(), "spec");
        ne.identity_key = "id-1".into();
        ne.region_id = region_id;
        ne.device_id = device_id;
        ne.seed = Some(u64::MAX);
        let (id, _) = db.open_experiment(&ne).unwrap();
        db.set_metadata(id, "winner", r#"{"WI":0,"CB":true,"CL":"-O0"}"#)
            .unwrap();
        for (i, status) in EVALUATION_STATUSES.iter().enumerate() {
            let cfg = Configuration {
                values: vec![
                    ("WI".into(), Value::Int(i as i64)),
                    ("CB".into(), Value::Bool(i % 2 == 0)),
                    ("CL".into(), Value::Str(format!("-O{i}, \"q\""))),
                    ("F".into(), Value::Float(0.1 * i as f64)),
                ],
            };
            let timed = matches!(*status, "ok" | "wrong_result");
            db.insert_evaluation(
                id,
                &EvaluationRow {
                    config_key: cfg.key(),
                    config_json: cfg.key(),
                    kernel_hash: timed.then(|| format!("h{i}")),
                    status: status.to_string(),
                    build_ms: timed.then_some(1.5 + i as f64),
                    samples_ms: if timed {
                        vec![0.1, 0.3, 0.2 / 3.0]
                    } else {
                        vec![]
                    },
                    median_ms: timed.then_some(0.1 / 3.0 + i as f64),
                    transfer_ms: timed.then_some(0.01),
                    max_error: (*status == "wrong_result").then_some(0.5),
                    message: (!timed).then(|| format!("failed, {status}\nline 2")),
                    ..Default::default()
                },
            )
            .unwrap();
        }
        db.finish_experiment(id, "done").unwrap();
        id
    }

    fn comparable(e: &EvaluationRow) -> impl PartialEq + fmt::Debug {
        (
            e.config_key.clone(),
            e.config_json.clone(),
            e.status.clone(),
            e.median_ms,
            e.samples_ms.clone(),
            e.build_ms,
            e.transfer_ms,
            e.max_error,
            e.message.clone(),
            e.kernel_hash.clone(),
        )
    }

    #[test]
    fn t4_and_json_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let dbp = dir.path().join("x.db");
        let id = sample_db(&dbp);
        for format in ["t4", "json"] {
            let out = dir.path().join(format!("e.{format}"));
            export(&dbp, id, format, Some(&out)).unwrap();
            let new = import(&dbp, &out, None).unwrap();
            let db = Db::open(&dbp).unwrap();
            let a: Vec<_> = db.evaluations(id).unwrap().iter().map(comparable).collect();
            let b: Vec<_> = db
                .evaluations(new)
                .unwrap()
                .iter()
                .map(comparable)
                .collect();
            assert_eq!(a, b, "{format}");
            let old = db.experiment(id).unwrap().unwrap();
            let ex = db.experiment(new).unwrap().unwrap();
            assert_eq!(ex.algorithm, "Random");
            assert_eq!(ex.seed, Some(u64::MAX));
            assert_eq!(ex.input_params_json, old.input_params_json);
            let md = db.metadata(new).unwrap();
            assert_eq!(md["imported_from"], format);
            assert_eq!(md["winner"], r#"{"WI":0,"CB":true,"CL":"-O0"}"#);
            let dev = db.device(ex.device_id).unwrap().unwrap();
            assert_eq!((dev.name.as_str(), dev.compute_units), ("Test Device", 4));
            assert_eq!(dev.fingerprint, "imported|fp-1");
        }
    }

    #[test]
    fn csv_export_has_params_then_fixed_columns() {
        let dir = tempfile::tempdir().unwrap();
        let dbp = dir.path().join("x.db");
        let id = sample_db(&dbp);
        let out = dir.path().join("e.csv");
        export(&dbp, id, "csv", Some(&out)).unwrap();
        let mut r = csv::Reader::from_path(&out).unwrap();
        let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
        let mut want = vec!["WI", "CB", "CL", "F"];
        want.extend(CSV_COLUMNS);
        assert_eq!(header, want);
        let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), EVALUATION_STATUSES.len());
        assert_eq!(&rows[0][2], "-O0, \"q\"");
        assert_eq!(&rows[0][4], "ok");
        assert_eq!(&rows[0][6], "0.1;0.3;0.06666666666666667");
        assert_eq!(&rows[1][10], "failed, constraint\nline 2");
        assert!(export(&dbp, 99, "csv", None)
            .unwrap_err()
            .to_string()
            .contains("no experiment with id 99"));
        assert!(export(&dbp, id, "xml", None).is_err());
    }
}
