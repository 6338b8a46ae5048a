//! The tuning specification inside `/*@ begin PerfTuning ( ... ) @*/` (DESIGN.md §1, "Tuning spec
//! sections"): `def SECTION { ... }` blocks of `param`, `constraint`, `decl` and `arg` statements,
//! and top-level `let` bindings.

use crate::diag::Span;
use crate::frontend::expr::{Expr, Value};
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
