//! Golden files of generated code, in naga's style: each case names one input file (an example
//! in `examples/`, a test-only input in `tests/in/`) and the `orcl emit` arguments of one
//! configuration; each generated artefact is compared exactly with its own file in `tests/out/`:
//!
//! | part           | file                        | produced by                                         |
//! |----------------|-----------------------------|-----------------------------------------------------|
//! | `OpenCl`       | `CASE.cl`, `CASE.host.c`    | `orcl emit --backend opencl`, split at the host marker |
//! | `Cuda`         | `CASE.cu`, `CASE.host.cu`   | `orcl emit --backend cuda`, split at the host marker   |
//! | `Skeleton`     | `CASE.skeleton.c`           | `orcl emit --backend opencl --skeleton`             |
//! | `CudaSkeleton` | `CASE.skeleton.cuda.c`      | `orcl emit --backend cuda --skeleton` (plain C)     |
//!
//! `orcl emit` prints the configuration comments and `/* ---- OpenCL kernel ---- */` (or
//! `CUDA kernel`) before the kernel, then `/* ---- host code ---- */` and the host code; the
//! kernel file holds everything before the host marker line, the host file the rest, so the two
//! concatenated are `orcl emit`'s output byte for byte. No device is needed.
//!
//! To accept a change in the generated code, regenerate every file and review the diff:
//!
//! ```sh
//! UPDATE_GOLDEN=1 cargo test --release --test golden
//! git diff tests/out/
//! ```
//!
//! With `UPDATE_GOLDEN=1` set, each test rewrites its files instead of comparing, and
//! `no_stale_golden_files` deletes files in `tests/out/` that no case produces (without it, such a
//! file fails that test).

use std::path::{Path, PathBuf};
use std::process::Command;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// The line `orcl emit` prints between the kernel and the host code.
const HOST_MARKER: &str = "/* ---- host code ---- */\n";

/// A generated artefact a case compares (see the table in the module documentation).
#[derive(Clone, Copy, Debug)]
enum Part {
    /// The OpenCL kernel and the OpenCL host code of the configuration.
    OpenCl,
    /// The CUDA kernel and the CUDA host code of the configuration.
    Cuda,
    /// The OpenCL timing skeleton of the input size.
    Skeleton,
    /// The CUDA timing skeleton of the input size.
    CudaSkeleton,
}

impl Part {
    /// The `orcl emit` arguments that select this part.
    fn args(self) -> &'static [&'static str] {
        match self {
            Part::OpenCl => &["--backend", "opencl"],
            Part::Cuda => &["--backend", "cuda"],
            Part::Skeleton => &["--backend", "opencl", "--skeleton"],
            Part::CudaSkeleton => &["--backend", "cuda", "--skeleton"],
        }
    }

    /// The suffixes of this part's files after `CASE`: (kernel or skeleton, host code if any).
    fn suffixes(self) -> (&'static str, Option<&'static str>) {
        match self {
            Part::OpenCl => (".cl", Some(".host.c")),
            Part::Cuda => (".cu", Some(".host.cu")),
            Part::Skeleton => (".skeleton.c", None),
            Part::CudaSkeleton => (".skeleton.cuda.c", None),
        }
    }
}

/// One golden case: `orcl emit INPUT ARGS...` in each part's backend.
struct Case {
    /// The stem of the case's files in `tests/out/` (and the name of its test).
    name: &'static str,
    /// The input file, relative to the crate root, which is the working directory (the path
    /// appears in the generated code).
    input: &'static str,
    /// Further `orcl emit` arguments: `--set NAME=VALUE`, `--size NAME=VALUE`.
    args: &'static [&'static str],
    /// The artefacts compared.
    parts: &'static [Part],
}

impl Case {
    /// The file names (in `tests/out/`) this case produces.
    fn files(&self) -> Vec<String> {
        let mut v = Vec::new();
        for p in self.parts {
            let (a, b) = p.suffixes();
            v.push(format!("{}{a}", self.name));
            v.extend(b.map(|b| format!("{}{b}", self.name)));
        }
        v
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn out_dir() -> PathBuf {
    root().join("tests/out")
}

fn updating() -> bool {
    std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1")
}

/// The first differing line of `got` against `want`, with a few lines of context.
fn first_difference(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let k = w
        .iter()
        .zip(&g)
        .position(|(a, b)| a != b)
        .unwrap_or(w.len().min(g.len()));
    let from = k.saturating_sub(3);
    let show = |v: &[&str]| {
        v.iter()
            .enumerate()
            .skip(from)
            .take(7)
            .map(|(i, l)| format!("{:5} | {l}\n", i + 1))
            .collect::<String>()
    };
    format!(
        "first difference at line {}\n--- expected ---\n{}--- got ---\n{}",
        k + 1,
        show(&w),
        show(&g)
    )
}

/// `orcl emit` with `args`, which must succeed without a warning; its standard output.
fn emit(args: &[&str]) -> String {
    let out = Command::new(ORCL)
        .arg("emit")
        .args(args)
        .current_dir(root())
        .env_remove("ORCL_TEST_FAULT")
        .output()
        .expect("run orcl");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "orcl emit {args:?} failed ({}):\n{stderr}",
        out.status
    );
    assert!(stderr.is_empty(), "orcl emit {args:?} warned:\n{stderr}");
    stdout
}

/// `text` split before its one host-marker line: (kernel part, host part).
fn split_host(text: &str, args: &[&str]) -> (String, String) {
    let at: Vec<usize> = text
        .match_indices(HOST_MARKER)
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n')
        .collect();
    assert_eq!(
        at.len(),
        1,
        "`orcl emit {}` printed the line {HOST_MARKER:?} {} times, expected once",
        args.join(" "),
        at.len()
    );
    let (kernel, host) = text.split_at(at[0]);
    (kernel.to_string(), host.to_string())
}

/// Compares (or, when updating, writes) `tests/out/FILE`; a difference is appended to `errors`.
fn compare(file: &str, got: &str, args: &[&str], errors: &mut Vec<String>) {
    let path = out_dir().join(file);
    if updating() {
        std::fs::create_dir_all(out_dir()).unwrap();
        std::fs::write(&path, got).unwrap();
        return;
    }
    match std::fs::read_to_string(&path) {
        Err(e) => errors.push(format!(
            "tests/out/{file}: {e} (create it with UPDATE_GOLDEN=1 cargo test --release --test golden)"
        )),
        Ok(want) if want != got => errors.push(format!(
            "`orcl emit {}` differs from tests/out/{file}; if the change is intended, run UPDATE_GOLDEN=1 cargo test --release --test golden\n{}",
            args.join(" "),
            first_difference(&want, got)
        )),
        Ok(_) => {}
    }
}

/// Runs every part of the case `name` and compares each file; all differences in one failure.
fn check(name: &str) {
    let case = CASES
        .iter()
        .find(|c| c.name == name)
        .expect("a listed case");
    let mut errors = Vec::new();
    for &part in case.parts {
        let mut args = vec![case.input];
        args.extend_from_slice(case.args);
        args.extend_from_slice(part.args());
        let text = emit(&args);
        match part.suffixes() {
            (k, Some(h)) => {
                let (kernel, host) = split_host(&text, &args);
                compare(&format!("{name}{k}"), &kernel, &args, &mut errors);
                compare(&format!("{name}{h}"), &host, &args, &mut errors);
            }
            (s, None) => compare(&format!("{name}{s}"), &text, &args, &mut errors),
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// Declares the cases: `NAME(INPUT, ARGS...) => [PARTS]` gives an entry of `CASES` and a test
/// `NAME` that checks it (a name used twice does not compile).
macro_rules! golden {
    ($($name:ident($input:expr $(, $arg:expr)* $(,)?) => [$($part:ident),+ $(,)?]),* $(,)?) => {
        const CASES: &[Case] = &[$(Case {
            name: stringify!($name),
            input: $input,
            args: &[$($arg),*],
            parts: &[$(Part::$part),+],
        }),*];

        $(
            #[test]
            fn $name() {
                check(stringify!($name));
            }
        )*
    };
}

/// Every file in tests/out/ belongs to a case (`UPDATE_GOLDEN=1` deletes the others).
#[test]
fn no_stale_golden_files() {
    let expected: Vec<String> = CASES.iter().flat_map(Case::files).collect();
    if updating() {
        std::fs::create_dir_all(out_dir()).unwrap();
    }
    let mut stale = Vec::new();
    for e in std::fs::read_dir(out_dir()).unwrap().flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        if !expected.contains(&file) {
            if updating() {
                std::fs::remove_file(e.path()).unwrap();
            } else {
                stale.push(format!("tests/out/{file}"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "{} belong(s) to no case in tests/golden.rs (UPDATE_GOLDEN=1 removes them)",
        stale.join(", ")
    );
}

golden! {
    // Every example at its first configuration (the kernels of the OrCL paper), in OpenCL and
    // CUDA; vecDot's timing skeletons of both backends.
    example_vec_dot("examples/vecDot.c") => [OpenCl, Cuda, Skeleton, CudaSkeleton],
    example_vec_norm2("examples/vecNorm2.c") => [OpenCl, Cuda],
    example_vec_sum("examples/vecSum.c") => [OpenCl, Cuda],
    example_vec_waxpy("examples/vecWAXPY.c") => [OpenCl, Cuda],
    example_vec_maxpy("examples/vecMAXPY.c") => [OpenCl, Cuda],
    example_vec_scale("examples/vecScale.c") => [OpenCl, Cuda],
    example_mat_vec("examples/matVec.c") => [OpenCl, Cuda],
    example_ex14_ff("examples/ex14FF.c") => [OpenCl, Cuda],
    example_ex14_fj("examples/ex14FJ.c") => [OpenCl, Cuda],
    example_vec_axpy_float("examples/vecAXPY_float.c") => [OpenCl, Cuda],
    example_mat_vec_float("examples/matVec_float.c") => [OpenCl, Cuda],
    // matVec with a 2-D mapping: 4 rows x 8 lanes per work-group, a tree of partial sums.
    example_mat_vec_2d_ti4_tj8(
        "examples/matVec_2d.c",
        "--set",
        "TI=4",
        "--set",
        "TJ=8",
        "--set",
        "UI=4",
    ) => [OpenCl, Cuda],
    // CUDA-only transform arguments (nvcc-style flags translated for NVRTC, launch bounds, the
    // L1/shared split); the OpenCL transform of the same file ignores CF.
    example_axpy_compare_cf_ui4(
        "examples/axpy_compare.c",
        "--set",
        "CF='-use_fast_math -Xptxas -dlcm=cg'",
        "--set",
        "UI=4",
    ) => [OpenCl, Cuda],
    axpy_quick_default("examples/axpy_quick.c") => [OpenCl, Cuda, Skeleton],
    axpy_quick_cb_false_ui1("examples/axpy_quick.c", "--set", "CB=False", "--set", "UI=1") => [OpenCl, Cuda],
    axpy_quick_wi64_ui4_n1000000(
        "examples/axpy_quick.c",
        "--set",
        "WI=64",
        "--set",
        "WG=64",
        "--set",
        "UI=4",
        "--size",
        "N=1000000",
    ) => [OpenCl, Cuda],
    // Quotes and a backslash in the build options: escaped once in the C string.
    axpy_quick_cl_quotes("examples/axpy_quick.c", "--set", r#"CL=-DSCALE=2 -DNAME="a\b""#) => [OpenCl, Cuda],
    vecaxpy_default("examples/vecAXPY.c") => [OpenCl, Cuda, Skeleton],
    vecaxpy_all_transforms(
        "examples/vecAXPY.c",
        "--set",
        "WI=64",
        "--set",
        "WG=128",
        "--set",
        "CB=True",
        "--set",
        "SH=True",
        "--set",
        "VH=2",
        "--set",
        "UI=3",
        "--set",
        "CL='-cl-fast-relaxed-math'",
    ) => [OpenCl, Cuda],
    vecaxpy_cb_false_ui1("examples/vecAXPY.c", "--set", "CB=False", "--set", "UI=1") => [OpenCl, Cuda],
    // for (i=3; i<n; i+=2) with if/else and math calls.
    strided_default("tests/in/strided.c") => [OpenCl, Cuda, Skeleton],
    strided_cb_ui2_mad(
        "tests/in/strided.c",
        "--set",
        "WI=64",
        "--set",
        "WG=16",
        "--set",
        "CB=True",
        "--set",
        "UI=2",
        "--set",
        "CL=-cl-mad-enable",
    ) => [OpenCl, Cuda],
    strided_cb_false_n5001("tests/in/strided.c", "--set", "CB=False", "--size", "N=5001") => [OpenCl, Cuda],
    // An inner sequential loop (one work-item per row), float data, two size variables.
    matvec_ui4("tests/in/matvec.c", "--set", "UI=4") => [OpenCl, Cuda],
    matvec_default("tests/in/matvec.c") => [Skeleton],
    // innerThreads (8 lanes per row) with cacheBlocks staging x of the inner loop in tiles;
    // cacheBlocks alone; innerThreads on float data with idle lanes (64 % 24).
    example_mat_vec_it8_cb("examples/matVec.c", "--set", "IT=8", "--set", "CB=True") => [OpenCl, Cuda],
    example_mat_vec_cb_wi64("examples/matVec.c", "--set", "CB=True", "--set", "WI=64") => [OpenCl, Cuda],
    example_mat_vec_float_it24_wi64("examples/matVec_float.c", "--set", "IT=24", "--set", "WI=64") => [OpenCl, Cuda],
    // `y[i] +=` in the inner loop (lanes accumulate privately), offsets x[j-1], x[j+1], a `<=`
    // bound from 1, incrementType 'local'.
    matvec_lanes_it16_cb_local(
        "tests/in/matvec_lanes.c",
        "--set",
        "IT=16",
        "--set",
        "CB=True",
        "--set",
        "INC=local",
    ) => [OpenCl, Cuda],
    // vecWidth: double4 with incrementType 'local'; float16 with reductions, `?:` and offsets.
    example_vec_waxpy_vec_vw4_local("examples/vecWAXPY_vec.c", "--set", "VW=4", "--set", "INC=local") => [OpenCl, Cuda],
    vec_mix_vw16("tests/in/vec_mix.c", "--set", "VW=16") => [OpenCl, Cuda],
    // 2-D arrays flattened to row-major offsets: C99 variable-length parameters (row length n);
    // a macro row length passed as the extent arguments orcl_A_dim1, orcl_B_dim1; a 3-D array
    // (rows2d.c and grid3d.c stay in tests/inputs/ok/: tests/arrays2d.rs tunes them too).
    jacobi2d_default("examples/jacobi2d.c") => [OpenCl, Cuda, Skeleton],
    rows2d_default("tests/inputs/ok/rows2d.c") => [OpenCl, Cuda, Skeleton],
    grid3d_default("tests/inputs/ok/grid3d.c") => [OpenCl, Cuda],
    // mathMode='tf32': 2 x 2 warps of 16 x 16 (inline PTX cvt.rna.tf32.f32 and mma.sync m16n8k8
    // under ORCL_MMA_SYNC, the emulated form otherwise), float4 slab loads, a 16-deep k-slab; its
    // skeleton validates at the TF32 tolerance 2^-10 * sqrt(k).
    example_sgemm_tf32_tj32_tk16_wj16_vl4(
        "examples/sgemm_tf32.c",
        "--set",
        "TJ=32",
        "--set",
        "TK=16",
        "--set",
        "WJ=16",
        "--set",
        "VL=4",
    ) => [OpenCl, Cuda, Skeleton],
    // The same with doubleBuffer, tf32Convert='stage' (cvt.rna when the registers are stored to
    // the tile, fragments read as bits) and fragLoad='ldmatrix' (A's tile by ldmatrix.x4).
    sgemm_tf32_stage_ldm_tk16_wj16_vl4(
        "tests/in/sgemm_tf32_stage_ldm.c",
        "--set",
        "TJ=32",
        "--set",
        "TK=16",
        "--set",
        "WJ=16",
        "--set",
        "VL=4",
    ) => [OpenCl, Cuda],
    // The same with tf32Convert='truncate' (no cvt.rna: the staged bits into the mma registers;
    // the emulated form clears the low 13 mantissa bits), 2 cp.async stages (.ca), ldmatrix and
    // blockSwizzle=8; its skeleton validates at the truncation's tolerance 2^-9 * sqrt(k).
    sgemm_tf32_truncate_tk16_wj16_vl4(
        "tests/in/sgemm_tf32_truncate.c",
        "--set",
        "TJ=32",
        "--set",
        "TK=16",
        "--set",
        "WJ=16",
        "--set",
        "VL=4",
    ) => [OpenCl, Cuda, Skeleton],
    // mathMode='fp16' / 'bf16': _Float16 / __bf16 arrays held as ushort, mma.sync m16n8k16 under
    // ORCL_MMA_SYNC (A's registers one 32-bit read of its k-contiguous tile, B's two 16-bit
    // reads), the emulated form reading the widened inputs otherwise; the skeletons widen the
    // reference loop's reads (orcl_h2f, orcl_bf2f) and validate at 2·γ_k (floor 1e-4).
    example_hgemm_fp16_tj32_wj16_vl4(
        "examples/hgemm_fp16.c",
        "--set",
        "TJ=32",
        "--set",
        "WJ=16",
        "--set",
        "VL=4",
    ) => [OpenCl, Cuda, Skeleton],
    example_bgemm_bf16_tj32_tk32_vl4(
        "examples/bgemm_bf16.c",
        "--set",
        "TJ=32",
        "--set",
        "TK=32",
        "--set",
        "VL=4",
    ) => [OpenCl, Cuda, CudaSkeleton],
    // mmaInstruction='wgmma' (sm_90a): 128-byte-swizzled tiles in dynamic shared memory aligned to
    // 1024 bytes, wgmma.mma_async m64n64k16 from descriptors (A K-major, B MN-major with
    // imm-trans-b), wait_group 1 per slab; the emulated form decodes the same descriptors.
    hgemm_wgmma("tests/in/hgemm_wgmma.c") => [OpenCl, Cuda],
    // TF32 wgmma (NT: both operands K-major): m64n64k8.f32.tf32.tf32 without transpose operands,
    // rows of 32 floats swizzled by 16-byte chunks of 4; the skeleton validates at the truncation
    // tolerance 2^-9 * sqrt(k) (the tensor cores ignore the low 13 bits of the staged floats).
    sgemm_wgmma("tests/in/sgemm_wgmma.c") => [OpenCl, Cuda, CudaSkeleton],
    // TF32 wgmma, NN: B (contiguous along j) transposed into its K-major tile, each float4 group
    // stored element by element (`loadItems=[('j',8)]`: 8 work-items along j, 4 k-rows per warp).
    sgemm_wgmma_nn("tests/in/sgemm_wgmma_nn.c") => [Cuda],
    // A region holding a time loop (issue 22 item 6): four kernels per step in one program, the
    // loop on the host, the step's value (`_fict_[t]`) a kernel argument; PART lines in the skeleton.
    // `tile` maps the three 2-D nests (4 x 16), the first, 1-D, is the 1-D map of WI = 8.
    time_loop_fdtd_2d_wi8_ti4(
        "tests/polybench/fdtd-2d.c",
        "--set",
        "WI=8",
        "--set",
        "TI=4",
    ) => [OpenCl, Cuda, Skeleton],
    time_loop_heat_3d_ti4("tests/polybench/heat-3d.c", "--set", "TI=4") => [Cuda, CudaSkeleton],
}
