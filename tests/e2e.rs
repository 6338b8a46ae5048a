//! End-to-end `orcl tune` on the local OpenCL device (PoCL in CI): the built binary runs in a temp
//! dir on a copy of an input from `tests/inputs/ok/`, with its own database and skeleton cache
//! (`ORCL_CACHE_DIR`). Each search space is tiny (≤ 8 configurations, except the 24 of the
//! SIGKILL test) and runs 2-3 repetitions, so the whole file takes seconds, not minutes.
//!
//! Failure classes are provoked with the test-only hook `ORCL_TEST_FAULT=KIND:NAME=VALUE,...`
//! (src/tune.rs `test_fault`), which gives matching configurations a broken kernel.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use tempfile::TempDir;

mod common;
use common::{run, Run};

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// How long a command or a wait may take before the test calls it hung. Only a guard: every wait
/// ends on an event (a process exits, a row is committed), so a loaded machine makes the tests
/// slower, not failing (issue 25).
const HANG_GUARD: Duration = Duration::from_secs(600);

/// One test's sandbox: a temp dir holding a copy of the input, the database and the skeleton cache.
struct Case {
    dir: TempDir,
    input: PathBuf,
    db: PathBuf,
}

impl Case {
    /// Copy `tests/inputs/ok/NAME` into a fresh temp dir.
    fn new(name: &str) -> Case {
        let dir = tempfile::Builder::new()
            .prefix("orcl-e2e-")
            .tempdir()
            .expect("temp dir");
        let src = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/inputs/ok")
            .join(name);
        let input = dir.path().join(name);
        std::fs::copy(&src, &input).unwrap_or_else(|e| panic!("copy {}: {e}", src.display()));
        let db = dir.path().join("tune.db");
        Case { dir, input, db }
    }

    /// `_NAME` beside the input: the default tuned file.
    fn tuned(&self) -> PathBuf {
        let name = self
            .input
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        self.dir.path().join(format!("_{name}"))
    }

    /// `orcl tune INPUT --db DB ARGS...`, with `ORCL_TEST_FAULT` set to `fault` (or unset).
    fn tune_command(&self, args: &[&str], fault: Option<&str>) -> Command {
        let mut c = Command::new(ORCL);
        c.arg("tune")
            .arg(&self.input)
            .arg("--db")
            .arg(&self.db)
            .args(args);
        c.current_dir(self.dir.path());
        c.env("ORCL_CACHE_DIR", self.dir.path().join("cache"));
        c.env_remove("ORCL_TEST_STALL_AFTER");
        match fault {
            Some(f) => c.env("ORCL_TEST_FAULT", f),
            None => c.env_remove("ORCL_TEST_FAULT"),
        };
        c
    }

    fn tune(&self, args: &[&str], fault: Option<&str>) -> Run {
        // A guard against a hung tune, not a speed requirement: the tests hold on a loaded machine.
        run(self.tune_command(args, fault), HANG_GUARD)
    }

    fn conn(&self) -> Connection {
        let c = Connection::open(&self.db)
            .unwrap_or_else(|e| panic!("open {}: {e}", self.db.display()));
        c.busy_timeout(Duration::from_secs(60)).unwrap();
        c
    }

    /// `(config_key, status)` of every evaluation, in insertion order.
    fn evaluations(&self) -> Vec<(String, String)> {
        let c = self.conn();
        let mut st = c
            .prepare("SELECT config_key, status FROM evaluation ORDER BY id")
            .unwrap();
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    }
}

/// A shell-free command line, run in `dir`; panics with its output unless it succeeds.
fn sh(dir: &Path, program: &str, args: &[&str]) -> Run {
    let mut c = Command::new(program);
    c.args(args).current_dir(dir);
    let r = run(c, HANG_GUARD);
    assert_eq!(r.code(), Some(0), "{program} {args:?}\n{}", r.dump());
    r
}

/// The `best ...` lines of the tuned file's comment block.
fn best_lines(tuned: &str) -> Vec<&str> {
    tuned.lines().filter(|l| l.contains(": best ")).collect()
}

/// `(measured, from the database, experiment id)` from a result heading of `orcl tune`, e.g.
/// `... 24 evaluated (6 measured, 18 from the database) in 0.5 s, experiment 1`.
fn heading_counts(stdout: &str) -> Vec<(u64, u64, i64)> {
    let mut v = Vec::new();
    for line in stdout.lines().filter(|l| l.contains(" evaluated (")) {
        let inner = line
            .split(" evaluated (")
            .nth(1)
            .and_then(|s| s.split(')').next())
            .unwrap_or("");
        let measured = inner
            .split(" measured")
            .next()
            .and_then(|s| s.trim().parse().ok());
        let reused = inner
            .split(", ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse().ok());
        let exp = line
            .rsplit("experiment ")
            .next()
            .and_then(|s| s.trim().parse().ok());
        match (measured, reused, exp) {
            (Some(m), Some(r), Some(e)) => v.push((m, r, e)),
            _ => panic!("cannot read the counts of `{line}`"),
        }
    }
    v
}

fn sha256_file(p: &Path) -> Vec<u8> {
    use sha2::Digest;
    sha2::Sha256::digest(std::fs::read(p).unwrap()).to_vec()
}

/// A C driver: fills x and y (`n + EXTRA` elements) with its own pseudo-random data for several n
/// (including sizes that were not tuned, 1 and 0), calls the tuned `VecAXPY` and the original
/// (`VecAXPY_orig`), compares y (exactly or within 1e-12 relative, floored at 1e-3 of max |y|), and counts kernel launches
/// through `-Wl,--wrap` so that a silent fall-back to the original loop is caught. Prints PASS.
const DRIVER: &str = r#"
#ifndef EXTRA
#define EXTRA 0
#endif
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void VecAXPY(int n, double a, const double *x, double *y);
void VecAXPY_orig(int n, double a, const double *x, double *y);

static int launches;
cl_int __real_clEnqueueNDRangeKernel(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                                     const size_t *, cl_uint, const cl_event *, cl_event *);
cl_int __wrap_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint d, const size_t *o, const size_t *g,
                                     const size_t *l, cl_uint ne, const cl_event *w, cl_event *e) {
    launches++;
    return __real_clEnqueueNDRangeKernel(q, k, d, o, g, l, ne, w, e);
}

static unsigned long long state = 0x2545F4914F6CDD1DULL;
static double rnd(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (double)(state >> 11) * (1.0 / 9007199254740992.0) * 4.0 - 2.0;
}

int main(void) {
    static const int sizes[] = {1000, 20011, 77777, 1, 999, 1001, 0};
    const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    int bad = 0, expected = 0;
    for (int s = 0; s < nsizes; s++) {
        int n = sizes[s], len = sizes[s] + EXTRA;
        size_t m = len > 0 ? (size_t)len : 1;
        double *x = malloc(m * sizeof *x), *y = malloc(m * sizeof *y), *ref = malloc(m * sizeof *ref);
        double a = rnd();
        if (!x || !y || !ref) return 2;
        for (int i = 0; i < len; i++) {
            x[i] = rnd();
            y[i] = ref[i] = rnd();
        }
        VecAXPY(n, a, x, y);
        VecAXPY_orig(n, a, x, ref);
        if (len > 0) expected++;
        /* orcl's validation criterion: relative error with a floor of 1e-3 of the largest |ref|
           (a device may contract a*x+y into an fma, which differs in the last bit) */
        double scale = 0.0;
        for (int i = 0; i < len; i++) if (fabs(ref[i]) > scale) scale = fabs(ref[i]);
        for (int i = 0; i < len; i++) {
            double den = fabs(ref[i]) > 1e-3 * scale ? fabs(ref[i]) : 1e-3 * scale;
            if (!(y[i] == ref[i] || fabs(y[i] - ref[i]) <= 1e-12 * den)) {
                if (bad++ < 5) printf("n=%d: y[%d] = %.17g, expected %.17g\n", n, i, y[i], ref[i]);
            }
        }
        free(x);
        free(y);
        free(ref);
    }
    printf("kernel launches: %d of %d\n", launches, expected);
    if (launches != expected) {
        puts("FAIL: the OpenCL variant did not run for every non-empty loop");
        return 1;
    }
    puts(bad ? "FAIL" : "PASS");
    return bad != 0;
}
"#;

/// (a) The tuned file compiles with `cc -O2 -c` and computes what the original computes, for the
/// tuned sizes and others; it carries the results comment block and the size dispatch.
#[test]
fn tuned_output_is_correct() {
    let case = Case::new("axpy.c");
    let r = case.tune(&[], None);
    r.assert_code(0);
    let tuned_path = case.tuned();
    let tuned = std::fs::read_to_string(&tuned_path)
        .unwrap_or_else(|e| panic!("{}: {e}\n{}", tuned_path.display(), r.dump()));

    // The comment block: device, median, experiment id, one line per input size.
    let device: String = case
        .conn()
        .query_row("SELECT name FROM device", [], |r| r.get(0))
        .unwrap();
    let best = best_lines(&tuned);
    assert_eq!(best.len(), 2, "one `best` line per input size:\n{tuned}");
    for (line, n) in best.iter().zip(["N=1000", "N=20011"]) {
        assert!(line.contains(n), "{line}");
        assert!(line.contains("median"), "{line}");
        assert!(line.contains(&device), "device `{device}` missing: {line}");
        assert!(line.contains("experiment "), "{line}");
    }
    assert!(
        tuned.contains("if (n <= 1000)"),
        "no size dispatch:\n{tuned}"
    );
    assert!(
        !tuned.contains("/*@"),
        "annotations left in the tuned file:\n{tuned}"
    );
    // The original loop is kept as the fall-back.
    assert!(tuned.contains("for (i=0; i<=n-1; i++)"), "{tuned}");

    compile_and_compare(&case, 0);
}

/// Compile the tuned file (`cc -O2 -c`), the original file (as `VecAXPY_orig`) and `DRIVER`
/// (arrays of `n + extra` elements), link with `-lOpenCL -lm`, run, and expect PASS.
fn compile_and_compare(case: &Case, extra: i32) {
    let dir = case.dir.path();
    let tuned = case.tuned();
    let input = case.input.file_name().unwrap().to_str().unwrap();
    std::fs::write(dir.join("driver.c"), DRIVER).unwrap();
    sh(
        dir,
        "cc",
        &[
            "-O2",
            "-c",
            tuned.file_name().unwrap().to_str().unwrap(),
            "-o",
            "tuned.o",
        ],
    );
    sh(
        dir,
        "cc",
        &["-O2", "-c", "-DVecAXPY=VecAXPY_orig", input, "-o", "orig.o"],
    );
    sh(
        dir,
        "cc",
        &[
            "-O2",
            &format!("-DEXTRA={extra}"),
            "-c",
            "driver.c",
            "-o",
            "driver.o",
        ],
    );
    sh(
        dir,
        "cc",
        &[
            "-o",
            "driver",
            "driver.o",
            "tuned.o",
            "orig.o",
            "-Wl,--wrap=clEnqueueNDRangeKernel",
            "-lOpenCL",
            "-lm",
        ],
    );
    let out = sh(dir, "./driver", &[]);
    assert!(out.stdout.lines().any(|l| l == "PASS"), "{}", out.dump());
}

/// (a') Arrays declared `x[N+1]` and an inclusive bound `i<=n`: the host code must copy (n+1)
/// elements. Fails today: the buffer size is emitted as `(size_t)(n)+1 * sizeof(double)`
/// (src/codegen/templates/opencl_host.c.tera does not parenthesise the element count).
#[test]

fn tuned_output_is_correct_with_offset_sizes() {
    let case = Case::new("axpy_plus1.c");
    let r = case.tune(&[], None);
    r.assert_code(0);
    let tuned = std::fs::read_to_string(case.tuned()).unwrap();
    assert!(
        tuned.contains("if (n <= 1000)"),
        "no size dispatch:\n{tuned}"
    );
    compile_and_compare(&case, 1);
}

/// (b) An invalid clFlags value ends as `compile_error` rows; the tune completes.
#[test]
fn invalid_cl_flags_are_compile_errors() {
    let case = Case::new("axpy_clflags.c");
    let r = case.tune(&[], None);
    r.assert_code(0);
    let rows = case.evaluations();
    assert_eq!(rows.len(), 4, "{rows:?}");
    for (key, status) in &rows {
        let want = if key.contains("-cl-no-such-flag") {
            "compile_error"
        } else {
            "ok"
        };
        assert_eq!(status, want, "{key}\n{}", r.dump());
    }
    assert!(case.tuned().exists(), "{}", r.dump());
    assert!(r.stdout.contains("compile_error: 2"), "{}", r.dump());
}

/// (c) A hanging variant is cut at the timeout and recorded as `timeout`; the others are measured
/// (in a fresh worker) and one of them wins.
#[test]
fn hanging_variant_times_out() {
    let case = Case::new("axpy_faults.c");
    let r = case.tune(&["--timeout", "3s"], Some("hang:WI=16"));
    r.assert_code(0);
    // Cut at the run's 3 s (the timeout starts once the kernel is built), not at the build limit.
    let messages: Vec<String> = {
        let c = case.conn();
        let mut st = c
            .prepare("SELECT message FROM evaluation WHERE status = 'timeout'")
            .unwrap();
        st.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert!(!messages.is_empty(), "{}", r.dump());
    for m in &messages {
        assert!(m.starts_with("no result after 3.0 s"), "{m}\n{}", r.dump());
    }
    for (key, status) in case.evaluations() {
        let want = if key.contains(r#""WI":16"#) {
            "timeout"
        } else {
            "ok"
        };
        assert_eq!(status, want, "{key}\n{}", r.dump());
    }
    let tuned = std::fs::read_to_string(case.tuned()).unwrap();
    let best = best_lines(&tuned);
    assert_eq!(best.len(), 1, "{tuned}");
    assert!(
        best[0].contains("WI=64"),
        "a hanging variant won: {}",
        best[0]
    );
    // The killed workers (and their hanging kernels) are gone.
    assert_no_processes_left(case.dir.path(), HANG_GUARD);
}

/// (d) A crashing variant (the worker dies) is recorded as `crash`; the tune goes on.
#[test]
fn crashing_variant_is_recorded() {
    let case = Case::new("axpy_faults.c");
    let r = case.tune(&[], Some("crash:WI=16,UI=1"));
    r.assert_code(0);
    let rows = case.evaluations();
    assert_eq!(rows.len(), 4, "{rows:?}");
    // The crash is the first configuration: all the later ones must still be measured.
    assert_eq!(rows[0].0, r#"{"WI":16,"UI":1}"#);
    assert_eq!(rows[0].1, "crash", "{}", r.dump());
    for (key, status) in &rows[1..] {
        assert_eq!(status, "ok", "{key}\n{}", r.dump());
    }
    assert!(r.stdout.contains("crash: 1"), "{}", r.dump());
    assert!(case.tuned().exists());
    assert_no_processes_left(case.dir.path(), HANG_GUARD);
}

/// (e) A variant with wrong outputs is recorded as `wrong_result` and never wins.
#[test]
fn wrong_variant_never_wins() {
    let case = Case::new("axpy_faults.c");
    let r = case.tune(&[], Some("wrong:WI=16"));
    r.assert_code(0);
    for (key, status) in case.evaluations() {
        let want = if key.contains(r#""WI":16"#) {
            "wrong_result"
        } else {
            "ok"
        };
        assert_eq!(status, want, "{key}\n{}", r.dump());
    }
    let c = case.conn();
    let wrong_with_median: i64 = c.query_row("SELECT count(*) FROM evaluation WHERE status = 'wrong_result' AND median_ms IS NOT NULL", [], |r| r.get(0)).unwrap();
    assert_eq!(
        wrong_with_median, 0,
        "a wrong result has an objective value"
    );
    let tuned = std::fs::read_to_string(case.tuned()).unwrap();
    let best = best_lines(&tuned);
    assert_eq!(best.len(), 1, "{tuned}");
    assert!(
        best[0].contains("WI=64"),
        "a wrong variant won: {}",
        best[0]
    );
    for line in r.stdout.lines().filter(|l| l.starts_with('│')) {
        assert!(
            !line.contains("WI=16"),
            "a wrong variant is ranked: {line}\n{}",
            r.dump()
        );
    }
}

/// Live processes (not zombies) whose command line mentions `dir`: orphaned skeleton workers.
fn processes_under(dir: &Path) -> Vec<String> {
    let needle = dir.to_string_lossy().into_owned();
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        if !e
            .file_name()
            .to_string_lossy()
            .chars()
            .all(|c| c.is_ascii_digit())
        {
            continue;
        }
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(&needle) {
                found.push(format!("{}: {cmd}", e.file_name().to_string_lossy()));
            }
        }
    }
    found
}

/// Wait up to `limit` for every process started from `dir` (skeleton workers) to be gone.
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

/// (f) SIGKILL mid-tune, then re-run: the experiment resumes (same id), every configuration is
/// evaluated exactly once, and the re-run says how many came from the database.
#[test]
fn resume_after_sigkill() {
    const FEASIBLE: i64 = 24;
    let case = Case::new("axpy_resume.c");
    // The tune stalls once it has committed 3 rows (test-only hook), so the kill always lands
    // mid-tune, however slow or fast the machine is.
    let mut child: Child = case
        .tune_command(&[], None)
        .env("ORCL_TEST_STALL_AFTER", "3")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn orcl tune");
    let start = Instant::now();
    let mut seen = 0i64;
    while seen < 3 {
        if let Some(s) = child.try_wait().unwrap() {
            panic!("orcl tune exited ({s}) before it was killed, after {seen} evaluation(s)");
        }
        assert!(
            start.elapsed() < HANG_GUARD,
            "no 3 evaluations after {HANG_GUARD:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
        if case.db.exists() {
            if let Ok(c) = Connection::open(&case.db) {
                seen = c
                    .query_row("SELECT count(*) FROM evaluation", [], |r| r.get(0))
                    .unwrap_or(0);
            }
        }
    }
    child.kill().expect("SIGKILL");
    child.wait().unwrap();
    let (killed_rows, first_ids): (i64, Vec<i64>) = {
        let c = case.conn();
        let n = c
            .query_row("SELECT count(*) FROM evaluation", [], |r| r.get(0))
            .unwrap();
        let mut st = c
            .prepare("SELECT DISTINCT experiment_id FROM evaluation")
            .unwrap();
        (
            n,
            st.query_map([], |r| r.get(0))
                .unwrap()
                .map(Result::unwrap)
                .collect(),
        )
    };
    assert!(
        killed_rows < FEASIBLE,
        "the tune finished before it was killed"
    );
    assert_eq!(first_ids.len(), 1, "{first_ids:?}");

    // The worker of the killed tune must not outlive it for long.
    assert_no_processes_left(case.dir.path(), HANG_GUARD);

    let r = case.tune(&[], None);
    r.assert_code(0);
    let c = case.conn();
    let experiments: Vec<(i64, String)> = {
        let mut st = c.prepare("SELECT id, status FROM experiment").unwrap();
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(
        experiments,
        vec![(first_ids[0], "done".to_string())],
        "{}",
        r.dump()
    );
    let (total, distinct): (i64, i64) = c
        .query_row(
            "SELECT count(*), count(DISTINCT config_key) FROM evaluation WHERE experiment_id = ?1",
            [first_ids[0]],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((total, distinct), (FEASIBLE, FEASIBLE), "{}", r.dump());
    let ok: i64 = c
        .query_row(
            "SELECT count(*) FROM evaluation WHERE status = 'ok'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(ok, FEASIBLE, "{}", r.dump());

    assert!(r.stdout.contains("from the database"), "{}", r.dump());
    let counts = heading_counts(&r.stdout);
    assert_eq!(counts.len(), 1, "{}", r.dump());
    let (measured, reused, exp) = counts[0];
    assert_eq!(exp, first_ids[0], "{}", r.dump());
    assert!(
        reused >= killed_rows as u64,
        "only {reused} from the database, {killed_rows} were stored\n{}",
        r.dump()
    );
    assert_eq!((measured + reused) as i64, FEASIBLE, "{}", r.dump());
}

/// (g) `tune` never modifies its input, and re-running a finished tune measures nothing new.
#[test]
fn input_untouched_and_rerun_measures_nothing() {
    let case = Case::new("axpy_faults.c");
    let before = sha256_file(&case.input);
    let first = case.tune(&[], None);
    first.assert_code(0);
    assert_eq!(
        sha256_file(&case.input),
        before,
        "the input file was modified"
    );
    let counts = heading_counts(&first.stdout);
    assert_eq!(counts.len(), 1, "{}", first.dump());
    assert_eq!((counts[0].0, counts[0].1), (4, 0), "{}", first.dump());

    let second = case.tune(&[], None);
    second.assert_code(0);
    assert_eq!(
        sha256_file(&case.input),
        before,
        "the input file was modified"
    );
    assert!(second.stdout.contains("0 measured"), "{}", second.dump());
    let again = heading_counts(&second.stdout);
    assert_eq!(again, vec![(0, 4, counts[0].2)], "{}", second.dump());
    assert_eq!(case.evaluations().len(), 4);
    let experiments: i64 = case
        .conn()
        .query_row("SELECT count(*) FROM experiment", [], |r| r.get(0))
        .unwrap();
    assert_eq!(experiments, 1);
}

/// (h) When every variant fails, `tune` exits with 1 and writes no tuned file.
#[test]
fn all_variants_fail() {
    let case = Case::new("axpy_allfail.c");
    let r = case.tune(&[], None);
    r.assert_code(1);
    assert!(
        !case.tuned().exists(),
        "a tuned file was written\n{}",
        r.dump()
    );
    let rows = case.evaluations();
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(rows.iter().all(|(_, s)| s == "compile_error"), "{rows:?}");
    assert!(r.stderr.contains("no correct variant"), "{}", r.dump());
}
