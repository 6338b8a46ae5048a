//! Front end: finds the annotated regions of a C file and parses their tuning specs and loops.

pub mod expr;
pub mod spec;
