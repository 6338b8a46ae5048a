//! Tuning database: round trips, resume (also after SIGKILL), duplicates, two writers, schema
//! versions and migration.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use orcl::db::{Db, DbError, DeviceRow, EvaluationRow, NewExperiment, RegionRow, SCHEMA_VERSION};

fn device(fingerprint: &str) -> DeviceRow {
    DeviceRow {
        backend: "opencl".into(),
        platform: "Portable Computing Language".into(),
        name: "cpu-haswell-Intel(R) Xeon(R)".into(),
        vendor: "GenuineIntel".into(),
        driver_version: "6.0".into(),
        device_version: "OpenCL 3.0 PoCL".into(),
        compute_units: 16,
        max_work_group_size: 4096,
        local_mem_bytes: 4 << 20,
        global_mem_bytes: 128 << 30,
        max_clock_mhz: 3500,
        fingerprint: fingerprint.into(),
        properties_json: r#"{"CL_DEVICE_TYPE":"CPU"}"#.into(),
    }
}

fn region() -> RegionRow {
    RegionRow {
        file: "examples/axpy.c".into(),
        line: 12,
        function: "axpy".into(),
        loop_hash: "ab12".into(),
        transform_text: "transform Unroll(ufactor=UF)".into(),
    }
}

fn experiment(db: &Db, key: &str) -> NewExperiment {
    let region_id = db.upsert_region(&region()).unwrap();
    let device_id = db.upsert_device(&device("fp-1")).unwrap();
    NewExperiment {
        identity_key: key.into(),
        region_id,
        device_id,
        backend: "opencl".into(),
        input_params_json: r#"{"N":1000000}"#.into(),
        spec_hash: "5pec".into(),
        algorithm: "random".into(),
        search_options_json: r#"{"total_runs":100}"#.into(),
        seed: Some(u64::MAX - 7),
        orcl_version: "0.1.0".into(),
        host: "testhost".into(),
        build_command: "cc -O2 -lOpenCL".into(),
    }
}

fn ok_eval(key: &str, median_ms: f64) -> EvaluationRow {
    EvaluationRow {
        config_key: key.into(),
        config_json: format!(r#"{{"UF":"{key}"}}"#),
        kernel_hash: Some(format!("h-{key}")),
        status: "ok".into(),
        build_ms: Some(12.5),
        samples_ms: vec![median_ms + 0.5, median_ms, median_ms - 0.25],
        median_ms: Some(median_ms),
        transfer_ms: Some(0.75),
        max_error: Some(1e-7),
        message: None,
        ..Default::default()
    }
}

fn failed_eval(key: &str, status: &str) -> EvaluationRow {
    EvaluationRow {
        config_key: key.into(),
        config_json: "{}".into(),
        status: status.into(),
        message: Some(format!("{status} happened")),
        ..Default::default()
    }
}

fn is_iso_utc(s: &str) -> bool {
    let b = s.as_bytes();
    s.len() == 24 && b[4] == b'-' && b[10] == b'T' && b[19] == b'.' && s.ends_with('Z')
}

/// Compares a stored evaluation with what was inserted, ignoring `id` and `created_at`.
fn same_eval(stored: &EvaluationRow, inserted: &EvaluationRow) -> bool {
    assert!(stored.id.is_some());
    assert!(is_iso_utc(stored.created_at.as_deref().unwrap()));
    EvaluationRow {
        id: None,
        created_at: None,
        ..stored.clone()
    } == *inserted
}

#[test]
fn round_trip_every_row_type() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tune.db");
    let db = Db::open(&path).unwrap();
    assert_eq!(db.schema_version().unwrap(), SCHEMA_VERSION);

    // device: insert, read, upsert by fingerprint refreshes properties
    let mut d = device("fp-1");
    let dev_id = db.upsert_device(&d).unwrap();
    assert_eq!(db.device(dev_id).unwrap().as_ref(), Some(&d));
    d.properties_json = r#"{"CL_DEVICE_TYPE":"CPU","extra":1}"#.into();
    d.driver_version = "6.1".into();
    assert_eq!(db.upsert_device(&d).unwrap(), dev_id);
    assert_eq!(db.device(dev_id).unwrap().as_ref(), Some(&d));
    let other = db.upsert_device(&device("fp-2")).unwrap();
    assert_ne!(other, dev_id);
    assert_eq!(db.device(9999).unwrap(), None);

    // region: upsert by (file, loop_hash)
    let mut r = region();
    let reg_id = db.upsert_region(&r).unwrap();
    assert_eq!(db.region(reg_id).unwrap().as_ref(), Some(&r));
    r.line = 14;
    assert_eq!(db.upsert_region(&r).unwrap(), reg_id);
    assert_eq!(db.region(reg_id).unwrap().as_ref(), Some(&r));
    let r2 = RegionRow {
        loop_hash: "cd34".into(),
        ..region()
    };
    assert_ne!(db.upsert_region(&r2).unwrap(), reg_id);

    // experiment
    let new = experiment(&db, "exp-1");
    let (exp_id, resumed) = db.open_experiment(&new).unwrap();
    assert!(!resumed);
    let row = db.experiment(exp_id).unwrap().unwrap();
    assert_eq!(row.id, exp_id);
    assert_eq!(row.identity_key, new.identity_key);
    assert_eq!(row.region_id, new.region_id);
    assert_eq!(row.device_id, new.device_id);
    assert_eq!(row.backend, new.backend);
    assert_eq!(row.input_params_json, new.input_params_json);
    assert_eq!(row.spec_hash, new.spec_hash);
    assert_eq!(row.algorithm, new.algorithm);
    assert_eq!(row.search_options_json, new.search_options_json);
    assert_eq!(row.seed, Some(u64::MAX - 7));
    assert_eq!(row.orcl_version, new.orcl_version);
    assert_eq!(row.host, new.host);
    assert_eq!(row.build_command, new.build_command);
    assert!(is_iso_utc(&row.started_at), "{}", row.started_at);
    assert_eq!(row.finished_at, None);
    assert_eq!(row.status, "running");
    let (exp2, _) = db
        .open_experiment(&NewExperiment {
            identity_key: "exp-2".into(),
            seed: None,
            ..new.clone()
        })
        .unwrap();
    assert_eq!(db.experiment(exp2).unwrap().unwrap().seed, None);
    assert_eq!(db.experiment(exp2 + 100).unwrap(), None);

    // metadata
    db.set_metadata(exp_id, "note", "first").unwrap();
    db.set_metadata(exp_id, "note", "second").unwrap();
    db.set_metadata(exp_id, "gpu_clock", "locked").unwrap();
    let meta = db.metadata(exp_id).unwrap();
    assert_eq!(meta.len(), 2);
    assert_eq!(meta["note"], "second");
    assert!(db.metadata(exp2).unwrap().is_empty());

    // evaluations: every field set, every optional field empty, insertion order
    let evals = vec![
        ok_eval("4", 2.0),
        failed_eval("3", "constraint"),
        ok_eval("1", 3.0),
        failed_eval("2", "compile_error"),
        ok_eval("8", 1.5),
        EvaluationRow {
            max_error: Some(f64::INFINITY),
            ..failed_eval("16", "wrong_result")
        },
    ];
    let mut ids = Vec::new();
    for e in &evals {
        ids.push(db.insert_evaluation(exp_id, e).unwrap());
    }
    let stored = db.evaluations(exp_id).unwrap();
    assert_eq!(stored.len(), evals.len());
    for ((s, e), id) in stored.iter().zip(&evals).zip(&ids) {
        assert!(same_eval(s, e), "{s:?} != {e:?}");
        assert_eq!(s.id, Some(*id));
    }
    assert!(db.evaluations(exp2).unwrap().is_empty());

    // best: ok only, ascending median
    let best: Vec<_> = db
        .best(exp_id, 2)
        .unwrap()
        .into_iter()
        .map(|e| e.config_key)
        .collect();
    assert_eq!(best, ["8", "4"]);
    assert_eq!(db.best(exp_id, 100).unwrap().len(), 3);
    assert_eq!(db.best(exp_id, usize::MAX).unwrap().len(), 3);

    // finish
    db.finish_experiment(exp_id, "done").unwrap();
    let row = db.experiment(exp_id).unwrap().unwrap();
    assert_eq!(row.status, "done");
    assert!(is_iso_utc(row.finished_at.as_deref().unwrap()));
    assert!(row.finished_at.unwrap() >= row.started_at);

    let all = db.list_experiments().unwrap();
    assert_eq!(all.iter().map(|e| e.id).collect::<Vec<_>>(), [exp_id, exp2]);
    assert_eq!(all[0].status, "done");
    assert_eq!(all[1].status, "running");

    // serde round trip of the row structs (what `--json` output and formats/ use)
    let json = serde_json::to_string(&stored[0]).unwrap();
    let back: EvaluationRow = serde_json::from_str(&json).unwrap();
    assert_eq!(back, stored[0]);
    let json = serde_json::to_string(&all[0]).unwrap();
    assert_eq!(
        serde_json::from_str::<orcl::db::ExperimentRow>(&json).unwrap(),
        all[0]
    );
    drop(db);

    // read-only view of the same file
    let ro = Db::open_read_only(&path).unwrap();
    assert_eq!(ro.evaluations(exp_id).unwrap(), stored);
    assert!(matches!(
        ro.upsert_device(&device("fp-3")),
        Err(DbError::Sqlite(_))
    ));
}

#[test]
fn resume_keeps_id_and_evaluations() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tune.db");
    let (id, started_at) = {
        let db = Db::open(&path).unwrap();
        let new = experiment(&db, "exp-resume");
        let (id, resumed) = db.open_experiment(&new).unwrap();
        assert!(!resumed);
        db.insert_evaluation(id, &ok_eval("1", 1.0)).unwrap();
        db.insert_evaluation(id, &failed_eval("2", "timeout"))
            .unwrap();
        db.finish_experiment(id, "interrupted").unwrap();
        (id, db.experiment(id).unwrap().unwrap().started_at)
    };
    let db = Db::open(&path).unwrap();
    let new = experiment(&db, "exp-resume");
    assert_eq!(db.open_experiment(&new).unwrap(), (id, true));
    let row = db.experiment(id).unwrap().unwrap();
    assert_eq!(row.status, "running");
    assert_eq!(row.finished_at, None);
    assert_eq!(row.started_at, started_at);
    let keys: Vec<_> = db
        .evaluations(id)
        .unwrap()
        .into_iter()
        .map(|e| e.config_key)
        .collect();
    assert_eq!(keys, ["1", "2"]);
    db.insert_evaluation(id, &ok_eval("3", 0.5)).unwrap();
    assert_eq!(db.evaluations(id).unwrap().len(), 3);
    assert_eq!(db.list_experiments().unwrap().len(), 1);
}

#[test]
fn duplicate_config_key_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("tune.db")).unwrap();
    let (a, _) = db.open_experiment(&experiment(&db, "a")).unwrap();
    let (b, _) = db.open_experiment(&experiment(&db, "b")).unwrap();
    db.insert_evaluation(a, &ok_eval("k", 1.0)).unwrap();
    let err = db
        .insert_evaluation(a, &failed_eval("k", "crash"))
        .unwrap_err();
    match &err {
        DbError::Duplicate {
            experiment_id,
            config_key,
        } => {
            assert_eq!((*experiment_id, config_key.as_str()), (a, "k"));
        }
        other => panic!("expected Duplicate, got {other:?}"),
    }
    assert!(
        err.to_string().contains("already has an evaluation"),
        "{err}"
    );
    // The same key in another experiment is fine, and the refused row left no trace.
    db.insert_evaluation(b, &ok_eval("k", 2.0)).unwrap();
    let stored = db.evaluations(a).unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].status, "ok");
}

#[test]
fn two_writers_lose_nothing() {
    const PER_WRITER: usize = 200;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tune.db");
    let (a, b) = {
        let db = Db::open(&path).unwrap();
        let a = db.open_experiment(&experiment(&db, "writer-a")).unwrap().0;
        let b = db.open_experiment(&experiment(&db, "writer-b")).unwrap().0;
        (a, b)
    };
    let writers: Vec<_> = [a, b]
        .into_iter()
        .map(|exp| {
            let path = path.clone();
            std::thread::spawn(move || {
                let db = Db::open(&path).unwrap();
                for i in 0..PER_WRITER {
                    db.insert_evaluation(exp, &ok_eval(&i.to_string(), i as f64))
                        .unwrap();
                    if i % 50 == 0 {
                        db.set_metadata(exp, "progress", &i.to_string()).unwrap();
                        // interleave reads with the other writer's writes
                        assert_eq!(db.evaluations(exp).unwrap().len(), i + 1);
                    }
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let db = Db::open(&path).unwrap();
    for exp in [a, b] {
        let evals = db.evaluations(exp).unwrap();
        assert_eq!(evals.len(), PER_WRITER);
        let keys: Vec<String> = evals.into_iter().map(|e| e.config_key).collect();
        let want: Vec<String> = (0..PER_WRITER).map(|i| i.to_string()).collect();
        assert_eq!(keys, want);
    }
}

#[test]
fn concurrent_first_opens_create_one_schema() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fresh.db");
    let threads: Vec<_> = (0..4)
        .map(|i| {
            let path = path.clone();
            std::thread::spawn(move || {
                let db = Db::open(&path).unwrap();
                db.upsert_device(&device(&format!("fp-{i}"))).unwrap()
            })
        })
        .collect();
    let mut ids: Vec<i64> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 4);
    assert_eq!(
        Db::open(&path).unwrap().schema_version().unwrap(),
        SCHEMA_VERSION
    );
}

fn write_meta(path: &Path, version: Option<&str>) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        .unwrap();
    if let Some(v) = version {
        conn.execute("INSERT INTO meta VALUES ('schema_version', ?1)", [v])
            .unwrap();
    }
}

#[test]
fn newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("future.db");
    write_meta(&path, Some("99"));
    let err = Db::open(&path).unwrap_err();
    assert!(
        matches!(
            err,
            DbError::NewerSchema {
                found: 99,
                supported: SCHEMA_VERSION
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        format!(
            "database schema version 99 is newer than this orcl supports ({SCHEMA_VERSION}); \
             upgrade orcl"
        )
    );
    let err = Db::open_read_only(&path).unwrap_err();
    assert!(
        matches!(err, DbError::NewerSchema { found: 99, .. }),
        "{err:?}"
    );
    // Refusing did not touch the file.
    let conn = rusqlite::Connection::open(&path).unwrap();
    let v: String = conn
        .query_row(
            "SELECT value FROM meta WHERE key = 'schema_version'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(v, "99");
}

#[test]
fn garbage_schema_version_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.db");
    write_meta(&path, Some("one"));
    assert!(matches!(Db::open(&path), Err(DbError::BadSchemaVersion(v)) if v == "one"));
}

#[test]
fn version_0_databases_are_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    let v0 = dir.path().join("v0.db");
    write_meta(&v0, Some("0"));
    let no_row = dir.path().join("no-row.db");
    write_meta(&no_row, None);
    for path in [&empty, &v0, &no_row] {
        // Read-only cannot migrate.
        let err = Db::open_read_only(path).unwrap_err();
        assert!(
            matches!(err, DbError::OlderSchema { found: 0, .. }),
            "{path:?}: {err:?}"
        );
        let db = Db::open(path).unwrap();
        assert_eq!(db.schema_version().unwrap(), SCHEMA_VERSION, "{path:?}");
        let (id, _) = db
            .open_experiment(&experiment(&db, "after-migration"))
            .unwrap();
        db.insert_evaluation(id, &ok_eval("1", 1.0)).unwrap();
        drop(db);
        // Opening again does not re-run migrations; read-only now works.
        let db = Db::open(path).unwrap();
        assert_eq!(db.evaluations(id).unwrap().len(), 1);
        assert_eq!(
            Db::open_read_only(path)
                .unwrap()
                .list_experiments()
                .unwrap()
                .len(),
            1
        );
    }
    // The file is in WAL mode.
    let conn = rusqlite::Connection::open(&v0).unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn not_a_database_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(
        &path,
        "this is not sqlite, just some text that is long enough".repeat(20),
    )
    .unwrap();
    assert!(matches!(Db::open(&path), Err(DbError::Sqlite(_))));
}

const CHILD_ENV: &str = "ORCL_TEST_DB_CHILD";

/// Child half of `sigkill_loses_nothing_committed`: inserts evaluations until killed, printing
/// each committed key. Does nothing when run on its own.
#[test]
#[ignore = "run by sigkill_loses_nothing_committed"]
fn child_writer() {
    let Ok(path) = std::env::var(CHILD_ENV) else {
        return;
    };
    let db = Db::open(Path::new(&path)).unwrap();
    let (id, _) = db.open_experiment(&experiment(&db, "killed")).unwrap();
    let mut i = db.evaluations(id).unwrap().len();
    loop {
        db.insert_evaluation(id, &ok_eval(&i.to_string(), 1.0))
            .unwrap();
        println!("committed {i}");
        i += 1;
    }
}

fn run_child_until(path: &Path, commits: usize) -> usize {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "child_writer",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut last = None;
    let mut seen = 0;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if let Some(k) = line.strip_prefix("committed ") {
            last = Some(k.parse::<usize>().unwrap());
            seen += 1;
            if seen == commits {
                break;
            }
        }
    }
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    last.expect("child committed nothing")
}

#[test]
fn sigkill_loses_nothing_committed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tune.db");
    let last = run_child_until(&path, 50);
    let db = Db::open(&path).unwrap();
    let exp = db.list_experiments().unwrap();
    assert_eq!(exp.len(), 1);
    assert_eq!(exp[0].status, "running"); // killed runs stay 'running'
    let n = db.evaluations(exp[0].id).unwrap().len();
    assert!(n > last, "{n} rows, but key {last} was reported committed");
    drop(db);
    // A second killed run resumes the same experiment and continues after the stored rows.
    let last2 = run_child_until(&path, 20);
    assert!(last2 >= n + 19);
    let db = Db::open(&path).unwrap();
    assert_eq!(db.list_experiments().unwrap().len(), 1);
    let evals = db.evaluations(exp[0].id).unwrap();
    assert!(evals.len() > last2);
    for (i, e) in evals.iter().enumerate() {
        assert_eq!(e.config_key, i.to_string());
    }
    let conn = rusqlite::Connection::open(&path).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
}
