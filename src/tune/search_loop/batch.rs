//! One batch of the search, measured: every worker slot (the one device of a tune, each
//! `--devices` device, each `--slurm` worker) takes the next variant from one queue on a thread
//! of its own, while the controller plans the rest of the batch (each proposal's variant generated
//! once) and records what comes back in proposal order. One measuring path for one device and
//! for many (issue 24): on one GPU the database writes and the code generation of the next
//! proposals overlap the measurements instead of following each one.

use super::super::energy::Meter;
use super::super::pipeline::{
    device_limit, fault_for, measure_objective, variant_for, variant_key, Skeletons,
};
use super::super::{located, sha, TuneError};
use super::{Env, SearchState};
use orcl_codegen::{Backend, Variant};
use orcl_frontend::space::Configuration;
use orcl_measure::pool::BuildPool;
use orcl_measure::worker::SpawnError;
use orcl_measure::{Outcome, Runner, Status};
use orcl_search::Candidate;
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

/// A variant to measure: its key (`variant_key`), the variant, its skeleton binary and its
/// configuration (for the energy meter).
pub(super) struct Job {
    key: String,
    variant: Variant,
    exe: PathBuf,
    config: Configuration,
}

/// The jobs of one batch in proposal order, taken by the measuring threads as the controller
/// adds them; closed when the batch is planned.
#[derive(Default)]
pub(super) struct Queue {
    /// The jobs not yet taken, and whether the batch is fully planned.
    jobs: Mutex<(VecDeque<Job>, bool)>,
    cv: Condvar,
    /// Set when the controller stops early (a budget, a signal, an error): no job is taken after.
    stopped: AtomicBool,
    /// `--slurm`: why a worker could not be restarted (its jobs were left to the others).
    spawn_error: Mutex<Option<SpawnError>>,
}

impl Queue {
    fn push(&self, job: Job) {
        self.lock().0.push_back(job);
        self.cv.notify_one();
    }

    fn push_front(&self, job: Job) {
        self.lock().0.push_front(job);
        self.cv.notify_one();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (VecDeque<Job>, bool)> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// No more jobs come: the threads end once the queue is empty.
    pub fn close(&self) {
        self.lock().1 = true;
        self.cv.notify_all();
    }

    /// No more jobs are taken, and none come.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        self.close();
    }

    /// The next job, waiting while the batch is planned; `None` once the queue is closed and
    /// empty, stopped, after `deadline` (`--time-limit`) or on a signal.
    fn next(&self, deadline: Option<Instant>) -> Option<Job> {
        let mut q = self.lock();
        loop {
            let over = deadline.is_some_and(|d| Instant::now() >= d);
            if self.stopped.load(Ordering::SeqCst)
                || over
                || orcl_measure::interrupt::requested().is_some()
            {
                return None;
            }
            if let Some(job) = q.0.pop_front() {
                return Some(job);
            }
            if q.1 {
                return None;
            }
            q = self.cv.wait(q).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Why a `--slurm` worker could not be restarted, if one could not.
    pub fn take_spawn_error(&self) -> Option<SpawnError> {
        self.spawn_error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }
}

/// Stops the queue when dropped: whatever way the controller leaves a batch (done, a budget, an
/// error), the measuring threads take nothing more and end.
pub(super) struct StopOnDrop<'a>(pub &'a Queue);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// One measuring worker slot: its index, the device it measures on (`None`: the variant's own,
/// for a one-device tune) and its runner; slot 0 of an energy objective also has the meter.
pub(in crate::tune) struct Slot<'a> {
    pub slot: usize,
    pub device: Option<usize>,
    pub runner: &'a mut Runner,
    pub energy: Option<&'a mut Meter>,
}

/// What a measuring thread sends back: the job's key, its outcome and the slot that measured it.
pub(super) type Measured = (String, Outcome, usize);

/// Measures the jobs of `queue` on `slot` until none is left (see [`Queue::next`]), sending each
/// outcome to `out`. Under `--slurm` a worker that cannot be restarted puts its job back, records
/// why and leaves the batch to the other slots.
pub(super) fn measure_jobs(
    slot: Slot,
    queue: &Queue,
    out: Sender<Measured>,
    total: bool,
    slurm: bool,
    deadline: Option<Instant>,
) {
    let Slot {
        slot,
        device,
        runner,
        mut energy,
    } = slot;
    while let Some(mut job) = queue.next(deadline) {
        if let Some(d) = device {
            job.variant.device = d;
        }
        runner.use_skeleton(job.exe.clone());
        if slurm {
            if let Err(e) = runner.worker(job.variant.platform, job.variant.device) {
                eprintln!("warning: Slurm worker {slot} could not be restarted: {e}; the other workers go on");
                *queue.spawn_error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                queue.push_front(job);
                break;
            }
        }
        let mut o = measure_objective(runner, &job.variant, total);
        if let Some(m) = energy.as_deref_mut() {
            m.measure(runner, &job.variant, &job.config, &mut o);
        }
        if out.send((job.key, o, slot)).is_err() {
            break;
        }
    }
}

/// The measurements of a batch as they come back, by key.
pub(super) struct Results {
    rx: Receiver<Measured>,
    got: HashMap<String, (Outcome, usize)>,
}

impl Results {
    pub fn new(rx: Receiver<Measured>) -> Results {
        Results {
            rx,
            got: HashMap::new(),
        }
    }

    /// The outcome of `key` and its slot, waiting for it; `None` when every measuring thread
    /// ended without it (a signal, the time limit, no `--slurm` worker left).
    pub fn wait(&mut self, key: &str) -> Option<(Outcome, usize)> {
        loop {
            if let Some(x) = self.got.remove(key) {
                return Some(x);
            }
            let (k, o, s) = self.rx.recv().ok()?;
            self.got.insert(k, (o, s));
        }
    }
}

/// What one proposal of a batch comes to before anything is measured.
pub(super) enum Planned {
    /// A row the experiment has (resume): replayed, with its kernel hash.
    Stored(Outcome, Option<String>),
    /// Breaks a constraint and was never stored: counted, not recorded.
    Rejected,
    /// Known without a measurement (a generation error, a device limit, a skeleton that does not
    /// build), with its kernel hash.
    Known(Outcome, Option<String>),
    /// Measured under this variant key (here, or earlier as an identical variant), kernel hash.
    Measure(String, Option<String>),
    /// A new row past `--total-runs`: the search ends here.
    OverBudget,
}

/// Plans `batch`: each proposal's variant generated once, its kernel handed to the build pool
/// and, if new, queued on `queue` for the measuring threads; stops at the first new row past the
/// budget. Errors: a located error of the spec (the skeleton's build plan).
pub(super) fn plan(
    env: &Env,
    st: &SearchState,
    batch: Vec<Candidate>,
    skeletons: &mut Skeletons,
    pool: Option<&(std::sync::Arc<BuildPool>, Backend)>,
    queue: &Queue,
) -> Result<Vec<(Candidate, Planned)>, TuneError> {
    let mut left = env.new_rows.map(|l| l.saturating_sub(st.new_rows));
    let mut queued = HashSet::new();
    let mut out = Vec::with_capacity(batch.len());
    for cand in batch {
        if orcl_measure::interrupt::requested().is_some() {
            break;
        }
        let planned = match env.stored.get(&cand.config.key()) {
            Some(row) => Planned::Stored(super::outcome_from_row(row), row.kernel_hash.clone()),
            None if cand.violated.is_some() => Planned::Rejected,
            None if left == Some(0) => Planned::OverBudget,
            None => {
                left = left.map(|l| l - 1);
                let (planned, job) = plan_one(env, st, &cand.config, skeletons, &mut queued)?;
                if let Some(job) = job {
                    // The build pool of its backend starts on it now.
                    if let Some((pool, _)) = pool.filter(|p| p.1 == job.variant.backend) {
                        pool.submit(&job.variant.source, &job.variant.build_options);
                    }
                    queue.push(job);
                }
                planned
            }
        };
        let stop = matches!(planned, Planned::OverBudget);
        out.push((cand, planned));
        if stop {
            break;
        }
    }
    Ok(out)
}

/// One new proposal: its variant, and the job to measure it unless it cannot run (generation
/// error, device limit, skeleton build failure) or a variant with its key was measured or queued.
fn plan_one(
    env: &Env,
    st: &SearchState,
    cfg: &Configuration,
    skeletons: &mut Skeletons,
    queued: &mut HashSet<String>,
) -> Result<(Planned, Option<Job>), TuneError> {
    let v = match variant_for(env.p, env.space, cfg, env.opts, fault_for(cfg, env.fault)) {
        Err(d) => {
            let o = Outcome::failure(Status::CompileError, d.message);
            return Ok((Planned::Known(o, None), None));
        }
        Ok(v) => v,
    };
    let plan = skeletons
        .plan_for(env.space, cfg)
        .map_err(|d| located(env.text, env.path, d))?;
    let key = variant_key(&v, &plan);
    let khash = Some(sha(&[&v.source])[..16].to_string());
    if let Some(msg) = device_limit(&v, env.dev) {
        let o = Outcome::failure(Status::DeviceLimit, msg);
        return Ok((Planned::Known(o, khash), None));
    }
    if st.by_variant.contains_key(&key) || queued.contains(&key) {
        // The same kernel, options, NDRange and build as a configuration measured before.
        return Ok((Planned::Measure(key, khash), None));
    }
    // The skeleton of this build plan, built when a variant first needs it (not for one that
    // cannot run on the device or was measured already).
    let exe = match skeletons.exe(&plan) {
        Err(msg) => {
            let o = Outcome::failure(Status::CompileError, msg);
            return Ok((Planned::Known(o, khash), None));
        }
        Ok(exe) => exe,
    };
    queued.insert(key.clone());
    let job = Job {
        key: key.clone(),
        variant: v,
        exe,
        config: cfg.clone(),
    };
    Ok((Planned::Measure(key, khash), Some(job)))
}
