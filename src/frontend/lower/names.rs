//! Name resolution and types: loop variables, scopes, declarations of the region, the function
//! and `input_vars`, multi-dimensional arrays' shapes and extents, subscript counts.

use super::{base_type, Cx};
use crate::annotation::CDecl;
use crate::diag::{did_you_mean, Diagnostic, Span};
use crate::ir::{
    extent_arg_name, BinaryOp, Expr, ExprKind, ExtentArg, Loop, ScalarType, Symbol, SymbolKind,
    UnaryOp,
};
use crate::loop_lang::{declarator_layers_in, parse_c_file, parse_expr, DeclLayer};
use crate::spec::VarDecl;

impl Cx<'_> {
    pub(super) fn in_scope(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains(name))
    }

    pub(super) fn known_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .spec
            .input_vars
            .iter()
            .map(|d| d.name.clone())
            .collect();
        v.extend(self.region.decls.keys().cloned());
        v.extend(self.scopes.iter().flatten().cloned());
        v
    }

    pub(super) fn undeclared(&self, name: &str, span: Span) -> Diagnostic {
        let names = self.known_names();
        let d = Diagnostic::new(span, format!("undeclared variable `{name}`"));
        match did_you_mean(name, names.iter().map(String::as_str)) {
            Some(h) => d.with_help(h),
            None if crate::macros::looks_like_macro(name) => d.with_help(crate::macros::undefined_help(name)),
            None => d.with_help(format!("declare it in the enclosing function and give it a value in `input_vars`: `decl double {name} = random;`")),
        }
    }

    /// A scalar function parameter `m` with no value, where input param `M` exists (Orio's
    /// MMMult.c uses the parameters `m, n, p` as bounds with input params `M, N, P`).
    pub(super) fn implicit_binding(&self, name: &str) -> Option<crate::ir::PreVar> {
        let f = self.region.function.as_ref()?;
        let d = self.region.decls.get(name).filter(|d| d.depth == 0)?;
        let body = self.file.get(f.span.start..f.span.end)?.find('{')? + f.span.start;
        if d.span.start < f.span.start || d.span.start >= body {
            return None;
        }
        let ty = crate::preamble::scalar_type(&d.ty).filter(|t| !t.is_float())?;
        let upper = name.to_uppercase();
        (upper != name && self.spec.input_params.iter().any(|p| p.name == upper)).then(|| {
            crate::ir::PreVar {
                name: name.to_string(),
                ty,
                c_ty: ty.c_name(),
                init: upper,
                implicit: Some(d.span),
            }
        })
    }

    /// A scalar local of the enclosing function declared before the region with an initializer
    /// orcl can evaluate (`int nx = n - 2;`: reads only input params, lets, scalars of
    /// `input_vars`, the preamble and other such locals; calls only math functions) and never
    /// named again before the region (so it still holds that value): made a preamble variable
    /// with that initializer, after those it reads. False when `name` is no such local.
    fn computable_local(&mut self, name: &str, depth: usize) -> bool {
        if self.known_value(name) {
            return true;
        }
        if depth > 16 {
            return false;
        }
        let Some((d, after)) = self
            .region
            .locals
            .iter()
            .rev()
            .find(|(d, _)| d.name == name)
        else {
            return false;
        };
        let visible = self.region.decls.get(name).map(|c| c.span.start) == Some(d.name_span.start);
        let renamed = self
            .file
            .get(after.start..after.end)
            .is_some_and(|t| names_word(t, name));
        let Some(ty) = crate::preamble::scalar_type(&d.ty) else {
            return false;
        };
        let Some((init, _)) = &d.init else {
            return false;
        };
        let pure_calls = d
            .calls
            .iter()
            .all(|(f, _)| crate::preamble::MATH_FUNCTIONS.contains(&f.as_str()));
        if !visible || renamed || !pure_calls {
            return false;
        }
        for (r, _) in &d.reads {
            if self.known_value(r) || self.spec.lets.iter().any(|l| &l.name == r) {
                continue;
            }
            if let Some(p) = self.implicit_binding(r) {
                self.implicit.push(p);
                continue;
            }
            if !self.computable_local(r, depth + 1) {
                return false;
            }
        }
        self.implicit.push(crate::ir::PreVar {
            name: name.to_string(),
            ty,
            c_ty: ty.c_name(),
            init: init.clone(),
            implicit: None,
        });
        true
    }

    /// Does `name` have a value in the timing skeleton already: an input param, a scalar of
    /// `input_vars`, a preamble or implicit variable?
    fn known_value(&self, name: &str) -> bool {
        self.spec.input_params.iter().any(|p| p.name == name)
            || self
                .spec
                .input_vars
                .iter()
                .any(|v| v.name == name && v.dims.is_empty())
            || self.preamble.iter().any(|p| p.name == name)
            || self.implicit.iter().any(|p| p.name == name)
    }

    pub(super) fn declare_loop_var(&mut self, l: &Loop) -> Result<(), Diagnostic> {
        if self.spec.input_vars.iter().any(|v| v.name == l.var) {
            return Err(Diagnostic::new(
                l.var_span,
                format!("loop variable `{}` is also declared in `input_vars`", l.var),
            )
            .with_help("loop variables take their values from the loop; remove the `decl`"));
        }
        let ty = match self.region.decls.get(&l.var) {
            Some(d) => base_type(&d.ty).filter(|t| !t.is_float()).ok_or_else(|| {
                Diagnostic::new(
                    l.var_span,
                    format!(
                        "loop variable `{}` has type `{}`; it must be `int` or `long`",
                        l.var, d.ty
                    ),
                )
            })?,
            None => ScalarType::Int,
        };
        if let Some(s) = self.symbols.get(&l.var) {
            if s.kind != SymbolKind::LoopVar {
                return Err(Diagnostic::new(
                    l.var_span,
                    format!("`{}` is used both as a loop variable and as a value", l.var),
                ));
            }
        }
        self.symbols.insert(
            l.var.clone(),
            Symbol {
                name: l.var.clone(),
                ty,
                kind: SymbolKind::LoopVar,
                read: true,
                written: false,
            },
        );
        self.scopes.last_mut().expect("scope").insert(l.var.clone());
        Ok(())
    }

    /// Resolve a free variable (not a loop variable or temporary): type from `input_vars`,
    /// checked against the C declaration.
    pub(super) fn resolve(
        &mut self,
        name: &str,
        span: Span,
        rank: usize,
    ) -> Result<(), Diagnostic> {
        if self.in_scope(name) {
            if rank > 0 {
                return Err(Diagnostic::new(
                    span,
                    format!("`{name}` is a scalar and cannot be subscripted"),
                ));
            }
            return Ok(());
        }
        if let Some(s) = self.symbols.get(name) {
            let have = match s.kind {
                SymbolKind::Array { rank } => rank,
                _ => 0,
            };
            if s.kind == SymbolKind::LoopVar {
                // An inner loop's variable used after its loop: C allows it, the loop language does not.
                return Err(Diagnostic::new(
                    span,
                    format!("loop variable `{name}` is used outside its loop"),
                ));
            }
            return self.check_rank(name, span, have, rank);
        }
        if self.resolve_preamble(name) {
            return self.check_rank(name, span, 0, rank);
        }
        let Some(decl) = self.spec.input_vars.iter().find(|v| v.name == name) else {
            return Err(self.no_value(name, span));
        };
        let ty = ScalarType::from_c(&decl.ty).ok_or_else(|| {
            Diagnostic::new(decl.ty_span, format!("type `{}` is not supported", decl.ty))
                .with_help("use int, long, float or double")
        })?;
        if let Some(c) = self.region.decls.get(name) {
            check_c_declaration(name, decl, ty, c)?;
        }
        // The C declaration says how the loop subscripts the array: a pointer with several
        // `input_vars` extents is a flattened array (`double *A` indexed `A[i*n+j]`).
        let declared_rank = match self.region.decls.get(name) {
            Some(c) if !decl.dims.is_empty() => c.depth,
            _ => decl.dims.len(),
        };
        let kind = if decl.dims.is_empty() {
            SymbolKind::Scalar
        } else {
            SymbolKind::Array {
                rank: declared_rank,
            }
        };
        self.symbols.insert(
            name.to_string(),
            Symbol {
                name: name.to_string(),
                ty,
                kind,
                read: false,
                written: false,
            },
        );
        let have = match kind {
            SymbolKind::Array { rank } => rank,
            _ => 0,
        };
        self.check_rank(name, span, have, rank)?;
        if have > 1 {
            self.shape(name, span, have)?;
        }
        Ok(())
    }

    /// `name` declared and valued before the Loop (Orio's preamble, or a function parameter
    /// bound to an input param by [`Cx::implicit_binding`]): made a scalar symbol, like a scalar
    /// of `input_vars`. False when `name` is neither.
    fn resolve_preamble(&mut self, name: &str) -> bool {
        if !self.spec.input_vars.iter().any(|v| v.name == name)
            && !self.preamble.iter().any(|p| p.name == name)
            && !self.implicit.iter().any(|p| p.name == name)
        {
            if let Some(p) = self.implicit_binding(name) {
                self.implicit.push(p);
            } else {
                self.computable_local(name, 0);
            }
        }
        let Some(p) = self
            .preamble
            .iter()
            .chain(&self.implicit)
            .find(|p| p.name == name)
        else {
            return false;
        };
        self.symbols.insert(
            name.to_string(),
            Symbol {
                name: name.to_string(),
                ty: p.ty,
                kind: SymbolKind::Scalar,
                read: false,
                written: false,
            },
        );
        true
    }

    /// The error for `name` (used at `span`) without a value: declared in C but not in
    /// `input_vars`, or not declared at all.
    fn no_value(&self, name: &str, span: Span) -> Diagnostic {
        if let Some(c) = self.region.decls.get(name) {
            let local = self.region.locals.iter().any(|(d, _)| d.name == name);
            return Diagnostic::new(
                span,
                if local {
                    format!("`{name}` is used in the tuned loop but orcl cannot compute its value: its initializer reads what the timing skeleton does not have, or it is named again between its declaration and the region")
                } else {
                    format!("`{name}` is used in the tuned loop but has no value in `input_vars`")
                },
            )
            .with_help(format!(
                "add `decl {} {name}{} = random;` to `def input_vars`",
                c.ty.replace("const ", ""),
                "[N]".repeat(c.depth)
            ));
        }
        self.undeclared(name, span)
    }

    /// The extents of multi-dimensional array `name` (rank `rank`, first used at `at`) as kernel
    /// expressions, from its C declarator; rejects arrays whose rows are not contiguous.
    pub(super) fn shape(&mut self, name: &str, at: Span, rank: usize) -> Result<(), Diagnostic> {
        let c = self.region.decls.get(name).cloned();
        let layers = c.as_ref().and_then(|c| {
            let tree = self.file_tree.get_or_init(|| parse_c_file(self.file));
            declarator_layers_in(tree.as_ref()?, self.file, c.span)
        });
        if let (Some(c), Some((layers, dspan))) = (&c, &layers) {
            let written = self.file.get(dspan.start..dspan.end).unwrap_or(name);
            let declared = format!("{} {written}", c.ty);
            let flat_help = || {
                let dims: String = ["m", "n", "k", "l", "p", "q"]
                    .iter()
                    .cycle()
                    .take(rank)
                    .map(|d| format!("[{d}]"))
                    .collect();
                format!(
                    "declare `{name}` as one block of memory: `{} {name}{dims}` (also as a function parameter), `{} (*{name}){}` or `{} {name}[]{}`; or flatten it to `{} *{name}` and write `{name}[i*n + j]`",
                    c.ty,
                    c.ty,
                    &dims[3..],
                    c.ty,
                    &dims[3..],
                    c.ty
                )
            };
            for (k, l) in layers.iter().enumerate().skip(1) {
                match l {
                    DeclLayer::Pointer => {
                        let what = if matches!(layers[0], DeclLayer::Pointer) {
                            "a pointer to pointers"
                        } else {
                            "an array of pointers"
                        };
                        return Err(Diagnostic::new(
                            *dspan,
                            format!("`{name}` is declared `{declared}`, {what}: its rows are separate blocks of memory, which orcl cannot copy to the device as one buffer"),
                        )
                        .with_help(flat_help()));
                    }
                    DeclLayer::Array(None) => {
                        return Err(Diagnostic::new(
                            *dspan,
                            format!("extent {} of `{name}` is missing in `{declared}`; only the first extent of an array may be left out", k + 1),
                        )
                        .with_help(flat_help()))
                    }
                    DeclLayer::Array(Some(_)) => {}
                }
            }
        }
        let mut extents = Vec::new();
        let mut vars = Vec::new();
        for k in 1..rank {
            let c_ext = layers.as_ref().and_then(|(ls, _)| match ls.get(k) {
                Some(DeclLayer::Array(Some((t, sp)))) => Some((t.trim().to_string(), *sp)),
                _ => None,
            });
            let parsed = c_ext
                .as_ref()
                .and_then(|(t, sp)| parse_expr(t, sp.start).ok());
            if let Some(e) = &parsed {
                self.extent_checks.push((name.to_string(), k, e.clone()));
            }
            match parsed.filter(|e| self.is_size_expr(e)) {
                Some(e) => {
                    let mut names = Vec::new();
                    e.visit(&mut |x| {
                        if let ExprKind::Var(v) = &x.kind {
                            names.push((v.clone(), x.span));
                        }
                    });
                    for (v, span) in names {
                        self.resolve(&v, span, 0)?;
                        if !vars.contains(&v) {
                            vars.push(v);
                        }
                    }
                    extents.push(e);
                }
                None => {
                    let arg = extent_arg_name(name, k);
                    self.symbols.insert(
                        arg.clone(),
                        Symbol {
                            name: arg.clone(),
                            ty: ScalarType::Long,
                            kind: SymbolKind::Scalar,
                            read: true,
                            written: false,
                        },
                    );
                    self.extent_args.insert(
                        arg.clone(),
                        ExtentArg {
                            array: name.to_string(),
                            dim: k,
                            c_text: c_ext.map(|(t, _)| t),
                        },
                    );
                    extents.push(Expr {
                        kind: ExprKind::Var(arg.clone()),
                        span: at,
                    });
                    vars.push(arg);
                }
            }
        }
        self.shapes.insert(name.to_string(), extents);
        self.extent_vars.insert(name.to_string(), vars);
        Ok(())
    }

    /// Whether `e` (an extent from a C declarator) is an integer expression the kernel can
    /// compute: integer literals and `int`/`long` scalars of `input_vars` under `+ - * / %`.
    pub(super) fn is_size_expr(&self, e: &Expr) -> bool {
        let mut ok = true;
        e.visit(&mut |x| match &x.kind {
            ExprKind::Int(_)
            | ExprKind::Unary(UnaryOp::Neg | UnaryOp::Plus, _)
            | ExprKind::Cast(ScalarType::Int | ScalarType::Long, _)
            | ExprKind::Binary(
                BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem,
                _,
                _,
            ) => {}
            ExprKind::Var(v) => {
                ok &= !self.in_scope(v)
                    && self
                        .symbols
                        .get(v)
                        .is_none_or(|s| s.kind == SymbolKind::Scalar)
                    && self.spec.input_vars.iter().any(|d| {
                        &d.name == v
                            && d.dims.is_empty()
                            && matches!(
                                ScalarType::from_c(&d.ty),
                                Some(ScalarType::Int | ScalarType::Long)
                            )
                    })
            }
            _ => ok = false,
        });
        ok
    }

    pub(super) fn check_rank(
        &self,
        name: &str,
        span: Span,
        have: usize,
        used: usize,
    ) -> Result<(), Diagnostic> {
        if have == used {
            return Ok(());
        }
        if have == 0 {
            return Err(Diagnostic::new(
                span,
                format!("`{name}` is a scalar and cannot be subscripted"),
            ));
        }
        if used == 0 {
            return Err(Diagnostic::new(
                span,
                format!("array `{name}` is used without a subscript"),
            )
            .with_help(format!("write `{name}[i]`")));
        }
        Err(Diagnostic::new(
            span,
            format!("`{name}` has {have} dimension(s) but is subscripted with {used}"),
        ))
    }
}

/// The `input_vars` declaration `decl` of `name` (element type `ty`) agrees with its C
/// declaration `c`: the same element type, and as many dimensions (or a pointer, for a
/// hand-flattened array).
fn check_c_declaration(
    name: &str,
    decl: &VarDecl,
    ty: ScalarType,
    c: &CDecl,
) -> Result<(), Diagnostic> {
    if let Some(cty) = base_type(&c.ty) {
        if cty != ty {
            return Err(Diagnostic::new(
                decl.ty_span,
                format!(
                    "`{name}` is `{}` in `input_vars` but `{}` in the C code",
                    decl.ty, c.ty
                ),
            )
            .with_help(format!(
                "declare it as `{}` in `input_vars`",
                cty.user_name()
            )));
        }
    }
    if c.depth != decl.dims.len() && !(c.depth == 1 && decl.dims.len() > 1) {
        let d = Diagnostic::new(
            decl.name_span,
            format!(
                "`{name}` has {} dimension(s) in `input_vars` but {} in the C code",
                decl.dims.len(),
                c.depth
            ),
        );
        return Err(if c.depth > 1 {
            let dims: String = ["M", "N", "K", "L", "P", "Q"]
                .iter()
                .cycle()
                .take(c.depth)
                .map(|d| format!("[{d}]"))
                .collect();
            d.with_help(format!(
                "give it one extent per C dimension: `decl static {} {name}{dims} = ...;`",
                decl.ty
            ))
        } else {
            d
        });
    }
    Ok(())
}

/// Does `text` name the identifier `name` (as a whole word)?
fn names_word(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(word)
            && !text[i + name.len()..].chars().next().is_some_and(word)
    })
}
