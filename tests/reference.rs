//! Issue 24: the reference outputs off the critical path. The original loop's outputs are computed
//! once per skeleton binary by a process of their own (`SKELETON --reference`) beside the workers'
//! device set-up, kept in the cache directory (`CACHE/references`, keyed by the binary's digest,
//! checked against the data's own digest) and read by every worker; the OpenMP reference is
//! bit-identical to the serial one. Runs on the local OpenCL device (PoCL in CI): SGEMM from the
//! naive loop (a k-sum within each output element) at 65 x 47 x 31.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

mod common;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");
const LIMIT: Duration = Duration::from_secs(300);

struct Case {
    dir: tempfile::TempDir,
    input: PathBuf,
}

impl Case {
    fn new() -> Case {
        let dir = tempfile::Builder::new()
            .prefix("orcl-reference-")
            .tempdir()
            .unwrap();
        let input = dir.path().join("sgemm.c");
        let text =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sgemm.c"))
                .unwrap();
        let sized = [("M", "33", "65"), ("N", "17", "47"), ("K", "9", "31")]
            .iter()
            .fold(text, |t, (p, old, new)| {
                let (from, to) = (
                    format!("param {p}[] = [{old}];"),
                    format!("param {p}[] = [{new}];"),
                );
                assert!(t.contains(&from), "examples/sgemm.c changed: no `{from}`");
                t.replace(&from, &to)
            });
        std::fs::write(&input, sized).unwrap();
        Case { dir, input }
    }

    fn cache(&self) -> PathBuf {
        self.dir.path().join("cache")
    }

    /// `orcl tune` of the SGEMM at 65 x 47 x 31 (stage log at info), `args` added.
    fn tune(&self, db: &str, args: &[&str]) -> common::Run {
        let mut c = Command::new(ORCL);
        c.arg("tune")
            .arg(&self.input)
            .args(["--db", db, "-o", "tuned.c"])
            .args(["--search", "Random", "--seed", "5"])
            .args(args)
            .current_dir(self.dir.path())
            .env("ORCL_CACHE_DIR", self.cache())
            .env("ORCL_LOG", "info")
            .env_remove("ORCL_REFERENCE_CACHE_MB")
            .env_remove("ORCL_TEST_FAULT")
            .env_remove("ORCL_TEST_PAUSE");
        common::run(c, LIMIT)
    }

    /// The cached reference outputs (data files of `CACHE/references`).
    fn cached(&self) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(self.cache().join("references"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_none())
            .collect();
        v.sort();
        v
    }

    /// The cached skeleton binary (exactly one in these tests).
    fn skeleton(&self) -> PathBuf {
        let v: Vec<PathBuf> = std::fs::read_dir(self.cache())
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("skeleton-")
                    && p.extension().is_none()
            })
            .collect();
        assert_eq!(v.len(), 1, "one skeleton binary expected: {v:?}");
        v[0].clone()
    }
}

/// Every evaluation `ok` (validated against the reference outputs), and at least `n` of them.
fn all_ok(db: &Path, n: usize) {
    let s = common::statuses(db);
    assert!(s.len() >= n, "{s:?}");
    assert!(s.iter().all(|(_, st)| st == "ok"), "{s:?}");
}

fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

/// Computed once by the reference process and cached; a rerun (`--more`) reads the cache; a
/// cached file that no longer matches its digest is computed again, and the variants still
/// validate. No run file is left behind.
#[test]
fn reference_outputs_are_computed_once_then_cached() {
    let case = Case::new();
    let db = case.dir.path().join("r.db");
    let db = db.to_str().unwrap();
    let r = case.tune(db, &["--total-runs", "3"]);
    r.assert_code(0);
    assert_eq!(
        count(&r.stderr, "reference outputs: computed"),
        1,
        "{}",
        r.dump()
    );
    all_ok(Path::new(db), 3);
    let cached = case.cached();
    assert_eq!(cached.len(), 1, "{cached:?}");
    let bytes = std::fs::metadata(&cached[0]).unwrap().len();
    assert_eq!(bytes, 65 * 47 * 4, "the outputs are C (65 x 47 floats)");
    let leftovers: Vec<_> = std::fs::read_dir(case.cache())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("reference-"))
        .map(|e| e.path())
        .collect();
    assert!(leftovers.is_empty(), "run files left: {leftovers:?}");

    let r = case.tune(db, &["--more", "1"]);
    r.assert_code(0);
    assert_eq!(
        count(&r.stderr, "reference outputs: cached"),
        1,
        "{}",
        r.dump()
    );
    assert_eq!(
        count(&r.stderr, "reference outputs: comput"),
        0,
        "{}",
        r.dump()
    );
    all_ok(Path::new(db), 4);

    // One value changed (the size kept): the digest no longer matches, so it is computed again.
    let mut data = std::fs::read(&cached[0]).unwrap();
    data[100] ^= 0x40;
    std::fs::write(&cached[0], &data).unwrap();
    let r = case.tune(db, &["--more", "1"]);
    r.assert_code(0);
    assert_eq!(
        count(&r.stderr, "reference outputs: computed"),
        1,
        "{}",
        r.dump()
    );
    all_ok(Path::new(db), 5);
    assert_ne!(std::fs::read(&cached[0]).unwrap(), data, "not recomputed");

    // ORCL_REFERENCE_CACHE_MB=0: computed, not cached (a run file, removed at the end).
    let db2 = case.dir.path().join("r2.db");
    let mut c = Command::new(ORCL);
    c.arg("tune")
        .arg(&case.input)
        .args(["--db", db2.to_str().unwrap(), "-o", "tuned2.c"])
        .args(["--search", "Random", "--seed", "5", "--total-runs", "1"])
        .current_dir(case.dir.path())
        .env("ORCL_CACHE_DIR", case.cache())
        .env("ORCL_LOG", "info")
        .env("ORCL_REFERENCE_CACHE_MB", "0");
    let r = common::run(c, LIMIT);
    r.assert_code(0);
    assert!(r.stderr.contains("cached=false"), "{}", r.dump());
    all_ok(&db2, 1);
}

/// The skeleton's OpenMP reference (its outermost loop proven parallel; the k-sum of each
/// element stays serial) gives the same bytes as the same source compiled without OpenMP, at
/// any thread count.
#[test]
fn the_parallel_reference_is_bit_identical_to_the_serial_one() {
    let case = Case::new();
    let db = case.dir.path().join("p.db");
    let r = case.tune(db.to_str().unwrap(), &["--total-runs", "1"]);
    r.assert_code(0);
    let exe = case.skeleton();
    let source = std::fs::read_to_string(exe.with_extension("c")).unwrap();
    assert!(
        source.contains("#pragma omp parallel for"),
        "the SGEMM reference should be marked parallel"
    );
    let serial = case.dir.path().join("serial");
    let built = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&serial)
        .arg(exe.with_extension("c"))
        .args(["-lOpenCL", "-lm"])
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let reference = |bin: &Path, threads: &str, name: &str| -> Vec<u8> {
        let out = case.dir.path().join(name);
        let s = Command::new(bin)
            .arg("--reference")
            .env("ORCL_REFERENCE", &out)
            .env_remove("ORCL_REFERENCE_LOCK")
            .env("OMP_NUM_THREADS", threads)
            .status()
            .unwrap();
        assert!(s.success(), "{} --reference: {s}", bin.display());
        std::fs::read(out).unwrap()
    };
    let want = reference(&serial, "1", "serial.out");
    assert_eq!(want.len(), 65 * 47 * 4);
    let omp = std::fs::read(&exe).unwrap();
    if !omp.windows(7).any(|w| w == b"GOMP_pa" || w == b"__kmpc_") {
        common::skip(
            "bit-identical OpenMP reference",
            "cc built the skeleton without OpenMP (no -fopenmp support)",
        );
    }
    for threads in ["1", "2", "3", "7"] {
        let got = reference(&exe, threads, &format!("omp{threads}.out"));
        assert!(
            got == want,
            "OMP_NUM_THREADS={threads}: differs from the serial reference"
        );
    }
    assert_eq!(std::fs::read(&case.cached()[0]).unwrap(), want);
}

/// Two devices (PoCL `pthread pthread`): one reference process for both workers, which start
/// side by side and both validate against its outputs.
#[test]
fn two_workers_share_one_reference_process() {
    let case = Case::new();
    let db = case.dir.path().join("d.db");
    let mut c = Command::new(ORCL);
    c.arg("tune")
        .arg(&case.input)
        .args(["--db", db.to_str().unwrap(), "-o", "tuned.c"])
        .args(["--search", "Exhaustive"])
        .args(["--devices", "all"])
        .current_dir(case.dir.path())
        .env("ORCL_CACHE_DIR", case.cache())
        .env("ORCL_LOG", "info")
        .env("POCL_DEVICES", "pthread pthread");
    let r = common::run(c, LIMIT);
    r.assert_code(0);
    if count(&r.stderr, "worker ready") < 2 {
        common::skip("two workers", "the OpenCL platform shows one device");
        return;
    }
    assert_eq!(
        count(&r.stderr, "reference outputs: comput"),
        2,
        "{}",
        r.dump()
    ); // computing + computed
    all_ok(&db, 16);
}
