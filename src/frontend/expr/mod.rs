//! The closed expression language of tuning specs (DESIGN.md §1): literals, lists, `range`,
//! list comprehensions, arithmetic, comparisons, `and/or/not`, names. Parsed and evaluated by orcl,
//! never by a shell or an interpreter.

use crate::diag::Span;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A value of the spec language. Python-like semantics: `Int` and `Float` mix in arithmetic,
/// `True`/`False` are `Bool`, strings are single- or double-quoted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    /// A list, shared: cloning a value (a name's use, a configuration's fixed values, the
    /// spaces of other input sizes) does not copy its elements (issue 25 G6: a 10^7-element
    /// `let` was held four times, 1.1 GiB).
    List(Arc<Vec<Value>>),
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
/// Elements all the evaluations of one command (one thread) may produce beyond the first
/// [`FREE_PER_EVAL`] of each (issue 25 G5): a constraint of 2·10^7 elements costs about 0.75 s
/// per evaluation, and `check` or `tune` evaluates it once per configuration, so a per-evaluation
/// limit alone let `check` run for days. At 40 to 75 ns an element this is 1 to 2 s of work.
pub const COMMAND_BUDGET: u64 = 30_000_000;
/// Elements of each evaluation not charged to [`COMMAND_BUDGET`]: the constraints of real
/// specs (`WI in [16, 32, 64]`, a flag string) stay far below, whatever the number of
/// configurations.
pub const FREE_PER_EVAL: u64 = 1_000;
/// Deepest nesting of lists inside a value (`[[1]]` is 2): values nest deeper only through
/// chains of `let` bindings, and the recursive printers, comparisons and destructors of
/// [`Value`] must not overflow the stack.
pub(crate) const MAX_VALUE_DEPTH: usize = 64;

/// Built-in functions of the language.
pub const FUNCTIONS: &[&str] = &["range", "len", "min", "max", "abs", "int", "float", "str"];

mod builtins;
mod eval;
mod lexer;
mod parser;
#[cfg(test)]
mod tests;
mod value;

pub use eval::{charge_steps, steps_evaluated, StepBudget};
pub(crate) use lexer::{Tok, Token};
pub(crate) use parser::Parser;
pub use parser::{parse_expr, parse_keyword_args, KeywordArg};
