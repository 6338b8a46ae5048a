//! Random search: configurations drawn uniformly without replacement, reproducibly from a seed.

use crate::strategy::{candidate_at, Candidate, Strategy};
use orcl_frontend::diag::{Diagnostic, Span};
use orcl_frontend::space::{Configuration, SearchSpace};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

/// Spaces up to this size are shuffled as a whole permutation; larger ones are rejection-sampled.
pub const PERMUTATION_LIMIT: u64 = 1 << 22;

/// Draws configuration indices uniformly without replacement with a `ChaCha8Rng` seeded from the
/// seed: the same seed and space give the same sequence, whatever the batch sizes. Infeasible
/// configurations are returned flagged. Ignores observations.
#[derive(Debug, Clone)]
pub struct Random {
    rng: ChaCha8Rng,
    state: Option<State>,
}

#[derive(Debug, Clone)]
enum State {
    /// A shuffled permutation of `0..size`, consumed from `pos`.
    Permutation {
        size: u64,
        order: Vec<u32>,
        pos: usize,
    },
    /// Indices drawn so far, for rejection.
    Rejection { size: u64, seen: HashSet<u64> },
}

impl Random {
    pub fn new(seed: u64) -> Self {
        Random {
            rng: ChaCha8Rng::seed_from_u64(seed),
            state: None,
        }
    }

    fn init(&mut self, size: u64) -> State {
        if size <= PERMUTATION_LIMIT {
            let mut order: Vec<u32> = (0..size as u32).collect();
            order.shuffle(&mut self.rng);
            State::Permutation {
                size,
                order,
                pos: 0,
            }
        } else {
            State::Rejection {
                size,
                seen: HashSet::new(),
            }
        }
    }

    fn next_index(&mut self) -> Option<u64> {
        match self.state.as_mut()? {
            State::Permutation { order, pos, .. } => {
                let i = order.get(*pos).copied()?;
                *pos += 1;
                Some(u64::from(i))
            }
            State::Rejection { size, seen } => {
                if seen.len() as u64 >= *size {
                    return None;
                }
                loop {
                    let i = self.rng.random_range(0..*size);
                    if seen.insert(i) {
                        return Some(i);
                    }
                }
            }
        }
    }
}

impl Strategy for Random {
    fn name(&self) -> &'static str {
        "Random"
    }

    fn propose(&mut self, space: &SearchSpace, max: usize) -> Result<Vec<Candidate>, Diagnostic> {
        let size = space.size();
        let known = match &self.state {
            Some(State::Permutation { size, .. }) | Some(State::Rejection { size, .. }) => {
                Some(*size)
            }
            None => None,
        };
        match known {
            None => {
                let s = self.init(size);
                self.state = Some(s);
            }
            Some(k) if k != size => {
                return Err(Diagnostic::new(
                    Span::default(),
                    format!("internal: Random search was started on a space of {k} configurations, now given {size}"),
                ))
            }
            Some(_) => {}
        }
        let mut out = Vec::new();
        while out.len() < max {
            let Some(index) = self.next_index() else {
                break;
            };
            out.push(candidate_at(space, index)?);
        }
        Ok(out)
    }

    fn observe(&mut self, _config: &Configuration, _objective_ms: Option<f64>) {}
}
