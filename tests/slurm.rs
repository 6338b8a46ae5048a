//! `orcl tune --slurm` (issue 14 step 4) against a real Slurm: the measuring workers are srun
//! steps (`orcl worker`), on PoCL's CPU devices (`POCL_DEVICES="pthread pthread"`).
//!
//! Needs a running Slurm whose node is up: `scripts/slurm-local.sh` (as root) installs and starts
//! a two-node one on this host (nodes n1 and n2, two slurmd: Slurm's multiple-slurmd mode), and
//! `.ci/run` calls it. The multi-node tests (node-local storage, the shared cache directory, a node
//! that cannot see the skeleton, a worker restarted on the other node) need two nodes: skipped
//! with a message on one, a failure under `CI`. Without `sinfo` the Slurm tests print why and pass,
//! unless `CI` is set: under CI a missing Slurm fails. The option and `orcl worker` checks, the
//! Orio-argument warnings and the local counterpart of the kill test need no Slurm.

mod common;

use common::{run, Run};
use rusqlite::Connection;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// 24 configurations (tests/inputs/ok/axpy_resume.c), all correct.
const CONFIGS: usize = 24;

/// Whether a Slurm with an up node is here. No `sinfo`: false (test skipped) unless `CI` is set,
/// then a failure; `sinfo` without an up node: a failure (a broken set-up is not a skip).
fn slurm_up() -> bool {
    let sinfo = Command::new("sinfo")
        .args(["-h", "-N", "-o", "%T"])
        .output();
    let Ok(out) = sinfo else {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        assert!(
            !ci,
            "CI is set but Slurm's `sinfo` is not on the PATH: .ci/run starts a single-node Slurm with scripts/slurm-local.sh"
        );
        let test = std::thread::current().name().unwrap_or("?").to_string();
        common::skip(
            &format!("tests/slurm.rs: {test}"),
            "no Slurm here (`sinfo` not found); `sudo scripts/slurm-local.sh` starts a single-node one",
        );
        return false;
    };
    let states = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success()
            && states.lines().any(|s| {
                // idle, mixed, allocated, completing, planned...: not down, drained or failed.
                !["down", "drain", "fail", "unk", "inval", "not_resp", "power"]
                    .iter()
                    .any(|bad| s.starts_with(bad))
            }),
        "Slurm is installed but no node is up (sinfo: `{}` {}); run scripts/slurm-local.sh as root",
        states.trim(),
        String::from_utf8_lossy(&out.stderr).trim()
    );
    true
}

fn input(dir: &Path, name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/inputs/ok")
        .join(name);
    let dst = dir.join(name);
    std::fs::copy(&src, &dst).unwrap_or_else(|e| panic!("copy {}: {e}", src.display()));
    dst
}

/// `orcl tune FILE --db DB -o OUT --slurm ARGS...` on two PoCL pthread devices; the skeleton
/// cache beside the database (this node's /tmp is the "shared filesystem").
fn tune_cmd(file: &Path, db: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(ORCL);
    c.arg("tune")
        .arg(file)
        .arg("--db")
        .arg(db)
        .arg("-o")
        .arg(db.with_extension("c"))
        .arg("--slurm")
        .args(args)
        .env("POCL_DEVICES", "pthread pthread")
        .env("ORCL_CACHE_DIR", cache(db))
        .env_remove("ORCL_TEST_FAULT");
    c
}

fn cache(db: &Path) -> PathBuf {
    db.parent().unwrap().join("cache")
}

/// (config_key, status, device_index, message) of every evaluation, in insertion order.
fn rows(db: &Path) -> Vec<(String, String, Option<i64>, Option<String>)> {
    let conn = Connection::open(db).unwrap();
    let mut st = conn
        .prepare("SELECT config_key, status, device_index, message FROM evaluation ORDER BY id")
        .unwrap();
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Every configuration stored exactly once.
fn assert_each_once(rs: &[(String, String, Option<i64>, Option<String>)]) {
    assert_eq!(rs.len(), CONFIGS, "{rs:#?}");
    let keys: HashSet<_> = rs.iter().map(|r| &r.0).collect();
    assert_eq!(keys.len(), CONFIGS, "a configuration stored twice: {rs:#?}");
}

/// `N measured, M from the database` of the result line.
fn measured_reused(r: &Run) -> (usize, usize) {
    let line = r
        .stdout
        .lines()
        .find(|l| l.contains(" measured, "))
        .unwrap_or_else(|| panic!("no result line\n{}", r.dump()));
    let num = |before: &str| -> usize {
        let head = &line[..line.find(before).unwrap()];
        head.rsplit(|c: char| !c.is_ascii_digit())
            .find(|w| !w.is_empty())
            .unwrap()
            .parse()
            .unwrap()
    };
    (num(" measured,"), num(" from the database"))
}

/// The experiment's `slurm_workers` metadata: (device, measured, steps) per worker.
fn slurm_workers(db: &Path) -> Vec<(i64, i64, Vec<String>)> {
    let json: String = Connection::open(db)
        .unwrap()
        .query_row(
            "SELECT value FROM experiment_metadata WHERE key = 'slurm_workers'",
            [],
            |r| r.get(0),
        )
        .expect("no slurm_workers metadata");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["device"].as_i64().unwrap(),
                w["measured"].as_i64().unwrap(),
                w["steps"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect()
}

/// An executable srun wrapper `dir/name` running the shell `body` (which ends by exec'ing or
/// piping into `srun "$@"`).
fn srun_wrapper(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Shell lines that count the wrapper's calls in `count` and run `then` from call `from` on.
fn from_call(count: &Path, from: u32, then: &str) -> String {
    format!(
        "n=$(cat '{c}' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '{c}'\n\
         if [ $n -ge {from} ]; then {then}; fi\n",
        c = count.display()
    )
}

/// Evaluation rows in `db` (0 when it cannot be read).
fn evaluations(db: &Path) -> i64 {
    Connection::open(db)
        .and_then(|c| c.query_row("SELECT count(*) FROM evaluation", [], |r| r.get(0)))
        .unwrap_or(0)
}

/// Steps of Slurm jobs named `orcl-worker.PID` (those of the controller `pid`) still known to
/// Slurm.
fn steps_of(pid: u32) -> Vec<String> {
    let out = Command::new("squeue")
        .args(["-h", "-s", "-o", "%i %j"])
        .output()
        .expect("squeue");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.ends_with(&format!(" orcl-worker.{pid}")))
        .map(|l| l.split(' ').next().unwrap_or_default().to_string())
        .collect()
}

/// Two Slurm workers share the space: every configuration is in the database exactly once,
/// correct, with its device; both workers measured; the steps ran through Slurm (metadata and
/// output name them); a re-run measures nothing.
#[test]
fn slurm_workers_measure_every_configuration_once() {
    if !slurm_up() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("slurm.db");
    let r = run(
        tune_cmd(&file, &db, &["--ntasks", "2"]),
        Duration::from_secs(240),
    );
    r.assert_code(0);
    let rs = rows(&db);
    assert_each_once(&rs);
    assert!(rs.iter().all(|r| r.1 == "ok" && r.2 == Some(0)), "{rs:#?}");
    assert_eq!(measured_reused(&r), (CONFIGS, 0), "{}", r.dump());
    let workers = slurm_workers(&db);
    assert_eq!(workers.len(), 2, "{workers:?}");
    assert!(
        workers.iter().all(|w| w.1 > 0 && w.0 == 0),
        "a worker measured nothing: {workers:?}"
    );
    assert_eq!(
        workers.iter().map(|w| w.1 as usize).sum::<usize>(),
        CONFIGS,
        "{workers:?}"
    );
    // Two different steps, each a Slurm job step (`step J.S on HOST`).
    let steps: HashSet<&String> = workers.iter().flat_map(|w| &w.2).collect();
    assert!(
        steps.len() >= 2 && steps.iter().all(|s| s.starts_with("step ")),
        "{workers:?}"
    );
    assert!(
        r.stdout
            .contains("measured per Slurm worker: worker 0 (device 0; step "),
        "{}",
        r.dump()
    );
    assert!(db.with_extension("c").is_file(), "no tuned file");

    let again = run(
        tune_cmd(&file, &db, &["--ntasks", "2"]),
        Duration::from_secs(240),
    );
    again.assert_code(0);
    assert_eq!(measured_reused(&again), (0, CONFIGS), "{}", again.dump());
    assert_eq!(rows(&db), rs, "the re-run changed the recorded rows");
}

/// Through srun go only short lines: each request (kernel source or program binary, several
/// KiB) is a file on the shared filesystem named by a `FILE ID PATH` line, since srun forwards
/// stdin in 1 KiB messages and a longer request waited about 40 ms per variant (TCP delayed
/// ACK). An srun wrapper (`--srun`) logs what the controller sends.
#[test]
fn requests_go_through_srun_as_short_lines() {
    if !slurm_up() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("lines.db");
    let log = dir.path().join("stdin.log");
    let wrapper = srun_wrapper(
        dir.path(),
        "srun-tee",
        &format!("tee -a '{}' | srun \"$@\"\n", log.display()),
    );
    let r = run(
        tune_cmd(&file, &db, &["--srun", wrapper.to_str().unwrap()]),
        Duration::from_secs(240),
    );
    r.assert_code(0);
    assert_each_once(&rows(&db));
    let sent = std::fs::read(&log).unwrap();
    let text = String::from_utf8(sent).expect("binary bytes went through srun");
    let files = text.lines().filter(|l| l.starts_with("FILE ")).count();
    assert!(files >= CONFIGS, "{files} requests as files:\n{text}");
    for l in text.lines() {
        assert!(
            l.len() < 1024 && (l == "QUIT" || (l.starts_with("FILE ") && l.ends_with(".req"))),
            "a line other than FILE/QUIT went through srun: {l}"
        );
    }
    let spool = cache(&db).join("requests");
    let left = std::fs::read_dir(&spool).map(|d| d.count()).unwrap_or(0);
    assert_eq!(left, 0, "request files left in {}", spool.display());
}

/// A worker crashes (test fault) and Slurm then refuses to start another (an srun wrapper fails
/// from its second call): the tune stops with exit 3 instead of recording the remaining
/// configurations as failures; the crashed one is recorded once. The same command with a working
/// srun resumes and measures exactly the configurations missing.
#[test]
fn a_worker_that_cannot_be_restarted_stops_the_tune_and_loses_nothing() {
    if !slurm_up() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("restart.db");
    let count = dir.path().join("calls");
    let refuse = "echo 'srun: error: Unable to allocate resources: test' >&2; exit 1";
    let wrapper = srun_wrapper(
        dir.path(),
        "srun-once",
        &format!("{}exec srun \"$@\"\n", from_call(&count, 2, refuse)),
    );
    let fault = "crash:WI=16,CB=True,UI=2";
    let mut c = tune_cmd(&file, &db, &["--srun", wrapper.to_str().unwrap()]);
    c.env("ORCL_TEST_FAULT", fault);
    let r = run(c, Duration::from_secs(240));
    r.assert_code(3);
    assert!(
        r.stderr.contains("Unable to allocate resources: test"),
        "{}",
        r.dump()
    );
    let before = rows(&db);
    assert!(before.len() < CONFIGS, "{before:#?}");
    let last = before.last().expect("nothing recorded");
    assert_eq!(
        (last.0.as_str(), last.1.as_str()),
        (r#"{"WI":16,"CB":true,"UI":2}"#, "crash"),
        "{before:#?}"
    );
    assert!(
        before[..before.len() - 1].iter().all(|r| r.1 == "ok"),
        "{before:#?}"
    );

    let mut c = tune_cmd(&file, &db, &[]);
    c.env("ORCL_TEST_FAULT", fault);
    let r = run(c, Duration::from_secs(240));
    r.assert_code(0);
    let after = rows(&db);
    assert_each_once(&after);
    assert_eq!(after[..before.len()], before[..], "recorded rows changed");
    assert_eq!(
        measured_reused(&r),
        (CONFIGS - before.len(), before.len()),
        "{}",
        r.dump()
    );
}

/// A skeleton process of this test (its executable under `cache`) and its Slurm step.
struct Skeleton {
    pid: u32,
    /// `J.S` of its Slurm step; empty for a local worker.
    step: String,
}

fn skeletons(cache: &Path) -> Vec<Skeleton> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in rd.flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        let argv0 =
            String::from_utf8_lossy(cmd.split(|&b| b == 0).next().unwrap_or_default()).into_owned();
        if !Path::new(&argv0).starts_with(cache) {
            continue;
        }
        let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        let var = |name: &str| {
            env.split(|&b| b == 0)
                .map(|kv| String::from_utf8_lossy(kv).into_owned())
                .find_map(|kv| kv.strip_prefix(&format!("{name}=")).map(str::to_string))
        };
        out.push(Skeleton {
            pid,
            step: match (var("SLURM_JOB_ID"), var("SLURM_STEP_ID")) {
                (Some(j), Some(s)) => format!("{j}.{s}"),
                _ => String::new(),
            },
        });
    }
    out
}

/// The hung skeleton of the tune `child` (its skeletons under `cache`, its stderr in `log`.err):
/// busy (at least 0.15 s of CPU in 1.5 s, on a loaded box) while the other skeleton is idle
/// (blocked reading its next request). Fails after 100 s or when the tune exits.
fn hung_skeleton(child: &mut std::process::Child, cache: &Path, log: &Path) -> Skeleton {
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            panic!(
                "orcl tune exited ({s}) before a worker was killed\n{}",
                std::fs::read_to_string(log.with_extension("err")).unwrap_or_default()
            );
        }
        assert!(
            start.elapsed() < Duration::from_secs(100),
            "no hung worker found"
        );
        let mut sk = skeletons(cache);
        let before: Vec<u64> = sk.iter().map(|s| cpu_ticks(s.pid)).collect();
        std::thread::sleep(Duration::from_millis(1500));
        let busy: Vec<(usize, u64)> = sk
            .iter()
            .zip(&before)
            .map(|(s, b)| cpu_ticks(s.pid).saturating_sub(*b))
            .enumerate()
            .collect();
        let hot: Vec<usize> = busy.iter().filter(|b| b.1 >= 15).map(|b| b.0).collect();
        let idle = busy.iter().filter(|b| b.1 <= 3).count();
        if sk.len() == 2 && hot.len() == 1 && idle == 1 {
            return sk.swap_remove(hot[0]);
        }
    }
}

/// The local counterpart of the Slurm kill test (no Slurm needed): under `--devices all` (two
/// PoCL devices, two local workers) one configuration hangs and the test kills its skeleton
/// (`kill -9`). The run completes, that configuration is one `crash` row (signal 9), the rest are
/// correct, and a resumed run measures nothing.
#[test]
fn a_killed_local_worker_loses_nothing_and_resume_measures_nothing_twice() {
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("local.db");
    let fault = "hang:WI=8,CB=True,UI=1";
    let local = |db: &Path| {
        let mut c = Command::new(ORCL);
        c.arg("tune")
            .arg(&file)
            .arg("--db")
            .arg(db)
            .arg("-o")
            .arg(db.with_extension("c"))
            .args(["--devices", "all", "--timeout", "120s"])
            .env("POCL_DEVICES", "pthread pthread")
            .env("ORCL_CACHE_DIR", cache(db))
            .env("ORCL_TEST_FAULT", fault);
        c
    };
    let log = dir.path().join("local.log");
    let mut child = local(&db)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&log).unwrap())
        .stderr(std::fs::File::create(log.with_extension("err")).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let hung = hung_skeleton(&mut child, &cache(&db), &log);
    assert!(hung.step.is_empty(), "a local worker in a Slurm step");
    unsafe {
        libc::kill(hung.pid as libc::pid_t, libc::SIGKILL);
    }
    let status = child.wait().unwrap();
    let err = std::fs::read_to_string(log.with_extension("err")).unwrap_or_default();
    assert!(status.success(), "{status}\n{err}");
    assert!(
        start.elapsed() < Duration::from_secs(110),
        "the hung variant ran into its timeout instead of being killed"
    );
    let rs = rows(&db);
    assert_each_once(&rs);
    let failed: Vec<_> = rs.iter().filter(|r| r.1 != "ok").collect();
    assert_eq!(failed.len(), 1, "{rs:#?}");
    assert_eq!(failed[0].0, r#"{"WI":8,"CB":true,"UI":1}"#, "{rs:#?}");
    assert_eq!(failed[0].1, "crash", "{rs:#?}");
    let msg = failed[0].3.as_deref().unwrap_or_default();
    assert!(msg.contains("signal 9"), "{msg}");
    let r = run(local(&db), Duration::from_secs(240));
    r.assert_code(0);
    assert_eq!(measured_reused(&r), (0, CONFIGS), "{}", r.dump());
    assert_eq!(rows(&db), rs, "the resumed run changed the recorded rows");
}

/// CPU time (clock ticks, user + system) of process `pid`; 0 when it is gone.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    let rest = stat.rsplit_once(')').map(|x| x.1).unwrap_or_default();
    let f: Vec<&str> = rest.split_whitespace().collect();
    let get = |i: usize| f.get(i).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
    get(11) + get(12)
}

/// One configuration hangs (test fault, 120 s timeout); while the other worker waits idle, the
/// test cancels the hung worker's step with `scancel` (Slurm kills it, srun exits). The run
/// completes: every configuration once, the killed one recorded as `crash` naming the Slurm
/// step, the rest correct, the killed worker replaced by a new step. A resumed run measures
/// nothing. Then the controller itself is killed (SIGKILL) mid-tune: its steps go away, and the
/// resumed run measures exactly the configurations missing.
#[test]
fn a_killed_slurm_worker_loses_nothing_and_resume_measures_nothing_twice() {
    if !slurm_up() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("killed.db");
    let fault = "hang:WI=8,CB=True,UI=1";
    let args = ["--ntasks", "2", "--timeout", "120s"];
    let log = dir.path().join("tune.log");
    let mut child = tune_cmd(&file, &db, &args)
        .env("ORCL_TEST_FAULT", fault)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&log).unwrap())
        .stderr(std::fs::File::create(log.with_extension("err")).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let killed = hung_skeleton(&mut child, &cache(&db), &log).step;
    assert!(
        !killed.is_empty(),
        "the hung skeleton is not in a Slurm step"
    );
    let st = Command::new("scancel").arg(&killed).status().unwrap();
    assert!(st.success(), "scancel {killed}: {st}");
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(200),
            "the tune did not finish after its worker was killed"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = std::fs::read_to_string(&log).unwrap_or_default();
    let err = std::fs::read_to_string(log.with_extension("err")).unwrap_or_default();
    assert!(
        status.success(),
        "{status}\n--- stdout\n{out}\n--- stderr\n{err}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(110),
        "the hung variant ran into its timeout instead of being killed"
    );
    let rs = rows(&db);
    assert_each_once(&rs);
    let crashed: Vec<_> = rs.iter().filter(|r| r.1 != "ok").collect();
    assert_eq!(crashed.len(), 1, "{rs:#?}");
    let (key, st, _, msg) = crashed[0];
    assert_eq!(key, r#"{"WI":8,"CB":true,"UI":1}"#, "{rs:#?}");
    assert_eq!(st, "crash", "{rs:#?}");
    let msg = msg.as_deref().unwrap_or_default();
    eprintln!("the killed configuration: {msg}");
    assert!(
        msg.contains(&format!("the Slurm worker, step {killed} on ")),
        "the crash does not name the cancelled step {killed}: {msg}"
    );
    // The worker was replaced: more steps than workers over the run.
    let workers = slurm_workers(&db);
    let steps: usize = workers.iter().map(|w| w.2.len()).sum();
    // Two steps at the start and one replacement: a worker restarted on a batch thread lives on
    // after the batch (it was killed with that thread before `interrupt::spawn_tied`, and
    // started once more).
    assert_eq!(steps, 3, "not one restart: {workers:?}");
    assert!(
        !workers
            .iter()
            .flat_map(|w| &w.2[1..])
            .any(|s| s.contains(&killed)),
        "{workers:?}"
    );

    // Resume: everything is recorded, nothing is measured (the hang is not run again).
    let mut again = tune_cmd(&file, &db, &args);
    again.env("ORCL_TEST_FAULT", fault);
    let r = run(again, Duration::from_secs(240));
    r.assert_code(0);
    assert_eq!(measured_reused(&r), (0, CONFIGS), "{}", r.dump());
    assert_eq!(rows(&db), rs, "the resumed run changed the recorded rows");

    // The controller killed mid-tune (kill -9): its worker steps end with it, and a resumed
    // run measures exactly what is missing.
    let db2 = dir.path().join("controller.db");
    let mut child = tune_cmd(&file, &db2, &["--ntasks", "2"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            panic!("orcl tune exited ({s}) before it was killed");
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "nothing recorded"
        );
        if evaluations(&db2) >= 1 {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = rows(&db2);
    assert!(
        before.len() < CONFIGS,
        "the tune finished before it was killed"
    );
    let gone = Instant::now();
    while !steps_of(pid).is_empty() {
        assert!(
            gone.elapsed() < Duration::from_secs(30),
            "worker steps outlived their controller: {:?}",
            steps_of(pid)
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let r = run(
        tune_cmd(&file, &db2, &["--ntasks", "2"]),
        Duration::from_secs(240),
    );
    r.assert_code(0);
    let after = rows(&db2);
    assert_each_once(&after);
    assert_eq!(after[..before.len()], before[..], "recorded rows changed");
    assert!(after.iter().all(|r| r.1 == "ok"), "{after:#?}");
    assert_eq!(
        measured_reused(&r),
        (CONFIGS - before.len(), before.len()),
        "{}",
        r.dump()
    );
}

/// Inside an allocation (`salloc --ntasks=2`, as in an sbatch script) `--slurm` alone starts
/// one worker per task of the allocation, and the two steps run side by side (`--exact`; without
/// it the second step would wait for the first, which lives as long as the tune).
#[test]
fn inside_an_allocation_the_workers_run_side_by_side() {
    if !slurm_up() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("alloc.db");
    let tune = tune_cmd(&file, &db, &[]);
    let mut c = Command::new("salloc");
    c.args(["--ntasks=2", "--quiet"])
        .arg(tune.get_program())
        .args(tune.get_args());
    for (k, v) in tune.get_envs() {
        match v {
            Some(v) => c.env(k, v),
            None => c.env_remove(k),
        };
    }
    let r = run(c, Duration::from_secs(240));
    r.assert_code(0);
    assert_each_once(&rows(&db));
    let workers = slurm_workers(&db);
    assert_eq!(workers.len(), 2, "{workers:?}");
    assert!(workers.iter().all(|w| w.1 > 0), "{workers:?}");
    // Two steps of one job: `step J.0 on HOST`, `step J.1 on HOST`.
    let job = |s: &str| s.split(['.', ' ']).nth(1).unwrap_or_default().to_string();
    let first = &workers[0].2[0];
    assert!(
        workers.iter().all(|w| job(&w.2[0]) == job(first)),
        "{workers:?}"
    );
}

/// Cancels the Slurm jobs named `name` when dropped (also when the test fails).
struct CancelOnDrop(String);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let _ = Command::new("scancel")
            .args(["--quiet", "--name", &self.0])
            .status();
    }
}

/// How many jobs named `name` are in one of the states `state` (`PD`, `R`, `PD,CF,R`).
fn jobs(name: &str, state: &str) -> usize {
    let out = Command::new("squeue")
        .args(["-h", "-t", state, "-n", name, "-o", "%i"])
        .output()
        .expect("squeue");
    String::from_utf8_lossy(&out.stdout).lines().count()
}

/// SIGTERM while the worker's job waits in the queue (the node is full): orcl stops at once
/// (exit 143, experiment marked interrupted, nothing measured) and the pending job is revoked,
/// not left to start later.
#[test]
fn sigterm_while_a_worker_is_queued_revokes_its_job() {
    if !slurm_up() {
        return;
    }
    // Every CPU of every node (two nodes in CI: scripts/slurm-local.sh).
    let cpus: usize = String::from_utf8_lossy(
        &Command::new("sinfo")
            .args(["-h", "-N", "-o", "%c"])
            .output()
            .unwrap()
            .stdout,
    )
    .lines()
    .map(|l| l.trim().parse::<usize>().expect("sinfo CPUs"))
    .sum();
    let hold = format!("orcl-test-hold.{}", std::process::id());
    let _cancel = CancelOnDrop(hold.clone());
    // A batch job holding every CPU of the node (no local process: scancel ends it).
    let st = Command::new("sbatch")
        .arg(format!("--ntasks={cpus}"))
        .arg(format!("--job-name={hold}"))
        .args(["--quiet", "--output=/dev/null", "--wrap", "sleep 200"])
        .status()
        .unwrap();
    assert!(st.success(), "sbatch: {st}");
    let start = Instant::now();
    while jobs(&hold, "R") == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the node never filled"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("queued.db");
    let mut child = tune_cmd(&file, &db, &[])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let worker = format!("orcl-worker.{}", child.id());
    while jobs(&worker, "PD") == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no pending worker job"
        );
        assert!(child.try_wait().unwrap().is_none(), "orcl tune exited");
        std::thread::sleep(Duration::from_millis(100));
    }
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let t = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "SIGTERM took {:?}",
        t.elapsed()
    );
    assert_eq!(
        out.status.code(),
        Some(143),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("marked `interrupted`"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        jobs(&worker, "PD,CF,R"),
        0,
        "the queued worker job was left behind"
    );
}

/// A worker whose node sees another device than the controller is refused before anything is
/// measured (exit 2): an srun wrapper (`--srun`) gives the steps PoCL's `basic` device.
#[test]
fn a_worker_on_another_device_kind_is_refused() {
    if !slurm_up() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("other.db");
    let wrapper = srun_wrapper(
        dir.path(),
        "srun-basic",
        "POCL_DEVICES=basic exec srun \"$@\"\n",
    );
    let r = run(
        tune_cmd(&file, &db, &["--srun", wrapper.to_str().unwrap()]),
        Duration::from_secs(120),
    );
    r.assert_code(2);
    assert!(
        r.stderr.contains("--slurm: the worker on step ")
            && r.stderr.contains("measures device `basic"),
        "{}",
        r.dump()
    );
    assert_eq!(evaluations(&db), 0);
}

/// With two workers, the second landing on a node with another device kind (an srun wrapper
/// gives only the second step PoCL's `basic` device) is refused too, before anything is measured
/// (exit 2): one experiment never mixes two device kinds.
#[test]
fn a_second_worker_on_another_device_kind_is_refused() {
    if !slurm_up() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("mixed.db");
    let count = dir.path().join("calls");
    let wrapper = srun_wrapper(
        dir.path(),
        "srun-mixed",
        &format!(
            "{}exec srun \"$@\"\n",
            from_call(&count, 2, "export POCL_DEVICES=basic")
        ),
    );
    let r = run(
        tune_cmd(
            &file,
            &db,
            &["--ntasks", "2", "--srun", wrapper.to_str().unwrap()],
        ),
        Duration::from_secs(120),
    );
    r.assert_code(2);
    assert!(
        r.stderr.contains("--slurm: the worker on step ")
            && r.stderr.contains("measures device `basic"),
        "{}",
        r.dump()
    );
    assert_eq!(evaluations(&db), 0);
}

/// A worker restarted after a crash on a node of another device kind (an srun wrapper gives the
/// steps after the first PoCL's `basic` device) is refused like a worker that cannot start: the
/// tune stops (exit 3) with the crash recorded once and nothing measured on the other device.
#[test]
fn a_restarted_worker_on_another_device_kind_is_refused() {
    if !slurm_up() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("restart-mixed.db");
    let count = dir.path().join("calls");
    let wrapper = srun_wrapper(
        dir.path(),
        "srun-then-basic",
        &format!(
            "{}exec srun \"$@\"\n",
            from_call(&count, 2, "export POCL_DEVICES=basic")
        ),
    );
    let mut c = tune_cmd(&file, &db, &["--srun", wrapper.to_str().unwrap()]);
    c.env("ORCL_TEST_FAULT", "crash:WI=16,CB=True,UI=2");
    let r = run(c, Duration::from_secs(240));
    r.assert_code(3);
    assert!(r.stderr.contains("sees device `basic"), "{}", r.dump());
    let rs = rows(&db);
    let last = rs.last().expect("nothing recorded");
    assert_eq!(
        (last.0.as_str(), last.1.as_str()),
        (r#"{"WI":16,"CB":true,"UI":2}"#, "crash"),
        "{rs:#?}"
    );
    assert!(rs[..rs.len() - 1].iter().all(|r| r.1 == "ok"), "{rs:#?}");
}

/// `--ntasks 1` with two `--devices` leaves the second device without a worker: a warning says so
/// (the run itself measures everything on the first).
#[test]
fn fewer_tasks_than_devices_warns() {
    if !slurm_up() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("fewer.db");
    let r = run(
        tune_cmd(&file, &db, &["--ntasks", "1", "--devices", "0,1"]),
        Duration::from_secs(240),
    );
    r.assert_code(0);
    assert!(
        r.stderr.contains(
            "warning: --slurm: --ntasks 1 leaves device(s) 1 of --devices without a worker"
        ),
        "{}",
        r.dump()
    );
    assert_each_once(&rows(&db));
}

/// Option errors need no Slurm: `--ntasks 0` and a sub-option without `--slurm` are usage
/// errors (exit 2), an srun that does not exist an environment error (exit 3) naming `--srun`.
#[test]
fn slurm_option_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("x.db");
    let base = |args: &[&str]| {
        let mut c = Command::new(ORCL);
        c.arg("tune").arg(&file).arg("--db").arg(&db).args(args);
        run(c, Duration::from_secs(60))
    };
    let r = base(&["--slurm", "--ntasks", "0", "--srun", "/bin/true"]);
    r.assert_code(2);
    assert!(r.stderr.contains("invalid --ntasks 0"), "{}", r.dump());
    let r = base(&["--ntasks", "2"]);
    r.assert_code(2);
    assert!(r.stderr.contains("--slurm"), "{}", r.dump());
    let r = base(&["--slurm", "--srun", "/nonexistent/srun"]);
    r.assert_code(3);
    assert!(
        r.stderr.contains("cannot find srun `/nonexistent/srun`")
            && r.stderr.contains("--srun PATH"),
        "{}",
        r.dump()
    );
    assert!(!db.exists(), "a database was created");
}

/// `orcl worker` on a node that cannot see the skeleton (no shared filesystem) says so in its
/// hello line, after the preamble, and exits 3.
#[test]
fn worker_without_the_skeleton_says_why() {
    let mut c = Command::new(ORCL);
    c.args([
        "worker",
        "--skeleton",
        "/nonexistent/skeleton",
        "--device",
        "0",
    ]);
    let r = run(c, Duration::from_secs(30));
    r.assert_code(3);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.dump());
    let pre: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert!(
        pre["orcl_worker"].is_string() && pre["host"].is_string(),
        "{}",
        lines[0]
    );
    let hello: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(hello["ready"], false);
    let why = hello["error"].as_str().unwrap();
    assert!(
        why.contains("/nonexistent/skeleton does not exist on node")
            && why.contains("ORCL_CACHE_DIR"),
        "{why}"
    );
}

/// Orio's cluster arguments (`batch_command`, `status_command`, `num_procs` in `def build`) are
/// accepted with one located warning each pointing to `--slurm`; no Slurm needed.
#[test]
fn orio_batch_arguments_warn_and_point_to_slurm() {
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let text = std::fs::read_to_string(&file).unwrap().replace(
        "def build { arg build_command = 'cc -O2'; }",
        "def build { arg build_command = 'cc -O2'; arg batch_command = 'sbatch -N 1';\n            arg status_command = 'squeue -h -j'; arg num_procs = 4; }",
    );
    assert!(text.contains("batch_command"), "the input changed");
    std::fs::write(&file, text).unwrap();
    let mut c = Command::new(ORCL);
    c.arg("check").arg(&file);
    let r = run(c, Duration::from_secs(60));
    r.assert_code(0);
    let name = file.display().to_string();
    for (at, arg) in [
        ("10:51", "batch_command"),
        ("11:13", "status_command"),
        ("11:50", "num_procs"),
    ] {
        assert!(
            r.stderr.contains(&format!(
                "warning: {name}:{at}: `{arg}` is not used: orcl measures on a cluster through Slurm, with `orcl tune --slurm`"
            )),
            "{}",
            r.dump()
        );
    }
}

/// The up nodes' names (`sinfo`), sorted; with fewer than two the multi-node tests are skipped
/// with a message (a failure under `CI`, whose Slurm has two: scripts/slurm-local.sh).
fn two_nodes() -> Option<(String, String)> {
    if !slurm_up() {
        return None;
    }
    let out = Command::new("sinfo")
        .args(["-h", "-N", "-t", "idle,mixed,allocated", "-o", "%N"])
        .output()
        .unwrap();
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    names.sort();
    names.dedup();
    if names.len() < 2 {
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        assert!(
            !ci,
            "CI's Slurm has one node up ({names:?}); scripts/slurm-local.sh starts two"
        );
        let test = std::thread::current().name().unwrap_or("?").to_string();
        common::skip(
            &format!("tests/slurm.rs: {test}"),
            "one Slurm node up; `sudo scripts/slurm-local.sh` starts two on this host",
        );
        return None;
    }
    Some((names[0].clone(), names[1].clone()))
}

/// An srun wrapper placing its K-th call on `nodes[K mod 2]` (`--nodelist`), one call after the
/// other (`flock`); on `hide_on`, the step's view of `hidden` is an empty tmpfs (a mount
/// namespace of its own), as a node whose `/tmp` is its own disk sees a path of the controller's
/// `/tmp`. Needs root (CI runs as root) for the mount namespace.
fn node_wrapper(dir: &Path, nodes: &(String, String), hide_on: Option<(&str, &Path)>) -> PathBuf {
    let count = dir.join("srun-calls");
    let hide = match hide_on {
        Some((node, path)) => format!(
            "if [ \"$node\" = '{node}' ]; then\n\
             exec srun $opts --nodelist=\"$node\" unshare -m sh -c 'mount -t tmpfs tmpfs \"$0\" && exec \"$@\"' '{}' \"$@\"\n\
             fi\n",
            path.display()
        ),
        None => String::new(),
    };
    srun_wrapper(
        dir,
        "srun-nodes",
        &format!(
            "exec 9>'{c}.lock'; flock 9\n\
             n=$(cat '{c}' 2>/dev/null || echo 0); echo $((n+1)) > '{c}'\n\
             if [ $((n % 2)) = 0 ]; then node='{a}'; else node='{b}'; fi\n\
             flock -u 9\n\
             opts=''\n\
             while [ $# -gt 0 ]; do case \"$1\" in --*) opts=\"$opts $1\"; shift;; *) break;; esac; done\n\
             {hide}exec srun $opts --nodelist=\"$node\" \"$@\"\n",
            c = count.display(),
            a = nodes.0,
            b = nodes.1,
        ),
    )
}

/// Two nodes and a cache directory both see (`ORCL_CACHE_DIR`, the shared filesystem): worker 0
/// on the first node, worker 1 on the second, every configuration measured once, the steps named
/// by their node.
#[test]
fn two_nodes_share_the_cache_directory() {
    let Some(nodes) = two_nodes() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("nodes.db");
    let srun = node_wrapper(dir.path(), &nodes, None);
    let mut c = tune_cmd(&file, &db, &["--ntasks", "2", "--srun"]);
    c.arg(&srun);
    let r = run(c, Duration::from_secs(240));
    r.assert_code(0);
    let rs = rows(&db);
    assert_each_once(&rs);
    assert!(rs.iter().all(|r| r.1 == "ok"), "{rs:#?}");
    let workers = slurm_workers(&db);
    assert_eq!(workers.len(), 2, "{workers:?}");
    let on = |node: &str| {
        workers
            .iter()
            .any(|w| w.2.iter().any(|s| s.ends_with(&format!(" on {node}"))))
    };
    assert!(
        on(&nodes.0) && on(&nodes.1),
        "not one worker per node: {workers:?}"
    );
    assert!(
        workers.iter().all(|w| w.1 > 0),
        "a node measured nothing: {workers:?}"
    );
}

/// A node whose view of the cache directory is its own (node-local `/tmp`): the worker there
/// cannot see the skeleton; the tune stops (exit 3) naming the node, the missing skeleton and
/// `ORCL_CACHE_DIR`, and leaves no worker job behind.
#[test]
fn a_node_that_cannot_see_the_skeleton_is_named() {
    let Some(nodes) = two_nodes() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("hidden.db");
    let srun = node_wrapper(dir.path(), &nodes, Some((&nodes.1, &cache(&db))));
    let mut c = tune_cmd(&file, &db, &["--ntasks", "2", "--srun"]);
    c.arg(&srun);
    let r = run(c, Duration::from_secs(240));
    r.assert_code(3);
    assert!(
        r.stderr.contains("does not exist on node ")
            && r.stderr.contains(&format!("on node {}", nodes.1))
            && r.stderr.contains("ORCL_CACHE_DIR"),
        "{}",
        r.dump()
    );
    assert_eq!(evaluations(&db), 0, "{}", r.dump());
}

/// A worker that crashes on the first node is restarted on the other one (the srun wrapper puts
/// the second step there) and the run goes on: every configuration once, the crash recorded
/// against the first node's step, the worker's steps on both nodes.
#[test]
fn a_worker_restarted_on_the_other_node() {
    let Some(nodes) = two_nodes() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_resume.c");
    let db = dir.path().join("moved.db");
    let srun = node_wrapper(dir.path(), &nodes, None);
    let mut c = tune_cmd(&file, &db, &["--ntasks", "1", "--srun"]);
    c.arg(&srun)
        .env("ORCL_TEST_FAULT", "crash:WI=8,CB=True,UI=1");
    let r = run(c, Duration::from_secs(240));
    r.assert_code(0);
    let rs = rows(&db);
    assert_each_once(&rs);
    let crashed: Vec<_> = rs.iter().filter(|r| r.1 != "ok").collect();
    assert_eq!(crashed.len(), 1, "{rs:#?}");
    assert_eq!(crashed[0].1, "crash", "{rs:#?}");
    let msg = crashed[0].3.as_deref().unwrap_or_default();
    assert!(msg.contains(&format!(" on {}", nodes.0)), "{msg}");
    let workers = slurm_workers(&db);
    assert_eq!(workers.len(), 1, "{workers:?}");
    let steps = &workers[0].2;
    assert!(
        steps.len() >= 2
            && steps[0].ends_with(&format!(" on {}", nodes.0))
            && steps[1].ends_with(&format!(" on {}", nodes.1)),
        "not restarted on the other node: {steps:?}"
    );
}
