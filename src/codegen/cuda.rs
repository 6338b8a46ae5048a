//! CUDA kernel generation (OrCL paper, Chaimov et al. 2014, §III-C; Orio's CUDA module): the same
//! schedules and kernel IR as OpenCL, written as CUDA C (`extern "C" __global__`, `__shared__`,
//! `__syncthreads`), with `threadCount`, `blockCount`, `cacheBlocks`, `unrollInner`,
//! `innerThreads`, `incrementType`, `launchBounds`, `streamCount`, `preferL1Size` and nvcc-style
//! `cudaFlags` translated for NVRTC.

use super::kernel_ir::linear::Fault;
use crate::args::{bool_arg, int_arg};
use crate::schedule::LinearSchedule;
use crate::target::{Backend, GlobalSize, Variant};
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::expr::{KeywordArg, Value};
use orcl_frontend::ir::Kernel;
use serde::Serialize;

/// Transformation arguments of `transform CUDA(...)`, with their meaning.
pub const CUDA_ARGS: &[(&str, &str)] = &[
    ("threadCount", "threads per block; default 128"),
    ("blockCount", "number of thread blocks (grid size); default: enough to give each iteration a thread"),
    ("cacheBlocks", "stage read-only inputs through __shared__ memory (bool)"),
    ("unrollInner", "#pragma unroll factor for the innermost loop; 1 = no pragma"),
    ("innerThreads", "threads that share one iteration's inner reduction loop (1 = none)"),
    ("incrementType", "'global': threads stride by the grid size (default); 'local': each block owns one contiguous chunk"),
    ("launchBounds", "__launch_bounds__(threadCount) on the kernel (bool)"),
    ("streamCount", "CUDA streams the copies and the kernel are split over (Orio); accepted, but orcl always uses one stream: values > 1 are the same variant as 1"),
    ("preferL1Size", "L1/shared-memory split preference in KB (cuFuncSetCacheConfig): 0 none, 16 prefer shared, 32 equal, 48 prefer L1"),
    ("cudaFlags", "nvcc-style flags, e.g. '-use_fast_math', '-Xptxas -dlcm=cg', '-maxrregcount=32' (string)"),
    ("tile", "loop nests: [('i',TI),('j',TJ)] maps the named outermost parallel loops onto a 2-D/3-D grid, TI×TJ iterations per block (threadCount, blockCount, innerThreads and incrementType are then not used); a matrix product (i, j parallel, a reduction loop l inside) also takes ('l',TK), the k-slab; edges guarded"),
    ("regTile", "with tile: [('i',RI),('j',RJ)] iterations per thread along each tiled loop (the block has TI/RI × TJ/RJ threads)"),
    ("padLocal", "with tile on a matrix product: elements of padding per local tile row against bank conflicts (0 = none)"),
    ("doubleBuffer", "with tile and cacheBlocks on a matrix product: two shared buffers per staged operand, the next k-slab loaded into registers while the current one is computed, one barrier per slab (bool; no effect when nothing is staged)"),
    ("vecLoad", "with tile and cacheBlocks on a matrix product: the global-to-shared k-slab loads read 1 (default), 2 or 4 elements adjacent along each staged operand's contiguous dimension as one vector (float4, double2; at most 16 bytes), falling back to scalar loads at the edges and at unaligned addresses; it must divide the slab's contiguous extent (TK for a row-major A, TI or TJ otherwise)"),
    ("loadItems", "with tile, cacheBlocks and a k-slab on a matrix product: [('i',MA),('j',NB)] work-items side by side along the contiguous dimension of the staged operand that varies with each named loop while loading its slab (CLBlast's MDIMA/NDIMB; 1 puts consecutive work-items across rows, which makes the transposed shared store of a row-major A conflict-free); it must divide the row's vecLoad groups and the work-group; default: the slab linearised"),
    ("warpTile", "with tile on a matrix product: [('i',WI),('j',WJ)] each run of WI×WJ consecutive work-items (a warp when 32) computes a WI × WJ block of the (TI/RI) × (TJ/RJ) work-item grid instead of a row of it, so fewer distinct shared addresses are read per warp (warp-level tiling); each must divide the work-items along its loop; default: rows"),
    ("vecWidth", "with tile on a matrix product: 1, 2 or 4 adjacent outputs per thread along each dimension, read from the shared tiles as one vector"),
    ("device", "CUDA device ordinal"),
    ("pinHostMem", "Orio: page-locked host buffers (bool); accepted without effect: the skeleton's host buffers are pageable and the 'kernel' objective does not time copies"),
    ("dataOnDevice", "Orio: keep the data on the device between calls (bool); accepted without effect: the skeleton copies once per validation run, and timed runs reuse device buffers already"),
    ("domain", "Orio: a named domain of the generated code (string); accepted without effect"),
];

/// Evaluated CUDA transformation of one configuration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CudaOptions {
    /// `threadCount`: threads per block.
    pub thread_count: u64,
    /// `blockCount`: `None` = enough blocks to give each iteration a thread.
    pub block_count: Option<u64>,
    pub cache_blocks: bool,
    /// `unrollInner`: 1 = no pragma.
    pub unroll_inner: u32,
    /// `innerThreads`: 1 = one thread per iteration.
    pub inner_threads: u64,
    /// `incrementType='local'`.
    pub chunked: bool,
    pub launch_bounds: bool,
    /// `streamCount`: always 1 (larger values are accepted with a warning and run as 1).
    pub stream_count: u32,
    /// `preferL1Size` in KB: 0, 16, 32 or 48.
    pub prefer_l1_kb: u32,
    /// `cudaFlags` as written (nvcc spelling).
    pub cuda_flags: String,
    pub device: usize,
    /// Where `innerThreads` is written (errors about the loop's shape point there).
    #[serde(skip)]
    pub inner_threads_span: Option<orcl_frontend::diag::Span>,
    /// `tile` / `regTile` (empty `tile`: the 1-D kernel).
    #[serde(skip)]
    pub nest: crate::schedule::NestArgs,
}

impl Default for CudaOptions {
    fn default() -> Self {
        CudaOptions {
            thread_count: 128,
            block_count: None,
            cache_blocks: false,
            unroll_inner: 1,
            inner_threads: 1,
            chunked: false,
            launch_bounds: false,
            stream_count: 1,
            prefer_l1_kb: 0,
            cuda_flags: String::new(),
            device: 0,
            inner_threads_span: None,
            nest: Default::default(),
        }
    }
}

/// Check the argument names of `transform CUDA(...)` (unknown or repeated names are errors).
pub fn check_args(args: &[KeywordArg]) -> Result<(), Diagnostic> {
    crate::args::check_transform_args(args, CUDA_ARGS, "CUDA")
}

/// Evaluate the transformation arguments for one configuration (`env` gives param values).
///
/// Errors: an ill-typed or out-of-range value, or `cudaFlags` that NVRTC cannot take (located at
/// the argument's expression).
pub fn options(
    args: &[KeywordArg],
    env: &dyn Fn(&str) -> Option<Value>,
) -> Result<CudaOptions, Diagnostic> {
    let mut o = CudaOptions::default();
    for a in args {
        let v = a.expr.eval(env)?;
        match a.name.as_str() {
            "threadCount" => o.thread_count = int_arg(&v, a, 1)? as u64,
            "blockCount" => o.block_count = Some(int_arg(&v, a, 1)? as u64),
            "cacheBlocks" => o.cache_blocks = bool_arg(&v, a)?,
            "unrollInner" => o.unroll_inner = int_arg(&v, a, 1)?.min(1 << 16) as u32,
            "innerThreads" => {
                o.inner_threads = int_arg(&v, a, 1)? as u64;
                o.inner_threads_span = Some(a.expr.span);
            }
            "launchBounds" => o.launch_bounds = bool_arg(&v, a)?,
            "tile" => o.nest.tile = crate::schedule::loop_list(&v, a)?,
            "regTile" => o.nest.reg_tile = crate::schedule::loop_list(&v, a)?,
            "loadItems" => o.nest.load_items = crate::schedule::loop_list(&v, a)?,
            "warpTile" => o.nest.warp_tile = crate::schedule::loop_list(&v, a)?,
            "padLocal" => o.nest.pad_local = int_arg(&v, a, 0)?.min(64) as u64,
            "doubleBuffer" => o.nest.double_buffer = bool_arg(&v, a)?,
            "vecLoad" => o.nest.vec_load = crate::args::width_arg(&v, a, &[1, 2, 4])?,
            "vecWidth" => o.nest.vec_width = crate::args::width_arg(&v, a, &[1, 2, 4])?,
            "streamCount" => {
                // Several streams are not implemented: a warning says so (see `crate::compat`).
                int_arg(&v, a, 1)?;
                o.stream_count = 1;
            }
            "pinHostMem" | "dataOnDevice" => {
                bool_arg(&v, a)?;
            }
            "domain" => {
                if v.as_str().is_none() {
                    return Err(Diagnostic::new(
                        a.expr.span,
                        format!("`domain` must be a string, found {v}"),
                    ));
                }
            }
            "preferL1Size" => {
                let kb = int_arg(&v, a, 0)?;
                if ![0, 16, 32, 48].contains(&kb) {
                    return Err(Diagnostic::new(
                        a.expr.span,
                        format!("`preferL1Size` must be 0, 16, 32 or 48 (KB), found {kb}"),
                    )
                    .with_help("0: no preference, 16: prefer shared memory, 32: equal split, 48: prefer L1"));
                }
                o.prefer_l1_kb = kb as u32;
            }
            "cudaFlags" => match v {
                Value::Str(s) => {
                    nvrtc_flags(&s).map_err(|m| Diagnostic::new(a.expr.span, m))?;
                    o.cuda_flags = s;
                }
                other => {
                    return Err(Diagnostic::new(
                        a.expr.span,
                        format!("`cudaFlags` must be a string, found {other}"),
                    ))
                }
            },
            "incrementType" => o.chunked = crate::args::increment_type_arg(&v, a)?,
            "device" => o.device = int_arg(&v, a, 0)? as usize,
            _ => {
                return Err(Diagnostic::new(
                    a.name_span,
                    format!("unknown CUDA transformation argument `{}`", a.name),
                ))
            }
        }
    }
    Ok(o)
}

/// nvcc-style flags translated for NVRTC and the JIT: (NVRTC options, `-Xptxas -dlcm` mode).
///
/// `-use_fast_math`, `-ftz=`, `-prec-div=`, `-prec-sqrt=`, `-fmad=`, `-maxrregcount=`,
/// `-lineinfo`, `-restrict`, `-extra-device-vectorization` map to NVRTC's spelling; `-Xptxas
/// -dlcm=cg|ca` (also `-Xptxas=-dlcm=cg`, `--ptxas-options=...`) becomes the JIT cache-mode
/// option; `-O0`..`-O3` are accepted and ignored (NVRTC always optimises device code).
///
/// Errors: any other flag, with the list of accepted ones.
pub fn nvrtc_flags(flags: &str) -> Result<(Vec<String>, Option<&'static str>), String> {
    let mut out = Vec::new();
    let mut dlcm = None;
    let mut words = flags.split_whitespace().peekable();
    let ptxas = |opt: &str, dlcm: &mut Option<&'static str>| -> Result<(), String> {
        for o in opt.split(',') {
            match o.trim_start_matches('-') {
                "dlcm=cg" => *dlcm = Some("cg"),
                "dlcm=ca" => *dlcm = Some("ca"),
                other => {
                    return Err(format!(
                        "ptxas option `{other}` is not supported through NVRTC; orcl takes -dlcm=cg and -dlcm=ca"
                    ))
                }
            }
        }
        Ok(())
    };
    while let Some(w) = words.next() {
        let bare = w.trim_start_matches('-');
        if let Some(v) = bare
            .strip_prefix("Xptxas=")
            .or_else(|| bare.strip_prefix("ptxas-options="))
        {
            ptxas(v, &mut dlcm)?;
            continue;
        }
        if bare == "Xptxas" || bare == "ptxas-options" {
            let Some(v) = words.next() else {
                return Err(format!("`{w}` needs a value, e.g. `{w} -dlcm=cg`"));
            };
            ptxas(v, &mut dlcm)?;
            continue;
        }
        let key = bare.split('=').next().unwrap_or("");
        match key {
            "use_fast_math" | "ftz" | "prec-div" | "prec-sqrt" | "fmad" | "maxrregcount"
            | "lineinfo" | "restrict" | "extra-device-vectorization" => {
                out.push(format!("--{bare}"))
            }
            "O0" | "O1" | "O2" | "O3" => {}
            _ => {
                return Err(format!(
                    "`{w}` is not a flag orcl can pass to NVRTC; use -use_fast_math, -ftz=, -prec-div=, -prec-sqrt=, -fmad=, -maxrregcount=N, -lineinfo, -restrict, -extra-device-vectorization, -Xptxas -dlcm=cg|ca"
                ))
            }
        }
    }
    Ok((out, dlcm))
}

impl CudaOptions {
    /// The options string sent to the CUDA skeleton: NVRTC options, then orcl's launch tokens
    /// (`-orcl-dlcm=`, `-orcl-cache=`, `-orcl-total`). `total`: the objective is host-to-device
    /// copies + kernel + device-to-host copies.
    pub fn skeleton_options(&self, total: bool) -> String {
        let (mut words, dlcm) = nvrtc_flags(&self.cuda_flags).unwrap_or_default();
        if let Some(m) = dlcm {
            words.push(format!("-orcl-dlcm={m}"));
        }
        match self.prefer_l1_kb {
            16 => words.push("-orcl-cache=shared".into()),
            32 => words.push("-orcl-cache=equal".into()),
            48 => words.push("-orcl-cache=l1".into()),
            _ => {}
        }
        if total {
            words.push("-orcl-total".into());
        }
        words.join(" ")
    }
}

/// The 1-D map of `o` (a configuration without `tile`); errors are located at `innerThreads`
/// (or the loop when it is not written).
fn linear<'a>(
    o: &CudaOptions,
    total: bool,
    span: &'a dyn Fn(crate::schedule::LinearArg) -> orcl_frontend::diag::Span,
) -> crate::generate::LinearConfig<'a> {
    crate::generate::LinearConfig {
        schedule: LinearSchedule {
            groups: o.block_count,
            chunked: o.chunked,
            lanes: o.inner_threads,
            cache_blocks: o.cache_blocks,
            vec_width: 1,
            vec_hint: 0,
            passes: None,
            vector: None,
        },
        local: o.thread_count,
        unroll: o.unroll_inner,
        size_hint: o.launch_bounds,
        backend: Backend::Cuda,
        build_options: o.skeleton_options(total),
        platform: 0,
        device: o.device,
        span_of: span,
    }
}

/// The loop-nest schedule arguments (`tile`, `regTile` with `cacheBlocks`, `unrollInner`,
/// `launchBounds`).
fn nest_args(o: &CudaOptions) -> crate::schedule::NestArgs {
    crate::schedule::NestArgs {
        cache_blocks: o.cache_blocks,
        unroll: o.unroll_inner,
        size_hint: o.launch_bounds,
        ..o.nest.clone()
    }
}

/// Check that `o` can be generated for loop `k` (`innerThreads` needs an inner reduction loop).
///
/// Errors: located at the `innerThreads` argument (or the loop when it is not written).
pub fn check(k: &Kernel, o: &CudaOptions) -> Result<(), Diagnostic> {
    if !o.nest.tile.is_empty() {
        return crate::schedule::check(k, &nest_args(o));
    }
    let span = |_| o.inner_threads_span.unwrap_or(k.parallel.span);
    linear(o, false, &span).schedule(k).map(|_| ())
}

/// Generate the CUDA kernel and launch geometry of one configuration. `total`: the objective
/// includes transfers (see [`CudaOptions::skeleton_options`]).
///
/// Errors: a construct the code generator cannot handle, located.
pub fn generate(
    k: &Kernel,
    o: &CudaOptions,
    total: bool,
    fault: Option<Fault>,
) -> Result<Variant, Diagnostic> {
    if !o.nest.tile.is_empty() {
        return crate::generate::generate_nest(
            k,
            &nest_args(o),
            Backend::Cuda,
            o.skeleton_options(total),
            0,
            o.device,
        );
    }
    let span = |_| o.inner_threads_span.unwrap_or(k.parallel.span);
    linear(o, total, &span).generate(k, fault)
}

/// One variant of the CUDA host code of `_file.cu`: its `__global__` kernel (renamed so that the
/// variants of one file do not collide) and how the host function launches it.
#[derive(Debug, Clone, Serialize)]
pub struct HostKernel {
    pub label: String,
    pub config: String,
    /// The kernel source, `orcl_kernel` renamed to `kernel_name`.
    pub kernel: String,
    pub kernel_name: String,
    /// The kernel defines `ORCL_TILE` / `ORCL_WG` (undefined after it).
    pub tile: bool,
    pub wg: bool,
    /// `cudaFuncCachePrefer...` for `preferL1Size`, if any.
    pub cache_config: Option<&'static str>,
    /// Threads per block; total threads (0 = one per iteration); device ordinal.
    pub local: u64,
    pub global: u64,
    pub device: usize,
    /// `crate::target::Grid::c_initializer` of the variant.
    pub grid: String,
    /// Kernel arguments at the call: device pointers `orcl_d_NAME`, scalars by value.
    pub call_args: Vec<String>,
}

/// The CUDA host variants of host function `name` (`variants`: (label, configuration, variant)).
pub fn host_kernels(
    name: &str,
    k: &Kernel,
    variants: &[(String, String, &Variant)],
) -> Vec<HostKernel> {
    variants
        .iter()
        .enumerate()
        .map(|(i, (label, config, v))| {
            let kernel_name = format!("{name}_k{i}");
            let cache_config = v.build_options.split_whitespace().find_map(|w| match w {
                "-orcl-cache=shared" => Some("cudaFuncCachePreferShared"),
                "-orcl-cache=equal" => Some("cudaFuncCachePreferEqual"),
                "-orcl-cache=l1" => Some("cudaFuncCachePreferL1"),
                _ => None,
            });
            HostKernel {
                label: label.clone(),
                config: config.replace("*/", "* /"),
                kernel: v.source.replace("orcl_kernel(", &format!("{kernel_name}(")),
                kernel_name,
                tile: v.source.contains("#define ORCL_TILE"),
                wg: v.source.contains("#define ORCL_WG"),
                cache_config,
                local: v.local_size,
                global: match v.global_size {
                    GlobalSize::Fixed(g) => g,
                    GlobalSize::CoverLoop => 0,
                },
                device: v.device,
                grid: crate::target::Grid::c_initializer(v.grid.as_ref()),
                call_args: k
                    .args
                    .iter()
                    .map(|a| {
                        if a.reduction.is_some() {
                            format!("orcl_d_{}", super::kernel_ir::linear::partial_name(&a.name))
                        } else if a.is_array {
                            format!("orcl_d_{}", a.name)
                        } else {
                            a.name.clone()
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvcc_flags_map_to_nvrtc() {
        let (w, d) = nvrtc_flags("-use_fast_math -Xptxas -dlcm=cg -O3 -maxrregcount=32").unwrap();
        assert_eq!(w, vec!["--use_fast_math", "--maxrregcount=32"]);
        assert_eq!(d, Some("cg"));
        assert_eq!(
            nvrtc_flags("--ptxas-options=-dlcm=ca").unwrap().1,
            Some("ca")
        );
        assert!(nvrtc_flags("-Xptxas -v").unwrap_err().contains("`v`"));
        assert!(nvrtc_flags("-arch=sm_90")
            .unwrap_err()
            .contains("-arch=sm_90"));
        assert!(nvrtc_flags("-Xptxas")
            .unwrap_err()
            .contains("needs a value"));
        assert_eq!(nvrtc_flags("").unwrap(), (vec![], None));
    }

    #[test]
    fn skeleton_options_carry_the_launch_tokens() {
        let o = CudaOptions {
            prefer_l1_kb: 48,
            cuda_flags: "-use_fast_math".into(),
            ..CudaOptions::default()
        };
        assert_eq!(o.skeleton_options(false), "--use_fast_math -orcl-cache=l1");
        assert_eq!(
            o.skeleton_options(true),
            "--use_fast_math -orcl-cache=l1 -orcl-total"
        );
    }
}
