//! Schedules as data: one configuration's `tile` / `regTile` / `cacheBlocks` / `unrollInner` /
//! `sizeHint` turned, once, into a [`Schedule`] (which nest loop maps to which NDRange
//! dimension, work-group and per-work-item extents, which arrays are staged in local memory with
//! which tile and padding). Validity is decided here: [`check`] gives located errors for what no
//! value can fix, [`for_config`] the reason a configuration's values cannot work (pruned by
//! `tune` as a device-limit outcome, never built). Models: Halide's `Func::gpu_tile` and TVM's
//! `split`/`bind` schedule primitives (Ragan-Kelley et al., PLDI 2013; Chen et al., OSDI 2018).

mod contraction;
mod mma_tiles;
pub mod passes;
pub mod vector;

use orcl_frontend::analysis::{accesses, classify, perfect_nest, LoopKind};
use orcl_frontend::diag::{Diagnostic, Span};
use orcl_frontend::ir::{Expr, Kernel, ScalarType};

pub use crate::args::NestArgs;
use crate::args::{Key, Options};
pub use mma_tiles::MmaTiles;

/// One NDRange dimension of a schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dim {
    /// Nest depth of the loop (0 = the parallel loop) and its index variable.
    pub depth: usize,
    pub var: String,
    /// Iterations per work-group (the tile extent), per work-item (the register tile), and
    /// work-items per work-group (`per_group / per_item`).
    pub per_group: u64,
    pub per_item: u64,
    pub items: u64,
}

/// An array staged in local (shared) memory: one tile per work-group, loaded cooperatively.
#[derive(Debug, Clone, PartialEq)]
pub struct Staged {
    pub array: String,
    pub ty: ScalarType,
    /// For each array dimension (outermost first): the index into `Schedule::dims` of its loop.
    pub dims: Vec<usize>,
    /// Smallest index offset of the references along each array dimension (`-1` for `A[i-1][j]`).
    pub lo: Vec<i64>,
    /// Tile extent along each array dimension: the work-group's iterations plus the halo.
    pub extent: Vec<u64>,
    /// Elements added to each tile row against local-memory bank conflicts (a transpose reads its
    /// tile along columns).
    pub pad: u64,
    /// One reference to the array and its offsets: the global address of tile elements.
    pub reference: Expr,
    pub offsets: Vec<i64>,
    /// The offsets of every reference (for the halo's load guard).
    pub all_offsets: Vec<Vec<i64>>,
}

impl Staged {
    /// Elements of the padded tile.
    pub fn elems(&self) -> u64 {
        let mut n = 1;
        for (k, e) in self.extent.iter().enumerate() {
            n *= if k + 1 == self.extent.len() {
                e + self.pad
            } else {
                *e
            };
        }
        n
    }
}

/// The schedule of one configuration (see the module docs): its NDRange dimensions, the arrays
/// staged in local memory, and its [`Form`].
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    /// NDRange dimensions, dimension 0 (the fastest-varying work-item index) first.
    pub dims: Vec<Dim>,
    pub staged: Vec<Staged>,
    pub unroll: u32,
    pub size_hint: bool,
    pub form: Form,
}

/// What a schedule maps: the forms a configuration takes.
#[derive(Debug, Clone, PartialEq)]
pub enum Form {
    /// The 1-D map of the parallel loop (a configuration without `tile`); `dims` is the one
    /// dimension of the parallel loop, `per_group` = `items` = the local size.
    Linear(LinearSchedule),
    /// A `tile` nest of parallel loops.
    Nest,
    /// The k-slab schedule of a contraction (a matrix product).
    Contraction(ContractionSchedule),
    /// Lanes splitting each row's reduction loop (a matrix-vector product); `dims[0]` is the
    /// lane dimension and `dims[1]` the rows'.
    RowReduction(RowReductionSchedule),
}

/// The 1-D map of the parallel loop onto an NDRange of `workGroups` × `workItemsPerGroup`
/// work-items (CUDA: `blockCount` × `threadCount`), the OrCL paper's transformations (Chaimov et
/// al. 2014, §III-B) and the ViennaCL study's (§2). Work-items stride over the iterations by the
/// global size, or each work-group walks one contiguous chunk (`chunked`); reductions of the loop
/// go into a private accumulator, a local-memory tree with barriers and one partial result per
/// work-group, finished on the host.
#[derive(Debug, Clone, PartialEq)]
pub struct LinearSchedule {
    /// `workGroups` / `blockCount`; `None`: one work-item per iteration (rounded up to whole
    /// work-groups at run time).
    pub groups: Option<u64>,
    /// `incrementType='local'`: each work-group owns one contiguous chunk of iterations.
    pub chunked: bool,
    /// `innerThreads`: work-items (lanes) sharing one iteration, splitting its inner reduction
    /// loop (1 = one work-item per iteration).
    pub lanes: u64,
    /// `cacheBlocks`: arrays read at exactly the parallel index staged per work-group, and an
    /// inner loop's shared operand staged in tiles of the local size.
    pub cache_blocks: bool,
    /// `vecWidth` (OpenCL): iterations per work-item through vector loads and stores (1 = scalar).
    pub vec_width: u32,
    /// `vecHint` (OpenCL `vec_type_hint` width, 0 = none).
    pub vec_hint: u32,
    /// The group-uniform passes `lanes` > 1 or `cacheBlocks` on an inner loop need (set by
    /// [`linear`]; `None`: none).
    pub passes: Option<passes::Plan>,
    /// The vectorised body `vec_width` > 1 gives (set by [`linear`], which decides whether the
    /// loop can be vectorised; `None`: scalar).
    pub vector: Option<vector::Vectorised>,
}

/// Name of the kernel argument holding the per-work-group partial results of reduction `v`.
pub fn partial_name(v: &str) -> String {
    format!("orcl_partial_{v}")
}

/// Name of the private accumulator of reduction `v`.
pub fn accumulator_name(v: &str) -> String {
    format!("orcl_acc_{v}")
}

/// The transformation argument an [`ArgError`] is about, so that a backend can locate it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinearArg {
    /// `innerThreads` (OpenCL and CUDA).
    InnerThreads,
    /// `vecWidth` (OpenCL).
    VecWidth,
}

/// Why a 1-D map cannot be generated for a loop: which argument, what is wrong, what would work.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgError {
    pub arg: LinearArg,
    pub message: String,
    pub help: Option<String>,
}

impl ArgError {
    /// The error as a diagnostic at `span` (the argument's value in the annotation).
    pub fn at(self, span: Span) -> Diagnostic {
        let d = Diagnostic::new(span, self.message);
        match self.help {
            Some(h) => d.with_help(h),
            None => d,
        }
    }
}

/// The schedule of a configuration without `tile`: the parallel loop on NDRange dimension 0,
/// `local` work-items per work-group, with `l`'s transformations, `unroll` (`unrollInner`) and
/// `size_hint` (`sizeHint` / `launchBounds`).
///
/// Errors: `innerThreads` needs an inner reduction loop and at most the local size; `vecWidth`
/// needs OpenCL and a 1-D unit-step loop whose subscripts are the loop index plus a constant
/// (the error names the construct; the backend locates it at the argument).
pub fn linear(
    k: &Kernel,
    mut l: LinearSchedule,
    local: u64,
    unroll: u32,
    size_hint: bool,
    backend: crate::target::Backend,
) -> Result<Schedule, ArgError> {
    // Sums into shared elements (atomic adds) and private arrays exist only in the plain,
    // staged and nest bodies: not in vectors, lanes or group-uniform passes.
    let atomic = k.args.iter().find(|a| a.atomic_sum);
    let why = match (atomic, k.private_arrays.first()) {
        (Some(a), _) => Some(format!(
            "a loop whose iterations sum into shared elements of `{}` (atomic adds)",
            a.name
        )),
        (None, Some(p)) => Some(format!(
            "a loop with a private array `{}` per work-item",
            p.name
        )),
        (None, None) => None,
    };
    if let Some(why) = why.as_ref().filter(|_| l.vec_width > 1 || l.lanes > 1) {
        let (arg, what) = if l.vec_width > 1 {
            (LinearArg::VecWidth, "vecWidth")
        } else {
            (LinearArg::InnerThreads, "innerThreads")
        };
        return Err(ArgError {
            arg,
            message: format!("`{what}` does not apply to {why}"),
            help: Some(format!("leave `{what}` at 1 for this loop")),
        });
    }
    l.vector = vector::plan(k, l.vec_width, backend)?;
    l.passes = passes::plan(k, l.lanes, local, l.cache_blocks && why.is_none())?;
    Ok(Schedule {
        dims: vec![Dim {
            depth: 0,
            var: k.parallel.var.clone(),
            per_group: local,
            per_item: 1,
            items: local,
        }],
        staged: Vec::new(),
        unroll,
        size_hint,
        form: Form::Linear(l),
    })
}

/// The schedule of one configuration's bound arguments, decided once: the 1-D map of the
/// parallel loop ([`linear`]), or for a `tile` nest [`check`] then [`for_config`] (the inner
/// `Err`: why the values cannot work, a variant never built).
///
/// Errors: what no value can fix, located at the argument ([`check`]; an `innerThreads` or
/// `vecWidth` that does not fit the loop).
pub fn of(k: &Kernel, o: &Options) -> Result<Result<Schedule, String>, Diagnostic> {
    if o.nest.math_mode.tensor() && !o.tiled() {
        return Ok(Err(
            "mathMode='tf32' needs `tile` on a matrix product (the 1-D map has no tensor-core form)".into(),
        ));
    }
    if o.tiled() {
        let a = o.nest_args();
        check(k, &a)?;
        return Ok(for_config(k, &a));
    }
    linear_of(k, o).map(Ok)
}

/// The arguments of kernel `k` of a time loop's step whose kernels are `all` (FDTD-2D's step:
/// a 1-D nest over `j`, then three 2-D nests over `i`, `j`): `o` itself, or, when `tile` names a
/// loop `k` does not have while another kernel of the step has every loop it names, `o` without
/// its loop-nest arguments (`tile`, `regTile`, ...), so that `k` is the 1-D map of
/// `workItemsPerGroup` (default 128) and the kernels with those loops are tiled.
pub fn for_step<'o>(all: &[&Kernel], k: &Kernel, o: &'o Options) -> std::borrow::Cow<'o, Options> {
    use orcl_frontend::ir::SymbolKind;
    let has = |k: &Kernel| {
        o.nest.tile.iter().all(|(name, _, _)| {
            k.symbols
                .get(name)
                .is_some_and(|s| s.kind == SymbolKind::LoopVar)
        })
    };
    if !o.tiled() || has(k) || !all.iter().any(|x| has(x)) {
        return std::borrow::Cow::Borrowed(o);
    }
    let mut plain = o.clone();
    plain.nest = NestArgs::default();
    std::borrow::Cow::Owned(plain)
}

/// What `prepare` checks of every configuration: [`check`] for a `tile` nest, the 1-D map
/// otherwise ([`of`] without the nest's schedule).
///
/// Errors: as [`of`].
pub fn check_options(k: &Kernel, o: &Options) -> Result<(), Diagnostic> {
    if o.tiled() {
        return check(k, &o.nest_args());
    }
    linear_of(k, o).map(|_| ())
}

/// The 1-D map of `o` for `k`; an error is located at its argument's value (CUDA: at
/// `innerThreads`, or the loop when it is not written).
fn linear_of(k: &Kernel, o: &Options) -> Result<Schedule, Diagnostic> {
    let opencl = o.backend == crate::target::Backend::OpenCl;
    let l = LinearSchedule {
        groups: o.groups,
        chunked: o.chunked,
        lanes: o.lanes,
        cache_blocks: o.cache_blocks,
        vec_width: if opencl { o.vec_width } else { 1 },
        vec_hint: if opencl { o.vec_hint } else { 0 },
        passes: None,
        vector: None,
    };
    linear(k, l, o.local, o.unroll, o.size_hint, o.backend).map_err(|e| {
        let span = if opencl {
            o.span_of(match e.arg {
                LinearArg::InnerThreads => Key::InnerThreads,
                LinearArg::VecWidth => Key::VecWidth,
            })
            .unwrap_or_default()
        } else {
            o.span_of(Key::InnerThreads).unwrap_or(k.parallel.span)
        };
        e.at(span)
    })
}

/// A row reduction's lanes (see `analysis::RowReduction`): NDRange dimension 0 has `lanes`
/// work-items per row, one work-group along it; lane `l` sums the reduction iterations
/// `lower + l·step`, `lower + (l + lanes)·step`, ... (consecutive lanes read consecutive
/// elements, so the loads of a row coalesce); the partial sums combine in local memory in a tree
/// of log2(lanes) steps with barriers, and lane 0 finishes the row as the loop does.
#[derive(Debug, Clone, PartialEq)]
pub struct RowReductionSchedule {
    pub red_var: String,
    /// Work-items per row (a power of two).
    pub lanes: u64,
    /// Type of the sum (the accumulated scalar or array element).
    pub ty: ScalarType,
}

/// One array reference of a contraction's summand.
#[derive(Debug, Clone, PartialEq)]
pub struct Operand {
    /// The reference as the loop writes it (`A[i*k + l]`).
    pub expr: Expr,
    pub ty: ScalarType,
    /// The NDRange dimension whose loop it varies with (its other index is the reduction loop's
    /// or none); `None`: it varies with both or is not affine (read in place, guarded).
    pub dim: Option<usize>,
    /// Staged in a local tile `[TK][per_group + pad]` per k-slab (`cacheBlocks`).
    pub staged: bool,
    /// Contiguous in memory along the reduction loop (then consecutive work-items load
    /// consecutive reduction indices, so the loads coalesce).
    pub red_fast: bool,
    /// `loadItems` of its dimension's loop: work-items side by side along the contiguous
    /// dimension when loading the slab (`None`: the slab linearised, which is the same as the
    /// whole contiguous extent).
    pub load_items: Option<u64>,
    /// The tensor-core form's layout of an operand contiguous along the reduction loop: its local
    /// tile stored as it lies in memory, `[per_group][TK + pad]` with this pad (`None`: k-major,
    /// `[TK][per_group + padLocal]`, a row-major A transposed on the way).
    pub k_inner_pad: Option<u64>,
    /// The tensor-core form's XOR swizzle of its local tile (`fragLoad` 2 or 4; see [`Swizzle`]).
    pub swizzle: Swizzle,
}

/// A permuted ("swizzled") local-tile layout of the tensor-core form with `fragLoad` V > 1: the
/// element at (`kk` along the slab, `t` along the tile) is stored at a column XOR-ed with a
/// function of its row, so the fragment reads of a warp (lane (groupID g, threadID_in_group q)
/// reads k = V·q + ... of row g) hit distinct banks without padding (CUTLASS's
/// `TensorOpMultiplicand` layouts XOR 16-byte chunks the same way). Groups of up to 4 elements
/// aligned to 4 stay contiguous, so vector stores and reads are whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Swizzle {
    /// As laid out: `[kk][t]` or `[t][kk]`.
    None,
    /// A k-major tile `[kk][t]` read by rows V·q + j: stored at column `t ^ (8·((kk / v) % 4))`
    /// (needs a tile extent that is a multiple of 32).
    KMajor { v: u64 },
    /// A k-contiguous tile `[t][kk]` read as 16-byte chunks: stored at `kk ^ (16·(t % 2))`, chunk index XOR 4 (needs
    /// a k-slab that is a multiple of 32).
    KInner,
    /// `mmaInstruction='wgmma'`: the 128-byte swizzle of the wgmma shared-memory matrix
    /// descriptors (PTX ISA §9.7.15.5.1, CUTLASS's `Swizzle<3,4,3>`): rows of 128 bytes (64
    /// 16-bit or 32 TF32 elements), 16-byte chunk c of row r stored at chunk c ^ (r % 8). A
    /// k-contiguous tile (K-major) is `[t][kk]` with the k-slab one row (`[t][kk ^ 8·(t % 8)]`,
    /// TF32 `[t][kk ^ 4·(t % 8)]`); a k-major one (MN-major, 16-bit only) is blocks of 64
    /// columns, each `TK` rows of 64 (`[(t / 64)·TK + kk][(t % 64) ^ 8·(kk % 8)]`, `tk` = TK).
    Gmma { tk: u64 },
}

impl Operand {
    /// The (rows, row length) of its local tile in a contraction with k-slab `tk`, tile extent
    /// `per_group` along its dimension and `padLocal` `pad`.
    pub fn tile_shape(&self, tk: u64, per_group: u64, pad: u64) -> (u64, u64) {
        if let Swizzle::Gmma { .. } = self.swizzle {
            return match self.k_inner_pad {
                Some(_) => (per_group, tk),
                None => (per_group.div_ceil(64) * tk, 64),
            };
        }
        match self.k_inner_pad {
            Some(kp) => (per_group, tk + kp),
            None => (tk, per_group + pad),
        }
    }
}

/// The k-slab schedule of a contraction (see `analysis::Contraction`): each work-item keeps
/// `per_item` × `per_item` sums in registers; the reduction loop advances `tk` at a time.
#[derive(Debug, Clone, PartialEq)]
pub struct ContractionSchedule {
    pub red_var: String,
    /// Reduction iterations per slab (`tile`'s entry for the reduction loop, default 8).
    pub tk: u64,
    /// Elements per local-memory vector read (`vecWidth`).
    pub vec: u64,
    /// Padding of each local tile row (`padLocal`).
    pub pad: u64,
    /// Two local buffers per staged operand, the next slab prefetched into registers
    /// (`doubleBuffer`; only when every operand with a dimension is staged).
    pub double_buffer: bool,
    /// Local buffers per staged operand filled by asynchronous copies, `stages - 1` slabs ahead
    /// (`stages`, tensor-core form only; 1: none).
    pub stages: u64,
    /// Elements per vector of the global→local slab loads (`vecLoad`; 1 = scalar loads).
    pub load_vec: u64,
    /// `warpTile`: (work-items along dimension 1, along dimension 0) of each block of consecutive
    /// work-items; `None`: the hardware layout (rows of dimension 0).
    pub warp: Option<(u64, u64)>,
    pub operands: Vec<Operand>,
    /// `mathMode='tf32'`: the tensor-core form (warp tiles of `mma.sync` m16n8k8); `None`:
    /// FP32 multiply-adds per work-item.
    pub mma: Option<MmaTiles>,
}

impl ContractionSchedule {
    /// Local buffers per staged operand: `stages`, 2 with `doubleBuffer`, else 1.
    pub fn buffers(&self) -> u64 {
        if self.double_buffer {
            2
        } else {
            self.stages.max(1)
        }
    }
}

/// Bytes of `__shared__` memory a CUDA kernel may declare statically (CUDA C++ Programming
/// Guide, "Shared Memory": allocations above 48 KB per block must be dynamic and opted in with
/// `cudaFuncSetAttribute`).
pub const STATIC_LOCAL_LIMIT: u64 = 48 * 1024;

/// Lanes of a warp: NVIDIA's, and the 32 consecutive work-items the emulated tensor-core form
/// takes as one.
pub const WARP: u64 = 32;

impl Schedule {
    /// The 1-D map, if this is one.
    pub fn linear(&self) -> Option<&LinearSchedule> {
        match &self.form {
            Form::Linear(l) => Some(l),
            _ => None,
        }
    }
    /// The contraction's k-slab schedule, if this is one.
    pub fn contraction(&self) -> Option<&ContractionSchedule> {
        match &self.form {
            Form::Contraction(c) => Some(c),
            _ => None,
        }
    }
    /// The row reduction's lanes, if this is one.
    pub fn row_reduction(&self) -> Option<&RowReductionSchedule> {
        match &self.form {
            Form::RowReduction(r) => Some(r),
            _ => None,
        }
    }
    /// Work-items per work-group.
    pub fn local_size(&self) -> u64 {
        self.dims.iter().map(|d| d.items).product()
    }
    /// Whether the staged tiles exceed [`STATIC_LOCAL_LIMIT`]: CUDA then places them in dynamic
    /// shared memory (the launch raises the kernel's limit; OpenCL has no such memory, and the
    /// device's 48 KiB prunes the variant as a device limit).
    pub fn dynamic_local(&self) -> bool {
        self.contraction()
            .is_some_and(|c| c.mma.as_ref().is_some_and(|m| m.wgmma))
            || self.contraction().is_some() && self.local_mem_bytes() > STATIC_LOCAL_LIMIT
    }
    /// Bytes of local memory of the staged tiles.
    pub fn local_mem_bytes(&self) -> u64 {
        let c = self.contraction().map_or(0, |c| {
            c.operands
                .iter()
                .filter(|o| o.staged)
                .map(|o| {
                    let d = o.dim.expect("staged operands have a dimension");
                    let (rows, len) = o.tile_shape(c.tk, self.dims[d].per_group, c.pad);
                    rows * len * o.ty.size_bytes() as u64
                })
                .sum::<u64>()
                * c.buffers()
        });
        let r = self.row_reduction().map_or(0, |r| {
            if r.lanes > 1 {
                self.local_size() * r.ty.size_bytes() as u64
            } else {
                0
            }
        });
        c + r
            + self
                .staged
                .iter()
                .map(|s| s.elems() * s.ty.size_bytes() as u64)
                .sum::<u64>()
    }
    /// The launch geometry.
    pub fn grid(&self) -> crate::target::Grid {
        crate::target::Grid {
            loops: self.dims.iter().map(|d| d.depth).collect(),
            // A lane dimension is one work-group wide whatever the loop's trip.
            per_group: self
                .dims
                .iter()
                .enumerate()
                .map(|(d, x)| {
                    if d == 0 && self.row_reduction().is_some() {
                        crate::target::Grid::ONE_GROUP
                    } else {
                        x.per_group
                    }
                })
                .collect(),
            local: self.dims.iter().map(|d| d.items).collect(),
        }
    }
}

/// Check what no value of the tile sizes can fix: the named loops exist in the perfect nest, are
/// parallel, unit-step, with loop-invariant bounds, and form its outermost loops; at most 3; no
/// scalar reduction of the whole loop; `regTile` names tiled loops only.
///
/// Errors: located at the loop's name in the argument (or at the loop).
pub fn check(k: &Kernel, a: &NestArgs) -> Result<(), Diagnostic> {
    if let Some(arr) = k.args.iter().find(|x| x.atomic_sum) {
        return Err(Diagnostic::new(
            a.tile.first().map(|t| t.2).unwrap_or(k.parallel.span),
            format!(
                "`tile` does not map loops whose iterations sum into shared elements of `{}` (an array reduction) yet",
                arr.name
            ),
        )
        .with_help("leave out `tile`: the 1-D map adds into the shared elements atomically"));
    }
    if let Some(r) = orcl_frontend::analysis::row_reduction(k) {
        if a.tile.iter().any(|t| t.0 == r.red.var) {
            return check_row_reduction(k, a, &r);
        }
    }
    // A contraction's reduction loop is named for its k-slab, not mapped onto the NDRange.
    if let Some(rest) = without_k_slab(k, a)? {
        return check(k, &rest);
    }
    let nest = perfect_nest(k);
    let kinds = classify(k, &nest);
    let trips = orcl_frontend::analysis::nest_trips(k).len();
    let names: Vec<&str> = nest.loops.iter().map(|l| l.var.as_str()).collect();
    if a.tile.len() > 3 {
        return Err(Diagnostic::new(
            a.tile[3].2,
            "`tile` maps at most 3 loops (an NDRange has 3 dimensions)",
        ));
    }
    for (n, (name, _, span)) in a.tile.iter().enumerate() {
        let Some(d) = names.iter().position(|x| x == name) else {
            return Err(Diagnostic::new(
                *span,
                format!("`tile` names loop `{name}`, which is not a loop of the perfect nest"),
            )
            .with_help(format!(
                "the perfectly nested loops are {}",
                names.join(", ")
            )));
        };
        if a.tile[..n].iter().any(|(x, _, _)| x == name) {
            return Err(Diagnostic::new(
                *span,
                format!("`tile` names loop `{name}` twice"),
            ));
        }
        let proven = d == 0 && orcl_frontend::analysis::parallel_proven(k);
        if kinds[d] != LoopKind::Parallel && !proven {
            return Err(Diagnostic::new(
                *span,
                format!(
                    "loop `{name}` is not parallel ({:?}): its iterations cannot map onto an NDRange dimension",
                    kinds[d]
                ),
            ));
        }
        if nest.loops[d].step != 1 || d >= trips {
            return Err(Diagnostic::new(
                *span,
                format!("loop `{name}` must have step 1 and bounds that do not depend on an enclosing loop to be tiled"),
            ));
        }
    }
    if let Some(r) = k.reductions().next() {
        return Err(Diagnostic::new(
            a.tile.first().map(|t| t.2).unwrap_or(k.parallel.span),
            format!(
                "`tile` does not map loops that reduce into `{}` yet",
                r.name
            ),
        ));
    }
    let mut depths: Vec<usize> = a
        .tile
        .iter()
        .map(|(n, _, _)| names.iter().position(|x| x == n).expect("checked"))
        .collect();
    depths.sort();
    if depths.iter().enumerate().any(|(k, d)| k != *d) {
        return Err(Diagnostic::new(
            a.tile[0].2,
            format!(
                "`tile` must name the outermost loops of the nest ({})",
                names[..a.tile.len()].join(", ")
            ),
        ));
    }
    check_named_by_tile(a)
}

/// A `tile` naming a contraction's reduction loop (its k-slab, not an NDRange dimension): the
/// arguments without that entry, to check as a nest of the two parallel loops; `None` when
/// `tile` does not name it.
///
/// Errors: the k-slab entry without both parallel loops, located at it.
fn without_k_slab(k: &Kernel, a: &NestArgs) -> Result<Option<NestArgs>, Diagnostic> {
    let Some(c) = orcl_frontend::analysis::contraction(k) else {
        return Ok(None);
    };
    let Some((_, _, span)) = a.tile.iter().find(|t| t.0 == c.red.var) else {
        return Ok(None);
    };
    let nest = perfect_nest(k);
    let both = [0, 1]
        .iter()
        .all(|&d| a.tile.iter().any(|t| t.0 == nest.loops[d].var));
    if !both || a.tile.len() != 3 {
        return Err(Diagnostic::new(
            *span,
            format!(
                "the k-slab entry ('{}', TK) needs `tile` to name both loops {} and {} too",
                c.red.var, nest.loops[0].var, nest.loops[1].var
            ),
        ));
    }
    Ok(Some(NestArgs {
        tile: a
            .tile
            .iter()
            .filter(|t| t.0 != c.red.var)
            .cloned()
            .collect(),
        ..a.clone()
    }))
}

/// `regTile`, `warpTile` and `loadItems` name loops that `tile` names.
///
/// Errors: located at the loop's name in the argument.
fn check_named_by_tile(a: &NestArgs) -> Result<(), Diagnostic> {
    for (name, _, span) in &a.reg_tile {
        if !a.tile.iter().any(|(t, _, _)| t == name) {
            return Err(Diagnostic::new(
                *span,
                format!("`regTile` names loop `{name}`, which `tile` does not name"),
            ));
        }
    }
    for (name, _, span) in &a.warp_tile {
        if !a.tile.iter().any(|(t, _, _)| t == name) {
            return Err(Diagnostic::new(
                *span,
                format!(
                    "`warpTile` names loop `{name}`, which `tile` does not name as a parallel loop"
                ),
            ));
        }
    }
    for (name, _, span) in &a.load_items {
        if !a.tile.iter().any(|(t, _, _)| t == name) {
            return Err(Diagnostic::new(
                *span,
                format!("`loadItems` names loop `{name}`, which `tile` does not name as a parallel loop"),
            )
            .with_help("name the loop an operand varies with: ('i',MA) for A[i*k+l], ('j',NB) for B[l*n+j]"));
        }
    }
    Ok(())
}

/// [`check`] for a `tile` that names a row reduction's reduction loop (its lanes): exactly the
/// parallel loop (rows) and the reduction loop; no `regTile`, `warpTile` or `loadItems`.
fn check_row_reduction(
    k: &Kernel,
    a: &NestArgs,
    r: &orcl_frontend::analysis::RowReduction,
) -> Result<(), Diagnostic> {
    let rows = &k.parallel;
    let span = a.tile.iter().find(|t| t.0 == r.red.var).expect("named").2;
    if a.tile.len() != 2 || !a.tile.iter().any(|t| t.0 == rows.var) {
        return Err(Diagnostic::new(
            span,
            format!(
                "the lanes entry ('{}', TJ) of a row reduction needs `tile` to name the rows' loop `{}` too, and nothing else",
                r.red.var, rows.var
            ),
        )
        .with_help(format!(
            "write tile=[('{}',TI),('{}',TJ)]: TI rows per work-group, TJ work-items per row",
            rows.var, r.red.var
        )));
    }
    if rows.step != 1 || orcl_frontend::analysis::nest_trips(k).is_empty() {
        return Err(Diagnostic::new(
            a.tile.iter().find(|t| t.0 == rows.var).expect("named").2,
            format!(
                "loop `{}` must have step 1 and loop-invariant bounds to be tiled",
                rows.var
            ),
        ));
    }
    if let Some(x) = k.reductions().next() {
        return Err(Diagnostic::new(
            span,
            format!(
                "`tile` does not map loops that reduce into `{}` yet",
                x.name
            ),
        ));
    }
    for (what, list) in [
        ("regTile", &a.reg_tile),
        ("warpTile", &a.warp_tile),
        ("loadItems", &a.load_items),
    ] {
        if let Some((_, _, s)) = list.first() {
            return Err(Diagnostic::new(
                *s,
                format!(
                    "`{what}` does not apply to a row reduction (each work-item of a row's lanes sums a strided share of loop `{}`)",
                    r.red.var
                ),
            )
            .with_help(format!("remove `{what}`; `tile` sets the rows and lanes per work-group")));
        }
    }
    Ok(())
}

/// The schedule of a row reduction: `TJ` lanes (a power of two) along dimension 0 and `TI` rows
/// along dimension 1 per work-group.
fn row_reduction_schedule(
    k: &Kernel,
    a: &NestArgs,
    r: &orcl_frontend::analysis::RowReduction,
) -> Result<Schedule, String> {
    let get = |v: &str| {
        a.tile
            .iter()
            .find(|t| t.0 == v)
            .map(|t| t.1)
            .expect("checked")
    };
    let (rows, lanes) = (get(&k.parallel.var), get(&r.red.var));
    let limit = i64::from(i32::MAX) as u64;
    if rows.saturating_mul(lanes) > limit || lanes.saturating_mul(r.red.step.unsigned_abs()) > limit
    {
        return Err(format!(
            "{rows} rows x {lanes} lanes per work-group exceed any device's work-group size"
        ));
    }
    if !lanes.is_power_of_two() {
        return Err(format!(
            "{lanes} lanes along `{}` is not a power of two (the lanes' partial sums combine in a tree)",
            r.red.var
        ));
    }
    let ty = match &r.form {
        orcl_frontend::analysis::ContractionForm::Scalar { ty, .. } => *ty,
        orcl_frontend::analysis::ContractionForm::Element { target } => match &target.kind {
            orcl_frontend::ir::ExprKind::Index { array, .. } => k
                .args
                .iter()
                .find(|x| &x.name == array)
                .map_or(ScalarType::Double, |x| x.ty),
            _ => ScalarType::Double,
        },
    };
    let dim = |depth: usize, var: &str, n: u64| Dim {
        depth,
        var: var.to_string(),
        per_group: n,
        per_item: 1,
        items: n,
    };
    Ok(Schedule {
        dims: vec![dim(0, &r.red.var, lanes), dim(0, &k.parallel.var, rows)],
        staged: Vec::new(),
        unroll: a.unroll,
        size_hint: a.size_hint,
        form: Form::RowReduction(RowReductionSchedule {
            red_var: r.red.var.clone(),
            lanes,
            ty,
        }),
    })
}

/// The schedule of one configuration (`a` already passed [`check`]).
///
/// Errors: why the values cannot work (a register tile that does not divide its tile, ...), as
/// one line; `tune` records it as a device-limit outcome without building.
pub fn for_config(k: &Kernel, a: &NestArgs) -> Result<Schedule, String> {
    if let Some(r) = orcl_frontend::analysis::row_reduction(k) {
        if a.tile.iter().any(|t| t.0 == r.red.var) {
            if a.math_mode.tensor() {
                return Err(
                    "mathMode='tf32' applies to a matrix product, not to a row reduction".into(),
                );
            }
            return row_reduction_schedule(k, a, &r);
        }
    }
    let nest = perfect_nest(k);
    let names: Vec<&str> = nest.loops.iter().map(|l| l.var.as_str()).collect();
    let con = orcl_frontend::analysis::contraction(k).filter(|_| {
        [0, 1]
            .iter()
            .all(|&d| a.tile.iter().any(|t| t.0 == names[d]))
    });
    let red_var = con.as_ref().map(|c| c.red.var.clone());
    let mut dims: Vec<Dim> = Vec::new();
    for (name, tile, _) in a.tile.iter().filter(|t| Some(&t.0) != red_var.as_ref()) {
        let depth = names.iter().position(|x| x == name).expect("checked");
        let reg = a
            .reg_tile
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|r| r.1)
            .unwrap_or(1);
        if reg == 0 || tile % reg != 0 {
            return Err(format!(
                "regTile {reg} along `{name}` does not divide its tile {tile}"
            ));
        }
        dims.push(Dim {
            depth,
            var: name.clone(),
            per_group: *tile,
            per_item: reg,
            items: tile / reg,
        });
    }
    let acc = accesses(k, nest.body, &names);
    // NDRange dimension 0 (consecutive work-items) goes to the loop along which the first
    // written array is contiguous, so that its stores coalesce; otherwise the innermost.
    let fast = acc
        .iter()
        .find(|x| x.write)
        .and_then(|w| w.dims.as_ref()?.last()?.unit().map(|(v, _)| v.to_string()))
        .and_then(|v| dims.iter().position(|d| d.var == v))
        .unwrap_or_else(|| (0..dims.len()).max_by_key(|&x| dims[x].depth).unwrap_or(0));
    if !dims.is_empty() {
        let d = dims.remove(fast);
        dims.insert(0, d);
        let rest: Vec<Dim> = {
            let mut r = dims.split_off(1);
            r.sort_by_key(|d| std::cmp::Reverse(d.depth));
            r
        };
        dims.extend(rest);
    }
    if a.math_mode.tensor() && con.is_none() {
        return Err(
            "mathMode='tf32' applies to a matrix product only (two tiled parallel loops summing a product over a reduction loop)"
                .into(),
        );
    }
    if let Some(c) = &con {
        let tk = a
            .tile
            .iter()
            .find(|t| Some(&t.0) == red_var.as_ref())
            .map_or(8, |t| t.1);
        return contraction::schedule(k, a, c, dims, tk);
    }
    let staged = if a.cache_blocks {
        staged_arrays(k, &acc, &dims)
    } else {
        Vec::new()
    };
    let s = Schedule {
        dims,
        staged,
        unroll: a.unroll,
        size_hint: a.size_hint,
        form: Form::Nest,
    };
    if s.local_size() == 0 {
        return Err("a tile of 0 work-items".into());
    }
    Ok(s)
}

/// The read-only arrays a `cacheBlocks` nest stages in local memory: those whose every
/// reference is one tiled loop's index plus a constant in each dimension (the loops distinct, the
/// same for every reference), each with its tile extent (the work-group's iterations plus the
/// halo) and padding.
fn staged_arrays(
    k: &Kernel,
    acc: &[orcl_frontend::analysis::Access<'_>],
    dims: &[Dim],
) -> Vec<Staged> {
    let mut staged = Vec::new();
    'arrays: for arg in k.args.iter().filter(|x| x.is_array && !x.written) {
        let mine: Vec<_> = acc.iter().filter(|x| x.array == arg.name).collect();
        if mine.is_empty() {
            continue;
        }
        let mut loops: Option<Vec<usize>> = None;
        let mut all_offsets = Vec::new();
        for x in &mine {
            let Some(ds) = &x.dims else { continue 'arrays };
            let mut l = Vec::new();
            let mut offs = Vec::new();
            for i in ds {
                let Some((v, off)) = i.unit() else {
                    continue 'arrays;
                };
                let Some(p) = dims.iter().position(|d| d.var == v) else {
                    continue 'arrays;
                };
                l.push(p);
                offs.push(off);
            }
            let mut sorted = l.clone();
            sorted.sort();
            sorted.dedup();
            if sorted.len() != l.len() || loops.as_ref().is_some_and(|x| *x != l) {
                continue 'arrays;
            }
            loops = Some(l);
            all_offsets.push(offs);
        }
        let loops = loops.expect("non-empty");
        let n = loops.len();
        let lo: Vec<i64> = (0..n)
            .map(|d| all_offsets.iter().map(|o| o[d]).min().unwrap_or(0))
            .collect();
        let hi: Vec<i64> = (0..n)
            .map(|d| all_offsets.iter().map(|o| o[d]).max().unwrap_or(0))
            .collect();
        let extent: Vec<u64> = (0..n)
            .map(|d| dims[loops[d]].per_group + (hi[d] - lo[d]) as u64)
            .collect();
        // Consecutive work-items (dimension 0) walk the tile's last dimension, or else
        // down a column: then pad each row by one element so they hit different banks.
        let pad = u64::from(loops.last() != Some(&0));
        staged.push(Staged {
            array: arg.name.clone(),
            ty: arg.ty,
            dims: loops,
            lo,
            extent,
            pad,
            reference: mine[0].expr.clone(),
            offsets: all_offsets[0].clone(),
            all_offsets,
        });
    }
    staged
}
