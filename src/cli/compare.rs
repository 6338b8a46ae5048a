//! `orcl compare`: its arguments, and the rows of [`crate::compare::compare`] as a table, JSON
//! or grouped bars.

use super::args::{load, parse_backend, sizes, CppArgs};
use super::failure::Failure;
use crate::compare::{CompareError, CompareOptions};
use crate::tune::TuneError;
use orcl_codegen::Backend;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub(super) struct CompareArgs {
    /// The annotated C file (never modified).
    file: PathBuf,
    /// Backends to tune, comma-separated (default: opencl,cuda). A backend the annotation
    /// has no transform for takes the other transform's shared arguments.
    #[arg(long, default_value = "opencl,cuda", value_delimiter = ',')]
    backends: Vec<String>,
    /// Tuning database (default: orcl.db beside FILE).
    #[arg(long)]
    db: Option<PathBuf>,
    /// OpenCL platform index (e.g. NVIDIA's, when PoCL is platform 0).
    #[arg(long)]
    platform: Option<usize>,
    /// Device index: OpenCL device within the platform, and CUDA ordinal.
    #[arg(long)]
    device: Option<usize>,
    /// Search algorithm for both backends (overrides the spec).
    #[arg(long = "search")]
    search: Option<String>,
    /// Budget per backend: number of configurations to measure.
    #[arg(long)]
    total_runs: Option<u64>,
    /// Tune only this input size, NAME=VALUE (repeatable).
    #[arg(long = "size", value_name = "NAME=VALUE")]
    size: Vec<String>,
    /// Also draw the comparison as grouped bars (.svg or .png).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Print the rows as JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Largest input file read, in bytes (default 16 MiB); a larger file is an input error.
    #[arg(long, value_name = "BYTES", default_value_t = orcl_frontend::DEFAULT_MAX_INPUT_SIZE)]
    max_input_size: u64,
    #[command(flatten)]
    cpp: CppArgs,
}

/// Exit 0 when some backend found a variant, else 1.
pub(super) fn run(a: CompareArgs) -> Result<i32, Failure> {
    let backends: Vec<Backend> = a
        .backends
        .iter()
        .map(|b| parse_backend(b.trim()))
        .collect::<Result<_, _>>()?;
    let l = load(&a.file, a.max_input_size, &a.cpp)?;
    l.report_refused();
    let (path, text, prepared) = (l.path.clone(), l.src.text.clone(), l.prepared.clone());
    let dir = a.file.parent().map(Path::to_path_buf).unwrap_or_default();
    let opts = CompareOptions {
        backends,
        db: a.db.unwrap_or_else(|| dir.join("orcl.db")),
        platform: a.platform,
        device: a.device,
        algorithm: a.search,
        total_runs: a.total_runs,
        sizes: sizes(&a.size, &prepared)?,
        progress: !a.json,
    };
    orcl_measure::interrupt::install();
    // A backend that cannot run here (no driver, no device) leaves its column empty; the other
    // still runs.
    let skipped = |b: Backend, e: &TuneError| orcl_frontend::errln!("{}: {e}", b.transform());
    let rows =
        crate::compare::compare(&path, &text, &prepared, &opts, skipped).map_err(|e| match e {
            CompareError::Tune(TuneError::Input(i)) => Failure::Input(l.src.remap(i)),
            CompareError::Tune(
                e @ (TuneError::Interrupted { signal, .. }
                | TuneError::InterruptedEarly { signal, .. }),
            ) => Failure::Interrupted(signal, e.to_string()),
            CompareError::Tune(e) => Failure::Other(e.to_string()),
            CompareError::Rows(e) => Failure::Other(format!("{e:#}")),
        })?;
    if a.json {
        orcl_frontend::outln!(
            "{}",
            serde_json::to_string_pretty(&rows).unwrap_or_default()
        );
    } else {
        orcl_frontend::outln!("{}", crate::compare::render_table(&rows));
    }
    if let Some(out) = a.plot {
        crate::compare::plot(&rows, &out).map_err(|e| Failure::Usage(format!("{e:#}")))?;
        if !a.json {
            orcl_frontend::outln!("plot: {}", out.display());
        }
    }
    let any = rows.iter().any(|r| r.opencl.is_some() || r.cuda.is_some());
    Ok(if any { 0 } else { 1 })
}
