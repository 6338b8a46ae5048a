//! Matrix products with a prologue (PolyBench's 2mm/3mm `tmp[i][j] = 0.0; for (k ...)
//! tmp[i][j] += alpha*A[i][k]*B[k][j];`, gemm's `C[i][j] *= beta;` before the sum): the element
//! summed over `k` is replaced by a scalar accumulator (scalar replacement, Callahan, Carr &
//! Kennedy, *Improving register allocation for subscripted variables*, PLDI 1990), which makes the
//! nest the BLAS form `analysis::contraction` tiles (`T s = init; for k: s += term; after`):
//! - `X[e] = v; for k: X[e] += t;` becomes `T orcl_acc_X = v; for k: orcl_acc_X += t; X[e] = orcl_acc_X;`
//!   (the same additions in the same order);
//! - `X[e] *= f; for k: X[e] += t;` (or `X[e] = X[e] * f`) becomes
//!   `T orcl_acc_X = 0; for k: orcl_acc_X += t; X[e] = X[e] * f + orcl_acc_X;` (the scaled
//!   element added once, after the sum: a reordered floating sum, validated like one).
//!
//! Only where the parallel loop's body is one loop `j` whose body is exactly the prologue and the
//! `k` loop (the contraction's shape), or PolyBench's gemm order `for j: P; for k: for j: S;`,
//! which is first fused into that shape (see [`fuse`]); every other loop is left as written.

use crate::diag::Span;
use crate::ir::{AssignOp, BinaryOp, Expr, ExprKind, Loop, Stmt, StmtKind, Symbol, SymbolKind};
use std::collections::BTreeMap;

/// The only statement of `stmts` (through blocks), mutable.
fn only_mut(stmts: &mut Vec<Stmt>) -> Option<&mut Vec<Stmt>> {
    if let [Stmt {
        kind: StmtKind::Block(_),
        ..
    }] = stmts.as_slice()
    {
        let StmtKind::Block(b) = &mut stmts[0].kind else {
            return None;
        };
        return only_mut(b);
    }
    Some(stmts)
}

/// How the prologue starts the element: set to a value, or scaled.
enum Start {
    Set(Expr),
    Scale(Expr),
}

/// The prologue `s` on an array element: its target and how it starts it.
fn prologue(s: &Stmt) -> Option<(&Expr, Start)> {
    let StmtKind::Assign { target, op, value } = &s.kind else {
        return None;
    };
    let ExprKind::Index { array, .. } = &target.kind else {
        return None;
    };
    if value.mentions(array) && *op != AssignOp::Set {
        return None;
    }
    let start = match (op, &value.kind) {
        (AssignOp::Set, ExprKind::Binary(BinaryOp::Mul, a, b))
            if a.same_as(target) && !b.mentions(array) =>
        {
            Start::Scale((**b).clone())
        }
        (AssignOp::Set, ExprKind::Binary(BinaryOp::Mul, a, b))
            if b.same_as(target) && !a.mentions(array) =>
        {
            Start::Scale((**a).clone())
        }
        (AssignOp::Set, _) if !value.mentions(array) => Start::Set(value.clone()),
        (AssignOp::Mul, _) => Start::Scale(value.clone()),
        _ => return None,
    };
    Some((target, start))
}

/// The term `red` adds to `target` (`target += t` or `target = target + t`, `t` free of the
/// array), when that is its only statement.
fn added_term(red: &Loop, target: &Expr) -> Option<Expr> {
    let ExprKind::Index { array, .. } = &target.kind else {
        return None;
    };
    let body = match red.body.as_slice() {
        [Stmt {
            kind: StmtKind::Block(b),
            ..
        }] => b.as_slice(),
        b => b,
    };
    let [Stmt {
        kind: StmtKind::Assign {
            target: t,
            op,
            value,
        },
        ..
    }] = body
    else {
        return None;
    };
    if !t.same_as(target) || target.mentions(&red.var) {
        return None;
    }
    let term = match (op, &value.kind) {
        (AssignOp::Add, _) => value,
        (AssignOp::Set, ExprKind::Binary(BinaryOp::Add, a, b)) if a.same_as(target) => b,
        (AssignOp::Set, ExprKind::Binary(BinaryOp::Add, a, b)) if b.same_as(target) => a,
        _ => return None,
    };
    let free = |e: &Expr| !e.mentions(array);
    (free(term) && free(&red.lower) && free(&red.upper)).then(|| term.clone())
}

/// Whether `e` is `c*j + rest` with `c != 0` and `rest` free of `j` and `k` (then distinct `j`
/// give distinct values).
fn injective_in(e: &Expr, j: &str, k: &str) -> bool {
    fn terms<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match &e.kind {
            ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub, a, b) => {
                terms(a, out);
                terms(b, out);
            }
            _ => out.push(e),
        }
    }
    let mut ts = Vec::new();
    terms(e, &mut ts);
    let is_j = |x: &Expr| matches!(&x.kind, ExprKind::Var(v) if v == j);
    let mut with_j = 0;
    for t in ts {
        let scaled = match &t.kind {
            ExprKind::Binary(BinaryOp::Mul, a, b) => {
                (is_j(a) && matches!(b.kind, ExprKind::Int(c) if c != 0))
                    || (is_j(b) && matches!(a.kind, ExprKind::Int(c) if c != 0))
            }
            _ => false,
        };
        if is_j(t) || scaled {
            with_j += 1;
        } else if t.mentions(j) || t.mentions(k) {
            return false;
        }
    }
    with_j == 1
}

/// The only statement of `stmts` (through blocks).
fn only(stmts: &[Stmt]) -> Option<&Stmt> {
    match stmts {
        [Stmt {
            kind: StmtKind::Block(b),
            ..
        }] => only(b),
        [s] => Some(s),
        _ => None,
    }
}

/// PolyBench's gemm (and syrk) order, `for j: P; for k: for j: S;` in the parallel loop's body,
/// where `P` starts element `X[e(j)]` and `S` adds a term free of `X` to it: becomes
/// `for j: { P; for k: S; }`. Legal because iteration `j` of both loops touches `X[e(j)]` only
/// (`e` is `c*j + ...`, `c != 0`) and reads nothing else that the nest writes: each element sees
/// the same operations in the same order.
fn fuse(l: &mut Loop) {
    let Some(body) = only_mut(&mut l.body) else {
        return;
    };
    let [Stmt {
        kind: StmtKind::For(j1),
        ..
    }, Stmt {
        kind: StmtKind::For(k),
        span: k_span,
    }] = body.as_slice()
    else {
        return;
    };
    let (
        Some(p),
        Some(Stmt {
            kind: StmtKind::For(j2),
            ..
        }),
    ) = (only(&j1.body), only(&k.body))
    else {
        return;
    };
    let same = j1.var == j2.var
        && j1.lower.same_as(&j2.lower)
        && j1.upper.same_as(&j2.upper)
        && j1.inclusive == j2.inclusive
        && j1.step == j2.step;
    let Some((target, _)) = prologue(p).filter(|_| same) else {
        return;
    };
    let ExprKind::Index { array, indices } = &target.kind else {
        return;
    };
    let [e] = indices.as_slice() else {
        return;
    };
    let bounds_free = |x: &Expr| !x.mentions(&j1.var) && !x.mentions(array);
    if !injective_in(e, &j1.var, &k.var) || !bounds_free(&k.lower) || !bounds_free(&k.upper) {
        return;
    }
    let inner = Loop {
        body: j2.body.clone(),
        ..(*k).clone()
    };
    if added_term(&inner, target).is_none() {
        return;
    }
    let mut fused = j1.clone();
    fused.body = vec![
        p.clone(),
        Stmt {
            kind: StmtKind::For(inner),
            span: *k_span,
        },
    ];
    let span = body[0].span.to(*k_span);
    *body = vec![Stmt {
        kind: StmtKind::For(fused),
        span,
    }];
}

/// Rewrite the parallel loop `l` (see the module docs); the accumulator is added to `symbols`.
pub(super) fn scalar_replace(l: &mut Loop, symbols: &mut BTreeMap<String, Symbol>) {
    fuse(l);
    let Some(
        [Stmt {
            kind: StmtKind::For(j),
            ..
        }],
    ) = only_mut(&mut l.body).map(|b| b.as_mut_slice())
    else {
        return;
    };
    let Some(body) = only_mut(&mut j.body) else {
        return;
    };
    let [first, Stmt {
        kind: StmtKind::For(red),
        span: red_span,
    }] = body.as_slice()
    else {
        return;
    };
    let Some((target, start)) = prologue(first) else {
        return;
    };
    let Some(term) = added_term(red, target) else {
        return;
    };
    let ExprKind::Index { array, .. } = &target.kind else {
        return;
    };
    let Some(ty) = symbols.get(array).map(|s| s.ty).filter(|t| t.is_float()) else {
        return;
    };
    let acc = format!("orcl_acc_{array}");
    if symbols.contains_key(&acc) {
        return;
    }
    let at = |kind: ExprKind, span: Span| Expr { kind, span };
    let span = first.span;
    let var = at(ExprKind::Var(acc.clone()), span);
    let zero = at(
        ExprKind::Float {
            text: if ty == crate::ir::ScalarType::Float {
                "0.0f".into()
            } else {
                "0.0".into()
            },
            single: ty == crate::ir::ScalarType::Float,
        },
        span,
    );
    let (init, result) = match start {
        Start::Set(v) => (v, var.clone()),
        Start::Scale(f) => (
            zero,
            at(
                ExprKind::Binary(
                    BinaryOp::Add,
                    Box::new(at(
                        ExprKind::Binary(BinaryOp::Mul, Box::new(target.clone()), Box::new(f)),
                        span,
                    )),
                    Box::new(var.clone()),
                ),
                span,
            ),
        ),
    };
    let mut red = red.clone();
    let red_span = *red_span;
    red.body = vec![Stmt {
        kind: StmtKind::Assign {
            target: var,
            op: AssignOp::Add,
            value: term,
        },
        span: red_span,
    }];
    let store = Stmt {
        kind: StmtKind::Assign {
            target: target.clone(),
            op: AssignOp::Set,
            value: result,
        },
        span,
    };
    *body = vec![
        Stmt {
            kind: StmtKind::Decl {
                ty,
                name: acc.clone(),
                init: Some(init),
            },
            span,
        },
        Stmt {
            kind: StmtKind::For(red),
            span: red_span,
        },
        store,
    ];
    symbols.insert(
        acc.clone(),
        Symbol {
            name: acc,
            ty,
            kind: SymbolKind::Local,
            read: true,
            written: true,
        },
    );
}

#[cfg(test)]
mod tests {
    /// The parallel loop of `code` (matrices `C` m x m, `A` m x n, `B` n x m), lowered and
    /// printed as C.
    fn lowered(code: &str) -> String {
        let text = format!(
            "void f(int m, int n, double beta, double C[m][m], double A[m][n], double B[n][m]) {{\n    int i, j, k;\n    /*@ begin PerfTuning (\n def performance_params {{ param WI[] = [32]; }}\n def input_params {{ param M[] = [8]; param N[] = [8]; }}\n def input_vars {{ decl int m = M; decl int n = N; decl double beta = 2.0; decl static double C[M][M] = random; decl static double A[M][N] = random; decl static double B[N][M] = random; }}\n ) @*/\n    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)\n {code}\n ) @*/\n {code}\n /*@ end @*/\n /*@ end @*/\n}}\n"
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
        w.out
    }

    #[test]
    fn prologues_become_accumulators() {
        let set = lowered("for (i = 0; i < m; i++) for (j = 0; j < m; j++) { C[i][j] = 0.0; for (k = 0; k < n; k++) C[i][j] += A[i][k] * B[k][j]; }");
        assert!(
            set.contains("double orcl_acc_C = 0.0;")
                && set.contains("orcl_acc_C += A[i * n + k] * B[k * m + j];")
                && set.contains("C[i * m + j] = orcl_acc_C;"),
            "{set}"
        );
        let gemm = lowered("for (i = 0; i < m; i++) { for (j = 0; j < m; j++) C[i][j] *= beta; for (k = 0; k < n; k++) for (j = 0; j < m; j++) C[i][j] += A[i][k] * B[k][j]; }");
        assert!(
            gemm.starts_with("for (int j = 0; j < m; j++) {\n    double orcl_acc_C = 0.0;")
                && gemm.contains("C[i * m + j] = C[i * m + j] * beta + orcl_acc_C;"),
            "{gemm}"
        );
    }

    /// Not rewritten: the sum reads the element's array (another element of it), the j loops
    /// differ, the element does not separate the j iterations.
    #[test]
    fn other_nests_are_left_as_written() {
        for code in [
            "for (i = 0; i < m; i++) for (j = 0; j < m; j++) { C[i][j] = 0.0; for (k = 0; k < m; k++) C[i][j] += C[i][k] * B[0][j]; }",
            "for (i = 0; i < m; i++) { for (j = 0; j < m; j++) C[i][j] *= beta; for (k = 0; k < n; k++) for (j = 1; j < m; j++) C[i][j] += A[i][k] * B[k][j]; }",
            "for (i = 0; i < m; i++) { for (j = 0; j < m; j++) C[i][0] *= beta; for (k = 0; k < n; k++) for (j = 0; j < m; j++) C[i][0] += A[i][k] * B[k][j]; }",
        ] {
            let out = lowered(code);
            assert!(!out.contains("orcl_acc"), "{code}\n{out}");
        }
    }
}
