//! Issue 24: no deaf process. SIGTERM at every stage of a tune ends it with exit 143 within 2 s
//! of the signal, the experiment `interrupted` where it exists. Each stage is reached through
//! the test-only hook `ORCL_TEST_PAUSE=STAGE`, which prints `orcl: test pause at stage STAGE`
//! and blocks there for ever as a hung stage would (cuInit, NVRTC): the signal watchdog must end
//! it. The real work of a stage (measurements) is interrupted on the stage log's events
//! (`ORCL_LOG=debug`). Also: the stage log is off by default and on with `-v`, and the run's
//! timing summary is stored (metadata `stage_seconds`).
//!
//! Every tune runs `tests/inputs/ok/axpy_faults.c` (4 configurations) on the local OpenCL device
//! (PoCL in CI), in its own temp dir with its own database and cache.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use tempfile::TempDir;

mod common;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// The property under test: from the signal to the exit.
const BOUND: Duration = Duration::from_secs(2);

struct Case {
    dir: TempDir,
    input: PathBuf,
    db: PathBuf,
}

/// A running `orcl tune`: its stderr lines as they come, its exit when it comes.
struct Running {
    child: Child,
    lines: Receiver<String>,
    exited: Receiver<ExitStatus>,
    seen: Vec<String>,
}

impl Case {
    fn new() -> Case {
        let dir = tempfile::Builder::new()
            .prefix("orcl-stages-")
            .tempdir()
            .unwrap();
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/ok/axpy_faults.c");
        let input = dir.path().join("axpy_faults.c");
        std::fs::copy(&src, &input).unwrap();
        let db = dir.path().join("t.db");
        Case { dir, input, db }
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(ORCL);
        c.arg("tune")
            .arg(&self.input)
            .arg("--db")
            .arg(&self.db)
            .args(args)
            .current_dir(self.dir.path())
            .env("ORCL_CACHE_DIR", self.dir.path().join("cache"))
            .env_remove("ORCL_TEST_FAULT")
            .env_remove("ORCL_TEST_PAUSE")
            .env_remove("ORCL_LOG");
        c
    }

    fn start(&self, mut cmd: Command) -> Running {
        let mut child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let err = child.stderr.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(err).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let (done, exited) = channel();
        let pid = child.id();
        std::thread::spawn(move || {
            let mut status = 0;
            // SAFETY: waitpid on our own child; the `Child` is never waited on elsewhere.
            let r = unsafe { libc::waitpid(pid as libc::pid_t, &mut status, 0) };
            if r > 0 {
                use std::os::unix::process::ExitStatusExt;
                let _ = done.send(ExitStatus::from_raw(status));
            }
        });
        Running {
            child,
            lines,
            exited,
            seen: Vec::new(),
        }
    }

    fn statuses(&self) -> Vec<String> {
        if !self.db.exists() {
            return Vec::new();
        }
        let c = Connection::open(&self.db).unwrap();
        c.busy_timeout(Duration::from_secs(10)).unwrap();
        let mut s = c.prepare("SELECT status FROM experiment").unwrap();
        s.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }
}

impl Running {
    /// Waits for a stderr line containing `marker` (the run's own event; the 180 s only bounds a
    /// failing test). Panics with what was seen if the process ends first.
    fn wait_line(&mut self, marker: &str) {
        loop {
            match self.lines.recv_timeout(Duration::from_secs(180)) {
                Ok(l) => {
                    let hit = l.contains(marker);
                    self.seen.push(l);
                    if hit {
                        return;
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("no `{marker}` on stderr; seen:\n{}", self.seen.join("\n"));
                }
            }
        }
    }

    /// SIGTERM now; returns the exit status and the time from the signal to the exit.
    fn terminate(&mut self) -> (ExitStatus, Duration) {
        assert_eq!(
            unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) },
            0
        );
        let t0 = Instant::now();
        match self.exited.recv_timeout(Duration::from_secs(30)) {
            Ok(s) => (s, t0.elapsed()),
            Err(_) => {
                let _ = self.child.kill();
                panic!("orcl still running 30 s after SIGTERM (deaf process)");
            }
        }
    }

    /// Everything the run wrote to stderr, once it has exited: read to the end of the pipe (the
    /// reader thread's channel closes at EOF), so the last lines, written just before the exit,
    /// are never missed (a non-blocking read raced the reader thread: stop 35's CI). The 30 s
    /// only bounds a pipe that a leftover child holds open.
    fn rest(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        while let Ok(l) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.seen.push(l);
        }
        self.seen.join("\n")
    }
}

/// SIGTERM while the run is held at `stage`: exit 143 within [`BOUND`]; the experiment, where
/// it exists by then, `interrupted`; none left `running`.
fn sigterm_at(stage: &str, args: &[&str], experiment_exists: bool) {
    let case = Case::new();
    let mut cmd = case.command(args);
    cmd.env("ORCL_TEST_PAUSE", stage);
    let mut run = case.start(cmd);
    run.wait_line(&format!("orcl: test pause at stage {stage}"));
    let (status, took) = run.terminate();
    let err = run.rest();
    assert_eq!(status.code(), Some(143), "{stage}: {status:?}\n{err}");
    assert!(took <= BOUND, "{stage}: exit {took:?} after SIGTERM\n{err}");
    let statuses = case.statuses();
    if experiment_exists {
        assert_eq!(statuses, ["interrupted"], "{stage}\n{err}");
        assert!(err.contains("marked `interrupted`"), "{stage}\n{err}");
    } else {
        assert!(statuses.is_empty(), "{stage}: {statuses:?}\n{err}");
    }
    assert!(err.contains(&format!("stage `{stage}`")), "{stage}\n{err}");
}

#[test]
fn sigterm_in_device_discovery() {
    sigterm_at("discovery", &[], false);
}

#[test]
fn sigterm_in_the_skeleton_build() {
    sigterm_at("skeleton", &[], false);
}

#[test]
fn sigterm_in_worker_start() {
    sigterm_at("workers", &[], true);
}

#[test]
fn sigterm_in_the_search() {
    sigterm_at("search", &[], true);
}

#[test]
fn sigterm_in_the_finalists() {
    sigterm_at("finalists", &[], true);
}

#[test]
fn sigterm_in_the_database_writes() {
    sigterm_at("database", &[], true);
}

/// A CUDA kernel build hung in NVRTC (a build-pool thread, which no flag reaches): the
/// watchdog ends the run. Needs a CUDA driver and NVRTC; skipped with a message otherwise.
#[test]
fn sigterm_in_a_cuda_build() {
    let present = ["libcuda.so.1", "libcuda.so"]
        .iter()
        .any(|l| unsafe { libloading::Library::new(l) }.is_ok());
    if !present {
        common::skip(
            "stages: SIGTERM in a CUDA build",
            "no CUDA driver (libcuda.so.1) on this machine",
        );
        return;
    }
    sigterm_at("cuda-build", &["--backend", "cuda", "--jobs", "2"], true);
}

/// SIGTERM in the middle of real measurements (no pause), synchronised on the stage log's
/// `evaluation recorded` event: the normal path stops at the next safe point.
#[test]
fn sigterm_while_measuring() {
    let case = Case::new();
    let mut cmd = case.command(&[]);
    cmd.env("ORCL_LOG", "orcl=debug");
    let mut run = case.start(cmd);
    run.wait_line("evaluation recorded");
    let (status, took) = run.terminate();
    let err = run.rest();
    // The run may have finished in between: then it wrote its file (exit 0, `done`).
    match status.code() {
        Some(143) => {
            assert!(took <= BOUND, "exit {took:?} after SIGTERM\n{err}");
            assert_eq!(case.statuses(), ["interrupted"], "{err}");
        }
        Some(0) => assert_eq!(case.statuses(), ["done"], "{err}"),
        other => panic!("exit {other:?}\n{err}"),
    }
}

/// No stage log by default (tests compare stderr); with `-v` every stage is logged with a
/// timestamp, in order; the timing summary is the experiment's `stage_seconds` metadata.
#[test]
fn stage_log_and_timing_summary() {
    let case = Case::new();
    let quiet = common::run(case.command(&[]), Duration::from_secs(180));
    quiet.assert_code(0);
    assert!(!quiet.stderr.contains("stage start"), "{}", quiet.dump());
    let case = Case::new();
    let loud = common::run(case.command(&["-v"]), Duration::from_secs(180));
    loud.assert_code(0);
    let order = [
        "discovery",
        "skeleton",
        "experiment",
        "workers",
        "search",
        "finalists",
        "database",
    ];
    let mut at = 0;
    for stage in order {
        let line = format!("stage start stage=\"{stage}\"");
        let found = loud.stderr[at..].find(&line);
        assert!(
            found.is_some(),
            "{line} not after byte {at}\n{}",
            loud.dump()
        );
        at += found.unwrap();
    }
    let first = loud.stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("20") && first.contains('T') && first.contains('Z'),
        "no timestamp: {first}"
    );
    assert!(loud.stderr.contains("kernel build") || loud.stderr.contains("measured"));
    let c = Connection::open(&case.db).unwrap();
    let v: String = c
        .query_row(
            "SELECT value FROM experiment_metadata WHERE key = 'stage_seconds'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let j: serde_json::Value = serde_json::from_str(&v).unwrap();
    for stage in order.iter().chain(&["total"]) {
        assert!(j[*stage].as_f64().is_some_and(|s| s >= 0.0), "{stage}: {v}");
    }
    let total = j["total"].as_f64().unwrap();
    let sum: f64 = order.iter().map(|s| j[*s].as_f64().unwrap()).sum();
    assert!(sum <= total + 0.01, "stages {sum} > total {total}: {v}");
}

/// A worker that cannot start (the test-only fault `ORCL_TEST_WORKER_FAILS`) ends the tune with
/// its message and exit 3, the experiment `failed` with the reason in its metadata (`failure`),
/// never left `running`.
#[test]
fn a_worker_that_cannot_start_fails_its_experiment() {
    let case = Case::new();
    let mut cmd = case.command(&[]);
    cmd.env("ORCL_TEST_WORKER_FAILS", "1");
    let r = common::run(cmd, Duration::from_secs(120));
    r.assert_code(3);
    assert!(r.stderr.contains("ORCL_TEST_WORKER_FAILS"), "{}", r.dump());
    assert_eq!(case.statuses(), vec!["failed".to_string()], "{}", r.dump());
    let c = Connection::open(&case.db).unwrap();
    let why: String = c
        .query_row(
            "SELECT value FROM experiment_metadata WHERE key = 'failure'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(why.contains("did not start"), "{why}");
}
