//! orcl: an annotation-driven source-to-source autotuner for OpenCL and CUDA loops.
//!
//! The pipeline is a workspace of crates, each using only those before it (ARCHITECTURE.md):
//! [`orcl_frontend`] (spec, C loop subset, loop-nest IR, lowering, analysis) → [`orcl_codegen`]
//! (schedules, kernel IR, OpenCL/CUDA writers, host code, skeleton rendering) and
//! [`orcl_search`] (strategies) → [`orcl_measure`] (devices, builds, workers) → this crate (the
//! tuning driver, the database, rewriting, the command line). The modules of the earlier crates
//! are re-exported here under the names the library has always had (`orcl::frontend`,
//! `orcl::ir`, `orcl::codegen`, `orcl::measure`, `orcl::search`, ...).
//!
//! This crate's modules in pipeline order; a module uses only those above it (tests/layers.rs).

pub use orcl_codegen as codegen;
pub use orcl_codegen::schedule;
pub use orcl_frontend as frontend;
pub use orcl_frontend::{analysis, bounds, diag, inputs, ir, lower, preamble, space};
pub use orcl_frontend::{errln, errout, out, outln};
pub use orcl_measure as measure;
pub use orcl_measure::{device, interrupt};
pub use orcl_search as search;

pub mod outfile;
pub mod db;
pub mod dbcli;
pub mod interchange;
pub mod plot;
pub mod replay;
pub mod compat;
pub mod prepare;
pub mod tune;
pub mod rewrite;
pub mod compare;
pub mod cli;
