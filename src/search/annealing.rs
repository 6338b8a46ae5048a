//! Simulated annealing on the grid of parameter-value indices (Kirkpatrick, Gelatt and Vecchi,
//! "Optimization by Simulated Annealing", Science 220(4598), 1983), with the Metropolis
//! acceptance rule (Metropolis et al., J. Chem. Phys. 21, 1953).
//!
//! The state is one configuration. A move changes one parameter (drawn uniformly among those with
//! more than one value) to an adjacent value in its declaration order, or, with probability 1/4,
//! to the value two steps away. The energy of a configuration is the logarithm of its time, so
//! that the acceptance of a move depends on the ratio of the times, not on their unit: a move to
//! a configuration `r` times slower is accepted with probability `exp(-ln(r) / T)` (always when
//! it is faster). The temperature `T` starts at `initial_temperature` and is multiplied by
//! `cooling_factor` after every measurement.
//!
//! Adapted to tuning on a finite grid:
//!
//! - a (re)start measures `initial_samples` random configurations and starts from the fastest;
//! - configurations that break a constraint or the device limits are never proposed: a move to
//!   one is discarded and another move drawn;
//! - a move to a configuration measured before costs nothing (its time is remembered) and is
//!   accepted or rejected like any other; a configuration is never measured twice;
//! - when no unmeasured neighbour can be reached from the current configuration, or the best
//!   time has not improved for `restart_after` measurements, the walk restarts at the best of
//!   new random samples with the initial temperature (reheating).
//!
//! argmin's `SimulatedAnnealing` is not used: its solver calls the cost function itself inside
//! `next_iter`, while a [`crate::strategy::Strategy`] is driven from outside (propose, then observe, with
//! database hits and device limits in between), and it has no notion of a finite grid that must
//! never be measured twice. The algorithm is a few dozen lines here, with a seeded ChaCha8
//! generator.

use super::grid::{energy, Book, Point};
use super::options::Values;
use crate::adaptive::{Adaptive, Planner};
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::space::SearchSpace;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Options of [`Annealing`] (`arg annealing_<option> = ...;`); defaults in
/// [`super::options::ALGORITHMS`] and `docs/SEARCH.md`.
#[derive(Debug, Clone, PartialEq)]
pub struct AnnealingOptions {
    /// Starting temperature, in units of ln(time ratio) (> 0).
    pub initial_temperature: f64,
    /// Multiplies the temperature after every measurement, in (0, 1).
    pub cooling_factor: f64,
    /// Measurements without a new best before a restart (≥ 1).
    pub restart_after: usize,
    /// Random configurations measured at each (re)start (≥ 1).
    pub initial_samples: usize,
}

impl AnnealingOptions {
    pub fn from_values(v: &Values) -> Self {
        AnnealingOptions {
            initial_temperature: v.get("initial_temperature"),
            cooling_factor: v.get("cooling_factor"),
            restart_after: v.int("restart_after").max(1),
            initial_samples: v.int("initial_samples").max(1),
        }
    }
}

impl Default for AnnealingOptions {
    fn default() -> Self {
        Self::from_values(&super::options::defaults("Annealing"))
    }
}

/// Simulated annealing (see the module documentation).
pub type Annealing = Adaptive<AnnealingPlanner>;

impl Annealing {
    pub fn new(options: AnnealingOptions, seed: u64) -> Self {
        Adaptive::with_planner(AnnealingPlanner {
            temperature: options.initial_temperature,
            options,
            rng: ChaCha8Rng::seed_from_u64(seed),
            current: None,
            sampling: Vec::new(),
            last: None,
            momentum: None,
            evaluations: 0,
            best: f64::INFINITY,
            since_best: 0,
        })
    }
}

/// The planner of [`Annealing`].
#[derive(Debug, Clone)]
pub struct AnnealingPlanner {
    options: AnnealingOptions,
    rng: ChaCha8Rng,
    temperature: f64,
    /// The current configuration and its energy.
    current: Option<(Point, f64)>,
    /// The random samples of the current (re)start, until they are observed.
    sampling: Vec<Point>,
    /// The move proposed last, to accept or reject once observed.
    last: Option<(Point, Move)>,
    /// The last move that improved the energy: tried again first.
    momentum: Option<Move>,
    /// Measurements seen so far.
    evaluations: usize,
    /// The best energy seen so far.
    best: f64,
    /// Measurements since the best energy last improved.
    since_best: usize,
}

/// A move: a parameter and a signed number of steps.
type Move = (usize, isize);

/// Draws per plan before the walk is declared stuck (scaled by the number of parameters).
const MOVES_PER_PARAM: usize = 64;

impl AnnealingPlanner {
    /// Metropolis: move to `q` (energy `e`) if it is better, or with probability `exp(-Δ/T)`.
    /// Returns whether the move was accepted and improved the energy.
    fn consider(&mut self, q: Point, e: f64) -> bool {
        let Some((_, cur)) = &self.current else {
            if e.is_finite() {
                self.current = Some((q, e));
            }
            return false;
        };
        let delta = e - cur;
        let accept = if delta <= 0.0 {
            true
        } else if !e.is_finite() {
            false
        } else {
            self.rng.random::<f64>() < (-delta / self.temperature.max(1e-300)).exp()
        };
        if accept {
            self.current = Some((q, e));
        }
        accept && delta < 0.0
    }

    /// A random move from `p`: one active parameter one step (three times out of four) or two
    /// steps up or down.
    fn neighbour(&mut self, book: &Book, p: &Point) -> Option<(Point, Move)> {
        let k = book.active[self.rng.random_range(0..book.active.len())];
        let size = if self.rng.random_range(0..4) == 0 {
            2
        } else {
            1
        };
        let delta = if self.rng.random::<bool>() {
            size
        } else {
            -size
        };
        book.step(p, k, delta)
            .map(|q| (q, (k, delta)))
            .or_else(|| book.step(p, k, -delta).map(|q| (q, (k, -delta))))
    }

    /// Measure new random samples and restart from the best of them, reheated.
    fn restart(&mut self, space: &SearchSpace, book: &mut Book) -> Result<(), Diagnostic> {
        self.current = None;
        self.last = None;
        self.momentum = None;
        self.temperature = self.options.initial_temperature;
        self.since_best = 0;
        for _ in 0..self.options.initial_samples {
            match book.random_new(space, &mut self.rng)? {
                Some(p) => {
                    book.plan(p.clone());
                    self.sampling.push(p);
                }
                None => break,
            }
        }
        Ok(())
    }
}

impl Planner for AnnealingPlanner {
    fn name(&self) -> &'static str {
        "Annealing"
    }

    fn plan(&mut self, space: &SearchSpace, book: &mut Book) -> Result<(), Diagnostic> {
        // What was observed since the last plan.
        let new = book.evaluations() - self.evaluations;
        self.evaluations = book.evaluations();
        for _ in 0..new {
            self.temperature *= self.options.cooling_factor;
        }
        let best = book
            .best
            .as_ref()
            .map_or(f64::INFINITY, |(_, ms)| energy(*ms));
        if best < self.best {
            self.best = best;
            self.since_best = 0;
        } else {
            self.since_best += new;
        }
        if !self.sampling.is_empty() {
            let mut samples = std::mem::take(&mut self.sampling);
            samples.sort_by(|a, b| {
                let ea = energy(book.cost(a).unwrap_or(f64::INFINITY));
                let eb = energy(book.cost(b).unwrap_or(f64::INFINITY));
                ea.total_cmp(&eb)
            });
            let first = samples.swap_remove(0);
            let e = energy(book.cost(&first).unwrap_or(f64::INFINITY));
            self.current = e.is_finite().then_some((first, e));
            // The walk starts now, at the initial temperature.
            self.temperature = self.options.initial_temperature;
        }
        if let Some((q, mv)) = self.last.take() {
            let e = energy(book.cost(&q).unwrap_or(f64::INFINITY));
            if self.consider(q, e) {
                self.momentum = Some(mv);
            }
        }

        if self.since_best >= self.options.restart_after || book.active.is_empty() {
            return self.restart(space, book);
        }
        let tries = MOVES_PER_PARAM * book.active.len().max(1);
        for _ in 0..tries {
            let Some((p, _)) = self.current.clone() else {
                break;
            };
            // The move that just improved, again; else a random one.
            let repeat = self
                .momentum
                .take()
                .and_then(|(k, d)| book.step(&p, k, d).map(|q| (q, (k, d))));
            let Some((q, mv)) = repeat.or_else(|| self.neighbour(book, &p)) else {
                continue;
            };
            if !book.feasible(space, &q)? {
                continue;
            }
            if book.is_new(&q) {
                book.plan(q.clone());
                self.last = Some((q, mv));
                return Ok(());
            }
            if let Some(c) = book.cost(&q) {
                // Measured before: a free move.
                if self.consider(q, energy(c)) {
                    self.momentum = Some(mv);
                }
            }
        }
        // No current configuration, or no unmeasured neighbour within reach.
        self.restart(space, book)
    }
}
