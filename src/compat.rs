//! Orio compatibility warnings: one line for each setting of an Orio spec or transform that orcl accepts but runs differently (issue 11, classes 5–7).

use orcl_codegen::args::Arg;
use orcl_codegen::Backend;
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::expr::{ExprKind, Value};
use orcl_frontend::Region;
use orcl_measure::skeleton;
use orcl_search::options;

/// The warnings for `region`: settings accepted for Orio's files that orcl runs
/// differently or ignores, each with what orcl does instead. Each is rendered as one line by
/// [`orcl_frontend::diag::render_warning`].
pub fn warnings(region: &Region) -> Vec<Diagnostic> {
    let spec = &region.spec;
    let mut out = Vec::new();
    if let Some(d) = skeleton::site_warning(spec) {
        out.push(d);
    }
    for a in &spec.build.orio_batch {
        out.push(Diagnostic::new(
            a.span,
            format!(
                "`{}` is not used: orcl measures on a cluster through Slurm, with `orcl tune --slurm` run inside the job (README, \"Clusters (Slurm)\")",
                a.value
            ),
        ));
    }
    for t in &region.raw.loop_ann.transforms {
        let Some(backend) = Backend::parse(&t.backend) else {
            continue;
        };
        for a in &t.args {
            // Accepted for Orio's files without effect (the argument table says why).
            if let Some(why) = Arg::find(backend, &a.name).and_then(|r| r.no_effect) {
                // `streamCount=1` is what orcl does anyway.
                if a.name == "streamCount" && a.expr.kind == ExprKind::Lit(Value::Int(1)) {
                    continue;
                }
                out.push(Diagnostic::new(
                    a.name_span,
                    format!("`{}` has no effect in orcl: {why}", a.name),
                ));
            }
            if backend == Backend::OpenCl && (a.name == "threadCount" || a.name == "blockCount") {
                let as_ = if a.name == "threadCount" {
                    "workItemsPerGroup"
                } else {
                    "workGroups"
                };
                out.push(Diagnostic::new(
                    a.name_span,
                    format!("`{}` (Orio's CUDA name) is taken as `{as_}`", a.name),
                ));
            }
        }
    }
    if let Some(m) = &spec.counter.method {
        if !m.value.trim().eq_ignore_ascii_case("basic timer") {
            out.push(Diagnostic::new(
                m.span,
                format!(
                    "performance counter method `{}` is not available: orcl times the kernel with OpenCL/CUDA events, as for Orio's 'basic timer'",
                    m.value
                ),
            ));
        }
    }
    if let Some(a) = &spec.search.algorithm {
        if let Some(note) = options::orio_note(&a.value) {
            out.push(Diagnostic::new(a.span, note.to_string()));
        }
    }
    for (name, v) in &spec.search.options {
        let lower = name.to_ascii_lowercase();
        if let Some((_, why)) = options::ORIO_IGNORED_ARGS.iter().find(|(n, _)| *n == lower) {
            out.push(Diagnostic::new(
                v.span,
                format!("search argument `{name}` is ignored: {why}"),
            ));
        } else if let Some(m) = options::ORIO_MAPPED
            .iter()
            .find(|m| lower.starts_with(&format!("{}_", m.0)))
        {
            let suffix = &lower[m.0.len() + 1..];
            let applied = options::find(m.1)
                .is_some_and(|info| info.options.iter().any(|o| o.name == suffix));
            if !applied {
                out.push(Diagnostic::new(
                    v.span,
                    format!(
                        "search option `{name}` of Orio's {} is ignored: orcl's {} has no `{suffix}`",
                        m.0, m.1
                    ),
                ));
            }
        }
    }
    out
}
