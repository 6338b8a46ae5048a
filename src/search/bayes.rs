//! Model-based search (sequential model-based optimisation with a random-forest surrogate, as in
//! SMAC: Hutter, Hoos and Leyton-Brown, "Sequential model-based optimization for general algorithm
//! configuration", LION 5, 2011).
//!
//! The strategy measures `initial_samples` random configurations, then repeats: fit a surrogate
//! of the logarithm of the time on every observation so far, score candidate configurations by
//! **expected improvement** (Jones, Schonlau and Welch, "Efficient global optimization of
//! expensive black-box functions", J. Global Optim. 13, 1998) and measure the `batch` best.
//!
//! - **Surrogate**: `trees` regression trees (CART, from the `smartcore` crate), each fitted on a
//!   bootstrap sample of the observations; the prediction is the mean over the trees and its
//!   uncertainty their standard deviation (a random forest as SMAC uses it). The features are the
//!   value indices of the parameters with more than one value: a tree only compares a feature
//!   with thresholds, so indices in natural value order lose nothing.
//! - **Failures are learned**: a failed variant (compile error, crash, wrong result, device limit)
//!   is a training point at the worst observed log-time plus `failure_penalty`, so the model
//!   steers away from the region where variants fail.
//! - **Candidates** over the discrete, constrained space: `candidates` random feasible
//!   configurations never proposed (one in four drawn with each parameter, with probability 1/2,
//!   at the first or last of its values), plus every unmeasured neighbour of the `local` fastest
//!   configurations (one or two values along one parameter, and the first and last value of each
//!   parameter: optima at the edges of a range are one move away).
//!   Infeasible configurations (constraints, the device limits) are never candidates.
//! - When no candidate is left, the strategy falls back to random new configurations, and ends
//!   when every feasible configuration has been measured (as the other adaptive strategies).

use super::grid::{energy, Book, Point};
use super::options::Values;
use crate::adaptive::{Adaptive, Planner};
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::space::SearchSpace;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use smartcore::linalg::basic::matrix::DenseMatrix;
use smartcore::tree::decision_tree_regressor::{
    DecisionTreeRegressor, DecisionTreeRegressorParameters,
};
use std::collections::HashSet;

/// Options of [`Bayes`] (`arg bayes_<option> = ...;`); defaults in
/// [`super::options::ALGORITHMS`] and `docs/SEARCH.md`.
#[derive(Debug, Clone, PartialEq)]
pub struct BayesOptions {
    /// Random configurations measured before the first model (≥ 2).
    pub initial_samples: usize,
    /// Regression trees of the forest (≥ 1).
    pub trees: usize,
    /// Random feasible configurations scored per model (≥ 1), besides the neighbours of the best.
    pub candidates: usize,
    /// Configurations measured per model fit (≥ 1).
    pub batch: usize,
    /// Log-time added to the worst observed one for a failed configuration (> 0).
    pub failure_penalty: f64,
    /// Exploration margin ξ of the expected improvement, in log-time (≥ 0).
    pub exploration: f64,
    /// Fastest configurations whose neighbourhoods are candidates (0: random candidates only).
    pub local: usize,
}

impl BayesOptions {
    pub fn from_values(v: &Values) -> Self {
        BayesOptions {
            initial_samples: v.int("initial_samples").max(2),
            trees: v.int("trees").max(1),
            candidates: v.int("candidates").max(1),
            batch: v.int("batch").max(1),
            failure_penalty: v.get("failure_penalty"),
            exploration: v.get("exploration"),
            local: v.int("local"),
        }
    }
}

impl Default for BayesOptions {
    fn default() -> Self {
        Self::from_values(&super::options::defaults("Bayes"))
    }
}

/// Model-based search (see the module documentation).
pub type Bayes = Adaptive<BayesPlanner>;

impl Bayes {
    pub fn new(options: BayesOptions, seed: u64) -> Self {
        Adaptive::with_planner(BayesPlanner {
            options,
            rng: ChaCha8Rng::seed_from_u64(seed),
        })
    }
}

/// The planner of [`Bayes`].
#[derive(Debug, Clone)]
pub struct BayesPlanner {
    options: BayesOptions,
    rng: ChaCha8Rng,
}

impl Planner for BayesPlanner {
    fn name(&self) -> &'static str {
        "Bayes"
    }

    fn plan(&mut self, space: &SearchSpace, book: &mut Book) -> Result<(), Diagnostic> {
        let ok = book.observed.iter().filter(|(_, c)| c.is_some()).count();
        let before = book.evaluations() < self.options.initial_samples || ok < 2;
        if !before {
            let cands = self.candidates(space, book)?;
            if !cands.is_empty() {
                let scores = self.score(book, &cands);
                let mut order: Vec<usize> = (0..cands.len()).collect();
                order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
                for &i in order.iter().take(self.options.batch) {
                    book.plan(cands[i].clone());
                }
                return Ok(());
            }
        }
        let n = if before {
            self.options
                .initial_samples
                .saturating_sub(book.evaluations())
                .max(1)
        } else {
            self.options.batch
        };
        for _ in 0..n {
            match book.random_new(space, &mut self.rng)? {
                Some(p) => book.plan(p),
                None => break,
            }
        }
        Ok(())
    }
}

impl BayesPlanner {
    /// Feasible configurations never proposed: random ones, and the neighbourhoods of the fastest.
    fn candidates(
        &mut self,
        space: &SearchSpace,
        book: &mut Book,
    ) -> Result<Vec<Point>, Diagnostic> {
        let mut seen: HashSet<Point> = HashSet::new();
        let mut out = Vec::new();
        let mut best: Vec<(Point, f64)> = book
            .observed
            .iter()
            .filter_map(|(p, c)| c.map(|c| (p.clone(), c)))
            .collect();
        best.sort_by(|a, b| a.1.total_cmp(&b.1));
        for (p, _) in best.iter().take(self.options.local) {
            for q in self.reach(book, p) {
                if !seen.contains(&q) && book.is_new_feasible(space, &q)? {
                    seen.insert(q.clone());
                    out.push(q);
                }
            }
        }
        let want = self.options.candidates;
        let mut tries = 0;
        let mut found = 0;
        while found < want && tries < 20 * want {
            tries += 1;
            // One candidate in four is drawn towards the corners of the value ranges.
            let q = if tries % 4 == 0 {
                self.corner_point(book)
            } else {
                book.random_point(&mut self.rng)
            };
            if !seen.contains(&q) && book.is_new_feasible(space, &q)? {
                seen.insert(q.clone());
                out.push(q);
                found += 1;
            }
        }
        Ok(out)
    }

    /// A random point whose parameters are each, with probability 1/2, at the first or the last
    /// of their values (uniform otherwise): optima often sit at a corner of the ranges.
    fn corner_point(&mut self, book: &Book) -> Point {
        let mut p = book.random_point(&mut self.rng);
        for &k in &book.active {
            match self.rng.random_range(0..4) {
                0 => p[k] = 0,
                1 => p[k] = book.dims[k] - 1,
                _ => {}
            }
        }
        p
    }

    /// The points one or two values away from `p` along one parameter, and `p` with one
    /// parameter at its first or last value.
    fn reach(&self, book: &Book, p: &Point) -> Vec<Point> {
        let mut out = Vec::new();
        for &k in &book.active {
            for d in [-2isize, -1, 1, 2] {
                if let Some(q) = book.step(p, k, d) {
                    out.push(q);
                }
            }
            for v in [0, book.dims[k] - 1] {
                if p[k] != v {
                    let mut q = p.clone();
                    q[k] = v;
                    out.push(q);
                }
            }
        }
        out
    }

    /// The expected improvement of each candidate under a forest fitted to the observations.
    fn score(&mut self, book: &Book, cands: &[Point]) -> Vec<f64> {
        let active = &book.active;
        let features = |p: &Point| -> Vec<f64> { active.iter().map(|&k| p[k] as f64).collect() };
        let ys: Vec<f64> = book
            .observed
            .iter()
            .map(|(_, c)| c.map(energy).unwrap_or(f64::INFINITY))
            .collect();
        let worst = ys
            .iter()
            .copied()
            .filter(|y| y.is_finite())
            .fold(f64::MIN, f64::max);
        let ys: Vec<f64> = ys
            .iter()
            .map(|&y| {
                if y.is_finite() {
                    y
                } else {
                    worst + self.options.failure_penalty
                }
            })
            .collect();
        let best = book
            .best
            .as_ref()
            .map(|(_, ms)| energy(*ms))
            .unwrap_or(worst);
        let xs: Vec<Vec<f64>> = book.observed.iter().map(|(p, _)| features(p)).collect();
        let cx: Vec<Vec<f64>> = cands.iter().map(features).collect();
        let preds = self.forest(&xs, &ys, &cx);
        (0..cands.len())
            .map(|i| {
                let col: Vec<f64> = preds.iter().map(|t| t[i]).collect();
                let mean = col.iter().sum::<f64>() / col.len() as f64;
                let var =
                    col.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / col.len() as f64;
                expected_improvement(best - self.options.exploration, mean, var.sqrt())
            })
            .collect()
    }

    /// Each tree's predictions for `cx`, the trees fitted on bootstrap samples of (`xs`, `ys`).
    /// With no active parameter (a one-point space) or a tree that fails to fit, every prediction
    /// is the mean of `ys`.
    fn forest(&mut self, xs: &[Vec<f64>], ys: &[f64], cx: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let n = xs.len();
        let mean = ys.iter().sum::<f64>() / n as f64;
        let flat = vec![vec![mean; cx.len()]];
        if xs[0].is_empty() {
            return flat;
        }
        let Ok(cm) = DenseMatrix::from_2d_vec(&cx.to_vec()) else {
            return flat;
        };
        let mut out = Vec::with_capacity(self.options.trees);
        for t in 0..self.options.trees {
            let idx: Vec<usize> = (0..n).map(|_| self.rng.random_range(0..n)).collect();
            let bx: Vec<Vec<f64>> = idx.iter().map(|&i| xs[i].clone()).collect();
            let by: Vec<f64> = idx.iter().map(|&i| ys[i]).collect();
            let params = DecisionTreeRegressorParameters {
                seed: Some(t as u64),
                ..Default::default()
            };
            let fitted = DenseMatrix::from_2d_vec(&bx)
                .and_then(|m| DecisionTreeRegressor::fit(&m, &by, params))
                .and_then(|tree| tree.predict(&cm));
            match fitted {
                Ok(p) => out.push(p),
                Err(_) => return flat,
            }
        }
        out
    }
}

/// Expected improvement below `target` of a normal prediction (`mean`, `sd`), for minimisation
/// (Jones et al. 1998, eq. 15): `(target - mean) Φ(z) + sd φ(z)` with `z = (target - mean) / sd`;
/// `max(target - mean, 0)` when `sd` is 0.
pub fn expected_improvement(target: f64, mean: f64, sd: f64) -> f64 {
    let d = target - mean;
    if sd <= 1e-12 {
        return d.max(0.0);
    }
    let z = d / sd;
    let pdf = (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt();
    d * normal_cdf(z) + sd * pdf
}

/// The standard normal distribution function, from the complementary error function
/// approximation of Numerical Recipes (`erfcc`, Chebyshev fit; relative error < 1.2e-7).
fn normal_cdf(z: f64) -> f64 {
    let x = -z / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let poly = -x * x - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    let erfc = if x >= 0.0 { erfc } else { 2.0 - erfc };
    0.5 * erfc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_cdf_and_expected_improvement() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_964) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_25).abs() < 1e-6);
        // No uncertainty: the plain improvement.
        assert_eq!(expected_improvement(1.0, 0.5, 0.0), 0.5);
        assert_eq!(expected_improvement(1.0, 2.0, 0.0), 0.0);
        // Uncertainty makes a worse mean worth something, and more so when larger.
        let a = expected_improvement(1.0, 1.5, 0.1);
        let b = expected_improvement(1.0, 1.5, 1.0);
        assert!(a > 0.0 && b > a, "{a} {b}");
    }
}
