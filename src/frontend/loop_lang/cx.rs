//! The context of one walk over tree-sitter-c nodes: spans into the input file, node text, the
//! nesting limit, and the errors every construct shares.

use super::{MAX_LOOP_DEPTH, PREFIX};
use crate::diag::{Diagnostic, Span};
use std::cell::Cell;
use tree_sitter::Node;

/// One walk over the nodes of a loop (or expression) wrapped in [`PREFIX`]: spans are mapped
/// back to the input file.
pub(super) struct Cx<'a> {
    pub(super) text: &'a str,
    pub(super) base: usize,
    pub(super) src_len: usize,
    /// Current nesting level of the recursive walk (see [`MAX_LOOP_DEPTH`]).
    pub(super) depth: Cell<usize>,
}

/// A node kind in words, for errors (`a `while` loop`).
pub(super) fn describe(kind: &str) -> String {
    match kind {
        "while_statement" => "a `while` loop".into(),
        "do_statement" => "a `do`/`while` loop".into(),
        "return_statement" => "a `return` statement".into(),
        "break_statement" => "a `break` statement".into(),
        "continue_statement" => "a `continue` statement".into(),
        "goto_statement" => "a `goto` statement".into(),
        "switch_statement" => "a `switch` statement".into(),
        "labeled_statement" => "a label".into(),
        other => format!("`{}`", other.replace('_', " ")),
    }
}

impl<'a> Cx<'a> {
    pub(super) fn span(&self, n: Node) -> Span {
        let clamp = |b: usize| b.saturating_sub(PREFIX.len()).min(self.src_len) + self.base;
        Span::new(clamp(n.start_byte()), clamp(n.end_byte()))
    }
    pub(super) fn text(&self, n: Node) -> &'a str {
        self.text.get(n.byte_range()).unwrap_or("")
    }

    pub(super) fn syntax_error(&self, root: Node) -> Diagnostic {
        // The first error or missing node in document order, found without recursion (the tree
        // may be arbitrarily deep).
        fn find(root: Node) -> Option<Node> {
            let mut n = root;
            loop {
                if n.is_error() || n.is_missing() {
                    return Some(n);
                }
                let mut c = n.walk();
                let next = n.children(&mut c).find(|c| c.has_error() || c.is_missing());
                n = next?;
            }
        }
        match find(root) {
            Some(n) if n.is_missing() => Diagnostic::new(
                self.span(n),
                format!("syntax error in the tuned loop: expected `{}`", n.kind()),
            ),
            Some(n) => Diagnostic::new(
                self.span(n),
                format!(
                    "syntax error in the tuned loop near `{}`",
                    first_line(self.text(n))
                ),
            ),
            None => Diagnostic::new(
                Span::new(self.base, self.base + self.src_len),
                "syntax error in the tuned loop",
            ),
        }
    }

    /// Enter one nesting level at `n`; the matching [`Cx::leave`] must follow.
    pub(super) fn enter(&self, n: Node) -> Result<(), Diagnostic> {
        let d = self.depth.get() + 1;
        if d > MAX_LOOP_DEPTH {
            return Err(Diagnostic::new(
                self.span(n),
                format!(
                    "the tuned loop nests too deeply here: more than {MAX_LOOP_DEPTH} levels of statements, blocks, parentheses and operators"
                ),
            )
            .with_help("split deep expressions into local variables (e.g. a long sum into partial sums), and flatten the nesting"));
        }
        self.depth.set(d);
        Ok(())
    }

    pub(super) fn leave(&self) {
        self.depth.set(self.depth.get().saturating_sub(1));
    }

    /// `f(n)` one nesting level deeper.
    pub(super) fn nested<T>(
        &self,
        n: Node,
        f: impl FnOnce() -> Result<T, Diagnostic>,
    ) -> Result<T, Diagnostic> {
        self.enter(n)?;
        let r = f();
        self.leave();
        r
    }

    pub(super) fn unsupported(&self, n: Node, what: &str) -> Diagnostic {
        Diagnostic::new(
            self.span(n),
            format!("{what} is not supported in a tuned loop"),
        )
    }

    pub(super) fn field(&self, n: Node<'a>, name: &str) -> Result<Node<'a>, Diagnostic> {
        n.child_by_field_name(name).ok_or_else(|| {
            Diagnostic::new(
                self.span(n),
                format!("incomplete {}: missing {name}", describe(n.kind())),
            )
        })
    }
}

/// The first line of `s`, at most 40 bytes.
pub(super) fn first_line(s: &str) -> &str {
    let l = s.lines().next().unwrap_or("");
    if l.len() > 40 {
        let mut end = 40;
        while !l.is_char_boundary(end) {
            end -= 1;
        }
        &l[..end]
    } else {
        l
    }
}
