//! Issue 15's reliability and security promises (docs/RELIABILITY.md), each as a test that failed
//! before its fix: output files never overwrite the input or the database (F3, F4), a closed
//! stdout stops nothing (F2), a deleted database stops the tune (F11), SIGTERM/SIGINT mark the
//! experiment `interrupted` and no worker outlives orcl, even after `kill -9` (F6, F18), build
//! steps time out and leave no scratch files (F7, F14), the skeleton cache is per user and
//! verified (F5), exit codes (F12), escaped diagnostics (F15), `--repetitions 0` (F17),
//! reading a database while another process creates it (F19), and the front end's limits on
//! generated inputs: nesting depth (F1), input size and linear time (F13), invalid constants
//! (F16). The front end's property check is `tests/fuzz.rs`.
//!
//! Every tune runs `tests/inputs/ok/axpy_faults.c` (4 configurations, N = 1000) on the local
//! OpenCL device (PoCL in CI), in its own temp dir with its own database and cache.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use tempfile::TempDir;

mod common;
use common::{run, Run};

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// How long a command or a wait may take before the test calls it hung: a guard, not a speed
/// requirement (every wait ends on an event), so the tests hold on a loaded machine (issue 25).
const HANG_GUARD: Duration = Duration::from_secs(600);

struct Case {
    dir: TempDir,
    input: PathBuf,
    db: PathBuf,
}

impl Case {
    fn new(name: &str) -> Case {
        let dir = tempfile::Builder::new()
            .prefix("orcl-rel-")
            .tempdir()
            .unwrap();
        let src = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/inputs/ok")
            .join(name);
        let input = dir.path().join(name);
        std::fs::copy(&src, &input).unwrap();
        let db = dir.path().join("t.db");
        Case { dir, input, db }
    }

    fn cache(&self) -> PathBuf {
        self.dir.path().join("cache")
    }

    fn orcl(&self, args: &[&str]) -> Command {
        let mut c = Command::new(ORCL);
        c.args(args)
            .current_dir(self.dir.path())
            .env("ORCL_CACHE_DIR", self.cache())
            .env_remove("ORCL_TEST_FAULT");
        c
    }

    fn tune_command(&self, args: &[&str]) -> Command {
        let mut c = self.orcl(&["tune"]);
        c.arg(&self.input).arg("--db").arg(&self.db).args(args);
        c
    }

    fn tune(&self, args: &[&str]) -> Run {
        run(self.tune_command(args), HANG_GUARD)
    }

    fn tuned(&self) -> PathBuf {
        self.dir.path().join("_axpy_faults.c")
    }

    fn count(&self, sql: &str) -> i64 {
        let c = Connection::open(&self.db).unwrap();
        c.busy_timeout(Duration::from_secs(60)).unwrap();
        c.query_row(sql, [], |r| r.get(0)).unwrap()
    }

    /// Wait until `sql` (on the database, once it exists) gives a count ≥ 1.
    fn wait_for(&self, child: &mut Child, sql: &str) {
        let start = Instant::now();
        loop {
            if let Some(s) = child.try_wait().unwrap() {
                panic!("orcl exited ({s}) before `{sql}` held");
            }
            assert!(start.elapsed() < HANG_GUARD, "`{sql}` never held");
            if self.db.exists() {
                if let Ok(c) = Connection::open(&self.db) {
                    if c.query_row(sql, [], |r| r.get::<_, i64>(0))
                        .is_ok_and(|n| n > 0)
                    {
                        return;
                    }
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Processes whose command line mentions `dir` (skeleton workers, build shells).
fn processes_under(dir: &Path) -> Vec<String> {
    let needle = dir.to_string_lossy().into_owned();
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if !name.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(&needle) {
                found.push(format!("{name}: {cmd}"));
            }
        }
    }
    found
}

fn assert_no_processes_left(dir: &Path, limit: Duration) {
    let deadline = Instant::now() + limit;
    loop {
        let left = processes_under(dir);
        if left.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "processes still running after {limit:?}: {left:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn wait_exit(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("orcl still running {limit:?} after the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, sig: i32) {
    assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
}

fn assert_no_panic(r: &Run) {
    assert!(
        !r.stderr.contains("panicked") && r.code() != Some(101),
        "{}",
        r.dump()
    );
}

/// F2: `orcl tune f.c | true` (stdout closed before anything is printed) still tunes and writes
/// `_f.c`, exit 0, no panic; so does `orcl check f.c | head -c0`. F5: without ORCL_CACHE_DIR the
/// cache is `$XDG_CACHE_HOME/orcl`, created 0700.
#[test]
fn closed_stdout_stops_nothing_and_cache_is_per_user() {
    use std::os::unix::fs::PermissionsExt;
    let case = Case::new("axpy_faults.c");
    let xdg = case.dir.path().join("xdg");
    for args in [vec!["check"], vec!["tune"]] {
        let mut c = Command::new(ORCL);
        c.args(&args).arg(&case.input);
        if args[0] == "tune" {
            c.arg("--db").arg(&case.db);
        }
        c.current_dir(case.dir.path())
            .env_remove("ORCL_CACHE_DIR")
            .env("XDG_CACHE_HOME", &xdg)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c.spawn().unwrap();
        drop(child.stdout.take()); // the reader is gone: every write is EPIPE
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    assert!(case.tuned().exists(), "tune wrote no tuned file");
    let mode = std::fs::metadata(xdg.join("orcl"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o700);
}

/// F3, F4: `-o` onto the database or a hard link of the input (tune), and `db export -o` onto the
/// database, are refused with exit 2 and leave both files intact.
#[test]
fn outputs_never_overwrite_input_or_database() {
    let case = Case::new("axpy_faults.c");
    case.tune(&[]).assert_code(0);
    let rows = case.count("SELECT COUNT(*) FROM evaluation");
    assert_eq!(rows, 4);
    let input_text = std::fs::read_to_string(&case.input).unwrap();
    let link = case.dir.path().join("link.c");
    std::fs::hard_link(&case.input, &link).unwrap();
    let db_link = case.dir.path().join("db-link");
    std::fs::hard_link(&case.db, &db_link).unwrap();
    let db = case.db.to_str().unwrap();
    for (out, what) in [
        (db, "database"),
        (db_link.to_str().unwrap(), "database"),
        (link.to_str().unwrap(), "input file"),
    ] {
        let r = case.tune(&["-o", out]);
        r.assert_code(2);
        assert!(r.stderr.contains(what), "{}", r.dump());
    }
    for out in [db, db_link.to_str().unwrap()] {
        for format in ["csv", "json"] {
            let r = run(
                case.orcl(&[
                    "db", "--db", db, "export", "1", "--format", format, "-o", out,
                ]),
                HANG_GUARD,
            );
            r.assert_code(2);
            assert!(r.stderr.contains("database"), "{}", r.dump());
        }
    }
    assert_eq!(std::fs::read_to_string(&case.input).unwrap(), input_text);
    assert_eq!(case.count("SELECT COUNT(*) FROM evaluation"), rows);
    // An export to a new file still works, through a temporary file that is gone afterwards.
    let csv = case.dir.path().join("e.csv");
    let r = run(
        case.orcl(&[
            "db",
            "--db",
            db,
            "export",
            "1",
            "--format",
            "csv",
            "-o",
            csv.to_str().unwrap(),
        ]),
        HANG_GUARD,
    );
    r.assert_code(0);
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 5);
    let leftovers: Vec<_> = std::fs::read_dir(case.dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".orcl-out-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// F11: the database deleted while a variant runs: the tune stops with exit 3 and says so.
#[test]
fn database_deleted_mid_tune_stops_the_tune() {
    let case = Case::new("axpy_faults.c");
    let mut child = case
        .tune_command(&["--timeout", "3s"])
        .env("ORCL_TEST_FAULT", "hang:WI=16")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    case.wait_for(&mut child, "SELECT COUNT(*) FROM experiment");
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", case.db.display()));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("was deleted or replaced"), "{stderr}");
    assert!(!case.tuned().exists());
    assert_no_processes_left(case.dir.path(), HANG_GUARD);
}

/// F6, F18: SIGTERM while a variant hangs: exit 143 at once, the experiment is `interrupted`
/// with no row for the cut measurement, no worker is left, and a re-run resumes it to `done`.
/// SIGINT likewise (130). F6: after `kill -9` of orcl the hung worker dies too.
#[test]
fn signals_interrupt_cleanly_and_workers_die_with_orcl() {
    for (sig, code) in [(libc::SIGTERM, 143), (libc::SIGINT, 130)] {
        let case = Case::new("axpy_faults.c");
        let mut child = case
            .tune_command(&["--timeout", "3600s"])
            .env("ORCL_TEST_FAULT", "hang:WI=16")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        case.wait_for(&mut child, "SELECT COUNT(*) FROM experiment");
        std::thread::sleep(Duration::from_millis(500));
        signal(&child, sig);
        let start = Instant::now();
        let status = wait_exit(&mut child, HANG_GUARD);
        assert_eq!(status.code(), Some(code));
        // Far below the hung variant's 3600 s timeout: the signal stopped the wait.
        assert!(start.elapsed() < HANG_GUARD);
        assert_no_processes_left(case.dir.path(), HANG_GUARD);
        assert_eq!(
            case.count("SELECT COUNT(*) FROM experiment WHERE status = 'interrupted'"),
            1
        );
        assert_eq!(
            case.count("SELECT COUNT(*) FROM evaluation WHERE status IN ('timeout', 'crash')"),
            0
        );
        if sig == libc::SIGTERM {
            let r = case.tune(&[]);
            r.assert_code(0);
            assert_eq!(
                case.count("SELECT COUNT(*) FROM experiment WHERE status = 'done'"),
                1,
                "{}",
                r.dump()
            );
            assert_eq!(case.count("SELECT COUNT(*) FROM evaluation"), 4);
        }
    }
    let case = Case::new("axpy_faults.c");
    let mut child = case
        .tune_command(&["--timeout", "3600s"])
        .env("ORCL_TEST_FAULT", "hang:WI=16")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    case.wait_for(&mut child, "SELECT COUNT(*) FROM experiment");
    // Wait for the event (a process started from the case's directory), not for a while.
    let start = Instant::now();
    while processes_under(case.dir.path()).is_empty() {
        assert!(start.elapsed() < HANG_GUARD, "no worker running");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_no_processes_left(case.dir.path(), HANG_GUARD);
}

/// The axpy_faults input with `extra` added to its build section.
fn with_build(case: &Case, extra: &str) {
    let text = std::fs::read_to_string(&case.input).unwrap();
    let text = text.replace(
        "arg build_command = 'cc -O2';",
        &format!("arg build_command = 'cc -O2'; {extra}"),
    );
    std::fs::write(&case.input, text).unwrap();
}

/// F7, F14: a hanging prebuild command is killed (with its process group) at --build-timeout:
/// exit 3 naming the timeout, no shell or sleep left, no scratch file left in the cache.
#[test]
fn build_steps_time_out_and_leave_nothing() {
    let case = Case::new("axpy_faults.c");
    let marker = case.dir.path().join("marker");
    with_build(
        &case,
        &format!(
            "arg prebuild_command = 'sleep 300 & sleep 301; touch {}';",
            marker.display()
        ),
    );
    let r = case.tune(&["--build-timeout", "2s"]);
    r.assert_code(3);
    assert!(r.stderr.contains("timed out after 2 s"), "{}", r.dump());
    // Far below the 300 s of the hanging command: it was cut at the build timeout.
    assert!(r.elapsed < Duration::from_secs(250), "{}", r.dump());
    assert_no_processes_left(case.dir.path(), HANG_GUARD);
    let left: Vec<String> = std::fs::read_dir(case.cache())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "kernels")
        .collect();
    assert!(left.is_empty(), "scratch files left in the cache: {left:?}");
    // A compile error leaves nothing either.
    let case = Case::new("axpy_faults.c");
    let text = std::fs::read_to_string(&case.input).unwrap().replace(
        "'cc -O2'",
        "'cc -O2 -DORCL_BREAK -include /nonexistent/x.h'",
    );
    std::fs::write(&case.input, text).unwrap();
    let r = case.tune(&[]);
    r.assert_code(3);
    let left: Vec<String> = std::fs::read_dir(case.cache())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "kernels")
        .collect();
    assert!(left.is_empty(), "scratch files left in the cache: {left:?}");
}

/// F5: a cache directory others may write to, or a tampered cached skeleton, is never used: the
/// first is refused (exit 3), the second is rebuilt instead of run.
#[test]
fn skeleton_cache_is_verified() {
    use std::os::unix::fs::PermissionsExt;
    let case = Case::new("axpy_faults.c");
    std::fs::create_dir(case.cache()).unwrap();
    std::fs::set_permissions(case.cache(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let r = case.tune(&[]);
    r.assert_code(3);
    assert!(
        r.stderr.contains("refusing the skeleton cache"),
        "{}",
        r.dump()
    );
    std::fs::set_permissions(case.cache(), std::fs::Permissions::from_mode(0o700)).unwrap();
    case.tune(&[]).assert_code(0);
    let exe = std::fs::read_dir(case.cache())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.extension().is_none()
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("skeleton-"))
        })
        .expect("a cached skeleton");
    let pwned = case.dir.path().join("PWNED");
    std::fs::write(
        &exe,
        format!("#!/bin/sh\ntouch {}\nexit 1\n", pwned.display()),
    )
    .unwrap();
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o700)).unwrap();
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", case.db.display()));
    }
    let r = case.tune(&[]);
    r.assert_code(0);
    assert!(!pwned.exists(), "the planted skeleton was run");
    assert!(r.stderr.contains("rebuilding"), "{}", r.dump());
}

/// F12, F15, F17: exit codes name the real cause; control characters of the input never reach
/// the terminal; `--repetitions 0` is an error.
#[test]
fn exit_codes_and_escaped_diagnostics() {
    let case = Case::new("axpy_faults.c");
    let r = run(
        case.orcl(&["tune", case.input.to_str().unwrap(), "--repetitions", "0"]),
        HANG_GUARD,
    );
    r.assert_code(2);
    assert!(r.stderr.contains("--repetitions"), "{}", r.dump());
    // A database in a directory that does not exist: an environment failure, not "no variant".
    let r = run(
        case.orcl(&[
            "tune",
            case.input.to_str().unwrap(),
            "--db",
            "/nonexistent/dir/t.db",
        ]),
        HANG_GUARD,
    );
    r.assert_code(3);
    assert!(r.stderr.contains("database"), "{}", r.dump());
    assert!(!r.stderr.contains("no correct variant"), "{}", r.dump());
    let garbage = case.dir.path().join("garbage.db");
    std::fs::write(&garbage, vec![b'x'; 4096]).unwrap();
    let r = run(
        case.orcl(&["db", "--db", garbage.to_str().unwrap(), "list"]),
        HANG_GUARD,
    );
    // Not an orcl database: a wrong --db, exit 2 (issue 25 G17's table).
    r.assert_code(2);
    assert_no_panic(&r);
    // An OSC sequence (retitles the terminal) and a bell in a parameter name.
    let evil = case.dir.path().join("evil.c");
    let text = std::fs::read_to_string(&case.input)
        .unwrap()
        .replace("param UI[]", "param U\u{1b}]0;PWNED\u{7}I[]");
    std::fs::write(&evil, text).unwrap();
    let r = run(case.orcl(&["check", evil.to_str().unwrap()]), HANG_GUARD);
    r.assert_code(2);
    assert!(r.stderr.contains("evil.c:"), "{}", r.dump());
    assert!(
        !r.stderr.contains('\u{1b}') && !r.stderr.contains('\u{7}'),
        "{:?}",
        r.stderr
    );
}

/// F19: a read-only open (`orcl db query`) while another process is creating the schema waits
/// for it instead of failing with "schema version 0 is older".
#[test]
fn read_only_open_waits_for_a_half_created_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    // An empty SQLite file, as another process has it just before it writes the schema.
    Connection::open(&path)
        .unwrap()
        .execute_batch("PRAGMA user_version = 0; CREATE TABLE x(y); DROP TABLE x;")
        .unwrap();
    let p2 = path.clone();
    let creator = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        orcl::db::Db::open(&p2).unwrap();
    });
    let db = orcl::db::Db::open_read_only(&path);
    creator.join().unwrap();
    assert_eq!(
        db.expect("waited for the schema").schema_version().unwrap(),
        orcl::db::SCHEMA_VERSION
    );
    // A file with no schema at all still fails, after the bounded wait.
    let other = dir.path().join("empty.db");
    Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE x(y);")
        .unwrap();
    let start = Instant::now();
    assert!(orcl::db::Db::open_read_only(&other).is_err());
    assert!(start.elapsed() < orcl::db::HALF_CREATED_WAIT + Duration::from_secs(60));
}

/// F11 at the library level: a write after the file was replaced fails with `FileGone`.
#[test]
fn replaced_database_file_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let db = orcl::db::Db::open(&path).unwrap();
    db.check_file().unwrap();
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, b"").unwrap();
    let e = db.check_file().unwrap_err();
    assert!(matches!(e, orcl::db::DbError::FileGone(_)), "{e}");
    assert!(db.finish_experiment(1, "done").is_err());
}

// ---------------------------------------------------------------------------------------------
// Front-end limits (F1, F13, F16): generated inputs, `orcl check` only (no device needed).
// ---------------------------------------------------------------------------------------------

/// `tests/inputs/ok/axpy_faults.c` with `edit` applied, checked by `orcl check` in a temp dir.
/// Returns the run and the file's text.
fn check_generated(edit: impl Fn(&str) -> String) -> (Run, String) {
    let case = Case::new("axpy_faults.c");
    let text = edit(&std::fs::read_to_string(&case.input).unwrap());
    let file = case.dir.path().join("gen.c");
    std::fs::write(&file, &text).unwrap();
    let r = run(case.orcl(&["check", file.to_str().unwrap()]), HANG_GUARD);
    (r, text)
}

/// The 1-based line of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not in the text"));
    text[..at].matches('\n').count() + 1
}

/// Exit 2, no panic or abort, and an error located in `gen.c` at `line` whose message has `what`.
fn assert_located(r: &Run, line: usize, what: &str) {
    assert_no_panic(r);
    r.assert_code(2);
    assert!(
        r.stderr.contains(&format!("gen.c:{line}:")),
        "expected an error at gen.c:{line}\n{}",
        r.dump()
    );
    assert!(r.stderr.contains(what), "expected `{what}`\n{}", r.dump());
}

const AXPY_BODY: &str = "        y[i] += a*x[i];\n    ) @*/";

/// The loop body of the Loop annotation replaced by `body`.
fn with_body(text: &str, body: &str) -> String {
    assert!(text.contains(AXPY_BODY));
    text.replacen(AXPY_BODY, &format!("{body}\n    ) @*/"), 1)
}

/// F1: ~4,500 levels of nesting overflowed the stack (SIGABRT, exit 134). Now nesting deeper
/// than 256 levels in the loop, or than the spec language's limits, is a located error (exit 2),
/// nesting just under the limit still checks, and deep nesting in the C code outside the
/// annotations (which orcl only scans) is fine.
#[test]
fn deep_nesting_is_a_located_error() {
    const DEEP: usize = 20_000;
    let too_deep = "nests too deeply";
    let n = DEEP;
    let loops: Vec<(&str, String)> = vec![
        (
            "parentheses",
            format!("        y[i] += {}a*x[i]{};", "(".repeat(n), ")".repeat(n)),
        ),
        (
            "blocks",
            format!("        {}y[i] += a*x[i];{}", "{".repeat(n), "}".repeat(n)),
        ),
        (
            "a long sum",
            format!("        y[i] += {}a*x[i];", "a+".repeat(n)),
        ),
        (
            "unary minus",
            format!("        y[i] += {}a;", "- ".repeat(n)),
        ),
        (
            "nested for",
            format!(
                "{}        y[i] += a*x[i];",
                (0..n)
                    .map(|k| format!("for (j{k}=0; j{k}<1; j{k}++) "))
                    .collect::<String>()
            ),
        ),
    ];
    for (what, body) in &loops {
        let (r, text) = check_generated(|t| with_body(t, body));
        let line = line_of(&text, body.trim_start());
        assert_located(&r, line, too_deep);
        assert!(r.stderr.contains("256"), "{what}: {}", r.dump());
    }
    // Just under the limit: parentheses and blocks 200 deep check.
    for body in [
        format!(
            "        y[i] += {}a*x[i]{};",
            "(".repeat(200),
            ")".repeat(200)
        ),
        format!(
            "        {}y[i] += a*x[i];{}",
            "{".repeat(200),
            "}".repeat(200)
        ),
    ] {
        let (r, _) = check_generated(|t| with_body(t, &body));
        assert_no_panic(&r);
        r.assert_code(0);
    }
    // A spec expression: parentheses, lists, unary minus, a long sum.
    for values in [
        format!("[{}1{}, 2]", "(".repeat(n), ")".repeat(n)),
        format!("{}1{}", "[".repeat(n), "]".repeat(n)),
        format!("[{}1, 2]", "-".repeat(n)),
        format!("[{}1, 2]", "1+".repeat(n)),
    ] {
        let (r, text) = check_generated(|t| {
            t.replace("param UI[] = [1, 2];", &format!("param UI[] = {values};"))
        });
        assert_located(&r, line_of(&text, "param UI"), "nested");
    }
    // Lists nested deeper and deeper by a chain of `let` bindings.
    let (r, text) = check_generated(|t| {
        let lets: String = (0..DEEP)
            .map(|k| format!("let L{} = [L{k}];\n", k + 1))
            .collect();
        t.replace(
            "def performance_params {",
            &format!("let L0 = [1];\n{lets}def performance_params {{"),
        )
    });
    assert_located(&r, line_of(&text, "let L64 ="), "nests lists");
    // Deep nesting in C code outside the annotations: orcl only looks for comments there.
    let (r, _) = check_generated(|t| {
        format!(
            "{t}\nint deep = {}1{};\nvoid g(void) {}{}\n",
            "(".repeat(100_000),
            ")".repeat(100_000),
            "{".repeat(100_000),
            "}".repeat(100_000)
        )
    });
    assert_no_panic(&r);
    r.assert_code(0);
}

/// The axpy_faults input with its two tuning parameters replaced by `params` (spec statements).
fn with_params(case: &Case, params: &str) {
    let text = std::fs::read_to_string(&case.input).unwrap();
    let text = text.replace(
        "param WI[] = [16, 64];\n            param UI[] = [1, 2];",
        params,
    );
    assert!(text.contains(params));
    std::fs::write(&case.input, text).unwrap();
}

fn metadata(case: &Case, key: &str) -> Option<String> {
    let c = Connection::open(&case.db).unwrap();
    c.query_row(
        "SELECT value FROM experiment_metadata WHERE key = ?1",
        [key],
        |r| r.get(0),
    )
    .ok()
}

/// F8: every proposal counts. An unsatisfiable constraint over a space too large to enumerate
/// (2 × 2 × 1000 × 1000 × 50 = 2·10^8) stops after --max-idle proposals (default 10^6) with
/// "no feasible configuration found in the first N proposals", exit 1, and writes no row per
/// rejected configuration (it used to run forever, writing a `constraint` row each); `check`
/// warns about it, and rejects an unsatisfiable space it can enumerate (exit 2, located).
#[test]
fn unsatisfiable_space_stops_with_no_feasible_configuration() {
    let case = Case::new("axpy_faults.c");
    with_params(
        &case,
        "param WI[] = [16, 64];\n            param UI[] = [1, 2];\n            \
         param A[] = range(0, 1000);\n            param B[] = range(0, 1000);\n            \
         param C[] = range(0, 50);\n            constraint never = (A + B + C < 0);",
    );
    let t = case.tune(&["--total-runs", "5"]);
    assert_no_panic(&t);
    t.assert_code(1);
    assert!(
        t.stderr
            .contains("error: no feasible configuration found in the first 1000000 proposals"),
        "{}",
        t.dump()
    );
    // It stopped: `tune` ran within HANG_GUARD (a speed check would fail on a loaded machine).
    assert_eq!(case.count("SELECT count(*) FROM evaluation"), 0);
    assert_eq!(
        metadata(&case, "constraint_rejected").as_deref(),
        Some("1000000")
    );
    assert_eq!(
        case.count("SELECT count(*) FROM experiment WHERE status = 'failed'"),
        1
    );
    assert!(!case.tuned().exists());
    // `orcl db list` counts the rejections it did not store.
    let list = run(
        case.orcl(&["db", "--db", case.db.to_str().unwrap(), "list", "--json"]),
        HANG_GUARD,
    );
    list.assert_code(0);
    let rows: serde_json::Value = serde_json::from_str(&list.stdout).unwrap();
    assert_eq!(rows[0]["constraint"], 1_000_000, "{}", list.stdout);
    // A lower --max-idle stops sooner, with the figure in the message.
    let r = case.tune(&["--max-idle", "0"]);
    r.assert_code(2);
    assert!(r.stderr.contains("invalid --max-idle 0"), "{}", r.dump());
    let t = case.tune(&["--max-idle", "1000", "--search", "Random"]);
    t.assert_code(1);
    assert!(
        t.stderr
            .contains("no feasible configuration found in the first 1000 proposals"),
        "{}",
        t.dump()
    );
    // `check` cannot enumerate 2·10^8 configurations: a located warning, exit 0.
    let c = run(
        case.orcl(&["check", case.input.to_str().unwrap()]),
        HANG_GUARD,
    );
    c.assert_code(0);
    assert!(
        c.stderr.contains("warning: ")
            && c.stderr.contains("axpy_faults.c:11:13:")
            && c.stderr.contains("satisfies the constraints"),
        "{}",
        c.dump()
    );

    // An enumerable unsatisfiable space is an input error of `check` and `tune`: exit 2.
    let small = Case::new("axpy_faults.c");
    with_params(
        &small,
        "param WI[] = [16, 64];\n            param UI[] = [1, 2];\n            \
         constraint never = (WI * UI < 0);",
    );
    for args in [&["check"][..], &["tune", "--db", "t.db"][..]] {
        let mut cmd = small.orcl(args);
        cmd.arg(&small.input);
        let r = run(cmd, HANG_GUARD);
        r.assert_code(2);
        assert!(
            r.stderr.contains(
                "error: no configuration satisfies the constraints (4 configurations, all rejected)"
            ) && r.stderr.contains("axpy_faults.c:8:13"),
            "{}",
            r.dump()
        );
    }
}

/// F8: rejected configurations are counted, not stored, and a search over a huge space whose
/// proposals are mostly identical kernels is bounded: 2·10^12 configurations where only `WI`
/// changes the kernel (`P`, `Q`, `R`, `S` change nothing) measures one variant, then stops
/// after --max-idle identical ones (it used to run through the space) and still writes the
/// tuned file. (It ran with `--total-runs 5` until issue 25 G8 made the budget count every row,
/// identical kernels included: 5 rows now end the search first.)
#[test]
fn rejections_are_counted_and_idle_proposals_bound_the_search() {
    let case = Case::new("axpy_faults.c");
    with_params(
        &case,
        "param WI[] = [16, 64];\n            param UI[] = [1, 2];\n            \
         constraint small = (WI * UI < 100);",
    );
    let t = case.tune(&[]);
    t.assert_code(0);
    assert_eq!(case.count("SELECT count(*) FROM evaluation"), 3);
    assert_eq!(
        case.count("SELECT count(*) FROM evaluation WHERE status = 'constraint'"),
        0
    );
    assert_eq!(metadata(&case, "constraint_rejected").as_deref(), Some("1"));
    assert!(
        t.stdout.contains("1 more rejected by constraints") && t.stdout.contains("constraint: 1"),
        "{}",
        t.dump()
    );
    // A resumed run recounts the same rejection and stores nothing new.
    let again = case.tune(&[]);
    again.assert_code(0);
    assert_eq!(case.count("SELECT count(*) FROM evaluation"), 3);
    assert_eq!(metadata(&case, "constraint_rejected").as_deref(), Some("1"));

    let huge = Case::new("axpy_faults.c");
    with_params(
        &huge,
        "param WI[] = [16, 64];\n            param UI[] = [1, 2];\n            \
         param P[] = range(0, 1000);\n            param Q[] = range(0, 1000);\n            \
         param R[] = range(0, 1000);\n            param S[] = range(0, 500);",
    );
    let t = huge.tune(&["--max-idle", "2000"]);
    assert_no_panic(&t);
    t.assert_code(0);
    assert!(
        t.stdout
            .contains("the search stopped after 2000 proposals in a row that measured nothing new"),
        "{}",
        t.dump()
    );
    assert!(huge.dir.path().join("_axpy_faults.c").exists());
    assert!(metadata(&huge, "stopped").is_some());
    assert_eq!(metadata(&huge, "proposals").as_deref(), Some("2001"));
}

/// F10: an input value the C variable it initialises cannot hold is a located error (exit 2)
/// instead of being truncated by the skeleton's cast (`N = 2147483648` with `decl int n = N`
/// was tuned as a different size than reported); an input size whose arrays cannot fit the
/// device's buffers / global memory or the host's memory is refused with the figures (exit 2)
/// before anything is built or allocated (it used to allocate 6 × 16 GiB).
#[test]
fn input_values_fit_their_c_type_and_the_memory() {
    let case = Case::new("axpy_faults.c");
    let text = std::fs::read_to_string(&case.input).unwrap();
    std::fs::write(
        &case.input,
        text.replace("param N[] = [1000];", "param N[] = [1000, 2147483648];"),
    )
    .unwrap();
    for args in [&["check"][..], &["tune", "--db", "t.db"][..]] {
        let mut cmd = case.orcl(args);
        cmd.arg(&case.input);
        let r = run(cmd, HANG_GUARD);
        assert_no_panic(&r);
        r.assert_code(2);
        assert!(
            r.stderr.contains(
                "error: `n` is declared `int`, but its value 2147483648 at input size N=2147483648 is outside the range of `int` (-2147483648 to 2147483647)"
            ) && r.stderr.contains("axpy_faults.c:12:26"),
            "{}",
            r.dump()
        );
    }
    assert!(!case.db.exists(), "nothing tuned");

    // `long n` holds 2^36, but two arrays of 2^36 doubles (512 GiB each) fit no device and no
    // host here: refused with the figures, before the skeleton is built and before the
    // smaller size N = 1000 is tuned.
    let big = Case::new("axpy_faults.c");
    let text = std::fs::read_to_string(&big.input).unwrap();
    let text = text
        .replace("param N[] = [1000];", "param N[] = [1000, 68719476736];")
        .replace("decl int n = N;", "decl long n = N;")
        .replace("void VecAXPY(int n,", "void VecAXPY(long n,")
        .replace("    int i;", "    long i;");
    std::fs::write(&big.input, text).unwrap();
    let r = big.tune(&[]);
    assert_no_panic(&r);
    r.assert_code(2);
    assert!(
        r.stderr
            .contains("error: at input size N=68719476736 the arrays do not fit on `")
            && r.stderr.contains("`x` alone needs a buffer of 512.0 GiB")
            && r.stderr
                .contains("the host copies (3 per array) need 3072.0 GiB")
            && r.stderr.contains("axpy_faults.c:14:13"),
        "{}",
        r.dump()
    );
    assert_eq!(big.count("SELECT count(*) FROM experiment"), 0);
    let built: Vec<_> = std::fs::read_dir(big.cache())
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(
        !built
            .iter()
            .any(|n| n.to_string_lossy().starts_with("skeleton-")),
        "{built:?}"
    );
}

/// F13: input size cap and linear front end. `orcl check /dev/zero` grew without bound; now
/// every command reads at most `--max-input-size` bytes (default 16 MiB) and says so (exit 2).
/// A parameter of 10^6 values (its `check` table was quadratic), 20,000 `let`s (quadratic name
/// lookups), an unterminated comment in a large file (quadratic re-lexing by tree-sitter) and a
/// file with 10^4 errors (each rendered from the file's start) are all handled in bounded time;
/// the timings are in docs/RELIABILITY.md.
#[test]
fn input_size_is_capped_and_the_front_end_is_linear() {
    let case = Case::new("axpy_faults.c");
    for args in [
        vec!["check", "/dev/zero"],
        vec!["emit", "/dev/zero"],
        vec!["tune", "/dev/zero", "--max-input-size", "1000"],
        vec!["compare", "/dev/zero", "--max-input-size", "1000"],
    ] {
        let r = run(case.orcl(&args), HANG_GUARD);
        assert_no_panic(&r);
        r.assert_code(2);
        assert!(r.stderr.contains("--max-input-size"), "{}", r.dump());
    }
    let r = run(case.orcl(&["check", "/dev/zero"]), HANG_GUARD);
    assert!(r.stderr.contains("16777216 bytes"), "{}", r.dump());
    let input = case.input.to_str().unwrap();
    let size = std::fs::metadata(&case.input).unwrap().len();
    let small = (size - 1).to_string();
    let r = run(
        case.orcl(&["check", input, "--max-input-size", &small]),
        HANG_GUARD,
    );
    r.assert_code(2);
    assert!(r.stderr.contains(&format!("{small} bytes")), "{}", r.dump());
    let r = run(
        case.orcl(&["check", input, "--max-input-size", &size.to_string()]),
        HANG_GUARD,
    );
    r.assert_code(0);

    // A parameter of 10^5 values (the most since issue 25 G6): its row of the table is
    // elided, the count is exact.
    let (r, _) =
        check_generated(|t| t.replace("param UI[] = [1, 2];", "param UI[] = range(1, 100001);"));
    r.assert_code(0);
    assert!(r.stdout.contains("100000"), "{}", r.dump());
    assert!(r.stdout.contains("..., 99999, 100000"), "{}", r.dump());
    // 20,000 `let` bindings.
    let (r, _) = check_generated(|t| {
        let lets: String = (0..20_000).map(|k| format!("let L{k} = {k};\n")).collect();
        t.replace(
            "def performance_params {",
            &format!("{lets}def performance_params {{"),
        )
    });
    r.assert_code(0);
    // An unterminated comment, then 400 KB of code.
    let (r, text) =
        check_generated(|t| format!("{t}\n/* never closed\n{}", "int a; ".repeat(60_000)));
    assert_located(&r, line_of(&text, "/* never"), "unterminated comment");
    // 100 two-dimensional arrays after 1 MB of declarations: the file is parsed once for their
    // declarators, not once per array (41 s for 2.6 MB before).
    let (r, _) = check_generated(|_| {
        const K: usize = 100;
        let params: Vec<String> = (0..K).map(|k| format!("double A{k}[n][n]")).collect();
        let decls: String = (0..K)
            .map(|k| format!("decl static double A{k}[N][N] = random;\n"))
            .collect();
        let sum: Vec<String> = (0..K).map(|k| format!("A{k}[i][0]")).collect();
        let lp = format!(
            "for (i=0; i<=n-1; i++)\n        y[i] = {};",
            sum.join(" + ")
        );
        let filler: String = (0..60_000).map(|k| format!("int filler{k};\n")).collect();
        format!(
            "{filler}void f(int n, double *y, {}) {{\n    int i;\n    /*@ begin PerfTuning(\n        def performance_params {{ param WI[] = [16, 64]; }}\n        def input_params {{ param N[] = [8]; }}\n        def input_vars {{\n decl int n = N;\n decl static double y[N] = random;\n{decls} }}\n    ) @*/\n    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)\n    {lp}\n    ) @*/\n    {lp}\n    /*@ end @*/\n    /*@ end @*/\n}}\n",
            params.join(", ")
        )
    });
    r.assert_code(0);
    // 10^4 malformed annotations: 20 errors are shown, the rest counted.
    let (r, _) = check_generated(|t| format!("{t}\n{}", "/*@ bogus @*/\n".repeat(10_000)));
    assert_no_panic(&r);
    r.assert_code(2);
    assert!(r.stderr.contains("and 9980 more errors"), "{}", r.dump());
    assert_eq!(
        r.stderr.matches("unknown annotation keyword").count(),
        20,
        "{}",
        r.dump()
    );
}

/// SIGTERM while the skeleton builds (before the experiment exists) is an interruption, exit
/// 143, nothing recorded; it used to exit 3 as if the build had failed (found by
/// tests/faults.sh). The build's process group goes with it.
#[test]
fn sigterm_during_the_skeleton_build_exits_143() {
    let case = Case::new("axpy_faults.c");
    // A duration of its own, so that no other test's process matches.
    with_build(&case, "arg prebuild_command = 'sleep 347';");
    let sleeping = || {
        processes_under(Path::new("sleep 347"))
            .iter()
            .any(|p| !p.contains("prebuild_command"))
    };
    let mut child = case
        .tune_command(&[])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !sleeping() {
        if start.elapsed() > HANG_GUARD {
            let _ = child.kill();
            panic!("no prebuild seen");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    signal(&child, libc::SIGTERM);
    let status = wait_exit(&mut child, HANG_GUARD);
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(143), "{err}");
    assert!(
        err.contains("interrupted by SIGTERM before anything was measured (building the timing skeleton); nothing recorded"),
        "{err}"
    );
    assert_no_processes_left(case.dir.path(), HANG_GUARD);
    let start = Instant::now();
    while sleeping() {
        assert!(start.elapsed() < HANG_GUARD, "the prebuild's sleep is left");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// F16: invalid C constants in the loop were accepted (`18446744073709551616` became a double,
/// `x[i%0]` and `/0` reached the kernel, `1e309` became `inf`) while the spec language rejected
/// the same literals. Both now reject them with the same message, located at the literal.
#[test]
fn invalid_constants_are_rejected_in_the_loop_as_in_the_spec() {
    let cases = [
        (
            "        y[i] += a*x[i] + 18446744073709551616;",
            "18446744073709551616",
            "does not fit in 64 bits",
        ),
        ("        y[i] += a*x[i%0];", "0]", "modulo by zero"),
        ("        y[i] += a*x[i]/0;", "0;", "division by zero"),
        ("        y[i] /= (0.0);", "0.0", "division by zero"),
        ("        y[i] += 1e309*x[i];", "1e309", "out of range"),
        ("        y[i] += 1e39f*x[i];", "1e39f", "out of range"),
        ("        y[i] += 09*x[i];", "09", "invalid number literal"),
    ];
    for (body, at, what) in cases {
        let (r, text) = check_generated(|t| with_body(t, body));
        let line = line_of(&text, body.trim_start());
        assert_located(&r, line, what);
        // The column is the literal's.
        let col = body.find(at).unwrap() + 1;
        assert!(
            r.stderr.contains(&format!("gen.c:{line}:{col}")),
            "{body}: expected column {col}\n{}",
            r.dump()
        );
    }
    // The loop's lower bound.
    let (r, text) = check_generated(|t| {
        t.replacen(
            "for (i=0; i<=n-1; i++)\n        y[i] += a*x[i];\n    ) @*/",
            "for (i=18446744073709551616; i<=n-1; i++)\n        y[i] += a*x[i];\n    ) @*/",
            1,
        )
    });
    assert_located(
        &r,
        line_of(&text, "i=18446744073709551616"),
        "does not fit in 64 bits",
    );
    // The same literals in the spec: the same messages.
    for (value, what) in [
        ("18446744073709551616", "does not fit in 64 bits"),
        ("1e309", "out of range"),
        ("1 % 0", "modulo by zero"),
        ("1 / 0", "division by zero"),
    ] {
        let (r, text) = check_generated(|t| {
            t.replace(
                "param UI[] = [1, 2];",
                &format!("param UI[] = [1, {value}];"),
            )
        });
        assert_located(&r, line_of(&text, "param UI"), what);
    }
    // Valid literals still check: the largest integer, a large double, hex, octal, suffixes.
    let (r, _) = check_generated(|t| {
        with_body(
            t,
            "        y[i] += 1.5e300*x[i]/2.0 + 0x7fffffffffffffff + 9223372036854775807L + 017 + 2.5f;",
        )
    });
    assert_no_panic(&r);
    r.assert_code(0);
}
