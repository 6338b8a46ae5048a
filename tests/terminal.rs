//! What `orcl tune` prints, at a terminal's width (issue 26): at 80 columns every line of the
//! result table fits (columns left out are named, with where to find them); piped output keeps
//! every column; the re-measured finalists are listed with their search and re-measured times,
//! and the winner line says why it won; a budget smaller than the space with no algorithm named
//! samples at random and says so.
//!
//! Tunes `tests/inputs/ok/axpy_faults.c` (4 configurations, N = 1000) on the local OpenCL
//! device (PoCL in CI). `COLUMNS` stands for the terminal's width.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

mod common;
use common::run;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

fn tune(dir: &Path, columns: Option<&str>) -> common::Run {
    tune_with(dir, columns, &[])
}

fn tune_with(dir: &Path, columns: Option<&str>, args: &[&str]) -> common::Run {
    let input = dir.join("axpy_faults.c");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/ok/axpy_faults.c"),
        &input,
    )
    .unwrap();
    let mut c = Command::new(ORCL);
    c.arg("tune")
        .arg(&input)
        .current_dir(dir)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT")
        .env_remove("COLUMNS")
        .args(args);
    if let Some(w) = columns {
        c.env("COLUMNS", w);
    }
    let r = run(c, Duration::from_secs(300));
    r.assert_code(0);
    r
}

/// The lines of the result table (box-drawing borders and rows).
fn table_lines(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| l.starts_with(['┌', '│', '╞', '├', '└']))
        .collect()
}

#[test]
fn tune_output_fits_80_columns_and_names_the_finalists() {
    let dir = tempfile::tempdir().unwrap();
    let r = tune(dir.path(), Some("80"));
    let lines = table_lines(&r.stdout);
    assert!(!lines.is_empty(), "no table:\n{}", r.dump());
    for l in &lines {
        assert!(l.chars().count() <= 80, "wider than 80: {l}\n{}", r.dump());
    }
    assert!(r.stdout.contains("median ms"), "{}", r.dump());
    assert!(
        r.stdout
            .contains("left out to fit the terminal: transfer ms"),
        "{}",
        r.dump()
    );
    // The finalists: each with both times; the winner is the fastest re-measured.
    assert!(r.stdout.contains("finalists re-measured, "), "{}", r.dump());
    let finalists: Vec<f64> = r
        .stdout
        .lines()
        .filter(|l| l.contains("ms in the search, "))
        .map(|l| {
            let m = l.rsplit(", ").next().unwrap();
            m.trim_end_matches(" ms re-measured").parse().unwrap()
        })
        .collect();
    assert!(finalists.len() >= 2, "{}", r.dump());
    let winner = r
        .stdout
        .lines()
        .find(|l| l.starts_with("winner: "))
        .expect("a winner line");
    assert!(winner.contains("finalists re-measured)"), "{winner}");
    let ms: f64 = winner
        .split(" — ")
        .nth(1)
        .unwrap()
        .split(" ms")
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let fastest = finalists.iter().cloned().fold(f64::INFINITY, f64::min);
    assert!(
        (ms - fastest).abs() < 1e-4,
        "winner {ms} vs finalists {finalists:?}"
    );
}

#[test]
fn piped_output_keeps_every_column() {
    let dir = tempfile::tempdir().unwrap();
    let r = tune(dir.path(), None);
    for column in [
        "median ms",
        "min ms",
        "transfer ms",
        "build ms",
        "max rel. error",
    ] {
        assert!(r.stdout.contains(column), "no {column}:\n{}", r.dump());
    }
    assert!(!r.stdout.contains("left out"), "{}", r.dump());
}

/// axpy_faults.c names `Exhaustive` in its spec; a copy without it, tuned with `--total-runs 2`
/// (of 4), runs the default adaptive strategy and says so (issue 27); naming `--search
/// Exhaustive` keeps index order.
#[test]
fn a_small_budget_without_an_algorithm_samples_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let r = tune_with(dir.path(), None, &["--total-runs", "2"]);
    assert!(
        !r.stdout.contains("no search algorithm named"),
        "{}",
        r.dump()
    );
    let input = dir.path().join("axpy_faults.c");
    let text = std::fs::read_to_string(&input).unwrap();
    let text = text.replace("def search { arg algorithm = 'Exhaustive'; }", "");
    assert!(!text.contains("Exhaustive"));
    let dir2 = tempfile::tempdir().unwrap();
    let input2 = dir2.path().join("axpy_any.c");
    std::fs::write(&input2, text).unwrap();
    let mut c = Command::new(ORCL);
    c.arg("tune")
        .arg(&input2)
        .args(["--total-runs", "2"])
        .current_dir(dir2.path())
        .env("ORCL_CACHE_DIR", dir2.path().join("cache"))
        .env_remove("ORCL_TEST_FAULT");
    let r = run(c, Duration::from_secs(300));
    r.assert_code(0);
    assert!(
        r.stdout.contains(&format!(
            "a budget of 2 of 4 configurations: running {}",
            orcl_search::DEFAULT_ADAPTIVE
        )),
        "{}",
        r.dump()
    );
    let db = rusqlite::Connection::open(dir2.path().join("orcl.db")).unwrap();
    let algorithm: String = db
        .query_row("SELECT algorithm FROM experiment", [], |r| r.get(0))
        .unwrap();
    assert_eq!(algorithm, orcl_search::DEFAULT_ADAPTIVE);
}

/// `orcl check --json` and `orcl tune --json`: standard output is one JSON document with the
/// regions' spaces, and the ranking, finalists, winner and tuned file.
#[test]
fn check_and_tune_print_json() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("axpy_faults.c");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/ok/axpy_faults.c"),
        &input,
    )
    .unwrap();
    let mut c = Command::new(ORCL);
    c.args(["check", "--json"]).arg(&input);
    let r = run(c, Duration::from_secs(120));
    r.assert_code(0);
    let doc: serde_json::Value =
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.dump()));
    let region = &doc["regions"][0];
    assert_eq!(region["function"], "VecAXPY");
    assert_eq!(region["inputs"][0]["configurations"], 4);
    assert_eq!(region["inputs"][0]["feasible"], 4);
    assert_eq!(region["parameters"][0]["name"], "WI");
    assert!(doc["refused"].as_array().unwrap().is_empty());

    let r = tune_with(dir.path(), None, &["--json", "--top", "2"]);
    let doc: serde_json::Value =
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.dump()));
    let res = &doc["results"][0];
    assert_eq!(res["evaluated"], 4);
    assert_eq!(res["ranking"].as_array().unwrap().len(), 2);
    let winner = res["winner"]["configuration"].as_str().expect("a winner");
    assert!(res["finalists"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["configuration"] == winner));
    assert!(doc["tuned_file"]
        .as_str()
        .unwrap()
        .ends_with("_axpy_faults.c"));
}
