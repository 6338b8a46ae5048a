//! Tests of replay on a synthetic recorded grid.

use std::path::PathBuf;

use orcl_frontend::expr::Value;

use super::*;
use crate::db::{Db, DeviceRow, EvaluationRow, NewExperiment, RegionRow};

const A: [i64; 4] = [2, 10, 40, 100];
const B: [&str; 5] = ["a", "b", "c", "d", "e"];

/// The 4 × 5 grid in natural order: (A, B, status, median_ms). Optimum 0.5 at A=100 B=c, the
/// last measurement in grid order; 4 constraint points (the first one among them), 3 failures.
const GRID: [(i64, &str, &str, f64); 20] = [
    (2, "a", "constraint", 0.0),
    (2, "b", "ok", 2.0),
    (2, "c", "compile_error", 0.0),
    (2, "d", "ok", 1.6),
    (2, "e", "ok", 3.0),
    (10, "a", "wrong_result", 0.0),
    (10, "b", "ok", 1.25),
    (10, "c", "ok", 4.0),
    (10, "d", "ok", 2.5),
    (10, "e", "ok", 1.0),
    (40, "a", "ok", 5.0),
    (40, "b", "timeout", 0.0),
    (40, "c", "ok", 0.8),
    (40, "d", "ok", 2.0),
    (40, "e", "constraint", 0.0),
    (100, "a", "ok", 1.0),
    (100, "b", "ok", 0.625),
    (100, "c", "ok", 0.5),
    (100, "d", "constraint", 0.0),
    (100, "e", "constraint", 0.0),
];

/// A database with one experiment of `algorithm` holding the grid (rows inserted in a
/// scrambled order) except the points of `skip`.
fn synthetic(algorithm: &str, skip: &[(i64, &str)]) -> (tempfile::TempDir, PathBuf, i64) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("replay.db");
    let db = Db::open(&path).unwrap();
    let device_id = db
        .upsert_device(&DeviceRow {
            backend: "opencl".into(),
            platform: "Test".into(),
            name: "test device".into(),
            vendor: "test".into(),
            driver_version: "1".into(),
            device_version: "OpenCL 3.0".into(),
            compute_units: 1,
            max_work_group_size: 256,
            local_mem_bytes: 1 << 15,
            global_mem_bytes: 1 << 30,
            max_clock_mhz: 1000,
            fingerprint: "test-device".into(),
            properties_json: "{}".into(),
        })
        .unwrap();
    let region_id = db
        .upsert_region(&RegionRow {
            file: "grid.c".into(),
            line: 1,
            function: "f".into(),
            loop_hash: "abc".into(),
            transform_text: "".into(),
        })
        .unwrap();
    let (id, _) = db
        .open_experiment(&NewExperiment {
            identity_key: "grid".into(),
            region_id,
            device_id,
            backend: "opencl".into(),
            input_params_json: "{}".into(),
            spec_hash: "s".into(),
            algorithm: algorithm.into(),
            search_options_json: "{}".into(),
            seed: Some(0),
            orcl_version: "test".into(),
            host: "host".into(),
            build_command: "cc".into(),
        })
        .unwrap();
    // Scrambled insertion order: 7 is coprime with 20.
    for k in 0..GRID.len() {
        let (a, b, status, ms) = GRID[(k * 7 + 3) % GRID.len()];
        if skip.contains(&(a, b)) {
            continue;
        }
        let key = format!(r#"{{"A":{a},"B":"{b}"}}"#);
        db.insert_evaluation(
            id,
            &EvaluationRow {
                config_key: key.clone(),
                config_json: key,
                status: status.into(),
                samples_ms: if status == "ok" { vec![ms] } else { vec![] },
                median_ms: (status == "ok").then_some(ms),
                ..Default::default()
            },
        )
        .unwrap();
    }
    db.finish_experiment(id, "done").unwrap();
    (dir, path, id)
}

fn load(algorithm: &str, skip: &[(i64, &str)]) -> Recorded {
    let (_dir, path, id) = synthetic(algorithm, skip);
    Recorded::load(&path, id).unwrap()
}

fn summary(r: &Recorded, algorithm: &str, budget: &str, seeds: u64) -> Summary {
    let b = Budget::parse(budget).unwrap().evaluations(r.space_size);
    r.summarize(algorithm, b, seeds).unwrap()
}

fn exact(s: &Summary, fraction: f64, hit: f64) {
    let f = &s.fraction_of_optimum;
    assert_eq!(
        (f.median, f.p10, f.mean),
        (fraction, fraction, fraction),
        "{s:?}"
    );
    assert_eq!(s.hit_optimum, hit, "{s:?}");
}

#[test]
fn rebuilds_the_grid_in_natural_order() {
    let r = load("Exhaustive", &[]);
    assert_eq!(r.space.params.len(), 2);
    assert_eq!(&*r.space.params[0].name, "A");
    assert_eq!(
        r.space.params[0].values[..],
        A.iter().map(|&a| Value::Int(a)).collect::<Vec<_>>()
    );
    assert_eq!(
        r.space.params[1].values[..],
        B.iter().map(|&b| Value::Str(b.into())).collect::<Vec<_>>()
    );
    assert!(r.space.constraints.is_empty() && r.space.fixed.is_empty());
    assert_eq!(r.space.size(), 20);
    assert_eq!((r.space_size, r.constraint, r.unrecorded), (16, 4, 0));
    assert_eq!(r.best_ms, 0.5);
    assert_eq!(r.best.key(), r#"{"A":100,"B":"c"}"#);
    assert!(r.note().is_none());
}

#[test]
fn natural_order_of_values() {
    let mut v = vec![
        Value::Str("b".into()),
        Value::Int(10),
        Value::Bool(true),
        Value::Float(2.5),
        Value::Int(2),
        Value::Str("a".into()),
        Value::Bool(false),
        Value::Float(2.0),
        Value::Str("".into()),
        Value::Int(-3),
    ];
    v.sort_by(natural_cmp);
    let shown: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    assert_eq!(
        shown,
        ["False", "True", "-3", "2", "2.0", "2.5", "10", "''", "'a'", "'b'"]
    );
}

#[test]
fn exhaustive_full_budget_hits_the_optimum() {
    let r = load("Exhaustive", &[]);
    let s = summary(&r, "exhaustive", "100%", 5);
    assert_eq!(s.algorithm, "Exhaustive");
    assert_eq!((s.space_size, s.budget, s.seeds), (16, 16, 5));
    exact(&s, 1.0, 1.0);
    // Also as an explicit count.
    exact(&summary(&r, "Exhaustive", "16", 3), 1.0, 1.0);
}

#[test]
fn constraint_points_never_count_in_the_budget() {
    let r = load("Exhaustive", &[]);
    // The optimum is the 16th measurement but the 18th grid point.
    let run = r.run_seed("Exhaustive", 0, 16).unwrap();
    assert_eq!(run.spent, 16);
    assert_eq!(
        run.proposed, 18,
        "the budget is spent at the optimum, grid point 18"
    );
    assert_eq!(run.best_ms, Some(0.5));
    // One evaluation: the first grid point breaks a constraint, so the first measurement
    // is A=2 B=b (2.0 ms).
    let run = r.run_seed("Exhaustive", 0, 1).unwrap();
    assert_eq!((run.spent, run.proposed, run.best_ms), (1, 2, Some(2.0)));
    exact(&summary(&r, "Exhaustive", "1", 4), 0.25, 0.0);
    // 15 evaluations stop just before the optimum: best 0.625.
    exact(&summary(&r, "Exhaustive", "15", 2), 0.8, 0.0);
    // 50% of 16 = 8 evaluations: the best of the first 8 measurements is 1.25.
    let s = summary(&r, "Exhaustive", "50%", 2);
    assert_eq!(s.budget, 8);
    exact(&s, 0.4, 0.0);
    // Random: the budget is spent on measurements only, whatever the order.
    for seed in 0..10 {
        let run = r.run_seed("Random", seed, 16).unwrap();
        assert_eq!(run.spent, 16);
        assert!(run.proposed >= 16 && run.proposed <= 20);
        let run = r.run_seed("Random", seed, 3).unwrap();
        assert_eq!(run.spent, 3);
    }
}

#[test]
fn random_with_the_whole_space_always_hits() {
    let r = load("Exhaustive", &[]);
    let s = summary(&r, "Random", "16", 20);
    assert_eq!(s.algorithm, "Random");
    exact(&s, 1.0, 1.0);
}

#[test]
fn one_evaluation_misses_for_some_seeds() {
    let r = load("Exhaustive", &[]);
    let mut fractions = Vec::new();
    for seed in 0..20 {
        let run = r.run_seed("Random", seed, 1).unwrap();
        assert_eq!(run.spent, 1);
        fractions.push(r.fraction(run.best_ms));
    }
    assert!(fractions.iter().any(|&f| f < 1.0));
    assert!(fractions.iter().all(|&f| (0.0..=1.0).contains(&f)));
    let s = summary(&r, "Random", "1", 20);
    assert!(s.fraction_of_optimum.p10 < 1.0);
    assert!(s.hit_optimum < 1.0);
    assert_eq!(s.fraction_of_optimum, stats(&fractions));
    let hits = fractions.iter().filter(|&&f| f == 1.0).count() as f64;
    assert_eq!(s.hit_optimum, hits / 20.0);
}

#[test]
fn constraint_and_device_limit_rows_are_free_and_known_before_building() {
    let row = |a: i64, status: &str, ms: Option<f64>, message: Option<&str>| EvaluationRow {
        config_key: format!(r#"{{"A":{a}}}"#),
        status: status.into(),
        median_ms: ms,
        message: message.map(String::from),
        ..Default::default()
    };
    let rows = [
        row(1, "ok", Some(2.0), None),
        row(
            2,
            "device_limit",
            None,
            Some("local size 2048 exceeds 1024"),
        ),
        row(3, "ok", Some(1.0), None),
        row(4, "constraint", None, Some("breaks constraint `small`")),
        row(5, "crash", None, None),
    ];
    let r = Recorded::from_rows(1, "Exhaustive", &rows).unwrap();
    assert_eq!((r.space_size, r.constraint, r.device_limit), (3, 1, 1));
    assert!(
        r.describe().contains("1 over the device limits"),
        "{}",
        r.describe()
    );
    let at = |a: i64| r.space.config_at(a as u64 - 1);
    assert_eq!(
        r.space.device_limit(&at(2)).as_deref(),
        Some("local size 2048 exceeds 1024")
    );
    assert_eq!(r.space.check(&at(2)).unwrap(), None);
    assert_eq!(r.space.check(&at(4)).unwrap().as_deref(), Some("small"));
    assert_eq!(
        r.space.rejection(&at(3)).unwrap(),
        None,
        "measured rows are feasible"
    );
    // Exhaustive proposes the device-limit point (free) and flags the constraint one.
    let run = r.run_seed("Exhaustive", 0, 2).unwrap();
    assert_eq!((run.spent, run.proposed, run.best_ms), (2, 3, Some(1.0)));
    let run = r.run_seed("Exhaustive", 0, 10).unwrap();
    assert_eq!((run.spent, run.proposed), (3, 5));
    // The adaptive strategies never propose either, and spend only measurements.
    for alg in ["NelderMead", "Annealing", "Genetic"] {
        for seed in 0..5 {
            let mut s = make_strategy(alg, &[], seed).unwrap();
            let run = r.run_strategy(s.as_mut(), 10).unwrap();
            assert_eq!(
                (run.spent, run.proposed, run.best_ms),
                (3, 3, Some(1.0)),
                "{alg}"
            );
        }
    }
}

#[test]
fn every_strategy_respects_the_budget() {
    let r = load("Exhaustive", &[]);
    for alg in algorithm_names() {
        for budget in 1..=16 {
            for seed in 0..3 {
                let run = r.run_seed(alg, seed, budget).unwrap();
                assert_eq!(run.spent, budget, "{alg} budget {budget}");
            }
        }
        // With the whole space every strategy finds the optimum.
        exact(&summary(&r, alg, "100%", 5), 1.0, 1.0);
    }
}

#[test]
fn statistics() {
    let v = [0.3, 1.0, 0.5, 0.2, 0.9, 0.1, 0.4, 0.8, 0.6, 0.7, 1.0, 0.0];
    let s = stats(&v);
    // Sorted: 0.0 0.1 0.2 ... ; n = 12, p10 rank ⌈1.2⌉ = 2 → 0.1; median (0.5 + 0.6) / 2.
    assert_eq!(s.p10, 0.1);
    assert_eq!(s.median, (0.5 + 0.6) / 2.0);
    assert_eq!(s.mean, v.iter().sum::<f64>() / 12.0);
    let s = stats(&[0.25, 1.0, 0.5]);
    assert_eq!((s.median, s.p10), (0.5, 0.25));
    assert_eq!(percentile_nearest_rank(&[1.0, 2.0], 0), 1.0);
    assert_eq!(percentile_nearest_rank(&[1.0, 2.0], 100), 2.0);
    let twenty: Vec<f64> = (1..=20).map(f64::from).collect();
    assert_eq!(percentile_nearest_rank(&twenty, 10), 2.0);
    assert_eq!(stats(&[]).mean, 0.0);
}

#[test]
fn same_seeds_same_output() {
    let (_dir, path, id) = synthetic("Exhaustive", &[]);
    let once = |alg: &str| {
        let (_, s) = replay(&path, id, alg, "25%", 20).unwrap();
        (render_json(&s, is_all(alg)), render_table(&s))
    };
    assert_eq!(once("Random"), once("Random"));
    assert_eq!(once("all"), once("all"));
    let (json, table) = once("Random");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["algorithm"], "Random");
    assert_eq!(v["space_size"], 16);
    assert_eq!(v["budget"], 4);
    assert_eq!(v["seeds"], 20);
    for k in ["median", "p10", "mean"] {
        assert!(v["fraction_of_optimum"][k].is_f64(), "{json}");
    }
    assert!(v["hit_optimum"].is_f64());
    assert!(
        table.contains("Random") && table.contains("hit optimum"),
        "{table}"
    );
}

#[test]
fn all_lists_every_algorithm() {
    let (_dir, path, id) = synthetic("Exhaustive", &[]);
    let (_, s) = replay(&path, id, "ALL", "100%", 2).unwrap();
    let names: Vec<&str> = s.iter().map(|x| x.algorithm.as_str()).collect();
    assert_eq!(names, algorithm_names());
    assert!(names.contains(&"Exhaustive") && names.contains(&"Random"));
    let v: serde_json::Value = serde_json::from_str(&render_json(&s, true)).unwrap();
    assert_eq!(v.as_array().unwrap().len(), names.len());
    let table = render_table(&s);
    assert!(
        table.contains("Exhaustive") && table.contains("Random"),
        "{table}"
    );
}

#[test]
fn incomplete_experiments() {
    // A Random experiment with a grid point missing is refused.
    let (_dir, path, id) = synthetic("Random", &[(40, "c")]);
    let e = format!("{:#}", Recorded::load(&path, id).unwrap_err());
    assert!(
        e.contains("is not exhaustive: 1 of the 20 configurations")
            && e.contains("replay needs a complete recorded space"),
        "{e}"
    );
    // A complete Random experiment is fine.
    let r = load("Random", &[]);
    assert_eq!(r.space_size, 16);
    // An Exhaustive one with gaps: the missing points are infeasible (free).
    let r = load("exhaustive", &[(40, "c"), (100, "d")]);
    assert_eq!((r.space_size, r.unrecorded, r.constraint), (15, 2, 3));
    assert!(r.note().unwrap().contains("2 of the 20"));
    let run = r.run_seed("Exhaustive", 0, 15).unwrap();
    assert_eq!((run.spent, run.proposed, run.best_ms), (15, 18, Some(0.5)));
    // No experiment, no ok evaluation.
    let (_dir, path, _) = synthetic("Exhaustive", &[]);
    let e = format!("{:#}", Recorded::load(&path, 99).unwrap_err());
    assert!(e.contains("no experiment with id 99"), "{e}");
    let row = |status: &str| EvaluationRow {
        config_key: r#"{"A":1}"#.into(),
        status: status.into(),
        ..Default::default()
    };
    let e = Recorded::from_rows(1, "Exhaustive", &[row("crash")]).unwrap_err();
    assert!(e.to_string().contains("no successful"), "{e}");
    let e = Recorded::from_rows(1, "Exhaustive", &[]).unwrap_err();
    assert!(e.to_string().contains("no evaluations"), "{e}");
    let mut other = row("ok");
    other.config_key = r#"{"B":1}"#.into();
    let e = Recorded::from_rows(1, "Exhaustive", &[row("ok"), other]).unwrap_err();
    assert!(
        e.to_string().contains("does not have the parameters A"),
        "{e}"
    );
}

#[test]
fn argument_errors() {
    let e = resolve_algorithms("Randm").unwrap_err().to_string();
    assert!(
        e.contains("unknown search algorithm `Randm`") && e.contains("did you mean `Random`?"),
        "{e}"
    );
    let e = resolve_algorithms("al").unwrap_err().to_string();
    assert!(e.contains("did you mean `all`?"), "{e}");
    assert_eq!(resolve_algorithms("randomsearch").unwrap(), ["Random"]);
    for bad in ["0", "150%", "abc", "0%", "-5", "1.5", "nan%", "%", ""] {
        assert!(Budget::parse(bad).is_err(), "{bad}");
    }
    assert_eq!(Budget::parse(" 50 ").unwrap(), Budget::Evaluations(50));
    assert_eq!(Budget::parse("2.5%").unwrap(), Budget::Percent(2.5));
    assert_eq!(Budget::parse("10%").unwrap().evaluations(30), 3);
    assert_eq!(Budget::parse("5%").unwrap().evaluations(30), 2);
    assert_eq!(Budget::parse("1%").unwrap().evaluations(8), 1);
    assert_eq!(Budget::parse("100%").unwrap().evaluations(1728), 1728);
    assert_eq!(Budget::parse("50").unwrap().evaluations(8), 8);
    let (_dir, path, id) = synthetic("Exhaustive", &[]);
    let e = replay(&path, id, "Random", "20", 0)
        .unwrap_err()
        .to_string();
    assert!(e.contains("--seeds"), "{e}");
}
