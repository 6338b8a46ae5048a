//! Code generation: OpenCL and CUDA kernels from the schedule of each configuration, through the
//! kernel IR and its writers (`kernel_ir`); host code through tera templates in
//! `src/codegen/templates/`; this module holds the shared C expression/statement writer.

pub mod cuda;
pub mod host;
pub mod kernel_ir;
pub mod opencl;

use crate::diag::{did_you_mean, Diagnostic};
use crate::frontend::expr::{KeywordArg, Value};
use crate::ir::{BinaryOp, Expr, ExprKind, Loop, Stmt, StmtKind, UnaryOp};
use serde::Serialize;
use std::fmt::Write;
use std::sync::OnceLock;

/// A code-generation target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Backend {
    /// OpenCL C kernels, OpenCL host code (`_file.c`).
    OpenCl,
    /// CUDA C++ kernels compiled by NVRTC (measurement) or nvcc (`_file.cu`).
    Cuda,
}

impl Backend {
    /// Lower-case name, as stored in the database (`opencl`, `cuda`).
    pub fn as_str(self) -> &'static str {
        match self {
            Backend::OpenCl => "opencl",
            Backend::Cuda => "cuda",
        }
    }
    /// The transform's name in a `Loop(transform NAME(...))` annotation.
    pub fn transform(self) -> &'static str {
        match self {
            Backend::OpenCl => "OpenCL",
            Backend::Cuda => "CUDA",
        }
    }
    /// The backend of a transform name or of a `--backends` word (case-insensitive).
    pub fn parse(s: &str) -> Option<Backend> {
        match s.to_ascii_lowercase().as_str() {
            "opencl" | "cl" => Some(Backend::OpenCl),
            "cuda" => Some(Backend::Cuda),
            _ => None,
        }
    }
}

/// The global size of a variant (NDRange / grid): fixed, or covering the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum GlobalSize {
    /// `workGroups × workItemsPerGroup` work-items (`blockCount × threadCount` threads).
    Fixed(u64),
    /// One work-item per iteration, rounded up to a multiple of the local size (computed at run
    /// time from the loop bounds).
    CoverLoop,
}

/// A multi-dimensional NDRange (CUDA grid of thread blocks) over the loops of a perfect nest:
/// NDRange dimension `d` (0 = the fastest, CUDA's `x`) covers nest loop `loops[d]` (0 = the
/// parallel loop) with `per_group[d]` iterations and `local[d]` work-items per work-group. The
/// number of work-groups along `d` is ⌈trip(loops[d]) / per_group[d]⌉, computed at run time.
/// A dimension with exactly one work-group (a row reduction's lanes, whose global size is
/// `local[d]` whatever the loop's trip) has `per_group[d]` = [`Grid::ONE_GROUP`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Grid {
    pub loops: Vec<usize>,
    pub per_group: Vec<u64>,
    pub local: Vec<u64>,
}

impl Grid {
    /// `per_group` of a dimension one work-group wide: 2^62, so that the skeletons' and host
    /// code's ⌈t / per_group⌉ (computed as `(t + per_group - 1) / per_group` in `long`, and 1
    /// for t ≤ 0) is 1 for every trip t ≤ 2^62 — the contract needs no other change.
    pub const ONE_GROUP: u64 = 1 << 62;
    /// The ten numbers the skeleton protocol and the host code take: dimensions, then
    /// (loop, iterations per group, work-items per group) for each of 3 dimensions.
    pub fn numbers(&self) -> [u64; 10] {
        let mut n = [0, 0, 1, 1, 0, 1, 1, 0, 1, 1];
        n[0] = self.loops.len() as u64;
        for d in 0..self.loops.len().min(3) {
            n[1 + 3 * d] = self.loops[d] as u64;
            n[2 + 3 * d] = self.per_group[d];
            n[3 + 3 * d] = self.local[d];
        }
        n
    }
    /// [`Grid::numbers`] as a C initializer (`{0, 0, 1, 1, ...}` for a 1-D variant, `None`).
    pub fn c_initializer(g: Option<&Grid>) -> String {
        let n = g
            .map(Grid::numbers)
            .unwrap_or([0, 0, 1, 1, 0, 1, 1, 0, 1, 1]);
        let parts: Vec<String> = n.iter().map(|x| x.to_string()).collect();
        format!("{{{}}}", parts.join(", "))
    }
}

/// One generated variant: what a timing skeleton builds and launches, and what the tuned file
/// embeds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Variant {
    pub backend: Backend,
    /// The kernel `orcl_kernel` (OpenCL C or CUDA C++).
    pub source: String,
    /// OpenCL build options; for CUDA, NVRTC options plus orcl's `-orcl-*` launch tokens (see
    /// `cuda::CudaOptions::skeleton_options`).
    pub build_options: String,
    pub global_size: GlobalSize,
    /// Local size (work-items per work-group, threads per block).
    pub local_size: u64,
    /// OpenCL platform index (0 for CUDA).
    pub platform: usize,
    /// OpenCL device index within the platform, or CUDA device ordinal.
    pub device: usize,
    /// Bytes of `__local` / `__shared__` memory the kernel declares.
    pub local_mem_bytes: u64,
    /// A multi-dimensional NDRange (`tile` configurations); `None`: the 1-D launch of
    /// `global_size` × `local_size` (then `local_size` is the product of `grid.local`).
    pub grid: Option<Grid>,
    /// Why the configuration's schedule cannot be valid (a tile that does not fit, ...): such a
    /// variant is never built or launched; `tune` records it as a device-limit outcome.
    pub invalid: Option<String>,
}

/// Generate the variant of a `tile` configuration: [`crate::schedule::check`] (located errors),
/// [`crate::schedule::for_config`] (an invalid schedule gives a variant with `invalid` set, never
/// built), [`kernel_ir::lower`], and the backend's writer.
///
/// Errors: a `tile` that no value can make valid for this nest, located at the argument.
pub(crate) fn generate_nest(
    k: &crate::ir::Kernel,
    a: &crate::schedule::NestArgs,
    backend: Backend,
    build_options: String,
    platform: usize,
    device: usize,
) -> Result<Variant, Diagnostic> {
    crate::schedule::check(k, a)?;
    let mut v = Variant {
        backend,
        source: String::new(),
        build_options,
        global_size: GlobalSize::CoverLoop,
        local_size: 1,
        platform,
        device,
        local_mem_bytes: 0,
        grid: None,
        invalid: None,
    };
    match crate::schedule::for_config(k, a) {
        Ok(s) => {
            v.source = kernel_ir::write(&kernel_ir::lower(k, &s), backend);
            v.local_size = s.local_size();
            v.local_mem_bytes = s.local_mem_bytes();
            v.grid = Some(s.grid());
        }
        Err(why) => v.invalid = Some(why),
    }
    Ok(v)
}

/// A configuration without `tile`: the 1-D map of the parallel loop
/// ([`crate::schedule::linear`]) in work-groups of `local` work-items, lowered by
/// [`kernel_ir::linear::lower`] and written for `backend`.
pub(crate) struct LinearConfig<'a> {
    pub schedule: crate::schedule::LinearSchedule,
    pub local: u64,
    pub unroll: u32,
    pub size_hint: bool,
    pub backend: Backend,
    pub build_options: String,
    pub platform: usize,
    pub device: usize,
    /// Where an argument is written, to locate what the schedule finds wrong.
    pub span_of: &'a dyn Fn(crate::schedule::LinearArg) -> crate::diag::Span,
}

impl LinearConfig<'_> {
    /// The schedule of this configuration for `k`.
    ///
    /// Errors: an `innerThreads` or `vecWidth` that does not fit the loop, located at the
    /// argument.
    pub fn schedule(&self, k: &crate::ir::Kernel) -> Result<crate::schedule::Schedule, Diagnostic> {
        crate::schedule::linear(
            k,
            self.schedule.clone(),
            self.local,
            self.unroll,
            self.size_hint,
            self.backend,
        )
        .map_err(|e| {
            let span = (self.span_of)(e.arg);
            e.at(span)
        })
    }

    /// The variant of this configuration for `k` (`fault`: a deliberately broken kernel, tests).
    ///
    /// Errors: as [`LinearConfig::schedule`].
    pub fn generate(
        &self,
        k: &crate::ir::Kernel,
        fault: Option<kernel_ir::linear::Fault>,
    ) -> Result<Variant, Diagnostic> {
        let s = self.schedule(k)?;
        let low = kernel_ir::linear::lower(k, &s, self.backend, fault);
        Ok(Variant {
            backend: self.backend,
            source: kernel_ir::write(&low.kernel, self.backend),
            build_options: self.build_options.clone(),
            global_size: match self.schedule.groups {
                Some(g) => GlobalSize::Fixed(g.saturating_mul(self.local)),
                None => GlobalSize::CoverLoop,
            },
            local_size: self.local,
            platform: self.platform,
            device: self.device,
            local_mem_bytes: low.local_mem_bytes,
            grid: None,
            invalid: None,
        })
    }
}

/// Check the argument names of `transform LABEL(...)` against `table` (name, meaning): unknown
/// names (with a did-you-mean) and repeated names are errors, located at the name.
pub(crate) fn check_transform_args(
    args: &[KeywordArg],
    table: &[(&str, &str)],
    label: &str,
) -> Result<(), Diagnostic> {
    let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
    for (k, a) in args.iter().enumerate() {
        if !names.contains(&a.name.as_str()) {
            let d = Diagnostic::new(
                a.name_span,
                format!("unknown {label} transformation argument `{}`", a.name),
            );
            return Err(match did_you_mean(&a.name, names.iter().copied()) {
                Some(h) => d.with_help(h),
                None => d.with_help(format!("the {label} transform takes {}", names.join(", "))),
            });
        }
        if args[..k].iter().any(|b| b.name == a.name) {
            return Err(Diagnostic::new(
                a.name_span,
                format!("`{}` is given twice", a.name),
            ));
        }
    }
    Ok(())
}

/// A transformation argument that is a vector width, one of `allowed` (elements per vector, in
/// increasing order): `vecWidth`, `vecLoad`. Errors: located at the argument's expression, listing
/// the widths allowed.
pub(crate) fn width_arg(v: &Value, a: &KeywordArg, allowed: &[i64]) -> Result<u32, Diagnostic> {
    let w = int_arg(v, a, 1)?;
    if allowed.contains(&w) {
        return Ok(w as u32);
    }
    let list: Vec<String> = allowed.iter().map(i64::to_string).collect();
    let list = match list.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => list.join(""),
    };
    Err(Diagnostic::new(
        a.expr.span,
        format!("`{}` must be {list}, found {w}", a.name),
    ))
}

/// A transformation argument's integer value, at least `min` (`True`/`False` count as 1/0 when
/// `min <= 0`). Errors: located at the argument's expression.
pub(crate) fn int_arg(v: &Value, a: &KeywordArg, min: i64) -> Result<i64, Diagnostic> {
    match v {
        Value::Int(i) if *i >= min => Ok(*i),
        Value::Bool(b) if min <= 0 => Ok(i64::from(*b)),
        _ => Err(Diagnostic::new(
            a.expr.span,
            format!("`{}` must be an integer ≥ {min}, found {v}", a.name),
        )),
    }
}

/// A transformation argument's boolean value (`True`/`False`, or 1/0). Errors: located at the
/// argument's expression.
pub(crate) fn bool_arg(v: &Value, a: &KeywordArg) -> Result<bool, Diagnostic> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::Int(0) => Ok(false),
        Value::Int(1) => Ok(true),
        _ => Err(Diagnostic::new(
            a.expr.span,
            format!("`{}` must be True or False, found {v}", a.name),
        )),
    }
}

/// `incrementType` (ViennaCL study §2): `'global'` → `false` (stride by the global size),
/// `'local'` → `true` (one contiguous chunk per work-group). Errors: any other value, located.
pub(crate) fn increment_type_arg(v: &Value, a: &KeywordArg) -> Result<bool, Diagnostic> {
    match v.as_str() {
        Some("global") => Ok(false),
        Some("local") => Ok(true),
        _ => Err(Diagnostic::new(
            a.expr.span,
            format!("`incrementType` must be 'global' or 'local', found {v}"),
        )),
    }
}

/// The templates, kept as files in the repository and embedded at build time.
const TEMPLATES: &[(&str, &str)] = &[
    (
        "opencl_host.c.tera",
        include_str!("templates/opencl_host.c.tera"),
    ),
    (
        "cuda_host.cu.tera",
        include_str!("templates/cuda_host.cu.tera"),
    ),
    (
        "opencl_skeleton.c.tera",
        include_str!("../../skeletons/opencl_skeleton.c.tera"),
    ),
    (
        "cuda_skeleton.c.tera",
        include_str!("../../skeletons/cuda_skeleton.c.tera"),
    ),
    (
        "skeleton_inputs.c.tera",
        include_str!("../../skeletons/skeleton_inputs.c.tera"),
    ),
    (
        "skeleton_reply.c.tera",
        include_str!("../../skeletons/skeleton_reply.c.tera"),
    ),
    (
        "skeleton_validate.c.tera",
        include_str!("../../skeletons/skeleton_validate.c.tera"),
    ),
];

fn templates() -> &'static tera::Tera {
    static T: OnceLock<tera::Tera> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = tera::Tera::default();
        t.autoescape_on(vec![]);
        t.add_raw_templates(TEMPLATES.iter().copied())
            .expect("templates shipped with orcl parse");
        t
    })
}

/// Render one of orcl's templates. The templates are part of orcl, so a failure is a bug in orcl.
pub fn render(name: &str, ctx: &tera::Context) -> String {
    match templates().render(name, ctx) {
        Ok(s) => s,
        Err(e) => {
            let mut msg = e.to_string();
            let mut src = std::error::Error::source(&e);
            while let Some(s) = src {
                msg.push_str(&format!(": {s}"));
                src = s.source();
            }
            panic!("internal error: template {name} failed to render: {msg}")
        }
    }
}

/// A substitution hook: returns replacement C text for an expression (e.g. a staged array
/// reference becoming a `__local` tile reference), or `None` to print it normally.
pub type Subst<'a> = &'a dyn Fn(&Expr) -> Option<String>;

/// C precedence level of `e` (higher binds tighter; C11 §6.5), the one table the C printers use.
pub(crate) fn prec_kind(e: &ExprKind) -> u8 {
    match e {
        ExprKind::Cond(..) => 1,
        ExprKind::Binary(op, ..) => binary_prec(*op),
        ExprKind::Unary(..) | ExprKind::Cast(..) => 8,
        _ => 9,
    }
}

/// C precedence level of binary operator `op` (the rows of [`prec_kind`]'s table for them).
pub(crate) fn binary_prec(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Or => 2,
        BinaryOp::And => 3,
        BinaryOp::Eq | BinaryOp::Ne => 4,
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 5,
        BinaryOp::Add | BinaryOp::Sub => 6,
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 7,
    }
}

fn prec(e: &Expr) -> u8 {
    prec_kind(&e.kind)
}

/// C (and OpenCL C) text of an expression, with minimal parentheses.
pub fn c_expr(e: &Expr, subst: Subst) -> String {
    let mut s = String::new();
    put_expr(&mut s, e, subst);
    s
}

fn put_child(out: &mut String, child: &Expr, min_prec: u8, subst: Subst) {
    if prec(child) < min_prec {
        out.push('(');
        put_expr(out, child, subst);
        out.push(')');
    } else {
        put_expr(out, child, subst);
    }
}

fn put_expr(out: &mut String, e: &Expr, subst: Subst) {
    if let Some(r) = subst(e) {
        out.push_str(&r);
        return;
    }
    match &e.kind {
        ExprKind::Int(v) => {
            let _ = write!(out, "{v}");
        }
        ExprKind::Float { text, .. } => out.push_str(text),
        ExprKind::Var(n) => out.push_str(n),
        ExprKind::Index { array, indices } => {
            out.push_str(array);
            for i in indices {
                out.push('[');
                put_expr(out, i, subst);
                out.push(']');
            }
        }
        ExprKind::Unary(op, a) => {
            out.push_str(match op {
                UnaryOp::Neg => "-",
                UnaryOp::Plus => "+",
                UnaryOp::Not => "!",
            });
            // Avoid `--x` / `++x` tokens.
            let nested_sign = matches!(&a.kind, ExprKind::Unary(UnaryOp::Neg | UnaryOp::Plus, _));
            if nested_sign || matches!(&a.kind, ExprKind::Int(v) if *v < 0) {
                out.push('(');
                put_expr(out, a, subst);
                out.push(')');
            } else {
                put_child(out, a, 8, subst);
            }
        }
        ExprKind::Binary(op, a, b) => {
            let p = prec(e);
            put_child(out, a, p, subst);
            let _ = write!(out, " {} ", op.c_op());
            put_child(out, b, p + 1, subst);
        }
        ExprKind::Call(f, args) => {
            out.push_str(f);
            out.push('(');
            for (k, a) in args.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                put_expr(out, a, subst);
            }
            out.push(')');
        }
        ExprKind::Cond(c, t, f) => {
            put_child(out, c, 2, subst);
            out.push_str(" ? ");
            put_child(out, t, 1, subst);
            out.push_str(" : ");
            put_child(out, f, 1, subst);
        }
        ExprKind::Cast(t, a) => {
            let _ = write!(out, "({})", t.c_name());
            put_child(out, a, 8, subst);
        }
    }
}

/// Writes loop-language statements as C, one statement per line.
pub struct StmtWriter<'a> {
    pub out: String,
    pub indent: usize,
    /// `#pragma unroll K` before the innermost inner loop (the `unrollInner` transformation).
    pub unroll: Option<i64>,
    pub subst: Subst<'a>,
}

impl StmtWriter<'_> {
    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    pub fn write_stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.write_stmt(s);
        }
    }

    pub fn write_stmt(&mut self, s: &Stmt) {
        let e = |x: &Expr| c_expr(x, self.subst);
        match &s.kind {
            StmtKind::Assign { target, op, value } => {
                let t = format!("{} {} {};", e(target), op.c_op(), e(value));
                self.line(&t);
            }
            StmtKind::Decl { ty, name, init } => {
                let t = match init {
                    Some(i) => format!("{} {name} = {};", ty.c_name(), e(i)),
                    None => format!("{} {name};", ty.c_name()),
                };
                self.line(&t);
            }
            StmtKind::If { cond, then, other } => {
                let t = format!("if ({}) {{", e(cond));
                self.line(&t);
                self.block(then);
                if let Some(o) = other {
                    self.line("} else {");
                    self.block(o);
                }
                self.line("}");
            }
            StmtKind::For(l) => self.write_loop(l),
            StmtKind::Block(b) => {
                self.line("{");
                self.block(b);
                self.line("}");
            }
        }
    }

    fn block(&mut self, stmts: &[Stmt]) {
        self.indent += 1;
        self.write_stmts(stmts);
        self.indent -= 1;
    }

    /// `for (...) { body }` of loop-language loop `l`, with `#pragma unroll K` (`unroll`) before
    /// an innermost loop.
    pub fn write_loop(&mut self, l: &Loop) {
        if let Some(k) = self.unroll.filter(|_| !l.has_inner_loops()) {
            self.line(&format!("#pragma unroll {k}"));
        }
        let cmp = if l.inclusive { "<=" } else { "<" };
        let step = if l.step == 1 {
            format!("{}++", l.var)
        } else {
            format!("{} += {}", l.var, l.step)
        };
        let t = format!(
            "for (int {v} = {}; {v} {cmp} {}; {step}) {{",
            c_expr(&l.lower, self.subst),
            c_expr(&l.upper, self.subst),
            v = l.var
        );
        self.line(&t);
        self.block(&l.body);
        self.line("}");
    }
}

/// `s` escaped for the inside of a C string literal (backslash, quote, control characters);
/// newlines included.
fn escape_c(s: &str, out: &mut String) {
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\{:03o}", c as u32);
            }
            c => out.push(c),
        }
    }
}

/// Escape `s` as the body of a C string literal, one `"...\n"` literal per source line,
/// each on its own output line indented by `indent` spaces.
pub fn c_string_lines(s: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::new();
    for line in s.lines() {
        out.push_str(&pad);
        out.push('"');
        escape_c(line, &mut out);
        out.push_str("\\n\"\n");
    }
    if out.is_empty() {
        out.push_str(&pad);
        out.push_str("\"\"\n");
    }
    out.trim_end_matches('\n').to_string()
}

/// Escape `s` as one C string literal (quotes included).
pub fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    escape_c(s, &mut out);
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::loop_lang::parse_loop;

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
    fn escapes_strings_once() {
        assert_eq!(c_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(
            c_string_lines("x\ny \"q\"", 2),
            "  \"x\\n\"\n  \"y \\\"q\\\"\\n\""
        );
    }
}
