//! Kernel Tuner cache files (import).

use anyhow::{anyhow, Context, Result};
use serde::Deserialize;

use super::import::{
    bare_device, dedup, median, new_experiment, normalize_timestamp, parse, space_text,
    value_from_json, Imported, Ordered,
};
use super::kerneltuner_failure_status;
use crate::db::{EvaluationRow, RegionRow};
use orcl_frontend::expr::Value;
use orcl_frontend::space::Configuration;
use std::sync::Arc;

#[derive(Deserialize)]
pub(super) struct KtCache {
    #[serde(default)]
    device_name: Option<String>,
    #[serde(default)]
    kernel_name: Option<String>,
    #[serde(default)]
    problem_size: Option<serde_json::Value>,
    tune_params_keys: Vec<String>,
    #[serde(default)]
    tune_params: Option<Ordered<serde_json::Value>>,
    /// A name (Kernel Tuner ≤ 1.0) or a list of names (1.x: `["time"]`); the first is the objective.
    #[serde(default)]
    objective: Option<OneOrMany<String>>,
    #[serde(default)]
    objective_higher_is_better: Option<OneOrMany<bool>>,
    #[serde(default)]
    schema_version: Option<serde_json::Value>,
    /// Not written by Kernel Tuner itself; honoured when present (`CUDA`, `OpenCL`, ...).
    #[serde(default)]
    lang: Option<String>,
    cache: Ordered<serde_json::Value>,
}

/// A field Kernel Tuner writes as one value (≤ 1.0) or as a list of them (1.x: one per objective).
#[derive(Deserialize, Clone)]
#[serde(untagged)]
pub(super) enum OneOrMany<T> {
    One(T),
    Many(Vec<T>),
}

impl<T: Clone> OneOrMany<T> {
    /// The first value (the primary objective's); `None` for an empty list.
    fn first(&self) -> Option<T> {
        match self {
            OneOrMany::One(v) => Some(v.clone()),
            OneOrMany::Many(vs) => vs.first().cloned(),
        }
    }
}

pub(super) fn backend_of(lang: Option<&str>) -> &'static str {
    match lang.map(str::to_ascii_lowercase).as_deref() {
        Some(l) if l.contains("cuda") || l.contains("cupy") || l == "nvcuda" => "cuda",
        _ => "opencl",
    }
}

pub(super) fn from_kerneltuner(text: &str) -> Result<Imported> {
    let kt: KtCache = parse(text)?;
    let objective = kt
        .objective
        .as_ref()
        .and_then(OneOrMany::first)
        .unwrap_or_else(|| "time".to_string());
    let mut evaluations = Vec::with_capacity(kt.cache.0.len());
    for (cache_key, entry) in &kt.cache.0 {
        evaluations.push(evaluation(&kt, &objective, cache_key, entry)?);
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
    let metadata = metadata(&kt, &objective, skipped);
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

/// The configuration of one cache entry, in `tune_params_keys` order: each value from the entry,
/// else from the cache key (values joined with ',').
fn configuration(
    kt: &KtCache,
    cache_key: &str,
    entry: &serde_json::Value,
) -> Result<Configuration> {
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
                    Ok(j) => value_from_json(&j).unwrap_or_else(|_| Value::Str(part.to_string())),
                    Err(_) => Value::Str(part.to_string()),
                }
            }
        };
        values.push((Arc::from(name.as_str()), v));
    }
    Ok(Configuration { values })
}

/// One cache entry as an evaluation: the objective's value decides success (a string is Kernel
/// Tuner's failure class); `times` are the samples and their median the median time (Kernel
/// Tuner's `time` is their mean, used only when an entry has no `times`).
fn evaluation(
    kt: &KtCache,
    objective: &str,
    cache_key: &str,
    entry: &serde_json::Value,
) -> Result<EvaluationRow> {
    let key = configuration(kt, cache_key, entry)?.key();
    let number = |k: &str| entry.get(k).and_then(serde_json::Value::as_f64);
    // The objective's value decides success; `time` is the median kernel time.
    let verdict = entry
        .get(objective)
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
            let times: Vec<f64> = entry
                .get("times")
                .and_then(serde_json::Value::as_array)
                .map(|a| a.iter().filter_map(serde_json::Value::as_f64).collect())
                .unwrap_or_default();
            e.samples_ms = if !times.is_empty() {
                times
            } else {
                number("time").into_iter().collect()
            };
            e.samples_ms.retain(|x| x.is_finite());
            e.median_ms = median(&e.samples_ms).or(number("time"));
        }
    }
    Ok(e)
}

/// The cache's own metadata pairs: objective, problem size, objective direction, schema version,
/// and how many duplicate results were skipped.
fn metadata(kt: &KtCache, objective: &str, skipped: usize) -> Vec<(String, String)> {
    let mut metadata = vec![("objective".to_string(), objective.to_string())];
    if let Some(ps) = &kt.problem_size {
        metadata.push(("problem_size".into(), ps.to_string()));
    }
    if let Some(h) = kt
        .objective_higher_is_better
        .as_ref()
        .and_then(OneOrMany::first)
    {
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
    metadata
}

#[cfg(test)]
mod tests {
    use super::super::import;
    use crate::db::Db;

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

    /// A cache cut short after its second entry (the run was killed): `cache` and the document
    /// are never closed.
    const KT_CUT: &str = r#"{"device_name": "D", "kernel_name": "k", "tune_params_keys": ["bx"],
            "tune_params": {"bx": [1, 2]}, "cache": {
            "1": {"bx": 1, "time": 3.0},
            "2": {"bx": 2, "time": 4.0},
"#;

    #[test]
    fn unterminated_kerneltuner_cache_is_closed() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cut.json");
        std::fs::write(&file, KT_CUT).unwrap();
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
}
