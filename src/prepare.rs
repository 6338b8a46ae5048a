//! Between parsing and tuning: lowers each region's loop, checks its transform arguments and
//! input sizes, and proves the search space is not empty. Shared by `check`, `emit` and `tune`.

use crate::codegen::opencl;
use crate::codegen::Backend;
use crate::diag::{did_you_mean, Diagnostic, InputError};
use crate::frontend::expr::KeywordArg;
use crate::frontend::expr::{ExprKind, Value};
use crate::frontend::{self, Region};
use crate::ir::Kernel;
use crate::space::{input_combinations, SearchSpace};
use std::collections::BTreeMap;

/// A region ready to tune.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub region: Region,
    pub kernel: Kernel,
    /// Input-size combinations, in declaration order.
    pub inputs: Vec<BTreeMap<String, Value>>,
    /// C variables bound to input params (`decl int n = N;`), as (variable, param).
    pub bindings: Vec<(String, String)>,
}

/// Transformation arguments with the same meaning in both backends: (OpenCL name, CUDA name).
const SHARED_ARGS: &[(&str, &str)] = &[
    ("workGroups", "blockCount"),
    ("workItemsPerGroup", "threadCount"),
    ("cacheBlocks", "cacheBlocks"),
    ("unrollInner", "unrollInner"),
    ("innerThreads", "innerThreads"),
    ("incrementType", "incrementType"),
    ("sizeHint", "launchBounds"),
    ("device", "device"),
    ("tile", "tile"),
    ("regTile", "regTile"),
];

impl Prepared {
    /// The backends whose transforms the annotation names, in the order written.
    pub fn backends(&self) -> Vec<Backend> {
        self.region
            .raw
            .loop_ann
            .transforms
            .iter()
            .filter_map(|t| Backend::parse(&t.backend))
            .collect()
    }

    /// The transformation arguments for `backend`: those of the annotation's own `transform`
    /// for it, or else those of the other backend's transform that have a counterpart
    /// ([`SHARED_ARGS`]: workGroups ↔ blockCount, workItemsPerGroup ↔ threadCount, sizeHint ↔
    /// launchBounds, cacheBlocks, unrollInner, innerThreads, incrementType, device, tile, regTile), so that one
    /// annotation can be tuned for both targets. Backend-specific arguments (clFlags, vecHint,
    /// vecWidth, platform; cudaFlags, streamCount, preferL1Size) are not carried over.
    pub fn transform_args(&self, backend: Backend) -> Vec<KeywordArg> {
        let ann = &self.region.raw.loop_ann;
        if let Some(t) = ann.transform(backend.transform()) {
            return t.args.clone();
        }
        let Some(other) = ann.transforms.first() else {
            return Vec::new();
        };
        other
            .args
            .iter()
            .filter_map(|a| {
                let name = SHARED_ARGS.iter().find_map(|(cl, cu)| match backend {
                    Backend::Cuda if *cl == a.name => Some(*cu),
                    Backend::OpenCl if *cu == a.name => Some(*cl),
                    _ => None,
                })?;
                let mut b = a.clone();
                b.name = name.to_string();
                Some(b)
            })
            .collect()
    }
}

/// Largest space that `prepare` enumerates to prove it has a feasible configuration.
const FEASIBILITY_LIMIT: u64 = 20_000_000;
/// How many configurations `prepare` evaluates the transform arguments of.
const OPTIONS_CHECK_LIMIT: u64 = 100_000;

/// The search algorithm and its options are known (located at the `algorithm` arg).
fn check_search(spec: &crate::frontend::spec::TuningSpec) -> Result<(), Diagnostic> {
    let algorithm = spec
        .search
        .algorithm
        .as_ref()
        .map(|a| a.value.as_str())
        .unwrap_or("Exhaustive");
    crate::search::make_strategy(algorithm, &spec.search.options, 0)
        .map(|_| ())
        .map_err(|d| locate_search_error(spec, d))
}

/// A search error without a location (unknown algorithm) located at the spec's `algorithm` arg,
/// or at the whole spec when it has none.
pub fn locate_search_error(
    spec: &crate::frontend::spec::TuningSpec,
    mut d: Diagnostic,
) -> Diagnostic {
    if d.span == crate::diag::Span::default() {
        d.span = spec
            .search
            .algorithm
            .as_ref()
            .map(|a| a.span)
            .unwrap_or(spec.span);
    }
    d
}

/// Every `@NAME@` of the build commands names a parameter.
fn check_build(
    spec: &crate::frontend::spec::TuningSpec,
    inputs: &[BTreeMap<String, Value>],
) -> Result<(), Diagnostic> {
    let Some(input) = inputs.first() else {
        return Ok(());
    };
    let space = SearchSpace::new(spec, input);
    let cfg = space.config_at(0);
    let env = env_for(&space, &cfg);
    let b = &spec.build;
    for (what, cmd) in [
        ("build_command", &b.build_command),
        ("libs", &b.libs),
        ("prebuild_command", &b.prebuild_command),
        ("postbuild_command", &b.postbuild_command),
    ] {
        if let Some(c) = cmd {
            crate::measure::skeleton::substitute(&c.value, &env).map_err(|name| {
                let names: Vec<&str> = space
                    .params
                    .iter()
                    .map(|p| p.name.as_str())
                    .chain(space.fixed.keys().map(String::as_str))
                    .collect();
                let d =
                    Diagnostic::new(c.span, format!("`@{name}@` in `{what}` names no parameter"));
                match did_you_mean(&name, names) {
                    Some(h) => d.with_help(h),
                    None => d.with_help(
                        "`@NAME@` is replaced by the value of the tuning or input parameter NAME",
                    ),
                }
            })?;
        }
    }
    Ok(())
}

/// Parse and validate every region of `text` (the contents of `path`).
pub fn prepare(path: &str, text: &str) -> Result<Vec<Prepared>, InputError> {
    let err = |diagnostics: Vec<Diagnostic>| InputError {
        path: path.to_string(),
        source: text.to_string(),
        diagnostics,
    };
    let regions = frontend::parse(text).map_err(err)?;
    if regions.is_empty() {
        return Err(err(vec![Diagnostic::new(
            crate::diag::Span::default(),
            "no `/*@ begin PerfTuning ( ... ) @*/` region found",
        )
        .with_help("annotate the loop to tune as in examples/axpy_quick.c")]));
    }
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for region in regions {
        match prepare_region(region, text) {
            Ok(p) => out.push(p),
            Err(d) => diags.push(d),
        }
    }
    if diags.is_empty() {
        for w in out
            .iter()
            .flat_map(|p| p.warnings().into_iter().chain(crate::preamble::warnings(p)))
        {
            eprintln!("{}", crate::diag::render_warning(path, text, &w));
        }
        Ok(out)
    } else {
        Err(err(diags))
    }
}

fn prepare_region(region: Region, text: &str) -> Result<Prepared, Diagnostic> {
    let spec = &region.spec;
    let ann = &region.raw.loop_ann;
    for t in &ann.transforms {
        match t.backend.as_str() {
            "CUDA" => crate::codegen::cuda::check_args(&t.args)?,
            _ => opencl::check_args(&t.args)?,
        }
    }
    let mut names: Vec<&str> = spec
        .performance_params
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    names.extend(spec.input_params.iter().map(|p| p.name.as_str()));
    names.extend(spec.lets.iter().map(|l| l.name.as_str()));
    for a in ann.transforms.iter().flat_map(|t| &t.args) {
        for (n, span) in a.expr.free_names() {
            if !names.contains(&n.as_str()) {
                let d = Diagnostic::new(
                    span,
                    format!("`{n}` is not a tuning parameter, input parameter or `let`"),
                );
                return Err(match did_you_mean(&n, names.iter().copied()) {
                    Some(h) => d.with_help(h),
                    None => d.with_help(format!(
                        "declare it in `performance_params`: `param {n}[] = [...];`"
                    )),
                });
            }
        }
    }
    let kernel = crate::lower::lower(&region.raw, spec, text)?;
    let inputs = input_combinations(spec)?;
    crate::bounds::check(&kernel, spec, &inputs)?;
    if inputs.is_empty() {
        let span = spec
            .input_constraints
            .first()
            .map(|c| c.span)
            .unwrap_or(spec.span);
        return Err(Diagnostic::new(
            span,
            "no input size satisfies the input constraints",
        ));
    }
    for input in &inputs {
        let space = SearchSpace::new(spec, input);
        if space.size() <= FEASIBILITY_LIMIT {
            let mut any = false;
            for index in 0..space.size() {
                if space.check(&space.config_at(index))?.is_none() {
                    any = true;
                    break;
                }
            }
            if !any {
                let span = spec
                    .constraints
                    .first()
                    .map(|c| c.span)
                    .unwrap_or(spec.span);
                return Err(Diagnostic::new(span, format!("no configuration satisfies the constraints ({} configurations, all rejected)", space.size()))
                    .with_help("relax the constraints or widen the parameter values"));
            }
        }
        // Evaluate the transform for every configuration (up to a limit), to report a value of the
        // wrong type before anything is built.
        for index in 0..space.size().min(OPTIONS_CHECK_LIMIT) {
            let cfg = space.config_at(index);
            if space.check(&cfg)?.is_some() {
                continue;
            }
            let env = env_for(&space, &cfg);
            for t in &ann.transforms {
                match t.backend.as_str() {
                    "CUDA" => {
                        let o = crate::codegen::cuda::options(&t.args, &env)?;
                        crate::codegen::cuda::check(&kernel, &o)?;
                    }
                    _ => {
                        // Options that do not fit the loop (innerThreads, vecWidth), at the argument.
                        opencl::check(&kernel, &opencl::options(&t.args, &env)?)?;
                    }
                }
            }
        }
        let env = spec.input_env(input);
        crate::measure::skeleton::array_elems(spec, &env)?;
    }
    check_search(spec)?;
    check_build(spec, &inputs)?;
    let mut bindings: Vec<(String, String)> = spec
        .input_vars
        .iter()
        .filter(|v| v.dims.is_empty())
        .filter_map(|v| match &v.init {
            crate::frontend::spec::VarInit::Expr(e) => match &e.kind {
                ExprKind::Name(p) if spec.input_params.iter().any(|ip| &ip.name == p) => {
                    Some((v.name.clone(), p.clone()))
                }
                _ => None,
            },
            _ => None,
        })
        .collect();
    // `int n = N;` before the Loop, and parameters bound by name (`m` to `M`).
    let preamble_bindings: Vec<(String, String)> = kernel
        .preamble
        .iter()
        .filter(|p| spec.input_params.iter().any(|ip| ip.name == p.init.trim()))
        .map(|p| (p.name.clone(), p.init.trim().to_string()))
        .collect();
    for (var, param) in region.raw.size_bindings.iter().chain(&preamble_bindings) {
        if spec.input_params.iter().any(|ip| &ip.name == param)
            && !bindings.iter().any(|(v, _)| v == var)
        {
            bindings.push((var.clone(), param.clone()));
        }
    }
    // An input param with an integer C variable of its own name in scope (Orio's matVec2D:
    // `param M[]` and the function parameter `int M`): that variable holds the size at run
    // time, so the tuned file's dispatch and buffer sizes must read it, not the value tuned
    // (a call at another size would overrun buffers sized for the tuned one).
    for ip in &spec.input_params {
        if bindings.iter().any(|(v, p)| v == &ip.name || p == &ip.name) {
            continue;
        }
        let integer_scalar = region.raw.decls.get(&ip.name).is_some_and(|d| {
            d.depth == 0 && crate::ir::ScalarType::from_c(&d.ty).is_some_and(|t| !t.is_float())
        });
        if integer_scalar {
            bindings.push((ip.name.clone(), ip.name.clone()));
        }
    }
    // A size parameter bound to several variables (`decl int mx = G; decl int my = G;`) leaves
    // array sizes written in terms of it ambiguous in the tuned code.
    for (_, param) in &bindings {
        let vars: Vec<&str> = bindings
            .iter()
            .filter(|(_, p)| p == param)
            .map(|(v, _)| v.as_str())
            .collect();
        if vars.len() < 2 {
            continue;
        }
        if let Some(v) = spec.input_vars.iter().find(|v| dims_use(v, param)) {
            return Err(Diagnostic::new(v.span, format!(
                "the size of `{}` is given in `{param}`, which is bound to several variables ({}); the tuned code cannot tell which one sizes the array",
                v.name,
                vars.join(", ")
            ))
            .with_help("give each size variable its own input parameter (`param MX[] = ...; param MY[] = ...;`)"));
        }
    }
    Ok(Prepared {
        region,
        kernel,
        inputs,
        bindings,
    })
}

/// Whether an array declaration of `input_vars` uses input parameter `param` in its dimensions.
fn dims_use(v: &crate::frontend::spec::VarDecl, param: &str) -> bool {
    v.dims
        .iter()
        .any(|d| d.free_names().iter().any(|(n, _)| n == param))
}

/// Name lookup for one configuration: its params, then the space's fixed bindings (lets, input params).
pub fn env_for<'a>(
    space: &'a SearchSpace,
    cfg: &'a crate::space::Configuration,
) -> impl Fn(&str) -> Option<Value> + 'a {
    move |name: &str| {
        cfg.get(name)
            .cloned()
            .or_else(|| space.fixed.get(name).cloned())
    }
}
