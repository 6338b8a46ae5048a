//! The tuning specification inside `/*@ begin PerfTuning ( ... ) @*/` (DESIGN.md §1, "Tuning spec
//! sections"): `def SECTION { ... }` blocks of `param`, `constraint`, `decl` and `arg` statements,
//! and top-level `let` bindings.

mod args;
mod evaluate;
mod parser;
mod sections;
mod sharing;
mod statements;
#[cfg(test)]
mod tests;

pub use args::parse_duration;
pub use sharing::{leading_use, parse_spec_chunks};

use crate::diag::{Diagnostic, Span};
use crate::expr::{Expr, Parser, Value};
use parser::SpecParser;
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
    /// Shared by every [`crate::space::SearchSpace`] made from this spec (one per input size).
    pub values: std::sync::Arc<[Value]>,
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
pub const VAR_TYPES: &[&str] = &["int", "long", "float", "double", "_Float16", "__bf16"];

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
/// TYPE       := int | long | float | double | _Float16 | __bf16   (16-bit: arrays only)
/// ```
///
/// | section                 | statements          | args                                                    |
/// |-------------------------|---------------------|---------------------------------------------------------|
/// | `performance_params`    | `param` `constraint`| —                                                       |
/// | `input_params`          | `param` `constraint`| —                                                       |
/// | `input_vars`            | `decl` `arg`        | `decl_file`, `init_file` (strings)                      |
/// | `build`                 | `arg`               | `build_command`, `libs`, `prebuild_command`, `postbuild_command` (strings); Orio's `batch_command`, `status_command`, `num_procs` (accepted, not used: a warning) |
/// | `performance_counter`   | `arg`               | `repetitions` (int > 0), `method` (string), `warmups` (int >= 0), `timeout` (duration, bare number = seconds), `objective` (`'kernel'` = `'time'`, `'total'`, `'energy'`, `'edp'`) |
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
