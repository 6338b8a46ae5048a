//! Tuning throughput (issue 14): the OpenCL build pool (`--jobs`) and the kernel-binary cache, on
//! PoCL.

mod common;

use common::{run, statuses, Run};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

fn input(dir: &Path, name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/inputs/ok")
        .join(name);
    let dst = dir.join(name);
    std::fs::copy(&src, &dst).unwrap_or_else(|e| panic!("copy {}: {e}", src.display()));
    dst
}

/// `orcl tune FILE --db DB ARGS...` with the skeleton and kernel caches under `cache`.
fn tune(file: &Path, db: &Path, cache: &Path, args: &[&str]) -> Run {
    let mut c = Command::new(ORCL);
    c.arg("tune")
        .arg(file)
        .arg("--db")
        .arg(db)
        .arg("-o")
        .arg(db.with_extension("c"))
        .args(args)
        .env("ORCL_CACHE_DIR", cache)
        .env_remove("ORCL_TEST_FAULT");
    run(c, Duration::from_secs(120))
}

/// Sum of the recorded build times (ms) of an experiment's evaluations.
fn build_ms(db: &Path) -> f64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row(
        "SELECT coalesce(sum(build_ms), 0) FROM evaluation",
        [],
        |r| r.get(0),
    )
    .unwrap()
}

fn assert_each_once_ok(db: &Path, n: usize) {
    let rows = statuses(db);
    assert_eq!(rows.len(), n, "{rows:?}");
    let keys: std::collections::HashSet<_> = rows.iter().map(|(k, _)| k).collect();
    assert_eq!(keys.len(), n, "a configuration is stored twice: {rows:?}");
    assert!(rows.iter().all(|(_, s)| s == "ok"), "{rows:?}");
}

/// Builds on the pool give the same evaluations as builds in the worker; a re-run with the
/// kernel cache builds nothing; `--no-kernel-cache` builds again.
#[test]
fn build_pool_and_kernel_cache() {
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_faults.c");
    let cache = dir.path().join("cache");

    let serial = dir.path().join("serial.db");
    tune(&file, &serial, &cache, &["--jobs", "0"]).assert_code(0);
    assert_each_once_ok(&serial, 4);
    assert!(build_ms(&serial) > 0.0, "the worker built nothing");
    assert!(
        !cache.join("kernels").exists(),
        "--jobs 0 wrote the kernel cache"
    );

    let pooled = dir.path().join("pooled.db");
    let r = tune(&file, &pooled, &cache, &["--jobs", "2"]);
    r.assert_code(0);
    assert_each_once_ok(&pooled, 4);
    assert!(
        build_ms(&pooled) > 0.0,
        "the pool built nothing\n{}",
        r.dump()
    );
    let bins = std::fs::read_dir(cache.join("kernels")).unwrap().count();
    // 2 unroll factors × 2 work-group sizes; the work-group size is not in the kernel source.
    assert!((1..=4).contains(&bins), "{bins} cached binaries");

    let again = dir.path().join("again.db");
    tune(&file, &again, &cache, &["--jobs", "2"]).assert_code(0);
    assert_each_once_ok(&again, 4);
    assert_eq!(build_ms(&again), 0.0, "a re-run built kernels again");

    let fresh = dir.path().join("fresh.db");
    tune(&file, &fresh, &cache, &["--jobs", "1", "--no-kernel-cache"]).assert_code(0);
    assert_each_once_ok(&fresh, 4);
    assert!(build_ms(&fresh) > 0.0, "--no-kernel-cache used the cache");
}

/// A kernel that does not compile is a compile error from the pool, as it is from the worker.
#[test]
fn pool_compile_errors_are_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_allfail.c");
    let db = dir.path().join("t.db");
    let r = tune(&file, &db, &dir.path().join("cache"), &["--jobs", "2"]);
    r.assert_code(1);
    let rows = statuses(&db);
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(rows.iter().all(|(_, s)| s == "compile_error"), "{rows:?}");
}
