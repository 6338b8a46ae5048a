//! The lexer of the spec/expression language: tokens, numbers, strings, trivia (`#` comments).

use crate::diag::{Diagnostic, Span};

pub(super) const KEYWORDS: &[&str] = &[
    "and", "or", "not", "if", "else", "for", "in", "True", "False",
];

// ---------------------------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------------------------

/// A token of the spec/expression language (shared with the spec parser).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Int(i64),
    Float(f64),
    Str(String),
    Ident(String),
    Sym(&'static str),
    Eof,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub tok: Tok,
    /// Absolute span.
    pub span: Span,
    /// Offset just after the token, relative to the parser's `src`.
    pub end: usize,
}

impl Token {
    pub(crate) fn is_sym(&self, s: &str) -> bool {
        matches!(&self.tok, Tok::Sym(x) if *x == s)
    }
    pub(crate) fn is_ident(&self, s: &str) -> bool {
        matches!(&self.tok, Tok::Ident(x) if x == s)
    }
}

const SYMS: &[&str] = &[
    "**", "//", "==", "!=", "<=", ">=", "(", ")", "[", "]", "{", "}", ",", ";", "=", "+", "-", "*",
    "/", "%", "<", ">", ":",
];

/// Offset of the next token at or after `pos` (skips whitespace and `#` comments).
pub(super) fn skip_trivia(src: &str, mut pos: usize) -> usize {
    loop {
        let Some(c) = src.get(pos..).and_then(|s| s.chars().next()) else {
            return src.len();
        };
        if c.is_whitespace() {
            pos += c.len_utf8();
        } else if c == '#' {
            match src[pos..].find('\n') {
                Some(n) => pos += n,
                None => return src.len(),
            }
        } else {
            return pos;
        }
    }
}

/// Lex one token starting at relative offset `pos` (a char boundary) of `src`.
pub(crate) fn lex(src: &str, base: usize, pos: usize) -> Result<Token, Diagnostic> {
    let start = skip_trivia(src, pos);
    let abs = |s: usize, e: usize| Span::new(base + s, base + e);
    let rest = &src[start..];
    let Some(c) = rest.chars().next() else {
        return Ok(Token {
            tok: Tok::Eof,
            span: abs(start, start),
            end: start,
        });
    };
    let bytes = rest.as_bytes();
    if c.is_ascii_digit() || (c == '.' && bytes.get(1).is_some_and(|b| b.is_ascii_digit())) {
        return lex_number(src, base, start);
    }
    if c.is_ascii_alphabetic() || c == '_' {
        let n = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        return Ok(Token {
            tok: Tok::Ident(rest[..n].to_string()),
            span: abs(start, start + n),
            end: start + n,
        });
    }
    if c == '\'' || c == '"' {
        return lex_string(src, base, start, c);
    }
    for s in SYMS {
        if rest.starts_with(s) {
            let end = start + s.len();
            return Ok(Token {
                tok: Tok::Sym(s),
                span: abs(start, end),
                end,
            });
        }
    }
    let end = start + c.len_utf8();
    let mut d = Diagnostic::new(abs(start, end), format!("unexpected character `{c}`"));
    if rest.starts_with("&&") {
        d = Diagnostic::new(abs(start, start + 2), "unexpected `&&`").with_help("use `and`");
    } else if rest.starts_with("||") {
        d = Diagnostic::new(abs(start, start + 2), "unexpected `||`").with_help("use `or`");
    } else if c == '!' {
        d = d.with_help("use `not` for negation");
    }
    Err(d)
}

fn lex_number(src: &str, base: usize, start: usize) -> Result<Token, Diagnostic> {
    let b = src.as_bytes();
    let mut i = start;
    let digits = |i: &mut usize, hex: bool| {
        while *i < b.len()
            && (b[*i].is_ascii_digit() || b[*i] == b'_' || (hex && b[*i].is_ascii_hexdigit()))
        {
            *i += 1;
        }
    };
    let mut is_float = false;
    let mut hex = false;
    if b[i] == b'0' && i + 1 < b.len() && (b[i + 1] == b'x' || b[i + 1] == b'X') {
        hex = true;
        i += 2;
        digits(&mut i, true);
    } else {
        digits(&mut i, false);
        if i < b.len() && b[i] == b'.' {
            is_float = true;
            i += 1;
            digits(&mut i, false);
        }
        if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            let mut j = i + 1;
            if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
                j += 1;
            }
            if j < b.len() && b[j].is_ascii_digit() {
                is_float = true;
                i = j;
                digits(&mut i, false);
            }
        }
    }
    // A number glued to letters (`12abc`, `1e`) is one bad literal.
    let mut end = i;
    while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_') {
        end += 1;
    }
    let span = Span::new(base + start, base + end);
    let text = &src[start..end];
    let bad = || Diagnostic::new(span, format!("invalid number literal `{text}`"));
    if end != i {
        return Err(bad());
    }
    let clean: String = text.chars().filter(|c| *c != '_').collect();
    if text.ends_with('_') || text.contains("__") {
        return Err(bad());
    }
    let tok = if hex {
        let digits = &clean[2..];
        if digits.is_empty() {
            return Err(bad());
        }
        match i64::from_str_radix(digits, 16) {
            Ok(v) => Tok::Int(v),
            Err(_) => {
                return Err(Diagnostic::new(
                    span,
                    format!("integer literal `{text}` does not fit in 64 bits"),
                ))
            }
        }
    } else if is_float {
        match clean.parse::<f64>() {
            Ok(v) if v.is_finite() => Tok::Float(v),
            Ok(_) => {
                return Err(Diagnostic::new(
                    span,
                    format!("float literal `{text}` is out of range"),
                ))
            }
            Err(_) => return Err(bad()),
        }
    } else {
        match clean.parse::<i64>() {
            Ok(v) => Tok::Int(v),
            Err(_) => {
                return Err(Diagnostic::new(
                    span,
                    format!("integer literal `{text}` does not fit in 64 bits"),
                ))
            }
        }
    };
    Ok(Token { tok, span, end })
}

fn lex_string(src: &str, base: usize, start: usize, quote: char) -> Result<Token, Diagnostic> {
    let unterminated = || {
        Diagnostic::new(
            Span::new(base + start, base + start + 1),
            "unterminated string literal",
        )
        .with_help(format!("close the string with {quote}"))
    };
    let mut out = String::new();
    let mut it = src[start + 1..].char_indices();
    while let Some((k, c)) = it.next() {
        match c {
            c if c == quote => {
                let end = start + 1 + k + 1;
                return Ok(Token {
                    tok: Tok::Str(out),
                    span: Span::new(base + start, base + end),
                    end,
                });
            }
            '\n' => return Err(unterminated()),
            '\\' => match it.next() {
                None => return Err(unterminated()),
                Some((_, e)) => match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    '0' => out.push('\0'),
                    '\\' => out.push('\\'),
                    '\'' => out.push('\''),
                    '"' => out.push('"'),
                    '\n' => {}
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                },
            },
            c => out.push(c),
        }
    }
    Err(unterminated())
}
