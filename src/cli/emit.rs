//! `orcl emit`: the generated kernel and host code of one configuration (or its timing
//! skeleton), with comments saying how it is launched; needs no device. The host code is the
//! tuned file's ([`crate::rewrite::host_code`]).

use super::args::{assignment, load, parse_backend, write_stdout, CppArgs};
use super::failure::Failure;
use crate::prepare::Prepared;
use crate::tune::{self, TuneOptions};
use orcl_codegen::{Backend, Variant};
use orcl_frontend::diag::{did_you_mean, Diagnostic, InputError};
use orcl_frontend::expr::Value;
use orcl_frontend::space::{Configuration, SearchSpace};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub(super) struct EmitArgs {
    /// The annotated C file (never modified).
    file: PathBuf,
    /// A tuning parameter value, NAME=VALUE (others take their first value).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// An input parameter value, NAME=VALUE (default: the first input size).
    #[arg(long = "size", value_name = "NAME=VALUE")]
    size: Vec<String>,
    /// Region index (0-based) when the file has several.
    #[arg(long, default_value_t = 0)]
    region: usize,
    /// Print the timing skeleton instead.
    #[arg(long)]
    skeleton: bool,
    /// Target: opencl or cuda (default: the annotation's first transform).
    #[arg(long)]
    backend: Option<String>,
    /// Largest input file read, in bytes (default 16 MiB); a larger file is an input error.
    #[arg(long, value_name = "BYTES", default_value_t = orcl_frontend::DEFAULT_MAX_INPUT_SIZE)]
    max_input_size: u64,
    #[command(flatten)]
    cpp: CppArgs,
}

pub(super) fn run(a: EmitArgs) -> Result<i32, Failure> {
    let backend = a.backend.as_deref().map(parse_backend).transpose()?;
    let l = load(&a.file, a.max_input_size, &a.cpp)?;
    let (path, text) = (l.path.clone(), l.src.text.clone());
    let region = a.region;
    if let Some((_, e)) = l.refused.iter().find(|(i, _)| *i == region) {
        return Err(Failure::Input(e.clone()));
    }
    let p = l
        .prepared
        .iter()
        .find(|p| p.region.index == region)
        .ok_or_else(|| {
            Failure::Usage(format!(
                "region {region} does not exist ({} region(s) in {path})",
                l.prepared.len() + l.refused.len()
            ))
        })?;
    let spec = &p.region.spec;
    let input = input_size(p, &a.size)?;
    let space = SearchSpace::new(spec, &input);
    let cfg = configuration(&space, &a.set)?;
    let input_error = |d: Diagnostic| {
        Failure::Input(l.src.remap(InputError {
            path: path.clone(),
            source: text.clone(),
            diagnostics: vec![d],
        }))
    };
    // The checks `tune` applies to the spec's sizes, for this one (issue 25 G13).
    crate::prepare::check_input_size(p, &input).map_err(input_error)?;
    if let Some(c) = space.check(&cfg).map_err(input_error)? {
        orcl_frontend::errln!(
            "warning: this configuration breaks constraint `{c}`; orcl tune would never build it"
        );
    }
    let opts = TuneOptions {
        backend,
        ..TuneOptions::default()
    };
    if a.skeleton {
        let label = format!("{path} region {region}");
        let backend = tune::backend_of(p, &opts);
        let render = match backend {
            Backend::OpenCl => orcl_codegen::skeleton::render_opencl,
            Backend::Cuda => orcl_codegen::skeleton::render_cuda,
        };
        let tf32 = p.transform(backend).may_use_tf32();
        let text = render(&p.kernel, spec, &input, &label, tf32).map_err(input_error)?;
        return Ok(write_stdout(&text));
    }
    let v = tune::variant_for(p, &space, &cfg, &opts, None).map_err(input_error)?;
    let mut out = launch_comments(&cfg, &input, &v);
    out.push_str(&v.source);
    out.push_str("/* ---- host code ---- */\n");
    let hv = crate::rewrite::host_variant(p, &input, v, cfg.display(), None);
    out.push_str(&crate::rewrite::host_code(p, &text, &path, &[hv]).text);
    Ok(write_stdout(&out))
}

/// The region's first input size with the `--size NAME=VALUE` values set.
fn input_size(p: &Prepared, size: &[String]) -> Result<BTreeMap<String, Value>, Failure> {
    let mut input: BTreeMap<String, Value> = p.inputs.first().cloned().unwrap_or_default();
    for s in size {
        let (n, v) = assignment(s)?;
        if !input.contains_key(&n) {
            let names: Vec<&str> = input.keys().map(String::as_str).collect();
            return Err(Failure::Usage(format!(
                "`{n}` is not an input parameter{}",
                did_you_mean(&n, names)
                    .map(|h| format!("; {h}"))
                    .unwrap_or_default()
            )));
        }
        input.insert(n, v);
    }
    Ok(input)
}

/// Every tuning parameter at its first value, but those `--set NAME=VALUE` names.
fn configuration(space: &SearchSpace, set: &[String]) -> Result<Configuration, Failure> {
    let mut values: Vec<(Arc<str>, Value)> = space
        .params
        .iter()
        .map(|p| (p.name.clone(), p.values[0].clone()))
        .collect();
    for s in set {
        let (n, v) = assignment(s)?;
        match values.iter_mut().find(|(k, _)| **k == *n) {
            Some(slot) => slot.1 = v,
            None => {
                let names: Vec<&str> = space.params.iter().map(|p| &*p.name).collect();
                return Err(Failure::Usage(format!(
                    "`{n}` is not a tuning parameter{}",
                    did_you_mean(&n, names)
                        .map(|h| format!("; {h}"))
                        .unwrap_or_default()
                )));
            }
        }
    }
    Ok(Configuration { values })
}

/// The comments before the kernel: configuration, input size, an invalid schedule's reason, the
/// grid of a tile nest, the launch and build options; then the kernel's banner.
fn launch_comments(cfg: &Configuration, input: &BTreeMap<String, Value>, v: &Variant) -> String {
    let mut out = String::new();
    out.push_str(&format!("/* configuration: {} */\n", cfg.display()));
    out.push_str(&format!(
        "/* input: {} */\n",
        input
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    if let Some(why) = &v.invalid {
        out.push_str(&format!("/* invalid schedule, never built: {why} */\n"));
    }
    if let Some(g) = &v.grid {
        out.push_str(&grid_comment(g));
    }
    match v.backend {
        Backend::OpenCl => out.push_str(&format!(
            "/* NDRange: global size {}, local size {} work-items; build options: \"{}\" */\n/* ---- OpenCL kernel ---- */\n",
            match v.global_size {
                _ if v.grid.is_some() => "one work-group per tile".into(),
                orcl_codegen::GlobalSize::Fixed(g) => format!("{g} work-items"),
                orcl_codegen::GlobalSize::CoverLoop => "one work-item per iteration".into(),
            },
            v.local_size,
            comment_text(&v.build_options)
        )),
        Backend::Cuda => out.push_str(&format!(
            "/* grid: {}, {} threads per block; NVRTC options and launch tokens: \"{}\" */\n/* ---- CUDA kernel ---- */\n",
            match v.global_size {
                _ if v.grid.is_some() => "one block per tile".into(),
                orcl_codegen::GlobalSize::Fixed(g) => format!("{} blocks", g / v.local_size.max(1)),
                orcl_codegen::GlobalSize::CoverLoop => "one thread per iteration".into(),
            },
            v.local_size,
            comment_text(&v.build_options)
        )),
    }
    out
}

/// `s` (a value from the input, e.g. `clFlags`) made safe inside a `/* */` comment printed on
/// a terminal: control characters escaped (`\u{1b}`, `\n`), `*/` broken as `*\/`, so neither a
/// terminal escape nor the comment's end reaches the output (issue 25 G14).
fn comment_text(s: &str) -> String {
    orcl_frontend::diag::escape_controls(s)
        .replace('\n', "\\n")
        .replace("*/", "*\\/")
}

/// `/* 2-D NDRange (grid): dimension 0 ... */` of a tile nest's grid.
fn grid_comment(g: &orcl_codegen::Grid) -> String {
    let names = ["0", "1", "2"];
    format!(
        "/* {}-D NDRange (grid): {} */\n",
        g.loops.len(),
        (0..g.loops.len())
            .map(|d| if g.per_group[d] == orcl_codegen::Grid::ONE_GROUP {
                format!(
                    "dimension {} one work-group of {} work-items (lanes)",
                    names[d], g.local[d]
                )
            } else {
                format!(
                    "dimension {} (nest loop {}) {} iterations and {} work-items per work-group",
                    names[d], g.loops[d], g.per_group[d], g.local[d]
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    )
}
