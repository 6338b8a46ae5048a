//! The index grid shared by the adaptive strategies (Nelder-Mead, annealing, genetic).
//!
//! A point of the grid is a [`Point`]: one value index per parameter, in parameter order. A
//! [`Book`] remembers every point a strategy has looked at: rejected (a constraint or the
//! space's prefilter), planned or proposed and awaiting its observation, or observed (its
//! objective in ms, or failed). It gives the strategies
//!
//! - memoisation: an observed point costs nothing to look at again, and is never proposed
//!   twice;
//! - feasibility with a cache: a point is checked against the constraints and the prefilter at
//!   most once;
//! - uniform sampling of points that were never proposed, without enumerating the space: rejection
//!   sampling, then (spaces up to [`ENUMERATION_LIMIT`]) the shuffled list of the feasible points
//!   not yet proposed, or (larger spaces) a bounded scan from a random index;
//! - the plan queue that makes a strategy's sequence independent of the batch sizes it is asked
//!   for: a strategy plans a batch of points when its queue is empty and every proposed point has
//!   been observed, and `propose` hands out queued points up to the requested number.

use crate::strategy::Candidate;
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::space::{Configuration, SearchSpace};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, VecDeque};

/// One value index per parameter, in parameter declaration order.
pub type Point = Vec<usize>;

/// Spaces up to this many configurations may be enumerated (once) when rejection sampling fails
/// to find a feasible point that was never proposed.
pub const ENUMERATION_LIMIT: u64 = 1 << 22;
/// Configurations a bounded scan looks at, in index order from a random index, in spaces larger
/// than [`ENUMERATION_LIMIT`] when rejection sampling fails.
pub const SCAN_LIMIT: u64 = 1 << 18;
/// Random draws tried before falling back to enumeration or a scan.
const SAMPLE_TRIES: usize = 256;

/// What the book knows of a point.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Seen {
    /// Checked: feasible, never proposed.
    Feasible,
    /// Breaks a constraint or is rejected by the prefilter.
    Rejected,
    /// Planned or proposed, not observed yet.
    Pending,
    /// Observed: the objective in ms, or `None` for a failed variant.
    Done(Option<f64>),
}

/// The memory of an adaptive strategy over one search space.
#[derive(Debug, Clone)]
pub struct Book {
    /// Number of values of each parameter.
    pub dims: Vec<usize>,
    /// Parameters with more than one value: the axes a strategy can move along.
    pub active: Vec<usize>,
    /// Number of configurations (saturating).
    pub size: u64,
    seen: HashMap<Point, Seen>,
    /// Planned points, in proposal order.
    queue: VecDeque<Point>,
    /// Proposed points awaiting observation, by configuration key.
    awaiting: HashMap<String, Point>,
    /// Observed points with their objective (failed ones included), in observation order.
    pub observed: Vec<(Point, Option<f64>)>,
    /// The best observed point and its objective (ms); the first observed wins ties.
    pub best: Option<(Point, f64)>,
    /// Feasible points never proposed, shuffled, once rejection sampling has failed in a space
    /// of at most [`ENUMERATION_LIMIT`] configurations (consumed from the end).
    reserve: Option<Vec<Point>>,
}

impl Book {
    pub fn new(space: &SearchSpace) -> Book {
        let dims: Vec<usize> = space.params.iter().map(|p| p.values.len()).collect();
        let active = (0..dims.len()).filter(|&k| dims[k] > 1).collect();
        Book {
            dims,
            active,
            size: space.size(),
            seen: HashMap::new(),
            queue: VecDeque::new(),
            awaiting: HashMap::new(),
            observed: Vec::new(),
            best: None,
            reserve: None,
        }
    }

    /// Whether the space has no configuration at all (a parameter without values).
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// Feasible (constraints and prefilter hold), with a cache.
    ///
    /// Errors: a constraint that cannot be evaluated.
    pub fn feasible(&mut self, space: &SearchSpace, p: &Point) -> Result<bool, Diagnostic> {
        if let Some(s) = self.seen.get(p) {
            return Ok(*s != Seen::Rejected);
        }
        let ok = space.rejection(&space.config_from_coords(p))?.is_none();
        self.seen
            .insert(p.clone(), if ok { Seen::Feasible } else { Seen::Rejected });
        Ok(ok)
    }

    /// Never planned nor proposed (whether feasible or not).
    pub fn is_new(&self, p: &Point) -> bool {
        matches!(self.seen.get(p), None | Some(Seen::Feasible))
    }

    /// Feasible and never planned nor proposed.
    pub fn is_new_feasible(&mut self, space: &SearchSpace, p: &Point) -> Result<bool, Diagnostic> {
        Ok(self.is_new(p) && self.feasible(space, p)?)
    }

    /// The known cost of `p`: its objective in ms, `+inf` for a failed or rejected point; `None`
    /// when it is not known (not checked, or not observed yet).
    pub fn cost(&self, p: &Point) -> Option<f64> {
        match self.seen.get(p)? {
            Seen::Done(Some(ms)) => Some(*ms),
            Seen::Done(None) | Seen::Rejected => Some(f64::INFINITY),
            Seen::Feasible | Seen::Pending => None,
        }
    }

    /// Observed (successfully or not).
    pub fn is_done(&self, p: &Point) -> bool {
        matches!(self.seen.get(p), Some(Seen::Done(_)))
    }

    /// Queue `p` (feasible, never planned) for proposal.
    pub fn plan(&mut self, p: Point) {
        debug_assert!(self.is_new(&p));
        self.seen.insert(p.clone(), Seen::Pending);
        self.queue.push_back(p);
    }

    /// Nothing is queued and every proposed point has been observed: time to plan.
    pub fn idle(&self) -> bool {
        self.queue.is_empty() && self.awaiting.is_empty()
    }

    /// Points proposed and not yet observed count as failed (the driver must observe every
    /// feasible candidate before it proposes again; one that did not is taken as failed).
    pub fn settle(&mut self) {
        if self.queue.is_empty() && !self.awaiting.is_empty() {
            let mut left: Vec<Point> = self.awaiting.drain().map(|(_, p)| p).collect();
            left.sort();
            for p in left {
                self.record(p, None);
            }
        }
    }

    /// Hand out up to `max` queued points as candidates.
    pub fn take(&mut self, space: &SearchSpace, max: usize) -> Vec<Candidate> {
        let mut out = Vec::new();
        while out.len() < max {
            let Some(p) = self.queue.pop_front() else {
                break;
            };
            let config = space.config_from_coords(&p);
            self.awaiting.insert(config.key(), p);
            out.push(Candidate {
                config,
                violated: None,
            });
        }
        out
    }

    /// Record the outcome of a proposed configuration (others are ignored; a second observation
    /// of the same configuration too).
    pub fn observe(&mut self, config: &Configuration, objective_ms: Option<f64>) {
        if let Some(p) = self.awaiting.remove(&config.key()) {
            self.record(p, objective_ms);
        }
    }

    fn record(&mut self, p: Point, objective_ms: Option<f64>) {
        let ms = objective_ms.filter(|m| m.is_finite() && *m >= 0.0);
        if let Some(m) = ms {
            if self.best.as_ref().is_none_or(|(_, b)| m < *b) {
                self.best = Some((p.clone(), m));
            }
        }
        self.seen.insert(p.clone(), Seen::Done(ms));
        self.observed.push((p, ms));
    }

    /// Number of points observed so far.
    pub fn evaluations(&self) -> usize {
        self.observed.len()
    }

    /// A uniformly random point (feasible or not).
    pub fn random_point(&self, rng: &mut ChaCha8Rng) -> Point {
        self.dims
            .iter()
            .map(|&n| if n > 1 { rng.random_range(0..n) } else { 0 })
            .collect()
    }

    /// A random feasible point never planned nor proposed, or `None` when there is none (or, in a
    /// space larger than [`ENUMERATION_LIMIT`], none was found by sampling and a bounded scan).
    ///
    /// Errors: a constraint that cannot be evaluated.
    pub fn random_new(
        &mut self,
        space: &SearchSpace,
        rng: &mut ChaCha8Rng,
    ) -> Result<Option<Point>, Diagnostic> {
        if self.is_empty() {
            return Ok(None);
        }
        if self.reserve.is_none() {
            for _ in 0..SAMPLE_TRIES {
                let p = self.random_point(rng);
                if self.is_new_feasible(space, &p)? {
                    return Ok(Some(p));
                }
            }
            if self.size <= ENUMERATION_LIMIT {
                let mut all = Vec::new();
                for i in 0..self.size {
                    let p = space.coords(i);
                    if self.is_new_feasible(space, &p)? {
                        all.push(p);
                    }
                }
                all.shuffle(rng);
                self.reserve = Some(all);
            } else {
                let start = rng.random_range(0..self.size);
                for k in 0..SCAN_LIMIT.min(self.size) {
                    let p = space.coords(start.wrapping_add(k) % self.size);
                    // Not cached: a scan must not fill the book with rejected points.
                    if self.is_new(&p) && space.rejection(&space.config_from_coords(&p))?.is_none()
                    {
                        return Ok(Some(p));
                    }
                }
                return Ok(None);
            }
        }
        let reserve = self.reserve.as_mut().expect("reserve set above");
        while let Some(p) = reserve.pop() {
            if self.seen.get(&p).is_none_or(|s| *s == Seen::Feasible) {
                return Ok(Some(p));
            }
        }
        Ok(None)
    }

    /// `p` moved by `delta` steps along parameter `k`, or `None` when that leaves the grid.
    pub fn step(&self, p: &Point, k: usize, delta: isize) -> Option<Point> {
        let v = p[k] as isize + delta;
        if delta == 0 || v < 0 || v >= self.dims[k] as isize {
            return None;
        }
        let mut q = p.clone();
        q[k] = v as usize;
        Some(q)
    }

    /// The neighbours of `p` one step away along one active parameter, in parameter order
    /// (down, then up).
    pub fn neighbours(&self, p: &Point) -> Vec<Point> {
        let mut out = Vec::with_capacity(2 * self.active.len());
        for &k in &self.active {
            for d in [-1, 1] {
                if let Some(q) = self.step(p, k, d) {
                    out.push(q);
                }
            }
        }
        out
    }
}

/// A strictly positive objective's logarithm; `+inf` for failures. Strategies compare times by
/// ratio, so a 10% slowdown weighs the same at 1 µs and at 1 s.
pub fn energy(ms: f64) -> f64 {
    if ms.is_finite() {
        ms.max(1e-12).ln()
    } else {
        f64::INFINITY
    }
}
