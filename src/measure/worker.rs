//! A timing-skeleton worker process: spawned once per (skeleton, device), fed variants on stdin,
//! answering one JSON line each on stdout. A crash or a timeout kills only this process.

use serde::Deserialize;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

pub use super::slurm::Preamble;

/// The skeleton's first line.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Hello {
    pub ready: bool,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub platform: String,
    #[serde(default)]
    pub device: String,
    /// Iterations of the parallel loop at this input size.
    #[serde(default)]
    pub trip: i64,
    /// Where the outputs are validated: `device` (comparison kernels) or `host` (read back whole).
    #[serde(default)]
    pub validation: String,
    /// Why not on the device, when `validation` is `host`.
    #[serde(default)]
    pub validation_note: String,
    /// Bytes copied host-to-device at start-up: every array once, and the reference outputs for
    /// validation on the device.
    #[serde(default)]
    pub setup_h2d_bytes: u64,
    /// Bytes copied device-to-host at start-up: the written arrays once, to time the copies out.
    #[serde(default)]
    pub setup_d2h_bytes: u64,
    /// The host↔device copies of one call of the tuned code (every array in, the written ones
    /// out), timed once at start-up (ms).
    #[serde(default)]
    pub transfer_ms: f64,
}

/// The skeleton's answer to one variant.
#[derive(Debug, Clone, Deserialize)]
pub struct Reply {
    pub id: i64,
    /// `ok`, `compile_error`, `launch_error` or `wrong_result`.
    pub status: String,
    /// Kernel build time (ms); 0 when the build was cached.
    pub build_ms: f64,
    /// Kernel time per timed repetition (ms, from profiling events).
    pub kernel_ms: Vec<f64>,
    /// The host↔device copies of one call of the tuned code (every array in, the written ones
    /// out), ms: timed once when the worker started (CUDA `-orcl-total`: those of the validation
    /// run). Not a copy this request made.
    pub transfer_ms: f64,
    pub max_error: Option<f64>,
    pub message: String,
    /// Bytes copied host-to-device while answering this request (resets of written arrays from
    /// the host where no pristine device copy fits, `-orcl-total` copies, re-uploads after a wrong
    /// result).
    #[serde(default)]
    pub h2d_bytes: u64,
    /// Bytes copied device-to-host while answering this request (reduction partials, the
    /// comparison's results and a mismatching element, or whole outputs under host validation).
    #[serde(default)]
    pub d2h_bytes: u64,
}

/// The skeleton's line between building a variant's kernel and running it.
#[derive(Debug, Clone, Deserialize)]
struct Built {
    id: i64,
    /// Build (or load) time of the kernel (ms); 0 when it was cached.
    built_ms: f64,
}

/// One variant to run.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub id: i64,
    pub source: &'a str,
    pub options: &'a str,
    /// Global size in work-items; 0 = one per iteration rounded up to the local size.
    pub global: u64,
    pub local: u64,
    /// A multi-dimensional NDRange (`orcl_codegen::Grid::numbers`), appended to the request line.
    pub grid: Option<[u64; 10]>,
    /// A region holding a time loop: the launch of each kernel after the first (global size,
    /// local size, grid numbers), sent as one `PART` line each after the request line.
    pub parts: Vec<(u64, u64, [u64; 10])>,
    pub warmups: u32,
    pub repetitions: u32,
    /// A program binary built by the build pool (its cache key, its bytes): sent instead of the
    /// source (`BIN` request), the worker only loads it.
    pub binary: Option<(&'a str, &'a [u8])>,
}

/// Why a worker produced no reply.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkerFailure {
    /// The process died (signal or exit) while running the variant.
    Crash(String),
    /// No reply within the timeout after the kernel was built; the process was killed.
    Timeout(Duration),
    /// The kernel was not built within this limit (`--build-timeout` plus the timeout); the
    /// process was killed.
    BuildTimeout(Duration),
    /// orcl received SIGINT/SIGTERM while waiting; the process was killed.
    Interrupted(i32),
}

pub struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<StderrTail>,
    pub hello: Hello,
    /// Where the worker runs (`orcl worker`'s first line; `None` for a local skeleton).
    pub preamble: Option<Preamble>,
    /// `--slurm`: the process is srun, and requests go through files in this directory (see
    /// [`Worker::spawn_command`]); `None`: a local skeleton.
    spool: Option<std::path::PathBuf>,
}

/// Errors starting a worker.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("cannot start the timing skeleton {path}: {error}")]
    Spawn { path: String, error: std::io::Error },
    #[error("the timing skeleton did not start: {0}")]
    NotReady(String),
}

/// The last 8 to 16 KiB of a worker's stderr, collected by a thread of its own until the pipe's
/// end of file.
#[derive(Default)]
struct StderrTail {
    /// (the text, end of file seen).
    text: Mutex<(String, bool)>,
    eof: Condvar,
}

/// How long [`StderrTail::after_exit`] waits for the end of the stderr pipe of a process that has
/// exited: it comes at once unless another process still holds the pipe (something the worker
/// started); then the tail is what has arrived.
const STDERR_EOF_WAIT: Duration = Duration::from_millis(250);

impl StderrTail {
    /// Read `pipe` to its end, keeping the tail; then mark the end and wake [`Self::after_exit`].
    fn collect(&self, pipe: &mut impl Read) {
        let mut buf = [0u8; 4096];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            let mut t = self.text.lock().unwrap_or_else(|e| e.into_inner());
            let s = &mut t.0;
            s.push_str(&String::from_utf8_lossy(&buf[..n]));
            if s.len() > 16384 {
                let cut = s.len() - 8192;
                let cut = (cut..s.len()).find(|&i| s.is_char_boundary(i)).unwrap_or(0);
                s.drain(..cut);
            }
        }
        self.text.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        self.eof.notify_all();
    }

    /// The last 2,000 characters, trimmed, of the stderr of a process that has exited (waited
    /// for): once everything it wrote has been read — the pipe's end of file, waited for on
    /// the condition variable, up to [`STDERR_EOF_WAIT`].
    fn after_exit(&self) -> String {
        let t = self.text.lock().unwrap_or_else(|e| e.into_inner());
        let (t, _) = self
            .eof
            .wait_timeout_while(t, STDERR_EOF_WAIT, |t| !t.1)
            .unwrap_or_else(|e| e.into_inner());
        let tail: Vec<char> = t.0.trim().chars().rev().take(2000).collect();
        tail.into_iter().rev().collect()
    }
}

impl Worker {
    /// Start `exe PLATFORM DEVICE` and wait (up to `startup`) for its hello line.
    pub fn spawn(
        exe: &Path,
        platform: usize,
        device: usize,
        startup: Duration,
    ) -> Result<Worker, SpawnError> {
        let mut cmd = Command::new(exe);
        cmd.arg(platform.to_string()).arg(device.to_string());
        Worker::spawn_command(cmd, &exe.display().to_string(), startup, None)
    }

    /// Start `cmd` (a skeleton, or `srun ... orcl worker ...` under `--slurm`) with piped stdio
    /// and wait (up to `startup`) for its hello line; a [`Preamble`] line before it (printed by
    /// `orcl worker`) is kept in [`Worker::preamble`]. `what` names the program in errors.
    /// `spool`: the process is srun (`--slurm`), stopped with SIGTERM first (a pending job is
    /// then revoked and a running step killed by Slurm), SIGKILL after 2 s; each request is
    /// written to a file in `spool` (on the shared filesystem) and only `FILE ID PATH` goes
    /// through srun, which `orcl worker` replaces by the file's bytes. srun forwards stdin in
    /// messages of at most 1 KiB, and a request of several (a kernel's source, a program binary)
    /// waited about 40 ms in TCP (Nagle's algorithm against delayed ACKs) between srun and
    /// slurmstepd, per variant (docs/THROUGHPUT.md).
    pub fn spawn_command(
        mut cmd: Command,
        what: &str,
        startup: Duration,
        spool: Option<std::path::PathBuf>,
    ) -> Result<Worker, SpawnError> {
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // A hung variant must not outlive orcl (issue 15 F6), whichever thread starts it.
        let mut child =
            crate::interrupt::spawn_tied(cmd, false).map_err(|error| SpawnError::Spawn {
                path: what.to_string(),
                error,
            })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr_pipe = child.stderr.take().expect("piped stderr");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let stderr = Arc::new(StderrTail::default());
        let sink = stderr.clone();
        std::thread::spawn(move || sink.collect(&mut stderr_pipe));
        let mut w = Worker {
            child,
            stdin,
            lines,
            stderr,
            hello: Hello::default(),
            preamble: None,
            spool,
        };
        let deadline = std::time::Instant::now() + startup;
        let mut first = w.line_before(deadline);
        if let Some(pre) = first
            .as_ref()
            .ok()
            .and_then(|l| serde_json::from_str::<Preamble>(l).ok())
        {
            w.preamble = Some(pre);
            first = w.line_before(deadline);
        }
        match first {
            Ok(line) => {
                let hello: Hello = serde_json::from_str(&line)
                    .map_err(|e| SpawnError::NotReady(format!("bad hello line `{line}`: {e}")))?;
                if !hello.ready {
                    w.kill();
                    return Err(SpawnError::NotReady(
                        hello.error.unwrap_or_else(|| "unknown error".into()),
                    ));
                }
                w.hello = hello;
                Ok(w)
            }
            Err(_) => {
                w.kill();
                let status = w
                    .child
                    .wait()
                    .ok()
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                Err(SpawnError::NotReady(format!(
                    "no hello line ({status}); stderr: {}",
                    w.stderr.after_exit()
                )))
            }
        }
    }

    /// The next stdout line, waited for until `deadline` in slices, so that SIGINT/SIGTERM stops
    /// the wait (a Slurm worker may wait in the queue for long).
    fn line_before(&self, deadline: std::time::Instant) -> Result<String, RecvTimeoutError> {
        loop {
            if crate::interrupt::requested().is_some() {
                return Err(RecvTimeoutError::Timeout);
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self
                .lines
                .recv_timeout(left.min(Duration::from_millis(100)))
            {
                Err(RecvTimeoutError::Timeout) if !left.is_zero() => continue,
                other => return other,
            }
        }
    }

    /// Run one variant. On a crash or a timeout the process is dead afterwards (drop it).
    /// `timeout` bounds the run (from the skeleton's `built` line to its reply, plus the build
    /// time it reports, for the JIT that PoCL does at the first launch); `build_limit` bounds the
    /// kernel's build (from the request to the `built` line). Under load a build slows down as
    /// much as the machine is shared, so it no longer eats the variant's timeout (issue 25, G18).
    pub fn run(
        &mut self,
        req: &Request,
        timeout: Duration,
        build_limit: Duration,
    ) -> Result<Reply, WorkerFailure> {
        self.run_with(req, (timeout, build_limit), None)
    }

    /// Run one variant with an energy window (an `NRG` line before the request; docs/ENERGY.md):
    /// when the worker says its timed calls begin, `counter` is read at its next update
    /// ([`EnergyCounter::tick`](crate::energy::EnergyCounter::tick)) and the worker told `GO`;
    /// when it has made `req.repetitions` calls it says so and goes on calling until the counter's
    /// next update, read then, and `STOP`. Returns the reply and (the counter's difference, mJ;
    /// the wall time between the two readings, ms; the calls in that time, the last one counted
    /// in part); `None` when the worker sent no window (a failed variant). `req.warmups` must be
    /// at least 1 (the window then never holds the validation run). `timeout` and `build_limit`
    /// as for [`Worker::run`].
    pub fn run_energy(
        &mut self,
        req: &Request,
        (timeout, build_limit): (Duration, Duration),
        counter: &mut dyn crate::energy::EnergyCounter,
    ) -> Result<(Reply, Option<Window>), WorkerFailure> {
        let mut probe = Probe {
            counter,
            begin: None,
            min: None,
            result: None,
        };
        let r = self.run_with(req, (timeout, build_limit), Some(&mut probe))?;
        Ok((r, probe.result))
    }

    fn run_with(
        &mut self,
        req: &Request,
        (timeout, build_limit): (Duration, Duration),
        probe: Option<&mut Probe>,
    ) -> Result<Reply, WorkerFailure> {
        let grid = req
            .grid
            .map(|g| g.iter().map(|x| format!(" {x}")).collect::<String>())
            .unwrap_or_default();
        let (header, body): (String, [&[u8]; 3]) = match req.binary {
            None => (
                format!(
                    "RUN {} {} {} {} {} {} {}{grid}\n",
                    req.id,
                    req.global,
                    req.local,
                    req.source.len(),
                    req.options.len(),
                    req.warmups,
                    req.repetitions
                ),
                [req.source.as_bytes(), req.options.as_bytes(), &[]],
            ),
            Some((key, bin)) => (
                format!(
                    "BIN {} {} {} {} {} {} {} {}{grid}\n",
                    req.id,
                    req.global,
                    req.local,
                    key.len(),
                    bin.len(),
                    req.options.len(),
                    req.warmups,
                    req.repetitions
                ),
                [key.as_bytes(), bin, req.options.as_bytes()],
            ),
        };
        let mut header = if probe.is_some() {
            format!("NRG\n{header}")
        } else {
            header
        };
        for (global, local, g) in &req.parts {
            header.push_str(&format!("PART {global} {local}"));
            g.iter().for_each(|x| header.push_str(&format!(" {x}")));
            header.push('\n');
        }
        // `--slurm`: the request goes through a file (see `spawn_command`).
        let file = self.spool.as_ref().map(|d| {
            d.join(format!(
                "{}-{}-{}.req",
                std::process::id(),
                self.child.id(),
                req.id
            ))
        });
        let sent = match &file {
            None => self
                .stdin
                .write_all(header.as_bytes())
                .and_then(|_| body.iter().try_for_each(|b| self.stdin.write_all(b)))
                .and_then(|_| self.stdin.flush()),
            Some(f) => {
                let mut bytes = header.into_bytes();
                body.iter().for_each(|b| bytes.extend_from_slice(b));
                let line = format!("FILE {} {}\n", req.id, f.display());
                std::fs::create_dir_all(f.parent().unwrap_or(f))
                    .and_then(|_| std::fs::write(f, &bytes))
                    .and_then(|_| self.stdin.write_all(line.as_bytes()))
                    .and_then(|_| self.stdin.flush())
            }
        };
        let result = if sent.is_err() {
            Err(self.crashed())
        } else {
            self.reply(req, (timeout, build_limit), probe)
        };
        if let Some(f) = &file {
            // `orcl worker` removes it once read; this covers a worker that died first.
            let _ = std::fs::remove_file(f);
        }
        result
    }

    /// Wait for the reply to `req`: up to `build_limit + timeout` for the `built` line (a
    /// skeleton that sends none is timed as a whole), then up to `timeout` plus the reported build
    /// time for the reply.
    fn reply(
        &mut self,
        req: &Request,
        (timeout, build_limit): (Duration, Duration),
        mut probe: Option<&mut Probe>,
    ) -> Result<Reply, WorkerFailure> {
        let now = std::time::Instant::now;
        let mut deadline = now() + build_limit + timeout;
        let mut building = true;
        loop {
            // Waited in slices so that SIGINT/SIGTERM stops a hung variant at once.
            if let Some(sig) = crate::interrupt::requested() {
                self.kill();
                return Err(WorkerFailure::Interrupted(sig));
            }
            let left = deadline.saturating_duration_since(now());
            match self
                .lines
                .recv_timeout(left.min(Duration::from_millis(100)))
            {
                Err(RecvTimeoutError::Timeout) if !left.is_zero() => continue,
                Ok(line) => {
                    if let Some(p) = probe.as_deref_mut() {
                        if let Ok(m) = serde_json::from_str::<Mark>(&line) {
                            if m.id == req.id {
                                let answer = p.mark(&m);
                                if self
                                    .stdin
                                    .write_all(answer)
                                    .and_then(|_| self.stdin.flush())
                                    .is_err()
                                {
                                    return Err(self.crashed());
                                }
                            }
                            continue;
                        }
                    }
                    if let Ok(r) = serde_json::from_str::<Reply>(&line) {
                        if r.id == req.id {
                            return Ok(r);
                        }
                    } else if let Ok(b) = serde_json::from_str::<Built>(&line) {
                        if b.id == req.id && building {
                            building = false;
                            let jit = Duration::from_secs_f64(b.built_ms.clamp(0.0, 1e9) / 1e3);
                            deadline = now() + timeout + jit;
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(if building {
                        WorkerFailure::BuildTimeout(build_limit + timeout)
                    } else {
                        WorkerFailure::Timeout(timeout)
                    });
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
            }
        }
    }

    fn crashed(&mut self) -> WorkerFailure {
        let status = match self.child.wait() {
            Ok(s) => describe_status(s),
            Err(e) => e.to_string(),
        };
        let tail = self.stderr.after_exit();
        // Under --slurm the process is srun: say which step on which node it was.
        let status = match &self.preamble {
            Some(p) => format!(
                "{status} (the Slurm worker, {}, through srun)",
                p.describe()
            ),
            None => status,
        };
        WorkerFailure::Crash(if tail.is_empty() {
            status
        } else {
            format!("{status}; stderr: {tail}")
        })
    }

    /// Whether the worker process is still running (a worker that died between variants, e.g.
    /// a cancelled Slurm step, is replaced before the next variant rather than blamed for it).
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    fn kill(&mut self) {
        if self.spool.is_some() {
            // SIGTERM: srun revokes a pending job or has Slurm kill the running step.
            unsafe {
                libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM);
            }
            for _ in 0..200 {
                if let Ok(Some(_)) = self.child.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Killing srun ends its step; cancel it too, in case the node did not hear of it (a
        // hung variant). Not waited for: scancel must not stall the tune.
        if let Some(step) = self.preamble.as_ref().and_then(Preamble::step) {
            if let Ok(mut c) = Command::new("scancel")
                .args(["--quiet", &step])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
            {
                std::thread::spawn(move || c.wait());
            }
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"QUIT\n");
        let _ = self.stdin.flush();
        // Give it a moment to exit cleanly, then make sure it is gone.
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }
}

/// An energy window as read: (the counter's difference, mJ; the wall time between the two
/// readings, ms; the calls in that time), or why the counter could not be read.
pub type Window = Result<(f64, f64, f64), String>;

/// A worker's energy-window line (skeleton_reply.c.tera): `begin` (then it waits for `GO`),
/// `min` (the minimum calls made; it goes on calling until `STOP`), `end` (after `STOP`, with the
/// calls made: `calls` + `extra` after the minimum, the last one ending at `t_end`; `t_min`: when
/// the minimum was reached; monotonic ms; then it waits for `GO`).
#[derive(Deserialize)]
struct Mark {
    energy: String,
    id: i64,
    #[serde(default)]
    calls: f64,
    #[serde(default)]
    extra: f64,
    #[serde(default)]
    t_min: f64,
    #[serde(default)]
    t_end: f64,
}

/// The counter of an energy window and its readings so far: (monotonic ms, mJ) at the begin
/// and at the counter's update after the minimum.
struct Probe<'a> {
    counter: &'a mut dyn crate::energy::EnergyCounter,
    begin: Option<(f64, f64)>,
    min: Option<(f64, f64)>,
    result: Option<Window>,
}

impl Probe<'_> {
    fn read(&mut self) -> Option<(f64, f64)> {
        match self.counter.tick() {
            Ok(mj) => Some((crate::energy::monotonic_ms(), mj)),
            Err(e) => {
                self.result = Some(Err(e));
                None
            }
        }
    }

    /// Reads the counter at a mark; returns the line to answer.
    fn mark(&mut self, m: &Mark) -> &'static [u8] {
        match m.energy.as_str() {
            "begin" => {
                self.begin = self.read();
                b"GO\n"
            }
            "min" => {
                self.min = self.read();
                b"STOP\n"
            }
            _ => {
                if let (Some((t0, e0)), Some((t1, e1)), None) = (self.begin, self.min, &self.result)
                {
                    // The calls after the minimum, as many as ended by the reading (the one
                    // running then in part, calls taken as equally long).
                    let span = m.t_end - m.t_min;
                    let part = if m.extra > 0.0 && span > 0.0 {
                        (m.extra * (t1 - m.t_min) / span).clamp(0.0, m.extra)
                    } else {
                        0.0
                    };
                    self.result = Some(Ok((e1 - e0, t1 - t0, m.calls + part)));
                }
                b"GO\n"
            }
        }
    }
}

fn describe_status(s: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match s.signal() {
        Some(sig) => {
            let name = match sig {
                4 => "SIGILL",
                6 => "SIGABRT",
                7 => "SIGBUS",
                8 => "SIGFPE",
                9 => "SIGKILL",
                11 => "SIGSEGV",
                _ => "signal",
            };
            format!("the worker process died of signal {sig} ({name})")
        }
        None => format!("the worker process exited with {s}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stderr tail of a process that has exited holds the last thing it wrote, however
    /// much came before (the pipe is read to its end first), and keeps only the last 2,000
    /// characters.
    #[test]
    fn the_stderr_tail_ends_with_the_last_words() {
        let mut child = Command::new("sh")
            .args([
                "-c",
                "head -c 1000000 /dev/zero | tr '\\0' x >&2; echo last words >&2; exit 3",
            ])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut pipe = child.stderr.take().unwrap();
        let tail = Arc::new(StderrTail::default());
        let sink = tail.clone();
        std::thread::spawn(move || sink.collect(&mut pipe));
        assert_eq!(child.wait().unwrap().code(), Some(3));
        let t = tail.after_exit();
        assert!(
            t.ends_with("xxxlast words"),
            "{:?}",
            &t[t.len().saturating_sub(40)..]
        );
        assert_eq!(t.chars().count(), 2000);
    }

    /// A stand-in skeleton that takes `build_s` seconds to "build" each kernel, then sends its
    /// `built` line, then answers (or, `hang`, never answers).
    fn slow_builder(dir: &Path, build_s: f64, hang: bool) -> std::path::PathBuf {
        let exe = dir.join("slow.sh");
        let after = if hang {
            "exec sleep 1000".to_string()
        } else {
            r#"printf '{"id":%s,"status":"ok","build_ms":1,"kernel_ms":[1.5],"transfer_ms":0,"max_error":0,"message":""}\n' "$id""#.to_string()
        };
        std::fs::write(
            &exe,
            format!(
                r#"#!/bin/sh
echo '{{"ready":true,"platform":"p","device":"d"}}'
while read -r kind id g l a b c d e rest; do
  [ "$kind" = QUIT ] && exit 0
  head -c $((a + b)) > /dev/null
  sleep {build_s}
  printf '{{"id":%s,"built_ms":1}}\n' "$id"
  {after}
done
"#
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        exe
    }

    fn request(id: i64) -> Request<'static> {
        Request {
            id,
            source: "__kernel void k() {}\n",
            options: "",
            global: 0,
            local: 64,
            grid: None,
            parts: Vec::new(),
            warmups: 0,
            repetitions: 1,
            binary: None,
        }
    }

    /// G18: a kernel whose build takes longer than the variant's timeout (a JIT build on a loaded
    /// machine) is not a timeout: the timeout starts at the skeleton's `built` line.
    #[test]
    fn a_slow_build_does_not_eat_the_timeout() {
        let dir = tempfile::tempdir().unwrap();
        let exe = slow_builder(dir.path(), 1.5, false);
        let mut w = Worker::spawn(&exe, 0, 0, Duration::from_secs(10)).unwrap();
        let r = w.run(
            &request(3),
            Duration::from_millis(300),
            Duration::from_secs(120),
        );
        assert_eq!(r.map(|r| (r.id, r.status)), Ok((3, "ok".to_string())));
    }

    /// G18: a kernel that hangs after it was built is cut as a run timeout (not a build one).
    #[test]
    fn a_hang_after_the_build_is_a_run_timeout() {
        let dir = tempfile::tempdir().unwrap();
        let exe = slow_builder(dir.path(), 0.0, true);
        let mut w = Worker::spawn(&exe, 0, 0, Duration::from_secs(10)).unwrap();
        let r = w.run(
            &request(4),
            Duration::from_millis(300),
            Duration::from_secs(120),
        );
        assert_eq!(
            r.map(|r| r.id),
            Err(WorkerFailure::Timeout(Duration::from_millis(300)))
        );
    }

    /// The request bytes a skeleton reads (both skeletons parse the same `RUN`/`BIN` headers):
    /// a stand-in skeleton (a shell script, not a mock of a device) keeps the header line and
    /// the body it read, and answers.
    #[test]
    fn run_and_bin_requests_carry_sizes_then_bodies() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("skel.sh");
        let rec = dir.path().join("rec");
        std::fs::write(
            &exe,
            format!(
                r#"#!/bin/sh
echo '{{"ready":true,"platform":"p","device":"d"}}'
n=0
while read -r kind id g l a b c d e rest; do
  [ "$kind" = QUIT ] && exit 0
  n=$((n + 1))
  echo "$kind $id $g $l $a $b $c $d $e $rest" > {rec}.$n.header
  if [ "$kind" = BIN ]; then len=$((a + b + c)); else len=$((a + b)); fi
  head -c "$len" > {rec}.$n.body
  echo "{{\"id\":$id,\"status\":\"ok\",\"build_ms\":0,\"kernel_ms\":[1.5],\"transfer_ms\":0,\"max_error\":0,\"message\":\"\"}}"
done
"#,
                rec = rec.display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut w = Worker::spawn(&exe, 0, 0, Duration::from_secs(10)).unwrap();
        let cubin = b"\x7fELF\x00\x01binary\nwith newlines\x00";
        let mut req = Request {
            id: 7,
            source: "extern \"C\" __global__ void orcl_kernel() {}\n",
            options: "--use_fast_math -orcl-dlcm=cg",
            global: 0,
            local: 128,
            grid: None,
            parts: Vec::new(),
            warmups: 1,
            repetitions: 3,
            binary: None,
        };
        let r = w
            .run(&req, Duration::from_secs(10), Duration::from_secs(10))
            .unwrap();
        assert_eq!((r.id, r.kernel_ms.as_slice()), (7, &[1.5][..]));
        req.id = 8;
        req.binary = Some(("k3y", cubin));
        req.grid = Some([2, 0, 64, 16, 1, 32, 8, 0, 0, 0]);
        let r = w
            .run(&req, Duration::from_secs(10), Duration::from_secs(10))
            .unwrap();
        assert_eq!(r.id, 8);
        drop(w);
        let read =
            |n: u32, what: &str| std::fs::read(format!("{}.{n}.{what}", rec.display())).unwrap();
        let src_len = req.source.len();
        let opt_len = req.options.len();
        assert_eq!(
            String::from_utf8(read(1, "header"))
                .unwrap()
                .split_whitespace()
                .collect::<Vec<_>>(),
            [
                "RUN",
                "7",
                "0",
                "128",
                &src_len.to_string(),
                &opt_len.to_string(),
                "1",
                "3"
            ]
        );
        assert_eq!(
            read(1, "body"),
            [req.source.as_bytes(), req.options.as_bytes()].concat()
        );
        assert_eq!(
            String::from_utf8(read(2, "header"))
                .unwrap()
                .split_whitespace()
                .collect::<Vec<_>>(),
            [
                "BIN",
                "8",
                "0",
                "128",
                "3",
                &cubin.len().to_string(),
                &opt_len.to_string(),
                "1",
                "3",
                "2",
                "0",
                "64",
                "16",
                "1",
                "32",
                "8",
                "0",
                "0",
                "0"
            ]
        );
        assert_eq!(
            read(2, "body"),
            [&b"k3y"[..], cubin, req.options.as_bytes()].concat()
        );
    }
}
