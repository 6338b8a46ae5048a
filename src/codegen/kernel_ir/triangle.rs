//! A triangular contraction's work-groups with no element of the triangle (syrk's tiles above the
//! diagonal, `lower::triangle`): the NDRange covers the triangle's bounding rectangle and the
//! stores are guarded (`j <= i`); a work-group whose whole tile fails the guard returns at once,
//! before any barrier (the test reads only its group ids, so the whole work-group leaves), which
//! halves the work of a square triangle.

use super::{KExpr, KStmt};
use crate::schedule::Schedule;
use orcl_frontend::analysis::{Contraction, ContractionForm, Nest};
use orcl_frontend::ir::c::c_expr;
use orcl_frontend::ir::{BinaryOp, Expr, ExprKind};

/// The C text `stores` (the results of one output) under a triangle's guard, when there is one
/// (`analysis::ContractionForm::Scalar`): only the triangle's elements are stored.
pub(super) fn guarded(guard: Option<&Expr>, stores: String) -> String {
    let Some(g) = guard else {
        return stores;
    };
    let mut out = format!("if ({}) {{\n", c_expr(g, &|_| None));
    for l in stores.lines() {
        out.push_str(&format!("    {l}\n"));
    }
    out.push_str("}\n");
    out
}

/// The conjuncts of `e` (`a && b && ...`).
fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(BinaryOp::And, a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e),
    }
}

/// `if (!(some element of the tile may pass the guard)) return;` for a contraction with a
/// triangle's guard, `None` otherwise. The guard's conjuncts are `j >= lo(i)`, `j <= hi(i)` or
/// `j < hi(i)` with bounds nondecreasing in `i` (`i + c`, as `lower::triangle` makes them), so
/// `j <= hi(i)` holds somewhere in the tile iff it holds at the tile's smallest `j` and largest
/// `i`, and `j >= lo(i)` iff at its largest `j` and smallest `i`: the test is exact for each
/// conjunct and never drops a tile with an element.
pub(super) fn empty_tile_exit(
    s: &Schedule,
    con: &Contraction<'_>,
    nest: &Nest<'_>,
) -> Option<KStmt> {
    let ContractionForm::Scalar { guard: Some(g), .. } = &con.form else {
        return None;
    };
    let (i, j) = (&nest.loops[0].var, &nest.loops[1].var);
    // The first and last value of loop `v` in the work-group's tile.
    let range = |v: &str| {
        let (d, dim) = s.dims.iter().enumerate().find(|(_, x)| x.var == v)?;
        Some((
            format!("orcl_base{d}"),
            format!("(orcl_base{d} + {})", dim.per_group.saturating_sub(1)),
        ))
    };
    let ((ilo, ihi), (jlo, jhi)) = (range(i)?, range(j)?);
    let mut parts = Vec::new();
    conjuncts(g, &mut parts);
    let mut tests = Vec::new();
    for p in parts {
        let ExprKind::Binary(op, a, _) = &p.kind else {
            return None;
        };
        if !matches!(&a.kind, ExprKind::Var(v) if v == j) {
            return None;
        }
        let (iv, jv) = match op {
            BinaryOp::Ge | BinaryOp::Gt => (&ilo, &jhi),
            BinaryOp::Le | BinaryOp::Lt => (&ihi, &jlo),
            _ => return None,
        };
        tests.push(c_expr(p, &|e: &Expr| match &e.kind {
            ExprKind::Var(v) if v == i => Some(iv.clone()),
            ExprKind::Var(v) if v == j => Some(jv.clone()),
            _ => None,
        }));
    }
    Some(KStmt::If {
        cond: KExpr::Text(format!("!({})", tests.join(" && "))),
        then: vec![KStmt::Lines("return;".into())],
    })
}
