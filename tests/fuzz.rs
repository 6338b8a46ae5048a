//! Property check of the front end (annotation + spec + loop; issue 15, "Standing checks"):
//! for any input, `orcl check` exits 0, or exits 2 with an error located at `file:line:col`;
//! it never panics or aborts (a stack overflow, an allocation failure under a 2 GiB address
//! space limit), and each run takes at most [`CASE_CPU`] of CPU (a hang without CPU is cut at
//! [`HANG_GUARD`] of wall time).
//!
//! Inputs come from three sources, each run as a separate `orcl check` process:
//! - the corpus `tests/fuzz/corpus/*.c` (inputs that once broke a promise, kept as seeds);
//! - generation over the grammar (proptest strategies for spec expressions, C expressions,
//!   loop statements, transform arguments, composed into a PerfTuning region);
//! - mutation of the example files and test inputs (`examples/`, `tests/inputs/`, `tests/in/`,
//!   the corpus):
//!   byte ranges deleted, duplicated or swapped, tokens from a dictionary of the grammar's
//!   delimiters, keywords and edge-case literals inserted, bytes replaced.
//!
//! - the G5/G6 shapes of issue 25 (`shapes`, tests/fuzz/shapes.rs): huge value lists, input size
//!   combinations, `#define` and comment floods, deep macro chains, long and expensive
//!   constraints, composed into the quick example up to the 16 MiB input cap; these are also held
//!   to the goal of at most [`SHAPE_CPU`] of CPU and [`SHAPE_RSS`] of resident memory.
//!
//! The generation is seeded (`ORCL_FUZZ_SEED`, default fixed) so that CI is reproducible.
//! `ORCL_FUZZ_CASES` sets the inputs per source (default 200, a smoke run in `make test`;
//! `make fuzz` runs 5000) and `ORCL_FUZZ_SECONDS` bounds the time of each of `grammar` and
//! `mutations` (default 150: later cases are skipped); `ORCL_FUZZ_SHAPE_CASES` (default 10) and
//! `ORCL_FUZZ_SHAPE_SECONDS` (default 100) do the same for `shapes`;
//! `ORCL_FUZZ_COMMAND=emit` checks the same property through code generation; `ORCL_FUZZ_BIN`
//! runs another orcl binary than the one cargo built (a long run from a copy, so that rebuilding
//! does not change the binary under test); `make fuzz-long` is the one-hour run. A failing input
//! is written to `target/fuzz-failures/` and named in the failure message; each property prints
//! its count of inputs and its slowest input (saved as `target/fuzz-slowest-NAME.c`).

#[path = "fuzz/shapes.rs"]
mod shapes;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Strategy, ValueTree};
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");
/// Longest one `orcl check` may run (a real check of these inputs takes milliseconds).
const CASE_CPU: Duration = Duration::from_secs(20);
/// Wall time after which a run is killed as hung. CPU time ([`CASE_CPU`], enforced with
/// `RLIMIT_CPU`) is the property: the one-hour run at nice 19 on the shared 2-core machine (load
/// average 10–15) saw checks of 0.9 s of CPU take over 20 s of wall time.
const HANG_GUARD: Duration = Duration::from_secs(600);
/// Address space limit of each run.
const MEMORY_LIMIT: u64 = 2 << 30;
/// CPU time (user + system, orcl and the preprocessor it runs) a shaped input may take: the
/// issue's goal, "`check` of any input ≤ 16 MiB finishes in ≤ 5 s". CPU rather than wall time, so
/// that other work on the machine does not fail the property (`ORCL_FUZZ_SHAPE_CPU_MS`).
const SHAPE_CPU: Duration = Duration::from_secs(5);
/// Largest resident set a shaped input may reach (the "≤ 1 GiB").
const SHAPE_RSS: u64 = 1 << 30;

/// What one run of orcl cost: wall time, CPU time (its own and its waited-for children's),
/// largest resident set in bytes.
#[derive(Debug, Clone, Copy, Default)]
struct Cost {
    wall: Duration,
    cpu: Duration,
    rss: u64,
    /// Exit code (`None`: a signal or killed for time).
    code: Option<i32>,
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn config(salt: u64) -> Config {
    Config {
        cases: env_u64("ORCL_FUZZ_CASES", 200) as u32,
        rng_seed: RngSeed::Fixed(env_u64("ORCL_FUZZ_SEED", 15).wrapping_add(salt)),
        failure_persistence: None,
        max_shrink_iters: 300,
        max_shrink_time: 60_000,
        ..Config::default()
    }
}

fn orcl() -> String {
    std::env::var("ORCL_FUZZ_BIN").unwrap_or_else(|_| ORCL.to_string())
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Run `orcl check` on `bytes` and check the property; the error says what broke and where the
/// input was saved.
fn check_property(bytes: &[u8]) -> Result<(), TestCaseError> {
    check_within(bytes, None).map(|_| ())
}

/// [`check_property`], and with `limits` (CPU time, resident bytes) the run's cost within them.
fn check_within(bytes: &[u8], limits: Option<(Duration, u64)>) -> Result<Cost, TestCaseError> {
    use std::os::unix::process::ExitStatusExt;
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = tempfile::Builder::new()
        .prefix("orcl-fuzz-")
        .tempdir()
        .unwrap();
    let file = dir.path().join("fuzz.c");
    std::fs::write(&file, bytes).unwrap();
    let mut cmd = Command::new(orcl());
    // `ORCL_FUZZ_COMMAND=emit` runs the same property through code generation (no device).
    cmd.arg(std::env::var("ORCL_FUZZ_COMMAND").unwrap_or_else(|_| "check".into()))
        .arg(&file)
        .current_dir(dir.path())
        .env("ORCL_CACHE_DIR", dir.path().join("cache"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: MEMORY_LIMIT,
                rlim_max: MEMORY_LIMIT,
            };
            libc::setrlimit(libc::RLIMIT_AS, &lim);
            let cpu = libc::rlimit {
                rlim_cur: CASE_CPU.as_secs() + 1,
                rlim_max: CASE_CPU.as_secs() + 2,
            };
            libc::setrlimit(libc::RLIMIT_CPU, &cpu);
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn().expect("spawn orcl");
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        use std::io::Read;
        let mut s = Vec::new();
        let _ = stderr.take(1 << 20).read_to_end(&mut s);
        s
    });
    let (status, mut cost) = wait_with_cost(&mut child, start);
    cost.code = status.and_then(|s| s.code());
    let stderr = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    let code = status.and_then(|s| s.code());
    let located = stderr.lines().any(|l| {
        l.find("fuzz.c:").is_some_and(|p| {
            let rest = &l[p + "fuzz.c:".len()..];
            let mut parts = rest.splitn(3, ':');
            let num = |s: Option<&str>| {
                s.is_some_and(|s| {
                    let d: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
                    !d.is_empty()
                })
            };
            num(parts.next()) && num(parts.next())
        })
    });
    let over = limits.and_then(|(cpu, rss)| {
        if cost.cpu > cpu {
            Some(format!(
                "took {:?} of CPU, over {cpu:?} ({cost:?})",
                cost.cpu
            ))
        } else if cost.rss > rss {
            Some(format!(
                "reached {} MiB, over {} MiB ({cost:?})",
                cost.rss >> 20,
                rss >> 20
            ))
        } else {
            None
        }
    });
    let why = match code {
        _ if status.is_none() => Some(format!("hung: ran longer than {HANG_GUARD:?}")),
        _ if cost.cpu > CASE_CPU || status.and_then(|s| s.signal()) == Some(libc::SIGXCPU) => {
            Some(format!("took more than {CASE_CPU:?} of CPU ({cost:?})"))
        }
        _ if over.is_some() => over,
        _ if stderr.contains("panicked") => Some("panicked".to_string()),
        Some(0) => None,
        // 4: some regions refused (each with its located error), the others checked.
        Some(2 | 4) if located => None,
        Some(2) => Some("exit 2 without a located `file:line:col` error".to_string()),
        Some(c) => Some(format!("exit {c}")),
        None => Some(format!("killed by a signal ({:?})", status)),
    };
    match why {
        None => Ok(cost),
        Some(why) => {
            let out = root().join("target/fuzz-failures");
            std::fs::create_dir_all(&out).unwrap();
            let saved = out.join(format!(
                "case-{}-{}.c",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::write(&saved, bytes).unwrap();
            let tail: String = stderr
                .chars()
                .rev()
                .take(1500)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            Err(TestCaseError::fail(format!(
                "orcl check {}: {why}\n{tail}",
                saved.display()
            )))
        }
    }
}

/// Wait for `child` (polling every 2 ms, killing it past [`HANG_GUARD`]) with `wait4`, which
/// also gives its resource use; `None` when it was killed for time.
fn wait_with_cost(
    child: &mut std::process::Child,
    start: Instant,
) -> (Option<std::process::ExitStatus>, Cost) {
    use std::os::unix::process::ExitStatusExt;
    let pid = child.id() as libc::pid_t;
    let mut killed = false;
    loop {
        let mut status = 0;
        // SAFETY: plain syscall on our own child, with pointers to locals.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        let flags = if killed { 0 } else { libc::WNOHANG };
        let r = unsafe { libc::wait4(pid, &mut status, flags, &mut ru) };
        if r == pid {
            let tv = |t: libc::timeval| {
                Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
            };
            let cost = Cost {
                wall: start.elapsed(),
                cpu: tv(ru.ru_utime) + tv(ru.ru_stime),
                rss: ru.ru_maxrss as u64 * 1024,
                code: None,
            };
            let status = std::process::ExitStatus::from_raw(status);
            return ((!killed).then_some(status), cost);
        }
        assert!(r == 0, "wait4: {}", std::io::Error::last_os_error());
        if start.elapsed() > HANG_GUARD {
            // SAFETY: our child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            killed = true;
            continue;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Run `strategy`'s inputs through the property (with `limits`, see [`check_within`]) for at most
/// `cases` inputs and `seconds`; print the count and the slowest input (by CPU time), saved as
/// `target/fuzz-slowest-NAME.c`.
fn run_property_within(
    name: &str,
    salt: u64,
    strategy: impl Strategy<Value = Vec<u8>>,
    (cases, seconds): (u64, u64),
    limits: Option<(Duration, u64)>,
) {
    let mut cfg = config(salt);
    cfg.cases = cases as u32;
    let mut runner = TestRunner::new(cfg);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let done = AtomicUsize::new(0);
    let slowest = std::sync::Mutex::new((Cost::default(), 0usize, Vec::new()));
    let codes = std::sync::Mutex::new(std::collections::BTreeMap::<Option<i32>, usize>::new());
    // Past the deadline every case is rejected, which ends the run after proptest's
    // `max_global_rejects` (1024) rejections instead of generating all of `cases` inputs.
    let r = runner.run(&strategy, |bytes| {
        if Instant::now() > deadline {
            return Err(TestCaseError::reject("past ORCL_FUZZ_*SECONDS"));
        }
        done.fetch_add(1, Ordering::Relaxed);
        let cost = check_within(&bytes, limits)?;
        *codes.lock().unwrap().entry(cost.code).or_default() += 1;
        let mut s = slowest.lock().unwrap();
        if cost.cpu >= s.0.cpu {
            *s = (cost, bytes.len(), bytes);
        }
        Ok(())
    });
    let (cost, len, bytes) = slowest.into_inner().unwrap();
    let saved = root().join(format!("target/fuzz-slowest-{name}.c"));
    let _ = std::fs::write(&saved, bytes);
    let max_rss = cost.rss >> 20;
    eprintln!(
        "{name}: {} inputs checked (exit codes: {:?}); slowest: {:.2} s CPU, {:.2} s wall, {max_rss} MiB, {len} bytes ({})",
        done.load(Ordering::Relaxed),
        codes.into_inner().unwrap(),
        cost.cpu.as_secs_f64(),
        cost.wall.as_secs_f64(),
        saved.display()
    );
    match r {
        Err(proptest::test_runner::TestError::Abort(_)) if Instant::now() > deadline => {}
        Err(e) => panic!("{name}: {e}"),
        Ok(()) => {}
    }
}

fn run_property(name: &str, salt: u64, strategy: impl Strategy<Value = Vec<u8>>) {
    let budget = (
        env_u64("ORCL_FUZZ_CASES", 200),
        env_u64("ORCL_FUZZ_SECONDS", 150),
    );
    run_property_within(name, salt, strategy, budget, None);
}

// ---------------------------------------------------------------------------------------------
// Grammar
// ---------------------------------------------------------------------------------------------

fn pick(items: &'static [&'static str]) -> BoxedStrategy<String> {
    proptest::sample::select(items)
        .prop_map(str::to_string)
        .boxed()
}

/// Literals at the edges of what the languages accept.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "4096",
    "2.5",
    "1e309",
    "1e-400",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "0x7fffffffffffffff",
    "0x",
    "09",
    "017",
    "1.5f",
    "1e39f",
    "3.",
    ".5",
    "1_000",
    "1__0",
    "12abc",
];

/// A spec-language expression.
fn spec_expr() -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        pick(NUMBERS),
        pick(&["WI", "UI", "N", "M", "L0", "True", "False", "'abc'", "''", "'\\n'", "random", "x"]),
        (0i64..20, 0i64..50).prop_map(|(a, b)| format!("range({a}, {b})")),
        any::<i64>().prop_map(|v| v.to_string()),
    ];
    leaf.prop_recursive(6, 64, 4, |inner| {
        prop_oneof![
            (
                inner.clone(),
                pick(&[
                    "+", "-", "*", "/", "//", "%", "**", "==", "!=", "<", "<=", "and", "or", "in",
                    "not in"
                ]),
                inner.clone()
            )
                .prop_map(|(a, o, b)| format!("{a} {o} {b}")),
            (pick(&["-", "not ", "+"]), inner.clone()).prop_map(|(o, a)| format!("{o}{a}")),
            inner.clone().prop_map(|a| format!("({a})")),
            proptest::collection::vec(inner.clone(), 0..4)
                .prop_map(|v| format!("[{}]", v.join(", "))),
            (
                pick(&["len", "min", "max", "abs", "int", "float", "str", "range", "foo"]),
                proptest::collection::vec(inner.clone(), 0..3)
            )
                .prop_map(|(f, v)| format!("{f}({})", v.join(", "))),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(e, l, c)| format!("[{e} for x in {l} if {c}]")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, c, b)| format!("{a} if {c} else {b}")),
        ]
    })
    .boxed()
}

/// A C expression of the loop language (and some outside it).
fn c_expr() -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        pick(&["x[i]", "y[i]", "a", "i", "n", "x[i+1]", "x[n-1-i]", "t", "q", "1.0/0.0"]),
        pick(NUMBERS),
    ];
    leaf.prop_recursive(6, 64, 4, |inner| {
        prop_oneof![
            (
                inner.clone(),
                pick(&["+", "-", "*", "/", "%", "<", "<=", "==", "!=", "&&", "||", "&", "<<", ","]),
                inner.clone()
            )
                .prop_map(|(a, o, b)| format!("{a} {o} {b}")),
            (pick(&["-", "!", "+", "~", "*", "&", "++"]), inner.clone())
                .prop_map(|(o, a)| format!("{o}{a}")),
            inner.clone().prop_map(|a| format!("({a})")),
            (
                pick(&["(double)", "(float)", "(int)", "(long)", "(char*)"]),
                inner.clone()
            )
                .prop_map(|(t, a)| format!("{t}{a}")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("{c} ? {a} : {b}")),
            (pick(&["sqrt", "fabs", "exp", "foo", "fmax"]), inner.clone())
                .prop_map(|(f, a)| format!("{f}({a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("fmax({a}, {b})")),
            inner.clone().prop_map(|a| format!("x[{a}]")),
        ]
    })
    .boxed()
}

/// A statement of the loop body.
fn c_stmt() -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        (
            pick(&["y[i]", "t", "q", "a", "x[i]", "y[0]", "(y[i])"]),
            pick(&["=", "+=", "-=", "*=", "/=", "%="]),
            c_expr()
        )
            .prop_map(|(l, o, e)| format!("{l} {o} {e};")),
        c_expr().prop_map(|e| format!("double t = {e};")),
        pick(&["y[i]++;", ";", "break;", "return;", "q = 0;", "goto l;"]),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (c_expr(), inner.clone()).prop_map(|(c, s)| format!("if ({c}) {s}")),
            (c_expr(), inner.clone(), inner.clone())
                .prop_map(|(c, s, t)| format!("if ({c}) {s} else {t}")),
            proptest::collection::vec(inner.clone(), 0..3)
                .prop_map(|v| format!("{{ {} }}", v.join(" "))),
            (
                pick(&[
                    "j=0; j<n; j++",
                    "j=0; j<4; j+=2",
                    "int j=0; j<=n-1; ++j",
                    "j=n; j>0; j--"
                ]),
                inner.clone()
            )
                .prop_map(|(h, s)| format!("for ({h}) {s}")),
            (c_expr(), inner.clone()).prop_map(|(c, s)| format!("while ({c}) {s}")),
        ]
    })
    .boxed()
}

/// A whole file: a PerfTuning region around a Loop annotation, every part generated.
fn grammar_file() -> impl Strategy<Value = Vec<u8>> {
    let param = (pick(&["WI", "UI", "CB", "Z", "N", "L0"]), spec_expr())
        .prop_map(|(n, e)| format!("param {n}[] = {e};"));
    // Each part is valid three times in four, so that whole files get through the front end
    // (and reach the later checks) about one time in five.
    let perf = proptest::collection::vec(
        prop_oneof![
            3 => param,
            1 => spec_expr().prop_map(|e| format!("constraint c = {e};")),
            1 => spec_expr().prop_map(|e| format!("let L0 = {e};")),
        ],
        0..4,
    );
    let perf = prop_oneof![
        3 => Just(vec!["param UI[] = [1, 2];".to_string()]),
        1 => perf,
    ];
    let inputs = prop_oneof![
        3 => Just("param N[] = [1000];".to_string()),
        1 => spec_expr().prop_map(|e| format!("param N[] = {e};")),
    ];
    let args = proptest::collection::vec(
        (
            pick(&[
                "repetitions",
                "timeout",
                "algorithm",
                "total_runs",
                "build_command",
                "bogus",
            ]),
            spec_expr(),
        )
            .prop_map(|(a, e)| format!("arg {a} = {e};")),
        0..3,
    );
    let args = prop_oneof![3 => Just(vec![]), 1 => args];
    let transform = proptest::collection::vec(
        (
            pick(&[
                "workItemsPerGroup",
                "unrollInner",
                "workGroups",
                "cacheBlocks",
                "vecWidth",
                "tile",
                "device",
                "bogus",
            ]),
            spec_expr(),
        )
            .prop_map(|(a, e)| format!("{a}={e}")),
        0..3,
    );
    let transform = prop_oneof![3 => Just(vec!["unrollInner=UI".to_string()]), 1 => transform];
    let header = prop_oneof![3 => Just("for (i=0; i<=n-1; i++)".to_string()), 1 => pick(&[
        "for (i=0; i<=n-1; i++)",
        "for (i=0; i<n; i++)",
        "for (int i=0; i<n; i+=2)",
        "for (i=n; i>0; i--)",
        "for (i=0; i<n; )",
    ])];
    let body = prop_oneof![
        3 => Just(vec!["y[i] += a*x[i];".to_string()]),
        1 => proptest::collection::vec(c_stmt(), 1..4),
    ];
    (perf, inputs, args, transform, header, body).prop_map(
        |(perf, inputs, args, transform, header, body)| {
            let mut t = vec!["workItemsPerGroup=WI".to_string()];
            t.extend(transform);
            let loop_text = format!("{header} {{\n        {}\n    }}", body.join("\n        "));
            format!(
                "void f(int n, double a, double *x, double *y) {{\n    int i, j; double t, q;\n    /*@ begin PerfTuning(\n        def performance_params {{\n            param WI[] = [16, 64];\n            {}\n        }}\n        def build {{ arg build_command = 'cc -O2'; }}\n        def input_params {{ {} }}\n        def input_vars {{\n            decl int n = N;\n            decl double a = random;\n            decl static double x[N] = random;\n            decl static double y[N] = random;\n        }}\n        def performance_counter {{ {} }}\n    ) @*/\n    /*@ begin Loop(transform OpenCL({})\n    {}\n    ) @*/\n    {}\n    /*@ end @*/\n    /*@ end @*/\n}}\n",
                perf.join("\n            "),
                inputs,
                args.join(" "),
                t.join(", "),
                loop_text,
                loop_text,
            )
            .into_bytes()
        },
    )
}

// ---------------------------------------------------------------------------------------------
// Mutation
// ---------------------------------------------------------------------------------------------

/// Seeds for mutation: the examples, the test inputs and the corpus.
fn seeds() -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    for dir in [
        "examples",
        "tests/inputs/ok",
        "tests/in",
        "tests/inputs/bad",
        "tests/inputs/orio",
        "tests/in",
        "tests/fuzz/corpus",
    ] {
        let Ok(rd) = std::fs::read_dir(root().join(dir)) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "c")
                && !p.file_name().unwrap().to_string_lossy().starts_with('_')
            {
                files.push(p);
            }
        }
    }
    files.sort();
    files
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .filter(|b| b.len() < 200_000)
        .collect()
}

/// Tokens inserted by mutations: delimiters, keywords, edge-case literals, hostile bytes.
const DICTIONARY: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    ",",
    "=",
    "'",
    "\"",
    "\\",
    "\n",
    "/*",
    "*/",
    "/*@",
    "@*/",
    "//",
    "#define X(",
    "begin",
    "end",
    "Loop",
    "PerfTuning",
    "transform",
    "OpenCL",
    "CUDA",
    "def",
    "param",
    "constraint",
    "decl",
    "arg",
    "let",
    "for",
    "if",
    "else",
    "range(",
    "[[[[",
    "((((",
    "}}}}",
    "0",
    "-1",
    "1e309",
    "18446744073709551616",
    "09",
    "/0",
    "%0",
    "é",
    "\u{0}",
    "\u{1b}]0;x\u{7}",
    "\u{feff}",
    "\t",
    "  ",
    "i++",
    "x[i]",
    "@",
    "$",
    "?",
    ":",
    "...",
];

#[derive(Debug, Clone)]
enum Mutation {
    Delete(f64, usize),
    Duplicate(f64, usize),
    Insert(f64, usize),
    Byte(f64, u8),
    Swap(f64, f64, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = 0.0f64..1.0;
    let len = prop_oneof![3 => 1usize..8, 1 => 8usize..400];
    prop_oneof![
        (at.clone(), len.clone()).prop_map(|(a, l)| Mutation::Delete(a, l)),
        (at.clone(), len.clone()).prop_map(|(a, l)| Mutation::Duplicate(a, l)),
        (at.clone(), 0..DICTIONARY.len()).prop_map(|(a, k)| Mutation::Insert(a, k)),
        (at.clone(), any::<u8>()).prop_map(|(a, b)| Mutation::Byte(a, b)),
        (at.clone(), at, len).prop_map(|(a, b, l)| Mutation::Swap(a, b, l)),
    ]
}

fn apply(mut v: Vec<u8>, ms: &[Mutation]) -> Vec<u8> {
    let pos = |v: &Vec<u8>, a: f64| ((v.len() as f64) * a) as usize;
    for m in ms {
        match *m {
            Mutation::Delete(a, l) => {
                let p = pos(&v, a);
                let e = (p + l).min(v.len());
                v.drain(p..e);
            }
            Mutation::Duplicate(a, l) => {
                let p = pos(&v, a);
                let e = (p + l).min(v.len());
                let chunk = v[p..e].to_vec();
                v.splice(e..e, chunk);
            }
            Mutation::Insert(a, k) => {
                let p = pos(&v, a);
                v.splice(p..p, DICTIONARY[k].bytes());
            }
            Mutation::Byte(a, b) => {
                let p = pos(&v, a);
                if p < v.len() {
                    v[p] = b;
                }
            }
            Mutation::Swap(a, b, l) => {
                let (p, q) = (pos(&v, a.min(b)), pos(&v, a.max(b)));
                let l = l.min(q - p).min(v.len() - q);
                for k in 0..l {
                    v.swap(p + k, q + k);
                }
            }
        }
    }
    v
}

fn mutated_file() -> impl Strategy<Value = Vec<u8>> {
    let seeds = seeds();
    assert!(!seeds.is_empty(), "no seed files");
    (0..seeds.len(), proptest::collection::vec(mutation(), 1..6))
        .prop_map(move |(k, ms)| apply(seeds[k].clone(), &ms))
}

// ---------------------------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------------------------

/// Every corpus file satisfies the property (these once broke it).
#[test]
fn corpus() {
    let dir = root().join("tests/fuzz/corpus");
    let mut n = 0;
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.extension().is_none_or(|x| x != "c") {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap();
        if let Err(e) = check_property(&bytes) {
            panic!("{}: {e}", p.display());
        }
        n += 1;
    }
    assert!(n > 0, "no corpus files in {}", dir.display());
}

/// Generated over the grammar.
#[test]
fn grammar() {
    run_property("grammar", 1, grammar_file());
}

/// Mutated examples and test inputs.
#[test]
fn mutations() {
    run_property("mutations", 2, mutated_file());
}

/// The G5/G6 shapes (tests/fuzz/shapes.rs), each within the CPU and memory goal.
#[test]
fn shapes() {
    let base = std::fs::read_to_string(root().join("examples/axpy_quick.c")).unwrap();
    let budget = (
        env_u64("ORCL_FUZZ_SHAPE_CASES", 10),
        env_u64("ORCL_FUZZ_SHAPE_SECONDS", 100),
    );
    let cpu = Duration::from_millis(env_u64(
        "ORCL_FUZZ_SHAPE_CPU_MS",
        SHAPE_CPU.as_millis() as u64,
    ));
    let strategy = shapes::shaped_file(base);
    run_property_within("shapes", 4, strategy, budget, Some((cpu, SHAPE_RSS)));
}

/// The generators themselves reach both outcomes (a front end that rejected everything would
/// pass the property vacuously).
#[test]
fn generated_inputs_reach_both_outcomes() {
    let mut runner = TestRunner::new(config(3));
    let mut codes = std::collections::BTreeSet::new();
    let s = grammar_file();
    for _ in 0..200 {
        let bytes = s.new_tree(&mut runner).unwrap().current();
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("fuzz.c");
        std::fs::write(&f, &bytes).unwrap();
        let out = Command::new(ORCL)
            .arg("check")
            .arg(&f)
            .env("ORCL_CACHE_DIR", dir.path().join("cache"))
            .output()
            .unwrap();
        codes.insert(out.status.code());
        if codes.len() >= 2 {
            break;
        }
    }
    assert!(
        codes.contains(&Some(0)) && codes.contains(&Some(2)),
        "{codes:?}"
    );
    let _ = Path::new(ORCL);
}
