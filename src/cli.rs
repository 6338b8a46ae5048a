//! Command-line interface: `orcl tune | compare | check | emit | devices | db | plot | replay`
//! (and `orcl worker`, which `orcl tune --slurm` starts on the compute nodes). Exit codes
//! (docs/RELIABILITY.md): 0 tuned, 1 no valid variant, 2 usage or input error, 3 environment
//! failure (database, device, compiler, file system), 130/143 interrupted by SIGINT/SIGTERM.

use crate::prepare::{prepare, Prepared};
use crate::tune::{self, TuneError, TuneOptions};
use clap::{Parser, Subcommand};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use orcl_codegen::Backend;
use orcl_frontend::diag::{did_you_mean, InputError};
use orcl_frontend::expr::{parse_expr, ExprKind, Value};
use orcl_frontend::space::{Configuration, SearchSpace};
use orcl_frontend::spec::parse_duration;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "orcl",
    version,
    about = "Annotation-driven source-to-source autotuner for OpenCL loops"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per run: the size of `Tune`'s many options does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Tune every annotated region of FILE and write the tuned file (`_FILE` beside it).
    Tune {
        file: PathBuf,
        /// Tuning database (default: orcl.db beside FILE).
        #[arg(long)]
        db: Option<PathBuf>,
        /// Output file (default: `_FILE` beside FILE).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Search algorithm: Exhaustive, Random, NelderMead (Simplex), Annealing, Genetic (overrides the spec).
        #[arg(long = "search")]
        search: Option<String>,
        #[arg(long)]
        seed: Option<u64>,
        /// Budget: number of configurations to measure (database hits are free).
        #[arg(long)]
        total_runs: Option<u64>,
        /// Budget: wall time per region and input size, e.g. 90s, 5m (a bare number is minutes).
        #[arg(long)]
        time_limit: Option<String>,
        /// Per-variant timeout, e.g. 30s (default: 10× the slowest good variant, at least 10 s).
        #[arg(long)]
        timeout: Option<String>,
        /// Timed repetitions per variant, at least 1 (overrides the spec; default 5).
        #[arg(long)]
        repetitions: Option<u32>,
        /// Time limit of each build step (prebuild, skeleton compile, postbuild), e.g. 10m; the
        /// step's whole process group is killed when it is exceeded (default 10m).
        #[arg(long)]
        build_timeout: Option<String>,
        /// On a space too large to enumerate (over 20 000 000 configurations), stop the search
        /// after this many proposals in a row that measure nothing new: rejected by a
        /// constraint, over a device limit, or a kernel identical to one measured (default
        /// 1000000).
        #[arg(long, value_name = "PROPOSALS")]
        max_idle: Option<u64>,
        /// Run on this OpenCL platform index (overrides the transform's `platform`).
        #[arg(long)]
        platform: Option<usize>,
        /// Run on this OpenCL device index or CUDA device ordinal (overrides the transform's
        /// `device`).
        #[arg(long)]
        device: Option<usize>,
        /// Measure on several identical devices at once: `0,1,3` (OpenCL device indices within
        /// --platform, or CUDA ordinals) or `all`; one measuring worker per device, results pooled
        /// into one experiment, each evaluation recording its device. Devices that differ are
        /// refused (tune them separately and compare).
        #[arg(long, value_name = "LIST|all")]
        devices: Option<String>,
        /// Target: opencl or cuda (default: the annotation's first transform). A backend the
        /// annotation has no transform for takes the other transform's shared arguments.
        #[arg(long)]
        backend: Option<String>,
        /// Rows of the result table.
        #[arg(long, default_value_t = 10)]
        top: usize,
        /// Tune only this input size, NAME=VALUE (repeatable; default: every size).
        #[arg(long = "size", value_name = "NAME=VALUE")]
        size: Vec<String>,
        /// Kernel builds run on this many threads ahead of the measuring worker: OpenCL, and CUDA
        /// (NVRTC to a CUBIN in orcl's process; ORCL_CUDA_POOL=0 or no libnvrtc: the worker)
        /// (default: the machine's cores on a GPU, 0 on a CPU device; 0: the worker builds each
        /// kernel itself, serially).
        #[arg(long, short = 'j')]
        jobs: Option<usize>,
        /// Neither read nor write the kernel-binary cache (keyed by source, options, device and
        /// driver), so every kernel is built afresh.
        #[arg(long)]
        no_kernel_cache: bool,
        /// Largest input file read, in bytes (default 16 MiB); a larger file is an input error.
        #[arg(long, value_name = "BYTES", default_value_t = orcl_frontend::DEFAULT_MAX_INPUT_SIZE)]
        max_input_size: u64,
        /// Launch the measuring workers as Slurm job steps (`srun ... orcl worker`, one task
        /// each) instead of local processes; this process keeps the search and the database.
        /// Needs a filesystem shared with the compute nodes (set ORCL_CACHE_DIR on it).
        #[arg(long)]
        slurm: bool,
        /// --slurm: the partition of the worker steps.
        #[arg(long, value_name = "P", requires = "slurm")]
        partition: Option<String>,
        /// --slurm: GPUs per worker (each worker then sees its GPU as device 0).
        #[arg(long, value_name = "G", requires = "slurm")]
        gpus_per_task: Option<u32>,
        /// --slurm: number of measuring workers (default: one per --devices entry, else the
        /// allocation's SLURM_NTASKS inside sbatch/salloc, else 1); worker k measures the
        /// (k mod N)-th device of --devices.
        #[arg(long, value_name = "N", requires = "slurm")]
        ntasks: Option<usize>,
        /// --slurm: the srun executable (default: srun on the PATH).
        #[arg(long, value_name = "PATH", requires = "slurm")]
        srun: Option<PathBuf>,
    },
    /// A measuring worker on a compute node (started by `orcl tune --slurm` through srun; needs
    /// no arguments from users): prints where it runs, then runs the timing skeleton, which
    /// talks to the controller over stdin/stdout.
    Worker {
        /// The timing skeleton binary (on a filesystem shared with the controller).
        #[arg(long)]
        skeleton: PathBuf,
        /// OpenCL platform index (ignored by CUDA skeletons).
        #[arg(long, default_value_t = 0)]
        platform: usize,
        /// OpenCL device index within the platform, or CUDA device ordinal.
        #[arg(long, default_value_t = 0)]
        device: usize,
    },
    /// An OpenCL build process of the kernel build pool (started by `orcl tune`; not for users):
    /// builds the programs it reads on stdin and writes their binaries to stdout.
    #[command(hide = true)]
    BuildServer {
        /// OpenCL platform index.
        #[arg(long, default_value_t = 0)]
        platform: usize,
        /// OpenCL device index within the platform.
        #[arg(long, default_value_t = 0)]
        device: usize,
    },
    /// Tune FILE's loops for OpenCL and for CUDA on the same device and compare the best
    /// variants: time, achieved bandwidth (bytes read + written once), CUDA/OpenCL speedup.
    Compare {
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
    },
    /// Parse and validate FILE without building anything; print each region's search space.
    Check {
        file: PathBuf,
        /// Largest input file read, in bytes (default 16 MiB); a larger file is an input error.
        #[arg(long, value_name = "BYTES", default_value_t = orcl_frontend::DEFAULT_MAX_INPUT_SIZE)]
        max_input_size: u64,
    },
    /// Print the generated kernel and host code of one configuration (needs no device).
    Emit {
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
    },
    /// List the OpenCL and CUDA devices and their limits (`--json`: every property, in bytes).
    Devices {
        #[arg(long)]
        json: bool,
    },
    /// Query, export and import the tuning database.
    Db {
        /// The tuning database file.
        #[arg(long, default_value = "orcl.db", global = true)]
        db: PathBuf,
        #[command(subcommand)]
        command: DbCommand,
    },
    /// Plot an experiment's objective: sorted over all variants, or per value of one parameter.
    Plot {
        /// Experiment id(s); several are drawn on one chart.
        #[arg(required = true)]
        experiments: Vec<i64>,
        #[arg(long, default_value = "orcl.db")]
        db: PathBuf,
        /// Draw the objective against each value of this tuning parameter.
        #[arg(long)]
        by: Option<String>,
        /// Output file: .svg or .png.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Replay a search strategy against a recorded exhaustive experiment, with no device.
    Replay {
        #[arg(long, default_value = "orcl.db")]
        db: PathBuf,
        #[arg(long)]
        experiment: i64,
        /// Strategy name, or `all`.
        #[arg(long, default_value = "all")]
        algorithm: String,
        /// Evaluations allowed: a count (`50`) or a share of the space (`5%`), or a comma-separated
        /// list of them (`1%,3%,5%,100`: one row per budget and strategy).
        #[arg(long, default_value = "5%")]
        budget: String,
        /// Number of seeds (0..seeds).
        #[arg(long, default_value_t = 20)]
        seeds: u64,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand, Debug)]
enum DbCommand {
    /// The experiments: id, file, region, device, backend, input sizes, algorithm, evaluations,
    /// failures, best time, date.
    List {
        #[arg(long)]
        json: bool,
    },
    /// One experiment: metadata, device properties, top configurations, failures by class.
    Show {
        id: i64,
        #[arg(long, default_value_t = 10)]
        top: usize,
        #[arg(long)]
        json: bool,
    },
    /// The winning configuration per region, device and input size.
    Best {
        #[arg(long)]
        region: Option<String>,
        #[arg(long)]
        device: Option<String>,
        /// Input size, NAME=VALUE (repeatable).
        #[arg(long = "size", value_name = "NAME=VALUE")]
        size: Vec<String>,
        #[arg(long)]
        json: bool,
    },
    /// Run a read-only SQL query (statements that write are refused).
    Query {
        sql: String,
        #[arg(long)]
        json: bool,
    },
    /// Export one experiment as CSV, JSON or T4 (the community results schema).
    Export {
        id: i64,
        #[arg(long, default_value = "json")]
        format: String,
        /// Output file (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Import a Kernel Tuner cache file or a T4 results file as a new experiment.
    Import {
        file: PathBuf,
        /// `kerneltuner` or `t4` (default: detected from the content).
        #[arg(long)]
        format: Option<String>,
    },
}

/// Run the command line; returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(Failure::Input(e)) => {
            orcl_frontend::errout!("{e}");
            2
        }
        Err(Failure::Usage(m)) => {
            orcl_frontend::errln!("error: {}", orcl_frontend::diag::escape_controls(&m));
            2
        }
        Err(Failure::Other(m)) => {
            orcl_frontend::errln!("error: {}", orcl_frontend::diag::escape_controls(&m));
            1
        }
        Err(Failure::Env(m)) => {
            orcl_frontend::errln!("error: {}", orcl_frontend::diag::escape_controls(&m));
            EXIT_ENVIRONMENT
        }
        Err(Failure::Interrupted(signal, m)) => {
            orcl_frontend::errln!("{m}");
            128 + signal
        }
    }
}

/// The exit class of a `db`/`plot` error: the database or the file system failing is an
/// environment failure ([`EXIT_ENVIRONMENT`]), anything else a usage error.
fn classify(e: anyhow::Error) -> Failure {
    use crate::outfile::OutputError;
    use rusqlite::ErrorCode as C;
    let env = e.chain().any(|c| {
        let sqlite_env = c
            .downcast_ref::<rusqlite::Error>()
            .and_then(|s| s.sqlite_error_code())
            .is_some_and(|code| {
                matches!(
                    code,
                    C::CannotOpen
                        | C::NotADatabase
                        | C::DatabaseCorrupt
                        | C::DiskFull
                        | C::SystemIoFailure
                        | C::DatabaseBusy
                        | C::DatabaseLocked
                        | C::PermissionDenied
                        | C::ReadOnly
                        | C::FileLockingProtocolFailed
                        | C::OutOfMemory
                )
            });
        sqlite_env
            || c.is::<std::io::Error>()
            || matches!(
                c.downcast_ref::<crate::db::DbError>(),
                Some(crate::db::DbError::FileGone(_))
            )
            || matches!(
                c.downcast_ref::<OutputError>(),
                Some(OutputError::Io { .. })
            )
    });
    if env {
        Failure::Env(format!("{e:#}"))
    } else {
        Failure::Usage(format!("{e:#}"))
    }
}

/// Exit code of an environment failure: the database, the device, the compiler or the file
/// system failed, not the input (issue 15 F12).
pub const EXIT_ENVIRONMENT: i32 = 3;

enum Failure {
    Input(InputError),
    Usage(String),
    Other(String),
    /// Exit [`EXIT_ENVIRONMENT`].
    Env(String),
    /// Stopped by this signal: exit 128 + signal (130 SIGINT, 143 SIGTERM).
    Interrupted(i32, String),
}

impl From<crate::outfile::OutputError> for Failure {
    fn from(e: crate::outfile::OutputError) -> Self {
        match e {
            crate::outfile::OutputError::Clobber { .. } => Failure::Usage(e.to_string()),
            crate::outfile::OutputError::Io { .. } => Failure::Env(e.to_string()),
        }
    }
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Self {
        Failure::Input(e)
    }
}

/// Configurations `check` enumerates per input size to count the feasible ones (beyond it the
/// count is a lower bound, "at least N"): about 0.3 s on one core.
const CHECK_ENUMERATION_LIMIT: u64 = 1_000_000;

/// The input size limit of this run (`--max-input-size`), bytes.
static MAX_INPUT_SIZE: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(orcl_frontend::DEFAULT_MAX_INPUT_SIZE);

fn set_max_input_size(bytes: u64) {
    MAX_INPUT_SIZE.store(bytes, std::sync::atomic::Ordering::Relaxed);
}

fn load(file: &Path) -> Result<(String, String, Vec<Prepared>), Failure> {
    let max = MAX_INPUT_SIZE.load(std::sync::atomic::Ordering::Relaxed);
    let text = orcl_frontend::read_source(file, max).map_err(|e| match e {
        orcl_frontend::ReadError::Encoding(i) => Failure::Input(i),
        io => Failure::Usage(io.to_string()),
    })?;
    let path = file.display().to_string();
    let prepared = prepare(&path, &text)?;
    Ok((path, text, prepared))
}

fn duration(s: &str, bare_unit: f64, what: &str) -> Result<Duration, Failure> {
    let v = s
        .parse::<f64>()
        .map(Value::Float)
        .unwrap_or_else(|_| Value::Str(s.to_string()));
    parse_duration(&v, bare_unit)
        .ok_or_else(|| Failure::Usage(format!("invalid {what} `{s}`: use e.g. 90s, 5m, 1h")))
}

fn run(cli: Cli) -> Result<i32, Failure> {
    match cli.command {
        Command::Check {
            file,
            max_input_size,
        } => {
            set_max_input_size(max_input_size);
            check(&file)
        }
        Command::Compare {
            file,
            backends,
            db,
            platform,
            device,
            search,
            total_runs,
            size,
            plot,
            json,
            max_input_size,
        } => {
            set_max_input_size(max_input_size);
            let backends: Vec<Backend> = backends
                .iter()
                .map(|b| parse_backend(b.trim()))
                .collect::<Result<_, _>>()?;
            let (path, text, prepared) = load(&file)?;
            let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
            let db = db.unwrap_or_else(|| dir.join("orcl.db"));
            let sizes: Vec<(String, Value)> = size
                .iter()
                .map(|s| assignment(s))
                .collect::<Result<_, _>>()?;
            check_sizes(&prepared, &sizes)?;
            orcl_measure::interrupt::install();
            let mut per_backend = Vec::new();
            for b in backends {
                let opts = TuneOptions {
                    db: db.clone(),
                    algorithm: search.clone(),
                    total_runs,
                    backend: Some(b),
                    platform: platform.filter(|_| b == Backend::OpenCl),
                    device,
                    progress: !json,
                    sizes: sizes.clone(),
                    ..TuneOptions::default()
                };
                match tune::tune(&path, &text, prepared.clone(), &opts) {
                    Ok(r) => per_backend.push((b, r)),
                    Err(TuneError::Input(i)) => return Err(Failure::Input(i)),
                    Err(
                        e @ (TuneError::Interrupted { signal, .. }
                        | TuneError::InterruptedEarly { signal, .. }),
                    ) => {
                        return Err(Failure::Interrupted(signal, e.to_string()));
                    }
                    // A backend that cannot run here (no driver, no device) leaves its column
                    // empty; the other still runs.
                    Err(e) => orcl_frontend::errln!("{}: {e}", b.transform()),
                }
            }
            let rows =
                crate::compare::rows(&per_backend).map_err(|e| Failure::Other(format!("{e:#}")))?;
            if json {
                orcl_frontend::outln!(
                    "{}",
                    serde_json::to_string_pretty(&rows).unwrap_or_default()
                );
            } else {
                orcl_frontend::outln!("{}", crate::compare::render_table(&rows));
            }
            if let Some(out) = plot {
                crate::compare::plot(&rows, &out).map_err(|e| Failure::Usage(format!("{e:#}")))?;
                if !json {
                    orcl_frontend::outln!("plot: {}", out.display());
                }
            }
            let any = rows.iter().any(|r| r.opencl.is_some() || r.cuda.is_some());
            Ok(if any { 0 } else { 1 })
        }
        Command::Emit {
            file,
            set,
            size,
            region,
            skeleton,
            backend,
            max_input_size,
        } => {
            set_max_input_size(max_input_size);
            emit(&file, &set, &size, region, skeleton, backend.as_deref())
        }
        Command::Devices { json } => devices(json),
        Command::Db { db, command } => {
            let r = match command {
                DbCommand::List { json } => crate::dbcli::list(&db, json),
                DbCommand::Show { id, top, json } => crate::dbcli::show(&db, id, top, json),
                DbCommand::Best {
                    region,
                    device,
                    size,
                    json,
                } => crate::dbcli::best(&db, region.as_deref(), device.as_deref(), &size, json),
                DbCommand::Query { sql, json } => crate::dbcli::query(&db, &sql, json),
                DbCommand::Export { id, format, output } => {
                    crate::interchange::export(&db, id, &format, output.as_deref())
                }
                DbCommand::Import { file, format } => {
                    crate::interchange::import(&db, &file, format.as_deref())
                        .map(|id| orcl_frontend::outln!("imported as experiment {id}"))
                }
            };
            r.map(|_| 0).map_err(classify)
        }
        Command::Plot {
            experiments,
            db,
            by,
            output,
        } => {
            crate::outfile::refuse_same(&output, &[("database", &db)])?;
            crate::plot::plot(&db, &experiments, by.as_deref(), &output)
                .map(|_| 0)
                .map_err(classify)
        }
        Command::Worker {
            skeleton,
            platform,
            device,
        } => Ok(orcl_measure::slurm::worker_main(
            &skeleton, platform, device,
        )),
        Command::BuildServer { platform, device } => {
            Ok(orcl_measure::build_server::serve(platform, device))
        }
        Command::Replay {
            db,
            experiment,
            algorithm,
            budget,
            seeds,
            json,
        } => crate::replay::run(&db, experiment, &algorithm, &budget, seeds, json)
            .map(|_| 0)
            .map_err(|e| Failure::Usage(format!("{e:#}"))),
        Command::Tune {
            file,
            db,
            output,
            search,
            seed,
            total_runs,
            time_limit,
            timeout,
            repetitions,
            build_timeout,
            max_idle,
            platform,
            device,
            devices,
            backend,
            top,
            size,
            jobs,
            no_kernel_cache,
            max_input_size,
            slurm,
            partition,
            gpus_per_task,
            ntasks,
            srun,
        } => {
            set_max_input_size(max_input_size);
            let slurm = slurm_options(slurm, partition, gpus_per_task, ntasks, srun)?;
            let backend = backend.as_deref().map(parse_backend).transpose()?;
            if max_idle == Some(0) {
                return Err(Failure::Usage(
                    "invalid --max-idle 0: at least 1 proposal in a row that measures nothing new before the search stops".into(),
                ));
            }
            if repetitions == Some(0) {
                // As the spec's `repetitions = 0` (issue 15 F17).
                return Err(Failure::Usage(
                    "invalid --repetitions 0: at least one timed repetition is needed".into(),
                ));
            }
            let devices = devices
                .as_deref()
                .map(tune::Devices::parse)
                .transpose()
                .map_err(Failure::Usage)?;
            if devices.is_some() && device.is_some() {
                return Err(Failure::Usage(
                    "--device and --devices both given: use --devices alone (its first device is the one the tuned file names)".into(),
                ));
            }
            if let Some(t) = build_timeout {
                orcl_measure::skeleton::set_build_timeout(duration(&t, 60.0, "build timeout")?);
            }
            orcl_measure::interrupt::install();
            let (path, text, prepared) = load(&file)?;
            let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
            let db = db.unwrap_or_else(|| dir.join("orcl.db"));
            let opts = TuneOptions {
                db: db.clone(),
                algorithm: search,
                seed,
                total_runs,
                time_limit: time_limit
                    .map(|t| duration(&t, 60.0, "time limit"))
                    .transpose()?,
                timeout: timeout.map(|t| duration(&t, 1.0, "timeout")).transpose()?,
                repetitions,
                warmups: None,
                backend,
                platform,
                device,
                progress: true,
                sizes: {
                    let sizes: Vec<(String, Value)> = size
                        .iter()
                        .map(|s| assignment(s))
                        .collect::<Result<_, _>>()?;
                    check_sizes(&prepared, &sizes)?;
                    sizes
                },
                jobs,
                no_kernel_cache,
                max_idle,
                devices,
                slurm,
            };
            let results = tune::tune(&path, &text, prepared, &opts).map_err(|e| match e {
                TuneError::Input(i) => Failure::Input(i),
                TuneError::Usage(m) => Failure::Usage(m),
                TuneError::Interrupted { signal, .. }
                | TuneError::InterruptedEarly { signal, .. } => {
                    Failure::Interrupted(signal, e.to_string())
                }
                // The database, the device, the compiler or the worker process failed: not the
                // input, and not "no correct variant" (issue 15 F12).
                other @ (TuneError::Device(_)
                | TuneError::Build(_)
                | TuneError::Db(_)
                | TuneError::Worker(_)) => Failure::Env(other.to_string()),
            })?;
            let mut any = false;
            for r in &results {
                for i in &r.inputs {
                    print_result(&path, r, i, top);
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
                    .filter(|w| w.starts_with("no feasible"))
                    .collect();
                match why.first() {
                    Some(w) => orcl_frontend::errln!("error: {w}; no tuned file written"),
                    None => {
                        orcl_frontend::errln!(
                            "error: no correct variant was found; no tuned file written"
                        )
                    }
                }
                return Ok(1);
            }
            let out = output.unwrap_or_else(|| {
                let name = file
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let tuned_backend = prepared_backend(&results, backend);
                let name = match tuned_backend {
                    Backend::Cuda => match name.strip_suffix(".c") {
                        Some(stem) => format!("{stem}.cu"),
                        None => format!("{name}.cu"),
                    },
                    Backend::OpenCl => name,
                };
                dir.join(format!("_{name}"))
            });
            let tuned = crate::rewrite::rewrite(&text, &path, &db.display().to_string(), &results);
            crate::outfile::write(
                &out,
                tuned.as_bytes(),
                &[("input file", &file), ("database", &db)],
            )?;
            orcl_frontend::outln!("tuned file: {}", out.display());
            orcl_frontend::outln!("database:   {}", db.display());
            Ok(0)
        }
    }
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

/// `opencl` or `cuda` (case-insensitive), for `--backend`.
fn parse_backend(s: &str) -> Result<Backend, Failure> {
    Backend::parse(s)
        .ok_or_else(|| Failure::Usage(format!("unknown backend `{s}`: use `opencl` or `cuda`")))
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
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec![
        "rank",
        "configuration",
        "median ms",
        "min ms",
        "transfer ms",
        "build ms",
        "max rel. error",
    ]);
    for (k, e) in i.ranking().iter().take(top).enumerate() {
        let o = &e.outcome;
        let min = o.samples_ms.iter().cloned().fold(f64::INFINITY, f64::min);
        t.add_row(vec![
            Cell::new(k + 1).set_alignment(CellAlignment::Right),
            Cell::new(e.config.display()),
            Cell::new(format!("{:.4}", o.median_ms().unwrap_or(f64::NAN)))
                .set_alignment(CellAlignment::Right),
            Cell::new(format!("{min:.4}")).set_alignment(CellAlignment::Right),
            Cell::new(o.transfer_ms.map(|x| format!("{x:.4}")).unwrap_or_default())
                .set_alignment(CellAlignment::Right),
            Cell::new(o.build_ms.map(|x| format!("{x:.1}")).unwrap_or_default())
                .set_alignment(CellAlignment::Right),
            Cell::new(o.max_error.map(|x| format!("{x:.1e}")).unwrap_or_default())
                .set_alignment(CellAlignment::Right),
        ]);
    }
    orcl_frontend::outln!("{t}");
    let fails = i.failures();
    if !fails.is_empty() {
        let parts: Vec<String> = fails.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        orcl_frontend::outln!("not ranked: {}", parts.join(", "));
    }
    if let Some(why) = &i.stopped {
        orcl_frontend::outln!("{why}");
    }
    match (&i.best, i.winner_ms) {
        (None, _) => orcl_frontend::outln!("no correct variant for this input size"),
        (Some((b, _)), Some(m)) => orcl_frontend::outln!(
            "winner (the {} fastest re-measured, {}x repetitions): {} — {m:.4} ms",
            tune::FINALISTS,
            3,
            i.evaluations[*b].config.display()
        ),
        (Some((b, _)), None) => {
            orcl_frontend::outln!("winner: {}", i.evaluations[*b].config.display())
        }
    }
}

fn check(file: &Path) -> Result<i32, Failure> {
    let (path, text, prepared) = load(file)?;
    for p in &prepared {
        let raw = &p.region.raw;
        let spec = &p.region.spec;
        let (line, col) = orcl_frontend::diag::line_col(&text, raw.span.start);
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
        orcl_frontend::outln!(
            "  parallel loop: `{}` (step {}), outputs: {}",
            l.var,
            l.step,
            p.kernel
                .args
                .iter()
                .filter(|a| a.written)
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
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
        for input in &p.inputs {
            let space = SearchSpace::new(spec, input);
            let sizes: Vec<String> = input.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let (n, exact) = space.count_feasible(CHECK_ENUMERATION_LIMIT).map_err(|d| {
                Failure::Input(InputError {
                    path: path.clone(),
                    source: text.clone(),
                    diagnostics: vec![d],
                })
            })?;
            orcl_frontend::outln!(
                "  input {}: {} configurations, {}{} satisfy the constraints",
                if sizes.is_empty() {
                    "(none)".to_string()
                } else {
                    sizes.join(" ")
                },
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
                        &path,
                        &text,
                        &orcl_frontend::diag::Diagnostic::new(
                            span,
                            format!(
                                "none of the first {CHECK_ENUMERATION_LIMIT} of the {} configurations satisfies the constraints; `orcl tune` stops with \"no feasible configuration found\" after {} proposals in a row that measure nothing (--max-idle)",
                                space.size(),
                                tune::MAX_IDLE_PROPOSALS
                            )
                        )
                        .with_help("relax the constraints or widen the parameter values")
                    )
                );
            }
        }
    }
    Ok(0)
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

/// Parse `NAME=VALUE` with VALUE in the spec's expression language (a bare word is a string).
/// `--size NAME=VALUE` must name an input parameter and select at least one input size of the
/// spec (a value outside `param NAME[] = [...]` used to tune nothing and report "no correct
/// variant"). Errors: [`Failure::Usage`] (exit 2) listing the values there are.
fn check_sizes(prepared: &[Prepared], sizes: &[(String, Value)]) -> Result<(), Failure> {
    if sizes.is_empty() {
        return Ok(());
    }
    let inputs: Vec<&BTreeMap<String, Value>> = prepared.iter().flat_map(|p| &p.inputs).collect();
    let same = |x: &Value, v: &Value| x == v || x.as_f64().is_some_and(|a| v.as_f64() == Some(a));
    for (k, _) in sizes {
        if !inputs.iter().any(|i| i.contains_key(k)) {
            let mut names: Vec<&String> = inputs.iter().flat_map(|i| i.keys()).collect();
            names.sort();
            names.dedup();
            let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            return Err(Failure::Usage(format!(
                "--size {k}=...: `{k}` is not an input parameter of this file (its input parameters: {})",
                if names.is_empty() { "none".to_string() } else { names.join(", ") }
            )));
        }
    }
    let selected = inputs.iter().any(|i| {
        sizes
            .iter()
            .all(|(k, v)| i.get(k).is_none_or(|x| same(x, v)))
    });
    if selected {
        return Ok(());
    }
    let (k, v) = sizes
        .iter()
        .find(|(k, v)| !inputs.iter().any(|i| i.get(k).is_some_and(|x| same(x, v))))
        .unwrap_or(&sizes[0]);
    let mut values: Vec<&Value> = inputs.iter().filter_map(|i| i.get(k)).collect();
    values.sort_by(|a, b| {
        a.as_f64()
            .partial_cmp(&b.as_f64())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    values.dedup();
    let values: Vec<String> = values.iter().map(|x| x.to_string()).collect();
    Err(Failure::Usage(format!(
        "--size {k}={v} selects no input size of this file: `{k}` takes {} in `input_params` (with its constraints); add {v} to `param {k}[]` there to tune at it",
        values.join(", ")
    )))
}

fn assignment(s: &str) -> Result<(String, Value), Failure> {
    let (n, v) = s
        .split_once('=')
        .ok_or_else(|| Failure::Usage(format!("`{s}`: expected NAME=VALUE")))?;
    let value = match parse_expr(v, 0) {
        Ok(e) if !matches!(e.kind, ExprKind::Name(_)) => e
            .eval(&|_| None)
            .unwrap_or_else(|_| Value::Str(v.to_string())),
        Ok(e) => match &e.kind {
            ExprKind::Name(w) if w == "True" => Value::Bool(true),
            ExprKind::Name(w) if w == "False" => Value::Bool(false),
            _ => Value::Str(v.to_string()),
        },
        Err(_) => Value::Str(v.to_string()),
    };
    Ok((n.trim().to_string(), value))
}

fn emit(
    file: &Path,
    set: &[String],
    size: &[String],
    region: usize,
    skeleton: bool,
    backend: Option<&str>,
) -> Result<i32, Failure> {
    let backend = backend.map(parse_backend).transpose()?;
    let (path, text, prepared) = load(file)?;
    let p = prepared.get(region).ok_or_else(|| {
        Failure::Usage(format!(
            "region {region} does not exist ({} region(s) in {path})",
            prepared.len()
        ))
    })?;
    let spec = &p.region.spec;
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
    let space = SearchSpace::new(spec, &input);
    let mut values: Vec<(String, Value)> = space
        .params
        .iter()
        .map(|p| (p.name.clone(), p.values[0].clone()))
        .collect();
    for s in set {
        let (n, v) = assignment(s)?;
        match values.iter_mut().find(|(k, _)| *k == n) {
            Some(slot) => slot.1 = v,
            None => {
                let names: Vec<&str> = space.params.iter().map(|p| p.name.as_str()).collect();
                return Err(Failure::Usage(format!(
                    "`{n}` is not a tuning parameter{}",
                    did_you_mean(&n, names)
                        .map(|h| format!("; {h}"))
                        .unwrap_or_default()
                )));
            }
        }
    }
    let cfg = Configuration { values };
    let input_error = |d| {
        Failure::Input(InputError {
            path: path.clone(),
            source: text.clone(),
            diagnostics: vec![d],
        })
    };
    if let Some(c) = space.check(&cfg).map_err(input_error)? {
        orcl_frontend::errln!(
            "warning: this configuration breaks constraint `{c}`; orcl tune would never build it"
        );
    }
    if skeleton {
        let label = format!("{path} region {region}");
        let render = match tune::backend_of(
            p,
            &TuneOptions {
                backend,
                ..TuneOptions::default()
            },
        ) {
            Backend::OpenCl => orcl_codegen::skeleton::render_opencl,
            Backend::Cuda => orcl_codegen::skeleton::render_cuda,
        };
        let text = render(&p.kernel, spec, &input, &label).map_err(input_error)?;
        return Ok(write_stdout(&text));
    }
    let opts = TuneOptions {
        backend,
        ..TuneOptions::default()
    };
    let v = tune::variant_for(p, &space, &cfg, &opts, None).map_err(input_error)?;
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
        out.push_str(&format!(
            "/* invalid schedule, never built: {why} */
"
        ));
    }
    if let Some(g) = &v.grid {
        let names = ["0", "1", "2"];
        out.push_str(&format!(
            "/* {}-D NDRange (grid): {} */
",
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
        ));
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
            v.build_options
        )),
        Backend::Cuda => out.push_str(&format!(
            "/* grid: {}, {} threads per block; NVRTC options and launch tokens: \"{}\" */\n/* ---- CUDA kernel ---- */\n",
            match v.global_size {
                _ if v.grid.is_some() => "one block per tile".into(),
                orcl_codegen::GlobalSize::Fixed(g) => format!("{} blocks", g / v.local_size.max(1)),
                orcl_codegen::GlobalSize::CoverLoop => "one thread per iteration".into(),
            },
            v.local_size,
            v.build_options
        )),
    }
    out.push_str(&v.source);
    out.push_str("/* ---- host code ---- */\n");
    let raw = &p.region.raw;
    let fname = raw
        .function
        .as_ref()
        .map(|f| f.name.clone())
        .unwrap_or_else(|| "file".into());
    let name = orcl_codegen::host::function_name(&fname, region);
    let extra: Vec<(String, &'static str)> = p
        .bindings
        .iter()
        .map(|(var, _)| (var.clone(), "int"))
        .collect();
    let ps = orcl_codegen::host::params(&p.kernel, &extra);
    let elems = crate::rewrite::element_counts(p, &input);
    let label = input
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ");
    let (line, _) = orcl_frontend::diag::line_col(&text, raw.span.start);
    let hv = orcl_codegen::host::HostVariant {
        variant: v,
        label,
        config: cfg.display(),
        condition: None,
        elems,
    };
    out.push_str(&orcl_codegen::host::render_host_function(
        &name,
        &fname,
        &path,
        line,
        &p.kernel,
        &[hv],
        &ps,
    ));
    Ok(write_stdout(&out))
}

/// Write `text` to stdout; a closed pipe (`orcl emit f.c | head`) is not an error. Returns the exit
/// code.
fn write_stdout(text: &str) -> i32 {
    use std::io::Write;
    let mut so = std::io::stdout().lock();
    match so.write_all(text.as_bytes()).and_then(|_| so.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            orcl_frontend::errln!("error: cannot write to standard output: {e}");
            1
        }
    }
}

fn devices(json: bool) -> Result<i32, Failure> {
    use orcl_measure::device::{self, DeviceInfo};
    let mut devs: Vec<DeviceInfo> = Vec::new();
    // One status line per backend that listed nothing, or that has something to say.
    let mut lines: Vec<String> = Vec::new();
    match device::opencl_devices() {
        Ok(d) if d.is_empty() => lines.push("OpenCL: no OpenCL device found".into()),
        Ok(d) => devs.extend(d),
        Err(e) => lines.push(format!("OpenCL: {e}")),
    }
    match device::cuda_devices() {
        Ok(d) => {
            let api = device::cuda_driver_version().unwrap_or_default();
            let nvrtc = match device::nvrtc() {
                Ok(n) => format!("NVRTC {}.{} ({})", n.major, n.minor, n.path),
                Err(e) => format!("NVRTC: {e}"),
            };
            if d.is_empty() {
                lines.push(format!(
                    "CUDA: driver API {api} found, but no CUDA device; {nvrtc}"
                ));
            } else {
                lines.push(format!(
                    "CUDA: driver API {api}, {} device(s); {nvrtc}",
                    d.len()
                ));
            }
            devs.extend(d);
        }
        Err(e) => lines.push(format!("CUDA: {e}")),
    }
    let code = if devs.is_empty() { 1 } else { 0 };
    if json {
        for l in &lines {
            orcl_frontend::errln!("{l}");
        }
        let text = serde_json::to_string_pretty(&devs).unwrap_or_default() + "\n";
        return Ok(write_stdout(&text).max(code));
    }
    if devs.is_empty() {
        for l in &lines {
            orcl_frontend::errln!("{l}");
        }
        return Ok(code);
    }
    // Table II of the OrCL paper: one row per property, one column per device.
    let human = |b: u64| {
        if b == 0 {
            "none".to_string()
        } else {
            bytes(b).replace(".0 ", " ")
        }
    };
    let dims = |v: Vec<String>| format!("({})", v.join(", "));
    type Property = Box<dyn Fn(&DeviceInfo) -> String>;
    let rows: Vec<(&str, Property)> = vec![
        (
            "backend",
            Box::new(|d| match d.backend {
                "cuda" => "CUDA".into(),
                _ => "OpenCL".into(),
            }),
        ),
        (
            "index",
            Box::new(|d| match d.backend {
                "cuda" => d.device_index.to_string(),
                _ => format!("{}:{}", d.platform_index, d.device_index),
            }),
        ),
        ("platform", Box::new(|d| d.platform.clone())),
        (
            "version",
            Box::new(|d| match d.compute_capability {
                Some((ma, mi)) if d.driver_version.starts_with("CUDA") => {
                    format!("compute capability {ma}.{mi}\n{}", d.platform)
                }
                Some((ma, mi)) => format!(
                    "compute capability {ma}.{mi}\n{}, driver {}",
                    d.platform, d.driver_version
                ),
                None => d.device_version.clone(),
            }),
        ),
        (
            "compute units",
            Box::new(|d| match d.backend {
                "cuda" => format!("{} SMs", d.compute_units),
                _ => d.compute_units.to_string(),
            }),
        ),
        (
            "max work-group size",
            Box::new(|d| d.max_work_group_size.to_string()),
        ),
        (
            "max work-items",
            Box::new(move |d| {
                dims(
                    d.max_work_item_sizes
                        .iter()
                        .map(|x| x.to_string())
                        .collect(),
                )
            }),
        ),
        (
            "max grid size",
            Box::new(move |d| {
                if d.max_grid_size.is_empty() {
                    "-".into()
                } else {
                    dims(d.max_grid_size.iter().map(|x| x.to_string()).collect())
                }
            }),
        ),
        ("clock", Box::new(|d| format!("{} MHz", d.max_clock_mhz))),
        (
            "global-memory cache",
            Box::new(move |d| human(d.global_cache_bytes)),
        ),
        (
            "global memory",
            Box::new(move |d| human(d.global_mem_bytes)),
        ),
        (
            "constant memory",
            Box::new(move |d| human(d.constant_mem_bytes)),
        ),
        (
            "local memory",
            Box::new(move |d| match d.local_mem_optin_bytes {
                Some(o) if o > d.local_mem_bytes => {
                    format!("{} (opt-in {})", human(d.local_mem_bytes), human(o))
                }
                _ => human(d.local_mem_bytes),
            }),
        ),
        (
            "preferred WG multiple",
            Box::new(|d| match (d.preferred_work_group_multiple, d.backend) {
                (Some(m), "cuda") => format!("{m} (warp)"),
                (Some(m), _) => m.to_string(),
                (None, _) => "?".into(),
            }),
        ),
        (
            "fp64",
            Box::new(|d| if d.fp64 { "yes" } else { "no" }.into()),
        ),
    ];
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    let mut header = vec![Cell::new("device")];
    header.extend(devs.iter().map(|d| Cell::new(&d.name)));
    t.set_header(header);
    for (label, f) in &rows {
        let mut row = vec![Cell::new(label)];
        row.extend(devs.iter().map(|d| Cell::new(f(d))));
        t.add_row(row);
    }
    let mut out = format!("{t}\n");
    for l in &lines {
        out.push_str(l);
        out.push('\n');
    }
    Ok(write_stdout(&out).max(code))
}

fn bytes(b: u64) -> String {
    const U: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut x = b as f64;
    let mut k = 0;
    while x >= 1024.0 && k + 1 < U.len() {
        x /= 1024.0;
        k += 1;
    }
    if k == 0 {
        format!("{b} B")
    } else {
        format!("{x:.1} {}", U[k])
    }
}
