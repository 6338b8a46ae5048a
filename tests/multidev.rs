//! `orcl tune --devices` (issue 14, "every GPU of a node") on two identical PoCL CPU devices
//! (`POCL_DEVICES="pthread pthread"`; PoCL takes a space-separated list, a comma-separated one
//! finds no device): one measuring worker per device fed from one queue, results pooled into
//! one experiment with the measuring device recorded per evaluation, kill -9 and resume, and
//! devices that differ refused.

mod common;

use common::{driver_source, run, run_driver, Run};
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// 24 configurations (tests/inputs/ok/axpy_resume.c), all correct.
const CONFIGS: i64 = 24;

fn input(dir: &Path, name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/inputs/ok")
        .join(name);
    let dst = dir.join(name);
    std::fs::copy(&src, &dst).unwrap_or_else(|e| panic!("copy {}: {e}", src.display()));
    dst
}

/// `orcl tune FILE --db DB -o OUT ARGS...` on the PoCL devices `pocl` (`POCL_DEVICES`).
fn tune_cmd(file: &Path, db: &Path, pocl: &str, args: &[&str]) -> Command {
    let mut c = Command::new(ORCL);
    c.arg("tune")
        .arg(file)
        .arg("--db")
        .arg(db)
        .arg("-o")
        .arg(db.with_extension("c"))
        .args(args)
        .env("POCL_DEVICES", pocl)
        .env("ORCL_CACHE_DIR", db.parent().unwrap().join("cache"))
        .env_remove("ORCL_TEST_FAULT");
    c
}

fn tune(file: &Path, db: &Path, pocl: &str, args: &[&str]) -> Run {
    run(tune_cmd(file, db, pocl, args), Duration::from_secs(180))
}

/// (config_key, status, device_index) of every evaluation, in insertion order.
fn rows(db: &Path) -> Vec<(String, String, Option<i64>)> {
    let conn = Connection::open(db).unwrap();
    let mut st = conn
        .prepare("SELECT config_key, status, device_index FROM evaluation ORDER BY id")
        .unwrap();
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// `N measured, M from the database` of the result line.
fn measured_reused(r: &Run) -> (i64, i64) {
    let line = r
        .stdout
        .lines()
        .find(|l| l.contains(" measured, "))
        .unwrap_or_else(|| panic!("no result line\n{}", r.dump()));
    let num = |before: &str| -> i64 {
        let head = &line[..line.find(before).unwrap()];
        head.rsplit(|c: char| !c.is_ascii_digit())
            .find(|w| !w.is_empty())
            .unwrap()
            .parse()
            .unwrap()
    };
    (num(" measured,"), num(" from the database"))
}

/// The tuned file of `db` against the original loop, from a C driver.
fn check_tuned(dir: &Path, tuned: &Path, file: &Path) {
    let body = r#"
    int n = s[0];
    double a = rnd();
    double *x = dvec(n), *y = dvec(n);
    double *y2 = DUP(y, n);
    VecAXPY(n, a, x, y);
    VecAXPY_orig(n, a, x, y2);
    cmp("y", y, y2, n);
    free(x); free(y); free(y2);
    return n > 0;
"#;
    let protos = "void VecAXPY(int n, double a, const double *x, double *y);\n\
                  void VecAXPY_orig(int n, double a, const double *x, double *y);\n\
                  #define TOL 1e-12";
    let driver = driver_source(protos, "{100000, 0, 0}", body);
    run_driver(
        dir,
        tuned.to_str().unwrap(),
        file.to_str().unwrap(),
        "VecAXPY",
        &driver,
        Duration::from_secs(60),
    );
}

/// Both devices measure, every configuration is measured exactly once (one row each, each row
/// with the device that measured it, the run's measured count equal to the rows), and the tuned
/// file is correct. Then: kill -9 mid-tune and resume with `--devices all` again measures only
/// what is missing, into the same experiment.
#[test]
fn two_identical_devices_pool_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let two = "pthread pthread";

    let db = dir.path().join("two.db");
    let r = tune(&file, &db, two, &["--devices", "all"]);
    r.assert_code(0);
    let rs = rows(&db);
    assert_eq!(rs.len() as i64, CONFIGS, "{rs:?}");
    let keys: std::collections::HashSet<_> = rs.iter().map(|r| &r.0).collect();
    assert_eq!(keys.len() as i64, CONFIGS, "a configuration stored twice");
    assert!(rs.iter().all(|r| r.1 == "ok"), "{rs:?}");
    assert_eq!(measured_reused(&r), (CONFIGS, 0), "{}", r.dump());
    let on = |d: i64| rs.iter().filter(|r| r.2 == Some(d)).count();
    assert!(
        on(0) > 0 && on(1) > 0,
        "one device measured everything: {rs:?}"
    );
    assert_eq!((on(0) + on(1)) as i64, CONFIGS, "{rs:?}");
    assert!(
        r.stdout.contains(&format!(
            "measured per device: device 0: {}, device 1: {}",
            on(0),
            on(1)
        )),
        "{}",
        r.dump()
    );
    check_tuned(dir.path(), &db.with_extension("c"), &file);
    let mut c = Command::new(ORCL);
    c.arg("db").arg("--db").arg(&db).args(["show", "1"]);
    let show = run(c, Duration::from_secs(30));
    show.assert_code(0);
    assert!(
        show.stdout.contains(&format!(
            "measured per device (--devices): device 0: {}, device 1: {}",
            on(0),
            on(1)
        )),
        "{}",
        show.dump()
    );

    // kill -9 once some evaluations are recorded, then resume.
    let killed = dir.path().join("killed.db");
    let mut child = tune_cmd(&file, &killed, two, &["--devices", "all"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            panic!("orcl tune exited ({s}) before it was killed");
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "nothing recorded"
        );
        let n: i64 = Connection::open(&killed)
            .and_then(|c| c.query_row("SELECT count(*) FROM evaluation", [], |r| r.get(0)))
            .unwrap_or(0);
        if n >= 1 {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = rows(&killed);
    assert!(
        (before.len() as i64) < CONFIGS,
        "the tune finished before it was killed"
    );
    let r = tune(&file, &killed, two, &["--devices", "all"]);
    r.assert_code(0);
    let after = rows(&killed);
    assert_eq!(after.len() as i64, CONFIGS, "{after:?}");
    assert_eq!(after[..before.len()], before[..], "recorded rows changed");
    let keys: std::collections::HashSet<_> = after.iter().map(|r| &r.0).collect();
    assert_eq!(keys.len() as i64, CONFIGS, "a configuration stored twice");
    assert!(
        after.iter().all(|r| r.1 == "ok" && r.2.is_some()),
        "{after:?}"
    );
    // Nothing measured twice: the resumed run measured exactly the missing ones.
    let missing = CONFIGS - before.len() as i64;
    assert_eq!(
        measured_reused(&r),
        (missing, before.len() as i64),
        "{}",
        r.dump()
    );
    let experiments: i64 = Connection::open(&killed)
        .unwrap()
        .query_row(
            "SELECT count(*) FROM experiment WHERE status = 'done'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(experiments, 1, "the resume opened another experiment");
    check_tuned(dir.path(), &killed.with_extension("c"), &file);
}

/// Without `--devices` nothing changes: one device, no device recorded per row, no per-device
/// line. A `--devices` run of the same file on the same (identical) device kind resumes that
/// experiment rather than measuring again.
#[test]
fn single_device_unchanged_and_pooled_with_devices() {
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("one.db");
    let r = tune(&file, &db, "pthread", &[]);
    r.assert_code(0);
    assert!(!r.stdout.contains("per device"), "{}", r.dump());
    let rs = rows(&db);
    assert_eq!(rs.len() as i64, CONFIGS);
    assert!(rs.iter().all(|r| r.2.is_none()), "{rs:?}");
    let r = tune(&file, &db, "pthread pthread", &["--devices", "0,1"]);
    r.assert_code(0);
    assert_eq!(measured_reused(&r), (0, CONFIGS), "{}", r.dump());
}

/// Devices that differ (PoCL's `basic` and `pthread` drivers) are refused before anything is
/// built or recorded; a bad list and `--device` with `--devices` are usage errors too.
#[test]
fn different_devices_and_bad_lists_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("t.db");
    let r = tune(&file, &db, "pthread basic", &["--devices", "all"]);
    r.assert_code(2);
    assert!(
        r.stderr.contains("is not identical to device 0")
            && r.stderr.contains("tune each with --device N and compare"),
        "{}",
        r.dump()
    );
    let experiments: i64 = Connection::open(&db)
        .unwrap()
        .query_row("SELECT count(*) FROM experiment", [], |r| r.get(0))
        .unwrap();
    assert_eq!(experiments, 0);
    for (args, want) in [
        (
            &["--devices", "0,x"][..],
            "invalid --devices `0,x`: `x` is not a device index",
        ),
        (&["--devices", "1,1"][..], "device 1 is listed twice"),
        (
            &["--devices", "0,1", "--device", "0"][..],
            "--device and --devices both given",
        ),
    ] {
        let r = tune(&file, &db, "pthread pthread", args);
        r.assert_code(2);
        assert!(r.stderr.contains(want), "{args:?}\n{}", r.dump());
    }
}

/// A schema-1 database (before `evaluation.device_index`) is read as it is by a read-only opening
/// and migrated by a read-write one, its rows keeping a NULL device.
#[test]
fn schema_1_database_reads_and_migrates() {
    let dir = tempfile::tempdir().unwrap();
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/data/h100-nvidia-opencl-vecaxpy.db");
    let db = dir.path().join("v1.db");
    std::fs::copy(&src, &db).unwrap();
    let version = |db: &Path| -> String {
        Connection::open(db)
            .unwrap()
            .query_row(
                "SELECT value FROM meta WHERE key = 'schema_version'",
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert_eq!(version(&db), "1");
    let ro = orcl::db::Db::open_read_only(&db).expect("a read-only opening reads schema 1");
    let n = ro.evaluations(1).unwrap().len();
    assert!(n > 0);
    let devs = ro.evaluation_devices(1).unwrap();
    assert_eq!(devs.len(), n);
    assert!(devs.iter().all(|(_, d)| d.is_none()));
    drop(ro);
    let rw = orcl::db::Db::open(&db).unwrap();
    assert_eq!(rw.schema_version().unwrap(), orcl::db::SCHEMA_VERSION);
    let devs = rw.evaluation_devices(1).unwrap();
    assert_eq!(devs.len(), n);
    assert!(devs.iter().all(|(_, d)| d.is_none()));
}

/// Never more devices than a run can feed (issue 24): 4 configurations (`--total-runs 4`) on
/// `--devices all` of two devices measure on device 0 alone, and one line says so.
#[test]
fn a_small_run_uses_fewer_devices_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("small.db");
    let r = tune(
        &file,
        &db,
        "pthread pthread",
        &["--devices", "all", "--total-runs", "4"],
    );
    r.assert_code(0);
    assert!(
        r.stderr
            .contains("note: --devices: 4 configuration(s) feed 1 of the 2 devices listed"),
        "{}",
        r.dump()
    );
    let rs = rows(&db);
    assert_eq!(rs.len(), 4, "{rs:?}");
    assert!(rs.iter().all(|r| r.1 == "ok" && r.2 != Some(1)), "{rs:?}");
}
