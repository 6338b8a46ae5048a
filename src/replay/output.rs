//! The replay summaries as a table or as JSON.

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};

use super::runs::Summary;

/// The `--json` output: one object, or an array of them when `all` algorithms were replayed.
pub fn render_json(summaries: &[Summary], all: bool) -> String {
    let r = if all || summaries.len() != 1 {
        serde_json::to_string_pretty(summaries)
    } else {
        serde_json::to_string_pretty(&summaries[0])
    };
    r.expect("summaries serialise")
}

/// The table output: one row per algorithm.
pub fn render_table(summaries: &[Summary]) -> String {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec![
        "algorithm",
        "space size",
        "budget",
        "seeds",
        "fraction median",
        "fraction p10",
        "fraction mean",
        "hit optimum",
        "evals to 0.95",
    ]);
    let right = |s: String| Cell::new(s).set_alignment(CellAlignment::Right);
    for s in summaries {
        let f = &s.fraction_of_optimum;
        t.add_row(vec![
            Cell::new(&s.algorithm),
            right(s.space_size.to_string()),
            right(s.budget.to_string()),
            right(s.seeds.to_string()),
            right(format!("{:.3}", f.median)),
            right(format!("{:.3}", f.p10)),
            right(format!("{:.3}", f.mean)),
            right(format!("{:.0}%", s.hit_optimum * 100.0)),
            right(
                s.evaluations_to_0_95
                    .map_or_else(|| "–".to_string(), |n| format!("{n:.1}")),
            ),
        ]);
    }
    t.to_string()
}
