//! Invariants of every strategy on deterministic synthetic spaces with infeasible regions
//! (constraints and a device-limit prefilter) and a landscape with several local optima.

use super::*;
use orcl_frontend::diag::Span;
use orcl_frontend::expr::parse_expr;
use orcl_frontend::space::{Configuration, Param, Rejection, SearchSpace};
use orcl_frontend::spec::ConstraintDecl;
use std::collections::{BTreeMap, HashSet};

const ALL: [&str; 6] = [
    "Exhaustive",
    "Random",
    "NelderMead",
    "Annealing",
    "Genetic",
    "Bayes",
];
const ADAPTIVE: [&str; 4] = ["NelderMead", "Annealing", "Genetic", "Bayes"];

fn ints(v: impl IntoIterator<Item = i64>) -> Vec<Value> {
    v.into_iter().map(Value::Int).collect()
}

fn param(name: &str, values: Vec<Value>) -> Param {
    Param {
        name: name.into(),
        values: values.into(),
    }
}

fn constraint(name: &str, expr: &str) -> ConstraintDecl {
    ConstraintDecl {
        name: name.into(),
        span: Span::default(),
        expr: parse_expr(expr, 0).unwrap(),
    }
}

/// A (13) × B (1..256, 9) × C (bool) × D (one value) = 234 configurations; `A*B <= 1024` and
/// `not (C and A > 9)` cut corners, and the prefilter rejects `B == 256 and C` as a device
/// limit.
fn space() -> SearchSpace {
    SearchSpace {
        params: vec![
            param("A", ints(0..13)),
            param("B", ints((0..9).map(|k| 1 << k))),
            param("C", vec![Value::Bool(false), Value::Bool(true)]),
            param("D", ints([7])),
        ]
        .into(),
        constraints: vec![
            constraint("small", "A * B <= 1024"),
            constraint("c_low_a", "not (C and A > 9)"),
        ]
        .into(),
        fixed: BTreeMap::new(),
        prefilter: None,
    }
    .with_prefilter(|c| {
        (c.get("B") == Some(&Value::Int(256)) && c.get("C") == Some(&Value::Bool(true)))
            .then(|| Rejection::DeviceLimit("local memory".into()))
    })
}

/// A deterministic objective (ms) with two basins and small ripples; `None` (a failed variant)
/// at A = 5, B = 8.
fn cost(c: &Configuration) -> Option<f64> {
    let a = c.get("A")?.as_i64()? as f64;
    let b = (c.get("B")?.as_i64()? as f64).log2();
    let cb = c.get("C")?.as_bool()?;
    if a == 5.0 && b == 3.0 {
        return None;
    }
    let first = 1.0 + 0.05 * ((a - 3.0).powi(2) + 2.0 * (b - 6.0).powi(2));
    let second = 1.08 + 0.05 * ((a - 10.0).powi(2) + 2.0 * (b - 1.0).powi(2));
    let ripple = 1.0 + 0.02 * ((a * 7.0 + b * 3.0) % 5.0);
    Some(first.min(second) * ripple * if cb { 0.97 } else { 1.0 })
}

/// Every configuration of `space` that `feasible` accepts.
fn set_of(space: &SearchSpace, feasible: impl Fn(&Configuration) -> bool) -> HashSet<String> {
    (0..space.size())
        .map(|i| space.config_at(i))
        .filter(|c| feasible(c))
        .map(|c| c.key())
        .collect()
}

/// Run to exhaustion (or `limit` candidates) in batches of `batch`, observing `cost`.
fn drain(s: &mut dyn Strategy, space: &SearchSpace, batch: usize, limit: usize) -> Vec<Candidate> {
    let mut all = Vec::new();
    while all.len() < limit {
        let b = s.propose(space, batch).unwrap();
        assert!(b.len() <= batch, "{} proposed more than asked", s.name());
        if b.is_empty() {
            break;
        }
        for c in &b {
            if c.violated.is_none() {
                let outcome = if space.device_limit(&c.config).is_some() {
                    None
                } else {
                    cost(&c.config)
                };
                s.observe(&c.config, outcome);
            }
        }
        all.extend(b);
    }
    all
}

fn keys(all: &[Candidate]) -> Vec<String> {
    all.iter().map(|c| c.config.key()).collect()
}

fn assert_no_duplicates(name: &str, all: &[Candidate]) {
    let k = keys(all);
    let unique: HashSet<&String> = k.iter().collect();
    assert_eq!(
        unique.len(),
        k.len(),
        "{name} proposed a configuration twice"
    );
}

#[test]
fn exhaustive_visits_exactly_the_feasible_set() {
    let space = space();
    let mut s = make_strategy("Exhaustive", &[], 0).unwrap();
    let all = drain(s.as_mut(), &space, 7, usize::MAX);
    assert_eq!(all.len() as u64, space.size());
    assert_no_duplicates("Exhaustive", &all);
    let proposed_feasible: HashSet<String> = all
        .iter()
        .filter(|c| c.violated.is_none())
        .map(|c| c.config.key())
        .collect();
    assert_eq!(
        proposed_feasible,
        set_of(&space, |c| space.check(c).unwrap().is_none())
    );
    for c in &all {
        assert_eq!(space.check(&c.config).unwrap(), c.violated);
    }
}

#[test]
fn no_strategy_proposes_an_infeasible_configuration_as_feasible() {
    let space = space();
    let feasible = set_of(&space, |c| space.rejection(c).unwrap().is_none());
    let within_constraints = set_of(&space, |c| space.check(c).unwrap().is_none());
    assert!(feasible.len() < within_constraints.len() && within_constraints.len() < 234);
    for name in ALL {
        for seed in 0..4 {
            for batch in [1, 4, 16] {
                let mut s = make_strategy(name, &[], seed).unwrap();
                let all = drain(s.as_mut(), &space, batch, usize::MAX);
                assert_no_duplicates(name, &all);
                for c in &all {
                    let constraint = space.check(&c.config).unwrap();
                    assert_eq!(constraint, c.violated, "{name}: {}", c.config.display());
                }
                let unflagged: HashSet<String> = all
                    .iter()
                    .filter(|c| c.violated.is_none())
                    .map(|c| c.config.key())
                    .collect();
                if ADAPTIVE.contains(&name) {
                    // Adaptive strategies skip every rejected configuration, device limits
                    // included, and still reach every feasible one before they stop.
                    assert!(all.iter().all(|c| c.violated.is_none()), "{name}");
                    assert_eq!(unflagged, feasible, "{name} seed {seed} batch {batch}");
                } else {
                    assert_eq!(unflagged, within_constraints, "{name}");
                }
                assert!(s.propose(&space, 5).unwrap().is_empty(), "{name} exhausted");
            }
        }
    }
}

#[test]
fn seeds_reproduce_whatever_the_batch_size() {
    let space = space();
    for name in ALL {
        let run = |seed: u64, batch: usize| {
            let mut s = make_strategy(name, &[], seed).unwrap();
            let mut k = keys(&drain(s.as_mut(), &space, batch, 60));
            k.truncate(60);
            k
        };
        let a = run(3, 1);
        assert_eq!(a, run(3, 1), "{name}: same seed, same sequence");
        assert_eq!(a, run(3, 5), "{name}: whatever the batch size");
        assert_eq!(a, run(3, 16), "{name}: whatever the batch size");
        if name != "Exhaustive" {
            assert_ne!(a, run(4, 16), "{name}: another seed, another sequence");
        }
    }
}

#[test]
fn adaptive_strategies_find_the_optimum_of_the_small_space() {
    let space = space();
    let optimum = (0..space.size())
        .map(|i| space.config_at(i))
        .filter(|c| space.rejection(c).unwrap().is_none())
        .filter_map(|c| cost(&c))
        .fold(f64::INFINITY, f64::min);
    for name in ADAPTIVE {
        let mut found = 0;
        for seed in 0..10 {
            let mut s = make_strategy(name, &[], seed).unwrap();
            // 30 measurements of about 150 feasible configurations.
            let all = drain(s.as_mut(), &space, 16, 30);
            let best = all
                .iter()
                .filter_map(|c| cost(&c.config))
                .fold(f64::INFINITY, f64::min);
            if best <= optimum * 1.03 {
                found += 1;
            }
        }
        assert!(
            found >= 7,
            "{name}: within 3% of the optimum for {found} of 10 seeds"
        );
    }
}

#[test]
fn unobserved_candidates_count_as_failed() {
    let space = space();
    for name in ADAPTIVE {
        let mut s = make_strategy(name, &[], 1).unwrap();
        let mut seen = HashSet::new();
        for _ in 0..20 {
            // Never observed: the strategy still moves on and never repeats itself.
            let b = s.propose(&space, 3).unwrap();
            assert!(!b.is_empty(), "{name}");
            for c in b {
                assert!(seen.insert(c.config.key()), "{name}");
            }
        }
        // An observation of something never proposed is ignored.
        s.observe(&space.config_at(0), Some(1.0));
        s.observe(&space.config_at(0), Some(1.0));
        assert!(!s.propose(&space, 1).unwrap().is_empty());
    }
}

#[test]
fn degenerate_spaces() {
    let one = |values: Vec<Value>| SearchSpace {
        params: vec![param("X", values)].into(),
        constraints: vec![].into(),
        fixed: BTreeMap::new(),
        prefilter: None,
    };
    // No parameters: one configuration.
    let none = SearchSpace {
        params: vec![].into(),
        ..one(vec![])
    };
    // A parameter without values: no configuration.
    let empty = one(vec![]);
    // A single configuration; a single parameter; only parameters with one value.
    let single = one(ints([4]));
    let line = one(ints(0..50));
    let flat = SearchSpace {
        params: vec![param("X", ints([1])), param("Y", ints([2]))].into(),
        ..one(vec![])
    };
    // Everything infeasible, by constraint or by the prefilter.
    let mut infeasible = one(ints(0..30));
    infeasible.constraints = vec![constraint("never", "X < 0")].into();
    let limited = one(ints(0..30)).with_prefilter(|_| Some(Rejection::DeviceLimit("no".into())));
    for name in ALL {
        for (what, space, expected) in [
            ("no parameters", &none, 1),
            ("empty", &empty, 0),
            ("single", &single, 1),
            ("line", &line, 50),
            ("flat", &flat, 1),
        ] {
            let mut s = make_strategy(name, &[], 9).unwrap();
            let all = drain(s.as_mut(), space, 4, usize::MAX);
            assert_no_duplicates(name, &all);
            assert_eq!(all.len(), expected, "{name} on {what}");
            assert!(all.iter().all(|c| c.violated.is_none()));
        }
        let mut s = make_strategy(name, &[], 9).unwrap();
        let all = drain(s.as_mut(), &infeasible, 4, usize::MAX);
        if ADAPTIVE.contains(&name) {
            assert!(
                all.is_empty(),
                "{name} proposes nothing when nothing is feasible"
            );
        } else {
            assert_eq!(all.len(), 30);
            assert!(all.iter().all(|c| c.violated.as_deref() == Some("never")));
        }
        let mut s = make_strategy(name, &[], 9).unwrap();
        let all = drain(s.as_mut(), &limited, 4, usize::MAX);
        assert_eq!(
            all.len(),
            if ADAPTIVE.contains(&name) { 0 } else { 30 },
            "{name}"
        );
    }
}

#[test]
fn huge_spaces_are_never_enumerated() {
    // 8^10 ≈ 1.07e9 configurations, about half of them feasible.
    let space = SearchSpace {
        params: (0..10)
            .map(|k| param(&format!("P{k}"), ints(0..8)))
            .collect(),
        constraints: vec![constraint("half", "P0 + P1 + P2 <= 10")].into(),
        fixed: BTreeMap::new(),
        prefilter: None,
    };
    assert!(space.size() > 1_000_000_000);
    let smooth = |c: &Configuration| -> Option<f64> {
        let s: i64 = c
            .values
            .iter()
            .map(|(_, v)| (v.as_i64().unwrap() - 3).pow(2))
            .sum();
        Some(1.0 + s as f64)
    };
    // No wall-clock bound (it failed under load): a strategy that enumerated the space would
    // need tens of GB for its 5e8 feasible keys and end the test by running out of memory.
    for name in ADAPTIVE {
        let mut s = make_strategy(name, &[], 5).unwrap();
        let mut seen = HashSet::new();
        let mut best = f64::INFINITY;
        while seen.len() < 300 {
            let b = s.propose(&space, 16).unwrap();
            assert!(!b.is_empty(), "{name}");
            for c in b {
                assert!(c.violated.is_none());
                assert!(space.check(&c.config).unwrap().is_none());
                assert!(seen.insert(c.config.key()), "{name}");
                let ms = smooth(&c.config);
                best = best.min(ms.unwrap());
                s.observe(&c.config, ms);
            }
        }
        // A random configuration costs 1 + 10 * 7.5 on average: the search descends.
        assert!(best < 20.0, "{name}: best {best}");
    }
}

#[test]
fn options_are_typed_checked_and_used() {
    let opt = |n: &str, v: Value| {
        (
            n.to_string(),
            Located {
                value: v,
                span: Span::new(100, 130),
            },
        )
    };
    // Out of range, wrong type: located at the option's statement, with the default.
    let e = make_strategy(
        "Annealing",
        &[opt("annealing_cooling_factor", Value::Float(1.5))],
        0,
    )
    .err()
    .unwrap();
    assert_eq!(
        e.message,
        "option `annealing_cooling_factor` must be a number in (0, 1), found float 1.5"
    );
    assert_eq!(e.span, Span::new(100, 130));
    assert_eq!(e.help.as_deref(), Some("the default is 0.8"));
    let e = make_strategy(
        "genetic",
        &[opt("genetic_population", Value::Str("ten".into()))],
        0,
    )
    .err()
    .unwrap();
    assert_eq!(
        e.message,
        "option `genetic_population` must be an integer >= 2, found str 'ten'"
    );
    let e = make_strategy("Simplex", &[opt("simplex_step", Value::Float(-0.5))], 0)
        .err()
        .unwrap();
    assert!(
        e.message.contains("must be a number in [0, 1]"),
        "{}",
        e.message
    );
    // An integer is a number; any alias is a prefix.
    assert!(make_strategy(
        "NelderMead",
        &[
            opt("simplex_reflection_coef", Value::Int(1)),
            opt("neldermead_shrinkage_coef", Value::Float(0.25)),
            opt("nelder_mead_stall_limit", Value::Int(2)),
        ],
        0
    )
    .is_ok());
    let e = make_strategy(
        "Annealing",
        &[opt("annealing_coolingfactor", Value::Float(0.5))],
        0,
    )
    .err()
    .unwrap();
    assert_eq!(
        e.message,
        "unknown option `annealing_coolingfactor` for search algorithm `Annealing`"
    );
    assert_eq!(
        e.help.as_deref(),
        Some("did you mean `annealing_cooling_factor`?")
    );
    // Options reach the strategy: the first generation has `population` individuals.
    let space = space();
    for (population, expected) in [(4, 4), (12, 12)] {
        let mut g = make_strategy(
            "Genetic",
            &[opt("genetic_population", Value::Int(population))],
            0,
        )
        .unwrap();
        assert_eq!(g.propose(&space, 100).unwrap().len(), expected);
    }
    // And change the search.
    let run = |opts: &[(String, Located<Value>)]| {
        let mut s = make_strategy("Annealing", opts, 2).unwrap();
        keys(&drain(s.as_mut(), &space, 16, 40))
    };
    assert_ne!(
        run(&[]),
        run(&[opt("annealing_initial_samples", Value::Int(2))])
    );
    assert_eq!(
        run(&[]),
        run(&[opt("annealing_initial_samples", Value::Int(6))])
    );
}

/// `docs/SEARCH.md` documents every algorithm and option with its default.
#[test]
fn search_doc_lists_every_option_with_its_default() {
    let doc = include_str!("../../docs/SEARCH.md");
    for a in options::ALGORITHMS {
        assert!(doc.contains(&format!("`{}`", a.name)), "{} missing", a.name);
        for o in a.options {
            let row = format!(
                "| `{}_{}` | {} |",
                a.aliases[0],
                o.name,
                options::fmt_default(o)
            );
            assert!(
                doc.contains(&row),
                "docs/SEARCH.md lacks the row starting {row}"
            );
        }
    }
}

/// Bayes with restarts (and each way of remembering across them) keeps every invariant: never a
/// configuration twice, never an infeasible one, every feasible one before it stops, the same
/// sequence whatever the batch size.
#[test]
fn bayes_restarts_keep_the_invariants() {
    let space = space();
    let feasible = set_of(&space, |c| space.rejection(c).unwrap().is_none());
    let int = |n: &str, v: i64| {
        (
            n.to_string(),
            Located {
                value: Value::Int(v),
                span: Span::default(),
            },
        )
    };
    for memory in [0, 1] {
        for growth in [1, 2] {
            let opts = [
                int("bayes_restart_after", 3),
                int("bayes_initial_samples", 2),
                int("bayes_restart_memory", memory),
                int("bayes_restart_growth", growth),
            ];
            let run = |batch: usize, limit: usize| {
                let mut s = make_strategy("Bayes", &opts, 5).unwrap();
                let all = drain(s.as_mut(), &space, batch, limit);
                (all, s.propose(&space, 5).unwrap().is_empty())
            };
            let (all, exhausted) = run(4, usize::MAX);
            assert_no_duplicates("Bayes", &all);
            assert!(all.iter().all(|c| c.violated.is_none()));
            assert_eq!(keys(&all).into_iter().collect::<HashSet<_>>(), feasible);
            assert!(exhausted);
            let mut a = keys(&run(1, 40).0);
            let mut b = keys(&run(16, 40).0);
            a.truncate(40);
            b.truncate(40);
            assert_eq!(
                a, b,
                "memory {memory} growth {growth}: whatever the batch size"
            );
        }
    }
}
