//! OpenCL kernel generation (OrCL's transformations, Chaimov et al. 2014, §III-B): one
//! work-item per iteration of the parallel loop, striding by the global size (NDRange), with
//! `sizeHint`, `vecHint`, `cacheBlocks`, `unrollInner` and `clFlags`; from the ViennaCL study,
//! `incrementType` and `vecWidth`; and `innerThreads` (several work-items per iteration, splitting
//! its inner reduction loop). Its arguments are rows of [`crate::args::ARGS`]; a configuration's
//! variant is [`crate::generate::variant`].

pub use super::kernel_ir::linear::{partial_name, trip_expr, Fault};
pub use crate::target::{Backend, GlobalSize, Variant};

/// An OpenCL variant (the backend-neutral [`Variant`] with `backend = OpenCl`).
pub type OpenClVariant = Variant;
