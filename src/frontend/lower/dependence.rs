//! The dependence test: every written array is touched by distinct iterations at distinct
//! elements (one affine subscript, or provably disjoint offsets), so the parallel loop carries no
//! dependence through arrays.

use super::show;
use super::walk::written_scalar;
use crate::diag::Diagnostic;
use crate::ir::{Expr, ExprKind, Loop, Stmt, StmtKind, Symbol, SymbolKind, UnaryOp};
use std::collections::{BTreeMap, BTreeSet};

/// What the dependence test found beyond independent iterations: arrays that every iteration
/// accumulates into at shared elements (array reductions, done with atomic adds).
#[derive(Debug, Default)]
pub(super) struct Deps {
    pub atomic: BTreeSet<String>,
    /// Arrays written before read in every iteration: private to each work-item.
    pub private: BTreeSet<String>,
}

/// Every written array must have a dimension in which every reference to it (reads and writes)
/// uses one and the same subscript, affine in the parallel loop variable with a non-zero
/// coefficient (and, for arrays of rank > 1, otherwise made of values fixed for the whole
/// iteration: no inner loop variable, temporary or array element): then distinct iterations
/// touch distinct elements (rows, for a 2-D array) and the parallel loop has no loop-carried
/// dependence through arrays. For a 1-D array that is: one subscript `a*i + b` for every
/// reference; for `A[i][j]` written in an inner loop over `j`, reads of `A[i][j-1]` (the same
/// row, the same work-item) are fine and reads of `A[i-1][j]` are not.
///
/// An array that fails these rules is still accepted when the exact test ([`super::exact`])
/// proves that two distinct iterations never touch one element (covariance's `cov[i][j]` and
/// `cov[j][i]` with `j >= i`), or when every reference to it is a sum into one element
/// (`y[j] = y[j] + e`, `y[j] += e`: an array reduction, in [`Deps::atomic`]).
///
/// Errors: the first rule's error, with two iterations that touch one element when the loops,
/// run at small sizes, show them.
pub(super) fn check_dependences(
    l: &Loop,
    symbols: &BTreeMap<String, Symbol>,
) -> Result<Deps, Diagnostic> {
    let mut refs: Vec<(&str, &Expr, bool)> = Vec::new();
    collect_refs(&l.body, &mut refs);
    let exact_refs = super::exact::refs(&l.body);
    let mut deps = Deps::default();
    for (array, sym) in symbols {
        if !sym.written {
            continue;
        }
        let mine: Vec<&(&str, &Expr, bool)> = refs.iter().filter(|(a, _, _)| a == array).collect();
        let Err(err) = check_array(l, symbols, array, &mine) else {
            continue;
        };
        let all: Vec<&super::exact::Ref> = exact_refs.iter().filter(|r| r.array == array).collect();
        if super::exact::independent(l, symbols, &all) {
            continue;
        }
        if super::private::privatisable(symbols, array, &exact_refs) {
            deps.private.insert(array.clone());
            continue;
        }
        let summable = sym.ty.is_float() || sym.ty == crate::ir::ScalarType::Int;
        if summable && array_sum(&l.body, array) == Some(true) {
            deps.atomic.insert(array.clone());
            continue;
        }
        return Err(match super::exact::witness(l, symbols, &all) {
            Some(w) => Diagnostic {
                message: format!("{}; {w}", err.message),
                ..err
            },
            None => err,
        });
    }
    Ok(deps)
}

/// Whether every reference to `array` in `stmts` is a sum into one element: `a[e] += t`,
/// `a[e] -= t`, `a[e] = a[e] + t`, `a[e] = t + a[e]`, `a[e] = a[e] - t` with `t` free of `a`
/// (`Some(true)` when there is at least one); `Some(false)` when `array` is used otherwise.
fn array_sum(stmts: &[Stmt], array: &str) -> Option<bool> {
    let mut any = false;
    for s in stmts {
        let ok = match &s.kind {
            StmtKind::Assign { target, op, value } => {
                if matches!(&target.kind, ExprKind::Index { array: a, .. } if a == array) {
                    let sum = crate::ir::accumulation(&|e| e.same_as(target), *op, value);
                    match sum {
                        Some((crate::ir::ReduceOp::Sum, t))
                            if !t.mentions(array)
                                && !matches!(&target.kind, ExprKind::Index { indices, .. } if indices.iter().any(|i| i.mentions(array))) =>
                        {
                            any = true;
                            true
                        }
                        _ => false,
                    }
                } else {
                    !target.mentions(array) && !value.mentions(array)
                }
            }
            StmtKind::If { cond, then, other } => {
                !cond.mentions(array)
                    && array_sum(then, array).inspect(|a| any |= a).is_some()
                    && other
                        .as_ref()
                        .is_none_or(|o| array_sum(o, array).inspect(|a| any |= a).is_some())
            }
            StmtKind::Decl { init, .. } => init.as_ref().is_none_or(|i| !i.mentions(array)),
            StmtKind::For(f) => {
                !f.lower.mentions(array)
                    && !f.upper.mentions(array)
                    && array_sum(&f.body, array).inspect(|a| any |= a).is_some()
            }
            StmtKind::Block(b) => array_sum(b, array).inspect(|a| any |= a).is_some(),
        };
        if !ok {
            return None;
        }
    }
    Some(any)
}

/// A name in `e` whose value can differ between references of one iteration, or between
/// iterations other than through the parallel variable `par`: an inner loop variable, a
/// temporary, an array element.
fn varying(e: &Expr, par: &str, symbols: &BTreeMap<String, Symbol>) -> Option<String> {
    let mut found = None;
    e.visit(&mut |x| {
        if found.is_some() {
            return;
        }
        match &x.kind {
            ExprKind::Var(v)
                if v != par
                    && symbols.get(v).is_some_and(|s| {
                        matches!(s.kind, SymbolKind::LoopVar | SymbolKind::Local)
                    }) =>
            {
                found = Some(v.clone());
            }
            ExprKind::Index { array, .. } => found = Some(array.clone()),
            _ => {}
        }
    });
    found
}

/// The dependence test of one written array `array`, whose references (reads and writes, in
/// order) are `mine`.
fn check_array(
    l: &Loop,
    symbols: &BTreeMap<String, Symbol>,
    array: &str,
    mine: &[&(&str, &Expr, bool)],
) -> Result<(), Diagnostic> {
    let par = &l.var;
    let varies = |e: &Expr| varying(e, par, symbols);
    let Some(first_write) = mine.iter().find(|(_, _, w)| *w) else {
        return Ok(());
    };
    let ExprKind::Index { indices: wi, .. } = &first_write.1.kind else {
        return Ok(());
    };
    if wi.len() == 1 {
        let invariant = |e: &Expr| varies(e).is_none() && !written_scalar(e, symbols);
        if owned_offsets(l, mine, &invariant)? {
            return Ok(());
        }
    }
    let candidates: Vec<usize> = (0..wi.len()).filter(|&d| wi[d].mentions(par)).collect();
    if candidates.is_empty() {
        let whose = if wi.len() == 1 {
            "whose subscript does not"
        } else {
            "none of whose subscripts"
        };
        return Err(Diagnostic::new(first_write.1.span, format!(
            "loop-carried dependence: every iteration of the parallel loop writes `{}`, {whose} depend on `{par}`",
            show(first_write.1)
        ))
        .with_help(format!("the parallel loop's iterations must write distinct elements (a subscript in `{par}`), accumulate into the element with `+=` (an array reduction), or write every element they read earlier in the same iteration (a private copy per work-item)")));
    }
    let same_in = |d: usize| {
        mine.iter().all(|(_, e, _)| match &e.kind {
            ExprKind::Index { indices, .. } => {
                indices.len() == wi.len() && indices[d].same_as(&wi[d])
            }
            _ => true,
        })
    };
    // A 1-D subscript may mix in inner loop variables (`y[i*n + j]`, the hand-flattened 2-D
    // idiom, whose `j` stays below `n`): orcl trusts it, as it cannot see the bounds. A
    // multi-dimensional array has its own dimensions for that, so there the subscript that
    // separates iterations must be fixed for the whole iteration.
    let fixed = |e: &Expr| wi.len() == 1 || varies(e).is_none();
    if candidates
        .iter()
        .any(|&d| affine_in(&wi[d], par) && fixed(&wi[d]) && same_in(d))
    {
        return Ok(());
    }
    // Report against the first subscript that depends on the parallel variable.
    let d = candidates[0];
    let idx = &wi[d];
    if !affine_in(idx, par) {
        return Err(Diagnostic::new(
            idx.span,
            format!(
                "the subscript `{}` of `{array}` is not affine in `{par}`",
                show(idx)
            ),
        )
        .with_help("subscripts of written arrays must have the form `a*i + b`"));
    }
    if let Some(v) = varies(idx).filter(|_| wi.len() > 1) {
        return Err(Diagnostic::new(
            idx.span,
            format!(
                "loop-carried dependence on `{array}`: its subscript `{}` changes with `{v}` within one iteration of the parallel loop, so two iterations can write the same element",
                show(idx)
            ),
        )
        .with_help(format!("write `{array}` at a subscript made of `{par}` and loop-invariant scalars only (e.g. `{array}[{par}]`), and use `{v}` in another dimension or another array")));
    }
    check_races(array, first_write.1, idx, d, mine)
}

/// Every reference in `mine` to `array` must use the subscript `idx` of its first write `write`
/// in dimension `d`; the first that does not is a race between iterations.
fn check_races(
    array: &str,
    write: &Expr,
    idx: &Expr,
    d: usize,
    mine: &[&(&str, &Expr, bool)],
) -> Result<(), Diagnostic> {
    let ExprKind::Index { indices: wi, .. } = &write.kind else {
        return Ok(());
    };
    let rank = wi.len();
    for (_, e, is_write) in mine.iter().copied() {
        let ExprKind::Index { indices, .. } = &e.kind else {
            continue;
        };
        if indices.len() == rank && indices[d].same_as(idx) {
            continue;
        }
        return Err(Diagnostic::new(e.span, format!(
            "loop-carried dependence on `{array}`: it is written at `{}` and {} at `{}`, so iterations of the parallel loop would race",
            show(write),
            if *is_write { "written" } else { "read" },
            show(e)
        ))
        .with_help(if rank == 1 {
            "orcl parallelises only loops whose iterations are independent; read the old values from a separate array".to_string()
        } else {
            format!("orcl parallelises only loops whose iterations are independent: every reference to `{array}` must use the written subscript `{}` in one dimension (each iteration then owns its own rows); read the old values from a separate array", show(idx))
        }));
    }
    Ok(())
}

fn collect_refs<'a>(stmts: &'a [Stmt], out: &mut Vec<(&'a str, &'a Expr, bool)>) {
    fn reads<'a>(e: &'a Expr, out: &mut Vec<(&'a str, &'a Expr, bool)>) {
        match &e.kind {
            ExprKind::Index { array, indices } => {
                out.push((array.as_str(), e, false));
                indices.iter().for_each(|i| reads(i, out));
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => reads(a, out),
            ExprKind::Binary(_, a, b) => {
                reads(a, out);
                reads(b, out);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| reads(a, out)),
            ExprKind::Cond(a, b, c) => {
                reads(a, out);
                reads(b, out);
                reads(c, out);
            }
            _ => {}
        }
    }
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { target, value, .. } => {
                reads(value, out);
                if let ExprKind::Index { array, indices } = &target.kind {
                    for i in indices {
                        reads(i, out);
                    }
                    out.push((array.as_str(), target, true));
                }
            }
            StmtKind::If { cond, then, other } => {
                reads(cond, out);
                collect_refs(then, out);
                if let Some(o) = other {
                    collect_refs(o, out);
                }
            }
            StmtKind::Decl { init: Some(i), .. } => reads(i, out),
            StmtKind::Decl { .. } => {}
            StmtKind::For(l) => {
                reads(&l.lower, out);
                reads(&l.upper, out);
                collect_refs(&l.body, out);
            }
            StmtKind::Block(b) => collect_refs(b, out),
        }
    }
}

/// Whether `e` is affine in `var`: `var` appears only under `+`, `-`, unary minus, and
/// multiplication by an expression free of `var`.
fn affine_in(e: &Expr, var: &str) -> bool {
    use crate::ir::BinaryOp::*;
    if !e.mentions(var) {
        return true;
    }
    match &e.kind {
        ExprKind::Var(_) => true,
        ExprKind::Unary(crate::ir::UnaryOp::Neg | crate::ir::UnaryOp::Plus, a) => affine_in(a, var),
        ExprKind::Cast(t, a) => !t.is_float() && affine_in(a, var),
        ExprKind::Binary(Add | Sub, a, b) => affine_in(a, var) && affine_in(b, var),
        ExprKind::Binary(Mul, a, b) => {
            (affine_in(a, var) && !b.mentions(var)) || (affine_in(b, var) && !a.mentions(var))
        }
        _ => false,
    }
}

/// A subscript as `coef * par + Σ atoms + constant`: atoms are loop-invariant sub-expressions
/// (by their C text) with integer coefficients.
#[derive(Debug, Clone, PartialEq, Default)]
struct Linear {
    par: i64,
    atoms: BTreeMap<String, i64>,
    konst: i64,
}

impl Linear {
    fn scale(mut self, k: i64) -> Option<Linear> {
        self.par = self.par.checked_mul(k)?;
        self.konst = self.konst.checked_mul(k)?;
        for v in self.atoms.values_mut() {
            *v = v.checked_mul(k)?;
        }
        Some(self)
    }
    fn add(mut self, o: Linear, sign: i64) -> Option<Linear> {
        self.par = self.par.checked_add(o.par.checked_mul(sign)?)?;
        self.konst = self.konst.checked_add(o.konst.checked_mul(sign)?)?;
        for (k, v) in o.atoms {
            let e = self.atoms.entry(k).or_insert(0);
            *e = e.checked_add(v.checked_mul(sign)?)?;
        }
        self.atoms.retain(|_, v| *v != 0);
        Some(self)
    }
    fn only_const(&self) -> Option<i64> {
        (self.par == 0 && self.atoms.is_empty()).then_some(self.konst)
    }
}

/// `e` as a [`Linear`] form in `par`; `None` when it is not affine in `par` or reads something
/// that changes within an iteration (`invariant` false: inner loop variables, temporaries, array
/// elements).
fn linear(e: &Expr, par: &str, invariant: &dyn Fn(&Expr) -> bool) -> Option<Linear> {
    use crate::ir::BinaryOp::*;
    match &e.kind {
        ExprKind::Int(k) => Some(Linear {
            konst: *k,
            ..Linear::default()
        }),
        ExprKind::Var(v) if v == par => Some(Linear {
            par: 1,
            ..Linear::default()
        }),
        ExprKind::Unary(UnaryOp::Neg, a) => linear(a, par, invariant)?.scale(-1),
        ExprKind::Unary(UnaryOp::Plus, a) => linear(a, par, invariant),
        ExprKind::Binary(op @ (Add | Sub), a, b) => {
            let sign = if *op == Add { 1 } else { -1 };
            linear(a, par, invariant)?.add(linear(b, par, invariant)?, sign)
        }
        ExprKind::Binary(Mul, a, b) => {
            let (la, lb) = (linear(a, par, invariant), linear(b, par, invariant));
            if let Some(k) = la.as_ref().and_then(Linear::only_const) {
                return lb?.scale(k);
            }
            if let Some(k) = lb.as_ref().and_then(Linear::only_const) {
                return la?.scale(k);
            }
            atom(e, par, invariant)
        }
        _ => atom(e, par, invariant),
    }
}

fn atom(e: &Expr, par: &str, invariant: &dyn Fn(&Expr) -> bool) -> Option<Linear> {
    if e.mentions(par) || !invariant(e) {
        return None;
    }
    Some(Linear {
        atoms: BTreeMap::from([(show(e), 1)]),
        ..Linear::default()
    })
}

/// One array written at several offsets in one iteration (`dia[i + k*nrows]`, k = 0..6;
/// `F[2*i]`, `F[2*i+1]`; `f[i]` .. `f[i+3]` with `i += 4`): `Ok(true)` when every reference of
/// the array is `a*par + c_p` with one `a` and the offsets provably never meet across iterations,
/// `Ok(false)` when the references do not have that form (the single-subscript rules apply),
/// and an error naming two writes that may collide otherwise.
///
/// Two offsets whose difference `d` is a constant are disjoint when `d` is no multiple of
/// `a * step`. A difference `d*X` of one loop-invariant scalar `X` is disjoint when `|d| >= |a|`,
/// the loop starts at a constant >= 0 and runs below `X` (`par < X + c`, c <= 0, or `par <= X - c`,
/// c >= 1): then `|a*(i1 - i2)| < |a|*X <= |d*X|`.
fn owned_offsets(
    l: &Loop,
    refs: &[&(&str, &Expr, bool)],
    invariant: &dyn Fn(&Expr) -> bool,
) -> Result<bool, Diagnostic> {
    let par = &l.var;
    let mut forms: Vec<(Linear, &Expr, bool)> = Vec::new();
    for (_, e, w) in refs {
        let ExprKind::Index { indices, .. } = &e.kind else {
            return Ok(false);
        };
        let [ix] = indices.as_slice() else {
            return Ok(false);
        };
        let Some(f) = linear(ix, par, invariant) else {
            return Ok(false);
        };
        if !forms.iter().any(|(g, _, _)| *g == f) {
            forms.push((f, e, *w));
        } else if *w {
            if let Some(x) = forms.iter_mut().find(|(g, _, _)| *g == f) {
                x.2 = true;
                x.1 = e;
            }
        }
    }
    // One written offset (reads elsewhere): the single-subscript rules say what is wrong.
    if forms.iter().filter(|(_, _, w)| *w).count() < 2 {
        return Ok(false);
    }
    let a = forms[0].0.par;
    if a == 0 || forms.iter().any(|(f, _, _)| f.par != a) {
        return Ok(false);
    }
    let lower = linear(&l.lower, par, invariant).and_then(|f| f.only_const());
    let upper = linear(&l.upper, par, invariant);
    let bounded_by = |x: &str| -> bool {
        let Some(u) = &upper else { return false };
        let c = u.konst - if l.inclusive { 0 } else { 1 };
        lower.is_some_and(|lo| lo >= 0)
            && u.par == 0
            && u.atoms.len() == 1
            && u.atoms.get(x) == Some(&1)
            && c <= -1
    };
    for (p, (fp, ep, wp)) in forms.iter().enumerate() {
        for (fq, eq, wq) in forms.iter().skip(p + 1) {
            if !wp && !wq {
                continue;
            }
            let Some(d) = fp.clone().add(fq.clone(), -1) else {
                return Ok(false);
            };
            let period = a.checked_mul(l.step).unwrap_or(0);
            let ok = match d.only_const() {
                Some(k) => period != 0 && k % period != 0,
                None => {
                    d.konst == 0
                        && d.atoms.len() == 1
                        && d.atoms
                            .iter()
                            .all(|(x, k)| k.abs() >= a.abs() && bounded_by(x))
                }
            };
            if !ok {
                let (w, o) = if *wp { (ep, eq) } else { (eq, ep) };
                return Err(Diagnostic::new(
                    w.span,
                    format!(
                        "`{}` and `{}` may touch the same element from two iterations of the parallel loop: orcl cannot prove their offsets disjoint",
                        show(w),
                        show(o)
                    ),
                )
                .with_help(format!(
                    "one array may be written at several offsets per iteration when the offsets differ by a constant that is no multiple of the stride ({}), or by a multiple k*X (|k| >= {}) of the loop's bound X (`for ({par}=0; {par}<X; ...)`)",
                    period.abs(),
                    a.abs()
                )));
            }
        }
    }
    Ok(true)
}
