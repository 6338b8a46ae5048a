//! 16-bit float arrays (`_Float16`, IEEE binary16; `__bf16`, bfloat16): the loop may read them,
//! each read being the exact float value of the element (`(float)A[i*k+l]`, or the element used
//! where a float is). Every read of such an array in the lowered loop becomes a call of the
//! exact widening function (`orcl_h2f(A[..])`, `orcl_bf2f(A[..])`, defined by every writer: the
//! C skeletons, OpenCL C, CUDA), so no compiler needs 16-bit arithmetic (GCC 12 has `_Float16`
//! but no `__bf16`, clang 15 only stores `__bf16`) and the elements are stored as their bit
//! patterns (`ushort`). Every widening is exact: binary16 and bfloat16 values are floats.
//!
//! Errors (located): a 16-bit array written, a 16-bit scalar.

use crate::diag::{Diagnostic, Span};
use crate::ir::{Expr, ExprKind, Loop, Stmt, StmtKind, Symbol, SymbolKind};
use std::collections::BTreeMap;

/// Checks the uses of 16-bit symbols and wraps every read of a 16-bit array in its widening call.
pub(super) fn widen(p: &mut Loop, symbols: &BTreeMap<String, Symbol>) -> Result<(), Diagnostic> {
    if !symbols.values().any(|s| s.ty.is_16bit()) {
        return Ok(());
    }
    let cx = Widen { symbols };
    cx.expr(&mut p.lower)?;
    cx.expr(&mut p.upper)?;
    cx.stmts(&mut p.body)
}

struct Widen<'a> {
    symbols: &'a BTreeMap<String, Symbol>,
}

impl Widen<'_> {
    fn sixteen(&self, name: &str) -> Option<&Symbol> {
        self.symbols.get(name).filter(|s| s.ty.is_16bit())
    }

    fn scalar_error(&self, s: &Symbol, at: Span) -> Diagnostic {
        Diagnostic::new(
            at,
            format!(
                "`{}` is a `{}` scalar: orcl takes 16-bit floats only as the elements of arrays the loop reads",
                s.name,
                s.ty.user_name()
            ),
        )
        .with_help(format!("declare `{}` as float", s.name))
    }

    fn stmts(&self, stmts: &mut [Stmt]) -> Result<(), Diagnostic> {
        stmts.iter_mut().try_for_each(|s| self.stmt(s))
    }

    fn stmt(&self, s: &mut Stmt) -> Result<(), Diagnostic> {
        match &mut s.kind {
            StmtKind::Assign { target, value, .. } => {
                let name = match &target.kind {
                    ExprKind::Index { array, .. } | ExprKind::Var(array) => array.clone(),
                    _ => String::new(),
                };
                if let Some(sym) = self.sixteen(&name) {
                    return Err(Diagnostic::new(
                        target.span,
                        format!(
                            "`{name}` is a `{}` array: orcl reads 16-bit arrays (as float) but does not write them",
                            sym.ty.user_name()
                        ),
                    )
                    .with_help("store the results in a float array"));
                }
                if let ExprKind::Index { indices, .. } = &mut target.kind {
                    indices.iter_mut().try_for_each(|i| self.expr(i))?;
                }
                self.expr(value)
            }
            StmtKind::If { cond, then, other } => {
                self.expr(cond)?;
                self.stmts(then)?;
                other.as_deref_mut().map_or(Ok(()), |o| self.stmts(o))
            }
            StmtKind::Decl { init, .. } => init.as_mut().map_or(Ok(()), |e| self.expr(e)),
            StmtKind::For(l) => {
                self.expr(&mut l.lower)?;
                self.expr(&mut l.upper)?;
                self.stmts(&mut l.body)
            }
            StmtKind::Block(b) => self.stmts(b),
        }
    }

    fn expr(&self, e: &mut Expr) -> Result<(), Diagnostic> {
        match &mut e.kind {
            ExprKind::Var(v) => match self.sixteen(v) {
                Some(s) if s.kind == SymbolKind::Scalar || s.kind == SymbolKind::Local => {
                    Err(self.scalar_error(s, e.span))
                }
                _ => Ok(()),
            },
            ExprKind::Index { array, indices } => {
                indices.iter_mut().try_for_each(|i| self.expr(i))?;
                let Some(f) = self.sixteen(array).and_then(|s| s.ty.widen_fn()) else {
                    return Ok(());
                };
                let read = e.clone();
                e.kind = ExprKind::Call(f.to_string(), vec![read]);
                Ok(())
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => self.expr(a),
            ExprKind::Binary(_, a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Call(_, args) => args.iter_mut().try_for_each(|a| self.expr(a)),
            ExprKind::Cond(a, b, c) => {
                self.expr(a)?;
                self.expr(b)?;
                self.expr(c)
            }
            ExprKind::Int(_) | ExprKind::Float { .. } => Ok(()),
        }
    }
}
