//! The recursive-descent parser of expressions and keyword-argument lists (shared with the spec
//! parser).

use super::lexer::{lex, skip_trivia, Tok, Token, KEYWORDS};
use super::{BinOp, Expr, ExprKind, UnOp, Value, FUNCTIONS, MAX_DEPTH, MAX_NEST};
use crate::diag::{did_you_mean, Diagnostic, Span};

// ---------------------------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------------------------

type Parsed = Result<(Expr, usize), Diagnostic>;

/// Recursive-descent parser over a lazily lexed slice of the input (shared with the spec parser:
/// the text after an expression, e.g. C code after `transform OpenCL(...)`, is never lexed).
pub(crate) struct Parser<'a> {
    src: &'a str,
    base: usize,
    pos: usize,
    prev_end: usize,
    nest: usize,
    cache: Option<(usize, Token)>,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(src: &'a str, base: usize) -> Self {
        Parser {
            src,
            base,
            pos: 0,
            prev_end: 0,
            nest: 0,
            cache: None,
        }
    }

    pub(crate) fn peek(&mut self) -> Result<Token, Diagnostic> {
        if let Some((p, t)) = &self.cache {
            if *p == self.pos {
                return Ok(t.clone());
            }
        }
        let t = lex(self.src, self.base, self.pos)?;
        self.cache = Some((self.pos, t.clone()));
        Ok(t)
    }

    pub(crate) fn bump(&mut self) -> Result<Token, Diagnostic> {
        let t = self.peek()?;
        self.pos = t.end;
        self.prev_end = t.end;
        Ok(t)
    }

    /// Relative offset of the parser (just after the last consumed token).
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Absolute offset just after the last consumed token.
    pub(crate) fn prev_end(&self) -> usize {
        self.base + self.prev_end
    }

    /// Skip one character without lexing it (error recovery). Returns false at the end of input.
    pub(crate) fn skip_char(&mut self) -> bool {
        let p = skip_trivia(self.src, self.pos);
        match self.src[p..].chars().next() {
            Some(c) => {
                self.pos = p + c.len_utf8();
                true
            }
            None => {
                self.pos = p;
                false
            }
        }
    }

    pub(crate) fn eat_sym(&mut self, s: &str) -> Result<bool, Diagnostic> {
        if self.peek()?.is_sym(s) {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// `what` describes the token, e.g. "`]` to close the list".
    pub(crate) fn expect_sym(&mut self, s: &str, what: &str) -> Result<Token, Diagnostic> {
        let t = self.peek()?;
        if t.is_sym(s) {
            return self.bump();
        }
        Err(Diagnostic::new(
            t.span,
            format!("expected {what}, found {}", self.describe(&t)),
        ))
    }

    /// "`text`" of a token (shortened), or "end of input".
    pub(crate) fn describe(&self, t: &Token) -> String {
        if t.tok == Tok::Eof {
            return "end of input".to_string();
        }
        let s = t.span.start.saturating_sub(self.base);
        let e = t.span.end.saturating_sub(self.base);
        let text = self.src.get(s..e).unwrap_or("");
        let short: String = text.chars().take(24).collect();
        if short.len() < text.len() {
            format!("`{short}...`")
        } else {
            format!("`{short}`")
        }
    }

    /// One full expression (conditional expression level).
    pub(crate) fn expression(&mut self) -> Result<Expr, Diagnostic> {
        self.ifelse().map(|(e, _)| e)
    }

    fn enter(&mut self, span: Span) -> Result<(), Diagnostic> {
        self.nest += 1;
        if self.nest > MAX_NEST {
            return Err(Diagnostic::new(
                span,
                format!("expression nested too deeply (more than {MAX_NEST} levels)"),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.nest = self.nest.saturating_sub(1);
    }

    fn node(kind: ExprKind, span: Span, depth: usize) -> Parsed {
        if depth > MAX_DEPTH {
            return Err(Diagnostic::new(
                span,
                format!("expression too deeply nested (more than {MAX_DEPTH} operators)"),
            ));
        }
        Ok((Expr { kind, span }, depth))
    }

    fn binary(op: BinOp, l: (Expr, usize), r: (Expr, usize)) -> Parsed {
        let span = l.0.span.to(r.0.span);
        let depth = l.1.max(r.1) + 1;
        Self::node(
            ExprKind::Binary(op, Box::new(l.0), Box::new(r.0)),
            span,
            depth,
        )
    }

    fn ifelse(&mut self) -> Parsed {
        let t = self.peek()?;
        self.enter(t.span)?;
        let r = self.ifelse_inner();
        self.leave();
        r
    }

    fn ifelse_inner(&mut self) -> Parsed {
        let then = self.or()?;
        if !self.peek()?.is_ident("if") {
            return Ok(then);
        }
        self.bump()?;
        let cond = self.or()?;
        let t = self.peek()?;
        if !t.is_ident("else") {
            return Err(Diagnostic::new(
                t.span,
                format!(
                    "expected `else` in conditional expression, found {}",
                    self.describe(&t)
                ),
            ));
        }
        self.bump()?;
        let other = self.ifelse()?;
        let span = then.0.span.to(other.0.span);
        let depth = then.1.max(cond.1).max(other.1) + 1;
        let kind = ExprKind::IfElse {
            cond: Box::new(cond.0),
            then: Box::new(then.0),
            other: Box::new(other.0),
        };
        Self::node(kind, span, depth)
    }

    fn or(&mut self) -> Parsed {
        let mut l = self.and()?;
        while self.peek()?.is_ident("or") {
            self.bump()?;
            let r = self.and()?;
            l = Self::binary(BinOp::Or, l, r)?;
        }
        Ok(l)
    }

    fn and(&mut self) -> Parsed {
        let mut l = self.not()?;
        while self.peek()?.is_ident("and") {
            self.bump()?;
            let r = self.not()?;
            l = Self::binary(BinOp::And, l, r)?;
        }
        Ok(l)
    }

    fn not(&mut self) -> Parsed {
        let t = self.peek()?;
        if t.is_ident("not") {
            self.bump()?;
            self.enter(t.span)?;
            let r = self.not();
            self.leave();
            let (e, d) = r?;
            let span = t.span.to(e.span);
            return Self::node(ExprKind::Unary(UnOp::Not, Box::new(e)), span, d + 1);
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Parsed {
        let first = self.additive()?;
        let mut operands = vec![first];
        let mut ops: Vec<(BinOp, bool)> = Vec::new(); // (op, negated: `not in`)
        loop {
            let t = self.peek()?;
            let op = match &t.tok {
                Tok::Sym("==") => (BinOp::Eq, false),
                Tok::Sym("!=") => (BinOp::Ne, false),
                Tok::Sym("<") => (BinOp::Lt, false),
                Tok::Sym("<=") => (BinOp::Le, false),
                Tok::Sym(">") => (BinOp::Gt, false),
                Tok::Sym(">=") => (BinOp::Ge, false),
                Tok::Ident(s) if s == "in" => (BinOp::In, false),
                Tok::Ident(s) if s == "not" => {
                    let next = lex(self.src, self.base, t.end)?;
                    if !next.is_ident("in") {
                        break;
                    }
                    self.bump()?;
                    (BinOp::In, true)
                }
                _ => break,
            };
            self.bump()?;
            ops.push(op);
            operands.push(self.additive()?);
        }
        if ops.is_empty() {
            return operands
                .pop()
                .ok_or_else(|| Diagnostic::new(Span::default(), "internal: empty comparison"));
        }
        // `a < b < c` is `a < b and b < c` (Python chaining).
        let mut result: Option<(Expr, usize)> = None;
        for (k, (op, negated)) in ops.iter().enumerate() {
            let l = operands[k].clone();
            let r = operands[k + 1].clone();
            let mut cmp = Self::binary(*op, l, r)?;
            if *negated {
                let span = cmp.0.span;
                cmp = Self::node(ExprKind::Unary(UnOp::Not, Box::new(cmp.0)), span, cmp.1 + 1)?;
            }
            result = Some(match result {
                None => cmp,
                Some(prev) => Self::binary(BinOp::And, prev, cmp)?,
            });
        }
        result.ok_or_else(|| Diagnostic::new(Span::default(), "internal: empty comparison"))
    }

    fn additive(&mut self) -> Parsed {
        let mut l = self.multiplicative()?;
        loop {
            let t = self.peek()?;
            let op = if t.is_sym("+") {
                BinOp::Add
            } else if t.is_sym("-") {
                BinOp::Sub
            } else {
                return Ok(l);
            };
            self.bump()?;
            let r = self.multiplicative()?;
            l = Self::binary(op, l, r)?;
        }
    }

    fn multiplicative(&mut self) -> Parsed {
        let mut l = self.unary()?;
        loop {
            let t = self.peek()?;
            let op = match &t.tok {
                Tok::Sym("*") => BinOp::Mul,
                Tok::Sym("/") => BinOp::Div,
                Tok::Sym("//") => BinOp::FloorDiv,
                Tok::Sym("%") => BinOp::Mod,
                _ => return Ok(l),
            };
            self.bump()?;
            let r = self.unary()?;
            l = Self::binary(op, l, r)?;
        }
    }

    fn unary(&mut self) -> Parsed {
        let t = self.peek()?;
        let op = if t.is_sym("-") {
            UnOp::Neg
        } else if t.is_sym("+") {
            UnOp::Pos
        } else {
            return self.power();
        };
        self.bump()?;
        self.enter(t.span)?;
        let r = self.unary();
        self.leave();
        let (e, d) = r?;
        let span = t.span.to(e.span);
        Self::node(ExprKind::Unary(op, Box::new(e)), span, d + 1)
    }

    fn power(&mut self) -> Parsed {
        let base = self.primary()?;
        if self.peek()?.is_sym("**") {
            let t = self.bump()?;
            self.enter(t.span)?;
            let r = self.unary(); // right-associative; `2 ** -1` is allowed
            self.leave();
            return Self::binary(BinOp::Pow, base, r?);
        }
        Ok(base)
    }

    fn primary(&mut self) -> Parsed {
        let t = self.peek()?;
        match &t.tok {
            Tok::Int(v) => {
                self.bump()?;
                Self::node(ExprKind::Lit(Value::Int(*v)), t.span, 1)
            }
            Tok::Float(v) => {
                self.bump()?;
                Self::node(ExprKind::Lit(Value::Float(*v)), t.span, 1)
            }
            Tok::Str(s) => {
                self.bump()?;
                Self::node(ExprKind::Lit(Value::Str(s.clone())), t.span, 1)
            }
            Tok::Ident(name) => self.name_or_call(name.clone(), t),
            Tok::Sym("(") => {
                self.bump()?;
                let (mut e, mut d) = self.ifelse()?;
                if self.peek()?.is_sym(",") {
                    // A tuple `('i', 32)` (Orio's loop-naming style) is a list value.
                    let mut items = vec![e];
                    while self.peek()?.is_sym(",") {
                        self.bump()?;
                        if self.peek()?.is_sym(")") {
                            break;
                        }
                        let (x, dx) = self.ifelse()?;
                        d = d.max(dx);
                        items.push(x);
                    }
                    let close = self.expect_sym(")", "`)` to close the tuple")?;
                    return Self::node(ExprKind::List(items), t.span.to(close.span), d + 1);
                }
                let close = self.expect_sym(")", "`)` to close the parenthesis")?;
                e.span = t.span.to(close.span);
                Ok((e, d))
            }
            Tok::Sym("[") => self.list(t),
            _ => Err(Diagnostic::new(
                t.span,
                format!("expected an expression, found {}", self.describe(&t)),
            )),
        }
    }

    fn name_or_call(&mut self, name: String, t: Token) -> Parsed {
        match name.as_str() {
            "True" => {
                self.bump()?;
                return Self::node(ExprKind::Lit(Value::Bool(true)), t.span, 1);
            }
            "False" => {
                self.bump()?;
                return Self::node(ExprKind::Lit(Value::Bool(false)), t.span, 1);
            }
            _ => {}
        }
        if KEYWORDS.contains(&name.as_str()) {
            return Err(Diagnostic::new(
                t.span,
                format!("expected an expression, found keyword `{name}`"),
            ));
        }
        if name.eq_ignore_ascii_case("true") || name.eq_ignore_ascii_case("false") {
            let right = if name.eq_ignore_ascii_case("true") {
                "True"
            } else {
                "False"
            };
            return Err(Diagnostic::new(
                t.span,
                format!("`{name}` is not a boolean: booleans are `True` and `False`"),
            )
            .with_help(format!("did you mean `{right}`?")));
        }
        self.bump()?;
        if !self.peek()?.is_sym("(") {
            return Self::node(ExprKind::Name(name), t.span, 1);
        }
        if !FUNCTIONS.contains(&name.as_str()) {
            let help = did_you_mean(&name, FUNCTIONS.iter().copied())
                .unwrap_or_else(|| format!("the functions are {}", FUNCTIONS.join(", ")));
            return Err(
                Diagnostic::new(t.span, format!("unknown function `{name}`")).with_help(help),
            );
        }
        self.bump()?; // (
        let (args, close, depth) = self.call_args()?;
        Self::node(ExprKind::Call(name, args), t.span.to(close), depth + 1)
    }

    fn call_args(&mut self) -> Result<(Vec<Expr>, Span, usize), Diagnostic> {
        let mut args = Vec::new();
        let mut depth = 0;
        loop {
            let t = self.peek()?;
            if t.is_sym(")") {
                self.bump()?;
                return Ok((args, t.span, depth));
            }
            let (e, d) = self.ifelse()?;
            depth = depth.max(d);
            args.push(e);
            let t = self.peek()?;
            if t.is_sym(",") {
                self.bump()?;
            } else if !t.is_sym(")") {
                return Err(Diagnostic::new(
                    t.span,
                    format!(
                        "expected `,` or `)` in the argument list, found {}",
                        self.describe(&t)
                    ),
                ));
            }
        }
    }

    fn list(&mut self, open: Token) -> Parsed {
        self.bump()?; // [ (each item is an `ifelse`, which counts the nesting)
        self.list_inner(open)
    }

    fn list_inner(&mut self, open: Token) -> Parsed {
        if self.peek()?.is_sym("]") {
            let close = self.bump()?;
            return Self::node(ExprKind::List(Vec::new()), open.span.to(close.span), 1);
        }
        let first = self.ifelse()?;
        if self.peek()?.is_ident("for") {
            return self.comprehension(open, first);
        }
        let mut depth = first.1;
        let mut items = vec![first.0];
        loop {
            let t = self.peek()?;
            if t.is_sym("]") {
                self.bump()?;
                return Self::node(ExprKind::List(items), open.span.to(t.span), depth + 1);
            }
            if !t.is_sym(",") {
                return Err(Diagnostic::new(
                    t.span,
                    format!(
                        "expected `,` or `]` in the list, found {}",
                        self.describe(&t)
                    ),
                ));
            }
            self.bump()?;
            if self.peek()?.is_sym("]") {
                continue;
            }
            let (e, d) = self.ifelse()?;
            depth = depth.max(d);
            items.push(e);
        }
    }

    fn comprehension(&mut self, open: Token, elem: (Expr, usize)) -> Parsed {
        self.bump()?; // for
        let t = self.peek()?;
        let var = match &t.tok {
            Tok::Ident(v) if !KEYWORDS.contains(&v.as_str()) => v.clone(),
            _ => {
                return Err(Diagnostic::new(
                    t.span,
                    format!(
                        "expected a variable name after `for`, found {}",
                        self.describe(&t)
                    ),
                ))
            }
        };
        self.bump()?;
        let t = self.peek()?;
        if !t.is_ident("in") {
            return Err(Diagnostic::new(
                t.span,
                format!(
                    "expected `in` after `for {var}`, found {}",
                    self.describe(&t)
                ),
            ));
        }
        self.bump()?;
        let iter = self.or()?;
        let mut depth = elem.1.max(iter.1);
        let mut cond: Option<Expr> = None;
        while self.peek()?.is_ident("if") {
            self.bump()?;
            let (c, d) = self.or()?;
            depth = depth.max(d) + 1;
            cond = Some(match cond {
                None => c,
                Some(prev) => {
                    let span = prev.span.to(c.span);
                    Expr {
                        kind: ExprKind::Binary(BinOp::And, Box::new(prev), Box::new(c)),
                        span,
                    }
                }
            });
        }
        let t = self.peek()?;
        if t.is_ident("for") {
            return Err(Diagnostic::new(
                t.span,
                "only one `for` clause is supported in a list comprehension",
            ));
        }
        let close = self.expect_sym("]", "`]` to close the list comprehension")?;
        let kind = ExprKind::Comprehension {
            elem: Box::new(elem.0),
            var,
            iter: Box::new(iter.0),
            cond: cond.map(Box::new),
        };
        Self::node(kind, open.span.to(close.span), depth + 1)
    }
}

/// Parse `src` as exactly one expression (surrounding whitespace and `#` comments allowed).
/// `base` is the absolute offset of `src` in the file; all spans are absolute.
///
/// Errors: a located [`Diagnostic`] (unexpected token, unterminated string literal, unknown
/// function, `true` instead of `True`, nesting deeper than the limits).
pub fn parse_expr(src: &str, base: usize) -> Result<Expr, Diagnostic> {
    let mut p = Parser::new(src, base);
    let e = p.expression()?;
    let t = p.peek()?;
    if t.tok != Tok::Eof {
        return Err(Diagnostic::new(
            t.span,
            format!("unexpected {} after the expression", p.describe(&t)),
        ));
    }
    Ok(e)
}

/// One `name=EXPR` of a keyword argument list.
#[derive(Debug, Clone, PartialEq)]
pub struct KeywordArg {
    pub name: String,
    pub name_span: Span,
    pub expr: Expr,
}

/// Parse a parenthesised keyword-argument list `( name=EXPR, name=EXPR, ... )` at the start of
/// `src` (after optional whitespace); a trailing comma and an empty list are allowed, values may
/// span lines. Text after the closing `)` is not looked at.
///
/// Returns the arguments in order and the offset, relative to `src`, just after the `)`.
/// Errors: a missing `(`, `=`, `,` or `)`, a positional argument, a duplicate name.
pub fn parse_keyword_args(src: &str, base: usize) -> Result<(Vec<KeywordArg>, usize), Diagnostic> {
    let mut p = Parser::new(src, base);
    p.expect_sym("(", "`(`")?;
    let mut args: Vec<KeywordArg> = Vec::new();
    loop {
        let t = p.peek()?;
        if t.is_sym(")") {
            p.bump()?;
            return Ok((args, p.pos()));
        }
        let name = match &t.tok {
            Tok::Ident(n) if !KEYWORDS.contains(&n.as_str()) => n.clone(),
            _ => {
                return Err(Diagnostic::new(
                    t.span,
                    format!(
                        "expected a keyword argument `name=value` or `)`, found {}",
                        p.describe(&t)
                    ),
                ))
            }
        };
        p.bump()?;
        let eq = p.peek()?;
        if !eq.is_sym("=") {
            return Err(Diagnostic::new(
                eq.span,
                format!("expected `=` after `{name}`, found {}", p.describe(&eq)),
            )
            .with_help(format!("write `{name}=VALUE`")));
        }
        p.bump()?;
        let expr = p.expression()?;
        if args.iter().any(|a| a.name == name) {
            return Err(Diagnostic::new(
                t.span,
                format!("duplicate keyword argument `{name}`"),
            ));
        }
        args.push(KeywordArg {
            name: name.clone(),
            name_span: t.span,
            expr,
        });
        let t = p.peek()?;
        if t.is_sym(",") {
            p.bump()?;
        } else if !t.is_sym(")") {
            return Err(Diagnostic::new(
                Span::new(p.prev_end(), p.prev_end()),
                format!(
                    "expected `,` or `)` after the value of `{name}`, found {}",
                    p.describe(&t)
                ),
            ));
        }
    }
}
