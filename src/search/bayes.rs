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
//!   with thresholds, so indices in natural value order lose nothing. Option `divisibility`
//!   adds, per integer parameter, the power of two dividing its value ([`divisibility`]).
//! - **Failures are learned**: a failed variant (compile error, crash, wrong result, device limit)
//!   is a training point at the worst observed log-time plus `failure_penalty`, so the model
//!   steers away from the region where variants fail.
//! - **Candidates** over the discrete, constrained space: `candidates` random feasible
//!   configurations never proposed (one in four drawn with each parameter, with probability 1/2,
//!   at the first or last of its values), plus every unmeasured neighbour of the `local` fastest
//!   configurations (one or two values along one parameter, and the first and last value of each
//!   parameter: optima at the edges of a range are one move away; option `scaling`: an integer
//!   value doubled or halved, [`scaled`]).
//!   Infeasible configurations (constraints, the device limits) are never candidates.
//! - When no candidate is left, the strategy falls back to random new configurations, and ends
//!   when every feasible configuration has been measured (as the other adaptive strategies).

use super::grid::{energy, Book, Point};
use super::options::Values;
use crate::adaptive::{Adaptive, Planner};
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::expr::Value;
use orcl_frontend::space::{Configuration, SearchSpace};
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
    /// Give the trees the power of two dividing each integer value (see [`divisibility`]).
    pub divisibility: bool,
    /// Doubling and halving an integer value are neighbourhood moves (see [`scaled`]).
    pub scaling: bool,
    /// Evaluations without a new best of the current phase after which a new phase starts from
    /// new random samples (0: never; see [`BayesPlanner`]).
    pub restart_after: usize,
    /// Whether a new phase's surrogate still learns from the earlier phases' observations.
    pub restart_memory: bool,
    /// Factor by which `restart_after` grows after each restart (≥ 1).
    pub restart_growth: usize,
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
            divisibility: v.int("divisibility") == 1,
            scaling: v.int("scaling") == 1,
            restart_after: v.int("restart_after"),
            restart_memory: v.int("restart_memory") == 1,
            restart_growth: v.int("restart_growth").max(1),
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
            phase: 0,
            restarts: 0,
        })
    }

    /// What the surrogate fitted to every observation so far (as the current phase would fit it)
    /// predicts for `configs`: per configuration, the mean and standard deviation of ln(time in
    /// ms) over the trees, or `None` for a configuration outside the space. Empty before the
    /// first proposal or with no observation. For diagnosis (`docs/SEARCH.md`): it draws the
    /// bootstrap samples from the strategy's generator, so later proposals change.
    pub fn surrogate(
        &mut self,
        space: &SearchSpace,
        configs: &[Configuration],
    ) -> Vec<Option<(f64, f64)>> {
        let (planner, book) = self.parts();
        let Some(book) = book.filter(|b| !planner.training(b).is_empty()) else {
            return Vec::new();
        };
        let points: Vec<Option<Point>> = configs
            .iter()
            .map(|c| space.index_of(c).map(|i| space.coords(i)))
            .collect();
        let known: Vec<Point> = points.iter().flatten().cloned().collect();
        let (_, mut preds) = planner.predict(space, book, &known);
        preds.reverse();
        points.iter().map(|p| p.as_ref().and(preds.pop())).collect()
    }
}

/// The planner of [`Bayes`].
///
/// A run is a sequence of **phases** (one unless `restart_after` is set): a phase measures
/// `initial_samples` random new configurations, then picks by expected improvement below the
/// phase's best, around the phase's fastest configurations. When the phase's best has not
/// improved for `restart_after` evaluations, a new phase starts: a restart of the model-based
/// search elsewhere, as TuRBO restarts a trust region that stopped making progress (Eriksson et
/// al., "Scalable global optimization via local Bayesian optimization", NeurIPS 2019). With
/// `restart_memory` the surrogate keeps learning from every observation; without, from the
/// phase's own. Configurations measured in an earlier phase are never measured again.
#[derive(Debug, Clone)]
pub struct BayesPlanner {
    options: BayesOptions,
    rng: ChaCha8Rng,
    /// Index in the book's observations where the current phase began.
    phase: usize,
    /// Restarts so far.
    restarts: u32,
}

impl Planner for BayesPlanner {
    fn name(&self) -> &'static str {
        "Bayes"
    }

    fn plan(&mut self, space: &SearchSpace, book: &mut Book) -> Result<(), Diagnostic> {
        self.maybe_restart(book);
        let phase = &book.observed[self.phase..];
        let ok = phase.iter().filter(|(_, c)| c.is_some()).count();
        let measured = phase.len();
        let before = measured < self.options.initial_samples || ok < 2;
        if !before {
            let cands = self.candidates(space, book)?;
            if !cands.is_empty() {
                let scores = self.score(space, book, &cands);
                let mut order: Vec<usize> = (0..cands.len()).collect();
                order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
                for &i in order.iter().take(self.options.batch) {
                    book.plan(cands[i].clone());
                }
                return Ok(());
            }
        }
        let n = if before {
            self.options.initial_samples.saturating_sub(measured).max(1)
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
    /// Start a new phase when the current one has gone `restart_after` evaluations without a new
    /// best (its first fastest observation counts as its best).
    fn maybe_restart(&mut self, book: &Book) {
        let growth = self.options.restart_growth.saturating_pow(self.restarts);
        let after = self.options.restart_after.saturating_mul(growth);
        let phase = &book.observed[self.phase..];
        if after == 0 || phase.len() < self.options.initial_samples.max(after) {
            return;
        }
        let mut best: Option<(usize, f64)> = None;
        for (i, (_, c)) in phase.iter().enumerate() {
            if let Some(c) = *c {
                if best.is_none_or(|(_, b)| c < b) {
                    best = Some((i, c));
                }
            }
        }
        let since = phase.len() - best.map_or(0, |(i, _)| i + 1);
        if since >= after {
            self.phase = book.observed.len();
            self.restarts += 1;
        }
    }

    /// The observations the surrogate learns from: all, or the current phase's.
    fn training<'b>(&self, book: &'b Book) -> &'b [(Point, Option<f64>)] {
        if self.options.restart_memory {
            &book.observed
        } else {
            &book.observed[self.phase..]
        }
    }

    /// The current phase's observations with a time, fastest first (the first observed first
    /// among equal times).
    fn phase_best(&self, book: &Book) -> Vec<(Point, f64)> {
        let mut best: Vec<(Point, f64)> = book.observed[self.phase..]
            .iter()
            .filter_map(|(p, c)| c.map(|c| (p.clone(), c)))
            .collect();
        best.sort_by(|a, b| a.1.total_cmp(&b.1));
        best
    }

    /// Feasible configurations never proposed: random ones, and the neighbourhoods of the fastest.
    fn candidates(
        &mut self,
        space: &SearchSpace,
        book: &mut Book,
    ) -> Result<Vec<Point>, Diagnostic> {
        let mut seen: HashSet<Point> = HashSet::new();
        let mut out = Vec::new();
        let best = self.phase_best(book);
        for (p, _) in best.iter().take(self.options.local) {
            for q in self.reach(space, book, p) {
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

    /// The points one or two values away from `p` along one parameter, `p` with one parameter
    /// at its first or last value, and (option `scaling`) with one integer parameter's value
    /// doubled or halved.
    fn reach(&self, space: &SearchSpace, book: &Book, p: &Point) -> Vec<Point> {
        let mut out = Vec::new();
        for &k in &book.active {
            if self.options.scaling {
                out.extend(scaled(space, p, k));
            }
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

    /// The expected improvement of each candidate under a forest fitted to the observations,
    /// below the current phase's best ln(time) minus `exploration`.
    fn score(&mut self, space: &SearchSpace, book: &Book, cands: &[Point]) -> Vec<f64> {
        let (best, preds) = self.predict(space, book, cands);
        preds
            .into_iter()
            .map(|(mean, sd)| expected_improvement(best - self.options.exploration, mean, sd))
            .collect()
    }

    /// The phase's best ln(time) (the worst learned one before any success), and the forest's
    /// prediction of ln(time) at each of `cands`: the trees' mean and standard deviation.
    fn predict(
        &mut self,
        space: &SearchSpace,
        book: &Book,
        cands: &[Point],
    ) -> (f64, Vec<(f64, f64)>) {
        let active = &book.active;
        let extra: Vec<(usize, Vec<f64>)> = if self.options.divisibility {
            active
                .iter()
                .filter_map(|&k| divisibility(space, k).map(|f| (k, f)))
                .collect()
        } else {
            Vec::new()
        };
        let features = |p: &Point| -> Vec<f64> {
            let own = active.iter().map(|&k| p[k] as f64);
            own.chain(extra.iter().map(|(k, f)| f[p[*k]])).collect()
        };
        let training = self.training(book);
        let ys: Vec<f64> = training
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
        let best = self
            .phase_best(book)
            .first()
            .map(|(_, ms)| energy(*ms))
            .unwrap_or(worst);
        let xs: Vec<Vec<f64>> = training.iter().map(|(p, _)| features(p)).collect();
        let cx: Vec<Vec<f64>> = cands.iter().map(features).collect();
        let preds = self.forest(&xs, &ys, &cx);
        let stats = (0..cands.len())
            .map(|i| {
                let col: Vec<f64> = preds.iter().map(|t| t[i]).collect();
                let mean = col.iter().sum::<f64>() / col.len() as f64;
                let var =
                    col.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / col.len() as f64;
                (mean, var.sqrt())
            })
            .collect();
        (best, stats)
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

/// The largest power of two dividing each value of parameter `k`, as its exponent (0 for odd
/// values, 31 at most, 31 for 0), when every value is an integer and these exponents are not
/// already monotone in the value order (then the indices carry them): `None` otherwise.
///
/// A regression tree splits on one feature at a time, so a time that depends on alignment
/// (work-group sizes that are multiples of the warp or wavefront, or powers of two, are fast and
/// the others an order of magnitude slower, as on benchmark_hub's convolution spaces of AMD GPUs:
/// `block_size_x` in 16, 32, ..., 256) needs a split per value on the indices and one split on
/// this feature.
pub fn divisibility(space: &SearchSpace, k: usize) -> Option<Vec<f64>> {
    let values = &space.params[k].values;
    let twos = values
        .iter()
        .map(|v| match v {
            Value::Int(0) => Some(31.0),
            Value::Int(i) => Some(f64::from(i.trailing_zeros().min(31))),
            _ => None,
        })
        .collect::<Option<Vec<f64>>>()?;
    let up = twos.windows(2).all(|w| w[0] <= w[1]);
    let down = twos.windows(2).all(|w| w[0] >= w[1]);
    (!up && !down).then_some(twos)
}

/// `p` with integer parameter `k`'s value doubled, and halved when even, where the parameter
/// has that value: a move across a list such as 16, 32, 48, ..., 256 between the powers of two.
pub fn scaled(space: &SearchSpace, p: &Point, k: usize) -> Vec<Point> {
    let values = &space.params[k].values;
    let Some(Value::Int(v)) = values.get(p[k]) else {
        return Vec::new();
    };
    let mut targets = vec![v.saturating_mul(2)];
    if v % 2 == 0 {
        targets.push(v / 2);
    }
    targets
        .into_iter()
        .filter_map(|t| values.iter().position(|x| *x == Value::Int(t)))
        .filter(|&i| i != p[k] && i.abs_diff(p[k]) > 2)
        .map(|i| {
            let mut q = p.clone();
            q[k] = i;
            q
        })
        .collect()
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

    fn space(params: &[(&str, Vec<Value>)]) -> SearchSpace {
        SearchSpace {
            params: params
                .iter()
                .map(|(n, v)| orcl_frontend::space::Param {
                    name: std::sync::Arc::from(*n),
                    values: v.clone().into(),
                })
                .collect(),
            constraints: vec![].into(),
            fixed: Default::default(),
            prefilter: None,
        }
    }

    fn ints(v: &[i64]) -> Vec<Value> {
        v.iter().map(|&i| Value::Int(i)).collect()
    }

    #[test]
    fn divisibility_only_where_the_indices_do_not_carry_it() {
        let bsx: Vec<i64> = (1..=8).map(|i| 16 * i).collect();
        let s = space(&[
            ("bsx", ints(&bsx)),
            ("pow", ints(&[1, 2, 4, 8])),
            ("flag", vec![Value::Bool(false), Value::Bool(true)]),
            ("odd", ints(&[0, 1, 3, 6])),
        ]);
        // 16 = 2^4, 32 = 2^5, 48 = 3·2^4, 64 = 2^6, ...
        assert_eq!(
            divisibility(&s, 0),
            Some(vec![4.0, 5.0, 4.0, 6.0, 4.0, 5.0, 4.0, 7.0])
        );
        assert_eq!(divisibility(&s, 1), None, "monotone: the indices carry it");
        assert_eq!(divisibility(&s, 2), None, "not integers");
        assert_eq!(divisibility(&s, 3), Some(vec![31.0, 0.0, 0.0, 1.0]));
    }

    #[test]
    fn scaling_moves_double_and_halve_beyond_two_steps() {
        let bsx: Vec<i64> = (1..=16).map(|i| 16 * i).collect();
        let s = space(&[("bsx", ints(&bsx)), ("f", ints(&[1, 2]))]);
        // 64 (index 3): 128 (index 7) is four steps away; 32 (index 1) is within two steps.
        assert_eq!(scaled(&s, &vec![3, 0], 0), vec![vec![7, 0]]);
        // 128 (index 7): 256 (index 15) and 64 (index 3).
        assert_eq!(scaled(&s, &vec![7, 1], 0), vec![vec![15, 1], vec![3, 1]]);
        // 48 (index 2): 96 (index 5); 24 is not a value.
        assert_eq!(scaled(&s, &vec![2, 0], 0), vec![vec![5, 0]]);
        assert!(scaled(&s, &vec![3, 0], 1).is_empty(), "within two steps");
    }

    /// Drive `b` for `n` measurements of `ms(value)` on `s`.
    fn drive(b: &mut Bayes, s: &SearchSpace, n: usize, ms: impl Fn(i64) -> f64) {
        use crate::strategy::Strategy;
        for _ in 0..n {
            let batch = b.propose(s, 1).unwrap();
            let Some(c) = batch.first() else { return };
            let v = match c.config.values[0].1 {
                Value::Int(v) => v,
                _ => unreachable!(),
            };
            b.observe(&c.config, Some(ms(v)));
        }
    }

    #[test]
    fn restarts_begin_a_new_phase_when_the_best_stalls_and_grow() {
        let s = space(&[("v", ints(&(0..64).collect::<Vec<_>>()))]);
        let with = |after: usize, growth: usize| BayesOptions {
            restart_after: after,
            restart_growth: growth,
            restart_memory: false,
            initial_samples: 2,
            ..BayesOptions::default()
        };
        // A constant time: the first observation stays the best, every phase stalls.
        let mut b = Bayes::new(with(4, 1), 1);
        drive(&mut b, &s, 20, |_| 1.0);
        let (p, book) = b.parts();
        assert_eq!(book.unwrap().evaluations(), 20);
        // Phases of 4 + 1 evaluations (its first best, then `restart_after` without a better
        // one), checked before each proposal: new phases at 5, 10 and 15.
        assert_eq!(p.restarts, 3);
        assert_eq!(p.phase, 15);
        let mut b = Bayes::new(with(4, 2), 1);
        drive(&mut b, &s, 20, |_| 1.0);
        // Phases of 4 + 1, then 8 + 1 evaluations (new phases at 5 and 14), a third under way.
        assert_eq!(b.parts().0.restarts, 2);
        let mut b = Bayes::new(with(0, 1), 1);
        drive(&mut b, &s, 20, |_| 1.0);
        assert_eq!(b.parts().0.restarts, 0, "restart_after 0: never");
    }

    #[test]
    fn surrogate_predicts_what_it_learned() {
        let s = space(&[("v", ints(&(0..64).collect::<Vec<_>>()))]);
        let mut b = Bayes::new(BayesOptions::default(), 3);
        let cfg = |v: i64| Configuration {
            values: vec![("v".into(), Value::Int(v))],
        };
        assert!(
            b.surrogate(&s, &[cfg(0)]).is_empty(),
            "nothing observed yet"
        );
        // Time grows tenfold along the values.
        drive(&mut b, &s, 30, |v| 10f64.powf(v as f64 / 16.0));
        let p = b.surrogate(&s, &[cfg(1), cfg(62), cfg(99)]);
        let (fast, slow) = (p[0].unwrap(), p[1].unwrap());
        assert!(fast.0 + 1.0 < slow.0, "{fast:?} {slow:?}");
        assert_eq!(p[2], None, "99 is not a value of the space");
    }
}
