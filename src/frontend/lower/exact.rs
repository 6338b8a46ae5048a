//! The exact dependence test of two array references on affine subscripts with affine (also
//! triangular) loop bounds: two distinct iterations `p1 < p2` of the parallel loop touch the same
//! element only if the system "both iterations inside their loops' bounds, every subscript
//! equal" has an integer solution. The system is decided by Fourier–Motzkin elimination
//! (Dantzig & Eaves, *Fourier–Motzkin elimination and its dual*, 1973) with each inequality
//! tightened to integers by the gcd of its coefficients (the normalisation of Pugh's Omega test,
//! *The Omega test: a fast and practical integer programming algorithm for dependence
//! analysis*, 1991): an infeasible system proves the references independent; a feasible one is
//! reported as a possible dependence (the test over-approximates: `if` conditions and loop steps
//! are left out, which only adds iterations).
//!
//! Where the test cannot prove independence, [`witness`] looks for two concrete iterations that
//! touch one element, with the loop's scalars set to small values, for the error message.

use super::show;
use crate::ir::{AssignOp, UnaryOp};
use crate::ir::{BinaryOp, Expr, ExprKind, Loop, ScalarType, Stmt, StmtKind, Symbol, SymbolKind};
use std::collections::BTreeMap;

/// One array reference of the parallel loop's body with the inner loops around it.
#[derive(Debug, Clone)]
pub(super) struct Ref<'a> {
    pub array: &'a str,
    pub expr: &'a Expr,
    pub indices: &'a [Expr],
    pub write: bool,
    /// The inner loops that enclose the reference, outermost first (the parallel loop excluded).
    pub loops: Vec<&'a Loop>,
    /// Inside an `if`: it may not run in every iteration.
    pub guarded: bool,
}

/// Every array reference of `body` (reads and writes, in order; a compound assignment's target
/// is a read and a write) with its enclosing inner loops.
pub(super) fn refs(body: &[Stmt]) -> Vec<Ref<'_>> {
    fn reads<'a>(e: &'a Expr, loops: &[&'a Loop], out: &mut Vec<Ref<'a>>) {
        match &e.kind {
            ExprKind::Index { array, indices } => {
                out.push(Ref {
                    array,
                    expr: e,
                    indices,
                    write: false,
                    loops: loops.to_vec(),
                    guarded: false,
                });
                indices.iter().for_each(|i| reads(i, loops, out));
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => reads(a, loops, out),
            ExprKind::Binary(_, a, b) => {
                reads(a, loops, out);
                reads(b, loops, out);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| reads(a, loops, out)),
            ExprKind::Cond(a, b, c) => {
                reads(a, loops, out);
                reads(b, loops, out);
                reads(c, loops, out);
            }
            _ => {}
        }
    }
    fn stmts<'a>(ss: &'a [Stmt], loops: &mut Vec<&'a Loop>, out: &mut Vec<Ref<'a>>) {
        for s in ss {
            match &s.kind {
                StmtKind::Assign { target, op, value } => {
                    reads(value, loops, out);
                    if let ExprKind::Index { array, indices } = &target.kind {
                        indices.iter().for_each(|i| reads(i, loops, out));
                        let r = Ref {
                            array,
                            expr: target,
                            indices,
                            write: false,
                            loops: loops.clone(),
                            guarded: false,
                        };
                        if *op != AssignOp::Set {
                            out.push(r.clone());
                        }
                        out.push(Ref { write: true, ..r });
                    }
                }
                StmtKind::If { cond, then, other } => {
                    reads(cond, loops, out);
                    let n = out.len();
                    stmts(then, loops, out);
                    if let Some(o) = other {
                        stmts(o, loops, out);
                    }
                    out[n..].iter_mut().for_each(|r| r.guarded = true);
                }
                StmtKind::Decl { init: Some(i), .. } => reads(i, loops, out),
                StmtKind::Decl { .. } => {}
                StmtKind::For(l) => {
                    reads(&l.lower, loops, out);
                    reads(&l.upper, loops, out);
                    loops.push(l);
                    stmts(&l.body, loops, out);
                    loops.pop();
                }
                StmtKind::Block(b) => stmts(b, loops, out),
            }
        }
    }
    let mut out = Vec::new();
    stmts(body, &mut Vec::new(), &mut out);
    out
}

/// An integer affine form `Σ coef·var + konst` (loop variables renamed per iteration copy).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(super) struct Aff {
    pub coefs: BTreeMap<String, i128>,
    pub konst: i128,
}

impl Aff {
    fn konst(k: i128) -> Aff {
        Aff {
            konst: k,
            ..Aff::default()
        }
    }
    fn var(v: String) -> Aff {
        Aff {
            coefs: BTreeMap::from([(v, 1)]),
            konst: 0,
        }
    }
    fn scale(mut self, k: i128) -> Option<Aff> {
        self.konst = self.konst.checked_mul(k)?;
        for c in self.coefs.values_mut() {
            *c = c.checked_mul(k)?;
        }
        self.coefs.retain(|_, c| *c != 0);
        Some(self)
    }
    fn add(mut self, o: &Aff, k: i128) -> Option<Aff> {
        self.konst = self.konst.checked_add(o.konst.checked_mul(k)?)?;
        for (v, c) in &o.coefs {
            let e = self.coefs.entry(v.clone()).or_insert(0);
            *e = e.checked_add(c.checked_mul(k)?)?;
        }
        self.coefs.retain(|_, c| *c != 0);
        Some(self)
    }
    fn only_const(&self) -> Option<i128> {
        self.coefs.is_empty().then_some(self.konst)
    }
    fn eval(&self, env: &BTreeMap<String, i128>) -> Option<i128> {
        let mut s = self.konst;
        for (v, c) in &self.coefs {
            s = s.checked_add(c.checked_mul(*env.get(v)?)?)?;
        }
        Some(s)
    }
}

/// How the names of an expression become variables of the system: loop variables get the
/// iteration copy's suffix, loop-invariant integer scalars keep their names (shared by both
/// copies); anything else (a temporary, a written scalar, an array element) is not affine.
pub(super) struct Names<'a> {
    pub symbols: &'a BTreeMap<String, Symbol>,
    pub copy: &'a str,
}

impl Names<'_> {
    pub(super) fn aff(&self, e: &Expr) -> Option<Aff> {
        use BinaryOp::*;
        match &e.kind {
            ExprKind::Int(k) => Some(Aff::konst(i128::from(*k))),
            ExprKind::Var(v) => {
                let s = self.symbols.get(v)?;
                match s.kind {
                    SymbolKind::LoopVar => Some(Aff::var(format!("{v}#{}", self.copy))),
                    SymbolKind::Scalar if !s.written && !s.ty.is_float() => {
                        Some(Aff::var(v.clone()))
                    }
                    _ => None,
                }
            }
            ExprKind::Unary(UnaryOp::Neg, a) => self.aff(a)?.scale(-1),
            ExprKind::Unary(UnaryOp::Plus, a) => self.aff(a),
            ExprKind::Cast(ScalarType::Int | ScalarType::Long, a) => self.aff(a),
            ExprKind::Binary(op @ (Add | Sub), a, b) => {
                let k = if *op == Add { 1 } else { -1 };
                self.aff(a)?.add(&self.aff(b)?, k)
            }
            ExprKind::Binary(Mul, a, b) => {
                let (x, y) = (self.aff(a)?, self.aff(b)?);
                match (x.only_const(), y.only_const()) {
                    (Some(k), _) => y.scale(k),
                    (_, Some(k)) => x.scale(k),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `lower <= v` and `v <= upper` (`v < upper`) of loop `l` as forms `>= 0`; a bound that is
    /// not affine is left out (more iterations: still sound).
    fn bounds(&self, l: &Loop, out: &mut Vec<Aff>) {
        let v = Aff::var(format!("{}#{}", l.var, self.copy));
        if let Some(lo) = self.aff(&l.lower) {
            out.extend(v.clone().add(&lo, -1));
        }
        if let Some(hi) = self.aff(&l.upper) {
            let slack = if l.inclusive { 0 } else { -1 };
            out.extend(hi.add(&v, -1).and_then(|f| f.add(&Aff::konst(slack), 1)));
        }
    }
}

/// The system of "iteration `p1` of the parallel loop `par` at reference `a` and iteration
/// `p2 > p1` at reference `b` touch one element": `None` when a subscript is not affine.
fn system(par: &Loop, symbols: &BTreeMap<String, Symbol>, a: &Ref, b: &Ref) -> Option<Vec<Aff>> {
    if a.indices.len() != b.indices.len() {
        return None;
    }
    let (n1, n2) = (Names { symbols, copy: "1" }, Names { symbols, copy: "2" });
    let mut cs = Vec::new();
    n1.bounds(par, &mut cs);
    n2.bounds(par, &mut cs);
    for l in &a.loops {
        n1.bounds(l, &mut cs);
    }
    for l in &b.loops {
        n2.bounds(l, &mut cs);
    }
    let (p1, p2) = (
        Aff::var(format!("{}#1", par.var)),
        Aff::var(format!("{}#2", par.var)),
    );
    cs.push(p2.add(&p1, -1)?.add(&Aff::konst(-1), 1)?);
    for (x, y) in a.indices.iter().zip(b.indices) {
        let d = n1.aff(x)?.add(&n2.aff(y)?, -1)?;
        cs.push(d.clone());
        cs.push(d.scale(-1)?);
    }
    Some(cs)
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// Whether the integer system `cs` (each form `>= 0`) may have a solution: `false` is a proof
/// that it has none (see the module docs); `true` when it may, or when elimination grows past
/// its budget.
fn may_be_feasible(mut cs: Vec<Aff>) -> bool {
    const BUDGET: usize = 4000;
    loop {
        let mut next = Vec::with_capacity(cs.len());
        for mut c in cs {
            let g = c.coefs.values().fold(0, |g, &x| gcd(g, x));
            if g == 0 {
                if c.konst < 0 {
                    return false;
                }
                continue;
            }
            if g > 1 {
                c.coefs.values_mut().for_each(|x| *x /= g);
                c.konst = c.konst.div_euclid(g);
            }
            next.push(c);
        }
        next.sort();
        next.dedup();
        cs = next;
        // The variable whose elimination makes the fewest new inequalities.
        let mut vars: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for c in &cs {
            for (v, k) in &c.coefs {
                let e = vars.entry(v.as_str()).or_default();
                if *k > 0 {
                    e.0 += 1;
                } else {
                    e.1 += 1;
                }
            }
        }
        let Some(v) = vars
            .iter()
            .min_by_key(|(_, (p, n))| p * n)
            .map(|(v, _)| v.to_string())
        else {
            return true;
        };
        let (mut pos, mut neg, mut rest) = (Vec::new(), Vec::new(), Vec::new());
        for c in cs {
            match c.coefs.get(&v).copied().unwrap_or(0) {
                k if k > 0 => pos.push((k, c)),
                k if k < 0 => neg.push((-k, c)),
                _ => rest.push(c),
            }
        }
        if rest.len() + pos.len() * neg.len() > BUDGET {
            return true;
        }
        for (kp, p) in &pos {
            for (kn, n) in &neg {
                match p.clone().scale(*kn).and_then(|x| x.add(n, *kp)) {
                    Some(c) => rest.push(c),
                    None => return true,
                }
            }
        }
        cs = rest;
    }
}

/// Whether no two distinct iterations of `par` touch one element of an array through `refs`
/// (all its references) with at least one of the two a write, proven by the exact test.
pub(super) fn independent(par: &Loop, symbols: &BTreeMap<String, Symbol>, refs: &[&Ref]) -> bool {
    for a in refs {
        for b in refs {
            if !a.write && !b.write {
                continue;
            }
            let proven = system(par, symbols, a, b).is_some_and(|cs| !may_be_feasible(cs));
            if !proven {
                return false;
            }
        }
    }
    true
}

/// Two iterations of the parallel loop that touch one element through `refs` (one of them
/// writing), found by running the loops with every loop-invariant scalar set to a small value:
/// a sentence naming the references, the iterations and the element; `None` when none was
/// found within a bounded number of iterations.
pub(super) fn witness(
    par: &Loop,
    symbols: &BTreeMap<String, Symbol>,
    refs: &[&Ref],
) -> Option<String> {
    for size in [4, 7] {
        if let Some(w) = witness_at(par, symbols, refs, size) {
            return Some(w);
        }
    }
    None
}

/// Values of the variables of a system (loop variables per copy, scalars).
type Env = BTreeMap<String, i128>;

/// Called in every innermost iteration with the values and the loop variables' values.
type Visit<'v> = dyn FnMut(&Env, &[(String, i128)]) + 'v;

/// One reference touching an element: its number, whether it writes, the loop variables' values.
type Touch = (usize, bool, Vec<(String, i128)>);

/// All (reference, iteration) pairs touching each element with every scalar set to `size`.
fn witness_at(
    par: &Loop,
    symbols: &BTreeMap<String, Symbol>,
    refs: &[&Ref],
    size: i128,
) -> Option<String> {
    let n = Names { symbols, copy: "1" };
    let mut env: BTreeMap<String, i128> = symbols
        .values()
        .filter(|s| s.kind == SymbolKind::Scalar && !s.written && !s.ty.is_float())
        .map(|s| (s.name.clone(), size))
        .collect();
    // element -> (reference number, write, the loop variables' values)
    let mut seen: BTreeMap<Vec<i128>, Vec<Touch>> = BTreeMap::new();
    let mut budget = 20_000usize;
    for (r, rf) in refs.iter().enumerate() {
        let subs: Option<Vec<Aff>> = rf.indices.iter().map(|i| n.aff(i)).collect();
        let subs = subs?;
        let mut loops = vec![par];
        loops.extend(rf.loops.iter().copied());
        let mut visit = |env: &BTreeMap<String, i128>, vals: &[(String, i128)]| {
            let elem: Option<Vec<i128>> = subs.iter().map(|s| s.eval(env)).collect();
            if let Some(e) = elem {
                seen.entry(e)
                    .or_default()
                    .push((r, rf.write, vals.to_vec()));
            }
        };
        if !walk(
            &n,
            &loops,
            &mut env,
            &mut Vec::new(),
            &mut budget,
            &mut visit,
        ) {
            return None;
        }
    }
    for (elem, uses) in &seen {
        for (x, (ra, wa, va)) in uses.iter().enumerate() {
            for (rb, wb, vb) in &uses[x + 1..] {
                if (*wa || *wb) && va[0].1 != vb[0].1 {
                    let show_vals = |v: &[(String, i128)]| {
                        v.iter()
                            .map(|(n, x)| format!("{n} = {x}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    };
                    let scalars = env
                        .iter()
                        .map(|(n, x)| format!("{n} = {x}"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    let el: String = elem.iter().map(|i| format!("[{i}]")).collect();
                    let verb = |w: bool| if w { "writes" } else { "reads" };
                    return Some(format!(
                        "with {scalars}, the iteration {} {} `{}{el}` through `{}` and the iteration {} {} it through `{}`",
                        show_vals(va),
                        verb(*wa),
                        refs[*ra].array,
                        show(refs[*ra].expr),
                        show_vals(vb),
                        verb(*wb),
                        show(refs[*rb].expr)
                    ));
                }
            }
        }
    }
    None
}

/// Runs `loops` (each inside the previous) at the values of `env`, calling `visit` in every
/// innermost iteration; `false` when a bound is not affine or the budget runs out.
fn walk(
    n: &Names,
    loops: &[&Loop],
    env: &mut BTreeMap<String, i128>,
    vals: &mut Vec<(String, i128)>,
    budget: &mut usize,
    visit: &mut Visit,
) -> bool {
    let Some((l, rest)) = loops.split_first() else {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        visit(env, vals);
        return true;
    };
    let (Some(lo), Some(hi)) = (
        n.aff(&l.lower).and_then(|a| a.eval(env)),
        n.aff(&l.upper).and_then(|a| a.eval(env)),
    ) else {
        return false;
    };
    let hi = if l.inclusive { hi } else { hi - 1 };
    let key = format!("{}#1", l.var);
    let mut v = lo;
    while v <= hi {
        env.insert(key.clone(), v);
        vals.push((l.var.clone(), v));
        let ok = walk(n, rest, env, vals, budget, visit);
        vals.pop();
        if !ok {
            return false;
        }
        v += i128::from(l.step.max(1));
    }
    env.remove(&key);
    true
}

#[cfg(test)]
mod tests {
    /// Lower `code` in a function with square matrices `C`, `D` (m x m) and vectors `y`, `x`.
    fn lower(code: &str) -> Result<crate::ir::Kernel, crate::diag::Diagnostic> {
        let text = format!(
            "void f(int m, int n, double C[m][m], double D[m][m], double *y, const double *x) {{\n    int i, j, k;\n    /*@ begin PerfTuning (\n def performance_params {{ param WI[] = [32]; }}\n def input_params {{ param M[] = [8]; param N[] = [8]; }}\n def input_vars {{ decl int m = M; decl int n = N; decl static double C[M][M] = random; decl static double D[M][M] = random; decl static double y[M] = 0; decl static double x[M] = random; }}\n ) @*/\n    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)\n {code}\n ) @*/\n {code}\n /*@ end @*/\n /*@ end @*/\n}}\n"
        );
        let regions = crate::region::parse(&text).expect("parses");
        crate::lower::lower(&regions[0].raw, &regions[0].spec, &text)
    }

    /// Covariance's symmetric write and syrk's triangle: distinct iterations of `i` touch
    /// distinct elements, which the exact test proves (the row rule alone refuses them).
    #[test]
    fn symmetric_and_triangular_writes_are_proven_disjoint() {
        for code in [
            "for (i = 0; i < m; i++) for (j = i; j < m; j++) { C[i][j] = D[i][j]; C[j][i] = C[i][j]; }",
            "for (i = 0; i < m-1; i++) { C[i][i] = 1.0; for (j = i+1; j < m; j++) { C[i][j] = 0.0; for (k = 0; k < n; k++) C[i][j] += D[k][i]; C[j][i] = C[i][j]; } }",
            "for (i = 0; i < m; i++) for (j = 0; j <= i; j++) C[i][j] = C[i][j] * 2.0;",
            "for (i = 0; i < m; i++) { C[i][0] = 1.0; C[0][i] = 2.0; }",
        ] {
            if let Err(d) = lower(code) {
                panic!("{code}: {}", d.message);
            }
        }
    }

    /// A real race is refused, and the error shows two iterations touching one element.
    #[test]
    fn races_are_refused_with_a_witness() {
        for (code, fragment) in [
            (
                "for (i = 0; i < m; i++) for (j = i; j < m; j++) { C[i][j] = 1.0; C[j][i+1] = 2.0; }",
                "writes `C[",
            ),
            (
                "for (i = 0; i < m; i++) for (j = 0; j < m-1; j++) y[j] = y[j+1] + x[i];",
                "with m = 4",
            ),
        ] {
            let d = lower(code).expect_err(code);
            assert!(d.message.contains("the iteration i = "), "{code}: {}", d.message);
            assert!(d.message.contains(fragment), "{code}: {}", d.message);
        }
    }

    /// Sums into shared elements are array reductions (atomic adds); other uses of the array
    /// are not.
    #[test]
    fn sums_into_shared_elements_are_atomic() {
        for code in [
            "for (i = 0; i < m; i++) for (j = 0; j < m; j++) y[j] = y[j] + C[i][j] * x[i];",
            "for (i = 0; i < m; i++) for (j = 0; j < m; j++) y[j] += C[i][j];",
            "for (i = 0; i < m; i++) for (j = 0; j < m; j++) y[j] -= C[i][j];",
        ] {
            let k = lower(code).unwrap_or_else(|d| panic!("{code}: {}", d.message));
            let y = k.args.iter().find(|a| a.name == "y").expect("y");
            assert!(y.atomic_sum, "{code}");
            assert!(k
                .args
                .iter()
                .filter(|a| a.name != "y")
                .all(|a| !a.atomic_sum));
        }
        for code in [
            "for (i = 0; i < m; i++) for (j = 0; j < m; j++) y[j] = y[j] * C[i][j];",
            "for (i = 0; i < m; i++) for (j = 0; j < m; j++) { y[j] += C[i][j]; x[0] = y[j]; }",
            "for (i = 0; i < m; i++) for (j = 0; j < m; j++) { y[j] += C[i][j]; C[i][j] = y[j]; }",
        ] {
            assert!(lower(code).is_err(), "{code}");
        }
        let k = lower("for (i = 0; i < m; i++) y[i] += x[i];").expect("lowers");
        assert!(
            k.args.iter().all(|a| !a.atomic_sum),
            "y[i]: each iteration owns its element"
        );
    }

    /// The integer tightening proves interleaved offsets disjoint (`2i` and `2i + 1`).
    #[test]
    fn integer_tightening() {
        let mut cs = Vec::new();
        // 2 a - 2 b - 1 = 0 has no integer solution.
        let d = super::Aff::var("a".into())
            .scale(2)
            .and_then(|x| x.add(&super::Aff::var("b".into()), -2))
            .and_then(|x| x.add(&super::Aff::konst(-1), 1))
            .expect("small");
        cs.push(d.clone());
        cs.push(d.scale(-1).expect("small"));
        assert!(!super::may_be_feasible(cs));
    }
}
