//! The strategy interface: a [`Strategy`] proposes [`Candidate`]s of one search space and
//! observes their objectives (DESIGN.md §6).

use orcl_frontend::diag::Diagnostic;
use orcl_frontend::space::{Configuration, SearchSpace};

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
    /// The driver observes every feasible candidate of a batch before it proposes again; an
    /// adaptive strategy takes a candidate that was not observed by then as failed.
    ///
    /// Errors: a constraint that cannot be evaluated (located at the constraint).
    fn propose(&mut self, space: &SearchSpace, max: usize) -> Result<Vec<Candidate>, Diagnostic>;
    /// The outcome of a proposed feasible configuration: its objective in ms, or `None` when the
    /// variant failed (compile error, crash, wrong result, device limit, ...).
    fn observe(&mut self, config: &Configuration, objective_ms: Option<f64>);
    /// Seed the search with `configs` (best first; e.g. the best configurations recorded for the
    /// same region at another input size or on another device): the strategy proposes those that
    /// are in its space, feasible and new before anything else, and learns from their outcomes.
    /// Call before the first proposal. Returns whether the strategy takes seeds (the adaptive
    /// ones do; Exhaustive and Random, whose order is fixed, do not).
    fn warm_start(&mut self, configs: &[Configuration]) -> bool {
        let _ = configs;
        false
    }
}

/// The candidate at `index` of `space`, checked against the constraints.
pub fn candidate_at(space: &SearchSpace, index: u64) -> Result<Candidate, Diagnostic> {
    let config = space.config_at(index);
    let violated = space.check(&config)?;
    Ok(Candidate { config, violated })
}
