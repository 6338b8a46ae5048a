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
//! compiler all change the binary), with the data's own SHA-256 beside it (`.sha256`), checked
//! before a cached file is used (a file that does not match is removed and computed again). The
//! directory is bounded: after each new file, the least recently used ones are removed until the
//! total is at most `ORCL_REFERENCE_CACHE_MB` (default 4096 MiB; 0 disables the cache, and so does
//! `--no-kernel-cache`). Without the cache the file is one of the run's (`CACHE/reference-PID-N-*`),
//! removed at its end.

use sha2::{Digest, Sha256};
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
    /// `CACHE/references` and its bound in bytes; `None`: no cache.
    cache: Option<(PathBuf, u64)>,
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
        let refs = dir.join("references");
        let cache = (cache && mb > 0 && super::secure_dir(&refs).is_ok())
            .then(|| (refs, mb.saturating_mul(1 << 20)));
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
        let digest = std::fs::read_to_string(exe.with_extension("sha256")).ok();
        match (&self.cache, name, digest) {
            (Some((dir, _)), Some(name), Some(d)) if d.trim().len() >= 16 => {
                dir.join(format!("{name}-{}", &d.trim()[..16]))
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
    cache: Option<(PathBuf, u64)>,
    running: Arc<Mutex<Option<u32>>>,
}

impl JobCtx {
    /// Use the cached file if it is intact, else compute the outputs (and cache them).
    fn run(&self) {
        let t0 = Instant::now();
        if self.cache.is_some() {
            match cached_intact(&self.file) {
                Some(bytes) => {
                    tracing::info!(file = %self.file.display(), bytes, seconds = format!("{:.3}", t0.elapsed().as_secs_f64()), "reference outputs: cached");
                    return;
                }
                None => {
                    let _ = std::fs::remove_file(&self.file);
                    let _ = std::fs::remove_file(digest_path(&self.file));
                }
            }
        }
        tracing::info!(skeleton = %self.exe.display(), "reference outputs: computing (`--reference`), beside the workers' device set-up");
        match self.compute() {
            Ok(()) => {
                let bytes = std::fs::metadata(&self.file).map_or(0, |m| m.len());
                let cached = self.cache.is_some() && self.seal();
                tracing::info!(
                    file = %self.file.display(),
                    bytes,
                    cached,
                    seconds = format!("{:.3}", t0.elapsed().as_secs_f64()),
                    "reference outputs: computed"
                );
                if let Some((dir, limit)) = &self.cache {
                    evict(dir, *limit, &self.file);
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

    /// Record the file's digest beside it; false where it cannot be written.
    fn seal(&self) -> bool {
        let Some(d) = digest(&self.file) else {
            return false;
        };
        let sum = digest_path(&self.file);
        let tmp = sum.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&tmp, d).is_ok() && std::fs::rename(&tmp, &sum).is_ok()
    }
}

fn digest_path(file: &Path) -> PathBuf {
    let mut s = file.as_os_str().to_owned();
    s.push(".sha256");
    PathBuf::from(s)
}

fn digest(file: &Path) -> Option<String> {
    use std::io::Read;
    let mut f = std::fs::File::open(file).ok()?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Some(hex::encode(h.finalize()))
}

/// The size of the cached `file` when its digest is the one recorded beside it (its time of
/// last use is then updated, for the eviction); `None` otherwise.
fn cached_intact(file: &Path) -> Option<u64> {
    let want = std::fs::read_to_string(digest_path(file)).ok()?;
    (digest(file)? == want.trim()).then_some(())?;
    let f = std::fs::File::options().write(true).open(file).ok()?;
    let _ = f.set_modified(std::time::SystemTime::now());
    Some(f.metadata().ok()?.len())
}

/// Remove the least recently used files of `dir` (and their digests) until their total is at
/// most `limit` bytes; `keep` (the file just written) stays.
fn evict(dir: &Path, limit: u64, keep: &Path) {
    let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().contains('.'))
        .filter_map(|e| {
            let m = e.metadata().ok()?;
            Some((m.modified().ok()?, m.len(), e.path()))
        })
        .collect();
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    files.sort();
    for (_, len, path) in files {
        if total <= limit {
            break;
        }
        if path != keep {
            let _ = std::fs::remove_file(&path);
            let _ = std::fs::remove_file(digest_path(&path));
            total = total.saturating_sub(len);
            tracing::info!(file = %path.display(), bytes = len, "reference cache: removed (over ORCL_REFERENCE_CACHE_MB)");
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

    /// The LRU bound: the oldest files go first, the one just written stays.
    #[test]
    fn eviction_keeps_the_newest_within_the_bound() {
        let dir = std::env::temp_dir().join(format!("orcl-refcache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let t = std::time::SystemTime::now();
        for (i, name) in ["a", "b", "c"].iter().enumerate() {
            let p = dir.join(name);
            std::fs::write(&p, vec![0u8; 100]).unwrap();
            std::fs::write(digest_path(&p), "x").unwrap();
            let f = std::fs::File::options().write(true).open(&p).unwrap();
            f.set_modified(t - Duration::from_secs(100 - i as u64))
                .unwrap();
        }
        evict(&dir, 250, &dir.join("c"));
        assert!(!dir.join("a").exists() && !digest_path(&dir.join("a")).exists());
        assert!(
            dir.join("b").exists(),
            "more was removed than the bound asks"
        );
        assert!(dir.join("c").exists(), "the file just written was removed");
        // Over the bound with only the file just written left: it stays.
        evict(&dir, 50, &dir.join("b"));
        assert!(dir.join("b").exists() && !dir.join("c").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A cached file whose digest does not match is not used.
    #[test]
    fn a_changed_cached_file_is_not_intact() {
        let dir = std::env::temp_dir().join(format!("orcl-refint-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("r");
        std::fs::write(&p, b"outputs").unwrap();
        std::fs::write(digest_path(&p), digest(&p).unwrap()).unwrap();
        assert_eq!(cached_intact(&p), Some(7));
        std::fs::write(&p, b"Outputs").unwrap();
        assert_eq!(cached_intact(&p), None);
        std::fs::remove_file(digest_path(&p)).unwrap();
        assert_eq!(cached_intact(&p), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
