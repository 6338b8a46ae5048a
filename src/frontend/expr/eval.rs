//! Evaluation of an expression: names, operators (Python semantics on 64-bit integers), list
//! comprehensions, within the element budget.

use super::builtins::call;
use super::value::{num, py_cmp, Num};
use super::{BinOp, Expr, ExprKind, UnOp, Value, COMMAND_BUDGET, EVAL_BUDGET, FREE_PER_EVAL};
use std::cell::Cell;
use std::sync::Arc;

thread_local! {
    /// Elements charged to [`COMMAND_BUDGET`] on this thread so far (a command evaluates its
    /// spec on one thread; each test runs on a thread of its own).
    static COMMAND_SPENT: Cell<u64> = const { Cell::new(0) };
    /// Expression nodes evaluated on this thread so far ([`steps_evaluated`]).
    static STEPS: Cell<u64> = const { Cell::new(0) };
}

/// Expression nodes (names, literals, operators, calls, comprehension bodies) evaluated on this
/// thread since it started: the measure of work by which `prepare` and `check` bound what they
/// enumerate per command (issue 25 G6: a 300-term constraint over 576,000 configurations took
/// 40 s of CPU while their configuration counts stayed within bounds). About 40 ns a step.
pub fn steps_evaluated() -> u64 {
    STEPS.get()
}

/// A command's budget of work in steps ([`steps_evaluated`], about 40 ns each), charged with
/// what this thread evaluated since the budget was made or last charged: the one way `prepare`
/// and `check` bound the constraint and transform-argument work of a command (issue 25 G5/G6).
#[derive(Debug, Clone, Copy)]
pub struct StepBudget {
    left: u64,
    mark: u64,
}

impl StepBudget {
    /// `steps` steps, counted from now on this thread.
    pub fn new(steps: u64) -> StepBudget {
        StepBudget {
            left: steps,
            mark: steps_evaluated(),
        }
    }

    /// Charges the steps this thread took since the last charge; whether none are left.
    pub fn spent(&mut self) -> bool {
        let now = steps_evaluated();
        self.left = self.left.saturating_sub(now.saturating_sub(self.mark));
        self.mark = now;
        self.left == 0
    }
}

/// Elements (list items, characters) produced or walked per step charged ([`Ctx::spend`]).
/// Elements within an evaluation's free allowance were not charged at all, so `check` of
/// `constraint c = WI in range(400)` beside 2·10^6 configurations took 4.25 s of CPU (the
/// slowest shape of `make fuzz-long` round nine); at 4 elements a step it takes 1.4 s.
pub(crate) const ELEMENTS_PER_STEP: u64 = 4;

/// Charges `n` steps of work that is not an expression node to [`steps_evaluated`]: building a
/// configuration costs about two steps per tuning parameter ([`crate::space::SearchSpace`]
/// charges it), so that the step budgets bound spaces of many parameters too (issue 25 G6: 46
/// parameters × 5,000 input sizes took 15 s of `check` within the configuration counts).
pub fn charge_steps(n: u64) {
    STEPS.set(STEPS.get().saturating_add(n));
}
use crate::diag::{did_you_mean, Diagnostic, Span};

fn op_str(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::FloorDiv => "//",
        BinOp::Mod => "%",
        BinOp::Pow => "**",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::And => "and",
        BinOp::Or => "or",
        BinOp::In => "in",
    }
}

pub(super) struct Ctx<'e> {
    env: &'e dyn Fn(&str) -> Option<Value>,
    names: &'e [&'e str],
    locals: Vec<(String, Value)>,
    budget: u64,
    /// The budget is the command's remainder, smaller than [`EVAL_BUDGET`].
    command_bound: bool,
}

impl Ctx<'_> {
    pub(super) fn spend(&mut self, n: u64, span: Span) -> Result<(), Diagnostic> {
        // Elements cost time whether or not they are free of the element budgets: charge them
        // to the step count too, so `WI in range(400)` over 10^6 configurations is bounded by
        // the command's steps like a 400-node constraint (issue 25 G6, `make fuzz-long`).
        STEPS.set(STEPS.get().saturating_add(n / ELEMENTS_PER_STEP));
        match self.budget.checked_sub(n) {
            Some(b) => {
                self.budget = b;
                Ok(())
            }
            None if self.command_bound => Err(Diagnostic::new(
                span,
                format!("too much work evaluating the spec: its expressions produced more than {COMMAND_BUDGET} elements in this command (each evaluation's first {FREE_PER_EVAL} are free)"),
            )
            .with_help("a constraint or value that builds a large list is evaluated once per configuration: compute it once in a `let`, or make it smaller")),
            None => Err(Diagnostic::new(
                span,
                format!("expression too large to evaluate (more than {EVAL_BUDGET} elements)"),
            )),
        }
    }
}

impl Expr {
    /// Evaluate with `env` giving the value of each free name (`None`: unknown name).
    ///
    /// Errors (located at the culprit sub-expression): unknown name (``unknown name `WJ` ``, no
    /// suggestion: use [`Expr::eval_with_names`] for one), type errors, division by zero, integer
    /// overflow (integers are 64-bit), `range` longer than 10,000,000 elements.
    pub fn eval(&self, env: &dyn Fn(&str) -> Option<Value>) -> Result<Value, Diagnostic> {
        self.eval_with_names(env, &[])
    }

    /// [`Expr::eval`], with `names` (the names `env` knows) used to suggest a correction for an
    /// unknown name ("did you mean `WI`?").
    pub fn eval_with_names(
        &self,
        env: &dyn Fn(&str) -> Option<Value>,
        names: &[&str],
    ) -> Result<Value, Diagnostic> {
        let left = COMMAND_BUDGET.saturating_sub(COMMAND_SPENT.get());
        let budget = EVAL_BUDGET.min(FREE_PER_EVAL.saturating_add(left));
        let mut ctx = Ctx {
            env,
            names,
            locals: Vec::new(),
            budget,
            command_bound: budget < EVAL_BUDGET,
        };
        let r = self.ev(&mut ctx);
        let spent = budget - ctx.budget;
        COMMAND_SPENT.set(COMMAND_SPENT.get() + spent.saturating_sub(FREE_PER_EVAL));
        r
    }

    /// The free names of the expression (names of params, input params and lets it uses), each
    /// once, in order of first occurrence, with the span of that occurrence. Comprehension
    /// variables are not free inside their comprehension; function names are not names.
    pub fn free_names(&self) -> Vec<(String, Span)> {
        let mut out = Vec::new();
        let mut bound = Vec::new();
        let mut seen = std::collections::HashSet::new();
        self.walk_names(&mut bound, &mut seen, &mut out);
        out
    }

    fn walk_names(
        &self,
        bound: &mut Vec<String>,
        seen: &mut std::collections::HashSet<String>,
        out: &mut Vec<(String, Span)>,
    ) {
        match &self.kind {
            ExprKind::Lit(_) => {}
            ExprKind::Name(n) => {
                if !bound.contains(n) && seen.insert(n.clone()) {
                    out.push((n.clone(), self.span));
                }
            }
            ExprKind::List(items) | ExprKind::Call(_, items) => {
                for e in items {
                    e.walk_names(bound, seen, out);
                }
            }
            ExprKind::Unary(_, e) => e.walk_names(bound, seen, out),
            ExprKind::Binary(_, a, b) => {
                a.walk_names(bound, seen, out);
                b.walk_names(bound, seen, out);
            }
            ExprKind::Comprehension {
                elem,
                var,
                iter,
                cond,
            } => {
                iter.walk_names(bound, seen, out);
                bound.push(var.clone());
                elem.walk_names(bound, seen, out);
                if let Some(c) = cond {
                    c.walk_names(bound, seen, out);
                }
                bound.pop();
            }
            ExprKind::IfElse { cond, then, other } => {
                then.walk_names(bound, seen, out);
                cond.walk_names(bound, seen, out);
                other.walk_names(bound, seen, out);
            }
        }
    }

    // Evaluation recurses through `ev` and one small helper per node kind, so that each level
    // of the tree costs little stack (debug builds do not share stack slots between match arms).
    fn ev(&self, ctx: &mut Ctx) -> Result<Value, Diagnostic> {
        STEPS.set(STEPS.get() + 1);
        match &self.kind {
            ExprKind::Lit(v) => ev_lit(v, self.span, ctx),
            ExprKind::Name(n) => ev_name(n, self.span, ctx),
            ExprKind::List(items) => ev_list(items, self.span, ctx),
            ExprKind::Unary(op, e) => ev_unary(*op, e, self.span, ctx),
            ExprKind::Binary(op, a, b) => ev_binary(*op, a, b, self.span, ctx),
            ExprKind::IfElse { cond, then, other } => {
                if cond.ev(ctx)?.truthy() {
                    then.ev(ctx)
                } else {
                    other.ev(ctx)
                }
            }
            ExprKind::Call(name, args) => ev_call(name, args, self.span, ctx),
            ExprKind::Comprehension {
                elem,
                var,
                iter,
                cond,
            } => ev_comprehension(elem, var, iter, cond.as_deref(), self.span, ctx),
        }
    }
}

#[inline(never)]
fn ev_lit(v: &Value, span: Span, ctx: &mut Ctx) -> Result<Value, Diagnostic> {
    if let Value::Str(s) = v {
        ctx.spend(s.len() as u64, span)?;
    }
    Ok(v.clone())
}

#[inline(never)]
fn ev_name(n: &str, span: Span, ctx: &mut Ctx) -> Result<Value, Diagnostic> {
    if let Some((_, v)) = ctx.locals.iter().rev().find(|(m, _)| m == n) {
        return Ok(v.clone());
    }
    if let Some(v) = (ctx.env)(n) {
        // A name's list is shared, not copied, but what the expression does with it (`in`,
        // comparisons, comprehensions) may walk it: charge its weight, so repeated uses of a
        // large `let` stay bounded in time (issue 25 G5).
        if let Value::List(_) = v {
            ctx.spend(v.weight().0, span)?;
        }
        return Ok(v);
    }
    let mut d = Diagnostic::new(span, format!("unknown name `{n}`"));
    let cands: Vec<&str> = ctx
        .names
        .iter()
        .copied()
        .chain(ctx.locals.iter().map(|(m, _)| m.as_str()))
        .collect();
    if let Some(h) = did_you_mean(n, cands) {
        d = d.with_help(h);
    } else if n == "random" {
        d = d.with_help("`random` is only an initial value of `decl` statements");
    }
    Err(d)
}

#[inline(never)]
fn ev_list(items: &[Expr], span: Span, ctx: &mut Ctx) -> Result<Value, Diagnostic> {
    ctx.spend(items.len() as u64, span)?;
    let mut out = Vec::with_capacity(items.len());
    for e in items {
        out.push(e.ev(ctx)?);
    }
    Ok(Value::list(out))
}

#[inline(never)]
fn ev_unary(op: UnOp, e: &Expr, span: Span, ctx: &mut Ctx) -> Result<Value, Diagnostic> {
    let v = e.ev(ctx)?;
    match op {
        UnOp::Not => Ok(Value::Bool(!v.truthy())),
        UnOp::Pos => match num(&v) {
            Some(Num::I(i)) => Ok(Value::Int(i)),
            Some(Num::F(f)) => Ok(Value::Float(f)),
            None => Err(Diagnostic::new(
                span,
                format!("bad operand type for unary +: {}", v.type_name()),
            )),
        },
        UnOp::Neg => match num(&v) {
            Some(Num::I(i)) => i.checked_neg().map(Value::Int).ok_or_else(|| {
                Diagnostic::new(
                    span,
                    format!("integer overflow: -({i}) does not fit in 64 bits"),
                )
            }),
            Some(Num::F(f)) => Ok(Value::Float(-f)),
            None => Err(Diagnostic::new(
                span,
                format!("bad operand type for unary -: {}", v.type_name()),
            )),
        },
    }
}

#[inline(never)]
fn ev_binary(
    op: BinOp,
    a: &Expr,
    b: &Expr,
    span: Span,
    ctx: &mut Ctx,
) -> Result<Value, Diagnostic> {
    let l = a.ev(ctx)?;
    match op {
        BinOp::And if !l.truthy() => Ok(Value::Bool(false)),
        BinOp::Or if l.truthy() => Ok(Value::Bool(true)),
        BinOp::And | BinOp::Or => Ok(Value::Bool(b.ev(ctx)?.truthy())),
        _ => {
            let r = b.ev(ctx)?;
            binary(op, &l, &r, span, ctx)
        }
    }
}

#[inline(never)]
fn ev_call(name: &str, args: &[Expr], span: Span, ctx: &mut Ctx) -> Result<Value, Diagnostic> {
    let mut vals = Vec::with_capacity(args.len());
    for a in args {
        vals.push(a.ev(ctx)?);
    }
    call(name, vals, args, span, ctx)
}

#[inline(never)]
fn ev_comprehension(
    elem: &Expr,
    var: &str,
    iter: &Expr,
    cond: Option<&Expr>,
    span: Span,
    ctx: &mut Ctx,
) -> Result<Value, Diagnostic> {
    let items = match iter.ev(ctx)? {
        Value::List(l) => Arc::unwrap_or_clone(l),
        Value::Str(s) => s.chars().map(|c| Value::Str(c.to_string())).collect(),
        v => {
            return Err(Diagnostic::new(
                iter.span,
                format!("cannot iterate over a value of type {}", v.type_name()),
            ))
        }
    };
    ctx.spend(items.len() as u64, span)?;
    let mut out = Vec::new();
    for item in items {
        ctx.locals.push((var.to_string(), item));
        let r = comprehension_item(elem, cond, ctx);
        ctx.locals.pop();
        if let Some(v) = r? {
            out.push(v);
        }
    }
    Ok(Value::list(out))
}

fn comprehension_item(
    elem: &Expr,
    cond: Option<&Expr>,
    ctx: &mut Ctx,
) -> Result<Option<Value>, Diagnostic> {
    if let Some(c) = cond {
        if !c.ev(ctx)?.truthy() {
            return Ok(None);
        }
    }
    elem.ev(ctx).map(Some)
}

fn type_err(op: BinOp, l: &Value, r: &Value, span: Span) -> Diagnostic {
    Diagnostic::new(
        span,
        format!(
            "unsupported operand types for `{}`: {} and {}",
            op_str(op),
            l.type_name(),
            r.type_name()
        ),
    )
}

fn overflow(op: BinOp, a: i64, b: i64, span: Span) -> Diagnostic {
    Diagnostic::new(
        span,
        format!(
            "integer overflow: {a} {} {b} does not fit in 64 bits",
            op_str(op)
        ),
    )
}

fn repeat<T: Clone>(items: &[T], n: i64, span: Span, ctx: &mut Ctx) -> Result<Vec<T>, Diagnostic> {
    let n = usize::try_from(n.max(0)).unwrap_or(0);
    let total = (items.len() as u64).saturating_mul(n as u64);
    ctx.spend(total, span)?;
    if items.is_empty() {
        // `'' * 2**62` is empty: looping n times would take forever (found by tests/fuzz.rs).
        return Ok(Vec::new());
    }
    let mut out = Vec::with_capacity(total as usize);
    for _ in 0..n {
        out.extend_from_slice(items);
    }
    Ok(out)
}

fn binary(op: BinOp, l: &Value, r: &Value, span: Span, ctx: &mut Ctx) -> Result<Value, Diagnostic> {
    use std::cmp::Ordering;
    match op {
        BinOp::Eq => return Ok(Value::Bool(l.py_eq(r))),
        BinOp::Ne => return Ok(Value::Bool(!l.py_eq(r))),
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            let ord = py_cmp(l, r).map_err(|_| {
                Diagnostic::new(
                    span,
                    format!(
                        "`{}` is not supported between {} and {}",
                        op_str(op),
                        l.type_name(),
                        r.type_name()
                    ),
                )
            })?;
            let res = match ord {
                None => false,
                Some(o) => match op {
                    BinOp::Lt => o == Ordering::Less,
                    BinOp::Le => o != Ordering::Greater,
                    BinOp::Gt => o == Ordering::Greater,
                    _ => o != Ordering::Less,
                },
            };
            return Ok(Value::Bool(res));
        }
        BinOp::In => {
            return match (l, r) {
                (_, Value::List(items)) => Ok(Value::Bool(items.iter().any(|x| x.py_eq(l)))),
                (Value::Str(a), Value::Str(b)) => Ok(Value::Bool(b.contains(a.as_str()))),
                (_, Value::Str(_)) => Err(Diagnostic::new(
                    span,
                    format!(
                        "`in <str>` requires a str on the left, found {}",
                        l.type_name()
                    ),
                )),
                _ => Err(Diagnostic::new(
                    span,
                    format!(
                        "`in` needs a list or str on the right, found {}",
                        r.type_name()
                    ),
                )),
            }
        }
        _ => {}
    }
    // Sequences.
    match (op, l, r) {
        (BinOp::Add, Value::Str(a), Value::Str(b)) => {
            ctx.spend((a.len() + b.len()) as u64, span)?;
            return Ok(Value::Str(format!("{a}{b}")));
        }
        (BinOp::Add, Value::List(a), Value::List(b)) => {
            ctx.spend((a.len() + b.len()) as u64, span)?;
            let mut v = Vec::with_capacity(a.len() + b.len());
            v.extend_from_slice(a);
            v.extend_from_slice(b);
            return Ok(Value::list(v));
        }
        (BinOp::Mul, Value::Str(s), Value::Int(n)) | (BinOp::Mul, Value::Int(n), Value::Str(s)) => {
            let chars: Vec<char> = s.chars().collect();
            return Ok(Value::Str(
                repeat(&chars, *n, span, ctx)?.into_iter().collect(),
            ));
        }
        (BinOp::Mul, Value::List(s), Value::Int(n))
        | (BinOp::Mul, Value::Int(n), Value::List(s)) => {
            return Ok(Value::list(repeat(s, *n, span, ctx)?));
        }
        _ => {}
    }
    let (Some(a), Some(b)) = (num(l), num(r)) else {
        return Err(type_err(op, l, r, span));
    };
    match (a, b) {
        (Num::I(x), Num::I(y)) => int_op(op, x, y, span),
        _ => float_op(op, a.f(), b.f(), span),
    }
}

fn int_op(op: BinOp, x: i64, y: i64, span: Span) -> Result<Value, Diagnostic> {
    let of = || overflow(op, x, y, span);
    let v = match op {
        BinOp::Add => x.checked_add(y).ok_or_else(of)?,
        BinOp::Sub => x.checked_sub(y).ok_or_else(of)?,
        BinOp::Mul => x.checked_mul(y).ok_or_else(of)?,
        BinOp::Div => return float_op(op, x as f64, y as f64, span),
        BinOp::FloorDiv => {
            if y == 0 {
                return Err(Diagnostic::new(span, "integer division by zero"));
            }
            let q = x.checked_div(y).ok_or_else(of)?;
            if x % y != 0 && ((x < 0) != (y < 0)) {
                q - 1
            } else {
                q
            }
        }
        BinOp::Mod => {
            if y == 0 {
                return Err(Diagnostic::new(span, "integer modulo by zero"));
            }
            if y == -1 {
                0
            } else {
                let r = x % y;
                if r != 0 && ((r < 0) != (y < 0)) {
                    r + y
                } else {
                    r
                }
            }
        }
        BinOp::Pow => {
            if y < 0 {
                if x == 0 {
                    return Err(Diagnostic::new(
                        span,
                        "0 cannot be raised to a negative power",
                    ));
                }
                return float_op(op, x as f64, y as f64, span);
            }
            match x {
                0 => i64::from(y == 0),
                1 => 1,
                -1 => {
                    if y % 2 == 0 {
                        1
                    } else {
                        -1
                    }
                }
                _ => u32::try_from(y)
                    .ok()
                    .and_then(|e| x.checked_pow(e))
                    .ok_or_else(of)?,
            }
        }
        _ => {
            return Err(Diagnostic::new(
                span,
                format!("internal: `{}` is not arithmetic", op_str(op)),
            ))
        }
    };
    Ok(Value::Int(v))
}

fn float_op(op: BinOp, x: f64, y: f64, span: Span) -> Result<Value, Diagnostic> {
    let v = match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => {
            if y == 0.0 {
                return Err(Diagnostic::new(span, "division by zero"));
            }
            x / y
        }
        BinOp::FloorDiv => {
            if y == 0.0 {
                return Err(Diagnostic::new(span, "float floor division by zero"));
            }
            (x / y).floor()
        }
        BinOp::Mod => {
            if y == 0.0 {
                return Err(Diagnostic::new(span, "float modulo by zero"));
            }
            let r = x % y;
            if r != 0.0 && ((r < 0.0) != (y < 0.0)) {
                r + y
            } else {
                r
            }
        }
        BinOp::Pow => {
            if x == 0.0 && y < 0.0 {
                return Err(Diagnostic::new(
                    span,
                    "0.0 cannot be raised to a negative power",
                ));
            }
            if x < 0.0 && y.fract() != 0.0 {
                return Err(Diagnostic::new(
                    span,
                    "a negative number cannot be raised to a fractional power",
                ));
            }
            let v = x.powf(y);
            if v.is_infinite() && x.is_finite() && y.is_finite() {
                return Err(Diagnostic::new(span, "float overflow in `**`"));
            }
            v
        }
        _ => {
            return Err(Diagnostic::new(
                span,
                format!("internal: `{}` is not arithmetic", op_str(op)),
            ))
        }
    };
    Ok(Value::Float(v))
}
