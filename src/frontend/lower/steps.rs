//! Regions that hold a time loop (PolyBench's stencils: `for (t = 0; t < tsteps; t++) { nest1;
//! nest2; }`): the time loop stays on the host, each nest of its body is a kernel lowered and
//! checked as a one-kernel region's loop is, and the kernels run in order once per step.
//!
//! Dependences: the time loop is sequential (it runs on the host); each nest's outermost loop is
//! parallel by the usual test (`dependence`); a dependence between two nests of one step, or
//! between steps, is honoured by the launch order (one in-order queue, or stream), and a value
//! that flows from one step to the next stays on the device, so no host copy is needed. What
//! cannot stay on the device is refused, located: a statement between the nests (it would run on
//! the host), a scalar reduction (its value would have to come back every step), a nest whose
//! NDRange depends on the step.

use super::{lower_loop, Mode};
use crate::annotation::RawRegion;
use crate::diag::{Diagnostic, Span};
use crate::ir::{After, ExprKind, Kernel, Loop, PreVar, ScalarType, Steps, Stmt, StmtKind};
use crate::spec::TuningSpec;

/// Lower `time` as a time loop over parallel nests, when it is one: its variable indexes no
/// array the loop writes (so it cannot be the parallel loop) and its body holds loop nests.
/// Otherwise `one`, the error of lowering it as one kernel, stands.
///
/// Errors (located): a statement between the nests; statements after the time loop inside the
/// annotation; a nest that reduces into a scalar; a nest whose parallel loops' bounds read the
/// time loop's variable; and every error of lowering a nest as a kernel (a dependence inside it).
pub(super) fn lower_time_loop(
    region: &RawRegion,
    spec: &TuningSpec,
    file: &str,
    preamble: &[PreVar],
    time: Loop,
    after: Option<After>,
    one: Diagnostic,
) -> Result<Kernel, Diagnostic> {
    let (time, after) = sequence(time, after);
    if !is_time_loop(&time) {
        return Err(one);
    }
    let t = time.var.as_str();
    let help_own = "or tune each nest inside the time loop as a region of its own";
    let mut nests = Vec::new();
    for s in &time.body {
        match &s.kind {
            StmtKind::For(l) => nests.push(l.clone()),
            _ => {
                return Err(Diagnostic::new(s.span, format!(
                    "the time loop `{t}` runs on the host (no array it writes is indexed by `{t}`) and launches each nest of its body as a kernel; this statement between the nests would have to run on the host at every step"
                ))
                .with_help(format!("a time loop's body may hold only loop nests: move the statement into a nest, {help_own}")))
            }
        }
    }
    if let Some(a) = &after {
        return Err(Diagnostic::new(
            a.span,
            format!(
                "statements after the time loop `{t}` inside the Loop annotation are not supported"
            ),
        )
        .with_help("move them after the annotation's `/*@ end @*/`"));
    }
    let ty = region
        .decls
        .get(t)
        .and_then(|d| super::base_type(&d.ty))
        .filter(|ty| !ty.is_float())
        .unwrap_or(ScalarType::Int);
    let mut kernels = Vec::new();
    for nest in nests {
        let k = lower_loop(
            region,
            spec,
            file,
            preamble,
            nest.clone(),
            None,
            Mode::Step(t, ty),
        )?;
        if let Some(r) = k.reductions().next() {
            let at = first_assignment(&nest.body, &r.name).unwrap_or(nest.span);
            return Err(Diagnostic::new(at, format!(
                "this nest of the time loop `{t}` reduces into the scalar `{}`; in a region that holds a time loop every value stays on the device from step to step, and a scalar reduction would have to come back to the host",
                r.name
            ))
            .with_help(format!("accumulate into an array element, {help_own}")));
        }
        check_step_bounds(&nest, t)?;
        kernels.push(k);
    }
    let mut k = lower_loop(region, spec, file, preamble, time, None, Mode::Region)?;
    k.steps = Some(Box::new(Steps { kernels }));
    Ok(k)
}

/// The variable of the one-step loop that stands for a region holding a sequence of nests without
/// a time loop.
pub const SEQUENCE_VAR: &str = "orcl_once";

/// A region holding a sequence of loop nests and nothing else (`first`, then `after` all loops) as
/// a time loop of one step (`for (orcl_once = 0; orcl_once < 1; orcl_once++) { ... }`, see
/// [`SEQUENCE_VAR`]) and no statements after it; otherwise the two unchanged.
fn sequence(first: Loop, after: Option<After>) -> (Loop, Option<After>) {
    let loops = |a: &After| {
        !a.stmts.is_empty() && a.stmts.iter().all(|s| matches!(s.kind, StmtKind::For(_)))
    };
    let a = match after {
        Some(a) if loops(&a) => a,
        other => return (first, other),
    };
    let at = |v: i64| crate::ir::Expr {
        kind: ExprKind::Int(v),
        span: Span::new(first.span.start, first.span.start),
    };
    let (span, var_span) = (
        first.span.to(a.span),
        Span::new(first.span.start, first.span.start),
    );
    let (lower, upper) = (at(0), at(1));
    let mut body = vec![Stmt {
        span: first.span,
        kind: StmtKind::For(first),
    }];
    body.extend(a.stmts);
    let one = Loop {
        var: SEQUENCE_VAR.to_string(),
        var_span,
        lower,
        upper,
        inclusive: false,
        step: 1,
        body,
        span,
    };
    (one, None)
}

/// Whether `l` is a time loop: its body has a loop, no array it writes is subscripted with its
/// variable, and either its body has several loops or no array at all is subscripted with its
/// variable. (One nest under a loop that picks the rows it reads but always writes the same
/// elements, `for (i..) for (j..) B[0][j] = A[i][j];`, keeps the dependence error of its outer loop:
/// it is more likely a mistake than a time loop.)
fn is_time_loop(l: &Loop) -> bool {
    fn writes_with(ss: &[Stmt], v: &str) -> bool {
        ss.iter().any(|s| match &s.kind {
            StmtKind::Assign { target, .. } => {
                matches!(&target.kind, ExprKind::Index { .. }) && target.mentions(v)
            }
            StmtKind::If { then, other, .. } => {
                writes_with(then, v) || other.as_deref().is_some_and(|o| writes_with(o, v))
            }
            StmtKind::For(l) => writes_with(&l.body, v),
            StmtKind::Block(b) => writes_with(b, v),
            StmtKind::Decl { .. } => false,
        })
    }
    let loops = l
        .body
        .iter()
        .filter(|s| matches!(s.kind, StmtKind::For(_)))
        .count();
    let mut indexes = false;
    crate::ir::for_each_expr(&l.body, &mut |e| {
        if let ExprKind::Index { indices, .. } = &e.kind {
            indexes |= indices.iter().any(|i| i.mentions(&l.var));
        }
    });
    loops > 0 && !writes_with(&l.body, &l.var) && (loops > 1 || !indexes)
}

/// The span of the first assignment to scalar `name` in `ss`.
fn first_assignment(ss: &[Stmt], name: &str) -> Option<Span> {
    ss.iter().find_map(|s| match &s.kind {
        StmtKind::Assign { target, .. } if matches!(&target.kind, ExprKind::Var(v) if v == name) => {
            Some(target.span)
        }
        StmtKind::If { then, other, .. } => first_assignment(then, name)
            .or_else(|| other.as_deref().and_then(|o| first_assignment(o, name))),
        StmtKind::For(l) => first_assignment(&l.body, name),
        StmtKind::Block(b) => first_assignment(b, name),
        _ => None,
    })
}

/// The bounds of the loops an NDRange may cover (the nest's perfectly nested loops) do not read
/// the time loop's variable `t`: each kernel's launch is sized once for the whole region.
fn check_step_bounds(nest: &Loop, t: &str) -> Result<(), Diagnostic> {
    let mut l = nest;
    loop {
        for b in [&l.lower, &l.upper] {
            if b.mentions(t) {
                return Err(Diagnostic::new(b.span, format!(
                    "the bounds of loop `{}` read the time loop's `{t}`; orcl sizes each kernel of a time loop once for the whole region",
                    l.var
                ))
                .with_help("tune the nest inside the time loop as a region of its own"));
            }
        }
        match l.body.as_slice() {
            [Stmt {
                kind: StmtKind::For(inner),
                ..
            }] => l = inner,
            _ => return Ok(()),
        }
    }
}
