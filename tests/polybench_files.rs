//! PolyBench/C 4.2.1 kernels annotated as written (`tests/polybench/*.c`: loops unchanged,
//! PolyBench's macros kept) tuned on the local OpenCL device (PoCL in CI), every variant
//! validated against the original loop, and the tuned file compiled beside the original and a C
//! driver that compares them at sizes the work-groups do not divide (issue 22). Also the C
//! preprocessor's errors (located at the macro use, naming it), `-D` changing a loop bound, and
//! per-region verdicts (a refused region is left as written, the others tuned, exit 4).

mod common;
use common::{driver_source, run, run_driver, Run};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

fn orcl(dir: &Path, args: &[&str]) -> Run {
    let mut c = Command::new(ORCL);
    c.args(args)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT");
    c.current_dir(dir);
    run(c, Duration::from_secs(300))
}

fn polybench(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/polybench")
            .join(name),
    )
    .unwrap()
}

fn tempdir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("orcl-polybench-")
        .tempdir()
        .unwrap()
}

/// Tune `tests/polybench/NAME` in a fresh directory (exit 0, every evaluation `ok`); the tuned
/// file keeps PolyBench's macros.
fn tune(name: &str) -> tempfile::TempDir {
    let tmp = tempdir();
    let dir = tmp.path();
    std::fs::write(dir.join(name), polybench(name)).unwrap();
    orcl(dir, &["check", name]).assert_code(0);
    let t = orcl(dir, &["tune", name, "--db", "tune.db"]);
    t.assert_code(0);
    for (key, status) in common::statuses(&dir.join("tune.db")) {
        assert_eq!(status, "ok", "{key}\n{}", t.dump());
    }
    let tuned = std::fs::read_to_string(dir.join(format!("_{name}"))).unwrap();
    assert!(tuned.contains("i < _PB_N"), "{tuned}");
    tmp
}

#[test]
fn mvt_as_written_with_polybench_macros() {
    let tmp = tune("mvt.c");
    let protos = "#define TOL 1e-12\nvoid kernel_mvt(int n, double x1[n], double x2[n], double y_1[n], double y_2[n], double A[n][n]);\nvoid kernel_mvt_orig(int n, double x1[n], double x2[n], double y_1[n], double y_2[n], double A[n][n]);";
    let body = r#"
    int n = s[0];
    double *A = dvec((long)n * n), *x1 = dvec(n), *x2 = dvec(n), *y1 = dvec(n), *y2 = dvec(n);
    double *r1 = DUP(x1, n), *r2 = DUP(x2, n);
    kernel_mvt(n, x1, x2, y1, y2, (double (*)[n])A);
    kernel_mvt_orig(n, r1, r2, y1, y2, (double (*)[n])A);
    cmp("x1", x1, r1, n);
    cmp("x2", x2, r2, n);
    free(A); free(x1); free(x2); free(y1); free(y2); free(r1); free(r2);
    return n > 0 ? 2 : 0;"#;
    let driver = driver_source(
        protos,
        "{37, 0, 0}, {130, 0, 0}, {5, 0, 0}, {1, 0, 0}, {0, 0, 0}",
        body,
    );
    run_driver(
        tmp.path(),
        "_mvt.c",
        "mvt.c",
        "kernel_mvt",
        &driver,
        Duration::from_secs(120),
    );
}

/// A one-region file: `y[i] = 2*x[i]` over `LOOP` (the loop's header), with `defs` before it.
fn scale_file(defs: &str, header: &str) -> String {
    format!(
        r#"{defs}
void scale(int n, const double *x, double *y) {{
    int i;
    /*@ begin PerfTuning(
        def performance_params {{ param WI[] = [16, 32]; }}
        def build {{ arg build_command = 'cc -O2'; }}
        def input_params {{ param N[] = [61]; }}
        def input_vars {{
            decl int n = N;
            decl static double x[N] = random;
            decl static double y[N] = 0;
        }}
        def performance_counter {{ arg repetitions = 1; }}
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)
    {header}
        y[i] = SCALAR_VAL(2.0) * x[i];
    ) @*/
    {header}
        y[i] = SCALAR_VAL(2.0) * x[i];
    /*@ end @*/
    /*@ end @*/
}}
"#
    )
}

#[test]
fn a_define_on_the_command_line_changes_a_loop_bound() {
    let tmp = tempdir();
    let dir = tmp.path();
    let text = scale_file(
        "#define SCALAR_VAL(x) x\n#ifndef LEN\n#define LEN n\n#endif",
        "for (i = 0; i < LEN; i++)",
    );
    std::fs::write(dir.join("s.c"), &text).unwrap();
    let plain = orcl(dir, &["emit", "s.c"]);
    plain.assert_code(0);
    let shorter = orcl(dir, &["emit", "-D", "LEN=(n-3)", "s.c"]);
    shorter.assert_code(0);
    assert!(!plain.stdout.contains("n - 3"), "{}", plain.stdout);
    assert!(shorter.stdout.contains("n - 3"), "{}", shorter.stdout);
    assert!(shorter.stdout.contains("2.0"), "{}", shorter.stdout);
    // Tuned with -D (each variant validated against the loop expanded the same way); the tuned
    // file keeps `LEN` and `SCALAR_VAL` as written.
    let t = orcl(dir, &["tune", "-D", "LEN=(n-3)", "s.c", "--db", "t.db"]);
    t.assert_code(0);
    let tuned = std::fs::read_to_string(dir.join("_s.c")).unwrap();
    assert!(
        tuned.contains("i < LEN; i++)\n        y[i] = SCALAR_VAL(2.0) * x[i];"),
        "{tuned}"
    );
    // A constant baked into the kernel: the tuned file refuses to compile with another value.
    let text = scale_file(
        "#define SCALAR_VAL(x) x\n#ifndef LEN\n#define LEN 50\n#endif",
        "for (i = 0; i < LEN; i++)",
    );
    std::fs::write(dir.join("k.c"), &text).unwrap();
    orcl(dir, &["tune", "k.c", "--db", "t.db"]).assert_code(0);
    let cc = |flags: &[&str]| {
        let mut c = Command::new("cc");
        c.args(flags)
            .args(["-c", "_k.c", "-o", "k.o"])
            .current_dir(dir);
        run(c, Duration::from_secs(60))
    };
    cc(&[]).assert_code(0);
    let other = cc(&["-DLEN=60"]);
    assert_ne!(other.code(), Some(0), "{}", other.dump());
    assert!(
        other
            .stderr
            .contains("orcl: region 0 was tuned with LEN = 50"),
        "{}",
        other.dump()
    );
    // An include directory with -I.
    std::fs::create_dir(dir.join("inc")).unwrap();
    std::fs::write(
        dir.join("inc/defs.h"),
        "#define SCALAR_VAL(x) x\n#define LEN (n-5)\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("i.c"),
        scale_file("#include \"defs.h\"", "for (i = 0; i < LEN; i++)"),
    )
    .unwrap();
    let inc = orcl(dir, &["emit", "-I", "inc", "i.c"]);
    inc.assert_code(0);
    assert!(inc.stdout.contains("n - 5"), "{}", inc.stdout);
}

#[test]
fn macro_errors_are_located_at_the_use_and_name_the_macro() {
    let tmp = tempdir();
    let dir = tmp.path();
    // Wrong number of arguments: the expansion fails at the use.
    let text = scale_file("#define SCALAR_VAL(x) x", "for (i = 0; i < n; i++)").replacen(
        "SCALAR_VAL(2.0)",
        "SCALAR_VAL(2.0, 3)",
        1,
    );
    std::fs::write(dir.join("a.c"), &text).unwrap();
    let r = orcl(dir, &["check", "a.c"]);
    r.assert_code(2);
    let line = text
        .lines()
        .position(|l| l.contains("SCALAR_VAL(2.0, 3)"))
        .unwrap()
        + 1;
    assert!(r.stderr.contains(&format!("a.c:{line}:16")), "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "macro `SCALAR_VAL` does not expand: macro `SCALAR_VAL` takes 1 argument, 2 given"
        ),
        "{}",
        r.stderr
    );
    // An unknown function-like macro: located, and the help says how to define it.
    std::fs::write(dir.join("b.c"), scale_file("", "for (i = 0; i < n; i++)")).unwrap();
    let r = orcl(dir, &["check", "b.c"]);
    r.assert_code(2);
    assert!(
        r.stderr.contains("call to `SCALAR_VAL` is not supported"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("-D SCALAR_VAL=VALUE"), "{}", r.stderr);
    // An error inside an expansion points at the macro use and names the macro.
    let text = scale_file(
        "#define SCALAR_VAL(x) x\n#define BOUND undeclared_m",
        "for (i = 0; i < BOUND; i++)",
    );
    std::fs::write(dir.join("c.c"), &text).unwrap();
    let r = orcl(dir, &["check", "c.c"]);
    r.assert_code(2);
    let line = text.lines().position(|l| l.contains("i < BOUND")).unwrap() + 1;
    assert!(
        r.stderr
            .contains("undeclared variable `undeclared_m` (in the expansion of macro `BOUND`)"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains(&format!("c.c:{line}:21")), "{}", r.stderr);
}

#[test]
fn a_refused_region_is_left_as_written_and_the_others_are_tuned() {
    let tmp = tempdir();
    let dir = tmp.path();
    let good = scale_file("#define SCALAR_VAL(x) x", "for (i = 0; i < n; i++)");
    // The second region's loop carries a dependence: refused, with its located error.
    let bad = scale_file("", "for (i = 1; i < n; i++)")
        .replace("void scale(", "void shift(")
        .replace("y[i] = SCALAR_VAL(2.0) * x[i];", "y[i] = y[i-1] + x[i];");
    let text = format!("{good}{bad}");
    std::fs::write(dir.join("two.c"), &text).unwrap();
    let c = orcl(dir, &["check", "two.c"]);
    c.assert_code(4);
    assert!(c.stdout.contains("region 0 in scale()"), "{}", c.stdout);
    assert!(c.stderr.contains("two.c:"), "{}", c.stderr);
    assert!(
        c.stderr.contains("region 1 of two.c is refused"),
        "{}",
        c.stderr
    );
    let t = orcl(dir, &["tune", "two.c", "--db", "t.db"]);
    t.assert_code(4);
    let tuned = std::fs::read_to_string(dir.join("_two.c")).unwrap();
    assert!(tuned.contains("orcl_scale_region0("), "{tuned}");
    assert!(!tuned.contains("orcl_shift_region1("), "{tuned}");
    // The refused region is as written: annotations (comments) and its loop.
    let refused = &text[text.find("void shift(").unwrap()..];
    assert!(tuned.contains(refused), "{tuned}");
    let mut cc = Command::new("cc");
    cc.args(["-c", "_two.c", "-o", "two.o"]).current_dir(dir);
    run(cc, Duration::from_secs(60)).assert_code(0);
    // Every region refused: exit 2, as any input error; no tuned file.
    std::fs::write(dir.join("bad.c"), &bad).unwrap();
    orcl(dir, &["tune", "bad.c", "--db", "t.db"]).assert_code(2);
    assert!(!dir.join("_bad.c").exists());
}

/// A region whose search found no variant (here: every variant of the second region wrong, by
/// the test fault) while the first was tuned: the tuned file is written with that region as
/// written, and the run exits 4 as for a refused region, naming the region and why (issue 22:
/// CORR's last region measured nothing at 30 s and `orcl tune` exited 0). And `--time-limit`
/// that runs out before the first measurement says so: exit 1, no tuned file.
#[test]
fn a_region_without_a_variant_is_left_as_written_and_the_run_exits_4() {
    let tmp = tempdir();
    let dir = tmp.path();
    let good = scale_file("#define SCALAR_VAL(x) x", "for (i = 0; i < n; i++)");
    let none = scale_file("", "for (i = 0; i < n; i++)")
        .replace("void scale(", "void twice(")
        .replace("param WI[] = [16, 32];", "param WX[] = [16];")
        .replace("workItemsPerGroup=WI", "workItemsPerGroup=WX");
    let text = format!("{good}{none}");
    std::fs::write(dir.join("two.c"), &text).unwrap();
    let mut c = Command::new(ORCL);
    c.args(["tune", "two.c", "--db", "t.db"])
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env("ORCL_TEST_FAULT", "wrong:WX=16")
        .current_dir(dir);
    let t = run(c, Duration::from_secs(300));
    t.assert_code(4);
    assert!(
        t.stderr.contains("region 1 of two.c: no correct variant was found; the region is left as written (exit 4)"),
        "{}",
        t.stderr
    );
    let tuned = std::fs::read_to_string(dir.join("_two.c")).unwrap();
    assert!(tuned.contains("orcl_scale_region0("), "{tuned}");
    assert!(!tuned.contains("orcl_twice_region1("), "{tuned}");
    let t = orcl(
        dir,
        &[
            "tune",
            "two.c",
            "--db",
            "t2.db",
            "-o",
            "out.c",
            "--time-limit",
            "0.001s",
        ],
    );
    t.assert_code(1);
    assert!(
        t.stderr.contains(
            "error: the time limit (0.001 s) ran out before any configuration was measured"
        ),
        "{}",
        t.stderr
    );
    // Nothing was ranked: no empty ranking table before the message (issue 22's note).
    assert!(!t.stdout.contains("median ms"), "{}", t.stdout);
    assert!(!dir.join("out.c").exists());
}

#[test]
fn gesummv_as_written_with_polybench_macros() {
    let tmp = tune("gesummv.c");
    let sig = "(int n, double alpha, double beta, double A[n][n], double B[n][n], double tmp[n], double x[n], double y[n])";
    let protos =
        format!("#define TOL 1e-12\nvoid kernel_gesummv{sig};\nvoid kernel_gesummv_orig{sig};");
    let body = r#"
    int n = s[0];
    double alpha = rnd(), beta = rnd();
    double *A = dvec((long)n * n), *B = dvec((long)n * n), *x = dvec(n);
    double *t = dvec(n), *y = dvec(n), *tr = DUP(t, n), *yr = DUP(y, n);
    kernel_gesummv(n, alpha, beta, (double (*)[n])A, (double (*)[n])B, t, x, y);
    kernel_gesummv_orig(n, alpha, beta, (double (*)[n])A, (double (*)[n])B, tr, x, yr);
    cmp("tmp", t, tr, n);
    cmp("y", y, yr, n);
    free(A); free(B); free(x); free(t); free(y); free(tr); free(yr);
    return n > 0;"#;
    let driver = driver_source(
        &protos,
        "{37, 0, 0}, {130, 0, 0}, {5, 0, 0}, {1, 0, 0}, {0, 0, 0}",
        body,
    );
    run_driver(
        tmp.path(),
        "_gesummv.c",
        "gesummv.c",
        "kernel_gesummv",
        &driver,
        Duration::from_secs(120),
    );
}

#[test]
fn gemver_four_nests_as_written() {
    let tmp = tune("gemver.c");
    let sig = "(int n, double alpha, double beta, double A[n][n], double u1[n], double v1[n], double u2[n], double v2[n], double w[n], double x[n], double y[n], double z[n])";
    let protos =
        format!("#define TOL 1e-12\nvoid kernel_gemver{sig};\nvoid kernel_gemver_orig{sig};");
    let body = r#"
    int n = s[0];
    long e = (long)n * n;
    double alpha = rnd(), beta = rnd();
    double *A = dvec(e), *u1 = dvec(n), *v1 = dvec(n), *u2 = dvec(n), *v2 = dvec(n);
    double *w = dvec(n), *x = dvec(n), *y = dvec(n), *z = dvec(n);
    double *Ar = DUP(A, e), *wr = DUP(w, n), *xr = DUP(x, n);
    kernel_gemver(n, alpha, beta, (double (*)[n])A, u1, v1, u2, v2, w, x, y, z);
    kernel_gemver_orig(n, alpha, beta, (double (*)[n])Ar, u1, v1, u2, v2, wr, xr, y, z);
    cmp("A", A, Ar, e);
    cmp("x", x, xr, n);
    cmp("w", w, wr, n);
    free(A); free(u1); free(v1); free(u2); free(v2); free(w); free(x); free(y); free(z);
    free(Ar); free(wr); free(xr);
    return n > 0 ? 4 : 0;"#;
    let driver = driver_source(
        &protos,
        "{37, 0, 0}, {130, 0, 0}, {5, 0, 0}, {1, 0, 0}, {0, 0, 0}",
        body,
    );
    run_driver(
        tmp.path(),
        "_gemver.c",
        "gemver.c",
        "kernel_gemver",
        &driver,
        Duration::from_secs(120),
    );
}

#[test]
fn a_region_uses_an_earlier_regions_spec_and_overrides_a_section() {
    let tmp = tempdir();
    let dir = tmp.path();
    let first = scale_file("#define SCALAR_VAL(x) x", "for (i = 0; i < n; i++)");
    let spec_start = first.find("/*@ begin PerfTuning(").unwrap();
    let spec_end = first.find(") @*/").unwrap();
    let second = first.replace("void scale(", "void scale2(").replace(
        &first[spec_start..spec_end],
        "/*@ begin PerfTuning(use 0;\n        def performance_params { param WI[] = [8]; }\n    ",
    );
    let second = second.replace("#define SCALAR_VAL(x) x", "");
    std::fs::write(dir.join("u.c"), format!("{first}{second}")).unwrap();
    let c = orcl(dir, &["check", "u.c"]);
    c.assert_code(0);
    // Region 0's own space; region 1 its override, with region 0's sizes and inputs.
    let (r0, r1) = c.stdout.split_once("region 1 in scale2()").unwrap();
    assert!(
        r0.contains("16, 32") && r0.contains("input N=61"),
        "{}",
        c.stdout
    );
    assert!(
        r1.contains("┆ 8 ") && !r1.contains("16, 32"),
        "{}",
        c.stdout
    );
    assert!(r1.contains("input N=61"), "{}", c.stdout);
    let t = orcl(dir, &["tune", "u.c", "--db", "t.db"]);
    t.assert_code(0);
    assert_eq!(common::statuses(&dir.join("t.db")).len(), 3, "{}", t.dump());
    // `use` of a region that is not above: located at the index.
    let bad = format!("{first}{second}").replacen("PerfTuning(use 0;", "PerfTuning(use 1;", 1);
    std::fs::write(dir.join("b.c"), &bad).unwrap();
    let r = orcl(dir, &["check", "b.c"]);
    r.assert_code(4);
    assert!(
        r.stderr
            .contains("`use 1`: region 1 is not an earlier region of this file (this is region 1)"),
        "{}",
        r.stderr
    );
}

/// Locals of the function declared before the region with a computable initializer (`int nh =
/// n / 2;`, `double twice = 2.0 * a;`) need no `input_vars` entry; one assigned again before the
/// region is a located error saying what to declare.
#[test]
fn computable_locals_need_no_input_vars() {
    let tmp = tempdir();
    let dir = tmp.path();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/ok/locals.c"),
    )
    .unwrap();
    std::fs::write(dir.join("locals.c"), &text).unwrap();
    let t = orcl(dir, &["tune", "locals.c", "--db", "t.db"]);
    t.assert_code(0);
    for (key, status) in common::statuses(&dir.join("t.db")) {
        assert_eq!(status, "ok", "{key}\n{}", t.dump());
    }
    let protos = "#define TOL 1e-12\nvoid scale(int n, double a, const double *x, double *y);\nvoid scale_orig(int n, double a, const double *x, double *y);";
    let body = r#"
    int n = s[0];
    double a = rnd(), *x = dvec(n), *y = dvec(n), *yr = DUP(y, n);
    scale(n, a, x, y);
    scale_orig(n, a, x, yr);
    cmp("y", y, yr, n);
    free(x); free(y); free(yr);
    return n / 2 > 0;"#;
    let driver = driver_source(
        protos,
        "{61, 0, 0}, {1, 0, 0}, {2, 0, 0}, {200, 0, 0}",
        body,
    );
    run_driver(
        dir,
        "_locals.c",
        "locals.c",
        "scale",
        &driver,
        Duration::from_secs(120),
    );
    // Named again before the region: its value there is not the initializer's.
    let bad = text.replace(
        "    double twice = 2.0 * a;\n",
        "    double twice = 2.0 * a;\n    twice += 1.0;\n",
    );
    std::fs::write(dir.join("bad.c"), &bad).unwrap();
    let r = orcl(dir, &["check", "bad.c"]);
    r.assert_code(2);
    let line = bad
        .lines()
        .position(|l| l.contains("y[i] = twice"))
        .unwrap()
        + 1;
    assert!(
        r.stderr.contains(&format!("bad.c:{line}:16")),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("orcl cannot compute its value"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("add `decl double twice = random;`"),
        "{}",
        r.stderr
    );
}
