//! Search strategies: propose configurations, observe outcomes (DESIGN.md §6).
//!
//! A [`Strategy`] walks one [`SearchSpace`] (one input size): the driver asks it for batches of
//! new [`Candidate`]s with [`Strategy::propose`], measures the feasible ones, and reports each
//! objective back with [`Strategy::observe`]. Invariants of every strategy: a configuration is
//! proposed at most once over the strategy's life; an infeasible configuration is never proposed
//! with `violated: None`; an empty batch means the space is exhausted.

pub mod exhaustive;
pub mod random;

use crate::diag::{did_you_mean, Diagnostic, Span};
use crate::frontend::expr::Value;
use crate::frontend::spec::Located;
use crate::space::{Configuration, SearchSpace};

pub use exhaustive::Exhaustive;
pub use random::Random;

/// A configuration proposed by a strategy.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub config: Configuration,
    /// Name of the first constraint the configuration breaks: it is never built, and is stored
    /// as a `constraint` failure. `None`: feasible, to be measured.
    pub violated: Option<String>,
}

/// A search strategy over one search space.
pub trait Strategy {
    /// Canonical algorithm name, e.g. `"Exhaustive"`.
    fn name(&self) -> &'static str;
    /// Up to `max` (> 0) new candidates, feasible ones and infeasible ones flagged with the
    /// violated constraint (both count towards `max`; only feasible ones are measurements).
    /// Never proposes a configuration twice; returns an empty vec when the space is exhausted.
    /// The same `space` must be passed on every call.
    ///
    /// Errors: a constraint that cannot be evaluated (located at the constraint).
    fn propose(&mut self, space: &SearchSpace, max: usize) -> Result<Vec<Candidate>, Diagnostic>;
    /// The outcome of a proposed feasible configuration: its objective in ms, or `None` when the
    /// variant failed (compile error, crash, wrong result, ...).
    fn observe(&mut self, config: &Configuration, objective_ms: Option<f64>);
}

/// The candidate at `index` of `space`, checked against the constraints.
pub fn candidate_at(space: &SearchSpace, index: u64) -> Result<Candidate, Diagnostic> {
    let config = space.config_at(index);
    let violated = space.check(&config)?;
    Ok(Candidate { config, violated })
}

/// One implemented algorithm: its name, the lower-case names it is selected by, and its
/// `<prefix>_<option>` options.
struct AlgorithmInfo {
    name: &'static str,
    aliases: &'static [&'static str],
    /// Option suffixes accepted after `<alias>_`.
    options: &'static [&'static str],
}

const ALGORITHMS: &[AlgorithmInfo] = &[
    AlgorithmInfo {
        name: "Exhaustive",
        aliases: &["exhaustive"],
        options: &[],
    },
    AlgorithmInfo {
        name: "Random",
        aliases: &["random", "randomsearch"],
        options: &[],
    },
];

/// Option prefixes of algorithms orcl knows of (Orio's and DESIGN.md §6) but that are not the
/// selected one: their options are ignored, so that one spec can carry options for several
/// algorithms and the algorithm can be switched from the command line.
const OTHER_ALGORITHM_PREFIXES: &[&str] = &[
    "exhaustive",
    "random",
    "randomsearch",
    "simplex",
    "msimplex",
    "neldermead",
    "nelder_mead",
    "annealing",
    "simulatedannealing",
    "simulated_annealing",
    "genetic",
    "mlsearch",
];

/// Names of the implemented algorithms (canonical spelling).
pub fn algorithm_names() -> Vec<&'static str> {
    ALGORITHMS.iter().map(|a| a.name).collect()
}

/// Build the strategy named `algorithm` (case-insensitive: `Exhaustive`, `Random` alias
/// `Randomsearch`), seeded with `seed` where it draws random numbers.
///
/// `options` are the spec's `arg <algorithm>_<option> = EXPR;` statements. Options prefixed with
/// the selected algorithm must be ones it knows; options of other known algorithms are ignored;
/// any other option is an error.
///
/// Errors: unknown algorithm (span `Span::default()`: the caller re-locates it at the
/// `algorithm` arg or command-line flag), unknown or ill-typed option (at the option's statement).
pub fn make_strategy(
    algorithm: &str,
    options: &[(String, Located<Value>)],
    seed: u64,
) -> Result<Box<dyn Strategy>, Diagnostic> {
    let lower = algorithm.trim().to_ascii_lowercase();
    let Some(info) = ALGORITHMS
        .iter()
        .find(|a| a.aliases.contains(&lower.as_str()))
    else {
        let names = algorithm_names();
        let mut d = Diagnostic::new(
            Span::default(),
            format!("unknown search algorithm `{algorithm}`"),
        );
        let lowered: Vec<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
        let hint = crate::diag::suggest(&lower, lowered.iter().map(|s| s.as_str()))
            .and_then(|s| names.iter().find(|n| n.eq_ignore_ascii_case(s)));
        d = match hint {
            Some(n) => d.with_help(format!("did you mean `{n}`?")),
            None => d.with_help(format!("the search algorithms are {}", names.join(", "))),
        };
        return Err(d);
    };
    for (name, value) in options {
        check_option(info, name, value)?;
    }
    Ok(match info.name {
        "Exhaustive" => Box::new(Exhaustive::new()),
        _ => Box::new(Random::new(seed)),
    })
}

fn check_option(
    info: &AlgorithmInfo,
    name: &str,
    value: &Located<Value>,
) -> Result<(), Diagnostic> {
    let lower = name.to_ascii_lowercase();
    let own = info
        .aliases
        .iter()
        .filter_map(|a| lower.strip_prefix(a).and_then(|r| r.strip_prefix('_')))
        .next();
    let full_names: Vec<String> = info
        .options
        .iter()
        .map(|o| format!("{}_{o}", info.aliases[0]))
        .collect();
    let help = |d: Diagnostic| match did_you_mean(name, full_names.iter().map(|s| s.as_str())) {
        Some(h) => d.with_help(h),
        None if info.options.is_empty() => d.with_help(format!("`{}` takes no options", info.name)),
        None => d.with_help(format!(
            "`{}` takes the options {}",
            info.name,
            full_names.join(", ")
        )),
    };
    match own {
        Some(suffix) if info.options.contains(&suffix) => Ok(()),
        Some(_) => Err(help(Diagnostic::new(
            value.span,
            format!(
                "unknown option `{name}` for search algorithm `{}`",
                info.name
            ),
        ))),
        None if OTHER_ALGORITHM_PREFIXES
            .iter()
            .any(|p| lower.starts_with(&format!("{p}_"))) =>
        {
            Ok(())
        }
        None => Err(help(Diagnostic::new(
            value.span,
            format!("unknown search option `{name}`: options are named `<algorithm>_<option>`"),
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::spec::ConstraintDecl;
    use crate::space::Param;
    use std::collections::{BTreeMap, HashSet};

    /// WI × WG × CB with `WI*WG <= 1024`.
    pub(crate) fn test_space() -> SearchSpace {
        let ints = |v: &[i64]| v.iter().map(|&i| Value::Int(i)).collect::<Vec<_>>();
        SearchSpace {
            params: vec![
                Param {
                    name: "WI".into(),
                    values: ints(&[32, 64, 128, 256]),
                },
                Param {
                    name: "WG".into(),
                    values: ints(&[4, 8, 16, 32]),
                },
                Param {
                    name: "CB".into(),
                    values: vec![Value::Bool(true), Value::Bool(false)],
                },
            ],
            constraints: vec![ConstraintDecl {
                name: "c1".into(),
                span: Span::default(),
                expr: crate::frontend::expr::parse_expr("WI*WG <= 1024", 0).unwrap(),
            }],
            fixed: BTreeMap::new(),
        }
    }

    fn feasible_set(space: &SearchSpace) -> HashSet<String> {
        (0..space.size())
            .map(|i| space.config_at(i))
            .filter(|c| space.check(c).unwrap().is_none())
            .map(|c| c.key())
            .collect()
    }

    /// Run a strategy to exhaustion in batches of `batch`; returns all candidates in order.
    fn drain(s: &mut dyn Strategy, space: &SearchSpace, batch: usize) -> Vec<Candidate> {
        let mut all = Vec::new();
        loop {
            let b = s.propose(space, batch).unwrap();
            assert!(b.len() <= batch);
            if b.is_empty() {
                return all;
            }
            for c in &b {
                if c.violated.is_none() {
                    s.observe(&c.config, Some(1.0));
                }
            }
            all.extend(b);
        }
    }

    fn check_cover(space: &SearchSpace, all: &[Candidate]) {
        let keys: Vec<String> = all.iter().map(|c| c.config.key()).collect();
        let unique: HashSet<&String> = keys.iter().collect();
        assert_eq!(
            unique.len(),
            keys.len(),
            "a configuration was proposed twice"
        );
        assert_eq!(all.len() as u64, space.size());
        for c in all {
            assert_eq!(
                space.check(&c.config).unwrap(),
                c.violated,
                "{}",
                c.config.display()
            );
        }
        let feasible: HashSet<String> = all
            .iter()
            .filter(|c| c.violated.is_none())
            .map(|c| c.config.key())
            .collect();
        assert_eq!(feasible, feasible_set(space));
    }

    #[test]
    fn exhaustive_visits_feasible_set_once_in_order() {
        let space = test_space();
        let mut s = make_strategy("exhaustive", &[], 0).unwrap();
        assert_eq!(s.name(), "Exhaustive");
        let all = drain(s.as_mut(), &space, 5);
        check_cover(&space, &all);
        for (i, c) in all.iter().enumerate() {
            assert_eq!(space.index_of(&c.config), Some(i as u64));
        }
        assert_eq!(feasible_set(&space).len(), (4 + 3 + 2 + 1) * 2);
        assert!(s.propose(&space, 10).unwrap().is_empty());
    }

    #[test]
    fn random_is_reproducible_never_repeats_and_covers() {
        let space = test_space();
        let mut a = make_strategy("Random", &[], 42).unwrap();
        let mut b = make_strategy("RANDOMSEARCH", &[], 42).unwrap();
        let mut c = make_strategy("random", &[], 43).unwrap();
        assert_eq!(a.name(), "Random");
        let all_a = drain(a.as_mut(), &space, 3);
        let all_b = drain(b.as_mut(), &space, 7);
        let all_c = drain(c.as_mut(), &space, 3);
        assert_eq!(
            all_a, all_b,
            "same seed, same order (independent of batch size)"
        );
        assert_ne!(all_a, all_c, "another seed, another order");
        check_cover(&space, &all_a);
        check_cover(&space, &all_c);
        let in_order: Vec<u64> = all_a
            .iter()
            .map(|c| space.index_of(&c.config).unwrap())
            .collect();
        assert_ne!(in_order, (0..space.size()).collect::<Vec<_>>(), "shuffled");
    }

    #[test]
    fn random_rejection_sampling_on_a_large_space() {
        let ints = |n: i64| (0..n).map(Value::Int).collect::<Vec<_>>();
        let space = SearchSpace {
            params: vec![
                Param {
                    name: "A".into(),
                    values: ints(300),
                },
                Param {
                    name: "B".into(),
                    values: ints(300),
                },
                Param {
                    name: "C".into(),
                    values: ints(300),
                },
            ],
            constraints: vec![],
            fixed: BTreeMap::new(),
        };
        assert!(space.size() > 1 << 22);
        let mut a = make_strategy("Random", &[], 7).unwrap();
        let mut b = make_strategy("Random", &[], 7).unwrap();
        let mut seen = HashSet::new();
        for _ in 0..20 {
            let ba = a.propose(&space, 100).unwrap();
            let bb = b.propose(&space, 100).unwrap();
            assert_eq!(ba, bb);
            assert_eq!(ba.len(), 100);
            for c in ba {
                assert!(c.violated.is_none());
                assert!(seen.insert(c.config.key()));
            }
        }
    }

    #[test]
    fn unknown_algorithm_and_options() {
        let e = make_strategy("Exhaustiv", &[], 0).err().unwrap();
        assert_eq!(e.message, "unknown search algorithm `Exhaustiv`");
        assert_eq!(e.help.as_deref(), Some("did you mean `Exhaustive`?"));
        let e = make_strategy("bogus", &[], 0).err().unwrap();
        assert_eq!(
            e.help.as_deref(),
            Some("the search algorithms are Exhaustive, Random")
        );

        let opt = |n: &str| {
            (
                n.to_string(),
                Located {
                    value: Value::Int(1),
                    span: Span::new(10, 20),
                },
            )
        };
        // Options of other algorithms are ignored.
        assert!(make_strategy(
            "Random",
            &[opt("msimplex_reflection_coef"), opt("exhaustive_x")],
            0
        )
        .is_ok());
        let e = make_strategy("Random", &[opt("random_batch")], 0)
            .err()
            .unwrap();
        assert_eq!(
            e.message,
            "unknown option `random_batch` for search algorithm `Random`"
        );
        assert_eq!(e.span, Span::new(10, 20));
        let e = make_strategy("Exhaustive", &[opt("foo_bar")], 0)
            .err()
            .unwrap();
        assert!(
            e.message.starts_with("unknown search option `foo_bar`"),
            "{}",
            e.message
        );
    }
}
