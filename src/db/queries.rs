//! Read-only queries for `orcl db` (src/dbcli/): experiment summaries, status counts, one
//! evaluation by key, and ad-hoc read-only SQL.

use std::collections::BTreeMap;

use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::evaluations::evaluation_from_row;
use super::experiments::experiment_from_row;
use super::sql::{
    PRAGMA_QUERY_ONLY, SELECT_EVALUATION_BY_KEY, SELECT_EVALUATION_BY_KEY_V2,
    SELECT_EXPERIMENT_SUMMARIES, SELECT_FAILURE_GROUPS, SELECT_STATUS_COUNTS,
};
use super::{Db, DbError, EvaluationRow, ExperimentRow, Result};

/// The failures of one status of an experiment ([`Db::failure_groups`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FailureGroup {
    /// The evaluation status (`compile_error`, `wrong_result`, ...).
    pub status: String,
    /// How many evaluations have it.
    pub count: i64,
    /// The message of the first of them (lowest id), if it has one.
    pub first_message: Option<String>,
    /// The configuration key of the first of them.
    pub first_config_key: String,
}

/// One experiment as `orcl db list` shows it ([`Db::experiment_summaries`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExperimentSummary {
    /// The `experiment` row.
    pub experiment: ExperimentRow,
    /// `region.file`.
    pub file: String,
    /// `region.line`.
    pub line: u32,
    /// `region.function`.
    pub function: String,
    /// `device.name`.
    pub device_name: String,
    /// Number of evaluations, every status.
    pub evaluations: i64,
    /// Number of evaluations that failed: every status but `ok` and `constraint`.
    pub failures: i64,
    /// Number of configurations rejected by a constraint (rows of status `constraint` and the
    /// `constraint_rejected` count), part of `evaluations`, not of `failures`.
    pub constraint: i64,
    /// Lowest `median_ms` of the `ok` evaluations, if any.
    pub best_median_ms: Option<f64>,
    /// The `winner` metadata value (a `config_key`), if the experiment recorded one.
    pub winner: Option<String>,
}

/// Columns and rows of an ad-hoc query ([`Db::query_read_only`]).
#[derive(Debug, Clone, PartialEq)]
pub struct QueryResult {
    /// Column names, in order.
    pub columns: Vec<String>,
    /// One `Vec` per row, one value per column.
    pub rows: Vec<Vec<rusqlite::types::Value>>,
}

/// Why [`Db::query_read_only`] did not run, or failed.
#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    /// The statement would write (SQLite's `sqlite3_stmt_readonly` says so), or is an `ATTACH`
    /// or `DETACH`, which SQLite calls read-only but which open other files.
    #[error("only read-only statements are allowed (SELECT, WITH ... SELECT, read-only PRAGMAs); the statement would modify the database")]
    WouldModify,
    /// More SQL follows the first statement.
    #[error("only one statement is allowed; found more SQL after the first `;`")]
    MultipleStatements,
    /// Nothing but whitespace and comments.
    #[error("the query is empty")]
    Empty,
    /// SQLite refused or failed the statement (syntax error, no such table, ...).
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<rusqlite::Error> for QueryError {
    fn from(e: rusqlite::Error) -> Self {
        match e {
            rusqlite::Error::MultipleStatement => QueryError::MultipleStatements,
            e => QueryError::Db(DbError::Sqlite(e)),
        }
    }
}

impl Db {
    /// Every experiment with its region, device name, evaluation counts and fastest `ok`
    /// median, oldest first.
    pub fn experiment_summaries(&self) -> Result<Vec<ExperimentSummary>> {
        let mut stmt = self.conn.prepare_cached(SELECT_EXPERIMENT_SUMMARIES)?;
        let rows = stmt.query_map([], |r| {
            Ok(ExperimentSummary {
                experiment: experiment_from_row(r)?,
                file: r.get::<_, Option<String>>(16)?.unwrap_or_default(),
                line: r.get::<_, Option<u32>>(17)?.unwrap_or_default(),
                function: r.get::<_, Option<String>>(18)?.unwrap_or_default(),
                device_name: r.get::<_, Option<String>>(19)?.unwrap_or_default(),
                evaluations: r.get(20)?,
                failures: r.get(21)?,
                constraint: r.get(22)?,
                best_median_ms: r.get(23)?,
                winner: r.get(24)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The number of evaluations of the experiment per status; statuses without evaluations
    /// are absent.
    /// The experiment's failures by status (every status but `ok` and `constraint`), most
    /// frequent first, each with the message and configuration key of its first evaluation.
    pub fn failure_groups(&self, experiment_id: i64) -> Result<Vec<FailureGroup>> {
        let mut stmt = self.conn.prepare_cached(SELECT_FAILURE_GROUPS)?;
        let rows = stmt.query_map([experiment_id], |r| {
            Ok(FailureGroup {
                status: r.get(0)?,
                count: r.get(1)?,
                first_message: r.get(2)?,
                first_config_key: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    pub fn status_counts(&self, experiment_id: i64) -> Result<BTreeMap<String, i64>> {
        let mut stmt = self.conn.prepare_cached(SELECT_STATUS_COUNTS)?;
        let rows = stmt.query_map([experiment_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The evaluation of the experiment with this `config_key`, if any.
    pub fn evaluation_by_key(
        &self,
        experiment_id: i64,
        config_key: &str,
    ) -> Result<Option<EvaluationRow>> {
        Ok(self
            .conn
            .query_row(
                if self.has_energy()? {
                    SELECT_EVALUATION_BY_KEY
                } else {
                    SELECT_EVALUATION_BY_KEY_V2
                },
                params![experiment_id, config_key],
                evaluation_from_row,
            )
            .optional()?)
    }

    /// Runs one ad-hoc SQL statement that must not write, and returns its columns and rows.
    ///
    /// Refused before anything runs: more than one statement
    /// ([`QueryError::MultipleStatements`]), a statement that SQLite reports as writing
    /// (`sqlite3_stmt_readonly`), and `ATTACH`/`DETACH` ([`QueryError::WouldModify`]). The
    /// connection is also switched to `PRAGMA query_only` first. Open the database with
    /// [`Db::open_read_only`] for a third guard: the file itself is then opened read-only.
    pub fn query_read_only(&self, sql: &str) -> Result<QueryResult, QueryError> {
        self.conn.execute_batch(PRAGMA_QUERY_ONLY)?;
        let mut stmt = self.conn.prepare(sql)?;
        if stmt.column_count() == 0 && sql_is_blank(sql) {
            return Err(QueryError::Empty);
        }
        if !stmt.readonly() || opens_other_database(sql) {
            return Err(QueryError::WouldModify);
        }
        let columns: Vec<String> = stmt.column_names().iter().map(|c| c.to_string()).collect();
        let n = columns.len();
        let mut rows = Vec::new();
        let mut cursor = stmt.query([])?;
        while let Some(row) = cursor.next()? {
            let mut values = Vec::with_capacity(n);
            for i in 0..n {
                values.push(row.get::<_, rusqlite::types::Value>(i)?);
            }
            rows.push(values);
        }
        Ok(QueryResult { columns, rows })
    }
}

/// The SQL with its comments removed and its whitespace collapsed, outside string literals and
/// quoted identifiers (which are kept verbatim): enough to find the first keyword.
fn strip_sql_comments(sql: &str) -> String {
    let b = sql.as_bytes();
    let mut out = String::with_capacity(sql.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'-' if b.get(i + 1) == Some(&b'-') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                out.push(' ');
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i = (i + 2).min(b.len());
                out.push(' ');
            }
            q @ (b'\'' | b'"' | b'`' | b'[') => {
                let close = if q == b'[' { b']' } else { q };
                let start = i;
                i += 1;
                while i < b.len() && b[i] != close {
                    i += 1;
                }
                i = (i + 1).min(b.len());
                out.push_str(&sql[start..i]);
            }
            _ => {
                // Copy one whole UTF-8 character.
                let len = sql[i..].chars().next().map_or(1, char::len_utf8);
                out.push_str(&sql[i..i + len]);
                i += len;
            }
        }
    }
    out
}

/// Whether the SQL is nothing but whitespace, comments and `;`.
fn sql_is_blank(sql: &str) -> bool {
    strip_sql_comments(sql)
        .chars()
        .all(|c| c.is_whitespace() || c == ';')
}

/// Whether the statement starts with `ATTACH` or `DETACH` (SQLite reports both as read-only,
/// but `ATTACH` opens — and may create — another file).
fn opens_other_database(sql: &str) -> bool {
    let s = strip_sql_comments(sql);
    let first: String = s
        .trim_start_matches(|c: char| c.is_whitespace() || c == ';' || c == '(')
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    first.eq_ignore_ascii_case("attach") || first.eq_ignore_ascii_case("detach")
}
