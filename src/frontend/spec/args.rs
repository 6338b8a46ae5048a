//! The `arg` statements of each section: typed and validated values (strings, counts,
//! durations, the objective, the tolerance).

use super::parser::{PResult, RawArg};
use super::sections::Sec;
use super::{Located, TuningSpec};
use crate::diag::{did_you_mean, Diagnostic, Span};
use crate::expr::Value;
use std::time::Duration;

fn want_str(name: &str, v: Value, span: Span) -> PResult<String> {
    match v {
        Value::Str(s) => Ok(s),
        other => Err(Diagnostic::new(
            span,
            format!("`{name}` must be a string, found {other}"),
        )),
    }
}

fn want_int(name: &str, v: &Value, span: Span, min: i64) -> PResult<i64> {
    match v {
        Value::Int(i) if *i >= min => Ok(*i),
        other => {
            let what = if min > 0 {
                "a positive integer"
            } else {
                "a non-negative integer"
            };
            Err(Diagnostic::new(
                span,
                format!("`{name}` must be {what}, found {other}"),
            ))
        }
    }
}

/// Parse a duration: a number, a string `'<number>[unit]'` with unit `ms`, `s`, `m`/`min`, `h`,
/// or a compound duration as the `humantime` crate reads it (`'3m10s'`, `'1h 30min'`). A number
/// without a unit is in `bare_unit` seconds. Must be positive.
pub fn parse_duration(v: &Value, bare_unit: f64) -> Option<Duration> {
    let secs = match v {
        Value::Int(i) => *i as f64 * bare_unit,
        Value::Float(f) => f * bare_unit,
        Value::Str(s) => {
            let s = s.trim();
            let split = s
                .find(|c: char| {
                    !(c.is_ascii_digit()
                        || c == '.'
                        || c == '+'
                        || c == 'e'
                        || c == 'E'
                        || c == '-')
                })
                .unwrap_or(s.len());
            // `e` can start a unit only in no unit we know, so a number like `1e3` is kept whole.
            let (num, unit) = s.split_at(split);
            let mult = match unit.trim() {
                "" => Some(bare_unit),
                "ms" => Some(0.001),
                "s" | "sec" | "secs" | "second" | "seconds" => Some(1.0),
                "m" | "min" | "mins" | "minute" | "minutes" => Some(60.0),
                "h" | "hr" | "hrs" | "hour" | "hours" => Some(3600.0),
                _ => None,
            };
            match (num.trim().parse::<f64>(), mult) {
                (Ok(x), Some(mult)) => x * mult,
                _ => humantime::parse_duration(s).ok()?.as_secs_f64(),
            }
        }
        _ => return None,
    };
    if !(secs.is_finite() && secs > 0.0) {
        return None;
    }
    Duration::try_from_secs_f64(secs).ok()
}

fn want_duration(name: &str, v: &Value, span: Span, bare_unit: f64) -> PResult<Duration> {
    parse_duration(v, bare_unit).ok_or_else(|| {
        let bare = if bare_unit == 60.0 { "minutes" } else { "seconds" };
        Diagnostic::new(
            span,
            format!("`{name}` must be a positive duration such as '90s', '5m' or '1h' (a bare number is {bare}), found {v}"),
        )
    })
}

pub(super) fn apply_arg(spec: &mut TuningSpec, ra: &RawArg, v: Value) -> PResult<()> {
    let vs = ra.expr.span;
    let name = ra.name.as_str();
    let loc = |value| Located {
        value,
        span: ra.span,
    };
    let s = |v: Value| {
        want_str(name, v, vs).map(|x| Located {
            value: x,
            span: ra.span,
        })
    };
    match (ra.sec, name) {
        (Sec::InputVars, "decl_file") => spec.decl_file = Some(s(v)?),
        (Sec::InputVars, "init_file") => spec.init_file = Some(s(v)?),
        (Sec::Build, "build_command") => spec.build.build_command = Some(s(v)?),
        (Sec::Build, "libs") => spec.build.libs = Some(s(v)?),
        (Sec::Build, "prebuild_command") => spec.build.prebuild_command = Some(s(v)?),
        (Sec::Build, "postbuild_command") => spec.build.postbuild_command = Some(s(v)?),
        (Sec::Build, "batch_command" | "status_command" | "num_procs") => {
            spec.build.orio_batch.push(Located {
                value: name.to_string(),
                span: ra.span,
            })
        }
        (Sec::Counter, "repetitions") => {
            spec.counter.repetitions = Some(loc(want_int(name, &v, vs, 1)?))
        }
        (Sec::Counter, "method") => spec.counter.method = Some(s(v)?),
        (Sec::Counter, "warmups") => spec.counter.warmups = Some(loc(want_int(name, &v, vs, 0)?)),
        (Sec::Counter, "timeout") => {
            spec.counter.timeout = Some(Located {
                value: want_duration(name, &v, vs, 1.0)?,
                span: ra.span,
            })
        }
        (Sec::Counter, "objective") => {
            let o = want_str(name, v, vs)?;
            const OBJECTIVES: [&str; 5] = ["kernel", "total", "time", "energy", "edp"];
            if !OBJECTIVES.contains(&o.as_str()) {
                let mut d = Diagnostic::new(
                    vs,
                    format!("`objective` must be 'kernel' (or 'time'), 'total', 'energy' or 'edp', found '{o}'"),
                );
                if let Some(h) = did_you_mean(&o, OBJECTIVES) {
                    d = d.with_help(h);
                }
                return Err(d);
            }
            spec.counter.objective = Some(Located {
                value: o,
                span: ra.span,
            });
        }
        (Sec::TestCode, "skeleton_code_file") => spec.skeleton_code_file = Some(s(v)?),
        (Sec::Search, "algorithm") => spec.search.algorithm = Some(s(v)?),
        (Sec::Search, "total_runs") => {
            spec.search.total_runs = Some(loc(want_int(name, &v, vs, 1)?))
        }
        (Sec::Search, "time_limit") => {
            spec.search.time_limit = Some(Located {
                value: want_duration(name, &v, vs, 60.0)?,
                span: ra.span,
            })
        }
        (Sec::Search, "seed") => {
            let i = want_int(name, &v, vs, 0)?;
            spec.search.seed = Some(Located {
                value: i as u64,
                span: ra.span,
            });
        }
        (Sec::Search, _) => spec.search.options.push((
            ra.name.clone(),
            Located {
                value: v,
                span: ra.span,
            },
        )),
        (Sec::Validation, "tolerance") => {
            let t = match v {
                Value::Int(i) if i > 0 => i as f64,
                Value::Float(f) if f > 0.0 && f.is_finite() => f,
                other => {
                    return Err(Diagnostic::new(
                        vs,
                        format!("`tolerance` must be a positive number, found {other}"),
                    ))
                }
            };
            spec.validation.tolerance = Some(Located {
                value: t,
                span: ra.span,
            });
        }
        (Sec::Validation, "validation_file") => spec.validation.validation_file = Some(s(v)?),
        _ => {
            return Err(Diagnostic::new(
                ra.name_span,
                format!("unknown argument `{name}` in section `{}`", ra.sec.name()),
            ))
        }
    }
    Ok(())
}
