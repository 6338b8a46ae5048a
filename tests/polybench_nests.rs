//! PolyBench/C 4.2.1 kernels annotated as written (`tests/polybench/*.c`, one region per nest),
//! end to end on the local OpenCL device (PoCL in CI): each file is checked and tuned (every
//! evaluation `ok`: the skeleton validates each variant against the original loop), and the
//! tuned `_file.c`, compiled beside the original (renamed with `-D`) and a C driver, computes
//! what the original computes on the driver's own pseudo-random data at the two tuned sizes and
//! one more (sizes that no work-group size divides). Kernel launches are counted, so a silent
//! fall-back to the original loop fails. The nests exercise issue 22's dependence analysis: array
//! reductions across the parallel loop (atax, bicg: atomic adds), symmetric writes in triangular
//! nests (covariance, correlation), triangular inner loops tiled over their bounding square (syrk,
//! syr2k), matrix products with a
//! prologue tiled as contractions (gemm as written, 2mm, 3mm), a private array (doitgen); and
//! PolyBench/GPU's 2DCONV and 3DCONV (float stencils whose coefficients are locals assigned
//! before the nest).

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
    run(c, Duration::from_secs(600))
}

/// Check and tune `tests/polybench/{name}.c` in a fresh directory; every one of the
/// `evaluations` must be `ok`. Then run the C driver (`protos`, `sizes`, `body`: see
/// `common::driver_source`) on the tuned file and the original `kernel_{name}`.
fn polybench(name: &str, evaluations: usize, protos: &str, sizes: &str, body: &str) {
    let func = format!("kernel_{}", name.replace('-', "_"));
    polybench_fn(name, &func, evaluations, protos, sizes, body);
}

/// [`polybench`] for a file whose kernel function is `func` (PolyBench/GPU's `conv2D`).
fn polybench_fn(name: &str, func: &str, evaluations: usize, protos: &str, sizes: &str, body: &str) {
    let file = format!("{name}.c");
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/polybench")
        .join(&file);
    let text = std::fs::read_to_string(&src).unwrap();
    let tuned = Tuned {
        file: &file,
        text: &text,
        func,
        evaluations,
        tune_args: &[],
    };
    tune_and_drive(&tuned, protos, sizes, body);
}

/// A file to tune: its name, its text, its kernel function, how many evaluations the tuning
/// makes (each must be `ok`) and extra `orcl tune` arguments.
struct Tuned<'a> {
    file: &'a str,
    text: &'a str,
    func: &'a str,
    evaluations: usize,
    tune_args: &'a [&'a str],
}

/// Check and tune `t` in a fresh directory, then run the C driver on the tuned file and the
/// original function (see [`polybench`]).
fn tune_and_drive(t: &Tuned<'_>, protos: &str, sizes: &str, body: &str) {
    let tmp = tempfile::Builder::new()
        .prefix("orcl-polybench-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join(t.file), t.text).unwrap();
    orcl(dir, &["check", t.file]).assert_code(0);
    let mut args = vec!["tune", t.file, "--db", "tune.db"];
    args.extend_from_slice(t.tune_args);
    let run = orcl(dir, &args);
    run.assert_code(0);
    let rows = statuses(&dir.join("tune.db"));
    assert_eq!(rows.len(), t.evaluations, "{rows:?}\n{}", run.dump());
    for (key, status) in &rows {
        assert_eq!(status, "ok", "{key}\n{}", run.dump());
    }
    let driver = driver_source(protos, sizes, body);
    run_driver(
        dir,
        &format!("_{}", t.file),
        t.file,
        t.func,
        &driver,
        Duration::from_secs(120),
    );
}

/// The prototypes of `kernel_NAME` and `kernel_NAME_orig` with parameters `params`, and the
/// tolerance of validation (doubles).
fn protos(func: &str, params: &str) -> String {
    format!("void {func}({params});\nvoid {func}_orig({params});\n#define TOL 1e-9\n")
}

#[test]
fn atax_sums_y_across_the_parallel_loop() {
    polybench(
        "atax",
        8,
        &protos(
            "kernel_atax",
            "int m, int n, double A[m][n], double x[n], double y[n], double tmp[m]",
        ),
        "{13, 17, 0}, {38, 29, 0}, {70, 5, 0}",
        r#"
    int m = s[0], n = s[1];
    double *A = dvec((long)m * n), *x = dvec(n), *y = dvec(n), *tmp = dvec(m);
    double *A2 = DUP(A, (long)m * n), *x2 = DUP(x, n), *y2 = DUP(y, n), *tmp2 = DUP(tmp, m);
    kernel_atax(m, n, (double (*)[n])A, x, y, tmp);
    kernel_atax_orig(m, n, (double (*)[n])A2, x2, y2, tmp2);
    cmp("y", y, y2, n);
    cmp("tmp", tmp, tmp2, m);
    return 2;
"#,
    );
}

#[test]
fn bicg_sums_s_across_the_parallel_loop() {
    polybench(
        "bicg",
        8,
        &protos(
            "kernel_bicg",
            "int m, int n, double A[n][m], double s[m], double q[n], double p[m], double r[n]",
        ),
        "{13, 17, 0}, {38, 29, 0}, {3, 90, 0}",
        r#"
    int m = s[0], n = s[1];
    double *A = dvec((long)n * m), *sv = dvec(m), *q = dvec(n), *p = dvec(m), *r = dvec(n);
    double *A2 = DUP(A, (long)n * m), *s2 = DUP(sv, m), *q2 = DUP(q, n), *p2 = DUP(p, m), *r2 = DUP(r, n);
    kernel_bicg(m, n, (double (*)[m])A, sv, q, p, r);
    kernel_bicg_orig(m, n, (double (*)[m])A2, s2, q2, p2, r2);
    cmp("s", sv, s2, m);
    cmp("q", q, q2, n);
    return 2;
"#,
    );
}

#[test]
fn covariance_writes_both_triangles_in_parallel() {
    polybench(
        "covariance",
        12,
        &protos(
            "kernel_covariance",
            "int m, int n, double float_n, double data[n][m], double cov[m][m], double mean[m]",
        ),
        "{13, 17, 0}, {30, 21, 0}, {41, 7, 0}",
        r#"
    int m = s[0], n = s[1];
    double *data = dvec((long)n * m), *cov = dvec((long)m * m), *mean = dvec(m);
    double *data2 = DUP(data, (long)n * m), *cov2 = DUP(cov, (long)m * m), *mean2 = DUP(mean, m);
    kernel_covariance(m, n, (double)n, (double (*)[m])data, (double (*)[m])cov, mean);
    kernel_covariance_orig(m, n, (double)n, (double (*)[m])data2, (double (*)[m])cov2, mean2);
    cmp("mean", mean, mean2, m);
    cmp("data", data, data2, (long)n * m);
    cmp("cov", cov, cov2, (long)m * m);
    return 3;
"#,
    );
}

#[test]
fn correlation_writes_both_triangles_in_parallel() {
    polybench(
        "correlation",
        16,
        &protos(
            "kernel_correlation",
            "int m, int n, double float_n, double data[n][m], double corr[m][m], double mean[m], double stddev[m]",
        ),
        "{13, 17, 0}, {30, 21, 0}, {41, 7, 0}",
        r#"
    int m = s[0], n = s[1];
    double *data = dvec((long)n * m), *corr = dvec((long)m * m), *mean = dvec(m), *sd = dvec(m);
    double *data2 = DUP(data, (long)n * m), *corr2 = DUP(corr, (long)m * m), *mean2 = DUP(mean, m), *sd2 = DUP(sd, m);
    kernel_correlation(m, n, (double)n, (double (*)[m])data, (double (*)[m])corr, mean, sd);
    kernel_correlation_orig(m, n, (double)n, (double (*)[m])data2, (double (*)[m])corr2, mean2, sd2);
    cmp("mean", mean, mean2, m);
    cmp("stddev", sd, sd2, m);
    cmp("data", data, data2, (long)n * m);
    cmp("corr", corr, corr2, (long)m * m);
    return 4;
"#,
    );
}

/// The OpenCL kernel `orcl emit` writes for region `region` of `tests/polybench/{name}.c` (first
/// configuration and input size).
fn emitted(name: &str, region: usize) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/polybench");
    let r = orcl(
        &dir,
        &[
            "emit",
            &format!("{name}.c"),
            "--region",
            &region.to_string(),
        ],
    );
    r.assert_code(0);
    r.stdout
}

/// A contraction's kernel: the k-slab loop and the register tile of sums (the BLAS form's
/// kernel, `kernel_ir::contraction`).
fn assert_contraction(name: &str, region: usize) {
    let k = emitted(name, region);
    assert!(
        k.contains("double orcl_acc[") && k.contains("orcl_kend"),
        "{name} region {region} is not tiled as a contraction:\n{k}"
    );
}

/// gemm as written (`for j: C[i][j] *= beta; for k: for j: C[i][j] += ...`): the j loops fused,
/// `C[i][j]` summed in a register, tiled like the BLAS form.
#[test]
fn gemm_as_written_tunes() {
    assert_contraction("gemm", 0);
    polybench(
        "gemm",
        4,
        &protos(
            "kernel_gemm",
            "int ni, int nj, int nk, double alpha, double beta, double C[ni][nj], double A[ni][nk], double B[nk][nj]",
        ),
        "{13, 17, 9}, {33, 18, 20}, {5, 40, 3}",
        r#"
    int ni = s[0], nj = s[1], nk = s[2];
    double *C = dvec((long)ni * nj), *A = dvec((long)ni * nk), *B = dvec((long)nk * nj);
    double *C2 = DUP(C, (long)ni * nj);
    kernel_gemm(ni, nj, nk, 1.5, 1.2, (double (*)[nj])C, (double (*)[nk])A, (double (*)[nj])B);
    kernel_gemm_orig(ni, nj, nk, 1.5, 1.2, (double (*)[nj])C2, (double (*)[nk])A, (double (*)[nj])B);
    cmp("C", C, C2, (long)ni * nj);
    return 1;
"#,
    );
}

/// PolyBench's gemm as written, with `DATA_TYPE` float, on the tensor cores (issue 23): the
/// summand `alpha * A[i][k] * B[k][j]` is a product of the 2-D operands times a loop-invariant
/// scalar (the tensor cores sum A·B, the result takes alpha times the sum), after the fused
/// `C[i][j] *= beta` prologue; B is contiguous along j (NN). Emulated fragments on PoCL:
/// `mma.sync` m16n8k8 warp tiles (two configurations), then `wgmma` (its TF32 form transposes B
/// into a K-major tile); the tuned files match the original at the tuned sizes and at 5 × 40 × 3
/// (k below one mma step), to the TF32 tolerance.
#[test]
fn gemm_as_written_on_tensor_cores() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/polybench/gemm.c");
    let original = std::fs::read_to_string(src).unwrap();
    let edit = |text: &str, from: &str, to: &str| {
        assert!(text.contains(from), "tests/polybench/gemm.c lacks {from:?}");
        text.replace(from, to)
    };
    let mut text = edit(
        &original,
        "#define DATA_TYPE double",
        "#define DATA_TYPE float",
    );
    for (from, to) in [
        ("decl double alpha", "decl float alpha"),
        ("decl double beta", "decl float beta"),
        ("decl static double", "decl static float"),
        ("param NJ[] = [17, 18]", "param NJ[] = [17, 45]"),
        ("param NK[] = [9, 20]", "param NK[] = [9, 41]"),
        ("NJ == 18 and NK == 20", "NJ == 45 and NK == 41"),
    ] {
        text = edit(&text, from, to);
    }
    let params = "param TI[] = [4, 8]; param TJ[] = [8]; param TK[] = [4];";
    let transform = "transform OpenCL(tile=[('i',TI),('j',TJ),('k',TK)],";
    let mma = edit(
        &edit(&text, params, "param TI[] = [32]; param TJ[] = [16]; param TK[] = [8, 16];"),
        transform,
        "transform OpenCL(mathMode='tf32', tile=[('i',TI),('j',TJ),('k',TK)], warpTile=[('i',16),('j',8)], padLocal=8,",
    );
    let wgmma = edit(
        &edit(&text, params, "param TI[] = [64]; param TJ[] = [64]; param TK[] = [32];"),
        transform,
        "transform OpenCL(mathMode='tf32', mmaInstruction='wgmma', stages=3, vecLoad=4, tile=[('i',TI),('j',TJ),('k',TK)], warpTile=[('i',64),('j',64)],",
    );
    let protos = "void kernel_gemm(int ni, int nj, int nk, float alpha, float beta, float C[ni][nj], float A[ni][nk], float B[nk][nj]);\n\
                  void kernel_gemm_orig(int ni, int nj, int nk, float alpha, float beta, float C[ni][nj], float A[ni][nk], float B[nk][nj]);\n\
                  #define TOL 2e-2\n";
    let body = r#"
    int ni = s[0], nj = s[1], nk = s[2];
    float *C = fvec((long)ni * nj), *A = fvec((long)ni * nk), *B = fvec((long)nk * nj);
    float *C2 = DUP(C, (long)ni * nj);
    kernel_gemm(ni, nj, nk, 1.5f, 1.2f, (float (*)[nj])C, (float (*)[nk])A, (float (*)[nj])B);
    kernel_gemm_orig(ni, nj, nk, 1.5f, 1.2f, (float (*)[nj])C2, (float (*)[nk])A, (float (*)[nj])B);
    cmp("C", C, C2, (long)ni * nj);
    return 1;
"#;
    let sizes = "{13, 17, 9}, {33, 45, 41}, {5, 40, 3}";
    for (text, evaluations, tune_args) in
        [(&mma, 4, &[][..]), (&wgmma, 2, &["--timeout", "300s"][..])]
    {
        let tuned = Tuned {
            file: "gemm.c",
            text,
            func: "kernel_gemm",
            evaluations,
            tune_args,
        };
        tune_and_drive(&tuned, protos, sizes, body);
    }
}

/// syrk and syr2k: the `j <= i` triangle made its bounding square with the guard `j <= i`,
/// tiled as a contraction (the first configuration) or one work-item per row (`TI=0`: no `tile`).
#[test]
fn syrk_and_syr2k_triangles() {
    for name in ["syrk", "syr2k"] {
        assert_contraction(name, 0);
        // The guard on the stores, and tiles above the diagonal leave at once.
        let k = emitted(name, 0);
        assert!(
            k.contains("if (j <= i) {") && k.contains("return;"),
            "{name}\n{k}"
        );
    }
    polybench(
        "syrk",
        4,
        &protos(
            "kernel_syrk",
            "int n, int m, double alpha, double beta, double C[n][n], double A[n][m]",
        ),
        "{13, 17, 0}, {30, 9, 0}, {45, 2, 0}",
        r#"
    int n = s[0], m = s[1];
    double *C = dvec((long)n * n), *A = dvec((long)n * m), *C2 = DUP(C, (long)n * n);
    kernel_syrk(n, m, 1.5, 1.2, (double (*)[n])C, (double (*)[m])A);
    kernel_syrk_orig(n, m, 1.5, 1.2, (double (*)[n])C2, (double (*)[m])A);
    cmp("C", C, C2, (long)n * n);
    return 1;
"#,
    );
    polybench(
        "syr2k",
        4,
        &protos(
            "kernel_syr2k",
            "int n, int m, double alpha, double beta, double C[n][n], double A[n][m], double B[n][m]",
        ),
        "{13, 17, 0}, {30, 9, 0}, {45, 2, 0}",
        r#"
    int n = s[0], m = s[1];
    double *C = dvec((long)n * n), *A = dvec((long)n * m), *B = dvec((long)n * m);
    double *C2 = DUP(C, (long)n * n);
    kernel_syr2k(n, m, 1.5, 1.2, (double (*)[n])C, (double (*)[m])A, (double (*)[m])B);
    kernel_syr2k_orig(n, m, 1.5, 1.2, (double (*)[n])C2, (double (*)[m])A, (double (*)[m])B);
    cmp("C", C, C2, (long)n * n);
    return 1;
"#,
    );
}

/// 2mm and 3mm: each product sets (or scales) its element before the k loop; tiled as
/// contractions.
#[test]
fn two_and_three_matrix_products() {
    for r in 0..2 {
        assert_contraction("2mm", r);
    }
    for r in 0..3 {
        assert_contraction("3mm", r);
    }
    polybench(
        "2mm",
        8,
        &protos(
            "kernel_2mm",
            "int ni, int nj, int nk, int nl, double alpha, double beta, double tmp[ni][nj], double A[ni][nk], double B[nk][nj], double C[nj][nl], double D[ni][nl]",
        ),
        "{13, 17, 9}, {33, 18, 20}, {6, 3, 25}",
        r#"
    int ni = s[0], nj = s[1], nk = s[2], nl = ni == 13 ? 11 : ni == 33 ? 31 : 7;
    double *tmp = dvec((long)ni * nj), *A = dvec((long)ni * nk), *B = dvec((long)nk * nj);
    double *C = dvec((long)nj * nl), *D = dvec((long)ni * nl);
    double *tmp2 = DUP(tmp, (long)ni * nj), *D2 = DUP(D, (long)ni * nl);
    kernel_2mm(ni, nj, nk, nl, 1.5, 1.2, (double (*)[nj])tmp, (double (*)[nk])A, (double (*)[nj])B, (double (*)[nl])C, (double (*)[nl])D);
    kernel_2mm_orig(ni, nj, nk, nl, 1.5, 1.2, (double (*)[nj])tmp2, (double (*)[nk])A, (double (*)[nj])B, (double (*)[nl])C, (double (*)[nl])D2);
    cmp("tmp", tmp, tmp2, (long)ni * nj);
    cmp("D", D, D2, (long)ni * nl);
    return 2;
"#,
    );
    polybench(
        "3mm",
        12,
        &protos(
            "kernel_3mm",
            "int ni, int nj, int nk, int nl, int nm, double E[ni][nj], double A[ni][nk], double B[nk][nj], double F[nj][nl], double C[nj][nm], double D[nm][nl], double G[ni][nl]",
        ),
        "{13, 17, 9}, {33, 18, 20}, {6, 3, 25}",
        r#"
    int ni = s[0], nj = s[1], nk = s[2], nl = ni == 13 ? 11 : ni == 33 ? 31 : 7, nm = nk + 1;
    double *E = dvec((long)ni * nj), *A = dvec((long)ni * nk), *B = dvec((long)nk * nj);
    double *F = dvec((long)nj * nl), *C = dvec((long)nj * nm), *D = dvec((long)nm * nl), *G = dvec((long)ni * nl);
    double *E2 = DUP(E, (long)ni * nj), *F2 = DUP(F, (long)nj * nl), *G2 = DUP(G, (long)ni * nl);
    kernel_3mm(ni, nj, nk, nl, nm, (double (*)[nj])E, (double (*)[nk])A, (double (*)[nj])B, (double (*)[nl])F, (double (*)[nm])C, (double (*)[nl])D, (double (*)[nl])G);
    kernel_3mm_orig(ni, nj, nk, nl, nm, (double (*)[nj])E2, (double (*)[nk])A, (double (*)[nj])B, (double (*)[nl])F2, (double (*)[nm])C, (double (*)[nl])D, (double (*)[nl])G2);
    cmp("E", E, E2, (long)ni * nj);
    cmp("F", F, F2, (long)nj * nl);
    cmp("G", G, G2, (long)ni * nl);
    return 3;
"#,
    );
}

/// doitgen: `sum[p]` is written before it is read in every iteration of `r`, so each work-item
/// has its own copy (11 elements: the largest tuned NP); at a size beyond it (np = 15) the tuned
/// code runs the original loop (no kernel launch) and still computes the same result.
#[test]
fn doitgen_privatises_sum() {
    let k = emitted("doitgen", 0);
    assert!(k.contains("    double sum[11];\n"), "{k}");
    assert!(k.contains("if (!((np) <= 11)) return 1;"), "{k}");
    polybench(
        "doitgen",
        4,
        &protos(
            "kernel_doitgen",
            "int nr, int nq, int np, double A[nr][nq][np], double C4[np][np], double sum[np]",
        ),
        "{5, 6, 7}, {9, 4, 11}, {3, 5, 2}, {4, 3, 15}",
        r#"
    int nr = s[0], nq = s[1], np = s[2];
    double *A = dvec((long)nr * nq * np), *C4 = dvec((long)np * np), *sum = dvec(np);
    double *A2 = DUP(A, (long)nr * nq * np), *sum2 = DUP(sum, np);
    kernel_doitgen(nr, nq, np, (double (*)[nq][np])A, (double (*)[np])C4, sum);
    kernel_doitgen_orig(nr, nq, np, (double (*)[nq][np])A2, (double (*)[np])C4, sum2);
    cmp("A", A, A2, (long)nr * nq * np);
    return np <= 11;
"#,
    );
}

/// PolyBench/GPU's 2DCONV and 3DCONV as written: float data, the coefficients c11..c33 locals
/// assigned before the nest (kernel arguments), the edges (i, j, k = 0 and n-1) left unwritten;
/// the driver's third size is one no tile divides, and a size of 2 runs no iteration at all.
#[test]
fn conv2d_and_conv3d_from_polybench_gpu() {
    // Float sums of 9 (15) terms of both signs, which the device may contract into fma: a few
    // ulps of the largest term, relative to orcl's floor of 1e-3 of the largest |B|.
    let tol = "#define TOL 1e-4\n";
    polybench_fn(
        "2DCONV",
        "conv2D",
        4,
        &format!("void conv2D(int ni, int nj, float A[ni][nj], float B[ni][nj]);\nvoid conv2D_orig(int ni, int nj, float A[ni][nj], float B[ni][nj]);\n{tol}"),
        "{23, 37, 0}, {40, 19, 0}, {53, 7, 0}, {2, 9, 0}",
        r#"
    int ni = s[0], nj = s[1];
    long e = (long)ni * nj;
    float *A = fvec(e), *B = fvec(e), *B2 = DUP(B, e);
    conv2D(ni, nj, (float (*)[nj])A, (float (*)[nj])B);
    conv2D_orig(ni, nj, (float (*)[nj])A, (float (*)[nj])B2);
    cmp("B", B, B2, e);
    free(A); free(B); free(B2);
    return ni > 2 && nj > 2;
"#,
    );
    polybench_fn(
        "3DCONV",
        "conv3D",
        4,
        &format!("void conv3D(int ni, int nj, int nk, float A[ni][nj][nk], float B[ni][nj][nk]);\nvoid conv3D_orig(int ni, int nj, int nk, float A[ni][nj][nk], float B[ni][nj][nk]);\n{tol}"),
        "{11, 13, 17}, {20, 9, 21}, {7, 29, 5}, {2, 5, 5}",
        r#"
    int ni = s[0], nj = s[1], nk = s[2];
    long e = (long)ni * nj * nk;
    float *A = fvec(e), *B = fvec(e), *B2 = DUP(B, e);
    conv3D(ni, nj, nk, (float (*)[nj][nk])A, (float (*)[nj][nk])B);
    conv3D_orig(ni, nj, nk, (float (*)[nj][nk])A, (float (*)[nj][nk])B2);
    cmp("B", B, B2, e);
    free(A); free(B); free(B2);
    return ni > 2 && nj > 2 && nk > 2;
"#,
    );
}
