//! The kernel of one configuration, in OpenCL C or CUDA C++, from one template
//! (`templates/kernel.tera`): one work-item (thread) per iteration of the parallel loop, striding
//! by the global size or one contiguous chunk per work-group (ViennaCL study §2), reductions as a
//! private accumulator + `__local`/`__shared__` tree + one partial per work-group, `cacheBlocks`
//! tiles, `unrollInner` pragmas. The backends (`opencl`, `cuda`) map their transformation
//! arguments onto a [`Shape`] and add launch geometry.

use super::{c_expr, StmtWriter};
use crate::diag::Diagnostic;
use crate::ir::{Expr, ExprKind, Kernel, ScalarType};
use serde::Serialize;

/// Target language of a kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Dialect {
    /// OpenCL C 1.2 (`__kernel`, `get_global_id`, `__local`, `barrier`).
    OpenCl,
    /// CUDA C++ as compiled by NVRTC or nvcc (`extern "C" __global__`, `blockIdx`, `__shared__`,
    /// `__syncthreads`).
    Cuda,
}

/// The words of a dialect the template is written with.
#[derive(Debug, Clone, Serialize)]
struct DialectWords {
    opencl: bool,
    kernel: &'static str,
    global: &'static str,
    local: &'static str,
    barrier: &'static str,
    global_id: &'static str,
    local_id: &'static str,
    group_id: &'static str,
    num_groups: &'static str,
    local_size: &'static str,
    global_size: &'static str,
}

impl DialectWords {
    fn of(d: Dialect) -> Self {
        match d {
            Dialect::OpenCl => DialectWords {
                opencl: true,
                kernel: "__kernel",
                global: "__global ",
                local: "__local",
                barrier: "barrier(CLK_LOCAL_MEM_FENCE)",
                global_id: "(long)get_global_id(0)",
                local_id: "get_local_id(0)",
                group_id: "(long)get_group_id(0)",
                num_groups: "(long)get_num_groups(0)",
                local_size: "(long)get_local_size(0)",
                global_size: "(long)get_global_size(0)",
            },
            Dialect::Cuda => DialectWords {
                opencl: false,
                kernel: "extern \"C\" __global__",
                global: "",
                local: "__shared__",
                barrier: "__syncthreads()",
                global_id: "((long)blockIdx.x * blockDim.x + threadIdx.x)",
                local_id: "threadIdx.x",
                group_id: "(long)blockIdx.x",
                num_groups: "(long)gridDim.x",
                local_size: "(long)blockDim.x",
                global_size: "((long)gridDim.x * blockDim.x)",
            },
        }
    }
}

/// What the kernel of one configuration looks like, whatever the backend.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Shape {
    /// Work-items per work-group (threads per block).
    pub local_size: u64,
    /// Stage read-only inputs through local (shared) memory.
    pub cache_blocks: bool,
    /// `#pragma unroll` factor for the innermost loop; 1 = no pragma.
    pub unroll_inner: u32,
    /// `false`: stride by the global size; `true`: one contiguous chunk per work-group.
    pub chunked: bool,
    /// OpenCL `vec_type_hint` width (0 = none); ignored for CUDA.
    pub vec_hint: u32,
    /// OpenCL: `work_group_size_hint` + `reqd_work_group_size`; CUDA: `__launch_bounds__`.
    pub size_hint: bool,
}

/// A generated kernel (`orcl_kernel`) and its static local (shared) memory.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelSource {
    pub source: String,
    /// Bytes of `__local` / `__shared__` memory the kernel declares.
    pub local_mem_bytes: u64,
}

/// A deliberately broken variant, for testing that failures are caught (never used by a user's
/// tune unless `ORCL_TEST_FAULT` is set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Fault {
    Hang,
    Crash,
    Wrong,
}

/// A reduction in the kernel: private accumulator, `__local` tree, per-work-group partial.
#[derive(Serialize)]
struct Reduction {
    ty: &'static str,
    acc: String,
    local: String,
    partial: String,
    identity: &'static str,
    /// Combines `local[orcl_lid]` and `local[orcl_lid + orcl_w]`.
    combine: String,
}

/// Name of the kernel argument holding the per-work-group partial results of reduction `v`.
pub fn partial_name(v: &str) -> String {
    format!("orcl_partial_{v}")
}

/// Name of the private accumulator of reduction `v`.
pub fn accumulator_name(v: &str) -> String {
    format!("orcl_acc_{v}")
}

#[derive(Serialize)]
struct Tile {
    ty: &'static str,
    tile: String,
    source: String,
}

/// C text of the parallel loop's trip count (iterations), over the kernel's scalar arguments.
pub fn trip_expr(k: &Kernel) -> String {
    let l = &k.parallel;
    let none = |_: &Expr| None;
    let lo = c_expr(&l.lower, &none);
    let hi = c_expr(&l.upper, &none);
    let zero = matches!(l.lower.kind, ExprKind::Int(0));
    let s = l.step;
    match (l.inclusive, zero, s) {
        (true, true, 1) => format!("({hi}) >= 0 ? (long)({hi}) + 1 : 0"),
        (false, true, 1) => format!("({hi}) > 0 ? (long)({hi}) : 0"),
        (true, _, _) => format!("({hi}) >= ({lo}) ? ((long)({hi}) - (long)({lo})) / {s} + 1 : 0"),
        (false, _, _) => format!(
            "({hi}) > ({lo}) ? ((long)({hi}) - (long)({lo}) + {}) / {s} : 0",
            s - 1
        ),
    }
}

/// Render the kernel of one configuration in `dialect`.
///
/// Errors: a construct the backends cannot generate yet (arrays of rank > 1), located.
pub fn render_kernel(
    k: &Kernel,
    o: &Shape,
    dialect: Dialect,
    fault: Option<Fault>,
) -> Result<KernelSource, Diagnostic> {
    let d = DialectWords::of(dialect);
    for a in &k.args {
        if let Some(crate::ir::Symbol {
            kind: crate::ir::SymbolKind::Array { rank },
            ..
        }) = k.symbols.get(&a.name)
        {
            if *rank > 1 {
                return Err(Diagnostic::new(k.parallel.span, format!("`{}` has {rank} dimensions; orcl handles 1-D arrays (use `A[i*n+j]`)", a.name)));
            }
        }
    }
    let l = &k.parallel;
    let var = &l.var;
    let params: Vec<String> = k
        .args
        .iter()
        .map(|a| match (a.is_array, a.written) {
            _ if a.reduction.is_some() => {
                format!("{}{} *{}", d.global, a.ty.c_name(), partial_name(&a.name))
            }
            (false, _) => format!("const {} {}", a.ty.c_name(), a.name),
            (true, true) => format!("{}{} *{}", d.global, a.ty.c_name(), a.name),
            (true, false) => format!("{}const {} *{}", d.global, a.ty.c_name(), a.name),
        })
        .collect();
    let var_ty = k.symbols.get(var).map(|s| s.ty).unwrap_or(ScalarType::Int);

    // Arrays that are read-only and always subscripted exactly by the parallel variable can be
    // staged through local memory, one element per work-item.
    let mut tiles = Vec::new();
    if o.cache_blocks {
        for a in k.args.iter().filter(|a| a.is_array && !a.written) {
            let mut all_exact = true;
            let mut any = false;
            let mut visit = |e: &Expr| {
                if let ExprKind::Index { array, indices } = &e.kind {
                    if array == &a.name {
                        any = true;
                        all_exact &= indices.len() == 1
                            && matches!(&indices[0].kind, ExprKind::Var(v) if v == var);
                    }
                }
            };
            for_each_expr(&l.body, &mut visit);
            if any && all_exact {
                tiles.push(Tile {
                    ty: a.ty.c_name(),
                    tile: format!("orcl_tile_{}", a.name),
                    source: format!("{}[{var}]", a.name),
                });
            }
        }
    }
    let tiled: Vec<String> = tiles.iter().map(|t| t.tile.clone()).collect();
    let tiled_arrays: Vec<String> = tiles
        .iter()
        .map(|t| t.source.split('[').next().unwrap_or("").to_string())
        .collect();
    let reduced: Vec<&str> = k.reductions().map(|a| a.name.as_str()).collect();
    let subst = |e: &Expr| -> Option<String> {
        if let ExprKind::Var(v) = &e.kind {
            if reduced.contains(&v.as_str()) {
                return Some(accumulator_name(v));
            }
        }
        if let ExprKind::Index { array, .. } = &e.kind {
            if let Some(p) = tiled_arrays.iter().position(|t| t == array) {
                return Some(format!("{}[{}]", tiled[p], d.local_id));
            }
        }
        None
    };
    let cache = !tiles.is_empty();
    let has_inner = l.has_inner_loops();
    let unroll = (o.unroll_inner > 1).then_some(o.unroll_inner as i64);
    let mut w = StmtWriter {
        out: String::new(),
        indent: if cache { 3 } else { 2 },
        unroll: if has_inner { unroll } else { None },
        subst: &subst,
    };
    w.write_stmts(&l.body);

    let none = |_: &Expr| None;
    let lo = c_expr(&l.lower, &none);
    let index = match (&l.lower.kind, l.step) {
        (ExprKind::Int(0), 1) => format!("({})orcl_k", var_ty.c_name()),
        (_, 1) => format!("({})(({lo}) + orcl_k)", var_ty.c_name()),
        (_, s) => format!("({})(({lo}) + orcl_k * {s})", var_ty.c_name()),
    };
    let mut attributes = Vec::new();
    let mut launch_bounds = Vec::new();
    match dialect {
        Dialect::OpenCl => {
            if o.vec_hint > 0 {
                let base = k.element_type().c_name();
                attributes.push(if o.vec_hint == 1 {
                    format!("__attribute__((vec_type_hint({base})))")
                } else {
                    format!("__attribute__((vec_type_hint({base}{})))", o.vec_hint)
                });
            }
            if o.size_hint {
                attributes.push(format!(
                    "__attribute__((work_group_size_hint({}, 1, 1)))",
                    o.local_size
                ));
                attributes.push(format!(
                    "__attribute__((reqd_work_group_size({}, 1, 1)))",
                    o.local_size
                ));
            }
        }
        Dialect::Cuda => {
            if o.size_hint {
                launch_bounds.push(format!("__launch_bounds__({})", o.local_size));
            }
        }
    }
    let fault_wrong = match fault {
        Some(Fault::Wrong) => first_write(&l.body)
            .map(|t| c_expr(t, &subst))
            .or_else(|| reduced.first().map(|v| accumulator_name(v))),
        _ => None,
    };
    let reductions: Vec<Reduction> = k
        .reductions()
        .map(|a| {
            let op = a.reduction.expect("filtered");
            Reduction {
                ty: a.ty.c_name(),
                acc: accumulator_name(&a.name),
                local: format!("orcl_red_{}", a.name),
                partial: partial_name(&a.name),
                identity: op.identity(a.ty),
                combine: op.combine(
                    a.ty,
                    &format!("orcl_red_{}[orcl_lid]", a.name),
                    &format!("orcl_red_{}[orcl_lid + orcl_w]", a.name),
                ),
            }
        })
        .collect();
    let header = format!(
        "{var} = {lo}; {var} {} {}; {}",
        if l.inclusive { "<=" } else { "<" },
        c_expr(&l.upper, &none),
        if l.step == 1 {
            format!("{var}++")
        } else {
            format!("{var} += {}", l.step)
        }
    );
    let mut ctx = tera::Context::new();
    ctx.insert("d", &d);
    ctx.insert("fp64", &(k.uses_double() || has_double_literal(&l.body)));
    ctx.insert("cache", &cache);
    ctx.insert("chunked", &o.chunked);
    ctx.insert("local_size", &o.local_size);
    ctx.insert("attributes", &attributes);
    ctx.insert("launch_bounds", &launch_bounds);
    ctx.insert("params", &params);
    ctx.insert("loop_header", &header);
    ctx.insert("trip", &trip_expr(k));
    ctx.insert("unroll", &if has_inner { None } else { unroll });
    ctx.insert("var", var);
    ctx.insert("var_type", var_ty.c_name());
    ctx.insert("index", &index);
    ctx.insert("body", &w.out);
    ctx.insert("tiles", &tiles);
    ctx.insert("reductions", &reductions);
    ctx.insert("pow2", &o.local_size.next_power_of_two());
    ctx.insert("fault_hang", &(fault == Some(Fault::Hang)));
    ctx.insert("fault_crash", &(fault == Some(Fault::Crash)));
    ctx.insert("fault_wrong", &fault_wrong);
    let source = super::render("kernel.tera", &ctx);
    let local_mem_bytes = tiles
        .iter()
        .map(|t| t.ty)
        .chain(reductions.iter().map(|r| r.ty))
        .map(|t| if t == "double" || t == "long" { 8 } else { 4 })
        .sum::<u64>()
        * o.local_size;
    Ok(KernelSource {
        source,
        local_mem_bytes,
    })
}

pub(crate) fn for_each_expr(stmts: &[crate::ir::Stmt], f: &mut dyn FnMut(&Expr)) {
    use crate::ir::StmtKind::*;
    for s in stmts {
        match &s.kind {
            Assign { target, value, .. } => {
                target.visit(f);
                value.visit(f);
            }
            If { cond, then, other } => {
                cond.visit(f);
                for_each_expr(then, f);
                if let Some(o) = other {
                    for_each_expr(o, f);
                }
            }
            Decl { init, .. } => {
                if let Some(i) = init {
                    i.visit(f);
                }
            }
            For(l) => {
                l.lower.visit(f);
                l.upper.visit(f);
                for_each_expr(&l.body, f);
            }
            Block(b) => for_each_expr(b, f),
        }
    }
}

fn has_double_literal(stmts: &[crate::ir::Stmt]) -> bool {
    let mut found = false;
    for_each_expr(stmts, &mut |e| {
        if matches!(&e.kind, ExprKind::Float { single: false, .. }) {
            found = true;
        }
    });
    found
}

fn first_write(stmts: &[crate::ir::Stmt]) -> Option<&Expr> {
    use crate::ir::StmtKind::*;
    stmts.iter().find_map(|s| match &s.kind {
        Assign { target, .. } if matches!(target.kind, ExprKind::Index { .. }) => Some(target),
        Block(b) => first_write(b),
        _ => None,
    })
}
