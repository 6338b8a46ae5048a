//! Search strategies: propose configurations, observe outcomes (DESIGN.md §6).
//!
//! A [`Strategy`] walks one [`SearchSpace`] (one input size): the driver asks it for batches of
//! new [`Candidate`]s with [`Strategy::propose`], measures the feasible ones, and reports each
//! objective back with [`Strategy::observe`]. Invariants of every strategy: a configuration is
//! proposed at most once over the strategy's life; an infeasible configuration is never proposed
//! with `violated: None`; an empty batch means the space is exhausted; the same seed, space and
//! observations give the same proposals, whatever the batch sizes asked for.
//!
//! The strategies (`docs/SEARCH.md` documents them and their options):
//!
//! - [`Exhaustive`]: every configuration in index order, infeasible ones flagged;
//! - [`Random`]: uniformly without replacement, infeasible ones flagged;
//! - [`NelderMead`], [`Annealing`], [`Genetic`]: adaptive, on the grid of value indices
//!   ([`grid`]); they skip infeasible configurations (constraints and the space's
//!   [`orcl_frontend::space::Prefilter`]) without proposing them, and propose small batches (often one
//!   configuration) that they need observed before they propose more.
//!
//! Budgets (`total_runs`, `time_limit`) are the driver's: it stops asking. Every strategy is an
//! anytime algorithm and does not need to know the budget.

pub mod options;
pub mod strategy;
pub mod grid;
pub mod adaptive;
pub mod exhaustive;
pub mod random;
pub mod nelder_mead;
pub mod annealing;
pub mod genetic;
pub mod bayes;
#[cfg(test)]
mod invariants;

use orcl_frontend::diag::{Diagnostic, Span};
use orcl_frontend::expr::Value;
use orcl_frontend::spec::Located;

pub use adaptive::{Adaptive, Planner};
pub use annealing::Annealing;
pub use bayes::Bayes;
pub use exhaustive::Exhaustive;
pub use genetic::Genetic;
pub use nelder_mead::NelderMead;
pub use random::Random;
pub use strategy::{candidate_at, Candidate, Strategy};

/// Names of the implemented algorithms (canonical spelling).
pub fn algorithm_names() -> Vec<&'static str> {
    options::ALGORITHMS.iter().map(|a| a.name).collect()
}

/// The strategy orcl runs when none is named, and why (one line for the user).
#[derive(Debug, Clone, PartialEq)]
pub struct DefaultChoice {
    /// Canonical algorithm name.
    pub name: &'static str,
    /// Why, in words (`docs/SEARCH.md`, "The default strategy").
    pub reason: String,
}

/// The adaptive strategy orcl runs by default when the budget does not cover the space: the
/// best by leave-one-space-out replay over every recorded space (`docs/SEARCH.md`, "The default
/// strategy", which gives the method and the held-out figures).
pub const DEFAULT_ADAPTIVE: &str = "Bayes";

/// The default strategy for a space of `space_size` configurations with a `budget` of
/// measurements (`None`: unbounded) and, when `time_limited`, a wall-time limit.
///
/// Exhaustive only when the whole space fits the budget (a budget of at least `space_size`, or no
/// budget and no time limit); otherwise [`DEFAULT_ADAPTIVE`]: exhaustive order would measure only
/// a corner of the space, and an adaptive strategy that is given time enough still measures every
/// feasible configuration.
pub fn default_algorithm(
    space_size: u64,
    budget: Option<u64>,
    time_limited: bool,
) -> DefaultChoice {
    let fits = match budget {
        Some(b) => b >= space_size,
        None => !time_limited,
    };
    if fits {
        return DefaultChoice {
            name: "Exhaustive",
            reason: format!(
                "the budget covers the {space_size} configurations: measuring them all"
            ),
        };
    }
    let limit = match budget {
        Some(b) => format!("a budget of {b} of {space_size} configurations"),
        None => format!("a time limit on {space_size} configurations"),
    };
    DefaultChoice {
        name: DEFAULT_ADAPTIVE,
        reason: format!(
            "{limit}: running {DEFAULT_ADAPTIVE}, the best strategy held out over the recorded spaces (docs/SEARCH.md)"
        ),
    }
}

/// Build the strategy named `algorithm` (case-insensitive: `Exhaustive`, `Random` alias
/// `Randomsearch`, `NelderMead` aliases `Simplex` and `Nelder_Mead`, `Annealing` aliases
/// `SimulatedAnnealing` and `Simulated_Annealing`, `Genetic`), seeded with `seed` where it draws
/// random numbers.
///
/// `options` are the spec's `arg <algorithm>_<option> = EXPR;` statements. Options prefixed with
/// an alias of the selected algorithm must be ones it knows, of the right type and in range
/// (see [`options::ALGORITHMS`]); options of other known algorithms are ignored; any other
/// option is an error.
///
/// Errors: unknown algorithm (span `Span::default()`: the caller re-locates it at the
/// `algorithm` arg or command-line flag), unknown, ill-typed or out-of-range option (at the
/// option's statement).
pub fn make_strategy(
    algorithm: &str,
    options: &[(String, Located<Value>)],
    seed: u64,
) -> Result<Box<dyn Strategy>, Diagnostic> {
    let Some(info) = options::find(algorithm) else {
        let lower = algorithm.trim().to_ascii_lowercase();
        let names = algorithm_names();
        let mut d = Diagnostic::new(
            Span::default(),
            format!("unknown search algorithm `{algorithm}`"),
        );
        let aliases: Vec<&str> = options::ALGORITHMS
            .iter()
            .flat_map(|a| a.aliases.iter().copied())
            .collect();
        let hint = orcl_frontend::diag::suggest(&lower, aliases.iter().copied())
            .and_then(options::find)
            .map(|a| a.name);
        d = match hint {
            Some(n) => d.with_help(format!("did you mean `{n}`?")),
            None => d.with_help(format!("the search algorithms are {}", names.join(", "))),
        };
        return Err(d);
    };
    let values = options::resolve(info, options)?;
    Ok(match info.name {
        "Exhaustive" => Box::new(Exhaustive::new()),
        "Random" => Box::new(Random::new(seed)),
        "NelderMead" => Box::new(NelderMead::new(
            nelder_mead::NelderMeadOptions::from_values(&values),
            seed,
        )),
        "Annealing" => Box::new(Annealing::new(
            annealing::AnnealingOptions::from_values(&values),
            seed,
        )),
        "Genetic" => Box::new(Genetic::new(
            genetic::GeneticOptions::from_values(&values),
            seed,
        )),
        "Bayes" => Box::new(Bayes::new(bayes::BayesOptions::from_values(&values), seed)),
        other => unreachable!("algorithm {other} is registered but not built"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use orcl_frontend::space::{Param, SearchSpace};
    use orcl_frontend::spec::ConstraintDecl;
    use std::collections::{BTreeMap, HashSet};

    /// WI × WG × CB with `WI*WG <= 1024`.
    pub(crate) fn test_space() -> SearchSpace {
        let ints = |v: &[i64]| v.iter().map(|&i| Value::Int(i)).collect::<Vec<_>>();
        SearchSpace {
            params: vec![
                Param {
                    name: "WI".into(),
                    values: ints(&[32, 64, 128, 256]).into(),
                },
                Param {
                    name: "WG".into(),
                    values: ints(&[4, 8, 16, 32]).into(),
                },
                Param {
                    name: "CB".into(),
                    values: vec![Value::Bool(true), Value::Bool(false)].into(),
                },
            ]
            .into(),
            constraints: vec![ConstraintDecl {
                name: "c1".into(),
                span: Span::default(),
                expr: orcl_frontend::expr::parse_expr("WI*WG <= 1024", 0).unwrap(),
            }]
            .into(),
            fixed: BTreeMap::new(),
            prefilter: None,
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
                    values: ints(300).into(),
                },
                Param {
                    name: "B".into(),
                    values: ints(300).into(),
                },
                Param {
                    name: "C".into(),
                    values: ints(300).into(),
                },
            ]
            .into(),
            constraints: vec![].into(),
            fixed: BTreeMap::new(),
            prefilter: None,
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
            Some("the search algorithms are Exhaustive, Random, NelderMead, Annealing, Genetic, Bayes")
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
