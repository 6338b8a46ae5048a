//! Measuring workers launched through Slurm (`orcl tune --slurm`, issue 14 step 4).
//!
//! The controller (`orcl tune`) keeps the search and the database; each measuring worker is a
//! one-task Slurm job step, `srun ... orcl worker --skeleton PATH --platform P --device D`,
//! started where a local worker would be spawned (`Runner::worker`). srun forwards the step's
//! stdin and stdout, so the worker speaks the same line protocol as a local timing skeleton
//! (`worker.rs`): `orcl worker` prints one [`Preamble`] line (node, Slurm job and step) and then
//! starts the skeleton, whose hello line and replies go straight through srun to the controller
//! (its stdout is the step's). Requests come as `FILE ID PATH` lines, which `orcl worker`
//! replaces by the bytes of the file the controller wrote (see `Worker::spawn_command` for why:
//! srun's 1 KiB stdin messages cost about 40 ms per request otherwise); other lines (`QUIT`)
//! pass through.
//!
//! Assumptions (as on any cluster): the skeleton binary (under `ORCL_CACHE_DIR`) and the orcl
//! executable are on a filesystem that the controller and the compute nodes share, at the same
//! paths; a node that cannot see the skeleton answers `{"ready":false,...}` naming the path.
//!
//! A worker that dies (srun exits: the step was cancelled, the node failed, the skeleton crashed)
//! or hangs (no reply within the per-variant timeout: srun is killed and the step cancelled) is
//! handled exactly like a local one: the configuration it held is recorded as failed (`crash` or
//! `timeout`, with the step and node in the message), never retried, and the next variant starts a
//! new step.

use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How long a Slurm worker may take to start (hello line): srun waits in the queue until the
/// step (or, outside an allocation, its job) gets resources, which on a busy cluster takes hours;
/// orcl waits as long as srun does (bound it with srun's `SLURM_IMMEDIATE=SECONDS`) and stops
/// on SIGINT/SIGTERM. Local workers get 300 s.
pub const STARTUP: std::time::Duration = std::time::Duration::from_secs(7 * 24 * 3600);

/// How to launch measuring workers with srun (`orcl tune --slurm` and its options).
#[derive(Debug, Clone, PartialEq)]
pub struct Slurm {
    /// The srun executable (`--srun`; default `srun` on the PATH).
    pub srun: PathBuf,
    /// `--partition` for every worker step.
    pub partition: Option<String>,
    /// `--gpus-per-task` for every worker step (GPUs; each task then sees its GPU as device 0).
    pub gpus_per_task: Option<u32>,
    /// Measuring workers (one srun step each, one task per step; `--ntasks`). `None`: one per
    /// `--devices` entry, else the allocation's tasks (`SLURM_NTASKS`, inside sbatch/salloc),
    /// else 1.
    pub ntasks: Option<usize>,
    /// The orcl executable the compute nodes run (`orcl worker`); the controller's own path.
    pub orcl: PathBuf,
}

impl Slurm {
    /// Number of workers for a device selection of `listed` devices (0: no `--devices`).
    pub fn tasks(&self, listed: usize) -> usize {
        self.ntasks.unwrap_or_else(|| {
            if listed > 0 {
                listed
            } else {
                std::env::var("SLURM_NTASKS")
                    .ok()
                    .and_then(|n| n.trim().parse::<usize>().ok())
                    .filter(|&n| n > 0)
                    .unwrap_or(1)
            }
        })
    }

    /// The device each worker measures on: worker k takes `listed[k % len]` (`--devices`), or
    /// `default` (the experiment's device) when no devices were listed.
    pub fn task_devices(&self, listed: &[usize], default: usize) -> Vec<usize> {
        let n = self.tasks(listed.len());
        let base = if listed.is_empty() {
            vec![default]
        } else {
            listed.to_vec()
        };
        (0..n).map(|k| base[k % base.len()]).collect()
    }

    /// The command that starts one worker step for skeleton `exe` on (`platform`, `device`).
    /// Inside an allocation (`SLURM_JOB_ID` set, e.g. in an sbatch script) each step takes only
    /// the CPUs (and GPUs) it asks for (`--exact`), so the workers run side by side; outside one
    /// each srun is a job of its own. Further srun options come from srun's input environment
    /// (`SLURM_ACCOUNT`, `SLURM_TIMELIMIT`, `SLURM_MEM_PER_CPU`, ...).
    pub fn command(&self, exe: &Path, platform: usize, device: usize) -> Command {
        let mut c = Command::new(&self.srun);
        c.args(["--ntasks=1", "--nodes=1", "--unbuffered", "--quiet"])
            .arg(format!("--job-name=orcl-worker.{}", std::process::id()));
        if std::env::var_os("SLURM_JOB_ID").is_some() {
            c.arg("--exact");
        }
        if let Some(p) = &self.partition {
            c.arg(format!("--partition={p}"));
        }
        if let Some(g) = self.gpus_per_task {
            c.arg(format!("--gpus-per-task={g}"));
        }
        c.arg(&self.orcl)
            .arg("worker")
            .arg("--skeleton")
            .arg(exe)
            .arg("--platform")
            .arg(platform.to_string())
            .arg("--device")
            .arg(device.to_string());
        c
    }

    /// Check that srun can be run: a usage-level message when it cannot be found.
    pub fn check(&self) -> Result<(), String> {
        let found = if self.srun.components().count() > 1 {
            self.srun.is_file()
        } else {
            std::env::var_os("PATH")
                .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(&self.srun).is_file()))
        };
        if found {
            Ok(())
        } else {
            Err(format!(
                "--slurm: cannot find srun `{}`; install Slurm's client tools (Debian: slurm-client), or name it with --srun PATH",
                self.srun.display()
            ))
        }
    }
}

/// The first line `orcl worker` prints, before the skeleton's hello: where the worker runs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Preamble {
    /// orcl's version (the field that marks the line as a preamble).
    pub orcl_worker: String,
    /// The compute node's host name.
    pub host: String,
    /// `SLURM_JOB_ID` and `SLURM_STEP_ID` of the step (empty outside Slurm).
    #[serde(default)]
    pub slurm_job_id: String,
    #[serde(default)]
    pub slurm_step_id: String,
    /// The process id of `orcl worker` on its node (the skeleton is its child).
    pub pid: u32,
}

impl Preamble {
    /// `step J.S on HOST` (or `on HOST (pid P)` outside Slurm), for messages.
    pub fn describe(&self) -> String {
        if self.slurm_job_id.is_empty() {
            format!("on {} (pid {})", self.host, self.pid)
        } else {
            format!(
                "step {}.{} on {}",
                self.slurm_job_id, self.slurm_step_id, self.host
            )
        }
    }

    /// `J.S` for scancel; `None` outside Slurm.
    pub fn step(&self) -> Option<String> {
        (!self.slurm_job_id.is_empty())
            .then(|| format!("{}.{}", self.slurm_job_id, self.slurm_step_id))
    }
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// `orcl worker --skeleton PATH --platform P --device D`: print the [`Preamble`], start the
/// timing skeleton `PATH P D` with this process's stdout and stderr, and relay stdin to it,
/// replacing each `FILE ID PATH` line by the file's bytes (and removing the file). Returns the
/// exit code: the skeleton's (128 + signal when a signal ended it), or 3 after printing a hello
/// line with `ready: false` and the reason (no skeleton: no shared filesystem), which the
/// controller reports.
pub fn worker_main(skeleton: &Path, platform: usize, device: usize) -> i32 {
    // The Slurm node's name (several slurmd of one host have their own, issue 24), else the host.
    let host = std::env::var("SLURMD_NODENAME")
        .ok()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(hostname);
    let pre = Preamble {
        orcl_worker: env!("CARGO_PKG_VERSION").into(),
        host: host.clone(),
        slurm_job_id: std::env::var("SLURM_JOB_ID").unwrap_or_default(),
        slurm_step_id: std::env::var("SLURM_STEP_ID").unwrap_or_default(),
        pid: std::process::id(),
    };
    let mut out = std::io::stdout().lock();
    let line = serde_json::to_string(&pre).unwrap_or_default();
    let _ = writeln!(out, "{line}");
    let fail = |out: &mut std::io::StdoutLock, why: String| {
        let hello = serde_json::json!({"ready": false, "error": why});
        let _ = writeln!(out, "{hello}");
        let _ = out.flush();
        eprintln!("orcl worker: {why}");
        3
    };
    if !skeleton.is_file() {
        return fail(
            &mut out,
            format!(
                "the timing skeleton {} does not exist on node {host}: orcl tune --slurm needs a filesystem shared by the controller and the compute nodes; set ORCL_CACHE_DIR to a directory on it",
                skeleton.display()
            ),
        );
    }
    let _ = out.flush();
    let mut cmd = Command::new(skeleton);
    cmd.arg(platform.to_string())
        .arg(device.to_string())
        .stdin(std::process::Stdio::piped());
    // The skeleton dies with this process (a cancelled step kills both anyway).
    crate::interrupt::tie_to_parent(&mut cmd, false);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return fail(
                &mut out,
                format!(
                    "cannot run the timing skeleton {} on node {host}: {e}",
                    skeleton.display()
                ),
            )
        }
    };
    drop(out);
    let to_skeleton = child.stdin.take().expect("piped stdin");
    std::thread::spawn(move || {
        if let Err(e) = relay(std::io::stdin().lock(), to_skeleton) {
            eprintln!("orcl worker on {host}: {e}");
            crate::interrupt::exiting_normally();
            std::process::exit(3);
        }
    });
    match child.wait() {
        Ok(st) => {
            use std::os::unix::process::ExitStatusExt;
            st.code().unwrap_or_else(|| 128 + st.signal().unwrap_or(0))
        }
        Err(_) => 3,
    }
}

/// Copy the request lines of `input` to the skeleton's stdin, a `FILE ID PATH` line replaced
/// by the bytes of PATH (removed once read). Ends at end of input (closing the skeleton's stdin,
/// so it exits) or when the skeleton is gone. Errors: a request file that cannot be read.
fn relay(mut input: impl std::io::BufRead, mut to: impl Write) -> Result<(), String> {
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return Ok(()),
            Ok(_) => {}
        }
        let bytes = match line.strip_prefix(b"FILE ") {
            Some(rest) => {
                let rest = String::from_utf8_lossy(rest);
                let path = rest.trim_end().split_once(' ').map(|x| x.1).unwrap_or("");
                let bytes = std::fs::read(path).map_err(|e| {
                    format!("cannot read the request file {path}: {e}; orcl tune --slurm needs a filesystem shared by the controller and the compute nodes")
                })?;
                let _ = std::fs::remove_file(path);
                bytes
            }
            None => line.clone(),
        };
        if to.write_all(&bytes).and_then(|_| to.flush()).is_err() {
            return Ok(());
        }
    }
}

/// Where `orcl worker` would find its skeleton: the path as given (absolute paths only, since
/// the step's working directory is the controller's only on a shared filesystem).
pub fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slurm(ntasks: Option<usize>) -> Slurm {
        Slurm {
            srun: "srun".into(),
            partition: Some("gpu".into()),
            gpus_per_task: Some(1),
            ntasks,
            orcl: "/opt/orcl".into(),
        }
    }

    #[test]
    fn tasks_cycle_over_the_devices() {
        assert_eq!(slurm(None).task_devices(&[3], 0), vec![3]);
        assert_eq!(slurm(None).task_devices(&[0, 1], 0), vec![0, 1]);
        assert_eq!(slurm(Some(3)).task_devices(&[], 2), vec![2, 2, 2]);
        assert_eq!(slurm(Some(3)).task_devices(&[0, 1], 0), vec![0, 1, 0]);
    }

    #[test]
    fn the_command_names_the_options_and_the_worker() {
        let c = slurm(None).command(Path::new("/shared/sk"), 1, 2);
        let args: Vec<String> = c
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(c.get_program(), "srun");
        for want in [
            "--ntasks=1",
            "--partition=gpu",
            "--gpus-per-task=1",
            "/opt/orcl",
        ] {
            assert!(args.contains(&want.to_string()), "{args:?}");
        }
        let tail = &args[args.len() - 7..];
        assert_eq!(
            tail,
            [
                "worker",
                "--skeleton",
                "/shared/sk",
                "--platform",
                "1",
                "--device",
                "2"
            ]
        );
    }

    #[test]
    fn preamble_round_trips_and_describes_the_step() {
        let p = Preamble {
            orcl_worker: "0.1".into(),
            host: "n01".into(),
            slurm_job_id: "12".into(),
            slurm_step_id: "3".into(),
            pid: 7,
        };
        let back: Preamble = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
        assert_eq!(back, p);
        assert_eq!(p.describe(), "step 12.3 on n01");
        assert_eq!(p.step().as_deref(), Some("12.3"));
        // A skeleton's hello line is not a preamble.
        assert!(serde_json::from_str::<Preamble>(r#"{"ready":true,"platform":"x"}"#).is_err());
    }

    #[test]
    fn relay_replaces_file_lines_and_passes_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let req = dir.path().join("1.req");
        // A request with a binary body holding a newline and a `FILE ` look-alike.
        std::fs::write(&req, b"BIN 1 2\n\x00\nFILE x\xff").unwrap();
        let input = format!("FILE 1 {}\nQUIT\n", req.display());
        let mut out = Vec::new();
        relay(input.as_bytes(), &mut out).unwrap();
        assert_eq!(out, b"BIN 1 2\n\x00\nFILE x\xffQUIT\n");
        assert!(!req.exists(), "the request file was left behind");
        let e = relay("FILE 2 /nonexistent/2.req\n".as_bytes(), &mut out).unwrap_err();
        assert!(
            e.contains("/nonexistent/2.req") && e.contains("shared"),
            "{e}"
        );
    }

    #[test]
    fn a_missing_srun_is_reported() {
        let mut s = slurm(None);
        s.srun = "/nonexistent/srun".into();
        let e = s.check().unwrap_err();
        assert!(e.contains("--srun PATH"), "{e}");
    }
}
