//! Nelder-Mead simplex search on the grid of parameter-value indices (Nelder and Mead, "A simplex
//! method for function minimization", The Computer Journal 7(4), 1965; the operations and their
//! order as in Lagarias, Reeds, Wright and Wright, SIAM J. Optim. 9(1), 1998).
//!
//! The simplex lives in the unit cube of the parameters that have more than one value: coordinate
//! `u` of a parameter with `n` values is the value index `round(u * (n - 1))`, so that every
//! parameter spans the same length whatever its number of values. A vertex is evaluated at the
//! grid point it rounds to (clamped to the cube). The energy of a point is the logarithm of its
//! time (failures and infeasible points: `+inf`).
//!
//! A continuous Nelder-Mead stalls on a discrete grid after a handful of distinct evaluations:
//! reflections, expansions and contractions soon round to points already measured, and the simplex
//! shrinks below one grid step. Hence:
//!
//! - **memoisation**: a point measured before is not measured again; its time is reused and the
//!   step costs nothing;
//! - **infeasible points** (constraints, device limits) are never proposed: their energy is
//!   `+inf`, so the simplex contracts away from them;
//! - **restarts**: when `stall_limit` simplex steps in a row measure nothing new, or every vertex
//!   rounds to the same point, the simplex is rebuilt: around the best point found when the run
//!   that just ended improved it (a local restart, which re-expands the collapsed simplex to its
//!   initial size), otherwise around a random unmeasured point (a global restart).
//!
//! The initial simplex is a point plus one vertex per parameter, `step` of the parameter's range
//! (at least one value) away from it, in a random direction that stays inside the grid.
//!
//! argmin's `NelderMead` is not used: its solver evaluates the cost function itself inside
//! `next_iter` (a [`crate::strategy::Strategy`] is driven from outside: propose, then observe), keeps the
//! simplex private (a restart cannot rebuild it around a point), and knows nothing of rounding
//! or of points already measured.

use super::grid::{energy, Book, Point};
use super::options::Values;
use crate::adaptive::{Adaptive, Planner};
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::space::SearchSpace;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Options of [`NelderMead`] (`arg simplex_<option> = ...;` or `neldermead_<option>`); defaults in
/// [`super::options::ALGORITHMS`] and `docs/SEARCH.md`.
#[derive(Debug, Clone, PartialEq)]
pub struct NelderMeadOptions {
    /// Reflection coefficient α (> 0).
    pub reflection: f64,
    /// Expansion coefficient γ (> 1).
    pub expansion: f64,
    /// Contraction coefficient ρ, in (0, 1).
    pub contraction: f64,
    /// Shrinkage coefficient σ, in (0, 1).
    pub shrinkage: f64,
    /// Edge of the initial simplex, as a share of each parameter's range, in [0, 1] (at least one
    /// value).
    pub step: f64,
    /// Simplex steps in a row that measure nothing new before a restart (≥ 1).
    pub stall_limit: usize,
    /// Reach of the local search that ends each run, in values along one parameter (0: none).
    pub local_distance: usize,
    /// Random configurations measured at each global (re)start; the simplex is built around the
    /// best (≥ 1).
    pub initial_samples: usize,
}

impl NelderMeadOptions {
    pub fn from_values(v: &Values) -> Self {
        NelderMeadOptions {
            reflection: v.get("reflection_coef"),
            expansion: v.get("expansion_coef"),
            contraction: v.get("contraction_coef"),
            shrinkage: v.get("shrinkage_coef"),
            step: v.get("step"),
            stall_limit: v.int("stall_limit").max(1),
            local_distance: v.int("local_distance"),
            initial_samples: v.int("initial_samples").max(1),
        }
    }
}

impl Default for NelderMeadOptions {
    fn default() -> Self {
        Self::from_values(&super::options::defaults("NelderMead"))
    }
}

/// Nelder-Mead on the index grid (see the module documentation).
pub type NelderMead = Adaptive<NelderMeadPlanner>;

impl NelderMead {
    pub fn new(options: NelderMeadOptions, seed: u64) -> Self {
        Adaptive::with_planner(NelderMeadPlanner {
            options,
            rng: ChaCha8Rng::seed_from_u64(seed),
            phase: Phase::Start,
            simplex: Vec::new(),
            stall: 0,
            iteration_start: None,
            run_start_best: f64::INFINITY,
        })
    }
}

/// A vertex: coordinates in the unit cube of the active parameters, and its energy.
type Vertex = (Vec<f64>, f64);

#[derive(Debug, Clone, PartialEq)]
enum Phase {
    /// Build a new simplex.
    Start,
    /// Random samples being measured: the new simplex is built around the best.
    Sample(Vec<Point>),
    /// The initial simplex's vertices, being measured.
    Init(Vec<Vec<f64>>),
    /// Nelder-Mead steps.
    Iterate,
    /// The local search around the best point of the run: its neighbours (in this order) are
    /// measured one at a time; the first better one becomes the centre.
    Polish { centre: Point, order: Vec<Point> },
}

/// The planner of [`NelderMead`].
#[derive(Debug, Clone)]
pub struct NelderMeadPlanner {
    options: NelderMeadOptions,
    rng: ChaCha8Rng,
    phase: Phase,
    /// Sorted by energy, best first, once initialised.
    simplex: Vec<Vertex>,
    /// Steps in a row that measured nothing new.
    stall: usize,
    /// Evaluations when the current step began (a step may span several plans).
    iteration_start: Option<usize>,
    /// The best energy when the current run (simplex) started.
    run_start_best: f64,
}

/// Internal steps per plan before a random restart is forced (a safety net: every path measures
/// something or restarts long before).
const STEP_LIMIT: usize = 100_000;

/// The outcome of looking at a vertex.
enum Look {
    /// Its energy is known (measured before, or infeasible).
    Known(f64),
    /// It has been queued for measurement.
    Planned,
}

impl NelderMeadPlanner {
    fn to_point(book: &Book, u: &[f64]) -> Point {
        let mut p = vec![0; book.dims.len()];
        for (j, &k) in book.active.iter().enumerate() {
            let n = book.dims[k];
            let x = u[j].clamp(0.0, 1.0) * (n - 1) as f64;
            p[k] = (x.round() as usize).min(n - 1);
        }
        p
    }

    fn to_unit(book: &Book, p: &Point) -> Vec<f64> {
        book.active
            .iter()
            .map(|&k| p[k] as f64 / (book.dims[k] - 1) as f64)
            .collect()
    }

    fn look(space: &SearchSpace, book: &mut Book, u: &[f64]) -> Result<Look, Diagnostic> {
        let p = Self::to_point(book, u);
        if book.is_new_feasible(space, &p)? {
            book.plan(p);
            return Ok(Look::Planned);
        }
        Ok(Look::Known(energy(book.cost(&p).unwrap_or(f64::INFINITY))))
    }

    /// The vertices of a new simplex around grid point `p`.
    fn simplex_around(&mut self, book: &Book, p: &Point) -> Vec<Vec<f64>> {
        let u0 = Self::to_unit(book, p);
        let mut out = vec![u0.clone()];
        for (j, &k) in book.active.iter().enumerate() {
            let n = book.dims[k];
            let steps = ((self.options.step * (n - 1) as f64).round() as usize).clamp(1, n - 1);
            let up = p[k] + steps < n;
            let down = p[k] >= steps;
            let dir_up = match (up, down) {
                (true, true) => self.rng.random::<bool>(),
                (u, _) => u,
            };
            let mut v = u0.clone();
            let d = steps as f64 / (n - 1) as f64;
            v[j] = if dir_up {
                u0[j] + d
            } else {
                (u0[j] - d).max(0.0)
            };
            out.push(v);
        }
        out
    }

    fn restart(&mut self, space: &SearchSpace, book: &mut Book) -> Result<bool, Diagnostic> {
        let best = book.best.as_ref().map(|(p, ms)| (p.clone(), energy(*ms)));
        let improved = best.as_ref().is_some_and(|(_, e)| *e < self.run_start_best);
        self.run_start_best = best.as_ref().map_or(f64::INFINITY, |(_, e)| *e);
        self.stall = 0;
        self.iteration_start = None;
        self.simplex.clear();
        if let Some((p, _)) = best.filter(|_| improved) {
            let verts = self.simplex_around(book, &p);
            self.phase = Phase::Init(verts);
            return Ok(true);
        }
        let mut samples = Vec::new();
        for _ in 0..self.options.initial_samples {
            match book.random_new(space, &mut self.rng)? {
                Some(p) => {
                    book.plan(p.clone());
                    samples.push(p);
                }
                None => break,
            }
        }
        if samples.is_empty() {
            return Ok(false);
        }
        self.phase = Phase::Sample(samples);
        Ok(true)
    }

    /// One Nelder-Mead step on the sorted simplex: `Ok(true)` when it completed (the simplex
    /// changed), `Ok(false)` when it queued points to measure.
    fn step(&mut self, space: &SearchSpace, book: &mut Book) -> Result<bool, Diagnostic> {
        let o = self.options.clone();
        let n = self.simplex.len() - 1;
        let dim = self.simplex[0].0.len();
        let worst = self.simplex[n].clone();
        let mut centroid = vec![0.0; dim];
        for (u, _) in &self.simplex[..n] {
            for (c, x) in centroid.iter_mut().zip(u) {
                *c += x / n as f64;
            }
        }
        let along = |t: f64| -> Vec<f64> {
            centroid
                .iter()
                .zip(&worst.0)
                .map(|(c, w)| (c + t * (c - w)).clamp(0.0, 1.0))
                .collect()
        };
        let (f1, fn_, fw) = (self.simplex[0].1, self.simplex[n - 1].1, worst.1);
        let xr = along(o.reflection);
        let Look::Known(fr) = Self::look(space, book, &xr)? else {
            return Ok(false);
        };
        let replace = |s: &mut Self, v: Vertex| {
            s.simplex[n] = v;
        };
        if fr < f1 {
            let xe = along(o.reflection * o.expansion);
            let Look::Known(fe) = Self::look(space, book, &xe)? else {
                return Ok(false);
            };
            replace(self, if fe < fr { (xe, fe) } else { (xr, fr) });
        } else if fr < fn_ {
            replace(self, (xr, fr));
        } else {
            let outside = fr < fw;
            let xc = if outside {
                along(o.reflection * o.contraction)
            } else {
                along(-o.contraction)
            };
            let Look::Known(fc) = Self::look(space, book, &xc)? else {
                return Ok(false);
            };
            if (outside && fc <= fr) || (!outside && fc < fw) {
                replace(self, (xc, fc));
            } else {
                // Shrink towards the best vertex: measure every new vertex as one batch.
                let best = self.simplex[0].0.clone();
                let shrunk: Vec<Vec<f64>> = self.simplex[1..]
                    .iter()
                    .map(|(u, _)| {
                        best.iter()
                            .zip(u)
                            .map(|(b, x)| b + o.shrinkage * (x - b))
                            .collect()
                    })
                    .collect();
                let mut energies = Vec::with_capacity(shrunk.len());
                let mut planned = false;
                for u in &shrunk {
                    match Self::look(space, book, u)? {
                        Look::Known(e) => energies.push(e),
                        Look::Planned => planned = true,
                    }
                }
                if planned {
                    return Ok(false);
                }
                for (i, (u, e)) in shrunk.into_iter().zip(energies).enumerate() {
                    self.simplex[i + 1] = (u, e);
                }
            }
        }
        Ok(true)
    }

    /// The points within `local_distance` values of `p` along one parameter, shuffled.
    fn local_order(&mut self, book: &Book, p: &Point) -> Vec<Point> {
        let mut out = Vec::new();
        for &k in &book.active {
            for d in 1..=self.options.local_distance as isize {
                for delta in [-d, d] {
                    if let Some(q) = book.step(p, k, delta) {
                        out.push(q);
                    }
                }
            }
        }
        out.shuffle(&mut self.rng);
        out
    }

    fn sort(&mut self) {
        self.simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
    }

    /// Every vertex rounds to the same grid point.
    fn collapsed(&self, book: &Book) -> bool {
        let first = Self::to_point(book, &self.simplex[0].0);
        self.simplex[1..]
            .iter()
            .all(|(u, _)| Self::to_point(book, u) == first)
    }
}

impl Planner for NelderMeadPlanner {
    fn name(&self) -> &'static str {
        "NelderMead"
    }

    fn plan(&mut self, space: &SearchSpace, book: &mut Book) -> Result<(), Diagnostic> {
        for _ in 0..STEP_LIMIT {
            match self.phase.clone() {
                Phase::Start => {
                    if book.active.is_empty() {
                        // One configuration at most: nothing to walk.
                        if let Some(p) = book.random_new(space, &mut self.rng)? {
                            book.plan(p);
                        }
                        return Ok(());
                    }
                    if !self.restart(space, book)? {
                        return Ok(());
                    }
                }
                Phase::Sample(samples) => {
                    if samples.iter().any(|p| !book.is_done(p)) {
                        // Just planned: wait for the measurements.
                        return Ok(());
                    }
                    let best = samples
                        .iter()
                        .min_by(|a, b| {
                            let ca = book.cost(a).unwrap_or(f64::INFINITY);
                            let cb = book.cost(b).unwrap_or(f64::INFINITY);
                            ca.total_cmp(&cb)
                        })
                        .cloned()
                        .expect("samples are not empty");
                    let verts = self.simplex_around(book, &best);
                    self.phase = Phase::Init(verts);
                }
                Phase::Init(verts) => {
                    let mut planned = false;
                    let mut simplex = Vec::with_capacity(verts.len());
                    for u in verts {
                        match Self::look(space, book, &u)? {
                            Look::Known(e) => simplex.push((u, e)),
                            Look::Planned => planned = true,
                        }
                    }
                    if planned {
                        return Ok(());
                    }
                    self.simplex = simplex;
                    self.sort();
                    self.phase = Phase::Iterate;
                }
                Phase::Iterate => {
                    if self.simplex[0].1.is_infinite() {
                        self.phase = Phase::Start;
                        continue;
                    }
                    if self.stall >= self.options.stall_limit || self.collapsed(book) {
                        let centre = Self::to_point(book, &self.simplex[0].0);
                        self.phase = if self.options.local_distance > 0 {
                            let order = self.local_order(book, &centre);
                            Phase::Polish { centre, order }
                        } else {
                            Phase::Start
                        };
                        continue;
                    }
                    let before = *self.iteration_start.get_or_insert(book.evaluations());
                    if !self.step(space, book)? {
                        return Ok(());
                    }
                    self.sort();
                    self.iteration_start = None;
                    if book.evaluations() > before {
                        self.stall = 0;
                    } else {
                        self.stall += 1;
                    }
                }
                Phase::Polish { centre, order } => {
                    let here = book.cost(&centre).unwrap_or(f64::INFINITY);
                    let mut moved = None;
                    for q in &order {
                        if book.is_new_feasible(space, q)? {
                            book.plan(q.clone());
                            return Ok(());
                        }
                        if book.cost(q).is_some_and(|c| c < here) {
                            moved = Some(q.clone());
                            break;
                        }
                    }
                    self.phase = match moved {
                        Some(c) => {
                            let mut order = self.local_order(book, &c);
                            // The same move again first (a pattern move).
                            let again: Point = c
                                .iter()
                                .zip(&centre)
                                .map(|(&x, &y)| (2 * x).checked_sub(y).unwrap_or(usize::MAX))
                                .collect();
                            if let Some(i) = order.iter().position(|q| *q == again) {
                                let q = order.remove(i);
                                order.insert(0, q);
                            }
                            Phase::Polish { centre: c, order }
                        }
                        None => Phase::Start,
                    };
                }
            }
        }
        // Safety net: measure a random point.
        self.phase = Phase::Start;
        if let Some(p) = book.random_new(space, &mut self.rng)? {
            book.plan(p);
        }
        Ok(())
    }
}
