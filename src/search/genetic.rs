//! A genetic algorithm on the grid of parameter-value indices (Holland 1975; Goldberg, "Genetic
//! Algorithms in Search, Optimization and Machine Learning", 1989), as used to tune OpenCL kernels
//! by Fabeiro, Andrade and Fraguela ("Writing a performance-portable matrix multiplication",
//! Parallel Computing 52, 2016, §4.2: the HPL genetic search).
//!
//! An individual is a configuration; its genes are the value indices of its parameters; its
//! fitness is its time (failures: worst). The first generation is `population` random
//! configurations. Each next generation breeds `population - elitism` children: two parents
//! chosen by tournament (`tournament` individuals drawn at random, the fastest wins), a uniform
//! crossover with probability `crossover_rate` (each gene from either parent; otherwise a copy of
//! the first parent), then each gene mutated with probability `mutation_rate`: half of the time
//! to an adjacent value (one step, or two one time in four), half of the time to any other value
//! of the parameter. Survivor selection is elitist, (μ + λ) in the terms of Eiben and Smith
//! ("Introduction to Evolutionary Computing", 2015, §5.3): the `population` fastest of the
//! current generation and its children form the next one, so the `elitism` fastest individuals
//! always survive and a child replaces an individual only when it is faster. With the small
//! budgets of tuning (a few generations) this converges much faster than a generational
//! replacement.
//!
//! As in the HPL search, individuals that break a constraint or the device limits are discarded
//! when they are generated (randomly or by crossover and mutation), before any evaluation, and so
//! are individuals measured before (a configuration is never measured twice): another child is
//! bred in their place. When breeding keeps producing such individuals (a converged population,
//! a small space), the generation is completed with random new configurations (immigrants).
//! Every generation is proposed as one batch.

use super::grid::{energy, Book, Point};
use super::options::Values;
use crate::adaptive::{Adaptive, Planner};
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::space::SearchSpace;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Options of [`Genetic`] (`arg genetic_<option> = ...;`); defaults in
/// [`super::options::ALGORITHMS`] and `docs/SEARCH.md`.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneticOptions {
    /// Individuals per generation (≥ 2).
    pub population: usize,
    /// Fastest individuals that always survive; `population - elitism` children are bred per
    /// generation (less than `population`).
    pub elitism: usize,
    /// Individuals per tournament (≥ 1).
    pub tournament: usize,
    /// Probability of a crossover, in [0, 1].
    pub crossover_rate: f64,
    /// Probability that each gene mutates, in [0, 1].
    pub mutation_rate: f64,
}

impl GeneticOptions {
    pub fn from_values(v: &Values) -> Self {
        let population = v.int("population").max(2);
        GeneticOptions {
            population,
            elitism: v.int("elitism").min(population - 1),
            tournament: v.int("tournament").max(1),
            crossover_rate: v.get("crossover_rate"),
            mutation_rate: v.get("mutation_rate"),
        }
    }
}

impl Default for GeneticOptions {
    fn default() -> Self {
        Self::from_values(&super::options::defaults("Genetic"))
    }
}

/// The genetic algorithm (see the module documentation).
pub type Genetic = Adaptive<GeneticPlanner>;

impl Genetic {
    pub fn new(options: GeneticOptions, seed: u64) -> Self {
        Adaptive::with_planner(GeneticPlanner {
            options,
            rng: ChaCha8Rng::seed_from_u64(seed),
            population: Vec::new(),
            brood: Vec::new(),
        })
    }
}

/// The planner of [`Genetic`].
#[derive(Debug, Clone)]
pub struct GeneticPlanner {
    options: GeneticOptions,
    rng: ChaCha8Rng,
    /// The current generation with energies, fastest first.
    population: Vec<(Point, f64)>,
    /// The generation being measured.
    brood: Vec<Point>,
}

/// Children bred per wanted child before the generation is completed with immigrants.
const BREED_TRIES: usize = 50;

impl GeneticPlanner {
    fn tournament(&mut self) -> usize {
        let n = self.population.len();
        // The population is sorted: the smallest index drawn is the fastest.
        (0..self.options.tournament)
            .map(|_| self.rng.random_range(0..n))
            .min()
            .unwrap_or(0)
    }

    fn breed(&mut self, book: &Book) -> Point {
        let a = self.tournament();
        let mut child = self.population[a].0.clone();
        if self.rng.random::<f64>() < self.options.crossover_rate {
            let b = self.tournament();
            let other = &self.population[b].0;
            for &k in &book.active {
                if self.rng.random::<bool>() {
                    child[k] = other[k];
                }
            }
        }
        for &k in &book.active {
            if self.rng.random::<f64>() >= self.options.mutation_rate {
                continue;
            }
            let n = book.dims[k];
            if self.rng.random::<bool>() {
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
                if let Some(q) = book
                    .step(&child, k, delta)
                    .or_else(|| book.step(&child, k, -delta))
                {
                    child = q;
                }
            } else {
                // Any other value.
                let v = self.rng.random_range(0..n - 1);
                child[k] = if v >= child[k] { v + 1 } else { v };
            }
        }
        child
    }
}

impl Planner for GeneticPlanner {
    fn name(&self) -> &'static str {
        "Genetic"
    }

    fn plan(&mut self, space: &SearchSpace, book: &mut Book) -> Result<(), Diagnostic> {
        let cost = |book: &Book, p: &Point| energy(book.cost(p).unwrap_or(f64::INFINITY));
        // (μ + λ): the fastest `population` of the current generation and its children survive.
        if !self.brood.is_empty() {
            let brood = std::mem::take(&mut self.brood);
            let mut next: Vec<(Point, f64)> = std::mem::take(&mut self.population);
            next.extend(brood.into_iter().map(|p| {
                let e = cost(book, &p);
                (p, e)
            }));
            next.sort_by(|a, b| a.1.total_cmp(&b.1));
            next.truncate(self.options.population);
            self.population = next;
        }

        let wanted = if self.population.is_empty() {
            self.options.population
        } else {
            self.options.population - self.options.elitism.min(self.population.len())
        };
        if !self.population.is_empty() && !book.active.is_empty() {
            let mut tries = 0;
            while self.brood.len() < wanted && tries < BREED_TRIES * wanted {
                tries += 1;
                let child = self.breed(book);
                // The HPL rule: discard infeasible individuals before they are evaluated; and
                // those measured (or bred) before.
                if book.is_new_feasible(space, &child)? {
                    book.plan(child.clone());
                    self.brood.push(child);
                }
            }
        }
        // The first generation, or immigrants.
        while self.brood.len() < wanted {
            match book.random_new(space, &mut self.rng)? {
                Some(p) => {
                    book.plan(p.clone());
                    self.brood.push(p);
                }
                None => break,
            }
        }
        Ok(())
    }
}
