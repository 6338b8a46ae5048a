//! Orio's preamble: the declarations between the `PerfTuning` header and the `Loop` annotation
//! (`int n=N;` in the OrCL paper's Fig. 2, `int nrows = m*n; double hx = 1.0/(m-1);` in its
//! PETSc kernels), checked against the spec, typed, and compiled as C into the timing skeleton.
//!
//! Orio compiles these statements into its skeleton with the input params as `#define`s and runs
//! them before the loop; orcl does the same (`skeletons/skeleton_inputs.c.tera`), so every
//! variable they declare has the value C gives it, and the loop may use it as a size, a scalar or
//! a bound (it becomes a kernel argument like a scalar of `input_vars`). The tuned file keeps the
//! statements where they were.

use crate::annotation::RawRegion;
use crate::diag::{did_you_mean, Diagnostic};
use crate::ir::{PreVar, PrivateVar, ScalarType};
use crate::spec::TuningSpec;

/// C math functions a preamble initializer may call (C99 `<math.h>`, which the skeleton includes).
pub const MATH_FUNCTIONS: &[&str] = &[
    "sqrt", "cbrt", "exp", "exp2", "log", "log2", "log10", "pow", "fabs", "floor", "ceil", "round",
    "trunc", "fmin", "fmax", "fmod", "sin", "cos", "tan", "atan", "atan2", "abs", "labs",
];

/// The scalar type of a preamble declaration's base type (`register`, `const`, `static`, ...
/// dropped), or `None` when it is not int/long/float/double.
pub fn scalar_type(ty: &str) -> Option<ScalarType> {
    let words: Vec<&str> = ty
        .split_whitespace()
        .filter(|w| {
            !matches!(
                *w,
                "const" | "register" | "static" | "auto" | "volatile" | "signed"
            )
        })
        .collect();
    match words.join(" ").as_str() {
        "" if ty.contains("signed") => Some(ScalarType::Int),
        "long int" | "long long" | "long long int" => Some(ScalarType::Long),
        w => ScalarType::from_c(w),
    }
}

/// Check the preamble of `region`: each initialized variable has a supported type, and its
/// initializer reads only input params, lets, scalars of `input_vars` and the preamble variables
/// declared before it, and calls only [`MATH_FUNCTIONS`]. Returns the initialized variables in
/// source order (a declaration without initializer, `double s;`, declares a variable of the
/// function and is not evaluated).
///
/// Errors (located at the name): an unsupported type; a name with no value in the skeleton (a
/// function parameter, a later or undeclared variable, an array); a call of another function; a
/// variable declared both here and in `input_vars`.
pub fn check(region: &RawRegion, spec: &TuningSpec) -> Result<Vec<PreVar>, Diagnostic> {
    let mut out: Vec<PreVar> = Vec::new();
    for d in &region.preamble {
        let Some((init, _)) = &d.init else { continue };
        if let Some(v) = spec.input_vars.iter().find(|v| v.name == d.name) {
            return Err(Diagnostic::new(
                d.name_span,
                format!(
                    "`{}` is declared before the Loop and also in `input_vars`; the timing skeleton cannot tell which value to use",
                    d.name
                ),
            )
            .with_help(format!("keep one: the statement before the Loop (Orio's style) or `decl {} {}` in `input_vars`", v.ty, v.name)));
        }
        let ty = scalar_type(&d.ty).ok_or_else(|| {
            Diagnostic::new(
                d.name_span,
                format!(
                    "`{}` is declared `{}` before the Loop; orcl evaluates declarations of int, long, float and double there",
                    d.name, d.ty
                ),
            )
        })?;
        for (f, span) in &d.calls {
            if !MATH_FUNCTIONS.contains(&f.as_str()) {
                let e = Diagnostic::new(
                    *span,
                    format!(
                        "the declaration of `{}` before the Loop calls `{f}`, which the timing skeleton does not have",
                        d.name
                    ),
                );
                return Err(match did_you_mean(f, MATH_FUNCTIONS.iter().copied()) {
                    Some(h) => e.with_help(h),
                    None => e.with_help("a declaration before the Loop may call C math functions (sqrt, exp, pow, fabs, ...); compute other values in `input_vars`"),
                });
            }
        }
        for (r, span) in &d.reads {
            let known = spec.input_params.iter().any(|p| &p.name == r)
                || spec.lets.iter().any(|l| &l.name == r)
                || spec
                    .input_vars
                    .iter()
                    .any(|v| &v.name == r && v.dims.is_empty())
                || out.iter().any(|p| &p.name == r);
            if known {
                continue;
            }
            let mut names: Vec<&str> = spec.input_params.iter().map(|p| p.name.as_str()).collect();
            names.extend(spec.lets.iter().map(|l| l.name.as_str()));
            names.extend(out.iter().map(|p| p.name.as_str()));
            let why = if spec.input_vars.iter().any(|v| &v.name == r) {
                format!("`{r}` is an array")
            } else if region.preamble.iter().any(|p| &p.name == r) {
                format!("`{r}` gets its value later or not at all")
            } else if region.decls.contains_key(r) {
                format!("`{r}` has no value in the timing skeleton")
            } else {
                format!("`{r}` is not declared")
            };
            let e = Diagnostic::new(
                *span,
                format!(
                    "the declaration of `{}` before the Loop reads `{r}`, but {why}",
                    d.name
                ),
            );
            return Err(match did_you_mean(r, names) {
                Some(h) => e.with_help(h),
                None => e.with_help("a declaration before the Loop may read input params (`int n = N;`), lets, scalars of `input_vars` and the variables declared before it"),
            });
        }
        out.push(PreVar {
            name: d.name.clone(),
            ty,
            c_ty: ty.c_name(),
            init: init.clone(),
            implicit: None,
        });
    }
    Ok(out)
}

/// Make private to each iteration of `l` the scalars the loop uses that are declared outside it
/// with no value in `input_vars` or the preamble, when every iteration assigns each one before
/// using it: in the innermost statement list holding all its uses, the first use is a statement
/// `v = e;` (`e` free of `v`), not inside an `if` or an inner loop. That assignment becomes the
/// declaration `T v = e;` of a per-iteration temporary (OpenCL/CUDA: a private variable of the
/// work-item). A scalar that does not qualify is left alone (lowering then reports it).
pub fn privatize(
    region: &RawRegion,
    spec: &TuningSpec,
    evaluated: &[PreVar],
    l: &mut crate::ir::Loop,
) -> Vec<PrivateVar> {
    use crate::ir::{Stmt, StmtKind};
    let mut names: Vec<String> = Vec::new();
    let mut loop_vars: Vec<String> = vec![l.var.clone()];
    fn collect(ss: &[Stmt], names: &mut Vec<String>, loop_vars: &mut Vec<String>) {
        for s in ss {
            let mut add = |e: &crate::ir::Expr| {
                e.visit(&mut |x| {
                    if let crate::ir::ExprKind::Var(v) = &x.kind {
                        if !names.contains(v) {
                            names.push(v.clone());
                        }
                    }
                })
            };
            match &s.kind {
                StmtKind::Assign { target, value, .. } => {
                    add(target);
                    add(value);
                }
                StmtKind::If { cond, then, other } => {
                    add(cond);
                    collect(then, names, loop_vars);
                    if let Some(o) = other {
                        collect(o, names, loop_vars);
                    }
                }
                StmtKind::Decl { name, init, .. } => {
                    if let Some(i) = init {
                        add(i);
                    }
                    loop_vars.push(name.clone());
                }
                StmtKind::For(f) => {
                    loop_vars.push(f.var.clone());
                    add(&f.lower);
                    add(&f.upper);
                    collect(&f.body, names, loop_vars);
                }
                StmtKind::Block(b) => collect(b, names, loop_vars),
            }
        }
    }
    collect(&l.body, &mut names, &mut loop_vars);
    let mut out = Vec::new();
    for name in names {
        if loop_vars.contains(&name)
            || spec.input_vars.iter().any(|v| v.name == name)
            || evaluated.iter().any(|p| p.name == name)
        {
            continue;
        }
        let Some(decl) = region.decls.get(&name).filter(|d| d.depth == 0) else {
            continue;
        };
        let Some(ty) = scalar_type(&decl.ty) else {
            continue;
        };
        let mut body = l.body.clone();
        if privatize_in(&mut body, &name, ty) {
            l.body = body;
            out.push(PrivateVar {
                name,
                ty,
                c_ty: ty.c_name(),
                decl_span: decl.span,
            });
        }
    }
    out
}

fn stmt_mentions(s: &crate::ir::Stmt, v: &str) -> bool {
    use crate::ir::StmtKind;
    match &s.kind {
        StmtKind::Assign { target, value, .. } => target.mentions(v) || value.mentions(v),
        StmtKind::If { cond, then, other } => {
            cond.mentions(v)
                || then.iter().any(|s| stmt_mentions(s, v))
                || other
                    .as_ref()
                    .is_some_and(|o| o.iter().any(|s| stmt_mentions(s, v)))
        }
        StmtKind::Decl { name, init, .. } => {
            name == v || init.as_ref().is_some_and(|i| i.mentions(v))
        }
        StmtKind::For(f) => {
            f.var == v
                || f.lower.mentions(v)
                || f.upper.mentions(v)
                || f.body.iter().any(|s| stmt_mentions(s, v))
        }
        StmtKind::Block(b) => b.iter().any(|s| stmt_mentions(s, v)),
    }
}

/// See [`privatize`]; `true` when every use of `v` in `list` was made a use of a temporary.
fn privatize_in(list: &mut [crate::ir::Stmt], v: &str, ty: ScalarType) -> bool {
    use crate::ir::{AssignOp, ExprKind, StmtKind};
    let uses: Vec<usize> = (0..list.len())
        .filter(|&k| stmt_mentions(&list[k], v))
        .collect();
    let Some(&first) = uses.first() else {
        return true;
    };
    let s = &mut list[first];
    if let StmtKind::Assign {
        target,
        op: AssignOp::Set,
        value,
    } = &s.kind
    {
        if matches!(&target.kind, ExprKind::Var(t) if t == v) && !value.mentions(v) {
            s.kind = StmtKind::Decl {
                ty,
                name: v.to_string(),
                init: Some(value.clone()),
            };
            return true;
        }
    }
    if uses.len() > 1 {
        return false;
    }
    match &mut s.kind {
        StmtKind::If { cond, then, other } => {
            !cond.mentions(v)
                && privatize_in(then, v, ty)
                && other.as_mut().is_none_or(|o| privatize_in(o, v, ty))
        }
        StmtKind::For(f) => {
            f.var != v
                && !f.lower.mentions(v)
                && !f.upper.mentions(v)
                && privatize_in(&mut f.body, v, ty)
        }
        StmtKind::Block(b) => privatize_in(b, v, ty),
        _ => false,
    }
}

/// The one-line warnings of the preamble and of the variables declared outside the Loop (printed
/// by `prepare` with the spec's warnings): a function parameter bound to an input param by name,
/// a scalar made private per work-item.
pub fn warnings(k: &crate::ir::Kernel) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for v in &k.preamble {
        if let Some(span) = v.implicit {
            out.push(Diagnostic::new(span, format!(
                "`{}` is used in the tuned loop with no value in `input_vars` or before the Loop; orcl takes it as input param `{}` (same name in upper case), as if `{} {} = {};` stood before the Loop",
                v.name, v.init, v.c_ty, v.name, v.init
            )));
        }
    }
    for a in &k.private_arrays {
        out.push(Diagnostic::new(a.span, format!(
            "every iteration writes the elements of `{}` it reads before reading them: each work-item gets its own copy of {} elements, and after the tuned loop `{}` does not hold the last iteration's values as after the original",
            a.name, a.len, a.name
        )));
    }
    for v in &k.privates {
        out.push(Diagnostic::new(v.decl_span, format!(
            "`{}` is declared outside the Loop and every iteration assigns it before using it: each work-item gets its own copy, and after the tuned loop `{}` does not hold the last iteration's value as after the original",
            v.name, v.name
        )));
    }
    out
}
