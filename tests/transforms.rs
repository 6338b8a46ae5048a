//! The kernel transformations of issue 3, end to end on the local OpenCL device (PoCL in CI):
//! `cacheBlocks` on an inner loop's shared operand, `innerThreads` (lanes splitting the inner
//! reduction loop), `vecWidth` (vector loads and stores with a scalar tail), combined with
//! `incrementType`, `unrollInner`, fixed or covering NDRanges, local sizes that are not powers of
//! two or not multiples of the lanes, and odd sizes.
//!
//! Three kinds of tests:
//! - `space_*`: `orcl tune` of a whole search space; every configuration must be built, run and
//!   validated against the original loop by the skeleton (`ok`), except those a constraint
//!   excludes.
//! - `forced_*`: a one-configuration space, tuned; the tuned file must contain the
//!   transformation's code (markers such as `orcl_lane` or `vload8`), and, compiled beside the
//!   original loop and a C driver, must compute what the original computes on the driver's own
//!   pseudo-random data for odd and tiny sizes (n = 1, 7, 1009, ...), with kernel launches counted
//!   through `-Wl,--wrap=clEnqueueNDRangeKernel` so that a silent fall-back to the original loop
//!   fails.
//! - `error_*`: a configuration the loop cannot take is a located error at the argument
//!   (`orcl check` exits 2 with `file:line:col` and a caret under the argument's value).

mod common;
use common::{driver_source, run, run_driver, statuses, Run};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// A tuned function: its C text around the loop, its input spec, and the driver's check.
struct Func {
    name: &'static str,
    /// Return type and parameter list, e.g. `void`, `(int n, const double *x, double *y)`.
    ret: &'static str,
    params: &'static str,
    /// Declarations at the top of the function (loop indices, reduction scalars).
    locals: &'static str,
    /// Bodies of `input_params` and `input_vars`.
    inputs: &'static str,
    vars: &'static str,
    /// Transformation arguments of `transform OpenCL(...)`.
    transform: &'static str,
    /// The loop (annotated copy and original).
    code: &'static str,
    /// Statement after the region (`return s;`) or empty.
    tail: &'static str,
    /// `--size` arguments that select one input size for the forced tunes.
    one_size: &'static [&'static str],
    /// Driver: tolerance, rows of sizes (C initialiser of `int[3]` rows) and the body of
    /// `static int check(const int *s)`, which returns whether a kernel launch is expected.
    tol: &'static str,
    sizes: &'static str,
    body: &'static str,
}

impl Func {
    /// The C file with `performance_params` body `params`.
    fn source(&self, params: &str) -> String {
        format!(
            r#"{ret} {name}{args} {{
    {locals}
    /*@ begin PerfTuning(
        def performance_params {{
            {params}
        }}
        def build {{ arg build_command = 'cc -O2'; }}
        def input_params {{ {inputs} }}
        def input_vars {{ {vars} }}
        def performance_counter {{ arg repetitions = 1; }}
        def search {{ arg algorithm = 'Exhaustive'; }}
    ) @*/
    /*@ begin Loop(transform OpenCL({transform})
{code}
    ) @*/
{code}
    /*@ end @*/
    /*@ end @*/
    {tail}
}}
"#,
            ret = self.ret,
            name = self.name,
            args = self.params,
            locals = self.locals,
            inputs = self.inputs,
            vars = self.vars,
            transform = self.transform,
            code = self.code,
            tail = self.tail,
        )
    }
}

/// y = A x, one temporary accumulator per row (double).
const MATVEC: Func = Func {
    name: "MatVec",
    ret: "void",
    params: "(int m, int n, const double *A, const double *x, double *y)",
    locals: "int i, j;",
    inputs: "param M[] = [7, 61]; param N[] = [1009, 7];
            constraint shape = (M == 7 and N == 1009) or (M == 61 and N == 7);",
    vars: "decl int m = M; decl int n = N; decl static double A[M*N] = random;
            decl static double x[N] = random; decl static double y[M] = 0;",
    transform: "workGroups=WG, workItemsPerGroup=WI, cacheBlocks=CB, innerThreads=IT,
                                    incrementType=INC, unrollInner=UI",
    code: "    for (i=0; i<=m-1; i++) {
        double t = 0.0;
        for (j=0; j<=n-1; j++)
            t += A[i*n+j]*x[j];
        y[i] = t;
    }",
    tail: "",
    one_size: &["M=7", "N=1009"],
    tol: "1e-10",
    sizes: "{7, 1009}, {61, 7}, {1, 1}, {3, 1009}, {1009, 7}, {2, 1}, {0, 5}",
    body: r#"
    int m = s[0], n = s[1];
    double *A = dvec((long)m * n), *x = dvec(n), *y = dvec(m), *yr = DUP(y, m);
    MatVec(m, n, A, x, y);
    MatVec_orig(m, n, A, x, yr);
    cmp("y", y, yr, m);
    free(A); free(x); free(y); free(yr);
    return m > 0;"#,
};

/// y[i] += over an inner loop from 1 to n inclusive with two offsets of x (float): the lanes
/// accumulate privately and lane 0 adds to y[i]; cacheBlocks stages x[j-1] and x[j+1].
const LANES: Func = Func {
    name: "MatVecLanes",
    ret: "void",
    params: "(int m, int n, const float *A, const float *x, float *y)",
    locals: "int i, j;",
    inputs: "param M[] = [37]; param N[] = [1009];",
    vars: "decl int m = M; decl int n = N; decl static float A[M*(N+2)] = random;
            decl static float x[N+2] = random; decl static float y[M] = random;",
    transform: "workItemsPerGroup=WI, innerThreads=IT, cacheBlocks=CB, incrementType=INC,
                                    unrollInner=UI",
    code: "    for (i=0; i<m; i++)
        for (j=1; j<=n; j++)
            y[i] += A[i*(n+2)+j] * (x[j-1] + x[j+1]);",
    tail: "",
    one_size: &[],
    tol: "1e-5",
    sizes: "{37, 1009}, {1, 1}, {7, 7}, {100, 3}, {5, 2}, {0, 4}",
    body: r#"
    int m = s[0], n = s[1];
    float *A = fvec((long)m * (n + 2)), *x = fvec(n + 2), *y = fvec(m), *yr = DUP(y, m);
    MatVecLanes(m, n, A, x, y);
    MatVecLanes_orig(m, n, A, x, yr);
    cmp("y", y, yr, m);
    free(A); free(x); free(y); free(yr);
    return m > 0;"#,
};

/// Before the inner loop: temporaries (one not starting at the identity), an array store and a
/// reduction (lane 0); in it: a sum, a max, an array accumulation; after it: stores and a
/// reduction of the parallel loop.
const PRE: Func = Func {
    name: "Pre",
    ret: "double",
    params: "(int m, int n, const double *A, const double *x, const double *b, double *y)",
    locals: "int i, j;\n    double s = 0.0;",
    inputs: "param M[] = [53]; param N[] = [211];",
    vars: "decl int m = M; decl int n = N; decl double s = 0; decl static double A[M*N] = random;
            decl static double x[N] = random; decl static double b[M] = random;
            decl static double y[M] = random;",
    transform: "workItemsPerGroup=WI, innerThreads=IT, cacheBlocks=CB, incrementType=INC",
    code: "    for (i=0; i<m; i++) {
        double t = b[i];
        double u = -1.0e300;
        double c = 2.0;
        y[i] = 0.5 * b[i];
        s += b[i];
        for (j=0; j<n; j++) {
            double v = A[i*n+j] * x[j];
            t += c * v;
            u = fmax(u, v);
            y[i] += v;
        }
        y[i] += t + u;
        s += t;
    }",
    tail: "return s;",
    one_size: &[],
    tol: "1e-10",
    sizes: "{53, 211}, {1, 1}, {7, 1009}, {20, 3}, {0, 3}",
    body: r#"
    int m = s[0], n = s[1];
    double *A = dvec((long)m * n), *x = dvec(n), *b = dvec(m), *y = dvec(m), *yr = DUP(y, m);
    double r = Pre(m, n, A, x, b, y), rr = Pre_orig(m, n, A, x, b, yr);
    cmp("y", y, yr, m);
    cmp("s", &r, &rr, 1);
    free(A); free(x); free(b); free(y); free(yr);
    return m > 0;"#,
};

/// A 1-D double loop from 1 to n inclusive with offsets and a reduction, for vecWidth.
const VECOFF: Func = Func {
    name: "VecOff",
    ret: "double",
    params: "(int n, double a, const double *x, const double *y, double *w)",
    locals: "int i;\n    double s = 0.0;",
    inputs: "param N[] = [1009, 1];",
    vars: "decl int n = N; decl double a = random; decl double s = 0;
            decl static double x[N+2] = random; decl static double y[N+2] = random;
            decl static double w[N+2] = 0;",
    transform: "workGroups=WG, workItemsPerGroup=WI, vecWidth=VW, incrementType=INC",
    code: "    for (i=1; i<=n; i++) {
        w[i] = a*x[i] + y[i-1];
        s += w[i]*x[i+1];
    }",
    tail: "return s;",
    one_size: &["N=1009"],
    tol: "1e-10",
    sizes: "{1009}, {1}, {2}, {7}, {8}, {9}, {1000}, {0}",
    body: r#"
    int n = s[0];
    double a = rnd(), *x = dvec(n + 2), *y = dvec(n + 2), *w = dvec(n + 2), *wr = DUP(w, n + 2);
    double r = VecOff(n, a, x, y, w), rr = VecOff_orig(n, a, x, y, wr);
    cmp("w", w, wr, n + 2);
    cmp("s", &r, &rr, 1);
    free(x); free(y); free(w); free(wr);
    return n > 0;"#,
};

/// A float loop for vecWidth (16 wide too): offsets, a temporary, `?:` on a comparison, a double
/// literal, a sum and a max, a `<` bound from 1.
const MIX: Func = Func {
    name: "Mix",
    ret: "float",
    params: "(int n, float a, const float *x, const float *y, float *z)",
    locals: "int i;\n    float s = 0.0f;\n    float mx = -1000.0f;",
    inputs: "param N[] = [1009];",
    vars: "decl int n = N; decl float a = random; decl float s = 0; decl float mx = 0;
            decl static float x[N] = random; decl static float y[N] = random;
            decl static float z[N] = 0;",
    transform: "workGroups=WG, workItemsPerGroup=WI, vecWidth=VW, incrementType=INC",
    code: "    for (i=1; i<n-1; i++) {
        float t = a*x[i+1] - x[i-1];
        z[i] = t > 0.5f ? t : y[i]*2.0;
        z[i] += -t / 3;
        s += fabs(t) + 1;
        mx = fmax(mx, y[i]);
    }",
    tail: "return s + mx;",
    one_size: &[],
    // a*x - x contracts to an fma on the device and not on the host.
    tol: "1e-4",
    sizes: "{1009}, {3}, {4}, {17}, {18}, {19}, {1000}, {2}, {0}",
    body: r#"
    int n = s[0];
    float a = (float)prnd(), *x = fvec(n), *y = fvec(n), *z = fvec(n), *zr = DUP(z, n);
    float r = Mix(n, a, x, y, z), rr = Mix_orig(n, a, x, y, zr);
    cmp("z", z, zr, n);
    cmp("s + mx", &r, &rr, 1);
    free(x); free(y); free(z); free(zr);
    return n > 2;"#,
};

/// A skeleton cache shared by the tests of this file (skeletons depend on the loop and the input
/// size, not on the configuration, so one-configuration tunes of one loop share theirs).
fn cache_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("transforms-skeletons")
}

fn run_in(mut cmd: Command, dir: &Path, limit: Duration) -> Run {
    cmd.current_dir(dir);
    run(cmd, limit)
}

fn orcl(dir: &Path, args: &[&str]) -> Run {
    let mut c = Command::new(ORCL);
    c.args(args)
        .env("ORCL_CACHE_DIR", cache_dir())
        .env_remove("ORCL_TEST_FAULT");
    run_in(c, dir, Duration::from_secs(300))
}

fn ok(r: Run, what: &str) -> Run {
    assert_eq!(r.code(), Some(0), "{what}\n{}", r.dump());
    r
}

/// Write `f` with `params` into a fresh temp dir as `NAME.c`.
fn setup(f: &Func, params: &str) -> (tempfile::TempDir, String) {
    let tmp = tempfile::Builder::new()
        .prefix("orcl-transforms-")
        .tempdir()
        .expect("temp dir");
    let file = format!("{}.c", f.name);
    std::fs::write(tmp.path().join(&file), f.source(params)).unwrap();
    (tmp, file)
}

/// Tune the whole space `params`: `ok` evaluations must number `want_ok`, the rest be
/// `constraint`.
fn space(f: &Func, params: &str, want_ok: usize, want_constraint: usize) {
    let (tmp, file) = setup(f, params);
    let dir = tmp.path();
    let t = ok(orcl(dir, &["tune", &file, "--db", "t.db"]), "tune");
    let rows = statuses(&dir.join("t.db"));
    let count = |s: &str| rows.iter().filter(|(_, x)| x == s).count();
    for (key, status) in &rows {
        assert!(
            status == "ok" || status == "constraint",
            "{key}: {status}\n{}",
            t.dump()
        );
    }
    // Constraint rejections are counted in the experiment's metadata, not stored (issue 15 F8).
    let counted: usize = rusqlite::Connection::open(dir.join("t.db"))
        .unwrap()
        .query_row(
            "SELECT coalesce(sum(CAST(value AS INTEGER)), 0) FROM experiment_metadata WHERE key = 'constraint_rejected'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .unwrap() as usize;
    assert_eq!(count("constraint"), 0, "{rows:?}");
    assert_eq!(
        (count("ok"), counted),
        (want_ok, want_constraint),
        "{rows:?}"
    );
}

/// Tune the one configuration `config` (NAME=VALUE, values as spec expressions), check that the
/// tuned file contains each of `markers` and none of `absent`, then compile it with the original
/// and the driver and run it.
fn forced(f: &Func, config: &[(&str, &str)], markers: &[&str], absent: &[&str]) {
    let params: String = config
        .iter()
        .map(|(n, v)| format!("param {n}[] = [{v}];\n            "))
        .collect();
    let (tmp, file) = setup(f, &params);
    let dir = tmp.path();
    let tuned = format!("_{file}");
    let mut args = vec!["tune", file.as_str(), "--db", "t.db", "-o", tuned.as_str()];
    for s in f.one_size {
        args.extend(["--size", s]);
    }
    let t = ok(orcl(dir, &args), "tune");
    for (key, status) in statuses(&dir.join("t.db")) {
        assert_eq!(status, "ok", "{key}\n{}", t.dump());
    }
    let text = std::fs::read_to_string(dir.join(&tuned)).unwrap();
    for m in markers {
        assert!(text.contains(m), "no `{m}` in the tuned file:\n{text}");
    }
    for m in absent {
        assert!(!text.contains(m), "`{m}` in the tuned file:\n{text}");
    }
    let protos = format!(
        "{r} {n}{p};\n{r} {n}_orig{p};\n#define TOL {tol}",
        r = f.ret,
        n = f.name,
        p = f.params,
        tol = f.tol
    );
    let driver = driver_source(&protos, f.sizes, f.body);
    run_driver(
        dir,
        &tuned,
        &file,
        f.name,
        &driver,
        Duration::from_secs(120),
    );
}

// ---- whole spaces -------------------------------------------------------------------------

/// Local sizes 7 (prime) and 48, lanes 1, 3 and 16 (16 > 7 excluded by the constraint), both
/// increment types, staging on and off, a fixed NDRange, two shapes (7 x 1009, 61 x 7).
#[test]
fn space_matvec() {
    space(
        &MATVEC,
        "param WG[] = [5];
            param WI[] = [7, 48];
            param CB[] = [False, True];
            param IT[] = [1, 3, 16];
            param INC[] = ['global', 'local'];
            param UI[] = [3];
            constraint lanes = (IT <= WI);",
        2 * 20,
        2 * 4,
    );
}

/// `y[i] +=` with offsets: local sizes 24 and 32, lanes 1, 4, 8, the NDRange covering the loop.
#[test]
fn space_lanes() {
    space(
        &LANES,
        "param WI[] = [24, 32];
            param IT[] = [1, 4, 8];
            param CB[] = [False, True];
            param INC[] = ['global', 'local'];
            param UI[] = [2];",
        24,
        0,
    );
}

/// Lanes 4 and 5 (20 % 5 == 0, 16 % 5 == 1: one idle work-item per group).
#[test]
fn space_pre() {
    space(
        &PRE,
        "param WI[] = [16, 20];
            param IT[] = [1, 4, 5];
            param CB[] = [False, True];
            param INC[] = ['global', 'local'];",
        24,
        0,
    );
}

/// Widths 1 to 8 on n = 1009 and n = 1 (only the scalar tail), local sizes 7 and 32.
#[test]
fn space_vecoff() {
    space(
        &VECOFF,
        "param WG[] = [3];
            param WI[] = [7, 32];
            param VW[] = [1, 2, 4, 8];
            param INC[] = ['global', 'local'];",
        2 * 16,
        0,
    );
}

/// Widths 1 to 16 on float data.
#[test]
fn space_mix() {
    space(
        &MIX,
        "param WG[] = [3];
            param WI[] = [24];
            param VW[] = [1, 2, 4, 8, 16];
            param INC[] = ['global', 'local'];",
        10,
        0,
    );
}

/// examples/vecWAXPY_vec.c: every configuration ok, and the tuned file is right from a driver.
#[test]
fn example_vec_waxpy_vec() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/vecWAXPY_vec.c");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::copy(&src, dir.join("vecWAXPY_vec.c")).unwrap();
    let t = ok(
        orcl(
            dir,
            &[
                "tune",
                "vecWAXPY_vec.c",
                "--db",
                "t.db",
                "-o",
                "_vecWAXPY_vec.c",
            ],
        ),
        "tune",
    );
    let rows = statuses(&dir.join("t.db"));
    assert_eq!(rows.len(), 32, "16 configurations x 2 sizes: {rows:?}");
    for (key, status) in &rows {
        assert_eq!(status, "ok", "{key}\n{}", t.dump());
    }
    let f = Func {
        name: "VecWAXPYVec",
        ret: "void",
        params: "(int n, double a, const double *x, const double *y, double *w)",
        locals: "",
        inputs: "",
        vars: "",
        transform: "",
        code: "",
        tail: "",
        one_size: &[],
        tol: "1e-12",
        sizes: "{1000}, {30000}, {7919}, {30011}, {999}, {1}, {2}, {0}",
        body: r#"
    int n = s[0];
    double a = rnd(), *x = dvec(n), *y = dvec(n), *w = dvec(n), *wr = DUP(w, n);
    VecWAXPYVec(n, a, x, y, w);
    VecWAXPYVec_orig(n, a, x, y, wr);
    cmp("w", w, wr, n);
    free(x); free(y); free(w); free(wr);
    return n > 0;"#,
    };
    let protos = format!(
        "void VecWAXPYVec{p};\nvoid VecWAXPYVec_orig{p};\n#define TOL 1e-12",
        p = f.params
    );
    run_driver(
        dir,
        "_vecWAXPY_vec.c",
        "vecWAXPY_vec.c",
        "VecWAXPYVec",
        &driver_source(&protos, f.sizes, f.body),
        Duration::from_secs(60),
    );
}

// ---- one configuration, checked from C ------------------------------------------------------

#[test]
fn forced_matvec_lanes16_staged_unrolled() {
    forced(
        &MATVEC,
        &[
            ("WG", "5"),
            ("WI", "48"),
            ("CB", "True"),
            ("IT", "16"),
            ("INC", "'global'"),
            ("UI", "3"),
        ],
        &["orcl_lane", "orcl_tile_x_j[orcl_q]", "#pragma unroll 3"],
        &[],
    );
}

#[test]
fn forced_matvec_lanes3_of_7_staged_local() {
    forced(
        &MATVEC,
        &[
            ("WG", "5"),
            ("WI", "7"),
            ("CB", "True"),
            ("IT", "3"),
            ("INC", "'local'"),
            ("UI", "1"),
        ],
        &["orcl_lane", "orcl_tile_x_j", "orcl_slot < 2", "orcl_end"],
        &[],
    );
}

#[test]
fn forced_matvec_staged_only() {
    forced(
        &MATVEC,
        &[
            ("WG", "5"),
            ("WI", "16"),
            ("CB", "True"),
            ("IT", "1"),
            ("INC", "'global'"),
            ("UI", "1"),
        ],
        &["orcl_tile_x_j[orcl_q]"],
        &["orcl_lane"],
    );
}

#[test]
fn forced_matvec_lanes_equal_local_size() {
    forced(
        &MATVEC,
        &[
            ("WG", "5"),
            ("WI", "7"),
            ("CB", "False"),
            ("IT", "7"),
            ("INC", "'global'"),
            ("UI", "1"),
        ],
        &["orcl_lane", "orcl_q += 7"],
        &["orcl_tile"],
    );
}

#[test]
fn forced_lanes_staged_local() {
    forced(
        &LANES,
        &[
            ("WI", "24"),
            ("IT", "8"),
            ("CB", "True"),
            ("INC", "'local'"),
            ("UI", "2"),
        ],
        &["orcl_lacc_y", "orcl_tile_x_j_m1", "orcl_tile_x_j_p1"],
        &[],
    );
}

#[test]
fn forced_lanes_cover_loop() {
    forced(
        &LANES,
        &[
            ("WI", "32"),
            ("IT", "4"),
            ("CB", "False"),
            ("INC", "'global'"),
            ("UI", "1"),
        ],
        &["orcl_lacc_y", "orcl_lane"],
        &["orcl_tile"],
    );
}

#[test]
fn forced_pre_lanes5_staged() {
    forced(
        &PRE,
        &[
            ("WI", "20"),
            ("IT", "5"),
            ("CB", "True"),
            ("INC", "'global'"),
        ],
        &[
            "orcl_init_t",
            "orcl_init_u",
            "orcl_lacc_y",
            "orcl_active && orcl_lane == 0",
        ],
        &[],
    );
}

#[test]
fn forced_pre_lanes4_idle_local() {
    forced(
        &PRE,
        &[
            ("WI", "18"),
            ("IT", "4"),
            ("CB", "False"),
            ("INC", "'local'"),
        ],
        &["orcl_slot < 4", "orcl_part_u"],
        &[],
    );
}

#[test]
fn forced_vecoff_8_global() {
    forced(
        &VECOFF,
        &[("WG", "3"), ("WI", "7"), ("VW", "8"), ("INC", "'global'")],
        &["vload8(0, x + (i + 1))", "vstore8(", "orcl_vacc_s"],
        &[],
    );
}

#[test]
fn forced_vecoff_4_local() {
    forced(
        &VECOFF,
        &[("WG", "3"), ("WI", "32"), ("VW", "4"), ("INC", "'local'")],
        &["vload4(0, y + (i - 1))", "orcl_nvec"],
        &[],
    );
}

#[test]
fn forced_vecoff_2_local() {
    forced(
        &VECOFF,
        &[("WG", "3"), ("WI", "7"), ("VW", "2"), ("INC", "'local'")],
        &["double2"],
        &[],
    );
}

#[test]
fn forced_mix_16() {
    forced(
        &MIX,
        &[("WG", "3"), ("WI", "24"), ("VW", "16"), ("INC", "'global'")],
        &["float16", "vload16", "orcl_vacc_mx.sf"],
        &[],
    );
}

#[test]
fn forced_mix_8_local() {
    forced(
        &MIX,
        &[("WG", "3"), ("WI", "24"), ("VW", "8"), ("INC", "'local'")],
        &["float8", "orcl_chunk"],
        &[],
    );
}

// ---- located errors -------------------------------------------------------------------------

/// `orcl check` of `f` with `params`, `transform` and `code` fails with exit 2, an error
/// containing `message` located at the value of argument `arg` (`file:line:col` and a caret).
fn error_case(f: &Func, params: &str, transform: &str, code: &str, arg: &str, message: &str) {
    let g = Func {
        transform: Box::leak(transform.to_string().into_boxed_str()),
        code: Box::leak(code.to_string().into_boxed_str()),
        ..*f
    };
    let (tmp, file) = setup(&g, params);
    let dir = tmp.path();
    let text = std::fs::read_to_string(dir.join(&file)).unwrap();
    let r = orcl(dir, &["check", &file]);
    assert_eq!(r.code(), Some(2), "{}", r.dump());
    assert!(r.stderr.contains(message), "no `{message}`:\n{}", r.dump());
    // The caret sits under the argument's value in the annotation.
    let at = text
        .find(&format!("{arg}="))
        .unwrap_or_else(|| panic!("no {arg}= in the source"))
        + arg.len()
        + 1;
    let line = text[..at].lines().count();
    let col = at - text[..at].rfind('\n').map_or(0, |p| p + 1) + 1;
    assert!(
        r.stderr.contains(&format!("{file}:{line}:{col}")),
        "not located at {file}:{line}:{col}:\n{}",
        r.dump()
    );
    assert!(
        r.stderr.lines().any(|l| l.trim_start().starts_with('|')
            && l.contains('^')
            && l.find('^') == Some(l.find('|').unwrap() + col + 1)),
        "no caret under column {col}:\n{}",
        r.dump()
    );
}

const MATVEC_ARGS: &str = "workItemsPerGroup=WI, innerThreads=IT";
const MATVEC_PARAMS: &str = "param WI[] = [32]; param IT[] = [1, 4];";

#[test]
fn error_inner_threads_without_inner_loop() {
    error_case(
        &VECOFF,
        "param WI[] = [32]; param IT[] = [4];",
        "workItemsPerGroup=WI, innerThreads=IT",
        "    for (i=1; i<=n; i++) {
        w[i] = a*x[i] + y[i-1];
        s += w[i]*x[i+1];
    }",
        "innerThreads",
        "`innerThreads=4` needs a sequential inner loop directly in the parallel loop's body",
    );
}

#[test]
fn error_inner_threads_above_local_size() {
    error_case(
        &MATVEC,
        "param WI[] = [8, 32]; param IT[] = [16];",
        MATVEC_ARGS,
        MATVEC.code,
        "innerThreads",
        "`innerThreads=16` is more than the local size (8)",
    );
}

#[test]
fn error_inner_threads_store_per_iteration() {
    error_case(
        &MATVEC,
        MATVEC_PARAMS,
        MATVEC_ARGS,
        "    for (i=0; i<=m-1; i++) {
        for (j=0; j<=n-1; j++)
            y[i] = A[i*n+j]*x[j];
    }",
        "innerThreads",
        "`y[i] = A[i * n + j] * x[j];` writes an array in the inner loop without accumulating",
    );
}

#[test]
fn error_inner_threads_reads_accumulator() {
    error_case(
        &MATVEC,
        MATVEC_PARAMS,
        MATVEC_ARGS,
        "    for (i=0; i<=m-1; i++) {
        double t = 0.0;
        double u = 1.0;
        for (j=0; j<=n-1; j++) {
            t += A[i*n+j]*u;
            u += x[j];
        }
        y[i] = t;
    }",
        "innerThreads",
        "the inner loop reads `u`",
    );
}

#[test]
fn error_inner_threads_not_an_accumulation() {
    error_case(
        &MATVEC,
        MATVEC_PARAMS,
        MATVEC_ARGS,
        "    for (i=0; i<=m-1; i++) {
        double t = 0.0;
        for (j=0; j<=n-1; j++)
            t = A[i*n+j]*x[j];
        y[i] = t;
    }",
        "innerThreads",
        "sets `t` in the inner loop without accumulating into it",
    );
}

#[test]
fn error_inner_threads_mixed_operators() {
    error_case(
        &MATVEC,
        MATVEC_PARAMS,
        MATVEC_ARGS,
        "    for (i=0; i<=m-1; i++) {
        double t = 1.0;
        for (j=0; j<=n-1; j++) {
            t += A[i*n+j];
            t *= x[j];
        }
        y[i] = t;
    }",
        "innerThreads",
        "`t` is accumulated with two different operators",
    );
}

#[test]
fn error_inner_threads_conditional_store_before_loop() {
    error_case(
        &MATVEC,
        MATVEC_PARAMS,
        MATVEC_ARGS,
        "    for (i=0; i<=m-1; i++) {
        if (m > 3) y[i] = 0.0;
        for (j=0; j<=n-1; j++)
            y[i] += A[i*n+j]*x[j];
    }",
        "innerThreads",
        "comes before the inner loop, where every lane runs",
    );
}

#[test]
fn error_inner_threads_read_of_lane0_store() {
    error_case(
        &MATVEC,
        MATVEC_PARAMS,
        MATVEC_ARGS,
        "    for (i=0; i<=m-1; i++) {
        y[i] = 1.0;
        double t = y[i];
        for (j=0; j<=n-1; j++)
            t += A[i*n+j]*x[j];
        y[i] = t;
    }",
        "innerThreads",
        "reads `y`, which lane 0 alone stores before the inner loop",
    );
}

#[test]
fn error_inner_threads_zero() {
    error_case(
        &MATVEC,
        "param WI[] = [32]; param IT[] = [0];",
        MATVEC_ARGS,
        MATVEC.code,
        "innerThreads",
        "`innerThreads` must be an integer ≥ 1, found 0",
    );
}

const VEC_ARGS: &str = "workItemsPerGroup=WI, vecWidth=VW";
const VEC_PARAMS: &str = "param WI[] = [32]; param VW[] = [1, 4];";

#[test]
fn error_vec_width_inner_loop() {
    error_case(
        &MATVEC,
        "param WI[] = [32]; param VW[] = [2];",
        VEC_ARGS,
        MATVEC.code,
        "vecWidth",
        "`vecWidth=2` applies to loops without inner loops; this one has `for (j ...)`",
    );
}

#[test]
fn error_vec_width_subscript() {
    error_case(
        &VECOFF,
        VEC_PARAMS,
        VEC_ARGS,
        "    for (i=1; i<=n/2; i++) {
        w[i] = a*x[2*i] + y[i-1];
    }",
        "vecWidth",
        "`vecWidth=4` needs every subscript to be the loop index `i` plus a constant; `x[2 * i]` is not",
    );
}

#[test]
fn error_vec_width_step() {
    error_case(
        &VECOFF,
        VEC_PARAMS,
        VEC_ARGS,
        "    for (i=1; i<=n; i+=2) {
        w[i] = a*x[i];
    }",
        "vecWidth",
        "`vecWidth=4` needs a unit-step loop; this one steps by 2",
    );
}

#[test]
fn error_vec_width_if() {
    error_case(
        &VECOFF,
        VEC_PARAMS,
        VEC_ARGS,
        "    for (i=1; i<=n; i++) {
        if (x[i] > 0.0) w[i] = a*x[i];
    }",
        "vecWidth",
        "`vecWidth=4`: `if (x[i] > 0.0)` is not vectorised",
    );
}

#[test]
fn error_vec_width_index_as_value() {
    error_case(
        &VECOFF,
        VEC_PARAMS,
        VEC_ARGS,
        "    for (i=1; i<=n; i++) {
        w[i] = a*x[i] * i;
    }",
        "vecWidth",
        "the loop index `i` is used as a value, outside a subscript",
    );
}

#[test]
fn error_vec_width_comparison_as_value() {
    error_case(
        &VECOFF,
        VEC_PARAMS,
        VEC_ARGS,
        "    for (i=1; i<=n; i++) {
        w[i] = a + (x[i] > y[i]);
    }",
        "vecWidth",
        "the comparison `x[i] > y[i]` is used as a value",
    );
}

/// A vector select evaluates both arms for all W iterations: a load the original performs only
/// under the condition could read past what the original reads.
#[test]
fn error_vec_width_conditional_load() {
    error_case(
        &VECOFF,
        VEC_PARAMS,
        VEC_ARGS,
        "    for (i=1; i<=n; i++) {
        w[i] = x[i] > 0.0 ? a*x[i+1] : y[i];
        s += y[i];
    }",
        "vecWidth",
        "`x[i + 1]` is read only under a condition, and the vector code would read it for all 4 iterations",
    );
}

#[test]
fn error_vec_width_16_double() {
    error_case(
        &VECOFF,
        "param WI[] = [32]; param VW[] = [16];",
        VEC_ARGS,
        VECOFF.code,
        "vecWidth",
        "16-wide vectors are for 4-byte data (float, int); this loop's data is double",
    );
}

#[test]
fn error_vec_width_not_a_width() {
    error_case(
        &VECOFF,
        "param WI[] = [32]; param VW[] = [3];",
        VEC_ARGS,
        VECOFF.code,
        "vecWidth",
        "`vecWidth` must be 1, 2, 4, 8 or 16, found 3",
    );
}
