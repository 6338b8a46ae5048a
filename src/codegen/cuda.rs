//! CUDA kernel generation (OrCL paper, Chaimov et al. 2014, §III-C; Orio's CUDA module): the same
//! schedules and kernel IR as OpenCL, written as CUDA C (`extern "C" __global__`, `__shared__`,
//! `__syncthreads`), with `threadCount`, `blockCount`, `cacheBlocks`, `unrollInner`,
//! `innerThreads`, `incrementType`, `launchBounds`, `streamCount`, `preferL1Size` and nvcc-style
//! `cudaFlags` translated for NVRTC (rows of [`crate::args::ARGS`]); here the host kernels of
//! `_file.cu`.

pub use crate::args::nvrtc_flags;
use crate::target::{GlobalSize, Variant};
use orcl_frontend::ir::Kernel;
use serde::Serialize;

/// The CUDA build settings of a configuration: `cudaFlags` (nvcc spelling) and `preferL1Size`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CudaOptions {
    /// `cudaFlags` as written (nvcc spelling).
    pub cuda_flags: String,
    /// `preferL1Size` in KB: 0, 16, 32 or 48.
    pub prefer_l1_kb: u32,
}

impl CudaOptions {
    /// The options string sent to the CUDA skeleton ([`crate::args::skeleton_options`]).
    pub fn skeleton_options(&self, total: bool) -> String {
        crate::args::skeleton_options(&self.cuda_flags, self.prefer_l1_kb, total)
    }
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
    /// Bytes of dynamic shared memory the launch gives (its `-orcl-smem=` skeleton option;
    /// 0: none): set as the kernel's `cudaFuncAttributeMaxDynamicSharedMemorySize` first.
    pub smem: u64,
    /// Threads per block; total threads (0 = one per iteration); device ordinal.
    pub local: u64,
    pub global: u64,
    pub device: usize,
    /// `crate::target::Grid::c_initializer` of the variant.
    pub grid: String,
    /// Kernel arguments at the call: device pointers `orcl_d_NAME`, scalars by value.
    pub call_args: Vec<String>,
}

/// The `cudaFuncCachePrefer...` that a variant's `preferL1Size` asks for (its `-orcl-cache=`
/// skeleton option), if any.
pub fn cache_config(build_options: &str) -> Option<&'static str> {
    build_options.split_whitespace().find_map(|w| match w {
        "-orcl-cache=shared" => Some("cudaFuncCachePreferShared"),
        "-orcl-cache=equal" => Some("cudaFuncCachePreferEqual"),
        "-orcl-cache=l1" => Some("cudaFuncCachePreferL1"),
        _ => None,
    })
}

/// The bytes of dynamic shared memory a variant's `-orcl-smem=` skeleton option asks for (0: none).
pub fn dynamic_smem(build_options: &str) -> u64 {
    build_options
        .split_whitespace()
        .find_map(|w| w.strip_prefix("-orcl-smem=")?.parse().ok())
        .unwrap_or(0)
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
            let cache_config = cache_config(&v.build_options);
            HostKernel {
                label: label.clone(),
                config: config.replace("*/", "* /"),
                kernel: v.source.replace("orcl_kernel(", &format!("{kernel_name}(")),
                kernel_name,
                tile: v.source.contains("#define ORCL_TILE"),
                wg: v.source.contains("#define ORCL_WG"),
                cache_config,
                smem: dynamic_smem(&v.build_options),
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
    fn dynamic_shared_memory_is_a_launch_token() {
        assert_eq!(
            dynamic_smem("--use_fast_math -orcl-smem=69664 -orcl-total"),
            69664
        );
        assert_eq!(dynamic_smem("-orcl-cache=l1"), 0);
        assert_eq!(dynamic_smem(""), 0);
    }

    #[test]
    fn skeleton_options_carry_the_launch_tokens() {
        let o = CudaOptions {
            prefer_l1_kb: 48,
            cuda_flags: "-use_fast_math".into(),
        };
        assert_eq!(o.skeleton_options(false), "--use_fast_math -orcl-cache=l1");
        assert_eq!(
            o.skeleton_options(true),
            "--use_fast_math -orcl-cache=l1 -orcl-total"
        );
    }
}
