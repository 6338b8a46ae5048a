//! orcl: an annotation-driven source-to-source autotuner for OpenCL (and CUDA) loops.
//!
//! Pipeline (see ARCHITECTURE.md): `frontend::parse` → `lower::lower` → `codegen::generate`
//! → `measure::Runner::measure` → `db` → `rewrite::rewrite`, driven by a `search::Strategy`.

pub mod analysis;
pub mod cli;
pub mod codegen;
pub mod compare;
pub mod compat;
pub mod db;
pub mod dbcli;
pub mod device;
pub mod diag;
pub mod frontend;
pub mod interchange;
pub mod ir;
pub mod lower;
pub mod measure;
pub mod plot;
pub mod preamble;
pub mod prepare;
pub mod replay;
pub mod rewrite;
pub mod schedule;
pub mod search;
pub mod space;
pub mod tune;
