//! Timing skeletons: renders `skeletons/opencl_skeleton.c.tera` for one (region, input size) and
//! compiles it once with the spec's build command (`@PARAM@` substituted shell-quoted). The binary
//! is cached by a hash of its source and command, so re-runs and resumed tunes reuse it.

use crate::diag::Diagnostic;
use crate::frontend::expr::Value;
use crate::frontend::spec::{TuningSpec, VarInit};
use crate::ir::{Kernel, ScalarType};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Default host compiler command (the spec's `build_command` overrides it).
pub const DEFAULT_BUILD_COMMAND: &str = "cc -O2";

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

/// A C literal for a spec value (numbers and booleans only).
pub fn c_literal(v: &Value) -> Option<String> {
    match v {
        Value::Bool(b) => Some(if *b { "1".into() } else { "0".into() }),
        Value::Int(i) => Some(format!("{i}L")),
        Value::Float(f) if f.is_finite() => Some(format!("{f:?}")),
        _ => None,
    }
}

/// Element counts of every array of `input_vars` at this input size.
pub fn array_elems(
    spec: &TuningSpec,
    env: &dyn Fn(&str) -> Option<Value>,
) -> Result<BTreeMap<String, u64>, Diagnostic> {
    let mut out = BTreeMap::new();
    for v in spec.input_vars.iter().filter(|v| !v.dims.is_empty()) {
        let mut n: u64 = 1;
        for d in &v.dims {
            let x = d.eval(env)?;
            let k = x.as_i64().filter(|k| *k > 0).ok_or_else(|| {
                Diagnostic::new(
                    d.span,
                    format!("array dimension must be a positive integer, found {x}"),
                )
            })?;
            n = n
                .checked_mul(k as u64)
                .filter(|n| *n <= 1 << 40)
                .ok_or_else(|| Diagnostic::new(d.span, "array too large"))?;
        }
        out.insert(v.name.clone(), n);
    }
    Ok(out)
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
pub fn render_opencl(
    kernel: &Kernel,
    spec: &TuningSpec,
    input: &BTreeMap<String, Value>,
    region_label: &str,
) -> Result<String, Diagnostic> {
    let ctx = context(kernel, spec, input, region_label)?;
    Ok(crate::codegen::render("opencl_skeleton.c.tera", &ctx))
}

/// Render the CUDA timing skeleton (`skeletons/cuda_skeleton.c.tera`: driver API + NVRTC) of
/// `kernel` for one input size.
pub fn render_cuda(
    kernel: &Kernel,
    spec: &TuningSpec,
    input: &BTreeMap<String, Value>,
    region_label: &str,
) -> Result<String, Diagnostic> {
    let ctx = context(kernel, spec, input, region_label)?;
    Ok(crate::codegen::render("cuda_skeleton.c.tera", &ctx))
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
) -> Result<tera::Context, Diagnostic> {
    let env = spec.input_env(input);
    let elems = array_elems(spec, &env)?;
    let mut vars = Vec::new();
    for v in &spec.input_vars {
        let ty = ScalarType::from_c(&v.ty).ok_or_else(|| {
            Diagnostic::new(v.ty_span, format!("type `{}` is not supported", v.ty))
                .with_help("use int, long, float or double")
        })?;
        let (random, value) = match &v.init {
            VarInit::Random => (true, String::new()),
            VarInit::Expr(e) => {
                let x = e.eval(&env)?;
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
        };
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
        });
    }
    let mut vars: Vec<VarRef> = vars
        .into_iter()
        .map(|var| {
            let rank = kernel.rank(&var.name);
            let reference = match spec.input_vars.iter().find(|d| d.name == var.name) {
                Some(d) if rank > 1 && d.dims.len() == rank => {
                    let mut rows = String::new();
                    for e in &d.dims[1..] {
                        rows.push_str(&format!("[{}]", extent_value(e, &env)?));
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
            .map(|e| extent_value(e, &env))
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
            },
            reference: format!("orcl_v_{}", a.name),
        });
    }
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
    let tolerance = |ty: ScalarType| {
        format!(
            "{:e}",
            spec.validation
                .tolerance
                .as_ref()
                .map(|t| t.value)
                .unwrap_or_else(|| default_tolerance(ty))
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
    ctx.insert("defines", &defines);
    ctx.insert("loop_vars", &loop_vars);
    ctx.insert("reference", &indent(&kernel.source, 4));
    ctx.insert("trip", &crate::codegen::opencl::trip_expr(kernel));
    ctx.insert("n_arrays", &args.iter().filter(|a| a.is_array).count());
    Ok(ctx)
}

/// An input variable of the skeleton and the C expression the reference loop uses for it.
#[derive(Serialize)]
struct VarRef {
    #[serde(flatten)]
    var: Var,
    reference: String,
}

/// The value of an `input_vars` extent at this input size.
fn extent_value(
    e: &crate::frontend::expr::Expr,
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

/// Replace every `@NAME@` in `cmd` by the shell-quoted value of `NAME`; `None` names an unknown one.
pub fn substitute(cmd: &str, env: &dyn Fn(&str) -> Option<Value>) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = cmd;
    while let Some(p) = rest.find('@') {
        out.push_str(&rest[..p]);
        let after = &rest[p + 1..];
        match after.find('@') {
            Some(q)
                if !after[..q].is_empty()
                    && after[..q]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                let name = &after[..q];
                let v = env(name).ok_or_else(|| name.to_string())?;
                let plain = match v {
                    Value::Str(s) => s,
                    other => other.to_string(),
                };
                out.push_str(
                    &shlex::try_quote(&plain)
                        .map(|c| c.into_owned())
                        .unwrap_or_else(|_| "''".into()),
                );
                rest = &after[q + 1..];
            }
            _ => {
                out.push('@');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// Where compiled skeletons are cached: `$ORCL_CACHE_DIR`, else `<tmp>/orcl-cache`.
pub fn cache_dir() -> PathBuf {
    std::env::var_os("ORCL_CACHE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("orcl-cache"))
}

/// Errors compiling a skeleton.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("cannot write the skeleton to {path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("the timing skeleton failed to compile with `{command}`:\n{output}")]
    Compile { command: String, output: String },
    #[error("`{which}` failed: `{command}`:\n{output}")]
    Hook {
        which: &'static str,
        command: String,
        output: String,
    },
}

fn sh(command: &str) -> std::io::Result<std::process::Output> {
    Command::new("sh").arg("-c").arg(command).output()
}

/// Compile a rendered skeleton with `build_command` (already substituted) and `libs`, running the
/// optional pre/post-build commands. Returns the path of the (cached) binary.
pub fn build(
    source: &str,
    build_command: &str,
    libs: &str,
    prebuild: Option<&str>,
    postbuild: Option<&str>,
    dir: &Path,
) -> Result<PathBuf, BuildError> {
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |error| BuildError::Io { path, error }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut h = Sha256::new();
    h.update(source.as_bytes());
    h.update([0]);
    h.update(build_command.as_bytes());
    h.update([0]);
    h.update(libs.as_bytes());
    let hash: String = h
        .finalize()
        .iter()
        .take(10)
        .map(|b| format!("{b:02x}"))
        .collect();
    let exe = dir.join(format!("skeleton-{hash}"));
    let src = dir.join(format!("skeleton-{hash}.c"));
    if exe.exists() {
        return Ok(exe);
    }
    // Written under a per-process name and renamed: concurrent tunes never see a partial file.
    let tmp_src = dir.join(format!("skeleton-{hash}.{}.c", std::process::id()));
    std::fs::write(&tmp_src, source).map_err(io(&tmp_src))?;
    if let Some(pre) = prebuild {
        let o = sh(pre).map_err(io(dir))?;
        if !o.status.success() {
            return Err(BuildError::Hook {
                which: "prebuild_command",
                command: pre.into(),
                output: String::from_utf8_lossy(&o.stderr).into(),
            });
        }
    }
    let tmp = dir.join(format!("skeleton-{hash}.tmp{}", std::process::id()));
    let q = |p: &Path| {
        shlex::try_quote(&p.display().to_string())
            .map(|c| c.into_owned())
            .unwrap_or_default()
    };
    let command = format!(
        "{build_command} -o {} {} {libs} -lOpenCL -lm",
        q(&tmp),
        q(&tmp_src)
    );
    let o = sh(&command).map_err(io(dir))?;
    if !o.status.success() {
        let mut output = String::from_utf8_lossy(&o.stderr).into_owned();
        output.push_str(&String::from_utf8_lossy(&o.stdout));
        return Err(BuildError::Compile { command, output });
    }
    std::fs::rename(&tmp_src, &src).map_err(io(&src))?;
    std::fs::rename(&tmp, &exe).map_err(io(&exe))?;
    if let Some(post) = postbuild {
        let o = sh(post).map_err(io(dir))?;
        if !o.status.success() {
            return Err(BuildError::Hook {
                which: "postbuild_command",
                command: post.into(),
                output: String::from_utf8_lossy(&o.stderr).into(),
            });
        }
    }
    Ok(exe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitution_is_shell_safe() {
        let env = |n: &str| match n {
            "CL" => Some(Value::Str("-O3; touch /tmp/pwned".into())),
            "U" => Some(Value::Int(4)),
            _ => None,
        };
        assert_eq!(
            substitute("cc @CL@ -DU=@U@ a@b", &env).unwrap(),
            "cc '-O3; touch /tmp/pwned' -DU=4 a@b"
        );
        assert_eq!(substitute("cc @NOPE@", &env).unwrap_err(), "NOPE");
    }
}
