//! GEMM from the naive annotated triple loop (issue 13) end to end on the local OpenCL device
//! (PoCL in CI): the BLAS form (`float s = 0; for (l ...) s += A*B; C = alpha*s + beta*C;`,
//! `examples/sgemm.c`) and Orio's form (`C[i][j] = C[i][j] + A[p][i]*B[p][j]`, a perfect 3-loop
//! nest, 2-D arrays, double), with A and/or B transposed (NN, NT, TN, TT), each tuned over a small
//! tile/regTile/k-slab/cacheBlocks/vecWidth/padLocal space at sizes the tiles do not divide (every
//! variant validated against the original loop: status `ok`), and the tuned file, compiled beside
//! the original and a C driver, computes what the original computes for odd shapes (33×17×9,
//! 64³, 1×1×1, k = 0, ...), with kernel launches counted so a silent fall-back fails. Also: the
//! emitted kernels (OpenCL and CUDA) stage both operands and synchronise; a vector width that does
//! not divide the register tile is pruned, never built; a k-slab without both parallel loops is a
//! located error.

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

/// Tune `text` as `file` in a fresh directory; every evaluation must be `ok` except those whose
/// configuration key contains one of `other`'s fragments (then its status). Returns the directory.
fn tune(file: &str, text: &str, evaluations: usize, other: &[(&str, &str)]) -> tempfile::TempDir {
    let tmp = tempfile::Builder::new()
        .prefix("orcl-gemm-")
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

/// Odd shapes {m, n, k}: tiles never divide them; k = 0 leaves C = beta*C.
const SHAPES: &str =
    "{33, 17, 9}, {64, 64, 64}, {1, 1, 1}, {100, 3, 40}, {5, 7, 0}, {0, 4, 3}, {70, 129, 33}";

/// Runs the BLAS-form driver over `_FILE` (the tuned file of `file`, function `Sgemm`, element
/// type `ty`) at every odd shape: 1e-4 relative tolerance in float, 1e-12 in double.
fn check_tuned_sgemm(dir: &Path, file: &str, ty: &str) {
    let tol = if ty == "float" { "1e-4" } else { "1e-12" };
    run_driver(
        dir,
        &format!("_{file}"),
        file,
        "Sgemm",
        &blas_driver("Sgemm", ty, tol),
        Duration::from_secs(120),
    );
}

/// The BLAS-form driver body for `func` with A's and B's element index expressions.
fn blas_driver(func: &str, ty: &str, tol: &str) -> String {
    let vec = if ty == "float" { "fvec" } else { "dvec" };
    let protos = format!(
        "#define TOL {tol}\nvoid {func}(int m, int n, int k, {ty} alpha, const {ty} *A, const {ty} *B, {ty} beta, {ty} *C);\nvoid {func}_orig(int m, int n, int k, {ty} alpha, const {ty} *A, const {ty} *B, {ty} beta, {ty} *C);"
    );
    let body = format!(
        r#"
    int m = s[0], n = s[1], k = s[2];
    {ty} *A = {vec}((long)m * k), *B = {vec}((long)k * n), *C = {vec}((long)m * n);
    {ty} *Cr = DUP(C, (long)m * n);
    {ty} alpha = ({ty})1.25, beta = ({ty})-0.5;
    {func}(m, n, k, alpha, A, B, beta, C);
    {func}_orig(m, n, k, alpha, A, B, beta, Cr);
    cmp("C", C, Cr, (long)m * n);
    free(A); free(B); free(C); free(Cr);
    return m > 0;"#
    );
    driver_source(&protos, SHAPES, &body)
}

#[test]
fn sgemm_blas_form_nn() {
    let tmp = tune("sgemm.c", &example("sgemm.c"), 16, &[]);
    let dir = tmp.path();
    let e = orcl(
        dir,
        &[
            "emit", "sgemm.c", "--set", "TI=32", "--set", "RI=4", "--set", "CB=True", "--set",
            "VW=2",
        ],
    );
    e.assert_code(0);
    // A's slab stored k-major (transposed), B's as it is, both read as float2.
    assert!(
        e.stdout.contains("__local float orcl_tile0[8][32]"),
        "{}",
        e.stdout
    );
    assert!(e.stdout.contains("orcl_tile1[8][32]"), "{}", e.stdout);
    assert!(e.stdout.contains("*(__local const float2 *)&orcl_tile0"));
    assert!(e.stdout.contains("barrier(CLK_LOCAL_MEM_FENCE);"));
    run_driver(
        dir,
        "_sgemm.c",
        "sgemm.c",
        "Sgemm",
        &blas_driver("Sgemm", "float", "1e-4"),
        Duration::from_secs(120),
    );
}

/// The BLAS form with A and/or B transposed and double data: each over a small space with
/// staged and unstaged operands and both vector widths.
#[test]
fn dgemm_blas_form_transposed_operands() {
    for (name, a, b) in [
        ("nt", "A[i*k+l]", "B[j*k+l]"),
        ("tn", "A[l*m+i]", "B[l*n+j]"),
        ("tt", "A[l*m+i]", "B[j*k+l]"),
    ] {
        let text = example("sgemm.c")
            .replace("float", "double")
            .replace("0.0f", "0.0")
            .replace("A[i*k+l]", a)
            .replace("B[l*n+j]", b)
            .replace("param TI[] = [16, 32];", "param TI[] = [8];")
            .replace("param TK[] = [8];", "param TK[] = [4];")
            .replace("param RI[] = [2, 4];", "param RI[] = [2];")
            .replace("param PAD[] = [0];", "param PAD[] = [0, 2];")
            .replace("Sgemm", "Dgemm");
        let file = format!("dgemm_{name}.c");
        let tmp = tune(&file, &text, 8, &[]);
        run_driver(
            tmp.path(),
            &format!("_{file}"),
            &file,
            "Dgemm",
            &blas_driver("Dgemm", "double", "1e-12"),
            Duration::from_secs(120),
        );
    }
}

/// `doubleBuffer=True`: two local buffers per operand, the next slab prefetched into registers,
/// one barrier per slab. Float NN (A's slab loaded along k, stored transposed) and double TT, at
/// k = 9 with TK = 4 (two whole slabs and a partial one) and in the driver at k = 0, 1, 9, 33, 64.
#[test]
fn double_buffered_slabs() {
    for (name, ty, a, b) in [
        ("s_nn", "float", "A[i*k+l]", "B[l*n+j]"),
        ("d_tt", "double", "A[l*m+i]", "B[j*k+l]"),
    ] {
        let mut text = example("sgemm.c")
            .replace("A[i*k+l]", a)
            .replace("B[l*n+j]", b)
            .replace("param TK[] = [8];", "param TK[] = [4, 8];")
            .replace("param RI[] = [2, 4];", "param RI[] = [2];")
            .replace("param CB[] = [False, True];", "param CB[] = [True];")
            .replace("padLocal=PAD,", "padLocal=PAD, doubleBuffer=True,");
        if ty == "double" {
            text = text.replace("float", "double").replace("0.0f", "0.0");
        }
        assert_eq!(text.matches("doubleBuffer=True").count(), 2);
        let file = format!("db_{name}.c");
        let tmp = tune(&file, &text, 8, &[]);
        let dir = tmp.path();
        let e = orcl(
            dir,
            &[
                "emit", &file, "--set", "TI=16", "--set", "TK=4", "--set", "VW=2",
            ],
        );
        e.assert_code(0);
        assert!(
            e.stdout
                .contains(&format!("__local {ty} orcl_tile0[2][4][")),
            "{}",
            e.stdout
        );
        assert!(
            e.stdout.contains("orcl_tile1[orcl_buf ^ 1]"),
            "{}",
            e.stdout
        );
        let slab = &e.stdout[e.stdout.find("for (long orcl_k0").unwrap()..];
        let slab = &slab[..slab.find("/* ---- host").unwrap_or(slab.len())];
        assert_eq!(
            slab.matches("barrier(CLK_LOCAL_MEM_FENCE)").count(),
            1,
            "{slab}"
        );
        check_tuned_sgemm(dir, &file, ty);
    }
}

/// `vecLoad`: the global→local slab loads read float4/float2/double2 along each operand's
/// contiguous dimension (k for a row-major A, stored transposed; j for a row-major B, stored as one
/// vector), falling back element by element at the edges and at unaligned addresses. Tuned at
/// 33×17×9 (most rows unaligned, partial slabs), with and without `doubleBuffer` (the prefetch
/// registers hold whole vectors), then the tuned file from the driver at every odd shape and at
/// 64³ (every row aligned: the vector path only).
#[test]
fn vector_global_loads() {
    for (name, ty, a, b, vl, db) in [
        ("s_nn", "float", "A[i*k+l]", "B[l*n+j]", "2, 4", false),
        ("s_tt_db", "float", "A[l*m+i]", "B[j*k+l]", "4", true),
        ("d_nt", "double", "A[i*k+l]", "B[j*k+l]", "2", false),
        ("d_tn_db", "double", "A[l*m+i]", "B[l*n+j]", "2", true),
    ] {
        let extra = if db {
            "padLocal=PAD, vecLoad=VL, doubleBuffer=True,"
        } else {
            "padLocal=PAD, vecLoad=VL,"
        };
        let mut text = example("sgemm.c")
            .replace("A[i*k+l]", a)
            .replace("B[l*n+j]", b)
            .replace("param TI[] = [16, 32];", "param TI[] = [16];")
            .replace("param RI[] = [2, 4];", "param RI[] = [2];")
            .replace("param CB[] = [False, True];", "param CB[] = [True];")
            .replace(
                "param PAD[] = [0];",
                &format!("param PAD[] = [0];\n            param VL[] = [{vl}];"),
            )
            .replace("padLocal=PAD,", extra);
        if ty == "double" {
            text = text.replace("float", "double").replace("0.0f", "0.0");
        }
        assert_eq!(text.matches("vecLoad=VL").count(), 2);
        let file = format!("vl_{name}.c");
        let configs = 2 * vl.split(',').count();
        let tmp = tune(&file, &text, configs, &[]);
        let dir = tmp.path();
        let w = if ty == "float" && vl.contains('4') {
            4
        } else {
            2
        };
        let vty = format!("{ty}{w}");
        for backend in ["opencl", "cuda"] {
            let e = orcl(
                dir,
                &[
                    "emit",
                    &file,
                    "--backend",
                    backend,
                    "--set",
                    "VW=2",
                    "--set",
                    &format!("VL={w}"),
                ],
            );
            e.assert_code(0);
            let kernel = &e.stdout[..e.stdout.find("/* ---- host").unwrap_or(e.stdout.len())];
            let (global, local) = if backend == "opencl" {
                (
                    format!("*(__global const {vty} *)&"),
                    format!("*(__local {vty} *)&orcl_tile"),
                )
            } else {
                (
                    format!("*(const {vty} *)&"),
                    format!("*({vty} *)&orcl_tile"),
                )
            };
            // Both operands' loads are vectors; an operand contiguous along its tile's dimension
            // (B in NN and TN, A in TN and TT) is stored into local memory as one vector.
            let loads = ["A[", "B["]
                .iter()
                .map(|x| kernel.matches(&format!("{global}{x}")).count())
                .sum::<usize>();
            assert_eq!(loads, 4, "{kernel}");
            let stored_whole = [a, b]
                .iter()
                .filter(|x| x.ends_with("+i]") || x.ends_with("+j]"))
                .count();
            if !db {
                assert_eq!(kernel.matches(&local).count(), 2 * stored_whole, "{kernel}");
            }
            assert!(e
                .stdout
                .contains(&format!("% {} == 0", w * if ty == "float" { 4 } else { 8 })));
        }
        check_tuned_sgemm(dir, &file, ty);
    }
}

/// `loadItems=[('i',LA),('j',LB)]` (CLBlast's MDIMA/NDIMB): LA/LB work-items side by side along
/// each operand's contiguous dimension while loading its slab, the rest of the work-group across
/// rows; 1 puts consecutive work-items on consecutive tile columns (the transposed store of a
/// row-major A then writes consecutive local addresses). With vecLoad and doubleBuffer, blocks
/// that reach past the slab guarded; a value that does not divide a row is pruned. Float NN and
/// double TN, PoCL + C driver at odd shapes.
#[test]
fn load_layouts() {
    for (name, ty, a) in [
        ("s_nn", "float", "A[i*k+l]"),
        ("d_tn", "double", "A[l*m+i]"),
    ] {
        let mut text = example("sgemm.c")
            .replace("A[i*k+l]", a)
            .replace("param TI[] = [16, 32];", "param TI[] = [16];")
            .replace("param RI[] = [2, 4];", "param RI[] = [2];")
            .replace("param CB[] = [False, True];", "param CB[] = [True];")
            .replace("param VW[] = [1, 2];", "param VW[] = [2];")
            .replace(
                "param PAD[] = [0];",
                "param PAD[] = [0];\n            param LA[] = [1, 2, 3];\n            param LB[] = [1, 8];\n            param DB[] = [False, True];",
            )
            .replace(
                "padLocal=PAD,",
                "padLocal=PAD, vecLoad=2, doubleBuffer=DB, loadItems=[('i',LA),('j',LB)],",
            );
        if ty == "double" {
            text = text.replace("float", "double").replace("0.0f", "0.0");
        }
        assert_eq!(text.matches("loadItems=").count(), 2);
        let file = format!("li_{name}.c");
        let tmp = tune(&file, &text, 12, &[("\"LA\":3", "device_limit")]);
        let dir = tmp.path();
        let e = orcl(
            dir,
            &[
                "emit", &file, "--set", "LA=1", "--set", "LB=1", "--set", "DB=False",
            ],
        );
        e.assert_code(0);
        let kernel = &e.stdout[..e.stdout.find("/* ---- host").unwrap_or(e.stdout.len())];
        // A 16-row (TI) or 8-row (TK) slab walked by 64 work-items, one per row: guarded.
        let guards = ["orcl_t < 16", "orcl_kk < 8"];
        assert!(guards.iter().any(|g| kernel.contains(g)), "{kernel}");
        assert!(kernel.contains("orcl_lin / 1 + "), "{kernel}");
        check_tuned_sgemm(dir, &file, ty);
    }
    // A loop that `tile` does not name: located.
    let dir = tempfile::tempdir().unwrap();
    let text = example("sgemm.c").replace(
        "padLocal=PAD, device=0, platform=0",
        "padLocal=PAD, loadItems=[('q',2)], device=0, platform=0",
    );
    assert!(text.contains("loadItems"));
    std::fs::write(dir.path().join("a.c"), text).unwrap();
    let r = orcl(dir.path(), &["check", "a.c"]);
    r.assert_code(2);
    assert!(r.stderr.contains("a.c:42:"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("`loadItems` names loop `q`, which `tile` does not name"),
        "{}",
        r.stderr
    );
}

/// `warpTile=[('i',WI),('j',WJ)]` (warp-level tiling): each run of WI·WJ consecutive work-items
/// computes a WI × WJ block of the work-item grid; the slab loads keep the hardware linear id. A
/// value that does not divide the work-items along its loop is pruned. Float NN and double TT with
/// vecLoad, PoCL + C driver at odd shapes.
#[test]
fn warp_tiles() {
    for (name, ty, a, b) in [
        ("s_nn", "float", "A[i*k+l]", "B[l*n+j]"),
        ("d_tt", "double", "A[l*m+i]", "B[j*k+l]"),
    ] {
        let mut text = example("sgemm.c")
            .replace("A[i*k+l]", a)
            .replace("B[l*n+j]", b)
            .replace("param TI[] = [16, 32];", "param TI[] = [16];")
            .replace("param RI[] = [2, 4];", "param RI[] = [2];")
            .replace("param CB[] = [False, True];", "param CB[] = [True];")
            .replace(
                "param PAD[] = [0];",
                "param PAD[] = [0];\n            param WI[] = [2, 3];\n            param WJ[] = [2, 4];",
            )
            .replace(
                "padLocal=PAD,",
                "padLocal=PAD, vecLoad=2, warpTile=[('i',WI),('j',WJ)],",
            );
        if ty == "double" {
            text = text.replace("float", "double").replace("0.0f", "0.0");
        }
        assert_eq!(text.matches("warpTile=").count(), 2);
        let file = format!("wt_{name}.c");
        let tmp = tune(&file, &text, 8, &[("\"WI\":3", "device_limit")]);
        let dir = tmp.path();
        for backend in ["opencl", "cuda"] {
            let e = orcl(
                dir,
                &[
                    "emit",
                    &file,
                    "--backend",
                    backend,
                    "--set",
                    "WI=2",
                    "--set",
                    "WJ=4",
                ],
            );
            e.assert_code(0);
            // 8 × 8 work-items: runs of 8 cover 2 × 4 blocks, two blocks across.
            for want in [
                "const long orcl_lin = orcl_h0 + 8 * orcl_h1;",
                "const long orcl_l0 = (orcl_run % 2) * 4 + orcl_lane % 4;",
                "const long orcl_l1 = (orcl_run / 2) * 2 + orcl_lane / 4;",
            ] {
                assert!(e.stdout.contains(want), "{want}\n{}", e.stdout);
            }
        }
        check_tuned_sgemm(dir, &file, ty);
    }
}

/// The recorded-space pipeline of issue 13 on the local device: `bench/gemm/make_case.py`'s `big`
/// space has at least 10,000 configurations that satisfy its constraints; `bench/gemm/record_space.sh`
/// records a space in chunks (here 5 measurements each: exit 75 until the last, then 0), each
/// chunk resuming the same experiment; `orcl replay --budget 25%,50%` replays the result.
#[test]
fn recorded_space_in_chunks_and_its_replay() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut py = Command::new("python3");
    py.arg(root.join("bench/gemm/make_case.py"))
        .args(["s", "NN", "2048", "2048", "2048", "big"]);
    let big = run(py, Duration::from_secs(60));
    assert_eq!(big.code(), Some(0), "{}", big.dump());
    std::fs::write(dir.join("big.c"), &big.stdout).unwrap();
    let c = orcl(dir, &["check", "big.c"]);
    c.assert_code(0);
    let want = "36864 configurations, 10824 satisfy the constraints";
    assert!(c.stdout.contains(want), "{}", c.stdout);

    let rec = dir.join("rec");
    let mut codes = Vec::new();
    for _ in 0..8 {
        let mut sh = Command::new("bash");
        sh.arg(root.join("bench/gemm/record_space.sh"))
            .arg(&rec)
            .current_dir(dir)
            .env("ORCL", ORCL)
            .env("ORCL_CACHE_DIR", dir.join("cache"))
            .env("SPACE", "small")
            .env("M", "24")
            .env("N", "20")
            .env("K", "9")
            .env("RUNS", "5")
            .env_remove("OUT");
        let r = run(sh, Duration::from_secs(300));
        codes.push(r.code());
        if r.code() != Some(75) {
            assert_eq!(r.code(), Some(0), "{}", r.dump());
            assert!(
                r.stdout.contains("16 of 16 configurations recorded"),
                "{}",
                r.dump()
            );
            break;
        }
    }
    assert_eq!(codes, [Some(75), Some(75), Some(75), Some(0)]);
    let progress = std::fs::read_to_string(rec.join("progress.txt")).unwrap();
    for n in [5, 10, 15, 16] {
        assert!(
            progress.contains(&format!("experiment 1: {n} of 16 configurations")),
            "{progress}"
        );
    }
    let db = rec.join("small.db");
    let r = orcl(
        dir,
        &[
            "replay",
            "--db",
            db.to_str().unwrap(),
            "--experiment",
            "1",
            "--budget",
            "25%,50%",
            "--json",
        ],
    );
    r.assert_code(0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let rows = v.as_array().unwrap();
    // Six strategies (Exhaustive, Random, NelderMead, Annealing, Genetic, Bayes) × two budgets.
    assert_eq!(rows.len(), 12, "{v}");
    assert_eq!(rows[0]["space_size"], 16, "{v}");
    assert_eq!(rows[0]["budget"], 4, "{v}");
    assert_eq!(rows[11]["budget"], 8, "{v}");
}

/// `vecLoad` values that cannot work are pruned before anything is built (a device-limit
/// outcome): 4 elements of a 2-wide k-slab, a double4 (32 bytes); a value other than 1, 2, 4, 8
/// (8: 16-bit elements) is a located error.
#[test]
fn vector_loads_that_cannot_work_are_pruned() {
    let text = example("sgemm.c")
        .replace("param TI[] = [16, 32];", "param TI[] = [16];")
        .replace("param RI[] = [2, 4];", "param RI[] = [2];")
        .replace(
            "param TK[] = [8];",
            "param TK[] = [2, 8];\n            param VL[] = [1, 4];",
        )
        .replace("param CB[] = [False, True];", "param CB[] = [True];")
        .replace("padLocal=PAD,", "padLocal=PAD, vecLoad=VL,");
    // TK=2 with VL=4: A's slab (contiguous along k) is 2 wide.
    let _ = tune(
        "p.c",
        &text,
        4 * 2,
        &[("\"TK\":2,\"VL\":4", "device_limit")],
    );
    let d = text.replace("float", "double").replace("0.0f", "0.0");
    let _ = tune("pd.c", &d, 8, &[("\"VL\":4", "device_limit")]);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("b.c"),
        text.replace("param VL[] = [1, 4];", "param VL[] = [3];"),
    )
    .unwrap();
    let r = orcl(dir.path(), &["check", "b.c"]);
    r.assert_code(2);
    assert!(
        r.stderr.contains("`vecLoad` must be 1, 2, 4 or 8, found 3"),
        "{}",
        r.stderr
    );
}

/// Orio's form: a perfect 3-loop nest over 2-D arrays, the p loop a reduction into C[i][j],
/// A transposed (A[p][i]), double.
const ORIO: &str = r#"
void OrioGemm(int m, int n, int k, const double A[k][m], const double B[k][n], double C[m][n]) {
    int i, j, p;
    /*@ begin PerfTuning(
        def performance_params {
            param TI[] = [8, 16];
            param TJ[] = [16];
            param TK[] = [4, 16];
            param RI[] = [2];
            param RJ[] = [2];
            param CB[] = [False, True];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params {
            param M[] = [33];
            param N[] = [17];
            param K[] = [9];
        }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl int k = K;
            decl static double A[K][M] = random;
            decl static double B[K][N] = random;
            decl static double C[M][N] = random;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ),('p',TK)], regTile=[('i',RI),('j',RJ)],
                                    cacheBlocks=CB, device=0, platform=0)
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++)
            for (p=0; p<=k-1; p++)
                C[i][j] = C[i][j] + A[p][i]*B[p][j];
    ) @*/
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++)
            for (p=0; p<=k-1; p++)
                C[i][j] = C[i][j] + A[p][i]*B[p][j];
    /*@ end @*/
    /*@ end @*/
}
"#;

#[test]
fn orio_form_perfect_nest_2d_arrays() {
    let tmp = tune("orio_gemm.c", ORIO, 8, &[]);
    let dir = tmp.path();
    let e = orcl(
        dir,
        &[
            "emit",
            "orio_gemm.c",
            "--set",
            "TI=16",
            "--set",
            "TK=16",
            "--set",
            "CB=True",
        ],
    );
    e.assert_code(0);
    // A[p][i] is contiguous along i: no transposition needed, loaded i-fastest.
    assert!(
        e.stdout.contains("__local double orcl_tile0[16][16];"),
        "{}",
        e.stdout
    );
    assert!(e.stdout.contains("C[i * n + j] = C[i * n + j] + orcl_acc"));
    let protos = "#define TOL 1e-12\nvoid OrioGemm(int m, int n, int k, const double A[k][m], const double B[k][n], double C[m][n]);\nvoid OrioGemm_orig(int m, int n, int k, const double A[k][m], const double B[k][n], double C[m][n]);";
    let body = r#"
    int m = s[0], n = s[1], k = s[2];
    double *A = dvec((long)k * m), *B = dvec((long)k * n), *C = dvec((long)m * n);
    double *Cr = DUP(C, (long)m * n);
    OrioGemm(m, n, k, (const double (*)[m])A, (const double (*)[n])B, (double (*)[n])C);
    OrioGemm_orig(m, n, k, (const double (*)[m])A, (const double (*)[n])B, (double (*)[n])Cr);
    cmp("C", C, Cr, (long)m * n);
    free(A); free(B); free(C); free(Cr);
    return m > 0;"#;
    run_driver(
        dir,
        "_orio_gemm.c",
        "orio_gemm.c",
        "OrioGemm",
        &driver_source(protos, SHAPES, body),
        Duration::from_secs(120),
    );
}

/// vecWidth 4 does not divide RJ=2: invalid schedule, recorded as a device-limit outcome and
/// never built; the other configuration is measured.
#[test]
fn vector_width_that_does_not_divide_is_pruned() {
    let text = example("sgemm.c")
        .replace("param TI[] = [16, 32];", "param TI[] = [16];")
        .replace("param RI[] = [2, 4];", "param RI[] = [4];")
        .replace("param RJ[] = [4];", "param RJ[] = [2];")
        .replace("param CB[] = [False, True];", "param CB[] = [True];")
        .replace("param VW[] = [1, 2];", "param VW[] = [1, 4];");
    let _ = tune("s.c", &text, 2, &[("\"VW\":4", "device_limit")]);
}

/// The CUDA writer of the same schedule: __shared__ tiles, __syncthreads, float4 reads.
#[test]
fn cuda_kernel_of_a_contraction() {
    let dir = tempfile::tempdir().unwrap();
    // examples/sgemm.c carries the same arguments in `transform CUDA(...)`.
    let text = example("sgemm.c");
    assert!(text.contains("transform CUDA("));
    std::fs::write(dir.path().join("c.c"), text).unwrap();
    let e = orcl(
        dir.path(),
        &[
            "emit",
            "c.c",
            "--backend",
            "cuda",
            "--set",
            "TI=32",
            "--set",
            "RI=4",
            "--set",
            "CB=True",
            "--set",
            "VW=4",
            "--set",
            "PAD=4",
        ],
    );
    e.assert_code(0);
    for want in [
        "__shared__ __align__(16) float orcl_tile0[8][36];",
        "__syncthreads();",
        "*(const float4 *)&orcl_tile1",
        "(long)blockIdx.y",
    ] {
        assert!(e.stdout.contains(want), "{want}\n{}", e.stdout);
    }
}

/// An annotation with only `transform OpenCL(...)` tuned for CUDA: tile, regTile, cacheBlocks,
/// padLocal and (with `tile`) vecWidth carry over, so the CUDA kernel has the same vector reads.
#[test]
fn opencl_only_matrix_product_carries_its_arguments_to_cuda() {
    let dir = tempfile::tempdir().unwrap();
    let text = example("sgemm.c");
    let start = text.find("                   transform CUDA(").unwrap();
    let end = start + text[start..].find("device=0)\n").unwrap() + "device=0)\n".len();
    let text = format!("{}{}", &text[..start], &text[end..]);
    assert!(!text.contains("transform CUDA("));
    std::fs::write(dir.path().join("c.c"), text).unwrap();
    let e = orcl(
        dir.path(),
        &[
            "emit",
            "c.c",
            "--backend",
            "cuda",
            "--set",
            "TI=32",
            "--set",
            "RI=4",
            "--set",
            "CB=True",
            "--set",
            "VW=4",
            "--set",
            "PAD=4",
        ],
    );
    e.assert_code(0);
    for want in [
        "__shared__ __align__(16) float orcl_tile0[8][36];",
        "*(const float4 *)&orcl_tile1",
    ] {
        assert!(e.stdout.contains(want), "{want}\n{}", e.stdout);
    }
}

/// A k-slab entry needs both parallel loops in `tile`: a located error (exit 2).
#[test]
fn k_slab_without_both_loops_is_located() {
    let dir = tempfile::tempdir().unwrap();
    let text = example("sgemm.c").replace(
        "tile=[('i',TI),('j',TJ),('l',TK)]",
        "tile=[('i',TI),('l',TK)]",
    );
    std::fs::write(dir.path().join("a.c"), text).unwrap();
    let r = orcl(dir.path(), &["check", "a.c"]);
    r.assert_code(2);
    assert!(r.stderr.contains("a.c:41:42"), "{}", r.stderr);
    assert!(
        r.stderr.contains("needs `tile` to name both loops i and j"),
        "{}",
        r.stderr
    );
}
