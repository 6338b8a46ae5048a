//! `orcl devices`: the OpenCL device of this machine (PoCL in CI) with its Table II properties,
//! one line per backend that lists nothing (here: no CUDA driver), exit 0 when a device is
//! listed and 1 when none is, `--json` with every property in bytes.

use std::process::{Command, Output};

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

fn orcl_devices(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(ORCL);
    c.arg("devices").args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run orcl devices")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The value cells of the table row labelled `label`.
fn row<'a>(stdout: &'a str, label: &str) -> Vec<&'a str> {
    let line = stdout
        .lines()
        .find(|l| l.trim_start_matches('│').trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no row `{label}` in\n{stdout}"));
    line.split(['│', '┆'])
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .skip(1)
        .collect()
}

fn no_cuda_here() -> bool {
    orcl::device::libcuda_path().is_none()
}

#[test]
fn lists_the_opencl_device_and_one_cuda_line() {
    let o = orcl_devices(&[], &[]);
    let (so, se) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "stdout:\n{so}\nstderr:\n{se}");
    let backends = row(&so, "backend");
    let ocl: Vec<usize> = (0..backends.len())
        .filter(|&i| backends[i] == "OpenCL")
        .collect();
    assert!(!ocl.is_empty(), "no OpenCL device listed:\n{so}");
    let i = ocl[0];
    let cu: u64 = row(&so, "compute units")[i].parse().expect("compute units");
    assert!(cu > 0, "{so}");
    let local = row(&so, "local memory")[i];
    assert!(
        local.ends_with("KiB") || local.ends_with("MiB"),
        "local memory `{local}`:\n{so}"
    );
    let mult: u64 = row(&so, "preferred WG multiple")[i]
        .parse()
        .expect("preferred multiple");
    assert!(mult > 0, "{so}");
    assert!(row(&so, "clock")[i].ends_with("MHz"), "{so}");
    assert!(row(&so, "global memory")[i].ends_with("iB"), "{so}");
    for label in [
        "index",
        "platform",
        "version",
        "max work-group size",
        "max work-items",
        "max grid size",
        "global-memory cache",
        "constant memory",
        "fp64",
    ] {
        assert_eq!(row(&so, label).len(), backends.len(), "{label}:\n{so}");
    }
    let cuda_lines: Vec<&str> = so.lines().filter(|l| l.starts_with("CUDA:")).collect();
    assert_eq!(cuda_lines.len(), 1, "{so}");
    if no_cuda_here() {
        assert!(
            cuda_lines[0]
                .starts_with("CUDA: no CUDA driver found (libcuda.so.1 could not be loaded)"),
            "{so}"
        );
        assert_eq!(so.lines().last(), Some(cuda_lines[0]), "{so}");
    }
    assert!(
        !so.contains("panicked") && !se.contains("panicked"),
        "{so}{se}"
    );
}

#[test]
fn json_has_every_property_in_bytes() {
    let o = orcl_devices(&["--json"], &[]);
    let (so, se) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "stdout:\n{so}\nstderr:\n{se}");
    let v: serde_json::Value = serde_json::from_str(&so).expect("JSON on stdout");
    let devs = v.as_array().expect("an array of devices");
    let d = devs
        .iter()
        .find(|d| d["backend"] == "opencl")
        .expect("an OpenCL device");
    for key in [
        "backend",
        "platform_index",
        "platform",
        "device_index",
        "name",
        "vendor",
        "driver_version",
        "device_version",
        "compute_capability",
        "compute_units",
        "max_work_group_size",
        "max_work_item_sizes",
        "max_grid_size",
        "local_mem_bytes",
        "local_mem_optin_bytes",
        "global_mem_bytes",
        "constant_mem_bytes",
        "global_cache_bytes",
        "max_clock_mhz",
        "max_alloc_bytes",
        "preferred_work_group_multiple",
        "nvrtc_version",
        "fp64",
    ] {
        assert!(d.get(key).is_some(), "no `{key}` in {d}");
    }
    assert!(d["compute_units"].as_u64().unwrap() > 0, "{d}");
    assert!(d["local_mem_bytes"].as_u64().unwrap() >= 1024, "{d}");
    assert!(d["global_mem_bytes"].as_u64().unwrap() >= 1 << 20, "{d}");
    assert!(
        d["preferred_work_group_multiple"].as_u64().unwrap() > 0,
        "{d}"
    );
    assert_eq!(d["max_grid_size"], serde_json::json!([]), "{d}");
    // Null except on NVIDIA's OpenCL (cl_nv_device_attribute_query): [major, minor].
    let nvidia = d["vendor"]
        .as_str()
        .unwrap()
        .to_uppercase()
        .contains("NVIDIA");
    assert_eq!(d["compute_capability"].is_null(), !nvidia, "{d}");
    assert!(
        !d["max_work_item_sizes"].as_array().unwrap().is_empty(),
        "{d}"
    );
    if no_cuda_here() {
        assert!(devs.iter().all(|d| d["backend"] == "opencl"), "{so}");
        assert!(se.contains("CUDA: no CUDA driver found"), "{se}");
    }
}

#[test]
fn no_backend_exits_1_with_both_lines() {
    if !no_cuda_here() {
        return;
    }
    // ocl-icd reads its vendor list from OCL_ICD_VENDORS: an empty directory means no platform.
    let empty = tempfile::tempdir().expect("temp dir");
    let o = orcl_devices(&[], &[("OCL_ICD_VENDORS", empty.path().to_str().unwrap())]);
    let (so, se) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "stdout:\n{so}\nstderr:\n{se}");
    let lines: Vec<&str> = se.lines().collect();
    assert_eq!(lines.len(), 2, "{se}");
    assert!(lines[0].starts_with("OpenCL: no OpenCL"), "{se}");
    assert!(lines[1].starts_with("CUDA: no CUDA driver found"), "{se}");
    assert!(so.is_empty(), "{so}");
}
