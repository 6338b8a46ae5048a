//! Tables that fit the terminal: optional columns dropped, widest first to go, until the table
//! fits the width; then the remaining text cells wrap (comfy-table's dynamic arrangement).
//! Output that is not a terminal keeps every column at full width (scripts, `--json`, `db show`).

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, ContentArrangement, Table};

/// The width to fit tables to, in columns: `COLUMNS` when set to a number, else the terminal's
/// width when standard output is a terminal, else `None` (no limit).
pub(super) fn terminal_width() -> Option<u16> {
    use std::io::IsTerminal;
    if let Some(n) = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()) {
        return Some(n);
    }
    if !std::io::stdout().is_terminal() {
        return None;
    }
    Table::new().width()
}

/// A table of `header` and `rows` that fits `width`: the columns of `optional` (indices, dropped
/// in that order) are left out while the table is wider than `width`, then text wraps to fit.
/// Returns the table and the names of the columns left out.
pub(super) fn fitted(
    header: &[&str],
    rows: &[Vec<Cell>],
    optional: &[usize],
    width: Option<u16>,
) -> (Table, Vec<String>) {
    let mut dropped: Vec<usize> = Vec::new();
    loop {
        let t = build(header, rows, &dropped);
        let Some(w) = width else {
            return (t, Vec::new());
        };
        let fits = rendered_width(&t) <= usize::from(w);
        match optional.iter().find(|c| !dropped.contains(c)) {
            Some(&next) if !fits => dropped.push(next),
            _ => {
                let mut t = t;
                if !fits {
                    t.set_content_arrangement(ContentArrangement::Dynamic);
                    t.set_width(w);
                }
                let names = dropped.iter().map(|&c| header[c].to_string()).collect();
                return (t, names);
            }
        }
    }
}

fn build(header: &[&str], rows: &[Vec<Cell>], dropped: &[usize]) -> Table {
    let keep = |k: &usize| !dropped.contains(k);
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(
        header
            .iter()
            .enumerate()
            .filter(|(k, _)| keep(k))
            .map(|(_, h)| *h),
    );
    for row in rows {
        let cells: Vec<Cell> = row
            .iter()
            .enumerate()
            .filter(|(k, _)| keep(k))
            .map(|(_, c)| c.clone())
            .collect();
        t.add_row(cells);
    }
    t
}

/// The widest line of the rendered table, in characters.
fn rendered_width(t: &Table) -> usize {
    t.to_string()
        .lines()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<Vec<Cell>> {
        (0..3)
            .map(|k| {
                vec![
                    Cell::new(k),
                    Cell::new("WI=256 WG=16 CB=True UI=4 CL='-cl-fast-relaxed-math'"),
                    Cell::new("1.8434"),
                    Cell::new("27.4117"),
                    Cell::new("2.2e-16"),
                ]
            })
            .collect()
    }
    const HEADER: [&str; 5] = ["rank", "configuration", "median ms", "transfer ms", "error"];

    #[test]
    fn drops_optional_columns_then_wraps_to_fit() {
        let (t, dropped) = fitted(&HEADER, &rows(), &[3, 4], None);
        assert!(dropped.is_empty());
        assert!(rendered_width(&t) > 80);
        for width in [120u16, 80, 60, 40] {
            let (t, dropped) = fitted(&HEADER, &rows(), &[3, 4], Some(width));
            let text = t.to_string();
            assert!(rendered_width(&t) <= usize::from(width), "{width}:\n{text}");
            assert!(
                text.contains("median ms") || text.contains("median"),
                "{text}"
            );
            for d in &dropped {
                assert!(!text.contains(d.as_str()), "{d} still shown at {width}");
            }
            if width <= 80 {
                assert_eq!(dropped, ["transfer ms", "error"], "{width}");
            }
        }
    }
}
