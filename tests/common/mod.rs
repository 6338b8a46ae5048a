//! Helpers shared by the integration tests that run processes.
// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A finished process with its output as text.
pub struct Run {
    pub output: Output,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Run {
    pub fn code(&self) -> Option<i32> {
        self.output.status.code()
    }

    /// Both streams, for assertion messages.
    pub fn dump(&self) -> String {
        format!(
            "exit {:?} after {:.1} s\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.output.status,
            self.elapsed.as_secs_f64(),
            self.stdout,
            self.stderr
        )
    }

    pub fn assert_code(&self, code: i32) {
        assert_eq!(self.code(), Some(code), "{}", self.dump());
    }
}

/// Run `cmd` to completion, killing it (and failing the test) after `limit`.
pub fn run(mut cmd: Command, limit: Duration) -> Run {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {cmd:?}: {e}"));
    let reader = |mut s: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = s.read_to_end(&mut v);
            v
        })
    };
    let out = reader(Box::new(child.stdout.take().unwrap()));
    let err = reader(Box::new(child.stderr.take().unwrap()));
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} ran longer than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let output = Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    };
    Run {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        output,
        elapsed: start.elapsed(),
    }
}
