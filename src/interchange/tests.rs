//! Tests across the formats: detection, status mappings, export then import round trips, the
//! CSV columns.

use std::fmt;
use std::path::Path;

use super::import::{bare_device, new_experiment};
use super::*;
use crate::db::{Db, EvaluationRow, RegionRow, EVALUATION_STATUSES};
use orcl_frontend::expr::Value;
use orcl_frontend::space::Configuration;

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
    let mut r = ::csv::Reader::from_path(&out).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    let mut want = vec!["WI", "CB", "CL", "F"];
    want.extend(CSV_COLUMNS);
    assert_eq!(header, want);
    let rows: Vec<::csv::StringRecord> = r.records().map(Result::unwrap).collect();
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
