//! The tuning driver: for each region and input size, builds the timing skeleton once, lets the
//! search strategy propose configurations, generates and measures each variant (or reuses its
//! stored evaluation), records everything in the database, and picks the fastest correct variant.

use crate::codegen::opencl::{self, Fault};
use crate::codegen::{cuda, Backend, GlobalSize, Variant};
use crate::db::{Db, DeviceRow, EvaluationRow, NewExperiment, RegionRow};
use crate::device::{self, DeviceInfo};
use crate::diag::{Diagnostic, InputError};
use crate::frontend::expr::Value;
use crate::measure::skeleton;
use crate::measure::{Outcome, Runner, Status, TimeoutPolicy};
use crate::prepare::{env_for, Prepared};
use crate::search::make_strategy;
use crate::space::{Configuration, SearchSpace};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
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
    /// Budget: configurations measured (database hits are free).
    pub total_runs: Option<u64>,
    /// Budget: wall time per (region, input size).
    pub time_limit: Option<Duration>,
    /// Per-variant timeout (default: adaptive, 10× the slowest good variant, at least 10 s).
    pub timeout: Option<Duration>,
    pub repetitions: Option<u32>,
    pub warmups: Option<u32>,
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
    /// OpenCL build threads ahead of measurement (`--jobs`; default: the machine's cores on a GPU,
    /// 0 on a CPU device; 0: build in the measuring worker). See `measure::pool`.
    pub jobs: Option<usize>,
    /// Do not read or write the kernel-binary cache (`--no-kernel-cache`).
    pub no_kernel_cache: bool,
    /// Proposals in a row that measure nothing new before the search of a space too large to
    /// enumerate stops (`--max-idle`; default [`MAX_IDLE_PROPOSALS`]).
    pub max_idle: Option<u64>,
    /// Measure on several identical devices at once (`--devices 0,1 | all`): one worker per
    /// device, configurations handed out from one queue. `None`: the one device of `device`.
    pub devices: Option<Devices>,
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
    Worker(#[from] crate::measure::worker::SpawnError),
    /// SIGINT/SIGTERM (the number) arrived before the experiment was opened (during the skeleton
    /// build): nothing was recorded.
    #[error("interrupted by {} before anything was measured ({what}); nothing recorded", crate::interrupt::name(*.signal))]
    InterruptedEarly { signal: i32, what: String },
    #[error("{0}")]
    Usage(String),
    /// SIGINT/SIGTERM (the number) arrived; the experiment was marked `interrupted`.
    #[error("interrupted by {}: experiment {experiment} marked `interrupted`; run the same command again to resume it", crate::interrupt::name(*.signal))]
    Interrupted { signal: i32, experiment: i64 },
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
    /// Index into `evaluations` of the fastest correct variant, and its generated code.
    pub best: Option<(usize, Variant)>,
    /// Median (ms) of the winner when re-measured with more repetitions at the end.
    pub winner_ms: Option<f64>,
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
}

impl InputResult {
    /// Correct variants sorted by median time (ms), fastest first.
    pub fn ranking(&self) -> Vec<&Evaluated> {
        let mut v: Vec<&Evaluated> = self
            .evaluations
            .iter()
            .filter(|e| e.outcome.status == Status::Ok)
            .collect();
        v.sort_by(|a, b| {
            a.outcome
                .median_ms()
                .unwrap_or(f64::MAX)
                .total_cmp(&b.outcome.median_ms().unwrap_or(f64::MAX))
        });
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

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn sha(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0]);
    }
    hex(&h.finalize()[..16])
}

/// The spec text without its `def search { ... }` section and with whitespace normalised: what
/// identifies an experiment (changing the search or its budget resumes the same experiment).
fn measurement_text(spec_text: &str) -> String {
    let mut s = spec_text.to_string();
    if let Some(p) = s.find("def search") {
        if let Some(q) = s[p..].find('}') {
            s.replace_range(p..p + q + 1, "");
        }
    }
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A test-only fault from `ORCL_TEST_FAULT=KIND:NAME=VALUE[,NAME=VALUE]` (KIND: hang, crash,
/// wrong): configurations whose values match get a deliberately broken kernel.
fn test_fault() -> Option<(Fault, Vec<(String, String)>)> {
    let v = std::env::var("ORCL_TEST_FAULT").ok()?;
    let (kind, rest) = v.split_once(':')?;
    let fault = match kind {
        "hang" => Fault::Hang,
        "crash" => Fault::Crash,
        "wrong" => Fault::Wrong,
        _ => return None,
    };
    let conds = rest
        .split(',')
        .filter_map(|c| c.split_once('='))
        .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
        .collect();
    Some((fault, conds))
}

fn fault_for(cfg: &Configuration, fault: &Option<(Fault, Vec<(String, String)>)>) -> Option<Fault> {
    let (f, conds) = fault.as_ref()?;
    let matches = conds.iter().all(|(n, v)| {
        cfg.get(n).is_some_and(|x| match x {
            Value::Str(s) => s == v,
            other => &other.to_string() == v,
        })
    });
    matches.then_some(*f)
}

/// Generate the variant of one configuration (transform evaluated with the configuration's params).
pub fn variant_for(
    p: &Prepared,
    space: &SearchSpace,
    cfg: &Configuration,
    opts: &TuneOptions,
    fault: Option<Fault>,
) -> Result<Variant, Diagnostic> {
    let env = env_for(space, cfg);
    let backend = backend_of(p, opts);
    let args = p.transform_args(backend);
    match backend {
        Backend::OpenCl => {
            let mut o = opencl::options(&args, &env)?;
            if let Some(pl) = opts.platform {
                o.platform = pl;
            }
            if let Some(d) = opts.device {
                o.device = d;
            }
            opencl::generate(&p.kernel, &o, fault)
        }
        Backend::Cuda => {
            let mut o = cuda::options(&args, &env)?;
            if let Some(d) = opts.device {
                o.device = d;
            }
            // Orio's `nvcc ... @CFLAGS` build command: its device flags are NVRTC options of the
            // kernel, ahead of the transform's own `cudaFlags`.
            let plan = skeleton::build_plan(&p.region.spec, &env)?;
            if !plan.nvcc_flags.is_empty() {
                let flags = format!("{} {}", plan.nvcc_flags, o.cuda_flags);
                cuda::nvrtc_flags(&flags).map_err(|m| {
                    let span = p
                        .region
                        .spec
                        .build
                        .build_command
                        .as_ref()
                        .map(|c| c.span)
                        .unwrap_or(p.region.spec.span);
                    Diagnostic::new(span, format!("in the nvcc build command: {m}"))
                })?;
                o.cuda_flags = flags.trim().to_string();
            }
            cuda::generate(&p.kernel, &o, objective_is_total(p), fault)
        }
    }
}

/// What identifies a measurement: kernel source, build options, NDRange, device and skeleton
/// build plan (two configurations with the same key are measured once).
fn variant_key(v: &Variant, plan: &skeleton::BuildPlan) -> String {
    sha(&[
        &v.source,
        &v.build_options,
        &format!(
            "{:?}|{}|{}|{}|{:?}|{:?}",
            v.global_size, v.local_size, v.platform, v.device, plan, v.grid
        ),
    ])
}

/// Measure `jobs` (variant key, variant, skeleton binary) on the runners of `--devices`, each
/// runner on its own thread taking the next job from one queue, so a faster device takes more.
/// Returns each key's outcome and the device index that measured it. A signal stops the hand-out
/// (the tune then stops before recording anything of this batch).
fn measure_on_devices(
    runners: Vec<(usize, &mut Runner)>,
    jobs: Vec<(String, Variant, PathBuf)>,
    total: bool,
) -> HashMap<String, (Outcome, usize)> {
    let queue = std::sync::Mutex::new(std::collections::VecDeque::from(jobs));
    let out = std::sync::Mutex::new(HashMap::new());
    std::thread::scope(|s| {
        for (device, runner) in runners {
            let (queue, out) = (&queue, &out);
            s.spawn(move || loop {
                if crate::interrupt::requested().is_some() {
                    break;
                }
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
                let Some((key, mut v, exe)) = next else {
                    break;
                };
                v.device = device;
                runner.use_skeleton(exe);
                let o = measure_objective(runner, &v, total);
                out.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(key, (o, device));
            });
        }
    });
    out.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// The device indices `sel` names on OpenCL platform `platform` (CUDA: ordinals), checked to
/// exist. Errors: a device that does not exist ([`device::DeviceError`]), `all` finding none.
fn device_indices(
    sel: &Devices,
    backend: Backend,
    platform: usize,
) -> Result<Vec<usize>, TuneError> {
    let list = match sel {
        Devices::List(l) => l.clone(),
        Devices::All => match backend {
            Backend::OpenCl => device::opencl_devices()?
                .iter()
                .filter(|d| d.platform_index == platform)
                .map(|d| d.device_index)
                .collect(),
            Backend::Cuda => device::cuda_devices()?
                .iter()
                .map(|d| d.device_index)
                .collect(),
        },
    };
    if list.is_empty() {
        return Err(TuneError::Usage(format!(
            "--devices all: no device found on {}",
            match backend {
                Backend::OpenCl => format!("OpenCL platform {platform}"),
                Backend::Cuda => "CUDA".into(),
            }
        )));
    }
    Ok(list)
}

/// Measure `v`. Under the `total` objective the OpenCL skeleton times the kernel alone, so the
/// host↔device copies of the validation run are added to every sample (the CUDA skeleton times
/// copies + kernel itself, split over `streamCount` streams).
fn measure_objective(runner: &mut Runner, v: &Variant, total: bool) -> Outcome {
    let mut o = runner.measure(v);
    if total && v.backend == Backend::OpenCl {
        if let Some(t) = o.transfer_ms {
            o.samples_ms.iter_mut().for_each(|s| *s += t);
        }
    }
    o
}

/// The backend `opts` selects for `p`: `--backend`, else the annotation's first transform.
pub fn backend_of(p: &Prepared, opts: &TuneOptions) -> Backend {
    opts.backend
        .or_else(|| p.backends().first().copied())
        .unwrap_or(Backend::OpenCl)
}

/// Whether the spec's objective is `'total'` (kernel + host↔device transfers) rather than the
/// kernel time alone.
pub fn objective_is_total(p: &Prepared) -> bool {
    p.region
        .spec
        .counter
        .objective
        .as_ref()
        .is_some_and(|o| o.value == "total")
}

/// A reason the variant cannot run on the device, checked before it is built.
pub fn device_limit(v: &Variant, d: &DeviceInfo) -> Option<String> {
    if let Some(why) = &v.invalid {
        return Some(format!("invalid schedule: {why}"));
    }
    if let Some(g) = &v.grid {
        for (k, (&l, &max)) in g.local.iter().zip(&d.max_work_item_sizes).enumerate() {
            if l as usize > max {
                return Some(format!(
                    "{l} work-items along NDRange dimension {k} exceed the device's {max}"
                ));
            }
        }
    }
    let max_local = d
        .max_work_item_sizes
        .first()
        .copied()
        .unwrap_or(d.max_work_group_size)
        .min(d.max_work_group_size);
    if v.local_size as usize > max_local {
        return Some(format!(
            "local size {} exceeds the device's maximum work-group size {max_local}",
            v.local_size
        ));
    }
    if v.local_mem_bytes > d.local_mem_bytes {
        return Some(format!(
            "{} bytes of local memory exceed the device's {} bytes",
            v.local_mem_bytes, d.local_mem_bytes
        ));
    }
    if let GlobalSize::Fixed(g) = v.global_size {
        match d.max_grid_size.first() {
            Some(&max_blocks) if v.backend == Backend::Cuda => {
                let blocks = g / v.local_size.max(1);
                if blocks > max_blocks {
                    return Some(format!(
                        "{blocks} thread blocks exceed the device's maximum grid size {max_blocks}"
                    ));
                }
            }
            _ if g > u32::MAX as u64 => {
                return Some(format!("global size {g} exceeds 2^32 work-items"));
            }
            _ => {}
        }
    }
    None
}

/// The arrays of input size `input` fit the device (each buffer within
/// `CL_DEVICE_MAX_MEM_ALLOC_SIZE`, all of them within its global memory) and the host's
/// available memory; otherwise a diagnostic at the largest array with the figures.
fn check_memory(
    p: &Prepared,
    input: &BTreeMap<String, Value>,
    dev: &DeviceInfo,
    backend: Backend,
) -> Result<(), Diagnostic> {
    use skeleton::human_bytes as h;
    let need = skeleton::memory_need(&p.kernel, &p.region.spec, input, backend == Backend::OpenCl)?;
    let Some((name, largest, span)) = need.largest.clone() else {
        return Ok(());
    };
    let host = skeleton::host_available_bytes();
    let mut over = Vec::new();
    if dev.max_alloc_bytes > 0 && largest > dev.max_alloc_bytes {
        over.push(format!(
            "`{name}` alone needs a buffer of {} but the device allows at most {} per buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
            h(largest),
            h(dev.max_alloc_bytes)
        ));
    }
    if dev.global_mem_bytes > 0 && need.device_bytes > dev.global_mem_bytes {
        over.push(format!(
            "the device buffers need {} but the device has {} of global memory",
            h(need.device_bytes),
            h(dev.global_mem_bytes)
        ));
    }
    if let Some(avail) = host.filter(|&a| need.host_bytes > a) {
        over.push(format!(
            "the host copies (3 per array) need {} but the host has {} available",
            h(need.host_bytes),
            h(avail)
        ));
    }
    if over.is_empty() {
        return Ok(());
    }
    let sizes: Vec<String> = input.iter().map(|(k, v)| format!("{k}={v}")).collect();
    Err(Diagnostic::new(
        span,
        format!(
            "at input size {} the arrays do not fit on `{}`: {}",
            sizes.join(" "),
            dev.name,
            over.join("; ")
        ),
    )
    .with_help("tune at smaller input sizes (leave this one out of the input params, or choose others with --size)"))
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
    let fault = test_fault();
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    let mut results = Vec::new();
    for p in prepared {
        let spec = &p.region.spec;
        let raw = &p.region.raw;
        let (line, _) = crate::diag::line_col(text, raw.span.start);
        let loop_hash = sha(&[
            &raw.loop_ann
                .code
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
            &measurement_text(&raw.spec_text),
        ]);
        let region_id = db.upsert_region(&RegionRow {
            file: path.to_string(),
            line: line as u32,
            function: raw
                .function
                .as_ref()
                .map(|f| f.name.clone())
                .unwrap_or_default(),
            loop_hash: loop_hash.clone(),
            transform_text: text
                .get(raw.loop_ann.begin_span.start..raw.loop_ann.begin_span.end)
                .unwrap_or("")
                .to_string(),
        })?;
        let algorithm = opts
            .algorithm
            .clone()
            .or_else(|| spec.search.algorithm.as_ref().map(|a| a.value.clone()))
            .unwrap_or_else(|| "Exhaustive".into());
        let seed = opts
            .seed
            .or_else(|| spec.search.seed.as_ref().map(|s| s.value))
            .unwrap_or(0);
        let total_runs = opts
            .total_runs
            .or_else(|| spec.search.total_runs.as_ref().map(|t| t.value as u64));
        let time_limit = opts
            .time_limit
            .or_else(|| spec.search.time_limit.as_ref().map(|t| t.value));
        let reps = opts
            .repetitions
            .or_else(|| spec.counter.repetitions.as_ref().map(|r| r.value as u32))
            .unwrap_or(5);
        let warmups = opts
            .warmups
            .or_else(|| spec.counter.warmups.as_ref().map(|r| r.value as u32))
            .unwrap_or(1);
        let policy = match opts
            .timeout
            .or_else(|| spec.counter.timeout.as_ref().map(|t| t.value))
        {
            Some(d) => TimeoutPolicy::Fixed(d),
            None => TimeoutPolicy::Adaptive,
        };
        let mut inputs = Vec::new();
        let selected = |input: &BTreeMap<String, Value>| {
            opts.sizes.iter().all(|(k, v)| {
                input
                    .get(k)
                    .is_none_or(|x| x == v || x.as_f64().is_some_and(|a| v.as_f64() == Some(a)))
            })
        };
        let mut memory_checked = false;
        for input in &p.inputs {
            if !selected(input) {
                continue;
            }
            let start = Instant::now();
            let space = SearchSpace::new(spec, input);
            let mut strategy = match make_strategy(&algorithm, &spec.search.options, seed) {
                Ok(s) => s,
                // `prepare` checked the spec's algorithm: this is the command line's.
                Err(d) if opts.algorithm.is_some() && d.span == crate::diag::Span::default() => {
                    return Err(TuneError::Usage(format!(
                        "--search: {}{}",
                        d.message,
                        d.help.map(|h| format!("; {h}")).unwrap_or_default()
                    )))
                }
                Err(d) => {
                    return Err(located(
                        text,
                        path,
                        crate::prepare::locate_search_error(spec, d),
                    ))
                }
            };
            // The device: the transform's platform/device of the first configuration (or the override).
            let first = space.config_at(0);
            let v0 =
                variant_for(&p, &space, &first, opts, None).map_err(|d| located(text, path, d))?;
            let backend = v0.backend;
            // A `device=`/`platform=` of the transform (Orio's files name device=1 for their
            // second GPU) that this machine does not have: tune on the one it has, with a
            // warning, and write that device into the tuned file. A `--device`/`--platform` on
            // the command line that does not exist stays an error.
            let lookup = |pl: usize, d: usize| match backend {
                Backend::OpenCl => device::opencl_device(pl, d),
                Backend::Cuda => device::cuda_device(d),
            };
            // `--devices`: the experiment's identity names the user's selection, so identical
            // devices pool their results with a plain tune of the same device kind.
            let selection = format!("{:?}/{:?}", opts.platform, opts.device);
            let fallback;
            let multi_opts;
            let mut device_list: Vec<usize> = Vec::new();
            let (dev, opts) = if let Some(sel) = &opts.devices {
                let list = device_indices(sel, backend, v0.platform)?;
                let first = lookup(v0.platform, list[0])?;
                for &other in &list[1..] {
                    let d = lookup(v0.platform, other)?;
                    if d.fingerprint() != first.fingerprint() {
                        return Err(TuneError::Usage(format!(
                            "--devices: device {other} `{}` ({}, driver {}) is not identical to device {} `{}` ({}, driver {}); only identical devices pool into one experiment: tune each with --device N and compare the experiments (`orcl db list`, `orcl db best`)",
                            d.name, d.platform, d.driver_version, list[0], first.name, first.platform, first.driver_version
                        )));
                    }
                }
                device_list = list;
                multi_opts = TuneOptions {
                    device: Some(device_list[0]),
                    ..opts.clone()
                };
                (first, &multi_opts)
            } else {
                match lookup(v0.platform, v0.device) {
                    Ok(d) => (d, opts),
                    Err(
                        e @ (device::DeviceError::NoSuchDevice { .. }
                        | device::DeviceError::NoSuchPlatform { .. }
                        | device::DeviceError::NoCudaDevice { .. }),
                    ) if opts.device.is_none() && opts.platform.is_none() => {
                        let pl = match e {
                            device::DeviceError::NoSuchDevice { platform, .. } => platform,
                            _ => 0,
                        };
                        let d = lookup(pl, 0)?;
                        let args = p.transform_args(backend);
                        let at = args
                            .iter()
                            .find(|a| a.name == "device" || a.name == "platform")
                            .map(|a| a.expr.span)
                            .unwrap_or(raw.loop_ann.begin_span);
                        eprintln!(
                        "{}",
                        crate::diag::render_warning(
                            path,
                            text,
                            &Diagnostic::new(
                                at,
                                format!("{e}; tuning on {} device 0 `{}` instead (choose with --platform/--device)", match backend {
                                    Backend::OpenCl => format!("platform {pl}"),
                                    Backend::Cuda => "CUDA".to_string(),
                                }, d.name)
                            )
                        )
                    );
                        fallback = TuneOptions {
                            platform: (backend == Backend::OpenCl).then_some(pl),
                            device: Some(0),
                            ..opts.clone()
                        };
                        (d, &fallback)
                    }
                    Err(e) => return Err(e.into()),
                }
            };
            // Adaptive strategies never propose a configuration whose variant exceeds the
            // device's limits (the HPL paper's genetic search discards them before evaluation).
            let space = {
                let (p2, s2, o2, d2) = (p.clone(), space.clone(), opts.clone(), dev.clone());
                space.with_prefilter(move |cfg: &Configuration| {
                    let v = variant_for(&p2, &s2, cfg, &o2, None).ok()?;
                    device_limit(&v, &d2).map(crate::space::Rejection::DeviceLimit)
                })
            };
            let props = serde_json::to_string(&dev).unwrap_or_default();
            let device_id = db.upsert_device(&DeviceRow {
                backend: backend.as_str().into(),
                platform: dev.platform.clone(),
                name: dev.name.clone(),
                vendor: dev.vendor.clone(),
                driver_version: dev.driver_version.clone(),
                device_version: dev.device_version.clone(),
                compute_units: dev.compute_units,
                max_work_group_size: dev.max_work_group_size as u64,
                local_mem_bytes: dev.local_mem_bytes,
                global_mem_bytes: dev.global_mem_bytes,
                max_clock_mhz: dev.max_clock_mhz,
                fingerprint: dev.fingerprint(),
                properties_json: props,
            })?;
            // The skeleton: built once per (region, input size, build plan). A tuning parameter in
            // the build section (Orio's `CFLAGS`) gives one skeleton per distinct plan, built when
            // a configuration first needs it (issue 15 F9).
            let plan_for = |cfg: &Configuration| -> Result<skeleton::BuildPlan, Diagnostic> {
                let mut plan = skeleton::build_plan(spec, &env_for(&space, cfg))?;
                if backend == Backend::Cuda {
                    // The CUDA skeleton loads libcuda and libnvrtc with dlopen.
                    plan.libs.push_str(" -ldl");
                }
                Ok(plan)
            };
            let plan0 = plan_for(&first).map_err(|d| located(text, path, d))?;
            let build_cmd = plan0.command.clone();
            let label = format!(
                "{path}:{line} {}()",
                raw.function
                    .as_ref()
                    .map(|f| f.name.as_str())
                    .unwrap_or("?")
            );
            let source = match backend {
                Backend::OpenCl => skeleton::render_opencl(&p.kernel, spec, input, &label),
                Backend::Cuda => skeleton::render_cuda(&p.kernel, spec, input, &label),
            }
            .map_err(|d| located(text, path, d))?;
            let build_with = |plan: &skeleton::BuildPlan| {
                skeleton::build(
                    &source,
                    &plan.command,
                    &plan.libs,
                    plan.prebuild.as_deref(),
                    plan.postbuild.as_deref(),
                    &skeleton::cache_dir(),
                )
            };
            // Refuse an input size whose arrays cannot fit, before anything is built or
            // allocated (issue 15 F10): every selected size at the first one, since they all
            // run on this device, so that no size is tuned before a later one is refused.
            if !memory_checked {
                for other in p.inputs.iter().filter(|i| selected(i)) {
                    check_memory(&p, other, &dev, backend).map_err(|d| located(text, path, d))?;
                }
                memory_checked = true;
            }
            // The first configuration's skeleton failing to build is an error of the experiment;
            // a later plan that fails records its configurations as compile errors.
            let exe = build_with(&plan0).map_err(|e| match crate::interrupt::requested() {
                // A signal killed the build: an interruption (exit 128 + signal), not a build
                // failure (exit 3); found by tests/faults.sh.
                Some(signal) => TuneError::InterruptedEarly {
                    signal,
                    what: "building the timing skeleton".into(),
                },
                None => TuneError::Build(e),
            })?;
            let mut skeletons: HashMap<skeleton::BuildPlan, Result<PathBuf, String>> =
                HashMap::from([(plan0.clone(), Ok(exe.clone()))]);
            let input_json = serde_json::to_string(&input).unwrap_or_default();
            let identity = sha(&[
                &region_id.to_string(),
                &loop_hash,
                &input_json,
                &dev.fingerprint(),
                backend.as_str(),
                &if device_list.is_empty() {
                    format!("{:?}/{:?}", opts.platform, opts.device)
                } else {
                    selection
                },
                &std::env::var("ORCL_TEST_FAULT").unwrap_or_default(),
            ]);
            let options_json = serde_json::to_string(
                &spec
                    .search
                    .options
                    .iter()
                    .map(|(k, v)| (k.clone(), v.value.clone()))
                    .collect::<BTreeMap<_, _>>(),
            )
            .unwrap_or_default();
            let (experiment_id, resumed) = db.open_experiment(&NewExperiment {
                identity_key: identity,
                region_id,
                device_id,
                backend: backend.as_str().into(),
                input_params_json: input_json,
                spec_hash: sha(&[&raw.spec_text]),
                algorithm: algorithm.clone(),
                search_options_json: options_json,
                seed: Some(seed),
                orcl_version: env!("CARGO_PKG_VERSION").into(),
                host: host.clone(),
                build_command: build_cmd.clone(),
            })?;
            db.set_metadata(experiment_id, "repetitions", &reps.to_string())?;
            db.set_metadata(experiment_id, "warmups", &warmups.to_string())?;
            db.set_metadata(experiment_id, "skeleton", &exe.display().to_string())?;
            let stored: HashMap<String, EvaluationRow> = db
                .evaluations(experiment_id)?
                .into_iter()
                .map(|e| (e.config_key.clone(), e))
                .collect();

            let runner_exe = exe.clone();
            let mut runner = Runner::new(exe, warmups, reps, policy);
            // Start the worker now: a skeleton that cannot start is an error of the whole experiment.
            let v0 =
                variant_for(&p, &space, &first, opts, None).map_err(|d| located(text, path, d))?;
            runner.worker(v0.platform, v0.device)?;
            // Default: the machine's cores on a GPU; on a CPU device (PoCL) the worker builds,
            // since a build there can only run between measurements and PoCL generates the code
            // at the first launch anyway (docs/THROUGHPUT.md).
            let jobs = opts.jobs.unwrap_or_else(|| {
                if backend == Backend::OpenCl
                    && crate::measure::pool::is_cpu(v0.platform, v0.device)
                {
                    0
                } else {
                    crate::measure::pool::default_jobs()
                }
            });
            if backend == Backend::OpenCl && jobs > 0 {
                runner.set_pool(crate::measure::pool::BuildPool::new(
                    jobs,
                    v0.platform,
                    v0.device,
                    &dev.fingerprint(),
                    (!opts.no_kernel_cache).then(skeleton::cache_dir),
                ));
            }
            // `--devices`: one more runner (worker process) per device, sharing the build pool
            // (identical devices load the same binaries).
            let mut extra: Vec<(usize, Runner)> = Vec::new();
            for &d in device_list.iter().skip(1) {
                let mut r = Runner::new(runner_exe.clone(), warmups, reps, policy);
                r.worker(v0.platform, d)?;
                r.share_pool(runner.pool());
                extra.push((d, r));
            }
            let mut per_device: BTreeMap<usize, usize> =
                device_list.iter().map(|&d| (d, 0)).collect();
            // Exhaustive and Random propose the same sequence whatever the batch size: a larger
            // batch lets the build pool run further ahead. Adaptive strategies keep 16.
            let batch_size = match algorithm.to_ascii_lowercase().as_str() {
                "exhaustive" | "random" => 16.max(4 * jobs).max(4 * device_list.len()),
                _ => 16,
            };
            let mut evaluations: Vec<Evaluated> = Vec::new();
            // Outcome of each variant key measured, and the `--devices` device that measured it.
            let mut by_variant: HashMap<String, (Outcome, Option<usize>)> = HashMap::new();
            let mut measured = 0usize;
            let mut reused = 0usize;
            // Every proposal counts (issue 15 F8): constraint rejections are counted, not stored,
            // and on a space too large to enumerate `idle` proposals in a row that measure
            // nothing new end the search.
            let mut proposals = 0u64;
            let mut rejected = 0u64;
            let mut idle = 0u64;
            let mut stopped: Option<String> = None;
            let max_idle = (space.size() > crate::prepare::FEASIBILITY_LIMIT)
                .then(|| opts.max_idle.unwrap_or(MAX_IDLE_PROPOSALS));
            let counts = |db: &Db, proposals: u64, rejected: u64| -> Result<(), TuneError> {
                db.set_metadata(experiment_id, "proposals", &proposals.to_string())?;
                db.set_metadata(experiment_id, "constraint_rejected", &rejected.to_string())?;
                Ok(())
            };
            let mut best: Option<(usize, f64)> = None;
            let bar = progress_bar(
                opts.progress,
                total_runs.unwrap_or(space.size()).min(space.size()),
                &label,
                input,
            );
            if resumed {
                bar.println(format!(
                    "resuming experiment {experiment_id}: {} evaluation(s) already in the database",
                    stored.len()
                ));
            }
            'search: loop {
                let batch = strategy
                    .propose(&space, batch_size)
                    .map_err(|d| located(text, path, d))?;
                if batch.is_empty() {
                    break;
                }
                // Hand the batch's kernels to the build pool before measuring the first.
                for cand in batch.iter().filter(|c| c.violated.is_none()) {
                    if !stored.contains_key(&cand.config.key()) {
                        if let Ok(v) = variant_for(
                            &p,
                            &space,
                            &cand.config,
                            opts,
                            fault_for(&cand.config, &fault),
                        ) {
                            if device_limit(&v, &dev).is_none() {
                                runner.prefetch(&v);
                            }
                        }
                    }
                }
                // `--devices`: measure the batch's new variants on all devices at once, in the
                // order the loop below takes them, within the budget; the loop then records them
                // in proposal order as if measured there.
                let mut premeasured: HashMap<String, (Outcome, usize)> = HashMap::new();
                if !extra.is_empty() && time_limit.is_none_or(|t| start.elapsed() < t) {
                    let left = total_runs.map(|t| t.saturating_sub(measured as u64));
                    let mut jobs_q: Vec<(String, Variant, PathBuf)> = Vec::new();
                    for cand in batch.iter().filter(|c| c.violated.is_none()) {
                        if left.is_some_and(|l| jobs_q.len() as u64 >= l) {
                            break;
                        }
                        if stored.contains_key(&cand.config.key()) {
                            continue;
                        }
                        let f = fault_for(&cand.config, &fault);
                        let (Ok(v), Ok(plan)) = (
                            variant_for(&p, &space, &cand.config, opts, f),
                            plan_for(&cand.config),
                        ) else {
                            continue;
                        };
                        let vkey = variant_key(&v, &plan);
                        if device_limit(&v, &dev).is_some()
                            || by_variant.contains_key(&vkey)
                            || jobs_q.iter().any(|(k, _, _)| k == &vkey)
                        {
                            continue;
                        }
                        let exe = skeletons
                            .entry(plan.clone())
                            .or_insert_with(|| build_with(&plan).map_err(|e| e.to_string()))
                            .clone();
                        if let Ok(exe) = exe {
                            jobs_q.push((vkey, v, exe));
                        }
                    }
                    let mut all: Vec<(usize, &mut Runner)> = vec![(device_list[0], &mut runner)];
                    all.extend(extra.iter_mut().map(|(d, r)| (*d, r)));
                    premeasured = measure_on_devices(all, jobs_q, objective_is_total(&p));
                }
                for cand in batch {
                    if let Some(signal) = crate::interrupt::requested() {
                        counts(&db, proposals, rejected)?;
                        db.finish_experiment(experiment_id, "interrupted")?;
                        return Err(TuneError::Interrupted {
                            signal,
                            experiment: experiment_id,
                        });
                    }
                    if total_runs.is_some_and(|t| measured as u64 >= t)
                        || time_limit.is_some_and(|t| start.elapsed() >= t)
                    {
                        break 'search;
                    }
                    if let Some(limit) = max_idle.filter(|&l| idle >= l) {
                        let over_limit = evaluations
                            .iter()
                            .filter(|e| e.outcome.status == Status::DeviceLimit)
                            .count();
                        let feasible_seen = evaluations.iter().any(|e| {
                            !matches!(e.outcome.status, Status::Constraint | Status::DeviceLimit)
                        });
                        stopped = Some(if !feasible_seen {
                            format!(
                                "no feasible configuration found in the first {proposals} proposals ({rejected} rejected by constraints, {over_limit} over the device's limits) of the {} configurations; relax the constraints, or raise --max-idle (now {limit})",
                                space.size()
                            )
                        } else {
                            format!(
                                "the search stopped after {limit} proposals in a row that measured nothing new ({proposals} proposals, {rejected} rejected by constraints, of the {} configurations); raise --max-idle to search on",
                                space.size()
                            )
                        });
                        break 'search;
                    }
                    proposals += 1;
                    let cfg = cand.config;
                    let key = cfg.key();
                    let stored_row = stored.get(&key);
                    if stored_row.is_none() && cand.violated.is_some() {
                        // Never built and never stored: a count, not a row.
                        rejected += 1;
                        idle += 1;
                        continue;
                    }
                    let measured_before = measured;
                    // The `--devices` device that measured it (`None` without `--devices`).
                    let mut measured_on: Option<usize> = None;
                    let (outcome, was_stored, kernel_hash) = if let Some(row) = stored_row {
                        (outcome_from_row(row), true, row.kernel_hash.clone())
                    } else {
                        match variant_for(&p, &space, &cfg, opts, fault_for(&cfg, &fault)) {
                            Err(d) => (
                                Outcome::failure(Status::CompileError, d.message),
                                false,
                                None,
                            ),
                            Ok(v) => {
                                let plan = plan_for(&cfg).map_err(|d| located(text, path, d))?;
                                let vkey = variant_key(&v, &plan);
                                let khash = Some(sha(&[&v.source])[..16].to_string());
                                let exe = skeletons
                                    .entry(plan.clone())
                                    .or_insert_with(|| build_with(&plan).map_err(|e| e.to_string()))
                                    .clone();
                                if let Some(msg) = device_limit(&v, &dev) {
                                    (Outcome::failure(Status::DeviceLimit, msg), false, khash)
                                } else if let Some((o, on)) = by_variant.get(&vkey) {
                                    // The same kernel, options, NDRange and build as a configuration already measured.
                                    measured_on = *on;
                                    (o.clone(), false, khash)
                                } else if let Err(msg) = exe {
                                    (Outcome::failure(Status::CompileError, msg), false, khash)
                                } else {
                                    let o = match premeasured.remove(&vkey) {
                                        Some((o, d)) => {
                                            measured_on = Some(d);
                                            o
                                        }
                                        None => {
                                            runner.use_skeleton(exe.expect("checked above"));
                                            measured_on = device_list.first().copied();
                                            measure_objective(
                                                &mut runner,
                                                &v,
                                                objective_is_total(&p),
                                            )
                                        }
                                    };
                                    measured += 1;
                                    if let Some(n) =
                                        measured_on.and_then(|d| per_device.get_mut(&d))
                                    {
                                        *n += 1;
                                    }
                                    by_variant.insert(vkey, (o.clone(), measured_on));
                                    (o, false, khash)
                                }
                            }
                        }
                    };
                    // A measurement, or one recorded by an earlier run, is progress; a constraint,
                    // device limit, identical kernel or generation error is not.
                    if measured > measured_before
                        || (was_stored && outcome.status != Status::Constraint)
                    {
                        idle = 0;
                    } else {
                        idle += 1;
                    }
                    if let Some(signal) = crate::interrupt::requested() {
                        // The measurement was cut short by the signal: not a result to record.
                        counts(&db, proposals, rejected)?;
                        db.finish_experiment(experiment_id, "interrupted")?;
                        return Err(TuneError::Interrupted {
                            signal,
                            experiment: experiment_id,
                        });
                    }
                    if was_stored {
                        reused += 1;
                    } else {
                        match db.insert_evaluation_on(
                            experiment_id,
                            &row_from_outcome(&cfg, &outcome, kernel_hash),
                            measured_on,
                        ) {
                            // Another orcl process tuning the same experiment stored it first:
                            // keep its row (one evaluation per configuration), use ours here.
                            Err(crate::db::DbError::Duplicate { .. }) => {}
                            other => {
                                other?;
                            }
                        }
                    }
                    let obj = outcome.median_ms();
                    if cand.violated.is_none() {
                        strategy.observe(&cfg, obj);
                    }
                    if let Some(m) = obj {
                        if best.is_none_or(|(_, b)| m < b) {
                            best = Some((evaluations.len(), m));
                        }
                    }
                    evaluations.push(Evaluated {
                        config: cfg,
                        outcome,
                        reused: was_stored,
                    });
                    let fails = evaluations
                        .iter()
                        .filter(|e| {
                            e.outcome.status != Status::Ok && e.outcome.status != Status::Constraint
                        })
                        .count();
                    let builds = runner
                        .build_counts()
                        .map(|(b, h, q)| format!("builds {b} (+{h} cached, {q} queued)  "))
                        .unwrap_or_default();
                    // `--devices`: measurements per device so far.
                    let devices = if per_device.is_empty() {
                        String::new()
                    } else {
                        let each: Vec<String> =
                            per_device.iter().map(|(d, n)| format!("{d}:{n}")).collect();
                        format!("measured on devices {}  ", each.join(" "))
                    };
                    bar.set_message(format!(
                        "{builds}{devices}failures {fails}  best {}",
                        best.map(|(_, b)| format!("{b:.4} ms"))
                            .unwrap_or_else(|| "-".into())
                    ));
                    bar.inc(1);
                }
            }
            bar.finish_and_clear();
            counts(&db, proposals, rejected)?;
            if let Some(why) = &stopped {
                db.set_metadata(experiment_id, "stopped", why)?;
            }
            if evaluations.is_empty() && stopped.is_none() {
                stopped = Some(if proposals == 0 {
                    // An adaptive strategy skips infeasible configurations without proposing them.
                    format!(
                        "no feasible configuration found: the {} search proposed none of the {} configurations",
                        strategy.name(),
                        space.size()
                    )
                } else {
                    format!(
                        "no feasible configuration found: all {proposals} configurations proposed were rejected by constraints{}",
                        if proposals == space.size() {
                            " (the whole space)"
                        } else {
                            ""
                        }
                    )
                });
            }
            // Re-measure the few fastest distinct variants with more repetitions before choosing
            // the winner: a single noisy sample should not decide the output.
            let mut confirmed = None;
            if measured == 0 {
                // Nothing new was measured: keep the winner chosen when the experiment last finished.
                confirmed = stored_winner(&db, experiment_id, &evaluations)?;
            }
            if best.is_some() && confirmed.is_none() {
                let mut ranked: Vec<(usize, f64)> = evaluations
                    .iter()
                    .enumerate()
                    .filter_map(|(i, e)| e.outcome.median_ms().map(|m| (i, m)))
                    .collect();
                ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
                let mut seen = std::collections::HashSet::new();
                let mut finals = Vec::new();
                runner.repetitions = reps.saturating_mul(3).max(reps);
                for (i, _) in ranked {
                    if finals.len() >= FINALISTS {
                        break;
                    }
                    let Ok(v) = variant_for(&p, &space, &evaluations[i].config, opts, None) else {
                        continue;
                    };
                    let Ok(plan) = plan_for(&evaluations[i].config) else {
                        continue;
                    };
                    let Some(Ok(exe)) = skeletons.get(&plan) else {
                        continue;
                    };
                    if !seen.insert((
                        v.source.clone(),
                        v.build_options.clone(),
                        format!("{:?}|{plan:?}", v.global_size),
                        v.local_size,
                    )) {
                        continue;
                    }
                    runner.use_skeleton(exe.clone());
                    let o = measure_objective(&mut runner, &v, objective_is_total(&p));
                    if let Some(m) = o.median_ms() {
                        finals.push((i, m));
                    }
                }
                if let Some(&(i, m)) = finals.iter().min_by(|a, b| a.1.total_cmp(&b.1)) {
                    confirmed = Some((i, m));
                    let json: Vec<serde_json::Value> = finals
                        .iter()
                        .map(|(i, m)| serde_json::json!({"config": evaluations[*i].config.key(), "median_ms": m, "repetitions": runner.repetitions}))
                        .collect();
                    db.set_metadata(
                        experiment_id,
                        "final_remeasurement",
                        &serde_json::Value::Array(json).to_string(),
                    )?;
                    db.set_metadata(experiment_id, "winner", &evaluations[i].config.key())?;
                }
            }
            let best = confirmed.map(|(i, _)| (i, 0.0)).or(best);
            if let Some(signal) = crate::interrupt::requested() {
                db.finish_experiment(experiment_id, "interrupted")?;
                return Err(TuneError::Interrupted {
                    signal,
                    experiment: experiment_id,
                });
            }
            let status = if best.is_some() { "done" } else { "failed" };
            db.finish_experiment(experiment_id, status)?;
            let best = match best {
                Some((i, _)) => {
                    let v = variant_for(&p, &space, &evaluations[i].config, opts, None)
                        .map_err(|d| located(text, path, d))?;
                    Some((i, v))
                }
                None => None,
            };
            inputs.push(InputResult {
                input: input.clone(),
                experiment_id,
                device: dev,
                evaluations,
                best,
                winner_ms: confirmed.map(|(_, m)| m),
                measured,
                reused,
                proposals,
                rejected,
                stopped,
                elapsed: start.elapsed(),
                per_device: per_device.into_iter().collect(),
            });
        }
        results.push(RegionResult {
            prepared: p,
            inputs,
        });
    }
    Ok(results)
}

/// The winner recorded by a finished run of this experiment, with its re-measured median (ms).
fn stored_winner(
    db: &Db,
    experiment_id: i64,
    evaluations: &[Evaluated],
) -> Result<Option<(usize, f64)>, TuneError> {
    let meta = db.metadata(experiment_id)?;
    let Some(key) = meta.get("winner") else {
        return Ok(None);
    };
    let Some(i) = evaluations
        .iter()
        .position(|e| &e.config.key() == key && e.outcome.status == Status::Ok)
    else {
        return Ok(None);
    };
    let finals: Vec<serde_json::Value> = meta
        .get("final_remeasurement")
        .and_then(|j| serde_json::from_str(j).ok())
        .unwrap_or_default();
    let ms = finals
        .iter()
        .find(|f| f["config"].as_str() == Some(key))
        .and_then(|f| f["median_ms"].as_f64())
        .or_else(|| evaluations[i].outcome.median_ms());
    Ok(ms.map(|m| (i, m)))
}

fn progress_bar(
    enabled: bool,
    len: u64,
    label: &str,
    input: &BTreeMap<String, Value>,
) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !enabled || !std::io::stdout().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    let style = indicatif::ProgressStyle::with_template(
        "{prefix} [{bar:30}] {pos}/{len} evaluated  {msg}  ({elapsed} elapsed, ~{eta} left)",
    )
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
    .progress_chars("=> ");
    bar.set_style(style);
    let sizes: Vec<String> = input.iter().map(|(k, v)| format!("{k}={v}")).collect();
    bar.set_prefix(format!("{label} {}", sizes.join(" ")));
    bar
}

fn outcome_from_row(r: &EvaluationRow) -> Outcome {
    Outcome {
        status: Status::parse(&r.status).unwrap_or(Status::LaunchError),
        build_ms: r.build_ms,
        samples_ms: r.samples_ms.clone(),
        transfer_ms: r.transfer_ms,
        max_error: r.max_error,
        message: r.message.clone(),
    }
}

fn row_from_outcome(
    cfg: &Configuration,
    o: &Outcome,
    kernel_hash: Option<String>,
) -> EvaluationRow {
    EvaluationRow {
        id: None,
        config_key: cfg.key(),
        config_json: cfg.key(),
        kernel_hash,
        status: o.status.as_str().to_string(),
        build_ms: o.build_ms,
        samples_ms: o.samples_ms.clone(),
        median_ms: o.median_ms(),
        transfer_ms: o.transfer_ms,
        max_error: o.max_error.filter(|e| e.is_finite()),
        message: o.message.clone(),
        created_at: None,
    }
}
