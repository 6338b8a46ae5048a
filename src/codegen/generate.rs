//! A configuration's variant: its bound arguments scheduled once ([`crate::schedule::of`]),
//! lowered to kernel IR (the 1-D map by [`kernel_ir::linear::lower`], a `tile` nest by
//! [`kernel_ir::lower`]) and written for the backend.

use crate::args::Options;
use crate::kernel_ir;
use crate::schedule::Form;
use crate::target::{Backend, GlobalSize, Variant};
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::ir::Kernel;

pub use kernel_ir::linear::Fault;

/// The variant of one configuration (`o`: its bound arguments) for loop `k`. `total`: the
/// objective includes transfers (CUDA skeleton options); `fault`: a deliberately broken 1-D
/// kernel, or with `mathMode='tf32'` a wrong fragment mapping (tests). A `tile` whose values cannot work gives a variant with `invalid` set, never
/// built.
///
/// Errors: what no value can fix, located at the argument (see [`crate::schedule::of`]).
pub fn variant(
    k: &Kernel,
    o: &Options,
    total: bool,
    fault: Option<Fault>,
) -> Result<Variant, Diagnostic> {
    let schedule = crate::schedule::of(k, o)?;
    let mut v = Variant {
        backend: o.backend,
        source: String::new(),
        build_options: o.build_options(total),
        global_size: GlobalSize::CoverLoop,
        local_size: 1,
        platform: match o.backend {
            Backend::OpenCl => o.platform,
            Backend::Cuda => 0,
        },
        device: o.device,
        local_mem_bytes: 0,
        grid: None,
        invalid: None,
    };
    let mut s = match schedule {
        Ok(s) => s,
        Err(why) => {
            v.invalid = Some(why);
            return Ok(v);
        }
    };
    // The test fault of a tensor-core variant: a wrong fragment mapping (validation must catch it).
    if let (Form::Contraction(c), Some(Fault::Wrong)) = (&mut s.form, fault) {
        if let Some(m) = c.mma.as_mut() {
            m.wrong_fragments = true;
        }
    }
    if let Form::Linear(l) = &s.form {
        let low = kernel_ir::linear::lower(k, &s, fault);
        v.source = kernel_ir::write(&low.kernel, o.backend);
        if let Some(g) = l.groups {
            v.global_size = GlobalSize::Fixed(g.saturating_mul(o.local));
        }
        v.local_size = o.local;
        v.local_mem_bytes = low.local_mem_bytes;
    } else {
        v.source = kernel_ir::write(&kernel_ir::lower(k, &s), o.backend);
        v.local_size = s.local_size();
        v.local_mem_bytes = s.local_mem_bytes();
        v.grid = Some(s.grid());
    }
    Ok(v)
}
