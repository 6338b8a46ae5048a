//! Phase 2: `let` values, parameter values and arguments evaluated, and the names every
//! expression uses checked against the names it may use.

use super::args::apply_arg;
use super::parser::{NameKind, PResult, RawLet, RawParam, SpecParser};
use super::{Binding, ParamDecl, VarInit};
use crate::diag::{did_you_mean, Diagnostic};
use crate::expr::{Expr, ExprKind, Value, EVAL_BUDGET, MAX_VALUE_DEPTH};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The names an expression may use: in order (for messages) and as a set (for lookups, so that
/// a spec with many names is checked in linear time).
#[derive(Default)]
struct Names<'s> {
    list: Vec<&'s str>,
    set: HashSet<&'s str>,
}

impl<'s> Names<'s> {
    fn push(&mut self, n: &'s str) {
        if self.set.insert(n) {
            self.list.push(n);
        }
    }
    fn contains(&self, n: &str) -> bool {
        self.set.contains(n)
    }
}

impl<'s> FromIterator<&'s str> for Names<'s> {
    fn from_iter<I: IntoIterator<Item = &'s str>>(it: I) -> Self {
        let mut n = Names::default();
        for x in it {
            n.push(x);
        }
        n
    }
}

impl SpecParser<'_> {
    /// Phase 2, after every statement is parsed: lets, params and args evaluated in that order,
    /// then the names of constraints and input variables checked.
    pub(super) fn finish(&mut self) {
        self.mark_broken();
        let raw_lets = std::mem::take(&mut self.lets);
        let (lets, let_index, let_refs) = self.eval_lets(&raw_lets);
        let env = |n: &str| let_index.get(n).map(|&i| lets[i].value.clone());
        self.eval_params(&env, &let_refs);
        self.eval_args(&env, &let_refs);
        self.check_uses(&let_refs);
        self.spec.lets = lets;
    }

    /// Names defined by statements that failed to parse are broken: uses are not reported.
    fn mark_broken(&mut self) {
        let parsed: HashSet<&str> = self
            .lets
            .iter()
            .map(|l| l.name.as_str())
            .chain(self.params.iter().map(|p| p.name.as_str()))
            .collect();
        self.broken = self
            .names
            .iter()
            .map(|(n, _, _)| n)
            .filter(|n| !parsed.contains(n.as_str()))
            .cloned()
            .collect();
    }

    /// The lets, in order: each sees the lets before it. Their values together hold at most
    /// EVAL_BUDGET elements and nest at most MAX_VALUE_DEPTH lists deep. Returns the bindings,
    /// their index by name and their names (those that failed are broken).
    fn eval_lets<'r>(
        &mut self,
        raw_lets: &'r [RawLet],
    ) -> (Vec<Binding>, HashMap<String, usize>, Names<'r>) {
        let mut lets: Vec<Binding> = Vec::new();
        let mut let_index: HashMap<String, usize> = HashMap::new();
        let mut known = Names::default();
        let mut held = 0u64;
        for l in raw_lets {
            let r = self
                .check_names(
                    &l.expr,
                    &known,
                    &format!("the value of `{}`", l.name),
                    |_| Some("`let` values may use only the `let` bindings before them"),
                )
                .and_then(|ok| {
                    ok.then(|| {
                        l.expr.eval_with_names(
                            &|n| let_index.get(n).map(|&i| lets[i].value.clone()),
                            &known.list,
                        )
                    })
                    .transpose()
                })
                .and_then(|v| {
                    let Some(v) = v else { return Ok(None) };
                    let_weight(l, &v, &mut held)?;
                    Ok(Some(v))
                });
            match r {
                Ok(Some(value)) => {
                    let_index.insert(l.name.clone(), lets.len());
                    known.push(&l.name);
                    lets.push(Binding {
                        name: l.name.clone(),
                        name_span: l.name_span,
                        value,
                    });
                }
                Ok(None) => {
                    self.broken.insert(l.name.clone());
                }
                Err(d) => {
                    self.error(d);
                    self.broken.insert(l.name.clone());
                }
            }
        }
        (lets, let_index, known)
    }

    /// The params' values (which may use any let), each a validated list.
    fn eval_params(&mut self, env: &dyn Fn(&str) -> Option<Value>, let_refs: &Names) {
        for rp in std::mem::take(&mut self.params) {
            let r = self
                .check_names(
                    &rp.expr,
                    let_refs,
                    &format!("parameter `{}`", rp.name),
                    |_| Some("parameter values may use only `let` bindings"),
                )
                .and_then(|ok| {
                    ok.then(|| {
                        rp.expr
                            .eval_with_names(env, &let_refs.list)
                            .and_then(|v| param_values(&rp, v))
                    })
                    .transpose()
                });
            match r {
                Ok(Some(values)) => {
                    let decl = ParamDecl {
                        name: rp.name.clone(),
                        name_span: rp.name_span,
                        span: rp.span,
                        values_span: rp.expr.span,
                        values: values.into(),
                    };
                    if rp.input {
                        self.spec.input_params.push(decl);
                    } else {
                        self.spec.performance_params.push(decl);
                    }
                }
                Ok(None) => {
                    self.broken.insert(rp.name.clone());
                }
                Err(d) => {
                    self.error(d);
                    self.broken.insert(rp.name.clone());
                }
            }
        }
    }

    /// The args' values (which may use any let), applied to the spec.
    fn eval_args(&mut self, env: &dyn Fn(&str) -> Option<Value>, let_refs: &Names) {
        for ra in std::mem::take(&mut self.args) {
            let r = self
                .check_names(&ra.expr, let_refs, &format!("`arg {}`", ra.name), |_| {
                    Some("argument values may use only `let` bindings")
                })
                .and_then(|ok| {
                    if !ok {
                        return Ok(());
                    }
                    let v = ra.expr.eval_with_names(env, &let_refs.list)?;
                    apply_arg(&mut self.spec, &ra, v)
                });
            if let Err(d) = r {
                self.error(d);
            }
        }
    }

    /// The names used by constraints (performance and input params, lets), input constraints
    /// and input variables (input params and lets).
    fn check_uses(&mut self, let_refs: &Names) {
        let perf: Vec<&str> = self
            .names
            .iter()
            .filter(|(_, k, _)| *k == NameKind::PerfParam)
            .map(|(n, _, _)| n.as_str())
            .collect();
        let input: Vec<&str> = self
            .names
            .iter()
            .filter(|(_, k, _)| *k == NameKind::InputParam)
            .map(|(n, _, _)| n.as_str())
            .collect();
        let all: Names = perf
            .iter()
            .chain(&input)
            .chain(&let_refs.list)
            .copied()
            .collect();
        let inputs_lets: Names = input.iter().chain(&let_refs.list).copied().collect();
        let mut errs = Vec::new();
        for c in &self.spec.constraints {
            if let Err(d) =
                self.check_names(&c.expr, &all, &format!("constraint `{}`", c.name), |_| None)
            {
                errs.push(d);
            }
        }
        for c in &self.spec.input_constraints {
            if let Err(d) = self.check_names(
                &c.expr,
                &inputs_lets,
                &format!("input constraint `{}`", c.name),
                |n| {
                    perf.contains(&n).then_some(
                        "input constraints may use only input parameters and `let` bindings",
                    )
                },
            ) {
                errs.push(d);
            }
        }
        for v in &self.spec.input_vars {
            let exprs = v.dims.iter().chain(match &v.init {
                VarInit::Expr(e) => std::slice::from_ref(e),
                VarInit::List(items, _) => items.as_slice(),
                VarInit::Random => &[],
            });
            for e in exprs {
                if let Err(d) = self.check_names(
                    e,
                    &inputs_lets,
                    &format!("input variable `{}`", v.name),
                    |n| {
                        perf.contains(&n).then_some(
                            "input variables may use only input parameters and `let` bindings",
                        )
                    },
                ) {
                    errs.push(d);
                }
            }
        }
        self.diags.extend(errs);
    }

    /// Every free name of `e` must be in `allowed`; else an error at the name, with a suggestion,
    /// or with `why(name)` when the name exists but may not be used here. `Ok(false)`: `e` uses
    /// a name whose definition failed (already reported), so `e` is to be skipped silently.
    fn check_names(
        &self,
        e: &Expr,
        allowed: &Names,
        context: &str,
        why: impl Fn(&str) -> Option<&'static str>,
    ) -> PResult<bool> {
        for (n, span) in e.free_names() {
            if allowed.contains(&n) {
                continue;
            }
            if self.broken.contains(&n) {
                return Ok(false);
            }
            let defined = self.name_index.get(&n).map(|&i| &self.names[i]);
            let mut d = Diagnostic::new(span, format!("unknown name `{n}` in {context}"));
            if let Some((_, kind, _)) = defined {
                d = Diagnostic::new(
                    span,
                    format!("`{n}` ({}) cannot be used in {context}", kind.describe()),
                );
                if let Some(w) = why(&n) {
                    d = d.with_help(w);
                }
            } else if n == "random" {
                d = d.with_help("`random` is only an initial value of `decl` statements");
            } else if let Some(h) = did_you_mean(&n, allowed.list.iter().copied()) {
                d = d.with_help(h);
            } else if !allowed.list.is_empty() {
                d = d.with_help(format!(
                    "{context} may use {}",
                    allowed
                        .list
                        .iter()
                        .map(|a| format!("`{a}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            return Err(d);
        }
        Ok(true)
    }
}

fn type_class(v: &Value) -> &'static str {
    match v {
        Value::Int(_) | Value::Float(_) => "number",
        other => other.type_name(),
    }
}

/// Most values one parameter may have (issue 25 G6): `check` of 10^7 values took 42 s and
/// 1.1 GB; a tuning parameter with more than 10^5 values cannot be searched anyway.
pub const MAX_PARAM_VALUES: usize = 100_000;

/// Validate a parameter's evaluated value: a non-empty list of distinct values of one type.
fn param_values(rp: &RawParam, v: Value) -> PResult<Vec<Value>> {
    let values = match (rp.bracketed, v) {
        (true, Value::List(l)) => Arc::unwrap_or_clone(l),
        (true, other) => {
            return Err(Diagnostic::new(
                rp.expr.span,
                format!(
                    "parameter `{}` needs a list of values, found {} {other}",
                    rp.name,
                    other.type_name()
                ),
            )
            .with_help(format!("write `[{other}]` for a single value")))
        }
        (false, Value::List(_)) => {
            return Err(Diagnostic::new(
                rp.name_span,
                format!(
                    "`param {}` without `[]` declares a single value, but the value is a list",
                    rp.name
                ),
            )
            .with_help(format!("write `param {}[] = ...;`", rp.name)))
        }
        (false, other) => vec![other],
    };
    if values.is_empty() {
        return Err(Diagnostic::new(
            rp.expr.span,
            format!("parameter `{}` has no values", rp.name),
        ));
    }
    if values.len() > MAX_PARAM_VALUES {
        return Err(Diagnostic::new(
            rp.expr.span,
            format!(
                "parameter `{}` has {} values: too large, at most {MAX_PARAM_VALUES} are supported",
                rp.name,
                values.len()
            ),
        )
        .with_help("sample the values with a step, e.g. `range(0, 10**7, 1000)`"));
    }
    // Span of element k when the value is written as a list literal.
    let elem_span = |k: usize| match &rp.expr.kind {
        ExprKind::List(items) if items.len() == values.len() => items[k].span,
        _ => rp.expr.span,
    };
    let first = type_class(&values[0]);
    for (k, v) in values.iter().enumerate().skip(1) {
        if type_class(v) != first {
            return Err(Diagnostic::new(
                elem_span(k),
                format!(
                    "mixed-type list: value {v} of parameter `{}` has type {}, but its first value {} has type {}",
                    rp.name,
                    v.type_name(),
                    values[0],
                    values[0].type_name()
                ),
            )
            .with_help("the values of a parameter must all have one type (ints and floats may mix)"));
        }
    }
    let mut seen = std::collections::HashSet::new();
    for (k, v) in values.iter().enumerate() {
        if !seen.insert(v.eq_key()) {
            return Err(Diagnostic::new(
                elem_span(k),
                format!("duplicate value {v} in parameter `{}`", rp.name),
            ));
        }
    }
    Ok(values)
}

/// Charge the value `v` of let `l` to the lets' element total `held`: an error when it nests
/// lists deeper than MAX_VALUE_DEPTH or the lets so far hold more than EVAL_BUDGET elements.
fn let_weight(l: &RawLet, v: &Value, held: &mut u64) -> PResult<()> {
    let (elements, depth) = v.weight();
    if depth > MAX_VALUE_DEPTH {
        return Err(Diagnostic::new(
            l.expr.span,
            format!("the value of `{}` nests lists {depth} deep; at most {MAX_VALUE_DEPTH} levels are allowed", l.name),
        ));
    }
    *held += elements;
    if *held > EVAL_BUDGET {
        return Err(Diagnostic::new(
            l.expr.span,
            format!(
                "the `let` values up to `{}` hold more than {EVAL_BUDGET} elements together",
                l.name
            ),
        )
        .with_help("use smaller lists (a parameter's values are its list, not a `let`)"));
    }
    Ok(())
}
