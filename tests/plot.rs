//! `orcl plot` end to end: the built binary charts a real experiment database.
//!
//! The fixture tunes a copy of `tests/inputs/ok/axpy.c` once (two input sizes, so two
//! experiments of 8 configurations each; a few seconds on PoCL) into a database under
//! `target/tmp/plot-fixture/`, which every test then plots in its own way.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use orcl::db::{Db, DeviceRow, EvaluationRow, NewExperiment, RegionRow};

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

struct Fixture {
    dir: PathBuf,
    db: PathBuf,
    experiments: Vec<Experiment>,
}

struct Experiment {
    id: i64,
    /// `N=1000` etc.
    size: String,
    device: String,
    ok: usize,
    failed: usize,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("plot-fixture");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/ok/axpy.c");
        std::fs::copy(&src, dir.join("axpy.c")).unwrap();
        let db = dir.join("x.db");
        let out = Command::new(ORCL)
            .args(["tune", "axpy.c", "--db", "x.db"])
            .current_dir(&dir)
            .env("ORCL_CACHE_DIR", dir.join("cache"))
            .env_remove("ORCL_TEST_FAULT")
            .output()
            .expect("run orcl tune");
        assert_eq!(
            out.status.code(),
            Some(0),
            "orcl tune failed\n{}",
            dump(&out)
        );

        let conn = Db::open_read_only(&db).unwrap();
        let experiments: Vec<Experiment> = conn
            .list_experiments()
            .unwrap()
            .into_iter()
            .map(|e| {
                let evals = conn.evaluations(e.id).unwrap();
                let ok = evals.iter().filter(|v| v.status == "ok").count();
                let failed = evals
                    .iter()
                    .filter(|v| v.status != "ok" && v.status != "constraint")
                    .count();
                let sizes: serde_json::Value = serde_json::from_str(&e.input_params_json).unwrap();
                Experiment {
                    id: e.id,
                    size: format!("N={}", sizes["N"]),
                    device: conn.device(e.device_id).unwrap().unwrap().name,
                    ok,
                    failed,
                }
            })
            .collect();
        assert_eq!(experiments.len(), 2, "one experiment per input size");
        for e in &experiments {
            assert!(
                e.ok >= 3,
                "experiment {} has only {} ok variants",
                e.id,
                e.ok
            );
        }
        Fixture {
            dir,
            db,
            experiments,
        }
    })
}

fn dump(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `orcl plot ARGS... --db DB -o OUTPUT`, OUTPUT inside the fixture dir.
fn plot(db: &Path, args: &[&str], output: &str) -> (Output, PathBuf) {
    let f = fixture();
    let path = f.dir.join(output);
    let _ = std::fs::remove_file(&path);
    let out = Command::new(ORCL)
        .arg("plot")
        .args(args)
        .arg("--db")
        .arg(db)
        .arg("-o")
        .arg(&path)
        .output()
        .expect("run orcl plot");
    (out, path)
}

fn ids() -> Vec<String> {
    fixture()
        .experiments
        .iter()
        .map(|e| e.id.to_string())
        .collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The text contents of the SVG's `<text>` elements, trimmed and unescaped, with their x.
fn svg_texts(svg: &str) -> Vec<(f64, String)> {
    svg.split("<text")
        .skip(1)
        .map(|t| {
            let x = attr(t, "x")
                .and_then(|x| x.parse().ok())
                .unwrap_or(f64::NAN);
            let body = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
            let body = body
                .trim()
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&");
            (x, body)
        })
        .collect()
}

fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    Some(&tag[start..start + tag[start..].find('"')?])
}

/// `(stroke, number of points)` of every `<polyline>`.
fn polylines(svg: &str) -> Vec<(String, usize)> {
    svg.split("<polyline")
        .skip(1)
        .map(|p| {
            let tag = &p[..p.find("/>").unwrap()];
            let points = attr(tag, "points").unwrap().split_whitespace().count();
            (attr(tag, "stroke").unwrap().to_string(), points)
        })
        .collect()
}

#[test]
fn sorted_svg_has_one_line_per_experiment_and_a_legend() {
    let f = fixture();
    let ids = ids();
    let args: Vec<&str> = ids.iter().map(String::as_str).collect();
    let (out, path) = plot(&f.db, &args, "sorted.svg");
    assert_eq!(out.status.code(), Some(0), "{}", dump(&out));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.len() > 1000, "{} bytes", svg.len());
    assert!(svg.starts_with("<svg"), "{}", &svg[..100.min(svg.len())]);
    assert!(svg.trim_end().ends_with("</svg>"));

    // One polyline per series, with one point per correct variant; axes and ticks have 2
    // points, the legend swatches too.
    let lines: Vec<(String, usize)> = polylines(&svg)
        .into_iter()
        .filter(|(_, n)| *n > 2)
        .collect();
    assert_eq!(lines.len(), f.experiments.len(), "{lines:?}");
    let colours: std::collections::HashSet<&str> = lines.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(
        colours.len(),
        lines.len(),
        "the series have distinct colours: {lines:?}"
    );
    let mut points: Vec<usize> = polylines(&svg)
        .into_iter()
        .map(|(_, n)| n)
        .filter(|n| *n > 2)
        .collect();
    let mut oks: Vec<usize> = f.experiments.iter().map(|e| e.ok).collect();
    points.sort();
    oks.sort();
    assert_eq!(points, oks);

    let texts: Vec<String> = svg_texts(&svg).into_iter().map(|(_, t)| t).collect();
    for e in &f.experiments {
        let label = format!(
            "experiment {}: VecAXPY, {} on {} ({} ok, {} failed)",
            e.id, e.size, e.device, e.ok, e.failed
        );
        assert!(
            texts.contains(&label),
            "no legend label {label:?} in {texts:#?}"
        );
    }
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("VecAXPY (axpy.c): median kernel time")),
        "title: {texts:#?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("median kernel time (ms)")),
        "{texts:#?}"
    );
    assert!(
        texts.iter().any(|t| t == "variant rank (fastest first)"),
        "{texts:#?}"
    );
}

#[test]
fn png_is_a_non_blank_1200x700_image() {
    let f = fixture();
    let ids = ids();
    for (args, name) in [
        (vec![ids[0].as_str(), ids[1].as_str()], "sorted.png"),
        (vec![ids[0].as_str(), "--by", "WI"], "by-wi.png"),
    ] {
        let (out, path) = plot(&f.db, &args, name);
        assert_eq!(out.status.code(), Some(0), "{}", dump(&out));
        let png = std::fs::read(&path).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
        assert_eq!(&png[12..16], b"IHDR");
        let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        assert_eq!(
            (be(&png[16..20]), be(&png[20..24])),
            (1200, 700),
            "{name}: dimensions"
        );
        // A blank 1200×700 image compresses to a few KiB; axes, text and data take far more.
        assert!(png.len() > 15_000, "{name}: only {} bytes", png.len());
        assert!(png.windows(4).any(|w| w == b"IDAT"));
        assert!(png.ends_with(b"IEND\xae\x42\x60\x82"));
    }
}

#[test]
fn by_param_svg_labels_every_value_in_natural_order() {
    let f = fixture();
    let ids = ids();
    let (out, path) = plot(&f.db, &[&ids[0], &ids[1], "--by", "WI"], "by-wi.svg");
    assert_eq!(out.status.code(), Some(0), "{}", dump(&out));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg"));
    let texts = svg_texts(&svg);
    let x_of = |label: &str| {
        texts
            .iter()
            .find(|(_, t)| t == label)
            .map(|(x, _)| *x)
            .unwrap_or_else(|| panic!("no label {label:?} in {texts:#?}"))
    };
    assert!(x_of("16") < x_of("64"));
    assert!(texts.iter().any(|(_, t)| t == "WI"), "axis title");
    assert!(
        texts
            .iter()
            .any(|(_, t)| t.ends_with("median kernel time by WI")),
        "{texts:#?}"
    );
    for e in &f.experiments {
        let label = format!("({} ok, {} failed)", e.ok, e.failed);
        assert!(
            texts.iter().any(
                |(_, t)| t.starts_with(&format!("experiment {}:", e.id)) && t.ends_with(&label)
            ),
            "legend of experiment {}: {texts:#?}",
            e.id
        );
    }

    // Booleans: False before True, though the spec lists True first.
    let (out, path) = plot(&f.db, &[&ids[0], "--by", "CB"], "by-cb.svg");
    assert_eq!(out.status.code(), Some(0), "{}", dump(&out));
    let svg = std::fs::read_to_string(&path).unwrap();
    let texts = svg_texts(&svg);
    let x_of = |label: &str| {
        texts
            .iter()
            .find(|(_, t)| t == label)
            .map(|(x, _)| *x)
            .unwrap()
    };
    assert!(x_of("False") < x_of("True"));
}

#[test]
fn unknown_parameter_is_a_usage_error_with_a_suggestion() {
    let f = fixture();
    let ids = ids();
    let (out, path) = plot(&f.db, &[&ids[0], "--by", "WJ"], "unknown.svg");
    assert_eq!(out.status.code(), Some(2), "{}", dump(&out));
    let err = stderr(&out);
    assert!(err.contains("has no tuning parameter `WJ`"), "{err}");
    assert!(err.contains("did you mean `WI`?"), "{err}");
    assert!(err.contains("WI, CB, UI"), "{err}");
    assert!(!path.exists());
}

#[test]
fn bad_extension_is_a_usage_error() {
    let f = fixture();
    let ids = ids();
    for name in ["chart.pdf", "chart"] {
        let (out, path) = plot(&f.db, &[&ids[0]], name);
        assert_eq!(out.status.code(), Some(2), "{}", dump(&out));
        assert!(stderr(&out).contains(".svg or .png"), "{}", dump(&out));
        assert!(!path.exists());
    }
}

#[test]
fn unknown_experiment_is_a_usage_error() {
    let f = fixture();
    let (out, _) = plot(&f.db, &["999"], "none.svg");
    assert_eq!(out.status.code(), Some(2), "{}", dump(&out));
    let err = stderr(&out);
    assert!(err.contains("no experiment with id 999"), "{err}");
    let (out, _) = plot(&f.dir.join("missing.db"), &["1"], "none.svg");
    assert_eq!(out.status.code(), Some(2), "{}", dump(&out));
    assert!(
        stderr(&out).contains("no tuning database at"),
        "{}",
        dump(&out)
    );
}

#[test]
fn experiment_without_correct_variant_is_named() {
    let f = fixture();
    let path = f.dir.join("failed.db");
    let _ = std::fs::remove_file(&path);
    let db = Db::open(&path).unwrap();
    let device = db
        .upsert_device(&DeviceRow {
            backend: "opencl".into(),
            platform: "P".into(),
            name: "D".into(),
            vendor: "V".into(),
            driver_version: "1".into(),
            device_version: "OpenCL 3.0".into(),
            compute_units: 1,
            max_work_group_size: 256,
            local_mem_bytes: 1 << 16,
            global_mem_bytes: 1 << 30,
            max_clock_mhz: 1000,
            fingerprint: "fp".into(),
            properties_json: "{}".into(),
        })
        .unwrap();
    let region = db
        .upsert_region(&RegionRow {
            file: "f.c".into(),
            line: 1,
            function: "f".into(),
            loop_hash: "h".into(),
            transform_text: "".into(),
        })
        .unwrap();
    let (id, _) = db
        .open_experiment(&NewExperiment {
            identity_key: "k".into(),
            region_id: region,
            device_id: device,
            backend: "opencl".into(),
            input_params_json: r#"{"N":10}"#.into(),
            spec_hash: "s".into(),
            algorithm: "exhaustive".into(),
            search_options_json: "{}".into(),
            seed: None,
            orcl_version: "0".into(),
            host: "h".into(),
            build_command: "cc".into(),
        })
        .unwrap();
    for (key, status) in [
        ("a", "compile_error"),
        ("b", "compile_error"),
        ("c", "timeout"),
    ] {
        db.insert_evaluation(
            id,
            &EvaluationRow {
                config_key: key.into(),
                config_json: r#"{"WI":1}"#.into(),
                status: status.into(),
                ..Default::default()
            },
        )
        .unwrap();
    }
    db.finish_experiment(id, "done").unwrap();
    drop(db);
    let (out, out_path) = plot(&path, &[&id.to_string()], "failed.svg");
    assert_eq!(out.status.code(), Some(2), "{}", dump(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("experiment {id} has no correct (`ok`) evaluation")),
        "{err}"
    );
    assert!(err.contains("2 compile_error, 1 timeout"), "{err}");
    assert!(!out_path.exists());
}
