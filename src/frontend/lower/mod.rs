//! Lowering: the parsed loop plus the region's declarations and `input_vars` become a typed,
//! validated `ir::Kernel` (symbols resolved, kernel arguments in first-appearance order, loop-carried
//! dependences rejected).

mod dependence;
mod exact;
mod extents;
mod half;
mod names;
mod private;
mod prologue;
mod steps;
mod triangle;
mod walk;

use dependence::check_dependences;
use extents::{check_extents, flatten_loop};
pub use steps::SEQUENCE_VAR;
use walk::check_after;

use crate::annotation::RawRegion;
use crate::diag::{Diagnostic, Span};
use crate::ir::{
    AssignOp, Expr, ExprKind, ExtentArg, Kernel, KernelArg, Loop, ReduceOp, ScalarType, Stmt,
    StmtKind, Symbol, SymbolKind,
};
use crate::spec::TuningSpec;
use std::collections::{BTreeMap, BTreeSet};

/// Lower the loop of `region` with the types of its declarations and of `spec.input_vars`.
/// `file` is the whole input text (for the dims' source text).
///
/// Multi-dimensional arrays (`double A[M][N]`, `double A[][N]`, `double (*A)[N]`, the C99
/// parameter `double A[m][n]`, any rank) are flattened: every reference `A[e0][e1]` of the
/// returned loop is `A[e0 * E1 + e1]` over one row-major buffer, where the extent `E1` is the C
/// declaration's own expression when it is one of integer constants and `int`/`long` scalars of
/// `input_vars` (which become kernel arguments), and otherwise a `long` kernel argument
/// `orcl_A_dim1` (see `ir::ExtentArg`). `Kernel::source` keeps the original text.
///
/// Errors (located): undeclared variable, a variable with no value in `input_vars`, type mismatch
/// between the C declaration and `input_vars`, wrong subscript count, assigning a loop variable or
/// an input scalar, loop-carried dependence through an array, an array whose rows are not
/// contiguous (`double **A`, `double *A[N]`), extents that differ between the C declaration and
/// `input_vars`.
pub fn lower(region: &RawRegion, spec: &TuningSpec, file: &str) -> Result<Kernel, Diagnostic> {
    let ann = &region.loop_ann;
    let preamble = crate::preamble::check(region, spec)?;
    let (parallel, after) = crate::loop_lang::parse_loop_and_after(&ann.code, ann.code_span.start)?;
    match lower_loop(
        region,
        spec,
        file,
        &preamble,
        parallel.clone(),
        after.clone(),
        Mode::Kernel,
    ) {
        Ok(k) => Ok(k),
        // Not one kernel: perhaps a time loop over parallel nests (see `steps`).
        Err(e) => steps::lower_time_loop(region, spec, file, &preamble, parallel, after, e),
    }
}

/// How [`lower_loop`] treats its loop.
#[derive(Clone, Copy)]
pub(super) enum Mode<'m> {
    /// The loop of a one-kernel region: its outermost loop is the parallel one.
    Kernel,
    /// A time loop as a whole (names, types, arguments of the region): no dependence test, its
    /// nests are lowered as `Step`s.
    Region,
    /// A nest of a time loop's body: a kernel whose parallel loop is the nest's outermost
    /// loop, which reads the time loop's variable (name, type) as a scalar argument.
    Step(&'m str, ScalarType),
}

/// Lower `parallel` (and the statements `after` it) as one kernel, or as a whole time loop
/// (`mode`): names and types resolved, dependences tested (except for `Mode::Region`),
/// multi-dimensional arrays flattened, arguments in first-appearance order.
pub(super) fn lower_loop(
    region: &RawRegion,
    spec: &TuningSpec,
    file: &str,
    preamble: &[crate::ir::PreVar],
    mut parallel: Loop,
    after: Option<crate::ir::After>,
    mode: Mode,
) -> Result<Kernel, Diagnostic> {
    let ann = &region.loop_ann;
    let mut preamble = preamble.to_vec();
    let privates = crate::preamble::privatize(region, spec, &preamble, &mut parallel);
    // A nest of a time loop reads the step's value like a scalar valued before the loop.
    let mut known = preamble.clone();
    if let Mode::Step(var, ty) = mode {
        known.push(crate::ir::PreVar {
            name: var.to_string(),
            ty,
            c_ty: ty.c_name(),
            init: String::new(),
            implicit: None,
        });
    }
    let mut cx = Cx {
        region,
        spec,
        preamble: &known,
        implicit: Vec::new(),
        file,
        file_tree: std::cell::OnceCell::new(),
        symbols: BTreeMap::new(),
        first_use: Vec::new(),
        scopes: vec![BTreeSet::new()],
        reductions: BTreeMap::new(),
        shapes: BTreeMap::new(),
        extent_vars: BTreeMap::new(),
        extent_args: BTreeMap::new(),
        extent_checks: Vec::new(),
    };
    cx.declare_loop_var(&parallel)?;
    cx.expr(&parallel.lower)?;
    cx.expr(&parallel.upper)?;
    cx.scopes.push(BTreeSet::new());
    cx.stmts(&parallel.body)?;
    // A time loop as a whole is sequential: its nests are tested one by one as `Step`s.
    let deps = match mode {
        Mode::Region => dependence::Deps::default(),
        _ => check_dependences(&parallel, &cx.symbols)?,
    };
    let private_arrays = private::arrays(&parallel, &cx.symbols, &deps.private, spec)?;
    check_reduction_uses(&parallel, &cx.reductions)?;
    check_extents(spec, &cx.extent_checks)?;
    if !cx.shapes.is_empty() {
        flatten_loop(&mut parallel, &cx.shapes);
    }
    half::widen(&mut parallel, &cx.symbols)?;
    prologue::scalar_replace(&mut parallel, &mut cx.symbols);
    let triangle = !matches!(mode, Mode::Region) && triangle::rectangle(&mut parallel);

    if let Some(a) = &after {
        check_after(a, &cx.symbols, &cx.reductions)?;
        // `_file.c` runs them after the tuned loop and after its fallback: they must close the
        // code the annotation encloses too.
        if !ann.original.trim_end().ends_with(a.text.trim()) {
            return Err(Diagnostic::new(ann.end_span, format!(
                "the code this Loop annotation encloses does not end with `{}`, the statements after the loop in the annotation",
                a.text.trim()
            ))
            .with_help("repeat the annotation's loop and the statements after it, as written, between the annotation and its `/*@ end @*/`"));
        }
    }
    let implicit = std::mem::take(&mut cx.implicit);
    let args = kernel_args(&mut cx, spec, file, &deps);
    if !args.iter().any(|a| a.written) {
        return Err(Diagnostic::new(parallel.span, "the tuned loop writes no array and reduces into no scalar, so it computes nothing that can be kept")
            .with_help("store results in an array, or accumulate into a scalar (`s += e`)"));
    }
    let source = match mode {
        Mode::Step(..) => file
            .get(parallel.span.start..parallel.span.end)
            .unwrap_or("")
            .to_string(),
        _ => ann.code.trim().to_string(),
    };
    Ok(Kernel {
        parallel,
        symbols: cx.symbols,
        args,
        source,
        preamble: {
            preamble.extend(implicit);
            preamble
        },
        privates,
        private_arrays,
        after,
        steps: None,
        triangle,
    })
}

/// The kernel arguments of a lowered loop, in first-appearance order: its scalars and arrays with
/// their types, uses, `input_vars` dims, reductions and extents; arrays private to each
/// work-item (`deps.private`) are not arguments, and arrays summed into across the parallel loop
/// (`deps.atomic`) are marked `atomic_sum`.
fn kernel_args(
    cx: &mut Cx,
    spec: &TuningSpec,
    file: &str,
    deps: &dependence::Deps,
) -> Vec<KernelArg> {
    let mut args = Vec::new();
    let mut seen = BTreeSet::new();
    cx.first_use.sort();
    for (_, name) in &cx.first_use {
        if !seen.insert(name.clone()) || deps.private.contains(name) {
            continue;
        }
        let s = &cx.symbols[name];
        match s.kind {
            SymbolKind::Scalar | SymbolKind::Array { .. } => {
                let dims = spec
                    .input_vars
                    .iter()
                    .find(|v| &v.name == name)
                    .map(|v| {
                        v.dims
                            .iter()
                            .map(|d| {
                                file.get(d.span.start..d.span.end)
                                    .unwrap_or("")
                                    .trim()
                                    .to_string()
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                args.push(KernelArg {
                    name: name.clone(),
                    ty: s.ty,
                    is_array: matches!(s.kind, SymbolKind::Array { .. }),
                    written: s.written,
                    read: s.read,
                    dims,
                    reduction: cx.reductions.get(name).map(|(op, _)| *op),
                    extents: cx.shapes.get(name).cloned().unwrap_or_default(),
                    extent: cx.extent_args.get(name).cloned(),
                    atomic_sum: deps.atomic.contains(name),
                });
            }
            _ => {}
        }
    }
    args
}

struct Cx<'a> {
    region: &'a RawRegion,
    spec: &'a TuningSpec,
    /// The region's evaluated declarations before the Loop (`int n = N;`): typed scalars.
    preamble: &'a [crate::ir::PreVar],
    /// Function parameters bound to the input param of the same name in upper case.
    implicit: Vec<crate::ir::PreVar>,
    /// The whole input file (for the C declarators of multi-dimensional arrays).
    file: &'a str,
    /// `file` parsed as C, once for all arrays (parsing per array was arrays × file size).
    file_tree: std::cell::OnceCell<Option<tree_sitter::Tree>>,
    symbols: BTreeMap<String, Symbol>,
    /// Kernel-argument names with the byte offset of each use (sorted for first appearance).
    first_use: Vec<(usize, String)>,
    /// Names of loop variables and temporaries in scope, innermost last.
    scopes: Vec<BTreeSet<String>>,
    /// Reduction scalars: their operator and the span of their first update.
    reductions: BTreeMap<String, (ReduceOp, Span)>,
    /// Arrays of rank > 1: the kernel expressions of their extents 1..rank (0 is not needed).
    shapes: BTreeMap<String, Vec<Expr>>,
    /// Arrays of rank > 1: the scalars their extents read (kernel arguments used with the array).
    extent_vars: BTreeMap<String, Vec<String>>,
    /// The `orcl_A_dimK` arguments.
    extent_args: BTreeMap<String, ExtentArg>,
    /// (array, dimension, the C declaration's extent) to compare with `input_vars` per input size.
    extent_checks: Vec<(String, usize, Expr)>,
}

/// The reduction an assignment to scalar `name` performs, and its operand `e`:
/// `s += e`, `s -= e`, `s = s + e`, `s = e + s`, `s = s - e` (Sum); `s *= e`, `s = s * e`,
/// `s = e * s` (Product); `s = fmax(s, e)`, `s = fmax(e, s)` (Max); `fmin` (Min).
pub(super) fn reduction_of<'e>(
    name: &str,
    op: AssignOp,
    value: &'e Expr,
) -> Option<(ReduceOp, &'e Expr)> {
    crate::ir::accumulation(
        &|e| matches!(&e.kind, ExprKind::Var(v) if v == name),
        op,
        value,
    )
    .filter(|(_, e)| !e.mentions(name))
}

/// A reduction scalar may appear only in its own updates (`s += e` with `e` free of `s`).
pub(super) fn check_reduction_uses(
    l: &Loop,
    reductions: &BTreeMap<String, (ReduceOp, Span)>,
) -> Result<(), Diagnostic> {
    fn expr_uses(
        e: &Expr,
        reductions: &BTreeMap<String, (ReduceOp, Span)>,
    ) -> Result<(), Diagnostic> {
        let mut found = None;
        e.visit(&mut |x| {
            if let ExprKind::Var(v) = &x.kind {
                if found.is_none() && reductions.contains_key(v) {
                    found = Some((v.clone(), x.span));
                }
            }
        });
        match found {
            Some((v, span)) => Err(Diagnostic::new(span, format!("the reduction variable `{v}` is read outside its update; its value is only known after the loop"))
                .with_help(format!("use `{v}` only as `{v} += e` (or `*=`, `fmax`, `fmin`) inside the loop"))),
            None => Ok(()),
        }
    }
    fn stmts(
        ss: &[Stmt],
        reductions: &BTreeMap<String, (ReduceOp, Span)>,
    ) -> Result<(), Diagnostic> {
        for s in ss {
            match &s.kind {
                StmtKind::Assign { target, op, value } => match &target.kind {
                    ExprKind::Var(v) if reductions.contains_key(v) => {
                        if let Some((_, e)) = reduction_of(v, *op, value) {
                            expr_uses(e, reductions)?;
                        }
                    }
                    _ => {
                        expr_uses(target, reductions)?;
                        expr_uses(value, reductions)?;
                    }
                },
                StmtKind::If { cond, then, other } => {
                    expr_uses(cond, reductions)?;
                    stmts(then, reductions)?;
                    if let Some(o) = other {
                        stmts(o, reductions)?;
                    }
                }
                StmtKind::Decl { init: Some(i), .. } => expr_uses(i, reductions)?,
                StmtKind::Decl { .. } => {}
                StmtKind::For(l) => {
                    expr_uses(&l.lower, reductions)?;
                    expr_uses(&l.upper, reductions)?;
                    stmts(&l.body, reductions)?;
                }
                StmtKind::Block(b) => stmts(b, reductions)?,
            }
        }
        Ok(())
    }
    expr_uses(&l.lower, reductions)?;
    expr_uses(&l.upper, reductions)?;
    stmts(&l.body, reductions)
}

pub(super) fn base_type(c: &str) -> Option<ScalarType> {
    let words: Vec<&str> = c
        .split_whitespace()
        .filter(|w| {
            !matches!(
                *w,
                "const"
                    | "restrict"
                    | "__restrict"
                    | "__restrict__"
                    | "volatile"
                    | "register"
                    | "static"
            )
        })
        .collect();
    match words.join(" ").as_str() {
        "int" | "signed" | "signed int" => Some(ScalarType::Int),
        "long" | "long int" | "long long" | "long long int" => Some(ScalarType::Long),
        "float" => Some(ScalarType::Float),
        "double" => Some(ScalarType::Double),
        "_Float16" => Some(ScalarType::Half),
        "__bf16" => Some(ScalarType::BFloat16),
        _ => None,
    }
}

/// C text of an expression (for messages).
pub fn show(e: &Expr) -> String {
    crate::ir::c::c_expr(e, &|_| None)
}
