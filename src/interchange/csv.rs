//! The CSV export: one row per evaluation, the tuning parameters then [`CSV_COLUMNS`].

use std::io::Write;

use anyhow::Result;

use super::export::Loaded;
use super::CSV_COLUMNS;
use orcl_frontend::expr::Value;

/// Shortest text that reads back as the same `f64` (`1.0`, `2.5e-16`).
pub(super) fn fmt_f64(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_else(|_| x.to_string())
}

pub(super) fn fmt_opt(x: Option<f64>) -> String {
    x.map(fmt_f64).unwrap_or_default()
}

/// A parameter value as a CSV cell: strings bare, booleans `true`/`false`, numbers as JSON.
pub(super) fn csv_cell(v: &Value) -> String {
    match v {
        Value::Str(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => fmt_f64(*f),
        Value::List(_) => serde_json::to_string(v).unwrap_or_default(),
    }
}

pub(super) fn write_csv(l: &Loaded, out: &mut dyn Write) -> Result<()> {
    let mut params: Vec<&str> = Vec::new();
    for (_, cfg) in &l.evaluations {
        for (name, _) in &cfg.values {
            if !params.contains(&&**name) {
                params.push(name);
            }
        }
    }
    let mut w = ::csv::Writer::from_writer(out);
    w.write_record(params.iter().copied().chain(CSV_COLUMNS))?;
    for (e, cfg) in &l.evaluations {
        let mut row: Vec<String> = params
            .iter()
            .map(|p| cfg.get(p).map(csv_cell).unwrap_or_default())
            .collect();
        row.push(e.status.clone());
        row.push(fmt_opt(e.median_ms));
        row.push(
            e.samples_ms
                .iter()
                .map(|s| fmt_f64(*s))
                .collect::<Vec<_>>()
                .join(";"),
        );
        row.push(fmt_opt(e.transfer_ms));
        row.push(fmt_opt(e.build_ms));
        row.push(fmt_opt(e.max_error));
        row.push(e.message.clone().unwrap_or_default());
        row.push(fmt_opt(e.energy_j));
        row.push(fmt_opt(e.power_w));
        w.write_record(&row)?;
    }
    w.flush()?;
    Ok(())
}
