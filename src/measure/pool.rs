//! The kernel build pool: kernel builds on N threads of the orcl process, ahead of the measuring
//! worker, with an on-disk program-binary cache (issue 14, step 1; CUDA: issue 13).
//!
//! Each build thread holds its own OpenCL context for the tuned device (no buffers, no queue) and
//! runs `clBuildProgram` from source (OpenCL 1.2 §5.6.2); the program binary
//! (`CL_PROGRAM_BINARIES`, §5.6.7) goes to the measuring worker, which only loads it
//! (`clCreateProgramWithBinary`). The worker therefore measures one variant at a time on a device
//! no other process uses, and builds overlap only with GPU-side work. On a CPU device (PoCL) a
//! build competes with the kernel for the same cores, so there the pool is *gated*: no build runs
//! while a variant is being measured (see `Gate` and docs/THROUGHPUT.md).
//!
//! CUDA (`BuildPool::cuda`): each thread compiles with NVRTC (`super::nvrtc`) straight to a
//! CUBIN for the device's `sm_XY`, so ptxas runs there too; the skeleton loads the image with
//! `cuModuleLoadDataEx` (no JIT). As OpenCL builds do, each thread compiles in an
//! `orcl build-server --cuda` child (issue 24: a hung NVRTC is killed at the build limit, and
//! with orcl, instead of holding a thread of orcl that nothing can stop); in this process only
//! where no orcl executable can run one (a test harness linking the library). A variant whose
//! options NVRTC cannot take is left to the skeleton's own NVRTC (`Built::InWorker`). A GPU:
//! never gated.
//!
//! Cache: `<cache dir>/kernels/<sha256>.bin` (CUDA: `.cubin`), keyed by kernel source, build
//! options and the device fingerprint (platform, device name, driver version, device version;
//! CUDA also the compute capability and the NVRTC version, and the NVRTC options rather than the
//! skeleton's, see `BuildPool::key`), so a re-run builds nothing.
//!
//! Memory: a binary is held from its build until the measurement takes it (`BuildPool::get`),
//! then dropped; only the queued and not yet measured ones (about a batch) are in memory.

use super::build_server;
pub use super::clbuild::is_cpu;
use super::clbuild::{compile, context};
use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

/// The result of building one (source, options) pair.
#[derive(Debug, Clone)]
pub enum Built {
    /// The program binary for the device; `build_ms` is the `clBuildProgram` wall time (ms), 0
    /// when the binary came from the on-disk cache.
    Binary {
        bytes: Arc<Vec<u8>>,
        build_ms: f64,
        cached: bool,
    },
    /// The build failed: the build log (or the OpenCL error; CUDA: the NVRTC log, as the
    /// skeleton would report it).
    Failed(String),
    /// Not built here (CUDA: an option this NVRTC does not take, or a launch token with no
    /// NVRTC spelling): the worker compiles the variant from source as it would without a pool.
    /// Why, for diagnosis.
    InWorker(String),
    /// The build gave no result within its limit (`build_server::BUILD_LIMIT`) and was killed:
    /// a timeout, as a hung build in the worker is.
    TimedOut(String),
}

/// What the pool's threads build for.
#[derive(Clone)]
enum Target {
    /// OpenCL device `device` of platform `platform` (one context per thread).
    OpenCl { platform: usize, device: usize },
    /// A CUDA device of compute capability `cc`, with NVRTC loaded in this process.
    Cuda {
        nvrtc: Arc<super::nvrtc::Nvrtc>,
        cc: (u32, u32),
    },
}

struct Job {
    key: String,
    source: String,
    options: String,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    results: HashMap<String, Option<Built>>,
    /// Builds running now.
    building: usize,
    /// Measurements running (or waiting to run) on a gated pool (count; several with
    /// `--devices`, one per measuring worker).
    measuring: usize,
    shutdown: bool,
    /// Builds done (fresh) and cache hits, for the progress display.
    built: usize,
    hits: usize,
    /// Kernels left to the worker (`Built::InWorker`).
    in_worker: usize,
    /// How many more build threads start their `orcl build-server` child now, before their
    /// first job ([`BuildPool::start_servers_if_cold`]).
    eager: usize,
}

/// OpenCL build processes started ahead of their first job with a cold kernel cache. Each
/// creates a context of the device, and NVIDIA's driver creates contexts one after another
/// (issue 24, one H100: with 16 children started ahead, the measuring worker's own context
/// came after theirs, 2.0 s instead of 0.2 s): four build ahead while the skeleton compiles, and
/// the others start at their first job, after the worker has its context. Four NVIDIA OpenCL
/// builds of a Figure 2 kernel (55 ms each) keep ahead of its measurements (about 20 ms of
/// measuring per kernel).
pub const EAGER_SERVERS: usize = 4;

struct Shared {
    state: Mutex<State>,
    cv: Condvar,
    cache_dir: Option<PathBuf>,
    fingerprint: String,
    gated: bool,
    /// File name extension of cached binaries (`bin`: OpenCL program binary, `cubin`).
    ext: &'static str,
    /// `Some(orcl)`: each build thread builds in its own `orcl build-server` child.
    server_exe: Option<PathBuf>,
    /// CUDA: the device's compute capability, for the NVRTC options the key is made of.
    cuda_cc: Option<(u32, u32)>,
}

/// N build threads for one OpenCL or CUDA device. Dropping the pool stops the threads (a build in progress
/// finishes first).
pub struct BuildPool {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

/// Held while a variant is measured on a gated (CPU) device: no build starts, and the guard is
/// only handed out once the running builds have finished.
pub struct Gate<'a> {
    pool: &'a BuildPool,
}

impl Drop for Gate<'_> {
    fn drop(&mut self) {
        let mut s = self
            .pool
            .shared
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        s.measuring = s.measuring.saturating_sub(1);
        self.pool.shared.cv.notify_all();
    }
}

/// The cache key of a kernel: SHA-256 of source, options and device fingerprint (hex).
pub fn kernel_key(source: &str, options: &str, fingerprint: &str) -> String {
    let mut h = Sha256::new();
    for p in [source, options, fingerprint] {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    hex::encode(h.finalize())
}

/// The machine's core count (`std::thread::available_parallelism`), the default `--jobs`.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

impl BuildPool {
    /// Start `jobs` (≥ 1) build threads for OpenCL device `device` of platform `platform`.
    /// `fingerprint` identifies device and driver (`DeviceInfo::fingerprint`); `cache_dir` is the
    /// kernel-binary cache (`None`: no cache). The pool is gated when the device is a CPU.
    pub fn new(
        jobs: usize,
        platform: usize,
        device: usize,
        fingerprint: &str,
        cache_dir: Option<PathBuf>,
    ) -> BuildPool {
        let gated = is_cpu(platform, device);
        BuildPool::start(
            jobs,
            Target::OpenCl { platform, device },
            fingerprint.to_string(),
            cache_dir,
            gated,
        )
    }

    /// Start `jobs` (≥ 1) NVRTC threads for a CUDA device of compute capability `cc`, with the
    /// NVRTC `nvrtc` loaded in this process. `fingerprint` identifies device and driver
    /// (`DeviceInfo::fingerprint`); the cache key adds the compute capability and the NVRTC
    /// version ([`cuda_fingerprint`]). Never gated (a GPU).
    pub fn cuda(
        jobs: usize,
        nvrtc: Arc<super::nvrtc::Nvrtc>,
        cc: (u32, u32),
        fingerprint: &str,
        cache_dir: Option<PathBuf>,
    ) -> BuildPool {
        let fingerprint = cuda_fingerprint(fingerprint, cc, nvrtc.version);
        BuildPool::start(
            jobs,
            Target::Cuda { nvrtc, cc },
            fingerprint,
            cache_dir,
            false,
        )
    }

    fn start(
        jobs: usize,
        target: Target,
        fingerprint: String,
        cache_dir: Option<PathBuf>,
        gated: bool,
    ) -> BuildPool {
        let cache_dir = cache_dir.map(|d| d.join("kernels"));
        if let Some(d) = &cache_dir {
            remove_stale_scratch(d);
        }
        let ext = match target {
            Target::OpenCl { .. } => "bin",
            Target::Cuda { .. } => "cubin",
        };
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            cv: Condvar::new(),
            cache_dir,
            fingerprint,
            gated,
            ext,
            server_exe: build_server::use_processes(gated)
                .then(build_server::orcl_exe)
                .flatten(),
            cuda_cc: match &target {
                Target::OpenCl { .. } => None,
                Target::Cuda { cc, .. } => Some(*cc),
            },
        });
        let threads = (0..jobs.max(1))
            .map(|_| {
                let sh = shared.clone();
                let t = target.clone();
                std::thread::spawn(move || build_thread(sh, t))
            })
            .collect();
        BuildPool { shared, threads }
    }

    /// A cold kernel cache (the build of (`source`, `options`), the first variant's, is not in
    /// it): [`EAGER_SERVERS`] build threads start their OpenCL `orcl build-server` child now
    /// rather than on their first job, so that the children's start-up (a context each: 3.8 s
    /// for the first build of 16 children started at once on an H100, docs/BENCHMARKS.md)
    /// overlaps the skeleton's compilation instead of delaying the first measurements. No-op for
    /// a warm cache, a CPU device (no children) and CUDA (an NVRTC child starts in milliseconds,
    /// with no context).
    pub fn start_servers_if_cold(&self, source: &str, options: &str) {
        if self.shared.server_exe.is_none() || self.shared.cuda_cc.is_some() {
            return;
        }
        let key = self.key(source, options);
        let cached = self
            .shared
            .cache_dir
            .as_ref()
            .is_some_and(|d| d.join(format!("{key}.{}", self.shared.ext)).exists());
        if !cached {
            tracing::debug!("kernel cache cold: build processes started ahead");
            let mut s = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
            s.eager = EAGER_SERVERS;
            self.shared.cv.notify_all();
        }
    }

    /// Kernels the pool left to the worker so far (`Built::InWorker`).
    pub fn in_worker(&self) -> usize {
        let s = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        s.in_worker
    }

    /// Whether builds are kept from overlapping measurements (CPU devices).
    pub fn gated(&self) -> bool {
        self.shared.gated
    }

    /// The cache key of (source, options) on this pool. CUDA: made of the NVRTC options the
    /// build uses (`nvrtc::pool_options`), not of the skeleton's: its launch tokens
    /// (`-orcl-cache=`, `-orcl-total`) do not change the CUBIN, so variants differing only there
    /// share one build, and a change in how orcl translates its tokens is another key. Options
    /// that do not translate (left to the worker) are keyed as they are.
    fn key(&self, source: &str, options: &str) -> String {
        let translated = self
            .shared
            .cuda_cc
            .and_then(|cc| super::nvrtc::pool_options(options, cc).ok());
        let options = match translated {
            Some(o) => format!("nvrtc:{}", o.join("\n")),
            None => options.to_string(),
        };
        kernel_key(source, &options, &self.shared.fingerprint)
    }

    /// Queue a build of (source, options) unless it is queued or done already; returns its key.
    pub fn submit(&self, source: &str, options: &str) -> String {
        let key = self.key(source, options);
        let mut s = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        if !s.results.contains_key(&key) {
            self.enqueue(&mut s, &key, source, options, false);
        }
        key
    }

    /// Queue the build of (source, options) under `key`, last or (`first`) next in line.
    fn enqueue(&self, s: &mut State, key: &str, source: &str, options: &str, first: bool) {
        s.results.insert(key.to_string(), None);
        let job = Job {
            key: key.to_string(),
            source: source.to_string(),
            options: options.to_string(),
        };
        if first {
            s.queue.push_front(job);
        } else {
            s.queue.push_back(job);
        }
        self.shared.cv.notify_all();
    }

    /// The build of (source, options) and its key: submitted if needed, waits until it is done.
    ///
    /// A program binary is handed over, not kept: the pool forgets it (a 10,824-configuration
    /// space would otherwise hold every PTX or CUBIN of the run in memory). Asked again, the
    /// build is queued first in line and comes from the on-disk cache (a cache hit), or, with no
    /// cache, is built again. Failures and kernels left to the worker stay known (a message).
    pub fn get(&self, source: &str, options: &str) -> (String, Built) {
        let key = self.key(source, options);
        let mut s = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            match s.results.get(&key) {
                Some(Some(Built::Binary { .. })) => {
                    if let Some(Some(built)) = s.results.remove(&key) {
                        return (key, built);
                    }
                }
                Some(Some(built)) => return (key.clone(), built.clone()),
                Some(None) => {}
                // Never submitted, or its binary was handed over already (another variant of
                // the same kernel, another `--devices` worker): next in line.
                None => self.enqueue(&mut s, &key, source, options, true),
            }
            s = self.shared.cv.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Enter a measurement: on a gated pool, waits for running builds to finish and keeps new ones
    /// from starting until the guard is dropped. `None` on an ungated pool.
    pub fn measuring(&self) -> Option<Gate<'_>> {
        if !self.shared.gated {
            return None;
        }
        let mut s = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        s.measuring += 1;
        while s.building > 0 {
            s = self.shared.cv.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        Some(Gate { pool: self })
    }

    /// (fresh builds, cache hits, queued or running) so far.
    pub fn counts(&self) -> (usize, usize, usize) {
        let s = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        (s.built, s.hits, s.queue.len() + s.building)
    }
}

impl Drop for BuildPool {
    fn drop(&mut self) {
        {
            let mut s = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
            s.shutdown = true;
            s.queue.clear();
            self.shared.cv.notify_all();
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// The cache-key fingerprint of a CUDA device: its `DeviceInfo::fingerprint` (backend, platform,
/// name, vendor, driver), its compute capability, the NVRTC version and the output kind, so
/// another GPU generation, driver or toolkit never reuses a CUBIN.
pub fn cuda_fingerprint(device: &str, cc: (u32, u32), nvrtc: (i32, i32)) -> String {
    format!(
        "{device}|sm_{}{}|nvrtc {}.{}|cubin",
        cc.0, cc.1, nvrtc.0, nvrtc.1
    )
}

fn build_thread(sh: Arc<Shared>, target: Target) {
    // With `server_exe`, one `orcl build-server` child per thread, started on its first job;
    // else OpenCL: one context per thread, made on its first job (CUDA: NVRTC here).
    let mut ctx: Option<Result<opencl3::context::Context, String>> = None;
    let kind = match &target {
        Target::OpenCl { platform, device } => build_server::Kind::OpenCl {
            platform: *platform,
            device: *device,
        },
        Target::Cuda { .. } => build_server::Kind::Cuda,
    };
    let mut child = sh
        .server_exe
        .as_ref()
        .map(|exe| Child::new(exe.clone(), kind, build_server::BUILD_LIMIT));
    loop {
        let job = {
            let mut s = sh.state.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if s.shutdown {
                    return;
                }
                if s.measuring == 0 && !s.queue.is_empty() {
                    break;
                }
                if s.eager > 0 && child.as_ref().is_some_and(|c| !c.warmed) {
                    break;
                }
                s = sh.cv.wait(s).unwrap_or_else(|e| e.into_inner());
            }
            if s.measuring == 0 && !s.queue.is_empty() {
                s.building += 1;
                s.queue.pop_front()
            } else {
                s.eager = s.eager.saturating_sub(1);
                None
            }
        };
        let Some(job) = job else {
            // `eager`: start this thread's child now (its OpenCL start-up runs meanwhile).
            if let Some(c) = child.as_mut() {
                c.warm();
            }
            continue;
        };
        let (built, hit) = build_one(&sh, &job, |job| {
            // What the child is sent: OpenCL options as they are; NVRTC's, one per line.
            let options = match &target {
                Target::OpenCl { .. } => job.options.clone(),
                Target::Cuda { cc, .. } => super::nvrtc::pool_options(&job.options, *cc)
                    .map_err(Built::InWorker)?
                    .join("\n"),
            };
            if let Some(c) = child.as_mut() {
                if let Some(r) = c.build(&job.source, &options) {
                    return r;
                }
                // No child can be started: this thread builds in orcl's process from now on.
                child = None;
            }
            match &target {
                Target::OpenCl { platform, device } => {
                    let ctx = ctx.get_or_insert_with(|| context(*platform, *device));
                    build_opencl(ctx, job)
                }
                Target::Cuda { nvrtc, cc } => build_cuda(nvrtc, *cc, job),
            }
        });
        tracing::debug!(
            kernel = %job.key,
            result = match &built {
                Built::Binary { build_ms, .. } if !hit => format!("built in {build_ms:.1} ms"),
                Built::Binary { .. } => "cache hit".to_string(),
                Built::Failed(_) => "compile error".to_string(),
                Built::TimedOut(_) => "timed out".to_string(),
                Built::InWorker(_) => "left to the worker".to_string(),
            },
            "kernel build"
        );
        let mut s = sh.state.lock().unwrap_or_else(|e| e.into_inner());
        s.building -= 1;
        if hit {
            s.hits += 1;
        } else if matches!(built, Built::InWorker(_)) {
            s.in_worker += 1;
        } else {
            s.built += 1;
        }
        s.results.insert(job.key, Some(built));
        sh.cv.notify_all();
    }
}

/// Remove `<key>.tmp<pid>` files of the kernel cache `dir` whose writer is gone: an orcl killed
/// (`kill -9`) between writing a binary and renaming it into place leaves one, which nothing
/// would ever read or remove (the skeleton cache does the same for its scratch files, issue 15
/// F14).
fn remove_stale_scratch(dir: &std::path::Path) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .rsplit_once(".tmp")
            .and_then(|(_, p)| p.parse::<libc::pid_t>().ok())
            .filter(|p| *p > 1)
        else {
            continue;
        };
        // kill(pid, 0) fails with ESRCH when no such process exists.
        let gone = unsafe { libc::kill(pid, 0) } != 0
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// The build of `job`: from the on-disk cache, else `compile` (a program binary or why not),
/// timed and written to the cache. Returns it and whether it was a cache hit.
fn build_one(
    sh: &Shared,
    job: &Job,
    compile: impl FnOnce(&Job) -> Result<Vec<u8>, Built>,
) -> (Built, bool) {
    let path = sh
        .cache_dir
        .as_ref()
        .map(|d| d.join(format!("{}.{}", job.key, sh.ext)));
    if let Some(bytes) = path.as_ref().and_then(|p| std::fs::read(p).ok()) {
        if !bytes.is_empty() {
            return (
                Built::Binary {
                    bytes: Arc::new(bytes),
                    build_ms: 0.0,
                    cached: true,
                },
                true,
            );
        }
    }
    let t0 = Instant::now();
    let bytes = match compile(job) {
        Ok(b) => b,
        Err(why) => return (why, false),
    };
    let build_ms = t0.elapsed().as_secs_f64() * 1e3;
    if let Some(p) = &path {
        // Written to a temporary name and renamed, so a concurrent reader never sees half a file.
        if let Some(dir) = p.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let tmp = p.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, &bytes).is_ok() {
            let _ = std::fs::rename(&tmp, p);
        }
    }
    (
        Built::Binary {
            bytes: Arc::new(bytes),
            build_ms,
            cached: false,
        },
        false,
    )
}

/// `clBuildProgram` from source, then the program binary (`CL_PROGRAM_BINARIES`).
fn build_opencl(
    ctx: &Result<opencl3::context::Context, String>,
    job: &Job,
) -> Result<Vec<u8>, Built> {
    compile(ctx, &job.source, &job.options).map_err(Built::Failed)
}

/// A build thread's `orcl build-server` child (one OpenCL device, or NVRTC): started on the
/// first job, replaced after it died.
struct Child {
    exe: PathBuf,
    kind: build_server::Kind,
    /// How long one build may take before the child is killed.
    limit: std::time::Duration,
    server: Option<build_server::Server>,
    /// Started ahead of its first job once (`eager`), whether that worked or not.
    warmed: bool,
}

impl Child {
    fn new(exe: PathBuf, kind: build_server::Kind, limit: std::time::Duration) -> Child {
        Child {
            exe,
            kind,
            limit,
            server: None,
            warmed: false,
        }
    }

    /// Start the child ahead of its first job (once; a child that cannot start is started, or
    /// not, again at the first job).
    fn warm(&mut self) {
        self.warmed = true;
        if self.server.is_none() {
            self.server = build_server::Server::spawn(&self.exe, self.kind, self.limit).ok();
        }
    }

    /// The build of (`source`, `options`) in the child, or `None` when no child can be started. A child that
    /// dies (a compiler crash, an OOM kill) is replaced and the build tried once more in the fresh
    /// child; a second death fails the build. A child that gives no answer within `limit` is
    /// killed and the build is a timeout, not tried again (it would most likely hang again); the
    /// next build starts a fresh child.
    fn build(&mut self, source: &str, options: &str) -> Option<Result<Vec<u8>, Built>> {
        let mut died = String::new();
        for _ in 0..2 {
            let server = match &mut self.server {
                Some(s) => s,
                None => self
                    .server
                    .insert(build_server::Server::spawn(&self.exe, self.kind, self.limit).ok()?),
            };
            match server.build(source, options) {
                Ok(bytes) => return Some(Ok(bytes)),
                Err(build_server::BuildError::Compile(log)) => {
                    return Some(Err(Built::Failed(log)))
                }
                Err(build_server::BuildError::Unsupported(why)) => {
                    return Some(Err(Built::InWorker(why)))
                }
                Err(build_server::BuildError::Died(why)) => {
                    self.server = None;
                    died = why;
                }
                Err(build_server::BuildError::TimedOut(why)) => {
                    self.server = None;
                    return Some(Err(Built::TimedOut(why)));
                }
            }
        }
        Some(Err(Built::Failed(died)))
    }
}

/// NVRTC in this process (no orcl executable for a child) to a CUBIN for `sm_<cc>`, with the
/// skeleton's options translated (`nvrtc::pool_options`); what cannot be expressed, or what
/// this NVRTC refuses as an option, is left to the worker.
fn build_cuda(nvrtc: &super::nvrtc::Nvrtc, cc: (u32, u32), job: &Job) -> Result<Vec<u8>, Built> {
    // Tests only: a CUDA build that hangs in NVRTC (tests/stages.rs).
    crate::interrupt::test_pause("cuda-build");
    use super::nvrtc::CompileFailure;
    let opts = super::nvrtc::pool_options(&job.options, cc).map_err(Built::InWorker)?;
    nvrtc
        .compile_cubin(&job.source, &opts)
        .map_err(|f| match f {
            CompileFailure::Failed(log) => Built::Failed(log),
            CompileFailure::Unsupported(why) => Built::InWorker(why),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_scratch_of_dead_writers_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let mine = format!("k1.tmp{}", std::process::id());
        // A pid above the kernel's pid_max (at most 2^22) belongs to no process.
        for name in ["k0.tmp4999999", mine.as_str(), "k2.bin", "k3.tmpx"] {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        remove_stale_scratch(dir.path());
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, vec![mine.clone(), "k2.bin".into(), "k3.tmpx".into()]);
    }

    #[test]
    fn key_separates_fields() {
        assert_ne!(kernel_key("ab", "c", "d"), kernel_key("a", "bc", "d"));
        assert_ne!(kernel_key("a", "b", "dev1"), kernel_key("a", "b", "dev2"));
        assert_eq!(kernel_key("a", "b", "c"), kernel_key("a", "b", "c"));
    }

    #[test]
    fn cuda_key_names_architecture_and_nvrtc() {
        let fp = "cuda|CUDA 13.0|NVIDIA H100 80GB HBM3|NVIDIA Corporation|580.65.06";
        assert_eq!(
            cuda_fingerprint(fp, (9, 0), (13, 0)),
            format!("{fp}|sm_90|nvrtc 13.0|cubin")
        );
        let k = |cc, nv| kernel_key("src", "--use_fast_math", &cuda_fingerprint(fp, cc, nv));
        assert_ne!(k((9, 0), (13, 0)), k((8, 0), (13, 0)));
        assert_ne!(k((9, 0), (13, 0)), k((9, 0), (12, 9)));
        assert_eq!(k((9, 0), (13, 0)), k((9, 0), (13, 0)));
    }

    /// The CUDA pool with a real NVRTC (skipped where there is none, as in CI): a CUBIN per
    /// kernel, cached on disk under the CUDA key (a second pool builds nothing), a kernel that
    /// does not compile fails with NVRTC's log, and a launch token without NVRTC spelling is left
    /// to the worker.
    #[test]
    fn cuda_pool_builds_caches_and_leaves_the_rest_to_the_worker() {
        let nv = match super::super::nvrtc::Nvrtc::load() {
            Ok(n) => n,
            Err(e) => {
                eprintln!("no NVRTC here ({e}): skipped");
                return;
            }
        };
        let dir = tempfile::tempdir().unwrap();
        let fp = "cuda|CUDA 13.0|test GPU|NVIDIA Corporation|0";
        let k = "extern \"C\" __global__ void orcl_kernel(float *a) { a[threadIdx.x] += 1.0f; }";
        let opts = "--use_fast_math -orcl-dlcm=cg -orcl-cache=l1";
        let pool = BuildPool::cuda(2, nv.clone(), (9, 0), fp, Some(dir.path().into()));
        assert!(!pool.gated());
        let (key, Built::Binary { bytes, cached, .. }) = pool.get(k, opts) else {
            panic!("the kernel should compile");
        };
        assert!(!cached);
        assert_eq!(&bytes[..4], b"\x7fELF");
        let cubin = dir.path().join("kernels").join(format!("{key}.cubin"));
        assert_eq!(std::fs::read(&cubin).unwrap(), *bytes);
        assert_eq!(
            key,
            kernel_key(
                k,
                "nvrtc:--use_fast_math\n--ptxas-options=-dlcm=cg\n--gpu-architecture=sm_90",
                &cuda_fingerprint(fp, (9, 0), nv.version)
            )
        );
        // Another L1/shared split or objective is the same CUBIN: no second build.
        for other in [
            "--use_fast_math -orcl-dlcm=cg -orcl-cache=shared -orcl-total",
            "--use_fast_math  -orcl-dlcm=cg",
        ] {
            let (k2, Built::Binary { bytes: b2, .. }) = pool.get(k, other) else {
                panic!("the kernel should compile");
            };
            assert_eq!((&k2, &b2), (&key, &bytes));
        }
        assert_eq!(
            pool.counts().0,
            1,
            "one CUBIN built for three option strings"
        );
        // Another NVRTC option is another key.
        assert_ne!(pool.get(k, "-orcl-dlcm=cg").0, key);
        match pool
            .get("extern \"C\" __global__ void orcl_kernel( {", opts)
            .1
        {
            Built::Failed(log) => {
                assert!(
                    log.starts_with("nvrtcCompileProgram: NVRTC_ERROR_COMPILATION"),
                    "{log}"
                )
            }
            b => panic!("{b:?}"),
        }
        assert!(matches!(
            pool.get(k, "-orcl-newtoken").1,
            Built::InWorker(_)
        ));
        assert_eq!(pool.in_worker(), 1);
        drop(pool);
        let pool = BuildPool::cuda(1, nv.clone(), (9, 0), fp, Some(dir.path().into()));
        let (
            _,
            Built::Binary {
                cached, build_ms, ..
            },
        ) = pool.get(k, opts)
        else {
            panic!("the cached CUBIN should load");
        };
        assert!(cached);
        assert_eq!(build_ms, 0.0);
        // Another architecture is another key: built afresh.
        let pool = BuildPool::cuda(1, nv, (8, 0), fp, Some(dir.path().into()));
        let (_, Built::Binary { cached, .. }) = pool.get(k, opts) else {
            panic!("sm_80 should compile");
        };
        assert!(!cached);
    }

    /// A build process that stops answering: the build is a timeout after the limit, not
    /// retried (a second hang would double the wait), and the next build starts a fresh child.
    #[test]
    fn a_hung_build_process_is_a_timeout_and_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let starts = dir.path().join("starts");
        let exe = dir.path().join("server.sh");
        std::fs::write(
            &exe,
            format!(
                "#!/bin/sh\necho start >> '{}'\nread -r line\nexec sleep 1000\n",
                starts.display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let job = Job {
            key: "k".into(),
            source: K.into(),
            options: String::new(),
        };
        let ocl = build_server::Kind::OpenCl {
            platform: 0,
            device: 0,
        };
        let mut child = Child::new(exe, ocl, std::time::Duration::from_millis(500));
        let t0 = Instant::now();
        match child.build(&job.source, &job.options) {
            Some(Err(Built::TimedOut(m))) => assert!(m.contains("no answer within 0.5 s"), "{m}"),
            other => panic!("{other:?}"),
        }
        assert!(t0.elapsed() < std::time::Duration::from_secs(20));
        let n = || std::fs::read_to_string(&starts).unwrap().lines().count();
        assert_eq!(n(), 1, "a hung build was retried");
        assert!(matches!(
            child.build(&job.source, &job.options),
            Some(Err(Built::TimedOut(_)))
        ));
        assert_eq!(n(), 2, "the next build did not start a fresh child");
    }

    const K: &str = "__kernel void orcl_kernel(__global float *a) { a[get_global_id(0)] = 1.0f; }";

    #[test]
    fn builds_caches_and_reports_errors_on_pocl() {
        let Ok(devs) = crate::device::opencl_devices() else {
            eprintln!("no OpenCL runtime: skipped");
            return;
        };
        let Some(d) = devs.first() else { return };
        let dir = tempfile::tempdir().unwrap();
        let fp = d.fingerprint();
        let pool = BuildPool::new(
            2,
            d.platform_index,
            d.device_index,
            &fp,
            Some(dir.path().into()),
        );
        let (_, Built::Binary { bytes, cached, .. }) = pool.get(K, "") else {
            panic!("the kernel should build");
        };
        assert!(!bytes.is_empty());
        assert!(!cached);
        match pool.get("__kernel void orcl_kernel( { }", "").1 {
            Built::Failed(log) => assert!(log.contains("clBuildProgram"), "{log}"),
            b => panic!("a broken kernel built: {b:?}"),
        }
        drop(pool);
        // A second pool (a re-run) finds the binary on disk and builds nothing.
        let pool = BuildPool::new(
            1,
            d.platform_index,
            d.device_index,
            &fp,
            Some(dir.path().into()),
        );
        let (
            _,
            Built::Binary {
                cached, build_ms, ..
            },
        ) = pool.get(K, "")
        else {
            panic!("the cached kernel should load");
        };
        assert!(cached);
        assert_eq!(build_ms, 0.0);
        assert_eq!(pool.counts().0, 0);
    }

    /// A binary is dropped once handed over (memory stays bounded on a large space); asked
    /// again, it comes from the on-disk cache, or without a cache is built again; two workers
    /// asking for the same kernel at once both get it (none waits for a forgotten result).
    #[test]
    fn handed_over_binaries_are_dropped_and_reread_from_the_cache() {
        let Ok(devs) = crate::device::opencl_devices() else {
            eprintln!("no OpenCL runtime: skipped");
            return;
        };
        let Some(d) = devs.first() else { return };
        let held = |pool: &BuildPool| {
            let s = pool.shared.state.lock().unwrap();
            s.results
                .values()
                .filter(|b| matches!(b, Some(Built::Binary { .. })))
                .count()
        };
        let dir = tempfile::tempdir().unwrap();
        let (p, dv, fp) = (d.platform_index, d.device_index, d.fingerprint());
        let pool = BuildPool::new(2, p, dv, &fp, Some(dir.path().into()));
        let (k1, Built::Binary { bytes: first, .. }) = pool.get(K, "") else {
            panic!("the kernel should build");
        };
        assert_eq!(held(&pool), 0, "the pool kept a binary it handed over");
        let (k2, Built::Binary { bytes, cached, .. }) = pool.get(K, "") else {
            panic!("the kernel asked again should come back");
        };
        assert_eq!((k1, cached, &bytes), (k2, true, &first));
        assert_eq!(pool.counts(), (1, 1, 0));
        // A failure stays known: asked again, it is not rebuilt.
        let broken = "__kernel void orcl_kernel( { }";
        assert!(matches!(pool.get(broken, "").1, Built::Failed(_)));
        assert!(matches!(pool.get(broken, "").1, Built::Failed(_)));
        assert_eq!(pool.counts(), (2, 1, 0));
        drop(pool);

        let pool = std::sync::Arc::new(BuildPool::new(2, p, dv, &fp, None));
        let both: Vec<_> = (0..2)
            .map(|_| {
                let pool = pool.clone();
                std::thread::spawn(move || pool.get(K, "-DTWO").1)
            })
            .collect();
        for t in both {
            assert!(matches!(t.join().unwrap(), Built::Binary { .. }));
        }
        assert_eq!(held(&pool), 0);
        // No cache: what was handed over is built again.
        let (_, Built::Binary { cached, .. }) = pool.get(K, "-DTWO") else {
            panic!("the kernel asked again should be rebuilt");
        };
        assert!(!cached);
        assert_eq!(held(&pool), 0);
    }

    /// `--devices`: two workers measure at once on a gated (CPU) pool; no build may start until
    /// both measurements are done, not merely the first (the gate was a flag before).
    #[test]
    fn gate_holds_until_every_measurement_is_done() {
        let Ok(devs) = crate::device::opencl_devices() else {
            eprintln!("no OpenCL runtime: skipped");
            return;
        };
        let Some(d) = devs
            .first()
            .filter(|d| is_cpu(d.platform_index, d.device_index))
        else {
            eprintln!("no CPU OpenCL device: skipped");
            return;
        };
        let pool = BuildPool::new(1, d.platform_index, d.device_index, &d.fingerprint(), None);
        assert!(pool.gated());
        let first = pool.measuring().expect("gated");
        let second = pool.measuring().expect("gated");
        drop(first);
        pool.submit(K, "");
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert_eq!(
            pool.counts(),
            (0, 0, 1),
            "a build started while a measurement was running"
        );
        drop(second);
        let (_, built) = pool.get(K, "");
        assert!(matches!(built, Built::Binary { .. }), "{built:?}");
    }
}
