//! `vecWidth` (ViennaCL portability study §2): each work-item takes W consecutive iterations of a
//! 1-D unit-step loop at a time, through OpenCL vector types (`vloadW`/`vstoreW` of
//! `double2/4/8`, `float2/4/8/16`), with a scalar tail for the last `trip % W` iterations.
//! Reductions accumulate into a vector, folded into the scalar accumulator after the loop.
//!
//! What is vectorised: every array subscript is the loop index plus a constant; statements are
//! assignments and temporaries (no `if`: `?:` with a comparison as condition is vectorised as an
//! element-wise select); all arrays, vector temporaries and reductions have one element type;
//! the loop index appears only in subscripts. Scalars mixed with vectors are converted
//! explicitly (`(double4)(a)`). Anything else is a [`ArgError`] naming the construct.

use super::accumulator_name;
use super::{ArgError, LinearArg};
use crate::target::Backend;
use orcl_frontend::ir::c::c_expr;
use orcl_frontend::ir::{
    AssignOp, BinaryOp, Expr, ExprKind, Kernel, ScalarType, Stmt, StmtKind, SymbolKind, UnaryOp,
};
use std::cell::Cell;
use std::collections::BTreeSet;

/// The vectorised loop.
#[derive(Debug, Clone, PartialEq)]
pub struct Vectorised {
    pub width: u32,
    /// `double4`, `float8`, ...
    pub vty: String,
    /// The body on W iterations at once.
    pub body: String,
    pub accs: Vec<VecAcc>,
}

/// A reduction's vector accumulator.
#[derive(Debug, Clone, PartialEq)]
pub struct VecAcc {
    pub vty: String,
    pub vacc: String,
    pub identity: &'static str,
    /// Statements folding the vector's components into the scalar accumulator.
    pub fold: Vec<String>,
}

fn err(message: String) -> ArgError {
    ArgError {
        arg: LinearArg::VecWidth,
        message,
        help: None,
    }
}

fn err_help(message: String, help: &str) -> ArgError {
    ArgError {
        arg: LinearArg::VecWidth,
        message,
        help: Some(help.to_string()),
    }
}

/// Value kinds: scalar (same for the W iterations), vector, or a vector comparison result
/// (-1/0 per component: only usable as a `?:` condition).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    S,
    V,
    M,
}

/// C precedence levels: the table `codegen::c_expr` prints with.
use orcl_frontend::ir::c::prec_kind as prec;

/// Printed text with its precedence.
struct Text {
    s: String,
    p: u8,
    k: Kind,
}

fn paren(t: &Text, min: u8) -> String {
    if t.p < min {
        format!("({})", t.s)
    } else {
        t.s.clone()
    }
}

struct Cx<'a> {
    k: &'a Kernel,
    width: u32,
    elem: ScalarType,
    vty: String,
    vtemps: BTreeSet<String>,
    reduced: Vec<String>,
    /// Loads `(array, offset)` the original loop performs in every iteration.
    unconditional: Vec<(String, i64)>,
    /// Inside an arm of a vector select (or the right of a vector `&&`/`||`), which the vector
    /// code evaluates for all W iterations where the original evaluates it for some.
    masked: Cell<bool>,
}

impl Cx<'_> {
    fn wide(&self, t: Text) -> Text {
        match t.k {
            Kind::S => Text {
                s: format!("({})({})", self.vty, t.s),
                p: 8,
                k: Kind::V,
            },
            _ => t,
        }
    }

    fn name(&self) -> String {
        format!("`vecWidth={}`", self.width)
    }

    fn expr(&self, e: &Expr) -> Result<Text, ArgError> {
        let leaf = |s: String, k: Kind| Text { s, p: 9, k };
        let var = &self.k.parallel.var;
        Ok(match &e.kind {
            ExprKind::Int(_) | ExprKind::Float { .. } => leaf(c_expr(e, &|_| None), Kind::S),
            ExprKind::Var(v) if v == var => {
                return Err(err_help(
                    format!(
                        "{}: the loop index `{v}` is used as a value, outside a subscript",
                        self.name()
                    ),
                    "vecWidth vectorises loops whose index appears only in subscripts `x[i + c]`",
                ))
            }
            ExprKind::Var(v) if self.reduced.contains(v) => leaf(format!("orcl_vacc_{v}"), Kind::V),
            ExprKind::Var(v) if self.vtemps.contains(v) => leaf(v.clone(), Kind::V),
            ExprKind::Var(v) => leaf(v.clone(), Kind::S),
            ExprKind::Index { array, indices } => {
                let offset = crate::schedule::passes::offset_of(&indices[0], var).unwrap_or(0);
                if self.masked.get()
                    && !self
                        .unconditional
                        .iter()
                        .any(|(a, o)| a == array && *o == offset)
                {
                    return Err(err_help(
                        format!(
                            "{}: `{}` is read only under a condition, and the vector code would read it for all {} iterations",
                            self.name(),
                            c_expr(e, &|_| None),
                            self.width
                        ),
                        "read it unconditionally first (`double v = x[i + 1];`), or use vecWidth=1",
                    ));
                }
                leaf(
                    format!("vload{}(0, {})", self.width, pointer(array, &indices[0])),
                    Kind::V,
                )
            }
            ExprKind::Unary(op, a) => {
                let t = self.expr(a)?;
                let k = match (op, t.k) {
                    (_, Kind::S) => Kind::S,
                    (UnaryOp::Not, _) => Kind::M,
                    (_, Kind::M) => return Err(self.mask_value(a)),
                    (_, Kind::V) => Kind::V,
                };
                let sign = matches!(&a.kind, ExprKind::Unary(UnaryOp::Neg | UnaryOp::Plus, _))
                    || matches!(&a.kind, ExprKind::Int(v) if *v < 0);
                let inner = if sign {
                    format!("({})", t.s)
                } else {
                    paren(&t, 8)
                };
                let o = match op {
                    UnaryOp::Neg => "-",
                    UnaryOp::Plus => "+",
                    UnaryOp::Not => "!",
                };
                Text {
                    s: format!("{o}{inner}"),
                    p: 8,
                    k,
                }
            }
            ExprKind::Binary(op, a, b) => return self.binary(e, *op, a, b),
            ExprKind::Call(f, args) => return self.call(f, args),
            ExprKind::Cond(c, a, b) => return self.cond(c, a, b),
            ExprKind::Cast(t, a) => {
                let ta = self.expr(a)?;
                match ta.k {
                    Kind::S => Text {
                        s: format!("({}){}", t.c_name(), paren(&ta, 8)),
                        p: 8,
                        k: Kind::S,
                    },
                    Kind::V if *t == self.elem => ta,
                    Kind::V => {
                        return Err(err(format!(
                            "{}: `{}` converts {} data to `{}`; orcl vectorises loops of one element type",
                            self.name(),
                            c_expr(e, &|_| None),
                            self.elem.c_name(),
                            t.c_name()
                        )))
                    }
                    Kind::M => return Err(self.mask_value(a)),
                }
            }
        })
    }

    /// A binary operation: scalar, vector, or a vector comparison (a mask).
    /// A call `f(args)`: vector where an argument is; a widened 16-bit read has no vector form.
    fn call(&self, f: &str, args: &[Expr]) -> Result<Text, ArgError> {
        let mut ts = Vec::new();
        for a in args {
            let t = self.expr(a)?;
            if t.k == Kind::M {
                return Err(self.mask_value(a));
            }
            ts.push(t);
        }
        let vector = ts.iter().any(|t| t.k == Kind::V);
        if vector && matches!(f, "orcl_h2f" | "orcl_bf2f") {
            return Err(err(format!(
                "{}: a 16-bit array's reads are widened one element at a time (no vector form); use vecWidth=1",
                self.name()
            )));
        }
        if vector && !self.elem.is_float() {
            return Err(err(format!(
                "{}: `{f}` on {} data has no OpenCL vector form",
                self.name(),
                self.elem.c_name()
            )));
        }
        let ts: Vec<Text> = if vector {
            ts.into_iter().map(|t| self.wide(t)).collect()
        } else {
            ts
        };
        let args: Vec<String> = ts.into_iter().map(|t| t.s).collect();
        Ok(Text {
            s: format!("{f}({})", args.join(", ")),
            p: 9,
            k: if vector { Kind::V } else { Kind::S },
        })
    }

    fn binary(&self, e: &Expr, op: BinaryOp, a: &Expr, b: &Expr) -> Result<Text, ArgError> {
        let p = prec(&e.kind);
        let mut ta = self.expr(a)?;
        let mut tb = if matches!(op, BinaryOp::And | BinaryOp::Or) {
            // Evaluated only when `a` allows in C; always in a vector `&&`/`||`.
            self.under_mask(|| self.expr(b))?
        } else {
            self.expr(b)?
        };
        let k = match op {
            BinaryOp::And | BinaryOp::Or => {
                if ta.k == Kind::S && tb.k == Kind::S {
                    Kind::S
                } else {
                    Kind::M
                }
            }
            _ => {
                if ta.k == Kind::M {
                    return Err(self.mask_value(a));
                }
                if tb.k == Kind::M {
                    return Err(self.mask_value(b));
                }
                if ta.k == Kind::S && tb.k == Kind::S {
                    Kind::S
                } else {
                    ta = self.wide(ta);
                    tb = self.wide(tb);
                    if op.is_comparison() {
                        Kind::M
                    } else {
                        Kind::V
                    }
                }
            }
        };
        Ok(Text {
            s: format!("{} {} {}", paren(&ta, p), op.c_op(), paren(&tb, p + 1)),
            p,
            k,
        })
    }

    /// `c ? a : b`: a scalar choice, or an element-wise select when `c` is a vector comparison.
    fn cond(&self, c: &Expr, a: &Expr, b: &Expr) -> Result<Text, ArgError> {
        let tc = self.expr(c)?;
        let (mut ta, mut tb) = if tc.k == Kind::S {
            (self.expr(a)?, self.expr(b)?)
        } else {
            // A vector select evaluates both arms for every iteration.
            (
                self.under_mask(|| self.expr(a))?,
                self.under_mask(|| self.expr(b))?,
            )
        };
        if ta.k == Kind::M {
            return Err(self.mask_value(a));
        }
        if tb.k == Kind::M {
            return Err(self.mask_value(b));
        }
        let k = match tc.k {
            Kind::V => {
                return Err(err_help(
                    format!(
                        "{}: the condition `{}` is a vector value, not a comparison",
                        self.name(),
                        c_expr(c, &|_| None)
                    ),
                    "compare it explicitly, e.g. `x[i] != 0 ? ... : ...`",
                ))
            }
            Kind::S if ta.k == Kind::S && tb.k == Kind::S => Kind::S,
            _ => {
                ta = self.wide(ta);
                tb = self.wide(tb);
                Kind::V
            }
        };
        Ok(Text {
            s: format!("{} ? {} : {}", paren(&tc, 2), paren(&ta, 1), paren(&tb, 1)),
            p: 1,
            k,
        })
    }

    fn under_mask<T>(&self, f: impl FnOnce() -> T) -> T {
        let was = self.masked.replace(true);
        let r = f();
        self.masked.set(was);
        r
    }

    fn mask_value(&self, e: &Expr) -> ArgError {
        err_help(
            format!(
                "{}: the comparison `{}` is used as a value; OpenCL vector comparisons give -1/0, not 1/0",
                self.name(),
                c_expr(e, &|_| None)
            ),
            "vecWidth vectorises comparisons only as the condition of `?:`",
        )
    }

    /// A vector value for a store or an assignment (scalars widened; comparisons rejected).
    fn value(&self, e: &Expr) -> Result<Text, ArgError> {
        let t = self.expr(e)?;
        if t.k == Kind::M {
            return Err(self.mask_value(e));
        }
        Ok(self.wide(t))
    }

    fn stmts(&self, stmts: &[Stmt], indent: usize, out: &mut String) -> Result<(), ArgError> {
        let pad = "    ".repeat(indent);
        for s in stmts {
            match &s.kind {
                StmtKind::Assign { target, op, value } => match &target.kind {
                    ExprKind::Index { array, indices } => {
                        let ptr = pointer(array, &indices[0]);
                        let w = self.width;
                        let v = self.value(value)?;
                        let stored = match op {
                            AssignOp::Set => v.s,
                            _ => {
                                let bin = match op {
                                    AssignOp::Add => BinaryOp::Add,
                                    AssignOp::Sub => BinaryOp::Sub,
                                    AssignOp::Mul => BinaryOp::Mul,
                                    _ => BinaryOp::Div,
                                };
                                let p = orcl_frontend::ir::c::binary_prec(bin);
                                format!("vload{w}(0, {ptr}) {} {}", bin.c_op(), paren(&v, p + 1))
                            }
                        };
                        out.push_str(&format!("{pad}vstore{w}({stored}, 0, {ptr});\n"));
                    }
                    ExprKind::Var(name) => {
                        let vector = self.reduced.contains(name) || self.vtemps.contains(name);
                        let lhs = if self.reduced.contains(name) {
                            format!("orcl_vacc_{name}")
                        } else {
                            name.clone()
                        };
                        let rhs = if vector {
                            self.value(value)?
                        } else {
                            self.expr(value)?
                        };
                        out.push_str(&format!("{pad}{lhs} {} {};\n", op.c_op(), rhs.s));
                    }
                    _ => return Err(err(format!("{}: unsupported assignment", self.name()))),
                },
                StmtKind::Decl { ty, name, init } => {
                    if self.vtemps.contains(name) {
                        let v = match init {
                            Some(i) => format!(" = {}", self.value(i)?.s),
                            None => String::new(),
                        };
                        out.push_str(&format!("{pad}{} {name}{v};\n", self.vty));
                    } else {
                        let v = match init {
                            Some(i) => format!(" = {}", self.expr(i)?.s),
                            None => String::new(),
                        };
                        out.push_str(&format!("{pad}{} {name}{v};\n", ty.c_name()));
                    }
                }
                StmtKind::Block(b) => {
                    out.push_str(&format!("{pad}{{\n"));
                    self.stmts(b, indent + 1, out)?;
                    out.push_str(&format!("{pad}}}\n"));
                }
                StmtKind::If { cond, .. } => {
                    return Err(err_help(
                        format!(
                            "{}: `if ({})` is not vectorised",
                            self.name(),
                            c_expr(cond, &|_| None)
                        ),
                        "write the condition as `?:` (vectorised as an element-wise select)",
                    ))
                }
                StmtKind::For(_) => {
                    return Err(err(format!(
                        "{}: applies to loops without inner loops",
                        self.name()
                    )))
                }
            }
        }
        Ok(())
    }
}

/// `x + i`, `x + (i + 1)`: the address of the first of W elements.
fn pointer(array: &str, sub: &Expr) -> String {
    match &sub.kind {
        ExprKind::Var(v) => format!("{array} + {v}"),
        _ => format!("{array} + ({})", c_expr(sub, &|_| None)),
    }
}

fn for_each_stmt_expr(stmts: &[Stmt], f: &mut dyn FnMut(&Expr)) {
    orcl_frontend::ir::for_each_expr(stmts, f)
}

/// The vectorised loop of `width` (`vecWidth`), or `None` for width 1.
///
/// Errors (`vecWidth`): CUDA; a width other than 2, 4, 8, 16 (16 for 4-byte elements only);
/// inner loops; a step other than 1; a subscript that is not the loop index plus a constant
/// (named); mixed element types; `if`; the loop index or a comparison used as a value.
pub fn plan(k: &Kernel, width: u32, backend: Backend) -> Result<Option<Vectorised>, ArgError> {
    if width <= 1 {
        return Ok(None);
    }
    let name = format!("`vecWidth={width}`");
    if backend != Backend::OpenCl {
        return Err(err(format!(
            "{name}: vector types are generated for OpenCL only"
        )));
    }
    if ![2, 4, 8, 16].contains(&width) {
        return Err(err(format!("{name}: the width must be 1, 2, 4, 8 or 16")));
    }
    let l = &k.parallel;
    if let Some(inner) = first_inner_loop(&l.body) {
        return Err(err_help(
            format!(
                "{name} applies to loops without inner loops; this one has `for ({} ...)`",
                inner.var
            ),
            "use innerThreads or cacheBlocks for loops with an inner loop",
        ));
    }
    if l.step != 1 {
        return Err(err(format!(
            "{name} needs a unit-step loop; this one steps by {}",
            l.step
        )));
    }
    // Subscripts: the loop index plus a constant.
    let mut bad = None;
    let mut arrays: Vec<(String, ScalarType)> = Vec::new();
    for_each_stmt_expr(&l.body, &mut |e| {
        if let ExprKind::Index { array, indices } = &e.kind {
            let ok = indices.len() == 1
                && crate::schedule::passes::offset_of(&indices[0], &l.var).is_some();
            if !ok && bad.is_none() {
                bad = Some(c_expr(e, &|_| None));
            }
            if !arrays.iter().any(|(a, _)| a == array) {
                let ty = k
                    .symbols
                    .get(array)
                    .map(|s| s.ty)
                    .unwrap_or(ScalarType::Double);
                arrays.push((array.clone(), ty));
            }
        }
    });
    if let Some(b) = bad {
        return Err(err_help(
            format!(
                "{name} needs every subscript to be the loop index `{}` plus a constant; `{b}` is not",
                l.var
            ),
            "vecWidth loads and stores W consecutive elements; use vecWidth=1 for this loop",
        ));
    }
    let Some((_, elem)) = arrays.first().cloned() else {
        return Err(err(format!(
            "{name}: the loop reads no array, nothing to vectorise"
        )));
    };
    if let Some((a, t)) = arrays.iter().find(|(_, t)| *t != elem) {
        return Err(err(format!(
            "{name}: `{}` holds {} and `{a}` holds {}; orcl vectorises loops of one element type",
            arrays[0].0,
            elem.user_name(),
            t.user_name()
        )));
    }
    if width == 16 && elem.size_bytes() == 8 {
        return Err(err_help(
            format!(
                "{name}: 16-wide vectors are for 4-byte data (float, int); this loop's data is {}",
                elem.c_name()
            ),
            "use vecWidth 2, 4 or 8 for double data",
        ));
    }
    let reduced: Vec<String> = k.reductions().map(|a| a.name.clone()).collect();
    for a in k.reductions() {
        if a.ty != elem {
            return Err(err(format!(
                "{name}: the reduction `{}` is {} and the data {}; orcl vectorises loops of one element type",
                a.name,
                a.ty.c_name(),
                elem.c_name()
            )));
        }
    }
    let vtemps = vector_temps(k, &reduced, elem, &name)?;
    let unconditional = unconditional_loads(l);
    let vty = format!("{}{width}", elem.c_name());
    let cx = Cx {
        k,
        width,
        elem,
        vty: vty.clone(),
        vtemps,
        reduced,
        unconditional,
        masked: Cell::new(false),
    };
    let mut body = String::new();
    cx.stmts(&l.body, 0, &mut body)?;
    let accs = vector_accs(k, width, &vty);
    Ok(Some(Vectorised {
        width,
        vty,
        body,
        accs,
    }))
}

/// The loads `(array, offset)` loop `l` performs in every iteration: in the top-level
/// statements, outside `?:` arms and the right of `&&`/`||` (a compound store `w[i] += e` loads
/// `w[i]` too).
fn unconditional_loads(l: &orcl_frontend::ir::Loop) -> Vec<(String, i64)> {
    let mut unconditional: Vec<(String, i64)> = Vec::new();
    for s in &l.body {
        let mut visit = |e: &Expr| {
            crate::schedule::passes::visit_unconditional(e, &mut |x| {
                if let ExprKind::Index { array, indices } = &x.kind {
                    if let Some(c) = crate::schedule::passes::offset_of(&indices[0], &l.var) {
                        unconditional.push((array.clone(), c));
                    }
                }
            })
        };
        match &s.kind {
            StmtKind::Assign { target, value, op } => {
                if *op != AssignOp::Set {
                    visit(target);
                }
                visit(value);
            }
            StmtKind::Decl { init: Some(i), .. } => visit(i),
            _ => {}
        }
    }
    unconditional
}

/// The vector accumulators of the loop's reductions, folded component by component after it.
fn vector_accs(k: &Kernel, width: u32, vty: &str) -> Vec<VecAcc> {
    let comps: Vec<String> = (0..width)
        .map(|c| format!("s{}", std::char::from_digit(c, 16).expect("< 16")))
        .collect();
    k.reductions()
        .map(|a| {
            let op = a.reduction.expect("a reduction");
            let acc = accumulator_name(&a.name);
            let vacc = format!("orcl_vacc_{}", a.name);
            VecAcc {
                vty: vty.to_string(),
                vacc: vacc.clone(),
                identity: op.identity(a.ty),
                fold: comps
                    .iter()
                    .map(|c| {
                        format!(
                            "{acc} = {};",
                            op.combine(a.ty, &acc, &format!("{vacc}.{c}"))
                        )
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The temporaries of the loop that take vector values (a fixpoint over its assignments), each
/// of element type `elem`.
fn vector_temps(
    k: &Kernel,
    reduced: &[String],
    elem: ScalarType,
    name: &str,
) -> Result<BTreeSet<String>, ArgError> {
    let l = &k.parallel;
    // Temporaries that take vector values (fixpoint over assignments).
    let mut vtemps: BTreeSet<String> = BTreeSet::new();
    loop {
        let before = vtemps.len();
        let vectorish = |e: &Expr, vt: &BTreeSet<String>| {
            let mut v = false;
            e.visit(&mut |x| match &x.kind {
                ExprKind::Index { .. } => v = true,
                ExprKind::Var(n) if vt.contains(n) || reduced.contains(n) => v = true,
                _ => {}
            });
            v
        };
        let mut add = Vec::new();
        visit_assignments(&l.body, &mut |name, value| {
            let local = k
                .symbols
                .get(name)
                .is_some_and(|s| s.kind == SymbolKind::Local);
            if local && vectorish(value, &vtemps) {
                add.push(name.to_string());
            }
        });
        vtemps.extend(add);
        if vtemps.len() == before {
            break;
        }
    }
    for t in &vtemps {
        let ty = k.symbols.get(t).map(|s| s.ty).unwrap_or(elem);
        if ty != elem {
            return Err(err(format!(
                "{name}: the temporary `{t}` is {} and takes {} vector values; orcl vectorises loops of one element type",
                ty.c_name(),
                elem.c_name()
            )));
        }
    }
    Ok(vtemps)
}

fn first_inner_loop(stmts: &[Stmt]) -> Option<&orcl_frontend::ir::Loop> {
    stmts.iter().find_map(|s| match &s.kind {
        StmtKind::For(l) => Some(l),
        StmtKind::If { then, other, .. } => {
            first_inner_loop(then).or_else(|| other.as_deref().and_then(first_inner_loop))
        }
        StmtKind::Block(b) => first_inner_loop(b),
        _ => None,
    })
}

/// Calls `f(name, value)` for every `Decl` with an initialiser and every assignment to a variable.
fn visit_assignments(stmts: &[Stmt], f: &mut dyn FnMut(&str, &Expr)) {
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { target, value, .. } => {
                if let ExprKind::Var(v) = &target.kind {
                    f(v, value)
                }
            }
            StmtKind::Decl {
                name,
                init: Some(i),
                ..
            } => f(name, i),
            StmtKind::If { then, other, .. } => {
                visit_assignments(then, f);
                if let Some(o) = other {
                    visit_assignments(o, f);
                }
            }
            StmtKind::Block(b) => visit_assignments(b, f),
            StmtKind::For(l) => visit_assignments(&l.body, f),
            StmtKind::Decl { .. } => {}
        }
    }
}
