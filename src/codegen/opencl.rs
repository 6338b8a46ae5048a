//! OpenCL kernel generation (OrCL's transformations, Chaimov et al. 2014, §III-B): one
//! work-item per iteration of the parallel loop, striding by the global size (NDRange), with
//! `sizeHint`, `vecHint`, `cacheBlocks`, `unrollInner` and `clFlags`; from the ViennaCL study,
//! `incrementType` and `vecWidth`; and `innerThreads` (several work-items per iteration, splitting
//! its inner reduction loop).

pub use super::kernel_ir::linear::{partial_name, trip_expr, Fault};
use crate::args::{bool_arg, int_arg};
use crate::schedule::{LinearArg, LinearSchedule};
pub use crate::target::{Backend, GlobalSize, Variant};
use orcl_frontend::diag::{Diagnostic, Span};
use orcl_frontend::expr::{KeywordArg, Value};
use orcl_frontend::ir::Kernel;
use serde::Serialize;

/// Transformation arguments of `transform OpenCL(...)`, with their meaning.
pub const OPENCL_ARGS: &[(&str, &str)] = &[
    ("workGroups", "number of work-groups (global size = workGroups × workItemsPerGroup); default: enough to cover the loop"),
    ("workItemsPerGroup", "work-items per work-group (local size); default 128"),
    ("sizeHint", "add work_group_size_hint and reqd_work_group_size attributes (bool)"),
    ("vecHint", "vec_type_hint width: 0 (none), 1, 2, 3, 4, 8 or 16"),
    ("cacheBlocks", "stage read-only inputs through __local memory (bool): arrays subscripted by the parallel index, and an inner loop's shared operand (x[j] of t += A[i*n+j]*x[j]) in tiles of the local size"),
    ("unrollInner", "#pragma unroll factor for the innermost loop; 1 = no pragma"),
    ("clFlags", "OpenCL build options (string), e.g. '-cl-fast-relaxed-math'"),
    ("incrementType", "'global': work-items stride by the global size (default); 'local': each work-group owns one contiguous chunk (ViennaCL study, section 2)"),
    ("innerThreads", "work-items (lanes) sharing one iteration of the parallel loop: they split its inner reduction loop (t += ..., y[i] += ...) lane-strided and combine in __local memory; 1 (default) to workItemsPerGroup (a value that does not divide it idles the remainder); give workGroups too, as the default NDRange has one work-item per iteration"),
    ("vecWidth", "iterations per work-item through vector loads and stores (vloadN/vstoreN) with a scalar tail: 1 (default), 2, 4, 8, or 16 for 4-byte data; 1-D unit-step loops whose subscripts are the index plus a constant; cacheBlocks is ignored with it"),
    ("tile", "loop nests: [('i',TI),('j',TJ)] maps the named outermost parallel loops onto a 2-D/3-D NDRange, TI×TJ iterations per work-group (workGroups, workItemsPerGroup, innerThreads and incrementType are then not used; vecWidth only for a matrix product); a matrix product (i, j parallel, a reduction loop l inside) also takes ('l',TK), the k-slab; edges guarded"),
    ("regTile", "with tile: [('i',RI),('j',RJ)] iterations per work-item along each tiled loop (the work-group has TI/RI × TJ/RJ work-items)"),
    ("padLocal", "with tile on a matrix product: elements of padding per local tile row against bank conflicts (0 = none)"),
    ("doubleBuffer", "with tile and cacheBlocks on a matrix product: two local buffers per staged operand, the next k-slab loaded into registers while the current one is computed, one barrier per slab (bool; no effect when nothing is staged)"),
    ("vecLoad", "with tile and cacheBlocks on a matrix product: the global-to-local k-slab loads read 1 (default), 2 or 4 elements adjacent along each staged operand's contiguous dimension as one vector (float4, double2; at most 16 bytes), falling back to scalar loads at the edges and at unaligned addresses; it must divide the slab's contiguous extent (TK for a row-major A, TI or TJ otherwise)"),
    ("loadItems", "with tile, cacheBlocks and a k-slab on a matrix product: [('i',MA),('j',NB)] work-items side by side along the contiguous dimension of the staged operand that varies with each named loop while loading its slab (CLBlast's MDIMA/NDIMB; 1 puts consecutive work-items across rows, which makes the transposed local store of a row-major A conflict-free); it must divide the row's vecLoad groups and the work-group; default: the slab linearised"),
    ("warpTile", "with tile on a matrix product: [('i',WI),('j',WJ)] each run of WI×WJ consecutive work-items (a warp when 32) computes a WI × WJ block of the (TI/RI) × (TJ/RJ) work-item grid instead of a row of it, so fewer distinct local addresses are read per warp (warp-level tiling); each must divide the work-items along its loop; default: rows"),
    ("device", "device index within the platform"),
    ("platform", "OpenCL platform index"),
    ("threadCount", "Orio's CUDA spelling of workItemsPerGroup, taken as it (Orio's OpenCL module does the same)"),
    ("blockCount", "Orio's CUDA spelling of workGroups, taken as it (Orio's OpenCL module does the same)"),
    ("streamCount", "accepted for Orio's files and ignored (Orio's OpenCL module parses it and never uses it): one command queue"),
];

/// Evaluated OpenCL transformation of one configuration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpenClOptions {
    /// `workGroups`: number of work-groups; `None` = enough to give each iteration a work-item.
    pub work_groups: Option<u64>,
    /// `workItemsPerGroup`: local size (work-items).
    pub work_items: u64,
    pub size_hint: bool,
    /// `vecHint`: 0 = no `vec_type_hint`.
    pub vec_hint: u32,
    pub cache_blocks: bool,
    /// `unrollInner`: 1 = no pragma.
    pub unroll_inner: u32,
    pub cl_flags: String,
    /// `incrementType`: `false` = 'global' (stride by the global size), `true` = 'local' (one
    /// contiguous chunk per work-group).
    pub chunked: bool,
    /// `innerThreads`: work-items per iteration of the parallel loop (1 = one).
    pub inner_threads: u64,
    /// `vecWidth`: iterations per work-item through vector types (1 = scalar).
    pub vec_width: u32,
    /// Where each argument's value is written (for errors found once the loop is known).
    #[serde(skip)]
    pub spans: Vec<(String, Span)>,
    pub platform: usize,
    pub device: usize,
    /// `tile` / `regTile` (empty `tile`: the 1-D kernel).
    #[serde(skip)]
    pub nest: crate::schedule::NestArgs,
}

impl Default for OpenClOptions {
    fn default() -> Self {
        OpenClOptions {
            work_groups: None,
            work_items: 128,
            size_hint: false,
            vec_hint: 0,
            cache_blocks: false,
            unroll_inner: 1,
            cl_flags: String::new(),
            chunked: false,
            inner_threads: 1,
            vec_width: 1,
            spans: Vec::new(),
            platform: 0,
            device: 0,
            nest: Default::default(),
        }
    }
}

/// Check the argument names of `transform OpenCL(...)` (unknown or repeated names are errors).
pub fn check_args(args: &[KeywordArg]) -> Result<(), Diagnostic> {
    crate::args::check_transform_args(args, OPENCL_ARGS, "OpenCL")
}

/// Evaluate the transformation arguments for one configuration (`env` gives param values).
pub fn options(
    args: &[KeywordArg],
    env: &dyn Fn(&str) -> Option<Value>,
) -> Result<OpenClOptions, Diagnostic> {
    let mut o = OpenClOptions::default();
    for a in args {
        let v = a.expr.eval(env)?;
        // Orio's CUDA spellings (threadCount, blockCount) stand for the OpenCL arguments.
        let name = match a.name.as_str() {
            "threadCount" => "workItemsPerGroup",
            "blockCount" => "workGroups",
            n => n,
        };
        if o.spans.iter().any(|(n, _)| n == name) {
            return Err(Diagnostic::new(
                a.name_span,
                format!("`{}` gives `{name}` a second time", a.name),
            )
            .with_help("threadCount is Orio's other name of workItemsPerGroup, blockCount of workGroups: give one of each pair"));
        }
        o.spans.push((name.to_string(), a.expr.span));
        match name {
            "workGroups" => o.work_groups = Some(int_arg(&v, a, 1)? as u64),
            "workItemsPerGroup" => o.work_items = int_arg(&v, a, 1)? as u64,
            "streamCount" => {
                int_arg(&v, a, 1)?;
            }
            "sizeHint" => o.size_hint = bool_arg(&v, a)?,
            "vecHint" => {
                let w = int_arg(&v, a, 0)?;
                if ![0, 1, 2, 3, 4, 8, 16].contains(&w) {
                    return Err(Diagnostic::new(
                        a.expr.span,
                        format!("`vecHint` must be 0, 1, 2, 3, 4, 8 or 16, found {w}"),
                    ));
                }
                o.vec_hint = w as u32;
            }
            "cacheBlocks" => o.cache_blocks = bool_arg(&v, a)?,
            "unrollInner" => o.unroll_inner = int_arg(&v, a, 1)?.min(1 << 16) as u32,
            "clFlags" => match v {
                Value::Str(s) => o.cl_flags = s,
                other => {
                    return Err(Diagnostic::new(
                        a.expr.span,
                        format!("`clFlags` must be a string, found {other}"),
                    ))
                }
            },
            "incrementType" => o.chunked = crate::args::increment_type_arg(&v, a)?,
            "innerThreads" => o.inner_threads = int_arg(&v, a, 1)? as u64,
            "vecWidth" => o.vec_width = crate::args::width_arg(&v, a, &[1, 2, 4, 8, 16])?,
            "tile" => o.nest.tile = crate::schedule::loop_list(&v, a)?,
            "regTile" => o.nest.reg_tile = crate::schedule::loop_list(&v, a)?,
            "loadItems" => o.nest.load_items = crate::schedule::loop_list(&v, a)?,
            "warpTile" => o.nest.warp_tile = crate::schedule::loop_list(&v, a)?,
            "padLocal" => o.nest.pad_local = int_arg(&v, a, 0)?.min(64) as u64,
            "doubleBuffer" => o.nest.double_buffer = bool_arg(&v, a)?,
            "vecLoad" => o.nest.vec_load = crate::args::width_arg(&v, a, &[1, 2, 4])?,
            "device" => o.device = int_arg(&v, a, 0)? as usize,
            "platform" => o.platform = int_arg(&v, a, 0)? as usize,
            _ => {
                return Err(Diagnostic::new(
                    a.name_span,
                    format!("unknown OpenCL transformation argument `{}`", a.name),
                ))
            }
        }
    }
    Ok(o)
}

/// An OpenCL variant (the backend-neutral [`Variant`] with `backend = OpenCl`).
pub type OpenClVariant = Variant;

impl OpenClOptions {
    /// The 1-D map of these options (a configuration without `tile`).
    fn linear<'a>(
        &self,
        span_of: &'a dyn Fn(LinearArg) -> Span,
    ) -> crate::generate::LinearConfig<'a> {
        crate::generate::LinearConfig {
            schedule: LinearSchedule {
                groups: self.work_groups,
                chunked: self.chunked,
                lanes: self.inner_threads,
                cache_blocks: self.cache_blocks,
                vec_width: self.vec_width,
                vec_hint: self.vec_hint,
                passes: None,
                vector: None,
            },
            local: self.work_items,
            unroll: self.unroll_inner,
            size_hint: self.size_hint,
            backend: Backend::OpenCl,
            build_options: self.cl_flags.clone(),
            platform: self.platform,
            device: self.device,
            span_of,
        }
    }

    /// Where the argument a 1-D schedule's error is about is written.
    fn arg_span(&self, a: LinearArg) -> Span {
        self.span_of(match a {
            LinearArg::InnerThreads => "innerThreads",
            LinearArg::VecWidth => "vecWidth",
        })
    }

    /// The loop-nest schedule arguments (`tile`, `regTile` with `cacheBlocks`, `unrollInner`,
    /// `sizeHint`).
    fn nest_args(&self) -> crate::schedule::NestArgs {
        crate::schedule::NestArgs {
            cache_blocks: self.cache_blocks,
            unroll: self.unroll_inner,
            size_hint: self.size_hint,
            vec_width: self.vec_width,
            ..self.nest.clone()
        }
    }

    /// Where argument `name`'s value is written (the default span if it is not given).
    fn span_of(&self, name: &str) -> Span {
        self.spans
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| *s)
            .unwrap_or_default()
    }
}

/// Check that the options of one configuration can be generated for loop `k`: `innerThreads`
/// needs an inner reduction loop (`double t = 0; for (j ...) t += ...; y[i] = t;`) and at most
/// `workItemsPerGroup` lanes; `vecWidth` needs a 1-D unit-step loop whose subscripts are the loop
/// index plus a constant.
///
/// Errors: located at the argument's value, saying why (naming the offending statement or
/// subscript).
pub fn check(k: &Kernel, o: &OpenClOptions) -> Result<(), Diagnostic> {
    if !o.nest.tile.is_empty() {
        return crate::schedule::check(k, &o.nest_args());
    }
    o.linear(&|a| o.arg_span(a)).schedule(k).map(|_| ())
}

/// Generate the kernel and launch geometry of one configuration.
///
/// Errors: options that do not fit the loop (see [`check`]), located at the argument.
pub fn generate(
    k: &Kernel,
    o: &OpenClOptions,
    fault: Option<Fault>,
) -> Result<OpenClVariant, Diagnostic> {
    if !o.nest.tile.is_empty() {
        return crate::generate::generate_nest(
            k,
            &o.nest_args(),
            Backend::OpenCl,
            o.cl_flags.clone(),
            o.platform,
            o.device,
        );
    }
    o.linear(&|a| o.arg_span(a)).generate(k, fault)
}
