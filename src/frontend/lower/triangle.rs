//! Triangular nests made rectangular (PolyBench's syrk/syr2k after [`super::prologue`]:
//! `for i: for (j = 0; j <= i; j++) { T acc = 0; for k: acc += t; C[i][j] = ...; }`): the loop
//! `j`, whose bounds depend on the parallel loop `i`, runs over the bounding box of the triangle
//! (`for (j = 0; j <= n - 1; j++)`) and its body is guarded by the triangle's bounds
//! (`if (j <= i) { ... }`). Each (i, j) of the triangle runs the same statements in the same
//! order and no other (i, j) runs any, so the loop computes exactly what it did; but both loops
//! now have bounds no enclosing loop changes, so `tile` maps (i, j) onto a 2-D NDRange covering
//! the rectangle, and `analysis::contraction` tiles the sum like gemm's, the guard kept on the
//! stores (the sums of the elements outside the triangle are computed and dropped). That last
//! step reads operands at rows of the box the triangle does not reach, so it is taken only where
//! each operand varies with one of `i`, `j` (then its rows are rows the triangle reads, when no
//! row of the parallel loop has an empty `j` range; a row with one reads an operand row the
//! original does not — the skeleton's validation and a failed variant, never a wrong value).
//! The triangle's bounds must be `i + c` (or `c + i`, `i - c`) and loop-invariant otherwise.
//! Only where `j`'s body is the sum's shape (`T acc = init; for k: ...`): other triangles stay as
//! written, one work-item per row.

use crate::diag::Span;
use crate::ir::{BinaryOp, Expr, ExprKind, Loop, Stmt, StmtKind};

/// The coefficient of `i` in `e` when `e` is `i`, `i + c`, `c + i`, `i - c` or free of `i`
/// (0), `c` free of `i` and of array elements; `None` otherwise.
fn unit_coef(e: &Expr, i: &str) -> Option<i64> {
    if e.reads_array() {
        return None;
    }
    if !e.mentions(i) {
        return Some(0);
    }
    match &e.kind {
        ExprKind::Var(v) if v == i => Some(1),
        ExprKind::Binary(BinaryOp::Add, a, b) => match (unit_coef(a, i)?, unit_coef(b, i)?) {
            (1, 0) | (0, 1) => Some(1),
            _ => None,
        },
        ExprKind::Binary(BinaryOp::Sub, a, b) if !b.mentions(i) => {
            (unit_coef(a, i)? == 1).then_some(1)
        }
        _ => None,
    }
}

/// `e` with every `i` replaced by `by`.
fn subst(e: &Expr, i: &str, by: &Expr) -> Expr {
    let s = |x: &Expr| Box::new(subst(x, i, by));
    let kind = match &e.kind {
        ExprKind::Var(v) if v == i => return by.clone(),
        ExprKind::Index { array, indices } => ExprKind::Index {
            array: array.clone(),
            indices: indices.iter().map(|x| subst(x, i, by)).collect(),
        },
        ExprKind::Unary(o, a) => ExprKind::Unary(*o, s(a)),
        ExprKind::Binary(o, a, b) => ExprKind::Binary(*o, s(a), s(b)),
        ExprKind::Call(f, a) => {
            ExprKind::Call(f.clone(), a.iter().map(|x| subst(x, i, by)).collect())
        }
        ExprKind::Cond(c, a, b) => ExprKind::Cond(s(c), s(a), s(b)),
        ExprKind::Cast(t, a) => ExprKind::Cast(*t, s(a)),
        other => other.clone(),
    };
    Expr { kind, span: e.span }
}

/// The only statement of `stmts` (through blocks), mutable.
fn only_mut(stmts: &mut [Stmt]) -> Option<&mut Stmt> {
    let [s] = stmts else {
        return None;
    };
    if matches!(s.kind, StmtKind::Block(_)) {
        let StmtKind::Block(b) = &mut s.kind else {
            return None;
        };
        return only_mut(b);
    }
    Some(s)
}

/// Whether `body` (through blocks) is the sum's shape: a floating declaration with a value, then a
/// loop.
fn sum_shape(body: &[Stmt]) -> bool {
    match body {
        [Stmt {
            kind: StmtKind::Block(b),
            ..
        }] => sum_shape(b),
        [Stmt {
            kind: StmtKind::Decl {
                ty, init: Some(_), ..
            },
            ..
        }, Stmt {
            kind: StmtKind::For(_),
            ..
        }, ..] => ty.is_float(),
        _ => false,
    }
}

/// Make the parallel loop `l`'s triangular nest rectangular with a guard (see the module docs);
/// whether it did.
pub(super) fn rectangle(l: &mut Loop) -> bool {
    let i = l.var.clone();
    if l.step != 1 || l.lower.mentions(&i) || l.upper.mentions(&i) {
        return false;
    }
    let span = l.span;
    let at = |kind: ExprKind| Expr {
        kind,
        span: Span::new(span.start, span.start),
    };
    // The parallel loop's first and last values.
    let first = l.lower.clone();
    let last = if l.inclusive {
        l.upper.clone()
    } else {
        at(ExprKind::Binary(
            BinaryOp::Sub,
            Box::new(l.upper.clone()),
            Box::new(at(ExprKind::Int(1))),
        ))
    };
    let Some(Stmt {
        kind: StmtKind::For(j),
        ..
    }) = only_mut(&mut l.body)
    else {
        return false;
    };
    let (Some(cl), Some(cu)) = (unit_coef(&j.lower, &i), unit_coef(&j.upper, &i)) else {
        return false;
    };
    if j.step != 1 || cl + cu == 0 || !sum_shape(&j.body) {
        return false;
    }
    let var = at(ExprKind::Var(j.var.clone()));
    let mut guard: Option<Expr> = None;
    let mut and = |c: Expr| {
        guard = Some(match guard.take() {
            Some(g) => at(ExprKind::Binary(BinaryOp::And, Box::new(g), Box::new(c))),
            None => c,
        })
    };
    if cl == 1 {
        and(at(ExprKind::Binary(
            BinaryOp::Ge,
            Box::new(var.clone()),
            Box::new(j.lower.clone()),
        )));
        j.lower = subst(&j.lower, &i, &first);
    }
    if cu == 1 {
        let op = if j.inclusive {
            BinaryOp::Le
        } else {
            BinaryOp::Lt
        };
        and(at(ExprKind::Binary(
            op,
            Box::new(var),
            Box::new(j.upper.clone()),
        )));
        j.upper = subst(&j.upper, &i, &last);
    }
    let Some(cond) = guard else {
        return false;
    };
    let body = std::mem::take(&mut j.body);
    j.body = vec![Stmt {
        kind: StmtKind::If {
            cond,
            then: body,
            other: None,
        },
        span: j.span,
    }];
    true
}

#[cfg(test)]
mod tests {
    /// The parallel loop of `code` (`C` m x m, `A` m x n), lowered and printed as C, and whether
    /// it was made rectangular.
    fn lowered(code: &str) -> (String, bool) {
        let text = format!(
            "void f(int m, int n, double beta, double C[m][m], double A[m][n]) {{\n    int i, j, k;\n    /*@ begin PerfTuning (\n def performance_params {{ param WI[] = [32]; }}\n def input_params {{ param M[] = [8]; param N[] = [8]; }}\n def input_vars {{ decl int m = M; decl int n = N; decl double beta = 2.0; decl static double C[M][M] = random; decl static double A[M][N] = random; }}\n ) @*/\n    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)\n {code}\n ) @*/\n {code}\n /*@ end @*/\n /*@ end @*/\n}}\n"
        );
        let regions = crate::region::parse(&text).expect("parses");
        let k = crate::lower::lower(&regions[0].raw, &regions[0].spec, &text).expect("lowers");
        let mut w = crate::ir::c::StmtWriter {
            out: String::new(),
            indent: 0,
            unroll: None,
            subst: &|_| None,
        };
        w.write_stmts(&k.parallel.body);
        (w.out, k.triangle)
    }

    #[test]
    fn triangles_become_guarded_rectangles() {
        let (lower, t) = lowered("for (i = 0; i < m; i++) { for (j = 0; j <= i; j++) C[i][j] *= beta; for (k = 0; k < n; k++) for (j = 0; j <= i; j++) C[i][j] += A[i][k] * A[j][k]; }");
        assert!(
            t && lower.starts_with("for (int j = 0; j <= m - 1; j++) {\n    if (j <= i) {"),
            "{lower}"
        );
        let (upper, t) = lowered("for (i = 1; i < m; i++) for (j = i + 1; j < m; j++) { C[i][j] = 0.0; for (k = 0; k < n; k++) C[i][j] += A[i][k] * A[j][k]; }");
        assert!(
            t && upper.starts_with("for (int j = 1 + 1; j < m; j++) {\n    if (j >= i + 1) {"),
            "{upper}"
        );
    }

    /// Left as written: a bound not `i + c`, a step of 2, a body that is not a sum.
    #[test]
    fn other_triangles_are_left_as_written() {
        for code in [
            "for (i = 0; i < m; i++) for (j = 0; j < 2 * i; j++) { C[i][j] = 0.0; for (k = 0; k < n; k++) C[i][j] += A[i][k]; }",
            "for (i = 0; i < m; i++) for (j = 0; j <= i; j += 2) { C[i][j] = 0.0; for (k = 0; k < n; k++) C[i][j] += A[i][k]; }",
            "for (i = 0; i < m; i++) for (j = 0; j <= i; j++) C[i][j] = beta * A[i][j % n];",
        ] {
            let (out, t) = lowered(code);
            assert!(!t && !out.contains("if ("), "{code}\n{out}");
        }
    }
}
