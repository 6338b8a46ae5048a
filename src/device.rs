//! Device discovery: OpenCL platforms and devices through `opencl3`, which loads libOpenCL at
//! run time, so one orcl binary runs with or without an OpenCL installation.

use serde::Serialize;

/// Properties of one OpenCL device (OpenCL 1.2 `clGetDeviceInfo` names in comments).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DeviceInfo {
    pub backend: &'static str,
    /// Platform index in `clGetPlatformIDs` order and the platform's name.
    pub platform_index: usize,
    pub platform: String,
    /// Device index within the platform (`CL_DEVICE_TYPE_ALL` order).
    pub device_index: usize,
    pub name: String,
    pub vendor: String,
    /// `CL_DRIVER_VERSION`
    pub driver_version: String,
    /// `CL_DEVICE_VERSION`
    pub device_version: String,
    /// `CL_DEVICE_MAX_COMPUTE_UNITS`
    pub compute_units: u32,
    /// `CL_DEVICE_MAX_WORK_GROUP_SIZE` (work-items)
    pub max_work_group_size: usize,
    /// `CL_DEVICE_MAX_WORK_ITEM_SIZES` (work-items per dimension)
    pub max_work_item_sizes: Vec<usize>,
    /// `CL_DEVICE_LOCAL_MEM_SIZE` (bytes)
    pub local_mem_bytes: u64,
    /// `CL_DEVICE_GLOBAL_MEM_SIZE` (bytes)
    pub global_mem_bytes: u64,
    /// `CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE` (bytes)
    pub constant_mem_bytes: u64,
    /// `CL_DEVICE_GLOBAL_MEM_CACHE_SIZE` (bytes)
    pub global_cache_bytes: u64,
    /// `CL_DEVICE_MAX_CLOCK_FREQUENCY` (MHz)
    pub max_clock_mhz: u32,
    /// `CL_DEVICE_MAX_MEM_ALLOC_SIZE` (bytes)
    pub max_alloc_bytes: u64,
    /// Whether `cl_khr_fp64` is listed in `CL_DEVICE_EXTENSIONS`.
    pub fp64: bool,
}

impl DeviceInfo {
    /// A stable identity for the database: backend, platform, name, vendor, driver version.
    pub fn fingerprint(&self) -> String {
        format!(
            "{}|{}|{}|{}|{}",
            self.backend, self.platform, self.name, self.vendor, self.driver_version
        )
    }
}

/// Errors of device discovery.
#[derive(Debug, thiserror::Error)]
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
}

/// Every OpenCL device of every platform, in index order.
pub fn opencl_devices() -> Result<Vec<DeviceInfo>, DeviceError> {
    if !cl3::is_opencl_runtime_available() {
        return Err(DeviceError::NoRuntime);
    }
    let platforms =
        opencl3::platform::get_platforms().map_err(|e| DeviceError::Cl(e.to_string()))?;
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
            let d = opencl3::device::Device::new(id);
            out.push(DeviceInfo {
                backend: "opencl",
                platform_index: pi,
                platform: pname.clone(),
                device_index: di,
                name: d.name().unwrap_or_default().trim().to_string(),
                vendor: d.vendor().unwrap_or_default(),
                driver_version: d.driver_version().unwrap_or_default(),
                device_version: d.version().unwrap_or_default(),
                compute_units: d.max_compute_units().unwrap_or(0),
                max_work_group_size: d.max_work_group_size().unwrap_or(0),
                max_work_item_sizes: d.max_work_item_sizes().unwrap_or_default(),
                local_mem_bytes: d.local_mem_size().unwrap_or(0),
                global_mem_bytes: d.global_mem_size().unwrap_or(0),
                constant_mem_bytes: d.max_constant_buffer_size().unwrap_or(0),
                global_cache_bytes: d.global_mem_cache_size().unwrap_or(0),
                max_clock_mhz: d.max_clock_frequency().unwrap_or(0),
                max_alloc_bytes: d.max_mem_alloc_size().unwrap_or(0),
                fp64: d.extensions().unwrap_or_default().contains("cl_khr_fp64"),
            });
        }
    }
    Ok(out)
}

/// The device at (`platform`, `device`) indices.
pub fn opencl_device(platform: usize, device: usize) -> Result<DeviceInfo, DeviceError> {
    let all = opencl_devices()?;
    let nplat = all.iter().map(|d| d.platform_index + 1).max().unwrap_or(0);
    if platform >= nplat {
        return Err(DeviceError::NoSuchPlatform {
            platform,
            count: nplat,
        });
    }
    let on: Vec<&DeviceInfo> = all
        .iter()
        .filter(|d| d.platform_index == platform)
        .collect();
    let name = on.first().map(|d| d.platform.clone()).unwrap_or_default();
    on.iter()
        .find(|d| d.device_index == device)
        .map(|d| (*d).clone())
        .ok_or(DeviceError::NoSuchDevice {
            platform,
            device,
            name,
            count: on.len(),
        })
}
