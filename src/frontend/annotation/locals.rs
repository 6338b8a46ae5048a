//! The scalar locals of the enclosing function that have a value orcl can compute before a
//! region: initialized declarations, and declarations given their value by one assignment.

use super::{idents, preamble_of, PreambleDecl};
use crate::diag::Span;
use tree_sitter::Node;

/// The initialized scalar declarations of the body of the function at `function`, among its
/// statements that end before `region_start`, each with the span from its end to `region_start`.
/// A scalar declared without an initializer and then given a value by one plain assignment
/// statement of the body (PolyBench/GPU's `DATA_TYPE c11, ...; c11 = +0.2;`) counts as declared
/// with that value, the span running from the assignment; a second assignment, or a value read
/// from a local not yet defined, gives it none (its value would not be that expression's).
pub(super) fn locals_before(
    root: Node,
    text: &str,
    function: Span,
    region_start: usize,
) -> Vec<(PreambleDecl, Span)> {
    let mut out = Vec::new();
    let mut c = root.walk();
    let Some(f) = root
        .named_children(&mut c)
        .find(|n| n.start_byte() == function.start && n.end_byte() == function.end)
    else {
        return out;
    };
    let Some(body) = f.child_by_field_name("body") else {
        return out;
    };
    // Declared without a value, by name; names assigned more than once are dropped.
    let mut bare: Vec<PreambleDecl> = Vec::new();
    let mut assigned: Vec<String> = Vec::new();
    let mut bc = body.walk();
    for st in body.named_children(&mut bc) {
        if st.end_byte() > region_start {
            break;
        }
        let after = Span::new(st.end_byte(), region_start);
        if st.kind() == "expression_statement" {
            if let Some(d) = assignment_def(st, text, &bare, &out) {
                if assigned.contains(&d.name) {
                    out.retain(|(o, _): &(PreambleDecl, Span)| o.name != d.name);
                    bare.retain(|b| b.name != d.name);
                } else {
                    assigned.push(d.name.clone());
                    out.push((d, after));
                }
            }
            continue;
        }
        if st.kind() != "declaration" {
            continue;
        }
        let end = Span::new(st.end_byte(), st.end_byte());
        let Ok(decls) = preamble_of(body, text, st.start_byte(), end) else {
            continue;
        };
        for d in decls {
            if d.init.is_some() {
                out.push((d, after));
            } else {
                bare.push(d);
            }
        }
    }
    out
}

/// `NAME = EXPR;` where NAME is in `bare` (a scalar declared without a value): NAME's
/// declaration with EXPR as its initializer, if every local EXPR reads is defined in `known`.
fn assignment_def(
    st: Node,
    text: &str,
    bare: &[PreambleDecl],
    known: &[(PreambleDecl, Span)],
) -> Option<PreambleDecl> {
    let a = st
        .named_child(0)
        .filter(|a| a.kind() == "assignment_expression")?;
    let op = a.child_by_field_name("operator")?;
    let (left, right) = (
        a.child_by_field_name("left")?,
        a.child_by_field_name("right")?,
    );
    if text.get(op.byte_range()) != Some("=") || left.kind() != "identifier" {
        return None;
    }
    let name = text.get(left.byte_range())?;
    let decl = bare.iter().find(|b| b.name == name)?;
    let (mut reads, mut calls) = (Vec::new(), Vec::new());
    idents(right, text, &mut reads, &mut calls);
    let undefined = reads.iter().any(|(r, _)| {
        bare.iter().any(|b| &b.name == r) && !known.iter().any(|(k, _)| &k.name == r)
    });
    (!undefined).then(|| PreambleDecl {
        init: Some((
            text.get(right.byte_range()).unwrap_or("").to_string(),
            Span::new(right.start_byte(), right.end_byte()),
        )),
        reads,
        calls,
        stmt_span: Span::new(st.start_byte(), st.end_byte()),
        ..decl.clone()
    })
}
