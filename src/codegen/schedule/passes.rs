//! The group-uniform passes of a 1-D map (`schedule::LinearSchedule::passes`), decided once per
//! configuration: which inner loop `innerThreads` lanes split (its accumulators, the statements
//! before it that lane 0 alone runs) and which inner loops' shared operands `cacheBlocks` stages
//! in tiles of the local size (`x[j]` of `t += A[i*n+j]*x[j]`). Both need barriers, so the
//! parallel loop is walked in group-uniform passes (`codegen::kernel_ir::passes` lowers them):
//! every work-item of a work-group takes part in every pass, tile load and barrier; inactive ones
//! (past the end of the loop) only skip the statements.
use super::{ArgError, LinearArg};
use orcl_frontend::ir::c::{c_expr, StmtWriter};
use orcl_frontend::ir::{
    AssignOp, Expr, ExprKind, Kernel, Loop, ReduceOp, ScalarType, Stmt, StmtKind, SymbolKind,
};
use std::collections::BTreeMap;

/// What the group-uniform kernel does with the parallel loop's body.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Lanes per iteration (`innerThreads`).
    pub(crate) threads: u64,
    /// The inner loop the lanes split: its index in the parallel body, and the accumulators.
    pub(crate) split: Option<Split>,
    /// Inner loops (index in the parallel body) whose shared operands are staged in tiles.
    pub(crate) staged: BTreeMap<usize, Vec<Stage>>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Split {
    pub(crate) index: usize,
    pub(crate) accs: Vec<Acc>,
    /// Statements before the loop (indices in the parallel body) that lane 0 alone runs: array
    /// stores and reductions of the parallel loop (`y[i] = 0.0;`, `s += b[i];`).
    pub(crate) lane0: Vec<usize>,
}

/// What the split loop accumulates into: a temporary declared before it (`t += ...`), or an
/// array element that is the same in every iteration of the loop (`y[i] += ...`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Acc {
    /// `t` or `y[i]`.
    pub(crate) target: Expr,
    /// Name for generated variables (`t`, `y`).
    pub(crate) name: String,
    /// The variable each lane accumulates into: the temporary itself, or `orcl_lacc_y`.
    pub(crate) lane_var: String,
    pub(crate) is_array: bool,
    pub(crate) ty: ScalarType,
    pub(crate) op: ReduceOp,
    /// A temporary whose value before the loop is the operator's identity (`double t = 0.0;`),
    /// so that the lanes can start from it without saving it.
    pub(crate) starts_at_identity: bool,
}

/// One staged operand: `array[var + offset]` of an inner loop, a tile of the local size.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Stage {
    pub(crate) array: String,
    pub(crate) offset: i64,
    pub(crate) ty: ScalarType,
    /// One reference, printed to load the tile.
    pub(crate) source: Expr,
    pub(crate) tile: String,
}

impl Plan {
    /// Bytes of local memory per work-item (tiles and lane partials).
    pub fn local_bytes_per_item(&self) -> u64 {
        let tiles: usize = self
            .staged
            .values()
            .flatten()
            .map(|s| s.ty.size_bytes())
            .sum();
        let partials: usize = self
            .split
            .iter()
            .flat_map(|s| &s.accs)
            .map(|a| a.ty.size_bytes())
            .sum();
        (tiles + partials) as u64
    }

    /// Whether any identity of the lane combine needs `INT_MIN`-style limits or `INFINITY`.
    pub fn uses_limits(&self) -> bool {
        self.split
            .iter()
            .flat_map(|s| &s.accs)
            .any(|a| matches!(a.op, ReduceOp::Max | ReduceOp::Min))
    }
}

fn err(message: String, help: Option<&str>) -> ArgError {
    ArgError {
        arg: LinearArg::InnerThreads,
        message,
        help: help.map(str::to_string),
    }
}

/// The plan for `lanes` lanes per iteration (`innerThreads`) in work-groups of `local`
/// work-items, staging inner loops' shared operands when `cache_blocks`; `None` when the kernel
/// needs no group-uniform passes (one lane and nothing to stage from an inner loop).
///
/// Errors (`innerThreads`): more lanes than the local size; a loop that is not `pre; for (...)
/// accumulate; post` with `pre` only setting temporaries.
pub fn plan(
    k: &Kernel,
    lanes: u64,
    local: u64,
    cache_blocks: bool,
) -> Result<Option<Plan>, ArgError> {
    let threads = lanes.max(1);
    let mut split = None;
    if threads > 1 {
        if threads > local {
            return Err(err(
                format!(
                    "`innerThreads={threads}` is more than the local size ({local}): the lanes of one iteration share a work-group",
                ),
                Some("add a constraint, e.g. `constraint lanes = (IT <= WI);`"),
            ));
        }
        split = Some(analyse_split(k, threads)?);
    }
    let mut staged = BTreeMap::new();
    if cache_blocks {
        let mut names = Vec::new();
        for (index, s) in k.parallel.body.iter().enumerate() {
            let StmtKind::For(l) = &s.kind else { continue };
            if split.as_ref().is_some_and(|sp: &Split| sp.index != index) {
                continue;
            }
            let stages = stages_of(k, l, &mut names);
            if !stages.is_empty() {
                staged.insert(index, stages);
            }
        }
    }
    if split.is_none() && staged.is_empty() {
        return Ok(None);
    }
    Ok(Some(Plan {
        threads,
        split,
        staged,
    }))
}

fn stmt_text(s: &Stmt) -> String {
    let mut w = StmtWriter {
        out: String::new(),
        indent: 0,
        unroll: None,
        subst: &|_| None,
    };
    w.write_stmt(s);
    let first = w.out.lines().next().unwrap_or("").trim().to_string();
    first
}

const SPLIT_HELP: &str = "innerThreads splits a loop of the form `double t = 0; for (j ...) t += ...; y[i] = t;`: temporaries set before the inner loop, the inner loop only accumulating into them";

fn analyse_split(k: &Kernel, threads: u64) -> Result<Split, ArgError> {
    let body = &k.parallel.body;
    let Some(index) = body.iter().position(|s| matches!(s.kind, StmtKind::For(_))) else {
        return Err(err(
            format!("`innerThreads={threads}` needs a sequential inner loop directly in the parallel loop's body, and this loop has none"),
            Some(SPLIT_HELP),
        ));
    };
    let (lane0, stored) = before_loop(k, &body[..index], threads)?;
    let reduced: Vec<&str> = k.reductions().map(|a| a.name.as_str()).collect();
    let StmtKind::For(l) = &body[index].kind else {
        unreachable!("found above")
    };
    let outer: Vec<(&str, ScalarType)> = body[..index]
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Decl { name, ty, .. } => Some((name.as_str(), *ty)),
            _ => None,
        })
        .collect();
    let mut updates: Vec<(&Expr, ReduceOp, &Expr)> = Vec::new();
    let mut reads: Vec<&Expr> = Vec::new();
    let row_invariant = |e: &Expr| {
        let mut ok = true;
        e.visit(&mut |x| match &x.kind {
            ExprKind::Var(v) => {
                ok &= v == &k.parallel.var
                    || k.symbols
                        .get(v)
                        .is_some_and(|s| s.kind == SymbolKind::Scalar)
            }
            ExprKind::Index { .. } => ok = false,
            _ => {}
        });
        ok
    };
    collect_inner(
        &l.body,
        &Walk {
            threads,
            outer: &outer,
            reduced: &reduced,
            row_invariant: &row_invariant,
        },
        &mut updates,
        &mut reads,
    )?;
    let accs = accumulators(k, &body[..index], &outer, &updates, threads)?;
    // The accumulators hold partial values inside the loop, and arrays stored before the loop
    // are only stored by lane 0: nothing else may read them there.
    let operands = updates.iter().map(|(_, _, e)| *e);
    for e in reads.iter().copied().chain(operands.clone()) {
        if let Some(a) = stored.iter().find(|a| e.mentions(a)) {
            return Err(err(
                format!(
                    "`innerThreads={threads}`: the inner loop reads `{a}`, which lane 0 alone stores before it",
                ),
                Some(SPLIT_HELP),
            ));
        }
    }
    for e in reads.iter().copied().chain(operands) {
        if let Some(a) = accs.iter().find(|a| e.mentions(&a.name)) {
            return Err(err(
                format!(
                    "`innerThreads={threads}`: the inner loop reads `{}`, which it accumulates into and each lane only knows in part",
                    c_expr(&a.target, &|_| None)
                ),
                Some(SPLIT_HELP),
            ));
        }
    }
    Ok(Split { index, accs, lane0 })
}

/// The statements before the split loop (`pre`): which ones lane 0 alone runs (top-level array
/// stores and reductions of the parallel loop; their indices in `pre`) and the arrays they store,
/// which the other statements must not read; the others may only set temporaries.
fn before_loop<'k>(
    k: &'k Kernel,
    pre: &'k [Stmt],
    threads: u64,
) -> Result<(Vec<usize>, Vec<&'k str>), ArgError> {
    let is_local = |v: &str| {
        k.symbols
            .get(v)
            .is_some_and(|s| s.kind == SymbolKind::Local)
    };
    // Before the inner loop: temporaries are declared or assigned (every lane runs that), and
    // top-level array stores and reductions run on lane 0 only.
    let reduced: Vec<&str> = k.reductions().map(|a| a.name.as_str()).collect();
    let lane0_only = |s: &Stmt| match &s.kind {
        StmtKind::Assign { target, .. } => match &target.kind {
            ExprKind::Index { .. } => true,
            ExprKind::Var(v) => reduced.contains(&v.as_str()),
            _ => false,
        },
        _ => false,
    };
    let mut lane0 = Vec::new();
    let mut stored: Vec<&str> = Vec::new();
    for (n, s) in pre.iter().enumerate() {
        if lane0_only(s) {
            lane0.push(n);
            if let StmtKind::Assign { target, .. } = &s.kind {
                if let ExprKind::Index { array, .. } = &target.kind {
                    stored.push(array);
                }
            }
        } else {
            check_pre(std::slice::from_ref(s), threads, &is_local)?;
        }
    }
    // What lane 0 stores before the loop, the other lanes must not read.
    for (n, s) in pre.iter().enumerate() {
        if lane0.contains(&n) {
            continue;
        }
        let mut culprit = None;
        orcl_frontend::ir::for_each_expr(std::slice::from_ref(s), &mut |e| {
            if let Some(a) = stored.iter().find(|a| e.mentions(a)) {
                culprit.get_or_insert(a.to_string());
            }
        });
        if let Some(a) = culprit {
            return Err(err(
                format!(
                    "`innerThreads={threads}`: `{}` reads `{a}`, which lane 0 alone stores before the inner loop",
                    stmt_text(s)
                ),
                Some(SPLIT_HELP),
            ));
        }
    }
    Ok((lane0, stored))
}

/// The accumulators of the split loop from its accumulations `updates` (temporaries declared
/// in `pre`, with their types in `outer`, or row-invariant array elements, which each lane sums
/// into a private variable).
fn accumulators(
    k: &Kernel,
    pre: &[Stmt],
    outer: &[(&str, ScalarType)],
    updates: &[(&Expr, ReduceOp, &Expr)],
    threads: u64,
) -> Result<Vec<Acc>, ArgError> {
    let mut accs: Vec<Acc> = Vec::new();
    let mut lane_names: Vec<String> = Vec::new();
    for (target, op, _) in updates {
        let label = c_expr(target, &|_| None);
        match accs.iter().find(|a| a.target.same_as(target)) {
            Some(a) if a.op != *op => {
                return Err(err(
                    format!("`innerThreads={threads}`: `{label}` is accumulated with two different operators in the inner loop"),
                    Some(SPLIT_HELP),
                ))
            }
            Some(_) => {}
            None => match &target.kind {
                ExprKind::Var(v) => {
                    let ty = outer
                        .iter()
                        .find(|(n, _)| n == v)
                        .map(|(_, t)| *t)
                        .unwrap_or(ScalarType::Double);
                    accs.push(Acc {
                        target: (*target).clone(),
                        name: v.clone(),
                        lane_var: v.clone(),
                        is_array: false,
                        ty,
                        op: *op,
                        starts_at_identity: starts_at_identity(pre, v, *op),
                    })
                }
                ExprKind::Index { array, .. } => {
                    if accs.iter().any(|a| a.is_array && &a.name == array) {
                        return Err(err(
                            format!("`innerThreads={threads}`: the inner loop accumulates into two elements of `{array}`"),
                            Some(SPLIT_HELP),
                        ));
                    }
                    let mut lane_var = format!("orcl_lacc_{array}");
                    while lane_names.contains(&lane_var) || k.symbols.contains_key(&lane_var) {
                        lane_var.push('_');
                    }
                    lane_names.push(lane_var.clone());
                    accs.push(Acc {
                        target: (*target).clone(),
                        name: array.clone(),
                        lane_var,
                        is_array: true,
                        ty: k.symbols.get(array).map(|s| s.ty).unwrap_or(ScalarType::Double),
                        op: *op,
                        starts_at_identity: false,
                    })
                }
                _ => unreachable!("accumulations target variables and array elements"),
            },
        }
    }
    Ok(accs)
}

/// Statements before the split loop that every lane runs: only temporaries may be set there.
fn check_pre(
    stmts: &[Stmt],
    threads: u64,
    is_local: &dyn Fn(&str) -> bool,
) -> Result<(), ArgError> {
    for s in stmts {
        match &s.kind {
            StmtKind::Decl { .. } => {}
            StmtKind::Assign { target, .. }
                if matches!(&target.kind, ExprKind::Var(v) if is_local(v)) => {}
            StmtKind::If { then, other, .. } => {
                check_pre(then, threads, is_local)?;
                if let Some(o) = other {
                    check_pre(o, threads, is_local)?;
                }
            }
            StmtKind::Block(b) => check_pre(b, threads, is_local)?,
            _ => {
                return Err(err(
                    format!(
                        "`innerThreads={threads}`: `{}` comes before the inner loop, where every lane runs; only temporaries may be set there (and arrays or reductions assigned outside `if`, by lane 0)",
                        stmt_text(s)
                    ),
                    Some(SPLIT_HELP),
                ))
            }
        }
    }
    Ok(())
}

/// What `collect_inner` needs to know about the loop.
struct Walk<'a> {
    threads: u64,
    /// Temporaries declared before the split loop, with their types.
    outer: &'a [(&'a str, ScalarType)],
    /// Reduction variables of the parallel loop.
    reduced: &'a [&'a str],
    /// Whether a subscript has the same value in every iteration of the split loop.
    row_invariant: &'a dyn Fn(&Expr) -> bool,
}

/// The accumulation `v op= e` that an assignment to `v` (a variable or an array element)
/// performs, and its operand `e` (the one matcher: [`orcl_frontend::analysis::accumulation`]).
fn accumulation<'e>(v: &Expr, op: AssignOp, value: &'e Expr) -> Option<(ReduceOp, &'e Expr)> {
    orcl_frontend::ir::accumulation(&|e| e.same_as(v), op, value)
}

/// Walk the split loop's body: assignments to the temporaries declared before it must be
/// accumulations (collected in `updates`), arrays are not written, and every other expression is
/// collected in `reads` (checked against the accumulators afterwards).
fn collect_inner<'k>(
    stmts: &'k [Stmt],
    cx: &Walk,
    updates: &mut Vec<(&'k Expr, ReduceOp, &'k Expr)>,
    reads: &mut Vec<&'k Expr>,
) -> Result<(), ArgError> {
    let threads = cx.threads;
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { target, op, value } => match &target.kind {
                ExprKind::Var(v) if cx.outer.iter().any(|(n, _)| n == v) => {
                    match accumulation(target, *op, value) {
                        Some((r, e)) => updates.push((target, r, e)),
                        None => {
                            return Err(err(
                                format!(
                                    "`innerThreads={threads}`: `{}` sets `{v}` in the inner loop without accumulating into it (`{v} += e`, `{v} *= e`, `{v} = fmax({v}, e)`), so the lanes cannot split the loop",
                                    stmt_text(s)
                                ),
                                Some(SPLIT_HELP),
                            ))
                        }
                    }
                }
                // A reduction of the parallel loop: every lane adds its share to its own
                // accumulator, and the work-group's tree adds the lanes.
                ExprKind::Var(v) if cx.reduced.contains(&v.as_str()) => {
                    if let Some((_, e)) = accumulation(target, *op, value) {
                        reads.push(e);
                    }
                }
                // A temporary of the inner loop's own body.
                ExprKind::Var(_) => reads.push(value),
                // `y[i] += e`: the lanes accumulate privately, lane 0 adds the sum to `y[i]`.
                ExprKind::Index { indices, .. }
                    if indices.iter().all(|x| (cx.row_invariant)(x)) =>
                {
                    match accumulation(target, *op, value) {
                        Some((r, e)) => updates.push((target, r, e)),
                        None => {
                            return Err(err(
                                format!(
                                    "`innerThreads={threads}`: `{}` writes an array in the inner loop without accumulating into it, so the lanes cannot split the loop",
                                    stmt_text(s)
                                ),
                                Some(SPLIT_HELP),
                            ))
                        }
                    }
                }
                _ => {
                    return Err(err(
                        format!(
                            "`innerThreads={threads}`: `{}` writes a different array element in each iteration of the inner loop; the lanes can only split a loop that accumulates",
                            stmt_text(s)
                        ),
                        Some(SPLIT_HELP),
                    ))
                }
            },
            StmtKind::Decl { init, .. } => reads.extend(init.iter()),
            StmtKind::If { cond, then, other } => {
                reads.push(cond);
                collect_inner(then, cx, updates, reads)?;
                if let Some(o) = other {
                    collect_inner(o, cx, updates, reads)?;
                }
            }
            StmtKind::For(l) => {
                reads.push(&l.lower);
                reads.push(&l.upper);
                collect_inner(&l.body, cx, updates, reads)?;
            }
            StmtKind::Block(b) => collect_inner(b, cx, updates, reads)?,
        }
    }
    Ok(())
}

/// Whether the temporary `v` holds `op`'s identity when the split loop starts: declared with a
/// `0` (sum) or `1` (product) literal and assigned nowhere else before the loop.
fn starts_at_identity(pre: &[Stmt], v: &str, op: ReduceOp) -> bool {
    let want = match op {
        ReduceOp::Sum => 0.0,
        ReduceOp::Product => 1.0,
        _ => return false,
    };
    let mut decl_ok = false;
    let mut other = false;
    fn walk(stmts: &[Stmt], v: &str, want: f64, decl_ok: &mut bool, other: &mut bool, top: bool) {
        for s in stmts {
            match &s.kind {
                StmtKind::Decl { name, init, .. } if name == v && top => {
                    *decl_ok = init
                        .as_ref()
                        .is_some_and(|e| literal_value(e) == Some(want));
                }
                StmtKind::Assign { target, .. } if matches!(&target.kind, ExprKind::Var(x) if x == v) => {
                    *other = true
                }
                StmtKind::If { then, other: o, .. } => {
                    walk(then, v, want, decl_ok, other, false);
                    if let Some(o) = o {
                        walk(o, v, want, decl_ok, other, false);
                    }
                }
                StmtKind::Block(b) => walk(b, v, want, decl_ok, other, false),
                _ => {}
            }
        }
    }
    walk(pre, v, want, &mut decl_ok, &mut other, true);
    decl_ok && !other
}

fn literal_value(e: &Expr) -> Option<f64> {
    match &e.kind {
        ExprKind::Int(v) => Some(*v as f64),
        ExprKind::Float { text, .. } => text
            .trim_end_matches(['f', 'F', 'l', 'L'])
            .parse::<f64>()
            .ok(),
        _ => None,
    }
}

/// `var + c` (also `c + var`, `var - c`, `var`) as `c`.
pub(crate) fn offset_of(sub: &Expr, var: &str) -> Option<i64> {
    use orcl_frontend::ir::BinaryOp;
    let is_var = |e: &Expr| matches!(&e.kind, ExprKind::Var(v) if v == var);
    let int = |e: &Expr| match &e.kind {
        ExprKind::Int(c) => Some(*c),
        _ => None,
    };
    match &sub.kind {
        ExprKind::Var(v) if v == var => Some(0),
        ExprKind::Binary(BinaryOp::Add, a, b) if is_var(a) => int(b),
        ExprKind::Binary(BinaryOp::Add, a, b) if is_var(b) => int(a),
        ExprKind::Binary(BinaryOp::Sub, a, b) if is_var(a) => int(b).and_then(i64::checked_neg),
        _ => None,
    }
}

/// Whether `e` has the same value in every work-item: literals and scalar kernel arguments only.
fn uniform(k: &Kernel, e: &Expr) -> bool {
    let mut ok = true;
    e.visit(&mut |x| match &x.kind {
        ExprKind::Var(v) => {
            ok &= k
                .symbols
                .get(v)
                .is_some_and(|s| s.kind == SymbolKind::Scalar)
        }
        ExprKind::Index { .. } => ok = false,
        _ => {}
    });
    ok
}

fn redeclares(stmts: &[Stmt], var: &str) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::For(l) => l.var == var || redeclares(&l.body, var),
        StmtKind::If { then, other, .. } => {
            redeclares(then, var) || other.as_deref().is_some_and(|o| redeclares(o, var))
        }
        StmtKind::Block(b) => redeclares(b, var),
        _ => false,
    })
}

/// Calls `f` on the sub-expressions of `e` that are evaluated whenever `e` is: not inside the
/// arms of `?:` or the right operand of `&&`/`||`.
pub(crate) fn visit_unconditional(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    use orcl_frontend::ir::BinaryOp;
    f(e);
    match &e.kind {
        ExprKind::Index { indices, .. } => indices.iter().for_each(|x| visit_unconditional(x, f)),
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => visit_unconditional(a, f),
        ExprKind::Binary(BinaryOp::And | BinaryOp::Or, a, _) => visit_unconditional(a, f),
        ExprKind::Binary(_, a, b) => {
            visit_unconditional(a, f);
            visit_unconditional(b, f);
        }
        ExprKind::Call(_, args) => args.iter().for_each(|x| visit_unconditional(x, f)),
        ExprKind::Cond(c, _, _) => visit_unconditional(c, f),
        _ => {}
    }
}

/// The operands of inner loop `l` that can be staged: read-only arrays referenced as
/// `x[var + c]`, with at least one such reference evaluated in every iteration (so that the
/// original loop reads every element the tile loads), when the loop's bounds are the same in every
/// work-item. `names` holds the tile names already given.
fn stages_of(k: &Kernel, l: &Loop, names: &mut Vec<String>) -> Vec<Stage> {
    if !uniform(k, &l.lower) || !uniform(k, &l.upper) || redeclares(&l.body, &l.var) {
        return Vec::new();
    }
    let read_only = |a: &str| {
        k.args
            .iter()
            .find(|x| x.name == a)
            .filter(|x| x.is_array && !x.written && x.reduction.is_none())
    };
    let mut stages: Vec<Stage> = Vec::new();
    let mut found: Vec<(String, i64, Expr)> = Vec::new();
    for s in &l.body {
        let mut visit = |e: &Expr| {
            visit_unconditional(e, &mut |x| {
                if let ExprKind::Index { array, indices } = &x.kind {
                    if indices.len() == 1 && read_only(array).is_some() {
                        if let Some(c) = offset_of(&indices[0], &l.var) {
                            if !found.iter().any(|(a, o, _)| a == array && *o == c) {
                                found.push((array.clone(), c, x.clone()));
                            }
                        }
                    }
                }
            })
        };
        match &s.kind {
            StmtKind::Assign { target, value, .. } => {
                visit(target);
                visit(value);
            }
            StmtKind::Decl { init: Some(i), .. } => visit(i),
            _ => {}
        }
    }
    for (array, offset, source) in found {
        let ty = read_only(&array)
            .map(|a| a.ty)
            .unwrap_or(ScalarType::Double);
        let mut tile = format!("orcl_tile_{array}_{}", l.var);
        match offset {
            0 => {}
            c if c > 0 => tile.push_str(&format!("_p{c}")),
            c => tile.push_str(&format!("_m{}", c.unsigned_abs())),
        }
        let base = tile.clone();
        let mut n = 2;
        while names.contains(&tile) {
            tile = format!("{base}_{n}");
            n += 1;
        }
        names.push(tile.clone());
        stages.push(Stage {
            array,
            offset,
            ty,
            source,
            tile,
        });
    }
    stages
}
