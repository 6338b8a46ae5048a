//! `orcl tune`: its arguments, the tune's results as tables, and the tuned file written.

use super::args::{duration, load, parse_backend, sizes, CppArgs};
use super::failure::{Failure, EXIT_REFUSED};
use crate::tune::{self, TuneError, TuneOptions};
use comfy_table::{Cell, CellAlignment};
use orcl_codegen::Backend;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub(super) struct TuneArgs {
    /// The annotated C file (never modified).
    file: PathBuf,
    /// Tuning database (default: orcl.db beside FILE).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Output file (default: `_FILE` beside FILE).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Search algorithm: Exhaustive, Random, NelderMead (Simplex), Annealing, Genetic, Bayes (overrides the spec).
    #[arg(long = "search", help_heading = "Search and budget")]
    search: Option<String>,
    /// Seed of the randomised strategies (Random, Annealing, Genetic): the same seed and
    /// measurements give the same proposals (overrides the spec's `seed`; default 0).
    #[arg(long, help_heading = "Search and budget")]
    seed: Option<u64>,
    /// Seed the search with the best configurations the database holds for the same loop at
    /// other input sizes or on other devices (same device first, then the same device model,
    /// then others; nearest size first); says in one line what was seeded from where.
    #[arg(long, help_heading = "Search and budget")]
    warm_start: bool,
    /// Budget: evaluations of the experiment, across resumes: rows an interrupted run stored
    /// count, so kill-and-rerun ends where an uninterrupted run does (a `done` experiment is
    /// replayed, not extended: see --more).
    #[arg(long, help_heading = "Search and budget")]
    total_runs: Option<u64>,
    /// Reopen the experiment on purpose and add up to N evaluations to it (a rerun of a `done`
    /// experiment otherwise measures nothing new).
    #[arg(long, value_name = "N", help_heading = "Search and budget")]
    more: Option<u64>,
    /// Budget: wall time per region and input size, e.g. 90s, 5m, 3m10s (a bare number is minutes).
    #[arg(long, help_heading = "Search and budget")]
    time_limit: Option<String>,
    /// Per-variant timeout, e.g. 30s (default: 10× the slowest good variant, at least 10 s).
    #[arg(long, help_heading = "Measurement")]
    timeout: Option<String>,
    /// Timed repetitions per variant, at least 1 (overrides the spec; default 5).
    #[arg(long, help_heading = "Measurement")]
    repetitions: Option<u32>,
    /// What the search and the winner minimise: `time` (the spec's kernel or total time),
    /// `energy` (J per call, NVML's energy counter: NVIDIA GPUs only) or `edp` (energy × time);
    /// overrides the spec's `objective` (docs/ENERGY.md).
    #[arg(long, value_parser = ["time", "energy", "edp"], help_heading = "Measurement")]
    objective: Option<String>,
    /// Time limit of each build step (prebuild, skeleton compile, postbuild), e.g. 10m; the
    /// step's whole process group is killed when it is exceeded (default 10m).
    #[arg(long, help_heading = "Measurement")]
    build_timeout: Option<String>,
    /// On a space too large to enumerate (over 20 000 000 configurations), stop the search
    /// after this many proposals in a row that measure nothing new: rejected by a
    /// constraint, over a device limit, or a kernel identical to one measured (default
    /// 1000000).
    #[arg(long, value_name = "PROPOSALS", help_heading = "Search and budget")]
    max_idle: Option<u64>,
    /// Run on this OpenCL platform index (overrides the transform's `platform`).
    #[arg(long, help_heading = "Devices")]
    platform: Option<usize>,
    /// Run on this OpenCL device index or CUDA device ordinal (overrides the transform's
    /// `device`).
    #[arg(long, help_heading = "Devices")]
    device: Option<usize>,
    /// Measure on several identical devices at once: `0,1,3` (OpenCL device indices within
    /// --platform, or CUDA ordinals) or `all`; one measuring worker per device, results pooled
    /// into one experiment, each evaluation recording its device. Devices that differ are
    /// refused (tune them separately and compare).
    #[arg(long, value_name = "LIST|all", help_heading = "Devices")]
    devices: Option<String>,
    /// Target: opencl or cuda (default: the annotation's first transform). A backend the
    /// annotation has no transform for takes the other transform's shared arguments.
    #[arg(long, help_heading = "Devices")]
    backend: Option<String>,
    /// Rows of the result table.
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Print the results as one JSON document (per region and input size: the ranking, the
    /// finalists, the winner, failures by status; the tuned file and the database) instead of
    /// tables; progress and errors stay on stderr.
    #[arg(long)]
    json: bool,
    /// Tune only this input size, NAME=VALUE (repeatable; default: every size).
    #[arg(long = "size", value_name = "NAME=VALUE")]
    size: Vec<String>,
    /// Kernel builds run on this many threads ahead of the measuring worker, each in a build
    /// process of its own on a GPU: OpenCL, and CUDA (NVRTC to a CUBIN; ORCL_CUDA_POOL=0 or no
    /// libnvrtc: the worker) (default: the machine's cores on a GPU, 0 on a CPU device; 0: no
    /// build process, the measuring worker builds each kernel itself, serially).
    #[arg(long, short = 'j', help_heading = "Measurement", value_parser = jobs_arg)]
    jobs: Option<usize>,
    /// Neither read nor write the kernel-binary cache (keyed by source, options, device and
    /// driver), so every kernel is built afresh.
    #[arg(long, help_heading = "Measurement")]
    no_kernel_cache: bool,
    /// Largest input file read, in bytes (default 16 MiB); a larger file is an input error.
    #[arg(long, value_name = "BYTES", default_value_t = orcl_frontend::DEFAULT_MAX_INPUT_SIZE)]
    max_input_size: u64,
    #[command(flatten)]
    cpp: CppArgs,
    /// Launch the measuring workers as Slurm job steps (`srun ... orcl worker`, one task
    /// each) instead of local processes; this process keeps the search and the database.
    /// Needs a filesystem shared with the compute nodes (set ORCL_CACHE_DIR on it).
    #[arg(long, help_heading = "Slurm")]
    slurm: bool,
    /// --slurm: the partition of the worker steps.
    #[arg(long, value_name = "P", requires = "slurm", help_heading = "Slurm")]
    partition: Option<String>,
    /// --slurm: GPUs per worker (each worker then sees its GPU as device 0).
    #[arg(long, value_name = "G", requires = "slurm", help_heading = "Slurm")]
    gpus_per_task: Option<u32>,
    /// --slurm: number of measuring workers (default: one per --devices entry, else the
    /// allocation's SLURM_NTASKS inside sbatch/salloc, else 1); worker k measures the
    /// (k mod N)-th device of --devices.
    #[arg(long, value_name = "N", requires = "slurm", help_heading = "Slurm")]
    ntasks: Option<usize>,
    /// --slurm: the srun executable (default: srun on the PATH).
    #[arg(long, value_name = "PATH", requires = "slurm", help_heading = "Slurm")]
    srun: Option<PathBuf>,
}

/// Tune every region of the file and write the tuned file. Exit 0 when written, 1 when no
/// correct variant (or nothing feasible) was found, [`EXIT_REFUSED`] when written but some
/// regions were refused (left as written; their errors on stderr), 2 when all were refused.
pub(super) fn run(a: TuneArgs) -> Result<i32, Failure> {
    let slurm = slurm_options(
        a.slurm,
        a.partition.clone(),
        a.gpus_per_task,
        a.ntasks,
        a.srun.clone(),
    )?;
    let backend = a.backend.as_deref().map(parse_backend).transpose()?;
    let devices = checked_devices(&a)?;
    if let Some(t) = &a.build_timeout {
        orcl_measure::skeleton::set_build_timeout(duration(t, 60.0, "build timeout")?);
    }
    orcl_measure::interrupt::install();
    let l = load(&a.file, a.max_input_size, &a.cpp)?;
    let (path, text) = (l.path.clone(), l.src.text.clone());
    let prepared = l.prepared.clone();
    let dir = a.file.parent().map(Path::to_path_buf).unwrap_or_default();
    let db = a.db.clone().unwrap_or_else(|| dir.join("orcl.db"));
    if let Some(out) = &a.output {
        crate::outfile::check(out, &[("input file", &a.file), ("database", &db)])?;
    }
    let opts = tune_options(&a, db.clone(), backend, devices, slurm, &prepared)?;
    let results = tune::tune(&path, &text, prepared, &opts).map_err(|e| match failure(e) {
        Failure::Input(i) => Failure::Input(l.src.remap(i)),
        f => f,
    })?;
    let any = if a.json {
        results
            .iter()
            .flat_map(|r| &r.inputs)
            .any(|i| i.best.is_some())
    } else {
        print_results(&path, &results, a.top)
    };
    l.report_refused();
    let json = |tuned: Option<&Path>| {
        let tuned = tuned.map(|t| t.display().to_string());
        let doc = super::json::tune(
            &results,
            a.top,
            tuned.as_deref(),
            &db.display().to_string(),
            &l.refused,
        );
        orcl_frontend::outln!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
    };
    if !any {
        if a.json {
            json(None);
        }
        return Ok(1);
    }
    let out = a
        .output
        .clone()
        .unwrap_or_else(|| default_output(&a.file, &dir, &results, backend));
    let tuned = crate::rewrite::rewrite(&l.src, &path, &db.display().to_string(), &results);
    crate::outfile::write(
        &out,
        tuned.as_bytes(),
        &[("input file", &a.file), ("database", &db)],
    )?;
    if a.json {
        json(Some(&out));
    } else {
        orcl_frontend::outln!("tuned file: {}", out.display());
        orcl_frontend::outln!("database:   {}", db.display());
    }
    let untuned = report_untuned(&path, &results);
    Ok(if l.refused.is_empty() && !untuned {
        0
    } else {
        EXIT_REFUSED
    })
}

/// `--max-idle` and `--repetitions` at least 1; `--devices` parsed, and not with `--device`.
fn checked_devices(a: &TuneArgs) -> Result<Option<tune::Devices>, Failure> {
    if a.max_idle == Some(0) {
        return Err(Failure::Usage(
            "invalid --max-idle 0: at least 1 proposal in a row that measures nothing new before the search stops".into(),
        ));
    }
    if a.repetitions == Some(0) {
        // As the spec's `repetitions = 0` (issue 15 F17).
        return Err(Failure::Usage(
            "invalid --repetitions 0: at least one timed repetition is needed".into(),
        ));
    }
    let devices = a
        .devices
        .as_deref()
        .map(tune::Devices::parse)
        .transpose()
        .map_err(Failure::Usage)?;
    if devices.is_some() && a.device.is_some() {
        return Err(Failure::Usage(
            "--device and --devices both given: use --devices alone (its first device is the one the tuned file names)".into(),
        ));
    }
    Ok(devices)
}

/// The tune's options from the arguments (durations and `--size` selections read here).
fn tune_options(
    a: &TuneArgs,
    db: PathBuf,
    backend: Option<Backend>,
    devices: Option<tune::Devices>,
    slurm: Option<orcl_measure::slurm::Slurm>,
    prepared: &[crate::prepare::Prepared],
) -> Result<TuneOptions, Failure> {
    Ok(TuneOptions {
        db,
        algorithm: a.search.clone(),
        seed: a.seed,
        total_runs: a.total_runs,
        more: a.more,
        time_limit: a
            .time_limit
            .as_deref()
            .map(|t| duration(t, 60.0, "time limit"))
            .transpose()?,
        timeout: a
            .timeout
            .as_deref()
            .map(|t| duration(t, 1.0, "timeout"))
            .transpose()?,
        repetitions: a.repetitions,
        warmups: None,
        warm_start: a.warm_start,
        backend,
        platform: a.platform,
        device: a.device,
        progress: true,
        sizes: sizes(&a.size, prepared)?,
        jobs: a.jobs,
        no_kernel_cache: a.no_kernel_cache,
        max_idle: a.max_idle,
        devices,
        slurm,
        objective: a.objective.clone(),
    })
}

/// The most build threads `--jobs` may ask for: each may run a build process, so a typo such as
/// `--jobs 100000` would otherwise exhaust the process table and abort (issue 25 G7); 256
/// exceeds the cores of any host orcl runs on (2 to 128).
pub const MAX_JOBS: usize = 256;

/// `--jobs N`: 0 to [`MAX_JOBS`]; anything else is a usage error (exit 2) naming the limit.
fn jobs_arg(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n <= MAX_JOBS => Ok(n),
        _ => Err(format!(
            "expected a number of build threads from 0 to {MAX_JOBS}"
        )),
    }
}

/// The exit class of a tune error.
fn failure(e: TuneError) -> Failure {
    match e {
        TuneError::Input(i) => Failure::Input(i),
        TuneError::Usage(m) => Failure::Usage(m),
        TuneError::Interrupted { signal, .. } | TuneError::InterruptedEarly { signal, .. } => {
            Failure::Interrupted(signal, e.to_string())
        }
        // `--db` names a file that is not a database this orcl may write (another program's,
        // a newer orcl's): the argument is wrong, as for `db list` (issue 25 G10, G17).
        TuneError::Db(ref d) if super::failure::wrong_database_file(d) => {
            Failure::Usage(e.to_string())
        }
        // The database, the device, the compiler or the worker process failed: not the
        // input, and not "no correct variant" (issue 15 F12).
        other @ (TuneError::Device(_)
        | TuneError::Build(_)
        | TuneError::Db(_)
        | TuneError::Worker(_)) => Failure::Env(other.to_string()),
    }
}

/// Print every region's results; false (with the reason on stderr) when no input size has a
/// correct variant, so no tuned file is written.
fn print_results(path: &str, results: &[tune::RegionResult], top: usize) -> bool {
    let mut any = false;
    for r in results {
        for i in &r.inputs {
            print_result(path, r, i, top);
            any |= i.best.is_some();
        }
    }
    if !any {
        // A search that found nothing feasible says so (issue 15 F8): exit 1, as for
        // variants that all failed, since no tuned file is written.
        let why: Vec<&str> = results
            .iter()
            .flat_map(|r| &r.inputs)
            .filter_map(|i| i.stopped.as_deref())
            .filter(|w| w.starts_with("no feasible") || w.starts_with("the time limit"))
            .collect();
        match why.first() {
            Some(w) => orcl_frontend::errln!("error: {w}; no tuned file written"),
            None => {
                orcl_frontend::errln!("error: no correct variant was found; no tuned file written")
            }
        }
    }
    any
}

/// Report each region none of whose input sizes has a winner (its search measured nothing, e.g.
/// `--time-limit` ran out before its first measurement, or every variant failed) while others
/// were tuned: left as written in the tuned file, like a refused region, and the run exits
/// [`EXIT_REFUSED`] rather than 0. Whether there was one.
fn report_untuned(path: &str, results: &[tune::RegionResult]) -> bool {
    let mut any = false;
    for r in results {
        if r.inputs.iter().any(|i| i.best.is_some()) {
            continue;
        }
        any = true;
        let why = r
            .inputs
            .iter()
            .find_map(|i| i.stopped.as_deref())
            .unwrap_or("no correct variant was found");
        orcl_frontend::errln!(
            "error: region {} of {}: {why}; the region is left as written (exit {EXIT_REFUSED})",
            r.prepared.region.index,
            orcl_frontend::diag::escape_controls(path)
        );
    }
    any
}

/// `_FILE` beside FILE (`_FILE.cu` for `FILE.c` tuned for CUDA).
fn default_output(
    file: &Path,
    dir: &Path,
    results: &[tune::RegionResult],
    backend: Option<Backend>,
) -> PathBuf {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match prepared_backend(results, backend) {
        Backend::Cuda => match name.strip_suffix(".c") {
            Some(stem) => format!("{stem}.cu"),
            None => format!("{name}.cu"),
        },
        Backend::OpenCl => name,
    };
    dir.join(format!("_{name}"))
}

/// The `--slurm` options, checked: `None` without `--slurm` (clap refuses its sub-options
/// alone). Errors: `--ntasks 0`, `--gpus-per-task 0`, an empty partition (usage); srun not found
/// (environment).
fn slurm_options(
    slurm: bool,
    partition: Option<String>,
    gpus_per_task: Option<u32>,
    ntasks: Option<usize>,
    srun: Option<PathBuf>,
) -> Result<Option<orcl_measure::slurm::Slurm>, Failure> {
    if !slurm {
        return Ok(None);
    }
    if ntasks == Some(0) {
        return Err(Failure::Usage(
            "invalid --ntasks 0: at least one measuring worker is needed".into(),
        ));
    }
    if gpus_per_task == Some(0) {
        return Err(Failure::Usage(
            "invalid --gpus-per-task 0: leave it out for workers without GPUs (e.g. PoCL)".into(),
        ));
    }
    if partition.as_deref().is_some_and(|p| p.trim().is_empty()) {
        return Err(Failure::Usage(
            "invalid --partition ``: name a partition (`sinfo` lists them) or leave it out".into(),
        ));
    }
    let s = orcl_measure::slurm::Slurm {
        srun: srun.unwrap_or_else(|| "srun".into()),
        partition,
        gpus_per_task,
        ntasks,
        orcl: std::env::current_exe().map_err(|e| {
            Failure::Env(format!("--slurm: cannot find orcl's own executable: {e}"))
        })?,
    };
    s.check().map_err(Failure::Env)?;
    Ok(Some(s))
}

/// The backend the regions were tuned for (the first region's).
fn prepared_backend(results: &[tune::RegionResult], chosen: Option<Backend>) -> Backend {
    chosen
        .or_else(|| {
            results
                .first()
                .and_then(|r| r.prepared.backends().first().copied())
        })
        .unwrap_or(Backend::OpenCl)
}

fn print_result(path: &str, r: &tune::RegionResult, i: &tune::InputResult, top: usize) {
    let raw = &r.prepared.region.raw;
    let f = raw
        .function
        .as_ref()
        .map(|f| f.name.as_str())
        .unwrap_or("?");
    let sizes: Vec<String> = i.input.iter().map(|(k, v)| format!("{k}={v}")).collect();
    orcl_frontend::outln!(
        "\n{path} {f}() [{}] on {} ({}): {} evaluated ({} measured, {} from the database{}) in {:.1} s, experiment {}",
        sizes.join(" "),
        i.device.name,
        i.device.platform,
        i.evaluations.len(),
        i.measured,
        i.reused,
        if i.rejected > 0 {
            format!(", {} more rejected by constraints", i.rejected)
        } else {
            String::new()
        },
        i.elapsed.as_secs_f64(),
        i.experiment_id
    );
    if !i.per_device.is_empty() {
        let each: Vec<String> = i
            .per_device
            .iter()
            .map(|(d, n)| format!("device {d}: {n}"))
            .collect();
        orcl_frontend::outln!("measured per device: {}", each.join(", "));
    }
    if !i.slurm_workers.is_empty() {
        let each: Vec<String> = i
            .slurm_workers
            .iter()
            .enumerate()
            .map(|(k, w)| {
                format!(
                    "worker {k} (device {}; {}): {}",
                    w.device,
                    w.steps.join(", then "),
                    w.measured
                )
            })
            .collect();
        orcl_frontend::outln!("measured per Slurm worker: {}", each.join("; "));
    }
    print_ranking(i, top);
    let fails = i.failures();
    if !fails.is_empty() {
        let parts: Vec<String> = fails.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        orcl_frontend::outln!("not ranked: {}", parts.join(", "));
    }
    if let Some(why) = &i.stopped {
        orcl_frontend::outln!("{why}");
    }
    match (&i.best, &i.confirmed) {
        (None, _) => orcl_frontend::outln!("no correct variant for this input size"),
        (Some(_), Some(c)) => print_finalists(i, c),
        (Some((b, _)), None) => {
            orcl_frontend::outln!("winner: {}", i.evaluations[*b].config.display())
        }
    }
}

/// The ranking table: the `top` correct variants by median, fitted to the terminal (transfer,
/// build, min and error columns go first; a transfer time shared by every row is said once).
fn print_ranking(i: &tune::InputResult, top: usize) {
    let mut header = vec![
        "rank",
        "configuration",
        "median ms",
        "min ms",
        "transfer ms",
        "build ms",
        "max rel. error",
    ];
    let ranking: Vec<_> = i.ranking().into_iter().take(top).collect();
    if ranking.is_empty() {
        // Nothing correct to rank (every variant failed, or the time limit ran out before the
        // first measurement): the lines below say why; an empty table would say nothing.
        return;
    }
    let energy = ranking.iter().any(|e| e.outcome.energy_j.is_some());
    if energy {
        header.extend(["energy mJ", "power W"]);
    }
    let right = |s: String| Cell::new(s).set_alignment(CellAlignment::Right);
    let rows: Vec<Vec<Cell>> = ranking
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let o = &e.outcome;
            let min = o.samples_ms.iter().cloned().fold(f64::INFINITY, f64::min);
            vec![
                right((k + 1).to_string()),
                Cell::new(e.config.display()),
                right(format!("{:.4}", o.median_ms().unwrap_or(f64::NAN))),
                right(format!("{min:.4}")),
                right(o.transfer_ms.map(|x| format!("{x:.4}")).unwrap_or_default()),
                right(o.build_ms.map(|x| format!("{x:.1}")).unwrap_or_default()),
                right(o.max_error.map(|x| format!("{x:.1e}")).unwrap_or_default()),
            ]
            .into_iter()
            .chain(
                energy
                    .then(|| {
                        [
                            right(
                                o.energy_j
                                    .map(|j| format!("{:.4}", j * 1e3))
                                    .unwrap_or_default(),
                            ),
                            right(o.power_w.map(|w| format!("{w:.1}")).unwrap_or_default()),
                        ]
                    })
                    .into_iter()
                    .flatten(),
            )
            .collect()
        })
        .collect();
    let (t, dropped) = super::width::fitted(
        &header,
        &rows,
        &[4, 5, 3, 6],
        super::width::terminal_width(),
    );
    orcl_frontend::outln!("{t}");
    if dropped.is_empty() {
        return;
    }
    let transfers: Vec<Option<f64>> = ranking.iter().map(|e| e.outcome.transfer_ms).collect();
    let shared = match transfers.first() {
        Some(Some(x)) if transfers.iter().all(|t| *t == Some(*x)) => {
            format!("; transfer {x:.4} ms for every variant")
        }
        _ => String::new(),
    };
    orcl_frontend::outln!(
        "(left out to fit the terminal: {}{shared}; `orcl db show {}` has every column)",
        dropped.join(", "),
        i.experiment_id
    );
}

/// The finalists re-measured at the end, each with its search median and re-measured median,
/// and why the winner won: the fastest re-measured median, which may not be rank 1 of the search.
fn print_finalists(i: &tune::InputResult, c: &tune::Confirmed) {
    let reps = c
        .repetitions
        .map(|r| format!(", {r} repetitions each"))
        .unwrap_or_default();
    if c.finalists.len() > 1 {
        orcl_frontend::outln!("finalists re-measured{reps}:");
        let ranking = i.ranking();
        for (k, m) in &c.finalists {
            let e = &i.evaluations[*k];
            let rank = ranking
                .iter()
                .position(|r| std::ptr::eq(*r, e))
                .map_or(String::new(), |p| format!("rank {}: ", p + 1));
            let search = e.outcome.median_ms().unwrap_or(f64::NAN);
            orcl_frontend::outln!(
                "  {rank}{} — {search:.4} ms in the search, {m:.4} ms re-measured",
                e.config.display()
            );
        }
    }
    let best = match i.objective {
        tune::Objective::Energy => "most energy-efficient",
        tune::Objective::Edp => "smallest energy-delay product",
        _ => "fastest",
    };
    let why = if c.finalists.len() > 1 {
        format!(
            " (the {best} of the {} finalists re-measured)",
            c.finalists.len()
        )
    } else {
        " (re-measured)".to_string()
    };
    let energy = i.evaluations[c.winner]
        .outcome
        .energy_j
        .filter(|_| i.objective.needs_energy())
        .map(|j| format!(", {:.4} mJ per call in the search", j * 1e3))
        .unwrap_or_default();
    orcl_frontend::outln!(
        "winner: {} — {:.4} ms{energy}{why}",
        i.evaluations[c.winner].config.display(),
        c.winner_ms
    );
}
