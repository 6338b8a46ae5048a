//! The walk over the loop's statements and expressions: every name resolved, reads and writes
//! marked, reductions recognised, assignments checked; and the statements after the loop.

use super::{reduction_of, show, Cx};
use crate::diag::{Diagnostic, Span};
use crate::ir::{Expr, ExprKind, ReduceOp, Stmt, StmtKind, Symbol, SymbolKind};
use std::collections::{BTreeMap, BTreeSet};

impl Cx<'_> {
    pub(super) fn expr(&mut self, e: &Expr) -> Result<(), Diagnostic> {
        match &e.kind {
            ExprKind::Var(name) => {
                self.resolve(name, e.span, 0)?;
                self.mark(name, e.span, false);
            }
            ExprKind::Index { array, indices } => {
                self.resolve(array, e.span, indices.len())?;
                self.mark(array, e.span, false);
                for i in indices {
                    self.expr(i)?;
                }
            }
            _ => {
                let mut err = None;
                let mut subs = Vec::new();
                match &e.kind {
                    ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => subs.push(&**a),
                    ExprKind::Binary(_, a, b) => subs.extend([&**a, &**b]),
                    ExprKind::Call(_, args) => subs.extend(args.iter()),
                    ExprKind::Cond(a, b, c) => subs.extend([&**a, &**b, &**c]),
                    _ => {}
                }
                for s in subs {
                    if let Err(d) = self.expr(s) {
                        err = Some(d);
                        break;
                    }
                }
                if let Some(d) = err {
                    return Err(d);
                }
            }
        }
        Ok(())
    }

    pub(super) fn mark(&mut self, name: &str, at: Span, write: bool) {
        if let Some(s) = self.symbols.get_mut(name) {
            if write {
                s.written = true;
            } else {
                s.read = true;
            }
            if matches!(s.kind, SymbolKind::Scalar | SymbolKind::Array { .. }) {
                self.first_use.push((at.start, name.to_string()));
            }
        }
        // The scalars an array's extents read are kernel arguments right after the array.
        if let Some(vars) = self.extent_vars.get(name).cloned() {
            for v in vars {
                self.mark(&v, Span::new(at.start + 1, at.start + 1), false);
            }
        }
    }

    pub(super) fn stmts(&mut self, stmts: &[Stmt]) -> Result<(), Diagnostic> {
        for s in stmts {
            self.stmt(s)?;
        }
        Ok(())
    }

    pub(super) fn stmt(&mut self, s: &Stmt) -> Result<(), Diagnostic> {
        match &s.kind {
            StmtKind::Assign { target, op, value } => {
                self.expr(value)?;
                match &target.kind {
                    ExprKind::Var(name) => {
                        if self.in_scope(name) {
                            if self
                                .symbols
                                .get(name)
                                .is_some_and(|s| s.kind == SymbolKind::LoopVar)
                            {
                                return Err(Diagnostic::new(target.span, format!("the loop variable `{name}` cannot be assigned in the loop body")));
                            }
                            return Ok(());
                        }
                        self.resolve(name, target.span, 0)?;
                        let Some((r, _)) = reduction_of(name, *op, value) else {
                            return Err(Diagnostic::new(
                                target.span,
                                format!("`{name}` is assigned by every iteration of the parallel loop (a loop-carried scalar)"),
                            )
                            .with_help("iterations must be independent: store per-iteration results in an array, declare a temporary inside the loop, or accumulate a reduction (`s += e`, `s *= e`, `s = fmax(s, e)`, `s = fmin(s, e)`)"));
                        };
                        if let Some((prev, _)) = self.reductions.get(name) {
                            if *prev != r {
                                return Err(Diagnostic::new(target.span, format!("`{name}` is reduced with two different operators ({prev:?} and {r:?})")));
                            }
                        } else {
                            self.reductions.insert(name.clone(), (r, target.span));
                        }
                        self.mark(name, target.span, true);
                    }
                    ExprKind::Index { array, indices } => {
                        self.resolve(array, target.span, indices.len())?;
                        if *op != crate::ir::AssignOp::Set {
                            self.mark(array, target.span, false);
                        }
                        self.mark(array, target.span, true);
                        for i in indices {
                            self.expr(i)?;
                        }
                    }
                    _ => {
                        return Err(Diagnostic::new(
                            target.span,
                            "only a variable or an array element can be assigned",
                        ))
                    }
                }
            }
            StmtKind::If { cond, then, other } => {
                self.expr(cond)?;
                self.scopes.push(BTreeSet::new());
                self.stmts(then)?;
                self.scopes.pop();
                if let Some(o) = other {
                    self.scopes.push(BTreeSet::new());
                    self.stmts(o)?;
                    self.scopes.pop();
                }
            }
            StmtKind::Decl { ty, name, init } => {
                if let Some(i) = init {
                    self.expr(i)?;
                }
                if self.in_scope(name)
                    || self
                        .symbols
                        .get(name)
                        .is_some_and(|s| s.kind != SymbolKind::Local)
                    || self.spec.input_vars.iter().any(|v| &v.name == name)
                {
                    return Err(Diagnostic::new(
                        s.span,
                        format!("`{name}` is already declared; a temporary needs a new name"),
                    ));
                }
                self.symbols.insert(
                    name.clone(),
                    Symbol {
                        name: name.clone(),
                        ty: *ty,
                        kind: SymbolKind::Local,
                        read: true,
                        written: true,
                    },
                );
                self.scopes.last_mut().expect("scope").insert(name.clone());
            }
            StmtKind::For(l) => {
                self.expr(&l.lower)?;
                self.expr(&l.upper)?;
                self.scopes.push(BTreeSet::new());
                self.declare_loop_var(l)?;
                self.stmts(&l.body)?;
                self.scopes.pop();
            }
            StmtKind::Block(b) => {
                self.scopes.push(BTreeSet::new());
                self.stmts(b)?;
                self.scopes.pop();
            }
        }
        Ok(())
    }
}

/// Statements after the parallel loop (issue 11 class 3, Orio's vecNorm2 `r = sqrt(r);`): each
/// must assign a reduction scalar of the loop (`r = e;`, `r op= e;`) from reduction scalars,
/// scalars the loop reads, constants and math calls; they run once, after the reduction is
/// finished, in the skeleton (validated with the reference, which runs them too) and in
/// `_file.c`. Errors are located at the statement or the name.
pub(super) fn check_after(
    a: &crate::ir::After,
    symbols: &BTreeMap<String, Symbol>,
    reductions: &BTreeMap<String, (ReduceOp, Span)>,
) -> Result<(), Diagnostic> {
    let help = "after the loop, orcl runs assignments to the loop's reductions (`r = sqrt(r);`); move other statements after the Loop annotation's `/*@ end @*/`";
    for s in &a.stmts {
        let StmtKind::Assign { target, value, .. } = &s.kind else {
            return Err(Diagnostic::new(s.span, "orcl does not support this statement after the parallel loop inside a Loop annotation").with_help(help));
        };
        let ExprKind::Var(r) = &target.kind else {
            return Err(Diagnostic::new(target.span, format!("after the parallel loop, `{}` is assigned; only the loop's reduction scalars may be", show(target))).with_help(help));
        };
        if !reductions.contains_key(r) {
            return Err(Diagnostic::new(target.span, format!("after the parallel loop, `{r}` is assigned, but it is not a reduction of the loop")).with_help(help));
        }
        let mut bad = None;
        value.visit(&mut |x| match &x.kind {
            ExprKind::Var(v) if bad.is_none() => {
                let ok = symbols.get(v).is_some_and(|s| s.kind == SymbolKind::Scalar);
                if !ok {
                    bad = Some((v.clone(), x.span));
                }
            }
            ExprKind::Index { array, .. } if bad.is_none() => {
                bad = Some((array.clone(), x.span));
            }
            _ => {}
        });
        if let Some((v, span)) = bad {
            return Err(Diagnostic::new(span, format!("after the parallel loop, `{r}` is computed from `{v}`; orcl can use the loop's reductions and the scalars the loop reads there")).with_help(help));
        }
    }
    Ok(())
}

/// Whether `e` reads a scalar the loop writes (a reduction), which is not loop-invariant.
pub(super) fn written_scalar(e: &Expr, symbols: &BTreeMap<String, Symbol>) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        if let ExprKind::Var(v) = &x.kind {
            found |= symbols
                .get(v)
                .is_some_and(|s| s.kind == SymbolKind::Scalar && s.written);
        }
    });
    found
}
