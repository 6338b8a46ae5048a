//! `orcl db list/show/best/query/export/import`: the arguments of the database queries, run by
//! [`crate::dbcli`] and [`crate::interchange`].

use super::failure::{classify, Failure};
use clap::Subcommand;
use std::path::{Path, PathBuf};

#[derive(Subcommand, Debug)]
pub(super) enum DbCommand {
    /// The experiments: id, file, region, device, backend, input sizes, algorithm, evaluations,
    /// failures, best time, date.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// One experiment: metadata, device properties, top configurations, failures by class.
    Show {
        /// The experiment's id (`orcl db list` shows them).
        id: i64,
        /// How many of the fastest configurations to show.
        #[arg(long, default_value_t = 10)]
        top: usize,
        /// Only the failures: one row per class (compile_error, wrong_result, ...) with its count
        /// and the first message and configuration of that class.
        #[arg(long, conflicts_with = "pareto")]
        failures: bool,
        /// Only the time/energy Pareto front: the configurations no other beats in both median
        /// time and energy per call (experiments tuned with `--objective energy` or `edp`).
        #[arg(long)]
        pareto: bool,
        /// Print JSON instead of tables.
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// The winning configuration per region, device and input size.
    Best {
        /// Only regions whose `file:line` or function contains this text.
        #[arg(long)]
        region: Option<String>,
        /// Only devices whose name contains this text.
        #[arg(long)]
        device: Option<String>,
        /// Input size, NAME=VALUE (repeatable).
        #[arg(long = "size", value_name = "NAME=VALUE")]
        size: Vec<String>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Run a read-only SQL query (statements that write are refused).
    Query {
        /// One read-only SQL statement (SELECT, WITH ... SELECT, a read-only PRAGMA).
        sql: String,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Export one experiment as CSV, JSON or T4 (the community results schema).
    Export {
        /// The experiment's id (`orcl db list` shows them).
        id: i64,
        /// The file format.
        #[arg(long, default_value = "json", value_parser = ["csv", "json", "t4"])]
        format: String,
        /// Output file (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Import a Kernel Tuner cache file or a T4 results file as a new experiment.
    Import {
        /// A Kernel Tuner cache (`.json` or `.json.gz`), T4 results or an orcl JSON export.
        file: PathBuf,
        /// The file format (default: detected from the content).
        #[arg(long, value_parser = ["kerneltuner", "t4", "json"])]
        format: Option<String>,
    },
}

pub(super) fn run(db: &Path, command: DbCommand) -> Result<i32, Failure> {
    let r = match command {
        DbCommand::List { json } => crate::dbcli::list(db, json),
        DbCommand::Show {
            id,
            top,
            failures,
            pareto,
            json,
        } => match (failures, pareto) {
            (true, _) => crate::dbcli::show_failures(db, id, json),
            (_, true) => crate::dbcli::show_pareto(db, id, json),
            _ => crate::dbcli::show(db, id, top, json),
        },
        DbCommand::Best {
            region,
            device,
            size,
            json,
        } => crate::dbcli::best(db, region.as_deref(), device.as_deref(), &size, json),
        DbCommand::Query { sql, json } => crate::dbcli::query(db, &sql, json),
        DbCommand::Export { id, format, output } => {
            crate::interchange::export(db, id, &format, output.as_deref())
        }
        DbCommand::Import { file, format } => {
            crate::interchange::import(db, &file, format.as_deref())
                .map(|id| orcl_frontend::outln!("imported as experiment {id}"))
        }
    };
    r.map(|_| 0).map_err(classify)
}
