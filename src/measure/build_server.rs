//! Out-of-process OpenCL program builds for the build pool: one `orcl build-server` child per
//! build thread, so that builds really run side by side.
//!
//! NVIDIA's OpenCL compiler serialises `clBuildProgram` within a process: on an H100 (driver
//! 580.159.04, 2026-11-25, docs/THROUGHPUT.md) 48 GEMM kernels built in 29.7 s one after another
//! (0.52 s each) and in 18.7 s from 16 threads of one process (5.6 s each: waiting), and in 11.1 s
//! from 16 processes that each also created a context per build. A child per thread also keeps a compiler crash away from
//! orcl: the build is recorded as failed and the next one starts a fresh child.
//!
//! Protocol (stdin → stdout of the child, one request at a time):
//! `BUILD <source bytes> <option bytes>\n<source><options>` → `OK <binary bytes>\n<binary>`
//! or `FAIL <log bytes>\n<log>`. End of input ends the child (exit 0).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// How a build can fail.
#[derive(Debug)]
pub enum BuildError {
    /// The compiler refused the program: the build log (or the OpenCL error).
    Compile(String),
    /// The child died or answered nonsense (a compiler crash); it must be replaced.
    Died(String),
}

/// A running `orcl build-server` child.
pub struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// The orcl executable that can run `build-server`: `$ORCL_EXE`, else this process's own
/// executable when it is orcl (not a test harness that links the library). `None`: build in
/// process.
pub fn orcl_exe() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ORCL_EXE") {
        return Some(p.into());
    }
    let exe = std::env::current_exe().ok()?;
    (exe.file_stem()? == "orcl").then_some(exe)
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
    /// Start `exe build-server` for OpenCL device `device` of platform `platform`, tied to orcl
    /// (it dies with orcl, see `interrupt::spawn_tied`).
    ///
    /// Errors: the process cannot be started.
    pub fn spawn(exe: &Path, platform: usize, device: usize) -> std::io::Result<Server> {
        let mut cmd = Command::new(exe);
        cmd.args(["build-server", "--platform"])
            .arg(platform.to_string())
            .arg("--device")
            .arg(device.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = crate::interrupt::spawn_tied(cmd, false)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(std::io::Error::other("build-server without pipes"));
        };
        Ok(Server {
            child,
            stdin,
            stdout: BufReader::new(stdout),
        })
    }

    /// Build (source, options); the program binary.
    pub fn build(&mut self, source: &str, options: &str) -> Result<Vec<u8>, BuildError> {
        self.exchange(source, options)
            .map_err(|e| BuildError::Died(format!("the OpenCL compiler process died: {e}")))?
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
            let status = self.child.wait()?;
            return Err(std::io::Error::other(format!("{status}")));
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
            _ => Err(bad()),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Closing stdin ends a healthy child; a hung one is killed.
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
    let ctx = super::pool::context(platform, device);
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
        let words: Vec<&str> = head.split_whitespace().collect();
        let (Some(s), Some(o)) = (
            words.get(1).and_then(|w| w.parse::<usize>().ok()),
            words.get(2).and_then(|w| w.parse::<usize>().ok()),
        ) else {
            return 1;
        };
        let (Ok(source), Ok(options)) = (read_exact(&mut input, s), read_exact(&mut input, o))
        else {
            return 1;
        };
        let answer = super::pool::compile(
            &ctx,
            &String::from_utf8_lossy(&source),
            &String::from_utf8_lossy(&options),
        );
        let sent = match answer {
            Ok(bytes) => writeln!(out, "OK {}", bytes.len()).and_then(|_| out.write_all(&bytes)),
            Err(log) => {
                writeln!(out, "FAIL {}", log.len()).and_then(|_| out.write_all(log.as_bytes()))
            }
        };
        if sent.and_then(|_| out.flush()).is_err() {
            return 1;
        }
    }
}
