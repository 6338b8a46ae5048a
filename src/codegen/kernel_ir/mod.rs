//! Kernel IR for scheduled loop nests, and its OpenCL C and CUDA C writers: [`lower`] turns a
//! [`Schedule`] into a small imperative IR (work-item and work-group ids, local tiles, barriers,
//! register-tile loops, edge guards); [`write`] prints it. The writers decide nothing: backend
//! differences (`get_group_id` vs `blockIdx`, `__local` vs `__shared__`, `barrier` vs
//! `__syncthreads`, attributes) live in [`Words`] only (the model is naga's `back::msl` /
//! `back::hlsl`, one `write_*` per node).

use crate::schedule::Schedule;
use crate::target::Backend;
use orcl_frontend::analysis::perfect_nest;
use orcl_frontend::ir::c::{c_expr, StmtWriter};
use orcl_frontend::ir::{Expr, ExprKind, Kernel, ScalarType};
use std::fmt::Write;

/// An expression: backend-neutral C text, a work-item query, or a sequence of them.
#[derive(Debug, Clone, PartialEq)]
pub enum KExpr {
    Text(String),
    /// Work-group index along an NDRange dimension (`(long)get_group_id(d)` / `blockIdx.x`).
    GroupId(usize),
    /// Work-item index within its work-group (`(long)get_local_id(d)` / `threadIdx.x`).
    LocalId(usize),
    /// The same index unconverted (`size_t` / `unsigned int`): `get_local_id(d)` / `threadIdx.x`.
    LocalIndex(usize),
    /// Global work-item index (`(long)get_global_id(d)` / `blockIdx.x * blockDim.x + threadIdx.x`).
    GlobalId(usize),
    /// Work-items in the NDRange along a dimension (`(long)get_global_size(d)`).
    GlobalSize(usize),
    /// Work-groups along a dimension (`(long)get_num_groups(d)` / `gridDim.x`).
    NumGroups(usize),
    /// Work-items per work-group along a dimension (`(long)get_local_size(d)` / `blockDim.x`).
    LocalSize(usize),
    /// The global address-space qualifier of a pointer type (`__global ` / nothing).
    GlobalSpace,
    /// The parts printed one after the other.
    Cat(Vec<KExpr>),
}

impl From<String> for KExpr {
    fn from(s: String) -> Self {
        KExpr::Text(s)
    }
}

impl From<&str> for KExpr {
    fn from(s: &str) -> Self {
        KExpr::Text(s.to_string())
    }
}

/// The parts printed one after the other (text and work-item queries).
pub fn cat(parts: impl IntoIterator<Item = KExpr>) -> KExpr {
    KExpr::Cat(parts.into_iter().collect())
}

/// A statement of the kernel IR.
#[derive(Debug, Clone, PartialEq)]
pub enum KStmt {
    /// `const TY NAME = VALUE;`
    Let {
        ty: &'static str,
        name: String,
        value: KExpr,
    },
    /// A local-memory array with constant extents, aligned to `align` bytes (0: the type's).
    LocalArray {
        ty: ScalarType,
        name: String,
        dims: Vec<u64>,
        align: u64,
    },
    /// `for (long VAR = START; VAR < END; VAR += STEP)`, preceded by `#pragma unroll` when
    /// `unroll` is `Some(0)` and `#pragma unroll N` when `Some(N)`.
    For {
        var: String,
        start: KExpr,
        end: KExpr,
        step: KExpr,
        unroll: Option<u32>,
        body: Vec<KStmt>,
    },
    /// A private (register) array: `TY NAME[d0][d1]...;`
    PrivateArray {
        ty: ScalarType,
        name: String,
        dims: Vec<u64>,
    },
    /// `WIDTH` consecutive elements starting at element `src` (C lvalue text, aligned to the
    /// vector: `WIDTH` × the element size in bytes) of a local tile, or of a global array when
    /// `global`, read as one vector and written to `dst`.
    VecLoad {
        ty: ScalarType,
        width: u64,
        src: String,
        global: bool,
        dst: VecDst,
    },
    If {
        cond: KExpr,
        then: Vec<KStmt>,
    },
    /// `if (COND) { THEN } else { OTHERWISE }`.
    IfElse {
        cond: KExpr,
        then: Vec<KStmt>,
        otherwise: Vec<KStmt>,
    },
    /// `TARGET = VALUE;`
    Store {
        target: KExpr,
        value: KExpr,
    },
    /// `TY NAME = VALUE;` (a private variable that may change) or `TY NAME;`.
    Var {
        ty: String,
        name: String,
        value: Option<KExpr>,
    },
    /// CUDA: the block's dynamic shared memory, `extern __shared__ __align__(16) unsigned char
    /// orcl_dsmem[];` (its size given at launch: more than the 48 KiB a kernel may declare
    /// statically, after `cudaFuncSetAttribute(..., MaxDynamicSharedMemorySize, ...)`); OpenCL:
    /// nothing. `align` 1024 (`mmaInstruction='wgmma'`: the 128-byte swizzle repeats every 1024
    /// bytes of the shared window): the views start at `orcl_dsmem`, the first 1024-byte
    /// boundary of the memory (the launch gives 1024 bytes more).
    DynamicShared {
        align: u64,
    },
    /// A local array `TY NAME[d0][d1]...` that CUDA places at byte `offset` of
    /// [`KStmt::DynamicShared`]'s memory (a pointer to rows, indexed as the array would be) and
    /// OpenCL declares as a `__local` array aligned to `align` bytes (16; `wgmma`: 1024, as the
    /// CUDA views are).
    SharedView {
        ty: ScalarType,
        name: String,
        dims: Vec<u64>,
        offset: u64,
        align: u64,
    },
    /// A local-memory array of `size` elements, a name the kernel `#define`s (`ORCL_WG`).
    LocalBuffer {
        ty: ScalarType,
        name: String,
        size: &'static str,
    },
    /// `for (INIT; COND; NEXT) { BODY }`, preceded by `#pragma unroll N` when `unroll` is set.
    Loop {
        init: KExpr,
        cond: KExpr,
        next: KExpr,
        unroll: Option<u32>,
        body: Vec<KStmt>,
    },
    /// `{ BODY }`: a scope.
    Block(Vec<KStmt>),
    /// A comment, one line per line of the text.
    Comment(String),
    /// One line of C (a statement with work-item queries in it).
    Line(KExpr),
    /// Work-group barrier on local memory.
    Barrier,
    /// Loop-language statements already written as C (the nest body), one per line.
    Lines(String),
    /// Statements written as C with work-item queries in them, one per line.
    Code(KExpr),
    /// The tensor-core form's macros, once at the top of the body: `ORCL_MMA_SYNC` (1 where the
    /// compiler targets `mma.sync` TF32: NVIDIA OpenCL, CUDA `__CUDA_ARCH__ >= 800`; 0 elsewhere
    /// or under `-D ORCL_EMULATE_MMA`), with it `orcl_smem(p)` (a local pointer as the 32-bit
    /// shared-window address `cp.async` takes), and `orcl_tf32(x)`, `x` rounded to TF32 as
    /// `cvt.rna.tf32.f32` does (nearest, ties away from zero, on the 13 low mantissa bits);
    /// `orcl_f2u(x)` / `orcl_u2f(x)` reinterpret a float's bits as `unsigned int` and back.
    /// `sm90a` (`mmaInstruction='wgmma'`): the hardware form also needs CUDA's sm_90a features
    /// (`__CUDA_ARCH_FEAT_SM90_ALL`; never in OpenCL), and `orcl_gdesc(addr, lbo, sbo)` (a wgmma
    /// shared-memory matrix descriptor, 128-byte swizzle) and `orcl_gx(o)` (byte offset `o` as
    /// that swizzle places it) are defined.
    MmaMacros {
        sm90a: bool,
    },
    /// `#if ORCL_MMA_SYNC` HARDWARE `#else` EMULATED `#endif`.
    Mma {
        hardware: Vec<KStmt>,
        emulated: Vec<KStmt>,
    },
}

/// Where a [`KStmt::VecLoad`] writes its vector.
#[derive(Debug, Clone, PartialEq)]
pub enum VecDst {
    /// One C lvalue per component, in order.
    Elements(Vec<String>),
    /// `WIDTH` consecutive elements of a local tile starting at this element (C lvalue text,
    /// aligned to the vector), written as one vector.
    Local(String),
}

/// A kernel parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct KParam {
    pub name: String,
    pub ty: ScalarType,
    /// `Some(written)` for a global-memory array.
    pub array: Option<bool>,
}

/// One kernel `orcl_kernel`.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelFn {
    pub fp64: bool,
    /// CUDA: define `INT_MIN`, `INFINITY` and the like where the kernel does not have them (a
    /// reduction's identity may use them).
    pub limits: bool,
    /// `#define NAME VALUE` lines before the kernel (`ORCL_TILE`, `ORCL_WG`).
    pub defines: Vec<(&'static str, u64)>,
    /// Array parameters declared `restrict` (a nest's arrays; a 1-D map's are not, as the tuned
    /// file's caller may pass overlapping arrays).
    pub restrict: bool,
    pub params: Vec<KParam>,
    /// Work-group extents to declare (`reqd_work_group_size` / `__launch_bounds__`).
    pub declared_local: Option<Vec<u64>>,
    /// OpenCL: `work_group_size_hint` too, before `reqd_work_group_size`.
    pub size_hint: bool,
    /// CUDA: `__launch_bounds__(threads, min_blocks)` with the declared extents (`minBlocks`;
    /// 0 or 1: no second argument).
    pub min_blocks: u32,
    /// `indexBits=32`: `long` ids, lets and loop counters written as `int`.
    pub index32: bool,
    /// OpenCL `vec_type_hint` type (`double2`); CUDA has none.
    pub vec_type_hint: Option<String>,
    /// Element types whose atomic add (`orcl_atomic_add_T`, see [`atomic`]) the body calls.
    pub atomics: Vec<ScalarType>,
    pub body: Vec<KStmt>,
}

impl KernelFn {
    /// The frame of a scheduled nest's kernel (no body yet): fp64 when the loop uses `double`,
    /// every array of the loop a `restrict` parameter, the work-group extents declared when
    /// `sizeHint` / `launchBounds` asks.
    pub fn nest(k: &Kernel, s: &Schedule) -> KernelFn {
        KernelFn {
            fp64: k.uses_double(),
            limits: false,
            defines: Vec::new(),
            restrict: true,
            params: k
                .args
                .iter()
                .map(|a| KParam {
                    name: a.name.clone(),
                    ty: a.ty,
                    array: a.is_array.then_some(a.written),
                })
                .collect(),
            declared_local: s
                .size_hint
                .then(|| s.dims.iter().map(|d| d.items).collect()),
            size_hint: false,
            min_blocks: 0,
            index32: false,
            vec_type_hint: None,
            atomics: Vec::new(),
            body: Vec::new(),
        }
    }
}

/// Tile array name of a staged array.
fn tile_name(array: &str) -> String {
    format!("orcl_tile_{array}")
}

/// `t + c` as C text (`t` alone when `c` is 0).
fn plus(t: &str, c: i64) -> String {
    match c {
        0 => t.to_string(),
        c if c < 0 => format!("{t} - {}", -c),
        c => format!("{t} + {c}"),
    }
}

/// Replace each loop variable in `e` by C text.
fn substitute(e: &Expr, map: &dyn Fn(&str) -> Option<String>) -> String {
    c_expr(e, &|x: &Expr| match &x.kind {
        ExprKind::Var(v) => map(v).map(|t| format!("({t})")),
        _ => None,
    })
}

mod atomic;
mod mma_macros;
use mma_macros::mma_macros;
mod widen;
mod contraction;
pub mod linear;
pub mod passes;
mod rows;
mod triangle;
mod vec_load;

/// Per NDRange dimension d: the work-group and work-item ids (`orcl_g{d}`, `orcl_l{d}`) and the
/// first value of the loop variable in this work-group's tile (`orcl_base{d}`).
fn ids(s: &Schedule, nest: &orcl_frontend::analysis::Nest<'_>) -> Vec<KStmt> {
    let mut body = Vec::new();
    for (d, dim) in s.dims.iter().enumerate() {
        let l = nest.loops[dim.depth];
        body.push(KStmt::Let {
            ty: "long",
            name: format!("orcl_g{d}"),
            value: KExpr::GroupId(d),
        });
        body.push(KStmt::Let {
            ty: "long",
            name: format!("orcl_l{d}"),
            value: KExpr::LocalId(d),
        });
        // The first value of the loop variable in this work-group's tile.
        body.push(KStmt::Let {
            ty: "long",
            name: format!("orcl_base{d}"),
            value: KExpr::Text(match &l.lower.kind {
                ExprKind::Int(0) => format!("orcl_g{d} * {}", dim.per_group),
                _ => format!(
                    "(long)({}) + orcl_g{d} * {}",
                    c_expr(&l.lower, &|_| None),
                    dim.per_group
                ),
            }),
        });
    }
    body
}

/// Whether loop-variable value `v` (C text) of dimension `d` is inside the loop's range.
fn in_range(nest: &orcl_frontend::analysis::Nest<'_>, s: &Schedule, d: usize, v: &str) -> String {
    let l = nest.loops[s.dims[d].depth];
    format!(
        "{v} {} {}",
        if l.inclusive { "<=" } else { "<" },
        c_expr(&l.upper, &|_| None)
    )
}

/// The local tile of staged array `st` and its cooperative load: the work-group's work-items
/// walk the tile's elements (the last dimension fastest, so the loads coalesce), each loaded
/// when an iteration of the tile inside the loop's range reads it.
fn stage_load(
    s: &Schedule,
    nest: &orcl_frontend::analysis::Nest<'_>,
    st: &crate::schedule::Staged,
) -> Vec<KStmt> {
    let tile = tile_name(&st.array);
    let mut dims = st.extent.clone();
    *dims.last_mut().expect("rank ≥ 1") += st.pad;
    let mut out = vec![KStmt::LocalArray {
        ty: st.ty,
        name: tile.clone(),
        dims,
        align: 0,
    }];
    let total: u64 = st.extent.iter().product();
    // Tile coordinates of element orcl_e, the last dimension fastest (coalesced loads).
    let mut inner = Vec::new();
    let mut rest = "orcl_e".to_string();
    let n = st.extent.len();
    for a in (0..n).rev() {
        let value = if a == 0 {
            rest.clone()
        } else {
            format!("{rest} % {}", st.extent[a])
        };
        inner.push(KStmt::Let {
            ty: "long",
            name: format!("orcl_t{a}"),
            value: KExpr::Text(value),
        });
        rest = format!("{rest} / {}", st.extent[a]);
    }
    // An element is loaded when an iteration of this tile inside the loop's range reads it.
    let needed: Vec<String> = st
        .all_offsets
        .iter()
        .map(|offs| {
            let mut c = Vec::new();
            for (a, off) in offs.iter().enumerate() {
                let d = st.dims[a];
                // Iteration orcl_t + shift of the work-group's tile reads this element.
                let shift = st.lo[a] - off;
                let t = plus(&format!("orcl_t{a}"), shift);
                if shift < 0 {
                    c.push(format!("{t} >= 0"));
                }
                if (st.extent[a] as i64) + shift > s.dims[d].per_group as i64 {
                    c.push(format!("{t} < {}", s.dims[d].per_group));
                }
                c.push(in_range(nest, s, d, &format!("orcl_base{d} + {t}")));
            }
            c.join(" && ")
        })
        .collect();
    let mut uniq: Vec<String> = Vec::new();
    for c in needed {
        if !uniq.contains(&c) {
            uniq.push(c);
        }
    }
    let cond = uniq
        .iter()
        .map(|c| format!("({c})"))
        .collect::<Vec<_>>()
        .join(" || ");
    // The global element: the first reference with its loop variables set so that it reads
    // tile element (orcl_t0, ...).
    let value = substitute(&st.reference, &|v| {
        (0..n).find(|&a| s.dims[st.dims[a]].var == v).map(|a| {
            let d = st.dims[a];
            plus(
                &format!("orcl_base{d} + orcl_t{a}"),
                st.lo[a] - st.offsets[a],
            )
        })
    });
    let target = format!(
        "{tile}{}",
        (0..n).map(|a| format!("[orcl_t{a}]")).collect::<String>()
    );
    inner.push(KStmt::If {
        cond: cond.into(),
        then: vec![KStmt::Store {
            target: target.into(),
            value: value.into(),
        }],
    });
    out.push(KStmt::For {
        var: "orcl_e".into(),
        start: "orcl_lin".into(),
        end: total.to_string().into(),
        step: s.local_size().to_string().into(),
        unroll: None,
        body: inner,
    });
    out
}

/// The work-item's own copies of the kernel's private arrays (`Kernel::private_arrays`).
fn private_arrays(k: &Kernel) -> Vec<KStmt> {
    k.private_arrays
        .iter()
        .map(|p| KStmt::PrivateArray {
            ty: p.ty,
            name: p.name.clone(),
            dims: vec![p.len],
        })
        .collect()
}

/// Lower a scheduled nest to kernel IR (see the module docs).
pub fn lower(k: &Kernel, s: &Schedule) -> KernelFn {
    match &s.form {
        crate::schedule::Form::Contraction(c) => return contraction::lower(k, s, c),
        crate::schedule::Form::RowReduction(r) => return rows::lower(k, s, r),
        crate::schedule::Form::Nest | crate::schedule::Form::Linear(_) => {}
    }
    let nest = perfect_nest(k);
    let mut body = ids(s, &nest);
    body.extend(private_arrays(k));
    let ity = |v: &str| k.symbols.get(v).map(|s| s.ty).unwrap_or(ScalarType::Int);
    if !s.staged.is_empty() {
        let lin = (0..s.dims.len()).rev().fold(String::new(), |acc, d| {
            if acc.is_empty() {
                format!("orcl_l{d}")
            } else {
                format!("orcl_l{d} + {} * ({acc})", s.dims[d].items)
            }
        });
        body.push(KStmt::Let {
            ty: "long",
            name: "orcl_lin".into(),
            value: KExpr::Text(lin),
        });
    }
    for st in &s.staged {
        body.extend(stage_load(s, &nest, st));
    }
    if !s.staged.is_empty() {
        body.push(KStmt::Barrier);
    }
    // The iterations of this work-item: per dimension, orcl_t = local id + r * work-items.
    let mut stmts = Vec::new();
    for (d, dim) in s.dims.iter().enumerate() {
        let ty = ity(&dim.var).c_name();
        stmts.push(KStmt::Let {
            ty,
            name: dim.var.clone(),
            value: KExpr::Text(format!("({ty})(orcl_base{d} + orcl_t{d})")),
        });
    }
    let staged_text = |e: &Expr| -> Option<String> {
        let ExprKind::Index { array, .. } = &e.kind else {
            return None;
        };
        let st = s.staged.iter().find(|x| &x.array == array)?;
        let vars: Vec<&str> = perfect_nest(k)
            .loops
            .iter()
            .map(|l| l.var.as_str())
            .collect();
        let one = stmt_of(e);
        let acc = orcl_frontend::analysis::accesses(k, std::slice::from_ref(&one), &vars);
        let dims = acc.first()?.dims.as_ref()?;
        let idx: String = dims
            .iter()
            .enumerate()
            .map(|(a, i)| {
                let off = i.unit().map(|x| x.1).unwrap_or(0);
                format!(
                    "[{}]",
                    plus(&format!("orcl_t{}", st.dims[a]), off - st.lo[a])
                )
            })
            .collect();
        Some(format!("{}{idx}", tile_name(array)))
    };
    let mut w = StmtWriter {
        out: String::new(),
        indent: 0,
        unroll: (s.unroll > 1).then_some(i64::from(s.unroll)),
        subst: &staged_text,
    };
    // The nest loops `tile` does not name (the innermost ones) run whole in each work-item.
    match nest.loops.get(s.dims.len()) {
        Some(untiled) => w.write_loop(untiled),
        None => w.write_stmts(nest.body),
    }
    let guard = (0..s.dims.len())
        .map(|d| in_range(&nest, s, d, &s.dims[d].var))
        .collect::<Vec<_>>()
        .join(" && ");
    let mut inner = stmts;
    inner.push(KStmt::If {
        cond: guard.into(),
        then: vec![KStmt::Lines(w.out)],
    });
    for (d, dim) in s.dims.iter().enumerate() {
        inner.insert(
            0,
            KStmt::Let {
                ty: "long",
                name: format!("orcl_t{d}"),
                value: KExpr::Text(format!("orcl_l{d} + orcl_r{d} * {}", dim.items)),
            },
        );
        inner = vec![KStmt::For {
            var: format!("orcl_r{d}"),
            start: "0".into(),
            end: dim.per_item.to_string().into(),
            step: "1".into(),
            unroll: Some(0),
            body: inner,
        }];
    }
    body.extend(inner);
    KernelFn {
        body,
        ..KernelFn::nest(k, s)
    }
}

/// An expression wrapped as a statement (to reuse the access analysis on one reference).
fn stmt_of(e: &Expr) -> orcl_frontend::ir::Stmt {
    orcl_frontend::ir::Stmt {
        kind: orcl_frontend::ir::StmtKind::Decl {
            ty: ScalarType::Int,
            name: String::new(),
            init: Some(e.clone()),
        },
        span: e.span,
    }
}

/// The words of a backend.
struct Words {
    opencl: bool,
    /// The type of ids, `long` lets and loop counters: `long`, or `int` with `indexBits=32`.
    index: &'static str,
}

impl Words {
    /// CUDA's name of dimension `d`.
    fn xyz(d: usize) -> &'static str {
        ["x", "y", "z"][d]
    }
    fn query(&self, e: &KExpr) -> String {
        let (o, t) = (self.opencl, self.index);
        match e {
            KExpr::GroupId(d) if o => format!("({t})get_group_id({d})"),
            KExpr::GroupId(d) => format!("({t})blockIdx.{}", Self::xyz(*d)),
            KExpr::LocalId(d) if o => format!("({t})get_local_id({d})"),
            KExpr::LocalId(d) => format!("({t})threadIdx.{}", Self::xyz(*d)),
            KExpr::LocalIndex(d) if o => format!("get_local_id({d})"),
            KExpr::LocalIndex(d) => format!("threadIdx.{}", Self::xyz(*d)),
            KExpr::GlobalId(d) if o => format!("({t})get_global_id({d})"),
            KExpr::GlobalId(d) => {
                let x = Self::xyz(*d);
                format!("(({t})blockIdx.{x} * blockDim.{x} + threadIdx.{x})")
            }
            KExpr::GlobalSize(d) if o => format!("({t})get_global_size({d})"),
            KExpr::GlobalSize(d) => {
                let x = Self::xyz(*d);
                format!("(({t})gridDim.{x} * blockDim.{x})")
            }
            KExpr::NumGroups(d) if o => format!("({t})get_num_groups({d})"),
            KExpr::NumGroups(d) => format!("({t})gridDim.{}", Self::xyz(*d)),
            KExpr::LocalSize(d) if o => format!("({t})get_local_size({d})"),
            KExpr::LocalSize(d) => format!("({t})blockDim.{}", Self::xyz(*d)),
            KExpr::GlobalSpace if o => "__global ".to_string(),
            KExpr::GlobalSpace => String::new(),
            KExpr::Text(t) => t.clone(),
            KExpr::Cat(parts) => parts.iter().map(|p| self.query(p)).collect(),
        }
    }
}

/// CUDA has no `INT_MIN` or `INFINITY` of its own: defined where an identity may use them.
const CUDA_LIMITS: &str = "#ifndef INT_MIN
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define LONG_MIN (-9223372036854775807L - 1)
#define LONG_MAX 9223372036854775807L
#endif
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
";

/// [`KStmt::MmaMacros`] and [`KStmt::Mma`] (preprocessor lines at the start of the line).
fn write_mma(out: &mut String, s: &KStmt, depth: usize, w: &Words) {
    match s {
        KStmt::MmaMacros { sm90a } => out.push_str(&mma_macros(w.opencl, *sm90a)),
        KStmt::Mma { hardware, emulated } => {
            out.push_str("#if ORCL_MMA_SYNC\n");
            write_block(out, hardware, depth, w);
            out.push_str("#else\n");
            write_block(out, emulated, depth, w);
            out.push_str("#endif\n");
        }
        _ => {}
    }
}

/// Print a kernel as OpenCL C or CUDA C.
pub fn write(k: &KernelFn, backend: Backend) -> String {
    let w = Words {
        opencl: backend == Backend::OpenCl,
        index: if k.index32 { "int" } else { "long" },
    };
    let mut out = String::new();
    if w.opencl && k.fp64 {
        out.push_str("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    }
    if !w.opencl && k.limits {
        out.push_str(CUDA_LIMITS);
    }
    if w.opencl
        && k.atomics
            .iter()
            .any(|t| matches!(t, ScalarType::Double | ScalarType::Long))
    {
        out.push_str("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n");
    }
    for (name, value) in &k.defines {
        let _ = writeln!(out, "#define {name} {value}");
    }
    for t in &k.atomics {
        // Once per translation unit: `_file.cu` holds the kernels of every variant.
        let guard = atomic::helper_name(*t).to_uppercase();
        let _ = writeln!(out, "#ifndef {guard}\n#define {guard}");
        out.push_str(&if w.opencl {
            atomic::opencl_helper(*t)
        } else {
            atomic::cuda_helper(*t)
        });
        out.push_str("#endif\n");
    }
    if k.params.iter().any(|p| p.ty.is_16bit()) {
        out.push_str(&widen::widen16(w.opencl));
    }
    write_header(&mut out, k, &w);
    out.push_str("{\n");
    for s in &k.body {
        write_stmt(&mut out, s, 1, &w);
    }
    out.push_str("}\n");
    out
}

fn write_header(out: &mut String, k: &KernelFn, w: &Words) {
    let (r_cl, r_cu) = if k.restrict {
        ("restrict ", "__restrict__ ")
    } else {
        ("", "")
    };
    let params: Vec<String> = k
        .params
        .iter()
        .map(|p| match (p.array, w.opencl) {
            (None, _) => format!("const {} {}", p.ty.c_name(), p.name),
            (Some(true), true) => format!("__global {} *{r_cl}{}", p.ty.c_name(), p.name),
            (Some(false), true) => {
                format!("__global const {} *{r_cl}{}", p.ty.c_name(), p.name)
            }
            (Some(true), false) => format!("{} *{r_cu}{}", p.ty.c_name(), p.name),
            (Some(false), false) => format!("const {} *{r_cu}{}", p.ty.c_name(), p.name),
        })
        .collect();
    if w.opencl {
        out.push_str("__kernel ");
        if let Some(t) = &k.vec_type_hint {
            let _ = writeln!(out, "__attribute__((vec_type_hint({t})))");
        }
        if let Some(l) = &k.declared_local {
            let mut e = l.clone();
            e.resize(3, 1);
            if k.size_hint {
                let _ = writeln!(
                    out,
                    "__attribute__((work_group_size_hint({}, {}, {})))",
                    e[0], e[1], e[2]
                );
            }
            let _ = writeln!(
                out,
                "__attribute__((reqd_work_group_size({}, {}, {})))",
                e[0], e[1], e[2]
            );
        }
        out.push_str("void ");
    } else {
        out.push_str("extern \"C\" __global__ void ");
        if let Some(l) = &k.declared_local {
            let threads = l.iter().product::<u64>();
            let _ = match k.min_blocks {
                0 | 1 => write!(out, "__launch_bounds__({threads}) "),
                b => write!(out, "__launch_bounds__({threads}, {b}) "),
            };
        }
    }
    let _ = writeln!(out, "orcl_kernel({})", params.join(", "));
}

fn write_block(out: &mut String, body: &[KStmt], depth: usize, w: &Words) {
    for b in body {
        write_stmt(out, b, depth, w);
    }
}

fn write_unroll(out: &mut String, pad: &str, unroll: Option<u32>) {
    match unroll {
        Some(0) => {
            let _ = writeln!(out, "{pad}#pragma unroll");
        }
        Some(n) => {
            let _ = writeln!(out, "{pad}#pragma unroll {n}");
        }
        None => {}
    }
}

fn write_local_array(
    out: &mut String,
    pad: &str,
    w: &Words,
    ty: ScalarType,
    name: &str,
    ext: &str,
    align: u64,
) {
    let _ = match (w.opencl, align) {
        (true, 0) => writeln!(out, "{pad}__local {} {name}{ext};", ty.c_name()),
        (false, 0) => writeln!(out, "{pad}__shared__ {} {name}{ext};", ty.c_name()),
        (true, a) => writeln!(
            out,
            "{pad}__local {} {name}{ext} __attribute__((aligned({a})));",
            ty.c_name()
        ),
        (false, a) => writeln!(
            out,
            "{pad}__shared__ __align__({a}) {} {name}{ext};",
            ty.c_name()
        ),
    };
}

/// [`KStmt::DynamicShared`] and [`KStmt::SharedView`]: CUDA's `extern __shared__` memory and
/// pointer-to-rows views into it; OpenCL's static `__local` arrays.
fn shared_view(out: &mut String, pad: &str, w: &Words, s: &KStmt) {
    match s {
        KStmt::DynamicShared { align } if !w.opencl && *align > 16 => {
            let _ = writeln!(
                out,
                "{pad}extern __shared__ __align__({align}) unsigned char orcl_dsmem0[];\n{pad}unsigned char *orcl_dsmem = orcl_dsmem0 + (({align}u - ((unsigned int)__cvta_generic_to_shared(orcl_dsmem0) & {}u)) & {}u);",
                align - 1,
                align - 1
            );
        }
        KStmt::DynamicShared { .. } if !w.opencl => {
            let _ = writeln!(
                out,
                "{pad}extern __shared__ __align__(16) unsigned char orcl_dsmem[];"
            );
        }
        KStmt::SharedView {
            ty,
            name,
            dims,
            offset,
            align,
        } => {
            let ext: String = dims.iter().map(|d| format!("[{d}]")).collect();
            if w.opencl {
                write_local_array(out, pad, w, *ty, name, &ext, *align);
            } else {
                let rows: String = dims[1..].iter().map(|d| format!("[{d}]")).collect();
                let t = ty.c_name();
                let _ = writeln!(
                    out,
                    "{pad}{t} (*{name}){rows} = ({t} (*){rows})(orcl_dsmem + {offset});"
                );
            }
        }
        _ => {}
    }
}

fn write_stmt(out: &mut String, s: &KStmt, depth: usize, w: &Words) {
    let pad = "    ".repeat(depth);
    let x = |e: &KExpr| w.query(e);
    match s {
        KStmt::Let { ty, name, value } => {
            let ty = if *ty == "long" { w.index } else { ty };
            let _ = writeln!(out, "{pad}const {ty} {name} = {};", x(value));
        }
        KStmt::Var { ty, name, value } => {
            let _ = match value {
                Some(v) => writeln!(out, "{pad}{ty} {name} = {};", x(v)),
                None => writeln!(out, "{pad}{ty} {name};"),
            };
        }
        KStmt::LocalArray {
            ty,
            name,
            dims,
            align,
        } => {
            let ext: String = dims.iter().map(|d| format!("[{d}]")).collect();
            write_local_array(out, &pad, w, *ty, name, &ext, *align);
        }
        KStmt::DynamicShared { .. } | KStmt::SharedView { .. } => shared_view(out, &pad, w, s),
        KStmt::LocalBuffer { ty, name, size } => {
            write_local_array(out, &pad, w, *ty, name, &format!("[{size}]"), 0);
        }
        KStmt::PrivateArray { ty, name, dims } => {
            let ext: String = dims.iter().map(|d| format!("[{d}]")).collect();
            let _ = writeln!(out, "{pad}{} {name}{ext};", ty.c_name());
        }
        KStmt::VecLoad { .. } => vec_load::write(out, &pad, w.opencl, s),
        KStmt::For {
            var,
            start,
            end,
            step,
            unroll,
            body,
        } => {
            write_unroll(out, &pad, *unroll);
            let _ = writeln!(
                out,
                "{pad}for ({} {var} = {}; {var} < {}; {var} += {}) {{",
                w.index,
                x(start),
                x(end),
                x(step)
            );
            write_block(out, body, depth + 1, w);
            let _ = writeln!(out, "{pad}}}");
        }
        KStmt::Loop {
            init,
            cond,
            next,
            unroll,
            body,
        } => {
            write_unroll(out, &pad, *unroll);
            let _ = writeln!(out, "{pad}for ({}; {}; {}) {{", x(init), x(cond), x(next));
            write_block(out, body, depth + 1, w);
            let _ = writeln!(out, "{pad}}}");
        }
        KStmt::If { cond, then } => {
            let _ = writeln!(out, "{pad}if ({}) {{", x(cond));
            write_block(out, then, depth + 1, w);
            let _ = writeln!(out, "{pad}}}");
        }
        KStmt::IfElse {
            cond,
            then,
            otherwise,
        } => {
            let _ = writeln!(out, "{pad}if ({}) {{", x(cond));
            write_block(out, then, depth + 1, w);
            let _ = writeln!(out, "{pad}}} else {{");
            write_block(out, otherwise, depth + 1, w);
            let _ = writeln!(out, "{pad}}}");
        }
        KStmt::Block(body) => {
            let _ = writeln!(out, "{pad}{{");
            write_block(out, body, depth + 1, w);
            let _ = writeln!(out, "{pad}}}");
        }
        KStmt::Store { target, value } => {
            let _ = writeln!(out, "{pad}{} = {};", x(target), x(value));
        }
        KStmt::Barrier => {
            let b = if w.opencl {
                "barrier(CLK_LOCAL_MEM_FENCE);"
            } else {
                "__syncthreads();"
            };
            let _ = writeln!(out, "{pad}{b}");
        }
        KStmt::Comment(text) => {
            let n = text.lines().count();
            for (i, l) in text.lines().enumerate() {
                let open = if i == 0 { "/* " } else { "   " };
                let close = if i + 1 == n { " */" } else { "" };
                let _ = writeln!(out, "{pad}{open}{l}{close}");
            }
        }
        KStmt::Line(e) => {
            let _ = writeln!(out, "{pad}{}", x(e));
        }
        KStmt::Code(e) => {
            for l in x(e).lines() {
                let _ = writeln!(out, "{pad}{l}");
            }
        }
        KStmt::Lines(text) => {
            for l in text.lines() {
                let _ = writeln!(out, "{pad}{l}");
            }
        }
        KStmt::MmaMacros { .. } | KStmt::Mma { .. } => write_mma(out, s, depth, w),
    }
}
