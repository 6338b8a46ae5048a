//! Finds the `/*@ begin PerfTuning ( ... ) @*/ ... /*@ end @*/` regions and the
//! `/*@ begin Loop ( transform OpenCL(...) <loop> ) @*/ ... /*@ end @*/` annotations inside them,
//! using tree-sitter-c's comment nodes, and collects the C declarations visible to each region
//! (enclosing function's parameters and locals, file-scope variables).

use crate::diag::{did_you_mean, Diagnostic, Span};
use crate::expr::{parse_keyword_args, KeywordArg};
use std::collections::BTreeMap;
use tree_sitter::{Node, Parser};

mod locals;
mod parse_text;
use locals::locals_before;
pub use parse_text::parse_text;

/// A C declaration visible to a region: its base type as written and pointer/array depth.
#[derive(Debug, Clone, PartialEq)]
pub struct CDecl {
    pub name: String,
    /// Base type, whitespace-normalised (`double`, `const double`, `long int`, ...).
    pub ty: String,
    /// Number of `*` plus array dimensions (`double *x` → 1, `double A[N][M]` → 2).
    pub depth: usize,
    pub span: Span,
}

/// The enclosing function of a region.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionInfo {
    pub name: String,
    /// The whole function definition.
    pub span: Span,
}

/// One `transform BACKEND(args)` of a `Loop` annotation.
#[derive(Debug, Clone, PartialEq)]
pub struct Transform {
    /// `OpenCL` or `CUDA` as written.
    pub backend: String,
    pub backend_span: Span,
    pub args: Vec<KeywordArg>,
}

/// A `Loop(transform BACKEND(args) [transform BACKEND2(args)] code)` annotation.
#[derive(Debug, Clone, PartialEq)]
pub struct LoopAnnotation {
    /// From the start of the `/*@ begin Loop` comment to the end of its `/*@ end @*/`.
    pub span: Span,
    /// The `begin Loop` comment.
    pub begin_span: Span,
    /// Its `/*@ end @*/` comment.
    pub end_span: Span,
    /// The transforms in the order written (at least one; at most one per backend).
    pub transforms: Vec<Transform>,
    /// The loop text inside the annotation.
    pub code: String,
    pub code_span: Span,
    /// The original C code between the annotation comments (kept as the fallback path).
    pub original: String,
}

impl LoopAnnotation {
    /// The transform for `backend` (`OpenCL` or `CUDA`), if the annotation names it.
    pub fn transform(&self, backend: &str) -> Option<&Transform> {
        self.transforms.iter().find(|t| t.backend == backend)
    }
}

/// One `PerfTuning` region as found in the file (spec still unparsed).
#[derive(Debug, Clone, PartialEq)]
pub struct RawRegion {
    /// From the start of `/*@ begin PerfTuning` to the end of its `/*@ end @*/`.
    pub span: Span,
    pub begin_span: Span,
    pub end_span: Span,
    /// The text between `PerfTuning(` and the matching `)`, and its span. After
    /// `region::parse`, a spec that begins with `use N;` has here the texts of the spec it uses,
    /// then its own (what identifies its experiments); the span stays its own.
    pub spec_text: String,
    pub spec_span: Span,
    pub loop_ann: LoopAnnotation,
    pub function: Option<FunctionInfo>,
    /// Declarations visible in the region: function parameters and locals, then file scope.
    pub decls: BTreeMap<String, CDecl>,
    /// Orio's older binding habit: `int n=N;` inside the region, as (variable, input param) pairs.
    pub size_bindings: Vec<(String, String)>,
    /// The declarations between the `PerfTuning` header and the `Loop` annotation (Orio's
    /// preamble, OrCL paper Fig. 2: `int n=N;`), in source order.
    pub preamble: Vec<PreambleDecl>,
    /// Scalars declared with an initializer by the enclosing function's body before the region
    /// (`int nx = n - 2;`), in source order, each with the function's text after its declaration
    /// up to the region (`after`): a loop may read them without `input_vars` when that text never
    /// names them (their value is the initializer's).
    pub locals: Vec<(PreambleDecl, Span)>,
}

/// One variable declared by a statement between `PerfTuning` and `Loop`
/// (`int nrows = m*n;`, `double hx = 1.0/(m-1);`, `double s;`).
#[derive(Debug, Clone, PartialEq)]
pub struct PreambleDecl {
    pub name: String,
    pub name_span: Span,
    /// Base type as written, whitespace-normalised (`int`, `register int`, `const double`).
    pub ty: String,
    /// The initializer's C text and span; `None` for a declaration without one (`double s;`).
    pub init: Option<(String, Span)>,
    /// Identifiers the initializer reads (callee names excluded), in order.
    pub reads: Vec<(String, Span)>,
    /// Functions the initializer calls.
    pub calls: Vec<(String, Span)>,
    /// The whole declaration statement (shared by the variables it declares).
    pub stmt_span: Span,
}

#[derive(Debug)]
enum Ann {
    Begin {
        name: String,
        name_span: Span,
        body: String,
        body_start: usize,
    },
    End,
}

const ANNOTATIONS: &[&str] = &["PerfTuning", "Loop"];

/// Find every tuned region of a C file. Errors are located diagnostics (all that were found).
pub fn find_regions(text: &str) -> Result<Vec<RawRegion>, Vec<Diagnostic>> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .map_err(|e| {
            vec![Diagnostic::new(
                Span::default(),
                format!("cannot load the C grammar: {e}"),
            )]
        })?;
    // An unterminated `/*` makes tree-sitter re-lex to the end of the file from every later
    // position (quadratic: a 40 KB file took 10 s and 2 GB); find it first, in one pass.
    if let Some(p) = unterminated_comment(text) {
        return Err(vec![unterminated_error(text, p)]);
    }
    // Comments other than annotations and `#define` lines are blanked: same offsets.
    let tree = match parse_bounded(&mut parser, &parse_text(text, true)) {
        Ok(t) => t,
        Err(d) => return Err(vec![d]),
    };
    let root = tree.root_node();
    let mut comments = Vec::new();
    collect_comments(root, &mut comments);
    let mut scan = Scan {
        text,
        root,
        stack: Vec::new(),
        regions: Vec::new(),
        diags: Vec::new(),
    };
    for c in comments {
        if scan.comment(c).is_err() {
            return Err(scan.diags);
        }
    }
    scan.finish()
}

/// The error for the unterminated `/*` (or `/*@`) at byte `p` of `text`.
fn unterminated_error(text: &str, p: usize) -> Diagnostic {
    if text[p..].starts_with("/*@") {
        Diagnostic::new(
            Span::new(p, p + 3),
            "unterminated annotation: this `/*@` comment is never closed",
        )
        .with_help("close the annotation with `@*/`")
    } else {
        Diagnostic::new(
            Span::new(p, p + 2),
            "unterminated comment: this `/*` is never closed",
        )
        .with_help("close the comment with `*/`")
    }
}

/// A `/* ... */` comment inside the annotation comment `ctext` (at `start`): its `*/` closed
/// the annotation (C comments do not nest), which then does not end with `@*/`.
fn nested_comment(ctext: &str, start: usize) -> Option<Diagnostic> {
    if ctext.ends_with("@*/") {
        return None;
    }
    let inner = ctext[3..].find("/*")? + 3;
    Some(
        Diagnostic::new(
            Span::new(start + inner, start + ctext.len()),
            "a `/* ... */` comment inside an annotation ends the annotation: C comments do not nest, so its `*/` closes the `/*@` and the rest of the annotation is read as C code",
        )
        .with_help("inside the Loop's code write the comment with `//` (`// ...`); inside the PerfTuning spec with `#` (`# ...`)"),
    )
}

/// An annotation whose `begin` was seen and whose `end` was not yet.
struct Open {
    /// Set when an error was already reported for this annotation or one inside it.
    errored: bool,
    name: String,
    begin: Span,
    body: String,
    body_start: usize,
    loop_ann: Option<LoopAnnotation>,
    name_span: Span,
}

/// The annotation comments of a file paired, in document order: the open annotations, the
/// regions closed so far and every error found.
struct Scan<'t> {
    text: &'t str,
    root: Node<'t>,
    stack: Vec<Open>,
    regions: Vec<RawRegion>,
    diags: Vec<Diagnostic>,
}

impl Scan<'_> {
    /// One comment of the file: an annotation opens or closes; other comments are ignored.
    /// `Err(())`: an error after which the rest of the file cannot be paired (stop).
    fn comment(&mut self, c: Node) -> Result<(), ()> {
        let span = Span::new(c.start_byte(), c.end_byte());
        let Some(ctext) = self.text.get(c.byte_range()) else {
            return Ok(());
        };
        if !ctext.starts_with("/*@") {
            return Ok(());
        }
        if ctext[3..].contains("/*@") {
            // The comment swallowed the next annotation: its own `@*/` is missing.
            self.diags.push(
                Diagnostic::new(
                    Span::new(span.start, span.start + 3),
                    "unterminated annotation: this `/*@` comment runs into the next annotation",
                )
                .with_help("close the annotation with `@*/`"),
            );
            return Err(());
        }
        if let Some(d) = nested_comment(ctext, span.start) {
            self.diags.push(d);
            return Err(());
        }
        match parse_annotation(ctext, span.start) {
            Ok(Ann::Begin {
                name,
                name_span,
                body,
                body_start,
            }) => self.begin(name, name_span, body, body_start, span),
            Ok(Ann::End) => self.end(span),
            Err(d) => {
                self.diags.push(d);
                // Keep begin/end pairing intact so that one mistake gives one error.
                if ctext[3..].trim_start().starts_with("begin") {
                    if let Some(parent) = self.stack.last_mut() {
                        parent.errored = true;
                    }
                    self.stack.push(Open {
                        errored: true,
                        name: "?".into(),
                        begin: span,
                        body: String::new(),
                        body_start: span.start,
                        loop_ann: None,
                        name_span: span,
                    });
                }
            }
        }
        Ok(())
    }

    /// `/*@ begin NAME (body) @*/` at `span`: a `Loop` must be inside a `PerfTuning`, which
    /// cannot be nested.
    fn begin(
        &mut self,
        name: String,
        name_span: Span,
        body: String,
        body_start: usize,
        span: Span,
    ) {
        if name == "Loop"
            && !self
                .stack
                .iter()
                .any(|o| o.name == "PerfTuning" || o.errored)
        {
            self.diags.push(
                Diagnostic::new(
                    name_span,
                    "a `Loop` annotation must be inside a `PerfTuning` region",
                )
                .with_help("wrap it in `/*@ begin PerfTuning ( ... ) @*/ ... /*@ end @*/`"),
            );
        }
        if name == "PerfTuning" && !self.stack.is_empty() {
            self.diags.push(Diagnostic::new(
                name_span,
                "`PerfTuning` regions cannot be nested",
            ));
        }
        self.stack.push(Open {
            errored: false,
            name,
            begin: span,
            body,
            body_start,
            loop_ann: None,
            name_span,
        });
    }

    /// `/*@ end @*/` at `span`: closes the innermost open annotation.
    fn end(&mut self, span: Span) {
        let Some(open) = self.stack.pop() else {
            self.diags.push(Diagnostic::new(
                span,
                "`/*@ end @*/` without a matching `/*@ begin ... @*/`",
            ));
            return;
        };
        if open.name == "?" {
            return;
        }
        if open.name == "Loop" {
            self.close_loop(open, span);
        } else {
            self.close_region(open, span);
        }
    }

    /// A `Loop` annotation ends at `span`: parsed and given to its region (one per region).
    fn close_loop(&mut self, open: Open, span: Span) {
        match parse_loop_annotation(self.text, &open.body, open.body_start, open.begin, span) {
            Ok(l) => match self.stack.last_mut() {
                Some(parent) if parent.loop_ann.is_none() => parent.loop_ann = Some(l),
                Some(_) => self.diags.push(
                    Diagnostic::new(
                        open.name_span,
                        "a `PerfTuning` region holds one `Loop` annotation",
                    )
                    .with_help("give each loop its own PerfTuning region"),
                ),
                None => {}
            },
            Err(d) => {
                self.diags.push(d);
                if let Some(parent) = self.stack.last_mut() {
                    parent.errored = true;
                }
            }
        }
    }

    /// A `PerfTuning` region ends at `span`: with its `Loop` annotation, enclosing function,
    /// visible declarations and preamble, it becomes a [`RawRegion`].
    fn close_region(&mut self, open: Open, span: Span) {
        let Some(loop_ann) = open.loop_ann else {
            if open.errored {
                return;
            }
            self.diags.push(
                Diagnostic::new(open.name_span, "this `PerfTuning` region has no `Loop` annotation")
                    .with_help("add `/*@ begin Loop(transform OpenCL(...) <loop>) @*/ <loop> /*@ end @*/` inside it"),
            );
            return;
        };
        let region_span = open.begin.to(span);
        let (function, decls) = scope_of(self.root, self.text, open.begin.start);
        let preamble = match preamble_of(self.root, self.text, open.begin.end, loop_ann.span) {
            Ok(p) => p,
            Err(d) => {
                self.diags.push(d);
                return;
            }
        };
        let size_bindings = preamble
            .iter()
            .filter_map(|d| {
                let (init, _) = d.init.as_ref()?;
                let init = init.trim();
                (d.calls.is_empty() && d.reads.len() == 1 && d.reads[0].0 == init)
                    .then(|| (d.name.clone(), init.to_string()))
            })
            .collect();
        let locals = function
            .as_ref()
            .map(|f| locals_before(self.root, self.text, f.span, open.begin.start))
            .unwrap_or_default();
        let spec_span = Span::new(open.body_start, open.body_start + open.body.len());
        self.regions.push(RawRegion {
            span: region_span,
            begin_span: open.begin,
            end_span: span,
            spec_text: open.body,
            spec_span,
            loop_ann,
            function,
            decls,
            size_bindings,
            preamble,
            locals,
        });
    }

    /// At the end of the file: every annotation still open is missing its `end`.
    fn finish(mut self) -> Result<Vec<RawRegion>, Vec<Diagnostic>> {
        for open in self.stack.into_iter().filter(|o| o.name != "?") {
            self.diags.push(
                Diagnostic::new(
                    open.name_span,
                    format!(
                        "missing `/*@ end @*/` for this `begin {}` annotation",
                        open.name
                    ),
                )
                .with_help("close every `/*@ begin ... @*/` with `/*@ end @*/`"),
            );
        }
        if self.diags.is_empty() {
            Ok(self.regions)
        } else {
            Err(self.diags)
        }
    }
}

/// Bytes tree-sitter may read while parsing a file of `len` bytes: a valid file is read about
/// once; some malformed ones make its error recovery re-read the rest of the file from every
/// position (quadratic).
fn parse_read_budget(len: usize) -> u64 {
    64 * len as u64 + (1 << 20)
}

/// Parse `text` as C, giving up (a located error) when tree-sitter has read more than
/// [`parse_read_budget`] bytes: its work is then bounded linearly in the file's size.
fn parse_bounded(parser: &mut Parser, text: &str) -> Result<tree_sitter::Tree, Diagnostic> {
    use std::cell::Cell;
    const CHUNK: usize = 4096;
    let budget = parse_read_budget(text.len());
    let read = Cell::new(0u64);
    let at = Cell::new(0usize);
    let mut input = |off: usize, _: tree_sitter::Point| -> &[u8] {
        let start = off.min(text.len());
        let mut end = (start + CHUNK).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        read.set(read.get() + (end - start) as u64);
        &text.as_bytes()[start..end]
    };
    let mut progress = |s: &tree_sitter::ParseState| {
        at.set(s.current_byte_offset());
        read.get() > budget
    };
    let tree = parser.parse_with_options(
        &mut input,
        None,
        Some(tree_sitter::ParseOptions::new().progress_callback(&mut progress)),
    );
    tree.ok_or_else(|| {
        let p = at.get().min(text.len());
        Diagnostic::new(
            Span::new(p, p),
            format!(
                "this file is too malformed to parse as C: the parser gave up here after reading {} bytes of a {}-byte file",
                read.get(),
                text.len()
            ),
        )
        .with_help("fix the C syntax error near here (an unbalanced bracket, quote or preprocessor line)")
    })
}

/// The byte offset of the first `/*` comment that is never closed, if any: one pass over the
/// text with C's lexical rules for comments, string and character literals (a literal ends at
/// its closing quote or at the end of the line; a `//` comment runs on over `\`-newlines).
fn unterminated_comment(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => match text[i + 2..].find("*/") {
                Some(k) => i += 2 + k + 2,
                None => return Some(i),
            },
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i += 2;
                while i < b.len() && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// Every comment node of the tree under `root`, in document order (iterative: the tree of a
/// hostile file may be nested arbitrarily deep).
fn collect_comments<'t>(root: Node<'t>, out: &mut Vec<Node<'t>>) {
    preorder(root, |n| {
        if n.kind() == "comment" {
            out.push(n);
            false
        } else {
            true
        }
    });
}

/// Visit every node under `root` (itself included) in document order, without recursion; the
/// children of a node are visited when `visit` returns true for it.
fn preorder<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>) -> bool) {
    let mut c = root.walk();
    loop {
        if visit(c.node()) && c.goto_first_child() {
            continue;
        }
        loop {
            if c.goto_next_sibling() {
                break;
            }
            if !c.goto_parent() {
                return;
            }
        }
    }
}

/// Parse one `/*@ ... @*/` comment into begin/end.
fn parse_annotation(ctext: &str, start: usize) -> Result<Ann, Diagnostic> {
    let inner_end = ctext.len() - if ctext.ends_with("@*/") { 3 } else { 2 };
    let inner = &ctext[3..inner_end.max(3)];
    let lead = inner.len() - inner.trim_start().len();
    let rest = inner.trim_start();
    let word_len = rest
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .unwrap_or(rest.len());
    let word = &rest[..word_len];
    let word_start = start + 3 + lead;
    match word {
        "end" => {
            let tail = rest[word_len..].trim();
            if !tail.is_empty() {
                let off = word_start
                    + word_len
                    + (rest[word_len..].len() - rest[word_len..].trim_start().len());
                return Err(Diagnostic::new(
                    Span::new(off, off + tail.len()),
                    "unexpected text after `end`",
                )
                .with_help("an end annotation is exactly `/*@ end @*/`"));
            }
            Ok(Ann::End)
        }
        "begin" => {
            let after = &rest[word_len..];
            let ws = after.len() - after.trim_start().len();
            let after = after.trim_start();
            let name_len = after
                .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .unwrap_or(after.len());
            let name = &after[..name_len];
            let name_start = word_start + word_len + ws;
            let name_span = Span::new(name_start, name_start + name_len.max(1));
            if !ANNOTATIONS.contains(&name) {
                let mut d = Diagnostic::new(name_span, format!("unknown annotation `{name}`"));
                d = d.with_help(
                    did_you_mean(name, ANNOTATIONS.iter().copied())
                        .unwrap_or_else(|| "orcl knows `PerfTuning` and `Loop`".into()),
                );
                return Err(d);
            }
            let tail = &after[name_len..];
            let ws2 = tail.len() - tail.trim_start().len();
            let open = name_start + name_len + ws2;
            let tail = tail.trim_start();
            if !tail.starts_with('(') {
                return Err(Diagnostic::new(
                    Span::new(open, open + 1),
                    format!("expected `(` after `begin {name}`"),
                ));
            }
            let trimmed = tail.trim_end();
            if !trimmed.ends_with(')') {
                let close = open + trimmed.len();
                return Err(Diagnostic::new(
                    Span::new(close.saturating_sub(1), close),
                    format!("expected `)` to close `begin {name}(` before `@*/`"),
                ));
            }
            let body = &trimmed[1..trimmed.len() - 1];
            Ok(Ann::Begin {
                name: name.to_string(),
                name_span,
                body: body.to_string(),
                body_start: open + 1,
            })
        }
        _ => Err(Diagnostic::new(
            Span::new(word_start, word_start + word_len.max(1)),
            format!("unknown annotation keyword `{word}`"),
        )
        .with_help(did_you_mean(word, ["begin", "end"]).unwrap_or_else(|| {
            "annotations are `/*@ begin NAME ( ... ) @*/` and `/*@ end @*/`".into()
        }))),
    }
}

fn parse_loop_annotation(
    text: &str,
    body: &str,
    body_start: usize,
    begin: Span,
    end: Span,
) -> Result<LoopAnnotation, Diagnostic> {
    let lead = body.len() - body.trim_start().len();
    let rest = &body[lead..];
    let kw_start = body_start + lead;
    if !rest.starts_with("transform") {
        let w = rest.find(char::is_whitespace).unwrap_or(rest.len()).max(1);
        return Err(Diagnostic::new(
            Span::new(kw_start, kw_start + w),
            "expected `transform` after `Loop(`",
        )
        .with_help("write `Loop(transform OpenCL(workGroups=WG, ...) <loop>)`"));
    }
    let mut transforms: Vec<Transform> = Vec::new();
    let mut pos = kw_start;
    loop {
        let rest = &body[pos - body_start..];
        let after = &rest["transform".len()..];
        let ws = after.len() - after.trim_start().len();
        let after = after.trim_start();
        let be_start = pos + "transform".len() + ws;
        let be_len = after
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(after.len());
        let backend = &after[..be_len];
        let backend_span = Span::new(be_start, be_start + be_len.max(1));
        const BACKENDS: &[&str] = &["OpenCL", "CUDA"];
        if !BACKENDS.contains(&backend) {
            return Err(
                Diagnostic::new(backend_span, format!("unknown transform `{backend}`")).with_help(
                    did_you_mean(backend, BACKENDS.iter().copied())
                        .unwrap_or_else(|| "orcl's transforms are `OpenCL` and `CUDA`".into()),
                ),
            );
        }
        if transforms.iter().any(|t| t.backend == backend) {
            return Err(Diagnostic::new(
                backend_span,
                format!("`transform {backend}` is given twice"),
            )
            .with_help("give each backend one transform; list the values to tune as parameters"));
        }
        let args_src = &after[be_len..];
        let args_base = be_start + be_len;
        let (args, consumed) = parse_keyword_args(args_src, args_base)?;
        transforms.push(Transform {
            backend: backend.to_string(),
            backend_span,
            args,
        });
        pos = args_base + consumed;
        let next = &body[pos - body_start..];
        let skip = next.len() - next.trim_start().len();
        let next = next.trim_start();
        if next.starts_with("transform")
            && !next["transform".len()..]
                .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        {
            pos += skip;
        } else {
            break;
        }
    }
    let code = &body[pos - body_start..];
    let code_start = pos;
    let original = text.get(begin.end..end.start).unwrap_or("").to_string();
    Ok(LoopAnnotation {
        span: begin.to(end),
        begin_span: begin,
        end_span: end,
        transforms,
        code: code.to_string(),
        code_span: Span::new(code_start, code_start + code.len()),
        original,
    })
}

/// The enclosing function of byte `pos` and every declaration visible there.
fn scope_of(root: Node, text: &str, pos: usize) -> (Option<FunctionInfo>, BTreeMap<String, CDecl>) {
    let mut decls = BTreeMap::new();
    let mut function = None;
    let mut c = root.walk();
    for top in root.named_children(&mut c) {
        match top.kind() {
            "declaration" => declared(top, text, &mut decls),
            "function_definition" if top.start_byte() <= pos && pos < top.end_byte() => {
                let declarator = top.child_by_field_name("declarator");
                let fname = declarator
                    .and_then(|d| innermost_name(d, text))
                    .unwrap_or_default();
                function = Some(FunctionInfo {
                    name: fname,
                    span: Span::new(top.start_byte(), top.end_byte()),
                });
                if let Some(d) = declarator {
                    let mut fd = Some(d);
                    while let Some(n) = fd {
                        if n.kind() == "function_declarator" {
                            break;
                        }
                        fd = n.child_by_field_name("declarator");
                    }
                    if let Some(params) = fd.and_then(|f| f.child_by_field_name("parameters")) {
                        let mut pc = params.walk();
                        for p in params.named_children(&mut pc) {
                            if p.kind() == "parameter_declaration" {
                                declared(p, text, &mut decls);
                            }
                        }
                    }
                }
                if let Some(body) = top.child_by_field_name("body") {
                    local_decls(body, text, &mut decls);
                }
            }
            _ => {}
        }
    }
    (function, decls)
}

fn local_decls(n: Node, text: &str, out: &mut BTreeMap<String, CDecl>) {
    preorder(n, |x| {
        if x.kind() == "declaration" {
            declared(x, text, out);
        }
        true
    });
}

/// Add the names declared by a `declaration` or `parameter_declaration` node.
fn declared(n: Node, text: &str, out: &mut BTreeMap<String, CDecl>) {
    let mut ty = String::new();
    let mut c = n.walk();
    for child in n.children(&mut c) {
        match child.kind() {
            "type_qualifier" | "primitive_type" | "sized_type_specifier" | "type_identifier" => {
                if !ty.is_empty() {
                    ty.push(' ');
                }
                ty.push_str(text.get(child.byte_range()).unwrap_or(""));
            }
            _ => {}
        }
    }
    let ty = ty.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut c = n.walk();
    for d in n.children_by_field_name("declarator", &mut c) {
        let mut depth = 0;
        let mut cur = Some(d);
        let mut name = None;
        while let Some(x) = cur {
            match x.kind() {
                "identifier" => {
                    name = Some(x);
                    break;
                }
                "pointer_declarator" | "array_declarator" => depth += 1,
                "init_declarator" | "parenthesized_declarator" | "attributed_declarator" => {}
                _ => break,
            }
            cur = x
                .child_by_field_name("declarator")
                .or_else(|| x.named_child(0));
        }
        if let Some(id) = name {
            let nm = text.get(id.byte_range()).unwrap_or("").to_string();
            out.entry(nm.clone()).or_insert(CDecl {
                name: nm,
                ty: ty.clone(),
                depth,
                span: Span::new(id.start_byte(), id.end_byte()),
            });
        }
    }
}

fn innermost_name(mut n: Node, text: &str) -> Option<String> {
    loop {
        if n.kind() == "identifier" {
            return text.get(n.byte_range()).map(str::to_string);
        }
        n = n.child_by_field_name("declarator")?;
    }
}

/// The statements between the end of the `PerfTuning` header (`after`) and the `Loop`
/// annotation: each must be a declaration of scalars (`int n = N;`, `double hx = 1.0/(m-1);`,
/// `double s;`). Anything else is a located error naming the statement.
fn preamble_of(
    root: Node,
    text: &str,
    after: usize,
    loop_span: Span,
) -> Result<Vec<PreambleDecl>, Diagnostic> {
    // The innermost node that holds the whole stretch: its children are the statements.
    let mut holder = root;
    loop {
        let mut c = holder.walk();
        let inner = holder
            .named_children(&mut c)
            .find(|n| n.start_byte() < after && n.end_byte() >= loop_span.start);
        match inner {
            Some(n) => holder = n,
            None => break,
        }
    }
    let mut out = Vec::new();
    let mut c = holder.walk();
    for st in holder.named_children(&mut c) {
        if st.start_byte() < after || st.end_byte() > loop_span.start || st.kind() == "comment" {
            continue;
        }
        let span = Span::new(st.start_byte(), st.end_byte());
        let what = text.get(st.byte_range()).unwrap_or("").trim();
        let short: String = what.lines().next().unwrap_or("").chars().take(40).collect();
        let not_here = |why: &str| {
            Diagnostic::new(
                span,
                format!("orcl cannot handle `{short}` between the `PerfTuning` header and the `Loop` annotation: {why}"),
            )
            .with_help("only declarations of scalars may stand there (`int n = N;`, `double h = 1.0/(n-1);`, `double s;`); move other code before `/*@ begin PerfTuning` or into the loop")
        };
        if st.kind() != "declaration" {
            return Err(not_here("it is not a declaration"));
        }
        let mut ty = String::new();
        let mut tc = st.walk();
        for child in st.children(&mut tc) {
            if matches!(
                child.kind(),
                "type_qualifier"
                    | "primitive_type"
                    | "sized_type_specifier"
                    | "type_identifier"
                    | "storage_class_specifier"
            ) {
                if !ty.is_empty() {
                    ty.push(' ');
                }
                ty.push_str(text.get(child.byte_range()).unwrap_or(""));
            }
        }
        let ty = ty.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut dc = st.walk();
        for d in st.children_by_field_name("declarator", &mut dc) {
            let (name, value) = match d.kind() {
                "identifier" => (d, None),
                "init_declarator" => match d.child_by_field_name("declarator") {
                    Some(n) if n.kind() == "identifier" => (n, d.child_by_field_name("value")),
                    _ => return Err(not_here("it declares an array or a pointer")),
                },
                _ => return Err(not_here("it declares an array or a pointer")),
            };
            if value.is_some_and(|v| v.kind() == "initializer_list") {
                return Err(not_here("a brace initializer declares an array"));
            }
            let mut reads = Vec::new();
            let mut calls = Vec::new();
            if let Some(v) = value {
                idents(v, text, &mut reads, &mut calls);
            }
            out.push(PreambleDecl {
                name: text.get(name.byte_range()).unwrap_or("").to_string(),
                name_span: Span::new(name.start_byte(), name.end_byte()),
                ty: ty.clone(),
                init: value.map(|v| {
                    (
                        text.get(v.byte_range()).unwrap_or("").to_string(),
                        Span::new(v.start_byte(), v.end_byte()),
                    )
                }),
                reads,
                calls,
                stmt_span: span,
            });
        }
    }
    Ok(out)
}

/// The identifiers an initializer reads and the functions it calls, in document order
/// (iterative: an initializer may be nested arbitrarily deep).
fn idents(n: Node, text: &str, reads: &mut Vec<(String, Span)>, calls: &mut Vec<(String, Span)>) {
    let name = |x: Node| {
        (
            text.get(x.byte_range()).unwrap_or("").to_string(),
            Span::new(x.start_byte(), x.end_byte()),
        )
    };
    // Nodes still to visit, the next one last.
    let mut todo = vec![n];
    while let Some(n) = todo.pop() {
        match n.kind() {
            "identifier" => reads.push(name(n)),
            "call_expression" => {
                if let Some(a) = n.child_by_field_name("arguments") {
                    todo.push(a);
                }
                if let Some(f) = n.child_by_field_name("function") {
                    if f.kind() == "identifier" {
                        calls.push(name(f));
                    } else {
                        todo.push(f);
                    }
                }
            }
            // `sizeof(double)`, casts: type names are no reads.
            "type_descriptor" => {}
            _ => {
                let mut c = n.walk();
                let children: Vec<Node> = n.named_children(&mut c).collect();
                todo.extend(children.into_iter().rev());
            }
        }
    }
}
