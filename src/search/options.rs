//! The algorithms' registry: names, aliases, options with their types, ranges and defaults.
//!
//! An option is written `arg <alias>_<option> = VALUE;` in the spec's `search` section, with any
//! alias of the algorithm as prefix (`annealing_cooling_factor`, `simplex_reflection_coef`).
//! `docs/SEARCH.md` documents every option; [`ALGORITHMS`] is the source of truth and a unit test
//! checks that the document lists every option with its default.

use orcl_frontend::diag::{did_you_mean, Diagnostic};
use orcl_frontend::expr::Value;
use orcl_frontend::spec::Located;
use std::collections::BTreeMap;

/// The type and range of an option's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// An integer in `min..=max`.
    Int { min: i64, max: i64 },
    /// A number (an integer is accepted) in the interval from `min` to `max`; each end is
    /// included when its flag is set.
    Float {
        min: f64,
        min_inclusive: bool,
        max: f64,
        max_inclusive: bool,
    },
}

impl Kind {
    fn describe(&self) -> String {
        match *self {
            Kind::Int { min, max } if max == i64::MAX => format!("an integer >= {min}"),
            Kind::Int { min, max } => format!("an integer in {min}..={max}"),
            Kind::Float {
                min,
                min_inclusive,
                max,
                max_inclusive,
            } => {
                if max.is_infinite() {
                    format!("a number {} {min}", if min_inclusive { ">=" } else { ">" })
                } else {
                    format!(
                        "a number in {}{min}, {max}{}",
                        if min_inclusive { "[" } else { "(" },
                        if max_inclusive { "]" } else { ")" }
                    )
                }
            }
        }
    }

    /// The value as a number, if it has the right type and is in range.
    fn accept(&self, v: &Value) -> Option<f64> {
        match *self {
            Kind::Int { min, max } => v
                .as_i64()
                .filter(|i| (min..=max).contains(i))
                .map(|i| i as f64),
            Kind::Float {
                min,
                min_inclusive,
                max,
                max_inclusive,
            } => {
                let x = match v {
                    Value::Int(_) | Value::Float(_) => v.as_f64()?,
                    _ => return None,
                };
                let lo = if min_inclusive { x >= min } else { x > min };
                let hi = if max_inclusive { x <= max } else { x < max };
                (x.is_finite() && lo && hi).then_some(x)
            }
        }
    }
}

/// One option of an algorithm.
#[derive(Debug, Clone, Copy)]
pub struct OptionInfo {
    /// The suffix after `<alias>_`.
    pub name: &'static str,
    pub kind: Kind,
    /// The default value (an integer for [`Kind::Int`]).
    pub default: f64,
    /// One line: what it does, with its unit.
    pub doc: &'static str,
}

/// One implemented algorithm: its name, the lower-case names it is selected by, and its
/// `<alias>_<option>` options.
#[derive(Debug, Clone, Copy)]
pub struct AlgorithmInfo {
    /// Canonical spelling, e.g. `"NelderMead"`.
    pub name: &'static str,
    /// Lower-case names that select it (also accepted as option prefixes); the first one is the
    /// prefix used in messages.
    pub aliases: &'static [&'static str],
    pub options: &'static [OptionInfo],
}

const fn int(
    name: &'static str,
    min: i64,
    max: i64,
    default: i64,
    doc: &'static str,
) -> OptionInfo {
    OptionInfo {
        name,
        kind: Kind::Int { min, max },
        default: default as f64,
        doc,
    }
}

const fn open01(name: &'static str, default: f64, doc: &'static str) -> OptionInfo {
    OptionInfo {
        name,
        kind: Kind::Float {
            min: 0.0,
            min_inclusive: false,
            max: 1.0,
            max_inclusive: false,
        },
        default,
        doc,
    }
}

const fn closed01(name: &'static str, default: f64, doc: &'static str) -> OptionInfo {
    OptionInfo {
        name,
        kind: Kind::Float {
            min: 0.0,
            min_inclusive: true,
            max: 1.0,
            max_inclusive: true,
        },
        default,
        doc,
    }
}

const fn positive(name: &'static str, default: f64, doc: &'static str) -> OptionInfo {
    OptionInfo {
        name,
        kind: Kind::Float {
            min: 0.0,
            min_inclusive: false,
            max: f64::INFINITY,
            max_inclusive: false,
        },
        default,
        doc,
    }
}

const NO_LIMIT: i64 = i64::MAX;

/// Every implemented algorithm, in the order `orcl replay --algorithm all` runs them.
pub const ALGORITHMS: &[AlgorithmInfo] = &[
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
    AlgorithmInfo {
        name: "NelderMead",
        aliases: &["neldermead", "nelder_mead", "simplex"],
        options: &[
            positive(
                "reflection_coef",
                1.0,
                "reflection coefficient alpha (> 0)",
            ),
            OptionInfo {
                name: "expansion_coef",
                kind: Kind::Float {
                    min: 1.0,
                    min_inclusive: false,
                    max: f64::INFINITY,
                    max_inclusive: false,
                },
                default: 2.0,
                doc: "expansion coefficient gamma (> 1)",
            },
            open01("contraction_coef", 0.5, "contraction coefficient rho, in (0, 1)"),
            open01("shrinkage_coef", 0.5, "shrinkage coefficient sigma, in (0, 1)"),
            closed01(
                "step",
                0.35,
                "edge of the initial simplex, as a share of each parameter's value range (at least one value)",
            ),
            int(
                "stall_limit",
                1,
                NO_LIMIT,
                3,
                "simplex steps in a row that measure nothing new before the simplex restarts",
            ),
            int(
                "local_distance",
                0,
                NO_LIMIT,
                1,
                "reach, in values along one parameter, of the local search around the best point that ends each simplex run (0: none)",
            ),
            int(
                "initial_samples",
                1,
                NO_LIMIT,
                6,
                "random configurations measured at each global (re)start; the simplex is built around the fastest",
            ),
        ],
    },
    AlgorithmInfo {
        name: "Annealing",
        aliases: &["annealing", "simulatedannealing", "simulated_annealing"],
        options: &[
            positive(
                "initial_temperature",
                0.05,
                "starting temperature, in units of ln(time ratio): a move 10% slower is accepted with probability exp(-ln(1.1)/T)",
            ),
            open01(
                "cooling_factor",
                0.8,
                "the temperature is multiplied by this after every measurement",
            ),
            int(
                "restart_after",
                1,
                NO_LIMIT,
                15,
                "measurements without a new best before a restart (new random samples, initial temperature)",
            ),
            int(
                "initial_samples",
                1,
                NO_LIMIT,
                6,
                "random configurations measured at each (re)start; the walk starts at the fastest",
            ),
        ],
    },
    AlgorithmInfo {
        name: "Genetic",
        aliases: &["genetic"],
        options: &[
            int(
                "population",
                2,
                NO_LIMIT,
                10,
                "individuals per generation (the first generation is random configurations)",
            ),
            int(
                "elitism",
                0,
                NO_LIMIT,
                2,
                "fastest individuals that always survive into the next generation; each generation breeds population - elitism children",
            ),
            int(
                "tournament",
                1,
                NO_LIMIT,
                5,
                "individuals drawn per tournament; the fastest of them is a parent",
            ),
            closed01(
                "crossover_rate",
                0.9,
                "probability that a child is a uniform crossover of two parents (else a copy of one)",
            ),
            closed01(
                "mutation_rate",
                0.2,
                "probability that each gene (parameter) of a child mutates",
            ),
        ],
    },
    AlgorithmInfo {
        name: "Bayes",
        aliases: &["bayes", "bayesian", "bayes_opt", "smbo"],
        options: &[
            int(
                "initial_samples",
                2,
                NO_LIMIT,
                10,
                "random configurations measured before the first model is fitted",
            ),
            int(
                "trees",
                1,
                NO_LIMIT,
                10,
                "regression trees of the random-forest surrogate, each fitted on a bootstrap sample",
            ),
            int(
                "candidates",
                1,
                NO_LIMIT,
                500,
                "random feasible unmeasured configurations scored per model fit, besides the neighbours of the fastest",
            ),
            int(
                "batch",
                1,
                NO_LIMIT,
                1,
                "configurations (the best by expected improvement) measured per model fit",
            ),
            positive(
                "failure_penalty",
                1.0,
                "a failed configuration is learned as the worst observed ln(time) plus this",
            ),
            OptionInfo {
                name: "exploration",
                kind: Kind::Float {
                    min: 0.0,
                    min_inclusive: true,
                    max: f64::INFINITY,
                    max_inclusive: false,
                },
                default: 0.0,
                doc: "margin xi of the expected improvement, in ln(time): larger explores more",
            },
            int(
                "local",
                0,
                NO_LIMIT,
                5,
                "fastest configurations whose neighbourhoods (one or two values along one parameter, its first and last value) are candidates too",
            ),
            int(
                "divisibility",
                0,
                1,
                1,
                "1: an integer parameter also gives the trees the largest power of two dividing its value (alignment); 0: value indices only",
            ),
            int(
                "scaling",
                0,
                1,
                1,
                "1: the neighbourhoods also double and halve an integer parameter's value; 0: steps along the value list only",
            ),
            int(
                "restart_after",
                0,
                NO_LIMIT,
                30,
                "evaluations without a new best of the current phase before a new phase starts from new random samples (0: never)",
            ),
            int(
                "restart_memory",
                0,
                1,
                0,
                "1: after a restart the surrogate still learns from every observation; 0: from the new phase's only",
            ),
            int(
                "restart_growth",
                1,
                NO_LIMIT,
                2,
                "factor by which restart_after grows after each restart (1: constant)",
            ),
        ],
    },
];

/// Option prefixes of algorithms orcl knows of (Orio's and DESIGN.md §6) but that are not the
/// selected one: their options are ignored, so that one spec can carry options for several
/// algorithms and the algorithm can be switched from the command line.
const OTHER_ALGORITHM_PREFIXES: &[&str] = &["msimplex", "mlsearch"];

/// Orio's search algorithms (`orio/main/tuner/search/*`) that orcl does not implement as such,
/// each run as one of orcl's: (Orio's name in lower case, orcl's algorithm, what runs instead).
/// Their options whose names orcl's algorithm shares are applied; the others are ignored (and
/// named in `check`'s warning).
pub const ORIO_MAPPED: &[(&str, &str, &str)] = &[
    ("randomlocal", "Random", "Orio's Randomlocal (random samples, then a local search around the best) runs as orcl's Random: configurations in random order without repetition"),
    ("randomsimple", "Random", "Orio's Randomsimple runs as orcl's Random: configurations in random order without repetition"),
    ("direct", "Random", "Orio's Direct (DIRECT, Jones et al. 1993) is not implemented; orcl's Random runs instead: configurations in random order without repetition"),
    ("mlsearch", "Random", "Orio's Mlsearch (random samples ranked by a learned model) is not implemented; orcl's Random runs instead: configurations in random order without repetition"),
    ("msimplex", "NelderMead", "Orio's Msimplex (multi-start Nelder-Mead) runs as orcl's NelderMead, which restarts from new random samples when it stalls"),
    ("firefly", "Genetic", "Orio's Firefly (a population-based metaheuristic) is not implemented; orcl's Genetic (also population-based) runs instead"),
];

/// Search arguments of Orio that orcl accepts and ignores: (name, why).
pub const ORIO_IGNORED_ARGS: &[(&str, &str)] = &[
    ("use_parallel_search", "orcl measures one configuration at a time per device, so timings do not disturb each other"),
    ("exhaustive_start_coord", "orcl's Exhaustive enumerates the whole search space in order"),
    ("use_z3", "constraints are checked directly on each configuration"),
    ("resume", "orcl resumes from its database whenever the same experiment is tuned again"),
];

/// The registry entry of the algorithm named `algorithm` (case-insensitive, any alias, or one of
/// Orio's names in [`ORIO_MAPPED`]).
pub fn find(algorithm: &str) -> Option<&'static AlgorithmInfo> {
    let lower = algorithm.trim().to_ascii_lowercase();
    let lower = ORIO_MAPPED
        .iter()
        .find(|m| m.0 == lower)
        .map(|m| m.1.to_ascii_lowercase())
        .unwrap_or(lower);
    ALGORITHMS
        .iter()
        .find(|a| a.aliases.contains(&lower.as_str()))
}

/// What runs for one of Orio's algorithm names that orcl maps to its own (see [`ORIO_MAPPED`]).
pub fn orio_note(algorithm: &str) -> Option<&'static str> {
    let lower = algorithm.trim().to_ascii_lowercase();
    ORIO_MAPPED.iter().find(|m| m.0 == lower).map(|m| m.2)
}

/// The options' values for `info` (defaults for those not given), by option name.
///
/// `options` are the spec's `arg <algorithm>_<option> = EXPR;` statements. Options prefixed with
/// an alias of `info` must be ones it knows, of the right type and in range; options of other
/// known algorithms are ignored; any other option is an error.
///
/// Errors: located at the option's statement.
pub fn resolve(
    info: &AlgorithmInfo,
    options: &[(String, Located<Value>)],
) -> Result<Values, Diagnostic> {
    let mut values: BTreeMap<&'static str, f64> =
        info.options.iter().map(|o| (o.name, o.default)).collect();
    for (name, value) in options {
        if let Some(opt) = check_option(info, name, value)? {
            let x = opt.kind.accept(&value.value).ok_or_else(|| {
                Diagnostic::new(
                    value.span,
                    format!(
                        "option `{name}` must be {}, found {} {}",
                        opt.kind.describe(),
                        value.value.type_name(),
                        value.value
                    ),
                )
                .with_help(format!("the default is {}", fmt_default(opt)))
            })?;
            values.insert(opt.name, x);
        }
    }
    Ok(Values(values))
}

/// An option's default as written in a spec.
pub fn fmt_default(opt: &OptionInfo) -> String {
    match opt.kind {
        Kind::Int { .. } => format!("{}", opt.default as i64),
        Kind::Float { .. } => format!("{:?}", opt.default),
    }
}

/// Resolved option values of one algorithm.
#[derive(Debug, Clone, PartialEq)]
pub struct Values(BTreeMap<&'static str, f64>);

impl Values {
    /// The value of option `name` (which must be one of the algorithm's).
    pub fn get(&self, name: &str) -> f64 {
        *self
            .0
            .get(name)
            .unwrap_or_else(|| panic!("internal: no search option `{name}`"))
    }

    /// An integer option's value.
    pub fn int(&self, name: &str) -> usize {
        let v = self.get(name);
        if v >= usize::MAX as f64 {
            usize::MAX
        } else {
            v as usize
        }
    }
}

/// `Ok(Some(option))` for an option of `info`, `Ok(None)` for an option of another known
/// algorithm (ignored).
fn check_option(
    info: &AlgorithmInfo,
    name: &str,
    value: &Located<Value>,
) -> Result<Option<&'static OptionInfo>, Diagnostic> {
    let lower = name.to_ascii_lowercase();
    if ORIO_IGNORED_ARGS.iter().any(|(n, _)| *n == lower) {
        return Ok(None);
    }
    // An option of one of Orio's algorithms mapped to `info`: applied where orcl's algorithm has
    // an option of that name, otherwise ignored.
    if let Some(suffix) = ORIO_MAPPED
        .iter()
        .filter(|m| m.1 == info.name)
        .find_map(|m| lower.strip_prefix(m.0).and_then(|r| r.strip_prefix('_')))
    {
        return Ok(info.options.iter().find(|o| o.name == suffix));
    }
    let own = info
        .aliases
        .iter()
        .filter_map(|a| lower.strip_prefix(a).and_then(|r| r.strip_prefix('_')))
        .next();
    let full_names: Vec<String> = info
        .options
        .iter()
        .map(|o| format!("{}_{}", info.aliases[0], o.name))
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
        Some(suffix) => match info.options.iter().find(|o| o.name == suffix) {
            Some(o) => Ok(Some(o)),
            None => Err(help(Diagnostic::new(
                value.span,
                format!(
                    "unknown option `{name}` for search algorithm `{}`",
                    info.name
                ),
            ))),
        },
        None if ALGORITHMS
            .iter()
            .flat_map(|a| a.aliases.iter())
            .chain(OTHER_ALGORITHM_PREFIXES)
            .chain(ORIO_MAPPED.iter().map(|m| &m.0))
            .any(|p| lower.starts_with(&format!("{p}_"))) =>
        {
            Ok(None)
        }
        None => Err(help(Diagnostic::new(
            value.span,
            format!("unknown search option `{name}`: options are named `<algorithm>_<option>`"),
        ))),
    }
}

/// The default option values of the registered algorithm `algorithm`.
///
/// Panics: `algorithm` is not registered.
pub fn defaults(algorithm: &str) -> Values {
    let info = find(algorithm).unwrap_or_else(|| panic!("internal: no algorithm `{algorithm}`"));
    Values(info.options.iter().map(|o| (o.name, o.default)).collect())
}
