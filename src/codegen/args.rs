//! Transformation arguments: the names of `transform OpenCL(...)` / `transform CUDA(...)` checked
//! against a backend's table, and typed values (integers, booleans, vector widths,
//! `incrementType`) read from an argument's value, with located errors.

use orcl_frontend::diag::{did_you_mean, Diagnostic};
use orcl_frontend::expr::{KeywordArg, Value};

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
