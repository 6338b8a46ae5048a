//! Located diagnostics: byte spans into the input file, rendered as `file:line:col` with the
//! source line and a caret under the culprit (rustc style), plus an optional suggestion.

use std::fmt;

/// A half-open byte range `[start, end)` into the text of one input file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start,
            end: end.max(start),
        }
    }
    /// A span shifted by `offset` bytes (used when a sub-parser works on a slice of the file).
    pub fn shift(self, offset: usize) -> Self {
        Span {
            start: self.start + offset,
            end: self.end + offset,
        }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Self {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// One input error: what is wrong, where, and (when one exists) what would be right.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub span: Span,
    pub message: String,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            span,
            message: message.into(),
            help: None,
        }
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    /// Shift the span by `offset` bytes.
    pub fn shift(mut self, offset: usize) -> Self {
        self.span = self.span.shift(offset);
        self
    }
}

/// A set of diagnostics about one input file, with the file's name and text for rendering.
#[derive(Debug, Clone)]
pub struct InputError {
    pub path: String,
    pub source: String,
    pub diagnostics: Vec<Diagnostic>,
}

impl std::error::Error for InputError {}

/// Most diagnostics one [`InputError`] prints; the rest are counted.
pub const MAX_SHOWN: usize = 20;

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, d) in self.diagnostics.iter().take(MAX_SHOWN).enumerate() {
            if k > 0 {
                writeln!(f)?;
            }
            write!(f, "{}", render(&self.path, &self.source, d))?;
        }
        // Each rendering scans the text up to its line: a hostile file with 10^5 errors would
        // take quadratic time (and flood the terminal).
        if let Some(more) = self
            .diagnostics
            .len()
            .checked_sub(MAX_SHOWN)
            .filter(|&m| m > 0)
        {
            write!(
                f,
                "\n... and {more} more error{} (fix the ones above and check again)\n",
                if more == 1 { "" } else { "s" }
            )?;
        }
        Ok(())
    }
}

/// 1-based line and column (in characters) of byte offset `pos` in `text`.
pub fn line_col(text: &str, pos: usize) -> (usize, usize) {
    let pos = floor_char_boundary(text, pos.min(text.len()));
    let before = &text[..pos];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|p| p + 1).unwrap_or(0);
    let col = text[line_start..pos].chars().count() + 1;
    (line, col)
}

fn floor_char_boundary(text: &str, mut pos: usize) -> usize {
    while pos > 0 && !text.is_char_boundary(pos) {
        pos -= 1;
    }
    pos
}

/// Render one diagnostic:
///
/// ```text
/// error: unknown section `performnce_params`
///   --> vec.c:3:13
///    |
///  3 |         def performnce_params {
///    |             ^^^^^^^^^^^^^^^^^
///    = help: did you mean `performance_params`?
/// ```
pub fn render(path: &str, text: &str, d: &Diagnostic) -> String {
    // The input's control characters never reach the terminal (issue 15 F15): escaped in the
    // message, path and help; in the source line one U+FFFD each keeps the caret aligned.
    let path = &escape_controls(path);
    let d = &Diagnostic {
        span: d.span,
        message: escape_controls(&d.message),
        help: d.help.as_deref().map(escape_controls),
    };
    let start = floor_char_boundary(text, d.span.start.min(text.len()));
    let (line, col) = line_col(text, start);
    let line_start = text[..start].rfind('\n').map(|p| p + 1).unwrap_or(0);
    let line_end = text[start..]
        .find('\n')
        .map(|p| start + p)
        .unwrap_or(text.len());
    let src_line = text[line_start..line_end]
        .trim_end_matches('\r')
        .replace('\t', " ")
        .chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect::<String>();
    let end = floor_char_boundary(text, d.span.end.min(line_end).max(start));
    let width = text[start..end].chars().count().max(1);
    let num = line.to_string();
    let pad = " ".repeat(num.len());
    let mut out = format!(
        "error: {}\n{pad}--> {path}:{line}:{col}\n{pad} |\n",
        d.message
    );
    out.push_str(&format!("{num} | {src_line}\n"));
    out.push_str(&format!(
        "{pad} | {}{}\n",
        " ".repeat(col - 1),
        "^".repeat(width)
    ));
    if let Some(h) = &d.help {
        out.push_str(&format!("{pad} = help: {h}\n"));
    }
    out
}

/// Render a warning in one line: `warning: PATH:LINE:COL: MESSAGE`.
pub fn render_warning(path: &str, text: &str, d: &Diagnostic) -> String {
    let start = floor_char_boundary(text, d.span.start.min(text.len()));
    let (line, col) = line_col(text, start);
    format!(
        "warning: {}:{line}:{col}: {}",
        escape_controls(path),
        escape_controls(&d.message)
    )
}

/// `s` with every control character except newline written as a `\u{..}` escape, so text taken
/// from an input file cannot move the cursor or retitle the terminal (issue 15 F15).
pub fn escape_controls(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() && c != '\n' {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// The candidate closest to `word` by edit distance, if it is close enough to be a plausible typo
/// (distance at most a third of the word's length, at least 1), or differs only in case.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = if c.eq_ignore_ascii_case(word) {
            0
        } else {
            strsim::levenshtein(word, c)
        };
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    // A one-letter name is too short for an edit-distance guess to mean anything.
    let len = word.chars().count();
    let limit = if len < 2 { 0 } else { (len / 3).max(1) };
    best.filter(|(d, _)| *d <= limit).map(|(_, c)| c)
}

/// "did you mean `x`?" for the closest candidate, if any.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    suggest(word, candidates).map(|c| format!("did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_caret_under_span() {
        let text = "int x;\n  def foo {\n";
        let d = Diagnostic::new(Span::new(13, 16), "unknown section `foo`")
            .with_help("did you mean `build`?");
        let r = render("a.c", text, &d);
        assert!(r.contains("--> a.c:2:7"), "{r}");
        assert!(r.contains("2 |   def foo {"), "{r}");
        assert!(r.contains("  |       ^^^\n"), "{r}");
        assert!(r.contains("help: did you mean `build`?"), "{r}");
    }

    #[test]
    fn suggestions() {
        assert_eq!(
            suggest("workItemPerGroup", ["workGroups", "workItemsPerGroup"]),
            Some("workItemsPerGroup")
        );
        assert_eq!(suggest("zzz", ["workGroups"]), None);
        assert_eq!(suggest("true", ["True", "False"]), Some("True"));
    }
}
