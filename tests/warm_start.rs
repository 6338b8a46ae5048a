//! `orcl tune --warm-start` on PoCL with a real database (issue 27): a loop tuned at one input
//! size seeds the search at another, and `orcl db best --size` answers for a size that was never
//! tuned with the nearest recorded one.

mod common;

use common::run;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

/// 12 configurations, two input sizes, no algorithm named.
const CASE: &str = r#"void VecAXPY(int n, double a, const double *x, double *y) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [16, 32, 64, 128];
            param UI[] = [1, 2, 4];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = [1000, 4000]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter { arg repetitions = 2; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, unrollInner=UI)
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    /*@ end @*/
    /*@ end @*/
}
"#;

fn orcl(dir: &Path, args: &[&str]) -> common::Run {
    let mut c = Command::new(ORCL);
    c.args(args)
        .current_dir(dir)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT");
    run(c, Duration::from_secs(300))
}

fn keys(db: &Path, experiment: i64, order: &str) -> Vec<String> {
    let c = rusqlite::Connection::open(db).unwrap();
    let mut s = c
        .prepare(&format!(
            "SELECT config_key FROM evaluation WHERE experiment_id = ?1 AND status = 'ok' ORDER BY {order}"
        ))
        .unwrap();
    s.query_map([experiment], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn warm_start_seeds_a_size_from_another_and_db_best_picks_the_nearest_size() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("axpy.c");
    std::fs::write(&file, CASE).unwrap();
    let f = file.to_str().unwrap();

    // Nothing recorded yet: the warm start says it starts cold.
    let r = orcl(
        dir.path(),
        &[
            "tune",
            f,
            "--size",
            "N=1000",
            "--warm-start",
            "--search",
            "Genetic",
        ],
    );
    r.assert_code(0);
    assert!(r.stdout.contains("starting cold"), "{}", r.dump());
    let db = dir.path().join("orcl.db");
    let fastest_1000 = keys(&db, 1, "median_ms ASC, id ASC");
    assert_eq!(fastest_1000.len(), 12, "{}", r.dump());

    // N=4000 with 3 measurements, seeded from N=1000 on the same device: the three measured
    // configurations are the three fastest at N=1000.
    let r = orcl(
        dir.path(),
        &[
            "tune",
            f,
            "--size",
            "N=4000",
            "--warm-start",
            "--search",
            "Bayes",
            "--total-runs",
            "3",
        ],
    );
    r.assert_code(0);
    assert!(
        r.stdout.contains(
            "warm start: seeding the search with the 5 fastest configurations of experiment 1 (same device, input N=1000)"
        ),
        "{}",
        r.dump()
    );
    let mut measured = keys(&db, 2, "id ASC");
    measured.sort();
    let mut expected = fastest_1000[..3].to_vec();
    expected.sort();
    assert_eq!(measured, expected, "{}", r.dump());

    // A strategy with a fixed order does not take seeds, and says so.
    let r = orcl(
        dir.path(),
        &[
            "tune",
            f,
            "--size",
            "N=4000",
            "--warm-start",
            "--search",
            "Random",
            "--total-runs",
            "1",
        ],
    );
    r.assert_code(0);
    assert!(
        r.stdout.contains("warm start: Random does not take seeds"),
        "{}",
        r.dump()
    );

    // An untuned size: `db best --size` falls back to the nearest recorded one (by ratio: 1500 is
    // nearer 1000 than 4000) and says so on stderr.
    let r = orcl(
        dir.path(),
        &[
            "db",
            "best",
            "--db",
            db.to_str().unwrap(),
            "--size",
            "N=1500",
            "--json",
        ],
    );
    r.assert_code(0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 1, "{}", r.dump());
    assert_eq!(rows[0]["input_params"]["N"], 1000, "{}", r.dump());
    assert!(
        r.stderr
            .contains("no experiment at N=1500: the nearest recorded size is N=1000"),
        "{}",
        r.dump()
    );
    let r = orcl(
        dir.path(),
        &[
            "db",
            "best",
            "--db",
            db.to_str().unwrap(),
            "--size",
            "N=3000",
            "--json",
        ],
    );
    r.assert_code(0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v[0]["input_params"]["N"], 4000, "{}", r.dump());
}
