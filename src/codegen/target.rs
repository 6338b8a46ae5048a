//! What a variant targets and how it launches: the backend (OpenCL / CUDA), the NDRange (grid)
//! and the generated variant itself. Every later stage speaks of launches in these types.

use serde::Serialize;

/// A code-generation target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Backend {
    /// OpenCL C kernels, OpenCL host code (`_file.c`).
    OpenCl,
    /// CUDA C++ kernels compiled by NVRTC (measurement) or nvcc (`_file.cu`).
    Cuda,
}

impl Backend {
    /// Lower-case name, as stored in the database (`opencl`, `cuda`).
    pub fn as_str(self) -> &'static str {
        match self {
            Backend::OpenCl => "opencl",
            Backend::Cuda => "cuda",
        }
    }
    /// The transform's name in a `Loop(transform NAME(...))` annotation.
    pub fn transform(self) -> &'static str {
        match self {
            Backend::OpenCl => "OpenCL",
            Backend::Cuda => "CUDA",
        }
    }
    /// The backend of a transform name or of a `--backends` word (case-insensitive).
    pub fn parse(s: &str) -> Option<Backend> {
        match s.to_ascii_lowercase().as_str() {
            "opencl" | "cl" => Some(Backend::OpenCl),
            "cuda" => Some(Backend::Cuda),
            _ => None,
        }
    }
}

/// The global size of a variant (NDRange / grid): fixed, or covering the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum GlobalSize {
    /// `workGroups × workItemsPerGroup` work-items (`blockCount × threadCount` threads).
    Fixed(u64),
    /// One work-item per iteration, rounded up to a multiple of the local size (computed at run
    /// time from the loop bounds).
    CoverLoop,
}

/// A multi-dimensional NDRange (CUDA grid of thread blocks) over the loops of a perfect nest:
/// NDRange dimension `d` (0 = the fastest, CUDA's `x`) covers nest loop `loops[d]` (0 = the
/// parallel loop) with `per_group[d]` iterations and `local[d]` work-items per work-group. The
/// number of work-groups along `d` is ⌈trip(loops[d]) / per_group[d]⌉, computed at run time.
/// A dimension with exactly one work-group (a row reduction's lanes, whose global size is
/// `local[d]` whatever the loop's trip) has `per_group[d]` = [`Grid::ONE_GROUP`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Grid {
    pub loops: Vec<usize>,
    pub per_group: Vec<u64>,
    pub local: Vec<u64>,
}

impl Grid {
    /// `per_group` of a dimension one work-group wide: 2^62, so that the skeletons' and host
    /// code's ⌈t / per_group⌉ (computed as `(t + per_group - 1) / per_group` in `long`, and 1
    /// for t ≤ 0) is 1 for every trip t ≤ 2^62 — the contract needs no other change.
    pub const ONE_GROUP: u64 = 1 << 62;
    /// The ten numbers the skeleton protocol and the host code take: dimensions, then
    /// (loop, iterations per group, work-items per group) for each of 3 dimensions.
    pub fn numbers(&self) -> [u64; 10] {
        let mut n = [0, 0, 1, 1, 0, 1, 1, 0, 1, 1];
        n[0] = self.loops.len() as u64;
        for d in 0..self.loops.len().min(3) {
            n[1 + 3 * d] = self.loops[d] as u64;
            n[2 + 3 * d] = self.per_group[d];
            n[3 + 3 * d] = self.local[d];
        }
        n
    }
    /// [`Grid::numbers`] as a C initializer (`{0, 0, 1, 1, ...}` for a 1-D variant, `None`).
    pub fn c_initializer(g: Option<&Grid>) -> String {
        let n = g
            .map(Grid::numbers)
            .unwrap_or([0, 0, 1, 1, 0, 1, 1, 0, 1, 1]);
        let parts: Vec<String> = n.iter().map(|x| x.to_string()).collect();
        format!("{{{}}}", parts.join(", "))
    }
}

/// One generated variant: what a timing skeleton builds and launches, and what the tuned file
/// embeds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Variant {
    pub backend: Backend,
    /// The kernel `orcl_kernel` (OpenCL C or CUDA C++).
    pub source: String,
    /// OpenCL build options; for CUDA, NVRTC options plus orcl's `-orcl-*` launch tokens (see
    /// `cuda::CudaOptions::skeleton_options`).
    pub build_options: String,
    pub global_size: GlobalSize,
    /// Local size (work-items per work-group, threads per block).
    pub local_size: u64,
    /// OpenCL platform index (0 for CUDA).
    pub platform: usize,
    /// OpenCL device index within the platform, or CUDA device ordinal.
    pub device: usize,
    /// Bytes of `__local` / `__shared__` memory the kernel declares.
    pub local_mem_bytes: u64,
    /// A multi-dimensional NDRange (`tile` configurations); `None`: the 1-D launch of
    /// `global_size` × `local_size` (then `local_size` is the product of `grid.local`).
    pub grid: Option<Grid>,
    /// Why the configuration's schedule cannot be valid (a tile that does not fit, ...): such a
    /// variant is never built or launched; `tune` records it as a device-limit outcome.
    pub invalid: Option<String>,
    /// A region holding a time loop (`ir::Steps`): the variant of each kernel of one step, in
    /// launch order, each with its own launch (`global_size`, `local_size`, `grid`) and its
    /// source; `source` is then their program, the kernels named `orcl_kernel_0`, `orcl_kernel_1`,
    /// ... ([`Variant::kernel_name`]), and the fields above are those of kernel 0 (`local_mem_bytes`
    /// the largest). Empty for a region of one kernel, `orcl_kernel`.
    /// The kernel issues sm_90a instructions (`mmaInstruction='wgmma'`): it runs on an NVIDIA
    /// device of compute capability 9.0 (CUDA: built for `compute_90a`, the `-orcl-arch=a` token;
    /// OpenCL: `-D ORCL_SM90A_PTX`, the program's PTX retargeted to sm_90a by the host) and, as its
    /// emulated form, on other OpenCL devices.
    pub sm90a: bool,
    pub parts: Vec<Variant>,
}

impl Variant {
    /// The name of kernel `i` of a variant with [`Variant::parts`].
    pub fn kernel_name(i: usize) -> String {
        format!("orcl_kernel_{i}")
    }
}
