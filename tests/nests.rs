//! Loop nests as 2-D NDRanges (`tile`, `regTile`, `cacheBlocks`; issue 12) end to end on the
//! local OpenCL device (PoCL in CI): `examples/transpose.c` (float, a local tile padded against
//! bank conflicts) and `examples/jacobi2d_tile.c` (double, a staged halo), each tuned over its
//! whole tile/regTile/cacheBlocks space at sizes the tiles do not divide (every variant validated
//! against the original loop: status `ok`), and the tuned file, compiled beside the original and a
//! C driver, computes what the original computes for odd shapes, with kernel launches counted
//! (and checked to be 2-D) so a silent fall-back fails. Also: a register tile that does not divide
//! its tile is pruned as a device-limit outcome, never built; a `tile` that no value can make
//! valid is a located error.

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

/// Tune `text` as `file` in a fresh directory; every evaluation must have `status` except those
/// listed in `other` (configuration key fragment, status). Returns the directory.
fn tune(file: &str, text: &str, evaluations: usize, other: &[(&str, &str)]) -> tempfile::TempDir {
    let tmp = tempfile::Builder::new()
        .prefix("orcl-nests-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join(file), text).unwrap();
    orcl(dir, &["check", file]).assert_code(0);
    let t = orcl(dir, &["tune", file, "--db", "tune.db"]);
    t.assert_code(0);
    let rows = statuses(&dir.join("tune.db"));
    assert_eq!(rows.len(), evaluations, "{rows:?}\n{}", t.dump());
    for (key, status) in &rows {
        let want = other
            .iter()
            .find(|(k, _)| key.contains(k))
            .map(|(_, s)| *s)
            .unwrap_or("ok");
        assert_eq!(status, want, "{key}\n{}", t.dump());
    }
    tmp
}

fn example(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(name),
    )
    .unwrap()
}

/// A transpose only moves data: the tuned result must be exact.
const EXACT: &str = "#define TOL 0.0\n";

#[test]
fn transpose_tiles_staged_and_register_blocked() {
    let tmp = tune("transpose.c", &example("transpose.c"), 16, &[]);
    let dir = tmp.path();
    let tuned = std::fs::read_to_string(dir.join("_transpose.c")).unwrap();
    assert!(
        tuned.contains(
            "clEnqueueNDRangeKernel(orcl_queue[orcl_v], orcl_kernel[orcl_v], orcl_work_dim"
        ),
        "{tuned}"
    );
    assert!(tuned.contains("get_group_id(1)"), "{tuned}");
    // The staged variant pads its tile: emitted on its own.
    let e = orcl(
        dir,
        &[
            "emit",
            "transpose.c",
            "--set",
            "TI=32",
            "--set",
            "TJ=32",
            "--set",
            "RI=4",
            "--set",
            "CB=True",
        ],
    );
    e.assert_code(0);
    assert!(
        e.stdout.contains("__local float orcl_tile_A[32][33];"),
        "{}",
        e.stdout
    );
    assert!(e.stdout.contains("barrier(CLK_LOCAL_MEM_FENCE);"));
    let protos = format!(
        "{EXACT}void Transpose(int m, int n, const float A[m][n], float B[n][m]);\nvoid Transpose_orig(int m, int n, const float A[m][n], float B[n][m]);"
    );
    let body = r#"
    int m = s[0], n = s[1];
    long e = (long)m * n;
    float *A = fvec(e), *B = fvec(e), *Br = DUP(B, e);
    Transpose(m, n, (const float (*)[n])A, (float (*)[m])B);
    Transpose_orig(m, n, (const float (*)[n])A, (float (*)[m])Br);
    cmp("B", B, Br, e);
    free(A); free(B); free(Br);
    return m > 0;"#;
    let driver = driver_source(
        &protos,
        "{67, 45, 0}, {1, 1, 0}, {33, 70, 0}, {100, 3, 0}, {0, 5, 0}, {129, 257, 0}",
        body,
    );
    run_driver(
        dir,
        "_transpose.c",
        "transpose.c",
        "Transpose",
        &driver,
        Duration::from_secs(120),
    );
}

#[test]
fn jacobi2d_tile_with_staged_halo() {
    let tmp = tune("jacobi2d_tile.c", &example("jacobi2d_tile.c"), 16, &[]);
    let dir = tmp.path();
    let e = orcl(
        dir,
        &[
            "emit",
            "jacobi2d_tile.c",
            "--set",
            "TI=16",
            "--set",
            "TJ=32",
            "--set",
            "RI=2",
            "--set",
            "CB=True",
        ],
    );
    e.assert_code(0);
    // (16+2) x (32+2) with the halo; consecutive work-items walk rows: no padding.
    assert!(
        e.stdout.contains("__local double orcl_tile_A[18][34];"),
        "{}",
        e.stdout
    );
    let protos = "#define TOL 1e-12\nvoid Jacobi2DTile(int m, int n, const double A[m][n], double B[m][n]);\nvoid Jacobi2DTile_orig(int m, int n, const double A[m][n], double B[m][n]);";
    let body = r#"
    int m = s[0], n = s[1];
    long e = (long)m * n;
    double *A = dvec(e), *B = dvec(e), *Br = DUP(B, e);
    Jacobi2DTile(m, n, (const double (*)[n])A, (double (*)[n])B);
    Jacobi2DTile_orig(m, n, (const double (*)[n])A, (double (*)[n])Br);
    cmp("B", B, Br, e);
    free(A); free(B); free(Br);
    return m - 2 >= 1;"#;
    let driver = driver_source(
        protos,
        "{37, 45, 0}, {7, 5, 0}, {3, 3, 0}, {100, 1, 0}, {2, 9, 0}, {70, 131, 0}",
        body,
    );
    run_driver(
        dir,
        "_jacobi2d_tile.c",
        "jacobi2d_tile.c",
        "Jacobi2DTile",
        &driver,
        Duration::from_secs(120),
    );
}

/// RI=3 does not divide TI=8: the schedule is invalid, recorded as a device-limit outcome and
/// never built; the other configurations are measured.
#[test]
fn register_tile_that_does_not_divide_is_pruned() {
    let text = example("transpose.c")
        .replace("param TI[] = [8, 32];", "param TI[] = [8];")
        .replace("param TJ[] = [16, 32];", "param TJ[] = [16];")
        .replace("param RI[] = [1, 4];", "param RI[] = [1, 3];")
        .replace("param CB[] = [False, True];", "param CB[] = [True];");
    let _ = tune("t.c", &text, 2, &[("\"RI\":3", "device_limit")]);
}

/// A `tile` naming something that is not a loop of the nest, and a loop that is not parallel,
/// are located errors (exit 2, `file:line:col`).
#[test]
fn tile_errors_are_located() {
    let dir = tempfile::tempdir().unwrap();
    let bad_name =
        example("transpose.c").replace("tile=[('i',TI),('j',TJ)]", "tile=[('i',TI),('k',TJ)]");
    std::fs::write(dir.path().join("a.c"), bad_name).unwrap();
    let r = orcl(dir.path(), &["check", "a.c"]);
    r.assert_code(2);
    assert!(r.stderr.contains("a.c:29:42"), "{}", r.stderr);
    assert!(
        r.stderr.contains("not a loop of the perfect nest"),
        "{}",
        r.stderr
    );
    let seq = example("transpose.c").replace("B[j][i] = A[i][j];", "B[j][i] = B[j][i] + A[i][j];");
    std::fs::write(dir.path().join("b.c"), seq).unwrap();
    let r = orcl(dir.path(), &["check", "b.c"]);
    r.assert_code(0);
    // A sum into B[0][i] over j is a row reduction (rows and lanes); a maximum is not yet.
    let row = example("transpose.c")
        .replace("B[j][i] = A[i][j];", "B[0][i] = B[0][i] + A[i][j];")
        .replace(" regTile=[('i',RI)],", "");
    std::fs::write(dir.path().join("c.c"), row).unwrap();
    orcl(dir.path(), &["check", "c.c"]).assert_code(0);
    let max =
        example("transpose.c").replace("B[j][i] = A[i][j];", "B[0][i] = fmax(B[0][i], A[i][j]);");
    std::fs::write(dir.path().join("d.c"), max).unwrap();
    let r = orcl(dir.path(), &["check", "d.c"]);
    r.assert_code(2);
    assert!(
        r.stderr.contains("loop `j` is not parallel"),
        "{}",
        r.stderr
    );
}

/// matVec with a 2-D mapping, Orio's form (`y[i] = y[i] + A[i*n+j]*x[j]`): every configuration
/// with a power-of-two TJ is measured and validated; TJ=3 is pruned as invalid (never built). The
/// tuned file computes what the loop computes at sizes the tiles do not divide, 1x1 and n=0.
#[test]
fn matvec_rows_and_lanes() {
    let tmp = tune(
        "matVec_2d.c",
        &example("matVec_2d.c"),
        16,
        &[("\"TJ\":3,", "device_limit")],
    );
    let dir = tmp.path();
    let e = orcl(
        dir,
        &["emit", "matVec_2d.c", "--set", "TI=4", "--set", "TJ=8"],
    );
    e.assert_code(0);
    for want in [
        "__local float orcl_part[4][8];",
        "get_group_id(1)",
        "j += 8",
        "y[i] = y[i] + (orcl_part[orcl_l1][0]);",
        "barrier(CLK_LOCAL_MEM_FENCE);",
    ] {
        assert!(e.stdout.contains(want), "{want}\n{}", e.stdout);
    }
    let c = orcl(
        dir,
        &[
            "emit",
            "matVec_2d.c",
            "--backend",
            "cuda",
            "--set",
            "TI=4",
            "--set",
            "TJ=8",
        ],
    );
    c.assert_code(0);
    assert!(
        c.stdout.contains("__shared__ float orcl_part[4][8];")
            && c.stdout.contains("__syncthreads();"),
        "{}",
        c.stdout
    );
    // The winner may be TJ=1: the C driver runs a tuned file of one 3-row x 8-lane variant.
    let one = example("matVec_2d.c")
        .replace("param TI[] = [1, 4];", "param TI[] = [3];")
        .replace("param TJ[] = [1, 3, 8, 32];", "param TJ[] = [8];")
        .replace("param UI[] = [1, 4];", "param UI[] = [4];");
    let tmp = tune("matVec_2d.c", &one, 1, &[]);
    let dir = tmp.path();
    let tuned = std::fs::read_to_string(dir.join("_matVec_2d.c")).unwrap();
    assert!(tuned.contains("__local float orcl_part[3][8];"), "{tuned}");
    let protos = "#define TOL 1e-5\nvoid MatVec2D(int m, int n, const float *A, const float *x, float *y);\nvoid MatVec2D_orig(int m, int n, const float *A, const float *x, float *y);";
    let body = r#"
    int m = s[0], n = s[1];
    float *A = fvec((long)m * n), *x = fvec(n), *y = fvec(m), *yr = DUP(y, m);
    MatVec2D(m, n, A, x, y);
    MatVec2D_orig(m, n, A, x, yr);
    cmp("y", y, yr, m);
    free(A); free(x); free(y); free(yr);
    return m > 0;"#;
    let driver = driver_source(
        protos,
        "{37, 29, 0}, {1, 1, 0}, {5, 0, 0}, {0, 7, 0}, {3, 300, 0}, {129, 64, 0}",
        body,
    );
    run_driver(
        dir,
        "_matVec_2d.c",
        "matVec_2d.c",
        "MatVec2D",
        &driver,
        Duration::from_secs(120),
    );
}

/// gemv with a scalar accumulator declared outside the loop (`s = 0; for j: s += A[i][j]*x[j];
/// y[i] = alpha*s + beta*y[i];`) on rows and lanes: tuned over TI x TJ x sizeHint, every variant
/// validated, and the tuned file equal to the loop from a C driver.
#[test]
fn gemv_scalar_accumulator_rows_and_lanes() {
    let tmp = tune("gemv_2d.c", &example("gemv_2d.c"), 12, &[]);
    let dir = tmp.path();
    let e = orcl(
        dir,
        &[
            "emit",
            "gemv_2d.c",
            "--set",
            "TI=2",
            "--set",
            "TJ=16",
            "--set",
            "HINT=True",
        ],
    );
    e.assert_code(0);
    for want in [
        "reqd_work_group_size(16, 2, 1)",
        "__local double orcl_part[2][16];",
        "double s = (0.0) + orcl_part[orcl_l1][0];",
        "y[i] = alpha * s + beta * y[i];",
    ] {
        assert!(e.stdout.contains(want), "{want}\n{}", e.stdout);
    }
    let tuned = std::fs::read_to_string(dir.join("_gemv_2d.c")).unwrap();
    assert!(tuned.contains("__local double orcl_part["), "{tuned}");
    let protos = "#define TOL 1e-12\nvoid Gemv2D(int m, int n, double alpha, double beta, const double A[m][n], const double *x, double *y);\nvoid Gemv2D_orig(int m, int n, double alpha, double beta, const double A[m][n], const double *x, double *y);";
    let body = r#"
    int m = s[0], n = s[1];
    double *A = dvec((long)m * n), *x = dvec(n), *y = dvec(m), *yr = DUP(y, m);
    Gemv2D(m, n, 0.75, 2.0, (const double (*)[n])A, x, y);
    Gemv2D_orig(m, n, 0.75, 2.0, (const double (*)[n])A, x, yr);
    cmp("y", y, yr, m);
    free(A); free(x); free(y); free(yr);
    return m > 0;"#;
    let driver = driver_source(
        protos,
        "{37, 29, 0}, {1, 1, 0}, {6, 0, 0}, {0, 3, 0}, {17, 257, 0}, {100, 5, 0}",
        body,
    );
    run_driver(
        dir,
        "_gemv_2d.c",
        "gemv_2d.c",
        "Gemv2D",
        &driver,
        Duration::from_secs(120),
    );
}

/// A row reduction's `tile` must name the rows' loop and the lanes' loop, and takes no `regTile`:
/// located errors.
#[test]
fn row_reduction_tile_errors_are_located() {
    let dir = tempfile::tempdir().unwrap();
    let lanes_only = example("matVec_2d.c").replace("tile=[('i',TI),('j',TJ)]", "tile=[('j',TJ)]");
    std::fs::write(dir.path().join("a.c"), lanes_only).unwrap();
    let r = orcl(dir.path(), &["check", "a.c"]);
    r.assert_code(2);
    assert!(r.stderr.contains("a.c:30:"), "{}", r.stderr);
    assert!(r.stderr.contains("rows' loop `i`"), "{}", r.stderr);
    let reg = example("matVec_2d.c").replace(
        "tile=[('i',TI),('j',TJ)],",
        "tile=[('i',TI),('j',TJ)], regTile=[('i',2)],",
    );
    std::fs::write(dir.path().join("b.c"), reg).unwrap();
    let r = orcl(dir.path(), &["check", "b.c"]);
    r.assert_code(2);
    assert!(
        r.stderr.contains("b.c:30:")
            && r.stderr
                .contains("`regTile` does not apply to a row reduction"),
        "{}",
        r.stderr
    );
}

/// A `tile` naming only the outer loop of a nest maps it onto a 1-D NDRange and runs the inner
/// loop whole in each work-item (it used to be dropped, leaving its index undeclared): a
/// transpose by rows and Orio's matVec by rows tune with every variant validated.
#[test]
fn tile_on_the_outer_loop_keeps_the_inner_loop() {
    let rows = example("transpose.c")
        .replace(
            "tile=[('i',TI),('j',TJ)], regTile=[('i',RI)],",
            "tile=[('i',TI)],",
        )
        .replace("param TJ[] = [16, 32];", "param TJ[] = [16];")
        .replace("param RI[] = [1, 4];", "param RI[] = [1];")
        .replace("param CB[] = [False, True];", "param CB[] = [False];");
    let _ = tune("t.c", &rows, 2, &[]);
    let mv = example("matVec_2d.c")
        .replace("tile=[('i',TI),('j',TJ)]", "tile=[('i',TI)]")
        .replace("param TJ[] = [1, 3, 8, 32];", "param TJ[] = [1];");
    let tmp = tune("m.c", &mv, 4, &[]);
    let tuned = std::fs::read_to_string(tmp.path().join("_m.c")).unwrap();
    assert!(
        tuned.contains("for (int j = 0; j <= n - 1; j++)"),
        "{tuned}"
    );
}
