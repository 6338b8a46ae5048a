//! Issue 25, round three (docs/RELIABILITY.md, "Issue 25, round three: security and faults"):
//! the commands a file runs are listed and announced and `libs` never reaches a shell (G9),
//! another program's SQLite file is refused untouched (G10), hook grandchildren die with orcl
//! (G4), SIGTERM always marks the experiment interrupted (G12), a file-size limit is an
//! environment error (G11), one table of exit codes (G17), read-only databases (G15) and
//! escaped build options (G14).
//!
//! Every tune runs `tests/inputs/ok/axpy_faults.c` (4 configurations, N = 1000) on the local
//! OpenCL device (PoCL in CI), in its own temp dir with its own database and cache.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use tempfile::TempDir;

mod common;
use common::{run, Run};

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// A temp dir holding `axpy.c`: tests/inputs/ok/axpy_faults.c with `build` replacing the
/// build section's `arg build_command = 'cc -O2';`.
struct Case {
    dir: TempDir,
}

impl Case {
    fn new(build: &str) -> Case {
        let dir = tempfile::Builder::new()
            .prefix("orcl-r3-")
            .tempdir()
            .unwrap();
        let src = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/ok/axpy_faults.c"),
        )
        .unwrap();
        let old = "arg build_command = 'cc -O2';";
        assert!(src.contains(old));
        std::fs::write(dir.path().join("axpy.c"), src.replace(old, build)).unwrap();
        Case { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn orcl(&self, args: &[&str]) -> Command {
        let mut c = Command::new(ORCL);
        c.args(args)
            .current_dir(self.dir.path())
            .env("ORCL_CACHE_DIR", self.path("cache"))
            .env_remove("ORCL_TEST_FAULT");
        c
    }

    fn run(&self, args: &[&str]) -> Run {
        run(self.orcl(args), Duration::from_secs(180))
    }
}

/// G9: `check` lists every command the file makes `tune` run, `tune` prints each before it
/// first runs it, and `libs` is split into words that never reach a shell (`$(..)` and
/// backquotes used to run).
#[test]
fn commands_are_listed_announced_and_libs_never_reach_a_shell() {
    let probe = tempfile::tempdir().unwrap();
    let planted = |n: &str| probe.path().join(n);
    let build = format!(
        "arg build_command = 'cc -O2'; arg prebuild_command = 'echo pre > {}'; arg postbuild_command = 'true'; arg libs = '-lm $(touch {}) `touch {}`';",
        planted("pre").display(),
        planted("dollar").display(),
        planted("backquote").display()
    );
    let c = Case::new(&build);
    let check = c.run(&["check", "axpy.c"]);
    check.assert_code(0);
    for what in [
        "prebuild_command (sh -c): echo pre > ",
        "build_command (sh -c): cc -O2 -o SKELETON SKELETON.c -lm '$(touch'",
        "postbuild_command (sh -c): true",
        "libs (words for the compiler, no shell): -lm '$(touch'",
    ] {
        assert!(
            check.stdout.contains(what),
            "no `{what}`:\n{}",
            check.dump()
        );
    }
    let json = c.run(&["check", "--json", "axpy.c"]);
    json.assert_code(0);
    assert!(
        json.stdout
            .contains("\"setting\": \"prebuild_command (sh -c)\""),
        "{}",
        json.dump()
    );
    assert!(!planted("pre").exists(), "check ran the prebuild command");
    let tune = c.run(&["tune", "axpy.c", "--db", "t.db"]);
    // `$(touch` is no file the linker knows: the skeleton does not build.
    tune.assert_code(3);
    // Each command once (the compile may be tried with `-fopenmp` first); the post-build
    // command never runs after a failed compile.
    let announced: Vec<&str> = tune
        .stderr
        .lines()
        .filter(|l| l.starts_with("running "))
        .collect();
    let distinct: std::collections::HashSet<&&str> = announced.iter().collect();
    assert_eq!(distinct.len(), announced.len(), "{}", tune.dump());
    for (which, want) in [("prebuild", 1..=1), ("build", 1..=2), ("postbuild", 0..=0)] {
        let n = announced
            .iter()
            .filter(|l| l.starts_with(&format!("running {which}_command: ")))
            .count();
        assert!(
            want.contains(&n),
            "`running {which}_command`:\n{}",
            tune.dump()
        );
    }
    assert!(planted("pre").exists(), "the prebuild command did not run");
    for n in ["dollar", "backquote"] {
        assert!(
            !planted(n).exists(),
            "`libs` ran a command through a shell ({n})\n{}",
            tune.dump()
        );
    }
}

/// G10: `--db` on another program's SQLite file (tables, no orcl `meta` table) is refused with
/// exit 2 by `tune`, `db list` and `db import`, and the file stays byte-identical (orcl used to
/// add its tables and switch it to WAL for good). An empty file is still a new database.
#[test]
fn another_programs_sqlite_file_is_refused_untouched() {
    let c = Case::new("arg build_command = 'cc -O2';");
    let foreign = c.path("places.sqlite");
    {
        let conn = rusqlite::Connection::open(&foreign).unwrap();
        conn.execute_batch(
            "CREATE TABLE moz_places(id INTEGER PRIMARY KEY, url TEXT);
             INSERT INTO moz_places(url) VALUES ('https://example.org/');",
        )
        .unwrap();
    }
    let before = std::fs::read(&foreign).unwrap();
    let export = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/formats/kernel-tuner-cache-example.json")
        .display()
        .to_string();
    for args in [
        &["tune", "axpy.c", "--db", "places.sqlite"][..],
        &["db", "list", "--db", "places.sqlite"],
        &["db", "import", &export, "--db", "places.sqlite"],
    ] {
        let r = c.run(args);
        r.assert_code(2);
        assert!(
            r.stderr
                .contains("places.sqlite is an SQLite database of another program"),
            "{args:?}\n{}",
            r.dump()
        );
        assert!(
            std::fs::read(&foreign).unwrap() == before,
            "{args:?} changed the file"
        );
        for side in ["places.sqlite-wal", "places.sqlite-shm", "_axpy.c"] {
            assert!(!c.path(side).exists(), "{args:?} left {side}");
        }
    }
    // An empty file is a new database.
    std::fs::write(c.path("empty.db"), "").unwrap();
    c.run(&["tune", "axpy.c", "--db", "empty.db"])
        .assert_code(0);
}

/// Wait (bounded) until `path` exists; false past `limit`.
fn wait_for_file(path: &Path, limit: Duration) -> bool {
    let start = std::time::Instant::now();
    while !path.exists() {
        if start.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

/// Whether process `pid` is gone (no /proc entry, or a zombie), polled up to `limit`.
fn gone_within(pid: u32, limit: Duration) -> bool {
    let start = std::time::Instant::now();
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"));
        // The state follows the command name in parentheses: `pid (comm) S ...`.
        let dead = stat.map_or(true, |s| {
            s.rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X']))
        });
        if dead {
            return true;
        }
        if start.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// G4: a pre-build hook's backgrounded grandchild dies with orcl, even after `kill -9` of orcl
/// mid-hook (it used to keep running under PID 1) — also one that left the hook's process group
/// and session (`setsid`, with or without a double fork), which the group kill missed.
/// Synchronised on the grandchild writing its own pid; its end is polled in /proc, bounded.
#[test]
fn hook_grandchildren_die_with_orcl() {
    for shape in ["background", "setsid", "setsid double fork"] {
        for signal in [libc::SIGKILL, libc::SIGTERM] {
            let probe = tempfile::tempdir().unwrap();
            let pidfile = probe.path().join("grandchild");
            let script = grandchild_script(probe.path(), &pidfile);
            let hook = match shape {
                "background" => format!("sh {script} & wait"),
                "setsid" => format!("setsid sh {script} & wait"),
                _ => format!("(setsid sh {script} &); sleep 1000"),
            };
            let build = format!("arg build_command = 'cc -O2'; arg prebuild_command = '{hook}';");
            let c = Case::new(&build);
            let mut orcl = c
                .orcl(&["tune", "axpy.c", "--db", "t.db"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let grandchild = read_pid(&pidfile);
            let left = grandchild.map(|g| session_of(g) == Some(g));
            unsafe { libc::kill(orcl.id() as i32, signal) };
            let status = orcl.wait().unwrap();
            let grandchild = grandchild.expect("the hook's grandchild never wrote its pid");
            let ok = gone_within(grandchild, Duration::from_secs(10));
            if !ok {
                unsafe { libc::kill(grandchild as i32, libc::SIGKILL) };
            }
            assert!(
                ok,
                "{shape}, signal {signal}: the hook's grandchild {grandchild} outlived orcl ({status:?})"
            );
            assert_eq!(
                left,
                Some(shape != "background"),
                "{shape}: the grandchild's own session"
            );
        }
    }
}

/// G4: a hook that ends leaving a `setsid` descendant behind: the descendant is ended with the
/// hook's step (it used to outlive the tune, and held the step's output pipe open), and the tune
/// goes on to finish.
#[test]
fn a_hooks_setsid_descendant_ends_with_the_hook() {
    let probe = tempfile::tempdir().unwrap();
    let pidfile = probe.path().join("grandchild");
    let script = grandchild_script(probe.path(), &pidfile);
    // The hook ends once the grandchild has written its pid (else the supervisor may end the
    // grandchild before it ever runs).
    let build = format!(
        "arg build_command = 'cc -O2'; arg prebuild_command = 'setsid sh {script} & while ! test -e {p}; do sleep 0.05; done';",
        p = pidfile.display()
    );
    let c = Case::new(&build);
    let mut orcl = c
        .orcl(&["tune", "axpy.c", "--db", "t.db", "--total-runs", "2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let grandchild = read_pid(&pidfile).expect("the hook's grandchild never wrote its pid");
    let ok = gone_within(grandchild, Duration::from_secs(60));
    if !ok {
        unsafe { libc::kill(grandchild as i32, libc::SIGKILL) };
    }
    let status = orcl.wait().unwrap();
    assert!(
        ok,
        "the hook's setsid grandchild {grandchild} outlived the hook"
    );
    assert!(status.success(), "the tune: {status:?}");
}

/// A script that writes its pid to `pidfile` (atomically) and becomes `sleep 1000`.
fn grandchild_script(dir: &Path, pidfile: &Path) -> String {
    let script = dir.join("grandchild.sh");
    std::fs::write(
        &script,
        format!(
            "echo $$ > {p}.tmp && mv {p}.tmp {p}\nexec sleep 1000\n",
            p = pidfile.display()
        ),
    )
    .unwrap();
    script.display().to_string()
}

/// The pid written to `pidfile`, waited for (bounded).
fn read_pid(pidfile: &Path) -> Option<u32> {
    wait_for_file(pidfile, Duration::from_secs(120));
    std::fs::read_to_string(pidfile)
        .ok()?
        .trim()
        .parse()
        .ok()
        .filter(|&p| p > 1)
}

/// The session id of process `pid` (`/proc/PID/stat`: `pid (comm) state ppid pgrp session`).
fn session_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(3)?
        .parse()
        .ok()
}

/// Wait (bounded) until `sql` on the database `db` counts at least one row.
fn wait_for_row(db: &Path, sql: &str, orcl: &mut std::process::Child) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < Duration::from_secs(120) {
        if orcl.try_wait().unwrap().is_some() {
            return false;
        }
        let n =
            rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
                .and_then(|c| c.query_row(sql, [], |r| r.get::<_, i64>(0)));
        if n.is_ok_and(|n| n > 0) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// G12: SIGTERM as `timeout(1)` sends it — to orcl, then to its whole process group (orcl, its
/// timing worker, its build shells), so orcl may see two — always ends with exit 143, a message
/// naming SIGTERM, and the experiment (where one exists) marked `interrupted` with no crash or
/// timeout recorded for the variant in flight. The signal lands at three points, each reached
/// by an event: a pre-build hook running, a variant hanging in the worker, after the first row.
#[test]
fn sigterm_to_orcl_and_its_group_always_interrupts_cleanly() {
    let probe = tempfile::tempdir().unwrap();
    let marker = probe.path().join("prebuild-running");
    let hook = format!(
        "arg build_command = 'cc -O2'; arg prebuild_command = 'touch {}; sleep 30';",
        marker.display()
    );
    for round in 0..3 {
        for point in ["prebuild", "hang", "first row"] {
            let build = if point == "prebuild" {
                hook.as_str()
            } else {
                "arg build_command = 'cc -O2';"
            };
            let _ = std::fs::remove_file(&marker);
            let c = Case::new(build);
            let log = c.path("stderr.txt");
            let fault = if point == "hang" {
                "hang:WI=16"
            } else {
                "hang:WI=64"
            };
            let mut cmd = c.orcl(&["tune", "axpy.c", "--db", "t.db", "--timeout", "60s"]);
            {
                use std::os::unix::process::CommandExt;
                cmd.process_group(0);
            }
            let mut orcl = cmd
                .env("ORCL_TEST_FAULT", fault)
                .stdout(std::process::Stdio::null())
                .stderr(std::fs::File::create(&log).unwrap())
                .spawn()
                .unwrap();
            let db = c.path("t.db");
            let reached = match point {
                "prebuild" => wait_for_file(&marker, Duration::from_secs(120)),
                "hang" => wait_for_row(&db, "SELECT COUNT(*) FROM experiment", &mut orcl),
                _ => wait_for_row(&db, "SELECT COUNT(*) FROM evaluation", &mut orcl),
            };
            let pid = orcl.id() as i32;
            unsafe {
                libc::kill(pid, libc::SIGTERM);
                libc::kill(-pid, libc::SIGTERM);
            }
            let status = orcl.wait().unwrap();
            let err = std::fs::read_to_string(&log).unwrap_or_default();
            let at = format!("round {round}, {point}: {status:?}\n{err}");
            assert!(reached, "never reached: {at}");
            assert_eq!(status.code(), Some(143), "{at}");
            assert!(err.contains("SIGTERM"), "no message: {at}");
            if point != "prebuild" {
                let conn = rusqlite::Connection::open(&db).unwrap();
                let count = |sql: &str| conn.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
                assert_eq!(
                    count("SELECT COUNT(*) FROM experiment WHERE status = 'interrupted'"),
                    1,
                    "{at}"
                );
                assert_eq!(
                    count("SELECT COUNT(*) FROM evaluation WHERE status IN ('crash', 'timeout')"),
                    0,
                    "{at}"
                );
            }
        }
    }
}

/// G11: under a file-size limit (`ulimit -f`), `orcl devices` and `orcl tune` exit 3 with a
/// message naming the limit, whichever write hits it first (the database: SQLite's I/O error;
/// PoCL's kernel cache: LLVM calls exit(1) inside orcl). They used to die of SIGXFSZ
/// (`devices`) or exit 1, the code of "no correct variant", with nothing said. Each limit runs
/// with an empty PoCL cache, so the OpenCL compiler writes.
#[test]
fn a_file_size_limit_is_an_environment_failure_naming_the_limit() {
    for blocks in [16u64, 256] {
        let c = Case::new("arg build_command = 'cc -O2';");
        let pocl = c.path("pocl-cache");
        std::fs::create_dir(&pocl).unwrap();
        for args in [&["devices"][..], &["tune", "axpy.c", "--db", "t.db"]] {
            let mut cmd = c.orcl(args);
            cmd.env("POCL_CACHE_DIR", &pocl);
            {
                use std::os::unix::process::CommandExt;
                let bytes = blocks * 1024;
                // SAFETY: setrlimit is async-signal-safe.
                unsafe {
                    cmd.pre_exec(move || {
                        let r = libc::rlimit {
                            rlim_cur: bytes,
                            rlim_max: bytes,
                        };
                        libc::setrlimit(libc::RLIMIT_FSIZE, &r);
                        Ok(())
                    });
                }
            }
            let r = run(cmd, Duration::from_secs(180));
            if args[0] == "devices" && r.code() == Some(0) {
                continue; // PoCL wrote nothing past the limit.
            }
            r.assert_code(3);
            assert!(
                r.stderr
                    .contains(&format!("the file-size limit is {} bytes", blocks * 1024)),
                "{args:?} under ulimit -f {blocks}\n{}",
                r.dump()
            );
        }
    }
}

/// G17: one table of causes → exit codes (docs/RELIABILITY.md, "Exit codes"), each row run:
/// a `--db` file that is not an orcl database is a wrong argument (2) whether it is garbage,
/// another program's SQLite file or a newer orcl's; standard output that cannot be written
/// (`> /dev/full`) is a file-system failure (3) for `emit` (was 1) and `check` (was 0); a build
/// command that writes no binary is a failed build (3, said so; was "cannot write the skeleton").
#[test]
fn exit_codes_follow_the_table() {
    let c = Case::new("arg build_command = 'cc -O2';");
    std::fs::write(c.path("garbage.db"), vec![b'x'; 4096]).unwrap();
    {
        let conn = rusqlite::Connection::open(c.path("future.db")).unwrap();
        conn.execute_batch(
            "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
             INSERT INTO meta VALUES ('schema_version', '99');",
        )
        .unwrap();
        let conn = rusqlite::Connection::open(c.path("other.db")).unwrap();
        conn.execute_batch("CREATE TABLE t(x);").unwrap();
    }
    let src = std::fs::read_to_string(c.path("axpy.c")).unwrap();
    std::fs::write(
        c.path("true.c"),
        src.replace(
            "arg build_command = 'cc -O2';",
            "arg build_command = 'true';",
        ),
    )
    .unwrap();
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full");
    // (cause, arguments, standard output to /dev/full, exit code, in the message)
    let table: &[(&str, &[&str], bool, i32, &str)] = &[
        (
            "garbage --db",
            &["db", "list", "--db", "garbage.db"],
            false,
            2,
            "not a database",
        ),
        (
            "garbage --db (tune)",
            &["tune", "axpy.c", "--db", "garbage.db"],
            false,
            2,
            "not a database",
        ),
        (
            "newer schema",
            &["db", "list", "--db", "future.db"],
            false,
            2,
            "newer",
        ),
        (
            "newer schema (tune)",
            &["tune", "axpy.c", "--db", "future.db"],
            false,
            2,
            "newer",
        ),
        (
            "another program's SQLite",
            &["db", "list", "--db", "other.db"],
            false,
            2,
            "another program",
        ),
        (
            "missing database directory",
            &["tune", "axpy.c", "--db", "no/such/t.db"],
            false,
            3,
            "database",
        ),
        (
            "emit > /dev/full",
            &["emit", "axpy.c"],
            true,
            3,
            "standard output",
        ),
        (
            "check > /dev/full",
            &["check", "axpy.c"],
            true,
            3,
            "standard output",
        ),
        (
            "build_command = 'true'",
            &["tune", "true.c", "--db", "t.db"],
            false,
            3,
            "wrote no binary",
        ),
    ];
    for (cause, args, to_full, code, says) in table {
        let mut cmd = c.orcl(args);
        if *to_full {
            match full() {
                Ok(f) => {
                    cmd.stdout(f);
                }
                Err(_) => continue, // no /dev/full here
            }
        }
        let r = if *to_full {
            let out = cmd.stderr(std::process::Stdio::piped()).output().unwrap();
            Run {
                stdout: String::new(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
                output: out,
                elapsed: Duration::ZERO,
            }
        } else {
            run(cmd, Duration::from_secs(180))
        };
        assert_eq!(r.code(), Some(*code), "{cause}\n{}", r.dump());
        assert!(
            r.stderr.contains(says),
            "{cause}: no `{says}`\n{}",
            r.dump()
        );
        assert!(!r.stderr.contains("panicked"), "{cause}\n{}", r.dump());
    }
}

/// G14: a `clFlags` value with a terminal escape and a bell is escaped in `emit`'s
/// `build options:` comment (ESC/BEL went raw to the terminal).
#[test]
fn build_options_are_escaped_in_emit() {
    let c = Case::new("arg build_command = 'cc -O2';");
    let value = "-DX=1 \u{1b}]0;PWNED\u{7} -DY";
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/ok/axpy_clflags.c"),
    )
    .unwrap()
    .replace("'-cl-no-such-flag'", &format!("'{value}'"));
    std::fs::write(c.path("flags.c"), src).unwrap();
    let set = format!("CL={value}");
    let r = c.run(&["emit", "flags.c", "--set", "WI=16", "--set", &set]);
    r.assert_code(0);
    let line = r
        .stdout
        .lines()
        .find(|l| l.contains("build options:"))
        .unwrap_or_else(|| panic!("no build options line\n{}", r.dump()));
    assert!(line.contains("-DX=1 \\u{1b}]0;PWNED\\u{7} -DY"), "{line}");
    assert!(
        !r.stdout.contains('\u{1b}') && !r.stdout.contains('\u{7}'),
        "{line:?}"
    );
}

/// G15: `db list` on a database whose write-ahead log was left beside it (a killed writer),
/// in a read-only directory, reads it — log included — where SQLite alone could not open it
/// ("unable to open database file"). As root the directory is a read-only bind mount in a
/// mount namespace (`unshare -m`); otherwise it is made 0555. Skipped with a message when
/// neither is possible.
#[test]
fn a_wal_database_in_a_read_only_directory_is_read() {
    let c = Case::new("arg build_command = 'cc -O2';");
    c.run(&["tune", "axpy.c", "--db", "t.db"]).assert_code(0);
    let ro = c.path("ro");
    std::fs::create_dir(&ro).unwrap();
    // A writer that ends without closing: its last change is only in the -wal file.
    let conn = rusqlite::Connection::open(c.path("t.db")).unwrap();
    conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
        .unwrap();
    conn.execute("UPDATE experiment SET status = 'failed'", [])
        .unwrap();
    std::fs::copy(c.path("t.db"), ro.join("t.db")).unwrap();
    std::fs::copy(c.path("t.db-wal"), ro.join("t.db-wal")).unwrap();
    drop(conn);
    let root = unsafe { libc::geteuid() } == 0;
    let r = if root {
        let script = format!(
            "mount --bind {d} {d} && mount -o remount,bind,ro {d} || exit 99; exec {ORCL} db list --db {d}/t.db",
            d = ro.display()
        );
        let mut cmd = Command::new("unshare");
        cmd.args(["-m", "sh", "-c", &script])
            .current_dir(c.path("."))
            .env("ORCL_CACHE_DIR", c.path("cache"));
        run(cmd, Duration::from_secs(60))
    } else {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
        let r = c.run(&["db", "list", "--db", "ro/t.db"]);
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
        r
    };
    if r.code() == Some(99) || (root && r.stderr.contains("unshare")) {
        eprintln!(
            "skipped: cannot make a read-only directory here\n{}",
            r.dump()
        );
        return;
    }
    r.assert_code(0);
    assert!(
        r.stdout.contains("failed"),
        "the -wal's change was not read\n{}",
        r.dump()
    );
    assert!(
        !ro.join("t.db-shm").exists(),
        "orcl wrote into the read-only directory"
    );
}

/// G1: the skeleton cache is the directory orcl opened. A pre-build hook (run after orcl opened
/// the cache, before it compiles) moves the cache directory away and makes a new one at its
/// path: the skeleton is still compiled into, installed in and run from the directory opened
/// (now under the other name), and nothing of it reaches the new directory (before, every
/// access went by path again, so the build landed in whatever the path named by then).
#[test]
fn the_cache_swapped_after_orcl_opened_it_is_not_used() {
    let probe = tempfile::tempdir().unwrap();
    let moved = probe.path().join("moved");
    let c0 = Case::new("arg build_command = 'cc -O2';");
    let cache = c0.path("cache");
    let hook = format!(
        "if test ! -e {m}; then mv {c} {m} && mkdir {c}; fi",
        m = moved.display(),
        c = cache.display()
    );
    let c = Case::new(&format!(
        "arg build_command = 'cc -O2'; arg prebuild_command = '{hook}';"
    ));
    // The case's own cache path is the one the hook swaps.
    let mut cmd = c.orcl(&["tune", "axpy.c", "--db", "t.db", "--total-runs", "2"]);
    cmd.env("ORCL_CACHE_DIR", &cache);
    let r = run(cmd, Duration::from_secs(600));
    r.assert_code(0);
    let names = |d: &Path| -> Vec<String> {
        std::fs::read_dir(d)
            .map(|rd| {
                rd.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.starts_with("skeleton-"))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (old, new) = (names(&moved), names(&cache));
    assert!(
        moved.exists() && new.is_empty(),
        "the hook did not swap the cache, or the build went to the new directory: {new:?}\n{}",
        r.dump()
    );
    assert!(
        old.iter().any(|n| !n.contains('.')) && old.iter().any(|n| n.ends_with(".sha256")),
        "no entry in the directory opened: {old:?}"
    );
}
