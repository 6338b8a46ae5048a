//! The tuning driver: for each region and input size, builds the timing skeleton once, lets the
//! search strategy propose configurations, generates and measures each variant (or reuses its
//! stored evaluation), records everything in the database, and picks the fastest correct variant.
//!
//! One module per stage (issue 14 step 5): `settings` (command line over spec, the device or
//! `--devices` list), `experiment` (database identity and resume), `pipeline` (variants,
//! skeletons, measuring workers and the build pool), `search_loop` (proposals → measurements →
//! rows), `finalists` (re-measurement of the fastest), `progress` (the bar). This file holds the
//! public types and the order in which the stages meet.

mod energy;
pub use energy::Objective;
mod experiment;
mod finalists;
mod pipeline;
mod progress;
mod search_loop;
mod settings;
mod stages;
mod warm;

pub use pipeline::{device_limit, variant_for};
pub use settings::{backend_of, objective_is_total};

use crate::db::Db;
use crate::prepare::Prepared;
use orcl_codegen::{Backend, Variant};
use orcl_frontend::diag::{Diagnostic, InputError};
use orcl_frontend::expr::Value;
use orcl_frontend::space::{Configuration, SearchSpace};
use orcl_measure::device::{self, DeviceInfo};
use orcl_measure::skeleton;
use orcl_measure::{Outcome, Status};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How many of the fastest distinct variants are re-measured (3× the repetitions) at the end.
pub const FINALISTS: usize = 3;

/// Default of `--max-idle`: on a space too large to enumerate (more than
/// [`crate::prepare::FEASIBILITY_LIMIT`] configurations), the search stops after this many
/// proposals in a row that measured nothing new (rejected by a constraint, over a device limit,
/// a kernel identical to one already measured, a generation error). Each such proposal costs
/// microseconds (a constraint) to a millisecond (a generated kernel), so this bounds the work
/// between two measurements to seconds or minutes, and `--total-runs T` bounds a whole tune to
/// about `T × (MAX_IDLE_PROPOSALS + 1)` proposals (issue 15 F8).
pub const MAX_IDLE_PROPOSALS: u64 = 1_000_000;

/// Command-line overrides and settings of one `orcl tune` run.
#[derive(Debug, Clone, Default)]
pub struct TuneOptions {
    /// The tuning database file.
    pub db: PathBuf,
    /// Search algorithm (overrides the spec's `algorithm`).
    pub algorithm: Option<String>,
    pub seed: Option<u64>,
    /// Budget: evaluation rows of the experiment, across resumes (rows an earlier, interrupted
    /// run stored count; constraint rejections are not rows). Issue 25 G8.
    pub total_runs: Option<u64>,
    /// `--more N`: reopen the experiment on purpose and add up to N rows to it, whatever its
    /// status and `total_runs` (a `done` experiment is otherwise not extended by a rerun).
    pub more: Option<u64>,
    /// Budget: wall time per (region, input size).
    pub time_limit: Option<Duration>,
    /// Per-variant timeout (default: adaptive, 10× the slowest good variant, at least 10 s).
    pub timeout: Option<Duration>,
    pub repetitions: Option<u32>,
    pub warmups: Option<u32>,
    /// `--warm-start`: seed the search with the best configurations recorded for the same loop
    /// at other input sizes or on other devices ([`warm`]).
    pub warm_start: bool,
    /// The backend to tune (default: the annotation's first transform).
    pub backend: Option<Backend>,
    /// Run every variant on this OpenCL platform / device (CUDA device ordinal) instead of the
    /// transform's.
    pub platform: Option<usize>,
    pub device: Option<usize>,
    /// Show a progress bar (only when stdout is a terminal).
    pub progress: bool,
    /// Tune only the input sizes with these input-parameter values (all when empty).
    pub sizes: Vec<(String, Value)>,
    /// Kernel build threads ahead of measurement (`--jobs`; default: the machine's cores on a
    /// GPU, 0 on a CPU device; 0: build in the measuring worker). OpenCL, and CUDA with NVRTC
    /// loadable in orcl's process (`ORCL_CUDA_POOL=0`: the worker). See `measure::pool`.
    pub jobs: Option<usize>,
    /// Do not read or write the kernel-binary cache (`--no-kernel-cache`).
    pub no_kernel_cache: bool,
    /// Proposals in a row that measure nothing new before the search of a space too large to
    /// enumerate stops (`--max-idle`; default [`MAX_IDLE_PROPOSALS`]).
    pub max_idle: Option<u64>,
    /// Measure on several identical devices at once (`--devices 0,1 | all`): one worker per
    /// device, configurations handed out from one queue. `None`: the one device of `device`.
    pub devices: Option<Devices>,
    /// `--slurm`: start the measuring workers as srun steps (`measure::slurm`), worker k on the
    /// (k mod N)-th device of `devices` (or on the one device); `None`: local workers.
    pub slurm: Option<orcl_measure::slurm::Slurm>,
    /// `--objective time | energy | edp` (over the spec's `arg objective`; docs/ENERGY.md).
    pub objective: Option<String>,
}

/// The devices of `--devices`: OpenCL device indices within the platform, or CUDA ordinals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Devices {
    /// Every device of the platform (OpenCL) or every CUDA device.
    All,
    /// These indices, in order, distinct; the first one is the experiment's device (its tuned
    /// file names it, the finalists are re-measured on it).
    List(Vec<usize>),
}

impl Devices {
    /// Parses `all` or a comma-separated list of distinct indices (`0,1,3`). Errors: a usage
    /// message naming the bad element.
    pub fn parse(s: &str) -> Result<Devices, String> {
        if s.trim().eq_ignore_ascii_case("all") {
            return Ok(Devices::All);
        }
        let mut list = Vec::new();
        for part in s.split(',') {
            let d: usize = part.trim().parse().map_err(|_| {
                format!(
                    "invalid --devices `{s}`: `{}` is not a device index; use e.g. `0,1` or `all`",
                    part.trim()
                )
            })?;
            if list.contains(&d) {
                return Err(format!(
                    "invalid --devices `{s}`: device {d} is listed twice"
                ));
            }
            list.push(d);
        }
        Ok(Devices::List(list))
    }
}

/// Why a tune stopped without a result.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    #[error("{0}")]
    Input(#[from] InputError),
    #[error("{0}")]
    Device(#[from] device::DeviceError),
    #[error("{0}")]
    Build(#[from] skeleton::BuildError),
    #[error("tuning database: {0}")]
    Db(#[from] crate::db::DbError),
    #[error("cannot start the timing skeleton: {0}")]
    Worker(#[from] orcl_measure::worker::SpawnError),
    /// SIGINT/SIGTERM (the number) arrived before the experiment was opened (during the skeleton
    /// build): nothing was recorded.
    #[error("interrupted by {} before anything was measured ({what}); nothing recorded", orcl_measure::interrupt::name(*.signal))]
    InterruptedEarly { signal: i32, what: String },
    #[error("{0}")]
    Usage(String),
    /// SIGINT/SIGTERM (the number) arrived; the experiment was marked `interrupted`.
    #[error("interrupted by {}: experiment {experiment} marked `interrupted`; run the same command again to resume it", orcl_measure::interrupt::name(*.signal))]
    Interrupted { signal: i32, experiment: i64 },
}

/// How the winner was chosen: the [`FINALISTS`] fastest distinct variants of the search
/// re-measured with more repetitions, the fastest of them winning.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirmed {
    /// Index into the evaluations of the winner.
    pub winner: usize,
    /// Its re-measured median (ms).
    pub winner_ms: f64,
    /// Every finalist re-measured, in the order measured (fastest search median first): index
    /// into the evaluations and re-measured median (ms). The winner is one of them.
    pub finalists: Vec<(usize, f64)>,
    /// Repetitions of each re-measurement (`None` when not recorded, as in older databases).
    pub repetitions: Option<u32>,
}

/// One evaluated configuration.
#[derive(Debug, Clone)]
pub struct Evaluated {
    pub config: Configuration,
    pub outcome: Outcome,
    /// Whether it came from the database (resume) rather than a new measurement.
    pub reused: bool,
}

/// The result of tuning one region at one input size.
#[derive(Debug, Clone)]
pub struct InputResult {
    pub input: BTreeMap<String, Value>,
    pub experiment_id: i64,
    pub device: DeviceInfo,
    pub evaluations: Vec<Evaluated>,
    /// What the search and the winner minimised.
    pub objective: Objective,
    /// Index into `evaluations` of the fastest correct variant, and its generated code.
    pub best: Option<(usize, Variant)>,
    /// Median (ms) of the winner when re-measured with more repetitions at the end.
    pub winner_ms: Option<f64>,
    /// The finalists re-measured at the end and how the winner was chosen among them.
    pub confirmed: Option<Confirmed>,
    pub measured: usize,
    pub reused: usize,
    /// Configurations proposed by the search in this run (count), feasible or not: database
    /// hits, measurements, identical kernels, device limits and constraint rejections.
    pub proposals: u64,
    /// Configurations of this run rejected by a constraint (count). They are counted, not stored
    /// as evaluations (metadata `constraint_rejected`); legacy `constraint` rows of an older
    /// orcl, read back from the database, are in `evaluations` instead.
    pub rejected: u64,
    /// Why the search stopped before its strategy ran out of configurations and before its
    /// budget was spent (the idle-proposal limit), when it did.
    pub stopped: Option<String>,
    pub elapsed: Duration,
    /// `--devices`: (device index, configurations it measured in this run), in index order;
    /// empty without `--devices`.
    pub per_device: Vec<(usize, usize)>,
    /// `--slurm`: each worker's device, configurations measured in this run, and the steps it ran
    /// as (`step J.S on HOST`; more than one when it was restarted); empty without `--slurm`.
    pub slurm_workers: Vec<SlurmWorker>,
}

/// One `--slurm` measuring worker of a run (see [`InputResult::slurm_workers`]).
#[derive(Debug, Clone, serde::Serialize)]
pub struct SlurmWorker {
    pub device: usize,
    pub measured: usize,
    pub steps: Vec<String>,
}

impl InputResult {
    /// Correct variants sorted by the objective (median time, ms, fastest first; energy per
    /// call or EDP under those objectives, variants without a reading last).
    pub fn ranking(&self) -> Vec<&Evaluated> {
        let mut v: Vec<&Evaluated> = self
            .evaluations
            .iter()
            .filter(|e| e.outcome.status == Status::Ok)
            .collect();
        let key = |e: &Evaluated| self.objective.value(&e.outcome).unwrap_or(f64::MAX);
        v.sort_by(|a, b| key(a).total_cmp(&key(b)));
        v
    }
    /// Number of evaluations per failure class.
    pub fn failures(&self) -> BTreeMap<&'static str, usize> {
        let mut m = BTreeMap::new();
        for e in &self.evaluations {
            if e.outcome.status != Status::Ok {
                *m.entry(e.outcome.status.as_str()).or_insert(0) += 1;
            }
        }
        if self.rejected > 0 {
            *m.entry(Status::Constraint.as_str()).or_insert(0) += self.rejected as usize;
        }
        m
    }
}

/// The results of one region.
#[derive(Debug, Clone)]
pub struct RegionResult {
    pub prepared: Prepared,
    pub inputs: Vec<InputResult>,
}

fn sha(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0]);
    }
    hex::encode(&h.finalize()[..16])
}

fn located(text: &str, path: &str, d: Diagnostic) -> TuneError {
    TuneError::Input(InputError {
        path: path.to_string(),
        source: text.to_string(),
        diagnostics: vec![d],
    })
}

/// Tune every prepared region of `path` (whose text is `text`). Progress goes to stderr.
pub fn tune(
    path: &str,
    text: &str,
    prepared: Vec<Prepared>,
    opts: &TuneOptions,
) -> Result<Vec<RegionResult>, TuneError> {
    let db = Db::open(&opts.db)?;
    let fault = pipeline::test_fault();
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    let mut results = Vec::new();
    for p in prepared {
        let region = experiment::upsert_region(&db, &p, path, text)?;
        let mut settings = settings::Settings::resolve(&p.region.spec, opts);
        if let Some(first) = p.inputs.first() {
            let size = SearchSpace::new(&p.region.spec, first).size();
            if let Some(note) = settings.choose_default(size) {
                orcl_frontend::outln!("{note}");
            }
        }
        let mut inputs = Vec::new();
        let mut memory_checked = false;
        for input in p.inputs.iter().filter(|i| settings::selected(opts, i)) {
            let ctx = InputContext {
                path,
                text,
                p: &p,
                opts,
                db: &db,
                fault: &fault,
                host: &host,
                region: &region,
                settings: &settings,
            };
            inputs.push(tune_input(&ctx, input, &mut memory_checked)?);
        }
        results.push(RegionResult {
            prepared: p,
            inputs,
        });
    }
    Ok(results)
}

/// `--warm-start` (nothing without it): seed `strategy` with the best configurations recorded for the same loop at
/// another size or on another device, and say so in one line ([`warm`]).
fn warm_start(
    ctx: &InputContext,
    strategy: &mut dyn orcl_search::Strategy,
    experiment: i64,
    device_id: i64,
) -> Result<(), TuneError> {
    if !ctx.opts.warm_start {
        return Ok(());
    }
    let found = warm::seeds(
        ctx.db,
        &ctx.region.loop_hash,
        experiment,
        device_id,
        crate::replay::WARM_COUNT,
    )?;
    match found {
        Some(s) if strategy.warm_start(&s.configs) => orcl_frontend::outln!("{}", s.line),
        Some(_) => orcl_frontend::outln!(
            "warm start: {} does not take seeds (its order is fixed); name an adaptive strategy with --search",
            strategy.name()
        ),
        None => orcl_frontend::outln!(
            "warm start: the database has no other measurement of this loop (other sizes or devices); starting cold"
        ),
    }
    Ok(())
}

/// What every input size of one region shares.
struct InputContext<'a> {
    path: &'a str,
    text: &'a str,
    p: &'a Prepared,
    opts: &'a TuneOptions,
    db: &'a Db,
    fault: &'a pipeline::TestFault,
    host: &'a str,
    region: &'a experiment::RegionKey,
    settings: &'a settings::Settings,
}

/// Tunes one region at one input size: device, skeleton, experiment, workers, search, finalists.
/// `memory_checked`: whether every selected size's arrays were already checked against the
/// device (done once, at the first size, so that no size is tuned before a later one is refused).
/// On a space too large to enumerate, `--max-idle` proposals in a row that measure nothing
/// new end the search (issue 15 F8): that count, or `None` on an enumerable space.
fn max_idle(space: &SearchSpace, opts: &TuneOptions) -> Option<u64> {
    (space.size() > crate::prepare::FEASIBILITY_LIMIT)
        .then(|| opts.max_idle.unwrap_or(MAX_IDLE_PROPOSALS))
}

fn tune_input(
    ctx: &InputContext,
    input: &BTreeMap<String, Value>,
    memory_checked: &mut bool,
) -> Result<InputResult, TuneError> {
    let (path, text, p, settings) = (ctx.path, ctx.text, ctx.p, ctx.settings);
    let spec = &p.region.spec;
    let start = Instant::now();
    let mut stages = stages::Stages::default();
    let space = SearchSpace::new(spec, input);
    let mut strategy = settings.strategy(spec, ctx.opts, text, path)?;
    let first = space.config_at(0);
    let (backend, target, selection) =
        stages.run("discovery", || choose_target(ctx, &space, &first))?;
    let (dev, opts, device_list) = (target.device, target.opts, target.device_list);
    let opts = &opts;
    let objective = energy::Objective::of(p, opts);
    let meter = energy::Meter::open(objective, p, opts, &dev)?;
    let space = within_device_limits(space, p, opts, &dev);
    let device_id = experiment::upsert_device(ctx.db, backend, &dev)?;
    let label = region_label(ctx);
    // The build pool before the skeleton: a cold cache's build processes start meanwhile.
    let v0 = variant_for(p, &space, &first, opts, None).map_err(|d| located(text, path, d))?;
    let pool = pipeline::start_build_pool(&v0, &dev, opts);
    let mut skeletons =
        pipeline::Skeletons::new(p, input, backend, &label).map_err(|d| located(text, path, d))?;
    let first_build = FirstBuild {
        space: &space,
        first: &first,
        dev: &dev,
        backend,
        opts,
    };
    let (plan0, exe) = stages.run("skeleton", || {
        first_skeleton(ctx, &mut skeletons, &first_build, memory_checked)
    })?;
    let exp = stages.run("experiment", || {
        open_experiment(
            ctx,
            input,
            &first_build,
            device_id,
            &device_list,
            selection,
            (&plan0, &exe),
        )
    })?;
    stages::guard_experiment(&ctx.opts.db, exp.id);
    warm_start(ctx, strategy.as_mut(), exp.id, device_id)?;
    let mut workers = stages.run("workers", || {
        start_workers(ctx, exe, &first_build, (&v0, pool), &device_list, exp.id)
    })?;
    meter
        .as_ref()
        .map(|m| m.record(ctx.db, exp.id, objective))
        .transpose()?;
    workers.energy = meter;
    let max_idle = max_idle(&space, opts);
    let bar = search_progress(ctx, opts, &space, &label, input, &exp);
    let env = search_loop::Env {
        p,
        space: &space,
        opts,
        settings,
        dev: &dev,
        fault: ctx.fault,
        db: ctx.db,
        experiment_id: exp.id,
        stored: &exp.stored,
        new_rows: new_rows_allowed(settings.total_runs, opts.more, &exp),
        total: objective_is_total(p),
        objective,
        max_idle,
        text,
        path,
    };
    let batch_size = batch_size(settings, &workers);
    let st = stages.run("search", || {
        search_loop::run(
            &env,
            strategy.as_mut(),
            &mut skeletons,
            &mut workers,
            &bar,
            start,
            batch_size,
        )
    })?;
    bar.finish_and_clear();
    stages.add("search_db_writes", st.db_time);
    let stopped = st.stopped.clone().or_else(|| {
        st.evaluations
            .is_empty()
            .then(|| nothing_feasible(strategy.name(), space.size(), st.proposals))
    });
    let confirmed = stages.run("finalists", || {
        confirm_winner(&env, &skeletons, &mut workers, &st)
    })?;
    let slurm_workers = stages.run("database", || record_run(ctx.db, exp.id, &workers, &st))?;
    let best = confirmed.as_ref().map(|c| (c.winner, 0.0)).or(st.best);
    let best = wrap_up(&env, &stages, start, best, &st.evaluations)?;
    Ok(InputResult {
        input: input.clone(),
        experiment_id: exp.id,
        device: dev.clone(),
        best,
        winner_ms: confirmed.as_ref().map(|c| c.winner_ms),
        confirmed,
        measured: st.measured,
        reused: st.reused,
        proposals: st.proposals,
        rejected: st.rejected,
        stopped,
        elapsed: start.elapsed(),
        per_device: workers.per_device(&st.per_worker),
        slurm_workers,
        evaluations: st.evaluations,
        objective,
    })
}

/// The backend, the device and the options it is measured with (the transform's
/// platform/device of the first configuration, or the override), and the selection as given
/// (`--platform`/`--device`).
fn choose_target(
    ctx: &InputContext,
    space: &SearchSpace,
    first: &Configuration,
) -> Result<(Backend, settings::Target, String), TuneError> {
    let (path, text, p) = (ctx.path, ctx.text, ctx.p);
    // Only the first configuration's `platform`/`device` arguments are bound: no kernel is made.
    let (platform0, device0) =
        pipeline::device_for(p, space, first, ctx.opts).map_err(|d| located(text, path, d))?;
    let backend = settings::backend_of(p, ctx.opts);
    let selection = format!("{:?}/{:?}", ctx.opts.platform, ctx.opts.device);
    let mut target = settings::select_target(p, ctx.opts, backend, platform0, device0, text, path)?;
    if ctx.opts.slurm.is_none() {
        let list = std::mem::take(&mut target.device_list);
        target.device_list = feedable_devices(list, space.size(), ctx.settings.total_runs);
    }
    Ok((backend, target, selection))
}

/// Adaptive strategies never propose a configuration whose variant exceeds the device's
/// limits (the HPL paper's genetic search discards them before evaluation).
fn within_device_limits(
    space: SearchSpace,
    p: &Prepared,
    opts: &TuneOptions,
    dev: &DeviceInfo,
) -> SearchSpace {
    let (p2, s2, o2, d2) = (p.clone(), space.clone(), opts.clone(), dev.clone());
    space.with_prefilter(move |cfg: &Configuration| {
        let v = variant_for(&p2, &s2, cfg, &o2, None).ok()?;
        device_limit(&v, &d2).map(orcl_frontend::space::Rejection::DeviceLimit)
    })
}

/// `file.c:12 f()`: the region as the progress bar names it.
fn region_label(ctx: &InputContext) -> String {
    let raw = &ctx.p.region.raw;
    format!(
        "{path}:{line} {}()",
        raw.function
            .as_ref()
            .map(|f| f.name.as_str())
            .unwrap_or("?"),
        path = ctx.path,
        line = orcl_frontend::diag::line_col(ctx.text, raw.span.start).0
    )
}

/// What the first configuration's skeleton and workers are made for.
struct FirstBuild<'a> {
    space: &'a SearchSpace,
    first: &'a Configuration,
    dev: &'a DeviceInfo,
    backend: Backend,
    opts: &'a TuneOptions,
}

/// The first configuration's timing skeleton: its build plan and binary. Before it is built,
/// every selected input size's arrays are checked against the device (once per region).
fn first_skeleton(
    ctx: &InputContext,
    skeletons: &mut pipeline::Skeletons,
    fb: &FirstBuild,
    memory_checked: &mut bool,
) -> Result<(skeleton::BuildPlan, PathBuf), TuneError> {
    let (path, text, p) = (ctx.path, ctx.text, ctx.p);
    let plan0 = skeletons
        .plan_for(fb.space, fb.first)
        .map_err(|d| located(text, path, d))?;
    // Refuse an input size whose arrays cannot fit, before anything is built or allocated
    // (issue 15 F10): every selected size at the first one, since they all run on this device.
    if !*memory_checked {
        for other in p.inputs.iter().filter(|i| settings::selected(fb.opts, i)) {
            pipeline::check_memory(p, other, fb.dev, fb.backend)
                .map_err(|d| located(text, path, d))?;
        }
        *memory_checked = true;
    }
    // The first configuration's skeleton failing to build is an error of the experiment; a later
    // plan that fails records its configurations as compile errors.
    let exe = skeletons
        .build(&plan0)
        .map_err(|e| match orcl_measure::interrupt::requested() {
            // A signal killed the build: an interruption (exit 128 + signal), not a build failure
            // (exit 3); found by tests/faults.sh.
            Some(signal) => TuneError::InterruptedEarly {
                signal,
                what: "building the timing skeleton".into(),
            },
            None => TuneError::Build(e),
        })?;
    skeletons.insert(plan0.clone(), exe.clone());
    Ok((plan0, exe))
}

/// Opens (or resumes) the experiment of this region, input size and device, the first
/// skeleton's build command and binary recorded with it.
fn open_experiment(
    ctx: &InputContext,
    input: &BTreeMap<String, Value>,
    fb: &FirstBuild,
    device_id: i64,
    device_list: &[usize],
    selection: String,
    (plan0, exe): (&skeleton::BuildPlan, &PathBuf),
) -> Result<experiment::Experiment, TuneError> {
    let settings = ctx.settings;
    experiment::open(
        ctx.db,
        ctx.p,
        &experiment::Identity {
            region: ctx.region,
            input,
            device: fb.dev,
            device_id,
            backend: fb.backend,
            opts: fb.opts,
            device_list,
            selection,
        },
        &settings.algorithm,
        settings.seed,
        ctx.host,
        &plan0.command,
        &[
            ("repetitions", settings.reps.to_string()),
            ("warmups", settings.warmups.to_string()),
            // The cache path, not the descriptor path it runs by (issue 25 G1).
            (
                "skeleton",
                orcl_measure::skeleton::cache::on_disk(exe)
                    .display()
                    .to_string(),
            ),
        ],
    )
}

/// Starts the measuring workers: a skeleton that cannot start is an error of the whole
/// experiment; a signal meanwhile (a Slurm worker waiting in the queue) interrupts it.
fn start_workers(
    ctx: &InputContext,
    exe: PathBuf,
    fb: &FirstBuild,
    (v0, pool): (&Variant, pipeline::Pool),
    device_list: &[usize],
    experiment_id: i64,
) -> Result<pipeline::Workers, TuneError> {
    pipeline::Workers::start(exe, ctx.settings, v0, fb.dev, fb.opts, device_list, pool).map_err(
        |e| {
            match (&e, orcl_measure::interrupt::requested()) {
                // A signal while a worker starts (a Slurm worker waiting in the queue) interrupts
                // the experiment, as it would mid-search.
                (TuneError::Worker(_), Some(signal)) => {
                    match ctx.db.finish_experiment(experiment_id, "interrupted") {
                        Ok(()) => TuneError::Interrupted {
                            signal,
                            experiment: experiment_id,
                        },
                        Err(d) => d.into(),
                    }
                }
                // Any other failure (a skeleton that cannot start on this device): the experiment
                // is `failed`, with the reason in its metadata (`failure`), never left `running`.
                _ => {
                    let marked = ctx
                        .db
                        .finish_experiment(experiment_id, "failed")
                        .and_then(|()| {
                            ctx.db
                                .set_metadata(experiment_id, "failure", &e.to_string())
                        });
                    match marked {
                        Ok(()) => e,
                        Err(d) => d.into(),
                    }
                }
            }
        },
    )
}

/// `--devices`: the fewest configurations worth a device of its own (its worker's start, a
/// device context and the inputs' upload, costs about as much as 8 measurements of a large kernel
/// on an H100: docs/BENCHMARKS.md "Every GPU of a node").
const MIN_CONFIGURATIONS_PER_DEVICE: u64 = 8;

/// `--devices`: never more devices than the run can feed (issue 24): at most one per
/// [`MIN_CONFIGURATIONS_PER_DEVICE`] configurations it can measure (`size`, the space, or
/// `total_runs`), the first of the list kept; one line says so when devices are left out.
fn feedable_devices(mut list: Vec<usize>, size: u64, total_runs: Option<u64>) -> Vec<usize> {
    let n = total_runs.map_or(size, |t| t.min(size));
    let keep = n.div_ceil(MIN_CONFIGURATIONS_PER_DEVICE).max(1) as usize;
    if list.len() > keep {
        eprintln!(
            "note: --devices: {n} configuration(s) feed {keep} of the {} devices listed (at least {MIN_CONFIGURATIONS_PER_DEVICE} each); measuring on device(s) {}",
            list.len(),
            list[..keep]
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        list.truncate(keep);
    }
    list
}

/// Exhaustive and Random propose the same sequence whatever the batch size: a larger batch
/// lets the build pool run further ahead. Adaptive strategies keep 16.
fn batch_size(settings: &settings::Settings, workers: &pipeline::Workers) -> usize {
    match settings.algorithm.to_ascii_lowercase().as_str() {
        "exhaustive" | "random" => 16.max(4 * workers.jobs).max(4 * workers.devices.len()),
        _ => 16,
    }
}

/// The search's progress bar, saying first when the experiment resumes.
fn search_progress(
    ctx: &InputContext,
    opts: &TuneOptions,
    space: &SearchSpace,
    label: &str,
    input: &BTreeMap<String, Value>,
    exp: &experiment::Experiment,
) -> indicatif::ProgressBar {
    let bar = progress::progress_bar(
        opts.progress,
        ctx.settings
            .total_runs
            .unwrap_or(space.size())
            .min(space.size()),
        label,
        input,
    );
    if exp.was_done && opts.more.is_none() {
        // On stderr, shown whether or not there is a progress bar (stdout may be JSON).
        orcl_frontend::errln!(
            "note: experiment {} is done ({} evaluation(s) in the database): nothing new is measured; `--more N` adds up to N evaluations to it",
            exp.id,
            exp.stored.len()
        );
    } else if exp.resumed {
        bar.println(format!(
            "resuming experiment {}: {} evaluation(s) already in the database",
            exp.id,
            exp.stored.len()
        ));
    }
    bar
}

/// How many rows this run may add to the experiment (`None`: no limit): `--more N` gives N; a
/// `done` experiment gets none (a plain rerun replays its rows and measures nothing new);
/// otherwise what `--total-runs` leaves after the rows already stored (issue 25 G8).
fn new_rows_allowed(
    total_runs: Option<u64>,
    more: Option<u64>,
    exp: &experiment::Experiment,
) -> Option<u64> {
    match (more, exp.was_done) {
        (Some(n), _) => Some(n),
        (None, true) => Some(0),
        (None, false) => total_runs.map(|t| t.saturating_sub(exp.stored.len() as u64)),
    }
}

/// Why a search that evaluated nothing (and did not stop itself) found nothing.
fn nothing_feasible(strategy: &str, size: u64, proposals: u64) -> String {
    if proposals == 0 {
        // An adaptive strategy skips infeasible configurations without proposing them.
        format!(
            "no feasible configuration found: the {strategy} search proposed none of the {size} configurations"
        )
    } else {
        format!(
            "no feasible configuration found: all {proposals} configurations proposed were rejected by constraints{}",
            if proposals == size {
                " (the whole space)"
            } else {
                ""
            }
        )
    }
}

/// The winner and its re-measured median: the one chosen when the experiment last finished if
/// nothing new was measured; else the few fastest distinct variants re-measured with more
/// repetitions (a single noisy sample should not decide the output). `None`: no winner.
fn confirm_winner(
    env: &search_loop::Env,
    skeletons: &pipeline::Skeletons,
    workers: &mut pipeline::Workers,
    st: &search_loop::SearchState,
) -> Result<Option<Confirmed>, TuneError> {
    let mut confirmed = None;
    if st.measured == 0 {
        // Nothing new was measured: keep the winner chosen when the experiment last finished.
        confirmed = experiment::stored_winner(env.db, env.experiment_id, &st.evaluations)?;
    }
    if st.best.is_some() && confirmed.is_none() {
        confirmed = finalists::confirm(
            env.db,
            env.experiment_id,
            env.p,
            env.space,
            env.opts,
            skeletons,
            workers,
            env.settings.reps,
            &st.evaluations,
            env.objective,
        )?;
    }
    Ok(confirmed)
}

/// The run's metadata (docs/DATABASE.md): `--slurm`'s workers (which ran where and measured
/// what; returned), the build pool that built the kernels (or why none did), and what was
/// copied between host and device.
fn record_run(
    db: &Db,
    experiment_id: i64,
    workers: &pipeline::Workers,
    st: &search_loop::SearchState,
) -> Result<Vec<SlurmWorker>, TuneError> {
    if let Some(why) = &st.stopped {
        db.set_metadata(experiment_id, "stopped", why)?;
    }
    let slurm_workers = workers.slurm_workers(&st.per_worker);
    if !slurm_workers.is_empty() {
        db.set_metadata(
            experiment_id,
            "slurm_workers",
            &serde_json::to_string(&slurm_workers).unwrap_or_default(),
        )?;
    }
    db.set_metadata(
        experiment_id,
        "build_pool",
        &workers.pool_summary().to_string(),
    )?;
    db.set_metadata(
        experiment_id,
        "transfers",
        &serde_json::to_string(&workers.traffic()).unwrap_or_default(),
    )?;
    Ok(slurm_workers)
}

/// Stores the run's timing summary (metadata `stage_seconds`), then [`finish`]es the experiment;
/// from then on the signal watchdog leaves it alone.
fn wrap_up(
    env: &search_loop::Env,
    stages: &stages::Stages,
    start: Instant,
    best: Option<(usize, f64)>,
    evaluations: &[Evaluated],
) -> Result<Option<(usize, Variant)>, TuneError> {
    let summary = stages.json(start.elapsed());
    tracing::info!(stages = %summary, "experiment {} timing", env.experiment_id);
    env.db
        .set_metadata(env.experiment_id, "stage_seconds", &summary)?;
    let best = finish(env, best, evaluations);
    stages::release();
    best
}

/// Marks the experiment `done`, `failed` or (on a signal, returned as the error) `interrupted`;
/// returns the winner with its generated code.
fn finish(
    env: &search_loop::Env,
    best: Option<(usize, f64)>,
    evaluations: &[Evaluated],
) -> Result<Option<(usize, Variant)>, TuneError> {
    if let Some(signal) = orcl_measure::interrupt::requested() {
        env.db.finish_experiment(env.experiment_id, "interrupted")?;
        return Err(TuneError::Interrupted {
            signal,
            experiment: env.experiment_id,
        });
    }
    let status = if best.is_some() { "done" } else { "failed" };
    env.db.finish_experiment(env.experiment_id, status)?;
    match best {
        Some((i, _)) => {
            let v = variant_for(env.p, env.space, &evaluations[i].config, env.opts, None)
                .map_err(|d| located(env.text, env.path, d))?;
            Ok(Some((i, v)))
        }
        None => Ok(None),
    }
}
