//! Rendering with plotters: SVG or PNG (embedded font), plot area, layers, legend.

use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

use anyhow::{anyhow, bail, Context};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{Axis, Labels};
use super::chart::{Chart, Layer, LayerKind, MARKERS_UP_TO};
use super::{FONT, FONT_BYTES, GREY, SIZE, TEXT};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    Svg,
    Png,
}

impl Format {
    pub(super) fn of(output: &Path) -> anyhow::Result<Format> {
        let ext = output
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ext.as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            Some(other) => bail!(
                "cannot write `.{other}` charts ({}): the output must end in .svg or .png",
                output.display()
            ),
            None => bail!(
                "output {} has no extension: it must end in .svg or .png",
                output.display()
            ),
        }
    }
}

/// Registers the embedded font once; plotters measures (SVG) and draws (PNG) text with it.
pub(crate) fn register_font() -> anyhow::Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES).is_ok()
    });
    if ok {
        Ok(())
    } else {
        bail!("the embedded font assets/DejaVuSans.ttf is not a valid font")
    }
}

pub(super) fn render(chart: &Chart, format: Format, output: &Path) -> anyhow::Result<()> {
    register_font()?;
    let result = match format {
        Format::Svg => draw(SVGBackend::new(output, SIZE).into_drawing_area(), chart),
        Format::Png => draw(BitMapBackend::new(output, SIZE).into_drawing_area(), chart),
    };
    result.with_context(|| format!("cannot write {}", output.display()))
}

/// Width of `text` in pixels at `size` in the embedded font (0 if it cannot be measured).
fn text_width(text: &str, size: u32) -> u32 {
    let font: FontDesc = (FONT, size).into_font();
    font.box_size(text).map(|(w, _)| w).unwrap_or(0)
}

fn err<E: fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("{e}")
}

/// Height of the legend strip below the plot area.
fn legend_height(rows: usize) -> u32 {
    16 + 26 * rows as u32
}

fn darker(c: RGBColor) -> RGBColor {
    RGBColor(
        (f64::from(c.0) * 0.62) as u8,
        (f64::from(c.1) * 0.62) as u8,
        (f64::from(c.2) * 0.62) as u8,
    )
}

pub(super) fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    chart: &Chart,
) -> anyhow::Result<()> {
    root.fill(&WHITE).map_err(err)?;
    let (_, height) = root.dim_in_pixel();
    let legend_h = legend_height(chart.layers.len()).min(height / 2);
    let (top, bottom) = root.split_vertically(height - legend_h);
    // Category labels that would collide are turned 90°, in a taller label area.
    let (width, _) = top.dim_in_pixel();
    let widest = match &chart.x.labels {
        Labels::Categories(c) => c.iter().map(|l| text_width(l, 15)).max().unwrap_or(0),
        _ => 0,
    };
    let rotate = match &chart.x.labels {
        Labels::Categories(c) => widest + 12 > width.saturating_sub(140) / c.len().max(1) as u32,
        _ => false,
    };
    let x_label_area = if rotate {
        (widest + 46).min(height / 3)
    } else {
        52
    };
    let mut cc = ChartBuilder::on(&top)
        .caption(&chart.title, (FONT, 22).into_font().color(&TEXT))
        .margin_top(12)
        .margin_left(16)
        .margin_right(28)
        .margin_bottom(4)
        .x_label_area_size(x_label_area)
        .y_label_area_size(86)
        .build_cartesian_2d(Fixed::from(&chart.x), Fixed::from(&chart.y))
        .map_err(err)?;
    let x_fmt = |v: &f64| chart.x.label(*v);
    let y_fmt = |v: &f64| chart.y.label(*v);
    let mut mesh = cc.configure_mesh();
    mesh.x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .x_desc(chart.x.desc.as_str())
        .y_desc(chart.y.desc.as_str())
        .label_style((FONT, 15).into_font().color(&TEXT))
        .axis_desc_style((FONT, 17).into_font().color(&TEXT))
        .bold_line_style(RGBColor(0xD4, 0xD4, 0xD4))
        .light_line_style(RGBColor(0xEE, 0xEE, 0xEE))
        .axis_style(GREY);
    // plotters centres every x label on its tick, also a turned one: draw those ourselves.
    let blank = |_: &f64| String::new();
    if rotate {
        mesh.x_label_formatter(&blank);
    }
    if let Labels::Categories(c) = &chart.x.labels {
        mesh.disable_x_mesh();
        mesh.draw().map_err(err)?;
        // Light separators between categories instead of grid lines through the boxes.
        let sep = RGBColor(0xE4, 0xE4, 0xE4);
        cc.draw_series((1..c.len()).map(|i| {
            let x = i as f64 - 0.5;
            PathElement::new(vec![(x, chart.y.lo), (x, chart.y.hi)], sep)
        }))
        .map_err(err)?;
        if rotate {
            let style = (FONT, 15)
                .into_font()
                .color(&TEXT)
                .transform(FontTransform::Rotate270)
                .pos(Pos::new(HPos::Right, VPos::Center));
            for (i, label) in c.iter().enumerate() {
                let (px, py) = cc.backend_coord(&(i as f64, chart.y.lo));
                top.draw(&Text::new(label.clone(), (px, py + 10), style.clone()))
                    .map_err(err)?;
            }
        }
    } else {
        mesh.draw().map_err(err)?;
    }
    for layer in &chart.layers {
        draw_layer(&mut cc, layer)?;
    }
    for (x, y, text) in &chart.notes {
        let style = (FONT, 13)
            .into_font()
            .color(&GREY)
            .pos(Pos::new(HPos::Center, VPos::Bottom));
        cc.draw_series(std::iter::once(Text::new(text.clone(), (*x, *y), style)))
            .map_err(err)?;
    }
    draw_legend(&bottom, chart, cc.plotting_area().get_pixel_range().0.start)?;
    root.present().map_err(err)?;
    Ok(())
}

/// A linear f64 axis whose tick marks and grid lines are exactly the [`Axis`]'s (plotters' own
/// key-point choice is replaced; its label formatter is ours too).
#[derive(Debug, Clone)]
struct Fixed {
    lo: f64,
    hi: f64,
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl From<&Axis> for Fixed {
    fn from(a: &Axis) -> Fixed {
        Fixed {
            lo: a.lo,
            hi: a.hi,
            bold: a.ticks.clone(),
            light: a.light.clone(),
        }
    }
}

impl Ranged for Fixed {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        if self.hi == self.lo {
            return (limit.0 + limit.1) / 2;
        }
        let share = ((v - self.lo) / (self.hi - self.lo)).clamp(-10.0, 10.0);
        limit.0 + (f64::from(limit.1 - limit.0) * share).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

type Coords = Cartesian2d<Fixed, Fixed>;

fn draw_layer<DB: DrawingBackend>(
    cc: &mut ChartContext<'_, DB, Coords>,
    layer: &Layer,
) -> anyhow::Result<()> {
    let color = layer.color;
    match &layer.kind {
        LayerKind::Line(points) => {
            cc.draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                .map_err(err)?;
            if points.len() <= MARKERS_UP_TO {
                cc.draw_series(points.iter().map(|p| Circle::new(*p, 4, color.filled())))
                    .map_err(err)?;
            }
        }
        LayerKind::Boxes {
            boxes,
            half,
            points,
        } => {
            // Order: a faint box, the points, then the box's lines on top of them.
            let dark = darker(color);
            let line = dark.stroke_width(2);
            cc.draw_series(boxes.iter().map(|(x, s)| {
                Rectangle::new(
                    [(x - half, s.q1), (x + half, s.q3)],
                    color.mix(0.12).filled(),
                )
            }))
            .map_err(err)?;
            let per_box = points.len() / boxes.len().max(1);
            let (radius, alpha) = match per_box {
                0..=40 => (4, 0.75),
                41..=300 => (3, 0.5),
                _ => (2, 0.4),
            };
            cc.draw_series(
                points
                    .iter()
                    .map(|p| Circle::new(*p, radius, color.mix(alpha).filled())),
            )
            .map_err(err)?;
            for (x, s) in boxes {
                let (l, r) = (x - half, x + half);
                let cap = half * 0.5;
                // Closed paths, not stroked Rectangles: the SVG backend ignores a rectangle's
                // stroke width.
                let shapes = [
                    PathElement::new(
                        vec![(l, s.q1), (r, s.q1), (r, s.q3), (l, s.q3), (l, s.q1)],
                        line,
                    ),
                    PathElement::new(vec![(*x, s.q3), (*x, s.max)], line),
                    PathElement::new(vec![(*x, s.q1), (*x, s.min)], line),
                    PathElement::new(vec![(x - cap, s.max), (x + cap, s.max)], line),
                    PathElement::new(vec![(x - cap, s.min), (x + cap, s.min)], line),
                    PathElement::new(vec![(l, s.median), (r, s.median)], dark.stroke_width(4)),
                ];
                cc.draw_series(shapes).map_err(err)?;
            }
        }
    }
    Ok(())
}

/// One row per layer: a swatch of its colour and its label, left-aligned with the plot area.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &Chart,
    left: i32,
) -> anyhow::Result<()> {
    let style = (FONT, 15)
        .into_font()
        .color(&TEXT)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, layer) in chart.layers.iter().enumerate() {
        let y = 8 + 13 + 26 * i as i32;
        match layer.kind {
            LayerKind::Line(_) => {
                area.draw(&PathElement::new(
                    vec![(left, y), (left + 34, y)],
                    layer.color.stroke_width(3),
                ))
                .map_err(err)?;
            }
            LayerKind::Boxes { .. } => {
                area.draw(&Rectangle::new(
                    [(left + 8, y - 8), (left + 26, y + 8)],
                    layer.color.mix(0.45).filled(),
                ))
                .map_err(err)?;
                let (l, r, t, b) = (left + 8, left + 26, y - 8, y + 8);
                area.draw(&PathElement::new(
                    vec![(l, t), (r, t), (r, b), (l, b), (l, t)],
                    darker(layer.color).stroke_width(2),
                ))
                .map_err(err)?;
            }
        }
        area.draw(&Text::new(
            layer.label.clone(),
            (left + 44, y),
            style.clone(),
        ))
        .map_err(err)?;
    }
    Ok(())
}
