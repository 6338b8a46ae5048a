//! Phase 1: the statements of a spec parsed into raw definitions, sections and recovery after
//! an error (at the next `;`, `}` or `def`).

use super::sections::{statement_list, Sec, NAME_KEYWORDS, STATEMENTS};
use super::{TuningSpec, SECTIONS};
use crate::diag::{did_you_mean, Diagnostic, Span};
use crate::expr::{Expr, Parser, Tok, Token};
use std::collections::{HashMap, HashSet};

/// What a name of the shared namespace names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NameKind {
    Let,
    PerfParam,
    InputParam,
}

impl NameKind {
    pub(super) fn describe(self) -> &'static str {
        match self {
            NameKind::Let => "a `let` binding",
            NameKind::PerfParam => "a performance parameter",
            NameKind::InputParam => "an input parameter",
        }
    }
}

/// `let NAME = EXPR;` parsed, not yet evaluated.
pub(super) struct RawLet {
    pub(super) name: String,
    pub(super) name_span: Span,
    pub(super) expr: Expr,
}

/// `param NAME[] = EXPR;` parsed, not yet evaluated.
pub(super) struct RawParam {
    pub(super) input: bool,
    pub(super) name: String,
    pub(super) name_span: Span,
    pub(super) span: Span,
    pub(super) bracketed: bool,
    pub(super) expr: Expr,
}

/// `arg NAME = EXPR;` parsed, not yet evaluated.
pub(super) struct RawArg {
    pub(super) sec: Sec,
    pub(super) name: String,
    pub(super) name_span: Span,
    pub(super) span: Span,
    pub(super) expr: Expr,
}

/// The spec parser: phase 1 ([`SpecParser::parse`]) collects raw definitions and every error,
/// phase 2 (`finish`, in `evaluate`) evaluates them.
pub(super) struct SpecParser<'a> {
    pub(super) p: Parser<'a>,
    pub(super) diags: Vec<Diagnostic>,
    pub(super) lets: Vec<RawLet>,
    pub(super) params: Vec<RawParam>,
    pub(super) args: Vec<RawArg>,
    /// Lets, performance params and input params share one namespace.
    pub(super) names: Vec<(String, NameKind, Span)>,
    /// Index of each name in `names` (specs may define many names: no linear searches).
    pub(super) name_index: HashMap<String, usize>,
    /// Names whose definition failed (already reported): uses of them are not reported again.
    pub(super) broken: HashSet<String>,
    pub(super) spec: TuningSpec,
}

pub(super) type PResult<T> = Result<T, Diagnostic>;

impl<'a> SpecParser<'a> {
    pub(super) fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Skip tokens (and unlexable characters) until `stop` matches the next token or the end.
    fn skip_until(&mut self, stop: impl Fn(&Token) -> bool, consume_semi: bool) {
        loop {
            match self.p.peek() {
                Ok(t) => {
                    if t.tok == Tok::Eof || stop(&t) {
                        return;
                    }
                    if consume_semi && t.is_sym(";") {
                        let _ = self.p.bump();
                        return;
                    }
                    if self.p.bump().is_err() {
                        return;
                    }
                }
                Err(_) => {
                    if !self.p.skip_char() {
                        return;
                    }
                }
            }
        }
    }

    /// Recover inside a section: up to and including the next `;`, or up to `}` / `def`.
    pub(super) fn skip_statement(&mut self) {
        self.skip_until(|t| t.is_sym("}") || t.is_ident("def"), true);
    }

    /// Recover at top level: up to the next `def` or `let`.
    fn skip_top(&mut self) {
        // Always make progress.
        if self.p.bump().is_err() {
            self.p.skip_char();
        }
        self.skip_until(|t| t.is_ident("def") || t.is_ident("let"), false);
    }

    pub(super) fn parse(&mut self) {
        loop {
            let t = match self.p.peek() {
                Ok(t) => t,
                Err(d) => {
                    self.error(d);
                    self.skip_top();
                    continue;
                }
            };
            match &t.tok {
                Tok::Eof => return,
                Tok::Ident(k) if k == "def" => self.section(),
                Tok::Ident(k) if k == "let" => {
                    if let Err(d) = self.let_stmt() {
                        self.error(d);
                        self.skip_statement();
                    }
                }
                Tok::Sym(";") => {
                    let _ = self.p.bump();
                }
                _ => {
                    let mut d = Diagnostic::new(
                        t.span,
                        format!(
                            "expected `def SECTION {{ ... }}` or `let NAME = EXPR;`, found {}",
                            self.p.describe(&t)
                        ),
                    );
                    if let Tok::Ident(w) = &t.tok {
                        if let Some(h) = did_you_mean(w, ["def", "let"]) {
                            d = d.with_help(h);
                        }
                    }
                    self.error(d);
                    self.skip_top();
                }
            }
        }
    }

    pub(super) fn ident(&mut self, what: &str) -> PResult<(String, Span)> {
        let t = self.p.peek()?;
        match &t.tok {
            Tok::Ident(n) if NAME_KEYWORDS.contains(&n.as_str()) => Err(Diagnostic::new(
                t.span,
                format!("`{n}` is a keyword and cannot be used as {what}"),
            )),
            Tok::Ident(n) => {
                self.p.bump()?;
                Ok((n.clone(), t.span))
            }
            _ => Err(Diagnostic::new(
                t.span,
                format!("expected {what}, found {}", self.p.describe(&t)),
            )),
        }
    }

    pub(super) fn expect_eq(&mut self, after: &str) -> PResult<()> {
        let t = self.p.peek()?;
        if t.is_sym("=") {
            self.p.bump()?;
            return Ok(());
        }
        let mut d = Diagnostic::new(
            t.span,
            format!("expected `=` after {after}, found {}", self.p.describe(&t)),
        );
        if t.is_sym("==") {
            d = d.with_help("use a single `=`");
        }
        Err(d)
    }

    /// Expect the `;` that ends a statement. A missing `;` is reported where it was expected (just
    /// after the statement) and the statement is kept. Returns the statement's absolute end.
    pub(super) fn end_statement(&mut self, after: &str) -> PResult<usize> {
        let t = self.p.peek()?;
        if t.is_sym(";") {
            self.p.bump()?;
            return Ok(t.span.end);
        }
        let end = self.p.prev_end();
        self.error(
            Diagnostic::new(
                Span::new(end, end),
                format!("expected `;` after {after}, found {}", self.p.describe(&t)),
            )
            .with_help("every statement ends with `;`"),
        );
        let starts_next = t.tok == Tok::Eof
            || t.is_sym("}")
            || matches!(&t.tok, Tok::Ident(k) if k == "def" || STATEMENTS.contains(&k.as_str()));
        if !starts_next {
            self.skip_statement();
        }
        Ok(end)
    }

    pub(super) fn define_name(&mut self, name: &str, span: Span, kind: NameKind) -> PResult<()> {
        if let Some((_, k, _)) = self.name_index.get(name).map(|&i| &self.names[i]) {
            let what = match kind {
                NameKind::Let => "`let` binding",
                NameKind::PerfParam | NameKind::InputParam => "parameter",
            };
            return Err(Diagnostic::new(span, format!("duplicate {what} `{name}`"))
                .with_help(format!("`{name}` is already defined as {}", k.describe())));
        }
        self.name_index.insert(name.to_string(), self.names.len());
        self.names.push((name.to_string(), kind, span));
        Ok(())
    }

    /// `def NAME { statement* }`. An unknown section is reported and its block skipped.
    pub(super) fn section(&mut self) {
        let Some((name, sec)) = self.section_header() else {
            return;
        };
        let Some(sec) = sec else {
            self.skip_block();
            return;
        };
        self.section_body(sec, &name);
    }

    /// `def NAME {`: the section's name and kind (`None`: unknown, already reported), or `None`
    /// when no `{` follows (reported, recovered at top level).
    fn section_header(&mut self) -> Option<(String, Option<Sec>)> {
        let _ = self.p.bump(); // def
        let (name, name_span) = match self.ident("a section name after `def`") {
            Ok(x) => x,
            Err(d) => {
                self.error(d);
                self.skip_top();
                return None;
            }
        };
        let sec = Sec::from_name(&name);
        if sec.is_none() {
            let mut d = Diagnostic::new(name_span, format!("unknown section `{name}`"));
            d = match did_you_mean(&name, SECTIONS.iter().copied()) {
                Some(h) => d.with_help(h),
                None => d.with_help(format!("the sections are {}", SECTIONS.join(", "))),
            };
            self.error(d);
        }
        match self.p.peek() {
            Ok(t) if t.is_sym("{") => {
                let _ = self.p.bump();
                Some((name, sec))
            }
            Ok(t) => {
                let end = self.p.prev_end();
                self.error(Diagnostic::new(
                    Span::new(end, end),
                    format!(
                        "expected `{{` after `def {name}`, found {}",
                        self.p.describe(&t)
                    ),
                ));
                self.skip_top();
                None
            }
            Err(d) => {
                self.error(d);
                self.skip_top();
                None
            }
        }
    }

    /// The statements of section `sec` (written `name`) up to its `}`; a missing `}` is reported
    /// at the end of input or before the next `def`.
    fn section_body(&mut self, sec: Sec, name: &str) {
        loop {
            let t = match self.p.peek() {
                Ok(t) => t,
                Err(d) => {
                    self.error(d);
                    self.skip_statement();
                    continue;
                }
            };
            match &t.tok {
                Tok::Sym("}") => {
                    let _ = self.p.bump();
                    return;
                }
                Tok::Sym(";") => {
                    let _ = self.p.bump();
                }
                Tok::Eof => {
                    let end = self.p.prev_end();
                    self.error(Diagnostic::new(
                        Span::new(end, end),
                        format!("expected `}}` to close section `{name}`, found end of input"),
                    ));
                    return;
                }
                Tok::Ident(k) if k == "def" => {
                    let end = self.p.prev_end();
                    self.error(Diagnostic::new(
                        Span::new(end, end),
                        format!("expected `}}` to close section `{name}`, found `def`"),
                    ));
                    return;
                }
                Tok::Ident(k) => {
                    if let Err(d) = self.statement(sec, name, k, t.span) {
                        self.error(d);
                        self.skip_statement();
                    }
                }
                _ => {
                    self.error(Diagnostic::new(
                        t.span,
                        format!(
                            "expected a statement ({}) or `}}`, found {}",
                            statement_list(sec.statements()),
                            self.p.describe(&t)
                        ),
                    ));
                    self.skip_statement();
                }
            }
        }
    }

    /// The statement starting with the word `k` (at `span`) in section `sec` (written `name`):
    /// an unknown statement, or one the section does not allow, is an error.
    fn statement(&mut self, sec: Sec, name: &str, k: &str, span: Span) -> PResult<()> {
        let allowed = sec.statements();
        if !STATEMENTS.contains(&k) {
            let mut d =
                Diagnostic::new(span, format!("unknown statement `{k}` in section `{name}`"));
            d = match did_you_mean(k, allowed.iter().copied()) {
                Some(h) => d.with_help(h),
                None => d.with_help(format!(
                    "section `{name}` accepts {}",
                    statement_list(allowed)
                )),
            };
            Err(d)
        } else if !allowed.contains(&k) {
            Err(Diagnostic::new(
                span,
                format!("`{k}` statements are not allowed in section `{name}`"),
            )
            .with_help(format!(
                "section `{name}` accepts {}",
                statement_list(allowed)
            )))
        } else {
            match k {
                "param" => self.param_stmt(sec),
                "constraint" => self.constraint_stmt(sec),
                "decl" => self.decl_stmt(),
                "arg" => self.arg_stmt(sec),
                _ => self.let_stmt(),
            }
        }
    }

    /// Skip the body of an unknown section up to its matching `}`.
    fn skip_block(&mut self) {
        let mut depth = 1usize;
        loop {
            match self.p.peek() {
                Ok(t) => {
                    if t.tok == Tok::Eof {
                        return;
                    }
                    if t.is_ident("def") && depth == 1 {
                        return; // most likely a missing `}`; the next section is parsed normally
                    }
                    if t.is_sym("{") {
                        depth += 1;
                    } else if t.is_sym("}") {
                        depth -= 1;
                    }
                    if self.p.bump().is_err() {
                        return;
                    }
                    if depth == 0 {
                        return;
                    }
                }
                Err(_) => {
                    if !self.p.skip_char() {
                        return;
                    }
                }
            }
        }
    }
}
