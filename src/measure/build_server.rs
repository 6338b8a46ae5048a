//! Out-of-process kernel builds for the build pool: one `orcl build-server` child per build
//! thread, so that builds really run side by side and a hung compiler can be killed. OpenCL
//! (`clBuildProgram` in a context of the device) and, with `--cuda`, NVRTC to a CUBIN (issue 24:
//! NVRTC in orcl's threads could be bounded but never killed).
//!
//! NVIDIA's OpenCL compiler serialises `clBuildProgram` within a process: on an H100 (driver
//! 580.159.04, 2026-11-25, docs/THROUGHPUT.md) 48 GEMM kernels built in 29.7 s one after another
//! (0.52 s each) and in 18.7 s from 16 threads of one process (5.6 s each: waiting), and in 11.1 s
//! from 16 processes that each also created a context per build. A child per thread also keeps a compiler crash away from
//! orcl: the build is recorded as failed and the next one starts a fresh child.
//!
//! Protocol (stdin → stdout of the child, one request at a time):
//! `BUILD <source bytes> <option bytes>\n<source><options>` → `OK <binary bytes>\n<binary>`
//! or `FAIL <log bytes>\n<log>`; a CUDA child takes NVRTC's options one per line
//! (`nvrtc::pool_options`) and may answer `SKIP <bytes>\n<why>` (this NVRTC refuses an option:
//! the variant is left to the skeleton). End of input ends the child (exit 0).
//!
//! A child that gives no answer within its limit ([`BUILD_LIMIT`] in the pool: a compiler that
//! loops, a driver that deadlocks) is killed and the build recorded as a timeout, so that neither
//! the measurement waiting for that kernel nor the end of the tune (which joins the build
//! threads) waits forever.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// How long the pool waits for one build in a child (s): far above any build seen (GEMM kernels
/// 0.3 to 6 s each on an H100, docs/THROUGHPUT.md), so only a hung compiler reaches it.
pub const BUILD_LIMIT: Duration = Duration::from_secs(300);

/// How a build can fail.
#[derive(Debug)]
pub enum BuildError {
    /// The compiler refused the program: the build log (or the OpenCL error).
    Compile(String),
    /// The child died or answered nonsense (a compiler crash); it must be replaced.
    Died(String),
    /// The child gave no answer within its limit and was killed (a hung compiler); it must be
    /// replaced, and building the same program again would most likely hang again.
    TimedOut(String),
    /// CUDA: this NVRTC refuses an option (`nvrtc::CompileFailure::Unsupported`): the variant is
    /// the skeleton's to compile.
    Unsupported(String),
}

/// What a build server builds for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// OpenCL device `device` of platform `platform` (one context in the child).
    OpenCl { platform: usize, device: usize },
    /// CUDA CUBINs with the NVRTC the child loads (`nvrtc::Nvrtc::load`); the architecture is
    /// in each request's options.
    Cuda,
}

impl Kind {
    /// The child as its messages name it.
    fn what(self) -> &'static str {
        match self {
            Kind::OpenCl { .. } => "the OpenCL compiler process",
            Kind::Cuda => "the NVRTC process",
        }
    }
}

/// A running `orcl build-server` child.
pub struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// How long one build may take before the child is killed.
    limit: Duration,
    kind: Kind,
}

/// Set by [`serve_from_this_executable`]: this process's executable answers `build-server`.
static THIS_EXE_SERVES: AtomicBool = AtomicBool::new(false);

/// Declare that this process's own executable answers the `build-server` subcommand: orcl's
/// `main` calls it first thing, whatever the file is named (`orcl`, `orcl-1.2`, a copy under
/// any name). A program that links the library (a test harness, an embedding tool) does not,
/// and builds in its own process unless `$ORCL_EXE` names an orcl executable.
pub fn serve_from_this_executable() {
    THIS_EXE_SERVES.store(true, Ordering::SeqCst);
}

/// The orcl executable that can run `build-server`: `$ORCL_EXE`, else this process's own
/// executable when it declared that it answers `build-server` ([`serve_from_this_executable`]:
/// the rule is that declaration, not the file's name). `None`: build in process — for a
/// program that made no declaration, silently (it never had build servers); where the
/// executable declared it but its path cannot be found (no `/proc`), with a warning, once.
pub fn orcl_exe() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ORCL_EXE") {
        return Some(p.into());
    }
    if !THIS_EXE_SERVES.load(Ordering::SeqCst) {
        return None;
    }
    match std::env::current_exe() {
        Ok(exe) => Some(exe),
        Err(e) => {
            static WARNED: std::sync::Once = std::sync::Once::new();
            WARNED.call_once(|| {
                orcl_frontend::errln!(
                    "warning: cannot find orcl's own executable ({e}); kernels are built in orcl's process, without build servers (set ORCL_EXE to orcl's path)"
                )
            });
            None
        }
    }
}

/// Whether the pool builds in child processes: `ORCL_BUILD_PROCESSES=1` / `=0` force it on /
/// off; otherwise on for devices whose builds overlap measurements (GPUs), off for CPU devices.
pub fn use_processes(gated: bool) -> bool {
    match std::env::var("ORCL_BUILD_PROCESSES").as_deref() {
        Ok("1") => true,
        Ok("0") => false,
        _ => !gated,
    }
}

impl Server {
    /// Start `exe build-server` for `kind` (OpenCL device `device` of platform `platform`:
    /// `--platform P --device D`; CUDA: `--cuda`), tied to orcl (it dies with orcl, see
    /// `interrupt::spawn_tied`); a build that takes longer than `limit` kills it
    /// ([`BuildError::TimedOut`]). An OpenCL child's stderr (compiler chatter) is discarded; a
    /// CUDA child's is orcl's (NVRTC writes none; the test hook `ORCL_TEST_PAUSE` says there
    /// where it stopped).
    ///
    /// Errors: the process cannot be started.
    pub fn spawn(exe: &Path, kind: Kind, limit: Duration) -> std::io::Result<Server> {
        let mut cmd = Command::new(exe);
        cmd.arg("build-server");
        match kind {
            Kind::OpenCl { platform, device } => {
                cmd.arg("--platform")
                    .arg(platform.to_string())
                    .arg("--device")
                    .arg(device.to_string())
                    .stderr(Stdio::null());
            }
            Kind::Cuda => {
                cmd.arg("--cuda").stderr(Stdio::inherit());
            }
        }
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
        let mut child = crate::interrupt::spawn_tied(cmd, false)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(std::io::Error::other("build-server without pipes"));
        };
        tracing::debug!(exe = %exe.display(), pid = child.id(), "build server started");
        Ok(Server {
            child,
            stdin,
            stdout: BufReader::new(stdout),
            limit,
            kind,
        })
    }

    /// Build (source, options); the program binary. A watchdog thread kills the child when no
    /// answer has come within the limit, which ends the blocked write or read here.
    pub fn build(&mut self, source: &str, options: &str) -> Result<Vec<u8>, BuildError> {
        let pid = self.child.id() as libc::pid_t;
        let limit = self.limit;
        let fired = AtomicBool::new(false);
        let (done, wait) = mpsc::channel::<()>();
        let answer = std::thread::scope(|scope| {
            let fired = &fired;
            scope.spawn(move || {
                if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                    fired.store(true, Ordering::SeqCst);
                    // SAFETY: kill(2). The child is not reaped before this scope ends (below),
                    // so `pid` is still the child's, alive or a zombie.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
            });
            let answer = self.exchange(source, options);
            drop(done);
            answer
        });
        let e = match answer {
            Ok(a) => return a,
            Err(e) => e,
        };
        // The child is gone or out of step: make sure it is gone, and reap it for its status.
        let _ = self.child.kill();
        let status = self.child.wait();
        if fired.load(Ordering::SeqCst) {
            return Err(BuildError::TimedOut(format!(
                "{} gave no answer within {} s and was killed",
                self.kind.what(),
                limit.as_secs_f64()
            )));
        }
        use std::io::ErrorKind::{BrokenPipe, UnexpectedEof};
        Err(BuildError::Died(match (e.kind(), status) {
            // It ended on its own: how (`signal: 11 (SIGSEGV)`, `exit status: 3`).
            (UnexpectedEof | BrokenPipe, Ok(status)) => {
                format!("{} died: {status}", self.kind.what())
            }
            _ => format!("{} died: {e}", self.kind.what()),
        }))
    }

    fn exchange(
        &mut self,
        source: &str,
        options: &str,
    ) -> std::io::Result<Result<Vec<u8>, BuildError>> {
        writeln!(self.stdin, "BUILD {} {}", source.len(), options.len())?;
        self.stdin.write_all(source.as_bytes())?;
        self.stdin.write_all(options.as_bytes())?;
        self.stdin.flush()?;
        let mut head = String::new();
        if self.stdout.read_line(&mut head)? == 0 {
            // Reaped by the caller, after the watchdog has ended.
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let bad = || std::io::Error::other(format!("unexpected answer `{}`", head.trim_end()));
        let words: Vec<&str> = head.split_whitespace().collect();
        match words.as_slice() {
            ["OK", len] => {
                let bytes = read_exact(&mut self.stdout, len.parse().map_err(|_| bad())?)?;
                Ok(Ok(bytes))
            }
            ["FAIL", len] => {
                let log = read_exact(&mut self.stdout, len.parse().map_err(|_| bad())?)?;
                Ok(Err(BuildError::Compile(
                    String::from_utf8_lossy(&log).into_owned(),
                )))
            }
            ["SKIP", len] if self.kind == Kind::Cuda => {
                let why = read_exact(&mut self.stdout, len.parse().map_err(|_| bad())?)?;
                Ok(Err(BuildError::Unsupported(
                    String::from_utf8_lossy(&why).into_owned(),
                )))
            }
            _ => Err(bad()),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Between builds the child only waits for input: killing it loses nothing (and a
        // child that stopped answering ends too).
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_exact(r: &mut impl Read, n: usize) -> std::io::Result<Vec<u8>> {
    let mut b = vec![0; n];
    r.read_exact(&mut b)?;
    Ok(b)
}

/// The child's main loop (`orcl build-server`): builds each request with one OpenCL context of
/// the device and answers on stdout. Returns the exit code: 0 at end of input, 1 on a broken
/// request or pipe.
pub fn serve(platform: usize, device: usize) -> i32 {
    let ctx = super::clbuild::context(platform, device);
    serve_requests(|source, options| {
        super::clbuild::compile(&ctx, source, options).map_err(BuildError::Compile)
    })
}

/// `orcl build-server --cuda`: compiles each request with NVRTC (loaded here, once) to a CUBIN,
/// the options one per line as `nvrtc::pool_options` made them. A child without NVRTC answers
/// every request `SKIP` (the skeleton compiles). Exit codes as [`serve`].
pub fn serve_cuda() -> i32 {
    use super::nvrtc::{CompileFailure, Nvrtc};
    let nvrtc = Nvrtc::load();
    serve_requests(|source, options| {
        // Tests only: a CUDA build that hangs in NVRTC (tests/stages.rs).
        crate::interrupt::test_pause("cuda-build");
        let nvrtc = nvrtc
            .as_ref()
            .map_err(|e| BuildError::Unsupported(e.clone()))?;
        let opts: Vec<String> = options
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
        nvrtc.compile_cubin(source, &opts).map_err(|f| match f {
            CompileFailure::Failed(log) => BuildError::Compile(log),
            CompileFailure::Unsupported(why) => BuildError::Unsupported(why),
        })
    })
}

/// Reads `BUILD` requests from stdin until its end and answers each with `build`'s result (`OK`,
/// `FAIL` for [`BuildError::Compile`], `SKIP` for [`BuildError::Unsupported`]). Returns the exit
/// code: 0 at end of input, 1 on a broken request or pipe.
fn serve_requests(mut build: impl FnMut(&str, &str) -> Result<Vec<u8>, BuildError>) -> i32 {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    loop {
        let mut head = String::new();
        match input.read_line(&mut head) {
            Ok(0) => return 0,
            Ok(_) => {}
            Err(_) => return 1,
        }
        // Exactly `BUILD <source bytes> <option bytes>`; anything else is a broken request.
        let words: Vec<&str> = head.split_whitespace().collect();
        let ["BUILD", s, o] = words.as_slice() else {
            return 1;
        };
        let (Ok(s), Ok(o)) = (s.parse::<usize>(), o.parse::<usize>()) else {
            return 1;
        };
        let (Ok(source), Ok(options)) = (read_exact(&mut input, s), read_exact(&mut input, o))
        else {
            return 1;
        };
        let answer = build(
            &String::from_utf8_lossy(&source),
            &String::from_utf8_lossy(&options),
        );
        let (word, bytes) = match answer {
            Ok(bytes) => ("OK", bytes),
            Err(BuildError::Unsupported(why)) => ("SKIP", why.into_bytes()),
            Err(BuildError::Compile(log) | BuildError::Died(log) | BuildError::TimedOut(log)) => {
                ("FAIL", log.into_bytes())
            }
        };
        let sent = writeln!(out, "{word} {}", bytes.len()).and_then(|_| out.write_all(&bytes));
        if sent.and_then(|_| out.flush()).is_err() {
            return 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    const OCL0: Kind = Kind::OpenCl {
        platform: 0,
        device: 0,
    };

    /// A stand-in build server (a shell script, not a model of a compiler) with body `body`.
    fn stand_in(dir: &Path, body: &str) -> PathBuf {
        let exe = dir.join("server.sh");
        std::fs::write(&exe, format!("#!/bin/sh\n{body}")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        exe
    }

    /// `build` on another thread; its answer and how long it took, or a failure after 30 s
    /// (a build that hangs: the defect this checks for).
    fn build_within(mut s: Server, source: String) -> (Result<Vec<u8>, BuildError>, Duration, u32) {
        let (tx, rx) = mpsc::channel();
        let pid = s.child.id();
        std::thread::spawn(move || {
            let t0 = Instant::now();
            let r = s.build(&source, "-DX=1");
            let _ = tx.send((r, t0.elapsed()));
        });
        let (r, t) = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the build hung: no answer 30 s after a 1 s limit");
        (r, t, pid)
    }

    fn gone(pid: u32) -> bool {
        // SAFETY: kill(2) with signal 0 only checks; the child was reaped, so no zombie remains.
        unsafe { libc::kill(pid as libc::pid_t, 0) != 0 }
    }

    /// A child that reads a request and never answers (a compiler that loops) is killed after
    /// the limit and the build is a timeout, not a hang.
    #[test]
    fn a_child_that_stops_answering_is_killed_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let exe = stand_in(dir.path(), "read -r line\nexec sleep 1000\n");
        let s = Server::spawn(&exe, OCL0, Duration::from_secs(1)).unwrap();
        let (r, t, pid) = build_within(s, "kernel".into());
        match r {
            Err(BuildError::TimedOut(m)) => {
                assert!(m.contains("no answer within 1 s"), "{m}")
            }
            other => panic!("{other:?}"),
        }
        assert!(t >= Duration::from_secs(1), "{t:?}");
        assert!(gone(pid), "the hung child still runs");
    }

    /// A child that never reads (stuck before its first request) while orcl writes a request
    /// larger than a pipe holds: the blocked write ends at the limit too.
    #[test]
    fn a_child_that_never_reads_does_not_block_the_write() {
        let dir = tempfile::tempdir().unwrap();
        let exe = stand_in(dir.path(), "exec sleep 1000\n");
        let s = Server::spawn(&exe, OCL0, Duration::from_secs(1)).unwrap();
        let (r, _, pid) = build_within(s, "x".repeat(1 << 20));
        assert!(matches!(r, Err(BuildError::TimedOut(_))), "{r:?}");
        assert!(gone(pid), "the hung child still runs");
    }

    /// A child that dies says how; a healthy answer within the limit is not disturbed by the
    /// watchdog.
    #[test]
    fn a_dead_child_says_how_and_a_quick_answer_passes() {
        let dir = tempfile::tempdir().unwrap();
        let exe = stand_in(dir.path(), "read -r line\nexit 3\n");
        let s = Server::spawn(&exe, OCL0, Duration::from_secs(5)).unwrap();
        match build_within(s, "k".into()).0 {
            Err(BuildError::Died(m)) => assert!(m.ends_with("exit status: 3"), "{m}"),
            other => panic!("{other:?}"),
        }
        let exe = stand_in(
            dir.path(),
            "while read -r w s o; do head -c $((s + o)) > /dev/null; printf 'OK 3\\nbin'; done\n",
        );
        let mut s = Server::spawn(&exe, OCL0, Duration::from_secs(1)).unwrap();
        for _ in 0..3 {
            assert_eq!(s.build("kernel", "-DX=1").unwrap(), b"bin");
        }
        // The limit is per build, not per child.
        std::thread::sleep(Duration::from_millis(1200));
        assert_eq!(s.build("kernel", "-DX=1").unwrap(), b"bin");
    }
}
