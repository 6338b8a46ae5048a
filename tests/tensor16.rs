//! FP16 and BF16 tensor-core matrix products from the naive loop (`mathMode='fp16'`/`'bf16'`,
//! issue 23) end to end on the local OpenCL device (PoCL in CI: the emulated m16n8k16 fragment
//! form): examples/hgemm_fp16.c and examples/bgemm_bf16.c with A and/or B transposed (NN, NT,
//! TN, TT), tuned at sizes no tile divides, every variant validated against the original loop
//! (16-bit inputs widened exactly, FP32 sums); the tuned FP16 file, compiled with a C driver,
//! computes what the original computes at odd shapes. A deliberately wrong fragment mapping is
//! recorded as `wrong_result`; what the 16-bit form cannot take is pruned as `device_limit`, and
//! a 16-bit array the loop writes is a located error.

mod common;
use common::{driver_source, run, run_driver, skip, statuses, Run};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

fn orcl(dir: &Path, args: &[&str], fault: Option<&str>) -> Run {
    let mut c = Command::new(ORCL);
    c.args(args)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT");
    if let Some(f) = fault {
        c.env("ORCL_TEST_FAULT", f);
    }
    c.current_dir(dir);
    run(c, Duration::from_secs(600))
}

fn example(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(name),
    )
    .unwrap()
}

/// Tune `text` as `file` in a fresh directory; the directory and every (configuration, status).
fn tune(file: &str, text: &str, fault: Option<&str>) -> (tempfile::TempDir, Vec<(String, String)>) {
    let tmp = tempfile::Builder::new()
        .prefix("orcl-tensor16-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join(file), text).unwrap();
    orcl(dir, &["check", file], None).assert_code(0);
    let t = orcl(
        dir,
        &["tune", file, "--db", "tune.db", "--timeout", "300s"],
        fault,
    );
    let rows = statuses(&dir.join("tune.db"));
    assert!(!rows.is_empty(), "{}", t.dump());
    (tmp, rows)
}

/// `text` with A and B indexed as `a` and `b`, the replacements `space`, and `extra` transform
/// arguments.
fn variant(text: &str, a: &str, b: &str, space: &[(&str, &str)], extra: &str) -> String {
    let mut text = text.replace("A[i*k+l]", a).replace("B[l*n+j]", b);
    for (from, to) in space {
        assert!(text.contains(from), "{from}");
        text = text.replace(from, to);
    }
    if !extra.is_empty() {
        text = text.replace("vecLoad=VL,", &format!("vecLoad=VL, {extra},"));
        assert_eq!(text.matches(extra).count(), 2);
    }
    text
}

const SHAPES: &str =
    "{33, 17, 9}, {70, 45, 130}, {1, 1, 1}, {5, 7, 0}, {0, 4, 3}, {16, 8, 16}, {129, 65, 17}";

/// The driver of `func` (16-bit element type `ty`) over the tuned file at every odd shape.
fn check_tuned(dir: &Path, file: &str, func: &str, ty: &str) {
    let protos = format!(
        "#define TOL 1e-4\nvoid {func}(int m, int n, int k, float alpha, const {ty} *A, const {ty} *B, float beta, float *C);\nvoid {func}_orig(int m, int n, int k, float alpha, const {ty} *A, const {ty} *B, float beta, float *C);\nstatic {ty} *hvec(long n) {{ {ty} *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p); if (!p) exit(2); for (long i = 0; i < n; i++) p[i] = ({ty})prnd(); return p; }}"
    );
    let body = format!(
        r#"
    int m = s[0], n = s[1], k = s[2];
    {ty} *A = hvec((long)m * k), *B = hvec((long)k * n);
    float *C = fvec((long)m * n);
    float *Cr = DUP(C, (long)m * n);
    float alpha = 1.25f, beta = -0.5f;
    {func}(m, n, k, alpha, A, B, beta, C);
    {func}_orig(m, n, k, alpha, A, B, beta, Cr);
    cmp("C", C, Cr, (long)m * n);
    free(A); free(B); free(C); free(Cr);
    return m > 0;"#
    );
    run_driver(
        dir,
        &format!("_{file}"),
        file,
        func,
        &driver_source(&protos, SHAPES, &body),
        Duration::from_secs(300),
    );
}

/// Whether the C compiler does arithmetic on `__bf16` (GCC >= 13): the tuned BF16 file keeps the
/// original loop as its fallback.
fn cc_has_bf16(dir: &Path) -> bool {
    std::fs::write(
        dir.join("bf16.c"),
        "float f(const __bf16 *a) { return (float)a[0] * 2.0f; }\n",
    )
    .unwrap();
    let mut c = Command::new("cc");
    c.args(["-c", "bf16.c", "-o", "bf16.o"]).current_dir(dir);
    run(c, Duration::from_secs(60)).code() == Some(0)
}

/// NN, NT, TN, TT in FP16 (NN with `stages=2`: 8-byte `cp.async` of `vecLoad=4` groups): every
/// variant correct on the emulated form, the tuned file correct at odd shapes; both backends'
/// kernels carry the m16n8k16 instruction under `ORCL_MMA_SYNC`.
#[test]
fn fp16_layouts_nn_nt_tn_tt() {
    for (name, a, b, extra, big) in [
        ("nn", "A[i*k+l]", "B[l*n+j]", "", true),
        ("nt", "A[i*k+l]", "B[j*k+l]", "doubleBuffer=True", false),
        ("tn", "A[l*m+i]", "B[l*n+j]", "", false),
        ("tt", "A[l*m+i]", "B[j*k+l]", "", true),
        ("nn_stages2", "A[i*k+l]", "B[l*n+j]", "stages=2", true),
    ] {
        let mut space = vec![
            ("param TJ[] = [16, 32];", "param TJ[] = [32];"),
            ("param TK[] = [16, 32];", "param TK[] = [16];"),
            ("param WI[] = [16, 32];", "param WI[] = [16];"),
            ("param WJ[] = [8, 16];", "param WJ[] = [16];"),
        ];
        if extra.starts_with("stages") {
            space.push(("param VL[] = [1, 4];", "param VL[] = [4];"));
        }
        if big {
            space.extend([
                ("param M[] = [33];", "param M[] = [70];"),
                ("param N[] = [17];", "param N[] = [45];"),
                ("param K[] = [9];", "param K[] = [130];"),
            ]);
        }
        let file = format!("fp16_{name}.c");
        let text = variant(&example("hgemm_fp16.c"), a, b, &space, extra);
        let (tmp, rows) = tune(&file, &text, None);
        for (key, status) in &rows {
            assert_eq!(status, "ok", "{name}: {key}");
        }
        let dir = tmp.path();
        for backend in ["opencl", "cuda"] {
            let e = orcl(dir, &["emit", &file, "--backend", backend], None);
            e.assert_code(0);
            for want in [
                "#if ORCL_MMA_SYNC",
                "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                "orcl_h2f(",
                "float orcl_acc[1][2][4];",
            ] {
                assert!(e.stdout.contains(want), "{backend}: {want}\n{}", e.stdout);
            }
            if extra.starts_with("stages") {
                assert!(e
                    .stdout
                    .contains("cp.async.ca.shared.global [%0], [%1], 8;"));
            }
        }
        check_tuned(dir, &file, "HgemmFp16", "_Float16");
    }
}

/// `fragLoad='ldmatrix'` in FP16 (BF16 for TT): NN, NT, TN, TT at 70 x 45 x 130 with warp tiles
/// of one and two 8-column blocks (`.x2` and `.x4` reads of B), every variant correct on the
/// emulated form, which reads each element through the row addresses the hardware form hands
/// to `ldmatrix` (`.trans` for a k-major tile); the tuned file correct at odd shapes; the wrong
/// fragment mapping (A's registers 1 and 2 swapped) caught as `wrong_result`; a k-major tile
/// whose rows are not 16-byte multiples (`padLocal=4`) pruned as `device_limit`.
#[test]
fn ldmatrix_16bit_layouts_and_wrong_mapping() {
    let space = |wj: &'static str, pad: &'static str| {
        vec![
            ("param TJ[] = [16, 32];", "param TJ[] = [32];"),
            ("param TK[] = [16, 32];", "param TK[] = [16];"),
            ("param WI[] = [16, 32];", "param WI[] = [16, 32];"),
            ("param WJ[] = [8, 16];", wj),
            ("param PAD[] = [8];", pad),
            ("param VL[] = [1, 4];", "param VL[] = [4];"),
            ("param M[] = [33];", "param M[] = [70];"),
            ("param N[] = [17];", "param N[] = [45];"),
            ("param K[] = [9];", "param K[] = [130];"),
        ]
    };
    let ldm = "fragLoad='ldmatrix', stages=2";
    for (name, ex, a, b, trans) in [
        ("nn", "hgemm_fp16.c", "A[i*k+l]", "B[l*n+j]", true),
        ("nt", "hgemm_fp16.c", "A[i*k+l]", "B[j*k+l]", false),
        ("tn", "hgemm_fp16.c", "A[l*m+i]", "B[l*n+j]", true),
        ("tt", "bgemm_bf16.c", "A[l*m+i]", "B[j*k+l]", true),
    ] {
        let file = format!("ldm_{name}.c");
        let sp = space("param WJ[] = [8, 16];", "param PAD[] = [8];");
        let text = variant(&example(ex), a, b, &sp, ldm);
        let (tmp, rows) = tune(&file, &text, None);
        assert_eq!(rows.len(), 4, "{name}: {rows:?}");
        for (key, status) in &rows {
            assert_eq!(status, "ok", "{name}: {key}");
        }
        let dir = tmp.path();
        let e = orcl(dir, &["emit", &file, "--backend", "cuda"], None);
        e.assert_code(0);
        assert!(
            e.stdout
                .contains("ldmatrix.sync.aligned.m8n8.x4.shared.b16")
                != (name == "tn" || name == "tt"),
            "{name}"
        );
        assert_eq!(e.stdout.contains(".trans.shared.b16"), trans, "{name}");
        if name != "tt" {
            check_tuned(dir, &file, "HgemmFp16", "_Float16");
        }
    }
    let sp = space("param WJ[] = [16];", "param PAD[] = [8];");
    let text = variant(&example("hgemm_fp16.c"), "A[i*k+l]", "B[l*n+j]", &sp, ldm);
    let (_tmp, rows) = tune("ldm_wrong.c", &text, Some("wrong:WI=32"));
    assert_eq!(rows.len(), 2, "{rows:?}");
    for (key, status) in &rows {
        let want = if key.contains("\"WI\":32") {
            "wrong_result"
        } else {
            "ok"
        };
        assert_eq!(status, want, "{key}");
    }
    let sp = space("param WJ[] = [16];", "param PAD[] = [4];");
    let text = variant(&example("hgemm_fp16.c"), "A[i*k+l]", "B[l*n+j]", &sp, ldm);
    let (_tmp, rows) = tune("ldm_pad.c", &text, None);
    assert!(rows.iter().all(|r| r.1 == "device_limit"), "{rows:?}");
}

/// `fragBuffers=2` (double-buffered ldmatrix fragments): FP16 NN and TN with k-slabs of 32 (two
/// k-steps: the second step's fragments read into the other register set before the first
/// step's mma) correct on the emulated form and at odd shapes; the hardware text reads `_p1`
/// before issuing with `_p0`. Without `fragLoad='ldmatrix'` it is pruned as `device_limit`.
#[test]
fn frag_buffers_16bit() {
    let space = [
        ("param TJ[] = [16, 32];", "param TJ[] = [32];"),
        ("param TK[] = [16, 32];", "param TK[] = [32];"),
        ("param WI[] = [16, 32];", "param WI[] = [16];"),
        ("param WJ[] = [8, 16];", "param WJ[] = [16];"),
        ("param VL[] = [1, 4];", "param VL[] = [4];"),
        ("param M[] = [33];", "param M[] = [70];"),
        ("param N[] = [17];", "param N[] = [45];"),
        ("param K[] = [9];", "param K[] = [130];"),
    ];
    for (name, a) in [("nn", "A[i*k+l]"), ("tn", "A[l*m+i]")] {
        let file = format!("fb_{name}.c");
        let extra = "fragLoad='ldmatrix', fragBuffers=2, stages=2";
        let text = variant(&example("hgemm_fp16.c"), a, "B[l*n+j]", &space, extra);
        let (tmp, rows) = tune(&file, &text, None);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0].1, "ok", "{name}: {rows:?}");
        let dir = tmp.path();
        let e = orcl(dir, &["emit", &file, "--backend", "cuda"], None);
        e.assert_code(0);
        let load = e
            .stdout
            .find("\"=r\"(orcl_a0_0_p1)")
            .expect("step 1's fragments");
        let first = e.stdout.find("\"r\"(orcl_a0_0_p0)").expect("step 0's mma");
        let second = e.stdout.find("\"r\"(orcl_a0_0_p1)").expect("step 1's mma");
        assert!(load < first && first < second, "{name}");
        check_tuned(dir, &file, "HgemmFp16", "_Float16");
    }
    let text = variant(
        &example("hgemm_fp16.c"),
        "A[i*k+l]",
        "B[l*n+j]",
        &space,
        "fragBuffers=2",
    );
    let (_tmp, rows) = tune("fb_pruned.c", &text, None);
    assert!(rows.iter().all(|r| r.1 == "device_limit"), "{rows:?}");
}

/// BF16: correct on the emulated form (NT at 70 x 45 x 130); the tuned file checked where the C
/// compiler has `__bf16` arithmetic. A wrong fragment mapping (A's registers 1 and 2 swapped for
/// WI=32) is caught as `wrong_result`, in FP16 and BF16 alike.
#[test]
fn bf16_and_wrong_fragment_mapping() {
    let space = [
        ("param TJ[] = [16, 32];", "param TJ[] = [32];"),
        ("param TK[] = [16, 32];", "param TK[] = [32];"),
        ("param WI[] = [16, 32];", "param WI[] = [16, 32];"),
        ("param WJ[] = [8, 16];", "param WJ[] = [16];"),
        ("param VL[] = [1, 4];", "param VL[] = [4];"),
        ("param M[] = [33];", "param M[] = [70];"),
        ("param N[] = [17];", "param N[] = [45];"),
        ("param K[] = [9];", "param K[] = [130];"),
    ];
    let text = variant(&example("bgemm_bf16.c"), "A[i*k+l]", "B[j*k+l]", &space, "");
    let (tmp, rows) = tune("bf16.c", &text, None);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows.iter().all(|r| r.1 == "ok"), "{rows:?}");
    let dir = tmp.path();
    let e = orcl(dir, &["emit", "bf16.c", "--backend", "cuda"], None);
    e.assert_code(0);
    assert!(e
        .stdout
        .contains("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"));
    assert!(e.stdout.contains("orcl_bf2f("));
    if cc_has_bf16(dir) {
        check_tuned(dir, "bf16.c", "BgemmBf16", "__bf16");
    } else {
        skip(
            "tensor16: the tuned BF16 file's C driver",
            "cc has no __bf16 arithmetic (GCC >= 13 needed)",
        );
    }
    for (file, ex) in [("wrong16.c", "hgemm_fp16.c"), ("wrongbf.c", "bgemm_bf16.c")] {
        let text = variant(&example(ex), "A[i*k+l]", "B[l*n+j]", &space, "");
        let (_tmp, rows) = tune(file, &text, Some("wrong:WI=32"));
        assert_eq!(rows.len(), 2, "{rows:?}");
        for (key, status) in &rows {
            let want = if key.contains("\"WI\":32") {
                "wrong_result"
            } else {
                "ok"
            };
            assert_eq!(status, want, "{file}: {key}");
        }
    }
}

/// Pruned before building (`device_limit`): a k-slab not a multiple of 16, `fragLoad` > 1,
/// `stages` with single-element copies, 'fp16' on `__bf16` operands. A `_Float16` array the loop
/// writes is a located input error (exit 2).
#[test]
fn invalid_16bit_configurations_are_pruned() {
    let space = [
        ("param TJ[] = [16, 32];", "param TJ[] = [32];"),
        ("param TK[] = [16, 32];", "param TK[] = [8, 16];"),
        ("param WI[] = [16, 32];", "param WI[] = [16];"),
        ("param WJ[] = [8, 16];", "param WJ[] = [16];"),
        ("param VL[] = [1, 4];", "param VL[] = [1];"),
        ("param MM[] = ['fp16'];", "param MM[] = ['fp16', 'bf16'];"),
    ];
    let text = variant(&example("hgemm_fp16.c"), "A[i*k+l]", "B[l*n+j]", &space, "");
    let (_tmp, rows) = tune("limits.c", &text, None);
    assert_eq!(rows.len(), 4, "{rows:?}");
    for (key, status) in &rows {
        let bad = key.contains("\"TK\":8") || key.contains("bf16");
        assert_eq!(status, if bad { "device_limit" } else { "ok" }, "{key}");
    }
    for extra in ["fragLoad=2", "stages=2"] {
        let mut s = space.to_vec();
        s[1] = ("param TK[] = [16, 32];", "param TK[] = [16];");
        s[5] = ("param MM[] = ['fp16'];", "param MM[] = ['fp16'];");
        let text = variant(&example("hgemm_fp16.c"), "A[i*k+l]", "B[l*n+j]", &s, extra);
        let (_tmp, rows) = tune("limits2.c", &text, None);
        assert!(
            rows.iter().all(|r| r.1 == "device_limit"),
            "{extra}: {rows:?}"
        );
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let text = example("hgemm_fp16.c")
        .replace("float *C)", "_Float16 *C)")
        .replace("decl static float C[M*N]", "decl static _Float16 C[M*N]");
    std::fs::write(dir.join("w.c"), &text).unwrap();
    let c = orcl(dir, &["check", "w.c"], None);
    c.assert_code(2);
    assert!(
        c.stderr
            .contains("is a `_Float16` array: orcl reads 16-bit arrays"),
        "{}",
        c.dump()
    );
    assert!(c.stderr.contains("w.c:"), "{}", c.dump());
}

/// `vecLoad=8`: 16-byte groups of eight halves (`cp.async.cg ... 16` on the hardware form, one
/// `uint4` copy where there is no `cp.async`, eight halves unpacked from a `uint4` where the group
/// lands in registers or in a tile row that is not 16-byte aligned): FP16 NN with `stages=2` and
/// TN with `doubleBuffer`, `padLocal` 4 (unpacked) and 8 (whole), tuned at 96 x 64 x 144 (interior
/// tiles on the unguarded path) and the tuned files checked at odd shapes. With them
/// `asyncCache='ca'` (the 16-byte copies `.ca`) and `blockSwizzle` 2 and 4 (work-groups walking
/// groups of tile rows; 3 tile rows at the tuned size, up to 5 in the driver: partial last groups,
/// so a mapping that missed or repeated a tile would fail), and `indexBits=32` on TN (`int` ids and
/// loop counters); with all of them a wrong fragment mapping is `wrong_result`. `minBlocks=2` writes
/// `__launch_bounds__(threads, 2)` in CUDA; 32 blocks of 128 threads are pruned there.
#[test]
fn sixteen_byte_copies_and_min_blocks() {
    let space = [
        ("param TJ[] = [16, 32];", "param TJ[] = [32];"),
        ("param TK[] = [16, 32];", "param TK[] = [16, 32];"),
        ("param WI[] = [16, 32];", "param WI[] = [16];"),
        ("param WJ[] = [8, 16];", "param WJ[] = [16];"),
        ("param PAD[] = [8];", "param PAD[] = [4, 8];"),
        ("param VL[] = [1, 4];", "param VL[] = [8];"),
        ("param M[] = [33];", "param M[] = [96];"),
        ("param N[] = [17];", "param N[] = [64];"),
        ("param K[] = [9];", "param K[] = [144];"),
    ];
    for (name, a, extra) in [
        (
            "nn",
            "A[i*k+l]",
            "stages=2, asyncCache='ca', blockSwizzle=2",
        ),
        (
            "tn",
            "A[l*m+i]",
            "doubleBuffer=True, blockSwizzle=4, indexBits=32",
        ),
    ] {
        let file = format!("v8_{name}.c");
        let text = variant(&example("hgemm_fp16.c"), a, "B[l*n+j]", &space, extra)
            .replace("launchBounds=True,", "launchBounds=True, minBlocks=2,");
        let (tmp, rows) = tune(&file, &text, None);
        assert_eq!(rows.len(), 4, "{name}: {rows:?}");
        assert!(rows.iter().all(|r| r.1 == "ok"), "{name}: {rows:?}");
        let dir = tmp.path();
        let e = orcl(dir, &["emit", &file, "--backend", "cuda"], None);
        e.assert_code(0);
        assert!(e.stdout.contains("__launch_bounds__(128, 2)"), "{name}");
        assert!(e.stdout.contains("const uint4 orcl_v = *(const uint4 *)&"));
        if name == "nn" {
            assert!(e
                .stdout
                .contains("cp.async.ca.shared.global [%0], [%1], 16;"));
            assert!(!e.stdout.contains("cp.async.cg"));
        }
        let index = if name == "tn" { "int" } else { "long" };
        let g1 = format!("const {index} orcl_g1 = orcl_sw1;");
        assert!(e.stdout.contains(&g1), "{name}");
        let kernel = e.stdout.split("---- host code ----").next().unwrap();
        assert_eq!(kernel.contains("for (long "), name == "nn", "{name}");
        let cl = orcl(dir, &["emit", &file, "--backend", "opencl"], None);
        cl.assert_code(0);
        assert!(cl.stdout.contains("__global const uint4 *)&"), "{name}");
        check_tuned(dir, &file, "HgemmFp16", "_Float16");
    }
    // With all of them, a wrong fragment mapping is still caught.
    let extra = "stages=2, asyncCache='ca', blockSwizzle=2, indexBits=32";
    let text = variant(
        &example("hgemm_fp16.c"),
        "A[i*k+l]",
        "B[l*n+j]",
        &space,
        extra,
    );
    let (_tmp, rows) = tune("v8_wrong.c", &text, Some("wrong:PAD=4"));
    assert_eq!(rows.len(), 4, "{rows:?}");
    for (key, status) in &rows {
        let want = if key.contains("\"PAD\":4") {
            "wrong_result"
        } else {
            "ok"
        };
        assert_eq!(status, want, "{key}");
    }
    let tmp = tempfile::tempdir().unwrap();
    let text = variant(&example("hgemm_fp16.c"), "A[i*k+l]", "B[l*n+j]", &space, "")
        .replace("launchBounds=True,", "launchBounds=True, minBlocks=32,");
    std::fs::write(tmp.path().join("mb.c"), text).unwrap();
    let e = orcl(tmp.path(), &["emit", "mb.c", "--backend", "cuda"], None);
    e.assert_code(0);
    assert!(
        e.stdout
            .contains("minBlocks=32 blocks of 128 threads exceed the 2048 threads"),
        "{}",
        e.dump()
    );
}

/// `prefetchResult=1` (the result's lines prefetched into L2 in the last k-slab, `prefetch.global.L2`
/// on the hardware form only) and the multistage loop's fast path, whose tile and alignment test
/// is computed once (`orcl_fast0`) and per slab only the slab's bound: FP16 NN with `stages=2`,
/// 16-byte copies, tuned at 96 x 64 x 144 (interior tiles) and checked at odd shapes, every
/// variant `ok`; without stages the parameter is refused with its reason.
#[test]
fn prefetch_result_and_hoisted_fast_path() {
    let space = [
        ("param TJ[] = [16, 32];", "param TJ[] = [32];"),
        ("param TK[] = [16, 32];", "param TK[] = [16, 32];"),
        ("param WI[] = [16, 32];", "param WI[] = [16];"),
        ("param WJ[] = [8, 16];", "param WJ[] = [16];"),
        ("param PAD[] = [8];", "param PAD[] = [4, 8];"),
        ("param VL[] = [1, 4];", "param VL[] = [8];"),
        ("param M[] = [33];", "param M[] = [96];"),
        ("param N[] = [17];", "param N[] = [64];"),
        ("param K[] = [9];", "param K[] = [144];"),
    ];
    let extra = "stages=2, asyncCache='ca', indexBits=32, prefetchResult=1";
    let text = variant(
        &example("hgemm_fp16.c"),
        "A[i*k+l]",
        "B[l*n+j]",
        &space,
        extra,
    );
    let (tmp, rows) = tune("pf.c", &text, None);
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(rows.iter().all(|r| r.1 == "ok"), "{rows:?}");
    let dir = tmp.path();
    let e = orcl(dir, &["emit", "pf.c", "--backend", "cuda"], None);
    e.assert_code(0);
    let kernel = e.stdout.split("---- host code ----").next().unwrap();
    assert!(kernel
        .contains("asm volatile(\"prefetch.global.L2 [%0];\" :: \"l\"((size_t)&C[i * n + j]));"));
    assert!(
        kernel.contains("const int orcl_kpre = (orcl_kn - 1) / 16 >= 0 ?"),
        "{kernel}"
    );
    assert!(kernel.contains("if (orcl_k0 == orcl_kpre) {"));
    assert!(kernel.contains("int orcl_fast0 = "));
    assert!(kernel.contains("int orcl_fast = orcl_k0 + 16 + 16 <= orcl_kn && orcl_fast0;"));
    check_tuned(dir, "pf.c", "HgemmFp16", "_Float16");
    let text = variant(
        &example("hgemm_fp16.c"),
        "A[i*k+l]",
        "B[l*n+j]",
        &space,
        "doubleBuffer=True, prefetchResult=2",
    );
    std::fs::write(dir.join("pf1.c"), text).unwrap();
    let e = orcl(dir, &["emit", "pf1.c", "--backend", "cuda"], None);
    assert!(
        e.stdout.contains("prefetchResult=2 prefetches")
            && e.stdout.contains("it needs stages > 1"),
        "{}",
        e.dump()
    );
}

/// `mmaInstruction='wgmma'` (sm_90a; PoCL runs the emulated form, which reads every element at the
/// byte offset the wgmma descriptors give, through the 128-byte swizzle): NN, NT, TN in FP16 and
/// TT in BF16 at 130 x 77 x 200 (no tile divides it, a partial last k-slab, unaligned rows of B in
/// NN), one or two warpgroups along each tiled loop; the tuned FP16 files correct at odd shapes;
/// the CUDA text carries `wgmma.mma_async` with each layout's transpose flags (MN-major operands
/// transposed). A wrong descriptor (A advanced by half a k-step) is recorded as `wrong_result`;
/// a k-slab other than 64 is pruned as `device_limit`.
#[test]
fn wgmma_layouts_edges_and_wrong_mapping() {
    let space = |tk: &'static str, wj: &'static str| {
        vec![
            ("param TI[] = [32];", "param TI[] = [64, 128];"),
            ("param TJ[] = [16, 32];", "param TJ[] = [128];"),
            ("param TK[] = [16, 32];", tk),
            ("param WI[] = [16, 32];", "param WI[] = [64];"),
            ("param WJ[] = [8, 16];", wj),
            ("param PAD[] = [8];", "param PAD[] = [0];"),
            ("param VL[] = [1, 4];", "param VL[] = [8];"),
            ("param M[] = [33];", "param M[] = [130];"),
            ("param N[] = [17];", "param N[] = [77];"),
            ("param K[] = [9];", "param K[] = [200];"),
            ("constraint warps = (TI/WI) * (TJ/WJ) <= 8;", ""),
        ]
    };
    let wg = "stages=3, mmaInstruction='wgmma'";
    let wj = "param WJ[] = [64, 128];";
    for (name, ex, a, b, flags) in [
        ("nn", "hgemm_fp16.c", "A[i*k+l]", "B[l*n+j]", "0, 1"),
        ("nt", "hgemm_fp16.c", "A[i*k+l]", "B[j*k+l]", "0, 0"),
        ("tn", "hgemm_fp16.c", "A[l*m+i]", "B[l*n+j]", "1, 1"),
        ("tt", "bgemm_bf16.c", "A[l*m+i]", "B[j*k+l]", "1, 0"),
    ] {
        let file = format!("wg_{name}.c");
        let text = variant(&example(ex), a, b, &space("param TK[] = [64];", wj), wg);
        let (tmp, rows) = tune(&file, &text, None);
        assert_eq!(rows.len(), 4, "{name}: {rows:?}");
        for (key, status) in &rows {
            assert_eq!(status, "ok", "{name}: {key}");
        }
        let dir = tmp.path();
        let e = orcl(dir, &["emit", &file, "--backend", "cuda"], None);
        e.assert_code(0);
        let ty = if name == "tt" { "bf16" } else { "f16" };
        let op = format!("wgmma.mma_async.sync.aligned.m64n64k16.f32.{ty}.{ty}");
        assert!(e.stdout.contains(&op), "{name}");
        assert!(e.stdout.contains(&format!("p, 1, 1, {flags};")), "{name}");
        assert!(e.stdout.contains("-orcl-arch=a"), "{name}");
        if name != "tt" {
            check_tuned(dir, &file, "HgemmFp16", "_Float16");
        }
    }
    let text = variant(
        &example("hgemm_fp16.c"),
        "A[i*k+l]",
        "B[l*n+j]",
        &space("param TK[] = [64];", wj),
        wg,
    );
    let (_tmp, rows) = tune("wg_wrong.c", &text, Some("wrong:WJ=64"));
    assert_eq!(rows.len(), 4, "{rows:?}");
    for (key, status) in &rows {
        let want = if key.contains("\"WJ\":64") {
            "wrong_result"
        } else {
            "ok"
        };
        assert_eq!(status, want, "{key}");
    }
    let sp = space("param TK[] = [32];", "param WJ[] = [64];");
    let text = variant(&example("hgemm_fp16.c"), "A[i*k+l]", "B[l*n+j]", &sp, wg);
    let (tmp, rows) = tune("wg_tk.c", &text, None);
    assert!(rows.iter().all(|r| r.1 == "device_limit"), "{rows:?}");
    let e = orcl(tmp.path(), &["emit", "wg_tk.c"], None);
    assert!(
        e.stdout.contains("k-slab of 64") || e.stderr.contains("k-slab of 64"),
        "{}",
        e.dump()
    );
}
