//! Per input size, the tuned loop's array references stay inside the arrays `input_vars` declares,
//! every `int` loop variable holds the values it takes (issue 15 F10), and a written subscript that mixes inner loop variables into the parallel one
//! (`C[i*n + j]`) gives distinct iterations distinct elements.
//!
//! The loop's own dependence test (`lower`) trusts the hand-flattened idiom `C[i*n + j]` because
//! it cannot see that `j` stays below `n`; here, where each input size is known, that trust is
//! checked. Orio's `testsuite/sandbox/cuda/MMMult.c` writes `C[i*n+j]` for `j < p` into an
//! `M*P` array: for `n < p` two iterations write the same element, for `n > p` the loop writes
//! past the array (and the timing skeleton's reference loop corrupts its heap). Both are located
//! errors naming the input size.
//!
//! Values are exact integer intervals over the iteration space (loop bounds may depend on outer
//! loop variables); a reference under an `if`, a `?:` or the right of `&&`/`||` is not checked
//! (its guard may keep it in range), nor one whose subscript orcl cannot evaluate (an array
//! element, a temporary, a call): no false errors, and what is checked is checked exactly.

use crate::diag::Diagnostic;
use crate::expr::Value;
use crate::ir::{
    BinaryOp, Expr, ExprKind, Kernel, Loop, ScalarType, Stmt, StmtKind, SymbolKind, UnaryOp,
};
use crate::spec::{TuningSpec, VarInit};
use std::collections::BTreeMap;

/// Closed integer interval `[lo, hi]`.
type Range = (i64, i64);

/// Check every input size of `spec` (`inputs`, from `space::input_combinations`).
///
/// Errors: a reference whose subscript reaches outside its `input_vars` array at some input size
/// (located at the reference), or a write `A[p*S + e]` (`p` the parallel loop variable, `e`
/// over inner loop variables) that two iterations of the parallel loop reach at the same element.
pub fn check(
    kernel: &Kernel,
    spec: &TuningSpec,
    inputs: &[BTreeMap<String, Value>],
) -> Result<(), Diagnostic> {
    for input in inputs {
        let env = spec.input_env(input);
        let scalars = scalar_values(kernel, spec, input);
        let Ok(elems) = crate::inputs::array_elems(spec, &env) else {
            continue;
        };
        let cx = Cx {
            kernel,
            scalars: &scalars,
            env: &env,
            elems: &elems,
            input,
        };
        let mut vars = BTreeMap::new();
        cx.in_loop(&kernel.parallel, &mut vars)?;
    }
    Ok(())
}

/// The integer scalars the loop reads that have a value at input size `input`: the scalars of
/// `input_vars` (`decl int n = N;`) and the preamble's integer declarations (Orio's `int n=N;`),
/// by name.
pub fn scalar_values(
    kernel: &Kernel,
    spec: &TuningSpec,
    input: &BTreeMap<String, Value>,
) -> BTreeMap<String, i64> {
    let env = spec.input_env(input);
    let mut scalars: BTreeMap<String, i64> = BTreeMap::new();
    for v in spec.input_vars.iter().filter(|v| v.dims.is_empty()) {
        if let VarInit::Expr(e) = &v.init {
            if let Some(x) = e.eval(&env).ok().and_then(|x| x.as_i64()) {
                scalars.insert(v.name.clone(), x);
            }
        }
    }
    for p in &kernel.preamble {
        if !matches!(p.ty, ScalarType::Int | ScalarType::Long) {
            continue;
        }
        let known = |n: &str| scalars.get(n).map(|x| Value::Int(*x)).or_else(|| env(n));
        let value = crate::expr::parse_expr(&p.init, 0)
            .ok()
            .and_then(|e| e.eval(&known).ok())
            .and_then(|x| x.as_i64());
        // A value its `int` cannot hold is reported by `prepare` at the input parameter.
        let fits = p.ty != ScalarType::Int || i32::try_from(value.unwrap_or(0)).is_ok();
        if let (Some(x), true) = (value, fits) {
            scalars.insert(p.name.clone(), x);
        }
    }
    scalars
}

/// The number of iterations of loop `l` of `kernel` at input size `input`, when its bounds
/// depend on no loop variable (`None` otherwise: a triangular loop, a bound orcl cannot
/// evaluate).
pub fn trip_count(
    kernel: &Kernel,
    spec: &TuningSpec,
    input: &BTreeMap<String, Value>,
    l: &Loop,
) -> Option<u64> {
    let env = spec.input_env(input);
    let scalars = scalar_values(kernel, spec, input);
    let elems = BTreeMap::new();
    let cx = Cx {
        kernel,
        scalars: &scalars,
        env: &env,
        elems: &elems,
        input,
    };
    let none = BTreeMap::new();
    let (lo, hi) = (cx.range(&l.lower, &none)?, cx.range(&l.upper, &none)?);
    if lo.0 != lo.1 || hi.0 != hi.1 || l.step < 1 {
        return None;
    }
    let last = if l.inclusive {
        hi.0
    } else {
        hi.0.checked_sub(1)?
    };
    if last < lo.0 {
        return Some(0);
    }
    u64::try_from((last - lo.0) / l.step + 1).ok()
}

struct Cx<'a> {
    kernel: &'a Kernel,
    scalars: &'a BTreeMap<String, i64>,
    env: &'a dyn Fn(&str) -> Option<Value>,
    elems: &'a BTreeMap<String, u64>,
    input: &'a BTreeMap<String, Value>,
}

impl Cx<'_> {
    /// A loop-invariant integer scalar's value at this input size.
    fn scalar(&self, n: &str) -> Option<i64> {
        if self
            .kernel
            .symbols
            .get(n)
            .is_some_and(|s| s.written || matches!(s.kind, SymbolKind::Local | SymbolKind::LoopVar))
        {
            return None; // changes during the loop
        }
        self.scalars
            .get(n)
            .copied()
            .or_else(|| (self.env)(n).and_then(|v| v.as_i64()))
    }

    /// The interval of `e` over `vars` (loop variables' intervals); `None` when unknown.
    fn range(&self, e: &Expr, vars: &BTreeMap<String, Range>) -> Option<Range> {
        match &e.kind {
            ExprKind::Int(v) => Some((*v, *v)),
            ExprKind::Var(n) => vars
                .get(n)
                .copied()
                .or_else(|| self.scalar(n).map(|x| (x, x))),
            ExprKind::Unary(UnaryOp::Plus, a) => self.range(a, vars),
            ExprKind::Unary(UnaryOp::Neg, a) => {
                let (lo, hi) = self.range(a, vars)?;
                Some((hi.checked_neg()?, lo.checked_neg()?))
            }
            ExprKind::Cast(ScalarType::Int | ScalarType::Long, a) => self.range(a, vars),
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.range(a, vars)?, self.range(b, vars)?);
                match op {
                    BinaryOp::Add => Some((x.0.checked_add(y.0)?, x.1.checked_add(y.1)?)),
                    BinaryOp::Sub => Some((x.0.checked_sub(y.1)?, x.1.checked_sub(y.0)?)),
                    BinaryOp::Mul => {
                        let p = [
                            x.0.checked_mul(y.0)?,
                            x.0.checked_mul(y.1)?,
                            x.1.checked_mul(y.0)?,
                            x.1.checked_mul(y.1)?,
                        ];
                        Some((*p.iter().min()?, *p.iter().max()?))
                    }
                    // Division by a positive constant (C truncates toward zero; both ends of
                    // a monotone map).
                    BinaryOp::Div if y.0 == y.1 && y.0 > 0 => Some((x.0 / y.0, x.1 / y.0)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Affine form of `e` over the loop variables in `vars`: (coefficient per variable, constant);
    /// `None` when `e` is not affine with coefficients known at this input size.
    fn affine(
        &self,
        e: &Expr,
        vars: &BTreeMap<String, Range>,
    ) -> Option<(BTreeMap<String, i64>, i64)> {
        match &e.kind {
            ExprKind::Int(v) => Some((BTreeMap::new(), *v)),
            ExprKind::Var(n) if vars.contains_key(n) => Some(([(n.clone(), 1)].into(), 0)),
            ExprKind::Var(n) => Some((BTreeMap::new(), self.scalar(n)?)),
            ExprKind::Unary(UnaryOp::Plus, a) => self.affine(a, vars),
            ExprKind::Cast(ScalarType::Int | ScalarType::Long, a) => self.affine(a, vars),
            ExprKind::Unary(UnaryOp::Neg, a) => scale(self.affine(a, vars)?, -1),
            ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) => {
                let (mut ca, ka) = self.affine(a, vars)?;
                let (cb, kb) = self.affine(b, vars)?;
                let sign = if *op == BinaryOp::Add { 1 } else { -1 };
                for (v, c) in cb {
                    let e = ca.entry(v).or_insert(0);
                    *e = e.checked_add(c.checked_mul(sign)?)?;
                }
                Some((ca, ka.checked_add(kb.checked_mul(sign)?)?))
            }
            ExprKind::Binary(BinaryOp::Mul, a, b) => {
                let (x, y) = (self.affine(a, vars)?, self.affine(b, vars)?);
                match (x.0.is_empty(), y.0.is_empty()) {
                    (true, _) => scale(y, x.1),
                    (_, true) => scale(x, y.1),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn in_loop(&self, l: &Loop, vars: &mut BTreeMap<String, Range>) -> Result<(), Diagnostic> {
        let (Some(lo), Some(hi)) = (self.range(&l.lower, vars), self.range(&l.upper, vars)) else {
            return Ok(());
        };
        let (first, last) = (lo.0, if l.inclusive { hi.1 } else { hi.1 - 1 });
        if last < first {
            return Ok(()); // no iteration at this size
        }
        // The loop variable must hold every value it takes, the one that ends the loop included
        // (issue 15 F10: `int i` up to a `long n` of 3·10^9 overflows in the reference run).
        let is_int = self
            .kernel
            .symbols
            .get(&l.var)
            .is_some_and(|s| s.ty == ScalarType::Int);
        let end = last.checked_add(l.step.max(1));
        if is_int && (first < i32::MIN as i64 || end.is_none_or(|e| e > i32::MAX as i64)) {
            return Err(Diagnostic::new(
                l.var_span,
                format!(
                    "at input {} the loop variable `{}` runs from {first} to {last}, which `int` cannot hold (at most {})",
                    self.sizes(),
                    l.var,
                    i32::MAX
                ),
            )
            .with_help(format!(
                "declare `{}` as `long`, or exclude such sizes from `input_params`",
                l.var
            )));
        }
        vars.insert(l.var.clone(), (first, last));
        let r = self.stmts(&l.body, vars);
        vars.remove(&l.var);
        r
    }

    fn stmts(&self, stmts: &[Stmt], vars: &mut BTreeMap<String, Range>) -> Result<(), Diagnostic> {
        for s in stmts {
            match &s.kind {
                StmtKind::Assign { target, value, .. } => {
                    self.expr(value, vars)?;
                    if let ExprKind::Index { indices, .. } = &target.kind {
                        for i in indices {
                            self.expr(i, vars)?;
                        }
                        self.reference(target, vars)?;
                        self.distinct_writes(target, vars)?;
                    }
                }
                StmtKind::Decl { init: Some(e), .. } => self.expr(e, vars)?,
                StmtKind::Decl { init: None, .. } => {}
                // Guarded: the condition may keep the references in range.
                StmtKind::If { cond, .. } => self.expr(cond, vars)?,
                StmtKind::For(l) => self.in_loop(l, vars)?,
                StmtKind::Block(b) => self.stmts(b, vars)?,
            }
        }
        Ok(())
    }

    /// Every unguarded array reference in `e`.
    fn expr(&self, e: &Expr, vars: &BTreeMap<String, Range>) -> Result<(), Diagnostic> {
        match &e.kind {
            ExprKind::Index { indices, .. } => {
                for i in indices {
                    self.expr(i, vars)?;
                }
                self.reference(e, vars)
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => self.expr(a, vars),
            ExprKind::Binary(BinaryOp::And | BinaryOp::Or, a, _) => self.expr(a, vars),
            ExprKind::Binary(_, a, b) => {
                self.expr(a, vars)?;
                self.expr(b, vars)
            }
            ExprKind::Call(_, args) => args.iter().try_for_each(|a| self.expr(a, vars)),
            ExprKind::Cond(c, _, _) => self.expr(c, vars),
            _ => Ok(()),
        }
    }

    fn sizes(&self) -> String {
        self.input
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A 1-D (flattened) reference inside its `input_vars` array.
    fn reference(&self, e: &Expr, vars: &BTreeMap<String, Range>) -> Result<(), Diagnostic> {
        let ExprKind::Index { array, indices } = &e.kind else {
            return Ok(());
        };
        let ([index], Some(&n)) = (indices.as_slice(), self.elems.get(array)) else {
            return Ok(());
        };
        let Some((lo, hi)) = self.range(index, vars) else {
            return Ok(());
        };
        let n = i64::try_from(n).unwrap_or(i64::MAX);
        if lo >= 0 && hi < n {
            return Ok(());
        }
        let (what, at) = if lo < 0 {
            ("below 0", lo)
        } else {
            ("past its end", hi)
        };
        Err(Diagnostic::new(
            e.span,
            format!(
                "`{}` reaches element {at} of `{array}`, {what}: at input {} `{array}` has {n} elements in `input_vars`",
                crate::lower::show(e),
                self.sizes()
            ),
        )
        .with_help(format!(
            "the loop must stay inside the arrays it is tuned on (its reference run would write or read outside `{array}`): give `{array}` the size the loop indexes, fix the subscript, or exclude such sizes with a constraint in `input_params`"
        )))
    }

    /// A write `A[p*S + Σ c_v v]` whose inner part spans more than the stride `S`: two
    /// iterations of the parallel loop `p` write one element (shown with a witness pair).
    fn distinct_writes(
        &self,
        target: &Expr,
        vars: &BTreeMap<String, Range>,
    ) -> Result<(), Diagnostic> {
        let par = &self.kernel.parallel;
        let ExprKind::Index { array, indices } = &target.kind else {
            return Ok(());
        };
        let [index] = indices.as_slice() else {
            return Ok(());
        };
        let Some((coef, _)) = self.affine(index, vars) else {
            return Ok(());
        };
        let inner: Vec<(&String, i64)> = coef
            .iter()
            .filter(|(v, c)| **v != par.var && **c != 0)
            .map(|(v, c)| (v, *c))
            .collect();
        let (Some(&s), [(v, c)]) = (coef.get(&par.var), inner.as_slice()) else {
            return Ok(()); // no inner variable (checked by lower), or several: not decided here
        };
        let (Some(&(p0, p1)), Some(&(v0, v1))) = (vars.get(&par.var), vars.get(*v)) else {
            return Ok(());
        };
        if s == 0 {
            return Ok(());
        }
        // s*dp + c*dv = 0 with 0 < |dp| <= p1-p0 (a multiple of the step), |dv| <= v1-v0.
        let step = par.step.max(1);
        let (span_p, span_v) = (p1 - p0, v1 - v0);
        let mut dp = step;
        while dp <= span_p && dp <= step.saturating_mul(1 << 16) {
            let t = s.checked_mul(dp);
            if let Some(t) = t.filter(|t| t % c == 0) {
                let dv = -(t / c);
                if dv.abs() <= span_v {
                    let (pa, va) = (p0, if dv < 0 { v0 - dv } else { v0 });
                    return Err(Diagnostic::new(
                        target.span,
                        format!(
                            "loop-carried dependence on `{array}`: at input {} iterations {} = {pa} and {} = {} of the parallel loop both write `{}` at one element (with {v} = {va} and {v} = {}): `{v}` runs over {} values but the stride of `{}` is {s}",
                            self.sizes(),
                            par.var,
                            par.var,
                            pa + dp,
                            crate::lower::show(target),
                            va + dv,
                            span_v + 1,
                            par.var,
                        ),
                    )
                    .with_help(format!(
                        "each iteration of `{}` must own its elements: multiply `{}` by the extent of `{v}` (the row length), or exclude such sizes with a constraint in `input_params`",
                        par.var, par.var
                    )));
                }
            }
            dp += step;
        }
        Ok(())
    }
}

fn scale((c, k): (BTreeMap<String, i64>, i64), f: i64) -> Option<(BTreeMap<String, i64>, i64)> {
    let mut out = BTreeMap::new();
    for (v, x) in c {
        out.insert(v, x.checked_mul(f)?);
    }
    Some((out, k.checked_mul(f)?))
}
