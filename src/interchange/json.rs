//! orcl's own JSON format: the database rows as they are (export and import).

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::export::{Loaded, OrderedConfig};
use super::import::{
    apply_origin, bare_device, dedup, new_experiment, normalize_timestamp, parse, Imported,
    OrclOrigin,
};
use super::{JSON_FORMAT, JSON_FORMAT_VERSION};
use crate::db::{DeviceRow, EvaluationRow, ExperimentRow, RegionRow};
use orcl_frontend::space::Configuration;

#[derive(Serialize)]
pub(super) struct JsonDoc<'a> {
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
pub(super) struct JsonEval<'a> {
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
    /// Energy per call (J) and average power (W), where measured (docs/ENERGY.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    energy_j: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    power_w: Option<f64>,
}

pub(super) fn json_doc(l: &Loaded) -> JsonDoc<'_> {
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
                energy_j: e.energy_j,
                power_w: e.power_w,
            })
            .collect(),
    }
}

#[derive(Deserialize)]
pub(super) struct JsonIn {
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
pub(super) struct JsonEvalIn {
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
    #[serde(default)]
    energy_j: Option<f64>,
    #[serde(default)]
    power_w: Option<f64>,
}

pub(super) fn from_json(text: &str) -> Result<Imported> {
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
                energy_j: e.energy_j,
                power_w: e.power_w,
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
