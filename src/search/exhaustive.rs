//! Exhaustive search: every configuration of the space, in index order.

use crate::strategy::{candidate_at, Candidate, Strategy};
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::space::{Configuration, SearchSpace};

/// Proposes configurations `0, 1, 2, ...` of the space (last parameter fastest), infeasible ones
/// flagged. Deterministic; ignores observations.
#[derive(Debug, Clone, Default)]
pub struct Exhaustive {
    next: u64,
}

impl Exhaustive {
    pub fn new() -> Self {
        Exhaustive { next: 0 }
    }
}

impl Strategy for Exhaustive {
    fn name(&self) -> &'static str {
        "Exhaustive"
    }

    fn propose(&mut self, space: &SearchSpace, max: usize) -> Result<Vec<Candidate>, Diagnostic> {
        let size = space.size();
        let mut out = Vec::new();
        while out.len() < max && self.next < size {
            let index = self.next;
            self.next += 1;
            out.push(candidate_at(space, index)?);
        }
        Ok(out)
    }

    fn observe(&mut self, _config: &Configuration, _objective_ms: Option<f64>) {}
}
