//! `orcl db import`: reading a file in one of the formats into one finished experiment; the
//! pieces every format's reader shares.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use super::json::from_json;
use super::kerneltuner::from_kerneltuner;
use super::t4::from_t4;
use super::ImportFormat;
use crate::db::{Db, DeviceRow, EvaluationRow, ExperimentRow, NewExperiment, RegionRow};
use orcl_frontend::expr::Value;
use orcl_frontend::space::Configuration;

/// A JSON object read as `(key, value)` pairs in document order (serde_json's own map sorts).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Ordered<T>(pub(super) Vec<(String, T)>);

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
            Value::list(a.iter().map(value_from_json).collect::<Result<_>>()?)
        }
        serde_json::Value::Null | serde_json::Value::Object(_) => {
            bail!("unsupported parameter value {v} (use numbers, strings, booleans or lists)")
        }
    })
}

/// Lowercase hex SHA-256.
pub(super) fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
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

pub(super) fn median(xs: &[f64]) -> Option<f64> {
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
pub(super) struct Imported {
    pub(super) device: DeviceRow,
    pub(super) region: RegionRow,
    pub(super) experiment: NewExperiment,
    pub(super) metadata: Vec<(String, String)>,
    pub(super) evaluations: Vec<EvaluationRow>,
}

/// A device row with only a name (the other limits unknown: 0 / empty).
pub(super) fn bare_device(backend: &str, name: &str) -> DeviceRow {
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

pub(super) fn new_experiment(
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
pub(super) fn space_text(configs: &[&Configuration]) -> String {
    let mut space: Vec<(String, Vec<Value>)> = Vec::new();
    for cfg in configs {
        for (name, v) in &cfg.values {
            match space.iter_mut().find(|(n, _)| **n == **name) {
                Some((_, vals)) => {
                    if !vals.contains(v) {
                        vals.push(v.clone());
                    }
                }
                None => space.push((name.to_string(), vec![v.clone()])),
            }
        }
    }
    serde_json::to_string(&Ordered(space)).unwrap_or_default()
}

/// The bytes of a gzip file ([`crate::db::GZIP_MAGIC`]) decompressed, as benchmark_hub ships
/// its Kernel Tuner caches (`A100.json.gz`); any other bytes unchanged.
fn gunzip(bytes: Vec<u8>) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    if !bytes.starts_with(&crate::db::GZIP_MAGIC) {
        return Ok(bytes);
    }
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes.as_slice()).read_to_end(&mut out)?;
    Ok(out)
}

/// `orcl db import FILE [--format kerneltuner|t4|json]`: adds the file's experiment to database
/// `db` (created if missing) and returns its id. See the module documentation for the mapping.
/// Errors: unreadable or unrecognised file, a file already imported ("already imported as
/// experiment N"), invalid values.
pub fn import(db: &Path, file: &Path, format: Option<&str>) -> Result<i64> {
    let forced = format.map(ImportFormat::parse).transpose()?;
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let bytes = gunzip(bytes).with_context(|| format!("cannot decompress {}", file.display()))?;
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
pub(super) fn dedup(evaluations: &mut Vec<EvaluationRow>) -> usize {
    let before = evaluations.len();
    let mut seen = std::collections::HashSet::new();
    evaluations.retain(|e| seen.insert(e.config_key.clone()));
    before - evaluations.len()
}

pub(super) fn parse<T: DeserializeOwned>(text: &str) -> Result<T> {
    Ok(serde_json::from_str(text)?)
}

/// The original experiment, region and metadata of an orcl export (`metadata.orcl`).
#[derive(Deserialize)]
pub(super) struct OrclOrigin {
    #[serde(default)]
    pub(super) orcl_version: Option<String>,
    pub(super) experiment: ExperimentRow,
    pub(super) region: RegionRow,
    #[serde(default)]
    pub(super) metadata: BTreeMap<String, String>,
}

/// The experiment, region, device and metadata of an orcl export, applied to `imp`.
pub(super) fn apply_origin(imp: &mut Imported, origin: OrclOrigin, device: Option<DeviceRow>) {
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
                .map(|k| (std::sync::Arc::from(*k), value_from_json(&j[*k]).unwrap()))
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
}
