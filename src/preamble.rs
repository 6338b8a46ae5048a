//! Orio's preamble: the declarations between the `PerfTuning` header and the `Loop` annotation
//! (`int n=N;` in the OrCL paper's Fig. 2, `int nrows = m*n; double hx = 1.0/(m-1);` in its
//! PETSc kernels), checked against the spec, typed, and compiled as C into the timing skeleton.
//!
//! Orio compiles these statements into its skeleton with the input params as `#define`s and runs
//! them before the loop; orcl does the same (`skeletons/skeleton_inputs.c.tera`), so every
//! variable they declare has the value C gives it, and the loop may use it as a size, a scalar or
//! a bound (it becomes a kernel argument like a scalar of `input_vars`). The tuned file keeps the
//! statements where they were.

use crate::diag::{did_you_mean, Diagnostic};
use crate::frontend::annotation::RawRegion;
use crate::frontend::spec::TuningSpec;
use crate::ir::ScalarType;
use serde::Serialize;

/// One variable of the preamble with an initializer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PreVar {
    pub name: String,
    /// Its C type (`int`, `long`, `float`, `double`).
    #[serde(skip)]
    pub ty: ScalarType,
    /// `ty.c_name()`, for the skeleton template.
    pub c_ty: &'static str,
    /// The initializer's C text, as written.
    pub init: String,
}

/// C math functions a preamble initializer may call (C99 `<math.h>`, which the skeleton includes).
pub const MATH_FUNCTIONS: &[&str] = &[
    "sqrt", "cbrt", "exp", "exp2", "log", "log2", "log10", "pow", "fabs", "floor", "ceil", "round",
    "trunc", "fmin", "fmax", "fmod", "sin", "cos", "tan", "atan", "atan2", "abs", "labs",
];

/// The scalar type of a preamble declaration's base type (`register`, `const`, `static`, ...
/// dropped), or `None` when it is not int/long/float/double.
pub fn scalar_type(ty: &str) -> Option<ScalarType> {
    let words: Vec<&str> = ty
        .split_whitespace()
        .filter(|w| {
            !matches!(
                *w,
                "const" | "register" | "static" | "auto" | "volatile" | "signed"
            )
        })
        .collect();
    match words.join(" ").as_str() {
        "" if ty.contains("signed") => Some(ScalarType::Int),
        "long int" | "long long" | "long long int" => Some(ScalarType::Long),
        w => ScalarType::from_c(w),
    }
}

/// Check the preamble of `region`: each initialized variable has a supported type, and its
/// initializer reads only input params, lets, scalars of `input_vars` and the preamble variables
/// declared before it, and calls only [`MATH_FUNCTIONS`]. Returns the initialized variables in
/// source order (a declaration without initializer, `double s;`, declares a variable of the
/// function and is not evaluated).
///
/// Errors (located at the name): an unsupported type; a name with no value in the skeleton (a
/// function parameter, a later or undeclared variable, an array); a call of another function; a
/// variable declared both here and in `input_vars`.
pub fn check(region: &RawRegion, spec: &TuningSpec) -> Result<Vec<PreVar>, Diagnostic> {
    let mut out: Vec<PreVar> = Vec::new();
    for d in &region.preamble {
        let Some((init, _)) = &d.init else { continue };
        if let Some(v) = spec.input_vars.iter().find(|v| v.name == d.name) {
            return Err(Diagnostic::new(
                d.name_span,
                format!(
                    "`{}` is declared before the Loop and also in `input_vars`; the timing skeleton cannot tell which value to use",
                    d.name
                ),
            )
            .with_help(format!("keep one: the statement before the Loop (Orio's style) or `decl {} {}` in `input_vars`", v.ty, v.name)));
        }
        let ty = scalar_type(&d.ty).ok_or_else(|| {
            Diagnostic::new(
                d.name_span,
                format!(
                    "`{}` is declared `{}` before the Loop; orcl evaluates declarations of int, long, float and double there",
                    d.name, d.ty
                ),
            )
        })?;
        for (f, span) in &d.calls {
            if !MATH_FUNCTIONS.contains(&f.as_str()) {
                let e = Diagnostic::new(
                    *span,
                    format!(
                        "the declaration of `{}` before the Loop calls `{f}`, which the timing skeleton does not have",
                        d.name
                    ),
                );
                return Err(match did_you_mean(f, MATH_FUNCTIONS.iter().copied()) {
                    Some(h) => e.with_help(h),
                    None => e.with_help("a declaration before the Loop may call C math functions (sqrt, exp, pow, fabs, ...); compute other values in `input_vars`"),
                });
            }
        }
        for (r, span) in &d.reads {
            let known = spec.input_params.iter().any(|p| &p.name == r)
                || spec.lets.iter().any(|l| &l.name == r)
                || spec
                    .input_vars
                    .iter()
                    .any(|v| &v.name == r && v.dims.is_empty())
                || out.iter().any(|p| &p.name == r);
            if known {
                continue;
            }
            let mut names: Vec<&str> = spec.input_params.iter().map(|p| p.name.as_str()).collect();
            names.extend(spec.lets.iter().map(|l| l.name.as_str()));
            names.extend(out.iter().map(|p| p.name.as_str()));
            let why = if spec.input_vars.iter().any(|v| &v.name == r) {
                format!("`{r}` is an array")
            } else if region.preamble.iter().any(|p| &p.name == r) {
                format!("`{r}` gets its value later or not at all")
            } else if region.decls.contains_key(r) {
                format!("`{r}` has no value in the timing skeleton")
            } else {
                format!("`{r}` is not declared")
            };
            let e = Diagnostic::new(
                *span,
                format!(
                    "the declaration of `{}` before the Loop reads `{r}`, but {why}",
                    d.name
                ),
            );
            return Err(match did_you_mean(r, names) {
                Some(h) => e.with_help(h),
                None => e.with_help("a declaration before the Loop may read input params (`int n = N;`), lets, scalars of `input_vars` and the variables declared before it"),
            });
        }
        out.push(PreVar {
            name: d.name.clone(),
            ty,
            c_ty: ty.c_name(),
            init: init.clone(),
        });
    }
    Ok(out)
}
