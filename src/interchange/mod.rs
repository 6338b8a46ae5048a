//! Export and import of experiments: CSV, JSON, T4 results, Kernel Tuner cache files.
//!
//! `orcl db export ID --format csv|json|t4` ([`export()`]) writes one experiment:
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
//! `orcl db import FILE [--format kerneltuner|t4|json]` ([`import()`]) adds one finished
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
//!   ([`Configuration::key`](orcl_frontend::space::Configuration::key): parameter order, ints
//!   stay ints, floats floats, strings, bools).
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
//!
//! The module by concern: `export` (reading an experiment, `orcl db export`), `import` (the
//! common import path, `orcl db import`), and one file per format: `csv`, `json`, `t4`,
//! `kerneltuner`.

use anyhow::{bail, Result};

mod csv;
mod export;
mod import;
mod json;
mod kerneltuner;
mod t4;
#[cfg(test)]
mod tests;

pub use export::export;
pub use import::{import, normalize_timestamp, value_from_json};

/// The T4 results schema version written by [`export()`].
pub const T4_SCHEMA_VERSION: &str = "1.0.0";

/// `format` of orcl's JSON export.
pub const JSON_FORMAT: &str = "orcl-experiment";

/// `format_version` of orcl's JSON export.
pub const JSON_FORMAT_VERSION: u32 = 1;

/// The columns of the CSV export after the tuning parameters (`energy_j`: J per call, `power_w`:
/// W, empty where not measured; docs/ENERGY.md).
pub const CSV_COLUMNS: [&str; 9] = [
    "status",
    "median_ms",
    "samples_ms",
    "transfer_ms",
    "build_ms",
    "max_error",
    "message",
    "energy_j",
    "power_w",
];

// ---------------------------------------------------------------------------------------------
// Formats
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ExportFormat {
    Csv,
    Json,
    T4,
}

impl ExportFormat {
    pub(super) fn parse(s: &str) -> Result<ExportFormat> {
        match s.to_ascii_lowercase().as_str() {
            "csv" => Ok(ExportFormat::Csv),
            "json" => Ok(ExportFormat::Json),
            "t4" => Ok(ExportFormat::T4),
            _ => bail!("unknown export format `{s}`: use csv, json or t4"),
        }
    }
}

/// The formats [`import()`] reads.
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
