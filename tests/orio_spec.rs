//! Orio's spec vocabulary (issue 11, classes 2, 5, 6, 7; issue 15 F9 and F20), on Orio-style
//! files of our own, tuned on the local OpenCL device (PoCL in CI):
//! - the build section: `@PARAM@` in `libs`, `prebuild_command` and `postbuild_command`; a tuning
//!   parameter in `build_command` (Orio's `@CFLAGS`) builds one skeleton per distinct command, so
//!   each configuration is measured with its own flags; a failing `postbuild_command` fails every
//!   run; Orio's site settings (`-lTAU`, `skeleton_code_file`, C++ compilers) give one warning line;
//! - brace initialisers in `input_vars` (Orio's matVec2D `offsets`), checked against the declared
//!   length, tuned and compared with the original loop from a C driver;
//! - Orio's transform arguments and search names, accepted with a one-line note, and the located
//!   errors of their malformed variants.

mod common;
use common::{driver_source, run, run_driver, statuses, Run};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// `orcl ARGS` in `dir`, with a skeleton cache of the test's own (`dir/cache`), so that builds
/// and their hooks really run.
fn orcl(dir: &Path, args: &[&str]) -> Run {
    let mut c = Command::new(ORCL);
    c.args(args)
        .current_dir(dir)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT");
    run(c, Duration::from_secs(300))
}

fn tmp() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("orcl-orio-spec-")
        .tempdir()
        .expect("temp dir")
}

/// Orio's vecAXPY in Orio's style (`performance_params`, `build`, `input_params`, `input_vars`,
/// `performance_counter`, `search`), with `PARAMS`, `BUILD`, `SEARCH` and `TRANSFORM` filled in.
const AXPY: &str = r#"void axpy(int n, double a, double *x, double *y) {
  register int i;
  /*@ begin PerfTuning(
        def performance_params {
          param WI[] = [16, 32];
          PARAMS
        }
        def build {
          BUILD
        }
        def input_params {
          param N[] = [1000];
        }
        def input_vars {
          decl int n = N;
          decl double a = random;
          decl static double x[N] = random;
          decl static double y[N] = 0;
        }
        def performance_counter {
          arg method = 'basic timer';
          arg repetitions = 1;
        }
        def search {
          SEARCH
        }
  ) @*/
  /*@ begin Loop(transform OpenCL(TRANSFORM)
      for (i=0; i<=n-1; i++)
        y[i]+=a*x[i];
  ) @*/
  for (i=0; i<=n-1; i++)
    y[i]+=a*x[i];
  /*@ end @*/
  /*@ end @*/
}
"#;

fn axpy(params: &str, build: &str, search: &str, transform: &str) -> String {
    AXPY.replace("PARAMS", params)
        .replace("BUILD", build)
        .replace("SEARCH", search)
        .replace("TRANSFORM", transform)
}

/// Issue 15 F9: a tuning parameter in `build_command` (Orio's `@CFLAGS`) builds a skeleton per
/// value, and `@PARAM@` in `prebuild_command` and `postbuild_command` is substituted. The second
/// CFLAGS value is a flag the compiler rejects, so its configurations must be compile errors
/// (before the fix every configuration was measured with the first value's skeleton, all `ok`,
/// and the hooks ran once with `@CFLAGS@` written literally).
#[test]
fn cflags_in_build_command_build_each_configuration_with_its_own_flags() {
    let tmp = tmp();
    let dir = tmp.path();
    let src = axpy(
        "param CFLAGS[] = ['-O1', '-Werror=orcl-no-such-warning'];",
        "arg build_command = 'cc @CFLAGS';
          arg prebuild_command = 'echo pre @CFLAGS@ >> hooks.log';
          arg postbuild_command = 'echo post @CFLAGS@ >> hooks.log';
          arg libs = '-lm';",
        "arg algorithm = 'Exhaustive';",
        "workItemsPerGroup=WI",
    );
    std::fs::write(dir.join("axpy.c"), src).unwrap();
    let t = orcl(dir, &["tune", "axpy.c", "--db", "t.db", "-o", "_axpy.c"]);
    t.assert_code(0);
    let rows = statuses(&dir.join("t.db"));
    assert_eq!(rows.len(), 4, "{rows:?}");
    for (key, status) in &rows {
        let want = if key.contains("-Werror") {
            "compile_error"
        } else {
            "ok"
        };
        assert_eq!(status, want, "{key}\n{}", t.dump());
    }
    // One build per distinct build plan: the prebuild command saw each CFLAGS value substituted,
    // the postbuild ran only after the build that succeeded.
    let log = std::fs::read_to_string(dir.join("hooks.log")).unwrap();
    let mut lines: Vec<&str> = log.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        ["post -O1", "pre -O1", "pre -Werror=orcl-no-such-warning"],
        "{log}"
    );
    assert!(!log.contains('@'), "{log}");
}

/// Issue 15 F20: a failing `postbuild_command` fails every run (before the fix the binary was
/// cached before the hook ran, and the second run succeeded); the hooks are part of the cache key,
/// so fixing the hook rebuilds and succeeds.
#[test]
fn failing_postbuild_fails_every_time() {
    let tmp = tmp();
    let dir = tmp.path();
    let write = |post: &str| {
        let src = axpy(
            "",
            &format!("arg build_command = 'cc -O2'; arg postbuild_command = '{post}';"),
            "arg algorithm = 'Exhaustive';",
            "workItemsPerGroup=WI",
        );
        std::fs::write(dir.join("axpy.c"), src).unwrap();
    };
    write("exit 3");
    for round in 0..2 {
        let t = orcl(dir, &["tune", "axpy.c", "--db", "t.db"]);
        assert_ne!(t.code(), Some(0), "round {round}\n{}", t.dump());
        assert!(
            t.stderr.contains("postbuild_command"),
            "round {round}\n{}",
            t.dump()
        );
    }
    write("true");
    let t = orcl(dir, &["tune", "axpy.c", "--db", "t2.db"]);
    t.assert_code(0);
}

/// Orio's site settings and search names: accepted with one warning line each, located.
#[test]
fn orio_site_settings_and_search_names_warn_in_one_line() {
    let tmp = tmp();
    let dir = tmp.path();
    let src = axpy(
        "",
        "arg build_command = 'gcc -O2 -DPROFILING_ON -lTAU';
          arg libs = '-Wl,-rpath,$ORCL_TEST_NO_SUCH_DIR -lTAU';
        }
        def performance_test_code {
          arg skeleton_code_file = 'tau_skeleton.c';",
        "arg algorithm = 'Randomlocal';
          arg total_runs = 2;
          arg use_parallel_search = True;
          arg randomlocal_local_distance = 1;",
        "threadCount=WI, streamCount=2",
    );
    std::fs::write(dir.join("axpy.c"), src).unwrap();
    let t = orcl(dir, &["check", "axpy.c"]);
    t.assert_code(0);
    let warnings: Vec<&str> = t
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning: "))
        .collect();
    let has = |at: &str, what: &str| {
        assert!(
            warnings
                .iter()
                .any(|w| w.starts_with(&format!("warning: axpy.c:{at}: ")) && w.contains(what)),
            "no warning at {at} with `{what}`:\n{}",
            t.dump()
        )
    };
    has("9:11", "`-lTAU` dropped");
    has("9:11", "`skeleton_code_file = 'tau_skeleton.c'` ignored");
    has("9:11", "$ORCL_TEST_NO_SUCH_DIR unset");
    has("29:11", "runs as orcl's Random");
    has("31:11", "`use_parallel_search` is ignored");
    has(
        "32:11",
        "`randomlocal_local_distance` of Orio's randomlocal is ignored",
    );
    has(
        "35:35",
        "`threadCount` (Orio's CUDA name) is taken as `workItemsPerGroup`",
    );
    has("35:51", "`streamCount` has no effect");
    // The TAU build command, adjusted, builds and tunes.
    let t = orcl(dir, &["tune", "axpy.c", "--db", "t.db"]);
    t.assert_code(0);
    assert!(statuses(&dir.join("t.db")).iter().all(|(_, s)| s == "ok"));
}

/// A located error: `orcl check` exits 2 with `axpy.c:LINE:COL` and `what`.
fn located(src: &str, at: &str, what: &str) {
    let tmp = tmp();
    std::fs::write(tmp.path().join("axpy.c"), src).unwrap();
    let t = orcl(tmp.path(), &["check", "axpy.c"]);
    t.assert_code(2);
    assert!(
        t.stderr.contains(&format!("--> axpy.c:{at}")) && t.stderr.contains(what),
        "want `{what}` at {at}\n{}",
        t.dump()
    );
}

#[test]
fn malformed_orio_settings_are_located_errors() {
    // An unknown placeholder in a hook.
    located(
        &axpy(
            "",
            "arg postbuild_command = 'strip @NOPE@';",
            "arg algorithm = 'Exhaustive';",
            "workItemsPerGroup=WI",
        ),
        "9:11",
        "`@NOPE@` in `postbuild_command` names no parameter",
    );
    // Orio's CUDA names and the OpenCL ones for the same setting.
    located(
        &axpy(
            "",
            "",
            "arg algorithm = 'Exhaustive';",
            "workItemsPerGroup=WI, threadCount=WI",
        ),
        "28:57",
        "`threadCount` gives `workItemsPerGroup` a second time",
    );
    // A search algorithm neither orcl nor Orio has.
    located(
        &axpy(
            "",
            "",
            "arg algorithm = 'Randomlocl';",
            "workItemsPerGroup=WI",
        ),
        "25:11",
        "unknown search algorithm `Randomlocl`",
    );
}

/// Orio's matVec2D (sandbox/cuda/matVec2D.c, Orio authors) in our own words: a DIA matrix-vector
/// product whose diagonal offsets come from a brace initialiser of input params, tuned with a
/// `CFLAGS`-tuned build command.
const DIA: &str = r#"void MatMult_SeqDIA(double* A, double* x, double* y, int g, int nos, const int *offsets) {
  register int i, j;
  /*@ begin PerfTuning (
        def performance_params {
          param WI[] = [16, 64];
          param CFLAGS[] = ['-O1', '-O2'];
        }
        def build {
          arg build_command = 'cc @CFLAGS';
        }
        def input_params {
          param M[] = [12];
          param NOS = 5;
          param DOF = 1;
        }
        def input_vars {
          decl int g = M;
          decl int nos = NOS;
          decl static double A[M*M*NOS*DOF] = random;
          decl static double x[M*M*DOF] = random;
          decl static double y[M*M*DOF] = 0;
          decl static int offsets[NOS] = LIST;
        }
        def performance_counter {
          arg method = 'basic timer';
          arg repetitions = 1;
        }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)
  for (i=0; i<=g*g-1; i++) {
    for (j=0; j<=nos-1; j++) {
      int col = i+offsets[j];
      if (col>=0 && col<g*g)
        y[i] += A[i+j*g*g] * x[col];
    }
  }
  ) @*/
  for (i=0; i<=g*g-1; i++) {
    for (j=0; j<=nos-1; j++) {
      int col = i+offsets[j];
      if (col>=0 && col<g*g)
        y[i] += A[i+j*g*g] * x[col];
    }
  }
  /*@ end @*/
  /*@ end @*/
}
"#;

/// Issue 11 class 2: the brace list is evaluated per input size into the skeleton's `offsets`
/// (one skeleton per CFLAGS value), every configuration validates against the original loop,
/// and the tuned file computes what the original does from a C driver with its own offsets.
#[test]
fn brace_initialised_offsets_tune_and_match_the_original() {
    let tmp = tmp();
    let dir = tmp.path();
    std::fs::write(
        dir.join("dia.c"),
        DIA.replace("LIST", "{-M*DOF, -DOF, 0, DOF, M*DOF}"),
    )
    .unwrap();
    let t = orcl(dir, &["tune", "dia.c", "--db", "t.db", "-o", "_dia.c"]);
    t.assert_code(0);
    let rows = statuses(&dir.join("t.db"));
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(
        rows.iter().all(|(_, s)| s == "ok"),
        "{rows:?}\n{}",
        t.dump()
    );
    // Two skeletons (one per CFLAGS value), each initialising offsets to the evaluated list.
    let skeletons: Vec<String> = std::fs::read_dir(dir.join("cache"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert_eq!(skeletons.len(), 2);
    for s in &skeletons {
        assert!(s.contains("{-12L, -1L, 0L, 1L, 12L}"), "{s}");
    }
    let protos =
        "void MatMult_SeqDIA(double* A, double* x, double* y, int g, int nos, const int *offsets);
void MatMult_SeqDIA_orig(double* A, double* x, double* y, int g, int nos, const int *offsets);
#define TOL 1e-12";
    let body = r#"
    int g = s[0], m = g * g, nos = 5;
    int offsets[5] = {-g, -1, 0, 1, g};
    double *A = dvec((long)m * nos), *x = dvec(m), *y = dvec(m), *yr = DUP(y, m);
    MatMult_SeqDIA(A, x, y, g, nos, offsets);
    MatMult_SeqDIA_orig(A, x, yr, g, nos, offsets);
    cmp("y", y, yr, m);
    free(A); free(x); free(y); free(yr);
    return 1;"#;
    let driver = driver_source(protos, "{12, 0, 0}, {5, 0, 0}, {31, 0, 0}", body);
    run_driver(
        dir,
        "_dia.c",
        "dia.c",
        "MatMult_SeqDIA",
        &driver,
        Duration::from_secs(120),
    );
}

#[test]
fn malformed_brace_initialisers_are_located_errors() {
    let dia = |list: &str| DIA.replace("LIST", list);
    let check = |src: String, at: &str, what: &str| {
        let tmp = tmp();
        std::fs::write(tmp.path().join("dia.c"), src).unwrap();
        let t = orcl(tmp.path(), &["check", "dia.c"]);
        t.assert_code(2);
        assert!(
            t.stderr.contains(&format!("--> dia.c:{at}")) && t.stderr.contains(what),
            "want `{what}` at {at}\n{}",
            t.dump()
        );
    };
    check(
        dia("{-M*DOF, -DOF, 0, DOF}"),
        "22:42",
        "`offsets` is declared with 5 element(s) at this input size but its brace initialiser lists 4",
    );
    check(
        dia("{-M*DOF, -DOF, 0, DOF, WI}"),
        "22:65",
        "input variables may use only input parameters",
    );
    check(dia("{-M, 0,, 1}"), "22:49", "expected an expression");
    check(
        DIA.replace("decl int nos = NOS;", "decl int nos = {NOS};")
            .replace("LIST", "{-M*DOF, -DOF, 0, DOF, M*DOF}"),
        "18:26",
        "`nos` is a scalar: a brace initialiser needs an array",
    );
}

/// Issue 11 class 6: a transform's `device=` that this machine lacks (Orio's files name their
/// second GPU, device=1) tunes on device 0 of the platform with a one-line warning, and the tuned
/// file uses device 0; the same device asked for with `--device` is an error.
#[test]
fn missing_transform_device_tunes_on_device_zero_with_a_warning() {
    let tmp = tmp();
    let dir = tmp.path();
    let src = axpy(
        "",
        "arg build_command = 'cc -O2';",
        "arg algorithm = 'Exhaustive';",
        "workItemsPerGroup=WI, device=7",
    );
    std::fs::write(dir.join("axpy.c"), src).unwrap();
    let t = orcl(dir, &["tune", "axpy.c", "--db", "t.db", "-o", "_axpy.c"]);
    t.assert_code(0);
    assert!(
        t.stderr
            .lines()
            .any(|l| l.starts_with("warning: axpy.c:28:64: ")
                && l.contains("OpenCL device 7 does not exist")
                && l.contains("tuning on platform 0 device 0")),
        "{}",
        t.dump()
    );
    let tuned = std::fs::read_to_string(dir.join("_axpy.c")).unwrap();
    assert!(tuned.contains("orcl_device[1] = { 0 }"), "{tuned}");
    let t = orcl(dir, &["tune", "axpy.c", "--db", "t.db", "--device", "7"]);
    assert_ne!(t.code(), Some(0), "{}", t.dump());
    assert!(t.stderr.contains("device 7 does not exist"), "{}", t.dump());
}

/// Issue 11 class 5: Orio's CUDA build command `nvcc -arch=sm_75 @CFLAGS`: the host skeleton is
/// built with cc, and each configuration's CFLAGS reach NVRTC as kernel options (shown by
/// `orcl emit`, which needs no device); a flag NVRTC cannot take is a located error.
#[test]
fn nvcc_cflags_reach_nvrtc_per_configuration() {
    let tmp = tmp();
    let dir = tmp.path();
    let src = axpy(
        "param CFLAGS[] = ['-O3', '-use_fast_math', '-Xptxas -dlcm=cg', '-Xcompiler -fopenmp'];",
        "arg build_command = 'nvcc -arch=sm_75 @CFLAGS';",
        "arg algorithm = 'Exhaustive';",
        "workItemsPerGroup=WI",
    )
    .replace(
        "transform OpenCL(workItemsPerGroup=WI)",
        "transform CUDA(threadCount=WI)",
    );
    std::fs::write(dir.join("axpy.c"), src).unwrap();
    let options = |cflags: &str| {
        let t = orcl(
            dir,
            &["emit", "axpy.c", "--set", &format!("CFLAGS='{cflags}'")],
        );
        t.assert_code(0);
        t.stdout
            .lines()
            .find(|l| l.contains("NVRTC options and launch tokens"))
            .unwrap_or_else(|| panic!("{}", t.dump()))
            .to_string()
    };
    assert!(options("-O3").ends_with("launch tokens: \"\" */"));
    assert!(options("-use_fast_math").contains("\"--use_fast_math\""));
    assert!(options("-Xptxas -dlcm=cg").contains("\"-orcl-dlcm=cg\""));
    let t = orcl(
        dir,
        &["emit", "axpy.c", "--set", "CFLAGS='-Xcompiler -fopenmp'"],
    );
    t.assert_code(2);
    assert!(
        t.stderr.contains(
            "in the nvcc build command: `-Xcompiler` is not a flag orcl can pass to NVRTC"
        ) && t.stderr.contains("--> axpy.c:9:11"),
        "{}",
        t.dump()
    );
}
