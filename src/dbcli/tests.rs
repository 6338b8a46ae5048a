//! Tests of the size filters, the displays and the read-only guard of `orcl db query`.

use std::cmp::Ordering;

use rusqlite::types::Value as SqlValue;
use serde_json::json;

use super::*;
use crate::db::QueryError;

use super::best::{canonical, cmp_params, parse_size, size_matches};
use super::query::{rows_json, sql_json, sql_text};

fn params(s: &str) -> Map<String, Json> {
    match serde_json::from_str(s).unwrap() {
        Json::Object(o) => o,
        _ => unreachable!(),
    }
}

#[test]
fn size_filter_compares_numbers_numerically() {
    let p = params(r#"{"N": 1000, "S": "abc", "F": 2.5, "B": true, "T": "0100"}"#);
    assert!(size_matches(&p, "N", "1000"));
    assert!(size_matches(&p, "N", "1e3"));
    assert!(size_matches(&p, "N", "1000.0"));
    assert!(!size_matches(&p, "N", "100"));
    assert!(size_matches(&p, "S", "abc"));
    assert!(!size_matches(&p, "S", "ABC"));
    assert!(size_matches(&p, "F", "2.50"));
    assert!(size_matches(&p, "B", "True"));
    assert!(size_matches(&p, "T", "100"));
    assert!(!size_matches(&p, "M", "1000"));
}

#[test]
fn size_arguments_are_parsed() {
    assert_eq!(
        parse_size(" N = 10 ").unwrap(),
        ("N".to_string(), "10".to_string())
    );
    for bad in ["N", "=5", "N=", ""] {
        let e = parse_size(bad).unwrap_err().to_string();
        assert!(e.contains("NAME=VALUE"), "{e}");
    }
}

#[test]
fn params_sort_numerically_and_group_by_content() {
    let a = params(r#"{"N": 1000}"#);
    let b = params(r#"{"N": 20011}"#);
    let c = params(r#"{"N": 300}"#);
    assert_eq!(cmp_params(&a, &b), Ordering::Less);
    assert_eq!(cmp_params(&c, &a), Ordering::Less);
    assert_eq!(
        canonical(&params(r#"{"A": 1, "B": 2}"#)),
        canonical(&params(r#"{"B": 2, "A": 1}"#))
    );
}

#[test]
fn displays() {
    assert_eq!(
        config_display(r#"{"WI":64,"CB":false,"UI":1}"#),
        "WI=64 CB=False UI=1"
    );
    assert_eq!(sizes_display(r#"{"N":1000}"#), "N=1000");
    assert_eq!(config_display("not json"), "not json");
    assert_eq!(fmt_date("2024-05-01T12:34:56.789Z"), "2024-05-01 12:34:56");
    assert_eq!(fmt_date("yesterday"), "yesterday");
    assert_eq!(num(Some(f64::NAN)), Json::Null);
    assert_eq!(sql_json(&SqlValue::Blob(vec![1, 2])), json!("0102"));
    assert_eq!(sql_text(&SqlValue::Null), "NULL");
    let cols = ["z".to_string(), "a\"b".to_string()];
    let rows = [
        vec![SqlValue::Integer(1), SqlValue::Text("x".into())],
        vec![SqlValue::Null, SqlValue::Real(0.5)],
    ];
    let text = rows_json(&cols, &rows);
    assert_eq!(
        text,
        "[\n  {\"z\": 1, \"a\\\"b\": \"x\"},\n  {\"z\": null, \"a\\\"b\": 0.5}\n]"
    );
    let parsed: Json = serde_json::from_str(&text).unwrap();
    assert_eq!(
        parsed,
        json!([{"z": 1, "a\"b": "x"}, {"z": null, "a\"b": 0.5}])
    );
    assert_eq!(rows_json(&cols, &[]), "[]");
    assert_eq!(
        remeasurement_display(
            r#"[{"config":"{\"WI\":64}","median_ms":0.015613,"repetitions":6},{"config":"{\"WI\":16}","median_ms":0.02}]"#
        ),
        "WI=64: 0.0156 ms (6 repetitions)\nWI=16: 0.0200 ms"
    );
    assert_eq!(remeasurement_display("[1]"), "[1]");
}

#[test]
fn writes_are_refused_before_running() {
    let db = Db::open_in_memory().unwrap();
    for sql in [
        "DELETE FROM evaluation",
        "INSERT INTO meta (key, value) VALUES ('a', 'b')",
        "UPDATE meta SET value = '2'",
        "DROP TABLE evaluation",
        "CREATE TABLE t (x)",
        "PRAGMA journal_mode=DELETE",
        "PRAGMA user_version = 3",
        "ATTACH 'other.db' AS o",
        "  /* c */ attach database ':memory:' AS o",
        "DETACH o",
        "VACUUM INTO 'copy.db'",
        "WITH x AS (SELECT 1) DELETE FROM evaluation",
    ] {
        assert!(
            matches!(db.query_read_only(sql), Err(QueryError::WouldModify)),
            "{sql}"
        );
    }
    for sql in [
        "SELECT 1; DELETE FROM evaluation",
        "SELECT 1;SELECT 2",
        "SELECT 1; -- c\n SELECT 2",
    ] {
        assert!(
            matches!(db.query_read_only(sql), Err(QueryError::MultipleStatements)),
            "{sql}"
        );
    }
    for sql in ["", "  ", "-- only a comment", ";"] {
        assert!(
            matches!(db.query_read_only(sql), Err(QueryError::Empty)),
            "{sql:?}"
        );
    }
    assert_eq!(db.schema_version().unwrap(), crate::db::SCHEMA_VERSION);
}

#[test]
fn reads_are_allowed() {
    let db = Db::open_in_memory().unwrap();
    let r = db
        .query_read_only("SELECT 1 AS one, 2.5 AS two, 'x;y' AS t, NULL AS n, x'00ff' AS b;")
        .unwrap();
    assert_eq!(r.columns, ["one", "two", "t", "n", "b"]);
    assert_eq!(
        r.rows,
        [vec![
            SqlValue::Integer(1),
            SqlValue::Real(2.5),
            SqlValue::Text("x;y".into()),
            SqlValue::Null,
            SqlValue::Blob(vec![0, 255]),
        ]]
    );
    for sql in [
        "WITH x AS (SELECT 1) SELECT * FROM x",
        "PRAGMA table_info(evaluation)",
        "SELECT count(*) FROM evaluation -- trailing comment",
        "select ';' || 'attach'",
    ] {
        db.query_read_only(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
}
