//! Front end: finds the annotated regions of a C file and parses their tuning specs and loops.

pub mod annotation;
pub mod expr;
pub mod loop_lang;
pub mod spec;

use crate::diag::{Diagnostic, InputError, Span};
use annotation::RawRegion;
use spec::TuningSpec;

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
    let raws = annotation::find_regions(text)?;
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for (index, raw) in raws.into_iter().enumerate() {
        match spec::parse_spec(&raw.spec_text, raw.spec_span.start) {
            Ok(spec) => out.push(Region { index, raw, spec }),
            Err(d) => diags.extend(d),
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

/// Why an input file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read `{path}`: {error}")]
    Io { path: String, error: std::io::Error },
    /// Not UTF-8: located at the first invalid byte.
    #[error("{0}")]
    Encoding(InputError),
}

/// Read an input file as UTF-8 text.
pub fn read_source(path: &std::path::Path) -> Result<String, ReadError> {
    let display = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|error| ReadError::Io {
        path: display.clone(),
        error,
    })?;
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
