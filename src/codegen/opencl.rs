//! OpenCL kernel generation (OrCL's transformations, Chaimov et al. 2014, §III-B): one
//! work-item per iteration of the parallel loop, striding by the global size (NDRange), with
//! `sizeHint`, `vecHint`, `cacheBlocks`, `unrollInner` and `clFlags`.

use super::{c_expr, StmtWriter};
use crate::diag::{did_you_mean, Diagnostic};
use crate::frontend::expr::{KeywordArg, Value};
use crate::ir::{Expr, ExprKind, Kernel, ScalarType};
use serde::Serialize;

/// Transformation arguments of `transform OpenCL(...)`, with their meaning.
pub const OPENCL_ARGS: &[(&str, &str)] = &[
    ("workGroups", "number of work-groups (global size = workGroups × workItemsPerGroup); default: enough to cover the loop"),
    ("workItemsPerGroup", "work-items per work-group (local size); default 128"),
    ("sizeHint", "add work_group_size_hint and reqd_work_group_size attributes (bool)"),
    ("vecHint", "vec_type_hint width: 0 (none), 1, 2, 3, 4, 8 or 16"),
    ("cacheBlocks", "stage read-only inputs through __local memory (bool)"),
    ("unrollInner", "#pragma unroll factor for the innermost loop; 1 = no pragma"),
    ("clFlags", "OpenCL build options (string), e.g. '-cl-fast-relaxed-math'"),
    ("incrementType", "'global': work-items stride by the global size (default); 'local': each work-group owns one contiguous chunk (ViennaCL study, section 2)"),
    ("device", "device index within the platform"),
    ("platform", "OpenCL platform index"),
];

/// Evaluated OpenCL transformation of one configuration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpenClOptions {
    /// `workGroups`: number of work-groups; `None` = enough to give each iteration a work-item.
    pub work_groups: Option<u64>,
    /// `workItemsPerGroup`: local size (work-items).
    pub work_items: u64,
    pub size_hint: bool,
    /// `vecHint`: 0 = no `vec_type_hint`.
    pub vec_hint: u32,
    pub cache_blocks: bool,
    /// `unrollInner`: 1 = no pragma.
    pub unroll_inner: u32,
    pub cl_flags: String,
    /// `incrementType`: `false` = 'global' (stride by the global size), `true` = 'local' (one
    /// contiguous chunk per work-group).
    pub chunked: bool,
    pub platform: usize,
    pub device: usize,
}

impl Default for OpenClOptions {
    fn default() -> Self {
        OpenClOptions {
            work_groups: None,
            work_items: 128,
            size_hint: false,
            vec_hint: 0,
            cache_blocks: false,
            unroll_inner: 1,
            cl_flags: String::new(),
            chunked: false,
            platform: 0,
            device: 0,
        }
    }
}

/// A deliberately broken variant, for testing that failures are caught (never used by a user's
/// tune unless `ORCL_TEST_FAULT` is set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Fault {
    Hang,
    Crash,
    Wrong,
}

/// Check the argument names of `transform OpenCL(...)` (unknown or repeated names are errors).
pub fn check_args(args: &[KeywordArg]) -> Result<(), Diagnostic> {
    let names: Vec<&str> = OPENCL_ARGS.iter().map(|(n, _)| *n).collect();
    for (k, a) in args.iter().enumerate() {
        if !names.contains(&a.name.as_str()) {
            let d = Diagnostic::new(
                a.name_span,
                format!("unknown OpenCL transformation argument `{}`", a.name),
            );
            return Err(match did_you_mean(&a.name, names.iter().copied()) {
                Some(h) => d.with_help(h),
                None => d.with_help(format!("the OpenCL transform takes {}", names.join(", "))),
            });
        }
        if args[..k].iter().any(|b| b.name == a.name) {
            return Err(Diagnostic::new(
                a.name_span,
                format!("`{}` is given twice", a.name),
            ));
        }
    }
    Ok(())
}

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

/// Evaluate the transformation arguments for one configuration (`env` gives param values).
pub fn options(
    args: &[KeywordArg],
    env: &dyn Fn(&str) -> Option<Value>,
) -> Result<OpenClOptions, Diagnostic> {
    let mut o = OpenClOptions::default();
    for a in args {
        let v = a.expr.eval(env)?;
        match a.name.as_str() {
            "workGroups" => o.work_groups = Some(int_arg(&v, a, 1)? as u64),
            "workItemsPerGroup" => o.work_items = int_arg(&v, a, 1)? as u64,
            "sizeHint" => o.size_hint = bool_arg(&v, a)?,
            "vecHint" => {
                let w = int_arg(&v, a, 0)?;
                if ![0, 1, 2, 3, 4, 8, 16].contains(&w) {
                    return Err(Diagnostic::new(
                        a.expr.span,
                        format!("`vecHint` must be 0, 1, 2, 3, 4, 8 or 16, found {w}"),
                    ));
                }
                o.vec_hint = w as u32;
            }
            "cacheBlocks" => o.cache_blocks = bool_arg(&v, a)?,
            "unrollInner" => o.unroll_inner = int_arg(&v, a, 1)?.min(1 << 16) as u32,
            "clFlags" => match v {
                Value::Str(s) => o.cl_flags = s,
                other => {
                    return Err(Diagnostic::new(
                        a.expr.span,
                        format!("`clFlags` must be a string, found {other}"),
                    ))
                }
            },
            "incrementType" => match v.as_str() {
                Some("global") => o.chunked = false,
                Some("local") => o.chunked = true,
                _ => {
                    return Err(Diagnostic::new(
                        a.expr.span,
                        format!("`incrementType` must be 'global' or 'local', found {v}"),
                    ))
                }
            },
            "device" => o.device = int_arg(&v, a, 0)? as usize,
            "platform" => o.platform = int_arg(&v, a, 0)? as usize,
            _ => {
                return Err(Diagnostic::new(
                    a.name_span,
                    format!("unknown OpenCL transformation argument `{}`", a.name),
                ))
            }
        }
    }
    Ok(o)
}

/// The NDRange of a variant: local size, and the global size either fixed or covering the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum GlobalSize {
    /// `workGroups × workItemsPerGroup` work-items.
    Fixed(u64),
    /// One work-item per iteration, rounded up to a multiple of the local size (computed at run
    /// time from the loop bounds).
    CoverLoop,
}

/// One generated OpenCL variant: what the skeleton builds and launches, and what `_file.c` embeds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpenClVariant {
    pub source: String,
    pub build_options: String,
    pub global_size: GlobalSize,
    /// Local size (work-items per work-group).
    pub local_size: u64,
    pub platform: usize,
    pub device: usize,
    /// Bytes of `__local` memory the kernel declares.
    pub local_mem_bytes: u64,
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
fn accumulator_name(v: &str) -> String {
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

/// Generate the kernel and launch geometry of one configuration.
///
/// Errors: a construct this backend cannot generate yet (arrays of rank > 1), located.
pub fn generate(
    k: &Kernel,
    o: &OpenClOptions,
    fault: Option<Fault>,
) -> Result<OpenClVariant, Diagnostic> {
    for a in &k.args {
        if let Some(crate::ir::Symbol {
            kind: crate::ir::SymbolKind::Array { rank },
            ..
        }) = k.symbols.get(&a.name)
        {
            if *rank > 1 {
                return Err(Diagnostic::new(k.parallel.span, format!("`{}` has {rank} dimensions; the OpenCL backend handles 1-D arrays (use `A[i*n+j]`)", a.name)));
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
                format!("__global {} *{}", a.ty.c_name(), partial_name(&a.name))
            }
            (false, _) => format!("const {} {}", a.ty.c_name(), a.name),
            (true, true) => format!("__global {} *{}", a.ty.c_name(), a.name),
            (true, false) => format!("__global const {} *{}", a.ty.c_name(), a.name),
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
                return Some(format!("{}[get_local_id(0)]", tiled[p]));
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
    if o.vec_hint > 0 {
        let base = k.element_type().c_name();
        attributes.push(if o.vec_hint == 1 {
            format!("vec_type_hint({base})")
        } else {
            format!("vec_type_hint({base}{})", o.vec_hint)
        });
    }
    if o.size_hint {
        attributes.push(format!("work_group_size_hint({}, 1, 1)", o.work_items));
        attributes.push(format!("reqd_work_group_size({}, 1, 1)", o.work_items));
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
    ctx.insert("fp64", &(k.uses_double() || has_double_literal(&l.body)));
    ctx.insert("cache", &cache);
    ctx.insert("chunked", &o.chunked);
    ctx.insert("local_size", &o.work_items);
    ctx.insert("attributes", &attributes);
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
    ctx.insert("pow2", &o.work_items.next_power_of_two());
    ctx.insert("fault_hang", &(fault == Some(Fault::Hang)));
    ctx.insert("fault_crash", &(fault == Some(Fault::Crash)));
    ctx.insert("fault_wrong", &fault_wrong);
    let source = super::render("opencl_kernel.cl.tera", &ctx);
    let local_mem_bytes = tiles
        .iter()
        .map(|t| t.ty)
        .chain(reductions.iter().map(|r| r.ty))
        .map(|t| if t == "double" || t == "long" { 8 } else { 4 })
        .sum::<u64>()
        * o.work_items;
    Ok(OpenClVariant {
        source,
        build_options: o.cl_flags.clone(),
        global_size: match o.work_groups {
            Some(g) => GlobalSize::Fixed(g.saturating_mul(o.work_items)),
            None => GlobalSize::CoverLoop,
        },
        local_size: o.work_items,
        platform: o.platform,
        device: o.device,
        local_mem_bytes,
    })
}

fn for_each_expr(stmts: &[crate::ir::Stmt], f: &mut dyn FnMut(&Expr)) {
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
