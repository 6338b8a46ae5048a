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

/// `input(dir, "axpy_faults.c")` at another input size `n` (its 4 configurations).
fn axpy_at(dir: &Path, n: u64) -> PathBuf {
    let text = std::fs::read_to_string(input(dir, "axpy_faults.c")).unwrap();
    let file = dir.join(format!("axpy_{n}.c"));
    let text = text.replace("param N[] = [1000];", &format!("param N[] = [{n}];"));
    assert!(
        text.contains(&format!("[{n}]")),
        "the input size was not replaced"
    );
    std::fs::write(&file, text).unwrap();
    file
}

/// A metadata value of the only experiment of `db`.
fn metadata(db: &Path, key: &str) -> Option<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row(
        "SELECT value FROM experiment_metadata WHERE key = ?1",
        [key],
        |r| r.get(0),
    )
    .ok()
}

/// The run's host↔device traffic (`transfers` metadata, docs/DATABASE.md).
fn transfers(db: &Path) -> serde_json::Value {
    let t = metadata(db, "transfers").expect("no `transfers` metadata");
    serde_json::from_str(&t).unwrap()
}

/// At an input size where copies dominate (2^21 doubles: 16 MiB per array), the inputs are
/// uploaded once per worker and a variant moves only a few bytes: written arrays are reset on the
/// device and outputs compared there (before: 32 MiB in and 16 MiB out per variant).
#[test]
fn inputs_move_once_and_variants_move_a_few_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let n: u64 = 1 << 21;
    let file = axpy_at(dir.path(), n);
    let db = dir.path().join("t.db");
    let r = tune(&file, &db, &dir.path().join("cache"), &["--jobs", "0"]);
    r.assert_code(0);
    assert_each_once_ok(&db, 4);
    let t = transfers(&db);
    let array = n * 8;
    assert_eq!(t["validation"], "device", "{t}");
    assert_eq!(t["workers"], 1, "{t}");
    // x and y in, and the reference y for the comparison; y out once, to time the copies out.
    assert_eq!(t["setup_h2d_bytes"], 3 * array, "{t}");
    assert_eq!(t["setup_d2h_bytes"], array, "{t}");
    // 4 configurations and 2 finalists re-measured.
    let variants = t["variants"].as_u64().unwrap();
    assert!(variants >= 4, "{t}");
    assert_eq!(t["variant_h2d_bytes"], 0, "{t}");
    let d2h = t["variant_d2h_bytes"].as_u64().unwrap();
    assert!(
        d2h <= 16 * variants,
        "{d2h} bytes came back for {variants} variants (an output is {array} bytes): {t}"
    );
    // transfer_ms is the copies of one call, timed once: the same for every variant.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let distinct: i64 = conn
        .query_row(
            "SELECT count(DISTINCT transfer_ms) FROM evaluation",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(distinct, 1);
}

/// A deliberately wrong variant is caught by the comparison on the device, and the message names
/// the first mismatching element with the value the kernel wrote and the reference value.
#[test]
fn wrong_variant_is_caught_on_the_device_with_the_first_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_faults.c");
    let db = dir.path().join("t.db");
    let mut c = Command::new(ORCL);
    c.arg("tune")
        .arg(&file)
        .arg("--db")
        .arg(&db)
        .arg("-o")
        .arg(db.with_extension("c"))
        .env("ORCL_CACHE_DIR", dir.path().join("cache"))
        .env("ORCL_TEST_FAULT", "wrong:WI=16,UI=1");
    let r = run(c, Duration::from_secs(120));
    r.assert_code(0);
    assert_eq!(transfers(&db)["validation"], "device");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (status, message, max_error): (String, String, f64) = conn
        .query_row(
            "SELECT status, message, max_error FROM evaluation WHERE config_key = '{\"WI\":16,\"UI\":1}'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(status, "wrong_result", "{}", r.dump());
    // The fault adds 1 to y[i] for every i: the first mismatch is y[0].
    let rest = message
        .strip_prefix("y[0] = ")
        .unwrap_or_else(|| panic!("{message}"));
    let (got, rest) = rest.split_once(", expected ").expect(&message);
    let (want, rest) = rest.split_once(" (relative error ").expect(&message);
    let (err, tol) = rest.split_once(" > tolerance ").expect(&message);
    let (got, want, err): (f64, f64, f64) = (
        got.parse().unwrap(),
        want.parse().unwrap(),
        err.parse().unwrap(),
    );
    assert_eq!(tol, "1e-9)", "{message}");
    assert!((got - want - 1.0).abs() < 1e-12, "{message}");
    assert!((err - 1.0 / want.abs()).abs() < 1e-2 * err, "{message}");
    assert!(
        (max_error - 1.0 / want.abs()).abs() < 1e-3 * max_error,
        "{message} {max_error}"
    );
    for (key, status) in statuses(&db) {
        let want = if key == r#"{"WI":16,"UI":1}"# {
            "wrong_result"
        } else {
            "ok"
        };
        assert_eq!(status, want, "{key}");
    }
}

/// Run the timing skeleton `exe` (platform 0, device 0) on OpenCL kernels given as (source, build
/// options); returns the hello line and one reply per kernel, as JSON.
fn skeleton_replies(
    exe: &Path,
    kernels: &[(&str, &str)],
) -> (serde_json::Value, Vec<serde_json::Value>) {
    use std::io::{BufRead, BufReader, Write};
    let mut child = Command::new(exe)
        .args(["0", "0"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let hello: serde_json::Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    let mut replies = Vec::new();
    for (id, (src, opts)) in kernels.iter().enumerate() {
        write!(
            stdin,
            "RUN {id} 0 64 {} {} 0 1\n{src}{opts}",
            src.len(),
            opts.len()
        )
        .unwrap();
        stdin.flush().unwrap();
        // The `built` line comes first (issue 25 G18), then the reply.
        let reply = loop {
            let v: serde_json::Value =
                serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
            if v.get("built_ms").is_none() {
                break v;
            }
        };
        replies.push(reply);
    }
    writeln!(stdin, "QUIT").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    (hello, replies)
}

/// The comparison kernels find the first mismatch across work-groups (2^20 elements: 1024
/// work-groups of comparison), a NaN where a number is expected, and nothing in a correct kernel;
/// each answer reports the few bytes it moved.
#[test]
fn device_comparison_finds_the_first_mismatch_across_work_groups() {
    let dir = tempfile::tempdir().unwrap();
    let n: u64 = 1 << 20;
    let file = axpy_at(dir.path(), n);
    let db = dir.path().join("t.db");
    tune(&file, &db, &dir.path().join("cache"), &["--jobs", "0"]).assert_code(0);
    let exe = PathBuf::from(metadata(&db, "skeleton").unwrap());
    // The generated kernels' signature for this loop (arguments in order of first appearance).
    let kernel = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
        __kernel void orcl_kernel(const int n, __global double *y, const double a, __global const double *x) {\n\
            int i = get_global_id(0);\n\
            if (i < n) { y[i] += a * x[i]; if (i == BAD1 || i == BAD2) y[i] = BADV; }\n\
        }\n";
    let (hello, r) = skeleton_replies(
        &exe,
        &[
            (kernel, "-DBAD1=-1 -DBAD2=-1 -DBADV=0"),
            (kernel, "-DBAD1=700001 -DBAD2=300007 -DBADV=-5.0"),
            (kernel, "-DBAD1=1048575 -DBAD2=-1 -DBADV=NAN"),
        ],
    );
    assert_eq!(hello["validation"], "device", "{hello}");
    assert_eq!(hello["setup_h2d_bytes"], 3 * 8 * n, "{hello}");
    assert_eq!(r[0]["status"], "ok", "{}", r[0]);
    assert!(r[0]["max_error"].as_f64().unwrap() < 1e-12, "{}", r[0]);
    assert_eq!(r[0]["h2d_bytes"], 0, "{}", r[0]);
    assert_eq!(r[0]["d2h_bytes"], 16, "{}", r[0]);
    assert_eq!(r[1]["status"], "wrong_result", "{}", r[1]);
    let m = r[1]["message"].as_str().unwrap();
    assert!(m.starts_with("y[300007] = -5, expected "), "{m}");
    assert_eq!(r[2]["status"], "wrong_result", "{}", r[2]);
    let m = r[2]["message"].as_str().unwrap();
    assert!(m.starts_with("y[1048575] = nan, expected "), "{m}");
    assert!(m.ends_with("(relative error inf > tolerance 1e-9)"), "{m}");
    assert!(r[2]["max_error"].is_null(), "{}", r[2]);
    // A wrong result uploads the arrays again (in case an earlier variant overwrote an input) and
    // validates once more: x, y and y's pristine copy.
    assert_eq!(r[2]["h2d_bytes"], 3 * 8 * n, "{}", r[2]);
}

/// `ORCL_HOST_VALIDATION=1` makes the skeleton validate on the host, as on a device where the
/// comparison kernels cannot run: the outputs come back whole, the wrong variant is caught with
/// the same message as on the device, and the `transfers` metadata says why.
#[test]
fn host_validation_fallback_gives_the_same_verdicts_and_messages() {
    let dir = tempfile::tempdir().unwrap();
    let file = input(dir.path(), "axpy_faults.c");
    let mut messages = Vec::new();
    for host in ["0", "1"] {
        let db = dir.path().join(format!("host{host}.db"));
        let mut c = Command::new(ORCL);
        c.arg("tune")
            .arg(&file)
            .arg("--db")
            .arg(&db)
            .arg("-o")
            .arg(db.with_extension("c"))
            .env("ORCL_CACHE_DIR", dir.path().join("cache"))
            .env("ORCL_TEST_FAULT", "wrong:WI=16,UI=1")
            .env("ORCL_HOST_VALIDATION", host);
        run(c, Duration::from_secs(120)).assert_code(0);
        let t = transfers(&db);
        let conn = rusqlite::Connection::open(&db).unwrap();
        let rows: Vec<(String, String, Option<String>, Option<f64>)> = conn
            .prepare(
                "SELECT config_key, status, message, max_error FROM evaluation ORDER BY config_key",
            )
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let variants = t["variants"].as_u64().unwrap();
        let d2h = t["variant_d2h_bytes"].as_u64().unwrap();
        if host == "1" {
            assert_eq!(t["validation"], "host: ORCL_HOST_VALIDATION is set", "{t}");
            // y (1000 doubles) comes back for every validation run.
            assert!(d2h >= variants * 8000, "{t}");
        } else {
            assert_eq!(t["validation"], "device", "{t}");
            assert!(d2h <= variants * 16 + 64, "{t}");
        }
        messages.push(rows);
    }
    assert_eq!(
        messages[0], messages[1],
        "device and host validation disagree"
    );
    assert!(messages[0].iter().any(|r| r.1 == "wrong_result"));
}

/// One request to an `orcl build-server` child: (first word of the answer, payload).
fn build_request(
    stdin: &mut impl std::io::Write,
    stdout: &mut impl std::io::BufRead,
    source: &str,
    options: &str,
) -> (String, Vec<u8>) {
    writeln!(stdin, "BUILD {} {}", source.len(), options.len()).unwrap();
    stdin.write_all(source.as_bytes()).unwrap();
    stdin.write_all(options.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut head = String::new();
    stdout.read_line(&mut head).unwrap();
    let words: Vec<&str> = head.split_whitespace().collect();
    let len: usize = words.last().unwrap().parse().unwrap();
    let mut payload = vec![0; len];
    stdout.read_exact(&mut payload).unwrap();
    (words[0].to_string(), payload)
}

/// The build-server protocol on PoCL: a program builds to a binary, options reach the
/// compiler, a broken program answers its build log, end of input ends the child cleanly.
#[test]
fn build_server_builds_reports_errors_and_ends_at_eof() {
    use std::io::BufReader;
    let mut child = Command::new(ORCL)
        .args(["build-server", "--platform", "0", "--device", "0"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let k = "__kernel void k(__global float *a) { a[get_global_id(0)] = X; }";
    let (word, bin) = build_request(&mut stdin, &mut stdout, k, "-DX=1.0f");
    assert_eq!(word, "OK", "{}", String::from_utf8_lossy(&bin));
    assert!(bin.len() > 64, "a binary of {} bytes", bin.len());
    // Without the definition the same source does not compile: the options were passed.
    let (word, log) = build_request(&mut stdin, &mut stdout, k, "");
    assert_eq!(word, "FAIL");
    let log = String::from_utf8_lossy(&log);
    assert!(log.contains("clBuildProgram"), "{log}");
    let (word, _) = build_request(&mut stdin, &mut stdout, k, "-DX=2.0f");
    assert_eq!(word, "OK", "the child did not survive a failed build");
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

/// `orcl build-server --cuda` (issue 24: NVRTC in a process orcl can kill): with NVRTC, a kernel
/// compiles to a CUBIN for the architecture named in the options (one per line), a broken one
/// answers NVRTC's log and the child goes on; without NVRTC (CI), every request is answered
/// `SKIP` with the reason (the skeleton compiles), never a failure of the kernel.
#[test]
fn cuda_build_server_compiles_or_skips_without_nvrtc() {
    use std::io::BufReader;
    let mut child = Command::new(ORCL)
        .args(["build-server", "--cuda"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let k = "extern \"C\" __global__ void orcl_kernel(float *a) { a[threadIdx.x] += X; }";
    let opts = "-DX=1.0f\n--gpu-architecture=sm_80";
    let (word, bin) = build_request(&mut stdin, &mut stdout, k, opts);
    if !nvrtc_present() {
        common::skip(
            "throughput: CUDA build server compiling",
            "no libnvrtc on this machine (the child answers SKIP)",
        );
        assert_eq!(word, "SKIP", "{}", String::from_utf8_lossy(&bin));
        assert!(!bin.is_empty(), "SKIP says why");
    } else {
        assert_eq!(word, "OK", "{}", String::from_utf8_lossy(&bin));
        assert_eq!(&bin[..4], b"\x7fELF", "a CUBIN");
        let (word, log) = build_request(&mut stdin, &mut stdout, k, "--gpu-architecture=sm_80");
        assert_eq!(word, "FAIL");
        assert!(String::from_utf8_lossy(&log).contains("NVRTC_ERROR_COMPILATION"));
        let (word, _) = build_request(&mut stdin, &mut stdout, k, opts);
        assert_eq!(word, "OK", "the child did not survive a failed build");
    }
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

/// Whether a libnvrtc loads here (as `orcl devices` probes it).
fn nvrtc_present() -> bool {
    orcl::measure::nvrtc::Nvrtc::load().is_ok()
}

/// A request that is not `BUILD <source bytes> <option bytes>` ends the child with exit 1 and no
/// answer (orcl then replaces it), rather than being built as if it were one.
#[test]
fn build_server_refuses_a_broken_request() {
    for request in [
        "JUNK 1 2\nabc",
        "BUILD 1\na",
        "BUILD 1 2 3\nabc",
        "BUILD x 2\nabc",
    ] {
        let mut child = Command::new(ORCL)
            .args(["build-server", "--platform", "0", "--device", "0"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        std::io::Write::write_all(&mut stdin, request.as_bytes()).unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{request:?}");
        assert!(out.stdout.is_empty(), "{request:?}: {:?}", out.stdout);
    }
}

/// Builds in `orcl build-server` children (forced on PoCL with ORCL_BUILD_PROCESSES=1; the
/// default on GPUs) give the same evaluations as builds in orcl's process, and the children are
/// really used: `ORCL_EXE` points at a wrapper that logs each start.
#[test]
fn build_processes_give_the_same_evaluations() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("starts.log");
    let wrapper = dir.path().join("orcl-wrapper");
    script(
        &wrapper,
        &format!("echo \"$*\" >> '{}'\nexec '{ORCL}' \"$@\"\n", log.display()),
    );
    let with = |db: &Path, procs: &str| tune_with_builds(dir.path(), db, 2, procs, &wrapper);
    let inproc = dir.path().join("inproc.db");
    with(&inproc, "0").assert_code(0);
    assert!(
        !log.exists(),
        "ORCL_BUILD_PROCESSES=0 started a build process"
    );
    let procs = dir.path().join("procs.db");
    let r = with(&procs, "1");
    r.assert_code(0);
    assert_each_once_ok(&procs, 4);
    assert!(build_ms(&procs) > 0.0, "nothing was built\n{}", r.dump());
    let starts = std::fs::read_to_string(&log).unwrap_or_default();
    let n = starts
        .lines()
        .filter(|l| l.starts_with("build-server"))
        .count();
    assert!(
        (1..=2).contains(&n),
        "{n} build processes for --jobs 2:\n{starts}"
    );
    let mut a = statuses(&inproc);
    let mut b = statuses(&procs);
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

/// A copy of orcl under another name (`orcl-renamed`, as an install named `orcl-1.2` would be)
/// still builds in `build-server` children, of itself: whether the executable answers
/// `build-server` is declared by orcl's `main`, not read from the file's name (it was: any other
/// name built in process, silently). No `ORCL_EXE`; processes forced on PoCL.
#[test]
fn a_renamed_orcl_still_builds_in_build_servers() {
    let dir = tempfile::tempdir().unwrap();
    let renamed = dir.path().join("orcl-renamed");
    std::fs::copy(ORCL, &renamed).unwrap();
    let file = input(dir.path(), "axpy_faults.c");
    let db = dir.path().join("t.db");
    let mut c = Command::new(&renamed);
    c.arg("tune")
        .arg(&file)
        .arg("--db")
        .arg(&db)
        .arg("-o")
        .arg(db.with_extension("c"))
        .args(["--jobs", "2", "--no-kernel-cache"])
        .env("ORCL_CACHE_DIR", dir.path().join("cache"))
        .env("ORCL_BUILD_PROCESSES", "1")
        .env("ORCL_LOG", "orcl_measure::build_server=debug")
        .env_remove("ORCL_EXE")
        .env_remove("ORCL_TEST_FAULT");
    let r = run(c, Duration::from_secs(120));
    r.assert_code(0);
    assert_each_once_ok(&db, 4);
    assert!(build_ms(&db) > 0.0, "nothing was built\n{}", r.dump());
    let started: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("build server started"))
        .collect();
    assert!(
        (1..=2).contains(&started.len()),
        "{} build servers for --jobs 2\n{}",
        started.len(),
        r.dump()
    );
    let me = renamed.display().to_string();
    assert!(
        started.iter().all(|l| l.contains(&me)),
        "a build server that is not the renamed orcl: {started:?}"
    );
}

/// `orcl tune` of axpy_faults.c (in `dir`) into `db` on `jobs` build threads, builds in
/// processes or not (`procs`: ORCL_BUILD_PROCESSES), processes started through `wrapper`
/// (ORCL_EXE), no kernel cache.
fn tune_with_builds(dir: &Path, db: &Path, jobs: usize, procs: &str, wrapper: &Path) -> Run {
    let file = input(dir, "axpy_faults.c");
    let mut c = Command::new(ORCL);
    c.arg("tune")
        .arg(&file)
        .arg("--db")
        .arg(db)
        .arg("-o")
        .arg(db.with_extension("c"))
        .args(["--jobs", &jobs.to_string(), "--no-kernel-cache"])
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env("ORCL_BUILD_PROCESSES", procs)
        .env("ORCL_EXE", wrapper)
        .env_remove("ORCL_TEST_FAULT");
    run(c, Duration::from_secs(120))
}

/// `orcl tune` of axpy_faults.c with builds in processes started through `wrapper` (ORCL_EXE),
/// `--jobs 1`: the run and its (status, message) rows.
fn tune_through(dir: &Path, wrapper: &Path) -> (Run, Vec<(String, Option<String>)>) {
    let db = dir.join("t.db");
    let r = tune_with_builds(dir, &db, 1, "1", wrapper);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let rows = conn
        .prepare("SELECT status, message FROM evaluation ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    (r, rows)
}

fn script(path: &Path, body: &str) {
    std::fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
}

/// A build process that dies (a compiler crash, an OOM kill) is replaced and the build tried once
/// more: a single death costs nothing; a compiler that always dies fails every build with a
/// message saying so, and nothing hangs.
#[test]
fn a_dying_build_process_is_replaced_and_the_build_retried_once() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("died-once");
    let starts = dir.path().join("starts.log");
    let wrapper = dir.path().join("orcl-wrapper");
    // The first build process reads its first request and dies; later ones are orcl.
    script(
        &wrapper,
        &format!(
            "echo start >> '{s}'\nif [ ! -e '{m}' ]; then touch '{m}'; read -r line; exit 3; fi\nexec '{ORCL}' \"$@\"\n",
            m = marker.display(),
            s = starts.display()
        ),
    );
    let (r, rows) = tune_through(dir.path(), &wrapper);
    r.assert_code(0);
    assert!(marker.exists(), "the wrapper never ran\n{}", r.dump());
    assert_eq!(std::fs::read_to_string(&starts).unwrap().lines().count(), 2);
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(rows.iter().all(|(s, _)| s == "ok"), "{rows:?}");

    let dir = tempfile::tempdir().unwrap();
    let wrapper = dir.path().join("orcl-wrapper");
    script(&wrapper, "read -r line\nkill -9 $$\n");
    let (r, rows) = tune_through(dir.path(), &wrapper);
    r.assert_code(1);
    assert_eq!(rows.len(), 4, "{rows:?}");
    for (status, message) in &rows {
        assert_eq!(status, "compile_error", "{rows:?}");
        let m = message.as_deref().unwrap_or("");
        assert!(
            m.contains("the OpenCL compiler process died") && m.contains("signal"),
            "{m}"
        );
    }
}

/// A cold kernel cache (the first variant's kernel not in it): up to `EAGER_SERVERS` (4) build
/// threads start their build process ahead, so their OpenCL start-up overlaps the skeleton's
/// compilation (issue 24); a warm cache starts none. One configuration with `--jobs 3`: 3
/// processes cold (1 without the early start), 0 warm. Also: the budget bounds what is handed to the pool (nothing beyond `--total-runs`).
#[test]
fn build_processes_start_ahead_only_with_a_cold_cache() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("starts.log");
    let wrapper = dir.path().join("orcl-wrapper");
    script(
        &wrapper,
        &format!("echo \"$*\" >> '{}'\nexec '{ORCL}' \"$@\"\n", log.display()),
    );
    let file = input(dir.path(), "axpy_faults.c");
    let tune = |db: &str| {
        let mut c = Command::new(ORCL);
        c.arg("tune")
            .arg(&file)
            .args(["--db", db, "-o", "out.c", "--jobs", "3"])
            .args(["--total-runs", "1"])
            .current_dir(dir.path())
            .env("ORCL_CACHE_DIR", dir.path().join("cache"))
            .env("ORCL_BUILD_PROCESSES", "1")
            .env("ORCL_EXE", &wrapper)
            .env_remove("ORCL_TEST_FAULT");
        run(c, Duration::from_secs(120))
    };
    let starts = || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("build-server"))
            .count()
    };
    tune("cold.db").assert_code(0);
    assert_eq!(starts(), 3, "cold cache, --jobs 3");
    let kernels = std::fs::read_dir(dir.path().join("cache/kernels"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".bin"))
        })
        .count();
    assert_eq!(kernels, 1, "built beyond --total-runs 1");
    std::fs::remove_file(&log).unwrap();
    tune("warm.db").assert_code(0);
    assert_eq!(starts(), 0, "warm cache: no build process needed");
}
