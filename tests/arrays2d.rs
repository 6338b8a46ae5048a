//! Multi-dimensional static arrays (`A[i][j]`) end to end on the local OpenCL device (PoCL in
//! CI): `examples/jacobi2d.c` (C99 variable-length parameters `A[m][n]`),
//! `tests/inputs/ok/rows2d.c` (row length a macro: `A[][NC]`, `(*B)[NC]`; a lower bound of 2,
//! `<=`, sequential inner loops, a recurrence along a row), `tests/inputs/ok/globals2d.c`
//! (file-scope `double A[M][N]` with macro extents) and `tests/inputs/ok/grid3d.c` (3-D).
//! Each is checked, emitted, tuned (every evaluation `ok`), and the tuned file, compiled beside
//! the original (renamed with `-D`) and a C driver, computes what the original computes on the
//! driver's own pseudo-random data for odd shapes (7 x 5, 33 x 17, 100 x 1, ...). Every element
//! of every written array is compared, and kernel launches are counted through
//! `-Wl,--wrap=clEnqueueNDRangeKernel`, so a silent fall-back to the original loop fails.
//! Also: `orcl check` accepts what iterations cannot collide on and rejects what they can.

mod common;
use common::{run, Run};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use rusqlite::Connection;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// The driver's common part; `PROTOS`, `SIZES` and `BODY` come from the case.
const PRELUDE: &str = r#"
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
static double *dup(const double *p, long n) {
    double *q = malloc((size_t)(n > 0 ? n : 1) * sizeof *q);
    if (!q) exit(2);
    if (n > 0) memcpy(q, p, (size_t)n * sizeof *q);
    return q;
}

#define TOL 1e-12
static int bad;
static char where[64];
/* orcl's validation criterion over every element: |got - ref| <= TOL * max(|ref|, 1e-3 * max |ref|) */
static void cmp(const char *name, const double *got, const double *ref, long n) {
    double scale = 0.0;
    for (long i = 0; i < n; i++) if (fabs(ref[i]) > scale) scale = fabs(ref[i]);
    for (long i = 0; i < n; i++) {
        double den = fabs(ref[i]) > 1e-3 * scale ? fabs(ref[i]) : 1e-3 * scale;
        if (!(got[i] == ref[i] || fabs(got[i] - ref[i]) <= TOL * den)) {
            if (bad++ < 10) printf("%s: %s[%ld] = %.17g, expected %.17g\n", where, name, i, got[i], ref[i]);
        }
    }
}

PROTOS

static const int sizes[][3] = { SIZES };

/* Runs the tuned and the original function on copies of the same data; returns whether the
 * parallel loop is non-empty (one kernel launch expected). */
static int check(const int *s) {
BODY
}

int main(void) {
    int expected = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        snprintf(where, sizeof where, "sizes {%d, %d, %d}", sizes[k][0], sizes[k][1], sizes[k][2]);
        expected += check(sizes[k]);
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

/// One tuned file and its driver.
struct Case {
    /// Path under the crate root.
    path: &'static str,
    /// The tuned C function (the original is compiled as `FUNC_orig`).
    func: &'static str,
    /// The function's prototype text after its name, with parentheses.
    params: &'static str,
    /// Lines `#define ...` and declarations the driver needs.
    defines: &'static str,
    /// More `-D` flags for compiling the original (renaming its globals).
    orig_flags: &'static [&'static str],
    /// Rows `{a, b, c}` of sizes (C initialiser).
    sizes: &'static str,
    /// The body of `check`.
    body: &'static str,
    /// Evaluations the tune records (every one must be `ok`).
    evaluations: usize,
    /// Lines the tuned file must contain (the dispatch, the flat storage passed).
    tuned_has: &'static [&'static str],
    /// Fragments of the emitted kernel (the flattened subscripts).
    kernel_has: &'static [&'static str],
}

/// Run `cmd` in `dir` to completion (killed after `limit`); panics unless it exits with 0.
fn run_ok(mut cmd: Command, dir: &Path, limit: Duration) -> Run {
    cmd.current_dir(dir);
    let what = format!("{cmd:?}");
    let r = run(cmd, limit);
    assert_eq!(r.code(), Some(0), "{what}\n{}", r.dump());
    r
}

fn cc(dir: &Path, args: &[&str]) {
    let mut c = Command::new("cc");
    c.arg("-std=gnu99").args(args);
    run_ok(c, dir, Duration::from_secs(60));
}

fn orcl(dir: &Path, args: &[&str]) -> Run {
    let mut c = Command::new(ORCL);
    c.args(args)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT");
    c.current_dir(dir);
    run(c, Duration::from_secs(120))
}

/// check, emit, tune, then compile the tuned file, the original and the driver, and run it.
fn tune_and_drive(case: &Case) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(case.path);
    let file = src.file_name().unwrap().to_str().unwrap().to_string();
    let tmp = tempfile::Builder::new()
        .prefix("orcl-arrays2d-")
        .tempdir()
        .expect("temp dir");
    let dir = tmp.path();
    std::fs::copy(&src, dir.join(&file)).unwrap_or_else(|e| panic!("copy {}: {e}", src.display()));

    let checked = orcl(dir, &["check", &file]);
    checked.assert_code(0);
    let emitted = orcl(dir, &["emit", &file]);
    emitted.assert_code(0);
    for k in case.kernel_has {
        assert!(
            emitted.stdout.contains(k),
            "no `{k}` in the kernel:\n{}",
            emitted.stdout
        );
    }
    let skeleton = orcl(dir, &["emit", &file, "--skeleton"]);
    skeleton.assert_code(0);

    let tuned_name = format!("_{file}");
    let t = orcl(dir, &["tune", &file, "--db", "tune.db", "-o", &tuned_name]);
    t.assert_code(0);
    let conn = Connection::open(dir.join("tune.db")).expect("open tune.db");
    let mut st = conn
        .prepare("SELECT config_key, status FROM evaluation ORDER BY id")
        .unwrap();
    let rows: Vec<(String, String)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.len(), case.evaluations, "{rows:?}\n{}", t.dump());
    for (key, status) in &rows {
        assert_eq!(status, "ok", "{key}\n{}", t.dump());
    }
    let tuned = std::fs::read_to_string(dir.join(&tuned_name)).unwrap();
    for l in case.tuned_has {
        assert!(tuned.contains(l), "no `{l}` in the tuned file:\n{tuned}");
    }

    let protos = format!(
        "{}\nvoid {f}{p};\nvoid {f}_orig{p};",
        case.defines,
        f = case.func,
        p = case.params
    );
    let driver = PRELUDE
        .replace("PROTOS", &protos)
        .replace("SIZES", case.sizes)
        .replace("BODY", case.body);
    std::fs::write(dir.join("driver.c"), driver).unwrap();
    cc(dir, &["-O2", "-Wall", "-c", &tuned_name, "-o", "tuned.o"]);
    let rename = format!("-D{0}={0}_orig", case.func);
    let mut orig = vec!["-O2", "-c", &rename];
    orig.extend_from_slice(case.orig_flags);
    orig.extend_from_slice(&[&file, "-o", "orig.o"]);
    cc(dir, &orig);
    cc(dir, &["-O2", "-c", "driver.c", "-o", "driver.o"]);
    cc(
        dir,
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
    let out = run_ok(
        Command::new(dir.join("driver")),
        dir,
        Duration::from_secs(60),
    );
    assert!(out.stdout.lines().any(|l| l == "PASS"), "{}", out.dump());
}

/// The 5-point Jacobi sweep over `double A[m][n]`, `B[m][n]` (tuned for 40 x 30 and 300 x 200):
/// odd shapes, the tuned ones, beyond, a single column, too few rows for an interior, no rows.
#[test]
fn jacobi2d_example() {
    tune_and_drive(&Case {
        path: "examples/jacobi2d.c",
        func: "Jacobi2D",
        params: "(int m, int n, const double A[m][n], double B[m][n])",
        defines: "",
        orig_flags: &[],
        sizes: "{7, 5}, {33, 17}, {100, 1}, {40, 30}, {300, 200}, {301, 211}, {3, 3}, {2, 9}, {1, 1}, {0, 4}",
        body: r#"
    int m = s[0], n = s[1];
    long e = (long)m * n;
    double *A = dvec(e), *B = dvec(e), *Br = dup(B, e);
    Jacobi2D(m, n, (const double (*)[n])A, (double (*)[n])B);
    Jacobi2D_orig(m, n, (const double (*)[n])A, (double (*)[n])Br);
    cmp("B", B, Br, e);
    free(A); free(B); free(Br);
    return m - 2 >= 1;"#,
        evaluations: 16,
        tuned_has: &[
            "if (m <= 40 && n <= 30) orcl_v = 0;",
            "orcl_Jacobi2D_region0(m, n, &B[0][0], &A[0][0])",
            "(size_t)((long)m * n)",
        ],
        kernel_has: &[
            "B[i * n + j] = 0.2 * (A[i * n + j] + A[(i - 1) * n + j] + A[(i + 1) * n + j] + A[i * n + (j - 1)] + A[i * n + (j + 1)]);",
            "__kernel void orcl_kernel(const int m, const int n, __global double *B, __global const double *A)",
        ],
    });
}

/// Row length a macro (`A[][NC]`, `(*B)[NC]`) and a C99 VLA (`C[m][n]`); the parallel loop runs
/// over 2..m-1 with `<=`; inner loops are sequential, C[i][j] reads C[i][j-1] (tuned for m = 50
/// and 129, n = 17; n <= NC = 23).
#[test]
fn rows_macro_extent_lower_bound_inner_loops() {
    tune_and_drive(&Case {
        path: "tests/inputs/ok/rows2d.c",
        func: "Rows",
        params: "(int m, int n, const double A[][NC], double (*B)[NC], double C[m][n])",
        defines: "#define NC 23",
        orig_flags: &[],
        sizes: "{7, 5}, {33, 17}, {100, 1}, {50, 17}, {129, 17}, {131, 23}, {3, 2}, {2, 4}, {0, 3}",
        body: r#"
    int m = s[0], n = s[1];
    long ea = (long)m * NC, ec = (long)m * n;
    double *A = dvec(ea), *B = dvec(ea), *Br = dup(B, ea), *C = dvec(ec), *Cr = dup(C, ec);
    Rows(m, n, (const double (*)[NC])A, (double (*)[NC])B, (double (*)[n])C);
    Rows_orig(m, n, (const double (*)[NC])A, (double (*)[NC])Br, (double (*)[n])Cr);
    cmp("B", B, Br, ea);
    cmp("C", C, Cr, ec);
    free(A); free(B); free(Br); free(C); free(Cr);
    return m - 1 >= 2;"#,
        evaluations: 8,
        tuned_has: &[
            "if (m <= 50 && n <= 17) orcl_v = 0;",
            "orcl_Rows_region0(m, &C[0][0], n, &A[0][0], (long)NC, nc, &B[0][0], (long)NC)",
        ],
        kernel_has: &[
            "const long orcl_A_dim1",
            "C[i * n] = A[(i - 2) * orcl_A_dim1];",
            "C[i * n + j] = C[i * n + (j - 1)] + A[(i - 2) * orcl_A_dim1 + j] * A[i * orcl_A_dim1 + j];",
            "B[i * orcl_B_dim1 + j] = 0.5 * B[i * orcl_B_dim1 + j] + C[i * n + j % n];",
        ],
    });
}

/// A 3-D array `U[p][q][r]`, one work-item per plane, a recurrence along the innermost
/// dimension (tuned for 9 x 7 x 5).
#[test]
fn grid3d() {
    tune_and_drive(&Case {
        path: "tests/inputs/ok/grid3d.c",
        func: "Grid",
        params: "(int p, int q, int r, const double U[p][q][r], double V[p][q][r])",
        defines: "",
        orig_flags: &[],
        sizes: "{9, 7, 5}, {3, 4, 5}, {11, 1, 7}, {1, 13, 2}, {17, 3, 1}, {0, 3, 3}",
        body: r#"
    int p = s[0], q = s[1], r = s[2];
    long e = (long)p * q * r;
    double *U = dvec(e), *V = dvec(e), *Vr = dup(V, e);
    Grid(p, q, r, (const double (*)[q][r])U, (double (*)[q][r])V);
    Grid_orig(p, q, r, (const double (*)[q][r])U, (double (*)[q][r])Vr);
    cmp("V", V, Vr, e);
    free(U); free(V); free(Vr);
    return p > 0;"#,
        evaluations: 2,
        tuned_has: &["orcl_Grid_region0(p, q, r, &V[0][0][0], &U[0][0][0])"],
        kernel_has: &[
            "V[(i * q + j) * r + k] = U[(i * q + j) * r + k] - U[(i * q + j) * r + (k - 1)] + V[(i * q + j) * r + (k - 1)];",
        ],
    });
}

/// File-scope arrays `double A[M][N], B[M][N]` sized by macros that are also the input
/// parameters: the tuned file passes the macro `N` as the row length.
#[test]
fn globals_sized_by_macros() {
    tune_and_drive(&Case {
        path: "tests/inputs/ok/globals2d.c",
        func: "Diff",
        params: "(void)",
        defines: "extern double A[37][23], B[37][23], A_orig[37][23], B_orig[37][23];",
        orig_flags: &["-DA=A_orig", "-DB=B_orig"],
        sizes: "{37, 23}, {37, 23}",
        body: r#"
    (void)s;
    for (int i = 0; i < 37; i++)
        for (int j = 0; j < 23; j++) {
            A[i][j] = A_orig[i][j] = rnd();
            B[i][j] = B_orig[i][j] = rnd();
        }
    Diff();
    Diff_orig();
    cmp("A", &A[0][0], &A_orig[0][0], 37 * 23);
    cmp("B", &B[0][0], &B_orig[0][0], 37 * 23);
    return 1;"#,
        evaluations: 2,
        tuned_has: &["orcl_Diff_region0(&B[0][0], (long)N, &A[0][0], (long)N)"],
        kernel_has: &[
            "B[i * orcl_B_dim1 + j] = A[i * orcl_A_dim1 + j] - A[i * orcl_A_dim1 + (j - 1)] + 0.5 * B[i * orcl_B_dim1 + (j - 1)];",
        ],
    });
}

// ---- what `orcl check` accepts and rejects ------------------------------------------------

/// `examples/jacobi2d.c` with its loop (both copies) replaced by `body` and its C parameters by
/// `params`.
fn jacobi_variant(params: &str, body: &str) -> String {
    let src =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/jacobi2d.c"))
            .unwrap();
    let old = "    for (i=1; i<=m-2; i++)\n        for (j=1; j<=n-2; j++)\n            B[i][j] = 0.2*(A[i][j] + A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]);\n";
    assert_eq!(src.matches(old).count(), 2);
    src.replace(old, &format!("{body}\n"))
        .replace("int m, int n, const double A[m][n], double B[m][n]", params)
}

/// `orcl check` on `text` (as `t.c`): exit code and stderr.
fn check_text(text: &str) -> (Option<i32>, String) {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("t.c"), text).unwrap();
    let r = orcl(tmp.path(), &["check", "t.c"]);
    (r.code(), r.stderr)
}

const VLA: &str = "int m, int n, const double A[m][n], double B[m][n]";

#[test]
fn check_accepts_iterations_that_own_their_rows_or_columns() {
    for body in [
        // a recurrence along the row of the iteration
        "    for (i=1; i<=m-2; i++)\n        for (j=1; j<=n-1; j++)\n            B[i][j] = B[i][j-1] + A[i][j];",
        // iteration i owns column i
        "    for (i=0; i<n; i++)\n        for (j=1; j<m; j++)\n            B[j][i] = B[j-1][i] * A[j][i];",
        // a row index affine in i, several statements
        "    for (i=0; i<m/2; i++) {\n        double t = A[2*i][0];\n        for (j=0; j<n; j++)\n            B[2*i+1][j] = t + B[2*i+1][j];\n    }",
    ] {
        let (code, stderr) = check_text(&jacobi_variant(VLA, body));
        assert_eq!(code, Some(0), "{body}\n{stderr}");
    }
}

#[test]
fn check_rejects_iterations_that_collide() {
    for (body, want) in [
        // transposed read of the written array
        (
            "    for (i=0; i<m; i++)\n        for (j=0; j<n; j++)\n            B[i][j] = B[j][i] + A[i][j];",
            "written at `B[i][j]` and read at `B[j][i]`",
        ),
        // another iteration's row
        (
            "    for (i=1; i<m; i++)\n        for (j=0; j<n; j++)\n            B[i][j] = B[i-1][j] + A[i][j];",
            "written at `B[i][j]` and read at `B[i - 1][j]`",
        ),
        // a row that moves with the inner loop
        (
            "    for (i=0; i<m; i++)\n        for (j=0; j<n; j++)\n            B[i+j][0] = A[i][j];",
            "changes with `j`",
        ),
        // no subscript depends on i
        (
            "    for (i=0; i<m; i++)\n        for (j=0; j<n; j++)\n            B[0][j] = A[i][j];",
            "none of whose subscripts depend on `i`",
        ),
    ] {
        let (code, stderr) = check_text(&jacobi_variant(VLA, body));
        assert_eq!(code, Some(2), "{body}\n{stderr}");
        assert!(stderr.contains(want), "{body}\nno `{want}` in\n{stderr}");
        assert!(stderr.contains("--> t.c:"), "{stderr}");
    }
}

#[test]
fn check_rejects_rows_that_are_not_contiguous() {
    for (params, want) in [
        (
            "int m, int n, const double A[m][n], double **B",
            "`B` is declared `double **B`, a pointer to pointers",
        ),
        (
            "int m, int n, const double A[m][n], double *B[40]",
            "`B` is declared `double *B[40]`, an array of pointers",
        ),
    ] {
        let (code, stderr) = check_text(&jacobi_variant(
            params,
            "    for (i=1; i<=m-2; i++)\n        for (j=1; j<=n-2; j++)\n            B[i][j] = A[i][j];",
        ));
        assert_eq!(code, Some(2), "{params}\n{stderr}");
        assert!(stderr.contains(want), "{params}\nno `{want}` in\n{stderr}");
        assert!(
            stderr.contains("help: declare `B` as one block of memory"),
            "{stderr}"
        );
    }
}

#[test]
fn a_flat_pointer_with_2d_extents_is_subscripted_once() {
    // `double *B` with `decl static double B[M][N]`: B is one flat array, indexed `B[i*n + j]`.
    let text = jacobi_variant(
        "int m, int n, const double A[m][n], double *B",
        "    for (i=1; i<=m-2; i++)\n        for (j=1; j<=n-2; j++)\n            B[i*n+j] = A[i][j];",
    );
    let (code, stderr) = check_text(&text);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, stderr) = check_text(&text.replace("B[i*n+j] = A[i][j]", "B[i][j] = A[i][j]"));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("`B` has 1 dimension(s) but is subscripted with 2"),
        "{stderr}"
    );
}
