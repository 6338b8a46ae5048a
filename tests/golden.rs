//! Golden files of generated code: the output of `orcl emit FILE --set NAME=VALUE ...` (kernel and
//! host code of one configuration) and of `orcl emit --skeleton` (the timing skeleton), compared
//! exactly with `tests/golden/NAME.txt`. No device is needed.
//!
//! To accept a change in the generated code, regenerate the files and review the diff:
//!
//! ```sh
//! UPDATE_GOLDEN=1 cargo test --test golden
//! git diff tests/golden/
//! ```
//!
//! With `UPDATE_GOLDEN=1` set, each test rewrites its file instead of comparing, and
//! `no_stale_golden_files` deletes files that no case produces.

use std::path::{Path, PathBuf};
use std::process::Command;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// Every golden case: (name of `tests/golden/NAME.txt`, arguments of `orcl emit`). Paths are
/// relative to the crate root, which is the working directory (they appear in the output).
const CASES: &[(&str, &[&str])] = &[
    // Every example at its first configuration (the kernels of the OrCL paper).
    ("example_vec_dot", &["examples/vecDot.c"]),
    ("example_vec_norm2", &["examples/vecNorm2.c"]),
    ("example_vec_sum", &["examples/vecSum.c"]),
    ("example_vec_waxpy", &["examples/vecWAXPY.c"]),
    ("example_vec_maxpy", &["examples/vecMAXPY.c"]),
    ("example_vec_scale", &["examples/vecScale.c"]),
    ("example_mat_vec", &["examples/matVec.c"]),
    ("example_ex14_ff", &["examples/ex14FF.c"]),
    ("example_ex14_fj", &["examples/ex14FJ.c"]),
    ("example_vec_axpy_float", &["examples/vecAXPY_float.c"]),
    ("example_mat_vec_float", &["examples/matVec_float.c"]),
    (
        "example_vec_dot_skeleton",
        &["examples/vecDot.c", "--skeleton"],
    ),
    ("axpy_quick_default", &["examples/axpy_quick.c"]),
    (
        "axpy_quick_cb_false_ui1",
        &[
            "examples/axpy_quick.c",
            "--set",
            "CB=False",
            "--set",
            "UI=1",
        ],
    ),
    (
        "axpy_quick_wi64_ui4_n1000000",
        &[
            "examples/axpy_quick.c",
            "--set",
            "WI=64",
            "--set",
            "WG=64",
            "--set",
            "UI=4",
            "--size",
            "N=1000000",
        ],
    ),
    // Quotes and a backslash in the build options: escaped once in the C string.
    (
        "axpy_quick_cl_quotes",
        &[
            "examples/axpy_quick.c",
            "--set",
            r#"CL=-DSCALE=2 -DNAME="a\b""#,
        ],
    ),
    (
        "axpy_quick_skeleton",
        &["examples/axpy_quick.c", "--skeleton"],
    ),
    ("vecaxpy_default", &["examples/vecAXPY.c"]),
    (
        "vecaxpy_all_transforms",
        &[
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
        ],
    ),
    (
        "vecaxpy_cb_false_ui1",
        &["examples/vecAXPY.c", "--set", "CB=False", "--set", "UI=1"],
    ),
    ("vecaxpy_skeleton", &["examples/vecAXPY.c", "--skeleton"]),
    // for (i=3; i<n; i+=2) with if/else and math calls.
    ("strided_default", &["tests/inputs/ok/strided.c"]),
    (
        "strided_cb_ui2_mad",
        &[
            "tests/inputs/ok/strided.c",
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
        ],
    ),
    (
        "strided_cb_false_n5001",
        &[
            "tests/inputs/ok/strided.c",
            "--set",
            "CB=False",
            "--size",
            "N=5001",
        ],
    ),
    (
        "strided_skeleton",
        &["tests/inputs/ok/strided.c", "--skeleton"],
    ),
    // An inner sequential loop (one work-item per row), float data, two size variables.
    ("matvec_ui4", &["tests/inputs/ok/matvec.c", "--set", "UI=4"]),
    (
        "matvec_skeleton",
        &["tests/inputs/ok/matvec.c", "--skeleton"],
    ),
    // innerThreads (8 lanes per row) with cacheBlocks staging x of the inner loop in tiles, in
    // OpenCL and CUDA; cacheBlocks alone; innerThreads on float data with idle lanes (64 % 24).
    (
        "example_mat_vec_it8_cb",
        &["examples/matVec.c", "--set", "IT=8", "--set", "CB=True"],
    ),
    (
        "example_mat_vec_it8_cb_cuda",
        &[
            "examples/matVec.c",
            "--set",
            "IT=8",
            "--set",
            "CB=True",
            "--backend",
            "cuda",
        ],
    ),
    (
        "example_mat_vec_cb_wi64",
        &["examples/matVec.c", "--set", "CB=True", "--set", "WI=64"],
    ),
    (
        "example_mat_vec_float_it24_wi64",
        &[
            "examples/matVec_float.c",
            "--set",
            "IT=24",
            "--set",
            "WI=64",
        ],
    ),
    // `y[i] +=` in the inner loop (lanes accumulate privately), offsets x[j-1], x[j+1], a `<=`
    // bound from 1, incrementType 'local'.
    (
        "matvec_lanes_it16_cb_local",
        &[
            "tests/inputs/ok/matvec_lanes.c",
            "--set",
            "IT=16",
            "--set",
            "CB=True",
            "--set",
            "INC=local",
        ],
    ),
    // vecWidth: double4 with incrementType 'local'; float16 with reductions, `?:` and offsets.
    (
        "example_vec_waxpy_vec_vw4_local",
        &[
            "examples/vecWAXPY_vec.c",
            "--set",
            "VW=4",
            "--set",
            "INC=local",
        ],
    ),
    (
        "vec_mix_vw16",
        &["tests/inputs/ok/vec_mix.c", "--set", "VW=16"],
    ),
    // 2-D arrays flattened to row-major offsets: C99 variable-length parameters (row length n);
    // a macro row length passed as the extent arguments orcl_A_dim1, orcl_B_dim1; a 3-D array.
    ("jacobi2d_default", &["examples/jacobi2d.c"]),
    ("jacobi2d_skeleton", &["examples/jacobi2d.c", "--skeleton"]),
    ("rows2d_default", &["tests/inputs/ok/rows2d.c"]),
    (
        "rows2d_skeleton",
        &["tests/inputs/ok/rows2d.c", "--skeleton"],
    ),
    ("grid3d_default", &["tests/inputs/ok/grid3d.c"]),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn golden_dir() -> PathBuf {
    root().join("tests/golden")
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

fn check(name: &str) {
    let (_, args) = CASES
        .iter()
        .find(|(n, _)| *n == name)
        .expect("a listed case");
    let out = Command::new(ORCL)
        .arg("emit")
        .args(*args)
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
    let path = golden_dir().join(format!("{name}.txt"));
    if updating() {
        std::fs::create_dir_all(golden_dir()).unwrap();
        std::fs::write(&path, &stdout).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (create it with UPDATE_GOLDEN=1)", path.display()));
    if want != stdout {
        panic!(
            "`orcl emit {}` differs from {}; if the change is intended, run UPDATE_GOLDEN=1 cargo test --test golden\n{}",
            args.join(" "),
            path.display(),
            first_difference(&want, &stdout)
        );
    }
}

macro_rules! golden {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check(stringify!($name));
            }
        )*

        /// Every case has a test and every file in tests/golden/ has a case.
        #[test]
        fn no_stale_golden_files() {
            let tested = [$(stringify!($name)),*];
            for (n, _) in CASES {
                assert!(tested.contains(n), "case `{n}` has no test in the golden! list");
            }
            if updating() {
                std::fs::create_dir_all(golden_dir()).unwrap();
            }
            for e in std::fs::read_dir(golden_dir()).unwrap().flatten() {
                let file = e.file_name().to_string_lossy().into_owned();
                let stem = file.strip_suffix(".txt").unwrap_or(&file).to_string();
                if !CASES.iter().any(|(n, _)| *n == stem) {
                    if updating() {
                        std::fs::remove_file(e.path()).unwrap();
                    } else {
                        panic!("tests/golden/{file} belongs to no case (UPDATE_GOLDEN=1 removes it)");
                    }
                }
            }
        }
    };
}

golden!(
    example_vec_dot,
    example_vec_norm2,
    example_vec_sum,
    example_vec_waxpy,
    example_vec_maxpy,
    example_vec_scale,
    example_mat_vec,
    example_ex14_ff,
    example_ex14_fj,
    example_vec_axpy_float,
    example_mat_vec_float,
    example_vec_dot_skeleton,
    axpy_quick_default,
    axpy_quick_cb_false_ui1,
    axpy_quick_wi64_ui4_n1000000,
    axpy_quick_cl_quotes,
    axpy_quick_skeleton,
    vecaxpy_default,
    vecaxpy_all_transforms,
    vecaxpy_cb_false_ui1,
    vecaxpy_skeleton,
    strided_default,
    strided_cb_ui2_mad,
    strided_cb_false_n5001,
    strided_skeleton,
    matvec_ui4,
    matvec_skeleton,
    example_mat_vec_it8_cb,
    example_mat_vec_it8_cb_cuda,
    example_mat_vec_cb_wi64,
    example_mat_vec_float_it24_wi64,
    matvec_lanes_it16_cb_local,
    example_vec_waxpy_vec_vw4_local,
    vec_mix_vw16,
    jacobi2d_default,
    jacobi2d_skeleton,
    rows2d_default,
    rows2d_skeleton,
    grid3d_default,
);
