//! Lowering: the parsed loop plus the region's declarations and `input_vars` become a typed,
//! validated `ir::Kernel` (symbols resolved, kernel arguments in first-appearance order, loop-carried
//! dependences rejected).

use crate::diag::{did_you_mean, Diagnostic, Span};
use crate::frontend::annotation::RawRegion;
use crate::frontend::loop_lang::{declarator_layers_in, parse_c_file, parse_expr, DeclLayer};
use crate::frontend::spec::TuningSpec;
use crate::ir::{
    extent_arg_name, AssignOp, BinaryOp, Expr, ExprKind, ExtentArg, Kernel, KernelArg, Loop,
    ReduceOp, ScalarType, Stmt, StmtKind, Symbol, SymbolKind, UnaryOp,
};
use std::collections::{BTreeMap, BTreeSet};

/// Lower the loop of `region` with the types of its declarations and of `spec.input_vars`.
/// `file` is the whole input text (for the dims' source text).
///
/// Multi-dimensional arrays (`double A[M][N]`, `double A[][N]`, `double (*A)[N]`, the C99
/// parameter `double A[m][n]`, any rank) are flattened: every reference `A[e0][e1]` of the
/// returned loop is `A[e0 * E1 + e1]` over one row-major buffer, where the extent `E1` is the C
/// declaration's own expression when it is one of integer constants and `int`/`long` scalars of
/// `input_vars` (which become kernel arguments), and otherwise a `long` kernel argument
/// `orcl_A_dim1` (see `ir::ExtentArg`). `Kernel::source` keeps the original text.
///
/// Errors (located): undeclared variable, a variable with no value in `input_vars`, type mismatch
/// between the C declaration and `input_vars`, wrong subscript count, assigning a loop variable or
/// an input scalar, loop-carried dependence through an array, an array whose rows are not
/// contiguous (`double **A`, `double *A[N]`), extents that differ between the C declaration and
/// `input_vars`.
pub fn lower(region: &RawRegion, spec: &TuningSpec, file: &str) -> Result<Kernel, Diagnostic> {
    let ann = &region.loop_ann;
    let mut preamble = crate::preamble::check(region, spec)?;
    let (mut parallel, after) =
        crate::frontend::loop_lang::parse_loop_and_after(&ann.code, ann.code_span.start)?;
    let privates = crate::preamble::privatize(region, spec, &preamble, &mut parallel);
    let mut cx = Cx {
        region,
        spec,
        preamble: &preamble,
        implicit: Vec::new(),
        file,
        file_tree: std::cell::OnceCell::new(),
        symbols: BTreeMap::new(),
        first_use: Vec::new(),
        scopes: vec![BTreeSet::new()],
        reductions: BTreeMap::new(),
        shapes: BTreeMap::new(),
        extent_vars: BTreeMap::new(),
        extent_args: BTreeMap::new(),
        extent_checks: Vec::new(),
    };
    cx.declare_loop_var(&parallel)?;
    cx.expr(&parallel.lower)?;
    cx.expr(&parallel.upper)?;
    cx.scopes.push(BTreeSet::new());
    cx.stmts(&parallel.body)?;
    check_dependences(&parallel, &cx.symbols)?;
    check_reduction_uses(&parallel, &cx.reductions)?;
    check_extents(spec, &cx.extent_checks)?;
    if !cx.shapes.is_empty() {
        flatten_loop(&mut parallel, &cx.shapes);
    }

    if let Some(a) = &after {
        check_after(a, &cx.symbols, &cx.reductions)?;
        // `_file.c` runs them after the tuned loop and after its fallback: they must close the
        // code the annotation encloses too.
        if !ann.original.trim_end().ends_with(a.text.trim()) {
            return Err(Diagnostic::new(ann.end_span, format!(
                "the code this Loop annotation encloses does not end with `{}`, the statements after the loop in the annotation",
                a.text.trim()
            ))
            .with_help("repeat the annotation's loop and the statements after it, as written, between the annotation and its `/*@ end @*/`"));
        }
    }
    let implicit = std::mem::take(&mut cx.implicit);
    let mut args = Vec::new();
    let mut seen = BTreeSet::new();
    cx.first_use.sort();
    for (_, name) in &cx.first_use {
        if !seen.insert(name.clone()) {
            continue;
        }
        let s = &cx.symbols[name];
        match s.kind {
            SymbolKind::Scalar | SymbolKind::Array { .. } => {
                let dims = spec
                    .input_vars
                    .iter()
                    .find(|v| &v.name == name)
                    .map(|v| {
                        v.dims
                            .iter()
                            .map(|d| {
                                file.get(d.span.start..d.span.end)
                                    .unwrap_or("")
                                    .trim()
                                    .to_string()
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                args.push(KernelArg {
                    name: name.clone(),
                    ty: s.ty,
                    is_array: matches!(s.kind, SymbolKind::Array { .. }),
                    written: s.written,
                    read: s.read,
                    dims,
                    reduction: cx.reductions.get(name).map(|(op, _)| *op),
                    extents: cx.shapes.get(name).cloned().unwrap_or_default(),
                    extent: cx.extent_args.get(name).cloned(),
                });
            }
            _ => {}
        }
    }
    if !args.iter().any(|a| a.written) {
        return Err(Diagnostic::new(parallel.span, "the tuned loop writes no array and reduces into no scalar, so it computes nothing that can be kept")
            .with_help("store results in an array, or accumulate into a scalar (`s += e`)"));
    }
    Ok(Kernel {
        parallel,
        symbols: cx.symbols,
        args,
        source: ann.code.trim().to_string(),
        preamble: {
            preamble.extend(implicit);
            preamble
        },
        privates,
        after,
    })
}

struct Cx<'a> {
    region: &'a RawRegion,
    spec: &'a TuningSpec,
    /// The region's evaluated declarations before the Loop (`int n = N;`): typed scalars.
    preamble: &'a [crate::preamble::PreVar],
    /// Function parameters bound to the input param of the same name in upper case.
    implicit: Vec<crate::preamble::PreVar>,
    /// The whole input file (for the C declarators of multi-dimensional arrays).
    file: &'a str,
    /// `file` parsed as C, once for all arrays (parsing per array was arrays × file size).
    file_tree: std::cell::OnceCell<Option<tree_sitter::Tree>>,
    symbols: BTreeMap<String, Symbol>,
    /// Kernel-argument names with the byte offset of each use (sorted for first appearance).
    first_use: Vec<(usize, String)>,
    /// Names of loop variables and temporaries in scope, innermost last.
    scopes: Vec<BTreeSet<String>>,
    /// Reduction scalars: their operator and the span of their first update.
    reductions: BTreeMap<String, (ReduceOp, Span)>,
    /// Arrays of rank > 1: the kernel expressions of their extents 1..rank (0 is not needed).
    shapes: BTreeMap<String, Vec<Expr>>,
    /// Arrays of rank > 1: the scalars their extents read (kernel arguments used with the array).
    extent_vars: BTreeMap<String, Vec<String>>,
    /// The `orcl_A_dimK` arguments.
    extent_args: BTreeMap<String, ExtentArg>,
    /// (array, dimension, the C declaration's extent) to compare with `input_vars` per input size.
    extent_checks: Vec<(String, usize, Expr)>,
}

/// The reduction an assignment to scalar `name` performs, and its operand `e`:
/// `s += e`, `s -= e`, `s = s + e`, `s = e + s`, `s = s - e` (Sum); `s *= e`, `s = s * e`,
/// `s = e * s` (Product); `s = fmax(s, e)`, `s = fmax(e, s)` (Max); `fmin` (Min).
fn reduction_of<'e>(name: &str, op: AssignOp, value: &'e Expr) -> Option<(ReduceOp, &'e Expr)> {
    crate::analysis::accumulation(
        &|e| matches!(&e.kind, ExprKind::Var(v) if v == name),
        op,
        value,
    )
    .filter(|(_, e)| !e.mentions(name))
}

/// A reduction scalar may appear only in its own updates (`s += e` with `e` free of `s`).
fn check_reduction_uses(
    l: &Loop,
    reductions: &BTreeMap<String, (ReduceOp, Span)>,
) -> Result<(), Diagnostic> {
    fn expr_uses(
        e: &Expr,
        reductions: &BTreeMap<String, (ReduceOp, Span)>,
    ) -> Result<(), Diagnostic> {
        let mut found = None;
        e.visit(&mut |x| {
            if let ExprKind::Var(v) = &x.kind {
                if found.is_none() && reductions.contains_key(v) {
                    found = Some((v.clone(), x.span));
                }
            }
        });
        match found {
            Some((v, span)) => Err(Diagnostic::new(span, format!("the reduction variable `{v}` is read outside its update; its value is only known after the loop"))
                .with_help(format!("use `{v}` only as `{v} += e` (or `*=`, `fmax`, `fmin`) inside the loop"))),
            None => Ok(()),
        }
    }
    fn stmts(
        ss: &[Stmt],
        reductions: &BTreeMap<String, (ReduceOp, Span)>,
    ) -> Result<(), Diagnostic> {
        for s in ss {
            match &s.kind {
                StmtKind::Assign { target, op, value } => match &target.kind {
                    ExprKind::Var(v) if reductions.contains_key(v) => {
                        if let Some((_, e)) = reduction_of(v, *op, value) {
                            expr_uses(e, reductions)?;
                        }
                    }
                    _ => {
                        expr_uses(target, reductions)?;
                        expr_uses(value, reductions)?;
                    }
                },
                StmtKind::If { cond, then, other } => {
                    expr_uses(cond, reductions)?;
                    stmts(then, reductions)?;
                    if let Some(o) = other {
                        stmts(o, reductions)?;
                    }
                }
                StmtKind::Decl { init: Some(i), .. } => expr_uses(i, reductions)?,
                StmtKind::Decl { .. } => {}
                StmtKind::For(l) => {
                    expr_uses(&l.lower, reductions)?;
                    expr_uses(&l.upper, reductions)?;
                    stmts(&l.body, reductions)?;
                }
                StmtKind::Block(b) => stmts(b, reductions)?,
            }
        }
        Ok(())
    }
    expr_uses(&l.lower, reductions)?;
    expr_uses(&l.upper, reductions)?;
    stmts(&l.body, reductions)
}

fn base_type(c: &str) -> Option<ScalarType> {
    let words: Vec<&str> = c
        .split_whitespace()
        .filter(|w| {
            !matches!(
                *w,
                "const"
                    | "restrict"
                    | "__restrict"
                    | "__restrict__"
                    | "volatile"
                    | "register"
                    | "static"
            )
        })
        .collect();
    match words.join(" ").as_str() {
        "int" | "signed" | "signed int" => Some(ScalarType::Int),
        "long" | "long int" | "long long" | "long long int" => Some(ScalarType::Long),
        "float" => Some(ScalarType::Float),
        "double" => Some(ScalarType::Double),
        _ => None,
    }
}

impl Cx<'_> {
    fn in_scope(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains(name))
    }

    fn known_names(&self) -> Vec<String> {
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

    fn undeclared(&self, name: &str, span: Span) -> Diagnostic {
        let names = self.known_names();
        let d = Diagnostic::new(span, format!("undeclared variable `{name}`"));
        match did_you_mean(name, names.iter().map(String::as_str)) {
            Some(h) => d.with_help(h),
            None => d.with_help(format!("declare it in the enclosing function and give it a value in `input_vars`: `decl double {name} = random;`")),
        }
    }

    /// A scalar function parameter `m` with no value, where input param `M` exists (Orio's
    /// MMMult.c uses the parameters `m, n, p` as bounds with input params `M, N, P`).
    fn implicit_binding(&self, name: &str) -> Option<crate::preamble::PreVar> {
        let f = self.region.function.as_ref()?;
        let d = self.region.decls.get(name).filter(|d| d.depth == 0)?;
        let body = self.file.get(f.span.start..f.span.end)?.find('{')? + f.span.start;
        if d.span.start < f.span.start || d.span.start >= body {
            return None;
        }
        let ty = crate::preamble::scalar_type(&d.ty).filter(|t| !t.is_float())?;
        let upper = name.to_uppercase();
        (upper != name && self.spec.input_params.iter().any(|p| p.name == upper)).then(|| {
            crate::preamble::PreVar {
                name: name.to_string(),
                ty,
                c_ty: ty.c_name(),
                init: upper,
                implicit: Some(d.span),
            }
        })
    }

    fn declare_loop_var(&mut self, l: &Loop) -> Result<(), Diagnostic> {
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
    fn resolve(&mut self, name: &str, span: Span, rank: usize) -> Result<(), Diagnostic> {
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
        if !self.spec.input_vars.iter().any(|v| v.name == name)
            && !self.preamble.iter().any(|p| p.name == name)
            && !self.implicit.iter().any(|p| p.name == name)
        {
            if let Some(p) = self.implicit_binding(name) {
                self.implicit.push(p);
            }
        }
        if let Some(p) = self
            .preamble
            .iter()
            .chain(&self.implicit)
            .find(|p| p.name == name)
        {
            // Declared and valued before the Loop: a scalar argument, like a scalar of `input_vars`.
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
            return self.check_rank(name, span, 0, rank);
        }
        let Some(decl) = self.spec.input_vars.iter().find(|v| v.name == name) else {
            if self.region.decls.contains_key(name) {
                return Err(Diagnostic::new(
                    span,
                    format!("`{name}` is used in the tuned loop but has no value in `input_vars`"),
                )
                .with_help(format!(
                    "add `decl {} {name}{} = random;` to `def input_vars`",
                    self.region.decls[name].ty.replace("const ", ""),
                    "[N]".repeat(self.region.decls[name].depth)
                )));
            }
            return Err(self.undeclared(name, span));
        };
        let ty = ScalarType::from_c(&decl.ty).ok_or_else(|| {
            Diagnostic::new(decl.ty_span, format!("type `{}` is not supported", decl.ty))
                .with_help("use int, long, float or double")
        })?;
        if let Some(c) = self.region.decls.get(name) {
            if let Some(cty) = base_type(&c.ty) {
                if cty != ty {
                    return Err(Diagnostic::new(
                        decl.ty_span,
                        format!(
                            "`{name}` is `{}` in `input_vars` but `{}` in the C code",
                            decl.ty, c.ty
                        ),
                    )
                    .with_help(format!("declare it as `{}` in `input_vars`", cty.c_name())));
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

    /// The extents of multi-dimensional array `name` (rank `rank`, first used at `at`) as kernel
    /// expressions, from its C declarator; rejects arrays whose rows are not contiguous.
    fn shape(&mut self, name: &str, at: Span, rank: usize) -> Result<(), Diagnostic> {
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
    fn is_size_expr(&self, e: &Expr) -> bool {
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

    fn check_rank(
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

    fn expr(&mut self, e: &Expr) -> Result<(), Diagnostic> {
        match &e.kind {
            ExprKind::Var(name) => {
                self.resolve(name, e.span, 0)?;
                self.mark(name, e.span, false);
            }
            ExprKind::Index { array, indices } => {
                self.resolve(array, e.span, indices.len())?;
                self.mark(array, e.span, false);
                for i in indices {
                    self.expr(i)?;
                }
            }
            _ => {
                let mut err = None;
                let mut subs = Vec::new();
                match &e.kind {
                    ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => subs.push(&**a),
                    ExprKind::Binary(_, a, b) => subs.extend([&**a, &**b]),
                    ExprKind::Call(_, args) => subs.extend(args.iter()),
                    ExprKind::Cond(a, b, c) => subs.extend([&**a, &**b, &**c]),
                    _ => {}
                }
                for s in subs {
                    if let Err(d) = self.expr(s) {
                        err = Some(d);
                        break;
                    }
                }
                if let Some(d) = err {
                    return Err(d);
                }
            }
        }
        Ok(())
    }

    fn mark(&mut self, name: &str, at: Span, write: bool) {
        if let Some(s) = self.symbols.get_mut(name) {
            if write {
                s.written = true;
            } else {
                s.read = true;
            }
            if matches!(s.kind, SymbolKind::Scalar | SymbolKind::Array { .. }) {
                self.first_use.push((at.start, name.to_string()));
            }
        }
        // The scalars an array's extents read are kernel arguments right after the array.
        if let Some(vars) = self.extent_vars.get(name).cloned() {
            for v in vars {
                self.mark(&v, Span::new(at.start + 1, at.start + 1), false);
            }
        }
    }

    fn stmts(&mut self, stmts: &[Stmt]) -> Result<(), Diagnostic> {
        for s in stmts {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), Diagnostic> {
        match &s.kind {
            StmtKind::Assign { target, op, value } => {
                self.expr(value)?;
                match &target.kind {
                    ExprKind::Var(name) => {
                        if self.in_scope(name) {
                            if self
                                .symbols
                                .get(name)
                                .is_some_and(|s| s.kind == SymbolKind::LoopVar)
                            {
                                return Err(Diagnostic::new(target.span, format!("the loop variable `{name}` cannot be assigned in the loop body")));
                            }
                            return Ok(());
                        }
                        self.resolve(name, target.span, 0)?;
                        let Some((r, _)) = reduction_of(name, *op, value) else {
                            return Err(Diagnostic::new(
                                target.span,
                                format!("`{name}` is assigned by every iteration of the parallel loop (a loop-carried scalar)"),
                            )
                            .with_help("iterations must be independent: store per-iteration results in an array, declare a temporary inside the loop, or accumulate a reduction (`s += e`, `s *= e`, `s = fmax(s, e)`, `s = fmin(s, e)`)"));
                        };
                        if let Some((prev, _)) = self.reductions.get(name) {
                            if *prev != r {
                                return Err(Diagnostic::new(target.span, format!("`{name}` is reduced with two different operators ({prev:?} and {r:?})")));
                            }
                        } else {
                            self.reductions.insert(name.clone(), (r, target.span));
                        }
                        self.mark(name, target.span, true);
                    }
                    ExprKind::Index { array, indices } => {
                        self.resolve(array, target.span, indices.len())?;
                        if *op != crate::ir::AssignOp::Set {
                            self.mark(array, target.span, false);
                        }
                        self.mark(array, target.span, true);
                        for i in indices {
                            self.expr(i)?;
                        }
                    }
                    _ => {
                        return Err(Diagnostic::new(
                            target.span,
                            "only a variable or an array element can be assigned",
                        ))
                    }
                }
            }
            StmtKind::If { cond, then, other } => {
                self.expr(cond)?;
                self.scopes.push(BTreeSet::new());
                self.stmts(then)?;
                self.scopes.pop();
                if let Some(o) = other {
                    self.scopes.push(BTreeSet::new());
                    self.stmts(o)?;
                    self.scopes.pop();
                }
            }
            StmtKind::Decl { ty, name, init } => {
                if let Some(i) = init {
                    self.expr(i)?;
                }
                if self.in_scope(name)
                    || self
                        .symbols
                        .get(name)
                        .is_some_and(|s| s.kind != SymbolKind::Local)
                    || self.spec.input_vars.iter().any(|v| &v.name == name)
                {
                    return Err(Diagnostic::new(
                        s.span,
                        format!("`{name}` is already declared; a temporary needs a new name"),
                    ));
                }
                self.symbols.insert(
                    name.clone(),
                    Symbol {
                        name: name.clone(),
                        ty: *ty,
                        kind: SymbolKind::Local,
                        read: true,
                        written: true,
                    },
                );
                self.scopes.last_mut().expect("scope").insert(name.clone());
            }
            StmtKind::For(l) => {
                self.expr(&l.lower)?;
                self.expr(&l.upper)?;
                self.scopes.push(BTreeSet::new());
                self.declare_loop_var(l)?;
                self.stmts(&l.body)?;
                self.scopes.pop();
            }
            StmtKind::Block(b) => {
                self.scopes.push(BTreeSet::new());
                self.stmts(b)?;
                self.scopes.pop();
            }
        }
        Ok(())
    }
}

/// Every written array must have a dimension in which every reference to it (reads and writes)
/// uses one and the same subscript, affine in the parallel loop variable with a non-zero
/// coefficient (and, for arrays of rank > 1, otherwise made of values fixed for the whole
/// iteration: no inner loop variable, temporary or array element): then distinct iterations
/// touch distinct elements (rows, for a 2-D array) and the parallel loop has no loop-carried
/// dependence through arrays. For a 1-D array that is: one subscript `a*i + b` for every
/// reference; for `A[i][j]` written in an inner loop over `j`, reads of `A[i][j-1]` (the same
/// row, the same work-item) are fine and reads of `A[i-1][j]` are not.
fn check_dependences(l: &Loop, symbols: &BTreeMap<String, Symbol>) -> Result<(), Diagnostic> {
    let mut refs: Vec<(&str, &Expr, bool)> = Vec::new();
    collect_refs(&l.body, &mut refs);
    let par = &l.var;
    // A subscript that can differ between references of one iteration, or between iterations
    // other than through `par`: inner loop variables, temporaries, array elements.
    let varies = |e: &Expr| -> Option<String> {
        let mut found = None;
        e.visit(&mut |x| {
            if found.is_some() {
                return;
            }
            match &x.kind {
                ExprKind::Var(v)
                    if v != par
                        && symbols.get(v).is_some_and(|s| {
                            matches!(s.kind, SymbolKind::LoopVar | SymbolKind::Local)
                        }) =>
                {
                    found = Some(v.clone());
                }
                ExprKind::Index { array, .. } => found = Some(array.clone()),
                _ => {}
            }
        });
        found
    };
    for (array, sym) in symbols {
        if !sym.written {
            continue;
        }
        let mine: Vec<&(&str, &Expr, bool)> = refs.iter().filter(|(a, _, _)| a == array).collect();
        let Some(first_write) = mine.iter().find(|(_, _, w)| *w) else {
            continue;
        };
        let ExprKind::Index { indices: wi, .. } = &first_write.1.kind else {
            continue;
        };
        if wi.len() == 1 {
            let invariant = |e: &Expr| varies(e).is_none() && !written_scalar(e, symbols);
            if owned_offsets(l, &mine, &invariant)? {
                continue;
            }
        }
        let candidates: Vec<usize> = (0..wi.len()).filter(|&d| wi[d].mentions(par)).collect();
        if candidates.is_empty() {
            let (whose, example) = if wi.len() == 1 {
                ("whose subscript does not", format!("`{array}[{par}]`"))
            } else {
                (
                    "none of whose subscripts",
                    format!("`{array}[{par}]{}`", "[j]".repeat(wi.len() - 1)),
                )
            };
            return Err(Diagnostic::new(first_write.1.span, format!(
                "loop-carried dependence: every iteration of the parallel loop writes `{}`, {whose} depend on `{par}`",
                show(first_write.1)
            ))
            .with_help(format!("the parallel loop's iterations must write distinct elements, e.g. {example}")));
        }
        let same_in = |d: usize| {
            mine.iter().all(|(_, e, _)| match &e.kind {
                ExprKind::Index { indices, .. } => {
                    indices.len() == wi.len() && indices[d].same_as(&wi[d])
                }
                _ => true,
            })
        };
        // A 1-D subscript may mix in inner loop variables (`y[i*n + j]`, the hand-flattened 2-D
        // idiom, whose `j` stays below `n`): orcl trusts it, as it cannot see the bounds. A
        // multi-dimensional array has its own dimensions for that, so there the subscript that
        // separates iterations must be fixed for the whole iteration.
        let fixed = |e: &Expr| wi.len() == 1 || varies(e).is_none();
        if candidates
            .iter()
            .any(|&d| affine_in(&wi[d], par) && fixed(&wi[d]) && same_in(d))
        {
            continue;
        }
        // Report against the first subscript that depends on the parallel variable.
        let d = candidates[0];
        let idx = &wi[d];
        if !affine_in(idx, par) {
            return Err(Diagnostic::new(
                idx.span,
                format!(
                    "the subscript `{}` of `{array}` is not affine in `{par}`",
                    show(idx)
                ),
            )
            .with_help("subscripts of written arrays must have the form `a*i + b`"));
        }
        if let Some(v) = varies(idx).filter(|_| wi.len() > 1) {
            return Err(Diagnostic::new(
                idx.span,
                format!(
                    "loop-carried dependence on `{array}`: its subscript `{}` changes with `{v}` within one iteration of the parallel loop, so two iterations can write the same element",
                    show(idx)
                ),
            )
            .with_help(format!("write `{array}` at a subscript made of `{par}` and loop-invariant scalars only (e.g. `{array}[{par}]`), and use `{v}` in another dimension or another array")));
        }
        for (_, e, is_write) in mine.iter().copied() {
            let ExprKind::Index { indices, .. } = &e.kind else {
                continue;
            };
            if indices.len() == wi.len() && indices[d].same_as(idx) {
                continue;
            }
            return Err(Diagnostic::new(e.span, format!(
                "loop-carried dependence on `{array}`: it is written at `{}` and {} at `{}`, so iterations of the parallel loop would race",
                show(first_write.1),
                if *is_write { "written" } else { "read" },
                show(e)
            ))
            .with_help(if wi.len() == 1 {
                "orcl parallelises only loops whose iterations are independent; read the old values from a separate array".to_string()
            } else {
                format!("orcl parallelises only loops whose iterations are independent: every reference to `{array}` must use the written subscript `{}` in one dimension (each iteration then owns its own rows); read the old values from a separate array", show(idx))
            }));
        }
    }
    Ok(())
}

/// Per input size, each extent of a C declarator that orcl can evaluate (integer constants, size
/// variables of `input_vars`, input parameters) must equal the `input_vars` extent: the timing
/// skeleton lays the array out with the latter, the tuned file with the former.
fn check_extents(spec: &TuningSpec, checks: &[(String, usize, Expr)]) -> Result<(), Diagnostic> {
    if checks.is_empty() {
        return Ok(());
    }
    let Ok(inputs) = crate::space::input_combinations(spec) else {
        return Ok(());
    };
    for input in &inputs {
        let env = spec.input_env(input);
        let lookup = |n: &str| -> Option<i64> {
            match spec.input_vars.iter().find(|v| v.name == n) {
                Some(v) if v.dims.is_empty() => match &v.init {
                    crate::frontend::spec::VarInit::Expr(e) => e.eval(&env).ok()?.as_i64(),
                    _ => None,
                },
                Some(_) => None,
                None => env(n)?.as_i64(),
            }
        };
        for (array, k, c_ext) in checks {
            let Some(decl) = spec.input_vars.iter().find(|v| &v.name == array) else {
                continue;
            };
            let Some(d) = decl.dims.get(*k) else {
                continue;
            };
            let (Some(c), Some(want)) = (
                eval_int(c_ext, &lookup),
                d.eval(&env).ok().and_then(|v| v.as_i64()),
            ) else {
                continue;
            };
            if c != want {
                let sizes: Vec<String> = input.iter().map(|(k, v)| format!("{k}={v}")).collect();
                let what = if k + 1 == decl.dims.len() {
                    format!("the row length of `{array}`")
                } else {
                    format!("extent {} of `{array}`", k + 1)
                };
                return Err(Diagnostic::new(
                    d.span,
                    format!(
                        "{what} is {want} in `input_vars` but {c} in its C declaration (`{}`) at input {}",
                        show(c_ext),
                        sizes.join(" ")
                    ),
                )
                .with_help("give `input_vars` the C declaration's extents, so that the reference loop and the kernel see the same layout"));
            }
        }
    }
    Ok(())
}

/// The value of an integer expression whose names `lookup` knows (`None` otherwise, or on
/// overflow or division by zero).
fn eval_int(e: &Expr, lookup: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Var(n) => lookup(n),
        ExprKind::Unary(UnaryOp::Neg, a) => eval_int(a, lookup)?.checked_neg(),
        ExprKind::Unary(UnaryOp::Plus, a) => eval_int(a, lookup),
        ExprKind::Cast(ScalarType::Int | ScalarType::Long, a) => eval_int(a, lookup),
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (eval_int(a, lookup)?, eval_int(b, lookup)?);
            match op {
                BinaryOp::Add => x.checked_add(y),
                BinaryOp::Sub => x.checked_sub(y),
                BinaryOp::Mul => x.checked_mul(y),
                BinaryOp::Div => x.checked_div(y),
                BinaryOp::Rem => x.checked_rem(y),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Rewrite every reference to a multi-dimensional array (`shapes`: its extents 1..rank) into
/// one row-major subscript: `A[e0][e1][e2]` → `A[(e0 * E1 + e1) * E2 + e2]`.
fn flatten_loop(l: &mut Loop, shapes: &BTreeMap<String, Vec<Expr>>) {
    flatten_expr(&mut l.lower, shapes);
    flatten_expr(&mut l.upper, shapes);
    flatten_stmts(&mut l.body, shapes);
}

fn flatten_stmts(stmts: &mut [Stmt], shapes: &BTreeMap<String, Vec<Expr>>) {
    for s in stmts {
        match &mut s.kind {
            StmtKind::Assign { target, value, .. } => {
                flatten_expr(target, shapes);
                flatten_expr(value, shapes);
            }
            StmtKind::If { cond, then, other } => {
                flatten_expr(cond, shapes);
                flatten_stmts(then, shapes);
                if let Some(o) = other {
                    flatten_stmts(o, shapes);
                }
            }
            StmtKind::Decl { init, .. } => {
                if let Some(i) = init {
                    flatten_expr(i, shapes);
                }
            }
            StmtKind::For(l) => flatten_loop(l, shapes),
            StmtKind::Block(b) => flatten_stmts(b, shapes),
        }
    }
}

fn flatten_expr(e: &mut Expr, shapes: &BTreeMap<String, Vec<Expr>>) {
    let span = e.span;
    match &mut e.kind {
        ExprKind::Index { array, indices } => {
            for i in indices.iter_mut() {
                flatten_expr(i, shapes);
            }
            let Some(extents) = shapes.get(array.as_str()) else {
                return;
            };
            if indices.len() != extents.len() + 1 {
                return;
            }
            let mut it = std::mem::take(indices).into_iter();
            let mut flat = it.next().expect("rank > 1");
            for (next, extent) in it.zip(extents) {
                // `0 * E + e` is `e`; `e0 * E + 0` is `e0 * E`.
                let scaled = match flat.kind {
                    ExprKind::Int(0) => None,
                    _ => Some(Expr {
                        kind: ExprKind::Binary(
                            BinaryOp::Mul,
                            Box::new(flat),
                            Box::new(extent.clone()),
                        ),
                        span,
                    }),
                };
                flat = match (scaled, &next.kind) {
                    (None, _) => next,
                    (Some(s), ExprKind::Int(0)) => s,
                    (Some(s), _) => Expr {
                        kind: ExprKind::Binary(BinaryOp::Add, Box::new(s), Box::new(next)),
                        span,
                    },
                };
            }
            *indices = vec![flat];
        }
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => flatten_expr(a, shapes),
        ExprKind::Binary(_, a, b) => {
            flatten_expr(a, shapes);
            flatten_expr(b, shapes);
        }
        ExprKind::Call(_, args) => args.iter_mut().for_each(|a| flatten_expr(a, shapes)),
        ExprKind::Cond(a, b, c) => {
            flatten_expr(a, shapes);
            flatten_expr(b, shapes);
            flatten_expr(c, shapes);
        }
        _ => {}
    }
}

fn collect_refs<'a>(stmts: &'a [Stmt], out: &mut Vec<(&'a str, &'a Expr, bool)>) {
    fn reads<'a>(e: &'a Expr, out: &mut Vec<(&'a str, &'a Expr, bool)>) {
        match &e.kind {
            ExprKind::Index { array, indices } => {
                out.push((array.as_str(), e, false));
                indices.iter().for_each(|i| reads(i, out));
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => reads(a, out),
            ExprKind::Binary(_, a, b) => {
                reads(a, out);
                reads(b, out);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| reads(a, out)),
            ExprKind::Cond(a, b, c) => {
                reads(a, out);
                reads(b, out);
                reads(c, out);
            }
            _ => {}
        }
    }
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { target, value, .. } => {
                reads(value, out);
                if let ExprKind::Index { array, indices } = &target.kind {
                    for i in indices {
                        reads(i, out);
                    }
                    out.push((array.as_str(), target, true));
                }
            }
            StmtKind::If { cond, then, other } => {
                reads(cond, out);
                collect_refs(then, out);
                if let Some(o) = other {
                    collect_refs(o, out);
                }
            }
            StmtKind::Decl { init: Some(i), .. } => reads(i, out),
            StmtKind::Decl { .. } => {}
            StmtKind::For(l) => {
                reads(&l.lower, out);
                reads(&l.upper, out);
                collect_refs(&l.body, out);
            }
            StmtKind::Block(b) => collect_refs(b, out),
        }
    }
}

/// Whether `e` is affine in `var`: `var` appears only under `+`, `-`, unary minus, and
/// multiplication by an expression free of `var`.
fn affine_in(e: &Expr, var: &str) -> bool {
    use crate::ir::BinaryOp::*;
    if !e.mentions(var) {
        return true;
    }
    match &e.kind {
        ExprKind::Var(_) => true,
        ExprKind::Unary(crate::ir::UnaryOp::Neg | crate::ir::UnaryOp::Plus, a) => affine_in(a, var),
        ExprKind::Cast(t, a) => !t.is_float() && affine_in(a, var),
        ExprKind::Binary(Add | Sub, a, b) => affine_in(a, var) && affine_in(b, var),
        ExprKind::Binary(Mul, a, b) => {
            (affine_in(a, var) && !b.mentions(var)) || (affine_in(b, var) && !a.mentions(var))
        }
        _ => false,
    }
}

/// C text of an expression (for messages).
pub fn show(e: &Expr) -> String {
    crate::codegen::c_expr(e, &|_| None)
}

/// Statements after the parallel loop (issue 11 class 3, Orio's vecNorm2 `r = sqrt(r);`): each
/// must assign a reduction scalar of the loop (`r = e;`, `r op= e;`) from reduction scalars,
/// scalars the loop reads, constants and math calls; they run once, after the reduction is
/// finished, in the skeleton (validated with the reference, which runs them too) and in
/// `_file.c`. Errors are located at the statement or the name.
fn check_after(
    a: &crate::frontend::loop_lang::After,
    symbols: &BTreeMap<String, Symbol>,
    reductions: &BTreeMap<String, (ReduceOp, Span)>,
) -> Result<(), Diagnostic> {
    let help = "after the loop, orcl runs assignments to the loop's reductions (`r = sqrt(r);`); move other statements after the Loop annotation's `/*@ end @*/`";
    for s in &a.stmts {
        let StmtKind::Assign { target, value, .. } = &s.kind else {
            return Err(Diagnostic::new(s.span, "orcl does not support this statement after the parallel loop inside a Loop annotation").with_help(help));
        };
        let ExprKind::Var(r) = &target.kind else {
            return Err(Diagnostic::new(target.span, format!("after the parallel loop, `{}` is assigned; only the loop's reduction scalars may be", show(target))).with_help(help));
        };
        if !reductions.contains_key(r) {
            return Err(Diagnostic::new(target.span, format!("after the parallel loop, `{r}` is assigned, but it is not a reduction of the loop")).with_help(help));
        }
        let mut bad = None;
        value.visit(&mut |x| match &x.kind {
            ExprKind::Var(v) if bad.is_none() => {
                let ok = symbols.get(v).is_some_and(|s| s.kind == SymbolKind::Scalar);
                if !ok {
                    bad = Some((v.clone(), x.span));
                }
            }
            ExprKind::Index { array, .. } if bad.is_none() => {
                bad = Some((array.clone(), x.span));
            }
            _ => {}
        });
        if let Some((v, span)) = bad {
            return Err(Diagnostic::new(span, format!("after the parallel loop, `{r}` is computed from `{v}`; orcl can use the loop's reductions and the scalars the loop reads there")).with_help(help));
        }
    }
    Ok(())
}

/// Whether `e` reads a scalar the loop writes (a reduction), which is not loop-invariant.
fn written_scalar(e: &Expr, symbols: &BTreeMap<String, Symbol>) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        if let ExprKind::Var(v) = &x.kind {
            found |= symbols
                .get(v)
                .is_some_and(|s| s.kind == SymbolKind::Scalar && s.written);
        }
    });
    found
}

/// A subscript as `coef * par + Σ atoms + constant`: atoms are loop-invariant sub-expressions
/// (by their C text) with integer coefficients.
#[derive(Debug, Clone, PartialEq, Default)]
struct Linear {
    par: i64,
    atoms: BTreeMap<String, i64>,
    konst: i64,
}

impl Linear {
    fn scale(mut self, k: i64) -> Option<Linear> {
        self.par = self.par.checked_mul(k)?;
        self.konst = self.konst.checked_mul(k)?;
        for v in self.atoms.values_mut() {
            *v = v.checked_mul(k)?;
        }
        Some(self)
    }
    fn add(mut self, o: Linear, sign: i64) -> Option<Linear> {
        self.par = self.par.checked_add(o.par.checked_mul(sign)?)?;
        self.konst = self.konst.checked_add(o.konst.checked_mul(sign)?)?;
        for (k, v) in o.atoms {
            let e = self.atoms.entry(k).or_insert(0);
            *e = e.checked_add(v.checked_mul(sign)?)?;
        }
        self.atoms.retain(|_, v| *v != 0);
        Some(self)
    }
    fn only_const(&self) -> Option<i64> {
        (self.par == 0 && self.atoms.is_empty()).then_some(self.konst)
    }
}

/// `e` as a [`Linear`] form in `par`; `None` when it is not affine in `par` or reads something
/// that changes within an iteration (`invariant` false: inner loop variables, temporaries, array
/// elements).
fn linear(e: &Expr, par: &str, invariant: &dyn Fn(&Expr) -> bool) -> Option<Linear> {
    use crate::ir::BinaryOp::*;
    match &e.kind {
        ExprKind::Int(k) => Some(Linear {
            konst: *k,
            ..Linear::default()
        }),
        ExprKind::Var(v) if v == par => Some(Linear {
            par: 1,
            ..Linear::default()
        }),
        ExprKind::Unary(UnaryOp::Neg, a) => linear(a, par, invariant)?.scale(-1),
        ExprKind::Unary(UnaryOp::Plus, a) => linear(a, par, invariant),
        ExprKind::Binary(op @ (Add | Sub), a, b) => {
            let sign = if *op == Add { 1 } else { -1 };
            linear(a, par, invariant)?.add(linear(b, par, invariant)?, sign)
        }
        ExprKind::Binary(Mul, a, b) => {
            let (la, lb) = (linear(a, par, invariant), linear(b, par, invariant));
            if let Some(k) = la.as_ref().and_then(Linear::only_const) {
                return lb?.scale(k);
            }
            if let Some(k) = lb.as_ref().and_then(Linear::only_const) {
                return la?.scale(k);
            }
            atom(e, par, invariant)
        }
        _ => atom(e, par, invariant),
    }
}

fn atom(e: &Expr, par: &str, invariant: &dyn Fn(&Expr) -> bool) -> Option<Linear> {
    if e.mentions(par) || !invariant(e) {
        return None;
    }
    Some(Linear {
        atoms: BTreeMap::from([(show(e), 1)]),
        ..Linear::default()
    })
}

/// One array written at several offsets in one iteration (`dia[i + k*nrows]`, k = 0..6;
/// `F[2*i]`, `F[2*i+1]`; `f[i]` .. `f[i+3]` with `i += 4`): `Ok(true)` when every reference of
/// the array is `a*par + c_p` with one `a` and the offsets provably never meet across iterations,
/// `Ok(false)` when the references do not have that form (the single-subscript rules apply),
/// and an error naming two writes that may collide otherwise.
///
/// Two offsets whose difference `d` is a constant are disjoint when `d` is no multiple of
/// `a * step`. A difference `d*X` of one loop-invariant scalar `X` is disjoint when `|d| >= |a|`,
/// the loop starts at a constant >= 0 and runs below `X` (`par < X + c`, c <= 0, or `par <= X - c`,
/// c >= 1): then `|a*(i1 - i2)| < |a|*X <= |d*X|`.
fn owned_offsets(
    l: &Loop,
    refs: &[&(&str, &Expr, bool)],
    invariant: &dyn Fn(&Expr) -> bool,
) -> Result<bool, Diagnostic> {
    let par = &l.var;
    let mut forms: Vec<(Linear, &Expr, bool)> = Vec::new();
    for (_, e, w) in refs {
        let ExprKind::Index { indices, .. } = &e.kind else {
            return Ok(false);
        };
        let [ix] = indices.as_slice() else {
            return Ok(false);
        };
        let Some(f) = linear(ix, par, invariant) else {
            return Ok(false);
        };
        if !forms.iter().any(|(g, _, _)| *g == f) {
            forms.push((f, e, *w));
        } else if *w {
            if let Some(x) = forms.iter_mut().find(|(g, _, _)| *g == f) {
                x.2 = true;
                x.1 = e;
            }
        }
    }
    // One written offset (reads elsewhere): the single-subscript rules say what is wrong.
    if forms.iter().filter(|(_, _, w)| *w).count() < 2 {
        return Ok(false);
    }
    let a = forms[0].0.par;
    if a == 0 || forms.iter().any(|(f, _, _)| f.par != a) {
        return Ok(false);
    }
    let lower = linear(&l.lower, par, invariant).and_then(|f| f.only_const());
    let upper = linear(&l.upper, par, invariant);
    let bounded_by = |x: &str| -> bool {
        let Some(u) = &upper else { return false };
        let c = u.konst - if l.inclusive { 0 } else { 1 };
        lower.is_some_and(|lo| lo >= 0)
            && u.par == 0
            && u.atoms.len() == 1
            && u.atoms.get(x) == Some(&1)
            && c <= -1
    };
    for (p, (fp, ep, wp)) in forms.iter().enumerate() {
        for (fq, eq, wq) in forms.iter().skip(p + 1) {
            if !wp && !wq {
                continue;
            }
            let Some(d) = fp.clone().add(fq.clone(), -1) else {
                return Ok(false);
            };
            let period = a.checked_mul(l.step).unwrap_or(0);
            let ok = match d.only_const() {
                Some(k) => period != 0 && k % period != 0,
                None => {
                    d.konst == 0
                        && d.atoms.len() == 1
                        && d.atoms
                            .iter()
                            .all(|(x, k)| k.abs() >= a.abs() && bounded_by(x))
                }
            };
            if !ok {
                let (w, o) = if *wp { (ep, eq) } else { (eq, ep) };
                return Err(Diagnostic::new(
                    w.span,
                    format!(
                        "`{}` and `{}` may touch the same element from two iterations of the parallel loop: orcl cannot prove their offsets disjoint",
                        show(w),
                        show(o)
                    ),
                )
                .with_help(format!(
                    "one array may be written at several offsets per iteration when the offsets differ by a constant that is no multiple of the stride ({}), or by a multiple k*X (|k| >= {}) of the loop's bound X (`for ({par}=0; {par}<X; ...)`)",
                    period.abs(),
                    a.abs()
                )));
            }
        }
    }
    Ok(true)
}
