//! Energy as an objective (issue 27; docs/ENERGY.md) on PoCL: the plumbing from the worker's
//! energy window to the search, the winner, `db show --pareto`, the exports and `plot --pareto`,
//! with the test-only energy source `ORCL_TEST_ENERGY=PARAM` (J per call = 1e-3 × (1 + i) /
//! median ms, `i` the position of the configuration's value of PARAM). The real readings (NVML on
//! an H100) are in docs/BENCHMARKS.md. Also: the refusal without NVML, and the migration of a
//! schema-2 database (`tests/fixtures/schema2-axpy.db`, written by orcl before energy existed).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use orcl::db::{Db, EvaluationRow};
use serde_json::Value;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");
const LIMIT: Duration = Duration::from_secs(600);

/// 8 configurations: WI × WG × UI; CL has one value (the source of `ORCL_TEST_ENERGY=CL`: every
/// configuration's power then falls as 1/time², so the fastest is the least efficient).
const SPEC: &str = r#"void axpy(int n, double a, const double *x, double *y) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [16, 64];
            param WG[] = [4, 16];
            param UI[] = [1, 4];
            param CL[] = [''];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = [200000]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter { arg repetitions = 3; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, unrollInner=UI,
                                    clFlags=CL, device=0, platform=0)
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    /*@ end @*/
    /*@ end @*/
}
"#;

fn setup(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("axpy.c"), SPEC).unwrap();
    dir
}

fn orcl(dir: &Path, args: &[&str], energy: Option<&str>) -> common::Run {
    let mut c = Command::new(ORCL);
    c.args(args)
        .current_dir(dir)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT")
        .env_remove("ORCL_TEST_ENERGY");
    if let Some(p) = energy {
        c.env("ORCL_TEST_ENERGY", p);
    }
    common::run(c, LIMIT)
}

fn tune_energy(dir: &Path, param: &str) -> common::Run {
    let r = orcl(
        dir,
        &["tune", "axpy.c", "--db", "e.db", "--objective", "energy"],
        Some(param),
    );
    r.assert_code(0);
    r
}

fn ok_rows(dir: &Path) -> (Db, Vec<EvaluationRow>) {
    let db = Db::open_read_only(&dir.join("e.db")).unwrap();
    let rows: Vec<EvaluationRow> = db
        .evaluations(1)
        .unwrap()
        .into_iter()
        .filter(|r| r.status == "ok")
        .collect();
    assert!(rows.len() >= 4, "{rows:?}");
    (db, rows)
}

/// Every `ok` row carries the injected energy (through the worker's begin/end window: a
/// worker that sent no window would leave it empty), and the winner is the most efficient of
/// the finalists as re-measured, which is not the fastest configuration.
#[test]
fn energy_objective_picks_the_most_efficient_not_the_fastest() {
    let dir = setup("energy-winner");
    let run = tune_energy(&dir, "CL");
    assert!(
        run.stdout.contains("most energy-efficient"),
        "{}",
        run.dump()
    );
    let (db, rows) = ok_rows(&dir);
    for r in &rows {
        let (j, w, ms) = (
            r.energy_j.unwrap(),
            r.power_w.unwrap(),
            r.median_ms.unwrap(),
        );
        let want = 1e-3 / ms;
        assert!((j - want).abs() <= 1e-9 * want, "{r:?}");
        assert!(w > 0.0 && w.is_finite(), "{r:?}");
    }
    let meta = db.metadata(1).unwrap();
    assert_eq!(meta["objective"], "energy");
    assert!(meta["energy_method"].contains("ORCL_TEST_ENERGY=CL"));
    let finals: Vec<Value> = serde_json::from_str(&meta["final_remeasurement"]).unwrap();
    let best = finals
        .iter()
        .min_by(|a, b| {
            a["objective"]
                .as_f64()
                .unwrap()
                .total_cmp(&b["objective"].as_f64().unwrap())
        })
        .unwrap();
    assert_eq!(meta["winner"], best["config"].as_str().unwrap());
    let fastest = rows
        .iter()
        .min_by(|a, b| a.median_ms.unwrap().total_cmp(&b.median_ms.unwrap()))
        .unwrap();
    assert_ne!(meta["winner"], fastest.config_key, "{}", run.dump());
    // The ranking is by energy: its first row is the most efficient of the search.
    let efficient = rows
        .iter()
        .min_by(|a, b| a.energy_j.unwrap().total_cmp(&b.energy_j.unwrap()))
        .unwrap();
    let first = run
        .stdout
        .lines()
        .find(|l| l.contains("│    1 ┆"))
        .unwrap_or_default();
    let shown = orcl::frontend::space::Configuration::from_key(&efficient.config_key)
        .unwrap()
        .display();
    assert!(first.contains(&shown), "{first}\n{}", run.dump());
}

/// `db show --pareto` prints the front computed here from the rows by the definition (no other
/// row at most as slow and as costly, better in one); the CSV, T4 and JSON exports carry the
/// energy, and a JSON export imports back with it; `plot --pareto` draws the front.
#[test]
fn pareto_front_exports_and_plot_carry_energy() {
    let dir = setup("energy-pareto");
    tune_energy(&dir, "WG");
    let (_, rows) = ok_rows(&dir);
    let dominated = |r: &EvaluationRow| {
        let (t, e) = (r.median_ms.unwrap(), r.energy_j.unwrap());
        rows.iter().any(|q| {
            let (qt, qe) = (q.median_ms.unwrap(), q.energy_j.unwrap());
            qt <= t && qe <= e && (qt < t || qe < e)
        })
    };
    let mut want: Vec<&str> = rows
        .iter()
        .filter(|r| !dominated(r))
        .map(|r| r.config_key.as_str())
        .collect();
    let r = orcl(
        &dir,
        &["db", "show", "1", "--pareto", "--json", "--db", "e.db"],
        None,
    );
    r.assert_code(0);
    let j: Value = serde_json::from_str(&r.stdout).unwrap();
    let front = j["front"].as_array().unwrap();
    let mut got: Vec<&str> = front
        .iter()
        .map(|f| f["config_key"].as_str().unwrap())
        .collect();
    let times: Vec<f64> = front
        .iter()
        .map(|f| f["median_ms"].as_f64().unwrap())
        .collect();
    assert!(
        times.windows(2).all(|w| w[0] <= w[1]),
        "fastest first: {times:?}"
    );
    got.sort();
    want.sort();
    assert_eq!(got, want);
    assert_eq!(j["with_energy"].as_u64().unwrap() as usize, rows.len());
    let table = orcl(&dir, &["db", "show", "1", "--pareto", "--db", "e.db"], None);
    table.assert_code(0);
    assert!(table.stdout.contains("energy mJ"), "{}", table.dump());

    // CSV: energy_j and power_w columns, the stored values.
    let csv = orcl(
        &dir,
        &["db", "export", "1", "--format", "csv", "--db", "e.db"],
        None,
    );
    csv.assert_code(0);
    let mut rd = ::csv::Reader::from_reader(csv.stdout.as_bytes());
    let head = rd.headers().unwrap().clone();
    let col = |n: &str| head.iter().position(|h| h == n).unwrap();
    let (ce, cs) = (col("energy_j"), col("status"));
    let energies: Vec<f64> = rd
        .records()
        .map(Result::unwrap)
        .filter(|r| &r[cs] == "ok")
        .map(|r| r[ce].parse().unwrap())
        .collect();
    let stored: Vec<f64> = rows.iter().map(|r| r.energy_j.unwrap()).collect();
    assert_eq!(energies, stored);

    // T4: `energy` (J) and `power` (W) measurements, objective `energy`.
    let t4 = orcl(
        &dir,
        &["db", "export", "1", "--format", "t4", "--db", "e.db"],
        None,
    );
    t4.assert_code(0);
    let t4_text = t4.stdout.clone();
    let t4: Value = serde_json::from_str(&t4_text).unwrap();
    let res = t4["results"].as_array().unwrap();
    let with: Vec<&Value> = res
        .iter()
        .filter(|r| {
            r["measurements"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["name"] == "energy" && m["unit"] == "J")
        })
        .collect();
    assert_eq!(with.len(), rows.len());
    assert_eq!(res[0]["objectives"][0], "energy");

    // JSON export → import: the energy comes back.
    let js = orcl(
        &dir,
        &[
            "db", "export", "1", "--format", "json", "-o", "x.json", "--db", "e.db",
        ],
        None,
    );
    js.assert_code(0);
    let t4f = dir.join("x.t4.json");
    std::fs::write(&t4f, &t4_text).unwrap();
    for (file, id) in [("x.json", 2), ("x.t4.json", 3)] {
        let imp = orcl(&dir, &["db", "import", file, "--db", "e.db"], None);
        imp.assert_code(0);
        let db = Db::open_read_only(&dir.join("e.db")).unwrap();
        let mut back: Vec<(String, Option<f64>, Option<f64>)> = db
            .evaluations(id)
            .unwrap()
            .into_iter()
            .filter(|r| r.status == "ok")
            .map(|r| (r.config_key, r.energy_j, r.power_w))
            .collect();
        let mut orig: Vec<(String, Option<f64>, Option<f64>)> = rows
            .iter()
            .map(|r| (r.config_key.clone(), r.energy_j, r.power_w))
            .collect();
        back.sort_by(|a, b| a.0.cmp(&b.0));
        orig.sort_by(|a, b| a.0.cmp(&b.0));
        // serde_json reads a float to within an ulp (no `float_roundtrip`).
        let near = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => (a - b).abs() <= 1e-12 * b.abs(),
            _ => false,
        };
        assert_eq!(back.len(), orig.len(), "{file}");
        for (b, o) in back.iter().zip(&orig) {
            assert!(
                b.0 == o.0 && near(b.1, o.1) && near(b.2, o.2),
                "{file}: {b:?} {o:?}"
            );
        }
    }

    // The chart: points and the front's line.
    let p = orcl(
        &dir,
        &["plot", "1", "--pareto", "--db", "e.db", "-o", "p.svg"],
        None,
    );
    p.assert_code(0);
    let svg = std::fs::read_to_string(dir.join("p.svg")).unwrap();
    assert!(svg.contains("Pareto front") && svg.contains("energy per call (mJ)"));
    let m = orcl(
        &dir,
        &[
            "plot", "1", "--by", "WG", "--metric", "energy", "--db", "e.db", "-o", "m.svg",
        ],
        None,
    );
    m.assert_code(0);
}

/// No energy counter (PoCL: no PCI bus id, no NVML): one line, exit 2, nothing tuned; the same
/// from the spec's `arg objective = 'energy'`. `db show --pareto` of a time experiment says why
/// it has no front.
#[test]
fn energy_objective_without_nvml_is_refused() {
    let dir = setup("energy-refused");
    let r = orcl(
        &dir,
        &["tune", "axpy.c", "--db", "e.db", "--objective", "edp"],
        None,
    );
    r.assert_code(2);
    let lines: Vec<&str> = r.stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "{}", r.dump());
    assert!(
        lines[0].contains("objective `edp` needs the device's energy"),
        "{}",
        r.dump()
    );
    assert!(lines[0].contains("NVML"), "{}", r.dump());
    let spec = SPEC.replace(
        "arg repetitions = 3;",
        "arg repetitions = 3; arg objective = 'energy';",
    );
    std::fs::write(dir.join("axpy.c"), spec).unwrap();
    let r = orcl(&dir, &["tune", "axpy.c", "--db", "e.db"], None);
    r.assert_code(2);
    assert!(r.stderr.contains("objective `energy`"), "{}", r.dump());
    std::fs::write(dir.join("axpy.c"), SPEC).unwrap();
    orcl(
        &dir,
        &["tune", "axpy.c", "--db", "e.db", "--total-runs", "2"],
        None,
    )
    .assert_code(0);
    let r = orcl(&dir, &["db", "show", "1", "--pareto", "--db", "e.db"], None);
    assert_ne!(r.code(), Some(0), "{}", r.dump());
    assert!(r.stderr.contains("no energy readings"), "{}", r.dump());
}

/// A database of schema 2 (the fixture, written by orcl before energy existed) is read as it is
/// by the reading commands (not migrated), and migrated to schema 3 by a writer, every row kept
/// as it was, with no energy.
#[test]
fn schema_2_database_migrates_keeping_its_rows() {
    let dir = setup("energy-migration");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/schema2-axpy.db");
    let db = dir.join("old.db");
    std::fs::copy(&fixture, &db).unwrap();
    let before: Vec<Vec<Value>> = {
        let c = rusqlite::Connection::open(&db).unwrap();
        let v: String = c
            .query_row(
                "SELECT value FROM meta WHERE key = 'schema_version'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(v, "2");
        let mut st = c
            .prepare("SELECT id, experiment_id, config_key, status, median_ms, samples_ms_json, transfer_ms, max_error, created_at FROM evaluation ORDER BY id")
            .unwrap();
        st.query_map([], |r| {
            Ok((0..9)
                .map(|i| match r.get_ref(i).unwrap() {
                    rusqlite::types::ValueRef::Integer(x) => Value::from(x),
                    rusqlite::types::ValueRef::Real(x) => Value::from(x),
                    rusqlite::types::ValueRef::Text(t) => {
                        Value::from(String::from_utf8_lossy(t).into_owned())
                    }
                    _ => Value::Null,
                })
                .collect())
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
    };
    assert!(before.len() >= 8);
    let ro = Db::open_read_only(&db).unwrap();
    let read_before = ro.evaluations(1).unwrap();
    assert!(read_before.iter().all(|r| r.energy_j.is_none()));
    assert_eq!(ro.schema_version().unwrap(), 2);
    drop(ro);
    let show = orcl(&dir, &["db", "show", "1", "--json", "--db", "old.db"], None);
    show.assert_code(0);
    let rw = Db::open(&db).unwrap();
    assert_eq!(rw.schema_version().unwrap(), 3);
    let after = rw.evaluations(1).unwrap();
    assert_eq!(after, read_before);
    let all: usize = (1..=2).map(|e| rw.evaluations(e).unwrap().len()).sum();
    assert_eq!(all, before.len());
    for (row, old) in rw.evaluations(1).unwrap().iter().zip(&before) {
        assert_eq!(Value::from(row.id.unwrap()), old[0]);
        assert_eq!(Value::from(row.config_key.clone()), old[2]);
        assert_eq!(
            row.median_ms.map(Value::from).unwrap_or(Value::Null),
            old[4]
        );
        assert_eq!(row.energy_j, None);
    }
}
