//! `orcl db export` / `orcl db import` end to end: the built binary on a real experiment (one
//! `orcl tune` of `tests/inputs/ok/axpy.c` on the local OpenCL device, PoCL in CI, shared by
//! every test through a `OnceLock` fixture) and on the Kernel Tuner cache example of
//! `tests/fixtures/formats/`. T4 exports are validated against
//! `tests/fixtures/formats/t4-*-schema.json` ([`schema_errors`]). The fixtures ship with
//! the repository (their sources: tests/fixtures/formats/README.md), so a fresh clone runs these
//! tests with nothing beside it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use orcl::db::{Db, EvaluationRow, EVALUATION_STATUSES};
use orcl::frontend::expr::Value;
use orcl::space::Configuration;
use tempfile::TempDir;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// `tests/fixtures/formats/NAME`, shipped with the repository.
fn fixture_format(name: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/formats")
        .join(name);
    assert!(
        p.is_file(),
        "{} is missing from the repository",
        p.display()
    );
    p
}

/// The errors of `doc` against a JSON Schema (draft 2020-12) that uses only the keywords the T4
/// schemas use — `type`, `properties`, `required`, `items`, `enum`, `pattern` — and annotations
/// (`$schema`, `$id`, `title`, `description`, `example`). Any other keyword is reported as an
/// error, so a schema that grows a keyword fails here rather than passing unchecked. (The
/// `jsonschema` crate did this before; it pulled ICU, idna, url and fancy-regex into the test
/// build and changed the features of shared dependencies, so `make test` recompiled what
/// `make tune` had built: issue 26.)
fn schema_errors(schema: &serde_json::Value, doc: &serde_json::Value) -> Vec<String> {
    let mut errors = Vec::new();
    check_schema(schema, doc, "", &mut errors);
    errors
}

fn check_schema(
    schema: &serde_json::Value,
    doc: &serde_json::Value,
    at: &str,
    errors: &mut Vec<String>,
) {
    use serde_json::Value as J;
    let Some(keywords) = schema.as_object() else {
        errors.push(format!("{at}: the schema is not an object"));
        return;
    };
    for (k, v) in keywords {
        match k.as_str() {
            "$schema" | "$id" | "title" | "description" | "example" => {}
            "type" => {
                // One type name, or a list of them (any may match).
                let names: Vec<&str> = match v {
                    J::Array(a) => a.iter().filter_map(J::as_str).collect(),
                    _ => v.as_str().into_iter().collect(),
                };
                let is = |t: &str| match t {
                    "object" => Some(doc.is_object()),
                    "array" => Some(doc.is_array()),
                    "string" => Some(doc.is_string()),
                    "number" => Some(doc.is_number()),
                    "integer" => Some(doc.as_f64().is_some_and(|x| x.fract() == 0.0)),
                    "boolean" => Some(doc.is_boolean()),
                    "null" => Some(doc.is_null()),
                    _ => None,
                };
                if let Some(t) = names
                    .iter()
                    .find(|t| is(t).is_none())
                    .or(names.is_empty().then_some(&""))
                {
                    errors.push(format!("{at}: unsupported type {t:?}"));
                } else if !names.iter().any(|t| is(t) == Some(true)) {
                    errors.push(format!("{at}: {doc} is not of type {v}"));
                }
            }
            "properties" => {
                for (name, sub) in v.as_object().into_iter().flatten() {
                    if let Some(x) = doc.get(name) {
                        check_schema(sub, x, &format!("{at}/{name}"), errors);
                    }
                }
            }
            "required" => {
                for name in v.as_array().into_iter().flatten().filter_map(J::as_str) {
                    if doc.is_object() && doc.get(name).is_none() {
                        errors.push(format!("{at}: `{name}` is required"));
                    }
                }
            }
            "items" => {
                for (n, x) in doc.as_array().into_iter().flatten().enumerate() {
                    check_schema(v, x, &format!("{at}/{n}"), errors);
                }
            }
            "enum" => {
                if !v.as_array().is_some_and(|a| a.contains(doc)) {
                    errors.push(format!("{at}: {doc} is not one of {v}"));
                }
            }
            "pattern" => {
                let re = regex::Regex::new(v.as_str().unwrap_or("")).expect("schema pattern");
                if doc.as_str().is_some_and(|t| !re.is_match(t)) {
                    errors.push(format!("{at}: {doc} does not match {v}"));
                }
            }
            other => errors.push(format!("{at}: unsupported schema keyword `{other}`")),
        }
    }
}

/// The check of [`schema_errors`] can fail: a wrong type, a value outside an `enum`, a string
/// not matching a `pattern`, a missing required property and an unknown keyword are each
/// reported; a conforming document is not.
#[test]
fn schema_check_reports_what_breaks_the_schema() {
    let schema: serde_json::Value = serde_json::json!({
        "type": "object",
        "required": ["v"],
        "properties": {
            "v": {"type": "string", "pattern": "^[0-9]+$"},
            "r": {"type": "array", "items": {"enum": ["a", "b"]}},
            "n": {"type": "number"},
            "m": {"type": ["number", "string"]}
        }
    });
    let ok = serde_json::json!({"v": "12", "r": ["a", "b"], "n": 1.5, "m": "x"});
    assert!(schema_errors(&schema, &ok).is_empty());
    for bad in [
        serde_json::json!({"r": []}),
        serde_json::json!({"v": "x1"}),
        serde_json::json!({"v": "1", "r": ["c"]}),
        serde_json::json!({"v": "1", "n": "1"}),
        serde_json::json!({"v": "1", "m": [1]}),
        serde_json::json!([]),
    ] {
        assert_eq!(schema_errors(&schema, &bad).len(), 1, "{bad}");
    }
    let unknown = serde_json::json!({"minimum": 3});
    assert_eq!(schema_errors(&unknown, &ok).len(), 1);
}

fn read_json(path: &Path) -> serde_json::Value {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// Runs `orcl ARGS` in `dir`.
fn orcl(dir: &Path, args: &[&str]) -> Output {
    Command::new(ORCL)
        .args(args)
        .current_dir(dir)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT")
        .output()
        .expect("run orcl")
}

/// Runs `orcl ARGS` in `dir` and returns its standard output; panics with both streams unless
/// it exits 0.
fn orcl_ok(dir: &Path, args: &[&str]) -> String {
    let out = orcl(dir, args);
    assert!(
        out.status.success(),
        "orcl {args:?} failed ({}):\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// `orcl db --db DB import FILE [EXTRA...]`; returns the new experiment id.
fn import(dir: &Path, db: &Path, file: &Path, extra: &[&str]) -> i64 {
    let mut args = vec![
        "db",
        "--db",
        db.to_str().unwrap(),
        "import",
        file.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let stdout = orcl_ok(dir, &args);
    stdout
        .trim()
        .strip_prefix("imported as experiment ")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("unexpected import output {stdout:?}"))
}

/// `orcl db --db DB export ID --format FORMAT` to standard output.
fn export(dir: &Path, db: &Path, id: i64, format: &str) -> String {
    orcl_ok(
        dir,
        &[
            "db",
            "--db",
            db.to_str().unwrap(),
            "export",
            &id.to_string(),
            "--format",
            format,
        ],
    )
}

/// The tuned axpy database, built once.
struct Fixture {
    dir: PathBuf,
    db: PathBuf,
    /// The first experiment (input size N=1000).
    experiment: i64,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        // Kept for the whole test run (a static is never dropped), under target/tmp; those of
        // earlier runs (more than an hour old) are removed here.
        remove_stale_fixtures();
        let dir = tempfile::Builder::new()
            .prefix("interchange-fixture-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .expect("temp dir")
            .keep();
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/ok/axpy.c");
        std::fs::copy(&src, dir.join("axpy.c")).expect("copy axpy.c");
        orcl_ok(&dir, &["tune", "axpy.c", "--db", "x.db"]);
        let db = dir.join("x.db");
        let conn = Db::open_read_only(&db).expect("open fixture db");
        let experiment = conn.list_experiments().unwrap()[0].id;
        assert!(!conn.evaluations(experiment).unwrap().is_empty());
        Fixture {
            dir,
            db,
            experiment,
        }
    })
}

/// Removes `interchange-fixture-*` directories of earlier runs (modified over an hour ago, so
/// never one a concurrent run is using).
fn remove_stale_fixtures() {
    let Ok(entries) = std::fs::read_dir(env!("CARGO_TARGET_TMPDIR")) else {
        return;
    };
    for entry in entries.flatten() {
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age.as_secs() > 3600);
        if stale
            && entry
                .file_name()
                .to_string_lossy()
                .starts_with("interchange-fixture-")
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A private copy of the fixture database in a fresh temp dir (for tests that write to it).
fn fixture_copy() -> (TempDir, PathBuf) {
    let f = fixture();
    let tmp = tempfile::Builder::new()
        .prefix("orcl-interchange-")
        .tempdir()
        .unwrap();
    for suffix in ["", "-wal", "-shm"] {
        let from = PathBuf::from(format!("{}{suffix}", f.db.display()));
        if from.exists() {
            std::fs::copy(&from, tmp.path().join(format!("x.db{suffix}"))).unwrap();
        }
    }
    let db = tmp.path().join("x.db");
    (tmp, db)
}

fn evaluations(db: &Path, id: i64) -> Vec<EvaluationRow> {
    Db::open_read_only(db).unwrap().evaluations(id).unwrap()
}

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => x == y || (x - y).abs() <= 1e-9 * x.abs().max(y.abs()),
        _ => false,
    }
}

/// Same configuration keys, statuses (in order) and medians within 1e-9 relative.
fn assert_same_evaluations(a: &[EvaluationRow], b: &[EvaluationRow]) {
    assert_eq!(a.len(), b.len(), "number of evaluations");
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x.config_key, y.config_key);
        assert_eq!(x.status, y.status, "{}", x.config_key);
        assert!(
            close(x.median_ms, y.median_ms),
            "{}: median {:?} vs {:?}",
            x.config_key,
            x.median_ms,
            y.median_ms
        );
        assert_eq!(x.samples_ms.len(), y.samples_ms.len(), "{}", x.config_key);
        for (s, t) in x.samples_ms.iter().zip(&y.samples_ms) {
            assert!(close(Some(*s), Some(*t)), "{}: sample", x.config_key);
        }
        assert!(close(x.build_ms, y.build_ms), "{}: build", x.config_key);
        assert!(close(x.transfer_ms, y.transfer_ms));
        assert!(close(x.max_error, y.max_error));
        assert_eq!(x.message, y.message, "{}", x.config_key);
    }
}

#[test]
fn csv_export_has_a_header_and_one_row_per_evaluation() {
    let f = fixture();
    let evs = evaluations(&f.db, f.experiment);
    let text = export(&f.dir, &f.db, f.experiment, "csv");
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(
        header,
        [
            "WI",
            "CB",
            "UI",
            "status",
            "median_ms",
            "samples_ms",
            "transfer_ms",
            "build_ms",
            "max_error",
            "message",
            "energy_j",
            "power_w"
        ]
    );
    let rows: Vec<csv::StringRecord> = r.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), evs.len());
    for (row, e) in rows.iter().zip(&evs) {
        let cfg = Configuration::from_key(&e.config_key).unwrap();
        assert_eq!(&row[0], cfg.get("WI").unwrap().to_string());
        assert_eq!(
            &row[1],
            if cfg.get("CB") == Some(&Value::Bool(true)) {
                "true"
            } else {
                "false"
            }
        );
        assert_eq!(&row[3], e.status);
        let median: f64 = row[4].parse().unwrap();
        assert_eq!(Some(median), e.median_ms);
        let samples: Vec<f64> = row[5].split(';').map(|s| s.parse().unwrap()).collect();
        assert_eq!(samples, e.samples_ms);
    }
}

#[test]
fn json_export_parses_and_has_every_evaluation() {
    let f = fixture();
    let evs = evaluations(&f.db, f.experiment);
    let doc: serde_json::Value =
        serde_json::from_str(&export(&f.dir, &f.db, f.experiment, "json")).unwrap();
    assert_eq!(doc["experiment"]["id"], f.experiment);
    assert_eq!(doc["region"]["function"], "VecAXPY");
    assert!(doc["device"]["name"].is_string());
    assert!(doc["metadata"].is_object());
    let got = doc["evaluations"].as_array().unwrap();
    assert_eq!(got.len(), evs.len());
    for (g, e) in got.iter().zip(&evs) {
        assert_eq!(g["config_key"], e.config_key.as_str());
        let want: serde_json::Value = serde_json::from_str(&e.config_key).unwrap();
        assert_eq!(g["configuration"], want, "configuration is an object");
        assert_eq!(g["status"], e.status.as_str());
        // serde_json's parser (without `float_roundtrip`) may be 1 ulp off on 17-digit numbers.
        assert!(close(g["median_ms"].as_f64(), e.median_ms), "{g}");
    }
    // An unknown id is an error.
    let out = orcl(
        &f.dir,
        &[
            "db",
            "--db",
            f.db.to_str().unwrap(),
            "export",
            "987654",
            "--format",
            "json",
        ],
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no experiment with id 987654"), "{stderr}");
}

#[test]
fn t4_export_validates_against_the_t4_schemas() {
    let f = fixture();
    let evs = evaluations(&f.db, f.experiment);
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("axpy-t4.json");
    orcl_ok(
        &f.dir,
        &[
            "db",
            "--db",
            f.db.to_str().unwrap(),
            "export",
            &f.experiment.to_string(),
            "--format",
            "t4",
            "-o",
            file.to_str().unwrap(),
        ],
    );
    let doc = read_json(&file);
    for schema in ["t4-results-schema.json", "t4-metadata-schema.json"] {
        let errors = schema_errors(&read_json(&fixture_format(schema)), &doc);
        assert!(errors.is_empty(), "not valid against {schema}: {errors:#?}");
    }
    let results = doc["results"].as_array().unwrap();
    assert_eq!(results.len(), evs.len());
    for (r, e) in results.iter().zip(&evs) {
        let want: serde_json::Value = serde_json::from_str(&e.config_key).unwrap();
        assert_eq!(r["configuration"], want);
        assert_eq!(r["invalidity"], "correct");
        // Milliseconds, as stored.
        let runtimes: Vec<f64> = r["times"]["runtimes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert_eq!(runtimes.len(), e.samples_ms.len());
        for (x, y) in runtimes.iter().zip(&e.samples_ms) {
            assert!(close(Some(*x), Some(*y)), "{x} vs {y}");
        }
        let time = r["measurements"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == "time")
            .unwrap();
        assert_eq!(time["unit"], "ms");
        assert!(close(time["value"].as_f64(), e.median_ms), "{time}");
    }
}

/// Adds one evaluation of every failure class to experiment `id`, so round trips see them all.
fn add_failures(db: &Path, id: i64) {
    let db = Db::open(db).unwrap();
    for (i, status) in EVALUATION_STATUSES.iter().enumerate().skip(1) {
        let cfg = Configuration {
            values: vec![
                ("WI".into(), Value::Int(1000 + i as i64)),
                ("CB".into(), Value::Bool(i % 2 == 0)),
                ("UI".into(), Value::Int(1)),
            ],
        };
        let timed = *status == "wrong_result";
        db.insert_evaluation(
            id,
            &EvaluationRow {
                config_key: cfg.key(),
                config_json: cfg.key(),
                status: status.to_string(),
                samples_ms: if timed { vec![0.25, 0.5] } else { vec![] },
                median_ms: timed.then_some(0.375),
                max_error: timed.then_some(0.125),
                message: Some(format!("{status}: log, with \"quotes\"\nand lines")),
                ..Default::default()
            },
        )
        .unwrap();
    }
}

#[test]
fn t4_round_trip_gives_the_same_evaluations() {
    let (tmp, db) = fixture_copy();
    let id = fixture().experiment;
    add_failures(&db, id);
    let file = tmp.path().join("export-t4.json");
    std::fs::write(&file, export(tmp.path(), &db, id, "t4")).unwrap();
    let new = import(tmp.path(), &db, &file, &[]);
    assert_ne!(new, id);
    assert_same_evaluations(&evaluations(&db, id), &evaluations(&db, new));
    let conn = Db::open_read_only(&db).unwrap();
    assert_eq!(conn.metadata(new).unwrap()["imported_from"], "t4");

    // Importing the same file again is refused, naming the first import.
    let out = orcl(
        tmp.path(),
        &[
            "db",
            "--db",
            db.to_str().unwrap(),
            "import",
            file.to_str().unwrap(),
        ],
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("already imported as experiment {new}")),
        "{stderr}"
    );
}

#[test]
fn json_round_trip_gives_the_same_evaluations() {
    let (tmp, db) = fixture_copy();
    let id = fixture().experiment;
    add_failures(&db, id);
    let file = tmp.path().join("export.json");
    std::fs::write(&file, export(tmp.path(), &db, id, "json")).unwrap();
    let new = import(tmp.path(), &db, &file, &["--format", "json"]);
    assert_same_evaluations(&evaluations(&db, id), &evaluations(&db, new));
}

/// The example cache, with failures in place of the times of some entries.
fn kerneltuner_cache_with_failures(dir: &Path) -> (PathBuf, serde_json::Value) {
    let mut doc = read_json(&fixture_format("kernel-tuner-cache-example.json"));
    let failures = [
        ("128", "InvalidConfig"),
        ("192", "CompilationFailedConfig"),
        ("256", "RuntimeFailedConfig"),
        ("320", "SomeNewFailureConfig"),
    ];
    for (key, what) in failures {
        let entry = doc["cache"][key].as_object_mut().expect("cache entry");
        entry.insert("time".into(), what.into());
        entry.remove("times");
    }
    let file = dir.join("vector_add_failures.json");
    std::fs::write(&file, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    (file, doc)
}

fn median_of(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// A cache written by Kernel Tuner 1.5.0 itself (`objective` is a list there), made by
/// `tests/fixtures/formats/make-kerneltuner-1.5.0-cache.py`; and a gzip'd excerpt of a
/// benchmark_hub cache (Kernel Tuner 0.4/1.0 format, `.json.gz` as published).
#[test]
fn kerneltuner_caches_of_1_5_and_of_benchmark_hub_import() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("kt.db");
    let kt15 = fixture_format("kerneltuner-1.5.0-cache.json");
    let doc = read_json(&kt15);
    assert!(doc["objective"].is_array(), "the fixture is the 1.5 form");
    let id = import(tmp.path(), &db, &kt15, &[]);
    let evs = evaluations(&db, id);
    let cache = doc["cache"].as_object().unwrap();
    assert_eq!(evs.len(), cache.len());
    for e in &evs {
        assert_eq!(e.status, "ok", "{}", e.config_key);
        let cfg = Configuration::from_key(&e.config_key).unwrap();
        let key = format!(
            "{},{}",
            cfg.get("block_size_x").unwrap(),
            cfg.get("unroll").unwrap()
        );
        let times: Vec<f64> = cache[&key]["times"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_f64().unwrap())
            .collect();
        assert_eq!(e.median_ms, Some(median_of(&times)), "{key}");
        assert_ne!(e.median_ms, cache[&key]["time"].as_f64(), "{key}: the mean");
    }
    let conn = Db::open_read_only(&db).unwrap();
    assert_eq!(conn.metadata(id).unwrap()["objective"], "time");
    drop(conn);

    let hub = fixture_format("benchmark-hub-convolution-A100-excerpt.json.gz");
    let id = import(tmp.path(), &db, &hub, &[]);
    let evs = evaluations(&db, id);
    assert_eq!(evs.len(), 40);
    assert!(evs
        .iter()
        .all(|e| e.status == "ok" && e.samples_ms.len() == 32));
    let conn = Db::open_read_only(&db).unwrap();
    let ex = conn.experiment(id).unwrap().unwrap();
    let device = conn.device(ex.device_id).unwrap().unwrap();
    assert_eq!(device.name, "NVIDIA A100-PCIE-40GB");
}

#[test]
fn kerneltuner_cache_import_maps_entries_and_failures() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("kt.db");

    // The example as it is: every entry timed.
    let example = tmp.path().join("vector_add.json");
    std::fs::copy(fixture_format("kernel-tuner-cache-example.json"), &example).unwrap();
    let doc = read_json(&example);
    let cache = doc["cache"].as_object().unwrap();
    let id = import(tmp.path(), &db, &example, &[]);
    let evs = evaluations(&db, id);
    assert_eq!(evs.len(), cache.len(), "one evaluation per cache entry");
    for e in &evs {
        let cfg = Configuration::from_key(&e.config_key).unwrap();
        let Some(Value::Int(bx)) = cfg.get("block_size_x") else {
            panic!("{}: block_size_x is not an int", e.config_key)
        };
        let entry = &cache[&bx.to_string()];
        assert_eq!(e.status, "ok");
        let times: Vec<f64> = entry["times"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_f64().unwrap())
            .collect();
        assert_eq!(e.samples_ms, times);
        // The median of the samples, not Kernel Tuner's `time` (their mean).
        assert_eq!(e.median_ms, Some(median_of(&times)));
    }
    let conn = Db::open_read_only(&db).unwrap();
    let ex = conn.experiment(id).unwrap().unwrap();
    assert_eq!(ex.algorithm, "Exhaustive");
    assert_eq!(conn.metadata(id).unwrap()["imported_from"], "kerneltuner");
    let device = conn.device(ex.device_id).unwrap().unwrap();
    assert_eq!(device.name, "NVIDIA RTX A4000");
    assert_eq!(device.backend, "opencl");
    let region = conn.region(ex.region_id).unwrap().unwrap();
    assert_eq!(region.function, "vector_add");
    assert_eq!(region.file, "vector_add.json");
    drop(conn);

    // With failures, and the format named explicitly.
    let (file, doc) = kerneltuner_cache_with_failures(tmp.path());
    let id2 = import(tmp.path(), &db, &file, &["--format", "kerneltuner"]);
    assert_eq!(
        evaluations(&db, id2).len(),
        doc["cache"].as_object().unwrap().len()
    );
    let shown: serde_json::Value =
        serde_json::from_str(&export(tmp.path(), &db, id2, "json")).unwrap();
    let by_key = |key: &str| {
        shown["evaluations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["config_key"] == key)
            .unwrap_or_else(|| panic!("no evaluation {key}"))
            .clone()
    };
    for (bx, status, message) in [
        (128, "constraint", "InvalidConfig"),
        (192, "compile_error", "CompilationFailedConfig"),
        (256, "launch_error", "RuntimeFailedConfig"),
        (320, "launch_error", "SomeNewFailureConfig"),
    ] {
        let e = by_key(&format!("{{\"block_size_x\":{bx}}}"));
        assert_eq!(e["status"], status, "{bx}");
        assert_eq!(e["message"], message, "{bx}");
        assert!(e["median_ms"].is_null(), "{bx}");
    }
    let ok = by_key("{\"block_size_x\":448}");
    assert_eq!(ok["status"], "ok");
    let times: Vec<f64> = doc["cache"]["448"]["times"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_f64().unwrap())
        .collect();
    assert!(close(ok["median_ms"].as_f64(), Some(median_of(&times))));
}

#[test]
fn kerneltuner_cache_import_then_replay() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("kt.db");
    let example = tmp.path().join("vector_add.json");
    std::fs::copy(fixture_format("kernel-tuner-cache-example.json"), &example).unwrap();
    let id = import(tmp.path(), &db, &example, &[]);
    let stdout = orcl_ok(
        tmp.path(),
        &[
            "replay",
            "--db",
            db.to_str().unwrap(),
            "--experiment",
            &id.to_string(),
            "--algorithm",
            "Random",
            "--budget",
            "50%",
            "--seeds",
            "3",
            "--json",
        ],
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("replay --json printed no JSON ({e}):\n{stdout}"));
    assert!(
        stdout.contains("fraction_of_optimum"),
        "no fraction_of_optimum in {doc:#}"
    );

    // The same database gzip'd (as shared or archived) is read as it is, by replay and db.
    let gz = tmp.path().join("kt.db.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut enc, &std::fs::read(&db).unwrap()).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let gz = gz.to_str().unwrap();
    let id = id.to_string();
    let args = [
        "replay",
        "--db",
        gz,
        "--experiment",
        &id,
        "--algorithm",
        "Random",
    ];
    let from_gz = orcl_ok(
        tmp.path(),
        &[&args[..], &["--budget", "50%", "--seeds", "3", "--json"]].concat(),
    );
    assert_eq!(from_gz, stdout, "the gzip'd database replays the same");
    let list = orcl_ok(tmp.path(), &["db", "--db", gz, "list"]);
    assert!(list.contains("vector_add"), "{list}");
    // A file that only looks gzip'd: a located reason, exit 2, not "file is not a database" twice.
    std::fs::write(tmp.path().join("bad.db.gz"), [0x1f, 0x8b, 0, 1, 2]).unwrap();
    let out = orcl(tmp.path(), &["db", "--db", "bad.db.gz", "list"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot decompress the gzip'd database"),
        "{err}"
    );
    assert_eq!(err.matches("not a database").count(), 0, "{err}");
}
