//! The reference outputs of a timing skeleton (the original loop compiled as C, run on the host),
//! off the critical path (issue 24): computed once per skeleton binary by a process of their own
//! (`SKELETON --reference`), side by side with every worker's device set-up, and kept in the cache
//! directory so that a rerun or a `--more` of the same tune skips them.
//!
//! Protocol with the skeleton (skeletons/skeleton_inputs.c.tera): a worker gets
//! `ORCL_REFERENCE=FILE` and `ORCL_REFERENCE_LOCK=LOCK`. While the outputs are being computed (or
//! a cached file checked), orcl holds an exclusive `flock(2)` on LOCK; the worker sets up its
//! device, then takes a shared lock on LOCK (so it waits for orcl's reference process, never on a
//! timer) and reads FILE when it holds exactly the outputs' bytes. Where the reference process
//! failed (FILE absent), the worker computes the outputs itself, as before: the results never
//! depend on the cache.
//!
//! Cache: `CACHE/references/<skeleton name>-<first 16 hex digits of the binary's SHA-256>`, so the
//! key is the compiled program itself (reference loop, input sizes and seeds, build command and
//! compiler all change the binary), [`super::sealed`] like the skeleton: the data's own SHA-256
//! beside it (`.sha256`), checked before a cached file is used (a file that does not match, or is
//! not this user's, is removed and computed again). The
//! directory is bounded: after each new file, the least recently used ones are removed until the
//! total is at most `ORCL_REFERENCE_CACHE_MB` (default 4096 MiB; 0 disables the cache, and so does
//! `--no-kernel-cache`). Without the cache the file is one of the run's (`CACHE/reference-PID-N-*`),
//! removed at its end.

use super::cache::CacheDir;
use super::sealed;
use std::collections::HashMap;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Default bound of `CACHE/references` (MiB).
pub const DEFAULT_CACHE_MB: u64 = 4096;

/// The reference outputs of one run's skeleton binaries; shared by the run's runners (`Arc`).
/// Dropping it kills a reference process still running and removes the run's own files.
pub struct References {
    /// `CACHE/reference-PID-N`: the prefix of the run's lock files (and of its outputs when
    /// there is no cache).
    run_prefix: PathBuf,
    /// `CACHE/references`, opened and checked once ([`CacheDir::open`]), and its bound in
    /// bytes; `None`: no cache.
    cache: Option<(Arc<CacheDir>, u64)>,
    jobs: Mutex<HashMap<PathBuf, Job>>,
}

/// The reference job of one skeleton binary.
struct Job {
    file: PathBuf,
    lock: PathBuf,
    /// The reference process while it runs (its pid), for [`References`]' drop.
    running: Arc<Mutex<Option<u32>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl References {
    /// The references of a new run in the cache directory `dir`; `cache`: keep them in
    /// `dir/references` (bounded by `ORCL_REFERENCE_CACHE_MB`). Removes the run files of
    /// processes that are gone (killed runs).
    pub fn new(dir: &Path, cache: bool) -> Arc<References> {
        static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        remove_stale(dir);
        let mb = std::env::var("ORCL_REFERENCE_CACHE_MB")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(DEFAULT_CACHE_MB);
        let cache = (cache && mb > 0)
            .then(|| CacheDir::open(&dir.join("references")).ok())
            .flatten()
            .map(|refs| (Arc::new(refs), mb.saturating_mul(1 << 20)));
        Arc::new(References {
            run_prefix: dir.join(format!("reference-{}-{n}", std::process::id())),
            cache,
            jobs: Mutex::new(HashMap::new()),
        })
    }

    /// The environment of a worker of skeleton `exe`: `ORCL_REFERENCE` and, once the reference
    /// job of `exe` is started here (`start`: a local run; a Slurm worker on another node may
    /// not see the lock, and computes the outputs itself where it finds no file),
    /// `ORCL_REFERENCE_LOCK`. The first call for `exe` with `start` takes the lock and starts the
    /// job: checking the cached file, else running `exe --reference`.
    pub fn worker_env(&self, exe: &Path, start: bool) -> Vec<(&'static str, PathBuf)> {
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(j) = jobs.get(exe) {
            return vec![
                ("ORCL_REFERENCE", j.file.clone()),
                ("ORCL_REFERENCE_LOCK", j.lock.clone()),
            ];
        }
        let file = self.file_for(exe);
        if !start {
            return vec![("ORCL_REFERENCE", file)];
        }
        let lock = self.run_file(exe, ".lock");
        let Some(held) = lock_exclusive(&lock) else {
            return vec![("ORCL_REFERENCE", file)];
        };
        let running = Arc::new(Mutex::new(None));
        let ctx = JobCtx {
            exe: exe.to_path_buf(),
            file: file.clone(),
            cache: self.cache.clone(),
            running: running.clone(),
        };
        let thread = std::thread::Builder::new()
            .name("orcl-reference".into())
            .spawn(move || {
                ctx.run();
                drop(held); // releases the lock: the workers read the file
            })
            .ok();
        jobs.insert(
            exe.to_path_buf(),
            Job {
                file: file.clone(),
                lock: lock.clone(),
                running,
                thread,
            },
        );
        vec![("ORCL_REFERENCE", file), ("ORCL_REFERENCE_LOCK", lock)]
    }

    /// Where the outputs of `exe` are kept: the cache (keyed by the binary's digest) or a run file.
    fn file_for(&self, exe: &Path) -> PathBuf {
        // A cached skeleton runs by descriptor (`/proc/PID/fd/N`, issue 25 G1): its name and
        // digest are those of its file in the cache.
        let exe = &super::cache::on_disk(exe);
        let name = exe.file_name().map(|n| n.to_string_lossy().into_owned());
        match (&self.cache, name, sealed::recorded(exe)) {
            (Some((dir, _)), Some(name), Some(d)) => {
                dir.path().join(format!("{name}-{}", &d[..16]))
            }
            _ => self.run_file(exe, ""),
        }
    }

    fn run_file(&self, exe: &Path, suffix: &str) -> PathBuf {
        let exe = super::cache::on_disk(exe);
        let exe = exe.file_name().unwrap_or_default().to_string_lossy();
        let base = self.run_prefix.file_name().unwrap_or_default();
        self.run_prefix
            .with_file_name(format!("{}-{exe}{suffix}", base.to_string_lossy()))
    }
}

impl Drop for References {
    fn drop(&mut self) {
        let jobs = std::mem::take(&mut *self.jobs.lock().unwrap_or_else(|e| e.into_inner()));
        for (_, mut j) in jobs {
            if let Some(pid) = *j.running.lock().unwrap_or_else(|e| e.into_inner()) {
                // SAFETY: the process is not reaped yet (see `JobCtx::compute`): `pid` is ours.
                unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
            }
            if let Some(t) = j.thread.take() {
                let _ = t.join();
            }
        }
        let (Some(dir), Some(base)) = (self.run_prefix.parent(), self.run_prefix.file_name())
        else {
            return;
        };
        let base = format!("{}-", base.to_string_lossy());
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            if e.file_name().to_string_lossy().starts_with(&base) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

/// What the job thread of one skeleton binary needs.
struct JobCtx {
    exe: PathBuf,
    file: PathBuf,
    cache: Option<(Arc<CacheDir>, u64)>,
    running: Arc<Mutex<Option<u32>>>,
}

impl JobCtx {
    /// Use the cached file if it is intact, else compute the outputs (and cache them).
    fn run(&self) {
        let t0 = Instant::now();
        let name = self.file.file_name().unwrap_or_default().to_string_lossy();
        if let Some((dir, _)) = &self.cache {
            match cached_intact(dir, &name) {
                Some(bytes) => {
                    tracing::info!(file = %self.file.display(), bytes, seconds = format!("{:.3}", t0.elapsed().as_secs_f64()), "reference outputs: cached");
                    return;
                }
                None => sealed::remove(&**dir, &name),
            }
        }
        tracing::info!(skeleton = %self.exe.display(), "reference outputs: computing (`--reference`), beside the workers' device set-up");
        match self.compute() {
            Ok(()) => {
                let bytes = std::fs::metadata(&self.file).map_or(0, |m| m.len());
                let cached = self
                    .cache
                    .as_ref()
                    .is_some_and(|(dir, _)| sealed::seal(&**dir, &name, &name).is_ok());
                tracing::info!(
                    file = %self.file.display(),
                    bytes,
                    cached,
                    seconds = format!("{:.3}", t0.elapsed().as_secs_f64()),
                    "reference outputs: computed"
                );
                if let Some((dir, limit)) = &self.cache {
                    evict(dir, *limit, &name);
                }
            }
            Err(why) => tracing::warn!(
                skeleton = %self.exe.display(),
                "reference process failed ({why}); each worker computes the reference outputs itself"
            ),
        }
    }

    /// Run `exe --reference` to completion. Errors: it could not start, or did not exit 0.
    fn compute(&self) -> Result<(), String> {
        let mut cmd = std::process::Command::new(&self.exe);
        cmd.arg("--reference")
            .env("ORCL_REFERENCE", &self.file)
            .env_remove("ORCL_REFERENCE_LOCK")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        let mut child = crate::interrupt::spawn_tied(cmd, false).map_err(|e| e.to_string())?;
        let pid = child.id();
        *self.running.lock().unwrap_or_else(|e| e.into_inner()) = Some(pid);
        let mut err = String::new();
        if let Some(mut s) = child.stderr.take() {
            use std::io::Read;
            let _ = s.by_ref().take(4096).read_to_string(&mut err);
        }
        // Wait for the exit without reaping (WNOWAIT), forget the pid, then reap: the drop's
        // kill never reaches a reused pid.
        // SAFETY: waitid on our own child with a zeroed siginfo_t.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            );
        }
        *self.running.lock().unwrap_or_else(|e| e.into_inner()) = None;
        let status = child.wait().map_err(|e| e.to_string())?;
        if status.success() && self.file.exists() {
            Ok(())
        } else {
            Err(format!("{status}: {}", err.trim()))
        }
    }
}

/// The size of the cached `name` in `dir` when it is [`sealed`] (intact, this user's); its time
/// of last use is then updated, for the eviction. `None` otherwise.
fn cached_intact(dir: &CacheDir, name: &str) -> Option<u64> {
    let f = sealed::open(dir, name)?;
    let _ = f.set_modified(std::time::SystemTime::now());
    Some(f.metadata().ok()?.len())
}

/// Remove the least recently used entries of `dir` (with their digests) until their total is at
/// most `limit` bytes; `keep` (the entry just written) stays. Names with a dot (digests, scratch
/// files) are not entries.
fn evict(dir: &CacheDir, limit: u64, keep: &str) {
    let mut files: Vec<(std::time::SystemTime, u64, String)> = std::fs::read_dir(dir.path())
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let m = e.metadata().ok().filter(|_| !name.contains('.'))?;
            Some((m.modified().ok()?, m.len(), name))
        })
        .collect();
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    files.sort();
    for (_, len, name) in files {
        if total <= limit {
            break;
        }
        if name != keep {
            sealed::remove(dir, &name);
            total = total.saturating_sub(len);
            tracing::info!(file = %dir.path().join(&name).display(), bytes = len, "reference cache: removed (over ORCL_REFERENCE_CACHE_MB)");
        }
    }
}

/// Create `lock` and take an exclusive flock(2) on it (held while the returned file is open).
fn lock_exclusive(lock: &Path) -> Option<std::fs::File> {
    let f = std::fs::File::create(lock).ok()?;
    // SAFETY: flock on an open descriptor.
    (unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) } == 0).then_some(f)
}

/// Remove `dir/reference-PID-*` files of processes that no longer run.
fn remove_stale(dir: &Path) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let pid = name
            .strip_prefix("reference-")
            .and_then(|r| r.split('-').next());
        // SAFETY: kill(pid, 0) only checks that the process exists.
        if pid
            .and_then(|p| p.parse::<i32>().ok())
            .is_some_and(|p| p > 0 && unsafe { libc::kill(p, 0) } != 0)
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// The LRU bound: the oldest entries go first (with their digests), the one just written
    /// stays.
    #[test]
    fn eviction_keeps_the_newest_within_the_bound() {
        let d = tempfile::tempdir().unwrap();
        let dir = CacheDir::open(&d.path().join("references")).unwrap();
        let path = dir.path().to_path_buf();
        let t = std::time::SystemTime::now();
        for (i, name) in ["a", "b", "c"].iter().enumerate() {
            let p = path.join(name);
            std::fs::write(&p, vec![0u8; 100]).unwrap();
            sealed::seal(&dir, name, name).unwrap();
            let f = std::fs::File::options().write(true).open(&p).unwrap();
            f.set_modified(t - Duration::from_secs(100 - i as u64))
                .unwrap();
        }
        evict(&dir, 250, "c");
        assert!(!path.join("a").exists() && !sealed::digest_path(&path.join("a")).exists());
        assert!(
            path.join("b").exists() && sealed::open(&dir, "b").is_some(),
            "more was removed than the bound asks"
        );
        assert!(path.join("c").exists(), "the file just written was removed");
        // Over the bound with only the file just written left: it stays.
        evict(&dir, 50, "b");
        assert!(path.join("b").exists() && !path.join("c").exists());
    }

    /// A cached file is used only while it is the one sealed; using it marks it recently used.
    #[test]
    fn a_changed_cached_file_is_not_intact() {
        let d = tempfile::tempdir().unwrap();
        let dir = CacheDir::open(&d.path().join("references")).unwrap();
        let p = dir.path().join("r");
        std::fs::write(&p, b"outputs").unwrap();
        let old = std::time::SystemTime::now() - Duration::from_secs(1000);
        std::fs::File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_modified(old)
            .unwrap();
        sealed::seal(&dir, "r", "r").unwrap();
        assert_eq!(cached_intact(&dir, "r"), Some(7));
        let used = std::fs::metadata(&p).unwrap().modified().unwrap();
        assert!(used > old, "its time of last use was not updated");
        std::fs::write(&p, b"Outputs").unwrap();
        assert_eq!(cached_intact(&dir, "r"), None);
        std::fs::remove_file(sealed::digest_path(&p)).unwrap();
        assert_eq!(cached_intact(&dir, "r"), None);
    }
}
