//! Code generation: OpenCL and CUDA kernels from the schedule of each configuration, through the
//! kernel IR and its writers (`kernel_ir`); host code through tera templates in
//! `src/codegen/templates/`; this module holds the shared C expression/statement writer.

pub mod cuda;
pub mod host;
pub mod kernel_ir;
pub mod opencl;
pub mod skeleton;
pub mod target;

pub use target::{Backend, GlobalSize, Grid, Variant};

use crate::diag::{did_you_mean, Diagnostic};
use crate::frontend::expr::{KeywordArg, Value};
use std::sync::OnceLock;

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
        let low = kernel_ir::linear::lower(k, &s, fault);
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
