//! Which recorded input size is nearest to another (issue 27): the one measure `orcl db best
//! --size` (a size never tuned falls back to the nearest recorded one) and `orcl tune
//! --warm-start` (the experiment to seed from) both use.
//!
//! An input size is an experiment's input parameters (`input_params_json`: name → JSON value).
//! The distance from the size wanted (`NAME=VALUE` pairs, as `--size` writes them) to a recorded
//! one is a pair, compared in this order:
//! 1. `unmatched`: the parameters wanted that the recorded size does not [`matches`] and that are
//!    not positive numbers on both sides (absent, text, booleans, zero or negative). Such a
//!    parameter is not on a size scale — a type, a mode, a flag — so no ratio can be weighed
//!    against it: one more of them is always farther.
//! 2. `log_ratio`: Σ |ln(recorded / wanted)| over the parameters that are positive numbers on
//!    both sides, so that 2× larger and 2× smaller are equally near, and the sum does not depend
//!    on the unit: sizes are compared on a logarithmic scale, as problem sizes usually grow.
//!
//! Parameters recorded but not wanted do not count. Ties (equal distance) go to the newest
//! experiment (the highest id): [`nearest`].

use std::cmp::Ordering;

use serde_json::{Map, Value as Json};

/// The distance between two input sizes; see the module. Ordered: fewer `unmatched` first, then
/// smaller `log_ratio`. Zero (`unmatched == 0 && log_ratio == 0.0`) means the same size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SizeDistance {
    /// Parameters wanted that do not match and cannot be compared by ratio.
    pub unmatched: usize,
    /// Σ |ln(recorded / wanted)| over the parameters compared by ratio (≥ 0, finite).
    pub log_ratio: f64,
}

impl SizeDistance {
    /// The same size: every parameter wanted matches.
    pub fn is_zero(&self) -> bool {
        self.unmatched == 0 && self.log_ratio == 0.0
    }
}

impl Eq for SizeDistance {}

impl PartialOrd for SizeDistance {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SizeDistance {
    fn cmp(&self, other: &Self) -> Ordering {
        self.unmatched
            .cmp(&other.unmatched)
            .then(self.log_ratio.total_cmp(&other.log_ratio))
    }
}

/// The text of a recorded value as `--size` would write it: a JSON string without its quotes,
/// anything else as JSON (`1000`, `2.5`, `true`).
pub fn value_text(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The input parameters of an experiment as `NAME=VALUE` pairs ([`value_text`]), in the
/// object's order; an `input_params_json` that is not an object has none.
pub fn wanted_of(input_params_json: &str) -> Vec<(String, String)> {
    match serde_json::from_str::<Json>(input_params_json) {
        Ok(Json::Object(o)) => o.iter().map(|(k, v)| (k.clone(), value_text(v))).collect(),
        _ => Vec::new(),
    }
}

/// Whether the recorded value `recorded` is `wanted` (a `--size` value): numerically when both
/// are numbers (`1e3` is `1000`), else as text ([`value_text`]; a boolean case-insensitively, so
/// `True` is `true`).
pub fn matches(recorded: &Json, wanted: &str) -> bool {
    let text = value_text(recorded);
    match (text.parse::<f64>(), wanted.parse::<f64>()) {
        (Ok(a), Ok(b)) => a == b,
        _ if recorded.is_boolean() => text.eq_ignore_ascii_case(wanted),
        _ => text == wanted,
    }
}

/// The distance from the size `wanted` to the recorded input parameters `recorded`; see the
/// module.
pub fn distance(wanted: &[(String, String)], recorded: &Map<String, Json>) -> SizeDistance {
    let mut d = SizeDistance {
        unmatched: 0,
        log_ratio: 0.0,
    };
    for (name, want) in wanted {
        let Some(have) = recorded.get(name) else {
            d.unmatched += 1;
            continue;
        };
        if matches(have, want) {
            continue;
        }
        let positive = |t: &str| t.parse::<f64>().ok().filter(|x| *x > 0.0 && x.is_finite());
        match (positive(&value_text(have)), positive(want)) {
            (Some(a), Some(b)) => d.log_ratio += (a / b).ln().abs(),
            _ => d.unmatched += 1,
        }
    }
    d
}

/// The nearest of `recorded` (experiment id, its input parameters, a payload) to `wanted`: least
/// [`distance`], ties to the highest id (the newest). `None` when `recorded` is empty.
pub fn nearest<'a, T>(
    wanted: &[(String, String)],
    recorded: impl IntoIterator<Item = (i64, &'a Map<String, Json>, T)>,
) -> Option<(SizeDistance, T)> {
    recorded
        .into_iter()
        .map(|(id, params, t)| (distance(wanted, params), id, t))
        .min_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
        .map(|(d, _, t)| (d, t))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(json: &str) -> Map<String, Json> {
        match serde_json::from_str(json).unwrap() {
            Json::Object(o) => o,
            _ => unreachable!(),
        }
    }

    fn want(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn values_match_numerically_else_as_text() {
        let p = params(r#"{"N":1000,"S":"abc","F":2.5,"B":true,"T":"100"}"#);
        let m = |n: &str, v: &str| matches(&p[n], v);
        assert!(m("N", "1000") && m("N", "1e3") && m("N", "1000.0"));
        assert!(!m("N", "100"));
        assert!(m("S", "abc") && !m("S", "ABC"));
        assert!(m("F", "2.50") && m("B", "True") && m("T", "100"));
    }

    /// The distance is by ratio (2× larger and 2× smaller equally near), a parameter that
    /// cannot be compared by ratio outweighs any ratio, and parameters not wanted do not count.
    #[test]
    fn distance_is_by_ratio_then_unmatched_first() {
        let w = want(&[("N", "1000"), ("T", "float")]);
        let d = |json: &str| distance(&w, &params(json));
        assert!(d(r#"{"N":1000,"T":"float","X":7}"#).is_zero());
        let double = d(r#"{"N":2000,"T":"float"}"#);
        let half = d(r#"{"N":500,"T":"float"}"#);
        assert_eq!(double.unmatched, 0);
        assert!((double.log_ratio - 2f64.ln()).abs() < 1e-12);
        assert!((double.log_ratio - half.log_ratio).abs() < 1e-12);
        assert!(d(r#"{"N":4000,"T":"float"}"#) > double);
        // Another type at the very same N is farther than a million times the size.
        let other_type = d(r#"{"N":1000,"T":"double"}"#);
        assert_eq!((other_type.unmatched, other_type.log_ratio), (1, 0.0));
        assert!(other_type > d(r#"{"N":1000000000,"T":"float"}"#));
        // Absent, zero and negative values are not on the ratio scale.
        assert_eq!(d(r#"{"T":"float"}"#).unmatched, 1);
        assert_eq!(d(r#"{"N":0,"T":"float"}"#).unmatched, 1);
        assert_eq!(d(r#"{"N":-1000,"T":"float"}"#).unmatched, 1);
        assert!(distance(&want(&[("N", "0")]), &params(r#"{"N":0}"#)).is_zero());
    }

    /// The nearest recorded size wins; between equally near ones, the newest experiment.
    #[test]
    fn nearest_takes_the_least_distance_then_the_newest() {
        let w = want(&[("N", "1000")]);
        let (a, b, c) = (
            params(r#"{"N":500}"#),
            params(r#"{"N":2000}"#),
            params(r#"{"N":4000}"#),
        );
        let recorded = [(1, &c, "c"), (2, &a, "a"), (3, &b, "b")];
        assert_eq!(nearest(&w, recorded).map(|r| r.1), Some("b"));
        let recorded = [(1, &c, "c"), (3, &a, "a"), (2, &b, "b")];
        assert_eq!(nearest(&w, recorded).map(|r| r.1), Some("a"));
        assert_eq!(nearest(&w, [(1, &c, "c")]).map(|r| r.1), Some("c"));
        assert!(nearest::<()>(&w, []).is_none());
    }
}
