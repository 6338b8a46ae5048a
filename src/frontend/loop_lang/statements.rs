//! Statements of the loop language: `for` loops (init, condition, step), blocks, declarations,
//! assignments, `if`/`else`.

use super::cx::{describe, first_line, Cx};
use super::expressions::{parse_int, reject_zero_divisor};
use crate::diag::Diagnostic;
use crate::ir::{AssignOp, Expr, ExprKind, Loop, ScalarType, Stmt, StmtKind};
use tree_sitter::Node;

impl Cx<'_> {
    pub(super) fn for_loop(&self, n: Node) -> Result<Loop, Diagnostic> {
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
    pub(super) fn stmt(&self, n: Node) -> Result<Vec<Stmt>, Diagnostic> {
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

    pub(super) fn type_of(&self, n: Node) -> Result<ScalarType, Diagnostic> {
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
}
