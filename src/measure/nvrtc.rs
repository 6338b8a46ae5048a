//! NVRTC in orcl's own process, for the CUDA build pool (`pool`): a CUDA variant compiled to a
//! CUBIN for the device's architecture (`--gpu-architecture=sm_XY`), so that NVRTC's front end
//! and ptxas both run on the pool's threads and the measuring skeleton only loads the image
//! (`cuModuleLoadDataEx`, no JIT).
//!
//! The library is the one `crate::device::nvrtc` probed (by full path where it was found only in
//! `$CUDA_HOME/lib64` and the like), opened here with `libloading` rather than through cudarc:
//! cudarc's dynamic loading panics when the library is missing and, built for CUDA 12, does not
//! try `libnvrtc.so.13`. NVRTC may be called from several threads at once, each on its own
//! program, and compiles them in parallel (measured with NVRTC 12.9: docs/THROUGHPUT.md).

use std::ffi::{c_char, c_int, CStr, CString};
use std::sync::Arc;

type Program = *mut std::ffi::c_void;
type CreateProgram = unsafe extern "C" fn(
    *mut Program,
    *const c_char,
    *const c_char,
    c_int,
    *const *const c_char,
    *const *const c_char,
) -> c_int;
type CompileProgram = unsafe extern "C" fn(Program, c_int, *const *const c_char) -> c_int;
type GetSize = unsafe extern "C" fn(Program, *mut usize) -> c_int;
type GetBytes = unsafe extern "C" fn(Program, *mut c_char) -> c_int;
type DestroyProgram = unsafe extern "C" fn(*mut Program) -> c_int;
type ErrorString = unsafe extern "C" fn(c_int) -> *const c_char;

/// `NVRTC_ERROR_COMPILATION`: the kernel does not compile (the log says why); every other
/// failure of `nvrtcCompileProgram` (`OUT_OF_MEMORY`, `INVALID_OPTION`,
/// `BUILTIN_OPERATION_FAILURE`, `INTERNAL_ERROR`, ...) is this NVRTC's or this process's, not the
/// kernel's, and leaves the variant to the skeleton.
const COMPILATION: c_int = 6;

/// A loaded libnvrtc with the functions the pool calls.
pub struct Nvrtc {
    create: CreateProgram,
    compile: CompileProgram,
    log_size: GetSize,
    log: GetBytes,
    cubin_size: GetSize,
    cubin: GetBytes,
    destroy: DestroyProgram,
    error_string: ErrorString,
    /// Where the library was found (name on the search path, or full path).
    pub path: String,
    /// `nvrtcVersion`: (major, minor).
    pub version: (i32, i32),
    // Keeps the function pointers above valid; dropped last.
    _lib: libloading::Library,
}

/// Why NVRTC produced no CUBIN.
#[derive(Debug, Clone, PartialEq)]
pub enum CompileFailure {
    /// The kernel does not compile: the message the skeleton would record
    /// (`nvrtcCompileProgram: NVRTC_ERROR_COMPILATION` and the program log).
    Failed(String),
    /// This NVRTC rejects an option the skeleton's JIT path expresses differently (e.g. an older
    /// NVRTC without `--ptxas-options`): the variant is left to the skeleton.
    Unsupported(String),
}

impl Nvrtc {
    /// Load the libnvrtc that `crate::device::nvrtc` found. Errors (no NVRTC, a library without
    /// `nvrtcGetCUBIN`, i.e. older than CUDA 11.1) say why; never panics.
    pub fn load() -> Result<Arc<Nvrtc>, String> {
        let info = crate::device::nvrtc().map_err(|e| e.to_string())?;
        // SAFETY: loading libnvrtc runs its initialisers, which have no preconditions (it was
        // loaded once already by the probe).
        let lib = unsafe { libloading::Library::new(&info.path) }
            .map_err(|e| format!("loading {}: {e}", info.path))?;
        macro_rules! get {
            ($t:ty, $name:literal) => {
                // SAFETY: the symbol has the C signature `$t` (nvrtc.h); the pointer is only
                // used while `lib` (kept in the struct) is loaded.
                *unsafe { lib.get::<$t>(concat!($name, "\0").as_bytes()) }.map_err(|e| {
                    format!(
                        "{} lacks {} (NVRTC older than CUDA 11.1?): {e}",
                        info.path, $name
                    )
                })?
            };
        }
        Ok(Arc::new(Nvrtc {
            create: get!(CreateProgram, "nvrtcCreateProgram"),
            compile: get!(CompileProgram, "nvrtcCompileProgram"),
            log_size: get!(GetSize, "nvrtcGetProgramLogSize"),
            log: get!(GetBytes, "nvrtcGetProgramLog"),
            cubin_size: get!(GetSize, "nvrtcGetCUBINSize"),
            cubin: get!(GetBytes, "nvrtcGetCUBIN"),
            destroy: get!(DestroyProgram, "nvrtcDestroyProgram"),
            error_string: get!(ErrorString, "nvrtcGetErrorString"),
            path: info.path.clone(),
            version: (info.major, info.minor),
            _lib: lib,
        }))
    }

    fn error_name(&self, r: c_int) -> String {
        // SAFETY: nvrtcGetErrorString returns a static NUL-terminated string for any code.
        let p = unsafe { (self.error_string)(r) };
        if p.is_null() {
            format!("NVRTC error {r}")
        } else {
            // SAFETY: non-null, NUL-terminated, static.
            unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
        }
    }

    /// Compile `source` (program name `orcl_kernel.cu`, as in the skeleton) with `options` (which
    /// must name an `sm_XY` architecture, see [`pool_options`]) and return the CUBIN.
    pub fn compile_cubin(
        &self,
        source: &str,
        options: &[String],
    ) -> Result<Vec<u8>, CompileFailure> {
        let src = CString::new(source)
            .map_err(|_| CompileFailure::Failed("the kernel source contains a NUL byte".into()))?;
        let opts: Vec<CString> = options
            .iter()
            .map(|o| CString::new(o.as_str()))
            .collect::<Result<_, _>>()
            .map_err(|_| CompileFailure::Failed("an NVRTC option contains a NUL byte".into()))?;
        let argv: Vec<*const c_char> = opts.iter().map(|o| o.as_ptr()).collect();
        let name = c"orcl_kernel.cu";
        let mut prog: Program = std::ptr::null_mut();
        // SAFETY: valid NUL-terminated strings; no headers.
        let r = unsafe {
            (self.create)(
                &mut prog,
                src.as_ptr(),
                name.as_ptr(),
                0,
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        if r != 0 {
            return Err(CompileFailure::Failed(format!(
                "nvrtcCreateProgram: {}",
                self.error_name(r)
            )));
        }
        // SAFETY: `prog` was created above; `argv` holds `argv.len()` valid strings.
        let r = unsafe { (self.compile)(prog, argv.len() as c_int, argv.as_ptr()) };
        let result = if r != 0 {
            let log = self.program_log(prog);
            let msg = format!("nvrtcCompileProgram: {}\n{log}", self.error_name(r));
            Err(if r == COMPILATION {
                CompileFailure::Failed(msg)
            } else {
                CompileFailure::Unsupported(msg)
            })
        } else {
            let mut n = 0usize;
            // SAFETY: `prog` compiled; `n` is valid for writes.
            let r = unsafe { (self.cubin_size)(prog, &mut n) };
            if r != 0 || n == 0 {
                Err(CompileFailure::Unsupported(format!(
                    "nvrtcGetCUBINSize: {} ({n} bytes)",
                    self.error_name(r)
                )))
            } else {
                let mut buf = vec![0u8; n];
                // SAFETY: `buf` has the `n` bytes nvrtcGetCUBINSize asked for.
                let r = unsafe { (self.cubin)(prog, buf.as_mut_ptr().cast()) };
                if r != 0 {
                    Err(CompileFailure::Unsupported(format!(
                        "nvrtcGetCUBIN: {}",
                        self.error_name(r)
                    )))
                } else {
                    Ok(buf)
                }
            }
        };
        // SAFETY: `prog` is a live program, destroyed once.
        unsafe { (self.destroy)(&mut prog) };
        result
    }

    /// Compile a trivial kernel for `sm_<cc>`: whether this NVRTC can build for the device at all
    /// (an NVRTC older than the GPU's architecture, a missing `libnvrtc-builtins`), checked once
    /// before the pool starts so such an environment leaves every variant to the skeleton.
    pub fn check(&self, cc: (u32, u32)) -> Result<(), String> {
        let probe = "extern \"C\" __global__ void orcl_probe(float *a) { a[threadIdx.x] = 0.0f; }";
        let opts = pool_options("", cc)?;
        self.compile_cubin(probe, &opts).map(|_| ()).map_err(|f| {
            let (CompileFailure::Failed(m) | CompileFailure::Unsupported(m)) = f;
            format!(
                "NVRTC {}.{} ({}) cannot compile for sm_{}{} in orcl's process: {}",
                self.version.0,
                self.version.1,
                self.path,
                cc.0,
                cc.1,
                m.trim()
            )
        })
    }

    fn program_log(&self, prog: Program) -> String {
        let mut n = 0usize;
        // SAFETY: `prog` is live; `n` is valid for writes.
        if unsafe { (self.log_size)(prog, &mut n) } != 0 || n == 0 {
            return String::new();
        }
        let mut buf = vec![0u8; n];
        // SAFETY: `buf` has the `n` bytes (NUL included) nvrtcGetProgramLogSize asked for.
        if unsafe { (self.log)(prog, buf.as_mut_ptr().cast()) } != 0 {
            return String::new();
        }
        let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        String::from_utf8_lossy(&buf[..end]).into_owned()
    }
}

/// The NVRTC options for compiling a CUDA variant to a CUBIN, from the options string the
/// skeleton gets (`CudaOptions::skeleton_options`): the NVRTC options as they are, then
/// `--gpu-architecture=sm_<major><minor>` of the device (the skeleton compiles for
/// `compute_<major><minor>` and JIT-loads the PTX). orcl's launch tokens: `-orcl-dlcm=cg|ca` (the
/// skeleton's JIT cache mode, nvcc's `-Xptxas -dlcm=`) becomes `--ptxas-options=-dlcm=cg|ca`;
/// `-orcl-arch=a` (sm_90a's `wgmma`) makes the architecture `sm_<major><minor>a`;
/// `-orcl-cache=`, `-orcl-smem=` (dynamic shared memory) and `-orcl-total` are left out (the skeleton applies them when it loads and
/// launches the kernel: they come with the `BIN` request). Errors: a launch token this function
/// does not know (the variant is left to the skeleton, which does).
pub fn pool_options(options: &str, cc: (u32, u32)) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut suffix = "";
    for w in options.split_whitespace() {
        match w {
            "-orcl-arch=a" => suffix = "a",
            "-orcl-dlcm=cg" | "-orcl-dlcm=ca" => {
                out.push(format!("--ptxas-options=-dlcm={}", &w["-orcl-dlcm=".len()..]))
            }
            "-orcl-total" => {}
            w if w.starts_with("-orcl-cache=") || w.starts_with("-orcl-smem=") => {}
            w if w.starts_with("-orcl-") => {
                return Err(format!(
                    "the launch token `{w}` has no NVRTC equivalent; the skeleton compiles this variant"
                ))
            }
            w => out.push(w.to_string()),
        }
    }
    out.push(format!("--gpu-architecture=sm_{}{}{suffix}", cc.0, cc.1));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_translate_launch_tokens_and_name_the_architecture() {
        assert_eq!(
            pool_options(
                "--use_fast_math --maxrregcount=32 -orcl-dlcm=cg -orcl-cache=l1 -orcl-total",
                (9, 0)
            )
            .unwrap(),
            [
                "--use_fast_math",
                "--maxrregcount=32",
                "--ptxas-options=-dlcm=cg",
                "--gpu-architecture=sm_90"
            ]
        );
        assert_eq!(
            pool_options("  -orcl-dlcm=ca\t", (8, 6)).unwrap(),
            ["--ptxas-options=-dlcm=ca", "--gpu-architecture=sm_86"]
        );
        assert_eq!(
            pool_options("", (12, 0)).unwrap(),
            ["--gpu-architecture=sm_120"]
        );
        assert_eq!(
            pool_options("-orcl-smem=99328 -orcl-arch=a", (9, 0)).unwrap(),
            ["--gpu-architecture=sm_90a"]
        );
        let e = pool_options("-orcl-dlcm=cs", (9, 0)).unwrap_err();
        assert!(e.contains("`-orcl-dlcm=cs`"), "{e}");
    }

    /// The skeleton's own options (`CudaOptions::skeleton_options`) translate: every token it
    /// can emit is known here.
    #[test]
    fn every_skeleton_option_translates() {
        for prefer in [0, 16, 32, 48] {
            for total in [false, true] {
                let o = orcl_codegen::cuda::CudaOptions {
                    cuda_flags: "-use_fast_math -Xptxas -dlcm=cg -maxrregcount=64".into(),
                    prefer_l1_kb: prefer,
                };
                let s = o.skeleton_options(total);
                let opts = pool_options(&s, (9, 0)).unwrap();
                assert!(opts.iter().all(|w| !w.starts_with("-orcl-")), "{opts:?}");
                assert!(opts.contains(&"--ptxas-options=-dlcm=cg".to_string()));
            }
        }
    }

    /// With a libnvrtc on this machine (none in CI; e.g. the `nvidia-cuda-nvrtc-cu12` wheel's
    /// `lib` on `LD_LIBRARY_PATH`): a CUBIN comes back, a ptxas option is checked by ptxas, and
    /// a broken kernel gives the skeleton's message with the log. Without one: `load` says why.
    #[test]
    fn compiles_a_cubin_where_nvrtc_is_present() {
        let nv = match Nvrtc::load() {
            Ok(n) => n,
            Err(e) => {
                assert!(!e.is_empty());
                eprintln!("no NVRTC here ({e}): skipped");
                return;
            }
        };
        let k = "extern \"C\" __global__ void orcl_kernel(float *a) { a[threadIdx.x] += 1.0f; }";
        let opts = pool_options("--use_fast_math -orcl-dlcm=cg -orcl-cache=l1", (9, 0)).unwrap();
        nv.check((9, 0)).unwrap();
        let e = nv.check((1, 0)).unwrap_err();
        assert!(e.contains("cannot compile for sm_10"), "{e}");
        let cubin = nv.compile_cubin(k, &opts).expect("compiles");
        assert_eq!(&cubin[..4], b"\x7fELF", "a CUBIN is an ELF image");
        match nv.compile_cubin(
            k,
            &[
                "--gpu-architecture=sm_90".into(),
                "--ptxas-options=-dlcm=zz".into(),
            ],
        ) {
            Err(CompileFailure::Failed(m)) => assert!(m.contains("ptxas"), "{m}"),
            other => panic!("{other:?}"),
        }
        match nv.compile_cubin("extern \"C\" __global__ void orcl_kernel( {", &opts) {
            Err(CompileFailure::Failed(m)) => {
                assert!(
                    m.starts_with("nvrtcCompileProgram: NVRTC_ERROR_COMPILATION\n"),
                    "{m}"
                );
                assert!(m.contains("orcl_kernel.cu"), "{m}");
            }
            other => panic!("{other:?}"),
        }
        match nv.compile_cubin(k, &["--no-such-option".into()]) {
            Err(CompileFailure::Unsupported(m)) => assert!(m.contains("INVALID_OPTION"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
