//! `orcl db query SQL`: one read-only statement.

use std::path::Path;

use comfy_table::Cell;
use rusqlite::types::Value as SqlValue;
use serde_json::{json, Value as Json};

use crate::db::QueryError;

use super::{num, open, right, table};

/// `orcl db query SQL`: runs one read-only statement and prints its rows.
///
/// Three guards keep the database unchanged: the file is opened read-only
/// ([`Db::open_read_only`](crate::db::Db::open_read_only), `SQLITE_OPEN_READ_ONLY`), the
/// connection is set to `PRAGMA query_only`, and the prepared statement is refused before it
/// runs unless SQLite reports it read-only (`Statement::readonly`); `ATTACH`/`DETACH` and more
/// than one statement are refused too (see
/// [`Db::query_read_only`](crate::db::Db::query_read_only)). Note that SQLite counts some PRAGMAs
/// that only read (e.g. `PRAGMA journal_mode`) as writing; they are refused as well.
///
/// Output: a table with the column names as header (NULL shown as `NULL`, blobs as hex), or
/// with `--json` an array of objects, column name → value (integers and reals as numbers, text
/// as strings, NULL as `null`, blobs as lower-case hex strings), one object per line with the
/// keys in column order. As with `sqlite3 -json`, columns that share a name are all written
/// (most JSON readers keep the last); alias them (`AS`) to keep both. A statement without
/// result columns prints nothing (`[]` with `--json`).
pub fn query(db: &Path, sql: &str, json: bool) -> anyhow::Result<()> {
    let conn = open(db)?;
    let result = match conn.query_read_only(sql) {
        Ok(r) => r,
        Err(QueryError::Db(e)) => {
            return Err(anyhow::Error::new(e).context(format!("query failed on {}", db.display())))
        }
        Err(refused) => return Err(refused.into()),
    };
    if json {
        orcl_frontend::outln!("{}", rows_json(&result.columns, &result.rows));
        return Ok(());
    }
    if result.columns.is_empty() {
        return Ok(());
    }
    let header: Vec<&str> = result.columns.iter().map(String::as_str).collect();
    let mut t = table(&header);
    for row in &result.rows {
        t.add_row(row.iter().map(|v| match v {
            SqlValue::Integer(_) | SqlValue::Real(_) => right(sql_text(v)),
            _ => Cell::new(sql_text(v)),
        }));
    }
    orcl_frontend::outln!("{t}");
    Ok(())
}

/// Rows as a JSON array of objects, one object per line, keys in column order (serde_json's
/// `Map` would sort them).
pub(super) fn rows_json(columns: &[String], rows: &[Vec<SqlValue>]) -> String {
    let keys: Vec<String> = columns
        .iter()
        .map(|c| Json::from(c.as_str()).to_string())
        .collect();
    let objects: Vec<String> = rows
        .iter()
        .map(|row| {
            let fields: Vec<String> = keys
                .iter()
                .zip(row)
                .map(|(k, v)| format!("{k}: {}", sql_json(v)))
                .collect();
            format!("  {{{}}}", fields.join(", "))
        })
        .collect();
    if objects.is_empty() {
        "[]".into()
    } else {
        format!("[\n{}\n]", objects.join(",\n"))
    }
}

pub(super) fn sql_json(v: &SqlValue) -> Json {
    match v {
        SqlValue::Null => Json::Null,
        SqlValue::Integer(i) => json!(i),
        SqlValue::Real(f) => num(Some(*f)),
        SqlValue::Text(s) => Json::String(s.clone()),
        SqlValue::Blob(b) => Json::String(hex::encode(b)),
    }
}

pub(super) fn sql_text(v: &SqlValue) -> String {
    match v {
        SqlValue::Null => "NULL".into(),
        SqlValue::Integer(i) => i.to_string(),
        SqlValue::Real(f) => f.to_string(),
        SqlValue::Text(s) => s.clone(),
        SqlValue::Blob(b) => hex::encode(b),
    }
}
