//! The text tree-sitter parses: the file with what no caller reads from the tree blanked.

use std::borrow::Cow;

/// `text` with its comments (all, or all but the annotations `/*@ ... */` when
/// `keep_annotations`) and its `#define` directives (with their `\`-continued lines) replaced by
/// spaces, newlines kept: every byte offset, line and column is the same, so the tree's spans
/// index `text`. Comments are whitespace to C and no declaration is in a `#define`, but both cost
/// tree-sitter out of proportion (issue 25, G6): 16 MiB of `/**/` made 4M comment nodes (1.07
/// GB), and 20,000 malformed `#define X(` lines sent its error recovery superlinear (a minute).
/// A directive containing `/*`, `*/` or `//` is not blanked (a comment may start in it and run
/// on past its line); its comments are blanked as any other. Lexing follows C11 §5.1.1.2 and
/// §6.4.9 as far as comments, literals and directive lines go. Borrowed when nothing is blanked.
pub fn parse_text(text: &str, keep_annotations: bool) -> Cow<'_, str> {
    let b = text.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut blank = |from: usize, to: usize| {
        let o = out.get_or_insert_with(|| b.to_vec());
        for c in &mut o[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..].find("*/").map_or(b.len(), |k| i + 2 + k + 2);
                if !(keep_annotations && text[i..].starts_with("/*@")) {
                    blank(i, end);
                }
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let start = i;
                while i < b.len() && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = i.min(b.len());
                blank(start, i);
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                line_start = false;
            }
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b'#' if line_start => {
                let end = directive_end(b, i);
                let d = &text[i..end];
                if is_define(d) && !d.contains("/*") && !d.contains("*/") && !d.contains("//") {
                    blank(i, end);
                    i = end;
                } else {
                    i += 1;
                }
                line_start = false;
            }
            c => {
                line_start &= c.is_ascii_whitespace();
                i += 1;
            }
        }
    }
    match out {
        // Only whole ASCII-or-multibyte runs were replaced by ASCII spaces: still UTF-8.
        Some(o) => Cow::Owned(String::from_utf8(o).unwrap_or_else(|_| text.to_string())),
        None => Cow::Borrowed(text),
    }
}

/// The end (at its final newline, or the text's end) of the directive starting at `start`: its
/// line and each line that the previous one's final `\` (before an optional `\r`) continues.
fn directive_end(b: &[u8], start: usize) -> usize {
    let mut k = start;
    loop {
        let e = b[k..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |e| k + e);
        let line = &b[k..e];
        if !line.strip_suffix(b"\r").unwrap_or(line).ends_with(b"\\") || e >= b.len() {
            return e;
        }
        k = e + 1;
    }
}

/// Is the directive `d` (from its `#`) a `#define`?
fn is_define(d: &str) -> bool {
    let r = d[1..].trim_start_matches([' ', '\t']);
    r.strip_prefix("define")
        .is_some_and(|x| x.is_empty() || x.starts_with([' ', '\t', '\r', '\n']))
}

#[cfg(test)]
mod tests {
    use super::parse_text;

    #[test]
    fn comments_and_defines_become_spaces_offsets_kept() {
        let t = "#define X(\n#define Y 1 \\\n  + 2\nint a; /* c */ // d\n/*@ begin Loop @*/\n#include \"h\"\n";
        let p = parse_text(t, true);
        assert_eq!(p.len(), t.len());
        assert_eq!(p.lines().count(), t.lines().count());
        assert!(!p.contains("define") && !p.contains("/* c */") && !p.contains("// d"));
        assert!(p.contains("int a;") && p.contains("/*@ begin Loop @*/") && p.contains("#include"));
        assert!(!parse_text(t, false).contains("/*@"));
        // A comment opened in a directive runs past its line: the directive stays.
        let t2 = "#define Z 1 /* x\n#define W */\nint b;\n";
        assert!(parse_text(t2, true).starts_with("#define Z 1 "));
        let u = parse_text("int é; /* é */", true);
        assert_eq!((u.len(), u.trim_end()), ("int é; /* é */".len(), "int é;"));
    }
}
