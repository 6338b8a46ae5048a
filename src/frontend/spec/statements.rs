//! The statements of a section: `let`, `param`, `constraint`, `decl` (input variables) and `arg`.

use super::parser::{NameKind, PResult, RawArg, RawLet, RawParam, SpecParser};
use super::sections::{quoted_list, Sec};
use super::{ConstraintDecl, Storage, VarDecl, VarInit, VAR_TYPES};
use crate::diag::{did_you_mean, Diagnostic, Span};
use crate::expr::{ExprKind, Tok};

impl SpecParser<'_> {
    pub(super) fn let_stmt(&mut self) -> PResult<()> {
        self.p.bump()?; // let
        let (name, name_span) = self.ident("a name after `let`")?;
        self.define_name(&name, name_span, NameKind::Let)?;
        self.expect_eq(&format!("`let {name}`"))?;
        let expr = self.p.expression()?;
        self.end_statement(&format!("the value of `{name}`"))?;
        self.lets.push(RawLet {
            name,
            name_span,
            expr,
        });
        Ok(())
    }

    pub(super) fn param_stmt(&mut self, sec: Sec) -> PResult<()> {
        let kw = self.p.bump()?;
        let (name, name_span) = self.ident("a parameter name after `param`")?;
        let input = sec == Sec::InputParams;
        let kind = if input {
            NameKind::InputParam
        } else {
            NameKind::PerfParam
        };
        self.define_name(&name, name_span, kind)?;
        let mut bracketed = false;
        if self.p.eat_sym("[")? {
            let t = self.p.peek()?;
            if !t.is_sym("]") {
                return Err(Diagnostic::new(
                    t.span,
                    format!(
                        "expected `]` in `param {name}[]`, found {}",
                        self.p.describe(&t)
                    ),
                )
                .with_help(format!(
                    "parameters are declared as `param {name}[] = [v1, v2, ...];`"
                )));
            }
            self.p.bump()?;
            bracketed = true;
        }
        let decl = if bracketed {
            format!("`param {name}[]`")
        } else {
            format!("`param {name}`")
        };
        self.expect_eq(&decl)?;
        let expr = self.p.expression()?;
        let end = self.end_statement(&format!("the values of parameter `{name}`"))?;
        self.params.push(RawParam {
            input,
            name,
            name_span,
            span: Span::new(kw.span.start, end),
            bracketed,
            expr,
        });
        Ok(())
    }

    pub(super) fn constraint_stmt(&mut self, sec: Sec) -> PResult<()> {
        let kw = self.p.bump()?;
        let (name, name_span) = self.ident("a constraint name after `constraint`")?;
        self.expect_eq(&format!("`constraint {name}`"))?;
        let expr = self.p.expression()?;
        let end = self.end_statement(&format!("constraint `{name}`"))?;
        let all = self
            .spec
            .constraints
            .iter()
            .chain(&self.spec.input_constraints);
        if all.into_iter().any(|c| c.name == name) {
            return Err(Diagnostic::new(
                name_span,
                format!("duplicate constraint `{name}`"),
            ));
        }
        let c = ConstraintDecl {
            name,
            span: Span::new(kw.span.start, end),
            expr,
        };
        if sec == Sec::InputParams {
            self.spec.input_constraints.push(c);
        } else {
            self.spec.constraints.push(c);
        }
        Ok(())
    }

    pub(super) fn decl_stmt(&mut self) -> PResult<()> {
        let kw = self.p.bump()?;
        let mut storage = Storage::Default;
        let t = self.p.peek()?;
        if t.is_ident("static") {
            storage = Storage::Static;
            self.p.bump()?;
        } else if t.is_ident("dynamic") {
            storage = Storage::Dynamic;
            self.p.bump()?;
        }
        let t = self.p.peek()?;
        let ty = match &t.tok {
            Tok::Ident(ty) if VAR_TYPES.contains(&ty.as_str()) => ty.clone(),
            Tok::Ident(ty) => {
                let mut d = Diagnostic::new(
                    t.span,
                    format!("unsupported type `{ty}` in `decl`: input variables are int, long, float or double"),
                );
                if let Some(h) = did_you_mean(ty, VAR_TYPES.iter().copied()) {
                    d = d.with_help(h);
                }
                return Err(d);
            }
            _ => {
                return Err(Diagnostic::new(
                    t.span,
                    format!(
                        "expected a type (int, long, float, double) after `decl`, found {}",
                        self.p.describe(&t)
                    ),
                ))
            }
        };
        let ty_span = t.span;
        self.p.bump()?;
        let (name, name_span) = self.ident("a variable name")?;
        let mut dims = Vec::new();
        while self.p.peek()?.is_sym("[") {
            let open = self.p.bump()?;
            if self.p.peek()?.is_sym("]") {
                return Err(Diagnostic::new(
                    open.span,
                    format!("missing array dimension in `{name}[]`"),
                )
                .with_help(format!("give the size, e.g. `{name}[N]`")));
            }
            dims.push(self.p.expression()?);
            self.p.expect_sym("]", "`]` to close the array dimension")?;
        }
        self.expect_eq(&format!(
            "`decl {ty} {name}` (give an initial value: `random`, `0` or an expression)"
        ))?;
        let init = if self.p.peek()?.is_sym("{") {
            let open = self.p.bump()?;
            let mut items = Vec::new();
            while !self.p.peek()?.is_sym("}") {
                items.push(self.p.expression()?);
                if !self.p.peek()?.is_sym("}") {
                    self.p
                        .expect_sym(",", "`,` or `}` in the brace initialiser")?;
                }
            }
            let close = self.p.bump()?;
            let span = open.span.to(close.span);
            if dims.is_empty() {
                return Err(Diagnostic::new(
                    span,
                    format!("`{name}` is a scalar: a brace initialiser needs an array"),
                )
                .with_help(format!(
                    "declare it as an array, e.g. `{name}[{}]`",
                    items.len().max(1)
                )));
            }
            if items.is_empty() {
                return Err(Diagnostic::new(span, "empty brace initialiser")
                    .with_help("list one value per element, e.g. `{0, 1, 2}`"));
            }
            VarInit::List(items, span)
        } else {
            let expr = self.p.expression()?;
            match &expr.kind {
                ExprKind::Name(n) if n == "random" => VarInit::Random,
                _ => VarInit::Expr(expr),
            }
        };
        let end = self.end_statement(&format!("the declaration of `{name}`"))?;
        if self.spec.input_vars.iter().any(|v| v.name == name) {
            return Err(Diagnostic::new(
                name_span,
                format!("duplicate input variable `{name}`"),
            ));
        }
        self.spec.input_vars.push(VarDecl {
            storage,
            ty,
            ty_span,
            name,
            name_span,
            dims,
            init,
            span: Span::new(kw.span.start, end),
        });
        Ok(())
    }

    pub(super) fn arg_stmt(&mut self, sec: Sec) -> PResult<()> {
        let kw = self.p.bump()?;
        let (name, name_span) = self.ident("an argument name after `arg`")?;
        let known = sec.args();
        let is_option = sec == Sec::Search && !known.contains(&name.as_str()) && name.contains('_');
        if !known.contains(&name.as_str()) {
            let hint = did_you_mean(&name, known.iter().copied());
            // `<algorithm>_<option>` unless it looks like a typo of a search argument.
            if !(is_option && hint.is_none()) {
                let mut d = Diagnostic::new(
                    name_span,
                    format!("unknown argument `{name}` in section `{}`", sec.name()),
                );
                d = match hint {
                    Some(h) => d.with_help(h),
                    None if known.is_empty() => d.with_help(format!(
                        "section `{}` takes no `arg` statements",
                        sec.name()
                    )),
                    None if sec == Sec::Search => d.with_help(format!(
                        "section `search` accepts {} and `<algorithm>_<option>`",
                        quoted_list(known)
                    )),
                    None => d.with_help(format!(
                        "section `{}` accepts {}",
                        sec.name(),
                        quoted_list(known)
                    )),
                };
                return Err(d);
            }
        }
        self.expect_eq(&format!("`arg {name}`"))?;
        let expr = self.p.expression()?;
        let end = self.end_statement(&format!("the value of `{name}`"))?;
        if self.args.iter().any(|a| a.sec == sec && a.name == name) {
            return Err(Diagnostic::new(
                name_span,
                format!("duplicate argument `{name}` in section `{}`", sec.name()),
            ));
        }
        self.args.push(RawArg {
            sec,
            name,
            name_span,
            span: Span::new(kw.span.start, end),
            expr,
        });
        Ok(())
    }
}
