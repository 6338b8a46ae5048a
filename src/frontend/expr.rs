//! The closed expression language of tuning specs (DESIGN.md §1): literals, lists, `range`,
//! list comprehensions, arithmetic, comparisons, `and/or/not`, names. Parsed and evaluated by orcl,
//! never by a shell or an interpreter.

use crate::diag::{Diagnostic, Span};
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
    Comprehension { elem: Box<Expr>, var: String, iter: Box<Expr>, cond: Option<Box<Expr>> },
    /// `a if c else b`
    IfElse { cond: Box<Expr>, then: Box<Expr>, other: Box<Expr> },
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
