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
    if let Some(steps) = &k.steps {
        return steps_variant(&steps.kernels, o, total);
    }
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
        parts: Vec::new(),
        sm90a: false,
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
    let wgmma = s
        .contraction()
        .is_some_and(|c| c.mma.as_ref().is_some_and(|m| m.wgmma));
    if let Form::Linear(l) = &s.form {
        let low = kernel_ir::linear::lower(k, &s, fault);
        v.source = kernel_ir::write(&low.kernel, o.backend);
        if let Some(g) = l.groups {
            v.global_size = GlobalSize::Fixed(g.saturating_mul(o.local));
        }
        v.local_size = o.local;
        v.local_mem_bytes = low.local_mem_bytes;
    } else {
        let mut kernel = kernel_ir::lower(k, &s);
        if let Err(why) = min_blocks(&mut kernel, o, s.local_size()) {
            v.invalid = Some(why);
            return Ok(v);
        }
        v.source = kernel_ir::write(&kernel, o.backend);
        v.local_size = s.local_size();
        v.local_mem_bytes = s.local_mem_bytes();
        v.grid = Some(s.grid());
        v.sm90a = wgmma;
        if wgmma {
            // CUDA: compute_90a / sm_90a, the skeleton's and the build pool's architecture
            // suffix. OpenCL: the hardware form, whose PTX every orcl host retargets to sm_90a
            // (`opencl_sm90a.c.tera`); a host that does not keeps the emulated form.
            let token = match o.backend {
                Backend::Cuda => "-orcl-arch=a",
                Backend::OpenCl => "-D ORCL_SM90A_PTX",
            };
            v.build_options = format!("{} {token}", v.build_options).trim().to_string();
        }
        if o.backend == Backend::Cuda && s.dynamic_local() {
            // Dynamic shared memory: its size (the tiles, each view's offset rounded up to 16
            // bytes) is a launch token of the skeleton and of `_file.cu`'s launch.
            // wgmma: 1024 more, the views starting at the first 1024-byte boundary.
            let views = s.contraction().map_or(0, |c| c.operands.len() as u64);
            let bytes = v.local_mem_bytes + 16 * views + if wgmma { 1024 } else { 0 };
            v.build_options = format!("{} -orcl-smem={bytes}", v.build_options)
                .trim()
                .to_string();
        }
    }
    Ok(v)
}

/// `minBlocks` (CUDA) on a nest's kernel of `threads` threads per block: the second argument of
/// `__launch_bounds__`, the block's extents declared with it. Err (a `device_limit` reason): more
/// threads than a multiprocessor holds (2048 on every NVIDIA GPU since sm_30, CUDA C Programming
/// Guide, "Compute Capabilities", table 21).
fn min_blocks(kernel: &mut kernel_ir::KernelFn, o: &Options, threads: u64) -> Result<(), String> {
    let b = o.nest.min_blocks;
    if o.backend != Backend::Cuda || b <= 1 {
        return Ok(());
    }
    if threads * u64::from(b) > 2048 {
        return Err(format!(
            "minBlocks={b} blocks of {threads} threads exceed the 2048 threads of a multiprocessor"
        ));
    }
    kernel.min_blocks = b;
    kernel.declared_local.get_or_insert_with(|| vec![threads]);
    Ok(())
}

/// The variant of a time loop's kernels (`kernels`, one step in launch order): each kernel's
/// variant of the same configuration (the transform's arguments apply to each kernel; a `tile`
/// to those that have its loops, see [`crate::schedule::for_step`]), their
/// sources joined into one program with kernel `i` renamed [`Variant::kernel_name`]`(i)` and the
/// `ORCL_` `#define`s of one kernel undefined before the next. Invalid when one kernel's schedule is.
fn steps_variant(kernels: &[Kernel], o: &Options, total: bool) -> Result<Variant, Diagnostic> {
    let all: Vec<&Kernel> = kernels.iter().collect();
    let parts = kernels
        .iter()
        .map(|k| variant(k, &crate::schedule::for_step(&all, k, o), total, None))
        .collect::<Result<Vec<_>, _>>()?;
    let mut v = parts[0].clone();
    v.invalid = parts.iter().enumerate().find_map(|(i, p)| {
        p.invalid
            .as_ref()
            .map(|why| format!("kernel {i} of the step: {why}"))
    });
    v.local_mem_bytes = parts.iter().map(|p| p.local_mem_bytes).max().unwrap_or(0);
    let mut source = String::new();
    for (i, p) in parts.iter().enumerate() {
        source.push_str(
            &p.source
                .replace("orcl_kernel(", &format!("{}(", Variant::kernel_name(i))),
        );
        for line in p.source.lines() {
            // orcl's own (`ORCL_TILE`, `ORCL_WG`); CUDA's guarded `INT_MIN`, `INFINITY` stay.
            if let Some(name) = line
                .strip_prefix("#define ")
                .and_then(|d| d.split_whitespace().next())
                .filter(|n| n.starts_with("ORCL_"))
            {
                source.push_str(&format!("#undef {name}\n"));
            }
        }
    }
    v.source = source;
    v.parts = parts;
    Ok(v)
}
