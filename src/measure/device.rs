//! Device discovery, OpenCL and CUDA, all loaded at run time so that one orcl binary runs with
//! or without either installation:
//!
//! - OpenCL through `opencl3`, which loads libOpenCL at run time.
//! - CUDA through `cudarc`'s driver API (`dynamic-loading`). cudarc *panics* when libcuda cannot
//!   be loaded, so libcuda is probed first with `libloading` (a library found only by full path is
//!   kept loaded, so cudarc's later `dlopen("libcuda.so.1")` resolves to it by soname), and every
//!   cudarc call runs under `catch_unwind` with the panic message silenced. NVRTC is probed and
//!   its version read (`nvrtcVersion`) through `libloading` directly, never through cudarc.

use serde::Serialize;
use std::ffi::c_int;
use std::sync::OnceLock;

/// Properties of one device. OpenCL 1.2 `clGetDeviceInfo` / CUDA `cuDeviceGetAttribute`
/// names in comments; sizes in bytes, clocks in MHz.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DeviceInfo {
    /// `"opencl"` or `"cuda"`.
    pub backend: &'static str,
    /// OpenCL: platform index in `clGetPlatformIDs` order. CUDA: 0.
    pub platform_index: usize,
    /// OpenCL: the platform's name. CUDA: `CUDA <driver API version>`, e.g. `CUDA 13.0`.
    pub platform: String,
    /// OpenCL: device index within the platform (`CL_DEVICE_TYPE_ALL` order). CUDA: the
    /// device ordinal (`cuDeviceGet`).
    pub device_index: usize,
    pub name: String,
    /// OpenCL: `CL_DEVICE_VENDOR`. CUDA: `NVIDIA Corporation`.
    pub vendor: String,
    /// OpenCL: `CL_DRIVER_VERSION`. CUDA: the NVIDIA kernel module version
    /// (`/proc/driver/nvidia/version`, e.g. `580.65.06`), or `CUDA <driver API version>`
    /// where that file is not readable.
    pub driver_version: String,
    /// OpenCL: `CL_DEVICE_VERSION`. CUDA: `compute capability <major>.<minor>`.
    pub device_version: String,
    /// CUDA: `CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR/MINOR`. OpenCL: NVIDIA's
    /// `CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV/MINOR_NV` (cl_nv_device_attribute_query), else none.
    pub compute_capability: Option<(u32, u32)>,
    /// `CL_DEVICE_MAX_COMPUTE_UNITS` / `CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT` (SMs).
    pub compute_units: u32,
    /// `CL_DEVICE_MAX_WORK_GROUP_SIZE` / `..._MAX_THREADS_PER_BLOCK` (work-items).
    pub max_work_group_size: usize,
    /// `CL_DEVICE_MAX_WORK_ITEM_SIZES` / `..._MAX_BLOCK_DIM_{X,Y,Z}` (work-items per dimension).
    pub max_work_item_sizes: Vec<usize>,
    /// CUDA: `..._MAX_GRID_DIM_{X,Y,Z}` (blocks per dimension). OpenCL: empty.
    pub max_grid_size: Vec<u64>,
    /// `CL_DEVICE_LOCAL_MEM_SIZE` / `..._MAX_SHARED_MEMORY_PER_BLOCK` (bytes; CUDA: without
    /// opt-in).
    pub local_mem_bytes: u64,
    /// CUDA: `..._MAX_SHARED_MEMORY_PER_BLOCK_OPTIN` (bytes, the most a kernel can opt in to
    /// with `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`). OpenCL: the most static
    /// `__local` memory a kernel may declare where it exceeds `CL_DEVICE_LOCAL_MEM_SIZE` (NVIDIA,
    /// compute capability 9.0: 227 KiB), else none.
    pub local_mem_optin_bytes: Option<u64>,
    /// CUDA: `..._MAX_SHARED_MEMORY_PER_MULTIPROCESSOR` (bytes). OpenCL: none.
    pub local_mem_per_compute_unit_bytes: Option<u64>,
    /// `CL_DEVICE_GLOBAL_MEM_SIZE` / `cuDeviceTotalMem` (bytes).
    pub global_mem_bytes: u64,
    /// `CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE` / `..._TOTAL_CONSTANT_MEMORY` (bytes).
    pub constant_mem_bytes: u64,
    /// `CL_DEVICE_GLOBAL_MEM_CACHE_SIZE` / `..._L2_CACHE_SIZE` (bytes).
    pub global_cache_bytes: u64,
    /// `CL_DEVICE_MAX_CLOCK_FREQUENCY` / `..._CLOCK_RATE` (kHz, converted to MHz).
    pub max_clock_mhz: u32,
    /// `CL_DEVICE_MAX_MEM_ALLOC_SIZE` (bytes). CUDA: the global memory size.
    pub max_alloc_bytes: u64,
    /// OpenCL: `CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE` of a trivial kernel (none if it
    /// could not be built). CUDA: `..._WARP_SIZE`.
    pub preferred_work_group_multiple: Option<u64>,
    /// CUDA: `..._MAX_REGISTERS_PER_BLOCK` (32-bit registers). OpenCL: none.
    pub registers_per_block: Option<u64>,
    /// CUDA: `..._MAX_THREADS_PER_MULTIPROCESSOR`. OpenCL: none.
    pub max_threads_per_compute_unit: Option<u64>,
    /// PCI address `domain:bus:device.0` (hex): CUDA's attributes; OpenCL: NVIDIA's
    /// `CL_DEVICE_PCI_BUS_ID_NV` / `_SLOT_ID_NV` (cl_nv_device_attribute_query; domain 0), none
    /// on other platforms. How NVML finds the device's energy counter (`energy`).
    pub pci_bus_id: Option<String>,
    /// CUDA: the NVRTC version (`nvrtcVersion`), none if libnvrtc was not found. OpenCL: none
    /// (the compiler is part of the OpenCL driver).
    pub nvrtc_version: Option<String>,
    /// Whether double precision is supported: `cl_khr_fp64` in `CL_DEVICE_EXTENSIONS`; always
    /// true for CUDA.
    pub fp64: bool,
}

impl DeviceInfo {
    /// A stable identity for the database: backend, platform, name, vendor, driver version.
    /// (The format is an experiment identity key: never change it for OpenCL devices.)
    pub fn fingerprint(&self) -> String {
        format!(
            "{}|{}|{}|{}|{}",
            self.backend, self.platform, self.name, self.vendor, self.driver_version
        )
    }
}

/// Errors of device discovery.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DeviceError {
    #[error("no OpenCL runtime found (libOpenCL.so.1 could not be loaded); install an ICD loader and a driver, e.g. `apt-get install ocl-icd-libopencl1 pocl-opencl-icd`")]
    NoRuntime,
    #[error("no OpenCL platform found: the ICD loader is installed but no driver is registered (e.g. `apt-get install pocl-opencl-icd`)")]
    NoPlatform,
    #[error("OpenCL platform {platform} does not exist ({count} platform(s) found)")]
    NoSuchPlatform { platform: usize, count: usize },
    #[error("OpenCL device {device} does not exist on platform {platform} `{name}` ({count} device(s) found)")]
    NoSuchDevice {
        platform: usize,
        device: usize,
        name: String,
        count: usize,
    },
    #[error("OpenCL error while querying devices: {0}")]
    Cl(String),
    #[error("no CUDA driver found (libcuda.so.1 could not be loaded); install the NVIDIA driver or add its library directory to LD_LIBRARY_PATH")]
    NoCudaDriver,
    #[error("no NVRTC found (tried libnvrtc.so.13, libnvrtc.so.12, libnvrtc.so on the library path and in $CUDA_HOME/lib64, $CUDA_PATH/lib64, /usr/local/cuda/lib64); install the CUDA toolkit's NVRTC or add its lib64 directory to LD_LIBRARY_PATH")]
    NoNvrtc,
    #[error("the CUDA driver was found but could not be initialised: {0}")]
    CudaInit(String),
    #[error("CUDA device {ordinal} does not exist ({count} CUDA device(s) found)")]
    NoCudaDevice { ordinal: usize, count: usize },
}

// ---------------------------------------------------------------------------------------------
// OpenCL

/// A trivial kernel whose `CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE` is reported.
const PROBE_KERNEL: &str =
    "__kernel void orcl_probe(__global float *a) { a[get_global_id(0)] = 0.0f; }";

/// (platform index, platform name, device index, device id) of every OpenCL device, and the
/// number of platforms.
#[allow(clippy::type_complexity)]
fn opencl_ids() -> Result<
    (
        Vec<(usize, String, usize, opencl3::types::cl_device_id)>,
        usize,
    ),
    DeviceError,
> {
    if !cl3::is_opencl_runtime_available() {
        return Err(DeviceError::NoRuntime);
    }
    // -1001: CL_PLATFORM_NOT_FOUND_KHR, the ICD loader's answer when no driver is registered.
    let platforms = opencl3::platform::get_platforms().map_err(|e| match e.0 {
        -1001 => DeviceError::NoPlatform,
        _ => DeviceError::Cl(e.to_string()),
    })?;
    if platforms.is_empty() {
        return Err(DeviceError::NoPlatform);
    }
    let mut out = Vec::new();
    for (pi, p) in platforms.iter().enumerate() {
        let pname = p.name().unwrap_or_default();
        let ids = p
            .get_devices(opencl3::device::CL_DEVICE_TYPE_ALL)
            .unwrap_or_default();
        for (di, id) in ids.into_iter().enumerate() {
            out.push((pi, pname.clone(), di, id));
        }
    }
    Ok((out, platforms.len()))
}

/// `CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE` of [`PROBE_KERNEL`] built for `d`.
fn opencl_preferred_multiple(d: &opencl3::device::Device) -> Option<u64> {
    let ctx = opencl3::context::Context::from_device(d).ok()?;
    let prog =
        opencl3::program::Program::create_and_build_from_source(&ctx, PROBE_KERNEL, "").ok()?;
    let k = opencl3::kernel::Kernel::create(&prog, "orcl_probe").ok()?;
    k.get_work_group_size_multiple(d.id())
        .ok()
        .map(|m| m as u64)
        .filter(|&m| m > 0)
}

/// Whether `d` answers NVIDIA's attribute queries (the cl_nv_device_attribute_query extension).
fn nv_attribute_query(d: &opencl3::device::Device) -> bool {
    d.extensions()
        .unwrap_or_default()
        .contains("cl_nv_device_attribute_query")
}

/// An NVIDIA OpenCL device's compute capability (cl_nv_device_attribute_query,
/// `CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV` / `_MINOR_NV`); `None` elsewhere.
fn opencl_compute_capability(d: &opencl3::device::Device) -> Option<(u32, u32)> {
    if !nv_attribute_query(d) {
        return None;
    }
    Some((
        d.compute_capability_major_nv().ok()?,
        d.compute_capability_minor_nv().ok()?,
    ))
}

/// The most local memory an NVIDIA OpenCL kernel of compute capability 9.0 may declare in static
/// `__local` arrays: 227 KiB, the per-block limit of sm_90 (CUDA C Programming Guide, "Technical
/// Specifications per Compute Capability"), which NVIDIA's OpenCL allows for static arrays although
/// `CL_DEVICE_LOCAL_MEM_SIZE` reports 48 KiB (measured on the H100, driver 580: 193 KiB of static
/// tiles built, launched and validated; 64 KiB of a dynamic `__local` argument fails with
/// `CL_OUT_OF_RESOURCES`; docs/GEMM.md). `None` for every other device.
fn opencl_static_local_limit(cc: Option<(u32, u32)>) -> Option<u64> {
    (cc == Some((9, 0))).then_some(232_448)
}

/// An NVIDIA OpenCL device's PCI address `0000:bus:slot.0` (cl_nv_device_attribute_query, which
/// has no domain); `None` elsewhere.
fn opencl_pci_bus_id(d: &opencl3::device::Device) -> Option<String> {
    if !nv_attribute_query(d) {
        return None;
    }
    let bus = d.pci_bus_id_nv().ok()?;
    let slot = d.pci_slot_id_nv().ok()?;
    Some(format!("0000:{bus:02x}:{slot:02x}.0"))
}

fn opencl_info(pi: usize, pname: &str, di: usize, id: opencl3::types::cl_device_id) -> DeviceInfo {
    let d = opencl3::device::Device::new(id);
    let cc = opencl_compute_capability(&d);
    DeviceInfo {
        backend: "opencl",
        platform_index: pi,
        platform: pname.to_string(),
        device_index: di,
        name: d.name().unwrap_or_default().trim().to_string(),
        vendor: d.vendor().unwrap_or_default(),
        driver_version: d.driver_version().unwrap_or_default(),
        device_version: d.version().unwrap_or_default(),
        compute_capability: cc,
        compute_units: d.max_compute_units().unwrap_or(0),
        max_work_group_size: d.max_work_group_size().unwrap_or(0),
        max_work_item_sizes: d.max_work_item_sizes().unwrap_or_default(),
        max_grid_size: Vec::new(),
        local_mem_bytes: d.local_mem_size().unwrap_or(0),
        local_mem_optin_bytes: opencl_static_local_limit(cc),
        local_mem_per_compute_unit_bytes: None,
        global_mem_bytes: d.global_mem_size().unwrap_or(0),
        constant_mem_bytes: d.max_constant_buffer_size().unwrap_or(0),
        global_cache_bytes: d.global_mem_cache_size().unwrap_or(0),
        max_clock_mhz: d.max_clock_frequency().unwrap_or(0),
        max_alloc_bytes: d.max_mem_alloc_size().unwrap_or(0),
        preferred_work_group_multiple: opencl_preferred_multiple(&d),
        registers_per_block: None,
        max_threads_per_compute_unit: None,
        pci_bus_id: opencl_pci_bus_id(&d),
        nvrtc_version: None,
        fp64: d.extensions().unwrap_or_default().contains("cl_khr_fp64"),
    }
}

/// Every OpenCL device of every platform, in index order.
pub fn opencl_devices() -> Result<Vec<DeviceInfo>, DeviceError> {
    let _enumerating = opencl_query_lock();
    let (ids, _) = opencl_ids()?;
    Ok(ids
        .into_iter()
        .map(|(pi, pname, di, id)| opencl_info(pi, &pname, di, id))
        .collect())
}

/// Held while OpenCL platforms and devices are enumerated and queried: PoCL 3.1 initialises its
/// devices in the first `clGetDeviceIDs`, and a `clGetDeviceInfo` from another thread meanwhile
/// read a device name not yet set (a SIGSEGV in `strlen`, seen with two unit tests enumerating
/// at once, and possible with build-pool threads opening their contexts).
pub(crate) fn opencl_query_lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// The OpenCL device at (`platform`, `device`) indices.
pub fn opencl_device(platform: usize, device: usize) -> Result<DeviceInfo, DeviceError> {
    let _enumerating = opencl_query_lock();
    let (ids, nplat) = opencl_ids()?;
    if platform >= nplat {
        return Err(DeviceError::NoSuchPlatform {
            platform,
            count: nplat,
        });
    }
    let on: Vec<_> = ids.iter().filter(|d| d.0 == platform).collect();
    let name = on.first().map(|d| d.1.clone()).unwrap_or_default();
    on.iter()
        .find(|d| d.2 == device)
        .map(|(pi, pname, di, id)| opencl_info(*pi, pname, *di, *id))
        .ok_or(DeviceError::NoSuchDevice {
            platform,
            device,
            name,
            count: on.len(),
        })
}

// ---------------------------------------------------------------------------------------------
// CUDA

/// libcuda names tried, in order (names go through the dynamic loader's search path; full paths
/// cover driver directories that are commonly not on it).
#[cfg(not(windows))]
const LIBCUDA_CANDIDATES: &[&str] = &[
    "libcuda.so.1",
    "libcuda.so",
    "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
    "/usr/lib/aarch64-linux-gnu/libcuda.so.1",
    "/usr/lib64/libcuda.so.1",
    "/usr/local/nvidia/lib64/libcuda.so.1",
    "/usr/lib/wsl/lib/libcuda.so.1",
];
#[cfg(windows)]
const LIBCUDA_CANDIDATES: &[&str] = &["nvcuda.dll"];

/// The libcuda found (name or full path), or none. Probed once; the library stays loaded.
pub fn libcuda_path() -> Option<&'static str> {
    static FOUND: OnceLock<Option<&'static str>> = OnceLock::new();
    *FOUND.get_or_init(|| {
        for &c in LIBCUDA_CANDIDATES {
            // SAFETY: loading the NVIDIA driver library runs its initialisers, which have no
            // preconditions.
            if let Ok(lib) = unsafe { libloading::Library::new(c) } {
                // Kept loaded: cudarc's `dlopen("libcuda.so.1")` then finds it by soname even
                // when it was found by full path only.
                std::mem::forget(lib);
                return Some(c);
            }
        }
        None
    })
}

/// A found libnvrtc: where, and its version.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct NvrtcInfo {
    /// The name (found on the library search path) or full path that loaded.
    pub path: String,
    pub major: i32,
    pub minor: i32,
}

/// libnvrtc candidates: names on the search path first, then `$CUDA_HOME/lib64`,
/// `$CUDA_PATH/lib64` and `/usr/local/cuda/lib64` (any `libnvrtc.so*` there, newest first).
fn nvrtc_candidates() -> Vec<String> {
    let mut out: Vec<String> = ["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut dirs: Vec<std::path::PathBuf> = Vec::new();
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(v) = std::env::var_os(var).filter(|v| !v.is_empty()) {
            dirs.push(std::path::PathBuf::from(v).join("lib64"));
        }
    }
    dirs.push("/usr/local/cuda/lib64".into());
    for dir in dirs {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut names: Vec<String> = rd
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.starts_with("libnvrtc.so"))
            .collect();
        // Newest major first, the soname (`libnvrtc.so.13`) before the full version
        // (`libnvrtc.so.13.0.48`), the unversioned development link last.
        names.sort_by_key(|n| {
            let parts: Vec<u32> = n
                .trim_start_matches("libnvrtc.so")
                .split('.')
                .filter_map(|p| p.parse::<u32>().ok())
                .collect();
            (
                std::cmp::Reverse(parts.first().copied().unwrap_or(0)),
                parts.len(),
            )
        });
        for n in names {
            let p = dir.join(n).to_string_lossy().into_owned();
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// The first libnvrtc that loads and answers `nvrtcVersion`. Probed once.
pub fn nvrtc() -> Result<NvrtcInfo, DeviceError> {
    static FOUND: OnceLock<Option<NvrtcInfo>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            for c in nvrtc_candidates() {
                // SAFETY: loading libnvrtc runs its initialisers, which have no preconditions.
                let Ok(lib) = (unsafe { libloading::Library::new(&c) }) else {
                    continue;
                };
                type Version = unsafe extern "C" fn(*mut c_int, *mut c_int) -> c_int;
                // SAFETY: `nvrtcResult nvrtcVersion(int *major, int *minor)`.
                let Ok(f) = (unsafe { lib.get::<Version>(b"nvrtcVersion\0") }) else {
                    continue;
                };
                let (mut major, mut minor) = (0, 0);
                // SAFETY: both pointers are valid for writes; 0 is NVRTC_SUCCESS.
                if unsafe { f(&mut major, &mut minor) } == 0 {
                    return Some(NvrtcInfo {
                        path: c,
                        major,
                        minor,
                    });
                }
            }
            None
        })
        .clone()
        .ok_or(DeviceError::NoNvrtc)
}

/// Runs `f`, turning a panic (cudarc panics on a missing library or symbol) into `None`, with
/// the panic message silenced.
fn quietly<T>(f: impl FnOnce() -> T) -> Option<T> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    r.ok()
}

fn driver_error(e: cudarc::driver::result::DriverError) -> String {
    match (e.error_name(), e.error_string()) {
        (Ok(n), Ok(s)) => format!("{}: {}", n.to_string_lossy(), s.to_string_lossy()),
        (Ok(n), Err(_)) => n.to_string_lossy().into_owned(),
        _ => format!("{:?}", e.0),
    }
}

/// The NVIDIA kernel module version from `/proc/driver/nvidia/version` ("NVRM version: NVIDIA
/// UNIX x86_64 Kernel Module  580.65.06  ...").
fn kernel_module_version() -> Option<String> {
    let text = std::fs::read_to_string("/proc/driver/nvidia/version").ok()?;
    let line = text.lines().find(|l| l.starts_with("NVRM version"))?;
    line.split_whitespace()
        .find(|w| {
            w.contains('.')
                && w.chars().next().is_some_and(|c| c.is_ascii_digit())
                && w.chars().all(|c| c.is_ascii_digit() || c == '.')
        })
        .map(str::to_string)
}

/// The CUDA driver, initialised: its driver API version (`cuDriverGetVersion`, e.g. 13000) and
/// device count.
struct CudaDriver {
    api_version: i32,
    count: usize,
}

fn cuda_init() -> Result<CudaDriver, DeviceError> {
    use cudarc::driver::{result, sys};
    if libcuda_path().is_none() {
        return Err(DeviceError::NoCudaDriver);
    }
    quietly(|| {
        result::init().map_err(|e| DeviceError::CudaInit(driver_error(e)))?;
        let mut v: c_int = 0;
        // SAFETY: `v` is valid for writes.
        unsafe { sys::cuDriverGetVersion(&mut v) }
            .result()
            .map_err(|e| {
                DeviceError::CudaInit(format!("cuDriverGetVersion: {}", driver_error(e)))
            })?;
        let n = result::device::get_count()
            .map_err(|e| DeviceError::CudaInit(format!("cuDeviceGetCount: {}", driver_error(e))))?;
        Ok(CudaDriver {
            api_version: v,
            count: n.max(0) as usize,
        })
    })
    .unwrap_or_else(|| {
        Err(DeviceError::CudaInit(
            "the CUDA driver library lacks a required entry point".into(),
        ))
    })
}

fn api_version_string(v: i32) -> String {
    format!("{}.{}", v / 1000, (v % 1000) / 10)
}

fn cuda_info(
    drv: &CudaDriver,
    ordinal: usize,
    nvrtc: Option<&NvrtcInfo>,
) -> Result<DeviceInfo, DeviceError> {
    use cudarc::driver::result::device;
    use cudarc::driver::sys::CUdevice_attribute as A;
    let fail = |what: &str, e: cudarc::driver::result::DriverError| {
        DeviceError::CudaInit(format!(
            "CUDA device {ordinal}: {what}: {}",
            driver_error(e)
        ))
    };
    quietly(|| {
        let dev = device::get(ordinal as c_int).map_err(|e| fail("cuDeviceGet", e))?;
        // SAFETY: `dev` comes from `cuDeviceGet` after a successful `cuInit`.
        let attr = |a: A| -> Result<u64, DeviceError> {
            unsafe { device::get_attribute(dev, a) }
                .map(|v| v.max(0) as u64)
                .map_err(|e| fail(&format!("{a:?}"), e))
        };
        let name = device::get_name(dev).map_err(|e| fail("cuDeviceGetName", e))?;
        // SAFETY: as above.
        let global =
            unsafe { device::total_mem(dev) }.map_err(|e| fail("cuDeviceTotalMem", e))? as u64;
        let cc = (
            attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)? as u32,
            attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)? as u32,
        );
        let api = api_version_string(drv.api_version);
        let pci = match (
            attr(A::CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID),
            attr(A::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID),
            attr(A::CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID),
        ) {
            (Ok(d), Ok(b), Ok(s)) => Some(format!("{d:04x}:{b:02x}:{s:02x}.0")),
            _ => None,
        };
        Ok(DeviceInfo {
            backend: "cuda",
            platform_index: 0,
            platform: format!("CUDA {api}"),
            device_index: ordinal,
            name: name.trim().to_string(),
            vendor: "NVIDIA Corporation".into(),
            driver_version: kernel_module_version().unwrap_or_else(|| format!("CUDA {api}")),
            device_version: format!("compute capability {}.{}", cc.0, cc.1),
            compute_capability: Some(cc),
            compute_units: attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32,
            max_work_group_size: attr(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)? as usize,
            max_work_item_sizes: vec![
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)? as usize,
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)? as usize,
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)? as usize,
            ],
            max_grid_size: vec![
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)?,
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)?,
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)?,
            ],
            local_mem_bytes: attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?,
            local_mem_optin_bytes: attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
                .ok(),
            local_mem_per_compute_unit_bytes: attr(
                A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
            )
            .ok(),
            global_mem_bytes: global,
            constant_mem_bytes: attr(A::CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY)?,
            global_cache_bytes: attr(A::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE).unwrap_or(0),
            // kHz → MHz
            max_clock_mhz: (attr(A::CU_DEVICE_ATTRIBUTE_CLOCK_RATE).unwrap_or(0) / 1000) as u32,
            max_alloc_bytes: global,
            preferred_work_group_multiple: Some(attr(A::CU_DEVICE_ATTRIBUTE_WARP_SIZE)?),
            registers_per_block: attr(A::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK).ok(),
            max_threads_per_compute_unit: attr(
                A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
            )
            .ok(),
            pci_bus_id: pci,
            nvrtc_version: nvrtc.map(|n| format!("{}.{}", n.major, n.minor)),
            fp64: true,
        })
    })
    .unwrap_or_else(|| {
        Err(DeviceError::CudaInit(format!(
            "CUDA device {ordinal}: the CUDA driver library lacks a required entry point"
        )))
    })
}

/// The CUDA driver API version, e.g. `13.0` (`cuDriverGetVersion`), initialising the driver.
pub fn cuda_driver_version() -> Result<String, DeviceError> {
    cuda_init().map(|d| api_version_string(d.api_version))
}

/// Every CUDA device, in ordinal order (empty when the driver works but sees no device).
pub fn cuda_devices() -> Result<Vec<DeviceInfo>, DeviceError> {
    let drv = cuda_init()?;
    let nv = nvrtc().ok();
    (0..drv.count)
        .map(|o| cuda_info(&drv, o, nv.as_ref()))
        .collect()
}

/// The CUDA device with this ordinal.
pub fn cuda_device(ordinal: usize) -> Result<DeviceInfo, DeviceError> {
    let drv = cuda_init()?;
    if ordinal >= drv.count {
        return Err(DeviceError::NoCudaDevice {
            ordinal,
            count: drv.count,
        });
    }
    cuda_info(&drv, ordinal, nvrtc().ok().as_ref())
}

/// Whether CUDA tuning can run: a CUDA driver that initialises, at least one device, and NVRTC.
pub fn cuda_available() -> Result<(), DeviceError> {
    let drv = cuda_init()?;
    if drv.count == 0 {
        return Err(DeviceError::NoCudaDevice {
            ordinal: 0,
            count: 0,
        });
    }
    nvrtc().map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuda_api_version() {
        assert_eq!(api_version_string(13000), "13.0");
        assert_eq!(api_version_string(12080), "12.8");
    }

    #[test]
    fn nvrtc_candidates_start_with_names() {
        let c = nvrtc_candidates();
        assert_eq!(&c[..3], ["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"]);
    }

    #[test]
    fn opencl_fingerprint_format_is_stable() {
        let d = DeviceInfo {
            backend: "opencl",
            platform_index: 0,
            platform: "Portable Computing Language".into(),
            device_index: 0,
            name: "cpu".into(),
            vendor: "AuthenticAMD".into(),
            driver_version: "6.0".into(),
            device_version: "OpenCL 3.0 PoCL".into(),
            compute_capability: None,
            compute_units: 1,
            max_work_group_size: 4096,
            max_work_item_sizes: vec![4096, 4096, 4096],
            max_grid_size: vec![],
            local_mem_bytes: 1,
            local_mem_optin_bytes: None,
            local_mem_per_compute_unit_bytes: None,
            global_mem_bytes: 1,
            constant_mem_bytes: 1,
            global_cache_bytes: 1,
            max_clock_mhz: 1,
            max_alloc_bytes: 1,
            preferred_work_group_multiple: Some(8),
            registers_per_block: None,
            max_threads_per_compute_unit: None,
            pci_bus_id: None,
            nvrtc_version: None,
            fp64: true,
        };
        assert_eq!(
            d.fingerprint(),
            "opencl|Portable Computing Language|cpu|AuthenticAMD|6.0"
        );
    }

    #[test]
    fn cuda_never_panics() {
        // Whatever this machine has: a result, never a panic.
        let _ = cuda_devices();
        let _ = cuda_device(0);
        let _ = cuda_available();
        let _ = nvrtc();
    }
}
