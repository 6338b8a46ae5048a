//! Timing skeletons: renders `skeletons/opencl_skeleton.c.tera` for one (region, input size) and
//! compiles it once with the spec's build command (`@PARAM@` substituted shell-quoted). The binary
//! is cached by a hash of its source and command, so re-runs and resumed tunes reuse it.

use orcl_codegen::skeleton::OMP_MARKER;
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::expr::Value;
use orcl_frontend::spec::TuningSpec;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;

pub mod cache;
pub mod commands;
pub mod reference;
pub mod sealed;

/// Default host compiler command (the spec's `build_command` overrides it).
pub const DEFAULT_BUILD_COMMAND: &str = "cc -O2";

/// Replace every `@NAME@` in `cmd` by the value of `NAME`, and Orio's `@CFLAGS` (no closing `@`)
/// by the value of the parameter `CFLAGS`, or by nothing where there is none (Orio's
/// `ptest_driver.py` does the same). A value is split into shell words and each word is
/// shell-quoted, so `'-Xptxas -dlcm=cg'` gives two flags as in Orio and a value can never run a
/// command of its own. `None` from `env` names an unknown parameter: the error is its name.
pub fn substitute(cmd: &str, env: &dyn Fn(&str) -> Option<Value>) -> Result<String, String> {
    substitute_as(cmd, env, true)
}

/// [`substitute`], with the values' words shell-quoted (`shell`) or as written (for flags that
/// go to NVRTC, not to a shell).
fn substitute_as(
    cmd: &str,
    env: &dyn Fn(&str) -> Option<Value>,
    shell: bool,
) -> Result<String, String> {
    let quote = |plain: &str| -> String {
        if !shell {
            return plain.split_whitespace().collect::<Vec<_>>().join(" ");
        }
        let words = shlex::split(plain).unwrap_or_else(|| vec![plain.to_string()]);
        words
            .iter()
            .map(|w| commands::shell_word(w))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let plain = |v: Value| match v {
        Value::Str(s) => s,
        other => other.to_string(),
    };
    let mut out = String::new();
    let mut rest = cmd;
    while let Some(p) = rest.find('@') {
        out.push_str(&rest[..p]);
        let after = &rest[p + 1..];
        match after.find('@') {
            Some(q)
                if !after[..q].is_empty()
                    && after[..q]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                let name = &after[..q];
                let v = env(name).ok_or_else(|| name.to_string())?;
                out.push_str(&quote(&plain(v)));
                rest = &after[q + 1..];
            }
            _ if after.starts_with("CFLAGS")
                && !after[6..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') =>
            {
                if let Some(v) = env("CFLAGS") {
                    out.push_str(&quote(&plain(v)));
                }
                rest = &after[6..];
            }
            _ => {
                out.push('@');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// How the timing skeleton of one configuration is built: the spec's `build` section with every
/// `@PARAM@` (and Orio's `@CFLAGS`) substituted from the configuration, and Orio's site-specific
/// settings replaced (see [`site_adjust`]). Two configurations with the same plan share one
/// skeleton binary; configurations with different plans (a tuning parameter in any of the four
/// commands, e.g. Orio's `CFLAGS`) are each measured with their own (issue 15 F9).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct BuildPlan {
    /// Host compiler command, without `-o`, the source and `libs`.
    pub command: String,
    pub libs: String,
    pub prebuild: Option<String>,
    pub postbuild: Option<String>,
    /// Device-code flags of an `nvcc` build command (after substitution), for the CUDA
    /// transform's NVRTC options; empty for other compilers.
    pub nvcc_flags: String,
}

/// Compilers whose names mark a build command as Orio's nvcc form, and C++ compilers (the
/// skeleton is C: they are replaced by [`DEFAULT_BUILD_COMMAND`]'s compiler).
const CXX: &[&str] = &["c++", "g++", "clang++"];

/// Orio's build command (before `@PARAM@` substitution) rewritten for this host: (host command,
/// nvcc device flags, what changed, one note each).
///
/// - `nvcc ...` (Orio's CUDA files): orcl's CUDA skeleton is host C that compiles the kernel with
///   NVRTC, so the skeleton is built with [`DEFAULT_BUILD_COMMAND`]; the nvcc flags go to NVRTC
///   (`-arch`/`-gencode`/`-code`, `-g`, `-G`, `-c`, `-std=` dropped: NVRTC compiles for the
///   device being tuned).
/// - a C++ compiler (`c++`, `g++`, `clang++`): replaced by `cc` (the skeleton is C).
/// - TAU and macOS parts (`-lTAU`, `-framework NAME`): dropped (orcl times with its own events).
pub fn site_adjust(cmd: &str) -> (String, String, Vec<String>) {
    let Some(words) = shlex::split(cmd) else {
        return (cmd.to_string(), String::new(), Vec::new());
    };
    let mut notes = Vec::new();
    // Words with `$` (environment variables, for the shell) or `@` (placeholders, substituted
    // afterwards) are kept as written; the others are re-quoted as they were split.
    let q = |w: &str| {
        if w.contains('$') || w.contains('@') {
            return w.to_string();
        }
        commands::shell_word(w)
    };
    let first = words.first().map(String::as_str).unwrap_or("");
    let base = first.rsplit('/').next().unwrap_or(first);
    if base == "nvcc" {
        let mut flags = Vec::new();
        let mut dropped = Vec::new();
        let mut it = words[1..].iter();
        while let Some(w) = it.next() {
            let bare = w.trim_start_matches('-');
            let key = bare.split('=').next().unwrap_or("");
            match key {
                "arch" | "gpu-architecture" | "code" | "gpu-code" | "gencode" | "generate-code"
                | "std"
                    if !bare.contains('=') =>
                {
                    dropped.push(format!(
                        "{w} {}",
                        it.next().map(String::as_str).unwrap_or("")
                    ));
                }
                "arch" | "gpu-architecture" | "code" | "gpu-code" | "gencode" | "generate-code"
                | "std" | "g" | "G" | "c" | "device-debug" | "debug" => dropped.push(w.clone()),
                _ if w.starts_with("-l") || w.starts_with("-L") || w.starts_with("-I") => {
                    dropped.push(w.clone())
                }
                _ => flags.push(w.clone()),
            }
        }
        notes.push(format!(
            "`{base}` builds Orio's whole program; orcl's CUDA skeleton is host C that compiles the kernel with NVRTC, so it is built with `{DEFAULT_BUILD_COMMAND}` and nvcc's device flags go to NVRTC{}",
            if dropped.is_empty() {
                String::new()
            } else {
                format!(" ({} dropped: NVRTC compiles for the device being tuned)", dropped.join(", ").trim())
            }
        ));
        return (DEFAULT_BUILD_COMMAND.into(), flags.join(" "), notes);
    }
    let mut out: Vec<String> = Vec::new();
    let mut it = words.iter().enumerate();
    while let Some((i, w)) = it.next() {
        if i == 0 && CXX.contains(&base) {
            notes.push(format!(
                "`{first}` compiles C++; the skeleton is C, so `cc` builds it"
            ));
            out.push("cc".into());
        } else if w == "-lTAU" {
            notes.push("`-lTAU` dropped (orcl times with its own events, not TAU)".into());
        } else if w == "-framework" {
            let name = it.next().map(|(_, n)| n.as_str()).unwrap_or("");
            notes.push(format!(
                "`-framework {name}` (macOS) dropped; OpenCL is linked with -lOpenCL"
            ));
        } else {
            out.push(q(w));
        }
    }
    (out.join(" "), String::new(), notes)
}

/// The [`BuildPlan`] of one configuration (`env` gives the tuning and input parameters' values).
///
/// Errors: a `@NAME@` that names no parameter, located at the command that holds it.
pub fn build_plan(
    spec: &TuningSpec,
    env: &dyn Fn(&str) -> Option<Value>,
) -> Result<BuildPlan, Diagnostic> {
    let b = &spec.build;
    use orcl_frontend::spec::Located;
    let sub_as = |what: &str, c: &Located<String>, shell: bool| {
        substitute_as(&c.value, env, shell).map_err(|name| {
            Diagnostic::new(c.span, format!("`@{name}@` in `{what}` names no parameter")).with_help(
                "`@NAME@` is replaced by the value of the tuning or input parameter NAME",
            )
        })
    };
    let sub = |what: &str, c: &Located<String>| sub_as(what, c, true);
    let (command, nvcc_flags) = match &b.build_command {
        Some(c) => {
            let (cmd, flags, _) = site_adjust(&c.value);
            let at = |v: String| Located {
                value: v,
                span: c.span,
            };
            (
                sub("build_command", &at(cmd))?,
                sub_as("build_command", &at(flags), false)?,
            )
        }
        None => (DEFAULT_BUILD_COMMAND.into(), String::new()),
    };
    let libs = match &b.libs {
        Some(c) => {
            let (l, _, _) = site_adjust(&format!("cc {}", c.value));
            let l = l.strip_prefix("cc").unwrap_or(&l).trim().to_string();
            let l = sub(
                "libs",
                &Located {
                    value: l,
                    span: c.span,
                },
            )?;
            // Words for the compiler, never a shell's to run (issue 25 G9).
            commands::libs_words(&l).map_err(|e| {
                Diagnostic::new(c.span, format!("`libs` has {e}"))
                    .with_help("`libs` is split into words as the shell would split them; `$NAME` is replaced by the environment variable, nothing else is expanded")
            })?
        }
        None => String::new(),
    };
    Ok(BuildPlan {
        command,
        libs,
        prebuild: b
            .prebuild_command
            .as_ref()
            .map(|c| sub("prebuild_command", c))
            .transpose()?,
        postbuild: b
            .postbuild_command
            .as_ref()
            .map(|c| sub("postbuild_command", c))
            .transpose()?,
        nvcc_flags,
    })
}

/// One warning (at most) for the settings of the spec's build and test-code sections that are
/// specific to Orio's sites and that orcl replaces: what it uses instead, in one line.
pub fn site_warning(spec: &TuningSpec) -> Option<Diagnostic> {
    let b = &spec.build;
    let mut notes = Vec::new();
    let mut span = None;
    if let Some(c) = &b.build_command {
        let (_, _, n) = site_adjust(&c.value);
        if !n.is_empty() {
            span.get_or_insert(c.span);
        }
        notes.extend(n);
    }
    if let Some(c) = &b.libs {
        let (_, _, n) = site_adjust(&format!("cc {}", c.value));
        if !n.is_empty() {
            span.get_or_insert(c.span);
        }
        notes.extend(n.into_iter().map(|n| format!("in `libs`: {n}")));
    }
    if let Some(f) = &spec.skeleton_code_file {
        span.get_or_insert(f.span);
        notes.push(format!(
            "`skeleton_code_file = '{}'` ignored: orcl times every variant in its own skeleton",
            f.value
        ));
    }
    let mut vars: Vec<&str> = Vec::new();
    for c in [&b.build_command, &b.libs].into_iter().flatten() {
        for (i, _) in c.value.match_indices('$') {
            let rest = c.value[i + 1..].trim_start_matches('{');
            let end = rest
                .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                .unwrap_or(rest.len());
            if end > 0 && !vars.contains(&&rest[..end]) {
                span.get_or_insert(c.span);
                vars.push(&rest[..end]);
            }
        }
    }
    if !vars.is_empty() {
        let set: Vec<String> = vars
            .iter()
            .map(|v| match std::env::var(v) {
                Ok(x) => format!("${v}={x}"),
                Err(_) => format!("${v} unset (empty)"),
            })
            .collect();
        notes.push(format!("the shell expands {}", set.join(", ")));
    }
    span.map(|s| {
        Diagnostic::new(
            s,
            format!("Orio site settings replaced: {}", notes.join("; ")),
        )
    })
}

/// Where compiled skeletons are cached, per user (issue 15 F5): `$ORCL_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/orcl`, else `~/.cache/orcl` with `HOME` or, where `HOME` is unset (cron,
/// systemd, `env -i`), the user's home directory from the password database (getpwuid_r(3)), else
/// (no home at all) `<tmp>/orcl-cache-<uid>`. [`build`] creates it with mode 0700 and refuses it
/// when another user owns it, others may write to it, or its path passes through a symbolic link
/// another user owns (issue 25 G1).
pub fn cache_dir() -> PathBuf {
    let abs = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    std::env::var_os("ORCL_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME")
                .and_then(abs)
                .map(|p| p.join("orcl"))
        })
        .or_else(|| {
            std::env::var_os("HOME")
                .and_then(abs)
                .or_else(password_home)
                .map(|p| p.join(".cache").join("orcl"))
        })
        .unwrap_or_else(|| {
            std::env::temp_dir().join(format!("orcl-cache-{}", unsafe { libc::geteuid() }))
        })
}

/// The effective user's home directory from the password database (getpwuid_r(3)); `None` when
/// there is no entry or it is not an absolute path.
fn password_home() -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let mut buf = vec![0u8; 16 << 10];
    let mut pwd: libc::passwd = unsafe { std::mem::zeroed() };
    let mut out: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call; `buf` outlives the use of `pwd`'s strings.
    let rc = unsafe {
        libc::getpwuid_r(
            libc::geteuid(),
            &mut pwd,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut out,
        )
    };
    if rc != 0 || out.is_null() || pwd.pw_dir.is_null() {
        return None;
    }
    // SAFETY: getpwuid_r succeeded, so pw_dir points at a NUL-terminated string inside `buf`.
    let dir = unsafe { std::ffi::CStr::from_ptr(pwd.pw_dir) };
    let p = PathBuf::from(std::ffi::OsStr::from_bytes(dir.to_bytes()));
    p.is_absolute().then_some(p)
}

/// The first symbolic link on the way to `dir` (its ancestors and itself, as written) that is
/// owned by neither this user nor root: another user could point it elsewhere between two uses.
fn foreign_link(dir: &Path, me: u32) -> Option<(PathBuf, u32)> {
    use std::os::unix::fs::MetadataExt;
    let abs = if dir.is_absolute() {
        dir.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(dir)
    };
    abs.ancestors().find_map(|a| {
        let m = std::fs::symlink_metadata(a).ok()?;
        (m.file_type().is_symlink() && m.uid() != me && m.uid() != 0)
            .then(|| (a.to_path_buf(), m.uid()))
    })
}

/// Create `dir` (mode 0700) if missing and check that it is safe to run binaries from: a
/// directory owned by this user that no one else may write to, reached through no symbolic link
/// of another user's and not itself a link (see [`cache::CacheDir::open`], which [`build`] uses
/// and keeps open). Stale scratch files of build processes that no longer run (killed builds)
/// are removed (issue 15 F5, F14).
///
/// Errors: [`BuildError::UnsafeCache`] naming the problem; [`BuildError::Io`].
pub fn secure_dir(dir: &Path) -> Result<(), BuildError> {
    cache::CacheDir::open(dir).map(|_| ())
}

/// The build process id in a scratch file name (`skeleton-<h>.<pid>.c`, `skeleton-<h>.tmp<pid>`,
/// and a digest being sealed, `skeleton-<h>.sum<pid>`).
fn scratch_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix("skeleton-")?;
    let (_, tail) = rest.split_once('.')?;
    let digits = tail
        .strip_suffix(".c")
        .or_else(|| tail.strip_prefix("tmp"))
        .or_else(|| tail.strip_prefix("sum"))?;
    digits.parse().ok().filter(|p| *p > 1)
}

/// Put a built entry in place, each step relative to the cache's descriptor: the binary made
/// writable by its owner only and [`sealed`] under its scratch name (its digest recorded first),
/// then the source copy, then the binary (the name [`build`] looks for), each by rename.
fn install_entry(cache: &cache::CacheDir, hash: &str) -> std::io::Result<()> {
    let pid = std::process::id();
    let tmp = format!("skeleton-{hash}.tmp{pid}");
    let exe = format!("skeleton-{hash}");
    cache.restrict(&tmp)?;
    sealed::seal(cache, &tmp, &exe)?;
    cache.rename(&format!("skeleton-{hash}.{pid}.c"), &format!("{exe}.c"))?;
    cache.rename(&tmp, &exe)
}

/// Removes the scratch files of a build when it ends, whether it succeeded or not (issue 15 F14).
struct Scratch(Vec<PathBuf>);

impl Drop for Scratch {
    fn drop(&mut self) {
        for p in &self.0 {
            let _ = std::fs::remove_file(p);
        }
    }
}

static BUILD_TIMEOUT_S: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(600);

/// Set the time limit of each build step (`orcl tune --build-timeout`; default 10 min).
pub fn set_build_timeout(t: std::time::Duration) {
    BUILD_TIMEOUT_S.store(t.as_secs().max(1), std::sync::atomic::Ordering::SeqCst);
}

/// The time limit of each build step.
pub fn build_timeout() -> std::time::Duration {
    std::time::Duration::from_secs(BUILD_TIMEOUT_S.load(std::sync::atomic::Ordering::SeqCst))
}

/// Errors compiling a skeleton.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("cannot write the skeleton to {path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("the timing skeleton failed to compile with `{command}`:\n{output}")]
    Compile { command: String, output: String },
    #[error("`{which}` failed: `{command}`:\n{output}")]
    Hook {
        which: &'static str,
        command: String,
        output: String,
    },
    /// A build step could not run, timed out or was interrupted (its process group was killed).
    #[error("`{which}`: {error}")]
    Run {
        which: &'static str,
        error: std::io::Error,
    },
    /// The skeleton cache directory cannot be trusted (issue 15 F5).
    #[error("refusing the skeleton cache {path}: {reason} (set ORCL_CACHE_DIR to a directory of your own)")]
    UnsafeCache { path: String, reason: String },
}

fn run_err(which: &'static str) -> impl Fn(std::io::Error) -> BuildError {
    move |error| BuildError::Run { which, error }
}

/// Run `sh -c command` in its own process group, tied to orcl's life; past [`build_timeout`] or
/// on SIGINT/SIGTERM the whole group is killed and the error says so (issue 15 F7).
fn sh(command: &str) -> std::io::Result<std::process::Output> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(command);
    run_bounded(cmd, command, build_timeout(), "--build-timeout")
}

/// Run `cmd` (stdin empty, output captured) in its own process group tied to orcl's life; past
/// `limit` or on SIGINT/SIGTERM the whole group is killed and the error (naming `shown` and
/// `limit_flag`, the option that sets the limit) says so.
pub fn run_bounded(
    mut cmd: Command,
    command: &str,
    limit: std::time::Duration,
    limit_flag: &str,
) -> std::io::Result<std::process::Output> {
    use std::io::Read;
    use std::process::Stdio;
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    crate::interrupt::tie_to_parent(&mut cmd, true);
    // Descendants of the command die with orcl too (issue 25 G4).
    crate::interrupt::supervise(&mut cmd);
    let mut child = cmd.spawn()?;
    let pid = child.id();
    crate::interrupt::track_group(pid, true);
    let reader = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut b = Vec::new();
            let _ = r.read_to_end(&mut b);
            b
        })
    };
    let out = reader(Box::new(child.stdout.take().expect("piped stdout")));
    let err = reader(Box::new(child.stderr.take().expect("piped stderr")));
    // The exit is an event: a thread waits for it (wait(2)) and sends the status. SIGINT/SIGTERM
    // is a flag set by orcl's signal handler, with nothing to wait on, and the limit a time:
    // both are checked between waits of at most 20 ms.
    let (tx, exited) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let start = std::time::Instant::now();
    let status = loop {
        let tick = limit
            .saturating_sub(start.elapsed())
            .min(std::time::Duration::from_millis(20));
        match exited.recv_timeout(tick) {
            Ok(s) => break s,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                break Err(std::io::Error::other(format!(
                    "`{command}`: its exit could not be waited for"
                )))
            }
        }
        let stop = if let Some(sig) = crate::interrupt::requested() {
            Some(format!("interrupted by {}", crate::interrupt::name(sig)))
        } else if start.elapsed() >= limit {
            Some(format!(
                "timed out after {} s ({limit_flag})",
                limit.as_secs()
            ))
        } else {
            None
        };
        if let Some(why) = stop {
            // The supervisor ends the whole tree (setsid'd descendants too), then exits.
            crate::interrupt::end_group(pid);
            let _ = exited.recv();
            break Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("`{command}` {why}; its process group was killed"),
            ));
        }
    };
    // Children of the shell left in the group (a backgrounded `sleep &`) go with it.
    crate::interrupt::kill_group(pid);
    crate::interrupt::track_group(pid, false);
    let status = status?;
    Ok(std::process::Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
}

/// Compile the skeleton source `tmp_src` into `tmp` with `build_command` and `libs` (with
/// `-fopenmp` first where the reference loop is parallel), announcing each command before its
/// first run (issue 25 G9). Errors: [`BuildError::Compile`] when it fails or writes no binary.
fn compile(
    source: &str,
    build_command: &str,
    libs: &str,
    tmp: &Path,
    tmp_src: &Path,
) -> Result<(), BuildError> {
    let q = |p: &Path| commands::shell_word(&p.display().to_string());
    let command_with = |flags: &str| {
        format!(
            "{build_command}{flags} -o {} {} {libs} -lOpenCL -lm",
            q(tmp),
            q(tmp_src)
        )
    };
    let command = command_with("");
    tracing::debug!(%command, "timing skeleton: building");
    // The command as printed: the scratch names vary per process; the cache key does not.
    let shown = |flags: &str| {
        format!("{build_command}{flags} -o SKELETON SKELETON.c {libs} -lOpenCL -lm")
            .replace("  ", " ")
    };
    // A reference loop proven parallel is compiled with OpenMP when the compiler has it; a
    // compiler without (clang without libomp, a loop outside OpenMP's canonical form) falls back
    // to the serial build: the pragma is under `#ifdef _OPENMP`. OMP_NUM_THREADS bounds it.
    let mut built = None;
    if source.contains(OMP_MARKER) {
        commands::announce("build_command", &shown(" -fopenmp"));
        built = Some(sh(&command_with(" -fopenmp")).map_err(run_err("build_command"))?)
            .filter(|o| o.status.success());
    }
    let o = match built {
        Some(o) => o,
        None => {
            commands::announce("build_command", &shown(""));
            sh(&command).map_err(run_err("build_command"))?
        }
    };
    if !o.status.success() {
        let mut output = String::from_utf8_lossy(&o.stderr).into_owned();
        output.push_str(&String::from_utf8_lossy(&o.stdout));
        return Err(BuildError::Compile { command, output });
    }
    // A command that succeeds without writing the binary (`build_command = 'true'`) is a
    // failed build, not a file-system error (issue 25 G17).
    if !tmp.is_file() {
        return Err(BuildError::Compile {
            command,
            output: "it exited 0 but wrote no binary at the path after -o; the build command must compile the skeleton source it is given (`-o BINARY SOURCE` are appended)".into(),
        });
    }
    Ok(())
}

/// Compile a rendered skeleton with `build_command` (already substituted) and `libs`, running the
/// optional pre/post-build commands. Returns the path of the (cached) binary.
pub fn build(
    source: &str,
    build_command: &str,
    libs: &str,
    prebuild: Option<&str>,
    postbuild: Option<&str>,
    dir: &Path,
) -> Result<PathBuf, BuildError> {
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |error| BuildError::Io { path, error }
    };
    // Opened once: every later access is relative to this descriptor (issue 25 G1).
    let cache = cache::CacheDir::open(dir)?;
    let mut h = Sha256::new();
    h.update(source.as_bytes());
    h.update([0]);
    h.update(build_command.as_bytes());
    h.update([0]);
    h.update(libs.as_bytes());
    // The hooks are part of the key: a different (or newly failing) pre/post-build command is a
    // different build, never a cached success (issue 15 F20).
    for hook in [prebuild, postbuild] {
        h.update([0]);
        h.update(hook.unwrap_or("\u{1}").as_bytes());
    }
    let hash = hex::encode(&h.finalize()[..10]);
    let name = format!("skeleton-{hash}");
    let exe = dir.join(&name);
    if cache.exists(&name) {
        if let Some(verified) = cache.open_verified(&name, source) {
            tracing::debug!(skeleton = %exe.display(), "timing skeleton: cached");
            return Ok(verified.keep());
        }
        // Tampered, truncated or foreign: never run it; build it again.
        orcl_frontend::errln!(
            "warning: the cached skeleton {} does not match its recorded source and digest; rebuilding it",
            exe.display()
        );
        sealed::remove(&cache, &name);
        cache.remove(&format!("{name}.c"));
    }
    // Written under a per-process name and renamed: concurrent tunes never see a partial file.
    // The compiler gets paths through the cache's descriptor (`/proc/PID/fd/N/NAME`).
    let pid = std::process::id();
    let tmp_src_name = format!("skeleton-{hash}.{pid}.c");
    let tmp_src = cache.through_fd(&tmp_src_name);
    let tmp = cache.through_fd(&format!("skeleton-{hash}.tmp{pid}"));
    let _scratch = Scratch(vec![tmp_src.clone(), tmp.clone()]);
    cache
        .write_new(&tmp_src_name, source.as_bytes())
        .map_err(io(&dir.join(&tmp_src_name)))?;
    if let Some(pre) = prebuild {
        commands::announce("prebuild_command", pre);
        let o = sh(pre).map_err(run_err("prebuild_command"))?;
        if !o.status.success() {
            return Err(BuildError::Hook {
                which: "prebuild_command",
                command: pre.into(),
                output: String::from_utf8_lossy(&o.stderr).into(),
            });
        }
    }
    compile(source, build_command, libs, &tmp, &tmp_src)?;
    // The post-build command runs before the binary is put in place: when it fails, nothing is
    // cached and the next run fails the same way (issue 15 F20).
    if let Some(post) = postbuild {
        commands::announce("postbuild_command", post);
        let o = sh(post).map_err(run_err("postbuild_command"))?;
        if !o.status.success() {
            let _ = std::fs::remove_file(&tmp);
            let _ = std::fs::remove_file(&tmp_src);
            return Err(BuildError::Hook {
                which: "postbuild_command",
                command: post.into(),
                output: String::from_utf8_lossy(&o.stderr).into(),
            });
        }
    }
    install_entry(&cache, &hash).map_err(io(&exe))?;
    tracing::debug!(skeleton = %exe.display(), "timing skeleton: built");
    // Run by the descriptor whose content was just hashed, as a cached entry is.
    match cache.open_verified(&name, source) {
        Some(verified) => Ok(verified.keep()),
        None => Err(BuildError::UnsafeCache {
            path: dir.display().to_string(),
            reason: format!(
                "the skeleton {name} just built there does not verify (changed while orcl ran?)"
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 25 G1: a cache path through a symbolic link another user owns is refused (the link
    /// could be switched between two uses); the same path through a link of this user's is not.
    #[test]
    fn a_cache_through_another_users_link_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real");
        std::fs::create_dir(&real).unwrap();
        let link = d.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        secure_dir(&link.join("cache")).unwrap();
        let c = std::ffi::CString::new(link.to_str().unwrap()).unwrap();
        // Only root can give a link to another user; elsewhere this half cannot run.
        if unsafe { libc::lchown(c.as_ptr(), 65534, 65534) } != 0 {
            eprintln!("skipped: lchown needs root");
            return;
        }
        let e = secure_dir(&link.join("cache")).unwrap_err();
        assert!(
            e.to_string()
                .contains("a symbolic link owned by user id 65534"),
            "{e}"
        );
    }

    /// A C program whose loop is under the skeleton's OpenMP pragma; prints whether OpenMP was on
    /// and the loop's result.
    fn omp_program(increment: &str) -> String {
        format!(
            "#include <stdio.h>\nint main(void) {{ int i, n = 100; long s[100] = {{0}};\n\
             #ifdef _OPENMP\n{OMP_MARKER} private(i)\n#endif\n\
             for (i = 1; i < n; {increment}) s[i] = i;\n\
             #ifdef _OPENMP\nputs(\"omp\");\n#else\nputs(\"serial\");\n#endif\n\
             printf(\"%ld\\n\", s[63]); return 0; }}\n"
        )
    }

    fn run_built(increment: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let exe = build(
            &omp_program(increment),
            "cc -O1",
            "",
            None,
            None,
            dir.path(),
        )
        .expect("the program builds, with or without OpenMP");
        let out = Command::new(&exe).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    }

    #[test]
    fn parallel_reference_builds_with_openmp() {
        assert_eq!(run_built("i++"), "omp\n63\n");
    }

    #[test]
    fn parallel_reference_falls_back_to_serial_when_openmp_rejects_the_loop() {
        // `i = i * 2 + 1` is no canonical OpenMP increment: `-fopenmp` fails, the serial build runs.
        assert_eq!(run_built("i = i * 2 + 1"), "serial\n63\n");
    }

    /// Scratch names carry the pid of the build that writes them (removed once it is gone);
    /// entries, their source copies and digests do not.
    #[test]
    fn scratch_names_name_their_build() {
        assert_eq!(scratch_pid("skeleton-ab.123.c"), Some(123));
        assert_eq!(scratch_pid("skeleton-ab.tmp123"), Some(123));
        assert_eq!(scratch_pid("skeleton-ab.sum123"), Some(123));
        for entry in [
            "skeleton-ab",
            "skeleton-ab.c",
            "skeleton-ab.sha256",
            "other.sum123",
        ] {
            assert_eq!(scratch_pid(entry), None, "{entry}");
        }
    }

    #[test]
    fn substitution_is_shell_safe() {
        let env = |n: &str| match n {
            "CL" => Some(Value::Str("-O3; touch /tmp/pwned".into())),
            "U" => Some(Value::Int(4)),
            _ => None,
        };
        assert_eq!(
            substitute("cc @CL@ -DU=@U@ a@b", &env).unwrap(),
            "cc '-O3;' touch /tmp/pwned -DU=4 a@b"
        );
        // Orio's `@CFLAGS` (no closing `@`): the parameter's words, or nothing without one.
        let env2 = |n: &str| match n {
            "CFLAGS" => Some(Value::Str("-Xptxas -dlcm=cg".into())),
            _ => None,
        };
        assert_eq!(
            substitute("nvcc -arch=sm_75 @CFLAGS", &env2).unwrap(),
            "nvcc -arch=sm_75 -Xptxas '-dlcm=cg'"
        );
        assert_eq!(
            substitute_as("@CFLAGS", &env2, false).unwrap(),
            "-Xptxas -dlcm=cg"
        );
        assert_eq!(substitute("cc @CFLAGS -c", &env).unwrap(), "cc  -c");
        assert_eq!(substitute("cc @CFLAGSX", &env2).unwrap(), "cc @CFLAGSX");
        assert_eq!(substitute("cc @NOPE@", &env).unwrap_err(), "NOPE");
    }

    #[test]
    fn orio_nvcc_build_command_becomes_host_cc_and_nvrtc_flags() {
        let spec = orcl_frontend::spec::parse_spec(
            "def build { arg build_command = 'nvcc -g -arch=sm_75 -Xptxas -dlcm=ca @CFLAGS'; }",
            0,
        )
        .unwrap();
        let env = |n: &str| (n == "CFLAGS").then(|| Value::Str("-use_fast_math -O3".into()));
        let plan = build_plan(&spec, &env).unwrap();
        assert_eq!(plan.command, DEFAULT_BUILD_COMMAND);
        assert_eq!(plan.nvcc_flags, "-Xptxas -dlcm=ca -use_fast_math -O3");
        let w = site_warning(&spec).unwrap().message;
        assert!(w.contains("-g, -arch=sm_75 dropped"), "{w}");
        // TAU and C++ parts of a gcc command.
        let (cmd, flags, notes) =
            site_adjust("/usr/bin/c++ -O3 -I$X/include -lTAU -framework OpenCL -DA='b c'");
        assert_eq!(cmd, "cc -O3 -I$X/include '-DA=b c'");
        assert!(flags.is_empty());
        assert_eq!(notes.len(), 3, "{notes:?}");
    }
}
