//! Helpers shared by the integration tests that run processes.
// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A finished process with its output as text.
pub struct Run {
    pub output: Output,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Run {
    pub fn code(&self) -> Option<i32> {
        self.output.status.code()
    }

    /// Both streams, for assertion messages.
    pub fn dump(&self) -> String {
        format!(
            "exit {:?} after {:.1} s\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.output.status,
            self.elapsed.as_secs_f64(),
            self.stdout,
            self.stderr
        )
    }

    pub fn assert_code(&self, code: i32) {
        assert_eq!(self.code(), Some(code), "{}", self.dump());
    }
}

/// Run `cmd` to completion, killing it (and failing the test) after `limit`.
pub fn run(mut cmd: Command, limit: Duration) -> Run {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {cmd:?}: {e}"));
    let reader = |mut s: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = s.read_to_end(&mut v);
            v
        })
    };
    let out = reader(Box::new(child.stdout.take().unwrap()));
    let err = reader(Box::new(child.stderr.take().unwrap()));
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} ran longer than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let output = Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    };
    Run {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        output,
        elapsed: start.elapsed(),
    }
}

/// The common part of the C drivers that call a tuned `_file.c` and the original function on
/// the same random data (tests/examples.rs, tests/transforms.rs): kernel-launch counting through
/// `-Wl,--wrap=clEnqueueNDRangeKernel`, the generator, allocation and comparison helpers.
/// `PROTOS` (prototypes and `TOL`), `SIZES` and `BODY` (of `check`) come from the test; see
/// [`driver_source`].
pub const DRIVER_PRELUDE: &str = r#"
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int launches;
cl_int __real_clEnqueueNDRangeKernel(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                                     const size_t *, cl_uint, const cl_event *, cl_event *);
cl_int __wrap_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint d, const size_t *o, const size_t *g,
                                     const size_t *l, cl_uint ne, const cl_event *w, cl_event *e) {
    launches++;
    return __real_clEnqueueNDRangeKernel(q, k, d, o, g, l, ne, w, e);
}

/* xorshift64*, not orcl's generator: values in [-2, 2) */
static unsigned long long state = 0x9E3779B97F4A7C15ULL;
static double rnd(void) {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (double)((state * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0) * 4.0 - 2.0;
}
static double *dvec(long n) {
    double *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
    if (!p) exit(2);
    for (long i = 0; i < n; i++) p[i] = rnd();
    return p;
}
/* in [0.5, 2): float data without cancellation (see `float_data` in tests/examples.rs) */
static double prnd(void) { return 0.5 + 0.375 * (rnd() + 2.0); }
static float *fvec(long n) {
    float *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
    if (!p) exit(2);
    for (long i = 0; i < n; i++) p[i] = (float)prnd();
    return p;
}
static void *dup(const void *p, size_t bytes) {
    void *q = malloc(bytes ? bytes : 1);
    if (!q) exit(2);
    memcpy(q, p, bytes);
    return q;
}
#define DUP(p, n) dup((p), (size_t)((n) > 0 ? (n) : 0) * sizeof *(p))

static int bad;
static double maxerr;
static char where[64];
/* orcl's validation criterion: |got - ref| <= TOL * max(|ref|, 1e-3 * max |ref|) */
#define cmp(name, got, ref, n) do { \
    double scale_ = 0.0; \
    for (long i_ = 0; i_ < (long)(n); i_++) if (fabs((double)(ref)[i_]) > scale_) scale_ = fabs((double)(ref)[i_]); \
    for (long i_ = 0; i_ < (long)(n); i_++) { \
        double g_ = (double)(got)[i_], r_ = (double)(ref)[i_]; \
        double den_ = fabs(r_) > 1e-3 * scale_ ? fabs(r_) : 1e-3 * scale_; \
        if (g_ != r_ && !(fabs(g_ - r_) / den_ <= maxerr)) maxerr = fabs(g_ - r_) / den_; \
        if (!(g_ == r_ || fabs(g_ - r_) <= TOL * den_)) { \
            if (bad++ < 10) printf("%s: %s[%ld] = %.17g, expected %.17g\n", where, name, i_, g_, r_); \
        } \
    } \
} while (0)

PROTOS

static const int sizes[][3] = { SIZES };

static int check(const int *s) {
BODY
}

int main(void) {
    int expected = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        snprintf(where, sizeof where, "sizes {%d, %d, %d}", sizes[k][0], sizes[k][1], sizes[k][2]);
        expected += check(sizes[k]);
    }
    printf("largest relative error: %.3g (tolerance %g)\n", maxerr, TOL);
    printf("kernel launches: %d of %d\n", launches, expected);
    if (launches != expected) {
        puts("FAIL: the OpenCL variant did not run for every non-empty loop");
        return 1;
    }
    puts(bad ? "FAIL" : "PASS");
    return bad != 0;
}
"#;

/// The C driver: [`DRIVER_PRELUDE`] with `protos`, `sizes` and the body of `check` filled in.
pub fn driver_source(protos: &str, sizes: &str, body: &str) -> String {
    DRIVER_PRELUDE
        .replace("PROTOS", protos)
        .replace("SIZES", sizes)
        .replace("BODY", body)
}

/// In `dir`: compile the tuned file `tuned`, the original `file` with `func` renamed
/// `func_orig`, and the driver `driver` (C source); link them with launch counting and run the
/// driver, which must print `PASS`.
pub fn run_driver(dir: &Path, tuned: &str, file: &str, func: &str, driver: &str, limit: Duration) {
    std::fs::write(dir.join("driver.c"), driver).unwrap();
    let cc = |args: &[&str]| {
        let mut c = Command::new("cc");
        c.args(args).current_dir(dir);
        let r = run(c, Duration::from_secs(60));
        assert_eq!(r.code(), Some(0), "cc {args:?}\n{}", r.dump());
    };
    let rename = format!("-D{func}={func}_orig");
    cc(&["-O2", "-c", tuned, "-o", "tuned.o"]);
    cc(&["-O2", "-c", &rename, file, "-o", "orig.o"]);
    cc(&["-O2", "-c", "driver.c", "-o", "driver.o"]);
    cc(&[
        "-o",
        "driver",
        "driver.o",
        "tuned.o",
        "orig.o",
        "-Wl,--wrap=clEnqueueNDRangeKernel",
        "-lOpenCL",
        "-lm",
    ]);
    let mut c = Command::new(dir.join("driver"));
    c.current_dir(dir);
    let out = run(c, limit);
    assert_eq!(out.code(), Some(0), "driver\n{}", out.dump());
    assert!(out.stdout.lines().any(|l| l == "PASS"), "{}", out.dump());
}

/// (configuration key, status) of every evaluation in the tuning database `db`, in order.
pub fn statuses(db: &Path) -> Vec<(String, String)> {
    let conn = rusqlite::Connection::open(db).expect("open the database");
    let mut st = conn
        .prepare("SELECT config_key, status FROM evaluation ORDER BY id")
        .unwrap();
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Record that part of a test did not run here, and why: printed (seen with `--nocapture`) and
/// appended to `target/tmp/orcl-skipped.txt`, which `make test` prints as a summary after the
/// run, so a skip is never reported as a silent `ok` (issue 26).
pub fn skip(what: &str, why: &str) {
    eprintln!("skipped: {what}: {why}");
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("orcl-skipped.txt");
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        use std::io::Write;
        let _ = writeln!(f, "{what}: {why}");
    }
}
