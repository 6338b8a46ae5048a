//! Issue 25's output-file promises through the command line (docs/RELIABILITY.md): `-o` to a
//! character device writes through and leaves the device as it was (G2); `-o` to a symbolic link
//! or to the database's SQLite `-journal`/`-wal`/`-shm` file (G3) is refused with exit 2, and one
//! into a directory that does not exist with exit 3 (the file system, as when the write fails),
//! before anything is tuned (G16), leaving no database behind.
//!
//! Every tune runs `tests/inputs/ok/axpy_faults.c` (4 configurations, N = 1000) on the local
//! OpenCL device (PoCL in CI), in its own temp dir with its own database and cache.

use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

mod common;
use common::run;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// A temp dir holding a copy of axpy_faults.c; the tune command with `-o OUT` and `--db t.db`.
fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("axpy_faults.c");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/ok/axpy_faults.c"),
        &input,
    )
    .unwrap();
    let db = dir.path().join("t.db");
    (dir, input, db)
}

fn tune(dir: &Path, input: &Path, db: &Path, out: &Path) -> Command {
    let mut c = Command::new(ORCL);
    c.arg("tune")
        .arg(input)
        .arg("--db")
        .arg(db)
        .arg("-o")
        .arg(out)
        .current_dir(dir)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT");
    c
}

#[test]
fn a_character_device_is_written_through_not_replaced() {
    let (dir, input, db) = setup();
    let r = run(
        tune(dir.path(), &input, &db, Path::new("/dev/null")),
        Duration::from_secs(300),
    );
    r.assert_code(0);
    let t = std::fs::symlink_metadata("/dev/null").unwrap().file_type();
    assert!(t.is_char_device(), "/dev/null is no longer a device");
}

#[test]
fn refused_outputs_are_refused_before_tuning() {
    let (dir, input, db) = setup();
    let target = dir.path().join("elsewhere.c");
    std::fs::write(&target, "kept").unwrap();
    let link = dir.path().join("link.c");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let cases: [(PathBuf, &str, i32); 4] = [
        (link.clone(), "symbolic link", 2),
        (dir.path().join("t.db-wal"), "SQLite file", 2),
        (dir.path().join("t.db-journal"), "SQLite file", 2),
        (dir.path().join("no/such/dir/x.c"), "does not exist", 3),
    ];
    for (out, why, code) in cases {
        let r = run(
            tune(dir.path(), &input, &db, &out),
            Duration::from_secs(120),
        );
        r.assert_code(code);
        assert!(r.stderr.contains(why), "{}", r.dump());
        assert!(
            !db.exists(),
            "nothing tuned before the refusal: {}",
            r.dump()
        );
    }
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
}
