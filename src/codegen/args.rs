//! Transformation arguments, parsed once per region: one table ([`ARGS`]) of every argument of
//! `transform OpenCL(...)` and `transform CUDA(...)` (its name in each backend, the OpenCL↔CUDA
//! aliases, its kind, its default, what it means); [`TransformArgs::parse`] checks a transform's
//! names against it (located errors), [`TransformArgs::bind`] gives a configuration's typed
//! [`Options`] (a value of the wrong type located at the argument's expression).

use crate::target::Backend;
use orcl_frontend::diag::{did_you_mean, Diagnostic, Span};
use orcl_frontend::expr::{KeywordArg, Value};

mod words;
pub use words::Tf32Convert;
use words::{
    async_cache_arg, increment_type_arg, math_mode_arg, mma_instruction_arg, tf32_convert_arg,
};

/// What an argument sets in [`Options`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Groups,
    Local,
    SizeHint,
    VecHint,
    CacheBlocks,
    Unroll,
    Flags,
    Increment,
    InnerThreads,
    VecWidth,
    Tile,
    RegTile,
    PadLocal,
    DoubleBuffer,
    VecLoad,
    LoadItems,
    WarpTile,
    MathMode,
    Stages,
    FragLoad,
    Tf32Convert,
    FragBuffers,
    MinBlocks,
    BlockSwizzle,
    AsyncCache,
    IndexBits,
    PrefetchResult,
    MmaInstruction,
    TransposeRows,
    Device,
    Platform,
    PreferL1,
    /// Accepted for Orio's files, its value checked and not used.
    Ignored,
}

/// How an argument's value is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An integer ≥ `min` (`True`/`False` as 1/0 when `min` ≤ 0), at most `max` (larger values
    /// taken as `max`).
    Int { min: i64, max: i64 },
    /// `True`/`False`, or 1/0.
    Bool,
    /// An integer ≥ `min`, one of `values`; the error names them, then `unit`, and gives `help`.
    OneOf {
        min: i64,
        values: &'static [i64],
        unit: &'static str,
        help: Option<&'static str>,
    },
    /// A string.
    Str,
    /// nvcc-style flags NVRTC can take (see [`crate::cuda::nvrtc_flags`]).
    NvccFlags,
    /// `'global'` or `'local'`.
    Increment,
    /// (loop name, extent ≥ 1) pairs, `[('i',32),('j',8)]`.
    Loops,
    /// `'fp32'` or `'tf32'` ([`MathMode`]).
    MathMode,
    /// `'fragment'`, `'stage'` or `'truncate'` (`tf32Convert`, read as 0, 1, 2).
    Tf32Convert,
    /// `asyncCache`: 'cg' / 'ca' (read as a bool: 'ca').
    AsyncCache,
    /// `fragLoad`: 1, 2, 4 or `'ldmatrix'` (read as [`FRAG_LDMATRIX`]).
    FragLoad,
    /// `mmaInstruction`: 'mma.sync' / 'wgmma' (read as a bool: 'wgmma').
    MmaInstruction,
}

/// `fragLoad='ldmatrix'` as [`NestArgs::frag_load`] holds it.
pub const FRAG_LDMATRIX: u32 = 8;

/// `mathMode`: the arithmetic of a matrix product's multiply-adds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MathMode {
    /// FP32 multiply-adds on the SIMT cores (the default; today's kernels).
    #[default]
    Fp32,
    /// TF32 tensor cores: operands rounded to TF32 (10-bit mantissa, `cvt.rna.tf32.f32`),
    /// products summed in FP32 by `mma.sync.aligned.m16n8k8` (emulated where the device has none).
    Tf32,
    /// FP16 tensor cores on `_Float16` operands: exact products summed in FP32 by
    /// `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`.
    Fp16,
    /// BF16 tensor cores on `__bf16` operands (`...m16n8k16.row.col.f32.bf16.bf16.f32`).
    Bf16,
}

impl MathMode {
    /// A tensor-core mode (`'tf32'`, `'fp16'`, `'bf16'`): the contraction's `mma.sync` form.
    pub fn tensor(self) -> bool {
        self != MathMode::Fp32
    }
    /// The value as written (`'tf32'`), for messages.
    pub fn name(self) -> &'static str {
        match self {
            MathMode::Fp32 => "fp32",
            MathMode::Tf32 => "tf32",
            MathMode::Fp16 => "fp16",
            MathMode::Bf16 => "bf16",
        }
    }
}

/// An argument's name in one backend's transform, where it comes in that transform's list, and
/// its meaning there.
#[derive(Debug, Clone, Copy)]
pub struct Name {
    pub name: &'static str,
    pub rank: u8,
    pub meaning: &'static str,
}

/// One row of [`ARGS`].
#[derive(Debug, Clone, Copy)]
pub struct Arg {
    pub key: Key,
    pub kind: Kind,
    /// Its default, as the documentation states it.
    pub default: &'static str,
    /// Its names in `transform OpenCL(...)` (an alias after the first) and `transform CUDA(...)`.
    pub opencl: &'static [Name],
    pub cuda: &'static [Name],
    /// Same meaning in both backends: an annotation's transform for one backend carries it to
    /// the other (`Prepared::transform_args`).
    pub shared: bool,
    /// Accepted for Orio's files without effect: why (the compatibility warning).
    pub no_effect: Option<&'static str>,
}

const fn n(name: &'static str, rank: u8, meaning: &'static str) -> Name {
    Name {
        name,
        rank,
        meaning,
    }
}

const WIDTHS_OPENCL: &[i64] = &[1, 2, 4, 8, 16];
const WIDTHS_4: &[i64] = &[1, 2, 4];
/// `vecLoad`: 8 for 16-bit elements (16 bytes); wider than 16 bytes is refused by the schedule.
const WIDTHS_8: &[i64] = &[1, 2, 4, 8];
const INT1: Kind = Kind::Int {
    min: 1,
    max: i64::MAX,
};
const INT0: Kind = Kind::Int {
    min: 0,
    max: i64::MAX,
};

/// One argument row (no effect: `None`).
const fn arg(
    key: Key,
    kind: Kind,
    default: &'static str,
    opencl: &'static [Name],
    cuda: &'static [Name],
    shared: bool,
) -> Arg {
    Arg {
        key,
        kind,
        default,
        opencl,
        cuda,
        shared,
        no_effect: None,
    }
}

/// Every transformation argument of both backends (a flat table).
#[rustfmt::skip]
pub const ARGS: &[Arg] = &[
    arg(Key::Groups, INT1, "enough to cover the loop",
        &[n("workGroups", 0, "number of work-groups (global size = workGroups × workItemsPerGroup); default: enough to cover the loop"),
          n("blockCount", 20, "Orio's CUDA spelling of workGroups, taken as it (Orio's OpenCL module does the same)")],
        &[n("blockCount", 1, "number of thread blocks (grid size); default: enough to give each iteration a thread")], true),
    arg(Key::Local, INT1, "128",
        &[n("workItemsPerGroup", 1, "work-items per work-group (local size); default 128"),
          n("threadCount", 19, "Orio's CUDA spelling of workItemsPerGroup, taken as it (Orio's OpenCL module does the same)")],
        &[n("threadCount", 0, "threads per block; default 128")], true),
    arg(Key::SizeHint, Kind::Bool, "False",
        &[n("sizeHint", 2, "add work_group_size_hint and reqd_work_group_size attributes (bool)")],
        &[n("launchBounds", 6, "__launch_bounds__(threadCount) on the kernel (bool)")], true),
    arg(Key::VecHint, Kind::OneOf { min: 0, values: &[0, 1, 2, 3, 4, 8, 16], unit: "", help: None }, "0",
        &[n("vecHint", 3, "vec_type_hint width: 0 (none), 1, 2, 3, 4, 8 or 16")], &[], false),
    arg(Key::CacheBlocks, Kind::Bool, "False",
        &[n("cacheBlocks", 4, "stage read-only inputs through __local memory (bool): arrays subscripted by the parallel index, and an inner loop's shared operand (x[j] of t += A[i*n+j]*x[j]) in tiles of the local size")],
        &[n("cacheBlocks", 2, "stage read-only inputs through __shared__ memory (bool)")], true),
    arg(Key::Unroll, Kind::Int { min: 1, max: 1 << 16 }, "1",
        &[n("unrollInner", 5, "#pragma unroll factor for the innermost loop; 1 = no pragma")],
        &[n("unrollInner", 3, "#pragma unroll factor for the innermost loop; 1 = no pragma")], true),
    arg(Key::Flags, Kind::Str, "''",
        &[n("clFlags", 6, "OpenCL build options (string), e.g. '-cl-fast-relaxed-math'")], &[], false),
    arg(Key::Flags, Kind::NvccFlags, "''", &[],
        &[n("cudaFlags", 9, "nvcc-style flags, e.g. '-use_fast_math', '-Xptxas -dlcm=cg', '-maxrregcount=32' (string)")], false),
    arg(Key::Increment, Kind::Increment, "'global'",
        &[n("incrementType", 7, "'global': work-items stride by the global size (default); 'local': each work-group owns one contiguous chunk (ViennaCL study, section 2)")],
        &[n("incrementType", 5, "'global': threads stride by the grid size (default); 'local': each block owns one contiguous chunk")], true),
    arg(Key::InnerThreads, INT1, "1",
        &[n("innerThreads", 8, "work-items (lanes) sharing one iteration of the parallel loop: they split its inner reduction loop (t += ..., y[i] += ...) lane-strided and combine in __local memory; 1 (default) to workItemsPerGroup (a value that does not divide it idles the remainder); give workGroups too, as the default NDRange has one work-item per iteration")],
        &[n("innerThreads", 4, "threads that share one iteration's inner reduction loop (1 = none)")], true),
    arg(Key::VecWidth, Kind::OneOf { min: 1, values: WIDTHS_OPENCL, unit: "", help: None }, "1",
        &[n("vecWidth", 9, "iterations per work-item through vector loads and stores (vloadN/vstoreN) with a scalar tail: 1 (default), 2, 4, 8, or 16 for 4-byte data; 1-D unit-step loops whose subscripts are the index plus a constant; cacheBlocks is ignored with it")], &[], false),
    arg(Key::VecWidth, Kind::OneOf { min: 1, values: WIDTHS_4, unit: "", help: None }, "1", &[],
        &[n("vecWidth", 17, "with tile on a matrix product: 1, 2 or 4 adjacent outputs per thread along each dimension, read from the shared tiles as one vector")], false),
    arg(Key::Tile, Kind::Loops, "[] (the 1-D map)",
        &[n("tile", 10, "loop nests: [('i',TI),('j',TJ)] maps the named outermost parallel loops onto a 2-D/3-D NDRange, TI×TJ iterations per work-group (workGroups, workItemsPerGroup, innerThreads and incrementType are then not used; vecWidth only for a matrix product); a matrix product (i, j parallel, a reduction loop l inside) also takes ('l',TK), the k-slab; edges guarded")],
        &[n("tile", 10, "loop nests: [('i',TI),('j',TJ)] maps the named outermost parallel loops onto a 2-D/3-D grid, TI×TJ iterations per block (threadCount, blockCount, innerThreads and incrementType are then not used); a matrix product (i, j parallel, a reduction loop l inside) also takes ('l',TK), the k-slab; edges guarded")], true),
    arg(Key::RegTile, Kind::Loops, "[] (1 per tiled loop)",
        &[n("regTile", 11, "with tile: [('i',RI),('j',RJ)] iterations per work-item along each tiled loop (the work-group has TI/RI × TJ/RJ work-items)")],
        &[n("regTile", 11, "with tile: [('i',RI),('j',RJ)] iterations per thread along each tiled loop (the block has TI/RI × TJ/RJ threads)")], true),
    arg(Key::PadLocal, Kind::Int { min: 0, max: 64 }, "0",
        &[n("padLocal", 12, "with tile on a matrix product: elements of padding per local tile row against bank conflicts (0 = none)")],
        &[n("padLocal", 12, "with tile on a matrix product: elements of padding per local tile row against bank conflicts (0 = none)")], true),
    arg(Key::DoubleBuffer, Kind::Bool, "False",
        &[n("doubleBuffer", 13, "with tile and cacheBlocks on a matrix product: two local buffers per staged operand, the next k-slab loaded into registers while the current one is computed, one barrier per slab (bool; no effect when nothing is staged)")],
        &[n("doubleBuffer", 13, "with tile and cacheBlocks on a matrix product: two shared buffers per staged operand, the next k-slab loaded into registers while the current one is computed, one barrier per slab (bool; no effect when nothing is staged)")], true),
    arg(Key::VecLoad, Kind::OneOf { min: 1, values: WIDTHS_8, unit: "", help: None }, "1",
        &[n("vecLoad", 14, "with tile and cacheBlocks on a matrix product: the global-to-local k-slab loads read 1 (default), 2, 4 or 8 elements adjacent along each staged operand's contiguous dimension as one vector (float4, double2, eight 16-bit elements; at most 16 bytes), falling back to scalar loads at the edges and at unaligned addresses; it must divide the slab's contiguous extent (TK for a row-major A, TI or TJ otherwise)")],
        &[n("vecLoad", 14, "with tile and cacheBlocks on a matrix product: the global-to-shared k-slab loads read 1 (default), 2, 4 or 8 elements adjacent along each staged operand's contiguous dimension as one vector (float4, double2, eight 16-bit elements; at most 16 bytes), falling back to scalar loads at the edges and at unaligned addresses; it must divide the slab's contiguous extent (TK for a row-major A, TI or TJ otherwise)")], true),
    arg(Key::LoadItems, Kind::Loops, "the slab linearised",
        &[n("loadItems", 15, "with tile, cacheBlocks and a k-slab on a matrix product: [('i',MA),('j',NB)] work-items side by side along the contiguous dimension of the staged operand that varies with each named loop while loading its slab (CLBlast's MDIMA/NDIMB; 1 puts consecutive work-items across rows, which makes the transposed local store of a row-major A conflict-free); it must divide the row's vecLoad groups and the work-group; default: the slab linearised")],
        &[n("loadItems", 15, "with tile, cacheBlocks and a k-slab on a matrix product: [('i',MA),('j',NB)] work-items side by side along the contiguous dimension of the staged operand that varies with each named loop while loading its slab (CLBlast's MDIMA/NDIMB; 1 puts consecutive work-items across rows, which makes the transposed shared store of a row-major A conflict-free); it must divide the row's vecLoad groups and the work-group; default: the slab linearised")], true),
    arg(Key::WarpTile, Kind::Loops, "rows",
        &[n("warpTile", 16, "with tile on a matrix product: [('i',WI),('j',WJ)] each run of WI×WJ consecutive work-items (a warp when 32) computes a WI × WJ block of the (TI/RI) × (TJ/RJ) work-item grid instead of a row of it, so fewer distinct local addresses are read per warp (warp-level tiling); each must divide the work-items along its loop; default: rows")],
        &[n("warpTile", 16, "with tile on a matrix product: [('i',WI),('j',WJ)] each run of WI×WJ consecutive work-items (a warp when 32) computes a WI × WJ block of the (TI/RI) × (TJ/RJ) work-item grid instead of a row of it, so fewer distinct shared addresses are read per warp (warp-level tiling); each must divide the work-items along its loop; default: rows")], true),
    arg(Key::MathMode, Kind::MathMode, "'fp32'",
        &[n("mathMode", 16, "with tile on a matrix product: 'fp32' (default: FP32 multiply-adds), 'tf32' (float arrays on TF32 tensor cores, mma.sync m16n8k8 with FP32 accumulation), 'fp16' / 'bf16' (_Float16 / __bf16 arrays, mma.sync m16n8k16, k-slab a multiple of 16; warpTile then gives each warp's output tile, and the k-slab must be a multiple of 8; emulated lane by lane where the device has no tensor cores); see docs/GEMM.md")],
        &[n("mathMode", 16, "with tile on a matrix product: 'fp32' (default: FP32 multiply-adds), 'tf32' (float arrays on TF32 tensor cores, mma.sync m16n8k8 with FP32 accumulation), 'fp16' / 'bf16' (_Float16 / __bf16 arrays, mma.sync m16n8k16, k-slab a multiple of 16; warpTile then gives each warp's output tile, and the k-slab must be a multiple of 8; emulated below sm_80); see docs/GEMM.md")], true),
    arg(Key::Stages, Kind::OneOf { min: 1, values: &[1, 2, 3, 4, 5, 6], unit: "", help: None }, "1",
        &[n("stages", 16, "with mathMode='tf32': shared buffers per staged operand filled by asynchronous copies (cp.async on NVIDIA OpenCL; plain loads elsewhere), up to STAGES-1 k-slabs in flight while one is computed (STAGES-2 with mmaInstruction='wgmma'), one barrier per slab (CUTLASS's Stages; 1 to 6); 1 (default) = none; not with doubleBuffer")],
        &[n("stages", 16, "with mathMode='tf32': shared buffers per staged operand filled by asynchronous copies (cp.async, sm_80+; plain loads below), up to STAGES-1 k-slabs in flight while one is computed (STAGES-2 with mmaInstruction='wgmma'), one barrier per slab (CUTLASS's Stages; 1 to 6); 1 (default) = none; not with doubleBuffer")], true),
    arg(Key::FragLoad, Kind::FragLoad, "1",
        &[n("fragLoad", 16, "with mathMode='tf32' ('ldmatrix' also with 'fp16'/'bf16', where it reads either tile layout, .trans for a k-major one): fragment registers each local-memory read fills (1 = one 32-bit read per register, the default; 2 or 4 = one 64/128-bit read of a k-contiguous tile, the k order within the mma permuted to match and the local tiles padded or XOR-swizzled so the reads stay conflict-free; 4 needs a k-slab multiple of 16; 'ldmatrix': ldmatrix.sync.aligned.m8n8.x4 of a k-contiguous tile, four registers per instruction, the PTX fragment layout kept); see docs/GEMM.md")],
        &[n("fragLoad", 16, "with mathMode='tf32' ('ldmatrix' also with 'fp16'/'bf16', where it reads either tile layout, .trans for a k-major one): fragment registers each shared-memory read fills (1 = one 32-bit ld.shared per register, the default; 2 or 4 = one ld.shared.v2/v4 of a k-contiguous tile, the k order within the mma permuted to match and the shared tiles padded or XOR-swizzled so the reads stay conflict-free; 4 needs a k-slab multiple of 16; 'ldmatrix': ldmatrix.sync.aligned.m8n8.x4 of a k-contiguous tile, four registers per instruction, the PTX fragment layout kept); see docs/GEMM.md")], true),
    arg(Key::Tf32Convert, Kind::Tf32Convert, "'fragment'",
        &[n("tf32Convert", 16, "with mathMode='tf32': where float inputs are rounded to TF32 (cvt.rna.tf32.f32): 'fragment' (default) each fragment register after its local read; 'stage' once per element when the slab is staged (in registers before the local store, or in place after the cp.async wait with stages), so fragment reads feed mma.sync directly; 'truncate' none: mma.sync reads the float bits, ignoring the low 13 mantissa bits (validated at the truncation's tolerance 2^-9*sqrt(k)); see docs/GEMM.md")],
        &[n("tf32Convert", 16, "with mathMode='tf32': where float inputs are rounded to TF32 (cvt.rna.tf32.f32): 'fragment' (default) each fragment register after its shared read; 'stage' once per element when the slab is staged (in registers before the shared store, or in place after the cp.async wait with stages), so fragment reads feed mma.sync directly; 'truncate' none: mma.sync reads the float bits, ignoring the low 13 mantissa bits (validated at the truncation's tolerance 2^-9*sqrt(k)); see docs/GEMM.md")], true),
    arg(Key::FragBuffers, Kind::OneOf { min: 1, values: &[1, 2], unit: "", help: None }, "1",
        &[n("fragBuffers", 16, "with mathMode='fp16'/'bf16' and fragLoad='ldmatrix': register sets of warp fragments (CUTLASS's double-buffered warp_frag_A/B[2]): 1 (default) reads each k-step's fragments, then issues its mma.sync; 2 reads k-step s+1's fragments before issuing step s's mma.sync, so the local reads overlap the tensor cores (twice the fragment registers); see docs/GEMM.md")],
        &[n("fragBuffers", 16, "with mathMode='fp16'/'bf16' and fragLoad='ldmatrix': register sets of warp fragments (CUTLASS's double-buffered warp_frag_A/B[2]): 1 (default) reads each k-step's fragments, then issues its mma.sync; 2 reads k-step s+1's fragments before issuing step s's mma.sync, so the shared reads overlap the tensor cores (twice the fragment registers); see docs/GEMM.md")], true),
    arg(Key::MinBlocks, Kind::Int { min: 1, max: 32 }, "1", &[],
        &[n("minBlocks", 16, "with tile: blocks of the kernel that must fit on one multiprocessor at once, the second argument of __launch_bounds__(threads, minBlocks) (CUTLASS's MinBlocksPerMultiprocessor): ptxas then keeps each thread within 65536 / (threads × minBlocks) registers, spilling if it must; 1 (default) = no such bound; a block count whose threads exceed the multiprocessor's 2048 is pruned as device_limit; see docs/GEMM.md")], true),
    arg(Key::BlockSwizzle, Kind::OneOf { min: 1, values: &[1, 2, 4, 8, 16], unit: "", help: None }, "1",
        &[n("blockSwizzle", 16, "with mathMode='tf32'/'fp16'/'bf16': work-groups in launch order walk down groups of S tile rows before moving along them (CUTLASS's GemmIdentityThreadblockSwizzle<S>), so the work-groups in flight share A's and B's slabs in L2; 1 (default) = row by row; see docs/GEMM.md")],
        &[n("blockSwizzle", 16, "with mathMode='tf32'/'fp16'/'bf16': blocks in launch order walk down groups of S tile rows before moving along them (CUTLASS's GemmIdentityThreadblockSwizzle<S>), so the blocks in flight share A's and B's slabs in L2; 1 (default) = row by row; see docs/GEMM.md")], true),
    arg(Key::AsyncCache, Kind::AsyncCache, "'cg'",
        &[n("asyncCache", 16, "with stages: the cache operator of the 16-byte cp.async copies (CUTLASS's CacheOperation): 'cg' (default; Global: L2 only) or 'ca' (Always: L1 and L2); copies of 4 or 8 bytes are always .ca; see docs/GEMM.md")],
        &[n("asyncCache", 16, "with stages: the cache operator of the 16-byte cp.async copies (CUTLASS's CacheOperation): 'cg' (default; Global: L2 only) or 'ca' (Always: L1 and L2); copies of 4 or 8 bytes are always .ca; see docs/GEMM.md")], true),
    arg(Key::IndexBits, Kind::OneOf { min: 32, values: &[32, 64], unit: "", help: None }, "64",
        &[n("indexBits", 16, "with mathMode='tf32'/'fp16'/'bf16': the width of the kernel's ids, tile offsets and loop counters (CUTLASS's Index / LongIndex): 64 (default, long) or 32 (int: fewer instructions and registers; needs int loop variables); see docs/GEMM.md")],
        &[n("indexBits", 16, "with mathMode='tf32'/'fp16'/'bf16': the width of the kernel's ids, tile offsets and loop counters (CUTLASS's Index / LongIndex): 64 (default, long) or 32 (int: fewer instructions and registers; needs int loop variables); see docs/GEMM.md")], true),
    arg(Key::PrefetchResult, Kind::OneOf { min: 0, values: &[0, 1, 2], unit: "", help: None }, "0",
        &[n("prefetchResult", 16, "with mathMode='tf32'/'fp16'/'bf16' and stages > 1, where the loop's statements after the product read global arrays (C = alpha*s + beta*C): the k-slab, counted back from the last (1 = the last, 2 = the one before), at whose start each work-item issues prefetch.global.L2 for the cache lines its results will read, so the epilogue's reads find L2 instead of memory; 0 (default) = none; no effect without such reads; see docs/GEMM.md")],
        &[n("prefetchResult", 16, "with mathMode='tf32'/'fp16'/'bf16' and stages > 1, where the loop's statements after the product read global arrays (C = alpha*s + beta*C): the k-slab, counted back from the last (1 = the last, 2 = the one before), at whose start each work-item issues prefetch.global.L2 for the cache lines its results will read, so the epilogue's reads find L2 instead of memory; 0 (default) = none; no effect without such reads; see docs/GEMM.md")], true),
    arg(Key::MmaInstruction, Kind::MmaInstruction, "'mma.sync'",
        &[n("mmaInstruction", 16, "with mathMode='fp16'/'bf16'/'tf32': the tensor-core instruction: 'mma.sync' (default: each warp's 16 x 8 blocks) or 'wgmma' (wgmma.mma_async, sm_90a: warpgroups of 4 warps, warpTile=[('i',64),('j',WN)] each, operands read by the tensor cores from 128-byte-swizzled local tiles, k-slab 64 (TF32: 32), stages >= 3, vecLoad=8 (TF32: 4; inputs truncated to TF32); NVIDIA's OpenCL on compute capability 9.0 runs it with the program's PTX retargeted to sm_90a by orcl's host code, other OpenCL devices run its emulated form, other NVIDIA devices prune it as device_limit); see docs/GEMM.md")],
        &[n("mmaInstruction", 16, "with mathMode='fp16'/'bf16'/'tf32': the tensor-core instruction: 'mma.sync' (default: each warp's 16 x 8 blocks) or 'wgmma' (wgmma.mma_async, sm_90a: warpgroups of 4 warps, warpTile=[('i',64),('j',WN)] each with WN a multiple of 64 up to 256, operands read by the tensor cores from 128-byte-swizzled shared tiles, k-slab 64 (TF32: 32), stages >= 3, vecLoad=8 (TF32: 4; both operands k-contiguous, inputs truncated to TF32); built for compute_90a, pruned as device_limit on any other device); see docs/GEMM.md")], true),
    arg(Key::TransposeRows, Kind::OneOf { min: 1, values: &[1, 2, 4], unit: "", help: None }, "the largest of 4 and 2 that fits, else 1",
        &[n("transposeRows", 16, "with mmaInstruction='wgmma' and mathMode='tf32', where an operand contiguous along its tile (B of NN/TN, A of TN/TT) is transposed into its K-major tile: k-rows per work-item block of that operand (the register transpose): 1: each work-item loads float4 groups of one k-row and stores their 4 elements with 4 scalar stores in a rotated order; 2 or 4: each work-item loads that many consecutive k-rows of the same 4 columns and stores each column as one 8- or 16-byte K-major chunk (st.shared.v2/v4: 2 or 4x fewer local stores, no selects), pairs of work-items side by side along the tile so a half- or quarter-warp's chunks meet distinct banks under the 128-byte swizzle; loadItems of that operand is then not used; the transposed slab's vecLoad groups must be a multiple of the work-group times it; default: the largest of 4 and 2 that fits, else 1; see docs/GEMM.md")],
        &[n("transposeRows", 16, "with mmaInstruction='wgmma' and mathMode='tf32', where an operand contiguous along its tile (B of NN/TN, A of TN/TT) is transposed into its K-major tile: k-rows per work-item block of that operand (the register transpose): 1: each work-item loads float4 groups of one k-row and stores their 4 elements with 4 scalar stores in a rotated order; 2 or 4: each work-item loads that many consecutive k-rows of the same 4 columns and stores each column as one 8- or 16-byte K-major chunk (st.shared.v2/v4: 2 or 4x fewer local stores, no selects), pairs of work-items side by side along the tile so a half- or quarter-warp's chunks meet distinct banks under the 128-byte swizzle; loadItems of that operand is then not used; the transposed slab's vecLoad groups must be a multiple of the work-group times it; default: the largest of 4 and 2 that fits, else 1; see docs/GEMM.md")], true),
    arg(Key::Device, INT0, "0",
        &[n("device", 17, "device index within the platform")],
        &[n("device", 18, "CUDA device ordinal")], true),
    arg(Key::Platform, INT0, "0", &[n("platform", 18, "OpenCL platform index")], &[], false),
    Arg { no_effect: Some("Orio's OpenCL module parses it and never uses it; orcl uses one command queue"),
        ..arg(Key::Ignored, INT1, "1",
        &[n("streamCount", 21, "accepted for Orio's files and ignored (Orio's OpenCL module parses it and never uses it): one command queue")], &[], false) },
    Arg { no_effect: Some("orcl issues the copies and the kernel on one CUDA stream; configurations that differ only in streamCount are one variant, measured once"),
        ..arg(Key::Ignored, INT1, "1", &[],
        &[n("streamCount", 7, "CUDA streams the copies and the kernel are split over (Orio); accepted, but orcl always uses one stream: values > 1 are the same variant as 1")], false) },
    arg(Key::PreferL1, Kind::OneOf { min: 0, values: &[0, 16, 32, 48], unit: " (KB)", help: Some("0: no preference, 16: prefer shared memory, 32: equal split, 48: prefer L1") }, "0", &[],
        &[n("preferL1Size", 8, "L1/shared-memory split preference in KB (cuFuncSetCacheConfig): 0 none, 16 prefer shared, 32 equal, 48 prefer L1")], false),
    Arg { no_effect: Some("the skeleton's host buffers are pageable; the 'kernel' objective does not time copies"),
        ..arg(Key::Ignored, Kind::Bool, "False", &[],
        &[n("pinHostMem", 19, "Orio: page-locked host buffers (bool); accepted without effect: the skeleton's host buffers are pageable and the 'kernel' objective does not time copies")], false) },
    Arg { no_effect: Some("the skeleton keeps the data on the device across its timed runs already"),
        ..arg(Key::Ignored, Kind::Bool, "False", &[],
        &[n("dataOnDevice", 20, "Orio: keep the data on the device between calls (bool); accepted without effect: the skeleton copies once per validation run, and timed runs reuse device buffers already")], false) },
    Arg { no_effect: Some("orcl generates one kernel per loop; there are no named domains"),
        ..arg(Key::Ignored, Kind::Str, "''", &[],
        &[n("domain", 21, "Orio: a named domain of the generated code (string); accepted without effect")], false) },
];

/// The names `backend`'s transform takes, with their meaning, in the order its help lists them.
pub fn names(backend: Backend) -> Vec<(&'static str, &'static str)> {
    let mut all: Vec<Name> = ARGS
        .iter()
        .flat_map(|a| a.names(backend).iter().copied())
        .collect();
    all.sort_by_key(|x| x.rank);
    all.into_iter().map(|x| (x.name, x.meaning)).collect()
}

impl Arg {
    /// Its names in `backend`'s transform (none: the backend does not take it).
    pub fn names(&self, backend: Backend) -> &'static [Name] {
        match backend {
            Backend::OpenCl => self.opencl,
            Backend::Cuda => self.cuda,
        }
    }

    /// The row of argument `name` of `backend`'s transform.
    pub fn find(backend: Backend, name: &str) -> Option<&'static Arg> {
        ARGS.iter()
            .find(|a| a.names(backend).iter().any(|x| x.name == name))
    }
}

/// The loop-nest transformation arguments of one configuration (both transforms take them).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NestArgs {
    /// `tile=[('i',TI),('j',TJ)]`: iterations per work-group along each named loop, with the
    /// span of the loop's name.
    pub tile: Vec<(String, u64, Span)>,
    /// `regTile=[('i',RI),('j',RJ)]`: iterations per work-item along each named loop.
    pub reg_tile: Vec<(String, u64, Span)>,
    /// `cacheBlocks`: stage the read-only arrays whose references are affine in the tiled loops.
    pub cache_blocks: bool,
    /// `unrollInner`: `#pragma unroll` factor of the loops inside the body (1 = none).
    pub unroll: u32,
    /// `sizeHint` (OpenCL) / `launchBounds` (CUDA): declare the work-group extents.
    pub size_hint: bool,
    /// `padLocal`: elements added to each row of a contraction's local tiles (0 = none).
    pub pad_local: u64,
    /// `vecWidth`: a contraction's per-work-item outputs along each NDRange dimension come in
    /// groups of this many adjacent elements, read from the local tiles as one vector (1 = none).
    pub vec_width: u32,
    /// `doubleBuffer`: a contraction's staged slabs alternate between two local buffers, the
    /// next slab's loads issued into registers before the current slab is computed (one barrier
    /// per slab instead of two). No effect when nothing is staged.
    pub double_buffer: bool,
    /// `vecLoad`: a contraction's cooperative global→local slab loads read this many elements
    /// adjacent along each staged operand's contiguous dimension as one vector (`float4`,
    /// `double2`), falling back to scalar loads at edges and unaligned addresses (1 = scalar).
    pub vec_load: u32,
    /// `loadItems=[('i',MA),('j',NB)]`: work-items side by side along the contiguous dimension of
    /// the staged operand that varies with each named loop, when loading its slab (CLBlast's
    /// MDIMA / NDIMB); an unnamed loop's operand is loaded as one linearised slab.
    pub load_items: Vec<(String, u64, Span)>,
    /// `warpTile=[('i',WI),('j',WJ)]`: each run of WI·WJ consecutive work-items (a warp when it
    /// is 32) computes a WI × WJ block of a contraction's work-item grid instead of a row of it.
    pub warp_tile: Vec<(String, u64, Span)>,
    /// `mathMode`: FP32 multiply-adds, or TF32 tensor cores (then `warp_tile` is each warp's
    /// output tile, CUTLASS's WarpShape).
    pub math_mode: MathMode,
    /// `stages`: shared buffers per staged operand of the tensor-core form, filled by
    /// asynchronous copies (`cp.async`) up to `stages - 1` k-slabs ahead (0 or 1: none).
    pub stages: u32,
    /// `fragLoad`: fragment registers of the tensor-core form filled by one local-memory read of
    /// a k-contiguous tile (1, 2 or 4; 0 or 1: one 32-bit read per register;
    /// [`FRAG_LDMATRIX`]: `ldmatrix` of a k-contiguous tile).
    pub frag_load: u32,
    /// `tf32Convert`: where the tensor-core form turns float inputs into TF32.
    pub tf32_convert: Tf32Convert,
    /// `fragBuffers`: register sets of the tensor-core form's warp fragments (0 or 1: one; 2: the
    /// next k-step's fragments read before the current step's mma).
    pub frag_buffers: u32,
    /// `minBlocks` (CUDA): the second argument of `__launch_bounds__`; 0 or 1: none.
    pub min_blocks: u32,
    /// `blockSwizzle` S of the tensor-core form: work-groups walk groups of S tile rows (0 or 1:
    /// row by row).
    pub block_swizzle: u32,
    /// `asyncCache='ca'`: 16-byte `cp.async` copies as `.ca` (else `.cg`).
    pub async_ca: bool,
    /// `indexBits`: 32 (`int` ids and loop counters in the tensor-core form) or 64 / 0 (`long`).
    pub index_bits: u32,
    /// `prefetchResult`: 0 (none) or the k-slab, counted back from the last (1), at which the
    /// tensor-core form prefetches into L2 the lines its result statements read.
    pub prefetch_result: u32,
    /// `mmaInstruction='wgmma'`: the tensor-core form (16-bit, or TF32 with both operands
    /// k-contiguous) issues `wgmma.mma_async` per warpgroup (sm_90a) instead of `mma.sync` per warp.
    pub wgmma: bool,
    /// `transposeRows` (TF32 `wgmma`): k-rows per work-item block of an operand transposed into
    /// its K-major tile (1: element stores; 2 or 4: 8- or 16-byte chunk stores; 0: not given,
    /// the largest that fits).
    pub transpose_rows: u32,
}

/// Whether a transform's configurations may read float operands on TF32 tensor cores, and how
/// (what validation must allow for; [`TransformArgs::may_use_tf32`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tf32Use {
    /// `mathMode` is the constant 'fp32': FP32 arithmetic only.
    No,
    /// `mma.sync` with its inputs rounded (`cvt.rna.tf32.f32`).
    Rounded,
    /// Possibly `wgmma` or `tf32Convert='truncate'`, which read the staged FP32 bits and ignore
    /// their low 13 (truncation).
    Truncated,
}

/// A transform's arguments with their names checked, each with its row of [`ARGS`]: parsed once
/// per region, bound to each configuration's values by [`TransformArgs::bind`].
#[derive(Debug, Clone)]
pub struct TransformArgs {
    pub backend: Backend,
    entries: Vec<(&'static Arg, KeywordArg)>,
}

impl TransformArgs {
    /// Check the argument names of `transform OpenCL(...)` / `transform CUDA(...)` against
    /// [`ARGS`]: unknown names (with a did-you-mean) and repeated names are errors, and so is an
    /// argument given under both of its names (`threadCount` and `workItemsPerGroup`), located at
    /// the name.
    pub fn parse(backend: Backend, args: &[KeywordArg]) -> Result<TransformArgs, Diagnostic> {
        let label = backend.transform();
        let mut entries: Vec<(&'static Arg, KeywordArg)> = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let Some(row) = Arg::find(backend, &a.name) else {
                let all: Vec<&str> = names(backend).into_iter().map(|(n, _)| n).collect();
                let d = Diagnostic::new(
                    a.name_span,
                    format!("unknown {label} transformation argument `{}`", a.name),
                );
                return Err(match did_you_mean(&a.name, all.iter().copied()) {
                    Some(h) => d.with_help(h),
                    None => d.with_help(format!("the {label} transform takes {}", all.join(", "))),
                });
            };
            if args[..k].iter().any(|b| b.name == a.name) {
                return Err(Diagnostic::new(
                    a.name_span,
                    format!("`{}` is given twice", a.name),
                ));
            }
            entries.push((row, a.clone()));
        }
        // Orio's CUDA spellings (threadCount, blockCount) stand for the OpenCL arguments.
        for (k, (row, a)) in entries.iter().enumerate() {
            if entries[..k].iter().any(|(r, _)| std::ptr::eq(*r, *row)) {
                let name = row.names(backend)[0].name;
                return Err(Diagnostic::new(
                    a.name_span,
                    format!("`{}` gives `{name}` a second time", a.name),
                )
                .with_help("threadCount is Orio's other name of workItemsPerGroup, blockCount of workGroups: give one of each pair"));
            }
        }
        Ok(TransformArgs { backend, entries })
    }

    /// The arguments as written.
    pub fn keyword_args(&self) -> Vec<KeywordArg> {
        self.entries.iter().map(|(_, a)| a.clone()).collect()
    }

    /// These arguments carried to the transform of backend `to`: those with the same meaning in
    /// both ([`Arg::shared`], renamed: workGroups ↔ blockCount, workItemsPerGroup ↔ threadCount,
    /// sizeHint ↔ launchBounds, ...), and `vecWidth` when `tile` is given (a matrix product's
    /// vector width on both backends). Backend-specific arguments are not carried over.
    pub fn carried_to(&self, to: Backend) -> TransformArgs {
        let tiled = self.entries.iter().any(|(r, _)| r.key == Key::Tile);
        let entries = self
            .entries
            .iter()
            .filter_map(|(row, a)| {
                let row: &'static Arg = if row.shared && row.names(self.backend)[0].name == a.name {
                    row
                } else if tiled && a.name == "vecWidth" {
                    Arg::find(to, "vecWidth")?
                } else {
                    return None;
                };
                let mut b = a.clone();
                b.name = row.names(to).first()?.name.to_string();
                Some((row, b))
            })
            .collect();
        TransformArgs {
            backend: to,
            entries,
        }
    }

    /// The typed arguments of one configuration (`env` gives param values).
    ///
    /// Errors: an expression that does not evaluate, an ill-typed or out-of-range value, or
    /// `cudaFlags` that NVRTC cannot take, located at the argument's expression.
    pub fn bind(&self, env: &dyn Fn(&str) -> Option<Value>) -> Result<Options, Diagnostic> {
        let mut o = Options::new(self.backend);
        for (row, a) in &self.entries {
            let v = a.expr.eval(env)?;
            o.spans.push((row.key, a.expr.span));
            o.set(row.key, read(row.kind, v, a)?);
        }
        Ok(o)
    }

    /// Whether some configuration may bind `mathMode='tf32'`: the transform has a `mathMode`
    /// argument whose expression is not the constant `'fp32'` (a parameter's value, or `'tf32'`);
    /// and whether it may then bind `mmaInstruction='wgmma'` (an `mmaInstruction` argument that is
    /// not the constant `'mma.sync'`) or `tf32Convert='truncate'` (a `tf32Convert` argument that is
    /// neither the constant `'fragment'` nor `'stage'`), whose TF32 operands are truncated, not
    /// rounded. The timing skeleton validates at the tolerance this gives
    /// (`skeleton::tf32_tolerance`, `skeleton::tf32_truncated_tolerance`).
    pub fn may_use_tf32(&self) -> Tf32Use {
        let not = |key: Key, value: &str| {
            self.entries.iter().any(|(row, a)| {
                row.key == key && !matches!(a.expr.eval(&|_| None), Ok(Value::Str(s)) if s == value)
            })
        };
        // `tf32Convert` other than a constant 'fragment' / 'stage' may bind 'truncate'.
        let truncate = not(Key::Tf32Convert, "fragment") && not(Key::Tf32Convert, "stage");
        match (
            not(Key::MathMode, "fp32"),
            not(Key::MmaInstruction, "mma.sync") || truncate,
        ) {
            (false, _) => Tf32Use::No,
            (true, false) => Tf32Use::Rounded,
            (true, true) => Tf32Use::Truncated,
        }
    }

    /// The bound `platform` and `device` arguments of one configuration (what selects the
    /// device), without reading the others' values.
    ///
    /// Errors: as [`TransformArgs::bind`], for these two arguments.
    pub fn device(
        &self,
        env: &dyn Fn(&str) -> Option<Value>,
    ) -> Result<(usize, usize), Diagnostic> {
        let mut o = Options::new(self.backend);
        for (row, a) in &self.entries {
            if matches!(row.key, Key::Platform | Key::Device) {
                o.set(row.key, read(row.kind, a.expr.eval(env)?, a)?);
            }
        }
        Ok((o.platform, o.device))
    }
}

/// A value as its kind reads it.
enum Read {
    Int(i64),
    Bool(bool),
    Str(String),
    Loops(Vec<(String, u64, Span)>),
    Math(MathMode),
}

/// Read `v`, the value of argument `a`, as `kind`. Errors: located at the argument's expression.
fn read(kind: Kind, v: Value, a: &KeywordArg) -> Result<Read, Diagnostic> {
    Ok(match kind {
        Kind::Int { min, max } => Read::Int(int_arg(&v, a, min)?.min(max)),
        Kind::Bool => Read::Bool(bool_arg(&v, a)?),
        Kind::OneOf {
            min,
            values,
            unit,
            help,
        } => Read::Int(one_of(&v, a, min, values, unit, help)?),
        Kind::Str | Kind::NvccFlags => match v {
            Value::Str(s) => {
                if kind == Kind::NvccFlags {
                    nvrtc_flags(&s).map_err(|m| Diagnostic::new(a.expr.span, m))?;
                }
                Read::Str(s)
            }
            other => {
                return Err(Diagnostic::new(
                    a.expr.span,
                    format!("`{}` must be a string, found {other}", a.name),
                ))
            }
        },
        Kind::Increment => Read::Bool(increment_type_arg(&v, a)?),
        Kind::Loops => Read::Loops(loop_list(&v, a)?),
        Kind::MathMode => Read::Math(math_mode_arg(&v, a)?),
        Kind::Tf32Convert => Read::Int(tf32_convert_arg(&v, a)?),
        Kind::AsyncCache => Read::Bool(async_cache_arg(&v, a)?),
        Kind::MmaInstruction => Read::Bool(mma_instruction_arg(&v, a)?),
        Kind::FragLoad => match v.as_str() {
            Some("ldmatrix") => Read::Int(i64::from(FRAG_LDMATRIX)),
            _ => Read::Int(one_of(&v, a, 1, &[1, 2, 4], " or 'ldmatrix'", None)?),
        },
    })
}

/// The typed transformation arguments of one configuration, both backends' (what a backend does
/// not take keeps its default).
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub backend: Backend,
    /// `workGroups` / `blockCount`; `None` = enough to give each iteration a work-item.
    pub groups: Option<u64>,
    /// `workItemsPerGroup` / `threadCount`: local size.
    pub local: u64,
    /// `sizeHint` / `launchBounds`.
    pub size_hint: bool,
    /// `vecHint`: 0 = no `vec_type_hint`.
    pub vec_hint: u32,
    pub cache_blocks: bool,
    /// `unrollInner`: 1 = no pragma.
    pub unroll: u32,
    /// `clFlags` / `cudaFlags` as written.
    pub flags: String,
    /// `incrementType`: `false` = 'global' (stride by the global size), `true` = 'local' (one
    /// contiguous chunk per work-group).
    pub chunked: bool,
    /// `innerThreads`: work-items per iteration of the parallel loop (1 = one).
    pub lanes: u64,
    /// `vecWidth`: iterations per work-item through vector types (1 = scalar); with `tile`, a
    /// matrix product's vector width.
    pub vec_width: u32,
    /// `preferL1Size` in KB: 0, 16, 32 or 48.
    pub prefer_l1_kb: u32,
    pub platform: usize,
    pub device: usize,
    /// `tile`, `regTile`, `padLocal`, `doubleBuffer`, `vecLoad`, `loadItems`, `warpTile` (empty
    /// `tile`: the 1-D kernel); see [`Options::nest_args`].
    pub nest: NestArgs,
    /// Where each argument's value is written (for errors found once the loop is known).
    pub spans: Vec<(Key, Span)>,
}

impl Options {
    /// Every argument at its default.
    pub fn new(backend: Backend) -> Options {
        Options {
            backend,
            groups: None,
            local: 128,
            size_hint: false,
            vec_hint: 0,
            cache_blocks: false,
            unroll: 1,
            flags: String::new(),
            chunked: false,
            lanes: 1,
            vec_width: 1,
            prefer_l1_kb: 0,
            platform: 0,
            device: 0,
            nest: NestArgs::default(),
            spans: Vec::new(),
        }
    }

    /// Set the field of `key` (a value its kind read).
    fn set(&mut self, key: Key, r: Read) {
        let int = |r: &Read| match r {
            Read::Int(i) => *i,
            _ => unreachable!("an integer kind"),
        };
        let flag = |r: &Read| matches!(r, Read::Bool(true));
        match (key, r) {
            (Key::Tile, Read::Loops(l)) => self.nest.tile = l,
            (Key::RegTile, Read::Loops(l)) => self.nest.reg_tile = l,
            (Key::LoadItems, Read::Loops(l)) => self.nest.load_items = l,
            (Key::WarpTile, Read::Loops(l)) => self.nest.warp_tile = l,
            (Key::MathMode, Read::Math(m)) => self.nest.math_mode = m,
            (Key::Flags, Read::Str(s)) => self.flags = s,
            (Key::Groups, r) => self.groups = Some(int(&r) as u64),
            (Key::Local, r) => self.local = int(&r) as u64,
            (Key::SizeHint, r) => self.size_hint = flag(&r),
            (Key::VecHint, r) => self.vec_hint = int(&r) as u32,
            (Key::CacheBlocks, r) => self.cache_blocks = flag(&r),
            (Key::Unroll, r) => self.unroll = int(&r) as u32,
            (Key::Increment, r) => self.chunked = flag(&r),
            (Key::InnerThreads, r) => self.lanes = int(&r) as u64,
            (Key::VecWidth, r) => self.vec_width = int(&r) as u32,
            (Key::PadLocal, r) => self.nest.pad_local = int(&r) as u64,
            (Key::DoubleBuffer, r) => self.nest.double_buffer = flag(&r),
            (Key::VecLoad, r) => self.nest.vec_load = int(&r) as u32,
            (Key::Stages, r) => self.nest.stages = int(&r) as u32,
            (Key::FragLoad, r) => self.nest.frag_load = int(&r) as u32,
            (Key::Tf32Convert, r) => {
                self.nest.tf32_convert = match int(&r) {
                    1 => Tf32Convert::Stage,
                    2 => Tf32Convert::Truncate,
                    _ => Tf32Convert::Fragment,
                };
            }
            (Key::FragBuffers, r) => self.nest.frag_buffers = int(&r) as u32,
            (Key::MinBlocks, r) => self.nest.min_blocks = int(&r) as u32,
            (Key::BlockSwizzle, r) => self.nest.block_swizzle = int(&r) as u32,
            (Key::AsyncCache, r) => self.nest.async_ca = flag(&r),
            (Key::IndexBits, r) => self.nest.index_bits = int(&r) as u32,
            (Key::PrefetchResult, r) => self.nest.prefetch_result = int(&r) as u32,
            (Key::MmaInstruction, r) => self.nest.wgmma = flag(&r),
            (Key::TransposeRows, r) => self.nest.transpose_rows = int(&r) as u32,
            (Key::Device, r) => self.device = int(&r) as usize,
            (Key::Platform, r) => self.platform = int(&r) as usize,
            (Key::PreferL1, r) => self.prefer_l1_kb = int(&r) as u32,
            (Key::Ignored, _) => {}
            (
                Key::Tile
                | Key::RegTile
                | Key::LoadItems
                | Key::WarpTile
                | Key::Flags
                | Key::MathMode,
                _,
            ) => {
                unreachable!("a list, string or math-mode kind")
            }
        }
    }

    /// Whether `tile` is given (a loop-nest schedule, not the 1-D map).
    pub fn tiled(&self) -> bool {
        !self.nest.tile.is_empty()
    }

    /// The loop-nest schedule arguments (`tile`, `regTile`, ... with `cacheBlocks`,
    /// `unrollInner`, `sizeHint`/`launchBounds`, `vecWidth`).
    pub fn nest_args(&self) -> NestArgs {
        NestArgs {
            cache_blocks: self.cache_blocks,
            unroll: self.unroll,
            size_hint: self.size_hint,
            vec_width: self.vec_width,
            ..self.nest.clone()
        }
    }

    /// Where argument `key`'s value is written, if it is.
    pub fn span_of(&self, key: Key) -> Option<Span> {
        self.spans.iter().find(|(k, _)| *k == key).map(|(_, s)| *s)
    }

    /// The build options of the variant: `clFlags` (OpenCL); the CUDA skeleton's options
    /// (see [`skeleton_options`]). `total`: the objective includes transfers.
    pub fn build_options(&self, total: bool) -> String {
        match self.backend {
            Backend::OpenCl => self.flags.clone(),
            Backend::Cuda => skeleton_options(&self.flags, self.prefer_l1_kb, total),
        }
    }
}

/// The options string sent to the CUDA skeleton: the NVRTC options of `cuda_flags`, then orcl's
/// launch tokens (`-orcl-dlcm=`, `-orcl-cache=` of `preferL1Size`, `-orcl-total`). `total`: the
/// objective is host-to-device copies + kernel + device-to-host copies.
pub fn skeleton_options(cuda_flags: &str, prefer_l1_kb: u32, total: bool) -> String {
    let (mut words, dlcm) = nvrtc_flags(cuda_flags).unwrap_or_default();
    if let Some(m) = dlcm {
        words.push(format!("-orcl-dlcm={m}"));
    }
    match prefer_l1_kb {
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

/// An integer argument that must be one of `values` (vector widths, `vecHint`, `preferL1Size`):
/// at least `min` (see [`int_arg`]), then one of `values`, else an error listing them (then
/// `unit`, and `help`), located at the argument's expression.
fn one_of(
    v: &Value,
    a: &KeywordArg,
    min: i64,
    values: &[i64],
    unit: &str,
    help: Option<&str>,
) -> Result<i64, Diagnostic> {
    let w = int_arg(v, a, min)?;
    if values.contains(&w) {
        return Ok(w);
    }
    let list: Vec<String> = values.iter().map(i64::to_string).collect();
    let list = match list.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => list.join(""),
    };
    let d = Diagnostic::new(
        a.expr.span,
        format!("`{}` must be {list}{unit}, found {w}", a.name),
    );
    Err(match help {
        Some(h) => d.with_help(h),
        None => d,
    })
}

/// A transformation argument's integer value, at least `min` (`True`/`False` count as 1/0 when
/// `min <= 0`). Errors: located at the argument's expression.
fn int_arg(v: &Value, a: &KeywordArg, min: i64) -> Result<i64, Diagnostic> {
    match v {
        Value::Int(i) if *i >= min => Ok(*i),
        Value::Bool(b) if min <= 0 => Ok(i64::from(*b)),
        _ => Err(Diagnostic::new(
            a.expr.span,
            format!("`{}` must be an integer ≥ {min}, found {v}", a.name),
        )),
    }
}

/// A transformation argument's boolean value (`True`/`False`, or 1/0). Errors: located at the
/// argument's expression.
fn bool_arg(v: &Value, a: &KeywordArg) -> Result<bool, Diagnostic> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::Int(0) => Ok(false),
        Value::Int(1) => Ok(true),
        _ => Err(Diagnostic::new(
            a.expr.span,
            format!("`{}` must be True or False, found {v}", a.name),
        )),
    }
}

/// The value of `tile=[('i',32),('j',8)]` / `regTile=...`: (loop name, extent ≥ 1) pairs, each
/// located at the argument's expression.
///
/// Errors: anything but a list of (string, positive integer) pairs, located.
fn loop_list(v: &Value, a: &KeywordArg) -> Result<Vec<(String, u64, Span)>, Diagnostic> {
    let bad = || {
        Diagnostic::new(
            a.expr.span,
            format!(
                "`{}` must be a list of (loop, size) pairs such as [('i',16),('j',16)], found {v}",
                a.name
            ),
        )
    };
    let Value::List(items) = v else {
        return Err(bad());
    };
    items
        .iter()
        .map(|it| match it {
            Value::List(p) => match &p[..] {
                [Value::Str(n), Value::Int(x)] if *x >= 1 => {
                    Ok((n.clone(), *x as u64, a.expr.span))
                }
                _ => Err(bad()),
            },
            _ => Err(bad()),
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The arguments of `transform LABEL(ARGS)` on a 1-D loop.
    fn written(label: &str, args: &str) -> Vec<KeywordArg> {
        let text = format!(
            "void f(int n, double *y) {{\n    int i;\n    /*@ begin PerfTuning (\n def performance_params {{ param T[] = [32, 64]; }}\n def input_params {{ param N[] = [8]; }}\n def input_vars {{ decl int n = N; decl static double y[N] = 0; }}\n ) @*/\n    /*@ begin Loop(transform {label}({args})\n for (i=0; i<n; i++) y[i] = 2*y[i];\n ) @*/\n for (i=0; i<n; i++) y[i] = 2*y[i];\n /*@ end @*/\n /*@ end @*/\n}}\n"
        );
        let regions = orcl_frontend::parse(&text).expect("parses");
        regions[0].raw.loop_ann.transforms[0].args.clone()
    }

    fn env(name: &str) -> Option<Value> {
        (name == "T").then_some(Value::Int(64))
    }

    /// Each backend's names come in the order its help has always listed them.
    #[test]
    fn each_backend_lists_its_names_in_order() {
        let cl: Vec<&str> = names(Backend::OpenCl).into_iter().map(|x| x.0).collect();
        assert_eq!(
            cl[..4],
            ["workGroups", "workItemsPerGroup", "sizeHint", "vecHint"]
        );
        assert_eq!(
            cl[cl.len() - 3..],
            ["threadCount", "blockCount", "streamCount"]
        );
        let cu: Vec<&str> = names(Backend::Cuda).into_iter().map(|x| x.0).collect();
        assert_eq!(cu[..3], ["threadCount", "blockCount", "cacheBlocks"]);
        assert_eq!(cu[cu.len() - 3..], ["pinHostMem", "dataOnDevice", "domain"]);
        assert_eq!((cl.len(), cu.len()), (33, 34));
    }

    /// Names are checked once, at parse time; values bind per configuration.
    #[test]
    fn parse_checks_names_and_bind_reads_values() {
        let e =
            TransformArgs::parse(Backend::OpenCl, &written("OpenCL", "workItemz=T")).unwrap_err();
        assert!(e
            .message
            .contains("unknown OpenCL transformation argument `workItemz`"));
        let e = TransformArgs::parse(
            Backend::OpenCl,
            &written("OpenCL", "threadCount=T, workItemsPerGroup=32"),
        )
        .unwrap_err();
        assert!(
            e.message
                .contains("gives `workItemsPerGroup` a second time"),
            "{}",
            e.message
        );
        let t = TransformArgs::parse(
            Backend::OpenCl,
            &written("OpenCL", "threadCount=T, tile=[('i',T)], vecWidth=8"),
        )
        .unwrap();
        let o = t.bind(&env).unwrap();
        assert_eq!((o.local, o.vec_width), (64, 8));
        assert_eq!(o.nest.tile.len(), 1);
        // vecWidth 8 is an OpenCL width only: carried to CUDA it binds with CUDA's widths.
        let cu = t.carried_to(Backend::Cuda);
        let names: Vec<String> = cu.keyword_args().into_iter().map(|a| a.name).collect();
        assert_eq!(names, ["tile", "vecWidth"]);
        let e = cu.bind(&env).unwrap_err();
        assert!(
            e.message.contains("`vecWidth` must be 1, 2 or 4, found 8"),
            "{}",
            e.message
        );
        let t = TransformArgs::parse(Backend::Cuda, &written("CUDA", "device=T, blockCount=2"))
            .unwrap();
        assert_eq!(t.device(&env).unwrap(), (0, 64));
        let o = t.carried_to(Backend::OpenCl).bind(&env).unwrap();
        assert_eq!((o.groups, o.device), (Some(2), 64));
    }
}
