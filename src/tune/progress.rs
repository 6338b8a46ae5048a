//! The progress bar of one experiment (stderr, only on a terminal) and its status line: builds
//! (done, cached, queued), measurements per device, failures and the best time so far.

use orcl_frontend::expr::Value;
use std::collections::BTreeMap;

/// A progress bar of `len` evaluations labelled with the region and the input size, one line
/// that fits the terminal (the status message is cut to the width left); hidden when disabled
/// or when stdout is not a terminal.
pub(super) fn progress_bar(
    enabled: bool,
    len: u64,
    label: &str,
    input: &BTreeMap<String, Value>,
) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !enabled || !std::io::stdout().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    let style = indicatif::ProgressStyle::with_template(
        // `wide_msg` takes the width left and is cut to it: the line never wraps (issue 26).
        "{prefix} [{bar:20}] {pos}/{len}  {wide_msg}  {elapsed} (~{eta} left)",
    )
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
    .progress_chars("=> ");
    bar.set_style(style);
    let sizes: Vec<String> = input.iter().map(|(k, v)| format!("{k}={v}")).collect();
    bar.set_prefix(format!("{label} {}", sizes.join(" ")));
    bar
}

/// The bar's message: `builds B (+H cached, Q queued)` (with a build pool), `measured on devices
/// 0:N 1:M` (with `--devices`; `what` = `devices`, or `Slurm workers` under `--slurm`), the
/// failure count and the best median so far (ms).
pub(super) fn status_line(
    builds: Option<(usize, usize, usize)>,
    what: &str,
    per_device: &BTreeMap<usize, usize>,
    failures: usize,
    best_ms: Option<f64>,
) -> String {
    let builds = builds
        .map(|(b, h, q)| format!("builds {b} (+{h} cached, {q} queued)  "))
        .unwrap_or_default();
    let devices = if per_device.is_empty() {
        String::new()
    } else {
        let each: Vec<String> = per_device.iter().map(|(d, n)| format!("{d}:{n}")).collect();
        format!("measured on {what} {}  ", each.join(" "))
    };
    format!(
        "{builds}{devices}failures {failures}  best {}",
        best_ms
            .map(|b| format!("{b:.4} ms"))
            .unwrap_or_else(|| "-".into())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_line_names_builds_devices_failures_and_best() {
        let per_device = BTreeMap::from([(0, 7), (1, 5)]);
        assert_eq!(
            status_line(Some((3, 2, 1)), "devices", &per_device, 4, Some(0.01234)),
            "builds 3 (+2 cached, 1 queued)  measured on devices 0:7 1:5  failures 4  best 0.0123 ms"
        );
        assert_eq!(
            status_line(None, "devices", &BTreeMap::new(), 0, None),
            "failures 0  best -"
        );
        assert_eq!(
            status_line(None, "Slurm workers", &per_device, 0, None),
            "measured on Slurm workers 0:7 1:5  failures 0  best -"
        );
    }
}
