//! Code generation: OpenCL and CUDA kernels from the schedule of each configuration, through the
//! kernel IR and its writers (`kernel_ir`); host code through tera templates in
//! `src/codegen/templates/`; this module holds the shared C expression/statement writer.

pub mod target;
pub mod args;
pub mod templates;
pub mod schedule;
pub mod kernel_ir;
pub mod generate;
pub mod opencl;
pub mod cuda;
pub mod host;
pub mod skeleton;

pub use target::{Backend, GlobalSize, Grid, Variant};
