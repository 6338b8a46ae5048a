//! The C preprocessor's view of an input file: its macros (from `cc -dM -E`, which follows the
//! file's `#include`s, `#if`s, `-D` and `-I`) expanded in the text orcl analyses
//! (`orcl_frontend::macros`). The file itself is never rewritten outside its regions.

use orcl_frontend::annotation::RawRegion;
use orcl_frontend::diag::{Diagnostic, InputError, Span};
use orcl_frontend::macros::{MacroTable, Source};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Preprocessor options of `orcl tune/check/emit/compare`: `-D NAME[=VALUE]`, `-I DIR`.
#[derive(Debug, Clone, Default)]
pub struct CppOptions {
    pub defines: Vec<String>,
    pub includes: Vec<PathBuf>,
}

/// The preprocessor run (`cc`, or `$ORCL_CPP`), at most this long.
pub const CPP_TIMEOUT: Duration = Duration::from_secs(60);

/// Does `text` have a preprocessor directive line?
fn has_directives(text: &str) -> bool {
    text.lines().any(|l| l.trim_start().starts_with('#'))
}

/// The macros visible at the end of `path` (its text `text`) with `opts`: `cc -dM -E` run
/// directly (no shell), bounded by [`CPP_TIMEOUT`]. When the preprocessor cannot run or fails
/// (a header not found), the file's own `#define`s and `-D`s, with one warning line.
pub fn macro_table(path: &Path, text: &str, opts: &CppOptions) -> MacroTable {
    let cc = std::env::var("ORCL_CPP").unwrap_or_else(|_| "cc".to_string());
    let mut cmd = std::process::Command::new(&cc);
    // `-fmax-errors=1` (gcc's; clang's driver lists it and does not fail on it): only the first
    // error is shown, and gcc locates each error by rereading the file, so 20,000 bad
    // `#define X(` lines cost it 17 s when all were reported (issue 25, G6).
    cmd.args(["-dM", "-E", "-fmax-errors=1", "-x", "c"]);
    for d in &opts.defines {
        cmd.arg(format!("-D{d}"));
    }
    for i in &opts.includes {
        cmd.arg("-I").arg(i);
    }
    cmd.arg(path);
    let shown = format!("{cc} -dM -E {}", path.display());
    let why = match orcl_measure::skeleton::run_bounded(cmd, &shown, CPP_TIMEOUT, "60 s") {
        Ok(out) if out.status.success() => {
            return MacroTable::parse(&String::from_utf8_lossy(&out.stdout));
        }
        Ok(out) => String::from_utf8_lossy(&out.stderr)
            .lines()
            .find(|l| l.contains("error"))
            .unwrap_or("it failed")
            .to_string(),
        Err(e) => e.to_string(),
    };
    orcl_frontend::errln!(
        "warning: {}: the C preprocessor (`{shown}`) failed: {}; only the file's own #defines and -D are expanded (pass -I DIR for its headers)",
        orcl_frontend::diag::escape_controls(&path.display().to_string()),
        orcl_frontend::diag::escape_controls(why.trim())
    );
    let mut t = MacroTable::parse(text);
    for d in &opts.defines {
        t.define(d);
    }
    t
}

/// `text` (the contents of `path`, shown as `shown`) as orcl analyses it: macros expanded in
/// code and in the Loop annotations' code. A file without directives and without `-D`/`-I` is
/// not preprocessed. Errors: a macro use that does not expand (located at the use).
pub fn preprocess(
    path: &Path,
    shown: &str,
    text: &str,
    opts: &CppOptions,
) -> Result<Source, InputError> {
    preprocess_found(path, shown, text, opts).map(|(src, _)| src)
}

/// What [`orcl_frontend::annotation::find_regions`] returned for a text.
pub type Found = Result<Vec<RawRegion>, Vec<Diagnostic>>;

/// [`preprocess`], and the regions it found on the text as written when the expanded text is
/// that same text (no macro use changed it), for [`crate::prepare::prepare_found`]: a large file
/// is then parsed once, not twice.
pub fn preprocess_found(
    path: &Path,
    shown: &str,
    text: &str,
    opts: &CppOptions,
) -> Result<(Source, Option<Found>), InputError> {
    if !has_directives(text) && opts.defines.is_empty() && opts.includes.is_empty() {
        return Ok((Source::plain(text), None));
    }
    let table = macro_table(path, text, opts);
    // The Loop annotations' code is in comments: find it on the text as written (an
    // annotation error is reported by `prepare` on the expanded text, at the same place).
    let found = orcl_frontend::annotation::find_regions(text);
    let code: Vec<Span> = found
        .as_ref()
        .map(|rs| rs.iter().map(|r| r.loop_ann.code_span).collect())
        .unwrap_or_default();
    let src =
        Source::expand(text, &table, &code).map_err(|diagnostics: Vec<Diagnostic>| InputError {
            path: shown.to_string(),
            source: text.to_string(),
            diagnostics,
        })?;
    let same = src.text == text;
    Ok((src, same.then_some(found)))
}
