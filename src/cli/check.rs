//! `orcl check`: each region's kernel, search space and feasible configurations per input size,
//! without building anything.

use super::args::{load, CppArgs};
use super::failure::{Failure, EXIT_REFUSED};
use crate::prepare::Prepared;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use orcl_frontend::diag::InputError;
use orcl_frontend::expr::Value;
use orcl_frontend::space::SearchSpace;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Configurations `check` enumerates per input size to count the feasible ones (beyond it the
/// count is a lower bound, "at least N"): about 0.3 s on one core.
const CHECK_ENUMERATION_LIMIT: u64 = 1_000_000;

/// Configurations `check` enumerates over all regions and input sizes together (about 1 s on one
/// core): beyond it the remaining sizes are listed with their feasible configurations not counted.
/// Without it the work was sizes × configurations (10^4 input sizes beside a 50,400-configuration
/// space took over 20 s of CPU: issue 25 G6, found by `make fuzz-long`).
const CHECK_TOTAL_ENUMERATION: u64 = 3_000_000;
/// Expression steps ([`orcl_frontend::expr::steps_evaluated`]) the constraints may take while
/// `check` counts, over the command (about 0.7 s at 33 ns a step): the configuration count alone
/// let a 300-term constraint over 576,000 configurations run for 20 s (issue 25 G6, found by
/// `make fuzz-long`).
const CHECK_TOTAL_STEPS: u64 = 20_000_000;

/// What `check` may still enumerate in this command: configurations and expression steps.
#[derive(Debug, Clone, Copy)]
pub(super) struct CheckLeft {
    configurations: u64,
    steps: orcl_frontend::expr::StepBudget,
}

impl CheckLeft {
    /// The whole budget of one command, from now on.
    pub(super) fn new() -> CheckLeft {
        CheckLeft {
            configurations: CHECK_TOTAL_ENUMERATION,
            steps: orcl_frontend::expr::StepBudget::new(CHECK_TOTAL_STEPS),
        }
    }
}

#[derive(clap::Args, Debug)]
pub(super) struct CheckArgs {
    /// The annotated C file (never modified).
    file: PathBuf,
    /// Largest input file read, in bytes (default 16 MiB); a larger file is an input error.
    #[arg(long, value_name = "BYTES", default_value_t = orcl_frontend::DEFAULT_MAX_INPUT_SIZE)]
    max_input_size: u64,
    #[command(flatten)]
    cpp: CppArgs,
    /// Print JSON (regions, kernel arguments, parameters, configurations per input size,
    /// refused regions with their errors) instead of text; errors still go to stderr.
    #[arg(long)]
    json: bool,
}

/// Exit 0 when every region checks; [`EXIT_REFUSED`] when some are refused (their errors on
/// stderr) and the others check; 2 when all are refused.
pub(super) fn run(a: CheckArgs) -> Result<i32, Failure> {
    let l = load(&a.file, a.max_input_size, &a.cpp)?;
    let (path, text) = (&l.path, &l.src.text);
    // Arrays `tune` would refuse for the host's memory are refused here too (issue 25 G13).
    for p in &l.prepared {
        for input in &p.inputs {
            crate::prepare::check_host_memory(p, input).map_err(|d| {
                Failure::Input(l.src.remap(orcl_frontend::diag::InputError {
                    path: path.clone(),
                    source: text.clone(),
                    diagnostics: vec![d],
                }))
            })?;
        }
    }
    if a.json {
        let mut doc = super::json::check(path, text, &l.prepared);
        doc["refused"] = super::json::refused(&l.refused);
        orcl_frontend::outln!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    }
    let mut left = CheckLeft::new();
    for p in l.prepared.iter().filter(|_| !a.json) {
        print_kernel(p, path, text);
        print_space(p, text);
        // Every command the file would make `orcl tune` run (issue 25 G9).
        orcl_frontend::outln!("  commands `orcl tune` runs (each printed before its first run):");
        for (which, cmd) in orcl_measure::skeleton::commands::listing(&p.region.spec) {
            orcl_frontend::outln!(
                "    {which}: {}",
                orcl_frontend::diag::escape_controls(&cmd)
            );
        }
        let base = SearchSpace::unbound(&p.region.spec);
        for input in &p.inputs {
            let space = base.at_input(&p.region.spec, input);
            print_input(p, (input, &space), (path, text), &mut left).map_err(|f| match f {
                Failure::Input(e) => Failure::Input(l.src.remap(e)),
                f => f,
            })?;
        }
    }
    l.report_refused();
    Ok(if l.refused.is_empty() {
        0
    } else {
        EXIT_REFUSED
    })
}

/// The region's place and transforms, its kernel arguments, parallel loop and outputs.
fn print_kernel(p: &Prepared, path: &str, text: &str) {
    let raw = &p.region.raw;
    let (line, col) = orcl_frontend::diag::line_col(text, raw.span.start);
    orcl_frontend::outln!(
        "{path}:{line}:{col}: region {} in {}(): transform {}",
        p.region.index,
        raw.function
            .as_ref()
            .map(|f| f.name.as_str())
            .unwrap_or("?"),
        raw.loop_ann
            .transforms
            .iter()
            .map(|t| t.backend.as_str())
            .collect::<Vec<_>>()
            .join(" + ")
    );
    let args: Vec<String> = p
        .kernel
        .args
        .iter()
        .map(|a| {
            format!(
                "{}{} {}{}",
                if a.is_array && !a.written {
                    "const "
                } else {
                    ""
                },
                a.ty.c_name(),
                if a.is_array { "*" } else { "" },
                a.name
            )
        })
        .collect();
    orcl_frontend::outln!("  kernel arguments: {}", args.join(", "));
    let l = &p.kernel.parallel;
    let what = match &p.kernel.steps {
        Some(s) if l.var == orcl_frontend::lower::SEQUENCE_VAR => format!(
            "a sequence of {} nests, one kernel each (parallel loops {})",
            s.kernels.len(),
            s.kernels
                .iter()
                .map(|k| format!("`{}`", k.parallel.var))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Some(s) => format!(
            "time loop: `{}` (step {}) on the host, {} kernel(s) per step (parallel loops {})",
            l.var,
            l.step,
            s.kernels.len(),
            s.kernels
                .iter()
                .map(|k| format!("`{}`", k.parallel.var))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => format!("parallel loop: `{}` (step {})", l.var, l.step),
    };
    orcl_frontend::outln!(
        "  {what}, outputs: {}",
        p.kernel
            .args
            .iter()
            .filter(|a| a.written)
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
}

/// The tuning parameters (a table) and the constraints as written.
fn print_space(p: &Prepared, text: &str) {
    let spec = &p.region.spec;
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec!["parameter", "values", "count"]);
    for prm in &spec.performance_params {
        t.add_row(vec![
            prm.name.clone(),
            values_cell(&prm.values),
            prm.values.len().to_string(),
        ]);
    }
    orcl_frontend::outln!("{t}");
    for c in &spec.constraints {
        orcl_frontend::outln!(
            "  constraint {} = {}",
            c.name,
            text.get(c.expr.span.start..c.expr.span.end)
                .unwrap_or("?")
                .trim()
        );
    }
}

/// The feasible configurations of `space` as `(count, exact)`, enumerating at most
/// [`CHECK_ENUMERATION_LIMIT`] and no more than `left`, the command's remaining configurations
/// and expression steps, which this decreases; `None` when the budget is spent (nothing
/// counted). Errors: a constraint that fails to evaluate.
pub(super) fn count_within(
    space: &SearchSpace,
    left: &mut CheckLeft,
) -> Result<Option<(u64, bool)>, orcl_frontend::diag::Diagnostic> {
    let limit = CHECK_ENUMERATION_LIMIT.min(left.configurations);
    if limit == 0 || left.steps.spent() {
        return Ok(None);
    }
    left.configurations -= space.size().min(limit);
    space.count_feasible(limit, &mut left.steps).map(Some)
}

/// One input size: the configurations and how many satisfy the constraints ([`count_within`]
/// the command's remaining budget `left`); a warning when none of those enumerated does.
fn print_input(
    p: &Prepared,
    (input, space): (&BTreeMap<String, Value>, &SearchSpace),
    (path, text): (&str, &str),
    left: &mut CheckLeft,
) -> Result<(), Failure> {
    let spec = &p.region.spec;
    let sizes: Vec<String> = input.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let sizes = if sizes.is_empty() {
        "(none)".to_string()
    } else {
        sizes.join(" ")
    };
    let limit = CHECK_ENUMERATION_LIMIT.min(left.configurations);
    let counted = count_within(space, left).map_err(|d| {
        Failure::Input(InputError {
            path: path.to_string(),
            source: text.to_string(),
            diagnostics: vec![d],
        })
    })?;
    let Some((n, exact)) = counted else {
        orcl_frontend::outln!(
            "  input {sizes}: {} configurations, feasible ones not counted (`check` enumerates at most {CHECK_TOTAL_ENUMERATION} configurations and {CHECK_TOTAL_STEPS} constraint steps per command)",
            space.size()
        );
        return Ok(());
    };
    orcl_frontend::outln!(
        "  input {sizes}: {} configurations, {}{} satisfy the constraints",
        space.size(),
        if exact { "" } else { "at least " },
        n
    );
    if n == 0 && !exact {
        // Too large to prove either way (`prepare` enumerates spaces of up to
        // FEASIBILITY_LIMIT and rejects the unsatisfiable ones): warn, since a tune
        // would stop after --max-idle proposals with nothing to measure.
        let span = spec
            .constraints
            .first()
            .map(|c| c.span)
            .unwrap_or(spec.span);
        orcl_frontend::errln!(
            "{}",
            orcl_frontend::diag::render_warning(
                path,
                text,
                &orcl_frontend::diag::Diagnostic::new(
                    span,
                    format!(
                        "none of the configurations enumerated (at most {limit}, within the command's budget) of the {} satisfies the constraints; `orcl tune` stops with \"no feasible configuration found\" after {} proposals in a row that measure nothing (--max-idle)",
                        space.size(),
                        crate::tune::MAX_IDLE_PROPOSALS
                    )
                )
                .with_help("relax the constraints or widen the parameter values")
            )
        );
    }
    Ok(())
}

/// A parameter's values for the `check` table: all of them when short, else the first and the
/// last few around `...` (the table lays out every cell character by character, quadratic in
/// its length: a parameter of 10^6 values took over a minute).
fn values_cell(values: &[Value]) -> String {
    const SHOWN: usize = 12;
    const MAX_CHARS: usize = 160;
    let all = || values.iter().map(|v| v.to_string()).collect::<Vec<_>>();
    if values.len() <= SHOWN {
        let s = all().join(", ");
        if s.chars().count() <= MAX_CHARS {
            return s;
        }
    }
    let short = |v: &Value| -> String {
        let s = v.to_string();
        if s.chars().count() > 24 {
            format!("{}...", s.chars().take(21).collect::<String>())
        } else {
            s
        }
    };
    let head: Vec<String> = values.iter().take(SHOWN - 2).map(short).collect();
    let tail: Vec<String> = values
        .iter()
        .skip(SHOWN - 2)
        .rev()
        .take(2)
        .rev()
        .map(short)
        .collect();
    if values.len() <= SHOWN {
        format!("{}, {}", head.join(", "), tail.join(", "))
    } else {
        format!("{}, ..., {}", head.join(", "), tail.join(", "))
    }
}
