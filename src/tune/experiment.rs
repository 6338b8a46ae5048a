//! The experiment's identity in the database: the region row, the device row, the experiment
//! (opened or resumed by identity key) and the conversions between outcomes and stored rows.

use super::{sha, Confirmed, Evaluated, TuneError, TuneOptions};
use crate::db::{Db, DeviceRow, EvaluationRow, NewExperiment, RegionRow};
use crate::prepare::Prepared;
use orcl_codegen::Backend;
use orcl_frontend::expr::Value;
use orcl_frontend::space::Configuration;
use orcl_measure::device::DeviceInfo;
use orcl_measure::{Outcome, Status};
use std::collections::{BTreeMap, HashMap};

/// The spec text without its `def search { ... }` section and with whitespace normalised: what
/// identifies an experiment (changing the search or its budget resumes the same experiment).
fn measurement_text(spec_text: &str) -> String {
    let mut s = spec_text.to_string();
    if let Some(p) = s.find("def search") {
        if let Some(q) = s[p..].find('}') {
            s.replace_range(p..p + q + 1, "");
        }
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A region's row: its id and the hash of its loop and measurement settings.
pub(super) struct RegionKey {
    pub id: i64,
    pub loop_hash: String,
}

/// Records (or finds) the region of `p` in `path` (text `text`).
pub(super) fn upsert_region(
    db: &Db,
    p: &Prepared,
    path: &str,
    text: &str,
) -> Result<RegionKey, TuneError> {
    let raw = &p.region.raw;
    let (line, _) = orcl_frontend::diag::line_col(text, raw.span.start);
    let loop_hash = sha(&[
        &raw.loop_ann
            .code
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
        &measurement_text(&raw.spec_text),
    ]);
    let id = db.upsert_region(&RegionRow {
        file: path.to_string(),
        line: line as u32,
        function: raw
            .function
            .as_ref()
            .map(|f| f.name.clone())
            .unwrap_or_default(),
        loop_hash: loop_hash.clone(),
        transform_text: text
            .get(raw.loop_ann.begin_span.start..raw.loop_ann.begin_span.end)
            .unwrap_or("")
            .to_string(),
    })?;
    Ok(RegionKey { id, loop_hash })
}

/// Records (or finds) the device with its Table II properties; returns its row id.
pub(super) fn upsert_device(db: &Db, backend: Backend, dev: &DeviceInfo) -> Result<i64, TuneError> {
    Ok(db.upsert_device(&DeviceRow {
        backend: backend.as_str().into(),
        platform: dev.platform.clone(),
        name: dev.name.clone(),
        vendor: dev.vendor.clone(),
        driver_version: dev.driver_version.clone(),
        device_version: dev.device_version.clone(),
        compute_units: dev.compute_units,
        max_work_group_size: dev.max_work_group_size as u64,
        local_mem_bytes: dev.local_mem_bytes,
        global_mem_bytes: dev.global_mem_bytes,
        max_clock_mhz: dev.max_clock_mhz,
        fingerprint: dev.fingerprint(),
        properties_json: serde_json::to_string(dev).unwrap_or_default(),
    })?)
}

/// An opened experiment: its id, whether it was resumed, and its stored evaluations by
/// configuration key.
pub(super) struct Experiment {
    pub id: i64,
    pub resumed: bool,
    /// Its status was `done` before this run opened it (a rerun replays it, see `--more`).
    pub was_done: bool,
    pub stored: HashMap<String, EvaluationRow>,
}

/// What an experiment is: the region at one input size on one device kind and backend.
pub(super) struct Identity<'a> {
    pub region: &'a RegionKey,
    pub input: &'a BTreeMap<String, Value>,
    pub device: &'a DeviceInfo,
    pub device_id: i64,
    pub backend: Backend,
    /// The options after the device was resolved; `device_list` non-empty under `--devices`.
    pub opts: &'a TuneOptions,
    pub device_list: &'a [usize],
    /// The user's `--platform`/`--device` selection before it was resolved.
    pub selection: String,
}

/// Opens the experiment of `id` (resuming one with the same identity key) and records its
/// settings as metadata. The identity key hashes the region, loop, input size, device
/// fingerprint, backend and device selection: under `--devices` it names the user's selection, so
/// identical devices pool their results with a plain tune of the same device kind.
#[allow(clippy::too_many_arguments)]
pub(super) fn open(
    db: &Db,
    p: &Prepared,
    id: &Identity,
    algorithm: &str,
    seed: u64,
    host: &str,
    build_command: &str,
    metadata: &[(&str, String)],
) -> Result<Experiment, TuneError> {
    let spec = &p.region.spec;
    let input_json = serde_json::to_string(id.input).unwrap_or_default();
    let objective = energy_identity(p, id.opts);
    let region_id = id.region.id.to_string();
    let fingerprint = id.device.fingerprint();
    let selection = if id.device_list.is_empty() {
        format!("{:?}/{:?}", id.opts.platform, id.opts.device)
    } else {
        id.selection.clone()
    };
    let fault = std::env::var("ORCL_TEST_FAULT").unwrap_or_default();
    let mut parts = vec![
        region_id.as_str(),
        id.region.loop_hash.as_str(),
        input_json.as_str(),
        fingerprint.as_str(),
        id.backend.as_str(),
        selection.as_str(),
        fault.as_str(),
    ];
    // Only an energy objective adds a part: time experiments keep their keys.
    if !objective.is_empty() {
        parts.push(&objective);
    }
    let identity = sha(&parts);
    let options_json = serde_json::to_string(
        &spec
            .search
            .options
            .iter()
            .map(|(k, v)| (k.clone(), v.value.clone()))
            .collect::<BTreeMap<_, _>>(),
    )
    .unwrap_or_default();
    // A `done` experiment is replayed, not extended, unless `--more` asks (issue 25 G8).
    let was_done = match db.find_experiment_id(&identity)? {
        Some(old) => db.experiment(old)?.is_some_and(|e| e.status == "done"),
        None => false,
    };
    let (experiment_id, resumed) = db.open_experiment(&NewExperiment {
        identity_key: identity,
        region_id: id.region.id,
        device_id: id.device_id,
        backend: id.backend.as_str().into(),
        input_params_json: input_json,
        spec_hash: sha(&[&p.region.raw.spec_text]),
        algorithm: algorithm.to_string(),
        search_options_json: options_json,
        seed: Some(seed),
        orcl_version: env!("CARGO_PKG_VERSION").into(),
        host: host.to_string(),
        build_command: build_command.to_string(),
    })?;
    for (k, v) in metadata {
        db.set_metadata(experiment_id, k, v)?;
    }
    let stored = db
        .evaluations(experiment_id)?
        .into_iter()
        .map(|e| (e.config_key.clone(), e))
        .collect();
    Ok(Experiment {
        id: experiment_id,
        resumed,
        was_done,
        stored,
    })
}

/// The objective's part of the identity key: empty for a time objective (keys as before energy
/// existed), else its name and the test energy source, so that an energy tune never resumes a
/// time tune's rows (they have no energy).
fn energy_identity(p: &Prepared, opts: &TuneOptions) -> String {
    let o = super::energy::Objective::of(p, opts);
    if !o.needs_energy() {
        return String::new();
    }
    let test = std::env::var(super::energy::TEST_ENERGY_ENV).unwrap_or_default();
    format!("objective={}|{test}", o.name())
}

/// The winner recorded by a finished run of this experiment, with its re-measured median (ms).
pub(super) fn stored_winner(
    db: &Db,
    experiment_id: i64,
    evaluations: &[Evaluated],
) -> Result<Option<Confirmed>, TuneError> {
    let meta = db.metadata(experiment_id)?;
    let Some(key) = meta.get("winner") else {
        return Ok(None);
    };
    let Some(i) = evaluations
        .iter()
        .position(|e| &e.config.key() == key && e.outcome.status == Status::Ok)
    else {
        return Ok(None);
    };
    let finals: Vec<serde_json::Value> = meta
        .get("final_remeasurement")
        .and_then(|j| serde_json::from_str(j).ok())
        .unwrap_or_default();
    let ms = finals
        .iter()
        .find(|f| f["config"].as_str() == Some(key))
        .and_then(|f| f["median_ms"].as_f64())
        .or_else(|| evaluations[i].outcome.median_ms());
    let index = |k: &str| evaluations.iter().position(|e| e.config.key() == k);
    let finalists = finals
        .iter()
        .filter_map(|f| Some((index(f["config"].as_str()?)?, f["median_ms"].as_f64()?)))
        .collect();
    let repetitions = finals
        .iter()
        .find_map(|f| f["repetitions"].as_u64())
        .and_then(|r| u32::try_from(r).ok());
    Ok(ms.map(|m| Confirmed {
        winner: i,
        winner_ms: m,
        finalists,
        repetitions,
    }))
}

/// The outcome a stored evaluation row records.
pub(super) fn outcome_from_row(r: &EvaluationRow) -> Outcome {
    Outcome {
        status: Status::parse(&r.status).unwrap_or(Status::LaunchError),
        build_ms: r.build_ms,
        samples_ms: r.samples_ms.clone(),
        transfer_ms: r.transfer_ms,
        max_error: r.max_error,
        message: r.message.clone(),
        energy_j: r.energy_j,
        power_w: r.power_w,
    }
}

/// The evaluation row of configuration `cfg` with outcome `o`.
pub(super) fn row_from_outcome(
    cfg: &Configuration,
    o: &Outcome,
    kernel_hash: Option<String>,
) -> EvaluationRow {
    EvaluationRow {
        id: None,
        config_key: cfg.key(),
        config_json: cfg.key(),
        kernel_hash,
        status: o.status.as_str().to_string(),
        build_ms: o.build_ms,
        samples_ms: o.samples_ms.clone(),
        median_ms: o.median_ms(),
        transfer_ms: o.transfer_ms,
        max_error: o.max_error.filter(|e| e.is_finite()),
        message: o.message.clone(),
        created_at: None,
        energy_j: o.energy_j,
        power_w: o.power_w,
    }
}
