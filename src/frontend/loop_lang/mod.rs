//! The loop language: a C subset parsed with tree-sitter-c into `ir::Stmt` trees (untyped
//! variables; types are resolved by `lower`). Anything outside the subset is a located error.

mod cx;
mod declarator;
mod expressions;
mod statements;
#[cfg(test)]
mod tests;

pub use declarator::{declarator_layers, declarator_layers_in, parse_c_file, DeclLayer};

use crate::diag::{Diagnostic, Span};
use crate::ir::{After, Expr, Loop};
use cx::{describe, Cx};
use std::cell::Cell;
use tree_sitter::Parser;

const PREFIX: &str = "void orcl_tuned_loop__(void) {\n";

/// Deepest nesting of statements, blocks, `for` loops, parentheses and operators accepted in a
/// tuned loop (levels). Deeper input is a located error rather than a stack overflow in the
/// recursive walkers of the front end and of every later stage (lower, analysis, codegen).
pub const MAX_LOOP_DEPTH: usize = 256;

/// Parse the loop text of a `Loop(transform ...)` annotation. `base` is the byte offset of `src`
/// in the input file. The text must hold exactly one top-level `for` statement (the parallel loop).
///
/// Errors: a C syntax error, or a construct outside the loop language (e.g. `while`, pointer
/// dereference, calls to functions other than the math functions), located at the construct.
pub fn parse_loop(src: &str, base: usize) -> Result<Loop, Diagnostic> {
    let (l, post) = parse_loop_and_after(src, base)?;
    match post {
        Some(p) => Err(Diagnostic::new(
            p.span,
            "orcl does not support statements after the parallel loop inside a Loop annotation here",
        )),
        None => Ok(l),
    }
}

/// [`parse_loop`], also accepting statements after the loop (returned as [`After`], `None` when
/// there are none). Another `for` loop after the first is still an error.
pub fn parse_loop_and_after(src: &str, base: usize) -> Result<(Loop, Option<After>), Diagnostic> {
    let wrapped = format!("{PREFIX}{src}\n}}\n");
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .map_err(|e| {
            Diagnostic::new(
                Span::new(base, base),
                format!("cannot load the C grammar: {e}"),
            )
        })?;
    let tree = parser.parse(&wrapped, None).ok_or_else(|| {
        Diagnostic::new(
            Span::new(base, base + src.len()),
            "cannot parse the tuned loop",
        )
    })?;
    let cx = Cx {
        text: &wrapped,
        base,
        src_len: src.len(),
        depth: Cell::new(0),
    };
    let root = tree.root_node();
    if root.has_error() {
        return Err(cx.syntax_error(root));
    }
    let func = root
        .named_child(0)
        .filter(|n| n.kind() == "function_definition");
    let body = func
        .and_then(|f| f.child_by_field_name("body"))
        .ok_or_else(|| {
            Diagnostic::new(
                Span::new(base, base + src.len()),
                "the tuned loop is not a C statement",
            )
        })?;
    let mut stmts = Vec::new();
    let mut cursor = body.walk();
    for child in body.named_children(&mut cursor) {
        if child.kind() == "comment" {
            continue;
        }
        stmts.push(child);
    }
    match stmts.as_slice() {
        [only] if only.kind() == "for_statement" => Ok((cx.for_loop(*only)?, None)),
        // Statements after the loop (`r = sqrt(r);`), or more loops: a sequence of nests, each a
        // kernel (`lower::steps`).
        [first, rest @ ..]
            if first.kind() == "for_statement"
                && (rest.iter().all(|n| n.kind() == "expression_statement")
                    || rest.iter().all(|n| n.kind() == "for_statement")) =>
        {
            let l = cx.for_loop(*first)?;
            let mut after = Vec::new();
            for n in rest {
                after.extend(cx.stmt(*n)?);
            }
            let (a, b) = (cx.span(rest[0]), cx.span(rest[rest.len() - 1]));
            let span = a.to(b);
            let text = src
                .get(span.start - base..span.end - base)
                .unwrap_or("")
                .to_string();
            Ok((
                l,
                Some(After {
                    stmts: after,
                    text,
                    span,
                }),
            ))
        }
        [first, second, ..] if first.kind() == "for_statement" && second.kind() == "for_statement" => Err(Diagnostic::new(cx.span(*second), "a Loop annotation holds one outermost `for` loop, or a sequence of `for` loops with nothing between them")
            .with_help("wrap the statements in one loop, or annotate each loop separately")),
        // Orio's vecNorm2 (`r=sqrt(r);` after the reduction): issue 11 class 3, not supported yet.
        [first, second, ..] if first.kind() == "for_statement" => Err(Diagnostic::new(
            cx.span(*second),
            "orcl does not support statements after the parallel loop inside a Loop annotation (they would run once, after the loop)",
        )
        .with_help("move them after the Loop annotation's `/*@ end @*/` (inside the PerfTuning region is fine): they then run after the tuned loop, and the loop's own result is what is validated")),
        [] => Err(Diagnostic::new(Span::new(base, base + src.len()), "the Loop annotation holds no loop")
            .with_help("put the `for` loop to tune between the transform's `)` and the annotation's closing `)`")),
        [first, ..] => Err(Diagnostic::new(
            cx.span(*first),
            format!("expected the parallel `for` loop, found {}", describe(first.kind())),
        )),
    }
}

/// Parse one C expression (e.g. the extent of an array declarator) of the loop language. `base`
/// is the byte offset of `src` in the input file.
///
/// Errors: a C syntax error or a construct outside the loop language, located.
pub fn parse_expr(src: &str, base: usize) -> Result<Expr, Diagnostic> {
    let wrapped = format!("{PREFIX}{src};\n}}\n");
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .map_err(|e| {
            Diagnostic::new(
                Span::new(base, base),
                format!("cannot load the C grammar: {e}"),
            )
        })?;
    let whole = Span::new(base, base + src.len());
    let tree = parser
        .parse(&wrapped, None)
        .ok_or_else(|| Diagnostic::new(whole, "cannot parse the expression"))?;
    let cx = Cx {
        text: &wrapped,
        base,
        src_len: src.len(),
        depth: Cell::new(0),
    };
    let root = tree.root_node();
    if root.has_error() {
        return Err(cx.syntax_error(root));
    }
    let stmt = root
        .named_child(0)
        .and_then(|f| f.child_by_field_name("body"))
        .and_then(|b| b.named_child(0))
        .filter(|s| s.kind() == "expression_statement")
        .and_then(|s| s.named_child(0))
        .ok_or_else(|| Diagnostic::new(whole, "expected a C expression"))?;
    cx.expr(stmt)
}
