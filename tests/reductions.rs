//! Reductions on PoCL: scalars accumulated across iterations (`+=`, `= s + e`, `fmax`, `fmin`, in
//! double, float and long), tuned end to end, the tuned file called from a C driver on fresh data and
//! prime lengths, a deliberately broken reduction classified `wrong_result`, and the located errors
//! for reductions that are not.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// A temp dir holding a copy of `tests/inputs/ok/<name>.c`, with its own skeleton cache.
fn case(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/inputs/ok")
        .join(format!("{name}.c"));
    let dst = dir.path().join(format!("{name}.c"));
    std::fs::copy(&src, &dst).expect("copy input");
    (dir, dst)
}

fn orcl(dir: &Path, args: &[&str], fault: Option<&str>) -> Output {
    let mut c = Command::new(ORCL);
    c.args(args)
        .current_dir(dir)
        .env("ORCL_CACHE_DIR", dir.join("cache"));
    match fault {
        Some(f) => c.env("ORCL_TEST_FAULT", f),
        None => c.env_remove("ORCL_TEST_FAULT"),
    };
    c.output().expect("run orcl")
}

fn text(o: &Output) -> String {
    format!(
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn sh(dir: &Path, cmd: &str) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .current_dir(dir)
        .output()
        .expect("run sh")
}

/// Tune `name`, then compile its tuned output and the original (renamed `<func>_orig`) with `driver`
/// and run it; the driver prints PASS when every result matches.
fn tune_and_drive(name: &str, func: &str, driver: &str) {
    let (dir, _) = case(name);
    let d = dir.path();
    let out = orcl(d, &["tune", &format!("{name}.c"), "--db", "x.db"], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    std::fs::write(d.join("driver.c"), driver).unwrap();
    let build = format!(
        "cc -O2 -c _{name}.c -o tuned.o && cc -O2 -c {name}.c -D{func}={func}_orig -o orig.o && \
         cc -O2 driver.c tuned.o orig.o -o driver -Wl,--wrap=clEnqueueNDRangeKernel -lOpenCL -lm"
    );
    let b = sh(d, &build);
    assert!(b.status.success(), "build failed: {}", text(&b));
    let r = sh(d, "./driver");
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(
        r.status.success() && stdout.contains("PASS"),
        "{}",
        text(&r)
    );
}

/// Shared by the drivers: counts kernel launches so that a silent fallback to the original loop
/// (which would also match) cannot pass.
const LAUNCH_COUNTER: &str = r#"
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
static int launches;
cl_int __real_clEnqueueNDRangeKernel(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *);
cl_int __wrap_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint d, const size_t *o, const size_t *g, const size_t *l, cl_uint n, const cl_event *w, cl_event *e) {
    launches++;
    return __real_clEnqueueNDRangeKernel(q, k, d, o, g, l, n, w, e);
}
static unsigned long long rng = 88172645463325252ULL;
static double rnd(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (double)(rng >> 11) * 0x1.0p-53; }
static int close_to(double a, double b, double tol) { return a == b || fabs(a - b) <= tol * fabs(b); }
"#;

#[test]
fn several_accumulators_match_the_original_on_prime_lengths() {
    let driver = format!(
        "{LAUNCH_COUNTER}{}",
        r#"
void Stats(int n, const double *x, const double *y, const int *k, double *out, long *count);
void Stats_orig(int n, const double *x, const double *y, const int *k, double *out, long *count);
int main(void) {
    static const int sizes[] = {1009, 30011, 7919, 104729, 2, 1};
    int bad = 0, expected = 0;
    for (int s = 0; s < 6; s++) {
        int n = sizes[s];
        double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), a[3], b[3];
        int *k = malloc(n * sizeof *k);
        long ca, cb;
        for (int i = 0; i < n; i++) { x[i] = rnd() - 0.5; y[i] = rnd(); k[i] = (int)(rnd() * 1000); }
        Stats(n, x, y, k, a, &ca);
        Stats_orig(n, x, y, k, b, &cb);
        expected++;
        for (int j = 0; j < 3; j++)
            if (!close_to(a[j], b[j], 1e-9)) { bad++; printf("n=%d out[%d] = %.17g, expected %.17g\n", n, j, a[j], b[j]); }
        if (ca != cb) { bad++; printf("n=%d count = %ld, expected %ld\n", n, ca, cb); }
        free(x); free(y); free(k);
    }
    printf("kernel launches: %d of %d\n", launches, expected);
    if (launches != expected) bad++;
    puts(bad ? "FAIL" : "PASS");
    return bad != 0;
}
"#
    );
    tune_and_drive("reduce_multi", "Stats", &driver);
}

#[test]
fn float_sum_of_squares_matches_within_float_tolerance() {
    let driver = format!(
        "{LAUNCH_COUNTER}{}",
        r#"
float SumSq(int n, const float *x);
float SumSq_orig(int n, const float *x);
int main(void) {
    static const int sizes[] = {1009, 10007, 4999, 3};
    int bad = 0;
    for (int s = 0; s < 4; s++) {
        int n = sizes[s];
        float *x = malloc(n * sizeof *x);
        for (int i = 0; i < n; i++) x[i] = (float)rnd();
        float a = SumSq(n, x), b = SumSq_orig(n, x);
        if (!close_to(a, b, 1e-4)) { bad++; printf("n=%d: %.9g, expected %.9g\n", n, a, b); }
        free(x);
    }
    printf("kernel launches: %d of 4\n", launches);
    if (launches != 4) bad++;
    puts(bad ? "FAIL" : "PASS");
    return bad != 0;
}
"#
    );
    tune_and_drive("reduce_float", "SumSq", &driver);
}

#[test]
fn broken_reduction_is_a_wrong_result() {
    let (dir, _) = case("reduce_multi");
    let d = dir.path();
    let out = orcl(
        d,
        &["tune", "reduce_multi.c", "--db", "x.db", "--size", "N=1009"],
        Some("wrong:WI=16"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let db = rusqlite::Connection::open(d.join("x.db")).unwrap();
    let rows: Vec<(String, String)> = db
        .prepare("SELECT config_key, status FROM evaluation")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.len(), 16);
    for (key, status) in rows {
        let broken = key.contains("\"WI\":16");
        assert_eq!(status, if broken { "wrong_result" } else { "ok" }, "{key}");
    }
}

#[test]
fn reduction_variable_read_in_the_loop_is_rejected() {
    let (dir, path) = case("reduce_float");
    let src = std::fs::read_to_string(&path).unwrap();
    let bad = src.replacen(
        "s = s + x[i]*x[i];\n    ) @*/",
        "s = s + x[i]*s;\n    ) @*/",
        1,
    );
    assert_ne!(bad, src);
    std::fs::write(&path, &bad).unwrap();
    let out = orcl(dir.path(), &["check", "reduce_float.c"], None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("loop-carried scalar"), "{stderr}");

    let bad = src.replacen(
        "s = s + x[i]*x[i];\n    ) @*/",
        "{ s = s + x[i]; x[i] = s; }\n    ) @*/",
        1,
    );
    std::fs::write(&path, &bad).unwrap();
    let out = orcl(dir.path(), &["check", "reduce_float.c"], None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("reduction variable `s` is read outside its update"),
        "{stderr}"
    );
    let line = bad[..bad.find("x[i] = s;").unwrap() + "x[i] = ".len()]
        .lines()
        .count();
    assert!(
        stderr.contains(&format!("reduce_float.c:{line}:")),
        "{stderr}"
    );
}

#[test]
fn mixed_reduction_operators_are_rejected() {
    let (dir, path) = case("reduce_float");
    let src = std::fs::read_to_string(&path).unwrap();
    let bad = src.replacen(
        "s = s + x[i]*x[i];\n    ) @*/",
        "{ s = s + x[i]; s *= x[i]; }\n    ) @*/",
        1,
    );
    std::fs::write(&path, &bad).unwrap();
    let out = orcl(dir.path(), &["check", "reduce_float.c"], None);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("reduced with two different operators"),
        "{}",
        text(&out)
    );
}
