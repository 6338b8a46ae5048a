//! The loop language: a C subset parsed with tree-sitter-c into `ir::Stmt` trees (untyped
//! variables; types are resolved by `lower`). Anything outside the subset is a located error.

use crate::diag::{did_you_mean, Diagnostic, Span};
use crate::ir::{
    After, AssignOp, BinaryOp, Expr, ExprKind, Loop, ScalarType, Stmt, StmtKind, UnaryOp,
    MATH_FUNCTIONS,
};
use std::cell::Cell;
use tree_sitter::{Node, Parser};

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
        [first, rest @ ..]
            if first.kind() == "for_statement"
                && rest.iter().all(|n| n.kind() == "expression_statement") =>
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
        [first, second, ..] if first.kind() == "for_statement" && second.kind() == "for_statement" => Err(Diagnostic::new(cx.span(*second), "a Loop annotation holds exactly one outermost `for` loop")
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

/// `file` parsed as C, for [`declarator_layers_in`] (parse once, look up many declarators).
pub fn parse_c_file(file: &str) -> Option<tree_sitter::Tree> {
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_c::LANGUAGE.into()).ok()?;
    parser.parse(file, None)
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

struct Cx<'a> {
    text: &'a str,
    base: usize,
    src_len: usize,
    /// Current nesting level of the recursive walk (see [`MAX_LOOP_DEPTH`]).
    depth: Cell<usize>,
}

fn describe(kind: &str) -> String {
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
    fn span(&self, n: Node) -> Span {
        let clamp = |b: usize| b.saturating_sub(PREFIX.len()).min(self.src_len) + self.base;
        Span::new(clamp(n.start_byte()), clamp(n.end_byte()))
    }
    fn text(&self, n: Node) -> &'a str {
        self.text.get(n.byte_range()).unwrap_or("")
    }

    fn syntax_error(&self, root: Node) -> Diagnostic {
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
    fn enter(&self, n: Node) -> Result<(), Diagnostic> {
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

    fn leave(&self) {
        self.depth.set(self.depth.get().saturating_sub(1));
    }

    /// `f(n)` one nesting level deeper.
    fn nested<T>(
        &self,
        n: Node,
        f: impl FnOnce() -> Result<T, Diagnostic>,
    ) -> Result<T, Diagnostic> {
        self.enter(n)?;
        let r = f();
        self.leave();
        r
    }

    fn unsupported(&self, n: Node, what: &str) -> Diagnostic {
        Diagnostic::new(
            self.span(n),
            format!("{what} is not supported in a tuned loop"),
        )
    }

    fn field(&self, n: Node<'a>, name: &str) -> Result<Node<'a>, Diagnostic> {
        n.child_by_field_name(name).ok_or_else(|| {
            Diagnostic::new(
                self.span(n),
                format!("incomplete {}: missing {name}", describe(n.kind())),
            )
        })
    }

    fn for_loop(&self, n: Node) -> Result<Loop, Diagnostic> {
        let span = self.span(n);
        let init = self.field(n, "initializer").map_err(|_| {
            Diagnostic::new(span, "a tuned `for` loop needs an initializer")
                .with_help("write `for (i = 0; i < n; i++)`")
        })?;
        let (var, var_span, lower) = match init.kind() {
            "assignment_expression" => {
                let left = self.field(init, "left")?;
                let op = self.field(init, "operator")?;
                if left.kind() != "identifier" || self.text(op) != "=" {
                    return Err(Diagnostic::new(
                        self.span(init),
                        "a tuned loop starts with `var = lower`",
                    ));
                }
                (
                    self.text(left).to_string(),
                    self.span(left),
                    self.expr(self.field(init, "right")?)?,
                )
            }
            "declaration" => {
                let decl = self.field(init, "declarator")?;
                if decl.kind() != "init_declarator" {
                    return Err(Diagnostic::new(
                        self.span(init),
                        "a tuned loop starts with `int var = lower`",
                    ));
                }
                let name = self.field(decl, "declarator")?;
                (
                    self.text(name).to_string(),
                    self.span(name),
                    self.expr(self.field(decl, "value")?)?,
                )
            }
            _ => {
                return Err(Diagnostic::new(
                    self.span(init),
                    "a tuned loop starts with `var = lower`",
                ))
            }
        };
        let cond = self.field(n, "condition").map_err(|_| {
            Diagnostic::new(span, "a tuned `for` loop needs a condition")
                .with_help(format!("write `{var} < n` or `{var} <= n-1`"))
        })?;
        let (upper, inclusive) = self.loop_condition(cond, &var)?;
        let update = self
            .field(n, "update")
            .map_err(|_| Diagnostic::new(span, "a tuned `for` loop needs an increment"))?;
        let step = self.loop_step(update, &var)?;
        let body = self.field(n, "body")?;
        let body = self.block(body)?;
        Ok(Loop {
            var,
            var_span,
            lower,
            upper,
            inclusive,
            step,
            body,
            span,
        })
    }

    fn loop_condition(&self, cond: Node, var: &str) -> Result<(Expr, bool), Diagnostic> {
        let bad = || {
            Diagnostic::new(
                self.span(cond),
                format!("unsupported loop condition `{}`", self.text(cond)),
            )
            .with_help(format!("write `{var} < UPPER` or `{var} <= UPPER`"))
        };
        if cond.kind() != "binary_expression" {
            return Err(bad());
        }
        let left = self.field(cond, "left")?;
        let op = self.text(self.field(cond, "operator")?);
        let right = self.field(cond, "right")?;
        if left.kind() == "identifier" && self.text(left) == var {
            match op {
                "<" => return Ok((self.expr(right)?, false)),
                "<=" => return Ok((self.expr(right)?, true)),
                _ => {}
            }
        }
        if right.kind() == "identifier" && self.text(right) == var {
            match op {
                ">" => return Ok((self.expr(left)?, false)),
                ">=" => return Ok((self.expr(left)?, true)),
                _ => {}
            }
        }
        Err(bad())
    }

    fn loop_step(&self, update: Node, var: &str) -> Result<i64, Diagnostic> {
        let bad = || {
            Diagnostic::new(
                self.span(update),
                format!("unsupported loop increment `{}`", self.text(update)),
            )
            .with_help(format!(
                "write `{var}++`, `++{var}` or `{var} += C` with a positive constant C"
            ))
        };
        match update.kind() {
            "update_expression" => {
                let arg = self.field(update, "argument")?;
                let op = self.text(self.field(update, "operator")?);
                if self.text(arg) == var && op == "++" {
                    return Ok(1);
                }
                Err(bad())
            }
            "assignment_expression" => {
                let left = self.field(update, "left")?;
                let op = self.text(self.field(update, "operator")?);
                let right = self.field(update, "right")?;
                if self.text(left) != var {
                    return Err(bad());
                }
                let step = match op {
                    "+=" => self.const_int(right),
                    "=" if right.kind() == "binary_expression" => {
                        let l = self.field(right, "left")?;
                        let o = self.text(self.field(right, "operator")?);
                        let r = self.field(right, "right")?;
                        if o == "+" && self.text(l) == var {
                            self.const_int(r)
                        } else if o == "+" && self.text(r) == var {
                            self.const_int(l)
                        } else {
                            None
                        }
                    }
                    _ => None,
                };
                match step {
                    Some(s) if s > 0 => Ok(s),
                    _ => Err(bad()),
                }
            }
            _ => Err(bad()),
        }
    }

    fn const_int(&self, mut n: Node) -> Option<i64> {
        while n.kind() == "parenthesized_expression" {
            n = n.named_child(0)?;
        }
        if n.kind() == "number_literal" {
            parse_int(self.text(n))
        } else {
            None
        }
    }

    /// A statement or a `{}` block as a statement list.
    fn block(&self, n: Node) -> Result<Vec<Stmt>, Diagnostic> {
        if n.kind() == "compound_statement" {
            let mut out = Vec::new();
            let mut c = n.walk();
            for child in n.named_children(&mut c) {
                out.extend(self.stmt(child)?);
            }
            Ok(out)
        } else {
            self.stmt(n)
        }
    }

    /// One C statement (a declaration may yield several).
    fn stmt(&self, n: Node) -> Result<Vec<Stmt>, Diagnostic> {
        self.nested(n, || self.stmt_inner(n))
    }

    fn stmt_inner(&self, n: Node) -> Result<Vec<Stmt>, Diagnostic> {
        let span = self.span(n);
        let one = |kind| Ok(vec![Stmt { kind, span }]);
        match n.kind() {
            "comment" => Ok(vec![]),
            "compound_statement" => one(StmtKind::Block(self.block(n)?)),
            "expression_statement" => {
                let Some(e) = n.named_child(0) else {
                    return Ok(vec![]);
                };
                one(self.assignment(e)?)
            }
            "if_statement" => {
                let cond = self.expr(self.field(n, "condition")?)?;
                let then = self.block(self.field(n, "consequence")?)?;
                let other = match n.child_by_field_name("alternative") {
                    Some(alt) => {
                        let inner = if alt.kind() == "else_clause" {
                            alt.named_child(0)
                        } else {
                            Some(alt)
                        };
                        match inner {
                            Some(s) => Some(self.block(s)?),
                            None => None,
                        }
                    }
                    None => None,
                };
                one(StmtKind::If { cond, then, other })
            }
            "for_statement" => one(StmtKind::For(self.for_loop(n)?)),
            "declaration" => self.declaration(n),
            "while_statement" | "do_statement" | "return_statement" | "break_statement"
            | "continue_statement" | "goto_statement" | "switch_statement"
            | "labeled_statement" => Err(self.unsupported(n, &describe(n.kind()))),
            other => Err(self.unsupported(n, &describe(other))),
        }
    }

    fn declaration(&self, n: Node) -> Result<Vec<Stmt>, Diagnostic> {
        let ty = self.type_of(self.field(n, "type")?)?;
        let mut out = Vec::new();
        let mut c = n.walk();
        for d in n.children_by_field_name("declarator", &mut c) {
            let (name_node, init) = match d.kind() {
                "identifier" => (d, None),
                "init_declarator" => {
                    let name = self.field(d, "declarator")?;
                    let value = self.field(d, "value")?;
                    if value.kind() == "initializer_list" {
                        return Err(self.unsupported(value, "an initializer list"));
                    }
                    (name, Some(self.expr(value)?))
                }
                _ => return Err(self.unsupported(d, "declaring an array or pointer")),
            };
            if name_node.kind() != "identifier" {
                return Err(self.unsupported(name_node, "declaring an array or pointer"));
            }
            out.push(Stmt {
                kind: StmtKind::Decl {
                    ty,
                    name: self.text(name_node).to_string(),
                    init,
                },
                span: self.span(d),
            });
        }
        Ok(out)
    }

    fn type_of(&self, n: Node) -> Result<ScalarType, Diagnostic> {
        let text = self
            .text(n)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let ty = match text.as_str() {
            "int" | "signed" | "signed int" => Some(ScalarType::Int),
            "long" | "long int" | "long long" | "long long int" => Some(ScalarType::Long),
            "float" => Some(ScalarType::Float),
            "double" => Some(ScalarType::Double),
            _ => None,
        };
        ty.ok_or_else(|| {
            Diagnostic::new(
                self.span(n),
                format!("type `{text}` is not supported in a tuned loop"),
            )
            .with_help("use int, long, float or double")
        })
    }

    fn assignment(&self, n: Node) -> Result<StmtKind, Diagnostic> {
        match n.kind() {
            "assignment_expression" => {
                let target = self.lvalue(self.field(n, "left")?)?;
                let op = match self.text(self.field(n, "operator")?) {
                    "=" => AssignOp::Set,
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    "*=" => AssignOp::Mul,
                    "/=" => AssignOp::Div,
                    other => {
                        return Err(Diagnostic::new(self.span(n), format!("the `{other}` assignment is not supported in a tuned loop"))
                            .with_help("use `=`, `+=`, `-=`, `*=` or `/=`"))
                    }
                };
                let value = self.expr(self.field(n, "right")?)?;
                if op == AssignOp::Div {
                    reject_zero_divisor(&value, false)?;
                }
                Ok(StmtKind::Assign { target, op, value })
            }
            "update_expression" => {
                let target = self.lvalue(self.field(n, "argument")?)?;
                let op = if self.text(self.field(n, "operator")?) == "++" { AssignOp::Add } else { AssignOp::Sub };
                Ok(StmtKind::Assign { target, op, value: Expr { kind: ExprKind::Int(1), span: self.span(n) } })
            }
            "call_expression" => Err(Diagnostic::new(self.span(n), "a call whose result is unused is not supported in a tuned loop")),
            _ => Err(Diagnostic::new(self.span(n), format!("`{}` is not a statement of the loop language", first_line(self.text(n))))
                .with_help("statements are assignments (`=`, `+=`, `-=`, `*=`, `/=`), `if`/`else`, `for` and declarations")),
        }
    }

    fn lvalue(&self, n: Node) -> Result<Expr, Diagnostic> {
        self.nested(n, || self.lvalue_inner(n))
    }

    fn lvalue_inner(&self, n: Node) -> Result<Expr, Diagnostic> {
        match n.kind() {
            "identifier" | "subscript_expression" => self.expr(n),
            "parenthesized_expression" => match n.named_child(0) {
                Some(c) => self.lvalue(c),
                None => Err(Diagnostic::new(self.span(n), "empty parentheses")),
            },
            _ => Err(Diagnostic::new(
                self.span(n),
                "only a variable or an array element can be assigned in a tuned loop",
            )),
        }
    }

    fn expr(&self, n: Node) -> Result<Expr, Diagnostic> {
        self.nested(n, || self.expr_inner(n))
    }

    fn expr_inner(&self, n: Node) -> Result<Expr, Diagnostic> {
        let span = self.span(n);
        let mk = |kind| Ok(Expr { kind, span });
        match n.kind() {
            "parenthesized_expression" => match n.named_child(0) {
                Some(c) if c.kind() != "comment" => self.expr(c),
                _ => Err(Diagnostic::new(span, "empty parentheses")),
            },
            "identifier" => mk(ExprKind::Var(self.text(n).to_string())),
            "number_literal" => mk(number_literal(self.text(n), span)?),
            "true" => mk(ExprKind::Int(1)),
            "false" => mk(ExprKind::Int(0)),
            "subscript_expression" => {
                let mut indices = vec![self.expr(self.field(n, "index")?)?];
                let mut arg = self.field(n, "argument")?;
                while arg.kind() == "subscript_expression" {
                    indices.push(self.expr(self.field(arg, "index")?)?);
                    arg = self.field(arg, "argument")?;
                }
                if arg.kind() != "identifier" {
                    return Err(Diagnostic::new(
                        self.span(arg),
                        "only a named array can be subscripted in a tuned loop",
                    ));
                }
                indices.reverse();
                mk(ExprKind::Index {
                    array: self.text(arg).to_string(),
                    indices,
                })
            }
            "unary_expression" => {
                let op = match self.text(self.field(n, "operator")?) {
                    "-" => UnaryOp::Neg,
                    "+" => UnaryOp::Plus,
                    "!" => UnaryOp::Not,
                    other => return Err(self.unsupported(n, &format!("the `{other}` operator"))),
                };
                mk(ExprKind::Unary(
                    op,
                    Box::new(self.expr(self.field(n, "argument")?)?),
                ))
            }
            "binary_expression" => {
                let op = match self.text(self.field(n, "operator")?) {
                    "+" => BinaryOp::Add,
                    "-" => BinaryOp::Sub,
                    "*" => BinaryOp::Mul,
                    "/" => BinaryOp::Div,
                    "%" => BinaryOp::Rem,
                    "<" => BinaryOp::Lt,
                    "<=" => BinaryOp::Le,
                    ">" => BinaryOp::Gt,
                    ">=" => BinaryOp::Ge,
                    "==" => BinaryOp::Eq,
                    "!=" => BinaryOp::Ne,
                    "&&" => BinaryOp::And,
                    "||" => BinaryOp::Or,
                    other => return Err(self.unsupported(n, &format!("the `{other}` operator"))),
                };
                let l = self.expr(self.field(n, "left")?)?;
                let r = self.expr(self.field(n, "right")?)?;
                if matches!(op, BinaryOp::Div | BinaryOp::Rem) {
                    reject_zero_divisor(&r, op == BinaryOp::Rem)?;
                }
                mk(ExprKind::Binary(op, Box::new(l), Box::new(r)))
            }
            "conditional_expression" => {
                let c = self.expr(self.field(n, "condition")?)?;
                let t = self.expr(self.field(n, "consequence")?)?;
                let e = self.expr(self.field(n, "alternative")?)?;
                mk(ExprKind::Cond(Box::new(c), Box::new(t), Box::new(e)))
            }
            "cast_expression" => {
                let tn = self.field(n, "type")?;
                if tn.child_by_field_name("declarator").is_some() {
                    return Err(self.unsupported(tn, "a pointer cast"));
                }
                let ty = self.type_of(self.field(tn, "type")?)?;
                mk(ExprKind::Cast(
                    ty,
                    Box::new(self.expr(self.field(n, "value")?)?),
                ))
            }
            "call_expression" => {
                let f = self.field(n, "function")?;
                let name = self.text(f);
                let Some(&(_, arity)) = MATH_FUNCTIONS.iter().find(|(m, _)| *m == name) else {
                    let mut d = Diagnostic::new(
                        self.span(f),
                        format!("call to `{name}` is not supported in a tuned loop"),
                    );
                    d = d.with_help(
                        match did_you_mean(name, MATH_FUNCTIONS.iter().map(|(m, _)| *m)) {
                            Some(h) => h,
                            None => format!(
                                "a tuned loop may call only the math functions {}",
                                MATH_FUNCTIONS
                                    .iter()
                                    .map(|(m, _)| *m)
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        },
                    );
                    return Err(d);
                };
                let mut args = Vec::new();
                let list = self.field(n, "arguments")?;
                let mut c = list.walk();
                for a in list.named_children(&mut c) {
                    if a.kind() != "comment" {
                        args.push(self.expr(a)?);
                    }
                }
                if args.len() != arity {
                    return Err(Diagnostic::new(
                        span,
                        format!("`{name}` takes {arity} argument(s), found {}", args.len()),
                    ));
                }
                mk(ExprKind::Call(name.to_string(), args))
            }
            "update_expression" => Err(self.unsupported(n, "`++`/`--` inside an expression")),
            "assignment_expression" => {
                Err(self.unsupported(n, "an assignment inside an expression"))
            }
            "pointer_expression" => Err(self.unsupported(n, "pointer dereference or address-of")),
            "field_expression" => Err(self.unsupported(n, "a struct field access")),
            "comma_expression" => Err(self.unsupported(n, "the comma operator")),
            "sizeof_expression" => Err(self.unsupported(n, "`sizeof`")),
            "string_literal" | "char_literal" => {
                Err(self.unsupported(n, "a string or character literal"))
            }
            other => Err(self.unsupported(n, &describe(other))),
        }
    }
}

fn first_line(s: &str) -> &str {
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

/// A C number literal of the loop, with the spec language's rules: an integer must fit in 64
/// bits (signed), a floating literal must be finite in its type (`f`: float, else double).
///
/// Errors (at `span`): `integer literal `X` does not fit in 64 bits`, `float literal `X` is out
/// of range`, an invalid literal (`09`, `1e`, `0x`), or one orcl does not support (hex floats).
fn number_literal(t: &str, span: Span) -> Result<ExprKind, Diagnostic> {
    if let Some(v) = parse_int(t) {
        return Ok(ExprKind::Int(v));
    }
    let lower = t.to_ascii_lowercase();
    let hex = lower.starts_with("0x");
    let int_body = lower.trim_end_matches(['u', 'l']);
    let is_int = if hex {
        !int_body[2..].is_empty() && int_body[2..].bytes().all(|b| b.is_ascii_hexdigit())
    } else {
        !int_body.is_empty() && int_body.bytes().all(|b| b.is_ascii_digit())
    };
    if is_int {
        let octal = !hex && int_body.len() > 1 && int_body.starts_with('0');
        if octal && int_body.bytes().any(|b| b > b'7') {
            return Err(Diagnostic::new(
                span,
                format!("invalid number literal `{t}`: a leading 0 makes it octal (digits 0-7)"),
            )
            .with_help(format!(
                "write `{}` for the decimal number",
                int_body.trim_start_matches('0')
            )));
        }
        return Err(Diagnostic::new(
            span,
            format!("integer literal `{t}` does not fit in 64 bits"),
        )
        .with_help(format!("integers are at most {}", i64::MAX)));
    }
    let (body, single) = match lower.strip_suffix('f') {
        Some(b) if !hex => (b, true),
        _ => (lower.trim_end_matches('l'), false),
    };
    let value = if hex { None } else { body.parse::<f64>().ok() };
    match value {
        Some(v) if v.is_finite() && (!single || v.abs() <= f32::MAX as f64) => {
            Ok(ExprKind::Float {
                text: t.to_string(),
                single,
            })
        }
        Some(_) => Err(
            Diagnostic::new(span, format!("float literal `{t}` is out of range")).with_help(
                if single {
                    format!("a float is at most {:e}", f32::MAX)
                } else {
                    format!("a double is at most {:e}", f64::MAX)
                },
            ),
        ),
        None => Err(Diagnostic::new(
            span,
            format!("unsupported number literal `{t}`"),
        )),
    }
}

/// A divisor that is the constant zero (`x/0`, `x % (0)`, `x/-0.0`, `y /= 0`) is an error, as
/// in the spec language (C leaves it undefined for integers).
fn reject_zero_divisor(divisor: &Expr, modulo: bool) -> Result<(), Diagnostic> {
    let mut e = divisor;
    while let ExprKind::Unary(UnaryOp::Neg | UnaryOp::Plus, inner) = &e.kind {
        e = inner;
    }
    let zero = match &e.kind {
        ExprKind::Int(0) => true,
        ExprKind::Float { text, .. } => {
            let l = text.to_ascii_lowercase();
            let body = l.trim_end_matches(['f', 'l']);
            body.parse::<f64>().is_ok_and(|v| v == 0.0)
        }
        _ => false,
    };
    if zero {
        let what = if modulo { "modulo" } else { "division" };
        return Err(Diagnostic::new(
            divisor.span,
            format!("{what} by zero: the divisor is the constant 0"),
        ));
    }
    Ok(())
}

/// A C integer literal (decimal, hex, octal; `u`/`l` suffixes), if `t` is one that fits in i64.
fn parse_int(t: &str) -> Option<i64> {
    let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()
    } else if t.len() > 1 && t.starts_with('0') && t.bytes().all(|b| b.is_ascii_digit()) {
        i64::from_str_radix(&t[1..], 8).ok()
    } else if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        t.parse().ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::c::c_expr;

    #[test]
    fn prints_with_minimal_parentheses() {
        let l = parse_loop(
            "for (i=0;i<n;i++) y[i] = (a*(x[i]+b)) - (c - d) - -e + (double)(i%3);",
            0,
        )
        .unwrap();
        let StmtKind::Assign { value, .. } = &l.body[0].kind else {
            panic!()
        };
        assert_eq!(
            c_expr(value, &|_| None),
            "a * (x[i] + b) - (c - d) - -e + (double)(i % 3)"
        );
    }

    #[test]
    fn parses_axpy() {
        let src = "for (i=0; i<=n-1; i++)\n    y[i]+=a*x[i];";
        let l = parse_loop(src, 100).unwrap();
        assert_eq!(l.var, "i");
        assert!(l.inclusive);
        assert_eq!(l.step, 1);
        assert_eq!(l.body.len(), 1);
        assert_eq!(l.var_span, Span::new(105, 106));
        match &l.body[0].kind {
            StmtKind::Assign { op, target, .. } => {
                assert_eq!(*op, AssignOp::Add);
                assert!(matches!(&target.kind, ExprKind::Index { array, .. } if array == "y"));
            }
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn strides_and_bounds() {
        let l = parse_loop(
            "for (int k = 3; k < m; k += 2) { double t = b[k]; c[k] = t > 0 ? t : -t; }",
            0,
        )
        .unwrap();
        assert_eq!((l.step, l.inclusive), (2, false));
        assert_eq!(l.body.len(), 2);
        assert!(
            parse_loop("for (i = 0; i < n; i = i + 4) y[i] = 0;", 0)
                .unwrap()
                .step
                == 4
        );
    }

    #[test]
    fn rejects_while_with_location() {
        let src = "for (i=0; i<n; i++) {\n  while (x[i] > 0) x[i] -= 1;\n}";
        let e = parse_loop(src, 10).unwrap_err();
        assert!(
            e.message.contains("`while` loop is not supported"),
            "{}",
            e.message
        );
        assert_eq!(e.span.start, 10 + src.find("while").unwrap());
    }

    #[test]
    fn rejects_unknown_call_with_suggestion() {
        let e = parse_loop("for (i=0; i<n; i++) y[i] = sqr(x[i]);", 0).unwrap_err();
        assert!(e.message.contains("call to `sqr`"));
        assert_eq!(e.help.as_deref(), Some("did you mean `sqrt`?"));
    }

    #[test]
    fn parses_an_extent_expression() {
        let e = parse_expr("n + 2", 40).unwrap();
        assert!(matches!(e.kind, ExprKind::Binary(BinaryOp::Add, _, _)));
        assert_eq!(e.span, Span::new(40, 45));
        assert!(parse_expr("f(n)", 0).is_err());
    }

    #[test]
    fn declarator_layers_from_the_name_outwards() {
        let file = "#define N 8\nvoid f(int m, int n, double A[m][n], double (*B)[N], double **C, double *D[4], const double E[][N + 1]) {}\n";
        let at = |name: &str| {
            let p = file
                .find(&format!("{name}["))
                .or_else(|| file.find(&format!("{name})")))
                .or_else(|| file.find(&format!("{name},")))
                .unwrap();
            Span::new(p, p + 1)
        };
        let arr = |t: &str| {
            let p = file.rfind(&format!("[{t}]")).unwrap() + 1;
            DeclLayer::Array(Some((t.to_string(), Span::new(p, p + t.len()))))
        };
        let (a, span) = declarator_layers(file, at("A")).unwrap();
        assert_eq!(a, vec![arr("m"), arr("n")]);
        assert_eq!(&file[span.start..span.end], "A[m][n]");
        assert_eq!(
            declarator_layers(file, at("B")).unwrap().0,
            vec![DeclLayer::Pointer, arr("N")]
        );
        let (c, span) = declarator_layers(file, at("C")).unwrap();
        assert_eq!(c, vec![DeclLayer::Pointer, DeclLayer::Pointer]);
        assert_eq!(&file[span.start..span.end], "**C");
        assert_eq!(
            declarator_layers(file, at("D")).unwrap().0,
            vec![arr("4"), DeclLayer::Pointer]
        );
        assert_eq!(
            declarator_layers(file, at("E")).unwrap().0,
            vec![DeclLayer::Array(None), arr("N + 1")]
        );
    }

    #[test]
    fn rejects_bad_increment_and_syntax() {
        assert!(parse_loop("for (i=0; i<n; i--) y[i] = 0;", 0)
            .unwrap_err()
            .message
            .contains("increment"));
        assert!(parse_loop("for (i=0; i<n; i++) y[i] = ;", 0)
            .unwrap_err()
            .message
            .contains("syntax error"));
        assert!(parse_loop("y[0] = 1;", 0)
            .unwrap_err()
            .message
            .contains("expected the parallel `for` loop"));
    }
}
