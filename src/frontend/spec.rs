//! The tuning specification inside `/*@ begin PerfTuning ( ... ) @*/` (DESIGN.md §1, "Tuning spec
//! sections"): `def SECTION { ... }` blocks of `param`, `constraint`, `decl` and `arg` statements,
//! and top-level `let` bindings.

use crate::diag::{did_you_mean, Diagnostic, Span};
use crate::expr::{Expr, ExprKind, Parser, Tok, Token, Value, EVAL_BUDGET, MAX_VALUE_DEPTH};
use std::collections::{HashMap, HashSet};
use std::time::Duration;

/// The whole parsed `PerfTuning` spec. Every span is an absolute byte range into the input file.
#[derive(Debug, Clone, Default)]
pub struct TuningSpec {
    /// Span of the text between `PerfTuning(` and the closing `)`.
    pub span: Span,
    /// `let NAME = EXPR;` at top level, in order; already evaluated.
    pub lets: Vec<Binding>,
    /// `param NAME[] = EXPR;` in `performance_params`: the axes of the search space.
    pub performance_params: Vec<ParamDecl>,
    /// `constraint NAME = EXPR;` in `performance_params` (and `input_params`): boolean expressions
    /// over performance params, input params and lets. Unevaluated (evaluated per configuration).
    pub constraints: Vec<ConstraintDecl>,
    /// `param NAME[] = EXPR;` in `input_params`: problem sizes.
    pub input_params: Vec<ParamDecl>,
    /// `constraint` statements of `input_params` (over input params only).
    pub input_constraints: Vec<ConstraintDecl>,
    /// `decl ...;` in `input_vars`.
    pub input_vars: Vec<VarDecl>,
    /// `arg decl_file` / `arg init_file` of `input_vars` (Orio): accepted, recorded.
    pub decl_file: Option<Located<String>>,
    pub init_file: Option<Located<String>>,
    pub build: BuildSpec,
    pub counter: CounterSpec,
    /// `def performance_test_code { arg skeleton_code_file = '...'; }`
    pub skeleton_code_file: Option<Located<String>>,
    pub search: SearchSpec,
    pub validation: ValidationSpec,
}

impl TuningSpec {
    /// The `let` bindings by name.
    pub fn let_values(&self) -> std::collections::BTreeMap<String, Value> {
        self.lets
            .iter()
            .map(|b| (b.name.clone(), b.value.clone()))
            .collect()
    }

    /// Lookup for input-size expressions (array dimensions, initial values): `input` (one input
    /// size's param values), then the lets.
    pub fn input_env<'a>(
        &'a self,
        input: &'a std::collections::BTreeMap<String, Value>,
    ) -> impl Fn(&str) -> Option<Value> + 'a {
        move |n: &str| {
            input.get(n).cloned().or_else(|| {
                self.lets
                    .iter()
                    .find(|b| b.name == n)
                    .map(|b| b.value.clone())
            })
        }
    }
}

/// A value with the span of the statement that gave it.
#[derive(Debug, Clone, PartialEq)]
pub struct Located<T> {
    pub value: T,
    pub span: Span,
}

/// `let NAME = EXPR;`
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    pub name: String,
    pub name_span: Span,
    pub value: Value,
}

/// `param NAME[] = EXPR;` with EXPR evaluated to a non-empty list of values of one type
/// (ints and floats may mix; bools, strings and numbers may not).
#[derive(Debug, Clone, PartialEq)]
pub struct ParamDecl {
    pub name: String,
    pub name_span: Span,
    /// Span of the whole statement.
    pub span: Span,
    /// Span of the value expression.
    pub values_span: Span,
    pub values: Vec<Value>,
}

/// `constraint NAME = EXPR;`
#[derive(Debug, Clone, PartialEq)]
pub struct ConstraintDecl {
    pub name: String,
    pub span: Span,
    pub expr: Expr,
}

/// How an input variable is stored in the timing skeleton: Orio's `static` (fixed-size array)
/// or `dynamic` (heap). orcl allocates on the heap either way; recorded for fidelity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Storage {
    #[default]
    Default,
    Static,
    Dynamic,
}

/// Initial value of an input variable.
#[derive(Debug, Clone, PartialEq)]
pub enum VarInit {
    /// `random`: seeded pseudo-random, reproducible (floating: uniform in [0,1); integers: in [0,100)).
    Random,
    /// A constant expression over input params and lets, e.g. `0`, `N`, `2.5`.
    Expr(Expr),
    /// An array's brace initialiser, one expression over input params and lets per element, as
    /// in C and Orio's matVec2D: `{-M*DOF, -DOF, 0, DOF, M*DOF}`. Its length must equal the
    /// declared element count at every input size (checked by `crate::inputs::array_elems`); the span
    /// covers the braces.
    List(Vec<Expr>, Span),
}

/// `decl [static|dynamic] TYPE NAME[dim]... = INIT;`
#[derive(Debug, Clone, PartialEq)]
pub struct VarDecl {
    pub storage: Storage,
    /// C type name as written: `int`, `long`, `float`, `double` (also `unsigned int` etc. are rejected).
    pub ty: String,
    pub ty_span: Span,
    pub name: String,
    pub name_span: Span,
    /// Array dimensions, outermost first (`x[N]` → `[N]`, `A[N][M]` → `[N, M]`); empty for a scalar.
    pub dims: Vec<Expr>,
    pub init: VarInit,
    /// Span of the whole statement.
    pub span: Span,
}

/// `def build { ... }`
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BuildSpec {
    pub build_command: Option<Located<String>>,
    pub libs: Option<Located<String>>,
    pub prebuild_command: Option<Located<String>>,
    pub postbuild_command: Option<Located<String>>,
    /// Orio's cluster arguments `batch_command`, `status_command`, `num_procs` (their names),
    /// accepted and not used: orcl runs on a cluster with `orcl tune --slurm` (compat warning).
    pub orio_batch: Vec<Located<String>>,
}

/// `def performance_counter { ... }`
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CounterSpec {
    /// Timed repetitions per variant (> 0).
    pub repetitions: Option<Located<i64>>,
    /// Orio's `method` (e.g. `'basic timer'`): accepted and recorded; orcl always times with events.
    pub method: Option<Located<String>>,
    /// Untimed warm-up runs before the timed ones (>= 0). orcl extension.
    pub warmups: Option<Located<i64>>,
    /// Per-variant timeout (orcl extension): `'30s'`, `'2m'`, bare number = seconds.
    pub timeout: Option<Located<Duration>>,
    /// `'kernel'` (default) or `'total'` (kernel + transfers).
    pub objective: Option<Located<String>>,
}

/// `def search { ... }`
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchSpec {
    pub algorithm: Option<Located<String>>,
    /// Budget: configurations actually measured (> 0).
    pub total_runs: Option<Located<i64>>,
    /// Budget: wall time. `'90s'`, `'5m'`, `'1h'`; a bare number is minutes (Orio).
    pub time_limit: Option<Located<Duration>>,
    pub seed: Option<Located<u64>>,
    /// `arg <algorithm>_<option> = EXPR;` evaluated, in order (validated by the strategy).
    pub options: Vec<(String, Located<Value>)>,
}

/// `def validation { ... }`
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValidationSpec {
    /// Relative tolerance (> 0). Default: 1e-9 for double outputs, 1e-4 for float.
    pub tolerance: Option<Located<f64>>,
    /// Orio's `validation_file`: accepted and recorded.
    pub validation_file: Option<Located<String>>,
}

// ---------------------------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------------------------

/// The sections of a spec, as written after `def`.
pub const SECTIONS: &[&str] = &[
    "performance_params",
    "input_params",
    "input_vars",
    "build",
    "performance_counter",
    "performance_test_code",
    "search",
    "validation",
];

/// Arguments of `def search` other than `<algorithm>_<option>`.
pub const SEARCH_ARGS: &[&str] = &["algorithm", "total_runs", "time_limit", "seed"];

/// Element types of `decl`.
pub const VAR_TYPES: &[&str] = &["int", "long", "float", "double"];

const STATEMENTS: &[&str] = &["param", "constraint", "decl", "arg", "let"];
const NAME_KEYWORDS: &[&str] = &[
    "and", "or", "not", "if", "else", "for", "in", "True", "False", "random",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sec {
    PerfParams,
    InputParams,
    InputVars,
    Build,
    Counter,
    TestCode,
    Search,
    Validation,
}

impl Sec {
    fn from_name(s: &str) -> Option<Sec> {
        Some(match s {
            "performance_params" => Sec::PerfParams,
            "input_params" => Sec::InputParams,
            "input_vars" => Sec::InputVars,
            "build" => Sec::Build,
            "performance_counter" => Sec::Counter,
            "performance_test_code" => Sec::TestCode,
            "search" => Sec::Search,
            "validation" => Sec::Validation,
            _ => return None,
        })
    }
    fn name(self) -> &'static str {
        match self {
            Sec::PerfParams => "performance_params",
            Sec::InputParams => "input_params",
            Sec::InputVars => "input_vars",
            Sec::Build => "build",
            Sec::Counter => "performance_counter",
            Sec::TestCode => "performance_test_code",
            Sec::Search => "search",
            Sec::Validation => "validation",
        }
    }
    /// Statement kinds allowed in the section (`let` is allowed everywhere, as in Orio).
    fn statements(self) -> &'static [&'static str] {
        match self {
            Sec::PerfParams | Sec::InputParams => &["param", "constraint", "let"],
            Sec::InputVars => &["decl", "arg", "let"],
            _ => &["arg", "let"],
        }
    }
    fn args(self) -> &'static [&'static str] {
        match self {
            Sec::PerfParams | Sec::InputParams => &[],
            Sec::InputVars => &["decl_file", "init_file"],
            Sec::Build => &[
                "build_command",
                "libs",
                "prebuild_command",
                "postbuild_command",
                "batch_command",
                "status_command",
                "num_procs",
            ],
            Sec::Counter => &["repetitions", "method", "warmups", "timeout", "objective"],
            Sec::TestCode => &["skeleton_code_file"],
            Sec::Search => SEARCH_ARGS,
            Sec::Validation => &["tolerance", "validation_file"],
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NameKind {
    Let,
    PerfParam,
    InputParam,
}

impl NameKind {
    fn describe(self) -> &'static str {
        match self {
            NameKind::Let => "a `let` binding",
            NameKind::PerfParam => "a performance parameter",
            NameKind::InputParam => "an input parameter",
        }
    }
}

struct RawLet {
    name: String,
    name_span: Span,
    expr: Expr,
}

struct RawParam {
    input: bool,
    name: String,
    name_span: Span,
    span: Span,
    bracketed: bool,
    expr: Expr,
}

struct RawArg {
    sec: Sec,
    name: String,
    name_span: Span,
    span: Span,
    expr: Expr,
}

struct SpecParser<'a> {
    p: Parser<'a>,
    diags: Vec<Diagnostic>,
    lets: Vec<RawLet>,
    params: Vec<RawParam>,
    args: Vec<RawArg>,
    /// Lets, performance params and input params share one namespace.
    names: Vec<(String, NameKind, Span)>,
    /// Index of each name in `names` (specs may define many names: no linear searches).
    name_index: HashMap<String, usize>,
    /// Names whose definition failed (already reported): uses of them are not reported again.
    broken: HashSet<String>,
    spec: TuningSpec,
}

type PResult<T> = Result<T, Diagnostic>;

/// The names an expression may use: in order (for messages) and as a set (for lookups, so that
/// a spec with many names is checked in linear time).
#[derive(Default)]
struct Names<'s> {
    list: Vec<&'s str>,
    set: HashSet<&'s str>,
}

impl<'s> Names<'s> {
    fn push(&mut self, n: &'s str) {
        if self.set.insert(n) {
            self.list.push(n);
        }
    }
    fn contains(&self, n: &str) -> bool {
        self.set.contains(n)
    }
}

impl<'s> FromIterator<&'s str> for Names<'s> {
    fn from_iter<I: IntoIterator<Item = &'s str>>(it: I) -> Self {
        let mut n = Names::default();
        for x in it {
            n.push(x);
        }
        n
    }
}

impl<'a> SpecParser<'a> {
    fn error(&mut self, d: Diagnostic) {
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
    fn skip_statement(&mut self) {
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

    fn parse(&mut self) {
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

    fn ident(&mut self, what: &str) -> PResult<(String, Span)> {
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

    fn expect_eq(&mut self, after: &str) -> PResult<()> {
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
    fn end_statement(&mut self, after: &str) -> PResult<usize> {
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

    fn define_name(&mut self, name: &str, span: Span, kind: NameKind) -> PResult<()> {
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

    fn section(&mut self) {
        let _ = self.p.bump(); // def
        let (name, name_span) = match self.ident("a section name after `def`") {
            Ok(x) => x,
            Err(d) => {
                self.error(d);
                self.skip_top();
                return;
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
                return;
            }
            Err(d) => {
                self.error(d);
                self.skip_top();
                return;
            }
        }
        let Some(sec) = sec else {
            self.skip_block();
            return;
        };
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
                    let allowed = sec.statements();
                    let r = if !STATEMENTS.contains(&k.as_str()) {
                        let mut d = Diagnostic::new(
                            t.span,
                            format!("unknown statement `{k}` in section `{name}`"),
                        );
                        d = match did_you_mean(k, allowed.iter().copied()) {
                            Some(h) => d.with_help(h),
                            None => d.with_help(format!(
                                "section `{name}` accepts {}",
                                statement_list(allowed)
                            )),
                        };
                        Err(d)
                    } else if !allowed.contains(&k.as_str()) {
                        Err(Diagnostic::new(
                            t.span,
                            format!("`{k}` statements are not allowed in section `{name}`"),
                        )
                        .with_help(format!(
                            "section `{name}` accepts {}",
                            statement_list(allowed)
                        )))
                    } else {
                        match k.as_str() {
                            "param" => self.param_stmt(sec),
                            "constraint" => self.constraint_stmt(sec),
                            "decl" => self.decl_stmt(),
                            "arg" => self.arg_stmt(sec),
                            _ => self.let_stmt(),
                        }
                    };
                    if let Err(d) = r {
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

    fn let_stmt(&mut self) -> PResult<()> {
        self.p.bump()?; // let
        let (name, name_span) = self.ident("a name after `let`")?;
        self.define_name(&name, name_span, NameKind::Let)?;
        self.expect_eq(&format!("`let {name}`"))?;
        let expr = self.p.expression()?;
        self.end_statement(&format!("the value of `{name}`"))?;
        self.lets.push(RawLet {
            name,
            name_span,
            expr,
        });
        Ok(())
    }

    fn param_stmt(&mut self, sec: Sec) -> PResult<()> {
        let kw = self.p.bump()?;
        let (name, name_span) = self.ident("a parameter name after `param`")?;
        let input = sec == Sec::InputParams;
        let kind = if input {
            NameKind::InputParam
        } else {
            NameKind::PerfParam
        };
        self.define_name(&name, name_span, kind)?;
        let mut bracketed = false;
        if self.p.eat_sym("[")? {
            let t = self.p.peek()?;
            if !t.is_sym("]") {
                return Err(Diagnostic::new(
                    t.span,
                    format!(
                        "expected `]` in `param {name}[]`, found {}",
                        self.p.describe(&t)
                    ),
                )
                .with_help(format!(
                    "parameters are declared as `param {name}[] = [v1, v2, ...];`"
                )));
            }
            self.p.bump()?;
            bracketed = true;
        }
        let decl = if bracketed {
            format!("`param {name}[]`")
        } else {
            format!("`param {name}`")
        };
        self.expect_eq(&decl)?;
        let expr = self.p.expression()?;
        let end = self.end_statement(&format!("the values of parameter `{name}`"))?;
        self.params.push(RawParam {
            input,
            name,
            name_span,
            span: Span::new(kw.span.start, end),
            bracketed,
            expr,
        });
        Ok(())
    }

    fn constraint_stmt(&mut self, sec: Sec) -> PResult<()> {
        let kw = self.p.bump()?;
        let (name, name_span) = self.ident("a constraint name after `constraint`")?;
        self.expect_eq(&format!("`constraint {name}`"))?;
        let expr = self.p.expression()?;
        let end = self.end_statement(&format!("constraint `{name}`"))?;
        let all = self
            .spec
            .constraints
            .iter()
            .chain(&self.spec.input_constraints);
        if all.into_iter().any(|c| c.name == name) {
            return Err(Diagnostic::new(
                name_span,
                format!("duplicate constraint `{name}`"),
            ));
        }
        let c = ConstraintDecl {
            name,
            span: Span::new(kw.span.start, end),
            expr,
        };
        if sec == Sec::InputParams {
            self.spec.input_constraints.push(c);
        } else {
            self.spec.constraints.push(c);
        }
        Ok(())
    }

    fn decl_stmt(&mut self) -> PResult<()> {
        let kw = self.p.bump()?;
        let mut storage = Storage::Default;
        let t = self.p.peek()?;
        if t.is_ident("static") {
            storage = Storage::Static;
            self.p.bump()?;
        } else if t.is_ident("dynamic") {
            storage = Storage::Dynamic;
            self.p.bump()?;
        }
        let t = self.p.peek()?;
        let ty = match &t.tok {
            Tok::Ident(ty) if VAR_TYPES.contains(&ty.as_str()) => ty.clone(),
            Tok::Ident(ty) => {
                let mut d = Diagnostic::new(
                    t.span,
                    format!("unsupported type `{ty}` in `decl`: input variables are int, long, float or double"),
                );
                if let Some(h) = did_you_mean(ty, VAR_TYPES.iter().copied()) {
                    d = d.with_help(h);
                }
                return Err(d);
            }
            _ => {
                return Err(Diagnostic::new(
                    t.span,
                    format!(
                        "expected a type (int, long, float, double) after `decl`, found {}",
                        self.p.describe(&t)
                    ),
                ))
            }
        };
        let ty_span = t.span;
        self.p.bump()?;
        let (name, name_span) = self.ident("a variable name")?;
        let mut dims = Vec::new();
        while self.p.peek()?.is_sym("[") {
            let open = self.p.bump()?;
            if self.p.peek()?.is_sym("]") {
                return Err(Diagnostic::new(
                    open.span,
                    format!("missing array dimension in `{name}[]`"),
                )
                .with_help(format!("give the size, e.g. `{name}[N]`")));
            }
            dims.push(self.p.expression()?);
            self.p.expect_sym("]", "`]` to close the array dimension")?;
        }
        self.expect_eq(&format!(
            "`decl {ty} {name}` (give an initial value: `random`, `0` or an expression)"
        ))?;
        let init = if self.p.peek()?.is_sym("{") {
            let open = self.p.bump()?;
            let mut items = Vec::new();
            while !self.p.peek()?.is_sym("}") {
                items.push(self.p.expression()?);
                if !self.p.peek()?.is_sym("}") {
                    self.p
                        .expect_sym(",", "`,` or `}` in the brace initialiser")?;
                }
            }
            let close = self.p.bump()?;
            let span = open.span.to(close.span);
            if dims.is_empty() {
                return Err(Diagnostic::new(
                    span,
                    format!("`{name}` is a scalar: a brace initialiser needs an array"),
                )
                .with_help(format!(
                    "declare it as an array, e.g. `{name}[{}]`",
                    items.len().max(1)
                )));
            }
            if items.is_empty() {
                return Err(Diagnostic::new(span, "empty brace initialiser")
                    .with_help("list one value per element, e.g. `{0, 1, 2}`"));
            }
            VarInit::List(items, span)
        } else {
            let expr = self.p.expression()?;
            match &expr.kind {
                ExprKind::Name(n) if n == "random" => VarInit::Random,
                _ => VarInit::Expr(expr),
            }
        };
        let end = self.end_statement(&format!("the declaration of `{name}`"))?;
        if self.spec.input_vars.iter().any(|v| v.name == name) {
            return Err(Diagnostic::new(
                name_span,
                format!("duplicate input variable `{name}`"),
            ));
        }
        self.spec.input_vars.push(VarDecl {
            storage,
            ty,
            ty_span,
            name,
            name_span,
            dims,
            init,
            span: Span::new(kw.span.start, end),
        });
        Ok(())
    }

    fn arg_stmt(&mut self, sec: Sec) -> PResult<()> {
        let kw = self.p.bump()?;
        let (name, name_span) = self.ident("an argument name after `arg`")?;
        let known = sec.args();
        let is_option = sec == Sec::Search && !known.contains(&name.as_str()) && name.contains('_');
        if !known.contains(&name.as_str()) {
            let hint = did_you_mean(&name, known.iter().copied());
            // `<algorithm>_<option>` unless it looks like a typo of a search argument.
            if !(is_option && hint.is_none()) {
                let mut d = Diagnostic::new(
                    name_span,
                    format!("unknown argument `{name}` in section `{}`", sec.name()),
                );
                d = match hint {
                    Some(h) => d.with_help(h),
                    None if known.is_empty() => d.with_help(format!(
                        "section `{}` takes no `arg` statements",
                        sec.name()
                    )),
                    None if sec == Sec::Search => d.with_help(format!(
                        "section `search` accepts {} and `<algorithm>_<option>`",
                        quoted_list(known)
                    )),
                    None => d.with_help(format!(
                        "section `{}` accepts {}",
                        sec.name(),
                        quoted_list(known)
                    )),
                };
                return Err(d);
            }
        }
        self.expect_eq(&format!("`arg {name}`"))?;
        let expr = self.p.expression()?;
        let end = self.end_statement(&format!("the value of `{name}`"))?;
        if self.args.iter().any(|a| a.sec == sec && a.name == name) {
            return Err(Diagnostic::new(
                name_span,
                format!("duplicate argument `{name}` in section `{}`", sec.name()),
            ));
        }
        self.args.push(RawArg {
            sec,
            name,
            name_span,
            span: Span::new(kw.span.start, end),
            expr,
        });
        Ok(())
    }

    // -----------------------------------------------------------------------------------------
    // Phase 2: evaluation and name checks
    // -----------------------------------------------------------------------------------------

    fn finish(&mut self) {
        // Names defined by statements that failed to parse.
        let parsed: HashSet<&str> = self
            .lets
            .iter()
            .map(|l| l.name.as_str())
            .chain(self.params.iter().map(|p| p.name.as_str()))
            .collect();
        self.broken = self
            .names
            .iter()
            .map(|(n, _, _)| n)
            .filter(|n| !parsed.contains(n.as_str()))
            .cloned()
            .collect();
        // Lets, in order: each sees the lets before it. Their values together hold at most
        // EVAL_BUDGET elements and nest at most MAX_VALUE_DEPTH lists deep.
        let mut lets: Vec<Binding> = Vec::new();
        let mut let_index: HashMap<String, usize> = HashMap::new();
        let mut known = Names::default();
        let mut held = 0u64;
        let raw_lets = std::mem::take(&mut self.lets);
        for l in &raw_lets {
            let r = self
                .check_names(
                    &l.expr,
                    &known,
                    &format!("the value of `{}`", l.name),
                    |_| Some("`let` values may use only the `let` bindings before them"),
                )
                .and_then(|ok| {
                    ok.then(|| {
                        l.expr.eval_with_names(
                            &|n| let_index.get(n).map(|&i| lets[i].value.clone()),
                            &known.list,
                        )
                    })
                    .transpose()
                })
                .and_then(|v| {
                    let Some(v) = v else { return Ok(None) };
                    let (elements, depth) = v.weight();
                    if depth > MAX_VALUE_DEPTH {
                        return Err(Diagnostic::new(
                            l.expr.span,
                            format!("the value of `{}` nests lists {depth} deep; at most {MAX_VALUE_DEPTH} levels are allowed", l.name),
                        ));
                    }
                    held += elements;
                    if held > EVAL_BUDGET {
                        return Err(Diagnostic::new(
                            l.expr.span,
                            format!("the `let` values up to `{}` hold more than {EVAL_BUDGET} elements together", l.name),
                        )
                        .with_help("use smaller lists (a parameter's values are its list, not a `let`)"));
                    }
                    Ok(Some(v))
                });
            match r {
                Ok(Some(value)) => {
                    let_index.insert(l.name.clone(), lets.len());
                    known.push(&l.name);
                    lets.push(Binding {
                        name: l.name.clone(),
                        name_span: l.name_span,
                        value,
                    });
                }
                Ok(None) => {
                    self.broken.insert(l.name.clone());
                }
                Err(d) => {
                    self.error(d);
                    self.broken.insert(l.name.clone());
                }
            }
        }
        let let_refs = known;
        let env = |n: &str| let_index.get(n).map(|&i| lets[i].value.clone());

        // Params.
        for rp in std::mem::take(&mut self.params) {
            let r = self
                .check_names(
                    &rp.expr,
                    &let_refs,
                    &format!("parameter `{}`", rp.name),
                    |_| Some("parameter values may use only `let` bindings"),
                )
                .and_then(|ok| {
                    ok.then(|| {
                        rp.expr
                            .eval_with_names(&env, &let_refs.list)
                            .and_then(|v| param_values(&rp, v))
                    })
                    .transpose()
                });
            match r {
                Ok(Some(values)) => {
                    let decl = ParamDecl {
                        name: rp.name.clone(),
                        name_span: rp.name_span,
                        span: rp.span,
                        values_span: rp.expr.span,
                        values,
                    };
                    if rp.input {
                        self.spec.input_params.push(decl);
                    } else {
                        self.spec.performance_params.push(decl);
                    }
                }
                Ok(None) => {
                    self.broken.insert(rp.name.clone());
                }
                Err(d) => {
                    self.error(d);
                    self.broken.insert(rp.name.clone());
                }
            }
        }

        // Args.
        for ra in std::mem::take(&mut self.args) {
            let r = self
                .check_names(&ra.expr, &let_refs, &format!("`arg {}`", ra.name), |_| {
                    Some("argument values may use only `let` bindings")
                })
                .and_then(|ok| {
                    if !ok {
                        return Ok(());
                    }
                    let v = ra.expr.eval_with_names(&env, &let_refs.list)?;
                    apply_arg(&mut self.spec, &ra, v)
                });
            if let Err(d) = r {
                self.error(d);
            }
        }

        // Names used by constraints and input variables.
        let perf: Vec<&str> = self
            .names
            .iter()
            .filter(|(_, k, _)| *k == NameKind::PerfParam)
            .map(|(n, _, _)| n.as_str())
            .collect();
        let input: Vec<&str> = self
            .names
            .iter()
            .filter(|(_, k, _)| *k == NameKind::InputParam)
            .map(|(n, _, _)| n.as_str())
            .collect();
        let all: Names = perf
            .iter()
            .chain(&input)
            .chain(&let_refs.list)
            .copied()
            .collect();
        let inputs_lets: Names = input.iter().chain(&let_refs.list).copied().collect();
        let mut errs = Vec::new();
        for c in &self.spec.constraints {
            if let Err(d) =
                self.check_names(&c.expr, &all, &format!("constraint `{}`", c.name), |_| None)
            {
                errs.push(d);
            }
        }
        for c in &self.spec.input_constraints {
            if let Err(d) = self.check_names(
                &c.expr,
                &inputs_lets,
                &format!("input constraint `{}`", c.name),
                |n| {
                    perf.contains(&n).then_some(
                        "input constraints may use only input parameters and `let` bindings",
                    )
                },
            ) {
                errs.push(d);
            }
        }
        for v in &self.spec.input_vars {
            let exprs = v.dims.iter().chain(match &v.init {
                VarInit::Expr(e) => std::slice::from_ref(e),
                VarInit::List(items, _) => items.as_slice(),
                VarInit::Random => &[],
            });
            for e in exprs {
                if let Err(d) = self.check_names(
                    e,
                    &inputs_lets,
                    &format!("input variable `{}`", v.name),
                    |n| {
                        perf.contains(&n).then_some(
                            "input variables may use only input parameters and `let` bindings",
                        )
                    },
                ) {
                    errs.push(d);
                }
            }
        }
        self.diags.extend(errs);
        self.spec.lets = lets;
    }

    /// Every free name of `e` must be in `allowed`; else an error at the name, with a suggestion,
    /// or with `why(name)` when the name exists but may not be used here. `Ok(false)`: `e` uses
    /// a name whose definition failed (already reported), so `e` is to be skipped silently.
    fn check_names(
        &self,
        e: &Expr,
        allowed: &Names,
        context: &str,
        why: impl Fn(&str) -> Option<&'static str>,
    ) -> PResult<bool> {
        for (n, span) in e.free_names() {
            if allowed.contains(&n) {
                continue;
            }
            if self.broken.contains(&n) {
                return Ok(false);
            }
            let defined = self.name_index.get(&n).map(|&i| &self.names[i]);
            let mut d = Diagnostic::new(span, format!("unknown name `{n}` in {context}"));
            if let Some((_, kind, _)) = defined {
                d = Diagnostic::new(
                    span,
                    format!("`{n}` ({}) cannot be used in {context}", kind.describe()),
                );
                if let Some(w) = why(&n) {
                    d = d.with_help(w);
                }
            } else if n == "random" {
                d = d.with_help("`random` is only an initial value of `decl` statements");
            } else if let Some(h) = did_you_mean(&n, allowed.list.iter().copied()) {
                d = d.with_help(h);
            } else if !allowed.list.is_empty() {
                d = d.with_help(format!(
                    "{context} may use {}",
                    allowed
                        .list
                        .iter()
                        .map(|a| format!("`{a}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            return Err(d);
        }
        Ok(true)
    }
}

fn statement_list(allowed: &[&str]) -> String {
    quoted_list(allowed) + " statements"
}

fn quoted_list(items: &[&str]) -> String {
    let q: Vec<String> = items.iter().map(|s| format!("`{s}`")).collect();
    match q.len() {
        0 => String::new(),
        1 => q[0].clone(),
        n => format!("{} and {}", q[..n - 1].join(", "), q[n - 1]),
    }
}

fn type_class(v: &Value) -> &'static str {
    match v {
        Value::Int(_) | Value::Float(_) => "number",
        other => other.type_name(),
    }
}

/// Validate a parameter's evaluated value: a non-empty list of distinct values of one type.
fn param_values(rp: &RawParam, v: Value) -> PResult<Vec<Value>> {
    let values = match (rp.bracketed, v) {
        (true, Value::List(l)) => l,
        (true, other) => {
            return Err(Diagnostic::new(
                rp.expr.span,
                format!(
                    "parameter `{}` needs a list of values, found {} {other}",
                    rp.name,
                    other.type_name()
                ),
            )
            .with_help(format!("write `[{other}]` for a single value")))
        }
        (false, Value::List(_)) => {
            return Err(Diagnostic::new(
                rp.name_span,
                format!(
                    "`param {}` without `[]` declares a single value, but the value is a list",
                    rp.name
                ),
            )
            .with_help(format!("write `param {}[] = ...;`", rp.name)))
        }
        (false, other) => vec![other],
    };
    if values.is_empty() {
        return Err(Diagnostic::new(
            rp.expr.span,
            format!("parameter `{}` has no values", rp.name),
        ));
    }
    // Span of element k when the value is written as a list literal.
    let elem_span = |k: usize| match &rp.expr.kind {
        ExprKind::List(items) if items.len() == values.len() => items[k].span,
        _ => rp.expr.span,
    };
    let first = type_class(&values[0]);
    for (k, v) in values.iter().enumerate().skip(1) {
        if type_class(v) != first {
            return Err(Diagnostic::new(
                elem_span(k),
                format!(
                    "mixed-type list: value {v} of parameter `{}` has type {}, but its first value {} has type {}",
                    rp.name,
                    v.type_name(),
                    values[0],
                    values[0].type_name()
                ),
            )
            .with_help("the values of a parameter must all have one type (ints and floats may mix)"));
        }
    }
    let mut seen = std::collections::HashSet::new();
    for (k, v) in values.iter().enumerate() {
        if !seen.insert(v.eq_key()) {
            return Err(Diagnostic::new(
                elem_span(k),
                format!("duplicate value {v} in parameter `{}`", rp.name),
            ));
        }
    }
    Ok(values)
}

fn want_str(name: &str, v: Value, span: Span) -> PResult<String> {
    match v {
        Value::Str(s) => Ok(s),
        other => Err(Diagnostic::new(
            span,
            format!("`{name}` must be a string, found {other}"),
        )),
    }
}

fn want_int(name: &str, v: &Value, span: Span, min: i64) -> PResult<i64> {
    match v {
        Value::Int(i) if *i >= min => Ok(*i),
        other => {
            let what = if min > 0 {
                "a positive integer"
            } else {
                "a non-negative integer"
            };
            Err(Diagnostic::new(
                span,
                format!("`{name}` must be {what}, found {other}"),
            ))
        }
    }
}

/// Parse a duration: a number, or a string `'<number>[unit]'` with unit `ms`, `s`, `m`/`min`, `h`.
/// A number without a unit is in `bare_unit` seconds. Must be positive.
pub fn parse_duration(v: &Value, bare_unit: f64) -> Option<Duration> {
    let secs = match v {
        Value::Int(i) => *i as f64 * bare_unit,
        Value::Float(f) => f * bare_unit,
        Value::Str(s) => {
            let s = s.trim();
            let split = s
                .find(|c: char| {
                    !(c.is_ascii_digit()
                        || c == '.'
                        || c == '+'
                        || c == 'e'
                        || c == 'E'
                        || c == '-')
                })
                .unwrap_or(s.len());
            // `e` can start a unit only in no unit we know, so a number like `1e3` is kept whole.
            let (num, unit) = s.split_at(split);
            let x: f64 = num.trim().parse().ok()?;
            let mult = match unit.trim() {
                "" => bare_unit,
                "ms" => 0.001,
                "s" | "sec" | "secs" | "second" | "seconds" => 1.0,
                "m" | "min" | "mins" | "minute" | "minutes" => 60.0,
                "h" | "hr" | "hrs" | "hour" | "hours" => 3600.0,
                _ => return None,
            };
            x * mult
        }
        _ => return None,
    };
    if !(secs.is_finite() && secs > 0.0) {
        return None;
    }
    Duration::try_from_secs_f64(secs).ok()
}

fn want_duration(name: &str, v: &Value, span: Span, bare_unit: f64) -> PResult<Duration> {
    parse_duration(v, bare_unit).ok_or_else(|| {
        let bare = if bare_unit == 60.0 { "minutes" } else { "seconds" };
        Diagnostic::new(
            span,
            format!("`{name}` must be a positive duration such as '90s', '5m' or '1h' (a bare number is {bare}), found {v}"),
        )
    })
}

fn apply_arg(spec: &mut TuningSpec, ra: &RawArg, v: Value) -> PResult<()> {
    let vs = ra.expr.span;
    let name = ra.name.as_str();
    let loc = |value| Located {
        value,
        span: ra.span,
    };
    let s = |v: Value| {
        want_str(name, v, vs).map(|x| Located {
            value: x,
            span: ra.span,
        })
    };
    match (ra.sec, name) {
        (Sec::InputVars, "decl_file") => spec.decl_file = Some(s(v)?),
        (Sec::InputVars, "init_file") => spec.init_file = Some(s(v)?),
        (Sec::Build, "build_command") => spec.build.build_command = Some(s(v)?),
        (Sec::Build, "libs") => spec.build.libs = Some(s(v)?),
        (Sec::Build, "prebuild_command") => spec.build.prebuild_command = Some(s(v)?),
        (Sec::Build, "postbuild_command") => spec.build.postbuild_command = Some(s(v)?),
        (Sec::Build, "batch_command" | "status_command" | "num_procs") => {
            spec.build.orio_batch.push(Located {
                value: name.to_string(),
                span: ra.span,
            })
        }
        (Sec::Counter, "repetitions") => {
            spec.counter.repetitions = Some(loc(want_int(name, &v, vs, 1)?))
        }
        (Sec::Counter, "method") => spec.counter.method = Some(s(v)?),
        (Sec::Counter, "warmups") => spec.counter.warmups = Some(loc(want_int(name, &v, vs, 0)?)),
        (Sec::Counter, "timeout") => {
            spec.counter.timeout = Some(Located {
                value: want_duration(name, &v, vs, 1.0)?,
                span: ra.span,
            })
        }
        (Sec::Counter, "objective") => {
            let o = want_str(name, v, vs)?;
            if o != "kernel" && o != "total" {
                let mut d = Diagnostic::new(
                    vs,
                    format!("`objective` must be 'kernel' or 'total', found '{o}'"),
                );
                if let Some(h) = did_you_mean(&o, ["kernel", "total"]) {
                    d = d.with_help(h);
                }
                return Err(d);
            }
            spec.counter.objective = Some(Located {
                value: o,
                span: ra.span,
            });
        }
        (Sec::TestCode, "skeleton_code_file") => spec.skeleton_code_file = Some(s(v)?),
        (Sec::Search, "algorithm") => spec.search.algorithm = Some(s(v)?),
        (Sec::Search, "total_runs") => {
            spec.search.total_runs = Some(loc(want_int(name, &v, vs, 1)?))
        }
        (Sec::Search, "time_limit") => {
            spec.search.time_limit = Some(Located {
                value: want_duration(name, &v, vs, 60.0)?,
                span: ra.span,
            })
        }
        (Sec::Search, "seed") => {
            let i = want_int(name, &v, vs, 0)?;
            spec.search.seed = Some(Located {
                value: i as u64,
                span: ra.span,
            });
        }
        (Sec::Search, _) => spec.search.options.push((
            ra.name.clone(),
            Located {
                value: v,
                span: ra.span,
            },
        )),
        (Sec::Validation, "tolerance") => {
            let t = match v {
                Value::Int(i) if i > 0 => i as f64,
                Value::Float(f) if f > 0.0 && f.is_finite() => f,
                other => {
                    return Err(Diagnostic::new(
                        vs,
                        format!("`tolerance` must be a positive number, found {other}"),
                    ))
                }
            };
            spec.validation.tolerance = Some(Located {
                value: t,
                span: ra.span,
            });
        }
        (Sec::Validation, "validation_file") => spec.validation.validation_file = Some(s(v)?),
        _ => {
            return Err(Diagnostic::new(
                ra.name_span,
                format!("unknown argument `{name}` in section `{}`", ra.sec.name()),
            ))
        }
    }
    Ok(())
}

/// Parse the tuning spec `src`: the text between `PerfTuning(` and its closing `)`, which starts
/// at absolute offset `base` of the file. All spans in the result and in the errors are absolute.
///
/// Accepted grammar (Orio's, DESIGN.md §1); `#` starts a comment to the end of the line:
///
/// ```text
/// spec       := ( "def" SECTION "{" statement* "}" | let )*
/// let        := "let" NAME "=" EXPR ";"                      (allowed inside sections too)
/// statement  := let
///             | "param" NAME "[" "]" "=" EXPR ";"            EXPR: a non-empty list of distinct
///             | "param" NAME "=" EXPR ";"                       values of one type (single value)
///             | "constraint" NAME "=" EXPR ";"               boolean, kept unevaluated
///             | "decl" ["static"|"dynamic"] TYPE NAME ("[" EXPR "]")* "=" ("random" | EXPR) ";"
///             | "arg" NAME "=" EXPR ";"
/// TYPE       := int | long | float | double
/// ```
///
/// | section                 | statements          | args                                                    |
/// |-------------------------|---------------------|---------------------------------------------------------|
/// | `performance_params`    | `param` `constraint`| —                                                       |
/// | `input_params`          | `param` `constraint`| —                                                       |
/// | `input_vars`            | `decl` `arg`        | `decl_file`, `init_file` (strings)                      |
/// | `build`                 | `arg`               | `build_command`, `libs`, `prebuild_command`, `postbuild_command` (strings); Orio's `batch_command`, `status_command`, `num_procs` (accepted, not used: a warning) |
/// | `performance_counter`   | `arg`               | `repetitions` (int > 0), `method` (string), `warmups` (int >= 0), `timeout` (duration, bare number = seconds), `objective` (`'kernel'` or `'total'`) |
/// | `performance_test_code` | `arg`               | `skeleton_code_file` (string)                           |
/// | `search`                | `arg`               | `algorithm` (string), `total_runs` (int > 0), `time_limit` (duration, bare number = minutes), `seed` (int >= 0), any `<algorithm>_<option>` (kept for the strategy) |
/// | `validation`            | `arg`               | `tolerance` (number > 0), `validation_file` (string)    |
///
/// A duration is a positive number or a string such as `'90s'`, `'5m'`, `'1.5m'`, `'1h'`, `'500ms'`.
/// Expressions are those of [`crate::expr`]. `let` values may use earlier lets; param
/// and arg values may use any let; constraints may use performance params, input params and
/// lets (input constraints: input params and lets); `decl` dimensions and initial values may use
/// input params and lets. Lets, performance params and input params share one namespace.
///
/// Errors: every error found (parsing resumes at the next `;` or section), each located:
/// unknown section / statement / argument (with a suggestion), a statement not allowed in its
/// section, duplicate names, a missing `;`, `}`, `=` (located where it was expected), values of
/// the wrong type, unknown names in expressions.
pub fn parse_spec(src: &str, base: usize) -> Result<TuningSpec, Vec<Diagnostic>> {
    let mut sp = SpecParser {
        p: Parser::new(src, base),
        diags: Vec::new(),
        lets: Vec::new(),
        params: Vec::new(),
        args: Vec::new(),
        names: Vec::new(),
        name_index: HashMap::new(),
        broken: HashSet::new(),
        spec: TuningSpec {
            span: Span::new(base, base + src.len()),
            ..TuningSpec::default()
        },
    };
    sp.parse();
    sp.finish();
    if sp.diags.is_empty() {
        Ok(sp.spec)
    } else {
        sp.diags.sort_by_key(|d| d.span.start);
        Err(sp.diags)
    }
}

/// The spec of DESIGN.md §1 (shared by the spec and space tests).
#[cfg(test)]
pub(crate) const DESIGN_EXAMPLE: &str = r#"
        def performance_params {
            param WI[] = [32,64,128,256];
            param WG[] = [4,8,16,32,64,128];
            param CB[] = [True, False];
            param UI[] = range(1,4);
            param CL[] = ['', '-cl-fast-relaxed-math'];
            constraint c1 = (WI*WG <= 16384);
        }
        def build { arg build_command = 'cc -O2 -lOpenCL'; }
        def input_params { param N[] = [100000, 1000000]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = 0;
        }
        def performance_counter { arg repetitions = 5; }
        def search { arg algorithm = 'Exhaustive'; }
    "#;

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: usize = 1000;

    /// Figure 2 of the OrCL paper (seeds/orcl-multi-target-autotuning.txt).
    const ORIO_FIGURE_2: &str = r#"
        def performance_params {
            param WI[] = [32,64,128,256];
            param WG[] = [4,8,16,32,64,128];
            param CB[] = [True, False];
            param SH[] = [True, False];
            param UI[] = range(1,4);
            param VH[] = [0,2,4];
            param CL[] = ['', '-cl-fast-relaxed-math'];
        }
        def build {
            arg build_command = 'gcc -O3 -lOpenCL';
        }
        def input_params {
            param N[] = [100000,1000000];
        }
        def input_vars {
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = 0;
        }
        def performance_counter {
            arg method = 'basic timer';
            arg repetitions = 5;
        }
        def performance_test_code {
            arg skeleton_code_file = 'tau_skeleton.c';
        }
    "#;

    fn parse(src: &str) -> TuningSpec {
        match parse_spec(src, BASE) {
            Ok(s) => s,
            Err(ds) => panic!("{:#?}", ds),
        }
    }

    fn errors(src: &str) -> Vec<Diagnostic> {
        match parse_spec(src, BASE) {
            Ok(_) => panic!("expected errors for {src}"),
            Err(ds) => ds,
        }
    }

    /// The single error of `src`.
    fn error(src: &str) -> Diagnostic {
        let ds = errors(src);
        assert_eq!(ds.len(), 1, "{ds:#?}");
        ds.into_iter().next().unwrap()
    }

    /// Absolute span of the `nth` occurrence of `needle` in `src`.
    fn at(src: &str, needle: &str, nth: usize) -> Span {
        let mut from = 0;
        for _ in 0..nth {
            from += src[from..].find(needle).unwrap() + 1;
        }
        let k = from + src[from..].find(needle).unwrap();
        Span::new(BASE + k, BASE + k + needle.len())
    }

    fn ints(v: &[i64]) -> Vec<Value> {
        v.iter().map(|&i| Value::Int(i)).collect()
    }

    #[test]
    fn design_example() {
        let s = parse(DESIGN_EXAMPLE);
        assert_eq!(s.span, Span::new(BASE, BASE + DESIGN_EXAMPLE.len()));
        let names: Vec<&str> = s
            .performance_params
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        assert_eq!(names, ["WI", "WG", "CB", "UI", "CL"]);
        assert_eq!(s.performance_params[0].values, ints(&[32, 64, 128, 256]));
        assert_eq!(
            s.performance_params[2].values,
            vec![Value::Bool(true), Value::Bool(false)]
        );
        assert_eq!(s.performance_params[3].values, ints(&[1, 2, 3]));
        assert_eq!(
            s.performance_params[4].values[1],
            Value::Str("-cl-fast-relaxed-math".into())
        );
        assert_eq!(
            s.performance_params[0].name_span,
            at(DESIGN_EXAMPLE, "WI", 0)
        );
        assert_eq!(
            s.performance_params[3].values_span,
            at(DESIGN_EXAMPLE, "range(1,4)", 0)
        );
        assert_eq!(s.constraints.len(), 1);
        assert_eq!(s.constraints[0].name, "c1");
        assert_eq!(
            s.constraints[0].span,
            at(DESIGN_EXAMPLE, "constraint c1 = (WI*WG <= 16384);", 0)
        );
        assert_eq!(s.input_params.len(), 1);
        assert_eq!(s.input_params[0].values, ints(&[100000, 1000000]));
        assert_eq!(
            s.build.build_command.as_ref().unwrap().value,
            "cc -O2 -lOpenCL"
        );
        assert_eq!(s.counter.repetitions.as_ref().unwrap().value, 5);
        assert_eq!(s.search.algorithm.as_ref().unwrap().value, "Exhaustive");
        let v = &s.input_vars;
        assert_eq!(v.len(), 4);
        assert_eq!(
            (v[0].ty.as_str(), v[0].name.as_str(), v[0].storage),
            ("int", "n", Storage::Default)
        );
        assert!(matches!(&v[0].init, VarInit::Expr(e) if e.kind == ExprKind::Name("N".into())));
        assert_eq!(v[1].init, VarInit::Random);
        assert_eq!(v[2].storage, Storage::Static);
        assert_eq!(v[2].dims.len(), 1);
        assert_eq!(v[2].dims[0].span, at(DESIGN_EXAMPLE, "N", 2));
        assert_eq!(v[2].ty_span, at(DESIGN_EXAMPLE, "double", 1));
        assert!(matches!(&v[3].init, VarInit::Expr(e) if e.kind == ExprKind::Lit(Value::Int(0))));
        assert_eq!(
            v[3].span,
            at(DESIGN_EXAMPLE, "decl static double y[N] = 0;", 0)
        );
    }

    #[test]
    fn orio_figure_2() {
        let s = parse(ORIO_FIGURE_2);
        assert_eq!(s.performance_params.len(), 7);
        assert_eq!(s.performance_params[5].values, ints(&[0, 2, 4]));
        assert_eq!(s.counter.method.as_ref().unwrap().value, "basic timer");
        assert_eq!(s.counter.repetitions.as_ref().unwrap().value, 5);
        assert_eq!(
            s.skeleton_code_file.as_ref().unwrap().value,
            "tau_skeleton.c"
        );
        assert_eq!(s.input_vars.len(), 3);
        assert!(s.constraints.is_empty());
    }

    #[test]
    fn lets_options_and_all_args() {
        let src = r#"
            let MAXWG = 256;   # a comment
            let SIZES = [2**i for i in range(5, 9)];
            def performance_params {
                let HALF = MAXWG // 2;
                param WI[] = SIZES;
                param P = 3;
                param F[] = [1, 2.5];
                constraint fits = WI <= HALF and N > 0;
            }
            def input_params { param N[] = range(1000, 3001, 1000); constraint big = N >= 2000; }
            def input_vars {
                decl dynamic float A[N][N*2] = 1.5;
                arg decl_file = 'decl.h';
                arg init_file = 'init.c';
            }
            def build {
                arg build_command = 'cc -O' + str(2);
                arg libs = '-lm';
                arg prebuild_command = 'true';
                arg postbuild_command = "echo done";
            }
            def performance_counter {
                arg repetitions = 7; arg warmups = 0; arg method = 'basic timer';
                arg timeout = '30s'; arg objective = 'total';
            }
            def performance_test_code { arg skeleton_code_file = 'skel.c'; }
            def search {
                arg algorithm = 'Randomsearch';
                arg total_runs = 100;
                arg time_limit = 10;
                arg seed = 0;
                arg randomsearch_batch = 8;
                arg msimplex_reflection_coef = [1.0, 2.0];
            }
            def validation { arg tolerance = 1e-6; arg validation_file = 'v.txt'; }
        "#;
        let s = parse(src);
        let lets: Vec<(&str, String)> = s
            .lets
            .iter()
            .map(|b| (b.name.as_str(), b.value.to_string()))
            .collect();
        assert_eq!(
            lets,
            [
                ("MAXWG", "256".into()),
                ("SIZES", "[32, 64, 128, 256]".into()),
                ("HALF", "128".into())
            ]
        );
        assert_eq!(s.performance_params[0].values, ints(&[32, 64, 128, 256]));
        assert_eq!(s.performance_params[1].values, ints(&[3]));
        assert_eq!(
            s.performance_params[2].values,
            vec![Value::Int(1), Value::Float(2.5)]
        );
        assert_eq!(s.input_params[0].values, ints(&[1000, 2000, 3000]));
        assert_eq!(s.input_constraints[0].name, "big");
        assert_eq!(s.input_vars[0].storage, Storage::Dynamic);
        assert_eq!(s.input_vars[0].dims.len(), 2);
        assert_eq!(s.decl_file.as_ref().unwrap().value, "decl.h");
        assert_eq!(s.init_file.as_ref().unwrap().value, "init.c");
        assert_eq!(s.build.build_command.as_ref().unwrap().value, "cc -O2");
        assert_eq!(s.build.libs.as_ref().unwrap().value, "-lm");
        assert_eq!(s.build.prebuild_command.as_ref().unwrap().value, "true");
        assert_eq!(
            s.build.postbuild_command.as_ref().unwrap().value,
            "echo done"
        );
        assert_eq!(s.counter.repetitions.as_ref().unwrap().value, 7);
        assert_eq!(s.counter.warmups.as_ref().unwrap().value, 0);
        assert_eq!(
            s.counter.timeout.as_ref().unwrap().value,
            Duration::from_secs(30)
        );
        assert_eq!(s.counter.objective.as_ref().unwrap().value, "total");
        assert_eq!(s.skeleton_code_file.as_ref().unwrap().value, "skel.c");
        assert_eq!(s.search.algorithm.as_ref().unwrap().value, "Randomsearch");
        assert_eq!(s.search.total_runs.as_ref().unwrap().value, 100);
        assert_eq!(
            s.search.time_limit.as_ref().unwrap().value,
            Duration::from_secs(600)
        );
        assert_eq!(s.search.seed.as_ref().unwrap().value, 0);
        let opts: Vec<&str> = s.search.options.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(opts, ["randomsearch_batch", "msimplex_reflection_coef"]);
        assert_eq!(s.search.options[0].1.value, Value::Int(8));
        assert_eq!(
            s.search.options[0].1.span,
            at(src, "arg randomsearch_batch = 8;", 0)
        );
        assert_eq!(s.validation.tolerance.as_ref().unwrap().value, 1e-6);
        assert_eq!(
            s.validation.validation_file.as_ref().unwrap().value,
            "v.txt"
        );
    }

    #[test]
    fn durations() {
        let tl = |v: &str| {
            let src = format!("def search {{ arg time_limit = {v}; }}");
            parse(&src).search.time_limit.unwrap().value
        };
        assert_eq!(tl("'90s'"), Duration::from_secs(90));
        assert_eq!(tl("'5m'"), Duration::from_secs(300));
        assert_eq!(tl("'1h'"), Duration::from_secs(3600));
        assert_eq!(tl("'1.5m'"), Duration::from_secs(90));
        assert_eq!(tl("'2 min'"), Duration::from_secs(120));
        assert_eq!(tl("'500ms'"), Duration::from_millis(500));
        assert_eq!(tl("2"), Duration::from_secs(120));
        assert_eq!(tl("0.5"), Duration::from_secs(30));
        assert_eq!(tl("'3'"), Duration::from_secs(180));
        let to = parse("def performance_counter { arg timeout = 20; }")
            .counter
            .timeout
            .unwrap()
            .value;
        assert_eq!(to, Duration::from_secs(20));
        let src = "def search { arg time_limit = '5 parsecs'; }";
        let d = error(src);
        assert_eq!(d.span, at(src, "'5 parsecs'", 0));
        assert!(
            d.message
                .starts_with("`time_limit` must be a positive duration"),
            "{}",
            d.message
        );
        assert!(d.message.ends_with("found '5 parsecs'"), "{}", d.message);
        assert!(error("def search { arg time_limit = -1; }")
            .message
            .contains("positive duration"));
        assert!(error("def search { arg time_limit = 1e300; }")
            .message
            .contains("positive duration"));
        assert!(error("def search { arg time_limit = True; }")
            .message
            .contains("positive duration"));
    }

    #[test]
    fn unknown_section_statement_and_arg() {
        let src = "def performnce_params { param A[] = [1]; }";
        let d = error(src);
        assert_eq!(d.message, "unknown section `performnce_params`");
        assert_eq!(d.span, at(src, "performnce_params", 0));
        assert_eq!(
            d.help.as_deref(),
            Some("did you mean `performance_params`?")
        );

        let src = "def build { arg buildcommand = 'cc'; }";
        let d = error(src);
        assert_eq!(
            d.message,
            "unknown argument `buildcommand` in section `build`"
        );
        assert_eq!(d.span, at(src, "buildcommand", 0));
        assert_eq!(d.help.as_deref(), Some("did you mean `build_command`?"));

        let src = "def search { arg total_run = 5; }";
        let d = error(src);
        assert_eq!(d.help.as_deref(), Some("did you mean `total_runs`?"));

        let src = "def search { arg budget = 5; }";
        let d = error(src);
        assert_eq!(d.message, "unknown argument `budget` in section `search`");

        let src = "def build { decl int n = 3; }";
        let d = error(src);
        assert_eq!(
            d.message,
            "`decl` statements are not allowed in section `build`"
        );
        assert_eq!(d.span, at(src, "decl", 0));
        assert_eq!(
            d.help.as_deref(),
            Some("section `build` accepts `arg` and `let` statements")
        );

        let src = "def performance_params { parm A[] = [1]; }";
        let d = error(src);
        assert_eq!(
            d.message,
            "unknown statement `parm` in section `performance_params`"
        );
        assert_eq!(d.help.as_deref(), Some("did you mean `param`?"));

        let src = "def performance_params { arg x = 1; }";
        assert_eq!(
            error(src).message,
            "`arg` statements are not allowed in section `performance_params`"
        );

        let src = "def input_vars { decl unsigned int n = 3; }";
        let d = error(src);
        assert!(
            d.message.starts_with("unsupported type `unsigned`"),
            "{}",
            d.message
        );
        assert_eq!(d.span, at(src, "unsigned", 0));

        let src = "def input_vars { decl dubble x = 3; }";
        assert_eq!(error(src).help.as_deref(), Some("did you mean `double`?"));

        let src = "foo = 3;";
        assert!(error(src)
            .message
            .starts_with("expected `def SECTION { ... }` or `let NAME = EXPR;`"));
    }

    #[test]
    fn missing_semicolon_and_brace() {
        let src = "def performance_params {\n  param A[] = [1, 2]\n  param B[] = [3];\n}";
        let d = error(src);
        assert_eq!(
            d.message,
            "expected `;` after the values of parameter `A`, found `param`"
        );
        let end = at(src, "[1, 2]", 0).end;
        assert_eq!(d.span, Span::new(end, end));
        // The statement after the missing `;` is still parsed: only one error.

        let src = "def build { arg build_command = 'cc';\ndef search { arg algorithm = 'Random'; }";
        let d = error(src);
        assert_eq!(
            d.message,
            "expected `}` to close section `build`, found `def`"
        );
        let end = at(src, "'cc';", 0).end;
        assert_eq!(d.span, Span::new(end, end));

        let src = "def build { arg build_command = 'cc'; ";
        let d = error(src);
        assert_eq!(
            d.message,
            "expected `}` to close section `build`, found end of input"
        );

        let src = "def build arg build_command = 'cc'; }";
        let d = &errors(src)[0];
        assert!(
            d.message.starts_with("expected `{` after `def build`"),
            "{}",
            d.message
        );

        let src = "def performance_params { param A[] [1]; }";
        let d = error(src);
        assert_eq!(d.message, "expected `=` after `param A[]`, found `[`");
        let open = at(src, "[1]", 0).start;
        assert_eq!(d.span, Span::new(open, open + 1));
    }

    #[test]
    fn param_values() {
        let src = "def performance_params { param A[] = 4; }";
        let d = error(src);
        assert_eq!(
            d.message,
            "parameter `A` needs a list of values, found int 4"
        );
        assert_eq!(d.help.as_deref(), Some("write `[4]` for a single value"));
        assert_eq!(d.span, at(src, "4", 0));

        let src = "def performance_params { param A[] = []; }";
        let d = error(src);
        assert_eq!(d.message, "parameter `A` has no values");
        assert_eq!(d.span, at(src, "[]", 1));

        let src = "def performance_params { param A[] = range(5, 1); }";
        assert_eq!(error(src).message, "parameter `A` has no values");

        let src = "def performance_params { param A[] = [1, 2.0, 'x', True]; }";
        let d = error(src);
        assert!(
            d.message.starts_with("mixed-type list: value 'x'"),
            "{}",
            d.message
        );
        assert_eq!(d.span, at(src, "'x'", 0));

        let src = "def performance_params { param A[] = [4, 8, 4]; }";
        let d = error(src);
        assert_eq!(d.message, "duplicate value 4 in parameter `A`");
        assert_eq!(d.span, at(src, "4", 1));

        let src = "def performance_params { param A[] = [1, 1.0]; }";
        assert_eq!(error(src).message, "duplicate value 1.0 in parameter `A`");

        let src = "def performance_params { param A[] = [1, 2/0]; }";
        let d = error(src);
        assert_eq!(d.message, "division by zero");
        assert_eq!(d.span, at(src, "2/0", 0));

        let src = "def performance_params { param A = [1, 2]; }";
        assert!(error(src).help.as_deref().unwrap().contains("param A[]"));
    }

    #[test]
    fn names_and_duplicates() {
        let src = "def performance_params { param WI[] = [1]; constraint c = WJ > 0; }";
        let d = error(src);
        assert_eq!(d.message, "unknown name `WJ` in constraint `c`");
        assert_eq!(d.span, at(src, "WJ", 0));
        assert_eq!(d.help.as_deref(), Some("did you mean `WI`?"));

        // Constraints may use input params declared later, and lets.
        let src = "def performance_params { param WI[] = [1]; constraint c = WI < N + L; }
                   def input_params { param N[] = [10]; } let L = 2;";
        assert_eq!(parse(src).constraints.len(), 1);

        let src = "def performance_params { param WI[] = [1]; }
                   def input_params { param N[] = [10]; constraint c = N > WI; }";
        let d = error(src);
        assert_eq!(
            d.message,
            "`WI` (a performance parameter) cannot be used in input constraint `c`"
        );
        assert_eq!(d.span, at(src, "WI", 1));

        let src = "def input_vars { decl static double x[M] = random; }";
        let d = error(src);
        assert_eq!(d.message, "unknown name `M` in input variable `x`");
        assert_eq!(d.span, at(src, "M", 0));

        let src = "def performance_params { param A[] = [1]; param B[] = [x*2 for x in A]; }";
        let d = error(src);
        assert_eq!(
            d.message,
            "`A` (a performance parameter) cannot be used in parameter `B`"
        );

        let src = "let X = Y + 1; let Y = 2;";
        let d = error(src);
        assert_eq!(
            d.message,
            "`Y` (a `let` binding) cannot be used in the value of `X`"
        );
        assert_eq!(d.span, at(src, "Y", 0));

        let src = "def performance_params { param A[] = [1]; param A[] = [2]; }";
        let d = error(src);
        assert_eq!(d.message, "duplicate parameter `A`");
        assert_eq!(d.span, at(src, "A", 1));

        let src = "let N = 1; def input_params { param N[] = [2]; }";
        let d = error(src);
        assert_eq!(d.message, "duplicate parameter `N`");
        assert_eq!(
            d.help.as_deref(),
            Some("`N` is already defined as a `let` binding")
        );

        let src = "def performance_params { param A[] = [1]; constraint c = A > 0; constraint c = A < 9; }";
        assert_eq!(error(src).message, "duplicate constraint `c`");

        let src = "def input_vars { decl int n = 1; decl long n = 2; }";
        assert_eq!(error(src).message, "duplicate input variable `n`");

        let src = "let a = 1; let a = 2;";
        assert_eq!(error(src).message, "duplicate `let` binding `a`");

        let src = "def search { arg seed = 1; arg seed = 2; }";
        assert_eq!(
            error(src).message,
            "duplicate argument `seed` in section `search`"
        );
    }

    #[test]
    fn arg_types() {
        let src = "def performance_counter { arg repetitions = 'five'; }";
        let d = error(src);
        assert_eq!(
            d.message,
            "`repetitions` must be a positive integer, found 'five'"
        );
        assert_eq!(d.span, at(src, "'five'", 0));
        assert!(error("def performance_counter { arg repetitions = 0; }")
            .message
            .contains("positive integer"));
        assert!(error("def performance_counter { arg warmups = -1; }")
            .message
            .contains("non-negative integer"));
        assert!(error("def search { arg total_runs = 2.5; }")
            .message
            .contains("positive integer, found 2.5"));
        assert!(error("def search { arg seed = -3; }")
            .message
            .contains("non-negative integer"));
        assert_eq!(
            error("def build { arg build_command = 3; }").message,
            "`build_command` must be a string, found 3"
        );
        let d = error("def performance_counter { arg objective = 'kernal'; }");
        assert_eq!(d.help.as_deref(), Some("did you mean `kernel`?"));
        assert!(error("def validation { arg tolerance = 0; }")
            .message
            .contains("positive number"));
        assert!(error("def validation { arg tolerance = 'x'; }")
            .message
            .contains("positive number"));
    }

    #[test]
    fn several_errors_are_collected() {
        let src = "def build { arg bild_command = 'cc'; arg libs = 3; }\n\
                   def serch { arg x = 1; }\n\
                   def performance_counter { arg repetitions = 0; }";
        let ds = errors(src);
        assert_eq!(ds.len(), 4, "{ds:#?}");
        assert!(ds[0].message.contains("bild_command"));
        assert!(ds[1].message.contains("`libs` must be a string"));
        assert!(ds[2].message.contains("unknown section `serch`"));
        assert!(ds[3].message.contains("repetitions"));
    }

    #[test]
    fn failed_definitions_do_not_cascade() {
        let src = "let A = 1/0; let B = A + 1;\n\
                   def performance_params { param P[] = [A]; param Q[] = [1 2]; param R[] = [];\n\
                   constraint c = Q > 0 and B > 0 and P > R; }";
        let ds = errors(src);
        let msgs: Vec<&str> = ds.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "division by zero",
                "expected `,` or `]` in the list, found `2`",
                "parameter `R` has no values"
            ]
        );
    }

    #[test]
    fn no_panic_on_hostile_specs() {
        let cases = [
            "",
            "def",
            "def build",
            "def build {",
            "def build { arg",
            "def build { arg build_command",
            "def build { arg build_command =",
            "def build { arg build_command = 'unterminated; }",
            "def input_vars { decl static double x[",
            "def input_vars { decl static double x[] = 0; }",
            "def input_vars { decl }",
            "def performance_params { param }",
            "def performance_params { param A[ }",
            "}}}}",
            "let",
            "let x",
            "let x = ;",
            "@@@ def build { }",
            "def unknown { { { } ",
            "def build { arg build_command = 'é日本'; } é",
            "def performance_params { param A[] = range(100000000); }",
        ];
        for c in cases {
            let _ = parse_spec(c, 5);
        }
        let deep = format!(
            "def performance_params {{ param A[] = {}; }}",
            "[".repeat(50_000)
        );
        assert!(parse_spec(&deep, 0).is_err());
    }
}
