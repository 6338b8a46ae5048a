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
//! # Driving orcl from a program
//!
//! The functions and types below are the library's facade: what `orcl check`, `tune`, the
//! tuned file, the database and `replay` are built on, for a Rust program (or a Python one through
//! bindings) that drives orcl without the command line.
//!
//! ```no_run
//! use std::path::{Path, PathBuf};
//! let path = "examples/axpy_quick.c";
//! let text = std::fs::read_to_string(path)?;
//! // The file as orcl analyses it: its macros expanded (`-D`/`-I` as on the command line).
//! let cpp = orcl::CppOptions::default();
//! let src = orcl::preprocess(Path::new(path), path, &text, &cpp)?;
//! // Parse, lower and analyse every annotated region (orcl check): errors are located; a
//! // refused region is in `file.refused`, the others in `file.regions`.
//! let file = orcl::check(path, &src)?;
//! // Tune them on the annotation's device, recording every evaluation in the database.
//! let opts = orcl::TuneOptions { db: PathBuf::from("orcl.db"), ..Default::default() };
//! let results = orcl::tune(path, &src.text, file.regions, &opts)?;
//! for input in results.iter().flat_map(|r| &r.inputs) {
//!     println!("{:?}: winner {:?} ms", input.input, input.winner_ms);
//! }
//! // The tuned file's text (`_axpy_quick.c`): the regions replaced by calls to the winners.
//! let tuned: String = orcl::rewrite(&src, path, "orcl.db", &results);
//! // The database, read-only: every experiment with its best time.
//! let db = orcl::Db::open_existing(Path::new("orcl.db"))?;
//! let experiments = db.experiment_summaries()?;
//! // Replay every search strategy on a recorded exhaustive experiment (no device).
//! let (_, summaries) = orcl::replay(Path::new("orcl.db"), experiments[0].experiment.id, "all", "5%", 20)?;
//! # let _ = (tuned, summaries);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! One configuration's generated code without a device (orcl emit): [`tune::variant_for`] and
//! [`rewrite::host_code`]. Interchange formats: [`interchange`]; plots: [`plot`].
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

// The facade (see the crate documentation).
pub use db::Db;
pub use prepare::cpp::{preprocess, CppOptions};
pub use prepare::{prepare as check, Prepared, PreparedFile};
pub use replay::replay;
pub use rewrite::rewrite;
pub use tune::{tune, InputResult, RegionResult, TuneError, TuneOptions};
