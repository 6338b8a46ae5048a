//! The built-in functions: `range`, `len`, `min`, `max`, `abs`, `int`, `float`, `str`.

use super::eval::Ctx;
use super::value::{fmt_float, num, py_cmp, Num};
use super::{Expr, Value, MAX_RANGE};
use crate::diag::{Diagnostic, Span};

/// A call of a built-in: its name, argument values and expressions (for spans), and its span.
struct Call<'a> {
    name: &'a str,
    vals: Vec<Value>,
    args: &'a [Expr],
    span: Span,
}

impl Call<'_> {
    /// Error unless the call has `lo..=hi` arguments.
    fn arity(&self, lo: usize, hi: usize) -> Result<(), Diagnostic> {
        let (name, vals, span) = (self.name, &self.vals, self.span);
        if vals.len() < lo || vals.len() > hi {
            let want = if lo == hi {
                format!("{lo}")
            } else {
                format!("{lo} to {hi}")
            };
            return Err(Diagnostic::new(
                span,
                format!(
                    "{name}() takes {want} argument{} ({} given)",
                    if hi == 1 { "" } else { "s" },
                    vals.len()
                ),
            ));
        }
        Ok(())
    }

    /// The span of argument `k` (the call's span when there is no such argument).
    fn arg_span(&self, k: usize) -> Span {
        self.args.get(k).map(|a| a.span).unwrap_or(self.span)
    }
}

/// Apply the built-in `name` to the values `vals` of its arguments `args`.
pub(super) fn call(
    name: &str,
    vals: Vec<Value>,
    args: &[Expr],
    span: Span,
    ctx: &mut Ctx,
) -> Result<Value, Diagnostic> {
    let c = Call {
        name,
        vals,
        args,
        span,
    };
    match name {
        "range" => range(&c, ctx),
        "len" => len(&c),
        "min" | "max" => min_max(c),
        "abs" => abs(&c),
        "int" => int(&c),
        "float" => float(&c),
        "str" => {
            c.arity(1, 1)?;
            let s = c.vals[0].to_py_str();
            ctx.spend(s.len() as u64, span)?;
            Ok(Value::Str(s))
        }
        _ => Err(Diagnostic::new(span, format!("unknown function `{name}`"))),
    }
}

/// `range(stop)`, `range(start, stop)`, `range(start, stop, step)`: at most [`MAX_RANGE`]
/// integers, charged to the evaluation budget.
fn range(c: &Call, ctx: &mut Ctx) -> Result<Value, Diagnostic> {
    c.arity(1, 3)?;
    let span = c.span;
    let mut ints = Vec::with_capacity(3);
    for (k, v) in c.vals.iter().enumerate() {
        match num(v) {
            Some(Num::I(i)) => ints.push(i as i128),
            _ => {
                return Err(Diagnostic::new(
                    c.arg_span(k),
                    format!(
                        "range() arguments must be integers, found {} {v}",
                        v.type_name()
                    ),
                ))
            }
        }
    }
    let (start, stop, step) = match ints.as_slice() {
        [b] => (0, *b, 1),
        [a, b] => (*a, *b, 1),
        [a, b, c] => (*a, *b, *c),
        _ => return Err(Diagnostic::new(span, "range() takes 1 to 3 arguments")),
    };
    if step == 0 {
        return Err(Diagnostic::new(
            c.arg_span(2),
            "range() step must not be zero",
        ));
    }
    let len = if step > 0 {
        if stop > start {
            (stop - start + step - 1) / step
        } else {
            0
        }
    } else if start > stop {
        (start - stop - step - 1) / (-step)
    } else {
        0
    };
    if len > MAX_RANGE {
        return Err(Diagnostic::new(
            span,
            format!("range() would have {len} elements; at most {MAX_RANGE} are allowed"),
        ));
    }
    ctx.spend(len as u64, span)?;
    let mut out = Vec::with_capacity(len as usize);
    let mut x = start;
    for _ in 0..len {
        out.push(Value::Int(x as i64));
        x += step;
    }
    Ok(Value::list(out))
}

/// `len(list)` or `len(str)` (characters).
fn len(c: &Call) -> Result<Value, Diagnostic> {
    c.arity(1, 1)?;
    match &c.vals[0] {
        Value::List(l) => Ok(Value::Int(l.len() as i64)),
        Value::Str(s) => Ok(Value::Int(s.chars().count() as i64)),
        v => Err(Diagnostic::new(
            c.arg_span(0),
            format!("len() needs a list or str, found {}", v.type_name()),
        )),
    }
}

/// `min`/`max` of several arguments or of one list: the first extreme item in Python order.
fn min_max(c: Call) -> Result<Value, Diagnostic> {
    let (name, span) = (c.name, c.span);
    if c.vals.is_empty() {
        return Err(Diagnostic::new(
            span,
            format!("{name}() needs at least one argument"),
        ));
    }
    let items: Vec<Value> = if c.vals.len() == 1 {
        match &c.vals[0] {
            Value::List(l) => l.to_vec(),
            v => {
                return Err(Diagnostic::new(
                    c.arg_span(0),
                    format!(
                        "{name}() of a single argument needs a list, found {}",
                        v.type_name()
                    ),
                ))
            }
        }
    } else {
        c.vals
    };
    let mut best: Option<Value> = None;
    for v in items {
        best = Some(match best {
            None => v,
            Some(b) => {
                let o = py_cmp(&v, &b).map_err(|_| {
                    Diagnostic::new(
                        span,
                        format!(
                            "{name}() cannot compare {} and {}",
                            v.type_name(),
                            b.type_name()
                        ),
                    )
                })?;
                let better = match o {
                    Some(std::cmp::Ordering::Less) => name == "min",
                    Some(std::cmp::Ordering::Greater) => name == "max",
                    _ => false,
                };
                if better {
                    v
                } else {
                    b
                }
            }
        });
    }
    best.ok_or_else(|| Diagnostic::new(span, format!("{name}() of an empty list")))
}

/// `abs(number)`; `abs(i64::MIN)` overflows.
fn abs(c: &Call) -> Result<Value, Diagnostic> {
    c.arity(1, 1)?;
    match num(&c.vals[0]) {
        Some(Num::I(i)) => i.checked_abs().map(Value::Int).ok_or_else(|| {
            Diagnostic::new(
                c.span,
                format!("integer overflow: abs({i}) does not fit in 64 bits"),
            )
        }),
        Some(Num::F(f)) => Ok(Value::Float(f.abs())),
        None => Err(Diagnostic::new(
            c.arg_span(0),
            format!("abs() needs a number, found {}", c.vals[0].type_name()),
        )),
    }
}

/// `int(x)`: a decimal string parsed, a float truncated (when it fits in 64 bits), a bool or int.
fn int(c: &Call) -> Result<Value, Diagnostic> {
    c.arity(1, 1)?;
    match &c.vals[0] {
        Value::Str(s) => s.trim().parse::<i64>().map(Value::Int).map_err(|_| {
            Diagnostic::new(
                c.arg_span(0),
                format!("invalid literal for int(): {}", c.vals[0]),
            )
        }),
        v => match num(v) {
            Some(Num::I(i)) => Ok(Value::Int(i)),
            Some(Num::F(f)) => {
                let t = f.trunc();
                // i64::MIN as f64 is exact; i64::MAX as f64 rounds up to 2^63.
                if (i64::MIN as f64..i64::MAX as f64).contains(&t) {
                    Ok(Value::Int(t as i64))
                } else {
                    Err(Diagnostic::new(
                        c.arg_span(0),
                        format!("cannot convert float {} to int", fmt_float(f)),
                    ))
                }
            }
            None => Err(Diagnostic::new(
                c.arg_span(0),
                format!("int() cannot convert a {}", v.type_name()),
            )),
        },
    }
}

/// `float(x)`: a string parsed, a number converted.
fn float(c: &Call) -> Result<Value, Diagnostic> {
    c.arity(1, 1)?;
    match &c.vals[0] {
        Value::Str(s) => s.trim().parse::<f64>().map(Value::Float).map_err(|_| {
            Diagnostic::new(
                c.arg_span(0),
                format!("cannot convert string to float: {}", c.vals[0]),
            )
        }),
        v => match num(v) {
            Some(n) => Ok(Value::Float(n.f())),
            None => Err(Diagnostic::new(
                c.arg_span(0),
                format!("float() cannot convert a {}", v.type_name()),
            )),
        },
    }
}
