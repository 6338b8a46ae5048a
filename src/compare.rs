//! `orcl compare`: one annotated loop tuned for OpenCL and for CUDA on the same device, one row per
//! region and input size (best time per backend, achieved bandwidth, CUDA/OpenCL speedup), as a
//! table, JSON, or grouped bars in the style of the OrCL paper's Figure 6 (Chaimov et al. 2014).

use crate::prepare::Prepared;
use crate::tune::{InputResult, RegionResult, TuneError, TuneOptions};
use anyhow::{anyhow, Context};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use orcl_codegen::Backend;
use orcl_frontend::ir::{Expr, ExprKind, Kernel, Stmt, StmtKind};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One backend's best variant for one region and input size.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BackendBest {
    /// Median time of the fastest correct variant (ms; re-measured winner when available).
    pub ms: f64,
    /// Bytes moved / time (GB/s = 1e9 bytes/s).
    pub gbs: f64,
    /// Floating-point operations / time (TFLOP/s = 1e12 FLOP/s), for a matrix product.
    pub tflops: Option<f64>,
    pub config: String,
    pub device: String,
    pub experiment: i64,
}

/// One row of the comparison.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Row {
    /// `function()` and region index.
    pub kernel: String,
    /// Input sizes, `N=67108864`.
    pub input: String,
    /// Bytes read + written once by the loop, from the IR and the input sizes.
    pub bytes: u64,
    /// Floating-point operations of one run of the loop when it is a matrix product (a
    /// contraction: 2·m·n·k), from the IR's trip counts at this input size; `None` otherwise.
    pub flops: Option<u64>,
    pub opencl: Option<BackendBest>,
    pub cuda: Option<BackendBest>,
    /// OpenCL time / CUDA time (> 1: CUDA is faster).
    pub cuda_speedup: Option<f64>,
}

/// Arrays the loop body reads (anywhere but as the target of a plain `=`).
fn read_arrays(stmts: &[Stmt], out: &mut BTreeSet<String>) {
    let mut mark = |e: &Expr| {
        e.visit(&mut |x| {
            if let ExprKind::Index { array, .. } = &x.kind {
                out.insert(array.clone());
            }
        })
    };
    let mut todo: Vec<&Stmt> = stmts.iter().collect();
    while let Some(s) = todo.pop() {
        match &s.kind {
            StmtKind::Assign { target, op, value } => {
                mark(value);
                if let ExprKind::Index { indices, .. } = &target.kind {
                    // The subscripts are read; the element itself only for `+=`, `-=`, ...
                    indices.iter().for_each(&mut mark);
                    if op.c_op() != "=" {
                        mark(target);
                    }
                }
            }
            StmtKind::Decl { init, .. } => {
                if let Some(i) = init {
                    mark(i);
                }
            }
            StmtKind::If { cond, then, other } => {
                mark(cond);
                todo.extend(then.iter());
                if let Some(o) = other {
                    todo.extend(o.iter());
                }
            }
            StmtKind::For(l) => {
                mark(&l.lower);
                mark(&l.upper);
                todo.extend(l.body.iter());
            }
            StmtKind::Block(b) => todo.extend(b.iter()),
        }
    }
}

/// Bytes the loop moves if every array it touches is read once (if read) and written once (if
/// written): the traffic a bandwidth-bound kernel cannot avoid. `elems`: elements per array.
pub fn bytes_moved(k: &Kernel, elems: &BTreeMap<String, u64>) -> u64 {
    let mut read = BTreeSet::new();
    read_arrays(&k.parallel.body, &mut read);
    k.args
        .iter()
        .filter(|a| a.is_array)
        .map(|a| {
            let n = elems.get(&a.name).copied().unwrap_or(0);
            let size = a.ty.size_bytes() as u64;
            let times = u64::from(read.contains(&a.name)) + u64::from(a.written);
            n * size * times
        })
        .sum()
}

/// The floating-point operations of one run of `p`'s loop at `input` when it is a contraction
/// (`analysis::contraction`): a multiply and an add per iteration of its three loops, 2·m·n·k.
/// `None` for any other loop, or when a trip count cannot be evaluated (triangular bounds).
pub fn contraction_flops(
    p: &Prepared,
    input: &BTreeMap<String, orcl_frontend::expr::Value>,
) -> Option<u64> {
    let k = &p.kernel;
    let c = orcl_frontend::analysis::contraction(k)?;
    let nest = orcl_frontend::analysis::perfect_nest(k);
    let trip = |l| orcl_frontend::bounds::trip_count(k, &p.region.spec, input, l);
    let (m, n, r) = (trip(nest.loops[0])?, trip(nest.loops[1])?, trip(c.red)?);
    2u64.checked_mul(m)?.checked_mul(n)?.checked_mul(r)
}

fn best_of(i: &InputResult, bytes: u64, flops: Option<u64>) -> Option<BackendBest> {
    let (b, _) = i.best.as_ref()?;
    let e = &i.evaluations[*b];
    let ms = i.winner_ms.or_else(|| e.outcome.median_ms())?;
    Some(BackendBest {
        ms,
        gbs: bytes as f64 / (ms * 1e-3) / 1e9,
        tflops: flops.map(|f| f as f64 / (ms * 1e-3) / 1e12),
        config: e.config.display(),
        device: i.device.name.clone(),
        experiment: i.experiment_id,
    })
}

fn input_label(i: &BTreeMap<String, orcl_frontend::expr::Value>) -> String {
    i.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn kernel_label(p: &Prepared) -> String {
    let f = p
        .region
        .raw
        .function
        .as_ref()
        .map(|f| f.name.as_str())
        .unwrap_or("?");
    if p.region.index == 0 {
        format!("{f}()")
    } else {
        format!("{f}() region {}", p.region.index)
    }
}

/// What `orcl compare` tunes: the backends in order and the options both tunes share.
#[derive(Debug, Clone)]
pub struct CompareOptions {
    pub backends: Vec<Backend>,
    /// The tuning database file.
    pub db: PathBuf,
    /// OpenCL platform index (used by the OpenCL tune only).
    pub platform: Option<usize>,
    /// OpenCL device index within the platform, and CUDA ordinal.
    pub device: Option<usize>,
    /// Search algorithm for every backend (overrides the spec).
    pub algorithm: Option<String>,
    /// Budget per backend: configurations measured.
    pub total_runs: Option<u64>,
    /// Tune only the input sizes with these input-parameter values (all when empty).
    pub sizes: Vec<(String, orcl_frontend::expr::Value)>,
    /// Show the tunes' progress bars.
    pub progress: bool,
}

/// Why a comparison stopped: a tune's input error or interruption (any other tune error only
/// leaves that backend's column empty), or rows that could not be computed.
#[derive(Debug)]
pub enum CompareError {
    Tune(TuneError),
    Rows(anyhow::Error),
}

/// Tune every region of the file once per backend of `opts` and compare the best variants, one
/// row per region and input size. A backend that cannot run here (no driver, no device) is
/// passed to `skipped` with its error, as it happens, and leaves its column empty; the other
/// backends still run. Errors: an input error or an interruption of any tune stops at once.
pub fn compare(
    path: &str,
    text: &str,
    prepared: &[Prepared],
    opts: &CompareOptions,
    mut skipped: impl FnMut(Backend, &TuneError),
) -> Result<Vec<Row>, CompareError> {
    let mut per_backend = Vec::new();
    for &b in &opts.backends {
        let tune_opts = TuneOptions {
            db: opts.db.clone(),
            algorithm: opts.algorithm.clone(),
            total_runs: opts.total_runs,
            backend: Some(b),
            platform: opts.platform.filter(|_| b == Backend::OpenCl),
            device: opts.device,
            progress: opts.progress,
            sizes: opts.sizes.clone(),
            ..TuneOptions::default()
        };
        match crate::tune::tune(path, text, prepared.to_vec(), &tune_opts) {
            Ok(r) => per_backend.push((b, r)),
            Err(
                e @ (TuneError::Input(_)
                | TuneError::Interrupted { .. }
                | TuneError::InterruptedEarly { .. }),
            ) => return Err(CompareError::Tune(e)),
            Err(e) => skipped(b, &e),
        }
    }
    rows(&per_backend).map_err(CompareError::Rows)
}

/// The comparison rows of the same regions tuned once per backend (`per_backend[b]` holds the
/// results of tuning every region for backend `b`).
pub fn rows(per_backend: &[(Backend, Vec<RegionResult>)]) -> anyhow::Result<Vec<Row>> {
    let mut rows: Vec<Row> = Vec::new();
    for (backend, results) in per_backend {
        for r in results {
            let p = &r.prepared;
            for i in &r.inputs {
                let env = p.region.spec.input_env(&i.input);
                let elems = orcl_frontend::inputs::array_elems(&p.region.spec, &env)
                    .map_err(|d| anyhow!("{}", d.message))?;
                let bytes = bytes_moved(&p.kernel, &elems);
                let flops = contraction_flops(p, &i.input);
                let kernel = kernel_label(p);
                let input = input_label(&i.input);
                let pos = match rows
                    .iter()
                    .position(|x| x.kernel == kernel && x.input == input)
                {
                    Some(k) => k,
                    None => {
                        rows.push(Row {
                            kernel,
                            input,
                            bytes,
                            flops,
                            opencl: None,
                            cuda: None,
                            cuda_speedup: None,
                        });
                        rows.len() - 1
                    }
                };
                let best = best_of(i, bytes, flops);
                match backend {
                    Backend::OpenCl => rows[pos].opencl = best,
                    Backend::Cuda => rows[pos].cuda = best,
                }
            }
        }
    }
    for r in &mut rows {
        r.cuda_speedup = match (&r.opencl, &r.cuda) {
            (Some(o), Some(c)) if c.ms > 0.0 => Some(o.ms / c.ms),
            _ => None,
        };
    }
    Ok(rows)
}

/// The rows as a terminal table; with TFLOP/s columns when a row is a matrix product.
pub fn render_table(rows: &[Row]) -> String {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    let with_flops = rows.iter().any(|r| r.flops.is_some());
    let mut header = vec!["kernel", "input", "MB moved", "OpenCL ms", "OpenCL GB/s"];
    header.extend(with_flops.then_some("OpenCL TFLOP/s"));
    header.extend(["CUDA ms", "CUDA GB/s"]);
    header.extend(with_flops.then_some("CUDA TFLOP/s"));
    header.push("CUDA/OpenCL speedup");
    t.set_header(header);
    let num = |x: Option<f64>, d: usize| {
        Cell::new(x.map(|v| format!("{v:.d$}")).unwrap_or_else(|| "-".into()))
            .set_alignment(CellAlignment::Right)
    };
    for r in rows {
        let mut cells = vec![
            Cell::new(&r.kernel),
            Cell::new(&r.input),
            num(Some(r.bytes as f64 / 1e6), 1),
        ];
        for b in [&r.opencl, &r.cuda] {
            cells.push(num(b.as_ref().map(|b| b.ms), 4));
            cells.push(num(b.as_ref().map(|b| b.gbs), 0));
            if with_flops {
                cells.push(num(b.as_ref().and_then(|b| b.tflops), 2));
            }
        }
        cells.push(num(r.cuda_speedup, 2));
        t.add_row(cells);
    }
    t.to_string()
}

/// Grouped bars (Figure 6 of the OrCL paper): one group per row, one bar per backend, height =
/// best time in ms (log axis when the times span more than 20×). SVG or PNG by extension.
///
/// Errors: an extension other than .svg/.png, no row with a time, or the file cannot be written.
pub fn plot(rows: &[Row], output: &Path) -> anyhow::Result<()> {
    let ext = output
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    let times: Vec<f64> = rows
        .iter()
        .flat_map(|r| [r.opencl.as_ref(), r.cuda.as_ref()])
        .flatten()
        .map(|b| b.ms)
        .filter(|m| *m > 0.0)
        .collect();
    if times.is_empty() {
        anyhow::bail!("nothing to plot: no backend produced a correct variant");
    }
    crate::plot::register_font()?;
    let size = (160 + 110 * rows.len() as u32).max(640);
    match ext.as_deref() {
        Some("svg") => draw_bars(
            SVGBackend::new(output, (size, 480)).into_drawing_area(),
            rows,
            &times,
        ),
        Some("png") => draw_bars(
            BitMapBackend::new(output, (size, 480)).into_drawing_area(),
            rows,
            &times,
        ),
        _ => anyhow::bail!(
            "cannot write {}: the plot must end in .svg or .png",
            output.display()
        ),
    }
    .with_context(|| format!("cannot write {}", output.display()))
}

/// A bar's value label: the time with four significant digits (`0.1234 ms`, `12.35 ms`).
fn bar_label(ms: f64) -> String {
    let digits = (3 - ms.abs().log10().floor() as i32).clamp(0, 6) as usize;
    format!("{ms:.digits$} ms")
}

fn draw_bars<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    rows: &[Row],
    times: &[f64],
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    let e = |x: DrawingAreaErrorKind<DB::ErrorType>| anyhow!("{x:?}");
    root.fill(&WHITE).map_err(e)?;
    let lo = times.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = times.iter().cloned().fold(0.0, f64::max);
    let device = rows
        .iter()
        .find_map(|r| r.cuda.as_ref().or(r.opencl.as_ref()))
        .map(|b| b.device.clone())
        .unwrap_or_default();
    let caption = format!("Best variant per backend on {device} (lower is better)");
    let n = rows.len();
    let labels: Vec<String> = rows
        .iter()
        .map(|r| format!("{} {}", r.kernel.trim_end_matches("()"), r.input))
        .collect();
    let colors = [RGBColor(31, 119, 180), RGBColor(214, 39, 40)];
    let names = ["OpenCL", "CUDA"];
    let bar = |k: usize, b: usize, v: f64| {
        let x0 = k as f64 + 0.12 + 0.38 * b as f64;
        (x0, x0 + 0.36, v)
    };
    macro_rules! body {
        ($chart:expr, $floor:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(0)
                .y_desc("time (ms)")
                .label_style(("sans-serif", 13))
                .draw()
                .map_err(e)?;
            for (b, name) in names.iter().enumerate() {
                let color = colors[b];
                let bars: Vec<(f64, f64, f64)> = rows
                    .iter()
                    .enumerate()
                    .filter_map(|(k, r)| {
                        let v = if b == 0 { &r.opencl } else { &r.cuda };
                        v.as_ref().map(|v| bar(k, b, v.ms))
                    })
                    .collect();
                chart
                    .draw_series(bars.iter().map(|&(x0, x1, v)| {
                        Rectangle::new([(x0, $floor), (x1, v)], color.filled())
                    }))
                    .map_err(e)?
                    .label(*name)
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 6), (x + 14, y + 6)], color.filled())
                    });
                // Each bar's value above it.
                for &(x0, x1, v) in &bars {
                    let (px, py) = chart.backend_coord(&((x0 + x1) / 2.0, v));
                    let style = ("sans-serif", 12)
                        .into_font()
                        .color(&BLACK)
                        .pos(Pos::new(HPos::Center, VPos::Bottom));
                    root.draw(&Text::new(bar_label(v), (px, py - 3), style))
                        .map_err(e)?;
                }
            }
            for (k, label) in labels.iter().enumerate() {
                let (px, py) = chart.backend_coord(&(k as f64 + 0.5, $floor));
                let style = ("sans-serif", 13)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Center, VPos::Top));
                root.draw(&Text::new(label.clone(), (px, py + 8), style))
                    .map_err(e)?;
            }
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.9))
                .border_style(BLACK)
                .label_font(("sans-serif", 14))
                .position(SeriesLabelPosition::UpperRight)
                .draw()
                .map_err(e)?;
        }};
    }
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70);
    if hi / lo > 20.0 {
        let floor = lo / 2.0;
        let chart = builder
            .build_cartesian_2d(0.0..n as f64, (floor..hi * 2.0).log_scale())
            .map_err(e)?;
        body!(chart, floor);
    } else {
        let chart = builder
            .build_cartesian_2d(0.0..n as f64, 0.0..hi * 1.15)
            .map_err(e)?;
        body!(chart, 0.0);
    }
    root.present().map_err(e)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(src: &str, decls: &str) -> Kernel {
        let text = format!(
            "void f(int n, double a, double *y, const double *x, double *w, const double *A) {{\n    int i, j;\n    /*@ begin PerfTuning (\n def performance_params {{ param WI[] = [32]; }}\n def input_params {{ param N[] = [8]; }}\n def input_vars {{ {decls} }}\n ) @*/\n    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)\n {src}\n ) @*/\n {src}\n /*@ end @*/\n /*@ end @*/\n}}\n"
        );
        let src = orcl_frontend::macros::Source::plain(&text);
        let prepared = crate::prepare::prepare("t.c", &src)
            .expect("prepares")
            .regions;
        prepared[0].kernel.clone()
    }

    #[test]
    fn counts_each_array_once_per_direction() {
        let k = kernel(
            "for (i = 0; i < n; i++) y[i] = y[i] + a * x[i];",
            "decl int n = N; decl double a = 2; decl static double y[N] = random; decl static double x[N] = random;",
        );
        let elems = BTreeMap::from([("x".to_string(), 10), ("y".to_string(), 10)]);
        // x read, y read and written: 3 × 10 × 8 bytes.
        assert_eq!(bytes_moved(&k, &elems), 240);
        let k = kernel(
            "for (i = 0; i < n; i++) w[i] = a * x[i];",
            "decl int n = N; decl double a = 2; decl static double w[N] = 0; decl static double x[N] = random;",
        );
        let elems = BTreeMap::from([("x".to_string(), 10), ("w".to_string(), 10)]);
        assert_eq!(bytes_moved(&k, &elems), 160);
    }

    /// SGEMM's naive loop (examples/sgemm.c, 33 × 17 × 9) is 2·m·n·k operations; an axpy loop
    /// is not a matrix product.
    #[test]
    fn flops_of_a_matrix_product() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/sgemm.c");
        let text = std::fs::read_to_string(path).unwrap();
        let src = orcl_frontend::macros::Source::plain(&text);
        let p = &crate::prepare::prepare(path, &src).unwrap().regions[0];
        assert_eq!(contraction_flops(p, &p.inputs[0]), Some(2 * 33 * 17 * 9));
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/axpy_quick.c");
        let text = std::fs::read_to_string(path).unwrap();
        let src = orcl_frontend::macros::Source::plain(&text);
        let p = &crate::prepare::prepare(path, &src).unwrap().regions[0];
        assert_eq!(contraction_flops(p, &p.inputs[0]), None);
    }

    #[test]
    fn speedup_is_opencl_over_cuda() {
        let best = |ms: f64| BackendBest {
            ms,
            gbs: 1.0,
            tflops: Some(2.0 / ms),
            config: String::new(),
            device: "GPU".into(),
            experiment: 1,
        };
        let mut r = Row {
            kernel: "f()".into(),
            input: "N=8".into(),
            bytes: 1,
            flops: Some(2_000_000_000),
            opencl: Some(best(2.0)),
            cuda: Some(best(1.0)),
            cuda_speedup: None,
        };
        r.cuda_speedup = Some(2.0);
        let table = render_table(std::slice::from_ref(&r));
        assert!(table.contains("2.00"), "{table}");
        assert!(table.contains("CUDA TFLOP/s"), "{table}");
        let dir = tempfile::tempdir().unwrap();
        let svg = dir.path().join("c.svg");
        plot(&[r], &svg).unwrap();
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.contains("OpenCL") && text.contains("CUDA") && text.contains("<rect"));
        // Each bar carries its value.
        assert!(
            text.contains("2.000 ms") && text.contains("1.000 ms"),
            "{text}"
        );
        assert_eq!(bar_label(0.01236), "0.01236 ms");
        assert_eq!(bar_label(123.46), "123.5 ms");
        assert!(plot(&[], &dir.path().join("x.svg")).is_err());
        assert!(plot(&[], &dir.path().join("x.pdf")).is_err());
    }
}
