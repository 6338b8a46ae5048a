//! The community T4 results format (export and import).

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::export::{Loaded, OrderedConfig};
use super::import::{
    apply_origin, bare_device, dedup, median, new_experiment, normalize_timestamp, parse,
    space_text, value_from_json, Imported, OrclOrigin, Ordered,
};
use super::{t4_invalidity, t4_status, T4_SCHEMA_VERSION};
use crate::db::{DeviceRow, EvaluationRow, ExperimentRow, RegionRow, EVALUATION_STATUSES};
use orcl_frontend::space::Configuration;
use std::sync::Arc;

#[derive(Serialize)]
pub(super) struct T4Doc<'a> {
    schema_version: &'static str,
    results: Vec<T4Result<'a>>,
    metadata: T4Metadata<'a>,
}

#[derive(Serialize)]
pub(super) struct T4Result<'a> {
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
pub(super) struct T4Times<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    compilation_time: Option<f64>,
    runtimes: &'a [f64],
}

#[derive(Serialize)]
pub(super) struct T4Measurement {
    name: &'static str,
    value: f64,
    unit: &'static str,
}

/// orcl's exact record of a result, beside the T4 fields.
#[derive(Serialize, Deserialize)]
pub(super) struct T4OrclResult<'a> {
    status: &'a str,
    config_key: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kernel_hash: Option<&'a str>,
}

#[derive(Serialize)]
pub(super) struct T4Metadata<'a> {
    environment: T4Environment<'a>,
    orcl: T4OrclMetadata<'a>,
}

#[derive(Serialize)]
pub(super) struct T4Environment<'a> {
    device_query: &'a DeviceRow,
}

#[derive(Serialize)]
pub(super) struct T4OrclMetadata<'a> {
    orcl_version: &'static str,
    experiment: &'a ExperimentRow,
    region: &'a RegionRow,
    metadata: &'a BTreeMap<String, String>,
}

pub(super) fn t4_doc(l: &Loaded) -> T4Doc<'_> {
    // The experiment's objective (metadata `objective` of an energy tune), else time.
    let objective = match l.metadata.get("objective").map(String::as_str) {
        Some("energy") => "energy",
        Some("edp") => "edp",
        _ => "time",
    };
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
            // Energy per call and average power over the energy window (docs/ENERGY.md).
            if let Some(j) = e.energy_j {
                measurements.push(T4Measurement {
                    name: "energy",
                    value: j,
                    unit: "J",
                });
            }
            if let Some(w) = e.power_w {
                measurements.push(T4Measurement {
                    name: "power",
                    value: w,
                    unit: "W",
                });
            }
            T4Result {
                timestamp: e.created_at.as_deref(),
                configuration: OrderedConfig(cfg),
                objectives: [objective],
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

#[derive(Deserialize)]
pub(super) struct T4In {
    results: Vec<T4ResultIn>,
    #[serde(default)]
    metadata: Option<serde_json::Value>,
}

#[derive(Deserialize)]
pub(super) struct T4ResultIn {
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
pub(super) struct T4MeasurementIn {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    value: Option<serde_json::Value>,
    #[serde(default)]
    unit: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct T4OrclResultIn {
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    kernel_hash: Option<String>,
}

/// Milliseconds per `unit` (`ms` when none or empty); `None` for a non-time unit.
pub(super) fn ms_per(unit: Option<&str>) -> Option<f64> {
    match unit.unwrap_or("").to_ascii_lowercase().as_str() {
        "" | "ms" | "millisecond" | "milliseconds" => Some(1.0),
        "s" | "sec" | "second" | "seconds" => Some(1e3),
        "us" | "µs" | "microsecond" | "microseconds" => Some(1e-3),
        "ns" | "nanosecond" | "nanoseconds" => Some(1e-6),
        _ => None,
    }
}

pub(super) fn from_t4(text: &str) -> Result<Imported> {
    let doc: T4In = parse(text)?;
    let mut evaluations = Vec::with_capacity(doc.results.len());
    for (i, r) in doc.results.iter().enumerate() {
        evaluations.push(evaluation(i, r)?);
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

/// The measurement `name` (`energy`: J per call, `power`: W) in J or W: units `J`/`W` (or none),
/// `mJ`/`mW`, `kJ`/`kW`; another unit is not read.
fn energy_of(ms: &[T4MeasurementIn], name: &str) -> Option<f64> {
    ms.iter()
        .filter(|m| m.name.as_deref() == Some(name))
        .find_map(|m| {
            let v = m.value.as_ref()?.as_f64()?;
            let scale = match m.unit.as_deref().unwrap_or("") {
                "" | "J" | "W" => 1.0,
                "mJ" | "mW" => 1e-3,
                "kJ" | "kW" => 1e3,
                _ => return None,
            };
            Some(v * scale).filter(|x| x.is_finite())
        })
}

/// Result `i` as an evaluation: the objective measurement (in ms) is the median, else the median
/// of the runtimes; status from the `orcl` object when it names one, else from the invalidity.
fn evaluation(i: usize, r: &T4ResultIn) -> Result<EvaluationRow> {
    let values = r
        .configuration
        .0
        .iter()
        .map(|(k, v)| Ok((Arc::from(k.as_str()), value_from_json(v)?)))
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
    Ok(EvaluationRow {
        config_json: key.clone(),
        config_key: key,
        kernel_hash: orcl.and_then(|o| o.kernel_hash.clone()),
        status,
        build_ms: compile.filter(|x| x.is_finite()),
        samples_ms: runtimes.into_iter().filter(|x| x.is_finite()).collect(),
        median_ms,
        transfer_ms: measurement("transfer_time", true),
        max_error: measurement("max_error", false),
        energy_j: energy_of(&r.measurements, "energy"),
        power_w: energy_of(&r.measurements, "power"),
        message,
        created_at: r
            .timestamp
            .as_ref()
            .and_then(serde_json::Value::as_str)
            .and_then(normalize_timestamp),
        ..Default::default()
    })
}
