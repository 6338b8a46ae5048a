//! Timing-skeleton rendering: the C source of `skeletons/opencl_skeleton.c.tera` or
//! `skeletons/cuda_skeleton.c.tera` for one (region, input size): the inputs and their initial
//! values, the original loop as the reference, the outputs and tolerances validation compares.
//! Compiling it is `measure::skeleton`'s job.

mod half;

use crate::args::Tf32Use;
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::expr::Value;
use orcl_frontend::inputs::{array_elems, c_literal};
use orcl_frontend::ir::{Kernel, ScalarType};
use orcl_frontend::spec::{TuningSpec, VarInit};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize)]
struct Var {
    name: String,
    ty: &'static str,
    is_array: bool,
    float: bool,
    elems: String,
    random: bool,
    value: String,
    seed: u64,
    /// A reduction output of the loop.
    reduction: bool,
    /// Declared before the Loop (`int n = N;`): valued by the preamble block of `orcl_init`.
    preamble: bool,
    /// A 16-bit float array: the C function rounding a float initial value to its pattern
    /// (`orcl_f2h`, `orcl_f2bf`; see [`half`]), else empty.
    narrow: &'static str,
}

#[derive(Serialize)]
struct ReductionOut {
    name: String,
    ty: &'static str,
    /// Combines the running value `orcl_a` with a partial `orcl_b`.
    combine: String,
    tolerance: String,
}

#[derive(Serialize)]
struct Arg {
    name: String,
    ty: &'static str,
    is_array: bool,
    reduction: bool,
    written: bool,
    elems: String,
}

#[derive(Serialize)]
struct Output {
    name: String,
    ty: &'static str,
    elems: String,
    tolerance: String,
}

#[derive(Serialize)]
struct Define {
    name: String,
    value: String,
}

#[derive(Serialize)]
struct LoopVar {
    name: String,
    ty: &'static str,
}

/// Default relative tolerance for outputs of type `ty`: 1e-9 (double), 1e-4 (float), exact (integers).
pub fn default_tolerance(ty: ScalarType) -> f64 {
    match ty {
        ScalarType::Double => 1e-9,
        ScalarType::Float => 1e-4,
        _ => 0.0,
    }
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

/// Render the OpenCL timing skeleton of `kernel` for one input size (`input`: input param values).
/// `tf32`: whether and how some configuration may run the matrix product on TF32 tensor cores
/// (`TransformArgs::may_use_tf32`): float outputs are then validated at [`tf32_tolerance`], or
/// [`tf32_truncated_tolerance`] where `wgmma` may truncate the inputs.
pub fn render_opencl(
    kernel: &Kernel,
    spec: &TuningSpec,
    input: &BTreeMap<String, Value>,
    region_label: &str,
    tf32: Tf32Use,
) -> Result<String, Diagnostic> {
    let ctx = context(kernel, spec, input, region_label, tf32)?;
    Ok(crate::templates::render("opencl_skeleton.c.tera", &ctx))
}

/// Render the CUDA timing skeleton (`skeletons/cuda_skeleton.c.tera`: driver API + NVRTC) of
/// `kernel` for one input size (`tf32`: as [`render_opencl`]).
pub fn render_cuda(
    kernel: &Kernel,
    spec: &TuningSpec,
    input: &BTreeMap<String, Value>,
    region_label: &str,
    tf32: Tf32Use,
) -> Result<String, Diagnostic> {
    let ctx = context(kernel, spec, input, region_label, tf32)?;
    Ok(crate::templates::render("cuda_skeleton.c.tera", &ctx))
}

/// A list or expression initialiser of `input_vars` variable `v` (of type `ty`) as C text, or
/// `random`: (random, value).
///
/// Errors: a value that is not a number, located at its expression.
fn initial_value(
    v: &orcl_frontend::spec::VarDecl,
    ty: ScalarType,
    env: &dyn Fn(&str) -> Option<Value>,
) -> Result<(bool, String), Diagnostic> {
    Ok(match &v.init {
        VarInit::Random => (true, String::new()),
        // Element k of the list, through a C99 compound literal indexed by the template's
        // initialisation loop counter `k`.
        VarInit::List(items, _) => {
            let mut lits = Vec::new();
            for e in items {
                let x = e.eval(env)?;
                lits.push(c_literal(&x).ok_or_else(|| {
                    Diagnostic::new(
                        e.span,
                        format!("`{}` must be initialised with numbers, found {x}", v.name),
                    )
                })?);
            }
            (
                false,
                format!(
                    "((const {}[]){{{}}})[k]",
                    if ty.is_16bit() { "float" } else { ty.c_name() },
                    lits.join(", ")
                ),
            )
        }
        VarInit::Expr(e) => {
            let x = e.eval(env)?;
            (
                false,
                c_literal(&x).ok_or_else(|| {
                    Diagnostic::new(
                        e.span,
                        format!("`{}` must be initialised with a number, found {x}", v.name),
                    )
                })?,
            )
        }
    })
}

/// The skeleton's variables: `input_vars` (typed, with initial values) and the preamble's
/// scalars that the loop reads.
fn variables(
    kernel: &Kernel,
    spec: &TuningSpec,
    env: &dyn Fn(&str) -> Option<Value>,
    elems: &BTreeMap<String, u64>,
) -> Result<Vec<Var>, Diagnostic> {
    let mut vars = Vec::new();
    for v in &spec.input_vars {
        let ty = ScalarType::from_c(&v.ty).ok_or_else(|| {
            Diagnostic::new(v.ty_span, format!("type `{}` is not supported", v.ty))
                .with_help("use int, long, float or double")
        })?;
        let (random, value) = initial_value(v, ty, env)?;
        vars.push(Var {
            name: v.name.clone(),
            ty: ty.c_name(),
            is_array: !v.dims.is_empty(),
            float: ty.is_float(),
            elems: elems
                .get(&v.name)
                .map(|n| n.to_string())
                .unwrap_or_else(|| "1".into()),
            random,
            value,
            seed: fnv(&v.name),
            reduction: kernel
                .args
                .iter()
                .any(|a| a.name == v.name && a.reduction.is_some()),
            preamble: false,
            narrow: match ty {
                ScalarType::Half => "orcl_f2h",
                ScalarType::BFloat16 => "orcl_f2bf",
                _ => "",
            },
        });
    }
    // The preamble's variables that the loop reads: scalars valued by the preamble block.
    for p in &kernel.preamble {
        let Some(a) = kernel.args.iter().find(|a| a.name == p.name) else {
            continue;
        };
        vars.push(Var {
            name: p.name.clone(),
            ty: p.ty.c_name(),
            is_array: false,
            float: p.ty.is_float(),
            elems: "1".into(),
            random: false,
            value: "0".into(),
            seed: fnv(&p.name),
            reduction: a.reduction.is_some(),
            preamble: true,
            narrow: "",
        });
    }
    Ok(vars)
}

/// Each variable with what the reference loop sees under its name (`orcl_v_A`, or a pointer to
/// the rows of a multi-dimensional array), then the extent arguments (`orcl_A_dim1`) valued
/// with the `input_vars` extent.
fn references(
    kernel: &Kernel,
    spec: &TuningSpec,
    env: &dyn Fn(&str) -> Option<Value>,
    vars: Vec<Var>,
) -> Result<Vec<VarRef>, Diagnostic> {
    let mut vars: Vec<VarRef> = vars
        .into_iter()
        .map(|var| {
            let rank = kernel.rank(&var.name);
            let reference = match spec.input_vars.iter().find(|d| d.name == var.name) {
                Some(d) if rank > 1 && d.dims.len() == rank => {
                    let mut rows = String::new();
                    for e in &d.dims[1..] {
                        rows.push_str(&format!("[{}]", extent_value(e, env)?));
                    }
                    format!("(({} (*){rows})orcl_v_{})", var.ty, var.name)
                }
                _ => format!("orcl_v_{}", var.name),
            };
            Ok(VarRef { var, reference })
        })
        .collect::<Result<_, Diagnostic>>()?;
    for a in &kernel.args {
        let Some(ext) = &a.extent else { continue };
        let value = spec
            .input_vars
            .iter()
            .find(|d| d.name == ext.array)
            .and_then(|d| d.dims.get(ext.dim))
            .map(|e| extent_value(e, env))
            .transpose()?
            .unwrap_or(0);
        vars.push(VarRef {
            var: Var {
                name: a.name.clone(),
                ty: a.ty.c_name(),
                is_array: false,
                float: false,
                elems: "1".into(),
                random: false,
                value: format!("{value}L"),
                seed: fnv(&a.name),
                reduction: false,
                preamble: false,
                narrow: "",
            },
            reference: format!("orcl_v_{}", a.name),
        });
    }
    Ok(vars)
}

/// The relative tolerance of a float output of a matrix product on TF32 tensor cores summing
/// `k` products: 2^-10 · √k. TF32 keeps 10 of FP32's 23 mantissa bits (unit roundoff
/// u = 2^-11), so each product of rounded inputs is off by at most 2u ≈ 2^-10 relatively; the
/// √k growth is the probabilistic bound of Higham & Mary (*A new approach to probabilistic
/// rounding error analysis*, SIAM J. Sci. Comput. 41(5), 2019) for k terms, with λ = 1 and this
/// 2u. Never below the FP32 default (1e-4); `def validation { arg tolerance = ...; }` overrides it.
pub fn tf32_tolerance(k: u64) -> f64 {
    (2f64.powi(-10) * (k.max(1) as f64).sqrt()).max(default_tolerance(ScalarType::Float))
}

/// The relative tolerance where the TF32 inputs may be truncated instead of rounded
/// (`mmaInstruction='wgmma'`: the tensor cores read the FP32 bits staged by `cp.async` as
/// `.tf32` operands, whose low 13 mantissa bits they do not use): 2^-9 · √k. Truncation to
/// p = 11 significant bits errs by less than 2^(1-p) = 2^-10 relatively per input (twice the
/// rounding's u = 2^-11: the unit roundoff of directed rounding, Higham, *Accuracy and Stability
/// of Numerical Algorithms*, 2nd ed., §2.1), so a product of two by less than 2^-9, twice
/// [`tf32_tolerance`]'s per product, with the same √k growth (Higham & Mary 2019, λ = 1). Where
/// the terms share a sign (the skeleton's inputs in [0, 1)) the truncation errors share it too and
/// do not average out, but then the sum's relative error is at most the largest term's, 2^-9 (plus
/// FP32 summation), which this bound covers for every k ≥ 1. Never below the FP32 default.
pub fn tf32_truncated_tolerance(k: u64) -> f64 {
    2.0 * tf32_tolerance(k)
}

/// The relative tolerance of a float output of a matrix product of 16-bit inputs (`_Float16`,
/// `__bf16`) on FP16 / BF16 tensor cores summing `k` products: 2·γ_k with γ_k = k·u / (1 − k·u)
/// and FP32's unit roundoff u = 2^-24. The products of 16-bit values are exact in FP32 (11 + 11
/// and 8 + 8 significant bits ≤ 24) and the reference reads the same values (exact widening),
/// so what differs is only the order of the FP32 sums: each order is within γ_k·Σ|aᵢbᵢ| of the
/// exact sum (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §3.1, eq. 3.5),
/// two orders within 2·γ_k·Σ|aᵢbᵢ| of each other, relative to |Σaᵢbᵢ| where the terms share a
/// sign (the random inputs in [0, 1)). Never below the FP32 default (1e-4).
pub fn half_tolerance(k: u64) -> f64 {
    let ku = k.max(1) as f64 * 2f64.powi(-24);
    (2.0 * ku / (1.0 - ku).max(f64::MIN_POSITIVE)).max(default_tolerance(ScalarType::Float))
}

/// The tolerance of a tensor-core matrix product summing `k` products: [`half_tolerance`] with
/// 16-bit operands, else [`tf32_tolerance`] or, where the inputs may be truncated,
/// [`tf32_truncated_tolerance`].
fn tensor_tolerance(kernel: &Kernel, k: u64, tf32: Tf32Use) -> f64 {
    match (kernel.symbols.values().any(|s| s.ty.is_16bit()), tf32) {
        (true, _) => half_tolerance(k),
        (false, Tf32Use::Truncated) => tf32_truncated_tolerance(k),
        (false, _) => tf32_tolerance(k),
    }
}

/// The trip count of the contraction's reduction loop at this input size (`env`: the input
/// params; the loop bounds over `input_vars` scalars), or else the largest array's element
/// count (a bound on it); `None` without a contraction.
fn contraction_k(
    kernel: &Kernel,
    spec: &TuningSpec,
    env: &dyn Fn(&str) -> Option<Value>,
    elems: &BTreeMap<String, u64>,
) -> Option<u64> {
    use orcl_frontend::ir::{BinaryOp, Expr, ExprKind};
    let c = orcl_frontend::analysis::contraction(kernel)?;
    let scalar = |n: &str| -> Option<i64> {
        let v = spec
            .input_vars
            .iter()
            .find(|v| v.name == n && v.dims.is_empty());
        match v.map(|v| &v.init) {
            Some(VarInit::Expr(e)) => e.eval(env).ok()?.as_i64(),
            _ => env(n)?.as_i64(),
        }
    };
    fn eval(e: &Expr, scalar: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
        match &e.kind {
            ExprKind::Int(v) => Some(*v),
            ExprKind::Var(n) => scalar(n),
            ExprKind::Cast(_, a) => eval(a, scalar),
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (eval(a, scalar)?, eval(b, scalar)?);
                match op {
                    BinaryOp::Add => x.checked_add(y),
                    BinaryOp::Sub => x.checked_sub(y),
                    BinaryOp::Mul => x.checked_mul(y),
                    BinaryOp::Div if y != 0 => Some(x / y),
                    _ => None,
                }
            }
            _ => None,
        }
    }
    let trip = eval(&c.red.upper, &scalar)
        .zip(eval(&c.red.lower, &scalar))
        .map(|(u, l)| u - l + i64::from(c.red.inclusive));
    match trip {
        Some(t) => Some(t.max(1) as u64),
        None => elems.values().copied().max(),
    }
}

/// What validation compares, with its tolerance (`tolerance` of the spec, else the type's
/// default, or for float outputs with `tf32` the TF32 tolerance): the reductions and the written
/// arrays (`elems_of`: an array's element count).
fn validated(
    kernel: &Kernel,
    spec: &TuningSpec,
    elems_of: &dyn Fn(&str) -> String,
    tf32: Option<f64>,
) -> (Vec<ReductionOut>, Vec<Output>) {
    let tolerance = |ty: ScalarType| {
        let default = match (ty, tf32) {
            (ScalarType::Float, Some(t)) => t.max(default_tolerance(ty)),
            _ => default_tolerance(ty),
        };
        format!(
            "{:e}",
            spec.validation
                .tolerance
                .as_ref()
                .map(|t| t.value)
                .unwrap_or(default)
        )
    };
    let reductions: Vec<ReductionOut> = kernel
        .reductions()
        .map(|a| ReductionOut {
            name: a.name.clone(),
            ty: a.ty.c_name(),
            combine: a
                .reduction
                .expect("filtered")
                .combine(a.ty, "orcl_a", "orcl_b"),
            tolerance: tolerance(a.ty),
        })
        .collect();
    let outputs: Vec<Output> = kernel
        .args
        .iter()
        .filter(|a| a.is_array && a.written)
        .map(|a| Output {
            name: a.name.clone(),
            ty: a.ty.c_name(),
            elems: elems_of(&a.name),
            tolerance: tolerance(a.ty),
        })
        .collect();
    (reductions, outputs)
}

/// The template context every skeleton shares: input variables and their initial values, the
/// kernel's arguments, outputs and reductions to validate (with tolerances), the original loop.
///
/// Every array is one flat buffer (`orcl_v_A`, `elems` elements, all compared by validation);
/// `vars[].reference` is what the reference loop sees under the variable's own name: `orcl_v_A`,
/// or for a multi-dimensional array a pointer to its rows (`((double (*)[300])orcl_v_A)`), so
/// that the original `A[i][j]` compiles. Extent arguments (`orcl_A_dim1`, see
/// `ir::ExtentArg`) are `long` scalars among `vars`, valued with the `input_vars` extent.
fn context(
    kernel: &Kernel,
    spec: &TuningSpec,
    input: &BTreeMap<String, Value>,
    region_label: &str,
    tf32: Tf32Use,
) -> Result<tera::Context, Diagnostic> {
    let env = spec.input_env(input);
    let elems = array_elems(spec, &env)?;
    let tf32 = (tf32 != Tf32Use::No)
        .then(|| contraction_k(kernel, spec, &env, &elems))
        .flatten()
        .map(|k| tensor_tolerance(kernel, k, tf32));
    let vars = variables(kernel, spec, &env, &elems)?;
    let vars = references(kernel, spec, &env, vars)?;
    let elems_of = |n: &str| {
        elems
            .get(n)
            .map(|e| e.to_string())
            .unwrap_or_else(|| "1".into())
    };
    let args: Vec<Arg> = kernel
        .args
        .iter()
        .map(|a| Arg {
            name: a.name.clone(),
            ty: a.ty.c_name(),
            is_array: a.is_array,
            reduction: a.reduction.is_some(),
            written: a.written,
            elems: elems_of(&a.name),
        })
        .collect();
    let (reductions, outputs) = validated(kernel, spec, &elems_of, tf32);
    let defines: Vec<Define> = input
        .iter()
        .filter_map(|(k, v)| {
            c_literal(v).map(|value| Define {
                name: k.clone(),
                value,
            })
        })
        .filter(|d| !spec.input_vars.iter().any(|v| v.name == d.name))
        .collect();
    let loop_vars: Vec<LoopVar> = kernel
        .loop_vars()
        .iter()
        .map(|s| LoopVar {
            name: s.name.clone(),
            ty: s.ty.c_name(),
        })
        // Scalars declared outside the Loop and private to each iteration: locals of the reference.
        .chain(kernel.privates.iter().map(|p| LoopVar {
            name: p.name.clone(),
            ty: p.c_ty,
        }))
        .collect();
    let mut ctx = tera::Context::new();
    ctx.insert("region", region_label);
    ctx.insert(
        "input_label",
        &input
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" "),
    );
    ctx.insert("vars", &vars);
    ctx.insert("args", &args);
    ctx.insert("outputs", &outputs);
    ctx.insert("reductions", &reductions);
    ctx.insert("n_reductions", &reductions.len());
    ctx.insert("n_outputs", &outputs.len());
    ctx.insert("defines", &defines);
    // The preamble sees the input params and the lets as `#define`s, as in Orio's skeleton.
    let pre_defines: Vec<Define> = input
        .iter()
        .chain(spec.lets.iter().map(|l| (&l.name, &l.value)))
        .filter_map(|(k, v)| {
            c_literal(v).map(|value| Define {
                name: k.clone(),
                value,
            })
        })
        .filter(|d| !kernel.preamble.iter().any(|p| p.name == d.name))
        .filter(|d| !spec.input_vars.iter().any(|v| v.name == d.name))
        .collect();
    ctx.insert("pre_defines", &pre_defines);
    ctx.insert("preamble", &kernel.preamble);
    ctx.insert(
        "after",
        &kernel
            .after
            .as_ref()
            .map(|a| a.text.clone())
            .unwrap_or_default(),
    );
    ctx.insert("loop_vars", &loop_vars);
    ctx.insert(
        "omp_private",
        &reference_in_parallel(kernel).then(|| {
            loop_vars
                .iter()
                .map(|v| v.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        }),
    );
    ctx.insert("reference", &indent(&half::reference(kernel), 4));
    let sixteen = kernel.symbols.values().any(|s| s.ty.is_16bit())
        || vars.iter().any(|v| !v.var.narrow.is_empty());
    ctx.insert("half_helpers", if sixteen { half::C_HELPERS } else { "" });
    ctx.insert("trip", &crate::opencl::trip_expr(kernel));
    ctx.insert("nest_trips", &orcl_frontend::analysis::nest_trips(kernel));
    if let Some(steps) = crate::host::steps::context(kernel) {
        ctx.insert("steps", &steps);
    }
    Ok(ctx)
}

/// Whether the reference loop may run its outermost loop on every host core (OpenMP
/// `parallel for`): the dependence test of [`orcl_frontend::analysis::classify`] proves its iterations
/// independent, and it accumulates no scalar. Each output element is then computed by the same
/// operations in the same order as in the serial loop, so the reference outputs are bit-identical;
/// only the wall time of the skeleton's start (a 4096³ matrix product: minutes serially) changes.
/// The pragma sits under `#ifdef _OPENMP`: see [`build`] for when `-fopenmp` is added.
pub fn reference_in_parallel(kernel: &Kernel) -> bool {
    if kernel.steps.is_some() {
        return false; // a time loop: sequential
    }
    let nest = orcl_frontend::analysis::perfect_nest(kernel);
    kernel
        .args
        .iter()
        .all(|a| a.reduction.is_none() && !a.atomic_sum)
        && kernel.after.is_none()
        && kernel.source.trim_start().starts_with("for")
        && orcl_frontend::analysis::classify(kernel, &nest).first()
            == Some(&orcl_frontend::analysis::LoopKind::Parallel)
}

/// The marker [`build`] looks for: a skeleton whose reference loop runs in parallel.
pub const OMP_MARKER: &str = "#pragma omp parallel for";

/// An input variable of the skeleton and the C expression the reference loop uses for it.
#[derive(Serialize)]
struct VarRef {
    #[serde(flatten)]
    var: Var,
    reference: String,
}

/// The value of an `input_vars` extent at this input size.
fn extent_value(
    e: &orcl_frontend::expr::Expr,
    env: &dyn Fn(&str) -> Option<Value>,
) -> Result<i64, Diagnostic> {
    let x = e.eval(env)?;
    x.as_i64().filter(|k| *k > 0).ok_or_else(|| {
        Diagnostic::new(
            e.span,
            format!("array dimension must be a positive integer, found {x}"),
        )
    })
}

fn indent(s: &str, n: usize) -> String {
    let pad = " ".repeat(n);
    s.lines()
        .map(|l| format!("{pad}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
