//! Loop-nest analysis: the perfect nest under the parallel loop, array references delinearised
//! into one affine index per dimension, and each nest loop classified parallel / reduction /
//! sequential by a dependence test on those indices.
//!
//! Delinearisation recognises a 1-D subscript `e1 * S + e0` (S loop-invariant and symbolic, as
//! `n` in `A[i*n + j]`, or the row length `lower` puts into a flattened `A[i][j]`) as the 2-D
//! reference `[e1][e0]`, recursively (the "delinearization" of Maslov, *Delinearization: an
//! efficient way to break multiloop dependence equations*, PLDI 1992, restricted to the symbolic
//! strides orcl's loops use). The dependence test is the exact one for such references: a loop
//! carries no dependence when every written array is referenced with one subscript only, and that
//! subscript has the loop's index, with coefficient 1, alone in one dimension.

use crate::ir::{BinaryOp, Expr, ExprKind, Kernel, Loop, Stmt, StmtKind, SymbolKind};
use std::collections::BTreeMap;

/// The perfect nest: `loops[0]` is the parallel loop, `loops[d + 1]` the only statement of
/// `loops[d]`'s body; `body` the innermost loop's body.
#[derive(Debug, Clone)]
pub struct Nest<'k> {
    pub loops: Vec<&'k Loop>,
    pub body: &'k [Stmt],
}

/// The perfect nest starting at the parallel loop of `k`.
pub fn perfect_nest(k: &Kernel) -> Nest<'_> {
    let mut loops = vec![&k.parallel];
    loop {
        let last = loops[loops.len() - 1];
        let mut body: &[Stmt] = &last.body;
        while let [Stmt {
            kind: StmtKind::Block(b),
            ..
        }] = body
        {
            body = b;
        }
        match body {
            [Stmt {
                kind: StmtKind::For(l),
                ..
            }] => loops.push(l),
            _ => return Nest { loops, body },
        }
    }
}

/// Whether `e` mentions any loop variable or temporary of the kernel, or an array element.
fn varies(k: &Kernel, e: &Expr) -> bool {
    let mut v = false;
    e.visit(&mut |x| match &x.kind {
        ExprKind::Var(n) => {
            v |= k
                .symbols
                .get(n)
                .is_some_and(|s| matches!(s.kind, SymbolKind::LoopVar | SymbolKind::Local))
        }
        ExprKind::Index { .. } => v = true,
        _ => {}
    });
    v
}

/// C trip-count expressions (`long`) of the nest's loops whose bounds are loop-invariant, from the
/// parallel loop inward, stopping at the first loop whose bounds depend on an enclosing index
/// (the skeleton's and host code's `orcl_nest_trip`).
pub fn nest_trips(k: &Kernel) -> Vec<String> {
    perfect_nest(k)
        .loops
        .iter()
        .take_while(|l| !varies(k, &l.lower) && !varies(k, &l.upper))
        .map(|l| crate::ir::c::loop_trip_c(l))
        .collect()
}

/// One subscript dimension as an integer-affine function of loop indices: Σ coef·var + offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Index {
    pub coefs: BTreeMap<String, i64>,
    pub offset: i64,
}

impl Index {
    /// `var + offset` when the index is exactly one loop index with coefficient 1.
    pub fn unit(&self) -> Option<(&str, i64)> {
        match self
            .coefs
            .iter()
            .filter(|(_, c)| **c != 0)
            .collect::<Vec<_>>()[..]
        {
            [(v, 1)] => Some((v.as_str(), self.offset)),
            _ => None,
        }
    }
}

/// One array reference of the nest body.
#[derive(Debug, Clone)]
pub struct Access<'k> {
    pub array: String,
    pub expr: &'k Expr,
    pub write: bool,
    /// The delinearised indices, outermost first; `None` when the subscript is not affine with
    /// integer coefficients in the loop indices (it is then read from global memory as written).
    pub dims: Option<Vec<Index>>,
}

/// Integer-affine form of `e` in `vars` (other names make it non-affine).
fn affine(e: &Expr, vars: &[&str]) -> Option<Index> {
    match &e.kind {
        ExprKind::Int(v) => Some(Index {
            coefs: BTreeMap::new(),
            offset: *v,
        }),
        ExprKind::Var(n) if vars.contains(&n.as_str()) => Some(Index {
            coefs: [(n.clone(), 1)].into(),
            offset: 0,
        }),
        ExprKind::Unary(crate::ir::UnaryOp::Neg, a) => affine(a, vars).map(|x| scale(x, -1)),
        ExprKind::Unary(crate::ir::UnaryOp::Plus, a) => affine(a, vars),
        ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) => {
            let (x, y) = (affine(a, vars)?, affine(b, vars)?);
            let y = if *op == BinaryOp::Sub {
                scale(y, -1)
            } else {
                y
            };
            let mut coefs = x.coefs;
            for (v, c) in y.coefs {
                *coefs.entry(v).or_insert(0) += c;
            }
            Some(Index {
                coefs,
                offset: x.offset + y.offset,
            })
        }
        ExprKind::Binary(BinaryOp::Mul, a, b) => match (&a.kind, &b.kind) {
            (ExprKind::Int(c), _) => affine(b, vars).map(|x| scale(x, *c)),
            (_, ExprKind::Int(c)) => affine(a, vars).map(|x| scale(x, *c)),
            _ => None,
        },
        _ => None,
    }
}

fn scale(mut x: Index, c: i64) -> Index {
    x.coefs.values_mut().for_each(|v| *v *= c);
    x.offset *= c;
    x
}

/// Signed top-level terms of a sum.
fn terms<'e>(e: &'e Expr, sign: i64, out: &mut Vec<(i64, &'e Expr)>) {
    match &e.kind {
        ExprKind::Binary(BinaryOp::Add, a, b) => {
            terms(a, sign, out);
            terms(b, sign, out);
        }
        ExprKind::Binary(BinaryOp::Sub, a, b) => {
            terms(a, sign, out);
            terms(b, -sign, out);
        }
        _ => out.push((sign, e)),
    }
}

/// Delinearise a subscript: indices outermost first (see the module docs).
pub fn delinearise(k: &Kernel, e: &Expr, vars: &[&str]) -> Option<Vec<Index>> {
    let mut ts = Vec::new();
    terms(e, 1, &mut ts);
    delinearise_terms(k, &ts, vars)
}

fn delinearise_terms(k: &Kernel, ts: &[(i64, &Expr)], vars: &[&str]) -> Option<Vec<Index>> {
    // The symbolic stride: the loop-invariant, non-literal factor of a product term.
    let symbolic = |x: &Expr| !matches!(x.kind, ExprKind::Int(_)) && !varies(k, x);
    let mut stride: Option<&Expr> = None;
    let mut outer: Vec<(i64, &Expr)> = Vec::new();
    let mut inner = Index {
        coefs: BTreeMap::new(),
        offset: 0,
    };
    for &(sign, t) in ts {
        let split = match &t.kind {
            ExprKind::Binary(BinaryOp::Mul, a, b) if symbolic(b) => Some((&**a, &**b)),
            ExprKind::Binary(BinaryOp::Mul, a, b) if symbolic(a) => Some((&**b, &**a)),
            _ => None,
        };
        match split {
            Some((p, s)) if stride.is_none_or(|x| x.same_as(s)) => {
                stride = Some(s);
                terms(p, sign, &mut outer);
            }
            _ => {
                let x = scale(affine(t, vars)?, sign);
                for (v, c) in x.coefs {
                    *inner.coefs.entry(v).or_insert(0) += c;
                }
                inner.offset += x.offset;
            }
        }
    }
    let mut dims = if outer.is_empty() {
        Vec::new()
    } else {
        delinearise_terms(k, &outer, vars)?
    };
    dims.push(inner);
    Some(dims)
}

/// Every array reference of `stmts` (reads and writes, in order), delinearised over `vars`.
pub fn accesses<'k>(k: &Kernel, stmts: &'k [Stmt], vars: &[&str]) -> Vec<Access<'k>> {
    fn reads<'k>(k: &Kernel, e: &'k Expr, vars: &[&str], out: &mut Vec<Access<'k>>) {
        match &e.kind {
            ExprKind::Index { array, indices } => {
                out.push(access(k, array, e, indices, vars, false));
                indices.iter().for_each(|i| reads(k, i, vars, out));
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => reads(k, a, vars, out),
            ExprKind::Binary(_, a, b) => {
                reads(k, a, vars, out);
                reads(k, b, vars, out);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| reads(k, a, vars, out)),
            ExprKind::Cond(a, b, c) => {
                reads(k, a, vars, out);
                reads(k, b, vars, out);
                reads(k, c, vars, out);
            }
            _ => {}
        }
    }
    fn access<'k>(
        k: &Kernel,
        array: &str,
        e: &'k Expr,
        indices: &[Expr],
        vars: &[&str],
        write: bool,
    ) -> Access<'k> {
        let dims = if indices.len() == 1 {
            delinearise(k, &indices[0], vars)
        } else {
            indices.iter().map(|i| affine(i, vars)).collect()
        };
        Access {
            array: array.to_string(),
            expr: e,
            write,
            dims,
        }
    }
    fn walk<'k>(k: &Kernel, stmts: &'k [Stmt], vars: &[&str], out: &mut Vec<Access<'k>>) {
        for s in stmts {
            match &s.kind {
                StmtKind::Assign { target, op, value } => {
                    reads(k, value, vars, out);
                    if let ExprKind::Index { array, indices } = &target.kind {
                        indices.iter().for_each(|i| reads(k, i, vars, out));
                        if *op != crate::ir::AssignOp::Set {
                            out.push(access(k, array, target, indices, vars, false));
                        }
                        out.push(access(k, array, target, indices, vars, true));
                    }
                }
                StmtKind::Decl { init: Some(e), .. } => reads(k, e, vars, out),
                StmtKind::Decl { .. } => {}
                StmtKind::If { cond, then, other } => {
                    reads(k, cond, vars, out);
                    walk(k, then, vars, out);
                    if let Some(o) = other {
                        walk(k, o, vars, out);
                    }
                }
                StmtKind::For(l) => {
                    reads(k, &l.lower, vars, out);
                    reads(k, &l.upper, vars, out);
                    walk(k, &l.body, vars, out);
                }
                StmtKind::Block(b) => walk(k, b, vars, out),
            }
        }
    }
    let mut out = Vec::new();
    walk(k, stmts, vars, &mut out);
    out
}

/// How the iterations of one nest loop relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopKind {
    /// No dependence between iterations: the loop may map onto an NDRange dimension.
    Parallel,
    /// Iterations combine into one value (a scalar or array element accumulated with `+=`, ...).
    Reduction,
    /// Anything else: the loop runs in order inside one work-item.
    Sequential,
}

/// Whether `stmts` assign a scalar that is not a temporary declared in them (an accumulator).
fn writes_outer_scalar(k: &Kernel, stmts: &[Stmt]) -> Option<bool> {
    let mut found: Option<bool> = None;
    fn walk(k: &Kernel, stmts: &[Stmt], found: &mut Option<bool>) {
        for s in stmts {
            match &s.kind {
                StmtKind::Assign { target, op, .. } => {
                    if let ExprKind::Var(n) = &target.kind {
                        if k.symbols
                            .get(n)
                            .is_some_and(|s| s.kind != SymbolKind::Local)
                        {
                            let acc = *op != crate::ir::AssignOp::Set;
                            *found = Some(found.unwrap_or(true) && acc);
                        }
                    }
                }
                StmtKind::If { then, other, .. } => {
                    walk(k, then, found);
                    if let Some(o) = other {
                        walk(k, o, found);
                    }
                }
                StmtKind::For(l) => walk(k, &l.body, found),
                StmtKind::Block(b) => walk(k, b, found),
                StmtKind::Decl { .. } => {}
            }
        }
    }
    walk(k, stmts, &mut found);
    found
}

/// Classify each loop of the perfect nest (dependence test on the delinearised references of the
/// innermost body; see the module docs). Reductions into a scalar (`s += ...`) and into an
/// array element that does not depend on the loop index (`y[i] += A[i][j]*x[j]` in `j`) are
/// `Reduction`; other loop-carried dependences `Sequential`.
pub fn classify(k: &Kernel, nest: &Nest) -> Vec<LoopKind> {
    let vars: Vec<&str> = nest.loops.iter().map(|l| l.var.as_str()).collect();
    let acc = accesses(k, nest.body, &vars);
    let scalar = writes_outer_scalar(k, nest.body);
    vars.iter()
        .map(|&v| {
            if let Some(accumulates) = scalar {
                return if accumulates {
                    LoopKind::Reduction
                } else {
                    LoopKind::Sequential
                };
            }
            let mut kind = LoopKind::Parallel;
            for w in acc.iter().filter(|a| a.write) {
                let same = acc
                    .iter()
                    .filter(|a| a.array == w.array)
                    .all(|a| a.expr.same_as(w.expr));
                let separates = w.dims.as_ref().is_some_and(|d| {
                    d.iter().any(|i| i.unit().is_some_and(|(x, _)| x == v))
                        && d.iter()
                            .filter(|i| i.coefs.get(v).is_some_and(|c| *c != 0))
                            .count()
                            == 1
                });
                if same && separates {
                    continue;
                }
                let uses = w.expr.mentions(v);
                kind = if same && !uses && kind == LoopKind::Parallel {
                    LoopKind::Reduction
                } else {
                    LoopKind::Sequential
                };
            }
            kind
        })
        .collect()
}

/// Whether `lower`'s dependence test proved the parallel loop's iterations independent through
/// every array (no array summed atomically) and the loop accumulates no scalar: then it may map
/// onto an NDRange dimension even where [`classify`]'s references say nothing (an imperfect
/// nest, `for j: ...; for k: for j: ...` under `i`).
pub fn parallel_proven(k: &Kernel) -> bool {
    k.args
        .iter()
        .all(|a| a.reduction.is_none() && !a.atomic_sum)
        && writes_outer_scalar(k, &k.parallel.body).is_none()
}

/// How the per-(i, j) sum of a contraction starts and ends.
#[derive(Debug, Clone)]
pub enum ContractionForm<'k> {
    /// BLAS style: `T s = init; for (l ...) s += term; after...` — `after` (no loops) reads `s`
    /// and stores the result (`C[i*n+j] = alpha*s + beta*C[i*n+j];`).
    Scalar {
        name: String,
        ty: crate::ir::ScalarType,
        init: &'k Expr,
        after: &'k [Stmt],
        /// A triangle's guard (`j <= i`, see `Kernel::triangle`): `after` runs only where it
        /// holds; the sum is computed over the whole rectangle.
        guard: Option<&'k Expr>,
    },
    /// Orio style: `for (p ...) C[..] = C[..] + term;` (or `+=`) in a perfect 3-loop nest, the
    /// element `target` not depending on `p`.
    Element { target: &'k Expr },
}

/// A contraction (the matrix product's shape): two parallel loops `i`, `j` (the perfect nest's
/// first two) whose body sums `term` over a reduction loop `red` — `term`'s array references are
/// read only, the sum goes to one scalar or one array element per (i, j).
#[derive(Debug, Clone)]
pub struct Contraction<'k> {
    pub red: &'k Loop,
    pub term: &'k Expr,
    pub form: ContractionForm<'k>,
}

/// The single statement of `stmts` (through blocks).
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

/// `x += term` or `x = x + term` / `x = term + x` on `target`: the term (a sum the term can be
/// taken out of; [`accumulation`] is the matcher, subtractions left out).
fn summand<'k>(s: &'k Stmt, target: &dyn Fn(&Expr) -> bool) -> Option<(&'k Expr, &'k Expr)> {
    use crate::ir::{AssignOp, ReduceOp};
    let StmtKind::Assign {
        target: t,
        op,
        value,
    } = &s.kind
    else {
        return None;
    };
    if !target(t) {
        return None;
    }
    let subtracts = *op == AssignOp::Sub
        || (*op == AssignOp::Set && matches!(value.kind, ExprKind::Binary(BinaryOp::Sub, ..)));
    match crate::ir::accumulation(&|e| e.same_as(t), *op, value)? {
        // `x = x + x` is no sum of a term.
        (ReduceOp::Sum, e) if !subtracts && (*op != AssignOp::Set || !e.same_as(t)) => Some((t, e)),
        _ => None,
    }
}

/// Whether `stmts` contain a loop.
fn has_loop(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::For(_) => true,
        StmtKind::If { then, other, .. } => {
            has_loop(then) || other.as_deref().is_some_and(has_loop)
        }
        StmtKind::Block(b) => has_loop(b),
        _ => false,
    })
}

/// The contraction of `k`'s nest, if it has the shape (see [`Contraction`]): the first two nest
/// loops parallel; the reduction loop unit-step with bounds that depend on no loop index; `term`
/// reading no written array and not the sum itself.
pub fn contraction(k: &Kernel) -> Option<Contraction<'_>> {
    if !k.private_arrays.is_empty() {
        return None;
    }
    let nest = perfect_nest(k);
    let kinds = classify(k, &nest);
    if nest.loops.len() < 2 || kinds[0] != LoopKind::Parallel || kinds[1] != LoopKind::Parallel {
        return None;
    }
    let written: Vec<&str> = k
        .args
        .iter()
        .filter(|a| a.written)
        .map(|a| a.name.as_str())
        .collect();
    let (red, term, form) = match nest.loops.len() {
        2 => {
            let (body, guard) = match (k.triangle, nest.body) {
                (
                    true,
                    [Stmt {
                        kind:
                            StmtKind::If {
                                cond,
                                then,
                                other: None,
                            },
                        ..
                    }],
                ) => (then.as_slice(), Some(cond)),
                _ => (nest.body, None),
            };
            let (
                Stmt {
                    kind:
                        StmtKind::Decl {
                            ty,
                            name,
                            init: Some(init),
                        },
                    ..
                },
                Stmt {
                    kind: StmtKind::For(red),
                    ..
                },
            ) = (body.first()?, body.get(1)?)
            else {
                return None;
            };
            let after = &body[2..];
            if init.reads_array() || has_loop(after) || !ty.is_float() {
                return None;
            }
            let s = only(&red.body)?;
            let (_, term) = summand(s, &|t| matches!(&t.kind, ExprKind::Var(v) if v == name))?;
            if term.mentions(name) {
                return None;
            }
            (
                red,
                term,
                ContractionForm::Scalar {
                    name: name.clone(),
                    ty: *ty,
                    init,
                    after,
                    guard,
                },
            )
        }
        3 if kinds[2] == LoopKind::Reduction => {
            let red = nest.loops[2];
            let s = only(nest.body)?;
            let (target, term) = summand(s, &|t| {
                matches!(&t.kind, ExprKind::Index { .. }) && !t.mentions(&red.var)
            })?;
            (red, term, ContractionForm::Element { target })
        }
        _ => return None,
    };
    if red.step != 1 || varies(k, &red.lower) || varies(k, &red.upper) {
        return None;
    }
    if written.iter().any(|w| term.mentions(w)) {
        return None;
    }
    // Outside a triangle's guard, only operands whose rows the triangle reads (see
    // `lower::triangle`): each varies with at most one of the two loops.
    if matches!(form, ContractionForm::Scalar { guard: Some(_), .. }) {
        let (i, j) = (&nest.loops[0].var, &nest.loops[1].var);
        let mut both = false;
        term.visit(&mut |x| {
            both |= matches!(x.kind, ExprKind::Index { .. }) && x.mentions(i) && x.mentions(j)
        });
        if both {
            return None;
        }
    }
    Some(Contraction { red, term, form })
}

/// A row reduction (the matrix-vector product's shape): each iteration of the parallel loop `i`
/// sums `term` over an inner loop `red` into one value of its own — Orio's
/// `for i: for j: y[i] = y[i] + A[i*n+j]*x[j]` (`y[i] += ...`; `form` is
/// [`ContractionForm::Element`], `stmt` the accumulating statement) or the scalar-accumulator form
/// `T s = init; for j: s += term; after...` ([`ContractionForm::Scalar`]; a scalar declared outside
/// the loop and assigned first is made such a declaration by `preamble::privatize`).
#[derive(Debug, Clone)]
pub struct RowReduction<'k> {
    pub red: &'k Loop,
    pub term: &'k Expr,
    pub form: ContractionForm<'k>,
    /// The statement of `red`'s body that adds `term`.
    pub stmt: &'k Stmt,
}

/// The row reduction of `k`'s nest, if it has the shape (see [`RowReduction`]): the parallel
/// loop parallel, the reduction loop with a positive step and bounds that read no array and
/// depend neither on its own index nor on the sum, `term` reading no written array and not the
/// sum itself.
pub fn row_reduction(k: &Kernel) -> Option<RowReduction<'_>> {
    if !k.private_arrays.is_empty() {
        return None;
    }
    let nest = perfect_nest(k);
    let kinds = classify(k, &nest);
    if kinds[0] != LoopKind::Parallel {
        return None;
    }
    let (red, stmt, term, form) = match nest.loops.len() {
        1 => {
            let body = nest.body;
            let (
                Stmt {
                    kind:
                        StmtKind::Decl {
                            ty,
                            name,
                            init: Some(init),
                        },
                    ..
                },
                Stmt {
                    kind: StmtKind::For(red),
                    ..
                },
            ) = (body.first()?, body.get(1)?)
            else {
                return None;
            };
            let after = &body[2..];
            if has_loop(after)
                || init.mentions(&red.var)
                || after.iter().any(|s| stmt_mentions(s, &red.var))
            {
                return None;
            }
            let s = only(&red.body)?;
            let (_, term) = summand(s, &|t| matches!(&t.kind, ExprKind::Var(v) if v == name))?;
            if term.mentions(name) {
                return None;
            }
            let form = ContractionForm::Scalar {
                name: name.clone(),
                ty: *ty,
                init,
                after,
                guard: None,
            };
            (red, s, term, form)
        }
        2 if kinds[1] == LoopKind::Reduction => {
            let red = nest.loops[1];
            let s = only(nest.body)?;
            let (target, term) = summand(s, &|t| {
                matches!(&t.kind, ExprKind::Index { .. }) && !t.mentions(&red.var)
            })?;
            (red, s, term, ContractionForm::Element { target })
        }
        _ => return None,
    };
    let bound_ok = |b: &Expr| {
        !b.mentions(&red.var)
            && !b.reads_array()
            && match &form {
                ContractionForm::Scalar { name, .. } => !b.mentions(name),
                ContractionForm::Element { .. } => true,
            }
    };
    if red.step < 1 || !bound_ok(&red.lower) || !bound_ok(&red.upper) {
        return None;
    }
    if k.args
        .iter()
        .filter(|a| a.written)
        .any(|w| term.mentions(&w.name))
    {
        return None;
    }
    Some(RowReduction {
        red,
        term,
        form,
        stmt,
    })
}

/// Whether statement `s` mentions `name` anywhere.
fn stmt_mentions(s: &Stmt, name: &str) -> bool {
    match &s.kind {
        StmtKind::Assign { target, value, .. } => target.mentions(name) || value.mentions(name),
        StmtKind::Decl { name: n, init, .. } => {
            n == name || init.as_ref().is_some_and(|e| e.mentions(name))
        }
        StmtKind::If { cond, then, other } => {
            cond.mentions(name)
                || then.iter().any(|s| stmt_mentions(s, name))
                || other
                    .as_ref()
                    .is_some_and(|o| o.iter().any(|s| stmt_mentions(s, name)))
        }
        StmtKind::For(l) => {
            l.var == name
                || l.lower.mentions(name)
                || l.upper.mentions(name)
                || l.body.iter().any(|s| stmt_mentions(s, name))
        }
        StmtKind::Block(b) => b.iter().any(|s| stmt_mentions(s, name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernel of `code` in a function with matrix-vector arguments.
    fn kernel(code: &str) -> Kernel {
        let text = format!(
            "void f(int m, int n, const double *A, const double *x, double *y) {{\n    int i, j;\n    /*@ begin PerfTuning (\n def performance_params {{ param WI[] = [32]; }}\n def input_params {{ param M[] = [8]; param N[] = [8]; }}\n def input_vars {{ decl int m = M; decl int n = N; decl static double A[M*N] = random; decl static double x[N] = random; decl static double y[M] = 0; }}\n ) @*/\n    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)\n {code}\n ) @*/\n {code}\n /*@ end @*/\n /*@ end @*/\n}}\n"
        );
        let regions = crate::region::parse(&text).expect("parses");
        crate::lower::lower(&regions[0].raw, &regions[0].spec, &text).expect("lowers")
    }

    /// A row reduction's sum is found by the one accumulation matcher: `+=` and `y = y + t` in
    /// either order are sums of a term; a subtraction is not (its term cannot be summed apart).
    #[test]
    fn row_sums_come_from_the_accumulation_matcher() {
        for (code, term) in [
            (
                "for (i=0; i<m; i++) for (j=0; j<n; j++) y[i] += A[i*n+j]*x[j];",
                "A[i * n + j] * x[j]",
            ),
            (
                "for (i=0; i<m; i++) for (j=0; j<n; j++) y[i] = y[i] + A[i*n+j]*x[j];",
                "A[i * n + j] * x[j]",
            ),
            (
                "for (i=0; i<m; i++) for (j=0; j<n; j++) y[i] = x[j] + y[i];",
                "x[j]",
            ),
        ] {
            let k = kernel(code);
            let r = row_reduction(&k).unwrap_or_else(|| panic!("no row reduction in {code}"));
            assert_eq!(crate::ir::c::c_expr(r.term, &|_| None), term);
        }
        for code in [
            "for (i=0; i<m; i++) for (j=0; j<n; j++) y[i] -= A[i*n+j]*x[j];",
            "for (i=0; i<m; i++) for (j=0; j<n; j++) y[i] = y[i] - A[i*n+j]*x[j];",
            "for (i=0; i<m; i++) for (j=0; j<n; j++) y[i] *= x[j];",
        ] {
            assert!(row_reduction(&kernel(code)).is_none(), "{code}");
        }
    }
}
