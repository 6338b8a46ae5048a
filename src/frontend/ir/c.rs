//! The loop IR's C printer: expressions with minimal parentheses by the one C precedence table
//! (C11 §6.5), statements and loops one per line, trip counts and indices of loops, C string
//! literals. Every writer of C, OpenCL C and CUDA C text prints IR through it.

use super::{BinaryOp, Expr, ExprKind, Loop, ScalarType, Stmt, StmtKind, UnaryOp};
use std::fmt::Write;

/// A substitution hook: returns replacement C text for an expression (e.g. a staged array
/// reference becoming a `__local` tile reference), or `None` to print it normally.
pub type Subst<'a> = &'a dyn Fn(&Expr) -> Option<String>;

/// C precedence level of `e` (higher binds tighter; C11 §6.5), the one table the C printers use.
pub fn prec_kind(e: &ExprKind) -> u8 {
    match e {
        ExprKind::Cond(..) => 1,
        ExprKind::Binary(op, ..) => binary_prec(*op),
        ExprKind::Unary(..) | ExprKind::Cast(..) => 8,
        _ => 9,
    }
}

/// C precedence level of binary operator `op` (the rows of [`prec_kind`]'s table for them).
pub fn binary_prec(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Or => 2,
        BinaryOp::And => 3,
        BinaryOp::Eq | BinaryOp::Ne => 4,
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 5,
        BinaryOp::Add | BinaryOp::Sub => 6,
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 7,
    }
}

fn prec(e: &Expr) -> u8 {
    prec_kind(&e.kind)
}

/// C (and OpenCL C) text of an expression, with minimal parentheses.
pub fn c_expr(e: &Expr, subst: Subst) -> String {
    let mut s = String::new();
    put_expr(&mut s, e, subst);
    s
}

fn put_child(out: &mut String, child: &Expr, min_prec: u8, subst: Subst) {
    if prec(child) < min_prec {
        out.push('(');
        put_expr(out, child, subst);
        out.push(')');
    } else {
        put_expr(out, child, subst);
    }
}

fn put_expr(out: &mut String, e: &Expr, subst: Subst) {
    if let Some(r) = subst(e) {
        out.push_str(&r);
        return;
    }
    match &e.kind {
        ExprKind::Int(v) => {
            let _ = write!(out, "{v}");
        }
        ExprKind::Float { text, .. } => out.push_str(text),
        ExprKind::Var(n) => out.push_str(n),
        ExprKind::Index { array, indices } => {
            out.push_str(array);
            for i in indices {
                out.push('[');
                put_expr(out, i, subst);
                out.push(']');
            }
        }
        ExprKind::Unary(op, a) => {
            out.push_str(match op {
                UnaryOp::Neg => "-",
                UnaryOp::Plus => "+",
                UnaryOp::Not => "!",
            });
            // Avoid `--x` / `++x` tokens.
            let nested_sign = matches!(&a.kind, ExprKind::Unary(UnaryOp::Neg | UnaryOp::Plus, _));
            if nested_sign || matches!(&a.kind, ExprKind::Int(v) if *v < 0) {
                out.push('(');
                put_expr(out, a, subst);
                out.push(')');
            } else {
                put_child(out, a, 8, subst);
            }
        }
        ExprKind::Binary(op, a, b) => {
            let p = prec(e);
            put_child(out, a, p, subst);
            let _ = write!(out, " {} ", op.c_op());
            put_child(out, b, p + 1, subst);
        }
        ExprKind::Call(f, args) => {
            out.push_str(f);
            out.push('(');
            for (k, a) in args.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                put_expr(out, a, subst);
            }
            out.push(')');
        }
        ExprKind::Cond(c, t, f) => {
            put_child(out, c, 2, subst);
            out.push_str(" ? ");
            put_child(out, t, 1, subst);
            out.push_str(" : ");
            put_child(out, f, 1, subst);
        }
        ExprKind::Cast(t, a) => {
            let _ = write!(out, "({})", t.c_name());
            put_child(out, a, 8, subst);
        }
    }
}

/// Writes loop-language statements as C, one statement per line.
pub struct StmtWriter<'a> {
    pub out: String,
    pub indent: usize,
    /// `#pragma unroll K` before the innermost inner loop (the `unrollInner` transformation).
    pub unroll: Option<i64>,
    pub subst: Subst<'a>,
}

impl StmtWriter<'_> {
    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    pub fn write_stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.write_stmt(s);
        }
    }

    pub fn write_stmt(&mut self, s: &Stmt) {
        let e = |x: &Expr| c_expr(x, self.subst);
        match &s.kind {
            StmtKind::Assign { target, op, value } => {
                let t = format!("{} {} {};", e(target), op.c_op(), e(value));
                self.line(&t);
            }
            StmtKind::Decl { ty, name, init } => {
                let t = match init {
                    Some(i) => format!("{} {name} = {};", ty.c_name(), e(i)),
                    None => format!("{} {name};", ty.c_name()),
                };
                self.line(&t);
            }
            StmtKind::If { cond, then, other } => {
                let t = format!("if ({}) {{", e(cond));
                self.line(&t);
                self.block(then);
                if let Some(o) = other {
                    self.line("} else {");
                    self.block(o);
                }
                self.line("}");
            }
            StmtKind::For(l) => self.write_loop(l),
            StmtKind::Block(b) => {
                self.line("{");
                self.block(b);
                self.line("}");
            }
        }
    }

    fn block(&mut self, stmts: &[Stmt]) {
        self.indent += 1;
        self.write_stmts(stmts);
        self.indent -= 1;
    }

    /// `for (...) { body }` of loop-language loop `l`, with `#pragma unroll K` (`unroll`) before
    /// an innermost loop.
    pub fn write_loop(&mut self, l: &Loop) {
        if let Some(k) = self.unroll.filter(|_| !l.has_inner_loops()) {
            self.line(&format!("#pragma unroll {k}"));
        }
        let cmp = if l.inclusive { "<=" } else { "<" };
        let step = if l.step == 1 {
            format!("{}++", l.var)
        } else {
            format!("{} += {}", l.var, l.step)
        };
        let t = format!(
            "for (int {v} = {}; {v} {cmp} {}; {step}) {{",
            c_expr(&l.lower, self.subst),
            c_expr(&l.upper, self.subst),
            v = l.var
        );
        self.line(&t);
        self.block(&l.body);
        self.line("}");
    }
}

/// `s` escaped for the inside of a C string literal (backslash, quote, control characters);
/// newlines included.
fn escape_c(s: &str, out: &mut String) {
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\{:03o}", c as u32);
            }
            c => out.push(c),
        }
    }
}

/// Escape `s` as the body of a C string literal, one `"...\n"` literal per source line,
/// each on its own output line indented by `indent` spaces.
pub fn c_string_lines(s: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::new();
    for line in s.lines() {
        out.push_str(&pad);
        out.push('"');
        escape_c(line, &mut out);
        out.push_str("\\n\"\n");
    }
    if out.is_empty() {
        out.push_str(&pad);
        out.push_str("\"\"\n");
    }
    out.trim_end_matches('\n').to_string()
}

/// Escape `s` as one C string literal (quotes included).
pub fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    escape_c(s, &mut out);
    out.push('"');
    out
}

/// C text (`long`) of the trip count of loop `l`.
pub fn loop_trip_c(l: &Loop) -> String {
    loop_trip(l, &|_| None)
}

/// C text (`long`) of the trip count of loop `l`, its bounds printed through `subst`.
pub fn loop_trip(l: &Loop, subst: Subst) -> String {
    let lo = c_expr(&l.lower, subst);
    let hi = c_expr(&l.upper, subst);
    let zero = matches!(l.lower.kind, ExprKind::Int(0));
    let s = l.step;
    match (l.inclusive, zero, s) {
        (true, true, 1) => format!("({hi}) >= 0 ? (long)({hi}) + 1 : 0"),
        (false, true, 1) => format!("({hi}) > 0 ? (long)({hi}) : 0"),
        (true, _, _) => format!("({hi}) >= ({lo}) ? ((long)({hi}) - (long)({lo})) / {s} + 1 : 0"),
        (false, _, _) => format!(
            "({hi}) > ({lo}) ? ((long)({hi}) - (long)({lo}) + {}) / {s} : 0",
            s - 1
        ),
    }
}

/// C text of loop `l`'s variable (type `ty`) at iteration number `k` (a C expression).
pub fn loop_index(l: &Loop, ty: ScalarType, k: &str, subst: Subst) -> String {
    let k = if k.contains(' ') {
        format!("({k})")
    } else {
        k.to_string()
    };
    let lo = c_expr(&l.lower, subst);
    match (&l.lower.kind, l.step) {
        (ExprKind::Int(0), 1) => format!("({}){k}", ty.c_name()),
        (_, 1) => format!("({})(({lo}) + {k})", ty.c_name()),
        (_, s) => format!("({})(({lo}) + {k} * {s})", ty.c_name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_strings_once() {
        assert_eq!(c_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(
            c_string_lines("x\ny \"q\"", 2),
            "  \"x\\n\"\n  \"y \\\"q\\\"\\n\""
        );
    }
}
