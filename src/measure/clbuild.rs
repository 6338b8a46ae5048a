//! OpenCL program building (OpenCL 1.2 §5.6): the device of a (platform, device) pair, a context
//! on it, and `clBuildProgram` of a source to a program binary. Used by the build pool's
//! in-process threads and by the `orcl build-server` children alike.

pub(crate) fn cl_device(platform: usize, device: usize) -> Option<opencl3::device::Device> {
    if !cl3::is_opencl_runtime_available() {
        return None;
    }
    let _enumerating = crate::device::opencl_query_lock();
    let platforms = opencl3::platform::get_platforms().ok()?;
    let ids = platforms
        .get(platform)?
        .get_devices(opencl3::device::CL_DEVICE_TYPE_ALL)
        .ok()?;
    ids.get(device).map(|&id| opencl3::device::Device::new(id))
}

/// Whether OpenCL device `device` of platform `platform` is a CPU (`CL_DEVICE_TYPE_CPU`); false
/// when it cannot be found.
pub fn is_cpu(platform: usize, device: usize) -> bool {
    cl_device(platform, device)
        .and_then(|d| d.dev_type().ok())
        .is_some_and(|t| t & opencl3::device::CL_DEVICE_TYPE_CPU != 0)
}

/// The OpenCL context a build thread (or an `orcl build-server` child) builds in.
pub(crate) fn context(platform: usize, device: usize) -> Result<opencl3::context::Context, String> {
    let d = cl_device(platform, device)
        .ok_or_else(|| format!("OpenCL device {device} of platform {platform} not found"))?;
    opencl3::context::Context::from_device(&d).map_err(|e| format!("clCreateContext: {e}"))
}

/// `clBuildProgram` of (source, options) in `ctx` (OpenCL 1.2 §5.6.2), then the program binary
/// (§5.6.7); the build log (or the OpenCL error) when it fails.
pub(crate) fn compile(
    ctx: &Result<opencl3::context::Context, String>,
    source: &str,
    options: &str,
) -> Result<Vec<u8>, String> {
    let ctx = ctx.as_ref().map_err(|e| e.clone())?;
    let program = opencl3::program::Program::create_and_build_from_source(ctx, source, options)
        .map_err(|log| format!("clBuildProgram:\n{log}"))?;
    match program.get_binaries() {
        Ok(mut b) if !b.is_empty() && !b[0].is_empty() => Ok(b.swap_remove(0)),
        Ok(_) => Err("the driver returned no program binary".into()),
        Err(e) => Err(format!("CL_PROGRAM_BINARIES: {e}")),
    }
}
