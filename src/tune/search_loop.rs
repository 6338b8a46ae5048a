//! The search loop of one experiment: the strategy proposes batches; each batch's kernels go to
//! the build pool, its new variants are measured (on every `--devices` device at once), and every
//! proposal is then recorded in proposal order: a database hit, a constraint rejection (counted),
//! a device limit, a kernel identical to one measured, or a new measurement (one committed row).

use super::experiment::{outcome_from_row, row_from_outcome};
use super::pipeline::{
    device_limit, fault_for, measure_objective, measure_on_devices, variant_for, variant_key,
    Skeletons, TestFault, Workers,
};
use super::progress::status_line;
use super::settings::Settings;
use super::{located, sha, Evaluated, TuneError, TuneOptions};
use crate::db::{Db, EvaluationRow};
use crate::prepare::Prepared;
use orcl_frontend::space::SearchSpace;
use orcl_measure::device::DeviceInfo;
use orcl_measure::{Outcome, Status};
use orcl_search::{Candidate, Strategy};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
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
    /// one local worker).
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

    /// Records one proposal's evaluation: a new row in the database (unless it came from
    /// there), the strategy told its objective (unless it broke a constraint), the best so far.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        env: &Env,
        strategy: &mut dyn Strategy,
        workers: &Workers,
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
                measured_on.map(|s| workers.devices[s]),
            );
            st.db_time += t0.elapsed();
            tracing::debug!(
                config = %cfg.key(),
                status = outcome.status.as_str(),
                median_ms = ?outcome.median_ms(),
                build_ms = ?outcome.build_ms,
                device = ?measured_on.map(|s| workers.devices[s]),
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
/// Errors: a located error of the spec, the database, or an interruption (the experiment is then
/// marked `interrupted`).
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
    let Settings { time_limit, .. } = *env.settings;
    // A done experiment rerun without `--more` (issue 25 G8) measures nothing new: its stored
    // rows are its result, replayed in the order they were recorded whatever strategy this run
    // names (a strategy's own order could begin with a configuration never measured).
    let replaying = env.new_rows == Some(0);
    let mut replay = replaying.then(|| stored_in_order(env));
    'search: loop {
        let batch = match replay.take() {
            Some(rows) => rows,
            None if replaying => break,
            None => strategy
                .propose(env.space, batch_size)
                .map_err(|d| located(env.text, env.path, d))?,
        };
        if batch.is_empty() {
            break;
        }
        prefetch(
            env,
            &batch,
            workers,
            env.new_rows.map(|l| l.saturating_sub(st.new_rows)),
        );
        // `--devices`: measure the batch's new variants on all devices at once, in the order the
        // loop below takes them, within the budget; the loop then records them in proposal order
        // as if measured there.
        let mut premeasured =
            if !workers.extra.is_empty() && time_limit.is_none_or(|t| start.elapsed() < t) {
                premeasure(env, &st, &batch, skeletons, workers)
            } else {
                HashMap::new()
            };
        for cand in batch {
            if let Some(signal) = orcl_measure::interrupt::requested() {
                return Err(st.interrupted(env, signal));
            }
            // The budget bounds new rows; stored rows are replayed and constraint rejections
            // (never rows) counted for free.
            let spent = env.new_rows.is_some_and(|l| st.new_rows >= l);
            let new_row = cand.violated.is_none() && !env.stored.contains_key(&cand.config.key());
            if spent && new_row {
                break 'search;
            }
            if let Some(t) = time_limit.filter(|&t| start.elapsed() >= t) {
                if st.evaluations.is_empty() {
                    st.stopped = Some(format!(
                        "the time limit ({}) ran out before any configuration was measured; raise --time-limit",
                        humantime_secs(t)
                    ));
                }
                break 'search;
            }
            if let Some(limit) = env.max_idle.filter(|&l| st.idle >= l) {
                st.stopped = Some(st.idle_stop_message(limit, env.space.size()));
                break 'search;
            }
            st.proposals += 1;
            let stored_row = env.stored.get(&cand.config.key());
            if stored_row.is_none() && cand.violated.is_some() {
                // Never built and never stored: a count, not a row.
                st.rejected += 1;
                st.idle += 1;
                continue;
            }
            let measured_before = st.measured;
            let (outcome, was_stored, kernel_hash, measured_on) = match stored_row {
                Some(row) => (outcome_from_row(row), true, row.kernel_hash.clone(), None),
                None => {
                    let (o, h, on) =
                        evaluate(env, &mut st, &cand, &mut premeasured, skeletons, workers)?;
                    (o, false, h, on)
                }
            };
            // A measurement, or one recorded by an earlier run, is progress; a constraint,
            // device limit, identical kernel or generation error is not.
            if st.measured > measured_before || (was_stored && outcome.status != Status::Constraint)
            {
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
                workers,
                cand,
                outcome,
                was_stored,
                kernel_hash,
                measured_on,
            )?;
            show_progress(bar, &st, workers);
        }
    }
    if !replaying {
        // A replay proposes only the stored rows: the counts of the runs that searched stay.
        st.save_counts(env.db, env.experiment_id)?;
    }
    Ok(st)
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
fn show_progress(bar: &indicatif::ProgressBar, st: &SearchState, workers: &Workers) {
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
        workers.runner.build_counts(),
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

/// Hands the batch's new kernels to the build pool before the first is measured, no more than
/// the budget (`--total-runs`) has left (`left`).
fn prefetch(env: &Env, batch: &[Candidate], workers: &Workers, left: Option<u64>) {
    let new = batch
        .iter()
        .filter(|c| c.violated.is_none() && !env.stored.contains_key(&c.config.key()));
    for cand in new.take(left.map_or(usize::MAX, |l| l as usize)) {
        if let Ok(v) = variant_for(
            env.p,
            env.space,
            &cand.config,
            env.opts,
            fault_for(&cand.config, env.fault),
        ) {
            if device_limit(&v, env.dev).is_none() {
                workers.runner.prefetch(&v);
            }
        }
    }
}

/// `--devices`: measures the batch's new, distinct, buildable variants on every device at once
/// (within `--total-runs`); returns each variant key's outcome and measuring device.
fn premeasure(
    env: &Env,
    st: &SearchState,
    batch: &[Candidate],
    skeletons: &mut Skeletons,
    workers: &mut Workers,
) -> HashMap<String, (Outcome, usize)> {
    let left = env.new_rows.map(|t| t.saturating_sub(st.new_rows));
    let mut jobs_q: Vec<(String, orcl_codegen::Variant, PathBuf)> = Vec::new();
    for cand in batch.iter().filter(|c| c.violated.is_none()) {
        if left.is_some_and(|l| jobs_q.len() as u64 >= l) {
            break;
        }
        if env.stored.contains_key(&cand.config.key()) {
            continue;
        }
        let f = fault_for(&cand.config, env.fault);
        let (Ok(v), Ok(plan)) = (
            variant_for(env.p, env.space, &cand.config, env.opts, f),
            skeletons.plan_for(env.space, &cand.config),
        ) else {
            continue;
        };
        let vkey = variant_key(&v, &plan);
        if device_limit(&v, env.dev).is_some()
            || st.by_variant.contains_key(&vkey)
            || jobs_q.iter().any(|(k, _, _)| k == &vkey)
        {
            continue;
        }
        if let Ok(exe) = skeletons.exe(&plan) {
            jobs_q.push((vkey, v, exe));
        }
    }
    let mut all: Vec<(usize, usize, &mut orcl_measure::Runner)> =
        vec![(0, workers.devices[0], &mut workers.runner)];
    all.extend(
        workers
            .extra
            .iter_mut()
            .enumerate()
            .map(|(i, (d, r))| (i + 1, *d, r)),
    );
    measure_on_devices(all, jobs_q, env.total, workers.slurm)
}

/// Evaluates one proposal that is not in the database: generates its variant, and either
/// records why it cannot run (generation error, device limit, skeleton build failure), reuses
/// the outcome of an identical variant, takes its `--devices` measurement, or measures it on the
/// first device. Returns the outcome, the kernel hash and the measuring `--devices` device.
fn evaluate(
    env: &Env,
    st: &mut SearchState,
    cand: &Candidate,
    premeasured: &mut HashMap<String, (Outcome, usize)>,
    skeletons: &mut Skeletons,
    workers: &mut Workers,
) -> Result<(Outcome, Option<String>, Option<usize>), TuneError> {
    let cfg = &cand.config;
    let v = match variant_for(env.p, env.space, cfg, env.opts, fault_for(cfg, env.fault)) {
        Err(d) => {
            return Ok((
                Outcome::failure(Status::CompileError, d.message),
                None,
                None,
            ))
        }
        Ok(v) => v,
    };
    let plan = skeletons
        .plan_for(env.space, cfg)
        .map_err(|d| located(env.text, env.path, d))?;
    let vkey = variant_key(&v, &plan);
    let khash = Some(sha(&[&v.source])[..16].to_string());
    if let Some(msg) = device_limit(&v, env.dev) {
        return Ok((Outcome::failure(Status::DeviceLimit, msg), khash, None));
    }
    if let Some((o, on)) = st.by_variant.get(&vkey) {
        // The same kernel, options, NDRange and build as a configuration already measured.
        return Ok((o.clone(), khash, *on));
    }
    // The skeleton of this build plan, built when a variant first needs it (not for one that
    // cannot run on the device or was measured already).
    let exe = match skeletons.exe(&plan) {
        Err(msg) => return Ok((Outcome::failure(Status::CompileError, msg), khash, None)),
        Ok(exe) => exe,
    };
    let (o, measured_on) = match premeasured.remove(&vkey) {
        Some((o, d)) => (o, Some(d)),
        None => {
            workers.runner.use_skeleton(exe);
            if workers.slurm {
                // A Slurm worker that cannot start is the cluster's failure, not this
                // variant's: stop (resumable) rather than record it.
                workers.runner.worker(v.platform, v.device)?;
            }
            let mut o = measure_objective(&mut workers.runner, &v, env.total);
            if let Some(m) = workers.energy.as_mut() {
                m.measure(&mut workers.runner, &v, cfg, &mut o);
            }
            (o, (!workers.devices.is_empty()).then_some(0))
        }
    };
    st.measured += 1;
    if let Some(n) = measured_on.and_then(|s| st.per_worker.get_mut(s)) {
        *n += 1;
    }
    st.by_variant.insert(vkey, (o.clone(), measured_on));
    Ok((o, khash, measured_on))
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
