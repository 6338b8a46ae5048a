//! The stages of one experiment (issue 24): each is entered through [`Stages::run`], which
//! names it for the signal watchdog (`orcl_measure::interrupt`), logs its start and end with
//! `tracing` (`orcl tune -v`, `ORCL_LOG=debug`; nothing by default) and adds its wall time to
//! the run's timing summary, stored as the experiment's `stage_seconds` metadata (JSON: stage →
//! seconds, and `total`) and shown by `orcl db show`.
//!
//! Stages, in order: `discovery` (the device and its limits: OpenCL/CUDA driver calls),
//! `skeleton` (the first timing skeleton's build), `experiment` (the database row, resume),
//! `workers` (each worker's start: device context, input upload, reference outputs, the build
//! pool), `search` (kernel builds and measurements; `database` within it counts the rows'
//! writes), `finalists` (re-measurement), `database` (the run's metadata and final status).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The wall time of each stage of one experiment, in the order first entered.
#[derive(Debug, Default)]
pub(super) struct Stages {
    times: Vec<(&'static str, Duration)>,
}

impl Stages {
    /// Runs `f` as stage `name`: logged (info) when it starts and ends, timed, named for the
    /// watchdog (and paused there under `ORCL_TEST_PAUSE=name`, tests only).
    pub fn run<T>(&mut self, name: &'static str, f: impl FnOnce() -> T) -> T {
        orcl_measure::interrupt::enter_stage(name);
        tracing::info!(stage = name, "stage start");
        let t0 = Instant::now();
        let r = f();
        let took = t0.elapsed();
        tracing::info!(
            stage = name,
            seconds = format!("{:.3}", took.as_secs_f64()),
            "stage end"
        );
        self.add(name, took);
        r
    }

    /// Adds `took` to stage `name`.
    pub fn add(&mut self, name: &'static str, took: Duration) {
        match self.times.iter_mut().find(|(n, _)| *n == name) {
            Some((_, t)) => *t += took,
            None => self.times.push((name, took)),
        }
    }

    /// The `stage_seconds` metadata: `{"discovery": 0.012, ..., "total": 3.4}` (seconds, 3
    /// decimals), stages in the order first entered, `total` the experiment's wall time.
    pub fn json(&self, total: Duration) -> String {
        let mut m = serde_json::Map::new();
        for (n, t) in self.times.iter().chain([("total", total)].iter()) {
            let s = (t.as_secs_f64() * 1e3).round() / 1e3;
            m.insert(n.to_string(), serde_json::json!(s));
        }
        serde_json::Value::Object(m).to_string()
    }
}

/// Until [`release`]: should the signal watchdog end the process (a stage that did not stop
/// within `interrupt::GRACE`), experiment `id` of the database `db` is marked `interrupted`
/// first, through a connection of its own (the driver's may be mid-statement).
pub(super) fn guard_experiment(db: &Path, id: i64) {
    let db: PathBuf = db.to_path_buf();
    orcl_measure::interrupt::set_last_words(Some(Box::new(move |_signal| {
        mark_interrupted(&db, id)
            .map(|()| format!("experiment {id} marked `interrupted`"))
            .ok()
    })));
}

/// The experiment's run is over: the watchdog no longer marks it.
pub(super) fn release() {
    orcl_measure::interrupt::set_last_words(None);
}

/// `UPDATE experiment SET status = 'interrupted'` where it is still `running`.
fn mark_interrupted(db: &Path, id: i64) -> rusqlite::Result<()> {
    let conn = rusqlite::Connection::open(db)?;
    conn.busy_timeout(Duration::from_millis(400))?;
    conn.execute(
        "UPDATE experiment SET status = 'interrupted', finished_at = ?2 \
         WHERE id = ?1 AND status = 'running'",
        rusqlite::params![id, crate::db::now_utc()],
    )?;
    Ok(())
}
