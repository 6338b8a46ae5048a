//! The kernel of one configuration, in OpenCL C or CUDA C++, from one template
//! (`templates/kernel.tera`): one work-item (thread) per iteration of the parallel loop, striding
//! by the global size or one contiguous chunk per work-group (ViennaCL study §2), reductions as a
//! private accumulator + `__local`/`__shared__` tree + one partial per work-group, `cacheBlocks`
//! tiles, `unrollInner` pragmas. The backends (`opencl`, `cuda`) map their transformation
//! arguments onto a [`Shape`] and add launch geometry.
//!
//! Four kernel forms, chosen from the shape and the loop:
//! - plain: a grid-stride (or chunked) loop over the iterations;
//! - tiles (`cacheBlocks`, 1-D): arrays read at exactly the parallel index staged per work-group;
//! - group-uniform passes (`nested`): when `cacheBlocks` stages an inner loop's shared operand
//!   (`x[j + c]`, read-only, with bounds that are the same in every work-item) in tiles of the
//!   local size, or `innerThreads` = T > 1 lanes split each iteration's inner reduction loop
//!   (lane-strided; partials combined by a tree in local memory; statements after the loop on
//!   lane 0). Every work-item takes part in every pass, tile load and barrier. T may be any value
//!   from 1 to the local size L: each work-group runs L / T iterations per pass, and when T does
//!   not divide L the last L mod T work-items idle (guarded). T > L is a [`ShapeError`];
//! - vectorised (`vecWidth` = W > 1, OpenCL only, `vector`): W iterations per work-item through
//!   `vloadW`/`vstoreW` and a scalar tail; reductions into a vector folded at the end. With
//!   `vecWidth`, `cacheBlocks` has nothing to stage (every element is loaded once) and is ignored.
//!
//! [`check_shape`] says why a shape does not fit a loop; backends locate that at the argument.

mod nested;
mod vector;

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
    /// Work-items (lanes) that share one iteration of the parallel loop and split its inner
    /// reduction loop between them (`innerThreads`); 1 = one work-item per iteration.
    pub inner_threads: u64,
    /// Iterations per work-item through `vloadN`/`vstoreN` (`vecWidth`, OpenCL only); 1 = scalar.
    pub vec_width: u32,
}

impl Default for Shape {
    fn default() -> Self {
        Shape {
            local_size: 128,
            cache_blocks: false,
            unroll_inner: 1,
            chunked: false,
            vec_hint: 0,
            size_hint: false,
            inner_threads: 1,
            vec_width: 1,
        }
    }
}

/// The transformation argument a [`ShapeError`] is about, so that a backend can locate it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeArg {
    /// `innerThreads` (OpenCL and CUDA).
    InnerThreads,
    /// `vecWidth` (OpenCL).
    VecWidth,
}

/// Why a [`Shape`] cannot be generated for a loop: which argument, what is wrong, what would work.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeError {
    pub arg: ShapeArg,
    pub message: String,
    pub help: Option<String>,
}

impl ShapeError {
    /// The error as a diagnostic at `span` (the argument's value in the annotation).
    pub fn at(self, span: crate::diag::Span) -> Diagnostic {
        let d = Diagnostic::new(span, self.message);
        match self.help {
            Some(h) => d.with_help(h),
            None => d,
        }
    }
}

/// Check that `o` can be generated for `k` in `dialect` (`innerThreads` needs an inner reduction
/// loop and at most the local size; `vecWidth` needs a 1-D unit-step loop with subscripts
/// `i + c`, and OpenCL). Backends call this first to report the error at the argument.
pub fn check_shape(k: &Kernel, o: &Shape, dialect: Dialect) -> Result<(), ShapeError> {
    vector::plan(k, o, dialect)?;
    nested::plan(k, o)?;
    Ok(())
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
    loop_trip(&k.parallel, &|_| None)
}

/// C text (`long`) of the trip count of loop `l`.
pub(crate) fn loop_trip_c(l: &crate::ir::Loop) -> String {
    loop_trip(l, &|_| None)
}

/// C text (`long`) of the trip count of loop `l`, its bounds printed through `subst`.
fn loop_trip(l: &crate::ir::Loop, subst: super::Subst) -> String {
    let lo = c_expr(&l.lower, subst);
    let hi = c_expr(&l.upper, subst);
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

/// C text of loop `l`'s variable (type `ty`) at iteration number `k` (a C expression).
fn loop_index(l: &crate::ir::Loop, ty: ScalarType, k: &str, subst: super::Subst) -> String {
    let k = if k.contains(' ') {
        format!("({k})")
    } else {
        k.to_string()
    };
    let lo = c_expr(&l.lower, subst);
    match (&l.lower.kind, l.step) {
        (ExprKind::Int(0), 1) => format!("({}){k}", ty.c_name()),
        (_, 1) => format!("({})(({lo}) + {k})", ty.c_name()),
        (_, s) => format!("({})(({lo}) + {k} * {s})", ty.c_name()),
    }
}

/// Render the kernel of one configuration in `dialect`.
///
/// Errors: a construct the backends cannot generate, located (multi-dimensional arrays arrive
/// flattened by `lower`).
pub fn render_kernel(
    k: &Kernel,
    o: &Shape,
    dialect: Dialect,
    fault: Option<Fault>,
) -> Result<KernelSource, Diagnostic> {
    let d = DialectWords::of(dialect);
    // Multi-dimensional arrays arrive flattened (`lower`): every reference has one subscript.
    let l = &k.parallel;
    let var = &l.var;
    let vectorised = vector::plan(k, o, dialect).map_err(|e| e.at(l.span))?;
    let nested_plan = nested::plan(k, o).map_err(|e| e.at(l.span))?;
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
    // (With vecWidth every element is loaded once, as part of a vector: nothing to stage.)
    if o.cache_blocks && vectorised.is_none() {
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
                // In group-uniform passes the tile has one element per iteration of the pass.
                let slot = if nested_plan.is_some() {
                    "orcl_slot"
                } else {
                    d.local_id
                };
                return Some(format!("{}[{slot}]", tiled[p]));
            }
        }
        None
    };
    let cache = !tiles.is_empty() && nested_plan.is_none();
    let has_inner = l.has_inner_loops();
    let unroll = (o.unroll_inner > 1).then_some(o.unroll_inner as i64);
    let nested = nested_plan
        .as_ref()
        .map(|p| nested::render(k, p, o.local_size, unroll, &subst));
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
    ctx.insert("nested", &nested);
    ctx.insert("vec", &vectorised);
    // CUDA has no INT_MIN or INFINITY of its own: defined where an identity may use them.
    let limits = !reductions.is_empty() || nested_plan.as_ref().is_some_and(|p| p.uses_limits());
    ctx.insert("limits", &limits);
    let nested_tiles = nested.as_ref().is_some_and(|n| n.has_tiles());
    let nested_partials = nested.as_ref().is_some_and(|n| n.has_partials());
    ctx.insert(
        "define_tile",
        &(cache || nested_tiles || (nested.is_some() && !tiles.is_empty())),
    );
    ctx.insert("define_wg", &(!reductions.is_empty() || nested_partials));
    let source = super::render("kernel.tera", &ctx);
    let local_mem_bytes = (tiles
        .iter()
        .map(|t| t.ty)
        .chain(reductions.iter().map(|r| r.ty))
        .map(|t| ScalarType::from_c(t).map_or(4, |t| t.size_bytes() as u64))
        .sum::<u64>()
        + nested_plan.as_ref().map_or(0, |p| p.local_bytes_per_item()))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernel of `code` in a function with the usual matVec / vector arguments.
    fn kernel(code: &str) -> Kernel {
        let text = format!(
            "double f(int m, int n, double a, const double *A, const double *x, double *y, double *w) {{\n    int i, j;\n    double s = 0.0;\n    /*@ begin PerfTuning (\n def performance_params {{ param WI[] = [32]; }}\n def input_params {{ param M[] = [8]; param N[] = [8]; }}\n def input_vars {{ decl int m = M; decl int n = N; decl double a = 2; decl double s = 0; decl static double A[M*N] = random; decl static double x[N] = random; decl static double y[M] = 0; decl static double w[N] = 0; }}\n ) @*/\n    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)\n {code}\n ) @*/\n {code}\n /*@ end @*/\n /*@ end @*/\n    return s;\n}}\n"
        );
        let prepared = crate::prepare::prepare("t.c", &text).expect("prepares");
        prepared[0].kernel.clone()
    }

    const MATVEC: &str = "for (i=0; i<m; i++) { double t = 0.0; for (j=0; j<n; j++) t += A[i*n+j]*x[j]; y[i] = t; s += t; }";

    fn shape(local: u64, cb: bool, lanes: u64, vw: u32) -> Shape {
        Shape {
            local_size: local,
            cache_blocks: cb,
            inner_threads: lanes,
            vec_width: vw,
            ..Shape::default()
        }
    }

    /// Staged tiles and lanes render in CUDA with CUDA's words only, and count their local memory.
    #[test]
    fn lanes_and_tiles_render_in_both_dialects() {
        let k = kernel(MATVEC);
        let o = shape(64, true, 8, 1);
        let cl = render_kernel(&k, &o, Dialect::OpenCl, None).unwrap();
        let cu = render_kernel(&k, &o, Dialect::Cuda, None).unwrap();
        for (src, words, foreign) in [
            (
                &cl.source,
                &[
                    "__local double orcl_tile_x_j",
                    "barrier(CLK_LOCAL_MEM_FENCE)",
                    "get_local_id(0)",
                ][..],
                &["__shared__", "__syncthreads", "threadIdx"][..],
            ),
            (
                &cu.source,
                &[
                    "__shared__ double orcl_tile_x_j",
                    "__syncthreads()",
                    "threadIdx.x",
                    "#define INFINITY",
                ][..],
                &[
                    "__local",
                    "barrier(",
                    "get_local_id",
                    "get_group_id",
                    "__global ",
                    "__kernel",
                ][..],
            ),
        ] {
            for w in words {
                assert!(src.contains(w), "no `{w}` in\n{src}");
            }
            for w in foreign {
                assert!(!src.contains(w), "`{w}` in\n{src}");
            }
            assert!(src.contains("orcl_q += 8"), "{src}");
            assert!(src.contains("orcl_part_t[orcl_tid + orcl_w]"), "{src}");
        }
        // A tile of x, the lanes' partials of t and the reduction tree of s: 3 doubles per item.
        assert_eq!(cl.local_mem_bytes, 3 * 8 * 64);
        assert_eq!(cu.local_mem_bytes, cl.local_mem_bytes);
    }

    /// `innerThreads=1` and `cacheBlocks=False` leave the one-work-item-per-iteration kernel.
    #[test]
    fn one_lane_is_the_identity() {
        let k = kernel(MATVEC);
        let plain = render_kernel(&k, &shape(32, false, 1, 1), Dialect::OpenCl, None).unwrap();
        assert!(!plain.source.contains("orcl_lane") && !plain.source.contains("orcl_active"));
        assert_eq!(plain.local_mem_bytes, 8 * 32);
    }

    /// Lanes that do not divide the local size leave the last work-items idle (guarded).
    #[test]
    fn idle_lanes_are_guarded() {
        let k = kernel(MATVEC);
        let src = render_kernel(&k, &shape(20, false, 8, 1), Dialect::Cuda, None)
            .unwrap()
            .source;
        assert!(src.contains("orcl_slot < 2 && orcl_k < orcl_trip"), "{src}");
        assert!(
            src.contains("orcl_lane + orcl_w < 8 && orcl_slot < 2"),
            "{src}"
        );
    }

    #[test]
    fn shape_errors_name_the_argument() {
        let k = kernel(MATVEC);
        let e = check_shape(&k, &shape(4, false, 8, 1), Dialect::Cuda).unwrap_err();
        assert_eq!(e.arg, ShapeArg::InnerThreads);
        assert!(
            e.message.contains("more than the local size (4)"),
            "{}",
            e.message
        );
        let e = check_shape(&k, &shape(32, false, 1, 4), Dialect::OpenCl).unwrap_err();
        assert_eq!(e.arg, ShapeArg::VecWidth);
        let axpy = kernel("for (i=0; i<n; i++) w[i] = a*x[i] + w[i];");
        let e = check_shape(&axpy, &shape(32, false, 2, 1), Dialect::OpenCl).unwrap_err();
        assert!(
            e.message.contains("needs a sequential inner loop"),
            "{}",
            e.message
        );
        let e = check_shape(&axpy, &shape(32, false, 1, 4), Dialect::Cuda).unwrap_err();
        assert!(e.message.contains("OpenCL only"), "{}", e.message);
        // render_kernel refuses too (located at the loop when the backend did not check first).
        assert!(render_kernel(&axpy, &shape(32, false, 1, 4), Dialect::Cuda, None).is_err());
    }

    /// vecWidth: vector body, scalar tail, vector accumulator folded component by component.
    #[test]
    fn vector_width_loads_stores_and_folds() {
        let k = kernel("for (i=1; i<n-1; i++) { w[i] = a*x[i+1] - x[i-1]; s += w[i]; }");
        let src = render_kernel(&k, &shape(32, true, 1, 4), Dialect::OpenCl, None)
            .unwrap()
            .source;
        for want in [
            "const long orcl_nvec = orcl_trip / 4;",
            "vstore4((double4)(a) * vload4(0, x + (i + 1)) - vload4(0, x + (i - 1)), 0, w + i);",
            "orcl_vacc_s += vload4(0, w + i);",
            "orcl_acc_s = orcl_acc_s + orcl_vacc_s.s3;",
            "for (long orcl_k = orcl_nvec * 4 + (long)get_global_id(0); orcl_k < orcl_trip;",
            "w[i] = a * x[i + 1] - x[i - 1];",
        ] {
            assert!(src.contains(want), "no `{want}` in\n{src}");
        }
        // cacheBlocks has nothing to stage in a vectorised loop.
        assert!(!src.contains("__local double orcl_tile"), "{src}");
    }
}
