//! Expressions of the loop language: names, array elements, number literals, operators, casts,
//! conditionals and calls of the math functions.

use super::cx::{describe, Cx};
use crate::diag::{did_you_mean, Diagnostic, Span};
use crate::ir::{BinaryOp, Expr, ExprKind, UnaryOp, MATH_FUNCTIONS};
use tree_sitter::Node;

impl Cx<'_> {
    pub(super) fn expr(&self, n: Node) -> Result<Expr, Diagnostic> {
        self.nested(n, || self.expr_inner(n))
    }

    fn expr_inner(&self, n: Node) -> Result<Expr, Diagnostic> {
        let span = self.span(n);
        let mk = |kind| Ok(Expr { kind, span });
        match n.kind() {
            "parenthesized_expression" => match n.named_child(0) {
                Some(c) if c.kind() != "comment" => self.expr(c),
                _ => Err(Diagnostic::new(span, "empty parentheses")),
            },
            "identifier" => mk(ExprKind::Var(self.text(n).to_string())),
            "number_literal" => mk(number_literal(self.text(n), span)?),
            "true" => mk(ExprKind::Int(1)),
            "false" => mk(ExprKind::Int(0)),
            "subscript_expression" => mk(self.subscript(n)?),
            "unary_expression" => mk(self.unary(n)?),
            "binary_expression" => mk(self.binary(n)?),
            "conditional_expression" => {
                let c = self.expr(self.field(n, "condition")?)?;
                let t = self.expr(self.field(n, "consequence")?)?;
                let e = self.expr(self.field(n, "alternative")?)?;
                mk(ExprKind::Cond(Box::new(c), Box::new(t), Box::new(e)))
            }
            "cast_expression" => mk(self.cast(n)?),
            "call_expression" => mk(self.math_call(n, span)?),
            "update_expression" => Err(self.unsupported(n, "`++`/`--` inside an expression")),
            "assignment_expression" => {
                Err(self.unsupported(n, "an assignment inside an expression"))
            }
            "pointer_expression" => Err(self.unsupported(n, "pointer dereference or address-of")),
            "field_expression" => Err(self.unsupported(n, "a struct field access")),
            "comma_expression" => Err(self.unsupported(n, "the comma operator")),
            "sizeof_expression" => Err(self.unsupported(n, "`sizeof`")),
            "string_literal" | "char_literal" => {
                Err(self.unsupported(n, "a string or character literal"))
            }
            other => Err(self.unsupported(n, &describe(other))),
        }
    }

    /// `A[i][j]`: the indices outermost first; only a named array can be subscripted.
    fn subscript(&self, n: Node) -> Result<ExprKind, Diagnostic> {
        let mut indices = vec![self.expr(self.field(n, "index")?)?];
        let mut arg = self.field(n, "argument")?;
        while arg.kind() == "subscript_expression" {
            indices.push(self.expr(self.field(arg, "index")?)?);
            arg = self.field(arg, "argument")?;
        }
        if arg.kind() != "identifier" {
            return Err(Diagnostic::new(
                self.span(arg),
                "only a named array can be subscripted in a tuned loop",
            ));
        }
        indices.reverse();
        Ok(ExprKind::Index {
            array: self.text(arg).to_string(),
            indices,
        })
    }

    /// `-x`, `+x`, `!x`.
    fn unary(&self, n: Node) -> Result<ExprKind, Diagnostic> {
        let op = match self.text(self.field(n, "operator")?) {
            "-" => UnaryOp::Neg,
            "+" => UnaryOp::Plus,
            "!" => UnaryOp::Not,
            other => return Err(self.unsupported(n, &format!("the `{other}` operator"))),
        };
        Ok(ExprKind::Unary(
            op,
            Box::new(self.expr(self.field(n, "argument")?)?),
        ))
    }

    /// The arithmetic, comparison and logical operators; a constant zero divisor is an error.
    fn binary(&self, n: Node) -> Result<ExprKind, Diagnostic> {
        let op = match self.text(self.field(n, "operator")?) {
            "+" => BinaryOp::Add,
            "-" => BinaryOp::Sub,
            "*" => BinaryOp::Mul,
            "/" => BinaryOp::Div,
            "%" => BinaryOp::Rem,
            "<" => BinaryOp::Lt,
            "<=" => BinaryOp::Le,
            ">" => BinaryOp::Gt,
            ">=" => BinaryOp::Ge,
            "==" => BinaryOp::Eq,
            "!=" => BinaryOp::Ne,
            "&&" => BinaryOp::And,
            "||" => BinaryOp::Or,
            other => return Err(self.unsupported(n, &format!("the `{other}` operator"))),
        };
        let l = self.expr(self.field(n, "left")?)?;
        let r = self.expr(self.field(n, "right")?)?;
        if matches!(op, BinaryOp::Div | BinaryOp::Rem) {
            reject_zero_divisor(&r, op == BinaryOp::Rem)?;
        }
        Ok(ExprKind::Binary(op, Box::new(l), Box::new(r)))
    }

    /// `(T)x` to a scalar type; a pointer cast is an error.
    fn cast(&self, n: Node) -> Result<ExprKind, Diagnostic> {
        let tn = self.field(n, "type")?;
        if tn.child_by_field_name("declarator").is_some() {
            return Err(self.unsupported(tn, "a pointer cast"));
        }
        let ty = self.type_of(self.field(tn, "type")?)?;
        Ok(ExprKind::Cast(
            ty,
            Box::new(self.expr(self.field(n, "value")?)?),
        ))
    }

    /// A call of one of [`MATH_FUNCTIONS`] with its number of arguments (the call spans `span`).
    fn math_call(&self, n: Node, span: Span) -> Result<ExprKind, Diagnostic> {
        let f = self.field(n, "function")?;
        let name = self.text(f);
        let Some(&(_, arity)) = MATH_FUNCTIONS.iter().find(|(m, _)| *m == name) else {
            let mut d = Diagnostic::new(
                self.span(f),
                format!("call to `{name}` is not supported in a tuned loop"),
            );
            d = d.with_help(
                match did_you_mean(name, MATH_FUNCTIONS.iter().map(|(m, _)| *m)) {
                    Some(h) => h,
                    None if crate::macros::looks_like_macro(name) => {
                        crate::macros::undefined_help(name)
                    }
                    None => format!(
                        "a tuned loop may call only the math functions {}",
                        MATH_FUNCTIONS
                            .iter()
                            .map(|(m, _)| *m)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                },
            );
            return Err(d);
        };
        let mut args = Vec::new();
        let list = self.field(n, "arguments")?;
        let mut c = list.walk();
        for a in list.named_children(&mut c) {
            if a.kind() != "comment" {
                args.push(self.expr(a)?);
            }
        }
        if args.len() != arity {
            return Err(Diagnostic::new(
                span,
                format!("`{name}` takes {arity} argument(s), found {}", args.len()),
            ));
        }
        Ok(ExprKind::Call(name.to_string(), args))
    }
}

/// A C number literal of the loop, with the spec language's rules: an integer must fit in 64
/// bits (signed), a floating literal must be finite in its type (`f`: float, else double).
///
/// Errors (at `span`): `integer literal `X` does not fit in 64 bits`, `float literal `X` is out
/// of range`, an invalid literal (`09`, `1e`, `0x`), or one orcl does not support (hex floats).
fn number_literal(t: &str, span: Span) -> Result<ExprKind, Diagnostic> {
    if let Some(v) = parse_int(t) {
        return Ok(ExprKind::Int(v));
    }
    let lower = t.to_ascii_lowercase();
    let hex = lower.starts_with("0x");
    let int_body = lower.trim_end_matches(['u', 'l']);
    let is_int = if hex {
        !int_body[2..].is_empty() && int_body[2..].bytes().all(|b| b.is_ascii_hexdigit())
    } else {
        !int_body.is_empty() && int_body.bytes().all(|b| b.is_ascii_digit())
    };
    if is_int {
        let octal = !hex && int_body.len() > 1 && int_body.starts_with('0');
        if octal && int_body.bytes().any(|b| b > b'7') {
            return Err(Diagnostic::new(
                span,
                format!("invalid number literal `{t}`: a leading 0 makes it octal (digits 0-7)"),
            )
            .with_help(format!(
                "write `{}` for the decimal number",
                int_body.trim_start_matches('0')
            )));
        }
        return Err(Diagnostic::new(
            span,
            format!("integer literal `{t}` does not fit in 64 bits"),
        )
        .with_help(format!("integers are at most {}", i64::MAX)));
    }
    let (body, single) = match lower.strip_suffix('f') {
        Some(b) if !hex => (b, true),
        _ => (lower.trim_end_matches('l'), false),
    };
    let value = if hex { None } else { body.parse::<f64>().ok() };
    match value {
        Some(v) if v.is_finite() && (!single || v.abs() <= f32::MAX as f64) => {
            Ok(ExprKind::Float {
                text: t.to_string(),
                single,
            })
        }
        Some(_) => Err(
            Diagnostic::new(span, format!("float literal `{t}` is out of range")).with_help(
                if single {
                    format!("a float is at most {:e}", f32::MAX)
                } else {
                    format!("a double is at most {:e}", f64::MAX)
                },
            ),
        ),
        None => Err(Diagnostic::new(
            span,
            format!("unsupported number literal `{t}`"),
        )),
    }
}

/// A divisor that is the constant zero (`x/0`, `x % (0)`, `x/-0.0`, `y /= 0`) is an error, as
/// in the spec language (C leaves it undefined for integers).
pub(super) fn reject_zero_divisor(divisor: &Expr, modulo: bool) -> Result<(), Diagnostic> {
    let mut e = divisor;
    while let ExprKind::Unary(UnaryOp::Neg | UnaryOp::Plus, inner) = &e.kind {
        e = inner;
    }
    let zero = match &e.kind {
        ExprKind::Int(0) => true,
        ExprKind::Float { text, .. } => {
            let l = text.to_ascii_lowercase();
            let body = l.trim_end_matches(['f', 'l']);
            body.parse::<f64>().is_ok_and(|v| v == 0.0)
        }
        _ => false,
    };
    if zero {
        let what = if modulo { "modulo" } else { "division" };
        return Err(Diagnostic::new(
            divisor.span,
            format!("{what} by zero: the divisor is the constant 0"),
        ));
    }
    Ok(())
}

/// A C integer literal (decimal, hex, octal; `u`/`l` suffixes), if `t` is one that fits in i64.
pub(super) fn parse_int(t: &str) -> Option<i64> {
    let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()
    } else if t.len() > 1 && t.starts_with('0') && t.bytes().all(|b| b.is_ascii_digit()) {
        i64::from_str_radix(&t[1..], 8).ok()
    } else if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        t.parse().ok()
    } else {
        None
    }
}
