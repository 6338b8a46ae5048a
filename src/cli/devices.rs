//! `orcl devices`: the OpenCL and CUDA devices and their limits, as Table II of the OrCL paper
//! (one row per property, one column per device) or JSON (`--json`: every property, in bytes).

use super::args::write_stdout;
use super::failure::Failure;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, Table};
use orcl_measure::device::{self, DeviceInfo};

/// Exit 0 when some device was found, else 1.
pub(super) fn run(json: bool) -> Result<i32, Failure> {
    let (devs, lines) = discover();
    let code = if devs.is_empty() { 1 } else { 0 };
    if json {
        for l in &lines {
            orcl_frontend::errln!("{l}");
        }
        let text = serde_json::to_string_pretty(&devs).unwrap_or_default() + "\n";
        return Ok(write_stdout(&text).max(code));
    }
    if devs.is_empty() {
        for l in &lines {
            orcl_frontend::errln!("{l}");
        }
        return Ok(code);
    }
    let mut out = format!("{}\n", table(&devs));
    for l in &lines {
        out.push_str(l);
        out.push('\n');
    }
    Ok(write_stdout(&out).max(code))
}

/// The devices of both backends, and one status line per backend that listed nothing, or that
/// has something to say.
fn discover() -> (Vec<DeviceInfo>, Vec<String>) {
    let mut devs: Vec<DeviceInfo> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    match device::opencl_devices() {
        Ok(d) if d.is_empty() => lines.push("OpenCL: no OpenCL device found".into()),
        Ok(d) => devs.extend(d),
        Err(e) => lines.push(format!("OpenCL: {e}")),
    }
    match device::cuda_devices() {
        Ok(d) => {
            let api = device::cuda_driver_version().unwrap_or_default();
            let nvrtc = match device::nvrtc() {
                Ok(n) => format!("NVRTC {}.{} ({})", n.major, n.minor, n.path),
                Err(e) => format!("NVRTC: {e}"),
            };
            if d.is_empty() {
                lines.push(format!(
                    "CUDA: driver API {api} found, but no CUDA device; {nvrtc}"
                ));
            } else {
                lines.push(format!(
                    "CUDA: driver API {api}, {} device(s); {nvrtc}",
                    d.len()
                ));
            }
            devs.extend(d);
        }
        Err(e) => lines.push(format!("CUDA: {e}")),
    }
    (devs, lines)
}

/// Table II of the OrCL paper: one row per property, one column per device.
fn table(devs: &[DeviceInfo]) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    let mut header = vec![Cell::new("device")];
    header.extend(devs.iter().map(|d| Cell::new(&d.name)));
    t.set_header(header);
    for (label, f) in identity_rows().iter().chain(&limit_rows()) {
        let mut row = vec![Cell::new(label)];
        row.extend(devs.iter().map(|d| Cell::new(f(d))));
        t.add_row(row);
    }
    t
}

/// A row of the table: its label and how a device's cell reads.
type Property = (&'static str, Box<dyn Fn(&DeviceInfo) -> String>);

/// What the device is: backend, index, platform, version, compute units.
fn identity_rows() -> Vec<Property> {
    vec![
        (
            "backend",
            Box::new(|d| match d.backend {
                "cuda" => "CUDA".into(),
                _ => "OpenCL".into(),
            }),
        ),
        (
            "index",
            Box::new(|d| match d.backend {
                "cuda" => d.device_index.to_string(),
                _ => format!("{}:{}", d.platform_index, d.device_index),
            }),
        ),
        ("platform", Box::new(|d| d.platform.clone())),
        (
            "version",
            Box::new(|d| match d.compute_capability {
                Some((ma, mi)) if d.driver_version.starts_with("CUDA") => {
                    format!("compute capability {ma}.{mi}\n{}", d.platform)
                }
                Some((ma, mi)) => format!(
                    "compute capability {ma}.{mi}\n{}, driver {}",
                    d.platform, d.driver_version
                ),
                None => d.device_version.clone(),
            }),
        ),
        (
            "compute units",
            Box::new(|d| match d.backend {
                "cuda" => format!("{} SMs", d.compute_units),
                _ => d.compute_units.to_string(),
            }),
        ),
    ]
}

/// What the device holds: work-group, work-item and grid limits, clock, memories, preferred
/// work-group multiple, fp64.
fn limit_rows() -> Vec<Property> {
    vec![
        (
            "max work-group size",
            Box::new(|d| d.max_work_group_size.to_string()),
        ),
        (
            "max work-items",
            Box::new(|d| {
                dims(
                    d.max_work_item_sizes
                        .iter()
                        .map(|x| x.to_string())
                        .collect(),
                )
            }),
        ),
        (
            "max grid size",
            Box::new(|d| {
                if d.max_grid_size.is_empty() {
                    "-".into()
                } else {
                    dims(d.max_grid_size.iter().map(|x| x.to_string()).collect())
                }
            }),
        ),
        ("clock", Box::new(|d| format!("{} MHz", d.max_clock_mhz))),
        (
            "global-memory cache",
            Box::new(|d| human(d.global_cache_bytes)),
        ),
        ("global memory", Box::new(|d| human(d.global_mem_bytes))),
        ("constant memory", Box::new(|d| human(d.constant_mem_bytes))),
        (
            "local memory",
            Box::new(|d| match d.local_mem_optin_bytes {
                // CUDA: the opt-in limit of dynamic shared memory; NVIDIA's OpenCL (sm_90): the
                // limit of static `__local` arrays.
                Some(o) if o > d.local_mem_bytes && d.backend == "opencl" => {
                    format!("{} (static arrays {})", human(d.local_mem_bytes), human(o))
                }
                Some(o) if o > d.local_mem_bytes => {
                    format!("{} (opt-in {})", human(d.local_mem_bytes), human(o))
                }
                _ => human(d.local_mem_bytes),
            }),
        ),
        (
            "preferred WG multiple",
            Box::new(|d| match (d.preferred_work_group_multiple, d.backend) {
                (Some(m), "cuda") => format!("{m} (warp)"),
                (Some(m), _) => m.to_string(),
                (None, _) => "?".into(),
            }),
        ),
        (
            "fp64",
            Box::new(|d| if d.fp64 { "yes" } else { "no" }.into()),
        ),
    ]
}

/// Bytes in binary units, `none` for 0 (`48 KiB`, `79.2 GiB`).
fn human(b: u64) -> String {
    if b == 0 {
        "none".to_string()
    } else {
        bytes(b).replace(".0 ", " ")
    }
}

/// `(1024, 1024, 64)`.
fn dims(v: Vec<String>) -> String {
    format!("({})", v.join(", "))
}

fn bytes(b: u64) -> String {
    const U: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut x = b as f64;
    let mut k = 0;
    while x >= 1024.0 && k + 1 < U.len() {
        x /= 1024.0;
        k += 1;
    }
    if k == 0 {
        format!("{b} B")
    } else {
        format!("{x:.1} {}", U[k])
    }
}
