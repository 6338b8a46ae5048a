//! The evaluation pipeline of one experiment: a configuration's variant (generated code), the
//! timing skeletons it runs in (one per build plan), the measuring workers (one per device,
//! sharing the build pool) and the measurement of a variant on them.

use super::settings::{backend_of, objective_is_total, Settings};
use super::{sha, TuneError, TuneOptions};
use crate::prepare::{env_for, Prepared};
use orcl_codegen::generate::Fault;
use orcl_codegen::{cuda, Backend, GlobalSize, Variant};
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::expr::Value;
use orcl_frontend::space::{Configuration, SearchSpace};
use orcl_measure::device::DeviceInfo;
use orcl_measure::skeleton;
use orcl_measure::{Outcome, Runner};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// A test-only fault and the parameter values of the configurations it applies to.
pub(super) type TestFault = Option<(Fault, Vec<(String, String)>)>;

/// A test-only fault from `ORCL_TEST_FAULT=KIND:NAME=VALUE[,NAME=VALUE]` (KIND: hang, crash,
/// wrong): configurations whose values match get a deliberately broken kernel.
pub(super) fn test_fault() -> TestFault {
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

pub(super) fn fault_for(cfg: &Configuration, fault: &TestFault) -> Option<Fault> {
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
    let mut o = p.transform(backend).bind(&env)?;
    if let Some(pl) = opts.platform.filter(|_| backend == Backend::OpenCl) {
        o.platform = pl;
    }
    if let Some(d) = opts.device {
        o.device = d;
    }
    if backend == Backend::Cuda {
        // Orio's `nvcc ... @CFLAGS` build command: its device flags are NVRTC options of the
        // kernel, ahead of the transform's own `cudaFlags`.
        let plan = skeleton::build_plan(&p.region.spec, &env)?;
        if !plan.nvcc_flags.is_empty() {
            let flags = format!("{} {}", plan.nvcc_flags, o.flags);
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
            o.flags = flags.trim().to_string();
        }
    }
    orcl_codegen::generate::variant(&p.kernel, &o, objective_is_total(p), fault)
}

/// The (platform, device) the transform of `cfg` names, or the override of `opts`: only the
/// bound `platform` and `device` arguments, no kernel.
pub fn device_for(
    p: &Prepared,
    space: &SearchSpace,
    cfg: &Configuration,
    opts: &TuneOptions,
) -> Result<(usize, usize), Diagnostic> {
    let backend = backend_of(p, opts);
    let (platform, device) = p.transform(backend).device(&env_for(space, cfg))?;
    Ok(match backend {
        Backend::OpenCl => (
            opts.platform.unwrap_or(platform),
            opts.device.unwrap_or(device),
        ),
        Backend::Cuda => (0, opts.device.unwrap_or(device)),
    })
}

/// What identifies a measurement: kernel source, build options, NDRange, device and skeleton
/// build plan (two configurations with the same key are measured once).
pub(super) fn variant_key(v: &Variant, plan: &skeleton::BuildPlan) -> String {
    let mut launch = format!(
        "{:?}|{}|{}|{}|{:?}|{:?}",
        v.global_size, v.local_size, v.platform, v.device, plan, v.grid
    );
    // A time loop's other kernels (absent from the key of a one-kernel variant, unchanged).
    for p in v.parts.iter().skip(1) {
        launch.push_str(&format!(
            "|{:?}|{}|{:?}",
            p.global_size, p.local_size, p.grid
        ));
    }
    sha(&[&v.source, &v.build_options, &launch])
}

/// Measure `v`. Under the `total` objective the OpenCL skeleton times the kernel alone, so the
/// host↔device copies of one call (`transfer_ms`: every array in, the written ones out, timed once
/// when the worker started) are added to every sample (the CUDA skeleton times copies + kernel
/// itself, split over `streamCount` streams).
pub(super) fn measure_objective(runner: &mut Runner, v: &Variant, total: bool) -> Outcome {
    let mut o = runner.measure(v);
    if total && v.backend == Backend::OpenCl {
        if let Some(t) = o.transfer_ms {
            o.samples_ms.iter_mut().for_each(|s| *s += t);
        }
    }
    o
}

/// A reason the variant cannot run on the device, checked before it is built.
pub fn device_limit(v: &Variant, d: &DeviceInfo) -> Option<String> {
    if let Some(why) = &v.invalid {
        return Some(format!("invalid schedule: {why}"));
    }
    // A time loop's kernels: each within the device's limits.
    if let Some(why) = v.parts.iter().skip(1).find_map(|p| device_limit(p, d)) {
        return Some(why);
    }
    if let Some(why) = sm90a_limit(v, d) {
        return Some(why);
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
    // CUDA tiles in dynamic shared memory (`-orcl-smem=`) may use the device's opt-in limit, and
    // so may static OpenCL `__local` arrays where the device has one (NVIDIA, sm_90).
    let limit = match d.local_mem_optin_bytes {
        Some(optin) if cuda::dynamic_smem(&v.build_options) > 0 => optin,
        Some(optin) if v.backend == Backend::OpenCl => optin,
        _ => d.local_mem_bytes,
    };
    if v.local_mem_bytes > limit {
        return Some(format!(
            "{} bytes of local memory exceed the device's {limit} bytes",
            v.local_mem_bytes
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

/// A `wgmma` kernel ([`orcl_codegen::target::Variant::sm90a`]) on a device that cannot run it:
/// one of compute capability other than 9.0 (sm_90a's features exist on no other), in CUDA or in
/// NVIDIA's OpenCL (whose PTX orcl retargets to sm_90a). Other OpenCL devices run the emulated form.
fn sm90a_limit(v: &Variant, d: &DeviceInfo) -> Option<String> {
    let nvidia = v.backend == Backend::Cuda || d.vendor.to_uppercase().contains("NVIDIA");
    if !v.sm90a || !nvidia || d.compute_capability == Some((9, 0)) {
        return None;
    }
    let cc = match d.compute_capability {
        Some((ma, mi)) => format!("compute capability {ma}.{mi}"),
        None => d.device_version.clone(),
    };
    Some(format!(
        "mmaInstruction='wgmma' needs sm_90a (compute capability 9.0, H100 / H200); the device has {cc}"
    ))
}

/// The arrays of input size `input` fit the device (each buffer within
/// `CL_DEVICE_MAX_MEM_ALLOC_SIZE`, all of them within its global memory) and the host's
/// available memory; otherwise a diagnostic at the largest array with the figures.
pub(super) fn check_memory(
    p: &Prepared,
    input: &BTreeMap<String, Value>,
    dev: &DeviceInfo,
    backend: Backend,
) -> Result<(), Diagnostic> {
    use orcl_frontend::inputs::human_bytes as h;
    let need = orcl_frontend::inputs::memory_need(
        &p.kernel,
        &p.region.spec,
        input,
        backend == Backend::OpenCl,
    )?;
    let Some((name, largest, span)) = need.largest.clone() else {
        return Ok(());
    };
    let host = orcl_frontend::inputs::host_available_bytes();
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

/// The timing skeletons of one experiment: one per build plan (a tuning parameter in the build
/// section, Orio's `CFLAGS`, gives one skeleton per distinct plan, built when a configuration
/// first needs it; issue 15 F9), cached by plan.
pub(super) struct Skeletons<'a> {
    p: &'a Prepared,
    backend: Backend,
    /// The skeleton's C source for this region and input size.
    source: String,
    built: HashMap<skeleton::BuildPlan, Result<PathBuf, String>>,
}

impl<'a> Skeletons<'a> {
    /// Renders the skeleton source of `p` at `input` (nothing is built yet). Errors: a
    /// diagnostic of the spec (located by the caller).
    pub fn new(
        p: &'a Prepared,
        input: &BTreeMap<String, Value>,
        backend: Backend,
        label: &str,
    ) -> Result<Skeletons<'a>, Diagnostic> {
        let spec = &p.region.spec;
        let tf32 = p.transform(backend).may_use_tf32();
        let source = match backend {
            Backend::OpenCl => {
                orcl_codegen::skeleton::render_opencl(&p.kernel, spec, input, label, tf32)
            }
            Backend::Cuda => {
                orcl_codegen::skeleton::render_cuda(&p.kernel, spec, input, label, tf32)
            }
        }?;
        Ok(Skeletons {
            p,
            backend,
            source,
            built: HashMap::new(),
        })
    }

    /// The build plan of configuration `cfg` (its `@PARAM@`s substituted).
    pub fn plan_for(
        &self,
        space: &SearchSpace,
        cfg: &Configuration,
    ) -> Result<skeleton::BuildPlan, Diagnostic> {
        let mut plan = skeleton::build_plan(&self.p.region.spec, &env_for(space, cfg))?;
        if self.backend == Backend::Cuda {
            // The CUDA skeleton loads libcuda and libnvrtc with dlopen.
            plan.libs.push_str(" -ldl");
        }
        Ok(plan)
    }

    /// Builds the skeleton of `plan` now (cached on disk by source and commands).
    pub fn build(&self, plan: &skeleton::BuildPlan) -> Result<PathBuf, skeleton::BuildError> {
        skeleton::build(
            &self.source,
            &plan.command,
            &plan.libs,
            plan.prebuild.as_deref(),
            plan.postbuild.as_deref(),
            &skeleton::cache_dir(),
        )
    }

    /// Records the first plan's skeleton, built by the caller (its failure is the experiment's).
    pub fn insert(&mut self, plan: skeleton::BuildPlan, exe: PathBuf) {
        self.built.insert(plan, Ok(exe));
    }

    /// The skeleton of `plan`, built on first use; a failed build is remembered as its message.
    pub fn exe(&mut self, plan: &skeleton::BuildPlan) -> Result<PathBuf, String> {
        if let Some(r) = self.built.get(plan) {
            return r.clone();
        }
        let r = self.build(plan).map_err(|e| e.to_string());
        self.built.insert(plan.clone(), r.clone());
        r
    }

    /// The skeleton of `plan` if it was built successfully.
    pub fn built(&self, plan: &skeleton::BuildPlan) -> Option<PathBuf> {
        match self.built.get(plan) {
            Some(Ok(exe)) => Some(exe.clone()),
            _ => None,
        }
    }
}

/// `--slurm`: the device `seen` that the worker `runner` just started reports must be the
/// controller's device `device` (`dev`): the controller chose the limits and the fingerprint from
/// what it sees here. Errors (usage): a worker on another device kind, naming its step and node.
fn same_device_kind(
    runner: &Runner,
    seen: &str,
    device: usize,
    dev: &DeviceInfo,
) -> Result<(), TuneError> {
    if seen.trim() == dev.name.trim() {
        return Ok(());
    }
    Err(TuneError::Usage(format!(
        "--slurm: the worker on {} measures device `{}`, but this machine's device {} is `{}`; run `orcl tune --slurm` where it sees the workers' device kind (e.g. inside the job: `sbatch`/`salloc`, see README \"Clusters (Slurm)\")",
        runner
            .launched
            .last()
            .map(|p| p.describe())
            .unwrap_or_default(),
        seen,
        device,
        dev.name
    )))
}

/// Whether CUDA kernels can be built by the pool (in its `orcl build-server --cuda` children):
/// not switched off (`ORCL_CUDA_POOL=0`), the device's compute capability known, and a libnvrtc
/// with `nvrtcGetCUBIN` loaded here (probed, never a panic when it is missing; its version is
/// part of the cache key) that compiles a trivial kernel for the device's `sm_XY`. Why not,
/// otherwise.
fn cuda_pool(
    dev: &DeviceInfo,
) -> Result<(std::sync::Arc<orcl_measure::nvrtc::Nvrtc>, (u32, u32)), String> {
    if std::env::var("ORCL_CUDA_POOL").is_ok_and(|v| v.trim() == "0") {
        return Err("ORCL_CUDA_POOL=0".into());
    }
    let cc = dev
        .compute_capability
        .ok_or("the device's compute capability is unknown")?;
    let nvrtc = orcl_measure::nvrtc::Nvrtc::load()?;
    nvrtc.check(cc)?;
    Ok((nvrtc, cc))
}

/// The build pool of an experiment, started right after device discovery (issue 24: with a
/// cold kernel cache its build processes then start while the skeleton is compiled and the
/// workers set up, instead of after them), handed to the workers by [`Workers::start`].
pub(super) struct Pool {
    /// Build threads (`--jobs`, or its default).
    jobs: usize,
    pool: Option<orcl_measure::pool::BuildPool>,
    /// Which pool builds the kernels, or why none does (metadata `build_pool`).
    note: String,
}

/// Starts the build pool for `v0`'s backend (the first configuration's variant) on `dev`: `jobs`
/// defaults to the machine's cores on a GPU and to 0 on a CPU device (PoCL), where a build can
/// only run between measurements and PoCL generates the code at the first launch anyway
/// (docs/THROUGHPUT.md). With a cold kernel cache its build processes start now
/// (`BuildPool::start_servers_if_cold`).
pub(super) fn start_build_pool(v0: &Variant, dev: &DeviceInfo, opts: &TuneOptions) -> Pool {
    let backend = v0.backend;
    let jobs = opts.jobs.unwrap_or_else(|| {
        if backend == Backend::OpenCl && orcl_measure::pool::is_cpu(v0.platform, v0.device) {
            0
        } else {
            orcl_measure::pool::default_jobs()
        }
    });
    let cache = (!opts.no_kernel_cache).then(skeleton::cache_dir);
    if jobs == 0 {
        let note = "none: --jobs 0 (the worker builds every kernel)".to_string();
        return Pool {
            jobs,
            pool: None,
            note,
        };
    }
    let (pool, note) = match backend {
        Backend::OpenCl => {
            let pool = orcl_measure::pool::BuildPool::new(
                jobs,
                v0.platform,
                v0.device,
                &dev.fingerprint(),
                cache,
            );
            (Some(pool), format!("opencl: {jobs} threads"))
        }
        Backend::Cuda => match cuda_pool(dev) {
            Ok((nvrtc, cc)) => {
                let note = format!(
                    "cuda: {jobs} threads, NVRTC {}.{} ({}), sm_{}{}",
                    nvrtc.version.0, nvrtc.version.1, nvrtc.path, cc.0, cc.1
                );
                let fp = dev.fingerprint();
                let pool = orcl_measure::pool::BuildPool::cuda(jobs, nvrtc, cc, &fp, cache);
                (Some(pool), note)
            }
            Err(why) => (
                None,
                format!("none: {why} (the worker compiles with its own NVRTC)"),
            ),
        },
    };
    if let Some(p) = &pool {
        p.start_servers_if_cold(&v0.source, &v0.build_options);
    }
    Pool { jobs, pool, note }
}

/// A runner of the skeleton `exe` with the run's warm-ups, repetitions and timeout policy,
/// launched by srun under `--slurm` (`opts.slurm`).
fn new_runner(exe: &std::path::Path, settings: &Settings, opts: &TuneOptions) -> Runner {
    let mut r = Runner::new(
        exe.to_path_buf(),
        settings.warmups,
        settings.reps,
        settings.policy,
    );
    if let Some(s) = &opts.slurm {
        r.set_launcher(s.clone());
    }
    r
}

/// Starts `runner`'s worker on `device` and every `extra` worker, each on a thread of its own:
/// locally all at once (the reference outputs come from the run's reference process, beside
/// them: `Runner::share_reference`); under `--slurm` the first one alone, which computes the
/// reference outputs and shares them, then the others. Returns the device name the first one
/// reports. Errors: the first failure.
fn start_workers(
    runner: &mut Runner,
    extra: &mut [(usize, Runner)],
    platform: usize,
    device: usize,
    slurm: bool,
) -> Result<String, TuneError> {
    if slurm {
        runner.worker(platform, device)?;
    }
    let (seen, rest) = std::thread::scope(|s| {
        let started: Vec<_> = extra
            .iter_mut()
            .map(|(d, r)| s.spawn(move || r.worker(platform, *d).map(|_| ())))
            .collect();
        let seen = runner.worker(platform, device).map(|h| h.device.clone());
        let rest = started
            .into_iter()
            .try_for_each(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        (seen, rest)
    });
    let seen = seen?;
    rest?;
    Ok(seen)
}

/// The measuring workers of one experiment: the first device's runner (which owns the build
/// pool) and, under `--devices`, one more runner per device sharing that pool; under
/// `--slurm`, one runner per srun worker.
pub(super) struct Workers {
    pub runner: Runner,
    pub extra: Vec<(usize, Runner)>,
    /// Build threads (`--jobs`, or its default).
    pub jobs: usize,
    /// Which build pool builds the kernels, or why none does (metadata `build_pool`).
    pub pool_note: String,
    /// The device of each worker slot (slot 0: `runner`, then `extra`); empty for one local
    /// worker. Distinct under `--devices`; under `--slurm` several workers may share an index
    /// (each on its own node or GPU).
    pub devices: Vec<usize>,
    /// `--slurm`.
    pub slurm: bool,
    /// The reference outputs of this run's skeletons (their process, the run's files), dropped
    /// after the workers (fields drop in declaration order).
    _reference: std::sync::Arc<orcl_measure::skeleton::reference::References>,
    /// The energy counter of an energy objective (`tune::energy`); `None` for a time objective.
    pub energy: Option<super::energy::Meter>,
}

impl Workers {
    /// Starts the worker of every device (a skeleton that cannot start is an error of the
    /// whole experiment), sharing `pool` ([`start_build_pool`]).
    pub fn start(
        exe: PathBuf,
        settings: &Settings,
        v0: &Variant,
        dev: &DeviceInfo,
        opts: &TuneOptions,
        device_list: &[usize],
        pool: Pool,
    ) -> Result<Workers, TuneError> {
        let mut runner = new_runner(&exe, settings, opts);
        // The device of each measuring worker: `--devices`' list, or under `--slurm` one srun
        // worker per task, worker k on the (k mod N)-th device.
        let devices: Vec<usize> = match &opts.slurm {
            Some(s) => s.task_devices(device_list, v0.device),
            None => device_list.to_vec(),
        };
        if opts.slurm.is_some() {
            let unused: Vec<String> = device_list
                .iter()
                .filter(|d| !devices.contains(d))
                .map(usize::to_string)
                .collect();
            if !unused.is_empty() {
                eprintln!(
                    "warning: --slurm: --ntasks {} leaves device(s) {} of --devices without a worker (worker k measures the (k mod N)-th device of --devices); raise --ntasks or list fewer devices",
                    devices.len(),
                    unused.join(", ")
                );
            }
        }
        // `--devices`: one more runner (worker process) per device, sharing the build pool
        // (identical devices load the same binaries). `--slurm`: one more per srun worker.
        // The reference outputs are computed once per skeleton binary, by a process of their
        // own beside every worker's device set-up, or read from the cache (issue 24: every
        // worker computed them, at once, on the same cores: 15 s for one GPU, 52 s for four at
        // 4096^3); under --slurm the first worker computes them (a Slurm worker may wait in the
        // queue).
        let reference = orcl_measure::skeleton::reference::References::new(
            &skeleton::cache_dir(),
            !opts.no_kernel_cache,
        );
        runner.share_reference(reference.clone());
        let mut extra: Vec<(usize, Runner)> = devices
            .iter()
            .skip(1)
            .map(|&d| {
                let mut r = new_runner(&exe, settings, opts);
                r.share_reference(reference.clone());
                (d, r)
            })
            .collect();
        let Pool {
            jobs,
            pool,
            note: pool_note,
        } = pool;
        if let Some(pool) = pool {
            runner.set_pool(pool, v0.backend);
        }
        let slurm = opts.slurm.is_some();
        let seen = start_workers(&mut runner, &mut extra, v0.platform, v0.device, slurm)?;
        if opts.slurm.is_some() {
            same_device_kind(&runner, &seen, v0.device, dev)?;
            runner.expect_device(&dev.name);
            // Each step may land on another node (a partition of mixed GPUs).
            for (d, r) in &mut extra {
                let seen = r.worker(v0.platform, *d)?.device.clone();
                same_device_kind(r, &seen, v0.device, dev)?;
                r.expect_device(&dev.name);
            }
        }
        for (_, r) in &mut extra {
            r.share_pool(runner.pool());
        }
        Ok(Workers {
            _reference: reference,
            runner,
            extra,
            jobs,
            pool_note,
            devices,
            slurm: opts.slurm.is_some(),
            energy: None,
        })
    }

    /// Every measuring worker slot (slot 0: `runner`, with the energy meter; then `extra`), for
    /// the search's measuring threads (`search_loop`). A one-device tune's one slot measures on
    /// the variant's own device.
    pub fn slots(&mut self) -> Vec<super::search_loop::Slot<'_>> {
        let first = super::search_loop::Slot {
            slot: 0,
            device: self.devices.first().copied(),
            runner: &mut self.runner,
            energy: self.energy.as_mut(),
        };
        let rest = self
            .extra
            .iter_mut()
            .enumerate()
            .map(|(i, (d, r))| super::search_loop::Slot {
                slot: i + 1,
                device: Some(*d),
                runner: r,
                energy: None,
            });
        std::iter::once(first).chain(rest).collect()
    }

    /// The `build_pool` metadata: which pool built the kernels (or why none did), its counts
    /// (fresh builds, cache hits, kernels left to the worker) and, when a worker could not load
    /// a CUBIN (the run went on without the pool), its message.
    pub fn pool_summary(&self) -> serde_json::Value {
        let pool = self.runner.pool();
        let (built, cached, _) = pool.as_ref().map_or((0, 0, 0), |p| p.0.counts());
        let refused = std::iter::once(&self.runner)
            .chain(self.extra.iter().map(|(_, r)| r))
            .find_map(|r| r.cubin_refused());
        let mut v = serde_json::json!({
            "pool": self.pool_note,
            "built": built,
            "cached": cached,
            "in_worker": pool.map_or(0, |p| p.0.in_worker()),
        });
        if let Some(m) = refused {
            // The worker could not load a CUBIN: the rest of the run compiled in the worker.
            v["worker_refused_cubin"] = m.into();
        }
        v
    }

    /// `--devices`: (device, configurations measured) per device in index order, from the
    /// per-slot counts `per_worker`; empty without `--devices` and under `--slurm`.
    pub fn per_device(&self, per_worker: &[usize]) -> Vec<(usize, usize)> {
        if self.slurm {
            return Vec::new();
        }
        let m: std::collections::BTreeMap<usize, usize> = self
            .devices
            .iter()
            .copied()
            .zip(per_worker.iter().copied())
            .collect();
        m.into_iter().collect()
    }

    /// `--slurm`: each worker's device, configurations measured (`per_worker`, by slot) and the
    /// steps it ran as; empty otherwise.
    pub fn slurm_workers(&self, per_worker: &[usize]) -> Vec<super::SlurmWorker> {
        if !self.slurm {
            return Vec::new();
        }
        std::iter::once(&self.runner)
            .chain(self.extra.iter().map(|(_, r)| r))
            .zip(self.devices.iter().zip(per_worker))
            .map(|(r, (&device, &measured))| super::SlurmWorker {
                device,
                measured,
                steps: r.launched.iter().map(|p| p.describe()).collect(),
            })
            .collect()
    }

    /// What every worker copied between host and device so far (the `transfers` metadata).
    pub fn traffic(&self) -> orcl_measure::Traffic {
        let mut t = self.runner.traffic().clone();
        self.extra.iter().for_each(|(_, r)| t.add(r.traffic()));
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device(backend: &'static str, vendor: &str, cc: Option<(u32, u32)>) -> DeviceInfo {
        DeviceInfo {
            backend,
            platform_index: 0,
            platform: "p".into(),
            device_index: 0,
            name: "d".into(),
            vendor: vendor.into(),
            driver_version: "1".into(),
            device_version: "compute capability 8.0".into(),
            compute_capability: cc,
            compute_units: 1,
            max_work_group_size: 1024,
            max_work_item_sizes: vec![1024, 1024, 64],
            max_grid_size: vec![],
            local_mem_bytes: 1 << 20,
            local_mem_optin_bytes: None,
            local_mem_per_compute_unit_bytes: None,
            global_mem_bytes: 1 << 30,
            constant_mem_bytes: 1,
            global_cache_bytes: 1,
            max_clock_mhz: 1,
            max_alloc_bytes: 1 << 30,
            preferred_work_group_multiple: None,
            registers_per_block: None,
            max_threads_per_compute_unit: None,
            pci_bus_id: None,
            nvrtc_version: None,
            fp64: true,
        }
    }

    /// A `wgmma` kernel runs on an NVIDIA device of compute capability 9.0 (CUDA, or OpenCL with its
    /// PTX retargeted) and on other OpenCL devices (its emulated form); elsewhere it is pruned.
    #[test]
    fn sm90a_kernels_are_pruned_where_they_cannot_run() {
        let v = |backend, sm90a| Variant {
            backend,
            source: String::new(),
            build_options: String::new(),
            global_size: GlobalSize::CoverLoop,
            local_size: 128,
            platform: 0,
            device: 0,
            local_mem_bytes: 0,
            grid: None,
            invalid: None,
            parts: Vec::new(),
            sm90a,
        };
        let a100 = device("cuda", "NVIDIA Corporation", Some((8, 0)));
        let h100 = device("cuda", "NVIDIA Corporation", Some((9, 0)));
        let why = device_limit(&v(Backend::Cuda, true), &a100).unwrap();
        assert!(why.contains("sm_90a"), "{why}");
        assert_eq!(device_limit(&v(Backend::Cuda, true), &h100), None);
        assert_eq!(device_limit(&v(Backend::Cuda, false), &a100), None);
        let a100_cl = device("opencl", "NVIDIA Corporation", Some((8, 0)));
        let why = device_limit(&v(Backend::OpenCl, true), &a100_cl).unwrap();
        assert!(why.contains("compute capability 8.0"), "{why}");
        let unknown_cl = device("opencl", "NVIDIA Corporation", None);
        assert!(device_limit(&v(Backend::OpenCl, true), &unknown_cl).is_some());
        let h100_cl = device("opencl", "NVIDIA Corporation", Some((9, 0)));
        assert_eq!(device_limit(&v(Backend::OpenCl, true), &h100_cl), None);
        let pocl = device("opencl", "AuthenticAMD", None);
        assert_eq!(device_limit(&v(Backend::OpenCl, true), &pocl), None);
    }

    /// Static OpenCL `__local` arrays may use the device's static limit where it has one (NVIDIA
    /// sm_90: 227 KiB) and stay within `CL_DEVICE_LOCAL_MEM_SIZE` elsewhere.
    #[test]
    fn opencl_local_memory_limit_is_the_static_limit_where_known() {
        let v = Variant {
            backend: Backend::OpenCl,
            source: String::new(),
            build_options: String::new(),
            global_size: GlobalSize::CoverLoop,
            local_size: 128,
            platform: 0,
            device: 0,
            local_mem_bytes: 196_608,
            grid: None,
            invalid: None,
            parts: Vec::new(),
            sm90a: false,
        };
        let mut h100_cl = device("opencl", "NVIDIA Corporation", Some((9, 0)));
        h100_cl.local_mem_bytes = 49_152;
        h100_cl.local_mem_optin_bytes = Some(232_448);
        assert_eq!(device_limit(&v, &h100_cl), None);
        let mut pocl = device("opencl", "AuthenticAMD", None);
        pocl.local_mem_bytes = 49_152;
        pocl.local_mem_optin_bytes = None;
        let why = device_limit(&v, &pocl).unwrap();
        assert!(why.contains("196608 bytes of local memory"), "{why}");
    }
}
