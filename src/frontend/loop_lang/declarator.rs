//! C declarators read layer by layer (pointers and array sizes), for the declarations around a
//! region.

use crate::diag::Span;
use tree_sitter::Parser;

/// One layer of a C declarator, read from the declared name outwards: `double A[M][N]` is
/// `[Array(M), Array(N)]`, `double (*A)[N]` is `[Pointer, Array(N)]`, `double **A` is
/// `[Pointer, Pointer]`, `double *A[N]` (an array of pointers) is `[Array(N), Pointer]`.
#[derive(Debug, Clone, PartialEq)]
pub enum DeclLayer {
    Pointer,
    /// `[size]`: the size's text and span; `None` for `[]`.
    Array(Option<(String, Span)>),
}

/// The layers of the C declarator whose declared name is at `name` in `file` (a span of
/// `annotation::CDecl`), and the span of the whole declarator (`**A`, `A[m][n]`); `None` when no
/// declarator is there.
pub fn declarator_layers(file: &str, name: Span) -> Option<(Vec<DeclLayer>, Span)> {
    declarator_layers_in(&parse_c_file(file)?, file, name)
}

/// `file` parsed as C, for [`declarator_layers_in`] (parse once, look up many declarators). Its
/// comments and `#define` lines are blanked first (same offsets, [`crate::annotation::parse_text`]):
/// no declarator is in them, and they cost time and memory out of proportion (issue 25, G6).
pub fn parse_c_file(file: &str) -> Option<tree_sitter::Tree> {
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_c::LANGUAGE.into()).ok()?;
    parser.parse(crate::annotation::parse_text(file, false).as_bytes(), None)
}

/// [`declarator_layers`] in the tree of `file` from [`parse_c_file`].
pub fn declarator_layers_in(
    tree: &tree_sitter::Tree,
    file: &str,
    name: Span,
) -> Option<(Vec<DeclLayer>, Span)> {
    // The path from the root down to the name, walked downwards: `Node::parent` costs a walk
    // from the root per call, quadratic in the nesting depth of the file.
    let root = tree.root_node();
    let mut path = vec![root];
    let mut cursor = root.walk();
    while cursor.goto_first_child_for_byte(name.start).is_some() {
        let n = cursor.node();
        if n.start_byte() > name.start || n.end_byte() < name.end {
            break;
        }
        path.push(n);
    }
    let id = *path.last()?;
    if id.kind() != "identifier" || id.start_byte() != name.start || id.end_byte() != name.end {
        return None;
    }
    let mut layers = Vec::new();
    let mut outer = id;
    for &p in path.iter().rev().skip(1) {
        match p.kind() {
            "pointer_declarator" => layers.push(DeclLayer::Pointer),
            "array_declarator" => {
                layers.push(DeclLayer::Array(p.child_by_field_name("size").map(|s| {
                    (
                        file.get(s.byte_range()).unwrap_or("").to_string(),
                        Span::new(s.start_byte(), s.end_byte()),
                    )
                })))
            }
            "parenthesized_declarator" | "attributed_declarator" => {}
            _ => break,
        }
        outer = p;
    }
    Some((layers, Span::new(outer.start_byte(), outer.end_byte())))
}
