//! Between parsing and tuning: lowers each region's loop, checks its transform arguments and
//! input sizes, and proves the search space is not empty. Shared by `check`, `emit` and `tune`.

use orcl_codegen::args::TransformArgs;
use orcl_codegen::Backend;
use orcl_frontend::diag::{did_you_mean, Diagnostic, InputError};
use orcl_frontend::expr::{ExprKind, Value};
use orcl_frontend::expr::{KeywordArg, StepBudget};
use orcl_frontend::ir::Kernel;
use orcl_frontend::macros::Source;
use orcl_frontend::space::{input_combinations, SearchSpace};
use orcl_frontend::{self as frontend, Region};

pub mod cpp;
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
    /// The annotation's transforms, parsed, in the order written.
    pub transforms: Vec<TransformArgs>,
}

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

    /// The transformation arguments for `backend`, parsed: those of the annotation's own
    /// `transform` for it, or else those of the other backend's transform that have a
    /// counterpart ([`TransformArgs::carried_to`]: workGroups ↔ blockCount, workItemsPerGroup ↔
    /// threadCount, sizeHint ↔ launchBounds, cacheBlocks, unrollInner, innerThreads,
    /// incrementType, device, tile, regTile, padLocal, doubleBuffer, vecLoad, loadItems,
    /// warpTile; and vecWidth when the transform has `tile`, where it is a matrix product's
    /// vector width on both backends), so that one annotation can be tuned for both targets.
    /// Backend-specific arguments (clFlags, vecHint, a 1-D loop's vecWidth, platform;
    /// cudaFlags, streamCount, preferL1Size) are not carried over.
    pub fn transform(&self, backend: Backend) -> TransformArgs {
        let ann = &self.region.raw.loop_ann;
        if let Some(i) = ann
            .transforms
            .iter()
            .position(|t| t.backend == backend.transform())
        {
            return self.transforms[i].clone();
        }
        match self.transforms.first() {
            Some(other) => other.carried_to(backend),
            None => TransformArgs::parse(backend, &[]).expect("no arguments"),
        }
    }

    /// The transformation arguments for `backend` as written (see [`Prepared::transform`]).
    pub fn transform_args(&self, backend: Backend) -> Vec<KeywordArg> {
        self.transform(backend).keyword_args()
    }
}

/// Largest space that `prepare` enumerates to prove it has a feasible configuration.
pub const FEASIBILITY_LIMIT: u64 = 20_000_000;
/// How many configurations `prepare` evaluates the transform arguments of, per input size.
const OPTIONS_CHECK_LIMIT: u64 = 100_000;

/// What `prepare` enumerates over all input sizes together (about 1 s of transform arguments;
/// the feasibility proof stops at the first feasible configuration of each size): without it the
/// work was sizes × configurations — 10^4 input sizes beside a 50,400-configuration space took
/// minutes (issue 25 G6, found by `make fuzz-long`). Sizes past it are checked when tuned.
#[derive(Debug, Clone, Copy)]
struct CheckBudget {
    /// Configurations left to enumerate for the feasibility proof.
    feasibility: u64,
    /// Configurations left whose transform arguments are evaluated.
    options: u64,
    /// The steps the constraints, the configurations built and the transform arguments may
    /// still take, for both: 3·10^7, about 1 s — enough to prove a 2·10^6-configuration space
    /// unsatisfiable (`unsatisfiable_constraint_large_space`); with `check`'s 2·10^7, about
    /// 1.7 s beside the parse of a 16 MiB file, up to 2 s: the 5 s goal of issue 25 G6. A 300-term constraint over 8,000 sizes × 72
    /// configurations took 20 s within the configuration counts (issue 25 G6, `make fuzz-long`).
    steps: StepBudget,
}

impl CheckBudget {
    fn new() -> CheckBudget {
        CheckBudget {
            feasibility: FEASIBILITY_LIMIT,
            options: 10 * OPTIONS_CHECK_LIMIT,
            steps: StepBudget::new(30_000_000),
        }
    }
}

/// The search algorithm and its options are known (located at the `algorithm` arg).
fn check_search(spec: &orcl_frontend::spec::TuningSpec) -> Result<(), Diagnostic> {
    let algorithm = spec
        .search
        .algorithm
        .as_ref()
        .map(|a| a.value.as_str())
        .unwrap_or("Exhaustive");
    orcl_search::make_strategy(algorithm, &spec.search.options, 0)
        .map(|_| ())
        .map_err(|d| locate_search_error(spec, d))
}

/// A search error without a location (unknown algorithm) located at the spec's `algorithm` arg,
/// or at the whole spec when it has none.
pub fn locate_search_error(
    spec: &orcl_frontend::spec::TuningSpec,
    mut d: Diagnostic,
) -> Diagnostic {
    if d.span == orcl_frontend::diag::Span::default() {
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
    spec: &orcl_frontend::spec::TuningSpec,
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
            orcl_measure::skeleton::substitute(&c.value, &env).map_err(|name| {
                let names: Vec<&str> = space
                    .params
                    .iter()
                    .map(|p| &*p.name)
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

/// A file's regions after [`prepare`]: those ready to tune, and those refused.
#[derive(Debug, Clone)]
pub struct PreparedFile {
    /// The regions ready to tune, in file order.
    pub regions: Vec<Prepared>,
    /// The refused regions, in file order: (0-based region index, its located errors about
    /// the file as written).
    pub refused: Vec<(usize, InputError)>,
}

/// Parse and validate every region of `src` (the contents of `path`, macros expanded), each on
/// its own: a region with an error is refused and the others go on. Errors: the annotations
/// cannot be paired, the file has no region, or every region is refused (all their
/// diagnostics, in one error).
pub fn prepare(path: &str, src: &Source) -> Result<PreparedFile, InputError> {
    prepare_found(path, src, None)
}

/// [`prepare`], given the regions [`cpp::preprocess_found`] already found on `src.text`
/// (`None`: find them here).
pub fn prepare_found(
    path: &str,
    src: &Source,
    found: Option<cpp::Found>,
) -> Result<PreparedFile, InputError> {
    let text = src.text.as_str();
    let err = |diagnostics: Vec<Diagnostic>| {
        src.remap(InputError {
            path: path.to_string(),
            source: text.to_string(),
            diagnostics,
        })
    };
    let found = found.unwrap_or_else(|| frontend::annotation::find_regions(text));
    let regions = frontend::region::parse_each_found(found).map_err(err)?;
    if regions.is_empty() {
        return Err(err(vec![Diagnostic::new(
            orcl_frontend::diag::Span::default(),
            "no `/*@ begin PerfTuning ( ... ) @*/` region found",
        )
        .with_help("annotate the loop to tune as in examples/axpy_quick.c")]));
    }
    let mut out = PreparedFile {
        regions: Vec::new(),
        refused: Vec::new(),
    };
    for region in regions {
        match region.and_then(|r| {
            let index = r.index;
            prepare_region(r, text).map_err(|d| (index, vec![d]))
        }) {
            Ok(p) => out.regions.push(p),
            Err((index, d)) => out.refused.push((index, err(d))),
        }
    }
    if out.regions.is_empty() {
        let all = out
            .refused
            .into_iter()
            .flat_map(|(_, e)| e.diagnostics)
            .collect();
        let mut e = err(Vec::new());
        e.diagnostics = all;
        return Err(e);
    }
    for w in out.regions.iter().flat_map(|p| {
        crate::compat::warnings(&p.region)
            .into_iter()
            .chain(orcl_frontend::preamble::warnings(&p.kernel))
    }) {
        let w = src.diagnostic(w);
        eprintln!(
            "{}",
            orcl_frontend::diag::render_warning(path, &src.original, &w)
        );
    }
    Ok(out)
}

fn prepare_region(region: Region, text: &str) -> Result<Prepared, Diagnostic> {
    let spec = &region.spec;
    let ann = &region.raw.loop_ann;
    let transforms = ann
        .transforms
        .iter()
        .map(|t| {
            let backend = match t.backend.as_str() {
                "CUDA" => Backend::Cuda,
                _ => Backend::OpenCl,
            };
            TransformArgs::parse(backend, &t.args)
        })
        .collect::<Result<Vec<_>, _>>()?;
    check_free_names(spec, ann)?;
    let kernel = orcl_frontend::lower::lower(&region.raw, spec, text)?;
    let inputs = input_combinations(spec)?;
    check_input_var_ranges(spec, &inputs)?;
    orcl_frontend::bounds::check(&kernel, spec, &inputs)?;
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
    let mut budget = CheckBudget::new();
    let base = SearchSpace::unbound(spec);
    for input in &inputs {
        let space = base.at_input(spec, input);
        check_input(spec, &kernel, &transforms, (input, &space), &mut budget)?;
    }
    check_search(spec)?;
    check_build(spec, &inputs)?;
    check_opencl_names(&region, &kernel, &transforms)?;
    let bindings = size_bindings(&region, &kernel)?;
    check_binding_ranges(&region, &kernel, &inputs, &bindings)?;
    Ok(Prepared {
        region,
        kernel,
        inputs,
        bindings,
        transforms,
    })
}

/// OpenCL C reserved words that are not C's (OpenCL 1.2 §6.1, §6.5, §6.7): a kernel argument
/// cannot be named so.
fn opencl_reserved(name: &str) -> bool {
    const WORDS: &[&str] = &[
        "global",
        "local",
        "constant",
        "private",
        "kernel",
        "half",
        "bool",
        "uchar",
        "ushort",
        "uint",
        "ulong",
        "read_only",
        "write_only",
        "read_write",
        "image2d_t",
        "image3d_t",
        "sampler_t",
        "event_t",
        "size_t",
        "ptrdiff_t",
        "intptr_t",
        "uintptr_t",
    ];
    let vector = [
        "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double",
        "half",
    ]
    .iter()
    .any(|t| {
        name.strip_prefix(t)
            .is_some_and(|n| ["2", "3", "4", "8", "16"].contains(&n))
    });
    vector || WORDS.contains(&name)
}

/// An OpenCL kernel's arguments are the loop's variables under their own names: one named like
/// an OpenCL C keyword or type (`half`, `global`, `float4`) is refused here, located at its C
/// declaration, rather than failing every variant's build.
fn check_opencl_names(
    region: &Region,
    kernel: &Kernel,
    transforms: &[TransformArgs],
) -> Result<(), Diagnostic> {
    if transforms.iter().all(|t| t.backend != Backend::OpenCl) {
        return Ok(());
    }
    let Some(a) = kernel.args.iter().find(|a| opencl_reserved(&a.name)) else {
        return Ok(());
    };
    let span = region
        .raw
        .decls
        .get(&a.name)
        .map(|d| d.span)
        .unwrap_or(region.raw.loop_ann.code_span);
    Err(Diagnostic::new(
        span,
        format!("`{}` is a keyword or type of OpenCL C: the OpenCL kernel cannot take an argument of that name", a.name),
    )
    .with_help(format!("rename `{}` in the function and the loop (orcl does not rename variables of the loop yet)", a.name)))
}

/// Every name the transform arguments use is a tuning parameter, an input parameter or a `let`
/// (located at the name, with a did-you-mean).
fn check_free_names(
    spec: &orcl_frontend::spec::TuningSpec,
    ann: &orcl_frontend::annotation::LoopAnnotation,
) -> Result<(), Diagnostic> {
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
    Ok(())
}

/// At input size `input` (whose search space is `space`): some configuration satisfies the constraints (when the space is
/// small enough to enumerate within `budget`), the transform arguments of every configuration
/// (up to a limit per size and `budget` over the sizes) bind and fit the loop, and the input
/// arrays can be sized.
fn check_input(
    spec: &orcl_frontend::spec::TuningSpec,
    kernel: &Kernel,
    transforms: &[TransformArgs],
    (input, space): (&BTreeMap<String, Value>, &SearchSpace),
    budget: &mut CheckBudget,
) -> Result<(), Diagnostic> {
    if space.size() <= budget.feasibility && !budget.steps.spent() {
        // Unproven when the steps run out first: this size is checked when it is tuned.
        let mut feasible_or_unknown = false;
        for index in 0..space.size() {
            budget.feasibility -= 1;
            if budget.steps.spent() || space.check(&space.config_at(index))?.is_none() {
                feasible_or_unknown = true;
                break;
            }
        }
        if !feasible_or_unknown {
            let span = spec
                .constraints
                .first()
                .map(|c| c.span)
                .unwrap_or(spec.span);
            return Err(Diagnostic::new(
                span,
                format!(
                    "no configuration satisfies the constraints ({} configurations, all rejected)",
                    space.size()
                ),
            )
            .with_help("relax the constraints or widen the parameter values"));
        }
    }
    // Evaluate the transform for every configuration (up to a limit), to report a value of the
    // wrong type before anything is built.
    let options = space.size().min(OPTIONS_CHECK_LIMIT).min(budget.options);
    budget.options -= options;
    for index in 0..options {
        if budget.steps.spent() {
            break;
        }
        let cfg = space.config_at(index);
        if space.check(&cfg)?.is_some() {
            continue;
        }
        let env = env_for(space, &cfg);
        for t in transforms {
            // Options that do not fit the loop (innerThreads, vecWidth, tile), at the argument;
            // a time loop's arguments apply to each kernel of its step.
            let o = t.bind(&env)?;
            let all = kernel.kernels();
            for k in &all {
                let o = orcl_codegen::schedule::for_step(&all, k, &o);
                orcl_codegen::schedule::check_options(k, &o).map_err(|mut d| {
                    if kernel.steps.is_some() {
                        let nest = k.source.lines().next().unwrap_or("").trim();
                        d.message = format!("{}, in the time loop's nest `{nest}`", d.message);
                    }
                    d
                })?;
            }
        }
    }
    let env = spec.input_env(input);
    orcl_frontend::inputs::array_elems(spec, &env)?;
    Ok(())
}

/// The C variables bound to input parameters (`decl int n = N;`, a preamble `int n = N;`,
/// parameters bound by name, a function parameter of the input parameter's name), as
/// (variable, param).
///
/// Errors: a size parameter bound to several variables while an array's size is written in it.
fn size_bindings(region: &Region, kernel: &Kernel) -> Result<Vec<(String, String)>, Diagnostic> {
    let spec = &region.spec;
    let mut bindings: Vec<(String, String)> = spec
        .input_vars
        .iter()
        .filter(|v| v.dims.is_empty() && integer_c_type(&v.ty))
        .filter_map(|v| match &v.init {
            orcl_frontend::spec::VarInit::Expr(e) => match &e.kind {
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
        .filter(|p| !p.ty.is_float() && spec.input_params.iter().any(|ip| ip.name == p.init.trim()))
        .map(|p| (p.name.clone(), p.init.trim().to_string()))
        .collect();
    // Only integer variables size arrays: `double float_n = N;` (PolyBench's covariance) is a
    // value computed from the size, not a second name for it.
    let float_preamble = |var: &str| {
        region
            .raw
            .preamble
            .iter()
            .any(|d| d.name == var && !integer_c_type(&d.ty))
    };
    for (var, param) in region.raw.size_bindings.iter().chain(&preamble_bindings) {
        if float_preamble(var) {
            continue;
        }
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
            d.depth == 0
                && orcl_frontend::ir::ScalarType::from_c(&d.ty).is_some_and(|t| !t.is_float())
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
    Ok(bindings)
}

/// Whether the C type as written (`int`, `const long`, `double`) is an integer type: only
/// integer variables bind input sizes.
fn integer_c_type(ty: &str) -> bool {
    !ty.split_whitespace()
        .any(|w| matches!(w, "float" | "double"))
}

/// The values a C integer type holds, as `(min, max)`, by its name as written (`const` and
/// `signed` ignored); `None` for a type this check does not know (floating types included).
/// LP64: `long` is 64-bit.
fn c_int_range(ty: &str) -> Option<(i128, i128)> {
    let words: Vec<&str> = ty
        .split_whitespace()
        .filter(|w| !matches!(*w, "const" | "signed" | "volatile" | "register" | "static"))
        .collect();
    let unsigned = words.contains(&"unsigned");
    let rest: Vec<&str> = words.into_iter().filter(|w| *w != "unsigned").collect();
    let bits = match rest.as_slice() {
        [] | ["int"] => 32,
        ["short"] | ["short", "int"] => 16,
        ["char"] => 8,
        ["long"] | ["long", "int"] | ["long", "long"] | ["long", "long", "int"] => 64,
        ["size_t"] | ["uint64_t"] => return Some((0, u64::MAX as i128)),
        ["ptrdiff_t"] | ["ssize_t"] | ["int64_t"] => 64,
        ["int32_t"] => 32,
        ["uint32_t"] => return Some((0, u32::MAX as i128)),
        _ => return None,
    };
    Some(if unsigned {
        (0, (1i128 << bits) - 1)
    } else {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    })
}

/// Why `x` does not fit the C type `ty` (a name as written), or `None` when it fits exactly
/// (issue 15 F10: a value the type cannot hold used to be truncated by the cast in the timing
/// skeleton, so the loop was tuned at another size than the one reported).
fn out_of_range(ty: &str, x: &Value) -> Option<String> {
    let f = x.as_f64()?;
    match ty
        .split_whitespace()
        .filter(|w| *w != "const")
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["double"] => return (!f.is_finite()).then(|| "is not a finite number".to_string()),
        ["float"] => {
            return (!f.is_finite() || f.abs() > f32::MAX as f64)
                .then(|| format!("is outside the range of `float` (±{:e})", f32::MAX))
        }
        _ => {}
    }
    let (lo, hi) = c_int_range(ty)?;
    let v: i128 = match x {
        Value::Int(i) => *i as i128,
        Value::Float(f) if f.fract() != 0.0 || !f.is_finite() => {
            return Some(format!("is not an integer, and `{ty}` would truncate it"))
        }
        Value::Float(f) if f.abs() < 1.7e38 => *f as i128,
        _ => return Some(format!("is outside the range of `{ty}` ({lo} to {hi})")),
    };
    (v < lo || v > hi).then(|| format!("is outside the range of `{ty}` ({lo} to {hi})"))
}

/// `N=1000 M=20`: an input size, for messages.
fn input_label(input: &BTreeMap<String, Value>) -> String {
    input
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One validation of an input size for `check`, `emit` and `tune` (issue 25 G13): every
/// `input_vars` initialiser and every C variable bound to an input parameter holds its value,
/// every loop variable holds its bounds, and the arrays' host copies fit the host's available
/// memory ([`check_host_memory`]; `tune` also checks the device). `prepare` applies the first
/// three to the spec's sizes; `emit --size` gives a size of its own. Errors: a located
/// diagnostic.
pub fn check_input_size(p: &Prepared, input: &BTreeMap<String, Value>) -> Result<(), Diagnostic> {
    let spec = &p.region.spec;
    let inputs = [input.clone()];
    check_input_var_ranges(spec, &inputs)?;
    orcl_frontend::bounds::check(&p.kernel, spec, &inputs)?;
    check_binding_ranges(&p.region, &p.kernel, &inputs, &p.bindings)?;
    check_host_memory(p, input)
}

/// The arrays of input size `input` (three host copies each: inputs, initial values, reference
/// run) fit the host's available memory (`MemAvailable`); otherwise a diagnostic at the largest
/// array with the figures. `check` and `emit` apply it without a device; `tune` applies it with
/// the device's limits (`tune::pipeline::check_memory`).
pub fn check_host_memory(p: &Prepared, input: &BTreeMap<String, Value>) -> Result<(), Diagnostic> {
    use orcl_frontend::inputs::human_bytes as h;
    let need = orcl_frontend::inputs::memory_need(&p.kernel, &p.region.spec, input, false)?;
    let Some((name, largest, span)) = need.largest else {
        return Ok(());
    };
    match orcl_frontend::inputs::host_available_bytes() {
        Some(avail) if need.host_bytes > avail => Err(Diagnostic::new(
            span,
            format!(
                "at input size {} the arrays do not fit in this host's memory: the host copies (3 per array) need {} but the host has {} available (`{name}` alone is {})",
                input_label(input),
                h(need.host_bytes),
                h(avail),
                h(largest)
            ),
        )
        .with_help("tune at smaller input sizes (leave this one out of the input params, or choose others with --size)")),
        _ => Ok(()),
    }
}

/// Every scalar and array-element initialiser of `input_vars`, at every input size, fits the C
/// type it initialises (located at the initialiser).
fn check_input_var_ranges(
    spec: &orcl_frontend::spec::TuningSpec,
    inputs: &[BTreeMap<String, Value>],
) -> Result<(), Diagnostic> {
    use orcl_frontend::spec::VarInit;
    for input in inputs {
        let env = spec.input_env(input);
        for v in &spec.input_vars {
            let exprs: Vec<&orcl_frontend::expr::Expr> = match &v.init {
                VarInit::Expr(e) => vec![e],
                VarInit::List(items, _) => items.iter().collect(),
                VarInit::Random => vec![],
            };
            for e in exprs {
                // Evaluation errors are reported, located, where the skeleton is rendered.
                let Ok(x) = e.eval(&env) else { continue };
                if let Some(why) = out_of_range(&v.ty, &x) {
                    return Err(Diagnostic::new(
                        e.span,
                        format!(
                            "`{}` is declared `{}`, but its value {x} at input size {} {why}",
                            v.name,
                            v.ty,
                            input_label(input)
                        ),
                    )
                    .with_help(format!(
                        "declare `{}` with a type that holds {x} (e.g. `long`), or leave that value out of the input params",
                        v.name
                    )));
                }
            }
        }
    }
    Ok(())
}

/// C variables bound to an input parameter (a preamble `int n = N;`, Orio's `int n=N;` inside
/// the region, a function parameter `int N`) can hold each of its values: the tuned file reads
/// the size from them at run time (located at the parameter's values).
fn check_binding_ranges(
    region: &Region,
    kernel: &Kernel,
    inputs: &[BTreeMap<String, Value>],
    bindings: &[(String, String)],
) -> Result<(), Diagnostic> {
    let spec = &region.spec;
    for (var, param) in bindings {
        if spec.input_vars.iter().any(|v| &v.name == var) {
            continue; // checked with its initialiser
        }
        let ty = match kernel.preamble.iter().find(|p| &p.name == var) {
            Some(p) => p.ty.c_name().to_string(),
            None => match region.raw.decls.get(var) {
                Some(d) if d.depth == 0 => d.ty.clone(),
                _ => continue,
            },
        };
        let Some(decl) = spec.input_params.iter().find(|p| &p.name == param) else {
            continue;
        };
        for input in inputs {
            let Some(x) = input.get(param) else { continue };
            if let Some(why) = out_of_range(&ty, x) {
                return Err(Diagnostic::new(
                    decl.values_span,
                    format!(
                        "`{var}` is declared `{ty}` in the C code and takes the value of `{param}`, but {param} = {x} {why}"
                    ),
                )
                .with_help(format!("declare `{var}` with a wider type (e.g. `long`), or leave {x} out of `param {param}[]`")));
            }
        }
    }
    Ok(())
}

/// Whether an array declaration of `input_vars` uses input parameter `param` in its dimensions.
fn dims_use(v: &orcl_frontend::spec::VarDecl, param: &str) -> bool {
    v.dims
        .iter()
        .any(|d| d.free_names().iter().any(|(n, _)| n == param))
}

/// Name lookup for one configuration: its params, then the space's fixed bindings (lets, input params).
pub fn env_for<'a>(
    space: &'a SearchSpace,
    cfg: &'a orcl_frontend::space::Configuration,
) -> impl Fn(&str) -> Option<Value> + 'a {
    move |name: &str| {
        cfg.get(name)
            .cloned()
            .or_else(|| space.fixed.get(name).cloned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_types_hold_their_ranges() {
        assert_eq!(c_int_range("int"), Some((-(1 << 31), (1 << 31) - 1)));
        assert_eq!(c_int_range("const unsigned int"), Some((0, (1 << 32) - 1)));
        assert_eq!(
            c_int_range("long int"),
            Some((i64::MIN as i128, i64::MAX as i128))
        );
        assert_eq!(c_int_range("size_t"), Some((0, u64::MAX as i128)));
        assert_eq!(c_int_range("double"), None);
        assert_eq!(out_of_range("int", &Value::Int(2147483647)), None);
        assert!(out_of_range("int", &Value::Int(2147483648)).is_some());
        assert!(out_of_range("int", &Value::Int(-2147483649)).is_some());
        assert!(out_of_range("unsigned", &Value::Int(-1)).is_some());
        assert_eq!(out_of_range("long", &Value::Int(4294968296)), None);
        assert!(out_of_range("int", &Value::Float(2.5))
            .unwrap()
            .contains("not an integer"));
        assert_eq!(out_of_range("int", &Value::Float(1e6)), None);
        assert!(out_of_range("long", &Value::Float(1e30)).is_some());
        assert!(out_of_range("float", &Value::Float(1e39)).is_some());
        assert_eq!(out_of_range("float", &Value::Float(1e38)), None);
        assert_eq!(out_of_range("double", &Value::Float(1e300)), None);
        assert_eq!(out_of_range("int", &Value::Str("x".into())), None);
    }
}
