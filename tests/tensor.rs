//! TF32 tensor-core matrix products from the naive loop (`mathMode='tf32'`, issue 23) end to end
//! on the local OpenCL device (PoCL in CI, which runs the emulated-fragment form): the BLAS form
//! of `examples/sgemm_tf32.c` with A and/or B transposed (NN, NT, TN, TT), tuned at sizes no tile
//! divides (33×17×9 and 70×45×130) over warp tiles, k-slabs, vector loads, `loadItems` and
//! `doubleBuffer`, every variant validated against the original loop at the TF32 tolerance; the
//! tuned file, compiled with a C driver, computes what the original computes at odd shapes
//! (k = 0 and 1 included). A deliberately wrong fragment mapping (`ORCL_TEST_FAULT=wrong:...`) is
//! recorded as `wrong_result`; configurations the tensor-core form cannot take are pruned as
//! `device_limit` (never built) and a `mathMode` other than 'fp32'/'tf32' is a located error.

mod common;
use common::{driver_source, run, run_driver, statuses, Run};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// `orcl ARGS` in `dir` (`fault`: the test hook `ORCL_TEST_FAULT`).
fn orcl(dir: &Path, args: &[&str], fault: Option<&str>) -> Run {
    let mut c = Command::new(ORCL);
    c.args(args)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT");
    if let Some(f) = fault {
        c.env("ORCL_TEST_FAULT", f);
    }
    c.current_dir(dir);
    run(c, Duration::from_secs(400))
}

fn example() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sgemm_tf32.c"))
        .unwrap()
}

/// Tune `text` as `file` in a fresh directory (with test fault `fault`); returns the directory
/// and every evaluation's (configuration key, status).
fn tune(file: &str, text: &str, fault: Option<&str>) -> (tempfile::TempDir, Vec<(String, String)>) {
    let tmp = tempfile::Builder::new()
        .prefix("orcl-tensor-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join(file), text).unwrap();
    orcl(dir, &["check", file], None).assert_code(0);
    // A generous per-variant limit: the emulated form on a loaded CI machine is slow.
    let t = orcl(
        dir,
        &["tune", file, "--db", "tune.db", "--timeout", "300s"],
        fault,
    );
    t.assert_code(0);
    let rows = statuses(&dir.join("tune.db"));
    assert!(!rows.is_empty(), "{}", t.dump());
    (tmp, rows)
}

/// Odd shapes {m, n, k}: no tile divides them; k = 0 leaves C = beta*C.
const SHAPES: &str =
    "{33, 17, 9}, {70, 45, 130}, {1, 1, 1}, {5, 7, 0}, {0, 4, 3}, {16, 8, 8}, {129, 65, 17}";

/// The BLAS-form driver of `SgemmTf32` over the tuned file of `file` at every odd shape, at the
/// TF32 tolerance of the largest k (2^-10 · √130 ≈ 1.1e-2).
fn check_tuned(dir: &Path, file: &str) {
    check_tuned_at(dir, file, "1.2e-2");
}

/// [`check_tuned`] at relative tolerance `tol` (C text).
fn check_tuned_at(dir: &Path, file: &str, tol: &str) {
    let protos = format!("#define TOL {tol}\nvoid SgemmTf32(int m, int n, int k, float alpha, const float *A, const float *B, float beta, float *C);\nvoid SgemmTf32_orig(int m, int n, int k, float alpha, const float *A, const float *B, float beta, float *C);");
    let body = r#"
    int m = s[0], n = s[1], k = s[2];
    float *A = fvec((long)m * k), *B = fvec((long)k * n), *C = fvec((long)m * n);
    float *Cr = DUP(C, (long)m * n);
    float alpha = 1.25f, beta = -0.5f;
    SgemmTf32(m, n, k, alpha, A, B, beta, C);
    SgemmTf32_orig(m, n, k, alpha, A, B, beta, Cr);
    cmp("C", C, Cr, (long)m * n);
    free(A); free(B); free(C); free(Cr);
    return m > 0;"#;
    run_driver(
        dir,
        &format!("_{file}"),
        file,
        "SgemmTf32",
        &driver_source(&protos, SHAPES, body),
        Duration::from_secs(300),
    );
}

/// `sp` as the string slices [`variant_of`] takes.
fn refs(sp: &[(String, String)]) -> Vec<(&str, &str)> {
    sp.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect()
}

/// `text` with A and B indexed as `a` and `b`, the space `space` (lines replacing the example's
/// parameters TJ..VL) and, if `extra`, more transform arguments.
fn variant_of(a: &str, b: &str, space: &[(&str, &str)], extra: &str) -> String {
    let mut text = example().replace("A[i*k+l]", a).replace("B[l*n+j]", b);
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

/// NN, NT, TN, TT (and NN, TN with `stages`): every variant correct on the emulated form, and the tuned file correct at odd
/// shapes; the emitted kernels (both backends) carry the inline PTX under `ORCL_MMA_SYNC`.
#[test]
fn tf32_layouts_nn_nt_tn_tt() {
    for (name, a, b, extra, big) in [
        ("nn", "A[i*k+l]", "B[l*n+j]", "", true),
        ("nt", "A[i*k+l]", "B[j*k+l]", "doubleBuffer=True", false),
        ("tn", "A[l*m+i]", "B[l*n+j]", "loadItems=[('i',4)]", false),
        ("tt", "A[l*m+i]", "B[j*k+l]", "doubleBuffer=True", true),
        ("nn_stages3", "A[i*k+l]", "B[l*n+j]", "stages=3", false),
        ("tn_stages2", "A[l*m+i]", "B[l*n+j]", "stages=2", true),
        ("nn_frag4", "A[i*k+l]", "B[l*n+j]", "fragLoad=4", true),
        ("nt_frag2", "A[i*k+l]", "B[j*k+l]", "fragLoad=2", false),
        (
            "tt_frag4",
            "A[l*m+i]",
            "B[j*k+l]",
            "fragLoad=4, stages=2",
            true,
        ),
    ] {
        let mut space = vec![
            ("param TJ[] = [16, 32];", "param TJ[] = [32];"),
            ("param TK[] = [8, 16];", "param TK[] = [8, 16];"),
            ("param WI[] = [16, 32];", "param WI[] = [16];"),
            ("param WJ[] = [8, 16];", "param WJ[] = [16];"),
        ];
        if big {
            space.extend([
                ("param M[] = [33];", "param M[] = [70];"),
                ("param N[] = [17];", "param N[] = [45];"),
                ("param K[] = [9];", "param K[] = [130];"),
            ]);
        }
        if name == "nn_stages3" {
            // Rows of A and B aligned to float4: interior blocks take the unguarded loads.
            space.extend([
                ("param M[] = [33];", "param M[] = [70];"),
                ("param N[] = [17];", "param N[] = [48];"),
                ("param K[] = [9];", "param K[] = [132];"),
            ]);
        }
        if extra.starts_with("fragLoad=4") {
            // Two mma k-steps per group of reads: k-slabs of 16 and 32 (32: A's tile swizzled).
            space[1] = ("param TK[] = [8, 16];", "param TK[] = [16, 32];");
        }
        let file = format!("tf32_{name}.c");
        let (tmp, rows) = tune(&file, &variant_of(a, b, &space, extra), None);
        assert_eq!(rows.len(), 4, "{rows:?}");
        for (key, status) in &rows {
            assert_eq!(status, "ok", "{name}: {key}");
        }
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
                    "TK=16",
                    "--set",
                    "VL=4",
                ],
                None,
            );
            e.assert_code(0);
            for want in [
                "#if ORCL_MMA_SYNC",
                "asm(\"cvt.rna.tf32.f32 %0, %1;\"",
                "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
                "orcl_tf32(",
            ] {
                assert!(e.stdout.contains(want), "{backend}: {want}\n{}", e.stdout);
            }
            if extra.starts_with("stages") {
                // Asynchronous copies of whole float4 groups, plain loads where there is no mma.
                for want in [
                    "cp.async.cg.shared.global [%0], [%1], 16;",
                    "cp.async.commit_group;",
                    "cp.async.wait_group",
                ] {
                    assert!(e.stdout.contains(want), "{backend}: {want}");
                }
            }
            if extra.starts_with("fragLoad") {
                // One vector read per k-contiguous operand's fragment group (A's rows g and
                // g + 8, or B's column g), k-major tiles XOR-swizzled.
                let v = &extra[9..10];
                let q = if backend == "opencl" {
                    "__local const "
                } else {
                    "const "
                };
                let tile = if a.ends_with("+l]") { 0 } else { 1 };
                let want = format!("float{v} orcl_v = *({q}float{v} *)&orcl_tile{tile}");
                assert!(e.stdout.contains(&want), "{backend}: {want}\n{}", e.stdout);
                if !a.ends_with("+l]") || !b.ends_with("+l]") {
                    assert!(e.stdout.contains(") & 3) << 3)]"), "{}", e.stdout);
                }
            }
            // 2 warps of 16 x 16 outputs: 2 mma per k-step of 8, 2 k-steps per slab.
            assert!(
                e.stdout.contains("float orcl_acc[1][2][4];"),
                "{}",
                e.stdout
            );
        }
        check_tuned(dir, &file);
    }
}

/// `tf32Convert='stage'` (TF32 rounding once per staged element: in registers with
/// `doubleBuffer`, in place after the loads otherwise) and `fragLoad='ldmatrix'` (k-contiguous
/// tiles read by `ldmatrix`): every variant correct on the emulated form (which rounds at the
/// same point) and the tuned file correct at odd shapes; the emitted kernels read the staged bits
/// straight into the mma registers, and `ldmatrix.x4` (A) / `.x2` (B) read the k-contiguous tiles.
/// With them NN with `asyncCache='ca'`, `blockSwizzle=8` (3 tile rows: one partial group) and
/// `indexBits=32` (`int` ids and loop counters).
#[test]
fn tf32_stage_conversion_and_ldmatrix() {
    for (name, a, b, extra) in [
        (
            "nn_db_stage",
            "A[i*k+l]",
            "B[l*n+j]",
            "doubleBuffer=True, tf32Convert='stage'",
        ),
        (
            "tn_st2_stage",
            "A[l*m+i]",
            "B[l*n+j]",
            "stages=2, tf32Convert='stage'",
        ),
        (
            "nt_stage_ldm",
            "A[i*k+l]",
            "B[j*k+l]",
            "tf32Convert='stage', fragLoad='ldmatrix'",
        ),
        (
            "nn_st2_ldm",
            "A[i*k+l]",
            "B[l*n+j]",
            "stages=2, fragLoad='ldmatrix'",
        ),
        (
            "tt_db_ldm",
            "A[l*m+i]",
            "B[j*k+l]",
            "doubleBuffer=True, fragLoad='ldmatrix'",
        ),
        (
            "nn_st2_ca_swizzle_int",
            "A[i*k+l]",
            "B[l*n+j]",
            "stages=2, fragLoad='ldmatrix', asyncCache='ca', blockSwizzle=8, indexBits=32",
        ),
    ] {
        let space = [
            ("param TJ[] = [16, 32];", "param TJ[] = [32];"),
            ("param WI[] = [16, 32];", "param WI[] = [16];"),
            ("param WJ[] = [8, 16];", "param WJ[] = [16];"),
            ("param M[] = [33];", "param M[] = [70];"),
            ("param N[] = [17];", "param N[] = [45];"),
            ("param K[] = [9];", "param K[] = [130];"),
        ];
        let file = format!("tf32_{name}.c");
        let (tmp, rows) = tune(&file, &variant_of(a, b, &space, extra), None);
        assert_eq!(rows.len(), 4, "{rows:?}");
        for (key, status) in &rows {
            assert_eq!(status, "ok", "{name}: {key}");
        }
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
                    "TK=16",
                    "--set",
                    "VL=4",
                ],
                None,
            );
            e.assert_code(0);
            let text = &e.stdout;
            if extra.contains("'stage'") {
                // Rounded when staged (cvt.rna into the tile), read as bits into the mma.
                assert!(text.contains("= orcl_u2f(orcl_r);"), "{backend}: {text}");
                assert!(text.contains("orcl_a0_0 = orcl_f2u("), "{backend}: {text}");
                assert!(
                    !text.contains("\"=r\"(orcl_a0_0) : \"f\""),
                    "{backend}: {text}"
                );
            }
            if extra.contains("indexBits=32") {
                // int ids and counters; the work-group's tile from the swizzled launch order.
                assert!(text.contains("const int orcl_lane = "), "{backend}: {text}");
                let kernel = text.split("---- host code ----").next().unwrap();
                assert!(!kernel.contains("for (long "), "{backend}: {text}");
                assert!(text.contains("const int orcl_g1 = orcl_sw1;"), "{backend}");
                assert!(text.contains("cp.async.ca.shared.global [%0], [%1], 16;"));
            }
            if extra.contains("ldmatrix") {
                let (x4, x2) = (a.ends_with("+l]"), b.ends_with("+l]"));
                for (want, shape) in [(x4, "x4"), (x2, "x2")] {
                    let instr = format!("ldmatrix.sync.aligned.m8n8.{shape}.shared.b16");
                    assert_eq!(text.contains(&instr), want, "{backend}: {instr}\n{text}");
                }
                assert!(text.contains("aligned(16)") || backend == "cuda", "{text}");
            }
        }
        check_tuned(dir, &file);
    }
}

/// `tf32Convert='truncate'` (no conversion: `mma.sync` reads the float bits, ignoring the low 13
/// mantissa bits; the emulated form clears them): NN with 2 `cp.async` stages and `ldmatrix`, NT
/// with `ldmatrix` for both operands, TN with `doubleBuffer`, TT plain, at 70 x 45 x 130 (no
/// tile divides it, a partial last k-slab): every variant `ok` at the truncation's tolerance
/// (2^-9 · √130 ≈ 2.2e-2, in the skeleton), the tuned files correct at odd shapes; the emitted
/// kernels carry no `cvt.rna`; a wrong fragment mapping is still `wrong_result`.
#[test]
fn tf32_truncate_layouts_and_wrong_mapping() {
    let space = [
        ("param TJ[] = [16, 32];", "param TJ[] = [32];"),
        ("param TK[] = [8, 16];", "param TK[] = [16];"),
        ("param WI[] = [16, 32];", "param WI[] = [16, 32];"),
        ("param WJ[] = [8, 16];", "param WJ[] = [16];"),
        ("param VL[] = [1, 4];", "param VL[] = [4];"),
        ("param M[] = [33];", "param M[] = [70];"),
        ("param N[] = [17];", "param N[] = [45];"),
        ("param K[] = [9];", "param K[] = [130];"),
    ];
    for (name, a, b, extra) in [
        (
            "nn",
            "A[i*k+l]",
            "B[l*n+j]",
            "tf32Convert='truncate', stages=2, fragLoad='ldmatrix'",
        ),
        (
            "nt",
            "A[i*k+l]",
            "B[j*k+l]",
            "tf32Convert='truncate', fragLoad='ldmatrix'",
        ),
        (
            "tn",
            "A[l*m+i]",
            "B[l*n+j]",
            "tf32Convert='truncate', doubleBuffer=True",
        ),
        ("tt", "A[l*m+i]", "B[j*k+l]", "tf32Convert='truncate'"),
    ] {
        let file = format!("tf32_trunc_{name}.c");
        let text = variant_of(a, b, &space, extra);
        let (tmp, rows) = tune(&file, &text, None);
        assert_eq!(rows.len(), 2, "{rows:?}");
        for (key, status) in &rows {
            assert_eq!(status, "ok", "{name}: {key}");
        }
        let dir = tmp.path();
        for backend in ["opencl", "cuda"] {
            let e = orcl(dir, &["emit", &file, "--backend", backend], None);
            e.assert_code(0);
            assert!(!e.stdout.contains("cvt.rna"), "{backend}: {}", e.stdout);
            assert!(e.stdout.contains("orcl_a0_0 = orcl_f2u("), "{}", e.stdout);
            assert!(e.stdout.contains("& 0xffffe000u)"), "{}", e.stdout);
            let s = orcl(
                dir,
                &["emit", &file, "--backend", backend, "--skeleton"],
                None,
            );
            s.assert_code(0);
            assert!(s.stdout.contains("> tolerance 2.2"), "{}", s.stdout);
        }
        check_tuned_at(dir, &file, "2.3e-2");
        if name == "nn" {
            let (_tmp, rows) = tune("wrong.c", &text, Some("wrong:WI=32"));
            for (key, status) in &rows {
                let want = if key.contains("\"WI\":32") {
                    "wrong_result"
                } else {
                    "ok"
                };
                assert_eq!(status, want, "{key}");
            }
        }
    }
}

/// A wrong fragment mapping (A's registers 1 and 2 swapped, under `ORCL_TEST_FAULT`) must be
/// caught by validation: `wrong_result` for the faulty configurations, `ok` for the others.
#[test]
fn wrong_fragment_mapping_is_caught() {
    let space = [
        ("param TJ[] = [16, 32];", "param TJ[] = [32];"),
        ("param TK[] = [8, 16];", "param TK[] = [16];"),
        ("param WI[] = [16, 32];", "param WI[] = [16, 32];"),
        ("param WJ[] = [8, 16];", "param WJ[] = [16];"),
        ("param VL[] = [1, 4];", "param VL[] = [4];"),
        ("param M[] = [33];", "param M[] = [70];"),
        ("param N[] = [17];", "param N[] = [45];"),
        ("param K[] = [9];", "param K[] = [130];"),
    ];
    // fragLoad=4: the same mapping through the permuted k order and A's swizzled tile (TK 32).
    // tf32Convert='stage' with fragLoad='ldmatrix': the same mapping through the ldmatrix rows.
    for (extra, tk) in [
        ("", "[16]"),
        ("fragLoad=4", "[32]"),
        ("tf32Convert='stage', fragLoad='ldmatrix'", "[16]"),
    ] {
        let mut space = space.to_vec();
        space[1] = (
            "param TK[] = [8, 16];",
            if tk == "[16]" {
                "param TK[] = [16];"
            } else {
                "param TK[] = [32];"
            },
        );
        let text = variant_of("A[i*k+l]", "B[l*n+j]", &space, extra);
        let (_tmp, rows) = tune("wrong.c", &text, Some("wrong:WI=32"));
        assert_eq!(rows.len(), 2, "{rows:?}");
        for (key, status) in &rows {
            let want = if key.contains("\"WI\":32") {
                "wrong_result"
            } else {
                "ok"
            };
            assert_eq!(status, want, "{extra}: {key}");
        }
    }
}

/// What the tensor-core form cannot take is pruned before building (`device_limit`): a warp
/// tile that is not a multiple of 16 x 8 or does not divide the tile, a k-slab that is not a
/// multiple of 8, double operands; `mathMode='tf32'` on a loop that is not a matrix product. A
/// `mathMode` value other than 'fp32' or 'tf32' is a located input error (exit 2).
#[test]
fn invalid_tf32_configurations_are_pruned() {
    let space = [
        ("param TJ[] = [16, 32];", "param TJ[] = [32];"),
        ("param TK[] = [8, 16];", "param TK[] = [8, 12];"),
        ("param WI[] = [16, 32];", "param WI[] = [16, 24];"),
        ("param WJ[] = [8, 16];", "param WJ[] = [16, 64];"),
        ("param VL[] = [1, 4];", "param VL[] = [1];"),
    ];
    let text = variant_of("A[i*k+l]", "B[l*n+j]", &space, "");
    let (_tmp, rows) = tune("limits.c", &text, None);
    // TK=12, WI=24 (not a multiple of 16) or WJ=64 (does not divide TJ=32): pruned.
    assert_eq!(rows.len(), 8, "{rows:?}");
    for (key, status) in &rows {
        let bad = ["\"TK\":12", "\"WI\":24", "\"WJ\":64"]
            .iter()
            .any(|x| key.contains(x));
        assert_eq!(status, if bad { "device_limit" } else { "ok" }, "{key}");
    }

    // Double data: every configuration pruned, so no valid variant (exit 1), with the reason.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let text = example().replace("float", "double").replace("0.0f", "0.0");
    std::fs::write(dir.join("d.c"), &text).unwrap();
    let t = orcl(dir, &["tune", "d.c", "--db", "tune.db"], None);
    t.assert_code(1);
    let rows = statuses(&dir.join("tune.db"));
    assert!(
        !rows.is_empty() && rows.iter().all(|r| r.1 == "device_limit"),
        "{rows:?}"
    );
    let q = orcl(
        dir,
        &[
            "db",
            "--db",
            "tune.db",
            "query",
            "SELECT message FROM evaluation LIMIT 1",
        ],
        None,
    );
    assert!(q.stdout.contains("float operands"), "{}", q.dump());

    // A 1-D loop: mathMode='tf32' has no form there.
    let axpy = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/axpy_quick.c"),
    )
    .unwrap();
    let text = axpy.replacen("transform OpenCL(", "transform OpenCL(mathMode='tf32', ", 1);
    assert_ne!(text, axpy);
    std::fs::write(dir.join("axpy.c"), &text).unwrap();
    let e = orcl(dir, &["emit", "axpy.c"], None);
    e.assert_code(0);
    assert!(e.stdout.contains("mathMode='tf32'"), "{}", e.dump());

    // A value that is no math mode: located at the argument.
    let text = example().replace("param MM[] = ['tf32'];", "param MM[] = ['fp8'];");
    std::fs::write(dir.join("bad.c"), &text).unwrap();
    let c = orcl(dir, &["check", "bad.c"], None);
    c.assert_code(2);
    assert!(
        c.stderr
            .contains("`mathMode` must be 'fp32', 'tf32', 'fp16' or 'bf16', found 'fp8'"),
        "{}",
        c.dump()
    );
    assert!(c.stderr.contains("bad.c:"), "{}", c.dump());

    // tf32Convert and fragLoad values that are none of theirs: located input errors.
    for (arg, want) in [
        (
            "tf32Convert='early'",
            "`tf32Convert` must be 'fragment', 'stage' or 'truncate', found 'early'",
        ),
        (
            "fragLoad=3",
            "`fragLoad` must be 1, 2 or 4 or 'ldmatrix', found 3",
        ),
    ] {
        let text = variant_of("A[i*k+l]", "B[l*n+j]", &[], arg);
        std::fs::write(dir.join("bad2.c"), &text).unwrap();
        let c = orcl(dir, &["check", "bad2.c"], None);
        c.assert_code(2);
        assert!(c.stderr.contains(want), "{}", c.dump());
        assert!(c.stderr.contains("bad2.c:"), "{}", c.dump());
    }
}

/// Tiles past 48 KiB (64 x 64 x 32, `stages=4`, 68 KiB): CUDA places them in dynamic shared
/// memory (views of `extern __shared__ orcl_dsmem` at 16-byte-aligned offsets) and the launch
/// raises the kernel's limit (`-orcl-smem=` for the skeleton, `cudaFuncSetAttribute` and the
/// third launch argument in `_file.cu`); OpenCL declares the same tiles statically, and PoCL
/// (512 KiB of local memory) runs them: correct at 70 x 45 x 130.
#[test]
fn tiles_past_48k_use_dynamic_shared_memory() {
    let space = [
        ("param TJ[] = [16, 32];", "param TJ[] = [64];"),
        ("param TI[] = [32];", "param TI[] = [64];"),
        ("param TK[] = [8, 16];", "param TK[] = [32];"),
        ("param WI[] = [16, 32];", "param WI[] = [32];"),
        ("param WJ[] = [8, 16];", "param WJ[] = [32];"),
        ("param VL[] = [1, 4];", "param VL[] = [4];"),
        ("param M[] = [33];", "param M[] = [70];"),
        ("param N[] = [17];", "param N[] = [45];"),
        ("param K[] = [9];", "param K[] = [130];"),
    ];
    let text = variant_of("A[i*k+l]", "B[l*n+j]", &space, "fragLoad=4, stages=4");
    let (tmp, rows) = tune("dyn.c", &text, None);
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].1, "ok", "{rows:?}");
    let dir = tmp.path();
    let cu = orcl(dir, &["emit", "dyn.c", "--backend", "cuda"], None);
    cu.assert_code(0);
    for want in [
        "extern __shared__ __align__(16) unsigned char orcl_dsmem[];",
        "float (*orcl_tile0)[64][32] = (float (*)[64][32])(orcl_dsmem + 0);",
        "float (*orcl_tile1)[32][72] = (float (*)[32][72])(orcl_dsmem + 32768);",
        "-orcl-smem=69664",
        "cudaFuncAttributeMaxDynamicSharedMemorySize, 69664)",
        "<<<orcl_gdim, orcl_bdim, 69664>>>",
    ] {
        assert!(cu.stdout.contains(want), "{want}\n{}", cu.stdout);
    }
    let cl = orcl(dir, &["emit", "dyn.c", "--backend", "opencl"], None);
    cl.assert_code(0);
    assert!(
        cl.stdout
            .contains("__local float orcl_tile0[4][64][32] __attribute__((aligned(16)));"),
        "{}",
        cl.stdout
    );
    assert!(!cl.stdout.contains("orcl_dsmem"), "{}", cl.stdout);
    check_tuned(dir, "dyn.c");
}

/// `mmaInstruction='wgmma'` with `mathMode='tf32'` (sm_90a; PoCL runs the emulated form, which
/// reads each element at the byte offset the descriptors give through the 128-byte swizzle of
/// rows of 32 floats, truncated to TF32 as the tensor cores read it): NT (both operands
/// k-contiguous, copied as they lie), NN (B transposed into its K-major tile, register-staged one
/// slab ahead, 16 work-items along j by `loadItems`, 4 stages), TN (both transposed), TT (A
/// transposed) at 130 x 77 x 200 (no tile divides it, 7 k-slabs, the last one partial), one
/// configuration each, with one or two warpgroups along each tiled loop among them, every
/// variant `ok` at the truncation tolerance; the tuned NN file correct at odd shapes (2^-9 · √130
/// ≈ 2.3e-2); the CUDA text carries `wgmma.mma_async...k8.f32.tf32.tf32` without transpose
/// operands, and the transposed operands' prefetch registers, stored by default as 16- or 8-byte
/// K-major chunks (`transposeRows` 4 / 2, session 36), with `transposeRows=1` (NN once more, 3
/// stages) element by element in the rotated order; `transposeRows` pruned with its reason where
/// no operand is transposed or its blocks do not fit. A wrong descriptor (A advanced by
/// half a k-step) on the NN path is `wrong_result`; a k-slab other than 32 is pruned as
/// `device_limit` with its reason. (Session 35 cut this test from 406 s to one PoCL build per
/// layout: 16 configurations and two tuned files before.)
#[test]
fn wgmma_tf32_layouts_edges_and_wrong_mapping() {
    // One configuration per layout (each costs one PoCL build of the emulated form, ~20 s cold):
    // together they take one or two warpgroups along each loop, 3 and 4 stages, and each
    // operand K-major (copied as it lies) and transposed (register-staged one slab ahead).
    let space = |ti: &str, tj: &str, wj: &str| {
        vec![
            (
                "param TI[] = [32];".to_string(),
                format!("param TI[] = [{ti}];"),
            ),
            (
                "param TJ[] = [16, 32];".into(),
                format!("param TJ[] = [{tj}];"),
            ),
            ("param TK[] = [8, 16];".into(), "param TK[] = [32];".into()),
            ("param WI[] = [16, 32];".into(), "param WI[] = [64];".into()),
            (
                "param WJ[] = [8, 16];".into(),
                format!("param WJ[] = [{wj}];"),
            ),
            ("param PAD[] = [8];".into(), "param PAD[] = [0];".into()),
            ("param VL[] = [1, 4];".into(), "param VL[] = [4];".into()),
            ("param M[] = [33];".into(), "param M[] = [130];".into()),
            ("param N[] = [17];".into(), "param N[] = [77];".into()),
            ("param K[] = [9];".into(), "param K[] = [200];".into()),
            (
                "constraint warps = (TI/WI) * (TJ/WJ) <= 8;".into(),
                String::new(),
            ),
        ]
    };
    let wg = "mmaInstruction='wgmma'";
    for (name, a, b, tiles, extra) in [
        (
            "nt",
            "A[i*k+l]",
            "B[j*k+l]",
            ("128", "64", "64"),
            "stages=3",
        ),
        (
            "nn",
            "A[i*k+l]",
            "B[l*n+j]",
            ("64", "128", "64"),
            "stages=4, loadItems=[('j',16)]",
        ),
        // transposeRows=1: the rotated element stores (the default blocks of nn, tn and tt
        // store 16-byte chunks (4 k-rows) into nn's and tn's tiles, 8-byte ones (2) into tt's).
        (
            "nn1",
            "A[i*k+l]",
            "B[l*n+j]",
            ("64", "128", "64"),
            "stages=3, loadItems=[('j',8)], transposeRows=1",
        ),
        ("tn", "A[l*m+i]", "B[l*n+j]", ("64", "64", "64"), "stages=3"),
        (
            "tt",
            "A[l*m+i]",
            "B[j*k+l]",
            ("128", "128", "64"),
            "stages=3",
        ),
    ] {
        let file = format!("wg_{name}.c");
        let sp = space(tiles.0, tiles.1, tiles.2);
        let text = variant_of(a, b, &refs(&sp), &format!("{extra}, {wg}"));
        let (tmp, rows) = tune(&file, &text, None);
        assert_eq!(rows.len(), 1, "{name}: {rows:?}");
        assert_eq!(rows[0].1, "ok", "{name}: {rows:?}");
        let dir = tmp.path();
        let e = orcl(dir, &["emit", &file, "--backend", "cuda"], None);
        e.assert_code(0);
        assert!(
            e.stdout
                .contains("wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32"),
            "{name}: {}",
            e.dump()
        );
        assert!(e.stdout.contains("p, 1, 1;"), "{name}");
        assert!(e.stdout.contains("-orcl-arch=a"), "{name}");
        // A transposed operand (B of NN/TN, A of TN/TT) goes through prefetch registers.
        let regs = [
            ("nn", "orcl_p1["),
            ("nn1", "orcl_p1["),
            ("tn", "orcl_p0["),
            ("tn", "orcl_p1["),
            ("tt", "orcl_p0["),
            // `transposeRows`: chunk stores, or the rotated order's selects.
            ("nn", "st.shared.v4.f32"),
            ("tn", "st.shared.v4.f32"),
            ("tt", "st.shared.v2.f32"),
            ("nn1", "orcl_x == 3 ?"),
        ];
        for (_, want) in regs.iter().filter(|r| r.0 == name) {
            assert!(e.stdout.contains(want), "{name}: {want}\n{}", e.stdout);
        }
        if name == "nt" {
            assert!(!e.stdout.contains("orcl_p0[") && !e.stdout.contains("orcl_p1["));
        }
        if name == "nn" {
            check_tuned_at(dir, &file, "2.4e-2");
        }
    }

    // A wrong descriptor on the register-staged NN path: wrong_result, never ok (exit 1).
    let sp = space("64", "128", "64");
    let text = variant_of(
        "A[i*k+l]",
        "B[l*n+j]",
        &refs(&sp),
        &format!("stages=4, loadItems=[('j',16)], {wg}"),
    );
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("wg_wrong.c"), &text).unwrap();
    let t = orcl(
        dir,
        &["tune", "wg_wrong.c", "--db", "tune.db", "--timeout", "300s"],
        Some("wrong:WJ=64"),
    );
    t.assert_code(1);
    let rows = statuses(&dir.join("tune.db"));
    assert_eq!(rows.len(), 1, "{rows:?}\n{}", t.dump());
    assert_eq!(rows[0].1, "wrong_result", "{rows:?}");

    // A k-slab other than one 128-byte row of floats: every configuration pruned (exit 1).
    let mut sp = space("64", "64", "64");
    sp[2].1 = "param TK[] = [16];".into();
    let text = variant_of(
        "A[i*k+l]",
        "B[j*k+l]",
        &refs(&sp),
        &format!("stages=3, {wg}"),
    );
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("wg_tk.c"), &text).unwrap();
    orcl(dir, &["tune", "wg_tk.c", "--db", "tune.db"], None).assert_code(1);
    let rows = statuses(&dir.join("tune.db"));
    assert!(
        !rows.is_empty() && rows.iter().all(|r| r.1 == "device_limit"),
        "{rows:?}"
    );
    let e = orcl(dir, &["emit", "wg_tk.c"], None);
    assert!(
        e.stdout.contains("k-slab of 32") || e.stderr.contains("k-slab of 32"),
        "{}",
        e.dump()
    );

    // `transposeRows` where it cannot apply: NT transposes nothing; TT's 128 x 128 tile of four
    // warpgroups holds 2 groups of A per work-item, no block of 4 (no build: emit only).
    for (name, a, b, tiles, rows, why) in [
        (
            "tr_nt",
            "A[i*k+l]",
            "B[j*k+l]",
            ("64", "64", "64"),
            2,
            "this configuration has none",
        ),
        (
            "tr_tt",
            "A[l*m+i]",
            "B[j*k+l]",
            ("128", "128", "64"),
            4,
            "does not split into blocks of 4 k-rows",
        ),
    ] {
        let sp = space(tiles.0, tiles.1, tiles.2);
        let extra = format!("stages=3, transposeRows={rows}, {wg}");
        let text = variant_of(a, b, &refs(&sp), &extra);
        let file = format!("{name}.c");
        std::fs::write(dir.join(&file), &text).unwrap();
        let e = orcl(dir, &["emit", &file], None);
        assert!(
            e.stdout.contains(why) || e.stderr.contains(why),
            "{name}: {}",
            e.dump()
        );
    }
}

/// The OpenCL text of a `wgmma` variant is the form NVIDIA's OpenCL can build and orcl's hosts
/// retarget: every `wgmma` instruction behind the `ORCL_GMMA` marker (an unmarked one would fail
/// sm_90's ptxas), the hardware form only under `-D ORCL_SM90A_PTX` and starting with a `trap`
/// guard the retarget removes (a host that passes the option without retargeting gets a launch
/// error, never a kernel whose wgmma are comments), `ulong` descriptors, and tiles 1024-byte
/// aligned for the 128-byte swizzle; the tuned file's host code carries the retarget.
/// Then the retarget itself (skeletons/opencl_sm90a.c.tera, compiled with the C compiler): a PTX
/// text of NVIDIA's OpenCL becomes sm_90a with its markers removed, and nothing else changes.
#[test]
fn wgmma_opencl_text_and_sm90a_retarget() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let emit = orcl(
        tmp.path(),
        &[
            "emit",
            root.join("tests/in/sgemm_wgmma_nn.c").to_str().unwrap(),
            "--backend",
            "opencl",
        ],
        None,
    );
    emit.assert_code(0);
    let text = emit.stdout.clone();
    let (kernel, host) = text.split_once("/* ---- host code ---- */").unwrap();
    assert!(kernel.contains(
        "#if defined(__NV_CL_C_VERSION) && defined(ORCL_SM90A_PTX) && !defined(ORCL_EMULATE_MMA)"
    ));
    assert!(
        kernel.contains("#define ORCL_GMMA \"//orcl_sm90a \""),
        "{kernel}"
    );
    let marked = kernel.matches("ORCL_GMMA \"wgmma.").count();
    assert!(marked >= 7, "fence, 4 mma_async, commit, waits: {marked}");
    assert_eq!(
        kernel.matches("\"wgmma.").count(),
        marked,
        "an unmarked wgmma instruction"
    );
    assert_eq!(
        kernel.matches("\\nwgmma.").count(),
        0,
        "an unmarked wgmma instruction"
    );
    assert!(!kernel.contains("long long"), "OpenCL C reserves long long");
    let guard = kernel
        .find("asm volatile(\"trap; //orcl_sm90a_guard\");")
        .unwrap();
    assert!(
        guard < kernel.find("orcl_gdesc(orcl_smem").unwrap(),
        "the guard comes first"
    );
    assert_eq!(kernel.matches("__attribute__((aligned(1024)))").count(), 2);
    assert!(kernel.contains("build options: \"-D ORCL_SM90A_PTX\""));
    assert!(
        host.contains("orcl_sm90a_program(orcl_ctx[orcl_v]"),
        "the tuned file retargets"
    );

    let helper = std::fs::read_to_string(root.join("skeletons/opencl_sm90a.c.tera")).unwrap();
    let driver = r#"
int main(void) {
    const char *in = ".version 8.5\n.target sm_90, texmode_independent\n.address_size 64\n"
        "\t// begin inline asm\n\t//orcl_sm90a wgmma.fence.sync.aligned;\n\t// end inline asm\n"
        "\t{\n.reg .pred p;\nsetp.ne.b32 p, %r1, 0;\n//orcl_sm90a wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {%f1}, %rd1, %rd2, p, 1, 1;\n}\n"
        "\t// a comment that stays\n\t// begin inline asm\n\ttrap; //orcl_sm90a_guard\n\t// end inline asm\n";
    const char *want = ".version 8.5\n.target sm_90a, texmode_independent\n.address_size 64\n"
        "\t// begin inline asm\n\twgmma.fence.sync.aligned;\n\t// end inline asm\n"
        "\t{\n.reg .pred p;\nsetp.ne.b32 p, %r1, 0;\nwgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {%f1}, %rd1, %rd2, p, 1, 1;\n}\n"
        "\t// a comment that stays\n\t// begin inline asm\n\t\n\t// end inline asm\n";
    char out[1024];
    size_t n = orcl_sm90a_ptx(in, out);
    (void)orcl_sm90a_program;
    if (n != strlen(want) || strcmp(out, want)) { printf("got:\n%s\n", out); return 1; }
    n = orcl_sm90a_ptx(".target sm_90a\n", out);
    if (strcmp(out, ".target sm_90a\n")) { printf("sm_90a changed: %s\n", out); return 1; }
    printf("retarget ok\n");
    return 0;
}
"#;
    let c = tmp.path().join("retarget.c");
    std::fs::write(
        &c,
        format!("#define CL_TARGET_OPENCL_VERSION 120\n#include <CL/cl.h>\n{helper}\n{driver}"),
    )
    .unwrap();
    let exe = tmp.path().join("retarget");
    let mut cc = Command::new("cc");
    cc.args(["-O2", "-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg(&c)
        .arg("-lOpenCL");
    run(cc, Duration::from_secs(120)).assert_code(0);
    let r = run(Command::new(&exe), Duration::from_secs(60));
    r.assert_code(0);
    assert!(r.stdout.contains("retarget ok"), "{}", r.dump());
}
