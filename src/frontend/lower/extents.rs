//! Multi-dimensional arrays: the C declarator's extents checked against `input_vars` per input
//! size, and every reference flattened to one row-major subscript.

use super::show;
use crate::diag::Diagnostic;
use crate::ir::{BinaryOp, Expr, ExprKind, Loop, ScalarType, Stmt, StmtKind, UnaryOp};
use crate::spec::TuningSpec;
use std::collections::BTreeMap;

/// Per input size, each extent of a C declarator that orcl can evaluate (integer constants, size
/// variables of `input_vars`, input parameters) must equal the `input_vars` extent: the timing
/// skeleton lays the array out with the latter, the tuned file with the former.
pub(super) fn check_extents(
    spec: &TuningSpec,
    checks: &[(String, usize, Expr)],
) -> Result<(), Diagnostic> {
    if checks.is_empty() {
        return Ok(());
    }
    let Ok(inputs) = crate::space::input_combinations(spec) else {
        return Ok(());
    };
    for input in &inputs {
        let env = spec.input_env(input);
        let lookup = |n: &str| -> Option<i64> {
            match spec.input_vars.iter().find(|v| v.name == n) {
                Some(v) if v.dims.is_empty() => match &v.init {
                    crate::spec::VarInit::Expr(e) => e.eval(&env).ok()?.as_i64(),
                    _ => None,
                },
                Some(_) => None,
                None => env(n)?.as_i64(),
            }
        };
        for (array, k, c_ext) in checks {
            let Some(decl) = spec.input_vars.iter().find(|v| &v.name == array) else {
                continue;
            };
            let Some(d) = decl.dims.get(*k) else {
                continue;
            };
            let (Some(c), Some(want)) = (
                eval_int(c_ext, &lookup),
                d.eval(&env).ok().and_then(|v| v.as_i64()),
            ) else {
                continue;
            };
            if c != want {
                let sizes: Vec<String> = input.iter().map(|(k, v)| format!("{k}={v}")).collect();
                let what = if k + 1 == decl.dims.len() {
                    format!("the row length of `{array}`")
                } else {
                    format!("extent {} of `{array}`", k + 1)
                };
                return Err(Diagnostic::new(
                    d.span,
                    format!(
                        "{what} is {want} in `input_vars` but {c} in its C declaration (`{}`) at input {}",
                        show(c_ext),
                        sizes.join(" ")
                    ),
                )
                .with_help("give `input_vars` the C declaration's extents, so that the reference loop and the kernel see the same layout"));
            }
        }
    }
    Ok(())
}

/// The value of an integer expression whose names `lookup` knows (`None` otherwise, or on
/// overflow or division by zero).
pub(super) fn eval_int(e: &Expr, lookup: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Var(n) => lookup(n),
        ExprKind::Unary(UnaryOp::Neg, a) => eval_int(a, lookup)?.checked_neg(),
        ExprKind::Unary(UnaryOp::Plus, a) => eval_int(a, lookup),
        ExprKind::Cast(ScalarType::Int | ScalarType::Long, a) => eval_int(a, lookup),
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (eval_int(a, lookup)?, eval_int(b, lookup)?);
            match op {
                BinaryOp::Add => x.checked_add(y),
                BinaryOp::Sub => x.checked_sub(y),
                BinaryOp::Mul => x.checked_mul(y),
                BinaryOp::Div => x.checked_div(y),
                BinaryOp::Rem => x.checked_rem(y),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Rewrite every reference to a multi-dimensional array (`shapes`: its extents 1..rank) into
/// one row-major subscript: `A[e0][e1][e2]` → `A[(e0 * E1 + e1) * E2 + e2]`.
pub(super) fn flatten_loop(l: &mut Loop, shapes: &BTreeMap<String, Vec<Expr>>) {
    flatten_expr(&mut l.lower, shapes);
    flatten_expr(&mut l.upper, shapes);
    flatten_stmts(&mut l.body, shapes);
}

fn flatten_stmts(stmts: &mut [Stmt], shapes: &BTreeMap<String, Vec<Expr>>) {
    for s in stmts {
        match &mut s.kind {
            StmtKind::Assign { target, value, .. } => {
                flatten_expr(target, shapes);
                flatten_expr(value, shapes);
            }
            StmtKind::If { cond, then, other } => {
                flatten_expr(cond, shapes);
                flatten_stmts(then, shapes);
                if let Some(o) = other {
                    flatten_stmts(o, shapes);
                }
            }
            StmtKind::Decl { init, .. } => {
                if let Some(i) = init {
                    flatten_expr(i, shapes);
                }
            }
            StmtKind::For(l) => flatten_loop(l, shapes),
            StmtKind::Block(b) => flatten_stmts(b, shapes),
        }
    }
}

fn flatten_expr(e: &mut Expr, shapes: &BTreeMap<String, Vec<Expr>>) {
    let span = e.span;
    match &mut e.kind {
        ExprKind::Index { array, indices } => {
            for i in indices.iter_mut() {
                flatten_expr(i, shapes);
            }
            let Some(extents) = shapes.get(array.as_str()) else {
                return;
            };
            if indices.len() != extents.len() + 1 {
                return;
            }
            let mut it = std::mem::take(indices).into_iter();
            let mut flat = it.next().expect("rank > 1");
            for (next, extent) in it.zip(extents) {
                // `0 * E + e` is `e`; `e0 * E + 0` is `e0 * E`.
                let scaled = match flat.kind {
                    ExprKind::Int(0) => None,
                    _ => Some(Expr {
                        kind: ExprKind::Binary(
                            BinaryOp::Mul,
                            Box::new(flat),
                            Box::new(extent.clone()),
                        ),
                        span,
                    }),
                };
                flat = match (scaled, &next.kind) {
                    (None, _) => next,
                    (Some(s), ExprKind::Int(0)) => s,
                    (Some(s), _) => Expr {
                        kind: ExprKind::Binary(BinaryOp::Add, Box::new(s), Box::new(next)),
                        span,
                    },
                };
            }
            *indices = vec![flat];
        }
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => flatten_expr(a, shapes),
        ExprKind::Binary(_, a, b) => {
            flatten_expr(a, shapes);
            flatten_expr(b, shapes);
        }
        ExprKind::Call(_, args) => args.iter_mut().for_each(|a| flatten_expr(a, shapes)),
        ExprKind::Cond(a, b, c) => {
            flatten_expr(a, shapes);
            flatten_expr(b, shapes);
            flatten_expr(c, shapes);
        }
        _ => {}
    }
}
