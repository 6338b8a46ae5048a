use super::*;
use crate::expr::ExprKind;

const BASE: usize = 1000;

/// Figure 2 of the OrCL paper (seeds/orcl-multi-target-autotuning.txt).
const ORIO_FIGURE_2: &str = r#"
    def performance_params {
        param WI[] = [32,64,128,256];
        param WG[] = [4,8,16,32,64,128];
        param CB[] = [True, False];
        param SH[] = [True, False];
        param UI[] = range(1,4);
        param VH[] = [0,2,4];
        param CL[] = ['', '-cl-fast-relaxed-math'];
    }
    def build {
        arg build_command = 'gcc -O3 -lOpenCL';
    }
    def input_params {
        param N[] = [100000,1000000];
    }
    def input_vars {
        decl double a = random;
        decl static double x[N] = random;
        decl static double y[N] = 0;
    }
    def performance_counter {
        arg method = 'basic timer';
        arg repetitions = 5;
    }
    def performance_test_code {
        arg skeleton_code_file = 'tau_skeleton.c';
    }
"#;

fn parse(src: &str) -> TuningSpec {
    match parse_spec(src, BASE) {
        Ok(s) => s,
        Err(ds) => panic!("{:#?}", ds),
    }
}

fn errors(src: &str) -> Vec<Diagnostic> {
    match parse_spec(src, BASE) {
        Ok(_) => panic!("expected errors for {src}"),
        Err(ds) => ds,
    }
}

/// The single error of `src`.
fn error(src: &str) -> Diagnostic {
    let ds = errors(src);
    assert_eq!(ds.len(), 1, "{ds:#?}");
    ds.into_iter().next().unwrap()
}

/// Absolute span of the `nth` occurrence of `needle` in `src`.
fn at(src: &str, needle: &str, nth: usize) -> Span {
    let mut from = 0;
    for _ in 0..nth {
        from += src[from..].find(needle).unwrap() + 1;
    }
    let k = from + src[from..].find(needle).unwrap();
    Span::new(BASE + k, BASE + k + needle.len())
}

fn ints(v: &[i64]) -> Vec<Value> {
    v.iter().map(|&i| Value::Int(i)).collect()
}

#[test]
fn design_example() {
    let s = parse(DESIGN_EXAMPLE);
    assert_eq!(s.span, Span::new(BASE, BASE + DESIGN_EXAMPLE.len()));
    let names: Vec<&str> = s
        .performance_params
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["WI", "WG", "CB", "UI", "CL"]);
    assert_eq!(
        s.performance_params[0].values[..],
        ints(&[32, 64, 128, 256])
    );
    assert_eq!(
        s.performance_params[2].values[..],
        vec![Value::Bool(true), Value::Bool(false)]
    );
    assert_eq!(s.performance_params[3].values[..], ints(&[1, 2, 3]));
    assert_eq!(
        s.performance_params[4].values[1],
        Value::Str("-cl-fast-relaxed-math".into())
    );
    assert_eq!(
        s.performance_params[0].name_span,
        at(DESIGN_EXAMPLE, "WI", 0)
    );
    assert_eq!(
        s.performance_params[3].values_span,
        at(DESIGN_EXAMPLE, "range(1,4)", 0)
    );
    assert_eq!(s.constraints.len(), 1);
    assert_eq!(s.constraints[0].name, "c1");
    assert_eq!(
        s.constraints[0].span,
        at(DESIGN_EXAMPLE, "constraint c1 = (WI*WG <= 16384);", 0)
    );
    assert_eq!(s.input_params.len(), 1);
    assert_eq!(s.input_params[0].values[..], ints(&[100000, 1000000]));
    assert_eq!(
        s.build.build_command.as_ref().unwrap().value,
        "cc -O2 -lOpenCL"
    );
    assert_eq!(s.counter.repetitions.as_ref().unwrap().value, 5);
    assert_eq!(s.search.algorithm.as_ref().unwrap().value, "Exhaustive");
    let v = &s.input_vars;
    assert_eq!(v.len(), 4);
    assert_eq!(
        (v[0].ty.as_str(), v[0].name.as_str(), v[0].storage),
        ("int", "n", Storage::Default)
    );
    assert!(matches!(&v[0].init, VarInit::Expr(e) if e.kind == ExprKind::Name("N".into())));
    assert_eq!(v[1].init, VarInit::Random);
    assert_eq!(v[2].storage, Storage::Static);
    assert_eq!(v[2].dims.len(), 1);
    assert_eq!(v[2].dims[0].span, at(DESIGN_EXAMPLE, "N", 2));
    assert_eq!(v[2].ty_span, at(DESIGN_EXAMPLE, "double", 1));
    assert!(matches!(&v[3].init, VarInit::Expr(e) if e.kind == ExprKind::Lit(Value::Int(0))));
    assert_eq!(
        v[3].span,
        at(DESIGN_EXAMPLE, "decl static double y[N] = 0;", 0)
    );
}

#[test]
fn orio_figure_2() {
    let s = parse(ORIO_FIGURE_2);
    assert_eq!(s.performance_params.len(), 7);
    assert_eq!(s.performance_params[5].values[..], ints(&[0, 2, 4]));
    assert_eq!(s.counter.method.as_ref().unwrap().value, "basic timer");
    assert_eq!(s.counter.repetitions.as_ref().unwrap().value, 5);
    assert_eq!(
        s.skeleton_code_file.as_ref().unwrap().value,
        "tau_skeleton.c"
    );
    assert_eq!(s.input_vars.len(), 3);
    assert!(s.constraints.is_empty());
}

#[test]
fn lets_options_and_all_args() {
    let src = r#"
        let MAXWG = 256;   # a comment
        let SIZES = [2**i for i in range(5, 9)];
        def performance_params {
            let HALF = MAXWG // 2;
            param WI[] = SIZES;
            param P = 3;
            param F[] = [1, 2.5];
            constraint fits = WI <= HALF and N > 0;
        }
        def input_params { param N[] = range(1000, 3001, 1000); constraint big = N >= 2000; }
        def input_vars {
            decl dynamic float A[N][N*2] = 1.5;
            arg decl_file = 'decl.h';
            arg init_file = 'init.c';
        }
        def build {
            arg build_command = 'cc -O' + str(2);
            arg libs = '-lm';
            arg prebuild_command = 'true';
            arg postbuild_command = "echo done";
        }
        def performance_counter {
            arg repetitions = 7; arg warmups = 0; arg method = 'basic timer';
            arg timeout = '30s'; arg objective = 'total';
        }
        def performance_test_code { arg skeleton_code_file = 'skel.c'; }
        def search {
            arg algorithm = 'Randomsearch';
            arg total_runs = 100;
            arg time_limit = 10;
            arg seed = 0;
            arg randomsearch_batch = 8;
            arg msimplex_reflection_coef = [1.0, 2.0];
        }
        def validation { arg tolerance = 1e-6; arg validation_file = 'v.txt'; }
    "#;
    let s = parse(src);
    let lets: Vec<(&str, String)> = s
        .lets
        .iter()
        .map(|b| (b.name.as_str(), b.value.to_string()))
        .collect();
    assert_eq!(
        lets,
        [
            ("MAXWG", "256".into()),
            ("SIZES", "[32, 64, 128, 256]".into()),
            ("HALF", "128".into())
        ]
    );
    assert_eq!(
        s.performance_params[0].values[..],
        ints(&[32, 64, 128, 256])
    );
    assert_eq!(s.performance_params[1].values[..], ints(&[3]));
    assert_eq!(
        s.performance_params[2].values[..],
        vec![Value::Int(1), Value::Float(2.5)]
    );
    assert_eq!(s.input_params[0].values[..], ints(&[1000, 2000, 3000]));
    assert_eq!(s.input_constraints[0].name, "big");
    assert_eq!(s.input_vars[0].storage, Storage::Dynamic);
    assert_eq!(s.input_vars[0].dims.len(), 2);
    assert_eq!(s.decl_file.as_ref().unwrap().value, "decl.h");
    assert_eq!(s.init_file.as_ref().unwrap().value, "init.c");
    assert_eq!(s.build.build_command.as_ref().unwrap().value, "cc -O2");
    assert_eq!(s.build.libs.as_ref().unwrap().value, "-lm");
    assert_eq!(s.build.prebuild_command.as_ref().unwrap().value, "true");
    assert_eq!(
        s.build.postbuild_command.as_ref().unwrap().value,
        "echo done"
    );
    assert_eq!(s.counter.repetitions.as_ref().unwrap().value, 7);
    assert_eq!(s.counter.warmups.as_ref().unwrap().value, 0);
    assert_eq!(
        s.counter.timeout.as_ref().unwrap().value,
        Duration::from_secs(30)
    );
    assert_eq!(s.counter.objective.as_ref().unwrap().value, "total");
    assert_eq!(s.skeleton_code_file.as_ref().unwrap().value, "skel.c");
    assert_eq!(s.search.algorithm.as_ref().unwrap().value, "Randomsearch");
    assert_eq!(s.search.total_runs.as_ref().unwrap().value, 100);
    assert_eq!(
        s.search.time_limit.as_ref().unwrap().value,
        Duration::from_secs(600)
    );
    assert_eq!(s.search.seed.as_ref().unwrap().value, 0);
    let opts: Vec<&str> = s.search.options.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(opts, ["randomsearch_batch", "msimplex_reflection_coef"]);
    assert_eq!(s.search.options[0].1.value, Value::Int(8));
    assert_eq!(
        s.search.options[0].1.span,
        at(src, "arg randomsearch_batch = 8;", 0)
    );
    assert_eq!(s.validation.tolerance.as_ref().unwrap().value, 1e-6);
    assert_eq!(
        s.validation.validation_file.as_ref().unwrap().value,
        "v.txt"
    );
}

#[test]
fn durations() {
    let tl = |v: &str| {
        let src = format!("def search {{ arg time_limit = {v}; }}");
        parse(&src).search.time_limit.unwrap().value
    };
    assert_eq!(tl("'90s'"), Duration::from_secs(90));
    assert_eq!(tl("'5m'"), Duration::from_secs(300));
    assert_eq!(tl("'1h'"), Duration::from_secs(3600));
    assert_eq!(tl("'1.5m'"), Duration::from_secs(90));
    assert_eq!(tl("'2 min'"), Duration::from_secs(120));
    assert_eq!(tl("'500ms'"), Duration::from_millis(500));
    assert_eq!(tl("2"), Duration::from_secs(120));
    assert_eq!(tl("0.5"), Duration::from_secs(30));
    assert_eq!(tl("'3'"), Duration::from_secs(180));
    // Compound durations (humantime).
    assert_eq!(tl("'3m10s'"), Duration::from_secs(190));
    assert_eq!(tl("'1h 30min'"), Duration::from_secs(5400));
    let to = parse("def performance_counter { arg timeout = 20; }")
        .counter
        .timeout
        .unwrap()
        .value;
    assert_eq!(to, Duration::from_secs(20));
    let src = "def search { arg time_limit = '5 parsecs'; }";
    let d = error(src);
    assert_eq!(d.span, at(src, "'5 parsecs'", 0));
    assert!(
        d.message
            .starts_with("`time_limit` must be a positive duration"),
        "{}",
        d.message
    );
    assert!(d.message.ends_with("found '5 parsecs'"), "{}", d.message);
    assert!(error("def search { arg time_limit = -1; }")
        .message
        .contains("positive duration"));
    assert!(error("def search { arg time_limit = 1e300; }")
        .message
        .contains("positive duration"));
    assert!(error("def search { arg time_limit = True; }")
        .message
        .contains("positive duration"));
}

#[test]
fn unknown_section_statement_and_arg() {
    let src = "def performnce_params { param A[] = [1]; }";
    let d = error(src);
    assert_eq!(d.message, "unknown section `performnce_params`");
    assert_eq!(d.span, at(src, "performnce_params", 0));
    assert_eq!(
        d.help.as_deref(),
        Some("did you mean `performance_params`?")
    );

    let src = "def build { arg buildcommand = 'cc'; }";
    let d = error(src);
    assert_eq!(
        d.message,
        "unknown argument `buildcommand` in section `build`"
    );
    assert_eq!(d.span, at(src, "buildcommand", 0));
    assert_eq!(d.help.as_deref(), Some("did you mean `build_command`?"));

    let src = "def search { arg total_run = 5; }";
    let d = error(src);
    assert_eq!(d.help.as_deref(), Some("did you mean `total_runs`?"));

    let src = "def search { arg budget = 5; }";
    let d = error(src);
    assert_eq!(d.message, "unknown argument `budget` in section `search`");

    let src = "def build { decl int n = 3; }";
    let d = error(src);
    assert_eq!(
        d.message,
        "`decl` statements are not allowed in section `build`"
    );
    assert_eq!(d.span, at(src, "decl", 0));
    assert_eq!(
        d.help.as_deref(),
        Some("section `build` accepts `arg` and `let` statements")
    );

    let src = "def performance_params { parm A[] = [1]; }";
    let d = error(src);
    assert_eq!(
        d.message,
        "unknown statement `parm` in section `performance_params`"
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `param`?"));

    let src = "def performance_params { arg x = 1; }";
    assert_eq!(
        error(src).message,
        "`arg` statements are not allowed in section `performance_params`"
    );

    let src = "def input_vars { decl unsigned int n = 3; }";
    let d = error(src);
    assert!(
        d.message.starts_with("unsupported type `unsigned`"),
        "{}",
        d.message
    );
    assert_eq!(d.span, at(src, "unsigned", 0));

    let src = "def input_vars { decl dubble x = 3; }";
    assert_eq!(error(src).help.as_deref(), Some("did you mean `double`?"));

    let src = "foo = 3;";
    assert!(error(src)
        .message
        .starts_with("expected `def SECTION { ... }` or `let NAME = EXPR;`"));
}

#[test]
fn missing_semicolon_and_brace() {
    let src = "def performance_params {\n  param A[] = [1, 2]\n  param B[] = [3];\n}";
    let d = error(src);
    assert_eq!(
        d.message,
        "expected `;` after the values of parameter `A`, found `param`"
    );
    let end = at(src, "[1, 2]", 0).end;
    assert_eq!(d.span, Span::new(end, end));
    // The statement after the missing `;` is still parsed: only one error.

    let src = "def build { arg build_command = 'cc';\ndef search { arg algorithm = 'Random'; }";
    let d = error(src);
    assert_eq!(
        d.message,
        "expected `}` to close section `build`, found `def`"
    );
    let end = at(src, "'cc';", 0).end;
    assert_eq!(d.span, Span::new(end, end));

    let src = "def build { arg build_command = 'cc'; ";
    let d = error(src);
    assert_eq!(
        d.message,
        "expected `}` to close section `build`, found end of input"
    );

    let src = "def build arg build_command = 'cc'; }";
    let d = &errors(src)[0];
    assert!(
        d.message.starts_with("expected `{` after `def build`"),
        "{}",
        d.message
    );

    let src = "def performance_params { param A[] [1]; }";
    let d = error(src);
    assert_eq!(d.message, "expected `=` after `param A[]`, found `[`");
    let open = at(src, "[1]", 0).start;
    assert_eq!(d.span, Span::new(open, open + 1));
}

#[test]
fn param_values() {
    let src = "def performance_params { param A[] = 4; }";
    let d = error(src);
    assert_eq!(
        d.message,
        "parameter `A` needs a list of values, found int 4"
    );
    assert_eq!(d.help.as_deref(), Some("write `[4]` for a single value"));
    assert_eq!(d.span, at(src, "4", 0));

    let src = "def performance_params { param A[] = []; }";
    let d = error(src);
    assert_eq!(d.message, "parameter `A` has no values");
    assert_eq!(d.span, at(src, "[]", 1));

    let src = "def performance_params { param A[] = range(5, 1); }";
    assert_eq!(error(src).message, "parameter `A` has no values");

    let src = "def performance_params { param A[] = [1, 2.0, 'x', True]; }";
    let d = error(src);
    assert!(
        d.message.starts_with("mixed-type list: value 'x'"),
        "{}",
        d.message
    );
    assert_eq!(d.span, at(src, "'x'", 0));

    let src = "def performance_params { param A[] = [4, 8, 4]; }";
    let d = error(src);
    assert_eq!(d.message, "duplicate value 4 in parameter `A`");
    assert_eq!(d.span, at(src, "4", 1));

    let src = "def performance_params { param A[] = [1, 1.0]; }";
    assert_eq!(error(src).message, "duplicate value 1.0 in parameter `A`");

    let src = "def performance_params { param A[] = [1, 2/0]; }";
    let d = error(src);
    assert_eq!(d.message, "division by zero");
    assert_eq!(d.span, at(src, "2/0", 0));

    let src = "def performance_params { param A = [1, 2]; }";
    assert!(error(src).help.as_deref().unwrap().contains("param A[]"));
}

#[test]
fn names_and_duplicates() {
    let src = "def performance_params { param WI[] = [1]; constraint c = WJ > 0; }";
    let d = error(src);
    assert_eq!(d.message, "unknown name `WJ` in constraint `c`");
    assert_eq!(d.span, at(src, "WJ", 0));
    assert_eq!(d.help.as_deref(), Some("did you mean `WI`?"));

    // Constraints may use input params declared later, and lets.
    let src = "def performance_params { param WI[] = [1]; constraint c = WI < N + L; }
               def input_params { param N[] = [10]; } let L = 2;";
    assert_eq!(parse(src).constraints.len(), 1);

    let src = "def performance_params { param WI[] = [1]; }
               def input_params { param N[] = [10]; constraint c = N > WI; }";
    let d = error(src);
    assert_eq!(
        d.message,
        "`WI` (a performance parameter) cannot be used in input constraint `c`"
    );
    assert_eq!(d.span, at(src, "WI", 1));

    let src = "def input_vars { decl static double x[M] = random; }";
    let d = error(src);
    assert_eq!(d.message, "unknown name `M` in input variable `x`");
    assert_eq!(d.span, at(src, "M", 0));

    let src = "def performance_params { param A[] = [1]; param B[] = [x*2 for x in A]; }";
    let d = error(src);
    assert_eq!(
        d.message,
        "`A` (a performance parameter) cannot be used in parameter `B`"
    );

    let src = "let X = Y + 1; let Y = 2;";
    let d = error(src);
    assert_eq!(
        d.message,
        "`Y` (a `let` binding) cannot be used in the value of `X`"
    );
    assert_eq!(d.span, at(src, "Y", 0));

    let src = "def performance_params { param A[] = [1]; param A[] = [2]; }";
    let d = error(src);
    assert_eq!(d.message, "duplicate parameter `A`");
    assert_eq!(d.span, at(src, "A", 1));

    let src = "let N = 1; def input_params { param N[] = [2]; }";
    let d = error(src);
    assert_eq!(d.message, "duplicate parameter `N`");
    assert_eq!(
        d.help.as_deref(),
        Some("`N` is already defined as a `let` binding")
    );

    let src =
        "def performance_params { param A[] = [1]; constraint c = A > 0; constraint c = A < 9; }";
    assert_eq!(error(src).message, "duplicate constraint `c`");

    let src = "def input_vars { decl int n = 1; decl long n = 2; }";
    assert_eq!(error(src).message, "duplicate input variable `n`");

    let src = "let a = 1; let a = 2;";
    assert_eq!(error(src).message, "duplicate `let` binding `a`");

    let src = "def search { arg seed = 1; arg seed = 2; }";
    assert_eq!(
        error(src).message,
        "duplicate argument `seed` in section `search`"
    );
}

#[test]
fn arg_types() {
    let src = "def performance_counter { arg repetitions = 'five'; }";
    let d = error(src);
    assert_eq!(
        d.message,
        "`repetitions` must be a positive integer, found 'five'"
    );
    assert_eq!(d.span, at(src, "'five'", 0));
    assert!(error("def performance_counter { arg repetitions = 0; }")
        .message
        .contains("positive integer"));
    assert!(error("def performance_counter { arg warmups = -1; }")
        .message
        .contains("non-negative integer"));
    assert!(error("def search { arg total_runs = 2.5; }")
        .message
        .contains("positive integer, found 2.5"));
    assert!(error("def search { arg seed = -3; }")
        .message
        .contains("non-negative integer"));
    assert_eq!(
        error("def build { arg build_command = 3; }").message,
        "`build_command` must be a string, found 3"
    );
    let d = error("def performance_counter { arg objective = 'kernal'; }");
    assert_eq!(d.help.as_deref(), Some("did you mean `kernel`?"));
    assert!(error("def validation { arg tolerance = 0; }")
        .message
        .contains("positive number"));
    assert!(error("def validation { arg tolerance = 'x'; }")
        .message
        .contains("positive number"));
}

#[test]
fn several_errors_are_collected() {
    let src = "def build { arg bild_command = 'cc'; arg libs = 3; }\n\
               def serch { arg x = 1; }\n\
               def performance_counter { arg repetitions = 0; }";
    let ds = errors(src);
    assert_eq!(ds.len(), 4, "{ds:#?}");
    assert!(ds[0].message.contains("bild_command"));
    assert!(ds[1].message.contains("`libs` must be a string"));
    assert!(ds[2].message.contains("unknown section `serch`"));
    assert!(ds[3].message.contains("repetitions"));
}

#[test]
fn failed_definitions_do_not_cascade() {
    let src = "let A = 1/0; let B = A + 1;\n\
               def performance_params { param P[] = [A]; param Q[] = [1 2]; param R[] = [];\n\
               constraint c = Q > 0 and B > 0 and P > R; }";
    let ds = errors(src);
    let msgs: Vec<&str> = ds.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "division by zero",
            "expected `,` or `]` in the list, found `2`",
            "parameter `R` has no values"
        ]
    );
}

#[test]
fn no_panic_on_hostile_specs() {
    let cases = [
        "",
        "def",
        "def build",
        "def build {",
        "def build { arg",
        "def build { arg build_command",
        "def build { arg build_command =",
        "def build { arg build_command = 'unterminated; }",
        "def input_vars { decl static double x[",
        "def input_vars { decl static double x[] = 0; }",
        "def input_vars { decl }",
        "def performance_params { param }",
        "def performance_params { param A[ }",
        "}}}}",
        "let",
        "let x",
        "let x = ;",
        "@@@ def build { }",
        "def unknown { { { } ",
        "def build { arg build_command = 'é日本'; } é",
        "def performance_params { param A[] = range(100000000); }",
    ];
    for c in cases {
        let _ = parse_spec(c, 5);
    }
    let deep = format!(
        "def performance_params {{ param A[] = {}; }}",
        "[".repeat(50_000)
    );
    assert!(parse_spec(&deep, 0).is_err());
}
