//! The CUDA backend without a GPU: the skeleton compiled with the C compiler and started;
//! `orcl tune --backend cuda` and `orcl compare` where no CUDA driver exists (one line saying
//! why, never a silent pass); located errors of `transform CUDA`. Where a CUDA driver is present
//! the same tests tune on it instead. The generated CUDA kernels, host code and skeleton are
//! golden files of `tests/golden.rs` (`tests/out/*.cu`, `*.host.cu`, `*.skeleton.cuda.c`).

mod common;

use common::run;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

fn orcl() -> Command {
    let mut c = Command::new(ORCL);
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// Whether this machine has a CUDA driver (then the CUDA runs below really run).
fn cuda_present() -> bool {
    ["libcuda.so.1", "libcuda.so"]
        .iter()
        .any(|l| unsafe { libloading::Library::new(l) }.is_ok())
}

/// The CUDA skeleton is plain C: it compiles warning-free with the host compiler and, started,
/// answers one JSON line (ready with the device, or why not).
#[test]
fn cuda_skeleton_compiles_and_starts() {
    let dir = tempfile::tempdir().unwrap();
    for path in [
        "examples/vecDot.c",
        "examples/matVec.c",
        "examples/ex14FJ.c",
        "examples/vecMAXPY.c",
        "examples/jacobi2d.c",
        "examples/transpose.c",
        "examples/jacobi2d_tile.c",
        // A region holding a time loop: two kernels per step, PART lines, the loop in the skeleton.
        "tests/polybench/heat-3d.c",
    ] {
        let ex = Path::new(path).file_stem().unwrap().to_str().unwrap();
        let mut c = orcl();
        c.args(["emit", path, "--backend", "cuda", "--skeleton"]);
        let r = run(c, Duration::from_secs(60));
        r.assert_code(0);
        let src = dir.path().join(format!("{ex}.c"));
        std::fs::write(&src, &r.stdout).unwrap();
        let exe = dir.path().join(ex);
        let out = Command::new("cc")
            .args(["-O1", "-Wall", "-Wextra", "-Werror", "-o"])
            .arg(&exe)
            .arg(&src)
            .args(["-ldl", "-lm"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{ex}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = Command::new(&exe)
            .args(["0", "0"])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let first = String::from_utf8_lossy(&out.stdout);
        let hello: serde_json::Value =
            serde_json::from_str(first.lines().next().unwrap_or("")).unwrap();
        if cuda_present() {
            assert_eq!(hello["ready"], true, "{first}");
        } else {
            common::skip(
                &format!("tests/cuda.rs: the CUDA run of the {ex} skeleton"),
                "no CUDA driver on this machine",
            );
            assert_eq!(hello["ready"], false);
            assert!(
                hello["error"].as_str().unwrap().contains("no CUDA driver"),
                "{first}"
            );
            assert_eq!(out.status.code(), Some(3));
        }
    }
}

fn copy_example(dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(name);
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(name),
        &to,
    )
    .unwrap();
    to
}

#[test]
fn tune_for_cuda_says_why_it_cannot_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy_example(dir.path(), "axpy_compare.c");
    let before = std::fs::read(&file).unwrap();
    let mut c = orcl();
    c.args(["tune", "--backend", "cuda", "--db"])
        .arg(dir.path().join("t.db"))
        .arg(&file);
    let r = run(c, Duration::from_secs(300));
    if cuda_present() {
        r.assert_code(0);
        assert!(dir.path().join("_axpy_compare.cu").exists());
        return;
    }
    common::skip(
        "tests/cuda.rs: the CUDA tune",
        "no CUDA driver on this machine",
    );
    r.assert_code(3); // no CUDA driver: an environment failure (issue 15 F12)
    let lines: Vec<&str> = r.stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "{}", r.dump());
    assert!(lines[0].contains("no CUDA driver found"), "{}", r.dump());
    assert_eq!(std::fs::read(&file).unwrap(), before);
    assert!(!dir.path().join("_axpy_compare.cu").exists());
}

#[test]
fn compare_fills_the_columns_that_can_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy_example(dir.path(), "axpy_compare.c");
    let svg = dir.path().join("cmp.svg");
    let mut c = orcl();
    c.args(["compare", "--json", "--db"])
        .arg(dir.path().join("c.db"))
        .arg("--plot")
        .arg(&svg)
        .arg(&file);
    let r = run(c, Duration::from_secs(300));
    r.assert_code(0);
    let rows: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 1, "{}", r.dump());
    let row = &rows[0];
    assert_eq!(row["kernel"], "VecAXPY()");
    assert_eq!(row["input"], "N=100000");
    // y read and written, x read: 3 × 100000 doubles.
    assert_eq!(row["bytes"], 2_400_000);
    let cl = &row["opencl"];
    assert!(cl["ms"].as_f64().unwrap() > 0.0, "{}", r.dump());
    let gbs = cl["gbs"].as_f64().unwrap();
    assert!((gbs - 2.4e6 / (cl["ms"].as_f64().unwrap() * 1e-3) / 1e9).abs() < 1e-6 * gbs);
    if cuda_present() {
        assert!(row["cuda"]["ms"].as_f64().unwrap() > 0.0);
        assert!(row["cuda_speedup"].as_f64().unwrap() > 0.0);
    } else {
        common::skip(
            "tests/cuda.rs: the CUDA half of compare",
            "no CUDA driver on this machine",
        );
        assert!(row["cuda"].is_null() && row["cuda_speedup"].is_null());
        let cuda_lines: Vec<&str> = r
            .stderr
            .lines()
            .filter(|l| l.starts_with("CUDA:"))
            .collect();
        assert_eq!(cuda_lines.len(), 1, "{}", r.dump());
        assert!(cuda_lines[0].contains("no CUDA driver found"));
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains("OpenCL") && text.contains("VecAXPY"),
        "{text}"
    );
    // The database holds the OpenCL experiment with its device properties.
    let mut c = orcl();
    c.args(["db", "list", "--json", "--db"])
        .arg(dir.path().join("c.db"));
    let r = run(c, Duration::from_secs(30));
    r.assert_code(0);
    let list: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(list
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["backend"] == "opencl"));
}

/// A located error: exit 2, `file:line:col`, the message, the input unchanged.
fn located_error(annotation: &str, want_line: usize, message: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.c");
    let text = format!(
        "void f(int n, double *y, const double *x) {{\n    int i;\n    /*@ begin PerfTuning (\n        def performance_params {{ param WI[] = [32, 64]; param CF[] = ['', '-arch=sm_90']; }}\n        def input_params {{ param N[] = [100]; }}\n        def input_vars {{ decl int n = N; decl static double y[N] = 0; decl static double x[N] = random; }}\n    ) @*/\n    /*@ begin Loop({annotation}\n    for (i = 0; i < n; i++) y[i] = 2 * x[i];\n    ) @*/\n    for (i = 0; i < n; i++) y[i] = 2 * x[i];\n    /*@ end @*/\n    /*@ end @*/\n}}\n"
    );
    std::fs::write(&file, &text).unwrap();
    let mut c = orcl();
    c.arg("check").arg(&file);
    let r = run(c, Duration::from_secs(30));
    r.assert_code(2);
    assert!(
        r.stderr.contains(&format!("bad.c:{want_line}:")),
        "want line {want_line}: {}",
        r.dump()
    );
    assert!(r.stderr.contains(message), "want `{message}`: {}", r.dump());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
}

#[test]
fn transform_cuda_errors_are_located() {
    located_error(
        "transform CUDA(threadCount=WI, blockSize=4)",
        8,
        "unknown CUDA transformation argument `blockSize`",
    );
    located_error(
        "transform OpenCL(workItemsPerGroup=WI) transform OpenCL(workItemsPerGroup=WI)",
        8,
        "`transform OpenCL` is given twice",
    );
    located_error(
        "transform CUDA(threadCount=WI, cudaFlags=CF)",
        8,
        "`-arch=sm_90` is not a flag orcl can pass to NVRTC",
    );
    located_error(
        "transform CUDA(threadCount=WI, preferL1Size=20)",
        8,
        "`preferL1Size` must be 0, 16, 32 or 48",
    );
    located_error(
        "transform CUDA(threadCount=WI, streamCount=0)",
        8,
        "`streamCount` must be an integer ≥ 1",
    );
    located_error(
        "transform Cuda(threadCount=WI)",
        8,
        "unknown transform `Cuda`",
    );
}
