//! `orcl db list | show | best | query` on a real tuning database: the built binary tunes a copy
//! of `tests/inputs/ok/axpy.c` (8 configurations × 2 input sizes) once per test process on the
//! local OpenCL device (PoCL in CI) into a database shared by the read-only tests, whose output
//! is then checked against direct SQL (rusqlite). A second test tunes two regions into one
//! database at the same time.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use rusqlite::Connection;
use serde_json::Value;
use tempfile::TempDir;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// Configurations of `axpy.c`: WI × CB × UI = 2 × 2 × 2, no constraints.
const SPACE_SIZE: i64 = 8;

/// The refusal of a statement that writes.
const READ_ONLY_MESSAGE: &str = "only read-only statements are allowed (SELECT, WITH ... SELECT, read-only PRAGMAs); the statement would modify the database";

/// A temp dir under `CARGO_TARGET_TMPDIR`, removed when dropped.
fn temp_dir() -> TempDir {
    tempfile::Builder::new()
        .prefix("orcl-db-cli-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .expect("temp dir")
}

/// Copies `tests/inputs/ok/axpy.c` into `dir` as `name`.
fn copy_axpy(dir: &Path, name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/ok/axpy.c");
    let dst = dir.join(name);
    std::fs::copy(&src, &dst).unwrap_or_else(|e| panic!("copy {}: {e}", src.display()));
    dst
}

/// `orcl tune FILE --db DB` in `dir`, with the skeleton cache in `dir/cache`.
fn tune_command(dir: &Path, file: &str, db: &Path) -> Command {
    let mut c = Command::new(ORCL);
    c.arg("tune")
        .arg(file)
        .arg("--db")
        .arg(db)
        .current_dir(dir)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT")
        .stdin(Stdio::null());
    c
}

fn dump(o: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The database tuned once for the whole test process, in `CARGO_TARGET_TMPDIR/db_cli-fixture`
/// (recreated by every run, so no stale copies pile up; statics are never dropped).
struct Fixture {
    dir: PathBuf,
    db: PathBuf,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("db_cli-fixture");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("fixture dir");
        copy_axpy(&dir, "axpy.c");
        let db = dir.join("x.db");
        let out = tune_command(&dir, "axpy.c", &db)
            .output()
            .expect("run orcl tune");
        assert!(out.status.success(), "tune failed: {}", dump(&out));
        Fixture { dir, db }
    })
}

/// `orcl db --db DB ARGS...` in the fixture's dir.
fn orcl_db(db: &Path, args: &[&str]) -> Output {
    Command::new(ORCL)
        .arg("db")
        .arg("--db")
        .arg(db)
        .args(args)
        .current_dir(&fixture().dir)
        .stdin(Stdio::null())
        .output()
        .expect("run orcl db")
}

/// Runs `orcl db ARGS...` on the fixture and returns its stdout; it must exit 0.
fn ok(args: &[&str]) -> String {
    let o = orcl_db(&fixture().db, args);
    assert_eq!(o.status.code(), Some(0), "orcl db {args:?}: {}", dump(&o));
    String::from_utf8(o.stdout).unwrap()
}

/// Runs `orcl db ARGS... --json` on the fixture and parses its stdout.
fn ok_json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.push("--json");
    let out = ok(&a);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("orcl db {a:?}: not JSON ({e}):\n{out}"))
}

/// Runs `orcl db ARGS...` on `db`; it must exit 2. Returns stderr.
fn fails(db: &Path, args: &[&str]) -> String {
    let o = orcl_db(db, args);
    assert_eq!(o.status.code(), Some(2), "orcl db {args:?}: {}", dump(&o));
    String::from_utf8(o.stderr).unwrap()
}

fn conn(db: &Path) -> Connection {
    let c = Connection::open(db).unwrap_or_else(|e| panic!("open {}: {e}", db.display()));
    c.busy_timeout(Duration::from_secs(10)).unwrap();
    c
}

fn count(c: &Connection, sql: &str) -> i64 {
    c.query_row(sql, [], |r| r.get(0))
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// Equal up to a relative 1e-12: serde_json's default float parsing may be off by an ulp.
fn assert_close(a: Option<f64>, b: Option<f64>) {
    match (a, b) {
        (Some(x), Some(y)) => assert!((x - y).abs() <= 1e-12 * x.abs().max(y.abs()), "{x} != {y}"),
        _ => assert_eq!(a, b),
    }
}

fn array(v: &Value) -> &Vec<Value> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a JSON array: {v}"))
}

#[test]
fn list_matches_the_database() {
    let f = fixture();
    let c = conn(&f.db);
    let v = ok_json(&["list"]);
    let rows = array(&v);
    assert_eq!(rows.len(), 2, "{v:#}");
    let mut sizes = Vec::new();
    for r in rows {
        let id = r["id"].as_i64().expect("id");
        let (file, line, function, device, backend, params, algorithm, status, started) = c
            .query_row(
                "SELECT r.file, r.line, r.function, d.name, e.backend, e.input_params_json,
                        e.algorithm, e.status, e.started_at
                   FROM experiment e JOIN region r ON r.id = e.region_id
                   JOIN device d ON d.id = e.device_id WHERE e.id = ?1",
                [id],
                |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        row.get::<_, i64>(1)?,
                        row.get::<_, String>(2)?,
                        row.get::<_, String>(3)?,
                        row.get::<_, String>(4)?,
                        row.get::<_, String>(5)?,
                        row.get::<_, String>(6)?,
                        row.get::<_, String>(7)?,
                        row.get::<_, String>(8)?,
                    ))
                },
            )
            .unwrap();
        assert_eq!(r["file"], file.as_str());
        assert_eq!(file, "axpy.c");
        assert_eq!(r["line"], line);
        assert_eq!(r["function"], function.as_str());
        assert_eq!(r["region"], format!("{function}:{line}").as_str());
        assert_eq!(r["device"], device.as_str());
        assert_eq!(r["backend"], backend.as_str());
        assert_eq!(
            r["input_params"],
            serde_json::from_str::<Value>(&params).unwrap()
        );
        assert_eq!(r["algorithm"], algorithm.as_str());
        assert_eq!(r["status"], status.as_str());
        assert_eq!(r["started_at"], started.as_str());
        let n = |sql: &str| count(&c, &sql.replace("ID", &id.to_string()));
        assert_eq!(
            r["evaluations"],
            n("SELECT count(*) FROM evaluation WHERE experiment_id = ID")
        );
        assert_eq!(r["evaluations"], SPACE_SIZE);
        assert_eq!(
            r["failures"],
            n("SELECT count(*) FROM evaluation WHERE experiment_id = ID \
               AND status NOT IN ('ok', 'constraint')")
        );
        assert_eq!(
            r["constraint"],
            n("SELECT count(*) FROM evaluation WHERE experiment_id = ID AND status = 'constraint'")
        );
        let best: Option<f64> = c
            .query_row(
                "SELECT min(median_ms) FROM evaluation WHERE experiment_id = ?1 AND status = 'ok'",
                [id],
                |row| row.get(0),
            )
            .unwrap();
        assert_close(r["best_median_ms"].as_f64(), best);
        assert!(best.is_some());
        sizes.push(r["input_sizes"].as_str().unwrap().to_string());
    }
    sizes.sort();
    assert_eq!(sizes, ["N=1000", "N=20011"]);

    let table = ok(&["list"]);
    for word in [
        "id",
        "best median ms",
        "axpy.c",
        "VecAXPY:",
        "N=1000",
        "N=20011",
        "Exhaustive",
    ] {
        assert!(table.contains(word), "no {word:?} in\n{table}");
    }
    assert_eq!(table.matches("VecAXPY:").count(), 2, "{table}");
}

#[test]
fn show_ranks_and_counts() {
    let f = fixture();
    let c = conn(&f.db);
    let id = count(&c, "SELECT min(id) FROM experiment");
    let v = ok_json(&["show", &id.to_string()]);
    for key in [
        "experiment",
        "metadata",
        "region",
        "device",
        "top",
        "failures",
    ] {
        assert!(v.get(key).is_some(), "no {key} in {v:#}");
    }
    assert_eq!(v["experiment"]["id"], id);
    assert_eq!(v["experiment"]["status"], "done");
    assert!(v["experiment"]["identity_key"].is_string());
    assert!(v["experiment"]["input_params"]["N"].is_number());
    assert!(v["metadata"]["winner"].is_string(), "{:#}", v["metadata"]);
    assert_eq!(v["region"]["file"], "axpy.c");
    assert_eq!(v["region"]["function"], "VecAXPY");
    assert!(v["region"]["line"].as_i64().unwrap() > 0);
    let device_name: String = c
        .query_row(
            "SELECT d.name FROM device d JOIN experiment e ON e.device_id = d.id WHERE e.id = ?1",
            [id],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(v["device"]["name"], device_name.as_str());
    assert!(v["device"]["properties"].is_object(), "{:#}", v["device"]);

    // Top: ascending medians, ranks 1.., only ok rows, as many as requested.
    let ok_count = count(
        &c,
        &format!("SELECT count(*) FROM evaluation WHERE experiment_id = {id} AND status = 'ok'"),
    );
    let top = array(&v["top"]);
    assert_eq!(top.len() as i64, ok_count.min(10));
    let medians: Vec<f64> = top
        .iter()
        .map(|t| t["median_ms"].as_f64().expect("median"))
        .collect();
    assert!(
        medians.windows(2).all(|w| w[0] <= w[1]),
        "not ascending: {medians:?}"
    );
    for (k, t) in top.iter().enumerate() {
        assert_eq!(t["rank"], k + 1);
        assert!(t["min_ms"].as_f64().unwrap() <= t["median_ms"].as_f64().unwrap());
        assert!(t["config"].is_object());
    }
    let fastest: f64 = c
        .query_row(
            "SELECT min(median_ms) FROM evaluation WHERE experiment_id = ?1 AND status = 'ok'",
            [id],
            |r| r.get(0),
        )
        .unwrap();
    assert_close(Some(medians[0]), Some(fastest));
    assert_eq!(
        array(&ok_json(&["show", &id.to_string(), "--top", "3"])["top"]).len(),
        3
    );

    // Failures: every status, summing to the number of evaluations.
    let failures = v["failures"].as_object().unwrap();
    for s in orcl::db::EVALUATION_STATUSES {
        assert!(failures.contains_key(s), "no {s} in {failures:?}");
    }
    let total: i64 = failures.values().map(|n| n.as_i64().unwrap()).sum();
    assert_eq!(
        total,
        count(
            &c,
            &format!("SELECT count(*) FROM evaluation WHERE experiment_id = {id}")
        )
    );
    assert_eq!(failures["ok"], ok_count);

    let table = ok(&["show", &id.to_string(), "--top", "2"]);
    for word in [
        "metadata",
        "winner",
        "device",
        "rank",
        "WI=",
        "evaluations by status",
        "wrong_result",
        "total",
    ] {
        assert!(table.contains(word), "no {word:?} in\n{table}");
    }
}

/// `db show ID --failures` groups failures by class with the first message of each; constraint
/// rejections are counted apart, not as failures, also by `db list`.
#[test]
fn show_failures_groups_by_class() {
    let dir = temp_dir();
    let db = dir.path().join("f.db");
    std::fs::copy(&fixture().db, &db).unwrap();
    let c = conn(&db);
    let id = count(&c, "SELECT min(id) FROM experiment");
    let evs = |n: i64| {
        let sql =
            format!("SELECT id FROM evaluation WHERE experiment_id = {id} ORDER BY id LIMIT {n}");
        let mut st = c.prepare(&sql).unwrap();
        st.query_map([], |r| r.get::<_, i64>(0))
            .unwrap()
            .map(Result::unwrap)
            .collect::<Vec<_>>()
    };
    let ids = evs(4);
    let set = |eid: i64, status: &str, message: &str| {
        c.execute(
            "UPDATE evaluation SET status = ?1, message = ?2, median_ms = NULL WHERE id = ?3",
            rusqlite::params![status, message, eid],
        )
        .unwrap();
    };
    set(
        ids[0],
        "wrong_result",
        "max error 0.5 at index 3\nmore detail",
    );
    set(ids[1], "wrong_result", "max error 0.7 at index 9");
    set(
        ids[2],
        "compile_error",
        "error: use of undeclared identifier 'x'",
    );
    set(ids[3], "constraint", "WI > 32");
    drop(c);

    let text = ok_db(&db, &["show", &id.to_string(), "--failures"]);
    assert!(text.contains("3 failed evaluation(s)"), "{text}");
    let wrong = text
        .lines()
        .position(|l| l.contains("wrong_result"))
        .expect("a wrong_result row");
    let compile = text
        .lines()
        .position(|l| l.contains("compile_error"))
        .expect("a compile_error row");
    assert!(wrong < compile, "the most frequent class first:\n{text}");
    assert!(
        text.contains("max error 0.5 at index 3"),
        "the first message:\n{text}"
    );
    assert!(
        !text.contains("more detail"),
        "only its first line:\n{text}"
    );
    assert!(
        text.contains("1 configuration(s) rejected by constraints"),
        "{text}"
    );

    let v: Value = serde_json::from_str(&ok_db(
        &db,
        &["show", &id.to_string(), "--failures", "--json"],
    ))
    .unwrap();
    let groups = array(&v["failures"]);
    assert_eq!(groups.len(), 2);
    assert_eq!(
        (groups[0]["status"].as_str(), groups[0]["count"].as_i64()),
        (Some("wrong_result"), Some(2))
    );
    assert_eq!(
        groups[0]["first_message"],
        "max error 0.5 at index 3\nmore detail"
    );
    assert_eq!(v["constraint"], 1);

    let list: Value = serde_json::from_str(&ok_db(&db, &["list", "--json"])).unwrap();
    let row = array(&list).iter().find(|r| r["id"] == id).unwrap().clone();
    assert_eq!(
        (row["failures"].as_i64(), row["constraint"].as_i64()),
        (Some(3), Some(1))
    );
}

/// `orcl db --db DB ARGS...` (any database); its stdout, which must exit 0.
fn ok_db(db: &Path, args: &[&str]) -> String {
    let out = orcl_db(db, args);
    assert!(out.status.success(), "{}", dump(&out));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn show_unknown_experiment_fails() {
    let f = fixture();
    let err = fails(&f.db, &["show", "999"]);
    assert!(
        err.contains(&format!("no experiment 999 in {}", f.db.display())),
        "{err}"
    );
    fails(&f.db, &["show", "999", "--json"]);
}

#[test]
fn best_one_row_per_input_size() {
    let f = fixture();
    let c = conn(&f.db);
    let v = ok_json(&["best"]);
    let rows = array(&v);
    assert_eq!(rows.len(), 2, "{v:#}");
    for r in rows {
        let id = r["experiment_id"].as_i64().unwrap();
        // The winner is the `winner` metadata, or else the fastest ok evaluation.
        let expected: String = c
            .query_row(
                "SELECT coalesce(
                    (SELECT value FROM experiment_metadata WHERE experiment_id = ?1 AND key = 'winner'),
                    (SELECT config_key FROM evaluation WHERE experiment_id = ?1 AND status = 'ok'
                      ORDER BY median_ms, id LIMIT 1))",
                [id],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(r["config_key"], expected.as_str(), "{r:#}");
        let median: f64 = c
            .query_row(
                "SELECT median_ms FROM evaluation WHERE experiment_id = ?1 AND config_key = ?2",
                rusqlite::params![id, expected],
                |row| row.get(0),
            )
            .unwrap();
        assert_close(r["median_ms"].as_f64(), Some(median));
        assert_eq!(r["file"], "axpy.c");
        assert!(r["configuration"].as_str().unwrap().contains("WI="));
    }
    let sizes: Vec<&str> = rows
        .iter()
        .map(|r| r["input_sizes"].as_str().unwrap())
        .collect();
    assert_eq!(sizes, ["N=1000", "N=20011"]);

    // --size picks the experiment of that size.
    let id_1000 = count(
        &c,
        "SELECT id FROM experiment WHERE input_params_json ->> '$.N' = 1000",
    );
    for size in ["N=1000", "N=1e3", "N=1000.0"] {
        let v = ok_json(&["best", "--size", size]);
        let rows = array(&v);
        assert_eq!(rows.len(), 1, "{size}: {v:#}");
        assert_eq!(rows[0]["experiment_id"], id_1000);
        assert_eq!(rows[0]["input_params"]["N"], 1000);
    }
    // A size that was never tuned: the nearest recorded one (issue 27; tests/warm_start.rs).
    let v = ok_json(&["best", "--size", "N=999"]);
    assert_eq!(array(&v).len(), 1, "{v:#}");
    assert_eq!(array(&v)[0]["experiment_id"], id_1000, "{v:#}");
    assert!(array(&ok_json(&["best", "--size", "M=1000"])).is_empty());
    let err = fails(&f.db, &["best", "--size", "N"]);
    assert!(err.contains("NAME=VALUE"), "{err}");

    // Region and device filters.
    let device = rows[0]["device"].as_str().unwrap().to_string();
    let line = rows[0]["line"].as_i64().unwrap();
    for (args, n) in [
        (vec!["--region", "VecAXPY"], 2),
        (vec!["--region", "axpy"], 2),
        (vec!["--region", &format!("axpy.c:{line}")], 2),
        (vec!["--region", "nomatch"], 0),
        (vec!["--device", &device.to_lowercase()], 2),
        (vec!["--device", &device[..3].to_uppercase()], 2),
        (vec!["--device", "no such device"], 0),
        (vec!["--region", "VecAXPY", "--size", "N=20011"], 1),
    ] {
        let mut a = vec!["best"];
        a.extend(args.iter().copied());
        assert_eq!(array(&ok_json(&a)).len(), n, "{a:?}");
    }

    let table = ok(&["best"]);
    for word in [
        "region",
        "configuration",
        "median ms",
        "N=1000",
        "N=20011",
        "VecAXPY",
    ] {
        assert!(table.contains(word), "no {word:?} in\n{table}");
    }
    let table = ok(&["best", "--size", "N=1000"]);
    assert!(
        table.contains("N=1000") && !table.contains("N=20011"),
        "{table}"
    );
}

#[test]
fn query_select_table_and_json() {
    let f = fixture();
    let c = conn(&f.db);
    let n = count(&c, "SELECT count(*) FROM evaluation");
    let v = ok_json(&[
        "query",
        "SELECT count(*) AS n, 1.5 AS r, 'text' AS t, NULL AS z, x'00ff' AS b FROM evaluation",
    ]);
    assert_eq!(
        v,
        serde_json::json!([{"n": n, "r": 1.5, "t": "text", "z": null, "b": "00ff"}])
    );
    let v = ok_json(&[
        "query",
        "WITH s AS (SELECT status FROM evaluation) SELECT status, count(*) AS k FROM s GROUP BY status",
    ]);
    let total: i64 = array(&v).iter().map(|r| r["k"].as_i64().unwrap()).sum();
    assert_eq!(total, n);

    let table = ok(&[
        "query",
        "SELECT experiment.id, config_key FROM experiment JOIN evaluation ON experiment_id = experiment.id LIMIT 3;",
    ]);
    assert!(
        table.contains("id") && table.contains("config_key") && table.contains("WI"),
        "{table}"
    );
    let table = ok(&["query", "PRAGMA table_info(evaluation)"]);
    assert!(table.contains("median_ms"), "{table}");
    let err = fails(&f.db, &["query", "SELECT * FROM no_such_table"]);
    assert!(err.contains("no_such_table"), "{err}");
}

#[test]
fn query_refuses_writes() {
    let f = fixture();
    let c = conn(&f.db);
    let before = count(&c, "SELECT count(*) FROM evaluation");
    let tables = count(&c, "SELECT count(*) FROM sqlite_master");
    assert!(before > 0);
    let attached = f.dir.join("other.db");
    let attach = format!("ATTACH '{}' AS other", attached.display());
    for sql in [
        "DELETE FROM evaluation",
        "INSERT INTO meta (key, value) VALUES ('x', 'y')",
        "UPDATE evaluation SET median_ms = 0",
        "DROP TABLE evaluation",
        "PRAGMA journal_mode=DELETE",
        attach.as_str(),
        "VACUUM",
        "WITH x AS (SELECT 1) DELETE FROM evaluation",
    ] {
        for json in [false, true] {
            let mut args = vec!["query", sql];
            if json {
                args.push("--json");
            }
            let err = fails(&f.db, &args);
            assert!(err.contains(READ_ONLY_MESSAGE), "{sql}: {err}");
        }
    }
    for sql in [
        "SELECT 1; DELETE FROM evaluation",
        "SELECT 1;DROP TABLE evaluation;",
    ] {
        let err = fails(&f.db, &["query", sql]);
        assert!(
            err.contains("only one statement is allowed"),
            "{sql}: {err}"
        );
    }
    let err = fails(&f.db, &["query", "  -- nothing "]);
    assert!(err.contains("empty"), "{err}");

    assert!(!attached.exists(), "ATTACH created {}", attached.display());
    assert_eq!(count(&c, "SELECT count(*) FROM evaluation"), before);
    assert_eq!(count(&c, "SELECT count(*) FROM sqlite_master"), tables);
    let mode: String = c
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn missing_database_is_an_error_and_not_created() {
    let dir = temp_dir();
    let missing = dir.path().join("missing.db");
    for args in [
        vec!["list"],
        vec!["list", "--json"],
        vec!["show", "1"],
        vec!["best"],
        vec!["query", "SELECT 1"],
    ] {
        let err = fails(&missing, &args);
        assert!(
            err.contains(&format!("no tuning database at {}", missing.display())),
            "{args:?}: {err}"
        );
        assert!(!missing.exists(), "{args:?} created {}", missing.display());
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

    // The default `orcl.db` of the current directory is missing, but `orcl tune` wrote one
    // beside the tuned file in a subdirectory: the error names it.
    std::fs::create_dir(dir.path().join("examples")).unwrap();
    std::fs::copy(&fixture().db, dir.path().join("examples/orcl.db")).unwrap();
    let out = Command::new(ORCL)
        .args(["db", "list"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("run orcl db list");
    assert_eq!(out.status.code(), Some(2), "{}", dump(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no tuning database at orcl.db"), "{err}");
    assert!(err.contains("use --db examples/orcl.db"), "{err}");
}

/// Tunes `axpy.c` and `axpy2.c` (a copy of it, its loop text passed through `edit`) into one
/// database with two `orcl tune` processes at the same time; both must exit 0 and every
/// configuration of every (region, input size) must be recorded once.
fn concurrent_tunes(edit: impl Fn(&str) -> String) {
    let dir = temp_dir();
    copy_axpy(dir.path(), "axpy.c");
    let copy = copy_axpy(dir.path(), "axpy2.c");
    let text = std::fs::read_to_string(&copy).unwrap();
    std::fs::write(&copy, edit(&text)).unwrap();
    let db = dir.path().join("shared.db");
    let children: Vec<_> = ["axpy.c", "axpy2.c"]
        .iter()
        .map(|file| {
            tune_command(dir.path(), file, &db)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn orcl tune")
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().expect("wait");
        assert!(out.status.success(), "{}", dump(&out));
    }
    let c = conn(&db);
    assert_eq!(count(&c, "SELECT count(*) FROM region"), 2);
    assert_eq!(count(&c, "SELECT count(*) FROM experiment"), 4);
    assert_eq!(
        count(&c, "SELECT count(*) FROM experiment WHERE status = 'done'"),
        4
    );
    let mut st = c
        .prepare(
            "SELECT e.id, r.file, e.input_params_json,
                    (SELECT count(*) FROM evaluation v WHERE v.experiment_id = e.id)
               FROM experiment e JOIN region r ON r.id = e.region_id ORDER BY r.file, e.id",
        )
        .unwrap();
    let rows: Vec<(i64, String, String, i64)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let files: Vec<&str> = rows.iter().map(|r| r.1.as_str()).collect();
    assert_eq!(
        files,
        ["axpy.c", "axpy.c", "axpy2.c", "axpy2.c"],
        "{rows:?}"
    );
    for (id, file, params, n) in &rows {
        assert_eq!(*n, SPACE_SIZE, "experiment {id} ({file} {params})");
    }

    // `orcl db` sees both regions.
    let out = orcl_db(&db, &["best", "--json"]);
    assert!(out.status.success(), "{}", dump(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut files: Vec<&str> = array(&v)
        .iter()
        .map(|r| r["file"].as_str().unwrap())
        .collect();
    files.sort();
    assert_eq!(files, ["axpy.c", "axpy.c", "axpy2.c", "axpy2.c"]);
    let out = orcl_db(&db, &["best", "--region", "axpy2", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(array(&v).len(), 2, "{v:#}");
}

/// Two different loops (`y[i] += ...` and `y[i] = y[i] + ...`) tuned at the same time.
#[test]
fn concurrent_tunes_share_one_database() {
    concurrent_tunes(|text| {
        let edited = text.replace("y[i] += a*x[i];", "y[i] = y[i] + a*x[i];");
        assert_ne!(edited, text);
        edited
    });
}

/// The same loop in two files (a renamed copy) tuned at the same time: two regions.
#[test]
fn concurrent_tunes_of_a_renamed_copy() {
    concurrent_tunes(str::to_string);
}
