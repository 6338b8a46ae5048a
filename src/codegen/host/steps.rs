//! A region holding a time loop (`ir::Steps`) in the templates: the loop's variable and step
//! values, each kernel's arguments and trip counts (`context`, shared by the timing skeleton and
//! the host code), and the host function of `_file.c` / `_file.cu` (`render`,
//! `templates/opencl_steps_host.c.tera`, `templates/cuda_steps_host.cu.tera`).

use super::HostVariant;
use crate::target::GlobalSize;
use orcl_frontend::ir::c::{c_string, c_string_lines};
use orcl_frontend::ir::{Kernel, ScalarType};
use serde::Serialize;

/// A time loop's step in a template: the loop runs on the host, and each step launches `parts`.
#[derive(Serialize)]
pub struct StepsCx {
    /// The time loop's variable and its C type.
    pub var: String,
    pub ty: &'static str,
    /// C text of the value of step `orcl_s` (0-based), over the region's scalars.
    pub value: String,
    /// The kernels of one step, in launch order.
    pub parts: Vec<PartCx>,
}

/// One kernel of a time loop's step.
#[derive(Serialize)]
pub struct PartCx {
    /// `orcl_kernel_<i>`.
    pub name: String,
    /// Its arguments in order.
    pub args: Vec<PartArg>,
    /// The index of the argument that takes the step's value (the time loop's variable), or -1.
    pub step_arg: i64,
    /// C text of its parallel loop's trip count, and of each perfect-nest loop's.
    pub trip: String,
    pub nest_trips: Vec<String>,
}

/// One argument of a time loop's kernel.
#[derive(Serialize)]
pub struct PartArg {
    pub name: String,
    /// Its C type.
    pub ty: &'static str,
    /// `array`, `scalar`, or `step` (the time loop's variable).
    pub kind: &'static str,
}

/// The template context of a time loop's steps (`None` for a region of one kernel).
pub fn context(kernel: &Kernel) -> Option<StepsCx> {
    let steps = kernel.steps.as_ref()?;
    let t = &kernel.parallel;
    let ty = kernel
        .symbols
        .get(&t.var)
        .map(|s| s.ty)
        .unwrap_or(ScalarType::Int);
    let lower = orcl_frontend::ir::c::c_expr(&t.lower, &|_| None);
    let parts = steps
        .kernels
        .iter()
        .enumerate()
        .map(|(i, k)| PartCx {
            name: crate::target::Variant::kernel_name(i),
            args: k
                .args
                .iter()
                .map(|a| {
                    let kind = if a.is_array {
                        "array"
                    } else if a.name == t.var {
                        "step"
                    } else {
                        "scalar"
                    };
                    PartArg {
                        name: a.name.clone(),
                        ty: super::host_type(a.ty),
                        kind,
                    }
                })
                .collect(),
            step_arg: k
                .args
                .iter()
                .position(|a| !a.is_array && a.name == t.var)
                .map_or(-1, |i| i as i64),
            trip: crate::opencl::trip_expr(k),
            nest_trips: orcl_frontend::analysis::nest_trips(k),
        })
        .collect();
    Some(StepsCx {
        var: t.var.clone(),
        ty: ty.c_name(),
        value: format!("({})(({lower}) + orcl_s * {})", ty.c_name(), t.step),
        parts,
    })
}

/// One variant of a time loop's host function: each kernel's launch.
#[derive(Serialize)]
struct StepsV {
    label: String,
    config: String,
    source: String,
    options: String,
    /// CUDA: the kernels of `_file.cu`, `orcl_kernel_<q>` renamed `<host function>_k<v>_<q>`.
    kernels: String,
    /// CUDA: `cudaFuncCachePrefer...` of `preferL1Size`, if any.
    cache_config: Option<&'static str>,
    platform: usize,
    device: usize,
    locals: Vec<u64>,
    globals: Vec<u64>,
    grids: Vec<String>,
}

/// The host function of a region holding a time loop (`templates/opencl_steps_host.c.tera`):
/// the loop on the host, each step's kernels launched in order, the arrays on the device from
/// the first step to the last. `ctx` has the names, parameters, buffers and the steps' count.
pub(super) fn render(mut ctx: tera::Context, steps: StepsCx, variants: &[HostVariant]) -> String {
    let name = ctx
        .get("name")
        .and_then(|n| n.as_str())
        .unwrap_or_default()
        .to_string();
    let vs: Vec<StepsV> = variants
        .iter()
        .enumerate()
        .map(|(v, h)| StepsV {
            label: h.label.clone(),
            config: h.config.replace("*/", "* /"),
            source: c_string_lines(&h.variant.source, 8),
            options: c_string(&h.variant.build_options),
            kernels: (0..steps.parts.len()).fold(h.variant.source.clone(), |src, q| {
                src.replace(
                    &format!("{}(", crate::target::Variant::kernel_name(q)),
                    &format!("{name}_k{v}_{q}("),
                )
            }),
            cache_config: crate::cuda::cache_config(&h.variant.build_options),
            platform: h.variant.platform,
            device: h.variant.device,
            locals: h.variant.parts.iter().map(|p| p.local_size).collect(),
            globals: h
                .variant
                .parts
                .iter()
                .map(|p| match p.global_size {
                    GlobalSize::Fixed(g) => g,
                    GlobalSize::CoverLoop => 0,
                })
                .collect(),
            grids: h
                .variant
                .parts
                .iter()
                .map(|p| crate::target::Grid::c_initializer(p.grid.as_ref()))
                .collect(),
        })
        .collect();
    let mut dispatch = Vec::new();
    for (k, h) in variants.iter().enumerate() {
        if let Some(c) = &h.condition {
            let e = if dispatch.is_empty() { "" } else { "else " };
            dispatch.push(format!("{e}if ({c}) orcl_v = {k};"));
        }
    }
    let width = steps
        .parts
        .iter()
        .map(|p| p.nest_trips.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let nest_trips: Vec<Vec<String>> = steps
        .parts
        .iter()
        .map(|p| {
            let mut t = p.nest_trips.clone();
            t.resize(width, "0".into());
            t
        })
        .collect();
    ctx.insert("variants", &vs);
    ctx.insert("dispatch", &dispatch);
    ctx.insert("nest_width", &width);
    ctx.insert("nest_trips", &nest_trips);
    ctx.insert("steps", &steps);
    if variants.first().map(|h| h.variant.backend) == Some(crate::target::Backend::Cuda) {
        return crate::templates::render("cuda_steps_host.cu.tera", &ctx);
    }
    // A `wgmma` kernel among the parts: its PTX is retargeted to sm_90a (`opencl_sm90a.c.tera`).
    let sm90a = variants
        .iter()
        .any(|h| h.variant.sm90a || h.variant.parts.iter().any(|p| p.sm90a));
    ctx.insert("sm90a", &sm90a);
    crate::templates::render("opencl_steps_host.c.tera", &ctx)
}
