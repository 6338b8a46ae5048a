//! Input errors end to end: the built `orcl` binary run on malformed inputs (`tests/inputs/bad/`,
//! each a reduced examples/axpy_quick.c with one defect) must exit 2 with a located diagnostic
//! (`error: ...`, `--> path:line:col`, the source line, a caret under the culprit, a `help:` where
//! a fix can be suggested), leave the input untouched, write no `_NAME.c`, build nothing and never
//! panic. Each case runs on a copy in a temporary directory.
//!

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// A command that should fail at once gets this long before it is killed as hung.
const TIMEOUT: Duration = Duration::from_secs(120);

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn bad_input(name: &str) -> Vec<u8> {
    let p = manifest_dir()
        .join("tests/inputs/bad")
        .join(format!("{name}.c"));
    fs::read(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// What one diagnostic must look like.
#[derive(Debug, Clone, Copy)]
struct Expect<'a> {
    /// A fragment of the message after `error: `.
    message: &'a str,
    line: usize,
    /// 1-based column in characters; `None`: only the line is checked (and that the caret sits
    /// at the reported column).
    col: Option<usize>,
    /// What the caret underlines must start with.
    under: Option<&'a str>,
    /// A fragment of the `= help:` line.
    help: Option<&'a str>,
}

fn at(message: &str, line: usize, col: usize) -> Expect<'_> {
    Expect {
        message,
        line,
        col: Some(col),
        under: None,
        help: None,
    }
}

impl<'a> Expect<'a> {
    fn under(mut self, text: &'a str) -> Self {
        self.under = Some(text);
        self
    }
    fn help(mut self, text: &'a str) -> Self {
        self.help = Some(text);
        self
    }
    fn any_col(mut self) -> Self {
        self.col = None;
        self
    }
}

/// The result of one run of the binary.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// One input file, copied into a fresh temporary directory.
struct Case {
    dir: tempfile::TempDir,
    /// The file name, as passed to `orcl` (relative to `dir`, the working directory).
    name: String,
    original: Vec<u8>,
}

impl Case {
    /// `tests/inputs/bad/NAME.c`, copied.
    fn input(name: &str) -> Case {
        Case::from_bytes(&format!("{name}.c"), bad_input(name))
    }

    fn from_bytes(name: &str, bytes: Vec<u8>) -> Case {
        let dir = tempfile::tempdir().expect("temp dir");
        fs::write(dir.path().join(name), &bytes).expect("write input");
        Case {
            dir,
            name: name.to_string(),
            original: bytes,
        }
    }

    fn path(&self) -> PathBuf {
        self.dir.path().join(&self.name)
    }

    fn cache_dir(&self) -> PathBuf {
        self.dir.path().join("skeleton-cache")
    }

    fn db(&self) -> PathBuf {
        self.dir.path().join("x.db")
    }

    /// Run `orcl ARGS` in the case's directory, with the skeleton cache inside it.
    fn run(&self, args: &[&str]) -> Run {
        let out = self.dir.path().join("stdout.txt");
        let err = self.dir.path().join("stderr.txt");
        let mut child = Command::new(ORCL)
            .args(args)
            .current_dir(self.dir.path())
            .env("ORCL_CACHE_DIR", self.cache_dir())
            .env_remove("ORCL_TEST_FAULT")
            .stdin(Stdio::null())
            .stdout(fs::File::create(&out).expect("stdout file"))
            .stderr(fs::File::create(&err).expect("stderr file"))
            .spawn()
            .expect("run orcl");
        let start = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().expect("wait for orcl") {
                break s;
            }
            if start.elapsed() > TIMEOUT {
                let _ = child.kill();
                let _ = child.wait();
                panic!("`orcl {}` still running after {TIMEOUT:?}", args.join(" "));
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let read =
            |p: &Path| String::from_utf8_lossy(&fs::read(p).unwrap_or_default()).into_owned();
        let run = Run {
            code: status.code(),
            stdout: read(&out),
            stderr: read(&err),
        };
        fs::remove_file(&out).ok();
        fs::remove_file(&err).ok();
        run
    }

    /// `orcl check NAME`.
    fn check(&self) -> Run {
        self.run(&["check", &self.name])
    }

    /// `orcl tune NAME --db x.db`.
    fn tune(&self) -> Run {
        let db = self.db();
        self.run(&[
            "tune",
            &self.name,
            "--db",
            db.to_str().expect("utf-8 temp path"),
        ])
    }

    /// The input is byte for byte what it was, no `_NAME` was written, and no skeleton was built.
    fn assert_untouched(&self, run: &Run) {
        let now = fs::read(self.path()).expect("input still there");
        assert!(
            now == self.original,
            "{} was modified\nstderr:\n{}",
            self.name,
            run.stderr
        );
        for e in fs::read_dir(self.dir.path())
            .expect("list temp dir")
            .flatten()
        {
            let f = e.file_name().to_string_lossy().into_owned();
            assert!(
                !f.starts_with('_'),
                "orcl wrote `{f}` for a bad input\nstderr:\n{}",
                run.stderr
            );
        }
        let cache = self.cache_dir();
        let built = fs::read_dir(&cache).map(|d| d.count()).unwrap_or(0);
        assert_eq!(
            built,
            0,
            "orcl built something in {} for a bad input\nstderr:\n{}",
            cache.display(),
            run.stderr
        );
    }
}

/// The lines of the diagnostic whose `error: ` line contains `fragment`, up to the next one.
fn diagnostic_block<'s>(stderr: &'s str, fragment: &str) -> Vec<&'s str> {
    let lines: Vec<&str> = stderr.lines().collect();
    let Some(start) = lines
        .iter()
        .position(|l| l.starts_with("error: ") && l.contains(fragment))
    else {
        panic!("no `error: ...{fragment}...` in stderr:\n{stderr}");
    };
    let end = lines[start + 1..]
        .iter()
        .position(|l| l.starts_with("error: ") || l.is_empty())
        .map_or(lines.len(), |p| start + 1 + p);
    lines[start..end].to_vec()
}

/// Check one rendered diagnostic of `stderr` about `path` (as printed), whose text is `source`.
fn assert_diagnostic(stderr: &str, path: &str, source: &[u8], e: &Expect) {
    assert!(!stderr.contains("panicked"), "orcl panicked:\n{stderr}");
    let block = diagnostic_block(stderr, e.message);
    let ctx = || format!("diagnostic:\n{}\nfull stderr:\n{stderr}", block.join("\n"));

    // `--> path:line:col`
    let arrow = block
        .iter()
        .map(|l| l.trim_start())
        .find(|l| l.starts_with("--> "))
        .unwrap_or_else(|| panic!("no `-->` line\n{}", ctx()));
    let loc = arrow
        .strip_prefix("--> ")
        .and_then(|l| l.strip_prefix(path))
        .and_then(|l| l.strip_prefix(':'))
        .unwrap_or_else(|| panic!("`{arrow}` does not name `{path}`\n{}", ctx()));
    let (line, col) = loc
        .split_once(':')
        .and_then(|(l, c)| Some((l.parse::<usize>().ok()?, c.parse::<usize>().ok()?)))
        .unwrap_or_else(|| panic!("bad location `{loc}`\n{}", ctx()));
    assert_eq!(line, e.line, "wrong line\n{}", ctx());
    if let Some(c) = e.col {
        assert_eq!(col, c, "wrong column\n{}", ctx());
    }

    // `N | <source line>`, the line as it is in the file.
    let text = String::from_utf8_lossy(source);
    let want_src = text
        .split('\n')
        .nth(line - 1)
        .unwrap_or_else(|| panic!("the file has no line {line}"))
        .trim_end_matches('\r')
        .replace('\t', " ");
    let num = format!("{line} | ");
    let shown = block
        .iter()
        .find_map(|l| l.strip_prefix(&num))
        .unwrap_or_else(|| panic!("no source line `{num}...`\n{}", ctx()));
    assert_eq!(
        shown.trim_end_matches('\r'),
        want_src,
        "source line not shown as in the file\n{}",
        ctx()
    );

    // `  |     ^^^^`: carets start at the column and underline the culprit.
    let caret = block
        .iter()
        .find(|l| l.contains('^') && l.trim_start().starts_with('|'))
        .unwrap_or_else(|| panic!("no caret line\n{}", ctx()));
    let after_bar = &caret[caret.find("| ").expect("caret gutter") + 2..];
    let lead = after_bar.chars().take_while(|c| *c == ' ').count();
    let width = after_bar[lead..].chars().take_while(|c| *c == '^').count();
    assert!(width >= 1, "no caret\n{}", ctx());
    assert_eq!(
        after_bar[lead + width..].trim(),
        "",
        "stray text after the carets\n{}",
        ctx()
    );
    assert_eq!(lead + 1, col, "caret not under column {col}\n{}", ctx());
    assert_eq!(
        caret.find('|'),
        shown_bar(&block, &num),
        "caret gutter not aligned with the source line's\n{}",
        ctx()
    );
    if let Some(u) = e.under {
        let underlined: String = want_src.chars().skip(col - 1).take(width).collect();
        assert!(
            underlined.starts_with(u),
            "the caret underlines `{underlined}`, expected `{u}...`\n{}",
            ctx()
        );
    }

    if let Some(h) = e.help {
        let help = block
            .iter()
            .map(|l| l.trim_start())
            .find_map(|l| l.strip_prefix("= help: "))
            .unwrap_or_else(|| panic!("no `= help:` line\n{}", ctx()));
        assert!(help.contains(h), "help `{help}` lacks `{h}`\n{}", ctx());
    }
}

/// Byte position of `|` in the source line of a block.
fn shown_bar(block: &[&str], num: &str) -> Option<usize> {
    block
        .iter()
        .find(|l| l.starts_with(num))
        .and_then(|l| l.find('|'))
}

/// `orcl check` on `case` fails with exit 2 and the expected diagnostic; returns stderr.
fn assert_check_fails(case: &Case, e: Expect) -> String {
    let run = case.check();
    assert_eq!(
        run.code,
        Some(2),
        "exit code\nstdout:\n{}\nstderr:\n{}",
        run.stdout,
        run.stderr
    );
    assert_diagnostic(&run.stderr, &case.name, &case.original, &e);
    case.assert_untouched(&run);
    run.stderr
}

/// `orcl check tests/inputs/bad/NAME.c` fails as expected; returns stderr.
fn check_fails(name: &str, e: Expect) -> String {
    assert_check_fails(&Case::input(name), e)
}

/// `orcl tune tests/inputs/bad/NAME.c --db x.db` fails with exit 2 and the expected diagnostic
/// before building anything; returns the case (for more checks).
fn tune_fails(name: &str, e: Expect) -> Case {
    let case = Case::input(name);
    let run = case.tune();
    assert_eq!(
        run.code,
        Some(2),
        "exit code\nstdout:\n{}\nstderr:\n{}",
        run.stdout,
        run.stderr
    );
    assert_diagnostic(&run.stderr, &case.name, &case.original, &e);
    case.assert_untouched(&run);
    case
}

/// Like [`tune_fails`], for errors found while validating: the database is not even created.
fn tune_fails_before_db(name: &str, e: Expect) {
    let case = tune_fails(name, e);
    assert!(
        !case.db().exists(),
        "`orcl tune` created the database for an invalid input"
    );
}

fn error_count(stderr: &str) -> usize {
    stderr.lines().filter(|l| l.starts_with("error: ")).count()
}

// ---- the example itself --------------------------------------------------------------------

#[test]
fn check_accepts_axpy_quick() {
    let src = fs::read(manifest_dir().join("examples/axpy_quick.c")).expect("example");
    let case = Case::from_bytes("axpy_quick.c", src);
    let run = case.check();
    assert_eq!(run.code, Some(0), "stderr:\n{}", run.stderr);
    assert!(!run.stderr.contains("error"), "stderr:\n{}", run.stderr);
    for p in ["WI", "WG", "CB", "UI", "CL"] {
        assert!(
            run.stdout.contains(p),
            "parameter {p} not listed:\n{}",
            run.stdout
        );
    }
    for n in ["100000", "1000000"] {
        let line = run
            .stdout
            .lines()
            .find(|l| l.contains(&format!("N={n}:")))
            .unwrap_or_else(|| panic!("no line for N={n}:\n{}", run.stdout));
        assert!(line.contains("72 configurations"), "{line}");
        assert!(line.contains("64 satisfy the constraints"), "{line}");
    }
    case.assert_untouched(&run);
}

// ---- annotations ---------------------------------------------------------------------------

#[test]
fn unterminated_annotation() {
    check_fails(
        "unterminated_annotation",
        at("unterminated annotation", 29, 5)
            .under("/*@")
            .help("`@*/`"),
    );
}

#[test]
fn missing_end() {
    check_fails(
        "missing_end",
        at("missing `/*@ end @*/`", 4, 15)
            .under("PerfTuning")
            .help("/*@ end @*/"),
    );
}

#[test]
fn unclosed_perftuning_annotation() {
    let stderr = check_fails(
        "unclosed_perftuning",
        at("unterminated annotation", 4, 5)
            .under("/*@")
            .help("`@*/`"),
    );
    assert!(!stderr.contains("has no `Loop` annotation"), "{stderr}");
    assert!(!stderr.contains("without a matching"), "{stderr}");
}

#[test]
fn unknown_transform() {
    check_fails(
        "unknown_transform",
        at("unknown transform `OpenCl`", 22, 30)
            .under("OpenCl")
            .help("did you mean `OpenCL`?"),
    );
}

#[test]
fn unknown_transform_is_reported_once() {
    let stderr = check_fails(
        "unknown_transform",
        at("unknown transform `OpenCl`", 22, 30).help("did you mean `OpenCL`?"),
    );
    assert!(!stderr.contains("has no `Loop` annotation"), "{stderr}");
    assert_eq!(error_count(&stderr), 1, "{stderr}");
}

#[test]
fn unknown_transform_arg() {
    check_fails(
        "unknown_transform_arg",
        at(
            "unknown OpenCL transformation argument `workItemPerGroup`",
            22,
            52,
        )
        .under("workItemPerGroup")
        .help("did you mean `workItemsPerGroup`?"),
    );
}

#[test]
fn unknown_transform_arg_fails_tune() {
    tune_fails_before_db(
        "unknown_transform_arg",
        at("`workItemPerGroup`", 22, 52).help("did you mean `workItemsPerGroup`?"),
    );
}

#[test]
fn unknown_name_in_transform() {
    check_fails(
        "unknown_name_in_transform",
        at("`WX` is not a tuning parameter", 22, 48)
            .under("WX")
            .help("did you mean `W"),
    );
}

#[test]
fn cuda_transform_unknown_argument() {
    check_fails(
        "cuda_transform",
        at("unknown CUDA transformation argument `cacheBlock`", 22, 66)
            .under("cacheBlock")
            .help("cacheBlocks"),
    );
}

#[test]
fn extra_paren_after_transform() {
    check_fails("extra_paren", at("syntax error", 22, 89).under(")"));
}

#[test]
fn no_region() {
    check_fails(
        "no_region",
        at("no `/*@ begin PerfTuning", 1, 1).help("annotate"),
    );
}

#[test]
fn empty_file() {
    let case = Case::from_bytes("empty.c", Vec::new());
    assert_check_fails(&case, at("no `/*@ begin PerfTuning", 1, 1));
}

// ---- the tuning spec -----------------------------------------------------------------------

#[test]
fn unknown_section() {
    check_fails(
        "unknown_section",
        at("unknown section `performnce_params`", 5, 13)
            .under("performnce_params")
            .help("did you mean `performance_params`?"),
    );
}

#[test]
fn unknown_section_fails_tune() {
    tune_fails_before_db(
        "unknown_section",
        at("unknown section `performnce_params`", 5, 13)
            .under("performnce_params")
            .help("did you mean `performance_params`?"),
    );
}

#[test]
fn unknown_section_emit() {
    let case = Case::input("unknown_section");
    let run = case.run(&["emit", &case.name, "--set", "WI=64"]);
    assert_eq!(run.code, Some(2), "stderr:\n{}", run.stderr);
    assert_diagnostic(
        &run.stderr,
        &case.name,
        &case.original,
        &at("unknown section `performnce_params`", 5, 13)
            .help("did you mean `performance_params`?"),
    );
    assert!(
        !run.stdout.contains("__kernel"),
        "emitted code:\n{}",
        run.stdout
    );
    case.assert_untouched(&run);
}

#[test]
fn unknown_section_with_absolute_path() {
    let case = Case::input("unknown_section");
    let abs = case.path();
    let abs = abs.to_str().expect("utf-8 temp path");
    let run = case.run(&["check", abs]);
    assert_eq!(run.code, Some(2), "stderr:\n{}", run.stderr);
    assert_diagnostic(
        &run.stderr,
        abs,
        &case.original,
        &at("unknown section", 5, 13).under("performnce_params"),
    );
    case.assert_untouched(&run);
}

#[test]
fn unknown_build_arg() {
    check_fails(
        "unknown_build_arg",
        at("unknown argument `build_comand` in section `build`", 11, 25)
            .under("build_comand")
            .help("did you mean `build_command`?"),
    );
}

#[test]
fn unknown_search_arg() {
    check_fails(
        "unknown_search_arg",
        at("unknown argument `algoritm` in section `search`", 20, 26)
            .under("algoritm")
            .help("did you mean `algorithm`?"),
    );
}

#[test]
fn unclosed_section() {
    check_fails(
        "unclosed_section",
        at("expected `}` to close section `build`", 11, 50),
    );
}

#[test]
fn unterminated_string() {
    check_fails(
        "unterminated_string",
        at("unterminated string", 11, 41).under("'"),
    );
}

#[test]
fn missing_semicolon() {
    check_fails("missing_semicolon", at("expected `;`", 6, 34).help("`;`"));
}

#[test]
fn empty_param_list() {
    check_fails(
        "empty_param_list",
        at("parameter `WG` has no values", 7, 26).under("[]"),
    );
}

#[test]
fn scalar_param() {
    check_fails(
        "scalar_param",
        at("parameter `WI` needs a list of values", 6, 26)
            .under("16")
            .help("[16]"),
    );
}

#[test]
fn mixed_type_list() {
    check_fails("mixed_type_list", at("mixed-type list", 6, 31).under("'a'"));
}

#[test]
fn lowercase_true() {
    check_fails(
        "lowercase_true",
        at("`true`", 8, 27)
            .under("true")
            .help("did you mean `True`?"),
    );
}

#[test]
fn duplicate_param() {
    let stderr = check_fails(
        "duplicate_param",
        at("duplicate parameter `WI`", 8, 19).under("WI"),
    );
    assert_eq!(error_count(&stderr), 1, "{stderr}");
}

#[test]
fn range_zero_step() {
    check_fails(
        "range_zero_step",
        at("step must not be zero", 6, 40).under("0"),
    );
}

#[test]
fn unknown_let() {
    check_fails(
        "unknown_let",
        at("unknown name `SIZES`", 6, 26).under("SIZES"),
    );
}

#[test]
fn constraint_unknown_param() {
    check_fails(
        "constraint_unknown_param",
        at("unknown name `WJ`", 9, 28)
            .under("WJ")
            .help("did you mean `WI`?"),
    );
}

#[test]
fn division_by_zero_in_constraint() {
    check_fails(
        "division_by_zero",
        at("division by zero", 9, 30).under("WI/(WG-WG)"),
    );
}

#[test]
fn unsatisfiable_constraint() {
    check_fails(
        "unsatisfiable_constraint",
        at("no configuration satisfies the constraints", 9, 13)
            .under("constraint c = WI > 100000")
            .help("relax"),
    );
}

#[test]
fn unsatisfiable_constraint_fails_tune() {
    tune_fails_before_db(
        "unsatisfiable_constraint",
        at("no configuration satisfies the constraints", 9, 13).help("relax"),
    );
}

#[test]
fn unsatisfiable_constraint_large_space() {
    check_fails(
        "large_unsatisfiable_space",
        at("no configuration satisfies the constraints", 11, 13)
            .under("constraint c = WI > 100000")
            .help("relax"),
    );
}

#[test]
fn input_value_overflows_its_c_type() {
    check_fails(
        "input_value_overflow",
        at(
            "`n` is declared `int`, but its value 4294968296 at input size N=4294968296 is outside the range of `int` (-2147483648 to 2147483647)",
            12,
            26,
        )
        .under("N")
        .help("e.g. `long`"),
    );
    tune_fails_before_db(
        "input_value_overflow",
        at("is outside the range of `int`", 12, 26),
    );
}

#[test]
fn loop_variable_overflows_its_c_type() {
    check_fails(
        "loop_variable_overflow",
        at(
            "at input N=3000000000 the loop variable `i` runs from 0 to 2999999999, which `int` cannot hold (at most 2147483647)",
            21,
            10,
        )
        .under("i")
        .help("declare `i` as `long`"),
    );
}

#[test]
fn preamble_value_overflows_its_c_type() {
    check_fails(
        "preamble_value_overflow",
        at(
            "`nn` is declared `int` in the C code and takes the value of `N`, but N = 2147483648 is outside the range of `int` (-2147483648 to 2147483647)",
            12,
            40,
        )
        .under("[1000, 2147483648]")
        .help("leave 2147483648 out of `param N[]`"),
    );
}

#[test]
fn unknown_dimension_name() {
    check_fails(
        "unknown_dim",
        at("unknown name `M`", 16, 34)
            .under("M")
            .help("may use `N`"),
    );
}

#[test]
fn negative_input_size() {
    check_fails(
        "negative_input_size",
        at(
            "array dimension must be a positive integer, found -5",
            16,
            34,
        )
        .under("N"),
    );
}

#[test]
fn zero_repetitions() {
    check_fails(
        "zero_repetitions",
        at("`repetitions` must be a positive integer", 19, 53).under("0"),
    );
}

#[test]
fn unknown_algorithm_fails_tune() {
    tune_fails(
        "unknown_algorithm",
        at("unknown search algorithm `Exhaustiv`", 20, 22)
            .under("arg algorithm = 'Exhaustiv'")
            .help("did you mean `Exhaustive`?"),
    );
}

#[test]
fn unknown_algorithm_check() {
    check_fails(
        "unknown_algorithm",
        at("unknown search algorithm `Exhaustiv`", 20, 22)
            .any_col()
            .help("did you mean `Exhaustive`?"),
    );
}

#[test]
fn unknown_search_option_fails_tune() {
    tune_fails(
        "unknown_search_option",
        at("unknown option `random_sed`", 20, 48)
            .under("arg random_sed")
            .help("`Random` takes no options"),
    );
}

#[test]
fn unknown_search_option_check() {
    check_fails(
        "unknown_search_option",
        at("unknown option `random_sed`", 20, 48).under("arg random_sed"),
    );
}

#[test]
fn unknown_build_placeholder_check() {
    check_fails(
        "unknown_build_placeholder",
        at("`@WJ@` in `build_command` names no parameter", 11, 21)
            .under("arg build_command")
            .help("did you mean `WI`?"),
    );
}

#[test]
fn invalid_later_param_value() {
    check_fails(
        "invalid_later_value",
        at("`workItemsPerGroup` must be an integer", 22, 70).under("WI"),
    );
}

#[test]
fn two_regions_report_every_error() {
    let case = Case::input("two_regions");
    let stderr = assert_check_fails(
        &case,
        at("unknown section `performnce_params`", 5, 13)
            .under("performnce_params")
            .help("did you mean `performance_params`?"),
    );
    assert_diagnostic(
        &stderr,
        &case.name,
        &case.original,
        &at("unknown argument `build_comand`", 40, 25)
            .under("build_comand")
            .help("did you mean `build_command`?"),
    );
    assert_eq!(error_count(&stderr), 2, "{stderr}");
}

// ---- the loop ------------------------------------------------------------------------------

#[test]
fn while_loop() {
    check_fails("while_loop", at("`while`", 24, 9).under("while"));
}

#[test]
fn while_loop_fails_tune() {
    tune_fails_before_db("while_loop", at("`while`", 24, 9).under("while"));
}

#[test]
fn break_statement() {
    check_fails("break_statement", at("`break`", 24, 25).under("break"));
}

#[test]
fn loop_carried_dependence() {
    let stderr = check_fails(
        "loop_carried_dependence",
        at("loop-carried dependence on `y`", 24, 16)
            .under("y[i+1]")
            .help("independent"),
    );
    let msg = stderr.lines().next().unwrap_or_default();
    assert!(msg.contains("`y[i]`"), "{msg}");
    assert!(
        msg.contains("`y[i + 1]`") || msg.contains("`y[i+1]`"),
        "{msg}"
    );
}

#[test]
fn loop_carried_dependence_fails_tune() {
    tune_fails_before_db(
        "loop_carried_dependence",
        at("loop-carried dependence on `y`", 24, 16),
    );
}

#[test]
fn write_to_input_scalar() {
    check_fails(
        "write_to_input_scalar",
        at("`a` is assigned by every iteration", 24, 9).under("a"),
    );
}

#[test]
fn undeclared_variable() {
    check_fails(
        "undeclared_variable",
        at("undeclared variable `z`", 24, 19).under("z"),
    );
}

#[test]
fn undeclared_variable_help() {
    let stderr = check_fails(
        "undeclared_variable",
        at("undeclared variable `z`", 24, 19).help("input_vars"),
    );
    assert!(!stderr.contains("did you mean `n`?"), "{stderr}");
}

#[test]
fn unknown_function() {
    check_fails(
        "unknown_function",
        at("`sqr`", 24, 19)
            .under("sqr")
            .help("did you mean `sqrt`?"),
    );
}

#[test]
fn missing_input_var() {
    check_fails(
        "missing_input_var",
        at(
            "`a` is used in the tuned loop but has no value in `input_vars`",
            23,
            17,
        )
        .under("a")
        .help("decl double a"),
    );
}

/// A local given its value by one assignment before the region is a kernel argument (2DCONV's
/// coefficients); assigned twice, it has no single value, and the error says what to declare.
#[test]
fn local_assigned_twice() {
    check_fails(
        "local_assigned_twice",
        at(
            "`c` is used in the tuned loop but has no value in `input_vars`",
            22,
            16,
        )
        .under("c")
        .help("decl double c"),
    );
}

#[test]
fn input_var_type_mismatch() {
    check_fails(
        "input_var_type_mismatch",
        at("`x` is `float` in `input_vars`", 16, 25)
            .under("float")
            .help("double"),
    );
}

#[test]
fn bad_increment() {
    check_fails(
        "bad_increment",
        at("unsupported loop increment `i--`", 23, 23)
            .under("i--")
            .help("i++"),
    );
}

#[test]
fn zero_step() {
    check_fails(
        "zero_step",
        at("unsupported loop increment `i+=0`", 23, 23)
            .under("i+=0")
            .help("positive"),
    );
}

// ---- encodings and layout ------------------------------------------------------------------

/// examples/axpy_quick.c with a 0xff byte inserted after `anchor` (on an ASCII line); returns the
/// bytes and the expected line and column of the bad byte.
fn with_ff_after(anchor: &str, insert: &[u8]) -> (Vec<u8>, usize, usize) {
    let src = fs::read(manifest_dir().join("examples/axpy_quick.c")).expect("example");
    let text = String::from_utf8(src).expect("the example is UTF-8");
    let at = text.find(anchor).expect("anchor in the example") + anchor.len();
    let line_start = text[..at].rfind('\n').map_or(0, |p| p + 1);
    assert!(text[line_start..at].is_ascii());
    let ff = at + insert.iter().position(|b| *b == 0xff).expect("0xff");
    let line = text[..at].matches('\n').count() + 1;
    let col = ff - line_start + 1;
    let mut bytes = text.as_bytes()[..at].to_vec();
    bytes.extend_from_slice(insert);
    bytes.extend_from_slice(&text.as_bytes()[at..]);
    (bytes, line, col)
}

#[test]
fn non_utf8_in_c_comment() {
    let (bytes, line, col) = with_ff_after("the quick", b"\xff");
    let case = Case::from_bytes("non_utf8.c", bytes);
    assert_check_fails(
        &case,
        at("not valid UTF-8 (byte 0xff)", line, col).help("UTF-8"),
    );
}

#[test]
fn non_utf8_in_spec_comment_fails_tune() {
    let (bytes, line, col) = with_ff_after("arg build_command = 'cc -O2';", b" # caf\xff");
    let case = Case::from_bytes("non_utf8.c", bytes);
    let run = case.tune();
    assert_eq!(run.code, Some(2), "stderr:\n{}", run.stderr);
    assert_diagnostic(
        &run.stderr,
        &case.name,
        &case.original,
        &at("not valid UTF-8 (byte 0xff)", line, col),
    );
    case.assert_untouched(&run);
    assert!(!case.db().exists());
}

#[test]
fn crlf_line_endings() {
    let text = String::from_utf8(bad_input("unknown_section")).expect("utf-8");
    let case = Case::from_bytes("crlf.c", text.replace('\n', "\r\n").into_bytes());
    assert_check_fails(
        &case,
        at("unknown section `performnce_params`", 5, 13)
            .under("performnce_params")
            .help("did you mean `performance_params`?"),
    );
}

#[test]
fn tab_indentation() {
    let text = String::from_utf8(bad_input("unknown_build_arg")).expect("utf-8");
    let tabbed = text.replace(
        "        def build { arg build_comand",
        "\t\tdef build {\targ build_comand",
    );
    assert_ne!(tabbed, text);
    let case = Case::from_bytes("tabs.c", tabbed.into_bytes());
    // Columns count characters: two tabs, `def build {`, a tab, `arg `.
    assert_check_fails(
        &case,
        at("unknown argument `build_comand`", 11, 19)
            .under("build_comand")
            .help("did you mean `build_command`?"),
    );
}

#[test]
fn non_ascii_before_culprit() {
    // `é` and `→` before the culprit on its line: the column counts characters, not bytes.
    check_fails(
        "non_ascii_before_culprit",
        at("unknown argument `libz` in section `build`", 11, 72)
            .under("libz")
            .help("did you mean `libs`?"),
    );
}

#[test]
fn missing_file() {
    let case = Case::from_bytes("present.c", Vec::new());
    let run = case.run(&["check", "missing.c"]);
    assert_eq!(run.code, Some(2), "stderr:\n{}", run.stderr);
    assert!(run.stderr.contains("error: cannot read"), "{}", run.stderr);
    assert!(run.stderr.contains("missing.c"), "{}", run.stderr);
    assert!(!run.stderr.contains("-->"), "{}", run.stderr);
    assert!(!run.stderr.contains('^'), "{}", run.stderr);
}

// ---- 2-D arrays ----------------------------------------------------------------------------

/// A read of another element beside the write (`y[j] = y[j+1] + ...`) is no array reduction:
/// refused, with two iterations that touch one element.
#[test]
fn array_sum_race() {
    let stderr = check_fails(
        "array_sum_race",
        at("loop-carried dependence", 22, 13)
            .under("y[j]")
            .help("array reduction"),
    );
    let msg = stderr.lines().next().unwrap_or_default();
    assert!(
        msg.contains("the iteration i = 0, j = 0 writes `y[0]`")
            && msg.contains("the iteration i = 1, j = 0"),
        "{msg}"
    );
}

/// A private copy per work-item larger than orcl's limit: refused at the array's extent, and
/// the message says the limit.
#[test]
fn private_too_large() {
    check_fails(
        "private_too_large",
        at("each work-item needs its own copy of `sum`", 17, 36)
            .under("NP")
            .help("at most 1024 elements"),
    );
}

#[test]
fn dependence_2d() {
    let stderr = check_fails(
        "dependence_2d",
        at("loop-carried dependence on `A`", 20, 29)
            .under("A[i-1][j]")
            .help("separate array"),
    );
    let msg = stderr.lines().next().unwrap_or_default();
    assert!(msg.contains("written at `A[i][j]`"), "{msg}");
    assert!(msg.contains("read at `A[i - 1][j]`"), "{msg}");
}

#[test]
fn dependence_2d_fails_tune() {
    tune_fails_before_db(
        "dependence_2d",
        at("loop-carried dependence on `A`", 20, 29),
    );
}

#[test]
fn pointer_to_pointer() {
    check_fails(
        "pointer_to_pointer",
        at("`A` is declared `double **A`, a pointer to pointers", 3, 36)
            .under("**A")
            .help("`double A[m][n]`"),
    );
}

#[test]
fn extent_mismatch_2d() {
    check_fails(
        "extent_mismatch_2d",
        at(
            "the row length of `A` is 40 in `input_vars` but 30 in its C declaration (`n`)",
            14,
            37,
        )
        .under("M")
        .help("extents"),
    );
}

#[test]
fn rank_mismatch_2d() {
    check_fails(
        "rank_mismatch_2d",
        at(
            "`B` has 1 dimension(s) in `input_vars` but 2 in the C code",
            15,
            32,
        )
        .under("B")
        .help("`decl static double B[M][N]"),
    );
}

/// Orio's preamble (statements between `PerfTuning` and `Loop`): a name with no value there.
#[test]
fn preamble_undeclared() {
    check_fails(
        "preamble_undeclared",
        at(
            "the declaration of `nn` before the Loop reads `K`, but `K` is not declared",
            21,
            16,
        )
        .under("K")
        .help("input params"),
    );
}

#[test]
fn preamble_reads_function_parameter() {
    check_fails(
        "preamble_param",
        at(
            "reads `n`, but `n` has no value in the timing skeleton",
            21,
            14,
        )
        .under("n")
        .help("`N`"),
    );
}

#[test]
fn preamble_statement_not_a_declaration() {
    check_fails(
        "preamble_statement",
        at("orcl cannot handle `nn = nn - 1;` between the `PerfTuning` header and the `Loop` annotation", 22, 5)
            .under("nn = nn - 1;")
            .help("only declarations of scalars"),
    );
}

#[test]
fn preamble_calls_unknown_function() {
    check_fails(
        "preamble_call",
        at(
            "calls `round_up`, which the timing skeleton does not have",
            21,
            14,
        )
        .under("round_up")
        .help("C math functions"),
    );
}

/// One array written at several offsets per iteration (issue 11 class 4): offsets that may meet
/// across iterations are rejected, naming the two writes.
#[test]
fn overlapping_offsets() {
    check_fails(
        "overlapping_offsets",
        at(
            "`y[2 * i]` and `y[2 * i + 2]` may touch the same element from two iterations",
            24,
            11,
        )
        .under("y[2*i]")
        .help("no multiple of the stride (2)"),
    );
}

#[test]
fn overlapping_offsets_beyond_the_bound() {
    check_fails(
        "overlapping_offsets_bound",
        at(
            "`y[i]` and `y[i + n + 1]` may touch the same element from two iterations",
            24,
            11,
        )
        .under("y[i]")
        .help("of the loop's bound X"),
    );
}

/// Statements after the loop inside `Loop(...)` (issue 11 class 3): only assignments to the
/// loop's reductions run there; anything else is a located error.
#[test]
fn statement_after_loop() {
    check_fails(
        "statement_after_loop",
        at(
            "after the parallel loop, `a` is assigned, but it is not a reduction of the loop",
            26,
            5,
        )
        .under("a")
        .help("move other statements after the Loop annotation's"),
    );
}

// ---- subscripts checked per input size (Orio's MMMult.c writes C[i*n+j] into an M*P array) ----

#[test]
fn flat_stride_overlap() {
    let stderr = check_fails(
        "flat_stride_overlap",
        at(
            "loop-carried dependence on `C`: at input M=4 N=4 P=8",
            22,
            7,
        )
        .under("C[i*n+j]")
        .help("multiply `i` by the extent of `j`"),
    );
    let msg = stderr.lines().next().unwrap_or_default();
    assert!(
        msg.contains("i = 0 and i = 1") && msg.contains("j = 4 and j = 0"),
        "a witness pair: {msg}"
    );
}

#[test]
fn flat_out_of_bounds() {
    check_fails(
        "flat_out_of_bounds",
        at(
            "`C[i * n + j]` reaches element 27 of `C`, past its end: at input M=4 N=8 P=4 `C` has 16 elements",
            22,
            7,
        )
        .under("C[i*n+j]")
        .help("give `C` the size the loop indexes"),
    );
}

#[test]
fn flat_out_of_bounds_fails_tune() {
    tune_fails_before_db("flat_out_of_bounds", at("past its end", 22, 7));
}

// ---- command-line sizes ----------------------------------------------------------------------

/// `--size` with a value the spec does not list, or a name that is no input parameter: exit 2
/// with what the file has, no database, no tuned file (it used to tune nothing and say "no
/// correct variant was found", exit 1).
#[test]
fn size_outside_the_spec() {
    let bytes = fs::read(manifest_dir().join("examples/vecAXPY.c")).expect("example");
    let case = Case::from_bytes("vecAXPY.c", bytes);
    for (arg, want) in [
        (
            "N=1000",
            "--size N=1000 selects no input size of this file: `N` takes 100000, 1000000",
        ),
        (
            "M=1000",
            "--size M=...: `M` is not an input parameter of this file (its input parameters: `N`)",
        ),
    ] {
        let db = case.db();
        let r = case.run(&[
            "tune",
            "vecAXPY.c",
            "--size",
            arg,
            "--db",
            db.to_str().unwrap(),
        ]);
        assert_eq!(r.code, Some(2), "{arg}: {}", r.stderr);
        assert!(r.stderr.contains(want), "{arg}: {}", r.stderr);
        assert!(!db.exists(), "no database for a usage error");
        case.assert_untouched(&r);
    }
}

// ---- regions that hold a time loop (issue 22 item 6) ------------------------------------------

/// A statement between the nests of a time loop would run on the host at every step: located at
/// the statement, with what the body may hold.
#[test]
fn time_loop_statement_between_nests() {
    check_fails(
        "time_loop_host_statement",
        at(
            "this statement between the nests would have to run on the host",
            28,
            7,
        )
        .under("A[0] = B[1];")
        .help("a time loop's body may hold only loop nests"),
    );
}

/// A scalar reduction in a nest of a time loop would have to come back to the host every step.
#[test]
fn time_loop_scalar_reduction() {
    check_fails(
        "time_loop_reduction",
        at("reduces into the scalar `s`", 29, 2)
            .under("s")
            .help("accumulate into an array element"),
    );
}

/// A nest whose bounds read the step cannot be sized once for the region.
#[test]
fn time_loop_nest_bounds_read_the_step() {
    check_fails(
        "time_loop_step_bounds",
        at("the bounds of loop `i` read the time loop's `t`", 26, 23).under("n - 1 - t"),
    );
}

/// A nest of the time loop that is itself sequential keeps the usual dependence error (two
/// references), never the old help that suggested subscripting with the time loop's variable.
#[test]
fn time_loop_nest_with_a_dependence() {
    let stderr = check_fails(
        "time_loop_nest_dependence",
        at("loop-carried dependence on `B`", 27, 20).under("B[i-1]"),
    );
    assert!(!stderr.contains("[t]"), "{stderr}");
}

/// A `tile` that no nest of a time loop has every loop of (fdtd-2d under
/// `tile=[('i',..),('j',..),('t',..)]`, `t` the time loop) is located at the argument and names
/// the first nest. (Where some nest has them all, the nests that lack one are the 1-D map:
/// `tests/polybench_time.rs`, fdtd-2d.)
#[test]
fn time_loop_tile_that_one_nest_lacks() {
    check_fails(
        "time_loop_tile",
        at("in the time loop's nest `for (j = 0; j < ny; j++)`", 32, 40)
            .under("[('i',WI),('j',16),('t',2)]"),
    );
}

/// A `/* */` comment inside the Loop annotation ends it: the error says why and what to write.
#[test]
fn comment_inside_the_loop_annotation() {
    check_fails(
        "comment_in_loop",
        at(
            "a `/* ... */` comment inside an annotation ends the annotation",
            30,
            5,
        )
        .under("/* scale and add */")
        .help("`//`"),
    );
}
