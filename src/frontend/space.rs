//! The search space: tuning parameters, their values, constraints, enumeration.

use crate::diag::Diagnostic;
use crate::expr::{StepBudget, Value};
use crate::spec::{ConstraintDecl, ParamDecl, TuningSpec};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Most input-size combinations [`input_combinations`] enumerates: each is an experiment of its
/// own, and `check` of 10^6 of them ran for over 2 minutes in 750 MB (issue 25 G6).
pub const MAX_INPUT_COMBINATIONS: u64 = 10_000;

/// Steps ([`crate::expr::steps_evaluated`]) charged per tuning parameter for each configuration
/// built: building one and binding it for the constraints costs about what two expression nodes
/// do (measured with `perf` on `check` of a 46-parameter space, issue 25 G6).
pub const CONFIG_STEPS_PER_PARAM: u64 = 2;

/// Parameter names a constraint's name lookup passes per step charged ([`SearchSpace::check`]:
/// a comparison of two short names is about 2 ns, a step about 33 ns).
const SCAN_PER_STEP: u64 = 16;

/// One tuning parameter (axis of the search space) and its values, in declaration order.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: Arc<str>,
    /// Shared with the spec's declaration: a space is made per input size, and copying 10^4
    /// values for each of 5,000 sizes was most of `check`'s time (issue 25 G6, `make fuzz-long`).
    pub values: Arc<[Value]>,
}

/// The cartesian product of the performance parameters' values, restricted by the constraints,
/// for one input size.
///
/// Configurations are numbered in mixed radix, last parameter fastest: index `0` is every
/// parameter at its first value. Spaces with more than `u64::MAX` points are not fully
/// addressable (`size` saturates).
#[derive(Debug, Clone, PartialEq)]
pub struct SearchSpace {
    /// Shared by the spaces of every input size ([`SearchSpace::at_input`]).
    pub params: Arc<[Param]>,
    /// Shared like `params`.
    pub constraints: Arc<[ConstraintDecl]>,
    /// Fixed bindings visible to constraints: the spec's lets and this input size's input params.
    pub fixed: BTreeMap<String, Value>,
    /// Optional extra feasibility knowledge, consulted after the constraints (see [`Prefilter`]).
    pub prefilter: Option<Prefilter>,
}

/// Why a configuration is rejected before it is built (see [`SearchSpace::rejection`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejection {
    /// It breaks the named constraint: recorded as a `constraint` failure, never built.
    Constraint(String),
    /// It cannot run on the device (the reason, e.g. a work-group larger than the device's
    /// maximum): recorded as a `device_limit` failure, never measured.
    DeviceLimit(String),
}

/// The predicate of a [`Prefilter`].
pub type PrefilterFn = dyn Fn(&Configuration) -> Option<Rejection> + Send + Sync;

/// A predicate that rejects configurations with knowledge the constraint expressions do not
/// have: `orcl tune` rejects those whose generated variant exceeds the device's limits, `orcl
/// replay` those recorded as `constraint` or `device_limit`. Attach one with
/// [`SearchSpace::with_prefilter`]. Adaptive strategies never propose a rejected configuration;
/// Exhaustive and Random propose every configuration, flagging the [`Rejection::Constraint`]
/// ones (see [`SearchSpace::check`]). The predicate must be deterministic.
#[derive(Clone)]
pub struct Prefilter(Arc<PrefilterFn>);

impl Prefilter {
    pub fn new(f: impl Fn(&Configuration) -> Option<Rejection> + Send + Sync + 'static) -> Self {
        Prefilter(Arc::new(f))
    }

    /// The predicate's verdict on `c`.
    pub fn reject(&self, c: &Configuration) -> Option<Rejection> {
        (self.0)(c)
    }
}

impl std::fmt::Debug for Prefilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Prefilter(..)")
    }
}

/// Two prefilters are equal when they are the same predicate (the same allocation).
impl PartialEq for Prefilter {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl From<&ParamDecl> for Param {
    /// The parameter a spec declares, sharing its values.
    fn from(p: &ParamDecl) -> Param {
        Param {
            name: Arc::from(p.name.as_str()),
            values: p.values.clone(),
        }
    }
}

/// One point of the search space: a value for every parameter, in parameter declaration order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Configuration {
    pub values: Vec<(Arc<str>, Value)>,
}

impl Configuration {
    /// The value of parameter `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v)
    }

    /// Canonical compact JSON object in parameter order, e.g. `{"WI":32,"WG":4,"CB":true,"CL":""}`.
    /// Used as the database key of a configuration; [`Configuration::from_key`] inverts it.
    pub fn key(&self) -> String {
        let mut s = String::from("{");
        for (k, (name, v)) in self.values.iter().enumerate() {
            if k > 0 {
                s.push(',');
            }
            s.push_str(&serde_json::to_string(name).unwrap_or_else(|_| "\"?\"".into()));
            s.push(':');
            s.push_str(&serde_json::to_string(v).unwrap_or_else(|_| "null".into()));
        }
        s.push('}');
        s
    }

    /// Parse a [`Configuration::key`] (any JSON object of parameter values), keeping key order.
    /// Integers stay `Int`, numbers with a fraction or exponent become `Float`.
    pub fn from_key(key: &str) -> Result<Configuration, serde_json::Error> {
        let OrderedConfig(values) = serde_json::from_str(key)?;
        let values = values.into_iter().map(|(n, v)| (Arc::from(n), v)).collect();
        Ok(Configuration { values })
    }

    /// Human-readable form, e.g. `WI=32 WG=4 CB=True CL=''`.
    pub fn display(&self) -> String {
        let parts: Vec<String> = self
            .values
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        parts.join(" ")
    }
}

/// A JSON object deserialized into (key, value) pairs in document order.
struct OrderedConfig(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for OrderedConfig {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = OrderedConfig;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object of parameter values")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<OrderedConfig, A::Error> {
                let mut out: Vec<(String, Value)> = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Value>()? {
                    if out.iter().any(|(n, _)| *n == k) {
                        return Err(serde::de::Error::custom(format!(
                            "duplicate parameter `{k}`"
                        )));
                    }
                    out.push((k, v));
                }
                Ok(OrderedConfig(out))
            }
        }
        d.deserialize_map(V)
    }
}

impl SearchSpace {
    /// The space of `spec`'s performance parameters and constraints for one input size `input`
    /// (a map of input param name → value, from [`input_combinations`]).
    /// Costs O(parameters + constraints); over many input sizes make one and use
    /// [`SearchSpace::at_input`], which shares them.
    pub fn new(spec: &TuningSpec, input: &BTreeMap<String, Value>) -> SearchSpace {
        SearchSpace {
            fixed: fixed_bindings(spec, input),
            ..SearchSpace::unbound(spec)
        }
    }

    /// The parameters and constraints of `spec` with no names bound (not even its lets): the
    /// base of [`SearchSpace::at_input`] over many input sizes, which binds them. It holds no
    /// copy of the lets, which may be lists of 10^7 elements (issue 25 G6: `make fuzz-long`).
    pub fn unbound(spec: &TuningSpec) -> SearchSpace {
        SearchSpace {
            params: spec.performance_params.iter().map(Param::from).collect(),
            constraints: spec.constraints.iter().cloned().collect(),
            fixed: BTreeMap::new(),
            prefilter: None,
        }
    }

    /// The same parameters and constraints (shared, not copied) at input size `input` of `spec`
    /// (the spec this space was made from), without a prefilter: a space per input size cost
    /// O(parameters) each, and 5,000 parameters × 10,000 sizes took 7 s of `check` (issue 25
    /// G6).
    pub fn at_input(&self, spec: &TuningSpec, input: &BTreeMap<String, Value>) -> SearchSpace {
        SearchSpace {
            params: Arc::clone(&self.params),
            constraints: Arc::clone(&self.constraints),
            fixed: fixed_bindings(spec, input),
            prefilter: None,
        }
    }

    /// This space with `f` as its [`Prefilter`] (replacing any previous one).
    pub fn with_prefilter(
        mut self,
        f: impl Fn(&Configuration) -> Option<Rejection> + Send + Sync + 'static,
    ) -> SearchSpace {
        self.prefilter = Some(Prefilter::new(f));
        self
    }

    /// The first reason `c` cannot be built or run: a violated constraint (declaration order),
    /// then the prefilter's verdict. `Ok(None)`: feasible.
    ///
    /// Errors: a constraint that fails to evaluate (see [`SearchSpace::check`]).
    pub fn rejection(&self, c: &Configuration) -> Result<Option<Rejection>, Diagnostic> {
        if let Some(name) = self.check_constraints(c)? {
            return Ok(Some(Rejection::Constraint(name)));
        }
        Ok(self.prefilter.as_ref().and_then(|p| p.reject(c)))
    }

    /// The prefilter's device-limit reason for `c`, if it has one (`None` without a prefilter).
    pub fn device_limit(&self, c: &Configuration) -> Option<String> {
        match self.prefilter.as_ref()?.reject(c)? {
            Rejection::DeviceLimit(reason) => Some(reason),
            Rejection::Constraint(_) => None,
        }
    }

    /// Number of configurations (feasible or not), saturating at `u64::MAX`. 1 without params.
    pub fn size(&self) -> u64 {
        self.params
            .iter()
            .fold(1u64, |acc, p| acc.saturating_mul(p.values.len() as u64))
    }

    /// Mixed-radix digits of `index` (one value index per parameter, last parameter fastest).
    /// An index past the end wraps around (`index % size`).
    pub fn coords(&self, index: u64) -> Vec<usize> {
        let mut rest = index;
        let mut out = vec![0usize; self.params.len()];
        for (k, p) in self.params.iter().enumerate().rev() {
            let radix = p.values.len() as u64;
            if radix == 0 {
                continue;
            }
            out[k] = (rest % radix) as usize;
            rest /= radix;
        }
        out
    }

    /// Inverse of [`SearchSpace::coords`]; coordinates out of range are clamped to the last value.
    pub fn index_from_coords(&self, coords: &[usize]) -> u64 {
        let mut index = 0u64;
        for (k, p) in self.params.iter().enumerate() {
            let radix = p.values.len() as u64;
            let c = coords.get(k).copied().unwrap_or(0) as u64;
            let c = c.min(radix.saturating_sub(1));
            index = index.wrapping_mul(radix).wrapping_add(c);
        }
        index
    }

    /// The configuration at `index` (see [`SearchSpace::coords`]).
    pub fn config_at(&self, index: u64) -> Configuration {
        self.config_from_coords(&self.coords(index))
    }

    /// The configuration at the given value indices (missing or out-of-range ones are skipped).
    pub fn config_from_coords(&self, coords: &[usize]) -> Configuration {
        crate::expr::charge_steps(CONFIG_STEPS_PER_PARAM * self.params.len() as u64);
        let values = self
            .params
            .iter()
            .zip(coords)
            .filter_map(|(p, &c)| p.values.get(c).map(|v| (p.name.clone(), v.clone())))
            .collect();
        Configuration { values }
    }

    /// Index of `c` in the space; `None` when a parameter is missing or extra, or a value is not
    /// one of its parameter's values.
    pub fn index_of(&self, c: &Configuration) -> Option<u64> {
        if c.values.len() != self.params.len() {
            return None;
        }
        let mut coords = Vec::with_capacity(self.params.len());
        for p in self.params.iter() {
            let v = c.get(&p.name)?;
            coords.push(p.values.iter().position(|x| x == v)?);
        }
        Some(self.index_from_coords(&coords))
    }

    /// Check `c` against the constraints, in declaration order: `Ok(None)` when all hold,
    /// `Ok(Some(name))` for the first violated one. Constraints see the configuration's values,
    /// then the fixed bindings (lets, input params). A [`Rejection::Constraint`] of the
    /// [`Prefilter`] counts as a violated constraint (after the spec's own); its device limits
    /// do not (see [`SearchSpace::device_limit`]).
    ///
    /// Errors: a constraint that fails to evaluate, or evaluates to a non-bool (located at it).
    pub fn check(&self, c: &Configuration) -> Result<Option<String>, Diagnostic> {
        if let Some(name) = self.check_constraints(c)? {
            return Ok(Some(name));
        }
        Ok(match self.prefilter.as_ref().and_then(|p| p.reject(c)) {
            Some(Rejection::Constraint(name)) => Some(name),
            _ => None,
        })
    }

    /// [`SearchSpace::check`] with the spec's constraints only.
    fn check_constraints(&self, c: &Configuration) -> Result<Option<String>, Diagnostic> {
        if self.constraints.is_empty() {
            return Ok(None);
        }
        // A name is found by scanning the configuration; the scan is charged to the step
        // budgets (one step per `SCAN_PER_STEP` names passed): with 30,000 parameters each name
        // of a constraint cost a 30,000-entry scan, far more than its one step (issue 25 G6).
        let env = |n: &str| {
            let at = c.values.iter().position(|(k, _)| &**k == n);
            crate::expr::charge_steps(at.unwrap_or(c.values.len()) as u64 / SCAN_PER_STEP);
            at.map(|i| &c.values[i].1)
                .or_else(|| self.fixed.get(n))
                .cloned()
        };
        for con in self.constraints.iter() {
            let value = match con.expr.eval(&env) {
                Ok(v) => v,
                Err(_) => {
                    // Evaluate again with the known names, for a suggestion in the error.
                    let names: Vec<&str> = c
                        .values
                        .iter()
                        .map(|(n, _)| &**n)
                        .chain(self.fixed.keys().map(|k| k.as_str()))
                        .collect();
                    con.expr.eval_with_names(&env, &names)?
                }
            };
            match value {
                Value::Bool(true) => {}
                Value::Bool(false) => return Ok(Some(con.name.clone())),
                other => {
                    return Err(Diagnostic::new(
                        con.expr.span,
                        format!(
                        "constraint `{}` must evaluate to True or False, found {} {other} (at {})",
                        con.name,
                        other.type_name(),
                        c.display()
                    ),
                    ))
                }
            }
        }
        Ok(None)
    }

    /// Count feasible configurations by enumeration in index order, stopping after `limit`
    /// configurations have been enumerated or once `budget` is spent (the configurations built
    /// and the constraints evaluated are charged to it). Returns `(count, exact)`; `exact` is
    /// false when the enumeration stopped early (`count` is then a lower bound).
    pub fn count_feasible(
        &self,
        limit: u64,
        budget: &mut StepBudget,
    ) -> Result<(u64, bool), Diagnostic> {
        let size = self.size();
        let n = size.min(limit);
        let mut count = 0u64;
        for i in 0..n {
            if budget.spent() {
                return Ok((count, false));
            }
            if self.check(&self.config_at(i))?.is_none() {
                count += 1;
            }
        }
        Ok((count, n == size))
    }
}

/// The names a space's constraints see besides its parameters: `spec`'s lets, then the input
/// size `input` (an input param shadows a let of its name).
fn fixed_bindings(spec: &TuningSpec, input: &BTreeMap<String, Value>) -> BTreeMap<String, Value> {
    let mut fixed: BTreeMap<String, Value> = spec
        .lets
        .iter()
        .map(|b| (b.name.clone(), b.value.clone()))
        .collect();
    for (k, v) in input {
        fixed.insert(k.clone(), v.clone());
    }
    fixed
}

/// Every input size to tune: the cartesian product of the spec's input params (declaration order,
/// last param fastest), filtered by the input constraints. One empty map when there are no input
/// params.
///
/// Errors: an input constraint that fails to evaluate or is not a bool (located at it), or more
/// than [`MAX_INPUT_COMBINATIONS`] combinations (located at the input params).
pub fn input_combinations(spec: &TuningSpec) -> Result<Vec<BTreeMap<String, Value>>, Diagnostic> {
    let space = SearchSpace {
        params: spec.input_params.iter().map(Param::from).collect(),
        constraints: spec.input_constraints.iter().cloned().collect(),
        fixed: fixed_bindings(spec, &BTreeMap::new()),
        prefilter: None,
    };
    let size = space.size();
    if size > MAX_INPUT_COMBINATIONS {
        let span = spec
            .input_params
            .first()
            .map(|f| {
                f.span
                    .to(spec.input_params.last().map(|l| l.span).unwrap_or(f.span))
            })
            .unwrap_or_default();
        return Err(Diagnostic::new(
            span,
            format!(
                "{size} input-size combinations; at most {MAX_INPUT_COMBINATIONS} are supported"
            ),
        ));
    }
    let mut out = Vec::new();
    for i in 0..size {
        let c = space.config_at(i);
        if space.check(&c)?.is_none() {
            out.push(
                c.values
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
            );
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::expr::parse_expr;
    use crate::spec::{parse_spec, DESIGN_EXAMPLE};

    fn design_space() -> SearchSpace {
        let spec = parse_spec(DESIGN_EXAMPLE, 0).unwrap();
        let inputs = input_combinations(&spec).unwrap();
        SearchSpace::new(&spec, &inputs[0])
    }

    /// Issue 25 G6: the spaces of many input sizes share one copy of the parameters and
    /// constraints, and differ only in the sizes bound for the constraints.
    #[test]
    fn spaces_at_other_inputs_share_parameters() {
        let spec = parse_spec(DESIGN_EXAMPLE, 0).unwrap();
        let inputs = input_combinations(&spec).unwrap();
        let base = SearchSpace::new(&spec, &inputs[0]);
        let other = base.at_input(&spec, &inputs[1]);
        assert!(Arc::ptr_eq(&base.params, &other.params));
        assert!(Arc::ptr_eq(&base.constraints, &other.constraints));
        let fresh = SearchSpace::new(&spec, &inputs[1]);
        assert_eq!(other.fixed, fresh.fixed);
        assert_ne!(other.fixed, base.fixed);
        assert_eq!(other.size(), fresh.size());
        for i in 0..other.size() {
            assert_eq!(other.config_at(i), fresh.config_at(i));
        }
    }

    /// Issue 25 G6: a large `let` is held once: the space's fixed bindings and a name's use in
    /// a constraint share the spec's list (a 10^7-element `let` was held four times, 1.1 GiB).
    #[test]
    fn a_let_list_is_shared_not_copied() {
        let src = DESIGN_EXAMPLE.replacen(
            "def performance_params {",
            "def performance_params { let ORCL_L = [1]*5000;",
            1,
        );
        let spec = parse_spec(&src, 0).unwrap();
        let inputs = input_combinations(&spec).unwrap();
        let let_list = match &spec.lets.iter().find(|b| b.name == "ORCL_L").unwrap().value {
            Value::List(l) => l.clone(),
            v => panic!("ORCL_L is {v}"),
        };
        let space = SearchSpace::new(&spec, &inputs[0]).at_input(&spec, &inputs[1]);
        match space.fixed.get("ORCL_L") {
            Some(Value::List(l)) => assert!(Arc::ptr_eq(l, &let_list)),
            v => panic!("fixed ORCL_L is {v:?}"),
        }
        let used = parse_expr("ORCL_L", 0)
            .unwrap()
            .eval(&|n| space.fixed.get(n).cloned())
            .unwrap();
        match used {
            Value::List(l) => assert!(Arc::ptr_eq(&l, &let_list)),
            v => panic!("ORCL_L evaluates to {v}"),
        }
        // 1 reference in the spec, 1 in the space, 1 in `let_list`: no copy was made.
        assert_eq!(Arc::strong_count(&let_list), 3);
    }

    /// Issue 25 G6: building a configuration is charged to the step count by which `check` and
    /// `prepare` bound their work, in proportion to the parameters.
    #[test]
    fn building_a_configuration_costs_steps_per_parameter() {
        let s = design_space();
        let before = crate::expr::steps_evaluated();
        let _ = s.config_at(3);
        let spent = crate::expr::steps_evaluated() - before;
        assert_eq!(spent, CONFIG_STEPS_PER_PARAM * s.params.len() as u64);
    }

    /// Issue 25 G6: a constraint's name lookup scans the configuration, and the scan is charged:
    /// naming the last of 3,200 parameters costs 200 steps beyond the expression's own.
    #[test]
    fn a_long_lookup_costs_steps() {
        let n = 3_200;
        let params: Vec<Param> = (0..n)
            .map(|k| Param {
                name: Arc::from(format!("P{k}")),
                values: Arc::from([Value::Int(1)]),
            })
            .collect();
        let last = format!("P{} > 0", n - 1);
        let first = "P0 > 0".to_string();
        let cost = |text: &str| {
            let s = SearchSpace {
                params: params.clone().into(),
                constraints: Arc::from([ConstraintDecl {
                    name: "c".into(),
                    span: Span::default(),
                    expr: crate::expr::parse_expr(text, 0).unwrap(),
                }]),
                fixed: BTreeMap::new(),
                prefilter: None,
            };
            let c = s.config_at(0);
            let before = crate::expr::steps_evaluated();
            assert_eq!(s.check(&c).unwrap(), None);
            crate::expr::steps_evaluated() - before
        };
        assert_eq!(cost(&last) - cost(&first), (n as u64 - 1) / SCAN_PER_STEP);
    }

    #[test]
    fn enumeration_and_round_trips() {
        let s = design_space();
        assert_eq!(s.size(), 4 * 6 * 2 * 3 * 2);
        assert_eq!(s.fixed.get("N"), Some(&Value::Int(100000)));
        let first = s.config_at(0);
        assert_eq!(first.key(), r#"{"WI":32,"WG":4,"CB":true,"UI":1,"CL":""}"#);
        assert_eq!(first.display(), "WI=32 WG=4 CB=True UI=1 CL=''");
        // Last parameter fastest.
        assert_eq!(
            s.config_at(1).get("CL"),
            Some(&Value::Str("-cl-fast-relaxed-math".into()))
        );
        assert_eq!(s.config_at(2).get("UI"), Some(&Value::Int(2)));
        assert_eq!(s.coords(s.size() - 1), vec![3, 5, 1, 2, 1]);
        for i in 0..s.size() {
            let c = s.config_at(i);
            assert_eq!(s.index_of(&c), Some(i));
            assert_eq!(s.index_from_coords(&s.coords(i)), i);
            assert_eq!(Configuration::from_key(&c.key()).unwrap(), c);
        }
        assert_eq!(s.config_at(s.size()), first, "indices wrap around");
        let mut c = first.clone();
        c.values[0].1 = Value::Int(33);
        assert_eq!(s.index_of(&c), None);
        c.values.pop();
        assert_eq!(s.index_of(&first), Some(0));
        assert_eq!(s.index_of(&Configuration { values: vec![] }), None);
    }

    #[test]
    fn constraint_filtering() {
        let s = design_space();
        let infeasible = 2 * 3 * 2; // WI=256, WG=128
        assert_eq!(
            s.count_feasible(u64::MAX, &mut StepBudget::new(u64::MAX))
                .unwrap(),
            (s.size() - infeasible, true)
        );
        assert_eq!(
            s.count_feasible(10, &mut StepBudget::new(u64::MAX))
                .unwrap(),
            (10, false)
        );
        // A step budget stops the count early, however few configurations were enumerated:
        // each check evaluates the constraint's nodes (more than one step).
        let (n, exact) = s
            .count_feasible(u64::MAX, &mut StepBudget::new(20))
            .unwrap();
        assert!(!exact && n < 20, "stopped by steps: {n} counted");
        let bad = s.config_at(s.index_from_coords(&[3, 5, 0, 0, 0]));
        assert_eq!(bad.display(), "WI=256 WG=128 CB=True UI=1 CL=''");
        assert_eq!(s.check(&bad).unwrap(), Some("c1".to_string()));
        let ok = s.config_at(s.index_from_coords(&[2, 5, 0, 0, 0]));
        assert_eq!(s.check(&ok).unwrap(), None);
    }

    #[test]
    fn constraint_errors_are_located() {
        let src = "def performance_params { param A[] = [1, 2]; constraint c = A + 1; constraint d = A / (A - 1) > 0; }";
        let spec = parse_spec(src, 100).unwrap();
        let s = SearchSpace::new(&spec, &BTreeMap::new());
        let e = s.check(&s.config_at(0)).unwrap_err();
        assert!(
            e.message
                .starts_with("constraint `c` must evaluate to True or False, found int 2"),
            "{}",
            e.message
        );
        let k = src.find("A + 1").unwrap() + 100;
        assert_eq!(e.span, Span::new(k, k + 5));
        let mut s2 = s.clone();
        s2.constraints = s2.constraints[1..].into();
        let e = s2.check(&s2.config_at(0)).unwrap_err();
        assert_eq!(e.message, "division by zero");
        assert!(s2.check(&s2.config_at(1)).unwrap().is_none());
    }

    #[test]
    fn keys() {
        let c = Configuration {
            values: vec![
                ("Z".into(), Value::Float(2.0)),
                ("A".into(), Value::Str("a\"b".into())),
                (
                    "L".into(),
                    Value::list(vec![Value::Int(1), Value::Bool(false)]),
                ),
            ],
        };
        assert_eq!(c.key(), r#"{"Z":2.0,"A":"a\"b","L":[1,false]}"#);
        assert_eq!(c.display(), r#"Z=2.0 A='a"b' L=[1, False]"#);
        assert_eq!(Configuration::from_key(&c.key()).unwrap(), c);
        assert!(Configuration::from_key("[1]").is_err());
        assert!(Configuration::from_key(r#"{"A":1,"A":2}"#).is_err());
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<Configuration>(&json).unwrap(), c);
    }

    #[test]
    fn no_params_and_empty_space() {
        let s = SearchSpace {
            params: Arc::from([]),
            constraints: Arc::from([]),
            fixed: BTreeMap::new(),
            prefilter: None,
        };
        assert_eq!(s.size(), 1);
        assert_eq!(s.config_at(0).key(), "{}");
        assert_eq!(
            s.count_feasible(10, &mut StepBudget::new(u64::MAX))
                .unwrap(),
            (1, true)
        );
        let e = SearchSpace {
            params: Arc::from([Param {
                name: "A".into(),
                values: Arc::from([]),
            }]),
            ..s
        };
        assert_eq!(e.size(), 0);
        assert_eq!(e.config_at(3).values.len(), 0);
        assert_eq!(
            e.count_feasible(10, &mut StepBudget::new(u64::MAX))
                .unwrap(),
            (0, true)
        );
    }

    #[test]
    fn input_sizes() {
        let spec = parse_spec(DESIGN_EXAMPLE, 0).unwrap();
        let inputs = input_combinations(&spec).unwrap();
        let ns: Vec<&Value> = inputs.iter().map(|m| &m["N"]).collect();
        assert_eq!(ns, [&Value::Int(100000), &Value::Int(1000000)]);
        let src = "let K = 2; def input_params { param N[] = [1, 2, 3]; param M[] = [10, 20]; constraint c = N * M != 20 and N != K + 1; }";
        let spec = parse_spec(src, 0).unwrap();
        let inputs = input_combinations(&spec).unwrap();
        let pairs: Vec<(i64, i64)> = inputs
            .iter()
            .map(|m| (m["N"].as_i64().unwrap(), m["M"].as_i64().unwrap()))
            .collect();
        assert_eq!(pairs, [(1, 10), (2, 20)]);
        let none = parse_spec("def build { arg build_command = 'cc'; }", 0).unwrap();
        assert_eq!(input_combinations(&none).unwrap(), vec![BTreeMap::new()]);
    }
}
