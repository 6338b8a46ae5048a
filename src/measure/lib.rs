//! Measurement: runs variants in timing-skeleton worker processes (DESIGN.md §3) and turns their
//! answers, crashes and timeouts into classified `Outcome`s.

pub mod interrupt;
pub mod device;
pub mod energy;
pub mod clbuild;
pub mod nvrtc;
pub mod build_server;
pub mod pool;
pub mod skeleton;
pub mod slurm;
pub mod worker;

use orcl_codegen::{GlobalSize, Variant as OpenClVariant};
use pool::{BuildPool, Built};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use worker::{Request, SpawnError, Worker, WorkerFailure};

/// Status of one evaluated configuration: `Ok` or a failure class (stored, never ranked).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Status {
    Ok,
    /// Breaks a constraint of the spec; skipped before build.
    Constraint,
    /// Exceeds a device limit (work-group size, local memory); skipped before build.
    DeviceLimit,
    CompileError,
    LaunchError,
    /// The worker process died.
    Crash,
    /// Cut at the per-variant timeout.
    Timeout,
    /// Outputs differ from the original loop beyond the tolerance.
    WrongResult,
}

impl Status {
    pub const ALL: [Status; 8] = [
        Status::Ok,
        Status::Constraint,
        Status::DeviceLimit,
        Status::CompileError,
        Status::LaunchError,
        Status::Crash,
        Status::Timeout,
        Status::WrongResult,
    ];
    /// The database spelling (`ok`, `compile_error`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Constraint => "constraint",
            Status::DeviceLimit => "device_limit",
            Status::CompileError => "compile_error",
            Status::LaunchError => "launch_error",
            Status::Crash => "crash",
            Status::Timeout => "timeout",
            Status::WrongResult => "wrong_result",
        }
    }
    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// The result of evaluating one configuration. Times in milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    pub status: Status,
    /// Kernel build time (ms); 0 when an identical source was already built.
    pub build_ms: Option<f64>,
    /// Kernel time of each timed repetition (ms, OpenCL profiling events).
    pub samples_ms: Vec<f64>,
    /// Host↔device copies of one call of the tuned code: every array in, the written ones out
    /// (ms), timed once per worker at its start (CUDA `-orcl-total`: in the validation run); the
    /// variant itself copies only what [`Traffic`] counts.
    pub transfer_ms: Option<f64>,
    /// Largest relative error against the original loop.
    pub max_error: Option<f64>,
    pub message: Option<String>,
    /// Energy per call (J) over an energy window ([`Runner::measure_energy`]); `None` when the
    /// objective needs no energy or it could not be measured.
    pub energy_j: Option<f64>,
    /// Average device power over that window (W).
    pub power_w: Option<f64>,
}

impl Outcome {
    pub fn failure(status: Status, message: impl Into<String>) -> Outcome {
        Outcome {
            status,
            build_ms: None,
            samples_ms: vec![],
            transfer_ms: None,
            max_error: None,
            message: Some(message.into()),
            energy_j: None,
            power_w: None,
        }
    }
    /// The objective: median kernel time (ms) over the timed repetitions; `None` unless `Ok`.
    pub fn median_ms(&self) -> Option<f64> {
        (self.status == Status::Ok)
            .then(|| median(&self.samples_ms))
            .flatten()
    }
}

/// Median of `xs` (mean of the two middle values for an even count); `None` when empty.
pub fn median(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let m = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    })
}

/// Bytes copied between host and device by a runner's workers, as their skeletons report them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Traffic {
    /// Worker processes started (each uploads the inputs once).
    pub workers: u64,
    /// Host-to-device at the workers' start-up: every array, and the reference outputs when
    /// validation is on the device (bytes).
    pub setup_h2d_bytes: u64,
    /// Device-to-host at the workers' start-up: the written arrays once, to time the copies out
    /// (bytes).
    pub setup_d2h_bytes: u64,
    /// Variants that got an answer from a worker.
    pub variants: u64,
    /// Host-to-device while running those variants (bytes).
    pub variant_h2d_bytes: u64,
    /// Device-to-host while running those variants (bytes).
    pub variant_d2h_bytes: u64,
    /// `device` when every worker validated on the device; otherwise `host: ` and the last reason.
    pub validation: String,
}

impl Traffic {
    /// Add a started worker's start-up copies.
    fn started(&mut self, h: &worker::Hello) {
        self.workers += 1;
        self.setup_h2d_bytes += h.setup_h2d_bytes;
        self.setup_d2h_bytes += h.setup_d2h_bytes;
        if h.validation != "device" {
            self.validation = format!("host: {}", h.validation_note);
        } else if self.validation.is_empty() {
            self.validation = "device".into();
        }
    }

    /// The sum of `self` and `o` (the runners of `--devices`).
    pub fn add(&mut self, o: &Traffic) {
        self.workers += o.workers;
        self.setup_h2d_bytes += o.setup_h2d_bytes;
        self.setup_d2h_bytes += o.setup_d2h_bytes;
        self.variants += o.variants;
        self.variant_h2d_bytes += o.variant_h2d_bytes;
        self.variant_d2h_bytes += o.variant_d2h_bytes;
        if self.validation.is_empty() || o.validation.starts_with("host") {
            self.validation = o.validation.clone();
        }
    }
}

/// The launches of a time loop's kernels after the first (global, local, grid numbers), for the
/// request's `PART` lines; empty for a variant of one kernel.
fn part_launches(v: &OpenClVariant) -> Vec<(u64, u64, [u64; 10])> {
    v.parts
        .iter()
        .skip(1)
        .map(|p| {
            let global = match p.global_size {
                GlobalSize::Fixed(g) => g,
                GlobalSize::CoverLoop => 0,
            };
            let grid = p.grid.as_ref().map(orcl_codegen::Grid::numbers);
            (
                global,
                p.local_size,
                grid.unwrap_or([0, 0, 1, 1, 0, 1, 1, 0, 1, 1]),
            )
        })
        .collect()
}

/// How long a variant may run before it is cut.
#[derive(Debug, Clone, Copy)]
pub enum TimeoutPolicy {
    /// A fixed timeout per variant.
    Fixed(Duration),
    /// 10× the slowest good variant so far (wall time, build included), at least 10 s.
    Adaptive,
}

/// Runs OpenCL variants in skeleton workers, one worker per (skeleton binary, platform, device),
/// restarting a worker after a crash or a timeout. The skeleton binary is the current one (see
/// [`Runner::use_skeleton`]): a build command with a tuning parameter gives one binary per value.
pub struct Runner {
    exe: PathBuf,
    workers: HashMap<(PathBuf, usize, usize), Worker>,
    pub warmups: u32,
    pub repetitions: u32,
    pub policy: TimeoutPolicy,
    slowest_ok: Duration,
    next_id: i64,
    /// Kernel builds ahead of measurement (`--jobs`; OpenCL, or CUDA with NVRTC in orcl's
    /// process); `None`: the worker builds from source. Shared by the runners of identical
    /// devices under `--devices` (one pool, one cache key). Builds for `pool_backend` only.
    pool: Option<std::sync::Arc<BuildPool>>,
    pool_backend: Option<orcl_codegen::Backend>,
    /// Why this runner's worker could not load a CUBIN of the pool (its message), after which
    /// its CUDA variants are compiled by the worker, as without a pool.
    cubin_refused: Option<String>,
    /// Pool keys whose build time was already reported (the first variant of a kernel pays it).
    reported: HashSet<String>,
    /// Host↔device bytes of this runner's workers.
    traffic: Traffic,
    /// `--slurm`: workers are srun steps running `orcl worker` (see `slurm`); `None`: local.
    launcher: Option<slurm::Slurm>,
    /// Where each worker this runner started ran (`--slurm`: node, job and step), in order.
    pub launched: Vec<worker::Preamble>,
    /// `--slurm`: the device name every (re)started worker must report (the experiment's).
    expect_device: Option<String>,
    /// The reference outputs of this run's skeleton binaries, shared by its runners (see
    /// [`Runner::share_reference`]).
    reference: Option<std::sync::Arc<skeleton::reference::References>>,
}

impl Runner {
    pub fn new(exe: PathBuf, warmups: u32, repetitions: u32, policy: TimeoutPolicy) -> Runner {
        Runner {
            exe,
            workers: HashMap::new(),
            warmups,
            repetitions,
            policy,
            slowest_ok: Duration::ZERO,
            next_id: 1,
            pool: None,
            pool_backend: None,
            cubin_refused: None,
            reported: HashSet::new(),
            traffic: Traffic::default(),
            launcher: None,
            launched: Vec::new(),
            expect_device: None,
            reference: None,
        }
    }

    /// Workers started from now on get their reference outputs from `refs` (issue 24): computed
    /// once per skeleton binary by a process of their own while the workers set up their
    /// devices, or read from the cache (`skeleton::reference`). Under `--slurm` the first
    /// worker of a binary computes them and the others (other nodes, restarts) read its file.
    pub fn share_reference(&mut self, refs: std::sync::Arc<skeleton::reference::References>) {
        self.reference = Some(refs);
    }

    /// The bytes this runner's workers copied between host and device so far.
    pub fn traffic(&self) -> &Traffic {
        &self.traffic
    }

    /// Start this runner's workers with srun (`orcl tune --slurm`) instead of locally.
    pub fn set_launcher(&mut self, slurm: slurm::Slurm) {
        self.launcher = Some(slurm);
    }

    /// `--slurm`: refuse a worker (re)started on a node whose device is not named `name` (the
    /// experiment's device): a restarted step may land on another kind of node.
    pub fn expect_device(&mut self, name: &str) {
        self.expect_device = Some(name.to_string());
    }

    /// Build the kernels of `backend` on `pool` (ahead of measurement) instead of in the worker.
    pub fn set_pool(&mut self, pool: BuildPool, backend: orcl_codegen::Backend) {
        self.pool = Some(std::sync::Arc::new(pool));
        self.pool_backend = Some(backend);
    }

    /// Use another runner's pool (`--devices`: identical devices run the same binaries, so one
    /// pool builds for all of them); `None` leaves this runner building in its worker.
    pub fn share_pool(&mut self, pool: Option<(std::sync::Arc<BuildPool>, orcl_codegen::Backend)>) {
        self.pool_backend = pool.as_ref().map(|p| p.1);
        self.pool = pool.map(|p| p.0);
    }

    /// This runner's build pool and the backend it builds for, for [`Runner::share_pool`].
    pub fn pool(&self) -> Option<(std::sync::Arc<BuildPool>, orcl_codegen::Backend)> {
        self.pool.clone().zip(self.pool_backend)
    }

    /// The pool, when it builds `v`'s backend (and, CUDA, the worker loads its CUBINs).
    fn pool_for(&self, v: &OpenClVariant) -> Option<&BuildPool> {
        self.pool
            .as_deref()
            .filter(|_| self.pool_backend == Some(v.backend) && self.cubin_refused.is_none())
    }

    /// Why the worker could not load a CUBIN of the pool, if it could not (the pool is then no
    /// longer used by this runner).
    pub fn cubin_refused(&self) -> Option<&str> {
        self.cubin_refused.as_deref()
    }

    /// Queue the build of `v` on the pool, so it is ready when `measure` comes to it (no-op
    /// without a pool for `v`'s backend).
    pub fn prefetch(&self, v: &OpenClVariant) {
        if let Some(p) = self.pool_for(v) {
            p.submit(&v.source, &v.build_options);
        }
    }

    /// (kernels built, cache hits, builds queued or running) of the pool; `None` without one.
    pub fn build_counts(&self) -> Option<(usize, usize, usize)> {
        self.pool.as_ref().map(|p| p.counts())
    }

    /// The current per-variant timeout.
    pub fn timeout(&self) -> Duration {
        match self.policy {
            TimeoutPolicy::Fixed(d) => d,
            TimeoutPolicy::Adaptive => (self.slowest_ok * 10).max(Duration::from_secs(10)),
        }
    }

    /// Measure the next variants with the skeleton binary `exe` (built by `skeleton::build` for
    /// one build command); workers of other binaries stay up for when they are used again.
    pub fn use_skeleton(&mut self, exe: PathBuf) {
        self.exe = exe;
    }

    /// Start (or reuse) the worker for a device; returns its hello (device name, trip count).
    pub fn worker(&mut self, platform: usize, device: usize) -> Result<&worker::Hello, SpawnError> {
        let key = (self.exe.clone(), platform, device);
        // A worker that died while idle (a cancelled Slurm step, a killed process) is replaced
        // here, so the next variant is not recorded as its crash.
        if self.workers.get_mut(&key).is_some_and(|w| !w.alive()) {
            self.workers.remove(&key);
        }
        if !self.workers.contains_key(&key) {
            // Tests only: a worker that cannot start (tests/stages.rs).
            if std::env::var_os("ORCL_TEST_WORKER_FAILS").is_some() {
                return Err(SpawnError::NotReady(
                    "ORCL_TEST_WORKER_FAILS is set (a test fault)".into(),
                ));
            }
            let startup = Duration::from_secs(300);
            tracing::info!(platform, device, skeleton = %self.exe.display(), "worker start");
            let t0 = Instant::now();
            let reference = self.reference.as_ref().map_or_else(Vec::new, |r| {
                r.worker_env(&self.exe, self.launcher.is_none())
            });
            let w = match &self.launcher {
                None => {
                    // A cached skeleton runs by descriptor (`/proc/PID/fd/N`, issue 25 G1); its
                    // argv[0] and messages name its file in the cache.
                    let named = skeleton::cache::on_disk(&self.exe);
                    let mut cmd = std::process::Command::new(&self.exe);
                    std::os::unix::process::CommandExt::arg0(&mut cmd, &named);
                    cmd.arg(platform.to_string()).arg(device.to_string());
                    cmd.envs(reference);
                    Worker::spawn_command(cmd, &named.display().to_string(), startup, None)?
                }
                Some(s) => {
                    let exe = slurm::absolute(&skeleton::cache::on_disk(&self.exe));
                    let mut cmd = s.command(&exe, platform, device);
                    cmd.envs(reference.into_iter().map(|(k, r)| (k, slurm::absolute(&r))));
                    let what = format!("{} (srun) for {}", s.srun.display(), exe.display());
                    let w = Worker::spawn_command(
                        cmd,
                        &what,
                        slurm::STARTUP,
                        Some(slurm::absolute(&skeleton::cache_dir().join("requests"))),
                    )?;
                    if let Some(want) = &self.expect_device {
                        if w.hello.device.trim() != want.trim() {
                            let at = w.preamble.as_ref().map(|p| p.describe());
                            let at = at.unwrap_or_default();
                            // Dropping `w` ends its step.
                            return Err(SpawnError::NotReady(format!(
                                "the Slurm worker {at} sees device `{}`, not the experiment's `{want}`: its node is of another kind (restrict the nodes, e.g. with SLURM_CONSTRAINT or --partition)",
                                w.hello.device
                            )));
                        }
                    }
                    self.launched.extend(w.preamble.clone());
                    w
                }
            };
            tracing::info!(
                platform,
                device,
                name = %w.hello.device,
                seconds = format!("{:.3}", t0.elapsed().as_secs_f64()),
                upload_bytes = w.hello.setup_h2d_bytes,
                validation = %w.hello.validation,
                "worker ready (device context, inputs uploaded, reference outputs in place)"
            );
            self.traffic.started(&w.hello);
            self.workers.insert(key.clone(), w);
        }
        Ok(&self.workers[&key].hello)
    }

    /// Measure the energy of `v` (measured before with [`Runner::measure`]): one request of one
    /// warm-up and at least `calls` timed repetitions as an energy window, `counter` read at its
    /// updates around them ([`worker::Worker::run_energy`], docs/ENERGY.md). Errors: one line (the variant failed this
    /// time, its worker died, the counter could not be read).
    pub fn measure_energy(
        &mut self,
        v: &OpenClVariant,
        calls: u32,
        counter: &mut dyn energy::EnergyCounter,
    ) -> Result<energy::EnergyReading, String> {
        let key = (self.exe.clone(), v.platform, v.device);
        self.worker(v.platform, v.device)
            .map_err(|e| e.to_string())?;
        let prebuilt = match self.pool_for(v).map(|p| p.get(&v.source, &v.build_options)) {
            Some((k, Built::Binary { bytes, .. })) => Some((k, bytes)),
            _ => None,
        };
        let id = self.next_id;
        self.next_id += 1;
        let binary = prebuilt.as_ref().map(|(k, b)| (k.as_str(), b.as_slice()));
        let req = request(v, id, binary, 1, calls.max(1));
        let timeout = self.timeout().max(Duration::from_secs(30));
        let w = self.workers.get_mut(&key).expect("worker started above");
        match w.run_energy(&req, (timeout, skeleton::build_timeout()), counter) {
            Ok((r, _)) if r.status != "ok" => Err(format!("{}: {}", r.status, r.message)),
            Ok((_, Some(Ok((mj, ms, n))))) => Ok(energy::EnergyReading::of(mj, ms, n)),
            Ok((_, Some(Err(e)))) => Err(e),
            Ok((_, None)) => Err("the worker sent no energy window".into()),
            Err(f) => {
                self.workers.remove(&key);
                Err(format!("{f:?}"))
            }
        }
    }

    /// Measure one variant: build, W warm-ups, R timed repetitions, validation of the first run.
    pub fn measure(&mut self, v: &OpenClVariant) -> Outcome {
        let key = (self.exe.clone(), v.platform, v.device);
        if let Err(e) = self.worker(v.platform, v.device) {
            return Outcome::failure(Status::LaunchError, e.to_string());
        }
        // With a pool: wait for the prebuilt binary; a failed build is a compile error here.
        let mut prebuilt: Option<(String, std::sync::Arc<Vec<u8>>, f64)> = None;
        if let Some(p) = self.pool_for(v) {
            match p.get(&v.source, &v.build_options) {
                (_, Built::Failed(log)) => return Outcome::failure(Status::CompileError, log),
                (_, Built::TimedOut(why)) => return Outcome::failure(Status::Timeout, why),
                // Left to the worker: sent as source (`RUN`), as without a pool.
                (_, Built::InWorker(_)) => {}
                (
                    k,
                    Built::Binary {
                        bytes, build_ms, ..
                    },
                ) => {
                    let ms = if self.reported.insert(k.clone()) {
                        build_ms
                    } else {
                        0.0
                    };
                    prebuilt = Some((k, bytes, ms));
                }
            }
        }
        let id = self.next_id;
        self.next_id += 1;
        let binary = prebuilt
            .as_ref()
            .map(|(k, b, _)| (k.as_str(), b.as_slice()));
        let req = request(v, id, binary, self.warmups, self.repetitions);
        let timeout = self.timeout();
        let start = Instant::now();
        // On a CPU device no build runs while the variant is measured (see `pool`).
        let gate = self.pool.as_ref().and_then(|p| p.measuring());
        let w = self.workers.get_mut(&key).expect("worker started above");
        let pre = prebuilt.is_some();
        tracing::debug!(id, device = v.device, prebuilt = pre, "measure");
        let result = w.run(&req, timeout, skeleton::build_timeout());
        drop(gate);
        let (secs, got) = (
            start.elapsed().as_secs_f64(),
            result.as_ref().map(|r| &r.status),
        );
        tracing::debug!(id, device = v.device, seconds = secs, status = ?got, "measured");
        match result {
            // The worker cannot load the pool's CUBINs at all (a driver older than the NVRTC
            // that built them, another GPU): this variant and the rest are compiled by the
            // worker from source, as without a pool, rather than all recorded as compile errors.
            Ok(r)
                if prebuilt.is_some()
                    && v.backend == orcl_codegen::Backend::Cuda
                    && r.status == "compile_error"
                    && r.message.starts_with("cuModuleLoadDataEx (cubin") =>
            {
                self.cubin_refused = Some(r.message);
                self.measure(v)
            }
            Ok(r) => {
                self.traffic.variants += 1;
                self.traffic.variant_h2d_bytes += r.h2d_bytes;
                self.traffic.variant_d2h_bytes += r.d2h_bytes;
                let status = match r.status.as_str() {
                    "ok" => Status::Ok,
                    "compile_error" => Status::CompileError,
                    "wrong_result" => Status::WrongResult,
                    _ => Status::LaunchError,
                };
                if status == Status::Ok {
                    self.slowest_ok = self.slowest_ok.max(start.elapsed());
                }
                Outcome {
                    status,
                    build_ms: Some(prebuilt.as_ref().map_or(r.build_ms, |p| p.2)),
                    samples_ms: r.kernel_ms,
                    transfer_ms: (status == Status::Ok || status == Status::WrongResult)
                        .then_some(r.transfer_ms),
                    max_error: r.max_error,
                    message: (!r.message.is_empty()).then_some(r.message),
                    energy_j: None,
                    power_w: None,
                }
            }
            Err(f) => {
                self.workers.remove(&key);
                match f {
                    WorkerFailure::Crash(m) => Outcome::failure(Status::Crash, m),
                    // Never stored: the tune sees the signal and stops before recording it.
                    WorkerFailure::Interrupted(sig) => Outcome::failure(
                        Status::Crash,
                        format!("interrupted by {}", crate::interrupt::name(sig)),
                    ),
                    WorkerFailure::BuildTimeout(d) => Outcome::failure(
                        Status::Timeout,
                        format!(
                            "the kernel was not built after {:.1} s (--build-timeout plus the timeout); the variant was killed",
                            d.as_secs_f64()
                        ),
                    ),
                    WorkerFailure::Timeout(d) => Outcome::failure(
                        Status::Timeout,
                        format!(
                            "no result after {:.1} s; the variant was killed",
                            d.as_secs_f64()
                        ),
                    ),
                }
            }
        }
    }
}

/// The worker request of variant `v` (`binary`: the pool's program, sent instead of the source).
fn request<'a>(
    v: &'a OpenClVariant,
    id: i64,
    binary: Option<(&'a str, &'a [u8])>,
    warmups: u32,
    repetitions: u32,
) -> Request<'a> {
    Request {
        id,
        source: &v.source,
        options: &v.build_options,
        global: match v.global_size {
            GlobalSize::Fixed(g) => g,
            GlobalSize::CoverLoop => 0,
        },
        local: v.local_size,
        grid: v.grid.as_ref().map(orcl_codegen::Grid::numbers),
        parts: part_launches(v),
        warmups,
        repetitions,
        binary,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use orcl_codegen::Backend;

    /// A stand-in skeleton (a shell script, not a model of CUDA): appends each request's kind to
    /// `log` and answers `ok`, or, for a `BIN` request when `refuse_bin`, the CUDA skeleton's
    /// message for a CUBIN that does not load.
    fn stand_in(dir: &std::path::Path, refuse_bin: bool) -> (PathBuf, PathBuf) {
        let exe = dir.join(format!("skel{refuse_bin}.sh"));
        let log = dir.join(format!("kinds{refuse_bin}"));
        let refuse = if refuse_bin {
            r#"if [ "$kind" = BIN ]; then echo "{\"id\":$id,\"status\":\"compile_error\",\"build_ms\":0,\"kernel_ms\":[],\"transfer_ms\":0,\"max_error\":null,\"message\":\"cuModuleLoadDataEx (cubin from the build pool): device kernel image is invalid (200)\"}"; continue; fi"#
        } else {
            ""
        };
        std::fs::write(
            &exe,
            format!(
                r#"#!/bin/sh
echo '{{"ready":true,"platform":"CUDA 13.0","device":"stand-in"}}'
while read -r kind id g l a b c rest; do
  [ "$kind" = QUIT ] && exit 0
  echo "$kind" >> {log}
  if [ "$kind" = BIN ]; then len=$((a + b + c)); else len=$((a + b)); fi
  head -c "$len" > /dev/null
  {refuse}
  echo "{{\"id\":$id,\"status\":\"ok\",\"build_ms\":7,\"kernel_ms\":[1.5],\"transfer_ms\":0,\"max_error\":0,\"message\":\"\"}}"
done
"#,
                log = log.display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        (exe, log)
    }

    fn cuda_variant(source: &str) -> OpenClVariant {
        OpenClVariant {
            backend: Backend::Cuda,
            source: source.into(),
            build_options: "--use_fast_math -orcl-cache=l1".into(),
            global_size: GlobalSize::CoverLoop,
            local_size: 64,
            platform: 0,
            device: 0,
            local_mem_bytes: 0,
            grid: None,
            invalid: None,
            parts: Vec::new(),
            sm90a: false,
        }
    }

    /// With a CUDA pool (needs a libnvrtc; skipped without, as in CI): variants go to the worker
    /// as CUBINs (`BIN`), a kernel that does not compile is a compile error that never reaches
    /// the worker, and a worker that cannot load a CUBIN gets that variant and the following
    /// ones as source (`RUN`) instead of compile errors.
    #[test]
    fn cuda_pool_sends_cubins_and_falls_back_to_source_when_refused() {
        let nv = match nvrtc::Nvrtc::load() {
            Ok(n) => n,
            Err(e) => {
                eprintln!("no NVRTC here ({e}): skipped");
                return;
            }
        };
        let dir = tempfile::tempdir().unwrap();
        let k = |n: u32| {
            format!("extern \"C\" __global__ void orcl_kernel(float *a) {{ a[threadIdx.x] += {n}.0f; }}")
        };
        let kinds = |log: &PathBuf| std::fs::read_to_string(log).unwrap_or_default();
        let policy = TimeoutPolicy::Fixed(Duration::from_secs(20));

        let (exe, log) = stand_in(dir.path(), false);
        let mut r = Runner::new(exe, 0, 1, policy);
        r.set_pool(
            BuildPool::cuda(2, nv.clone(), (9, 0), "fp", None),
            Backend::Cuda,
        );
        let o = r.measure(&cuda_variant(&k(1)));
        assert_eq!(o.status, Status::Ok, "{o:?}");
        assert_ne!(
            o.build_ms,
            Some(7.0),
            "the pool's build time, not the worker's"
        );
        let o = r.measure(&cuda_variant("extern \"C\" __global__ void orcl_kernel( {"));
        assert_eq!(o.status, Status::CompileError);
        assert!(o
            .message
            .unwrap()
            .starts_with("nvrtcCompileProgram: NVRTC_ERROR_COMPILATION"));
        assert_eq!(kinds(&log), "BIN\n");
        assert!(r.cubin_refused().is_none());

        let (exe, log) = stand_in(dir.path(), true);
        let mut r = Runner::new(exe, 0, 1, policy);
        r.set_pool(BuildPool::cuda(2, nv, (9, 0), "fp", None), Backend::Cuda);
        let o = r.measure(&cuda_variant(&k(1)));
        assert_eq!((o.status, o.build_ms), (Status::Ok, Some(7.0)), "{o:?}");
        let o = r.measure(&cuda_variant(&k(2)));
        assert_eq!(o.status, Status::Ok, "{o:?}");
        assert_eq!(kinds(&log), "BIN\nRUN\nRUN\n");
        assert!(r
            .cubin_refused()
            .unwrap()
            .contains("device kernel image is invalid"));
    }
}
