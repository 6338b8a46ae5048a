//! `orcl db export`: one experiment read from the database and written in one format.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::csv::write_csv;
use super::json::json_doc;
use super::t4::t4_doc;
use super::ExportFormat;
use crate::db::{Db, DeviceRow, EvaluationRow, ExperimentRow, RegionRow};
use orcl_frontend::space::Configuration;

/// One experiment as read from the database.
pub(super) struct Loaded {
    pub(super) experiment: ExperimentRow,
    pub(super) region: RegionRow,
    pub(super) device: DeviceRow,
    pub(super) metadata: BTreeMap<String, String>,
    pub(super) evaluations: Vec<(EvaluationRow, Configuration)>,
}

pub(super) fn load(db: &Db, id: i64) -> Result<Loaded> {
    let experiment = db
        .experiment(id)?
        .ok_or_else(|| anyhow!("no experiment with id {id}"))?;
    let region = db
        .region(experiment.region_id)?
        .ok_or_else(|| anyhow!("experiment {id}: no region {}", experiment.region_id))?;
    let device = db
        .device(experiment.device_id)?
        .ok_or_else(|| anyhow!("experiment {id}: no device {}", experiment.device_id))?;
    let metadata = db.metadata(id)?;
    let evaluations = db
        .evaluations(id)?
        .into_iter()
        .map(|e| {
            let cfg = Configuration::from_key(&e.config_key)
                .or_else(|_| Configuration::from_key(&e.config_json))
                .with_context(|| {
                    format!("evaluation {:?}: configuration is not a JSON object", e.id)
                })?;
            Ok((e, cfg))
        })
        .collect::<Result<_>>()?;
    Ok(Loaded {
        experiment,
        region,
        device,
        metadata,
        evaluations,
    })
}

/// `orcl db export ID --format csv|json|t4`: writes experiment `id` of database `db` to `output`
/// (default: standard output). Errors: unknown format or id, unreadable database, I/O.
pub fn export(db: &Path, id: i64, format: &str, output: Option<&Path>) -> Result<()> {
    let format = ExportFormat::parse(format)?;
    if !db.exists() {
        bail!("database {} does not exist", db.display());
    }
    let conn = Db::open_read_only(db).with_context(|| format!("cannot open {}", db.display()))?;
    let loaded = load(&conn, id).map_err(|e| {
        if conn.experiment(id).is_ok_and(|x| x.is_none()) {
            anyhow!("no experiment with id {id} in {}", db.display())
        } else {
            e.context(format!("cannot read experiment {id} from {}", db.display()))
        }
    })?;
    drop(conn);
    // Rendered in memory, then written whole: a file output goes through a temporary file and
    // is never the database itself (issue 15 F4); standard output may be a closed pipe.
    let mut out: Vec<u8> = Vec::new();
    match format {
        ExportFormat::Csv => write_csv(&loaded, &mut out)?,
        ExportFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &json_doc(&loaded))?;
            writeln!(out)?;
        }
        ExportFormat::T4 => {
            serde_json::to_writer_pretty(&mut out, &t4_doc(&loaded))?;
            writeln!(out)?;
        }
    }
    match output {
        Some(p) => crate::outfile::write(p, &out, &[("database", db)])?,
        None => {
            let mut so = std::io::stdout().lock();
            match so.write_all(&out).and_then(|_| so.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    return Err(anyhow!("cannot write to standard output: {e}"))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// A configuration serialised as a JSON object in parameter order.
pub(super) struct OrderedConfig<'a>(pub(super) &'a Configuration);

impl Serialize for OrderedConfig<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.values.len()))?;
        for (name, value) in &self.0.values {
            m.serialize_entry(name, value)?;
        }
        m.end()
    }
}
