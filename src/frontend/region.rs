//! The annotated regions of a C file: each `PerfTuning` region with its parsed spec and its
//! (still unlowered) Loop annotation; reading a source file with a size limit.

use crate::annotation::{self, RawRegion};
use crate::diag::{Diagnostic, InputError, Span};
use crate::spec::{self, TuningSpec};

/// One tuned region: where it is, its spec, and its (still unlowered) Loop annotation.
#[derive(Debug, Clone)]
pub struct Region {
    /// 0-based position of the region in the file.
    pub index: usize,
    pub raw: RawRegion,
    pub spec: TuningSpec,
}

/// Parse every `PerfTuning` region of a C file's text. All diagnostics found are returned.
pub fn parse(text: &str) -> Result<Vec<Region>, Vec<Diagnostic>> {
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for r in parse_each(text)? {
        match r {
            Ok(region) => out.push(region),
            Err((_, d)) => diags.extend(d),
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

/// Every `PerfTuning` region of a C file's text on its own: a region whose spec has errors is
/// `Err((index, diagnostics))` and the others are still parsed. `Err` alone: the annotations
/// themselves cannot be paired (the whole file is refused).
#[allow(clippy::type_complexity)]
pub fn parse_each(
    text: &str,
) -> Result<Vec<Result<Region, (usize, Vec<Diagnostic>)>>, Vec<Diagnostic>> {
    parse_each_found(annotation::find_regions(text))
}

/// [`parse_each`] given what [`annotation::find_regions`] returned for the text (a caller
/// that already ran it on the same text saves the second parse of a large file).
#[allow(clippy::type_complexity)]
pub fn parse_each_found(
    found: Result<Vec<annotation::RawRegion>, Vec<Diagnostic>>,
) -> Result<Vec<Result<Region, (usize, Vec<Diagnostic>)>>, Vec<Diagnostic>> {
    let raws = found?;
    // Each region's spec as (text, file offset) chunks: those of the region it `use`s, then its own.
    let mut chunks_of: Vec<Option<Vec<(String, usize)>>> = Vec::new();
    let mut out = Vec::new();
    for (index, raw) in raws.into_iter().enumerate() {
        let chunks = spec_chunks(index, &raw, &chunks_of);
        let parsed = chunks.as_ref().map_err(|d| d.clone()).and_then(|c| {
            let refs: Vec<(&str, usize)> = c.iter().map(|(t, b)| (t.as_str(), *b)).collect();
            spec::parse_spec_chunks(&refs)
        });
        chunks_of.push(match (&parsed, chunks) {
            (Ok(_), Ok(c)) => Some(c),
            _ => None,
        });
        let mut raw = raw;
        if let Some(Some(c)) = chunks_of
            .last()
            .filter(|c| c.as_ref().is_some_and(|c| c.len() > 1))
        {
            // What identifies the region's experiments: the spec it uses, then its own.
            raw.spec_text = c
                .iter()
                .map(|(t, _)| t.as_str())
                .collect::<Vec<_>>()
                .join("\n");
        }
        out.push(match parsed {
            Ok(spec) => Ok(Region { index, raw, spec }),
            Err(d) => Err((index, d)),
        });
    }
    Ok(out)
}

/// The spec chunks of region `index`: its own text, after the texts of the region its leading
/// `use N;` names (N earlier, its spec valid). Errors: located at N.
#[allow(clippy::type_complexity)]
fn spec_chunks(
    index: usize,
    raw: &RawRegion,
    chunks_of: &[Option<Vec<(String, usize)>>],
) -> Result<Vec<(String, usize)>, Vec<Diagnostic>> {
    let base = raw.spec_span.start;
    let Some(used) = spec::leading_use(&raw.spec_text, base) else {
        return Ok(vec![(raw.spec_text.clone(), base)]);
    };
    let (k, span, after) = used.map_err(|d| vec![d])?;
    let mut chunks = match chunks_of.get(k) {
        Some(Some(c)) if k < index => c.clone(),
        Some(None) if k < index => {
            return Err(vec![Diagnostic::new(
                span,
                format!("region {k}, whose spec this region uses, has errors"),
            )
            .with_help(format!("fix region {k}'s spec first (its errors are reported above)"))])
        }
        _ => {
            return Err(vec![Diagnostic::new(
                span,
                format!("`use {k}`: region {k} is not an earlier region of this file (this is region {index})"),
            )
            .with_help("`use N;` takes the spec of region N above this one; regions are numbered from 0 in file order, as `orcl check` prints them")])
        }
    };
    chunks.push((raw.spec_text[after..].to_string(), base + after));
    Ok(chunks)
}

/// Default largest input file orcl reads (bytes): 16 MiB. `--max-input-size` raises it.
pub const DEFAULT_MAX_INPUT_SIZE: u64 = 16 << 20;

/// Why an input file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read `{path}`: {error}")]
    Io { path: String, error: std::io::Error },
    /// More than `max` bytes (only `max + 1` were read: `/dev/zero` stops too).
    #[error("`{path}` is larger than the input size limit of {max} bytes; raise the limit with `--max-input-size BYTES` if the file is meant to be this large")]
    TooLarge { path: String, max: u64 },
    /// Not UTF-8: located at the first invalid byte.
    #[error("{0}")]
    Encoding(InputError),
}

/// Read an input file of at most `max` bytes as UTF-8 text. At most `max + 1` bytes are read, so
/// an endless file (`/dev/zero`, a FIFO) stops at the limit.
pub fn read_source(path: &std::path::Path, max: u64) -> Result<String, ReadError> {
    use std::io::Read;
    let display = path.display().to_string();
    let io = |error| ReadError::Io {
        path: display.clone(),
        error,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::TooLarge { path: display, max });
    }
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let pos = e.utf8_error().valid_up_to();
            let bad = e.as_bytes().get(pos).copied().unwrap_or(0);
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            // Offsets in the lossy text match the original up to the first invalid byte.
            Err(ReadError::Encoding(InputError {
                path: display,
                source: text,
                diagnostics: vec![Diagnostic::new(
                    Span::new(pos, pos + 1),
                    format!("the file is not valid UTF-8 (byte 0x{bad:02x})"),
                )
                .with_help("save the file as UTF-8 (ASCII is fine)")],
            }))
        }
    }
}
