//! OpenCL host code for the tuned output file: one `static int` function per region that
//! selects a variant by input size, builds it once, copies the arrays in, launches the NDRange and
//! copies the written arrays back (template `templates/opencl_host.c.tera`).

pub mod steps;

use super::opencl::{partial_name, trip_expr, GlobalSize, OpenClVariant};
use orcl_frontend::ir::c::{c_string, c_string_lines};
use orcl_frontend::ir::Kernel;
use serde::Serialize;

/// One variant of the host function, with the input size it was tuned for.
#[derive(Debug, Clone)]
pub struct HostVariant {
    pub variant: OpenClVariant,
    /// E.g. `N=100000`.
    pub label: String,
    /// E.g. `WI=64 WG=128 ...`.
    pub config: String,
    /// C condition selecting this variant (e.g. `n <= 100000`), `None` for the fallback.
    pub condition: Option<String>,
    /// Element count of each array argument, as C expressions, in `kernel.args` order
    /// (`None` for scalars).
    pub elems: Vec<Option<String>>,
}

#[derive(Serialize)]
struct V {
    label: String,
    config: String,
    source: String,
    options: String,
    local: u64,
    global: u64,
    platform: usize,
    device: usize,
    /// `crate::target::Grid::c_initializer` of the variant.
    grid: String,
}

#[derive(Serialize)]
struct Buf {
    name: String,
    ty: &'static str,
    elems: String,
    written: bool,
}

#[derive(Serialize)]
struct A {
    name: String,
    ty: &'static str,
    /// `array`, `scalar` or `reduction`.
    kind: &'static str,
    /// The partial-results buffer of a reduction.
    partial: String,
}

#[derive(Serialize)]
struct R {
    name: String,
    ty: &'static str,
    partial: String,
    /// Combines the running value `orcl_a` with a partial `orcl_b`.
    combine: String,
}

/// The name of the host function of region `index` in function `function`.
pub fn function_name(function: &str, index: usize) -> String {
    format!("orcl_{function}_region{index}")
}

/// An element type as the host code spells it: a 16-bit float's pattern is `unsigned short`
/// (the host C has no `ushort` of OpenCL's).
pub fn host_type(t: orcl_frontend::ir::ScalarType) -> &'static str {
    if t.is_16bit() {
        "unsigned short"
    } else {
        t.c_name()
    }
}

/// Parameters of the host function: the kernel arguments (scalars by value, arrays by pointer),
/// then `extra` scalars (size variables that the loop does not use), as (C declaration, name).
/// A multi-dimensional array is a pointer to its flat row-major storage (the call passes
/// `&A[0][0]`), and its extent arguments (`long orcl_A_dim1`) are scalars like any other.
pub fn params(kernel: &Kernel, extra: &[(String, &'static str)]) -> Vec<(String, String)> {
    let mut p: Vec<(String, String)> = kernel
        .args
        .iter()
        .map(|a| {
            let decl = match (a.is_array, a.written) {
                _ if a.reduction.is_some() => format!("{} *{}", a.ty.c_name(), a.name),
                (false, _) => format!("{} {}", a.ty.c_name(), a.name),
                (true, true) => format!("{} *{}", a.ty.c_name(), a.name),
                // A 16-bit array (read only): the caller's `_Float16 *` / `__bf16 *` as is.
                (true, false) if a.ty.is_16bit() => format!("const void *{}", a.name),
                (true, false) => format!("const {} *{}", a.ty.c_name(), a.name),
            };
            (decl, a.name.clone())
        })
        .collect();
    for (name, ty) in extra {
        if !p.iter().any(|(_, n)| n == name) {
            p.push((format!("{ty} {name}"), name.clone()));
        }
    }
    p
}

/// The device buffers of the kernel's arrays, each with its element count: one expression when
/// every variant sizes it alike, else chosen by the dispatched variant `v`.
fn buffers(kernel: &Kernel, variants: &[HostVariant]) -> Vec<Buf> {
    kernel
        .args
        .iter()
        .enumerate()
        .filter(|(_, a)| a.is_array)
        .map(|(i, a)| {
            let exprs: Vec<String> = variants
                .iter()
                .filter_map(|h| h.elems.get(i).cloned().flatten())
                .collect();
            let elems = if exprs.windows(2).all(|w| w[0] == w[1]) {
                exprs.first().cloned().unwrap_or_else(|| "0".into())
            } else {
                let mut e = exprs.last().cloned().unwrap_or_default();
                for (k, x) in exprs.iter().enumerate().rev().skip(1) {
                    e = format!("v == {k} ? ({x}) : ({e})");
                }
                e
            };
            Buf {
                name: a.name.clone(),
                ty: host_type(a.ty),
                elems,
                written: a.written,
            }
        })
        .collect()
}

/// Render the host function. `variants` are in dispatch order; the last one is the fallback.
pub fn render_host_function(
    name: &str,
    function: &str,
    file: &str,
    line: usize,
    kernel: &Kernel,
    variants: &[HostVariant],
    params: &[(String, String)],
) -> String {
    let vs: Vec<V> = variants
        .iter()
        .map(|h| V {
            label: h.label.clone(),
            config: h.config.replace("*/", "* /"),
            source: c_string_lines(&h.variant.source, 8),
            options: c_string(&h.variant.build_options),
            local: h.variant.local_size,
            global: match h.variant.global_size {
                GlobalSize::Fixed(g) => g,
                GlobalSize::CoverLoop => 0,
            },
            platform: h.variant.platform,
            device: h.variant.device,
            grid: crate::target::Grid::c_initializer(h.variant.grid.as_ref()),
        })
        .collect();
    let mut dispatch = Vec::new();
    let mut first = true;
    for (k, h) in variants.iter().enumerate() {
        if let Some(c) = &h.condition {
            dispatch.push(format!(
                "{}if ({c}) orcl_v = {k};",
                if first { "" } else { "else " }
            ));
            first = false;
        }
    }
    let buffers = buffers(kernel, variants);
    if let Some(steps) = steps::context(kernel) {
        let mut ctx = tera::Context::new();
        ctx.insert("name", name);
        ctx.insert("function", function);
        ctx.insert("file", file);
        ctx.insert("line", &line);
        ctx.insert(
            "params",
            &params.iter().map(|(d, _)| d.clone()).collect::<Vec<_>>(),
        );
        ctx.insert("trip", &trip_expr(kernel));
        ctx.insert("buffers", &buffers);
        return steps::render(ctx, steps, variants);
    }
    let args: Vec<A> = kernel
        .args
        .iter()
        .map(|a| A {
            name: a.name.clone(),
            ty: host_type(a.ty),
            kind: if a.reduction.is_some() {
                "reduction"
            } else if a.is_array {
                "array"
            } else {
                "scalar"
            },
            partial: partial_name(&a.name),
        })
        .collect();
    let reductions: Vec<R> = kernel
        .reductions()
        .map(|a| R {
            name: a.name.clone(),
            ty: a.ty.c_name(),
            partial: partial_name(&a.name),
            combine: a
                .reduction
                .expect("filtered")
                .combine(a.ty, "orcl_a", "orcl_b"),
        })
        .collect();
    let mut ctx = tera::Context::new();
    ctx.insert("name", name);
    ctx.insert("function", function);
    ctx.insert("file", file);
    ctx.insert("line", &line);
    ctx.insert("variants", &vs);
    ctx.insert(
        "params",
        &params.iter().map(|(d, _)| d.clone()).collect::<Vec<_>>(),
    );
    ctx.insert("dispatch", &dispatch);
    let guards: Vec<&String> = kernel
        .private_arrays
        .iter()
        .flat_map(|p| &p.guard)
        .collect();
    ctx.insert("guards", &guards);
    ctx.insert("trip", &trip_expr(kernel));
    let mut trips = orcl_frontend::analysis::nest_trips(kernel);
    if trips.is_empty() {
        trips.push("0".into());
    }
    ctx.insert("nest_trips", &trips);
    ctx.insert("buffers", &buffers);
    ctx.insert("args", &args);
    ctx.insert("reductions", &reductions);
    if variants.first().map(|h| h.variant.backend) == Some(crate::target::Backend::Cuda) {
        let vs: Vec<(String, String, &OpenClVariant)> = variants
            .iter()
            .map(|h| (h.label.clone(), h.config.clone(), &h.variant))
            .collect();
        ctx.insert("variants", &super::cuda::host_kernels(name, kernel, &vs));
        return crate::templates::render("cuda_host.cu.tera", &ctx);
    }
    // A `wgmma` variant's PTX is retargeted to sm_90a after its build (`opencl_sm90a.c.tera`).
    ctx.insert("sm90a", &variants.iter().any(|h| h.variant.sm90a));
    crate::templates::render("opencl_host.c.tera", &ctx)
}
