//! Regions that hold a time loop (issue 22 item 6): PolyBench/C 4.2.1's stencils jacobi-1d,
//! jacobi-2d, heat-3d and fdtd-2d (`tests/polybench/`), each annotated with one region around
//! the whole `for (t ...)` loop, its nests as written. Each is tuned on the local OpenCL device
//! (PoCL in CI): every variant runs all steps of the time loop, all kernels of each step, and is
//! validated against the original loop (status `ok`). Then the tuned `_file.c`, compiled beside the
//! original and a C driver, computes what the original computes at the tuned sizes and at one it
//! was not tuned for, with kernel launches counted (steps × kernels per call) so that a silent
//! fall-back to the original loop fails. Also a region that holds a sequence of nests without a
//! time loop (PolyBench's mvt, `tests/inputs/ok/mvt_sequence.c`): two kernels, launched once.

mod common;
use common::{driver_source, run, run_driver, statuses, Run};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

fn orcl(dir: &Path, args: &[&str]) -> Run {
    let mut c = Command::new(ORCL);
    c.args(args)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT");
    c.current_dir(dir);
    run(c, Duration::from_secs(300))
}

/// Tune `tests/<file>` in a fresh directory: `evaluations` evaluations, all `ok`.
fn tune(file: &str, evaluations: usize) -> tempfile::TempDir {
    let tmp = tempfile::Builder::new()
        .prefix("orcl-polybench-time-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(file);
    let file = Path::new(file).file_name().unwrap().to_str().unwrap();
    std::fs::copy(src, dir.join(file)).unwrap();
    orcl(dir, &["check", file]).assert_code(0);
    let t = orcl(dir, &["tune", file, "--db", "tune.db"]);
    t.assert_code(0);
    let rows = statuses(&dir.join("tune.db"));
    assert_eq!(rows.len(), evaluations, "{rows:?}\n{}", t.dump());
    for (key, status) in &rows {
        assert_eq!(status, "ok", "{key}\n{}", t.dump());
    }
    tmp
}

/// Tune `file`, then compare its tuned function `func` (prototype `proto`, `NAME` for the name)
/// with the original on the driver's `sizes` (`body` calls both and compares).
fn tune_and_compare(
    file: &str,
    evaluations: usize,
    func: &str,
    proto: &str,
    sizes: &str,
    body: &str,
) {
    let tmp = tune(file, evaluations);
    let dir = tmp.path();
    let file = Path::new(file).file_name().unwrap().to_str().unwrap();
    let tuned = format!("_{file}");
    let text = std::fs::read_to_string(dir.join(&tuned)).unwrap();
    assert!(
        text.contains("for (long orcl_s = 0; orcl_s < orcl_steps; orcl_s++)"),
        "{text}"
    );
    let protos = format!(
        "#define TOL 1e-12\n{};\n{};",
        proto.replace("NAME", func),
        proto.replace("NAME", &format!("{func}_orig"))
    );
    let driver = driver_source(&protos, sizes, body);
    run_driver(dir, &tuned, file, func, &driver, Duration::from_secs(120));
}

#[test]
fn jacobi_1d_whole_time_loop() {
    let body = r#"
    int tsteps = s[0], n = s[1];
    double *A = dvec(n), *B = dvec(n), *Ar = DUP(A, n), *Br = DUP(B, n);
    kernel_jacobi_1d(tsteps, n, A, B);
    kernel_jacobi_1d_orig(tsteps, n, Ar, Br);
    cmp("A", A, Ar, n);
    cmp("B", B, Br, n);
    free(A); free(B); free(Ar); free(Br);
    return tsteps * 2;"#;
    tune_and_compare(
        "polybench/jacobi-1d.c",
        4,
        "kernel_jacobi_1d",
        "void NAME(int tsteps, int n, double A[n], double B[n])",
        "{5, 37, 0}, {3, 130, 0}, {7, 61, 0}",
        body,
    );
}

#[test]
fn jacobi_2d_whole_time_loop_tiled() {
    let body = r#"
    int tsteps = s[0], n = s[1];
    long e = (long)n * n;
    double *A = dvec(e), *B = dvec(e), *Ar = DUP(A, e), *Br = DUP(B, e);
    kernel_jacobi_2d(tsteps, n, (double (*)[n])A, (double (*)[n])B);
    kernel_jacobi_2d_orig(tsteps, n, (double (*)[n])Ar, (double (*)[n])Br);
    cmp("A", A, Ar, e);
    cmp("B", B, Br, e);
    free(A); free(B); free(Ar); free(Br);
    return tsteps * 2;"#;
    tune_and_compare(
        "polybench/jacobi-2d.c",
        4,
        "kernel_jacobi_2d",
        "void NAME(int tsteps, int n, double A[n][n], double B[n][n])",
        "{4, 23, 0}, {4, 41, 0}, {6, 30, 0}",
        body,
    );
}

#[test]
fn heat_3d_whole_time_loop_tiled() {
    let body = r#"
    int tsteps = s[0], n = s[1];
    long e = (long)n * n * n;
    double *A = dvec(e), *B = dvec(e), *Ar = DUP(A, e), *Br = DUP(B, e);
    kernel_heat_3d(tsteps, n, (double (*)[n][n])A, (double (*)[n][n])B);
    kernel_heat_3d_orig(tsteps, n, (double (*)[n][n])Ar, (double (*)[n][n])Br);
    cmp("A", A, Ar, e);
    cmp("B", B, Br, e);
    free(A); free(B); free(Ar); free(Br);
    /* PolyBench's heat-3d loop runs TSTEPS steps (20, the file's default), not `tsteps` */
    (void)tsteps;
    return 20 * 2;"#;
    tune_and_compare(
        "polybench/heat-3d.c",
        4,
        "kernel_heat_3d",
        "void NAME(int tsteps, int n, double A[n][n][n], double B[n][n][n])",
        "{3, 10, 0}, {3, 17, 0}, {2, 13, 0}",
        body,
    );
}

/// fdtd-2d's step: a 1-D nest (`ey[0][j] = _fict_[t]`), then three 2-D nests; its
/// `tile=[('i',TI),('j',TJ)]` tiles the three nests that have both loops, and the first is the
/// 1-D map of `workItemsPerGroup`.
#[test]
fn fdtd_2d_four_kernels_per_step() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/polybench");
    let e = orcl(&dir, &["emit", "fdtd-2d.c"]);
    e.assert_code(0);
    let kernel = |q: usize| {
        let from = e
            .stdout
            .find(&format!("__kernel void orcl_kernel_{q}("))
            .unwrap();
        let rest = &e.stdout[from + 1..];
        rest[..rest.find("__kernel").unwrap_or(rest.len())].to_string()
    };
    assert!(!kernel(0).contains("get_local_id(1)"), "{}", kernel(0));
    for q in 1..4 {
        assert!(
            kernel(q).contains("get_local_id(1)"),
            "kernel {q}: {}",
            kernel(q)
        );
    }
    let body = r#"
    int tmax = s[0], nx = s[1], ny = s[2];
    long e = (long)nx * ny;
    double *ex = dvec(e), *ey = dvec(e), *hz = dvec(e), *f = dvec(tmax);
    double *exr = DUP(ex, e), *eyr = DUP(ey, e), *hzr = DUP(hz, e);
    kernel_fdtd_2d(tmax, nx, ny, (double (*)[ny])ex, (double (*)[ny])ey, (double (*)[ny])hz, f);
    kernel_fdtd_2d_orig(tmax, nx, ny, (double (*)[ny])exr, (double (*)[ny])eyr, (double (*)[ny])hzr, f);
    cmp("ex", ex, exr, e);
    cmp("ey", ey, eyr, e);
    cmp("hz", hz, hzr, e);
    free(ex); free(ey); free(hz); free(f); free(exr); free(eyr); free(hzr);
    return tmax * 4;"#;
    tune_and_compare(
        "polybench/fdtd-2d.c",
        4,
        "kernel_fdtd_2d",
        "void NAME(int tmax, int nx, int ny, double ex[nx][ny], double ey[nx][ny], double hz[nx][ny], double _fict_[tmax])",
        "{5, 13, 21}, {5, 30, 21}, {3, 17, 9}",
        body,
    );
}

#[test]
fn mvt_sequence_of_two_nests() {
    let body = r#"
    int n = s[0];
    long e = (long)n * n;
    double *x1 = dvec(n), *x2 = dvec(n), *y1 = dvec(n), *y2 = dvec(n), *A = dvec(e);
    double *x1r = DUP(x1, n), *x2r = DUP(x2, n);
    kernel_mvt(n, x1, x2, y1, y2, (double (*)[n])A);
    kernel_mvt_orig(n, x1r, x2r, y1, y2, (double (*)[n])A);
    cmp("x1", x1, x1r, n);
    cmp("x2", x2, x2r, n);
    free(x1); free(x2); free(y1); free(y2); free(A); free(x1r); free(x2r);
    return 2;"#;
    tune_and_compare(
        "inputs/ok/mvt_sequence.c",
        4,
        "kernel_mvt",
        "void NAME(int n, double x1[n], double x2[n], double y_1[n], double y_2[n], double A[n][n])",
        "{29, 0, 0}, {70, 0, 0}, {45, 0, 0}",
        body,
    );
}
