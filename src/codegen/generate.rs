//! A configuration's variant from its schedule: the 1-D map of the parallel loop
//! ([`LinearConfig`]) or a `tile` nest ([`generate_nest`]), lowered to kernel IR and written for
//! the backend.

use crate::kernel_ir;
use crate::target::{Backend, GlobalSize, Variant};
use orcl_frontend::diag::Diagnostic;

/// Generate the variant of a `tile` configuration: [`crate::schedule::check`] (located errors),
/// [`crate::schedule::for_config`] (an invalid schedule gives a variant with `invalid` set, never
/// built), [`kernel_ir::lower`], and the backend's writer.
///
/// Errors: a `tile` that no value can make valid for this nest, located at the argument.
pub(crate) fn generate_nest(
    k: &orcl_frontend::ir::Kernel,
    a: &crate::schedule::NestArgs,
    backend: Backend,
    build_options: String,
    platform: usize,
    device: usize,
) -> Result<Variant, Diagnostic> {
    crate::schedule::check(k, a)?;
    let mut v = Variant {
        backend,
        source: String::new(),
        build_options,
        global_size: GlobalSize::CoverLoop,
        local_size: 1,
        platform,
        device,
        local_mem_bytes: 0,
        grid: None,
        invalid: None,
    };
    match crate::schedule::for_config(k, a) {
        Ok(s) => {
            v.source = kernel_ir::write(&kernel_ir::lower(k, &s), backend);
            v.local_size = s.local_size();
            v.local_mem_bytes = s.local_mem_bytes();
            v.grid = Some(s.grid());
        }
        Err(why) => v.invalid = Some(why),
    }
    Ok(v)
}

/// A configuration without `tile`: the 1-D map of the parallel loop
/// ([`crate::schedule::linear`]) in work-groups of `local` work-items, lowered by
/// [`kernel_ir::linear::lower`] and written for `backend`.
pub(crate) struct LinearConfig<'a> {
    pub schedule: crate::schedule::LinearSchedule,
    pub local: u64,
    pub unroll: u32,
    pub size_hint: bool,
    pub backend: Backend,
    pub build_options: String,
    pub platform: usize,
    pub device: usize,
    /// Where an argument is written, to locate what the schedule finds wrong.
    pub span_of: &'a dyn Fn(crate::schedule::LinearArg) -> orcl_frontend::diag::Span,
}

impl LinearConfig<'_> {
    /// The schedule of this configuration for `k`.
    ///
    /// Errors: an `innerThreads` or `vecWidth` that does not fit the loop, located at the
    /// argument.
    pub fn schedule(
        &self,
        k: &orcl_frontend::ir::Kernel,
    ) -> Result<crate::schedule::Schedule, Diagnostic> {
        crate::schedule::linear(
            k,
            self.schedule.clone(),
            self.local,
            self.unroll,
            self.size_hint,
            self.backend,
        )
        .map_err(|e| {
            let span = (self.span_of)(e.arg);
            e.at(span)
        })
    }

    /// The variant of this configuration for `k` (`fault`: a deliberately broken kernel, tests).
    ///
    /// Errors: as [`LinearConfig::schedule`].
    pub fn generate(
        &self,
        k: &orcl_frontend::ir::Kernel,
        fault: Option<kernel_ir::linear::Fault>,
    ) -> Result<Variant, Diagnostic> {
        let s = self.schedule(k)?;
        let low = kernel_ir::linear::lower(k, &s, fault);
        Ok(Variant {
            backend: self.backend,
            source: kernel_ir::write(&low.kernel, self.backend),
            build_options: self.build_options.clone(),
            global_size: match self.schedule.groups {
                Some(g) => GlobalSize::Fixed(g.saturating_mul(self.local)),
                None => GlobalSize::CoverLoop,
            },
            local_size: self.local,
            platform: self.platform,
            device: self.device,
            local_mem_bytes: low.local_mem_bytes,
            grid: None,
            invalid: None,
        })
    }
}
