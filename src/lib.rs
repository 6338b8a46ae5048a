//! orcl: an annotation-driven source-to-source autotuner for OpenCL (and CUDA) loops.
//!
//! Pipeline (see ARCHITECTURE.md): `frontend::parse` → `lower::lower` → `codegen::generate`
//! → `measure::Runner::measure` → `db` → `rewrite::rewrite`, driven by a `search::Strategy`.

pub mod cli;
pub mod codegen;
pub mod db;
pub mod device;
pub mod diag;
pub mod frontend;
pub mod ir;
pub mod lower;
pub mod measure;
pub mod prepare;
pub mod rewrite;
pub mod search;
pub mod space;
pub mod tune;
