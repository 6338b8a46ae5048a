//! Tests of the data, axes, charts and rendering.

use super::axis::*;
use super::chart::*;
use super::data::*;
use super::render::*;
use super::*;
use plotters::prelude::*;
use serde_json::Value;

/// A configuration and its time (`None`: failed).
type Row<'a> = (Vec<(&'a str, Value)>, Option<f64>);

fn series(id: i64, evals: Vec<Row<'_>>) -> Series {
    let evals: Vec<Eval> = evals
        .into_iter()
        .map(|(c, ms)| Eval {
            config: Ordered(c.into_iter().map(|(k, v)| (k.to_string(), v)).collect()),
            ms,
            time_ms: ms,
            // A made-up energy falling with time (mJ), for the Pareto chart.
            energy_mj: ms.map(|t| 10.0 / t + (t * 7.0) % 3.0),
        })
        .collect();
    let params = evals[0].config.0.iter().map(|(k, _)| k.clone()).collect();
    Series {
        id,
        region: "f (f.c)".into(),
        label: format!("experiment {id}"),
        evals,
        params,
    }
}

#[test]
fn ordered_keeps_document_order() {
    let o = Ordered::parse(r#"{"WI":1,"CB":true,"A":"x"}"#, "t").unwrap();
    let keys: Vec<&str> = o.0.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["WI", "CB", "A"]);
    assert!(Ordered::parse("[1]", "t").is_err());
}

#[test]
fn natural_order() {
    let mut v: Vec<Value> =
        serde_json::from_str(r#"["b", 10, true, 2, "", false, 2.5, "a"]"#).unwrap();
    v.sort_by(natural_cmp);
    let labels: Vec<String> = v.iter().map(value_label).collect();
    assert_eq!(
        labels,
        [
            "False",
            "True",
            "2",
            "2.5",
            "10",
            "'' (empty)",
            "'a'",
            "'b'"
        ]
    );
}

#[test]
fn quartiles() {
    let s = Summary::of(&[1.0, 2.0, 3.0, 4.0, 5.0]);
    assert_eq!(
        s,
        Summary {
            min: 1.0,
            q1: 2.0,
            median: 3.0,
            q3: 4.0,
            max: 5.0
        }
    );
    let s = Summary::of(&[1.0, 2.0, 3.0, 4.0]);
    assert_eq!((s.q1, s.median, s.q3), (1.75, 2.5, 3.25));
    let s = Summary::of(&[7.0]);
    assert_eq!(
        (s.min, s.q1, s.median, s.q3, s.max),
        (7.0, 7.0, 7.0, 7.0, 7.0)
    );
}

#[test]
fn jitter_is_bounded_and_deterministic() {
    for k in 0..1000 {
        assert!((-0.5..0.5).contains(&jitter(k)));
        assert_eq!(jitter(k), jitter(k));
    }
}

#[test]
fn ticks() {
    let (t, step) = nice_ticks(0.0, 1.0, 8);
    assert_eq!(step, 0.2);
    assert_eq!(t, [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
    assert_eq!(decimals(step), 1);
    assert_eq!(decimals(5.0), 0);
    assert_eq!(decimals(0.05), 2);
    let (bold, light) = log_ticks(-1.7, 0.4, 2.0); // 0.02 .. 2.5
    let labels: Vec<String> = bold
        .iter()
        .map(|v| {
            Axis {
                lo: 0.0,
                hi: 0.0,
                ticks: vec![],
                light: vec![],
                desc: String::new(),
                labels: Labels::Log10,
            }
            .label(*v)
        })
        .collect();
    assert_eq!(labels, ["0.02", "0.05", "0.1", "0.2", "0.5", "1", "2"]);
    assert!(light.len() > bold.len());
}

#[test]
fn log_scale_only_when_wide() {
    let (_, log) = Axis::time([1.0, 15.0].into_iter());
    assert!(!log);
    let (a, log) = Axis::time([1.0, 25.0].into_iter());
    assert!(log);
    assert!(a.desc.starts_with(Y_LABEL));
}

#[test]
fn format_by_extension() {
    assert_eq!(Format::of(Path::new("a.svg")).unwrap(), Format::Svg);
    assert_eq!(Format::of(Path::new("a.PNG")).unwrap(), Format::Png);
    assert!(Format::of(Path::new("a.pdf")).is_err());
    assert!(Format::of(Path::new("a")).is_err());
}

#[test]
fn unknown_parameter_suggests() {
    let s = series(
        3,
        vec![(vec![("WI", 1.into()), ("CB", true.into())], Some(1.0))],
    );
    let e = Chart::by_param(&[s], "WJ").unwrap_err().to_string();
    assert!(
        e.contains("experiment 3 has no tuning parameter `WJ`"),
        "{e}"
    );
    assert!(e.contains("did you mean `WI`?"), "{e}");
    assert!(e.contains("WI, CB"), "{e}");
}

#[test]
fn by_param_categories_and_boxes() {
    let s = series(
        1,
        vec![
            (vec![("WI", 64.into())], Some(2.0)),
            (vec![("WI", 8.into())], Some(1.0)),
            (vec![("WI", 64.into())], Some(4.0)),
            (vec![("WI", 16.into())], None),
        ],
    );
    let c = Chart::by_param(&[s], "WI").unwrap();
    match &c.x.labels {
        Labels::Categories(l) => assert_eq!(l, &["8", "16", "64"]),
        other => panic!("{other:?}"),
    }
    assert_eq!(c.notes.len(), 1, "WI=16 has no ok evaluation");
    match &c.layers[0].kind {
        LayerKind::Boxes { boxes, points, .. } => {
            assert_eq!(points.len(), 3);
            assert_eq!(boxes.len(), 2);
            assert_eq!((boxes[1].0.round(), boxes[1].1.median), (2.0, 3.0));
        }
        other => panic!("{other:?}"),
    }
}

/// Draws into an in-memory bitmap and checks that it is not blank and that text was drawn.
#[test]
fn bitmap_is_drawn_with_text() {
    register_font().unwrap();
    let s = series(
        1,
        (1..=100)
            .map(|i| (vec![("WI", (i % 4).into())], Some(f64::from(i) * 0.37)))
            .collect(),
    );
    for chart in [
        Chart::sorted(std::slice::from_ref(&s)),
        Chart::by_param(&[s], "WI").unwrap(),
    ] {
        let mut buf = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
        draw(
            BitMapBackend::with_buffer(&mut buf, SIZE).into_drawing_area(),
            &chart,
        )
        .unwrap();
        let px = |x: u32, y: u32| {
            let i = ((y * SIZE.0 + x) * 3) as usize;
            (buf[i], buf[i + 1], buf[i + 2])
        };
        let non_white = (0..SIZE.1)
            .flat_map(|y| (0..SIZE.0).map(move |x| (x, y)))
            .filter(|&(x, y)| px(x, y) != (255, 255, 255))
            .count();
        assert!(non_white > 5_000, "{non_white} non-white pixels");
        // The title: dark pixels in the top band.
        let dark_title = (0..40)
            .flat_map(|y| (0..SIZE.0).map(move |x| (x, y)))
            .filter(|&(x, y)| px(x, y).0 < 100)
            .count();
        assert!(
            dark_title > 200,
            "{dark_title} dark pixels in the title band"
        );
    }
}

/// Degenerate data still draws: one variant, identical times, many crowded categories.
#[test]
fn degenerate_charts_draw() {
    register_font().unwrap();
    let one = series(1, vec![(vec![("WI", 1.into())], Some(0.5))]);
    let same = series(
        2,
        (0..5)
            .map(|i| (vec![("WI", i.into())], Some(2.0)))
            .collect(),
    );
    let crowded = series(
        3,
        (0..200)
            .map(|i| {
                let flag = Value::String(format!("-cl-option-number-{}", i % 40));
                (vec![("CL", flag)], Some(1.0 + f64::from(i)))
            })
            .collect(),
    );
    let charts = [
        Chart::sorted(std::slice::from_ref(&one)),
        Chart::by_param(std::slice::from_ref(&one), "WI").unwrap(),
        Chart::sorted(std::slice::from_ref(&same)),
        Chart::by_param(&[same], "WI").unwrap(),
        Chart::by_param(&[crowded], "CL").unwrap(),
    ];
    let sorted_one = &charts[0];
    assert_eq!(sorted_one.x.ticks, [1.0], "whole ranks only");
    for chart in &charts {
        let mut buf = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
        draw(
            BitMapBackend::with_buffer(&mut buf, SIZE).into_drawing_area(),
            chart,
        )
        .unwrap();
    }
}

/// The Pareto chart: one point per variant with energy, and a line through exactly the
/// non-dominated ones (checked against the definition), fastest first.
#[test]
fn pareto_chart_joins_the_non_dominated_points() {
    let rows: Vec<Row> = (1..=12)
        .map(|i| (vec![("A", Value::from(i))], Some(i as f64 * 0.37)))
        .collect();
    let s = series(1, rows);
    let c = Chart::pareto(std::slice::from_ref(&s));
    let pts: Vec<(f64, f64)> = s
        .evals
        .iter()
        .map(|e| (e.time_ms.unwrap(), e.energy_mj.unwrap()))
        .collect();
    let LayerKind::Boxes { points, .. } = &c.layers[0].kind else {
        panic!("points first");
    };
    assert_eq!(points.len(), pts.len());
    let LayerKind::Line(front) = &c.layers[1].kind else {
        panic!("then the front");
    };
    let dominated = |p: &(f64, f64)| {
        pts.iter()
            .any(|q| q.0 <= p.0 && q.1 <= p.1 && (q.0 < p.0 || q.1 < p.1))
    };
    let want: Vec<(f64, f64)> = pts.iter().filter(|p| !dominated(p)).copied().collect();
    assert!(want.len() >= 2 && want.len() < pts.len(), "{want:?}");
    assert_eq!(front.len(), want.len());
    assert!(front.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 > w[1].1));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.svg");
    render(&c, Format::Svg, &out).unwrap();
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.contains("energy per call (mJ)") && svg.contains("Pareto front"));
}
