//! Strategy runs on a recorded experiment, seed by seed, and their statistics.

use anyhow::{anyhow, Result};
use orcl_frontend::expr::Value as SpecValue;
use orcl_frontend::space::Configuration;
use orcl_frontend::spec::Located;
use orcl_search::{make_strategy, Strategy};
use serde::Serialize;

use super::recorded::{Outcome, Recorded};

/// Most configurations proposed per `propose` call (as `orcl tune` does).
const BATCH: u64 = 16;

/// One strategy run on a recorded experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct SeedRun {
    /// The best time found, if any measurement succeeded.
    pub best_ms: Option<f64>,
    /// Evaluations spent (measurements, failed ones included).
    pub spent: u64,
    /// Configurations proposed, infeasible and unrecorded ones included.
    pub proposed: u64,
    /// Evaluations spent when the best time found first came within [`NEAR_OPTIMUM`] of the
    /// optimum (`None`: never within the budget).
    pub to_near_optimum: Option<u64>,
}

/// The share of the optimum at which a run counts as having found a near-optimal configuration
/// (`evaluations_to_0_95`).
pub const NEAR_OPTIMUM: f64 = 0.95;

/// Statistics of the per-seed `best_ms / best time found`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FractionStats {
    pub median: f64,
    /// Nearest-rank 10th percentile: the ⌈0.1·n⌉-th smallest of the n values.
    pub p10: f64,
    pub mean: f64,
}

/// The replay summary of one algorithm (the `--json` object).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub algorithm: String,
    pub space_size: u64,
    pub budget: u64,
    pub seeds: u64,
    pub fraction_of_optimum: FractionStats,
    /// Share of the seeds whose run found an optimal configuration.
    pub hit_optimum: f64,
    /// Median over the seeds of the evaluations spent to come within 0.95 of the optimum (a run
    /// that never did counts as more than the budget); `None` when half the runs or more never did.
    pub evaluations_to_0_95: Option<f64>,
    /// Warm-start configurations given to the strategy (`--warm-from`), 0 without.
    pub warm_seeds: usize,
}

impl Recorded {
    /// Run `algorithm` (default options) with `seed` until it has spent `budget` evaluations or
    /// proposes nothing.
    pub fn run_seed(&self, algorithm: &str, seed: u64, budget: u64) -> Result<SeedRun> {
        self.run_seed_with(algorithm, &[], seed, budget)
    }

    /// [`Recorded::run_seed`] with the spec-style `options` (`("annealing_cooling_factor",
    /// value)`, as in a `search` section).
    pub fn run_seed_with(
        &self,
        algorithm: &str,
        options: &[(String, Located<SpecValue>)],
        seed: u64,
        budget: u64,
    ) -> Result<SeedRun> {
        self.run_seed_warm(algorithm, options, &[], seed, budget)
    }

    /// [`Recorded::run_seed_with`], the strategy warm-started with `warm` (see
    /// [`Strategy::warm_start`]).
    pub fn run_seed_warm(
        &self,
        algorithm: &str,
        options: &[(String, Located<SpecValue>)],
        warm: &[Configuration],
        seed: u64,
        budget: u64,
    ) -> Result<SeedRun> {
        let mut strategy =
            make_strategy(algorithm, options, seed).map_err(|d| anyhow!("{}", d.message))?;
        if !warm.is_empty() {
            strategy.warm_start(warm);
        }
        self.run_strategy(strategy.as_mut(), budget)
    }

    /// Drive `strategy` as `orcl tune` does (batches of at most 16, each candidate observed
    /// before the next batch) until it has spent `budget` evaluations or proposes nothing.
    pub fn run_strategy(&self, strategy: &mut dyn Strategy, budget: u64) -> Result<SeedRun> {
        let mut run = SeedRun {
            best_ms: None,
            spent: 0,
            proposed: 0,
            to_near_optimum: None,
        };
        while run.spent < budget {
            let max = (budget - run.spent).min(BATCH) as usize;
            let batch = strategy
                .propose(&self.space, max)
                .map_err(|d| anyhow!("{}: {}", strategy.name(), d.message))?;
            if batch.is_empty() {
                break;
            }
            for cand in batch {
                run.proposed += 1;
                if cand.violated.is_some() {
                    continue;
                }
                let outcome = self
                    .outcomes
                    .get(&cand.config.key())
                    .copied()
                    .unwrap_or(Outcome::Infeasible);
                match outcome {
                    Outcome::Infeasible | Outcome::DeviceLimit => {
                        strategy.observe(&cand.config, None)
                    }
                    Outcome::Measured(ms) => {
                        // `max` never exceeds the budget left, so this cannot overspend.
                        run.spent += 1;
                        if let Some(ms) = ms {
                            if run.best_ms.is_none_or(|b| ms < b) {
                                run.best_ms = Some(ms);
                            }
                            if run.to_near_optimum.is_none()
                                && self.fraction(Some(ms)) >= NEAR_OPTIMUM
                            {
                                run.to_near_optimum = Some(run.spent);
                            }
                        }
                        strategy.observe(&cand.config, ms);
                    }
                }
            }
        }
        Ok(run)
    }

    /// `best_ms / found` (1 for the optimum, 0 when nothing was found).
    pub fn fraction(&self, found: Option<f64>) -> f64 {
        match found {
            None => 0.0,
            Some(f) if f <= self.best_ms => 1.0,
            Some(f) => self.best_ms / f,
        }
    }

    /// Replay `algorithm` (default options) for seeds `0..seeds` with `budget` evaluations each.
    pub fn summarize(&self, algorithm: &str, budget: u64, seeds: u64) -> Result<Summary> {
        self.summarize_with(algorithm, &[], budget, seeds)
    }

    /// [`Recorded::summarize`] with the spec-style `options`.
    pub fn summarize_with(
        &self,
        algorithm: &str,
        options: &[(String, Located<SpecValue>)],
        budget: u64,
        seeds: u64,
    ) -> Result<Summary> {
        self.summarize_warm(algorithm, options, &[], budget, seeds)
    }

    /// [`Recorded::summarize_with`], every run warm-started with `warm`.
    pub fn summarize_warm(
        &self,
        algorithm: &str,
        options: &[(String, Located<SpecValue>)],
        warm: &[Configuration],
        budget: u64,
        seeds: u64,
    ) -> Result<Summary> {
        let name = make_strategy(algorithm, options, 0)
            .map_err(|d| anyhow!("{}", d.message))?
            .name()
            .to_string();
        let mut fractions = Vec::with_capacity(seeds as usize);
        let mut hits = 0u64;
        let mut to_near = Vec::with_capacity(seeds as usize);
        for seed in 0..seeds {
            let run = self.run_seed_warm(algorithm, options, warm, seed, budget)?;
            to_near.push(run.to_near_optimum.map_or(f64::INFINITY, |n| n as f64));
            if run.best_ms.is_some_and(|b| b <= self.best_ms) {
                hits += 1;
            }
            fractions.push(self.fraction(run.best_ms));
        }
        Ok(Summary {
            algorithm: name,
            space_size: self.space_size,
            budget,
            seeds,
            fraction_of_optimum: stats(&fractions),
            hit_optimum: if seeds == 0 {
                0.0
            } else {
                hits as f64 / seeds as f64
            },
            evaluations_to_0_95: Some(stats(&to_near).median).filter(|m| m.is_finite()),
            warm_seeds: warm.len(),
        })
    }
}

/// Median, nearest-rank 10th percentile and mean of `values` (all 0 when empty).
pub fn stats(values: &[f64]) -> FractionStats {
    if values.is_empty() {
        return FractionStats {
            median: 0.0,
            p10: 0.0,
            mean: 0.0,
        };
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    FractionStats {
        median,
        p10: percentile_nearest_rank(&v, 10),
        mean: v.iter().sum::<f64>() / n as f64,
    }
}

/// The nearest-rank `p`-th percentile of the sorted, non-empty `sorted`: the ⌈p·n/100⌉-th
/// smallest value (the smallest for p = 0).
pub fn percentile_nearest_rank(sorted: &[f64], p: u32) -> f64 {
    let n = sorted.len();
    let rank = (p as usize * n).div_ceil(100).max(1);
    sorted[rank.min(n) - 1]
}
