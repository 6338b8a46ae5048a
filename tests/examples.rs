//! The kernels of the OrCL paper as examples (`examples/vecDot.c`, `vecNorm2.c`, `vecSum.c` (reductions), `vecWAXPY.c`, `vecMAXPY.c`, `vecScale.c`,
//! `matVec.c`, `ex14FF.c`, `ex14FJ.c`, `vecAXPY_float.c`, `matVec_float.c`), each checked end to
//! end on the local OpenCL device (PoCL in CI): `orcl check` and `orcl emit` succeed, `orcl tune`
//! (in a temp dir, on a copy, with its own database and skeleton cache) exits 0 with every
//! evaluation `ok`, and the tuned file, compiled beside the original (renamed with `-D`) and a C
//! driver written here, computes what the original computes on the driver's own pseudo-random
//! data, for the tuned sizes and others (primes, sizes between and beyond the tuned ones, tiny
//! and empty ones). Every written array is compared with orcl's validation criterion (relative
//! error ≤ tol with the denominator floored at 1e-3 of the array's largest |reference|; tol 1e-12
//! for double, 1e-5 for float), and kernel launches are counted through
//! `-Wl,--wrap=clEnqueueNDRangeKernel`, so a silent fall-back to the original loop fails.

mod common;
use common::{driver_source, run, run_driver, statuses, Run};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// One example and what its driver does.
struct Example {
    /// File name under `examples/`.
    file: &'static str,
    /// The tuned C function (the original is compiled as `FUNC_orig`).
    func: &'static str,
    /// Its parameter list, with parentheses.
    params: &'static str,
    /// `true` for float data (tolerance 1e-5 instead of 1e-12).
    float: bool,
    /// Rows `{a, b, c}` of sizes the driver runs (C initialiser; unused entries 0).
    sizes: &'static str,
    /// Body of `static int check(const int *s)`: allocate and fill the inputs for size `s`, call
    /// `FUNC` and `FUNC_orig` on copies, compare each written array with `cmp`, free, and return
    /// whether the parallel loop is non-empty (one kernel launch expected).
    body: String,
    /// A line the tuned file must contain: the run-time dispatch on the size variables.
    dispatch: &'static str,
}

impl Example {
    /// The driver's source.
    fn driver(&self) -> String {
        // The reductions return their result; the other kernels return nothing. A reduction adds
        // in another order than the original loop, so it is held to orcl's double tolerance (1e-9):
        // a sum of 10^6 terms of mixed sign loses about 1e-12 to reordering alone.
        let reduction = ["VecDot", "VecNorm2", "VecSum"].contains(&self.func);
        let ret = if reduction { "double" } else { "void" };
        let protos = format!(
            "{ret} {f}{p};\n{ret} {f}_orig{p};\n#define TOL {tol}",
            f = self.func,
            p = self.params,
            tol = if self.float {
                "1e-5"
            } else if reduction {
                "1e-9"
            } else {
                "1e-12"
            }
        );
        driver_source(&protos, self.sizes, &self.body)
    }
}

/// Run `cmd` in `dir` to completion (killed after `limit`); panics unless it exits with 0.
fn run_ok(mut cmd: Command, dir: &Path, limit: Duration) -> Run {
    cmd.current_dir(dir);
    let what = format!("{cmd:?}");
    let r = run(cmd, limit);
    assert_eq!(r.code(), Some(0), "{what}\n{}", r.dump());
    r
}

/// check, emit, tune, then compile the tuned file, the original and the driver, and run it.
fn check_example(ex: &Example) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(ex.file);
    let tmp = tempfile::Builder::new()
        .prefix("orcl-examples-")
        .tempdir()
        .expect("temp dir");
    let dir = tmp.path();
    let input = dir.join(ex.file);
    std::fs::copy(&src, &input).unwrap_or_else(|e| panic!("copy {}: {e}", src.display()));
    let orcl = |args: &[&str]| {
        let mut c = Command::new(ORCL);
        c.args(args)
            .env("ORCL_CACHE_DIR", dir.join("cache"))
            .env_remove("ORCL_TEST_FAULT");
        run_ok(c, dir, Duration::from_secs(120))
    };

    orcl(&["check", ex.file]);
    let emitted = orcl(&["emit", ex.file]);
    assert!(
        emitted.stdout.contains("__kernel void orcl_kernel("),
        "{}",
        emitted.dump()
    );

    let tuned_name = format!("_{}", ex.file);
    let t = orcl(&["tune", ex.file, "--db", "tune.db", "-o", &tuned_name]);
    let rows = statuses(&dir.join("tune.db"));
    assert_eq!(rows.len(), 32, "16 configurations x 2 sizes: {rows:?}");
    for (key, status) in &rows {
        assert_eq!(status, "ok", "{key}\n{}", t.dump());
    }
    let tuned = std::fs::read_to_string(dir.join(&tuned_name)).unwrap();
    assert_eq!(
        tuned.lines().filter(|l| l.contains(": best ")).count(),
        2,
        "one `best` line per input size:\n{tuned}"
    );
    assert!(
        tuned.contains(ex.dispatch),
        "no `{}`:\n{tuned}",
        ex.dispatch
    );

    run_driver(
        dir,
        &tuned_name,
        ex.file,
        ex.func,
        &ex.driver(),
        Duration::from_secs(60),
    );
}

/// Sizes of the 1-D vector examples (tuned for 1000 and 30000): the tuned ones, a prime between,
/// a prime beyond, one below, tiny, empty.
const VEC_SIZES: &str = "{1000}, {30000}, {7919}, {30011}, {999}, {1}, {2}, {0}";

/// `{m, n}` (tuned for 60 x 50 and 400 x 300): the tuned shapes, primes between, a tall one, a wide
/// one, 1 x 1, no rows.
const MATVEC_SIZES: &str = "{60, 50}, {400, 300}, {173, 97}, {401, 7}, {3, 1009}, {1, 1}, {0, 5}";

const MATVEC_BODY: &str = r#"
    int m = s[0], n = s[1];
    REAL *A = VEC((long)m * n), *x = VEC(n), *y = VEC(m), *yr = DUP(y, m);
    FUNC(m, n, A, x, y);
    FUNC_orig(m, n, A, x, yr);
    cmp("y", y, yr, m);
    free(A); free(x); free(y); free(yr);
    return m > 0;"#;

/// `{mx, my, mz}` (tuned for 8^3 and 24 x 20 x 16): the tuned grids, primes between, beyond in
/// every direction, beyond in one only, a thin one with 3 interior points, all boundary (a prime
/// number of points), empty.
const GRID_SIZES: &str =
    "{8, 8, 8}, {24, 20, 16}, {13, 11, 7}, {25, 21, 17}, {31, 5, 3}, {5, 3, 3}, {1, 1, 7}, {0, 4, 4}";

/// The mesh constants of PETSc's ex14 (lambda = 6, the unit cube) and a random state x.
const GRID_SETUP: &str = r#"
    int mx = s[0], my = s[1], mz = s[2];
    long np = (long)mx * my * mz;
    double hx = 1.0 / (mx > 1 ? mx - 1 : 1), hy = 1.0 / (my > 1 ? my - 1 : 1), hz = 1.0 / (mz > 1 ? mz - 1 : 1);
    double sc = hx * hy * hz * 6.0, hxhzdhy = hx * hz / hy, hyhzdhx = hy * hz / hx, hxhydhz = hx * hy / hz;
    double *x = dvec(np);"#;

/// The examples. Double data is drawn from [-2, 2), so that sums cancel; float data from
/// [0.5, 2) (`fvec`, `prnd`): PoCL contracts `a*x + y` into an fma (the default of OpenCL C's
/// FP_CONTRACT; its results equal `fmaf` bit for bit), the host reference does not, and with
/// cancellation the difference exceeds 1e-5 of the floored denominator (1e-8 of the largest
/// |reference|, below float's resolution): up to 1.2e-5 for AXPY and 5.9e-5 for matVec with
/// mixed signs.
fn example(file: &'static str) -> Example {
    let (func, params, float, sizes, body, dispatch) = match file {
        "vecWAXPY.c" => (
            "VecWAXPY",
            "(int n, double a, const double *x, const double *y, double *w)",
            false,
            VEC_SIZES,
            r#"
    int n = s[0];
    double a = rnd(), *x = dvec(n), *y = dvec(n), *w = dvec(n), *wr = DUP(w, n);
    VecWAXPY(n, a, x, y, w);
    VecWAXPY_orig(n, a, x, y, wr);
    cmp("w", w, wr, n);
    free(x); free(y); free(w); free(wr);
    return n > 0;"#
                .to_string(),
            "if (n <= 1000)",
        ),
        "vecMAXPY.c" => (
            "VecMAXPY",
            "(int n, double a0, double a1, double a2, double a3, const double *x0, \
             const double *x1, const double *x2, const double *x3, double *y)",
            false,
            "{2000}, {40000}, {10007}, {40009}, {1999}, {1}, {3}, {0}",
            r#"
    int n = s[0];
    double a0 = rnd(), a1 = rnd(), a2 = rnd(), a3 = rnd();
    double *x0 = dvec(n), *x1 = dvec(n), *x2 = dvec(n), *x3 = dvec(n), *y = dvec(n), *yr = DUP(y, n);
    VecMAXPY(n, a0, a1, a2, a3, x0, x1, x2, x3, y);
    VecMAXPY_orig(n, a0, a1, a2, a3, x0, x1, x2, x3, yr);
    cmp("y", y, yr, n);
    free(x0); free(x1); free(x2); free(x3); free(y); free(yr);
    return n > 0;"#
                .to_string(),
            "if (n <= 2000)",
        ),
        "vecDot.c" => (
            "VecDot",
            "(int n, const double *x, const double *y)",
            false,
            "{100000}, {1000000}, {7919}, {300007}, {99991}, {1}, {2}, {0}",
            r#"
    int n = s[0];
    double *x = dvec(n), *y = dvec(n);
    double a = VecDot(n, x, y), b = VecDot_orig(n, x, y);
    cmp("s", &a, &b, 1);
    free(x); free(y);
    return n > 0;"#
                .to_string(),
            "if (n <= 100000)",
        ),
        "vecNorm2.c" => (
            "VecNorm2",
            "(int n, const double *x)",
            false,
            "{100000}, {1000000}, {7919}, {300007}, {99991}, {1}, {2}, {0}",
            r#"
    int n = s[0];
    double *x = dvec(n);
    double a = VecNorm2(n, x), b = VecNorm2_orig(n, x);
    cmp("norm", &a, &b, 1);
    free(x);
    return n > 0;"#
                .to_string(),
            "if (n <= 100000)",
        ),
        "vecSum.c" => (
            "VecSum",
            "(int n, const double *x)",
            false,
            "{100000}, {1000000}, {7919}, {300007}, {99991}, {1}, {2}, {0}",
            r#"
    int n = s[0];
    double *x = dvec(n);
    double a = VecSum(n, x), b = VecSum_orig(n, x);
    cmp("s", &a, &b, 1);
    free(x);
    return n > 0;"#
                .to_string(),
            "if (n <= 100000)",
        ),
        "vecScale.c" => (
            "VecScale",
            "(int n, double a, double *w)",
            false,
            "{1000}, {50000}, {7919}, {50021}, {999}, {1}, {2}, {0}",
            r#"
    int n = s[0];
    double a = rnd(), *w = dvec(n), *wr = DUP(w, n);
    VecScale(n, a, w);
    VecScale_orig(n, a, wr);
    cmp("w", w, wr, n);
    free(w); free(wr);
    return n > 0;"#
                .to_string(),
            "if (n <= 1000)",
        ),
        "matVec.c" => (
            "MatVec",
            "(int m, int n, const double *A, const double *x, double *y)",
            false,
            MATVEC_SIZES,
            MATVEC_BODY
                .replace("REAL", "double")
                .replace("VEC", "dvec")
                .replace("FUNC", "MatVec"),
            "if (m <= 60 && n <= 50)",
        ),
        "ex14FF.c" => (
            "FormFunction",
            "(int mx, int my, int mz, double sc, double hyhzdhx, double hxhzdhy, \
             double hxhydhz, const double *x, double *f)",
            false,
            GRID_SIZES,
            format!(
                "{GRID_SETUP}{}",
                r#"
    double *f = dvec(np), *fr = DUP(f, np);
    FormFunction(mx, my, mz, sc, hyhzdhx, hxhzdhy, hxhydhz, x, f);
    FormFunction_orig(mx, my, mz, sc, hyhzdhx, hxhzdhy, hxhydhz, x, fr);
    cmp("f", f, fr, np);
    free(x); free(f); free(fr);
    return np > 0;"#
            ),
            "if (mx <= 8 && my <= 8 && mz <= 8)",
        ),
        "ex14FJ.c" => (
            "FormJacobian",
            "(int mx, int my, int mz, double sc, double hyhzdhx, double hxhzdhy, \
             double hxhydhz, const double *x, double *dia)",
            false,
            GRID_SIZES,
            format!(
                "{GRID_SETUP}{}",
                r#"
    /* one array of 7 blocks of np (Orio's dia[i + k*nrows]); the off-diagonal blocks keep their
     * (random) contents on boundary rows */
    double *d = dvec(7 * np), *dr = DUP(d, 7 * np);
    FormJacobian(mx, my, mz, sc, hyhzdhx, hxhzdhy, hxhydhz, x, d);
    FormJacobian_orig(mx, my, mz, sc, hyhzdhx, hxhzdhy, hxhydhz, x, dr);
    cmp("dia", d, dr, 7 * np);
    free(x); free(d); free(dr);
    return np > 0;"#
            ),
            "if (mx <= 8 && my <= 8 && mz <= 8)",
        ),
        "vecAXPY_float.c" => (
            "VecAXPYFloat",
            "(int n, float a, const float *x, float *y)",
            true,
            VEC_SIZES,
            r#"
    int n = s[0];
    float a = (float)prnd(), *x = fvec(n), *y = fvec(n), *yr = DUP(y, n);
    VecAXPYFloat(n, a, x, y);
    VecAXPYFloat_orig(n, a, x, yr);
    cmp("y", y, yr, n);
    free(x); free(y); free(yr);
    return n > 0;"#
                .to_string(),
            "if (n <= 1000)",
        ),
        "matVec_float.c" => (
            "MatVecFloat",
            "(int m, int n, const float *A, const float *x, float *y)",
            true,
            MATVEC_SIZES,
            MATVEC_BODY
                .replace("REAL", "float")
                .replace("VEC", "fvec")
                .replace("FUNC", "MatVecFloat"),
            "if (m <= 60 && n <= 50)",
        ),
        _ => panic!("no example {file}"),
    };
    Example {
        file,
        func,
        params,
        float,
        sizes,
        body,
        dispatch,
    }
}

#[test]
fn vec_waxpy() {
    check_example(&example("vecWAXPY.c"));
}

#[test]
fn vec_maxpy() {
    check_example(&example("vecMAXPY.c"));
}

#[test]
fn vec_dot() {
    check_example(&example("vecDot.c"));
}

#[test]
fn vec_norm2() {
    check_example(&example("vecNorm2.c"));
}

#[test]
fn vec_sum() {
    check_example(&example("vecSum.c"));
}

#[test]
fn vec_scale() {
    check_example(&example("vecScale.c"));
}

#[test]
fn mat_vec() {
    check_example(&example("matVec.c"));
}

#[test]
fn ex14_function() {
    check_example(&example("ex14FF.c"));
}

#[test]
fn ex14_jacobian() {
    check_example(&example("ex14FJ.c"));
}

#[test]
fn vec_axpy_float() {
    check_example(&example("vecAXPY_float.c"));
}

#[test]
fn mat_vec_float() {
    check_example(&example("matVec_float.c"));
}

/// matVec with no columns (n = 0, so `A` and `x` have no elements) still has m rows to zero, so
/// the kernel should run. Fails today: the host code asks for a zero-byte buffer
/// (`clCreateBuffer(..., (size_t)(n) * sizeof(double), ...)` is CL_INVALID_BUFFER_SIZE), returns
/// non-zero, and the original loop silently runs instead (the result is right, the launch count
/// is not).
#[test]

fn mat_vec_without_columns_still_launches() {
    check_example(&Example {
        sizes: "{5, 0}, {400, 0}",
        ..example("matVec.c")
    });
}
