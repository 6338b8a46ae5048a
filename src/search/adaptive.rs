//! Adaptive strategies: a [`Planner`] that decides what to measure next on the grid of value
//! indices, driven through its [`crate::grid::Book`] as a [`Strategy`].

use crate::grid;
use crate::strategy::{Candidate, Strategy};
use orcl_frontend::diag::{Diagnostic, Span};
use orcl_frontend::space::{Configuration, SearchSpace};

/// The part of an adaptive strategy that decides what to measure next, on the index grid.
pub trait Planner {
    fn name(&self) -> &'static str;
    /// Queue (with [`grid::Book::plan`]) at least one feasible point never planned before, or
    /// none when the space is exhausted. Called only when the book is idle: nothing queued, every
    /// proposed point observed.
    fn plan(&mut self, space: &SearchSpace, book: &mut grid::Book) -> Result<(), Diagnostic>;
}

/// An adaptive strategy: a [`Planner`] with its [`grid::Book`], created on the first proposal.
#[derive(Debug, Clone)]
pub struct Adaptive<P> {
    planner: P,
    book: Option<grid::Book>,
    /// Warm-start configurations, planned first when the book is created.
    seeds: Vec<Configuration>,
}

impl<P> Adaptive<P> {
    pub(crate) fn with_planner(planner: P) -> Self {
        Adaptive {
            planner,
            book: None,
            seeds: Vec::new(),
        }
    }

    /// The planner and its book (`None` before the first proposal).
    pub(crate) fn parts(&mut self) -> (&mut P, Option<&grid::Book>) {
        (&mut self.planner, self.book.as_ref())
    }
}

impl<P: Planner> Strategy for Adaptive<P> {
    fn name(&self) -> &'static str {
        self.planner.name()
    }

    fn propose(&mut self, space: &SearchSpace, max: usize) -> Result<Vec<Candidate>, Diagnostic> {
        if self.book.is_none() {
            let mut book = grid::Book::new(space);
            for c in std::mem::take(&mut self.seeds) {
                if let Some(i) = space.index_of(&c) {
                    let p = space.coords(i);
                    if book.is_new_feasible(space, &p)? {
                        book.plan(p);
                    }
                }
            }
            self.book = Some(book);
        }
        let book = self.book.as_mut().expect("created above");
        let dims: Vec<usize> = space.params.iter().map(|p| p.values.len()).collect();
        if dims != book.dims {
            return Err(Diagnostic::new(
                Span::default(),
                format!(
                    "internal: {} search was started on a space of shape {:?}, now given {:?}",
                    self.planner.name(),
                    book.dims,
                    dims
                ),
            ));
        }
        book.settle();
        if book.idle() {
            self.planner.plan(space, book)?;
        }
        Ok(book.take(space, max))
    }

    fn observe(&mut self, config: &Configuration, objective_ms: Option<f64>) {
        if let Some(book) = self.book.as_mut() {
            book.observe(config, objective_ms);
        }
    }

    fn warm_start(&mut self, configs: &[Configuration]) -> bool {
        if self.book.is_none() {
            self.seeds = configs.to_vec();
        }
        true
    }
}
