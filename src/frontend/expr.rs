//! The closed expression language of tuning specs (DESIGN.md §1): literals, lists, `range`,
//! list comprehensions, arithmetic, comparisons, `and/or/not`, names. Parsed and evaluated by orcl,
//! never by a shell or an interpreter.

use crate::diag::{did_you_mean, Diagnostic, Span};
use serde::{Deserialize, Serialize};

/// A value of the spec language. Python-like semantics: `Int` and `Float` mix in arithmetic,
/// `True`/`False` are `Bool`, strings are single- or double-quoted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<Value>),
}

/// A parsed expression with the span of its source text (absolute byte offsets into the file).
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Lit(Value),
    Name(String),
    List(Vec<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `f(args)`: only `range`, `len`, `min`, `max`, `abs`, `int`, `float`, `str` are known.
    Call(String, Vec<Expr>),
    /// `[elem for var in iter if cond]`
    Comprehension {
        elem: Box<Expr>,
        var: String,
        iter: Box<Expr>,
        cond: Option<Box<Expr>>,
    },
    /// `a if c else b`
    IfElse {
        cond: Box<Expr>,
        then: Box<Expr>,
        other: Box<Expr>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Pos,
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    In,
}

// ---------------------------------------------------------------------------------------------
// Limits (no input may crash or exhaust orcl)
// ---------------------------------------------------------------------------------------------

/// Deepest expression tree accepted (operators chained or nested).
const MAX_DEPTH: usize = 400;
/// Deepest syntactic nesting (parentheses, brackets, call arguments, unary operators).
const MAX_NEST: usize = 32;
/// Longest list `range(...)` may produce.
const MAX_RANGE: i128 = 10_000_000;
/// Elements (list items, characters, comprehension iterations) one evaluation may produce.
pub(crate) const EVAL_BUDGET: u64 = 20_000_000;
/// Deepest nesting of lists inside a value (`[[1]]` is 2): values nest deeper only through
/// chains of `let` bindings, and the recursive printers, comparisons and destructors of
/// [`Value`] must not overflow the stack.
pub(crate) const MAX_VALUE_DEPTH: usize = 64;

/// Built-in functions of the language.
pub const FUNCTIONS: &[&str] = &["range", "len", "min", "max", "abs", "int", "float", "str"];
const KEYWORDS: &[&str] = &[
    "and", "or", "not", "if", "else", "for", "in", "True", "False",
];

// ---------------------------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------------------------

/// A token of the spec/expression language (shared with the spec parser).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Int(i64),
    Float(f64),
    Str(String),
    Ident(String),
    Sym(&'static str),
    Eof,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub tok: Tok,
    /// Absolute span.
    pub span: Span,
    /// Offset just after the token, relative to the parser's `src`.
    pub end: usize,
}

impl Token {
    pub(crate) fn is_sym(&self, s: &str) -> bool {
        matches!(&self.tok, Tok::Sym(x) if *x == s)
    }
    pub(crate) fn is_ident(&self, s: &str) -> bool {
        matches!(&self.tok, Tok::Ident(x) if x == s)
    }
}

const SYMS: &[&str] = &[
    "**", "//", "==", "!=", "<=", ">=", "(", ")", "[", "]", "{", "}", ",", ";", "=", "+", "-", "*",
    "/", "%", "<", ">", ":",
];

/// Offset of the next token at or after `pos` (skips whitespace and `#` comments).
fn skip_trivia(src: &str, mut pos: usize) -> usize {
    loop {
        let Some(c) = src.get(pos..).and_then(|s| s.chars().next()) else {
            return src.len();
        };
        if c.is_whitespace() {
            pos += c.len_utf8();
        } else if c == '#' {
            match src[pos..].find('\n') {
                Some(n) => pos += n,
                None => return src.len(),
            }
        } else {
            return pos;
        }
    }
}

/// Lex one token starting at relative offset `pos` (a char boundary) of `src`.
pub(crate) fn lex(src: &str, base: usize, pos: usize) -> Result<Token, Diagnostic> {
    let start = skip_trivia(src, pos);
    let abs = |s: usize, e: usize| Span::new(base + s, base + e);
    let rest = &src[start..];
    let Some(c) = rest.chars().next() else {
        return Ok(Token {
            tok: Tok::Eof,
            span: abs(start, start),
            end: start,
        });
    };
    let bytes = rest.as_bytes();
    if c.is_ascii_digit() || (c == '.' && bytes.get(1).is_some_and(|b| b.is_ascii_digit())) {
        return lex_number(src, base, start);
    }
    if c.is_ascii_alphabetic() || c == '_' {
        let n = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        return Ok(Token {
            tok: Tok::Ident(rest[..n].to_string()),
            span: abs(start, start + n),
            end: start + n,
        });
    }
    if c == '\'' || c == '"' {
        return lex_string(src, base, start, c);
    }
    for s in SYMS {
        if rest.starts_with(s) {
            let end = start + s.len();
            return Ok(Token {
                tok: Tok::Sym(s),
                span: abs(start, end),
                end,
            });
        }
    }
    let end = start + c.len_utf8();
    let mut d = Diagnostic::new(abs(start, end), format!("unexpected character `{c}`"));
    if rest.starts_with("&&") {
        d = Diagnostic::new(abs(start, start + 2), "unexpected `&&`").with_help("use `and`");
    } else if rest.starts_with("||") {
        d = Diagnostic::new(abs(start, start + 2), "unexpected `||`").with_help("use `or`");
    } else if c == '!' {
        d = d.with_help("use `not` for negation");
    }
    Err(d)
}

fn lex_number(src: &str, base: usize, start: usize) -> Result<Token, Diagnostic> {
    let b = src.as_bytes();
    let mut i = start;
    let digits = |i: &mut usize, hex: bool| {
        while *i < b.len()
            && (b[*i].is_ascii_digit() || b[*i] == b'_' || (hex && b[*i].is_ascii_hexdigit()))
        {
            *i += 1;
        }
    };
    let mut is_float = false;
    let mut hex = false;
    if b[i] == b'0' && i + 1 < b.len() && (b[i + 1] == b'x' || b[i + 1] == b'X') {
        hex = true;
        i += 2;
        digits(&mut i, true);
    } else {
        digits(&mut i, false);
        if i < b.len() && b[i] == b'.' {
            is_float = true;
            i += 1;
            digits(&mut i, false);
        }
        if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            let mut j = i + 1;
            if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
                j += 1;
            }
            if j < b.len() && b[j].is_ascii_digit() {
                is_float = true;
                i = j;
                digits(&mut i, false);
            }
        }
    }
    // A number glued to letters (`12abc`, `1e`) is one bad literal.
    let mut end = i;
    while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_') {
        end += 1;
    }
    let span = Span::new(base + start, base + end);
    let text = &src[start..end];
    let bad = || Diagnostic::new(span, format!("invalid number literal `{text}`"));
    if end != i {
        return Err(bad());
    }
    let clean: String = text.chars().filter(|c| *c != '_').collect();
    if text.ends_with('_') || text.contains("__") {
        return Err(bad());
    }
    let tok = if hex {
        let digits = &clean[2..];
        if digits.is_empty() {
            return Err(bad());
        }
        match i64::from_str_radix(digits, 16) {
            Ok(v) => Tok::Int(v),
            Err(_) => {
                return Err(Diagnostic::new(
                    span,
                    format!("integer literal `{text}` does not fit in 64 bits"),
                ))
            }
        }
    } else if is_float {
        match clean.parse::<f64>() {
            Ok(v) if v.is_finite() => Tok::Float(v),
            Ok(_) => {
                return Err(Diagnostic::new(
                    span,
                    format!("float literal `{text}` is out of range"),
                ))
            }
            Err(_) => return Err(bad()),
        }
    } else {
        match clean.parse::<i64>() {
            Ok(v) => Tok::Int(v),
            Err(_) => {
                return Err(Diagnostic::new(
                    span,
                    format!("integer literal `{text}` does not fit in 64 bits"),
                ))
            }
        }
    };
    Ok(Token { tok, span, end })
}

fn lex_string(src: &str, base: usize, start: usize, quote: char) -> Result<Token, Diagnostic> {
    let unterminated = || {
        Diagnostic::new(
            Span::new(base + start, base + start + 1),
            "unterminated string literal",
        )
        .with_help(format!("close the string with {quote}"))
    };
    let mut out = String::new();
    let mut it = src[start + 1..].char_indices();
    while let Some((k, c)) = it.next() {
        match c {
            c if c == quote => {
                let end = start + 1 + k + 1;
                return Ok(Token {
                    tok: Tok::Str(out),
                    span: Span::new(base + start, base + end),
                    end,
                });
            }
            '\n' => return Err(unterminated()),
            '\\' => match it.next() {
                None => return Err(unterminated()),
                Some((_, e)) => match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    '0' => out.push('\0'),
                    '\\' => out.push('\\'),
                    '\'' => out.push('\''),
                    '"' => out.push('"'),
                    '\n' => {}
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                },
            },
            c => out.push(c),
        }
    }
    Err(unterminated())
}

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

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

impl Value {
    /// Python's name of the type: `bool`, `int`, `float`, `str`, `list`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::List(_) => "list",
        }
    }
    /// The integer, for `Int` only.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(v) => Some(*v),
            _ => None,
        }
    }
    /// The number, for `Int` and `Float`.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(v) => Some(*v as f64),
            Value::Float(v) => Some(*v),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    /// Python truthiness: `False`, `0`, `0.0`, `''`, `[]` are false.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Bool(b) => *b,
            Value::Int(v) => *v != 0,
            Value::Float(v) => *v != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(l) => !l.is_empty(),
        }
    }
    /// Python `==`: numbers (and bools) compare by value across types, lists element-wise.
    pub fn py_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::List(a), Value::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.py_eq(y))
            }
            _ => match (num(self), num(other)) {
                (Some(Num::I(a)), Some(Num::I(b))) => a == b,
                (Some(a), Some(b)) => a.f() == b.f(),
                _ => false,
            },
        }
    }
    /// `(elements, depth)`: the number of values inside (itself included, a string counting
    /// its bytes) and the list nesting depth (0 for a scalar). Iterative, so any value is safe.
    pub(crate) fn weight(&self) -> (u64, usize) {
        let mut elements = 0u64;
        let mut depth = 0usize;
        let mut todo = vec![(self, 0usize)];
        while let Some((v, d)) = todo.pop() {
            depth = depth.max(d);
            elements += 1;
            match v {
                Value::Str(s) => elements += s.len() as u64,
                Value::List(l) => todo.extend(l.iter().map(|x| (x, d + 1))),
                _ => {}
            }
        }
        (elements, depth)
    }
    /// A string identifying the value up to [`Value::py_eq`] (for duplicate detection).
    pub(crate) fn eq_key(&self) -> String {
        let mut s = String::new();
        self.eq_key_into(&mut s);
        s
    }
    fn eq_key_into(&self, out: &mut String) {
        match self {
            Value::Bool(b) => out.push_str(if *b { "1" } else { "0" }),
            Value::Int(v) => out.push_str(&v.to_string()),
            Value::Float(f) => {
                if f.fract() == 0.0 && f.abs() < 9.0e15 {
                    out.push_str(&(*f as i64).to_string())
                } else {
                    out.push_str(&fmt_float(*f))
                }
            }
            Value::Str(s) => out.push_str(&repr_str(s)),
            Value::List(l) => {
                out.push('[');
                for v in l {
                    v.eq_key_into(out);
                    out.push(',');
                }
                out.push(']');
            }
        }
    }
    /// Python `str()`: strings without quotes, everything else as `repr`.
    pub fn to_py_str(&self) -> String {
        match self {
            Value::Str(s) => s.clone(),
            v => v.to_string(),
        }
    }
}

/// Python `repr` of a float: always has a `.` or an exponent (`1.0`, `2.5`, `1e-09`, `1e+16`).
fn fmt_float(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let s = format!("{f:?}");
    match s.find('e') {
        Some(k) => {
            let (mant, exp) = (&s[..k], &s[k + 1..]);
            let (sign, digits) = match exp.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', exp),
            };
            format!("{mant}e{sign}{digits:0>2}")
        }
        None => s,
    }
}

/// Python `repr` of a string.
fn repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c)
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

impl std::fmt::Display for Value {
    /// Python `repr`: `True`, `3`, `2.5`, `'abc'`, `[1, 2]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            Value::Int(v) => write!(f, "{v}"),
            Value::Float(v) => f.write_str(&fmt_float(*v)),
            Value::Str(s) => f.write_str(&repr_str(s)),
            Value::List(l) => {
                f.write_str("[")?;
                for (k, v) in l.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
        }
    }
}

#[derive(Clone, Copy)]
enum Num {
    I(i64),
    F(f64),
}

impl Num {
    fn f(self) -> f64 {
        match self {
            Num::I(v) => v as f64,
            Num::F(v) => v,
        }
    }
}

fn num(v: &Value) -> Option<Num> {
    match v {
        Value::Bool(b) => Some(Num::I(i64::from(*b))),
        Value::Int(i) => Some(Num::I(*i)),
        Value::Float(f) => Some(Num::F(*f)),
        _ => None,
    }
}

/// Python ordering: `Err(())` when the types cannot be ordered, `Ok(None)` for NaN.
fn py_cmp(a: &Value, b: &Value) -> Result<Option<std::cmp::Ordering>, ()> {
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => Ok(Some(x.cmp(y))),
        (Value::List(x), Value::List(y)) => {
            for (p, q) in x.iter().zip(y) {
                if !p.py_eq(q) {
                    return py_cmp(p, q);
                }
            }
            Ok(Some(x.len().cmp(&y.len())))
        }
        _ => match (num(a), num(b)) {
            (Some(Num::I(x)), Some(Num::I(y))) => Ok(Some(x.cmp(&y))),
            (Some(x), Some(y)) => Ok(x.f().partial_cmp(&y.f())),
            _ => Err(()),
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------------

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

struct Ctx<'e> {
    env: &'e dyn Fn(&str) -> Option<Value>,
    names: &'e [&'e str],
    locals: Vec<(String, Value)>,
    budget: u64,
}

impl Ctx<'_> {
    fn spend(&mut self, n: u64, span: Span) -> Result<(), Diagnostic> {
        match self.budget.checked_sub(n) {
            Some(b) => {
                self.budget = b;
                Ok(())
            }
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
        let mut ctx = Ctx {
            env,
            names,
            locals: Vec::new(),
            budget: EVAL_BUDGET,
        };
        self.ev(&mut ctx)
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
        // A name's value is copied: charge it, so repeated uses of a large `let` stay bounded.
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
    Ok(Value::List(out))
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
        Value::List(l) => l,
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
    Ok(Value::List(out))
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
            let mut v = a.clone();
            v.extend_from_slice(b);
            return Ok(Value::List(v));
        }
        (BinOp::Mul, Value::Str(s), Value::Int(n)) | (BinOp::Mul, Value::Int(n), Value::Str(s)) => {
            let chars: Vec<char> = s.chars().collect();
            return Ok(Value::Str(
                repeat(&chars, *n, span, ctx)?.into_iter().collect(),
            ));
        }
        (BinOp::Mul, Value::List(s), Value::Int(n))
        | (BinOp::Mul, Value::Int(n), Value::List(s)) => {
            return Ok(Value::List(repeat(s, *n, span, ctx)?));
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

fn call(
    name: &str,
    vals: Vec<Value>,
    args: &[Expr],
    span: Span,
    ctx: &mut Ctx,
) -> Result<Value, Diagnostic> {
    let arity = |lo: usize, hi: usize| -> Result<(), Diagnostic> {
        if vals.len() < lo || vals.len() > hi {
            let want = if lo == hi {
                format!("{lo}")
            } else {
                format!("{lo} to {hi}")
            };
            return Err(Diagnostic::new(
                span,
                format!(
                    "{name}() takes {want} argument{} ({} given)",
                    if hi == 1 { "" } else { "s" },
                    vals.len()
                ),
            ));
        }
        Ok(())
    };
    let arg_span = |k: usize| args.get(k).map(|a| a.span).unwrap_or(span);
    match name {
        "range" => {
            arity(1, 3)?;
            let mut ints = Vec::with_capacity(3);
            for (k, v) in vals.iter().enumerate() {
                match num(v) {
                    Some(Num::I(i)) => ints.push(i as i128),
                    _ => {
                        return Err(Diagnostic::new(
                            arg_span(k),
                            format!(
                                "range() arguments must be integers, found {} {v}",
                                v.type_name()
                            ),
                        ))
                    }
                }
            }
            let (start, stop, step) = match ints.as_slice() {
                [b] => (0, *b, 1),
                [a, b] => (*a, *b, 1),
                [a, b, c] => (*a, *b, *c),
                _ => return Err(Diagnostic::new(span, "range() takes 1 to 3 arguments")),
            };
            if step == 0 {
                return Err(Diagnostic::new(
                    arg_span(2),
                    "range() step must not be zero",
                ));
            }
            let len = if step > 0 {
                if stop > start {
                    (stop - start + step - 1) / step
                } else {
                    0
                }
            } else if start > stop {
                (start - stop - step - 1) / (-step)
            } else {
                0
            };
            if len > MAX_RANGE {
                return Err(Diagnostic::new(
                    span,
                    format!("range() would have {len} elements; at most {MAX_RANGE} are allowed"),
                ));
            }
            ctx.spend(len as u64, span)?;
            let mut out = Vec::with_capacity(len as usize);
            let mut x = start;
            for _ in 0..len {
                out.push(Value::Int(x as i64));
                x += step;
            }
            Ok(Value::List(out))
        }
        "len" => {
            arity(1, 1)?;
            match &vals[0] {
                Value::List(l) => Ok(Value::Int(l.len() as i64)),
                Value::Str(s) => Ok(Value::Int(s.chars().count() as i64)),
                v => Err(Diagnostic::new(
                    arg_span(0),
                    format!("len() needs a list or str, found {}", v.type_name()),
                )),
            }
        }
        "min" | "max" => {
            if vals.is_empty() {
                return Err(Diagnostic::new(
                    span,
                    format!("{name}() needs at least one argument"),
                ));
            }
            let items: Vec<Value> = if vals.len() == 1 {
                match &vals[0] {
                    Value::List(l) => l.clone(),
                    v => {
                        return Err(Diagnostic::new(
                            arg_span(0),
                            format!(
                                "{name}() of a single argument needs a list, found {}",
                                v.type_name()
                            ),
                        ))
                    }
                }
            } else {
                vals
            };
            let mut best: Option<Value> = None;
            for v in items {
                best = Some(match best {
                    None => v,
                    Some(b) => {
                        let o = py_cmp(&v, &b).map_err(|_| {
                            Diagnostic::new(
                                span,
                                format!(
                                    "{name}() cannot compare {} and {}",
                                    v.type_name(),
                                    b.type_name()
                                ),
                            )
                        })?;
                        let better = match o {
                            Some(std::cmp::Ordering::Less) => name == "min",
                            Some(std::cmp::Ordering::Greater) => name == "max",
                            _ => false,
                        };
                        if better {
                            v
                        } else {
                            b
                        }
                    }
                });
            }
            best.ok_or_else(|| Diagnostic::new(span, format!("{name}() of an empty list")))
        }
        "abs" => {
            arity(1, 1)?;
            match num(&vals[0]) {
                Some(Num::I(i)) => i.checked_abs().map(Value::Int).ok_or_else(|| {
                    Diagnostic::new(
                        span,
                        format!("integer overflow: abs({i}) does not fit in 64 bits"),
                    )
                }),
                Some(Num::F(f)) => Ok(Value::Float(f.abs())),
                None => Err(Diagnostic::new(
                    arg_span(0),
                    format!("abs() needs a number, found {}", vals[0].type_name()),
                )),
            }
        }
        "int" => {
            arity(1, 1)?;
            match &vals[0] {
                Value::Str(s) => s.trim().parse::<i64>().map(Value::Int).map_err(|_| {
                    Diagnostic::new(
                        arg_span(0),
                        format!("invalid literal for int(): {}", vals[0]),
                    )
                }),
                v => match num(v) {
                    Some(Num::I(i)) => Ok(Value::Int(i)),
                    Some(Num::F(f)) => {
                        let t = f.trunc();
                        // i64::MIN as f64 is exact; i64::MAX as f64 rounds up to 2^63.
                        if (i64::MIN as f64..i64::MAX as f64).contains(&t) {
                            Ok(Value::Int(t as i64))
                        } else {
                            Err(Diagnostic::new(
                                arg_span(0),
                                format!("cannot convert float {} to int", fmt_float(f)),
                            ))
                        }
                    }
                    None => Err(Diagnostic::new(
                        arg_span(0),
                        format!("int() cannot convert a {}", v.type_name()),
                    )),
                },
            }
        }
        "float" => {
            arity(1, 1)?;
            match &vals[0] {
                Value::Str(s) => s.trim().parse::<f64>().map(Value::Float).map_err(|_| {
                    Diagnostic::new(
                        arg_span(0),
                        format!("cannot convert string to float: {}", vals[0]),
                    )
                }),
                v => match num(v) {
                    Some(n) => Ok(Value::Float(n.f())),
                    None => Err(Diagnostic::new(
                        arg_span(0),
                        format!("float() cannot convert a {}", v.type_name()),
                    )),
                },
            }
        }
        "str" => {
            arity(1, 1)?;
            let s = vals[0].to_py_str();
            ctx.spend(s.len() as u64, span)?;
            Ok(Value::Str(s))
        }
        _ => Err(Diagnostic::new(span, format!("unknown function `{name}`"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(src: &str) -> Result<Value, Diagnostic> {
        let env = |n: &str| match n {
            "N" => Some(Value::Int(1000)),
            "WI" => Some(Value::Int(32)),
            "CL" => Some(Value::Str("-O3".into())),
            _ => None,
        };
        parse_expr(src, 0)?.eval_with_names(&env, &["N", "WI", "CL"])
    }

    fn ok(src: &str) -> String {
        match ev(src) {
            Ok(v) => v.to_string(),
            Err(d) => panic!("{src}: {} at {:?}", d.message, d.span),
        }
    }

    fn err(src: &str) -> Diagnostic {
        match ev(src) {
            Ok(v) => panic!("{src}: expected an error, got {v}"),
            Err(d) => d,
        }
    }

    #[test]
    fn literals_and_display() {
        assert_eq!(ok("42"), "42");
        assert_eq!(ok("0x1F"), "31");
        assert_eq!(ok("1_000"), "1000");
        assert_eq!(ok("1.5"), "1.5");
        assert_eq!(ok(".5"), "0.5");
        assert_eq!(ok("1e-9"), "1e-09");
        assert_eq!(ok("1e16"), "1e+16");
        assert_eq!(ok("2.0"), "2.0");
        assert_eq!(ok("True"), "True");
        assert_eq!(ok("False"), "False");
        assert_eq!(ok("'abc'"), "'abc'");
        assert_eq!(ok(r#""it's""#), r#""it's""#);
        assert_eq!(ok(r"'a\tb\n'"), r"'a\tb\n'");
        assert_eq!(ok("[1, 2.5, 'x', [True]]"), "[1, 2.5, 'x', [True]]");
        assert_eq!(ok("[]"), "[]");
        assert_eq!(ok("[1, 2,]"), "[1, 2]");
        assert_eq!(ok("  7  # a comment\n"), "7");
        assert_eq!(Value::Float(3.0).to_string(), "3.0");
        assert_eq!(Value::Float(f64::INFINITY).to_string(), "inf");
    }

    #[test]
    fn range_and_comprehensions() {
        assert_eq!(ok("range(4)"), "[0, 1, 2, 3]");
        assert_eq!(ok("range(1,4)"), "[1, 2, 3]");
        assert_eq!(ok("range(10, 0, -3)"), "[10, 7, 4, 1]");
        assert_eq!(ok("range(0, 10, 4)"), "[0, 4, 8]");
        assert_eq!(ok("range(5, 1)"), "[]");
        assert_eq!(ok("[2**i for i in range(5) if i > 1]"), "[4, 8, 16]");
        assert_eq!(ok("[i*WI for i in range(1, 3)]"), "[32, 64]");
        assert_eq!(ok("[c for c in 'ab']"), "['a', 'b']");
        assert_eq!(ok("[x for x in [1,2,3,4] if x > 1 if x < 4]"), "[2, 3]");
        // The comprehension variable shadows an outer name and is not free.
        assert_eq!(ok("[N for N in [1, 2]]"), "[1, 2]");
        let e = parse_expr("[i * WI for i in range(N) if i > K]", 100).unwrap();
        let names: Vec<String> = e.free_names().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["N", "WI", "K"]);
        let d = err("range(1, 5, 0)");
        assert_eq!(d.message, "range() step must not be zero");
        assert_eq!(d.span, Span::new(12, 13));
        let d = err("range(100000000)");
        assert!(d.message.contains("at most 10000000"), "{}", d.message);
        let d = err("range(1.5)");
        assert!(d.message.contains("must be integers"), "{}", d.message);
        assert!(err("[[j for j in range(9000000)] for i in range(9)]")
            .message
            .contains("too large"));
    }

    #[test]
    fn arithmetic_semantics() {
        assert_eq!(ok("7 // 2"), "3");
        assert_eq!(ok("-7 // 2"), "-4");
        assert_eq!(ok("7 // -2"), "-4");
        assert_eq!(ok("-7 % 3"), "2");
        assert_eq!(ok("7 % -3"), "-2");
        assert_eq!(ok("7.5 // 2"), "3.0");
        assert_eq!(ok("-7.5 % 2"), "0.5");
        assert_eq!(ok("7 / 2"), "3.5");
        assert_eq!(ok("4 / 2"), "2.0");
        assert_eq!(ok("2 ** 10"), "1024");
        assert_eq!(ok("2 ** -1"), "0.5");
        assert_eq!(ok("2 ** 3 ** 2"), "512");
        assert_eq!(ok("-2 ** 2"), "-4");
        assert_eq!(ok("(-2) ** 2"), "4");
        assert_eq!(ok("2.0 ** 2"), "4.0");
        assert_eq!(ok("1 + 2 * 3 - 4"), "3");
        assert_eq!(ok("(1 + 2) * 3"), "9");
        assert_eq!(ok("1 + 2.5"), "3.5");
        assert_eq!(ok("True + 1"), "2");
        assert_eq!(ok("'a' + 'b' + CL"), "'ab-O3'");
        assert_eq!(ok("[1] + [2, 3]"), "[1, 2, 3]");
        assert_eq!(ok("'ab' * 2"), "'abab'");
        assert_eq!(ok("[0] * 3"), "[0, 0, 0]");
        assert_eq!(ok("- -3"), "3");
        assert_eq!(ok("len([1,2,3]) + len('ab')"), "5");
        assert_eq!(ok("min(3, 1, 2)"), "1");
        assert_eq!(ok("max([1, 5, 2])"), "5");
        assert_eq!(ok("abs(-3)"), "3");
        assert_eq!(ok("int(3.9)"), "3");
        assert_eq!(ok("int(-3.9)"), "-3");
        assert_eq!(ok("int('12')"), "12");
        assert_eq!(ok("float(2)"), "2.0");
        assert_eq!(ok("str(12) + str('a') + str(True)"), "'12aTrue'");
        assert_eq!(ok("9223372036854775807"), "9223372036854775807");
    }

    #[test]
    fn logic_and_comparisons() {
        assert_eq!(ok("WI * 512 <= 16384"), "True");
        assert_eq!(ok("1 < 2 < 3"), "True");
        assert_eq!(ok("1 < 3 < 2"), "False");
        assert_eq!(ok("1 == 1.0"), "True");
        assert_eq!(ok("'a' != 'b'"), "True");
        assert_eq!(ok("'a' < 'b'"), "True");
        assert_eq!(ok("[1, 2] < [1, 3]"), "True");
        assert_eq!(ok("1 == 'a'"), "False");
        assert_eq!(ok("3 in [1, 2, 3]"), "True");
        assert_eq!(ok("4 not in [1, 2, 3]"), "True");
        assert_eq!(ok("'fast' in '-cl-fast-relaxed-math'"), "True");
        assert_eq!(ok("not 0"), "True");
        assert_eq!(ok("not WI > 64"), "True");
        assert_eq!(ok("1 and 2"), "True");
        assert_eq!(ok("0 or ''"), "False");
        // Short-circuit: the division is never evaluated.
        assert_eq!(ok("False and 1/0"), "False");
        assert_eq!(ok("True or 1/0"), "True");
        assert_eq!(ok("1 if WI > 16 else 2"), "1");
        assert_eq!(ok("1 if WI > 64 else 2 if N > 10 else 3"), "2");
        assert_eq!(ok("1 + 2 == 3 and not 2 > 3 or False"), "True");
    }

    #[test]
    fn located_errors() {
        let d = err("1 + 10 // 0");
        assert_eq!(d.message, "integer division by zero");
        assert_eq!(d.span, Span::new(4, 11));
        let d = err("1 / 0.0");
        assert_eq!(d.message, "division by zero");
        let d = err("WI + 'a'");
        assert_eq!(d.message, "unsupported operand types for `+`: int and str");
        assert_eq!(d.span, Span::new(0, 8));
        let d = err("2 * WJ");
        assert_eq!(d.message, "unknown name `WJ`");
        assert_eq!(d.span, Span::new(4, 6));
        assert_eq!(d.help.as_deref(), Some("did you mean `WI`?"));
        let d = err("'a' < 1");
        assert!(
            d.message.contains("not supported between str and int"),
            "{}",
            d.message
        );
        let d = err("x = 'abc");
        assert!(d.message.starts_with("unexpected `=`"), "{}", d.message);
        let d = parse_expr("[1, 'abc", 10).unwrap_err();
        assert_eq!(d.message, "unterminated string literal");
        assert_eq!(d.span, Span::new(14, 15));
        let d = err("true");
        assert_eq!(d.help.as_deref(), Some("did you mean `True`?"));
        assert_eq!(d.span, Span::new(0, 4));
        let d = err("rang(3)");
        assert_eq!(d.message, "unknown function `rang`");
        assert_eq!(d.help.as_deref(), Some("did you mean `range`?"));
        let d = err("[1, 2");
        assert!(d.message.contains("expected `,` or `]`"), "{}", d.message);
        assert_eq!(d.span, Span::new(5, 5));
        let d = err("(1 + ");
        assert_eq!(d.message, "expected an expression, found end of input");
        assert!(err("9223372036854775807 + 1").message.contains("overflow"));
        assert!(err("2 ** 64").message.contains("overflow"));
        assert!(err("99999999999999999999").message.contains("does not fit"));
        assert!(err("-9223372036854775807 - 2").message.contains("overflow"));
        assert!(err("12abc").message.contains("invalid number literal"));
        assert!(err("1 && 2").help.as_deref() == Some("use `and`"));
        assert!(err("max([])").message.contains("empty"));
        assert!(err("len(3)").message.contains("len()"));
        assert!(err("[x for x in 3]").message.contains("iterate"));
        assert!(err("0 ** -1").message.contains("negative power"));
        assert!(err("é").message.contains("unexpected character"));
    }

    #[test]
    fn no_panic_on_hostile_input() {
        let deep = "(".repeat(100_000) + "1" + &")".repeat(100_000);
        assert!(err(&deep).message.contains("nested too deeply"));
        let long_chain = "1".to_string() + &"+1".repeat(100_000);
        assert!(err(&long_chain).message.contains("too deeply nested"));
        let minus = "-".repeat(100_000) + "1";
        assert!(ev(&minus).is_err());
        let nots = "not ".repeat(100_000) + "1";
        assert!(ev(&nots).is_err());
        assert!(ev("'ab' * 100000000").is_err());
        // Repeating nothing a huge number of times is immediate (it used to loop 2^63 times).
        assert_eq!(ok("'' * 0x7fffffffffffffff"), "''");
        assert_eq!(ok("[] * 9223372036854775807"), "[]");
        for s in [
            "", "(", ")", "[", "]", "'", "\"", "\\", "1e", "0x", "1.e5", "[for]", "a if b", "@",
            "1 2",
        ] {
            let _ = ev(s);
        }
        // Non-ASCII and odd bases.
        let _ = parse_expr("'日本' + x", 1 << 40);
    }

    #[test]
    fn keyword_args() {
        let src = "  (workGroups=WG, device=0,\n clFlags='-cl-mad-enable',) for (i=0;;) { 'x }";
        let (args, end) = parse_keyword_args(src, 100).unwrap();
        assert_eq!(&src[end..end + 4], " for");
        let names: Vec<&str> = args.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["workGroups", "device", "clFlags"]);
        assert_eq!(args[0].name_span, Span::new(103, 113));
        assert_eq!(
            args[2].expr.eval(&|_| None).unwrap(),
            Value::Str("-cl-mad-enable".into())
        );
        let (args, end) = parse_keyword_args("() rest", 0).unwrap();
        assert!(args.is_empty());
        assert_eq!(end, 2);
        let d = parse_keyword_args("(a=1 b=2)", 0).unwrap_err();
        assert!(
            d.message
                .contains("expected `,` or `)` after the value of `a`"),
            "{}",
            d.message
        );
        assert_eq!(d.span, Span::new(4, 4));
        let d = parse_keyword_args("(a=1, a=2)", 0).unwrap_err();
        assert_eq!(d.message, "duplicate keyword argument `a`");
        let d = parse_keyword_args("(a)", 0).unwrap_err();
        assert!(
            d.message.starts_with("expected `=` after `a`"),
            "{}",
            d.message
        );
        assert!(parse_keyword_args("x(a=1)", 0).is_err());
        assert!(parse_keyword_args("(a=1", 0).is_err());
    }
}
