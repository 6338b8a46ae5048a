//! Orio's region forms (issue 11), tuned end to end on the local OpenCL device (PoCL in CI) and
//! checked from C drivers: declarations between the `PerfTuning` header and the `Loop` annotation
//! (the OrCL paper's Figure 2 `int n=N;`; a derived size `int nrows = m*n;` as the loop bound and
//! mesh scalars computed from the sizes). The inputs are in `tests/inputs/orio/`, written in
//! Orio's style. Orio's own files redeclare the function's size parameters (`int n=N;` in
//! `VecAXPY(int n, ...)`), which C rejects, so the driver's "original" is the same file with those
//! redeclarations removed: the function as C means it, on the driver's own random data.

mod common;
use common::{driver_source, run, run_driver, statuses};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// Tune `file` (from tests/inputs/orio) in a temp dir, check every evaluation is `ok` and that
/// the tuned file keeps/annotates the preamble as `expect_in_tuned` says, then run the driver.
fn tune_and_drive(file: &str, func: &str, drop_lines: &[&str], driver: &str, expect: &[&str]) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/inputs/orio")
        .join(file);
    let tmp = tempfile::Builder::new()
        .prefix("orcl-orio-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    let text = std::fs::read_to_string(&src).unwrap();
    std::fs::write(dir.join(file), &text).unwrap();
    let mut c = Command::new(ORCL);
    c.args(["tune", file, "--db", "tune.db"])
        .current_dir(dir)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT");
    let r = run(c, Duration::from_secs(300));
    assert_eq!(r.code(), Some(0), "{}", r.dump());
    let rows = statuses(&dir.join("tune.db"));
    assert_eq!(rows.len(), 8, "4 configurations x 2 sizes: {rows:?}");
    assert!(
        rows.iter().all(|(_, s)| s == "ok"),
        "{rows:?}\n{}",
        r.dump()
    );
    let tuned = std::fs::read_to_string(dir.join(format!("_{file}"))).unwrap();
    for e in expect {
        assert!(tuned.contains(e), "no `{e}` in the tuned file:\n{tuned}");
    }
    // The original as C means it: the size parameters' redeclarations removed.
    let orig: String = text
        .lines()
        .filter(|l| !drop_lines.contains(&l.trim()))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        orig.lines().count() + drop_lines.len(),
        text.lines().count(),
        "every line to drop is in {file}"
    );
    std::fs::write(dir.join("orig.c"), orig).unwrap();
    run_driver(
        dir,
        &format!("_{file}"),
        "orig.c",
        func,
        driver,
        Duration::from_secs(60),
    );
}

/// Figure 2 of the OrCL paper: `int n=N;` before the Loop binds the loop bound to input param N.
#[test]
fn figure2_int_n_eq_n_before_the_loop() {
    let driver = driver_source(
        "void VecAXPY(int n, double a, double *x, double *y);\nvoid VecAXPY_orig(int n, double a, double *x, double *y);\n#define TOL 1e-12",
        "{1000}, {30000}, {7919}, {30011}, {999}, {1}, {0}",
        r#"
    int n = s[0];
    double a = rnd(), *x = dvec(n), *y = dvec(n), *yr = DUP(y, n);
    VecAXPY(n, a, x, y);
    VecAXPY_orig(n, a, x, yr);
    cmp("y", y, yr, n);
    free(x); free(y); free(yr);
    return n > 0;"#,
    );
    tune_and_drive(
        "fig2_vecAXPY.c",
        "VecAXPY",
        &["int n=N;"],
        &driver,
        &[
            // kept where it was, as a comment: it redeclares the parameter `n`
            "/* orcl: `int n=N;` redeclares the parameter `n`",
            // the size dispatch tests the bound variable
            "if (n <= 1000)",
        ],
    );
}

/// `int nrows = m*n;` (a derived size) is the loop bound; `hx`, `sc`, ... computed from the sizes
/// are scalars of the loop.
#[test]
fn derived_size_and_scalars_before_the_loop() {
    let driver = driver_source(
        "void Stencil2D(double lambda, int m, int n, const double *x, double *f);\nvoid Stencil2D_orig(double lambda, int m, int n, const double *x, double *f);\n#define TOL 1e-12",
        "{20, 30}, {60, 50}, {7, 11}, {61, 53}, {3, 3}, {2, 9}, {0, 4}",
        r#"
    int m = s[0], n = s[1];
    long np = (long)m * n;
    double *x = dvec(np), *f = dvec(np), *fr = DUP(f, np);
    Stencil2D(6.0, m, n, x, f);
    Stencil2D_orig(6.0, m, n, x, fr);
    cmp("f", f, fr, np);
    free(x); free(f); free(fr);
    return np > 0;"#,
    );
    tune_and_drive(
        "preamble_nrows.c",
        "Stencil2D",
        &["int m     = M;", "int n     = N;"],
        &driver,
        &[
            "  int nrows = m*n;\n  double hx = 1.0/(m-1);",
            "if (m <= 20 && n <= 30)",
        ],
    );
}

/// One array written at two offsets per iteration (`F[2*i]`, `F[2*i+1]`), and a scalar declared
/// at function scope that every iteration assigns first (private per work-item).
#[test]
fn interleaved_writes_and_private_outside_scalar() {
    let driver = driver_source(
        "void Interleaved(int n, double a, const double *X, double *F);\nvoid Interleaved_orig(int n, double a, const double *X, double *F);\n#define TOL 1e-12",
        "{1000}, {30000}, {7919}, {30011}, {1}, {0}",
        r#"
    int n = s[0];
    double a = rnd(), *X = dvec(2L * n), *F = dvec(2L * n), *Fr = DUP(F, 2L * n);
    Interleaved(n, a, X, F);
    Interleaved_orig(n, a, X, Fr);
    cmp("F", F, Fr, 2L * n);
    free(X); free(F); free(Fr);
    return n > 0;"#,
    );
    tune_and_drive(
        "interleaved_dof.c",
        "Interleaved",
        &["int n=N;"],
        &driver,
        &["if (n <= 1000)"],
    );
}

/// A statement after the loop inside the annotation (Orio's vecNorm2 `r=sqrt(r);`): run once
/// after the reduction, in the skeleton (validated) and in the tuned file.
#[test]
fn statement_after_the_loop() {
    let driver = driver_source(
        "double VecNorm2(int n, double *x);\ndouble VecNorm2_orig(int n, double *x);\n#define TOL 1e-9",
        "{1000}, {30000}, {7919}, {30011}, {1}, {0}",
        r#"
    int n = s[0];
    double *x = dvec(n);
    double a = VecNorm2(n, x), b = VecNorm2_orig(n, x);
    cmp("norm", &a, &b, 1);
    free(x);
    return n > 0;"#,
    );
    tune_and_drive(
        "vecNorm2_after.c",
        "VecNorm2",
        &["int n=N;"],
        &driver,
        &["    }\n    r=sqrt(r);"],
    );
}

/// An array that exists only in `input_vars` (Orio's matVec2D `offsets`, a brace list of input
/// params): the tuned file declares it before the region with the list as written, and input
/// params it reads that are not function parameters (`DOF`) get `#ifndef` defaults, so the tuned
/// file compiles and computes what the skeleton validated. The driver's reference is the loop
/// with `offsets` declared by hand (as the function's author would have to).
#[test]
fn array_declared_only_in_input_vars() {
    let driver = driver_source(
        "void DiagMV(double* A, double* x, double* y, int M, int N);\nvoid DiagMV_orig(double* A, double* x, double* y, int M, int N);\n#define TOL 1e-12",
        "{8}, {33}, {5}, {17}, {1}",
        r#"
    int m = s[0];
    long np = (long)m * m;
    double *A = dvec(5 * np), *x = dvec(np), *y = dvec(np), *yr = DUP(y, np);
    DiagMV(A, x, y, m, m);
    DiagMV_orig(A, x, yr, m, m);
    cmp("y", y, yr, np);
    free(A); free(x); free(y); free(yr);
    return np > 0;"#,
    );
    let file = "diag_offsets.c";
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/inputs/orio")
        .join(file);
    let tmp = tempfile::Builder::new()
        .prefix("orcl-orio-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    let text = std::fs::read_to_string(&src).unwrap();
    std::fs::write(dir.join(file), &text).unwrap();
    let mut c = Command::new(ORCL);
    c.args(["tune", file, "--db", "tune.db"])
        .current_dir(dir)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT");
    let r = run(c, Duration::from_secs(300));
    assert_eq!(r.code(), Some(0), "{}", r.dump());
    let rows = statuses(&dir.join("tune.db"));
    assert_eq!(rows.len(), 8, "4 configurations x 2 sizes: {rows:?}");
    assert!(rows.iter().all(|(_, s)| s == "ok"), "{rows:?}");
    let tuned = std::fs::read_to_string(dir.join(format!("_{file}"))).unwrap();
    for e in [
        "int offsets[] = {-M*DOF,-DOF,0,DOF,M*DOF};",
        "#ifndef DOF",
        "#ifndef NOS",
    ] {
        assert!(tuned.contains(e), "no `{e}` in the tuned file:\n{tuned}");
    }
    // The reference: the original function with the declarations its author would add.
    let orig = text.replace(
        "  int nrows=M*N;",
        "  int offsets[] = {-M, -1, 0, 1, M};\n  int nrows=M*N;",
    );
    let orig = format!("#define NOS 5\n{orig}");
    std::fs::write(dir.join("orig.c"), orig).unwrap();
    run_driver(
        dir,
        &format!("_{file}"),
        "orig.c",
        "DiagMV",
        &driver,
        Duration::from_secs(60),
    );
}
