//! Between parsing and tuning: lowers each region's loop, checks its transform arguments and
//! input sizes, and proves the search space is not empty. Shared by `check`, `emit` and `tune`.

use crate::codegen::opencl;
use crate::diag::{did_you_mean, Diagnostic, InputError};
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

/// Largest space that `prepare` enumerates to prove it has a feasible configuration.
const FEASIBILITY_LIMIT: u64 = 2_000_000;

/// Parse and validate every region of `text` (the contents of `path`).
pub fn prepare(path: &str, text: &str) -> Result<Vec<Prepared>, InputError> {
    let err = |diagnostics: Vec<Diagnostic>| InputError { path: path.to_string(), source: text.to_string(), diagnostics };
    let regions = frontend::parse(text).map_err(err)?;
    if regions.is_empty() {
        return Err(err(vec![Diagnostic::new(crate::diag::Span::default(), "no `/*@ begin PerfTuning ( ... ) @*/` region found")
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
        Ok(out)
    } else {
        Err(err(diags))
    }
}

fn prepare_region(region: Region, text: &str) -> Result<Prepared, Diagnostic> {
    let spec = &region.spec;
    let ann = &region.raw.loop_ann;
    if ann.backend != "OpenCL" {
        return Err(Diagnostic::new(ann.backend_span, format!("the `{}` transform is not available yet", ann.backend))
            .with_help("use `transform OpenCL(...)`"));
    }
    opencl::check_args(&ann.args)?;
    let mut names: Vec<&str> = spec.performance_params.iter().map(|p| p.name.as_str()).collect();
    names.extend(spec.input_params.iter().map(|p| p.name.as_str()));
    names.extend(spec.lets.iter().map(|l| l.name.as_str()));
    for a in &ann.args {
        for (n, span) in a.expr.free_names() {
            if !names.contains(&n.as_str()) {
                let d = Diagnostic::new(span, format!("`{n}` is not a tuning parameter, input parameter or `let`"));
                return Err(match did_you_mean(&n, names.iter().copied()) {
                    Some(h) => d.with_help(h),
                    None => d.with_help(format!("declare it in `performance_params`: `param {n}[] = [...];`")),
                });
            }
        }
    }
    let kernel = crate::lower::lower(&region.raw, spec, text)?;
    let inputs = input_combinations(spec)?;
    if inputs.is_empty() {
        let span = spec.input_constraints.first().map(|c| c.span).unwrap_or(spec.span);
        return Err(Diagnostic::new(span, "no input size satisfies the input constraints"));
    }
    for input in &inputs {
        let space = SearchSpace::new(spec, input);
        if space.size() <= FEASIBILITY_LIMIT {
            let (n, _) = space.count_feasible(FEASIBILITY_LIMIT)?;
            if n == 0 {
                let span = spec.constraints.first().map(|c| c.span).unwrap_or(spec.span);
                return Err(Diagnostic::new(span, format!("no configuration satisfies the constraints ({} configurations, all rejected)", space.size()))
                    .with_help("relax the constraints or widen the parameter values"));
            }
        }
        // Evaluate the transform once, to report type errors before any build.
        let cfg = space.config_at(0);
        let env = env_for(&space, &cfg);
        opencl::options(&ann.args, &env)?;
    }
    let mut bindings: Vec<(String, String)> = spec
        .input_vars
        .iter()
        .filter(|v| v.dims.is_empty())
        .filter_map(|v| match &v.init {
            crate::frontend::spec::VarInit::Expr(e) => match &e.kind {
                ExprKind::Name(p) if spec.input_params.iter().any(|ip| &ip.name == p) => Some((v.name.clone(), p.clone())),
                _ => None,
            },
            _ => None,
        })
        .collect();
    for (var, param) in &region.raw.size_bindings {
        if spec.input_params.iter().any(|ip| &ip.name == param) && !bindings.iter().any(|(v, _)| v == var) {
            bindings.push((var.clone(), param.clone()));
        }
    }
    Ok(Prepared { region, kernel, inputs, bindings })
}

/// Name lookup for one configuration: its params, then the space's fixed bindings (lets, input params).
pub fn env_for<'a>(space: &'a SearchSpace, cfg: &'a crate::space::Configuration) -> impl Fn(&str) -> Option<Value> + 'a {
    move |name: &str| cfg.get(name).cloned().or_else(|| space.fixed.get(name).cloned())
}
