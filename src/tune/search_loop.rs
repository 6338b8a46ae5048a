//! The search loop of one experiment: the strategy proposes batches; each batch's new variants
//! are generated once, handed to the build pool and measured by every worker slot at once (one
//! for a one-device tune, one per `--devices` device or `--slurm` worker: `batch`), and every
//! proposal is recorded in proposal order as its measurement comes back: a database hit, a
//! constraint rejection (counted), a device limit, a kernel identical to one measured, or a new
//! measurement (one committed row).

mod batch;
pub(super) use batch::Slot;

use super::experiment::{outcome_from_row, row_from_outcome};
use super::pipeline::{Skeletons, TestFault, Workers};
use super::progress::status_line;
use super::settings::Settings;
use super::{Evaluated, TuneError, TuneOptions};
use crate::db::{Db, EvaluationRow};
use crate::prepare::Prepared;
use batch::{Planned, Queue, Results};
use orcl_frontend::space::SearchSpace;
use orcl_measure::device::DeviceInfo;
use orcl_measure::{Outcome, Status};
use orcl_search::{Candidate, Strategy};
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

/// What the loop reads: the region, its space, the device and the experiment.
pub(super) struct Env<'a> {
    pub p: &'a Prepared,
    pub space: &'a SearchSpace,
    pub opts: &'a TuneOptions,
    pub settings: &'a Settings,
    pub dev: &'a DeviceInfo,
    pub fault: &'a TestFault,
    pub db: &'a Db,
    pub experiment_id: i64,
    pub stored: &'a HashMap<String, EvaluationRow>,
    /// How many rows this run may add to the experiment (`--total-runs` less the stored rows,
    /// `--more`, 0 for a `done` experiment); `None`: no limit.
    pub new_rows: Option<u64>,
    /// Whether the objective is kernel + transfers.
    pub total: bool,
    /// What the search observes and the winner minimises.
    pub objective: super::energy::Objective,
    /// `--max-idle` when the space is too large to enumerate.
    pub max_idle: Option<u64>,
    pub text: &'a str,
    pub path: &'a str,
}

/// What the loop found.
#[derive(Default)]
pub(super) struct SearchState {
    pub evaluations: Vec<Evaluated>,
    /// Outcome of each variant key measured, and the worker slot that measured it (`None`: the
    /// one local worker of a one-device tune).
    by_variant: HashMap<String, (Outcome, Option<usize>)>,
    /// New measurements of this run.
    pub measured: usize,
    /// Rows this run added to the experiment (the budget's unit: a measurement, a failure, a
    /// device limit or a kernel identical to one measured each add one).
    pub new_rows: u64,
    /// Evaluations taken from the database (resume).
    pub reused: usize,
    /// Every proposal counts (issue 15 F8): constraint rejections are counted, not stored.
    pub proposals: u64,
    pub rejected: u64,
    /// Proposals in a row that measured nothing new.
    idle: u64,
    /// Why the search stopped early (the idle-proposal limit), when it did.
    pub stopped: Option<String>,
    /// Index into `evaluations` and objective value (ms, J or J·ms) of the best so far.
    pub best: Option<(usize, f64)>,
    /// `--devices`/`--slurm`: configurations each worker slot measured in this run (slot k
    /// measures on `Workers::devices[k]`).
    pub per_worker: Vec<usize>,
    /// Wall time spent writing evaluation rows (the `search_db_writes` stage).
    pub db_time: std::time::Duration,
}

impl SearchState {
    /// Records the proposal and constraint counts as the experiment's metadata.
    fn save_counts(&self, db: &Db, experiment_id: i64) -> Result<(), TuneError> {
        db.set_metadata(experiment_id, "proposals", &self.proposals.to_string())?;
        db.set_metadata(
            experiment_id,
            "constraint_rejected",
            &self.rejected.to_string(),
        )?;
        Ok(())
    }

    /// Marks the experiment `interrupted` (counts saved) and returns the error to stop with.
    fn interrupted(&self, env: &Env, signal: i32) -> TuneError {
        let r = self
            .save_counts(env.db, env.experiment_id)
            .and_then(|_| Ok(env.db.finish_experiment(env.experiment_id, "interrupted")?));
        match r {
            Ok(()) => TuneError::Interrupted {
                signal,
                experiment: env.experiment_id,
            },
            Err(e) => e,
        }
    }

    /// Why an idle search stops: no feasible configuration at all, or nothing new for `limit`.
    fn idle_stop_message(&self, limit: u64, size: u64) -> String {
        let (proposals, rejected) = (self.proposals, self.rejected);
        let over_limit = self
            .evaluations
            .iter()
            .filter(|e| e.outcome.status == Status::DeviceLimit)
            .count();
        let feasible_seen = self
            .evaluations
            .iter()
            .any(|e| !matches!(e.outcome.status, Status::Constraint | Status::DeviceLimit));
        if !feasible_seen {
            format!(
                "no feasible configuration found in the first {proposals} proposals ({rejected} rejected by constraints, {over_limit} over the device's limits) of the {size} configurations; relax the constraints, or raise --max-idle (now {limit})"
            )
        } else {
            format!(
                "the search stopped after {limit} proposals in a row that measured nothing new ({proposals} proposals, {rejected} rejected by constraints, of the {size} configurations); raise --max-idle to search on"
            )
        }
    }

    /// `--time-limit` ran out: says so when nothing was measured at all.
    fn time_limit_reached(&mut self, t: std::time::Duration) {
        if self.evaluations.is_empty() {
            self.stopped = Some(format!(
                "the time limit ({}) ran out before any configuration was measured; raise --time-limit",
                humantime_secs(t)
            ));
        }
    }

    /// The outcome of the variant `key` and the slot that measured it (`None`: the one worker of
    /// a one-device tune): an identical variant's, measured before, or this one's, waited for
    /// and counted as a new measurement. `None` when no thread measured it (see
    /// [`Results::wait`]).
    fn measurement(
        &mut self,
        key: &str,
        results: &mut Results,
        view: &View,
    ) -> Option<(Outcome, Option<usize>)> {
        if let Some((o, on)) = self.by_variant.get(key) {
            // The same kernel, options, NDRange and build as a configuration already measured.
            return Some((o.clone(), *on));
        }
        let (o, slot) = results.wait(key)?;
        let on = (!view.devices.is_empty()).then_some(slot);
        self.measured += 1;
        if let Some(n) = on.and_then(|s| self.per_worker.get_mut(s)) {
            *n += 1;
        }
        self.by_variant.insert(key.to_string(), (o.clone(), on));
        Some((o, on))
    }

    /// Records one proposal's evaluation: a new row in the database (unless it came from
    /// there), the strategy told its objective (unless it broke a constraint), the best so far.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        env: &Env,
        strategy: &mut dyn Strategy,
        devices: &[usize],
        cand: Candidate,
        outcome: Outcome,
        was_stored: bool,
        kernel_hash: Option<String>,
        measured_on: Option<usize>,
    ) -> Result<(), TuneError> {
        let st = self;
        let cfg = cand.config;
        if was_stored {
            st.reused += 1;
        } else {
            let t0 = Instant::now();
            let inserted = env.db.insert_evaluation_on(
                env.experiment_id,
                &row_from_outcome(&cfg, &outcome, kernel_hash),
                measured_on.map(|s| devices[s]),
            );
            st.db_time += t0.elapsed();
            tracing::debug!(
                config = %cfg.key(),
                status = outcome.status.as_str(),
                median_ms = ?outcome.median_ms(),
                build_ms = ?outcome.build_ms,
                device = ?measured_on.map(|s| devices[s]),
                "evaluation recorded"
            );
            match inserted {
                // Another orcl process tuning the same experiment stored it first: keep its
                // row (one evaluation per configuration), use ours here.
                Err(crate::db::DbError::Duplicate { .. }) => {}
                other => {
                    other?;
                }
            }
            st.new_rows += 1;
            stall_for_tests();
        }
        let obj = env.objective.value(&outcome);
        if cand.violated.is_none() {
            strategy.observe(&cfg, obj);
        }
        if let Some(m) = obj {
            if st.best.is_none_or(|(_, b)| m < b) {
                st.best = Some((st.evaluations.len(), m));
            }
        }
        st.evaluations.push(Evaluated {
            config: cfg,
            outcome,
            reused: was_stored,
        });
        Ok(())
    }
}

/// Test-only hook `ORCL_TEST_STALL_AFTER=N`: once this process has committed N evaluation rows,
/// it stops making progress (sleeps until killed), so that a test can kill a tune mid-way on an
/// event (the Nth row is in the database) rather than racing a wall clock (issue 25).
fn stall_for_tests() {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COMMITTED: AtomicU64 = AtomicU64::new(0);
    let Some(n) = std::env::var("ORCL_TEST_STALL_AFTER")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    else {
        return;
    };
    if COMMITTED.fetch_add(1, Ordering::SeqCst) + 1 >= n {
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
}

/// Runs the search until the strategy runs out, a budget is spent or the idle limit is reached.
/// Errors: a located error of the spec, the database, a `--slurm` worker that cannot be
/// restarted, or an interruption (the experiment is then marked `interrupted`).
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    env: &Env,
    strategy: &mut dyn Strategy,
    skeletons: &mut Skeletons,
    workers: &mut Workers,
    bar: &indicatif::ProgressBar,
    start: Instant,
    batch_size: usize,
) -> Result<SearchState, TuneError> {
    let mut st = SearchState {
        per_worker: vec![0; workers.devices.len()],
        ..SearchState::default()
    };
    // A done experiment rerun without `--more` (issue 25 G8) measures nothing new: its stored
    // rows are its result, replayed in the order they were recorded whatever strategy this run
    // names (a strategy's own order could begin with a configuration never measured).
    let replaying = env.new_rows == Some(0);
    let mut replay = replaying.then(|| stored_in_order(env));
    loop {
        let batch = match replay.take() {
            Some(rows) => rows,
            None if replaying => break,
            None => strategy
                .propose(env.space, batch_size)
                .map_err(|d| crate::tune::located(env.text, env.path, d))?,
        };
        if batch.is_empty()
            || !run_batch(
                env, &mut st, strategy, batch, skeletons, workers, bar, start,
            )?
        {
            break;
        }
    }
    if !replaying {
        // A replay proposes only the stored rows: the counts of the runs that searched stay.
        st.save_counts(env.db, env.experiment_id)?;
    }
    Ok(st)
}

/// What the recording of a batch reads of the workers while their runners measure.
struct View {
    devices: Vec<usize>,
    slurm: bool,
    pool: Option<(
        std::sync::Arc<orcl_measure::pool::BuildPool>,
        orcl_codegen::Backend,
    )>,
}

/// Plans, measures and records one batch (`batch`): the measuring threads of every worker slot
/// start first and take each new variant as the controller queues it; the controller then records
/// every proposal in proposal order, waiting for its measurement. Returns whether the search
/// goes on (`false`: a budget, the time limit or the idle limit ended it).
#[allow(clippy::too_many_arguments)]
fn run_batch(
    env: &Env,
    st: &mut SearchState,
    strategy: &mut dyn Strategy,
    batch: Vec<Candidate>,
    skeletons: &mut Skeletons,
    workers: &mut Workers,
    bar: &indicatif::ProgressBar,
    start: Instant,
) -> Result<bool, TuneError> {
    let view = View {
        devices: workers.devices.clone(),
        slurm: workers.slurm,
        pool: workers.runner.pool(),
    };
    let deadline = env.settings.time_limit.map(|t| start + t);
    let (total, slurm) = (env.total, workers.slurm);
    let queue = Queue::default();
    let slots = workers.slots();
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel();
        for slot in slots {
            let (tx, queue) = (tx.clone(), &queue);
            s.spawn(move || batch::measure_jobs(slot, queue, tx, total, slurm, deadline));
        }
        drop(tx);
        // However the controller leaves the batch, the threads take nothing more.
        let _stop = batch::StopOnDrop(&queue);
        let planned = batch::plan(env, st, batch, skeletons, view.pool.as_ref(), &queue)?;
        queue.close();
        let mut results = Results::new(rx);
        record_batch(
            env,
            st,
            strategy,
            planned,
            &mut results,
            &queue,
            &view,
            bar,
            start,
        )
    })
}

/// Records the proposals of a planned batch in order (see [`run_batch`]).
#[allow(clippy::too_many_arguments)]
fn record_batch(
    env: &Env,
    st: &mut SearchState,
    strategy: &mut dyn Strategy,
    planned: Vec<(Candidate, Planned)>,
    results: &mut Results,
    queue: &Queue,
    view: &View,
    bar: &indicatif::ProgressBar,
    start: Instant,
) -> Result<bool, TuneError> {
    for (cand, planned) in planned {
        if let Some(signal) = orcl_measure::interrupt::requested() {
            return Err(st.interrupted(env, signal));
        }
        if matches!(planned, Planned::OverBudget) {
            return Ok(false);
        }
        if let Some(t) = env.settings.time_limit.filter(|&t| start.elapsed() >= t) {
            st.time_limit_reached(t);
            return Ok(false);
        }
        if let Some(limit) = env.max_idle.filter(|&l| st.idle >= l) {
            st.stopped = Some(st.idle_stop_message(limit, env.space.size()));
            return Ok(false);
        }
        st.proposals += 1;
        let measured_before = st.measured;
        let (outcome, was_stored, kernel_hash, measured_on) = match planned {
            Planned::Rejected => {
                // Never built and never stored: a count, not a row.
                st.rejected += 1;
                st.idle += 1;
                continue;
            }
            Planned::OverBudget => return Ok(false),
            Planned::Stored(o, h) => (o, true, h, None),
            Planned::Known(o, h) => (o, false, h, None),
            Planned::Measure(key, h) => {
                let Some((o, on)) = st.measurement(&key, results, view) else {
                    if let Some(signal) = orcl_measure::interrupt::requested() {
                        return Err(st.interrupted(env, signal));
                    }
                    if let Some(e) = queue.take_spawn_error() {
                        // No `--slurm` worker left: the cluster's failure, not this variant's:
                        // stop (resumable) rather than record it.
                        return Err(e.into());
                    }
                    // The time limit passed before a thread took it.
                    if let Some(t) = env.settings.time_limit {
                        st.time_limit_reached(t);
                    }
                    return Ok(false);
                };
                (o, false, h, on)
            }
        };
        // A measurement, or one recorded by an earlier run, is progress; a constraint,
        // device limit, identical kernel or generation error is not.
        if st.measured > measured_before || (was_stored && outcome.status != Status::Constraint) {
            st.idle = 0;
        } else {
            st.idle += 1;
        }
        if let Some(signal) = orcl_measure::interrupt::requested() {
            // The measurement was cut short by the signal: not a result to record.
            return Err(st.interrupted(env, signal));
        }
        st.record(
            env,
            strategy,
            &view.devices,
            cand,
            outcome,
            was_stored,
            kernel_hash,
            measured_on,
        )?;
        show_progress(bar, st, view);
    }
    Ok(true)
}

/// The experiment's stored rows as candidates, in the order they were recorded (row id).
fn stored_in_order(env: &Env) -> Vec<Candidate> {
    let mut rows: Vec<&EvaluationRow> = env.stored.values().collect();
    rows.sort_by_key(|r| r.id);
    rows.iter()
        .filter_map(|r| orcl_frontend::space::Configuration::from_key(&r.config_key).ok())
        .map(|config| Candidate {
            config,
            violated: None,
        })
        .collect()
}

/// The progress bar's status line (builds, measurements per device or Slurm worker, failures,
/// best so far), and one more proposal done.
fn show_progress(bar: &indicatif::ProgressBar, st: &SearchState, workers: &View) {
    let fails = st
        .evaluations
        .iter()
        .filter(|e| e.outcome.status != Status::Ok && e.outcome.status != Status::Constraint)
        .count();
    // Measurements per device so far (`--slurm`: per worker).
    let per: BTreeMap<usize, usize> = if workers.slurm {
        st.per_worker.iter().copied().enumerate().collect()
    } else {
        workers
            .devices
            .iter()
            .copied()
            .zip(st.per_worker.iter().copied())
            .collect()
    };
    bar.set_message(status_line(
        workers.pool.as_ref().map(|p| p.0.counts()),
        if workers.slurm {
            "Slurm workers"
        } else {
            "devices"
        },
        &per,
        fails,
        st.best.map(|(_, b)| b),
    ));
    bar.inc(1);
}

/// A duration as seconds for a message (`0.001 s`, `30 s`).
fn humantime_secs(t: std::time::Duration) -> String {
    let s = t.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s} s")
    }
}
