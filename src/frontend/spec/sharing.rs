//! Spec sharing: a `PerfTuning` spec that begins with `use N;` takes the sections and `let`s of
//! region N (an earlier region of the same file, 0-based as `orcl check` numbers them) and
//! overrides those it defines itself: a `def SECTION { ... }` replaces that whole section, a
//! `let NAME = ...;` that binding. Spans stay in the file: each kept item is parsed where it is
//! written.

use super::parser::SpecParser;
use super::TuningSpec;
use crate::diag::{Diagnostic, Span};
use crate::expr::{Parser, Tok};
use std::collections::{HashMap, HashSet};

/// A spec's leading `use N;`: (N, its span, the offset just after the `;`, relative to `src`).
pub fn leading_use(src: &str, base: usize) -> Option<Result<(usize, Span, usize), Diagnostic>> {
    let mut p = Parser::new(src, base);
    let t = p.peek().ok()?;
    if !t.is_ident("use") {
        return None;
    }
    let _ = p.bump();
    let n = match p.bump() {
        Ok(t) => t,
        Err(d) => return Some(Err(d)),
    };
    let index = match n.tok {
        Tok::Int(v) if v >= 0 => v as usize,
        _ => {
            return Some(Err(Diagnostic::new(
                n.span,
                "expected the index of an earlier region after `use` (`use 0;`)",
            )
            .with_help(
                "regions are numbered from 0 in file order, as `orcl check` prints them",
            )))
        }
    };
    if let Err(d) = p.expect_sym(";", "`;` after `use N`") {
        return Some(Err(d));
    }
    Some(Ok((index, n.span, p.pos())))
}

/// Top-level items of a spec chunk: (`def:NAME` or `let:NAME`, start, end), relative offsets.
/// `None` when the chunk does not lex (its errors are then reported by parsing it whole).
fn top_items(src: &str, base: usize) -> Option<Vec<(String, usize, usize)>> {
    let mut p = Parser::new(src, base);
    let mut items = Vec::new();
    loop {
        let t = p.peek().ok()?;
        if t.tok == Tok::Eof {
            return Some(items);
        }
        let start = t.span.start - base;
        let key = match (t.is_ident("def"), t.is_ident("let")) {
            (true, _) => "def",
            (_, true) => "let",
            _ => {
                p.bump().ok()?;
                continue;
            }
        };
        p.bump().ok()?;
        let name = p.bump().ok()?;
        let Tok::Ident(n) = name.tok else {
            return None;
        };
        let mut depth = 0usize;
        loop {
            let t = p.bump().ok()?;
            if t.tok == Tok::Eof {
                return None;
            }
            if t.is_sym("{") || t.is_sym("(") || t.is_sym("[") {
                depth += 1;
            } else if t.is_sym("}") || t.is_sym(")") || t.is_sym("]") {
                depth = depth.checked_sub(1)?;
                if depth == 0 && key == "def" && t.is_sym("}") {
                    break;
                }
            } else if depth == 0 && key == "let" && t.is_sym(";") {
                break;
            }
        }
        items.push((format!("{key}:{n}"), start, p.pos()));
    }
}

/// The pieces of a spec made of `chunks` (text, file offset; the used regions' first, the
/// region's own last): from each chunk, the items no later chunk defines.
fn pieces<'a>(chunks: &[(&'a str, usize)]) -> Vec<(&'a str, usize)> {
    let mut out = Vec::new();
    let mut later: HashSet<String> = HashSet::new();
    let mut per_chunk = Vec::new();
    for &(src, base) in chunks.iter().rev() {
        let items = top_items(src, base);
        let kept: Vec<(&'a str, usize)> = match &items {
            Some(items) => items
                .iter()
                .filter(|(k, _, _)| !later.contains(k))
                .map(|(_, s, e)| (&src[*s..*e], base + s))
                .collect(),
            None => vec![(src, base)],
        };
        if let Some(items) = items {
            later.extend(items.into_iter().map(|(k, _, _)| k));
        }
        per_chunk.push(kept);
    }
    for kept in per_chunk.into_iter().rev() {
        out.extend(kept);
    }
    out
}

/// Parse a shared spec: `chunks` as in [`pieces`]; the spec's span is the last chunk's.
pub fn parse_spec_chunks(chunks: &[(&str, usize)]) -> Result<TuningSpec, Vec<Diagnostic>> {
    let Some(&(last, last_base)) = chunks.last() else {
        return super::parse_spec("", 0);
    };
    let pieces = pieces(chunks);
    let mut sp = SpecParser {
        p: Parser::new("", last_base),
        diags: Vec::new(),
        lets: Vec::new(),
        params: Vec::new(),
        args: Vec::new(),
        names: Vec::new(),
        name_index: HashMap::new(),
        broken: HashSet::new(),
        spec: TuningSpec {
            span: Span::new(last_base, last_base + last.len()),
            ..TuningSpec::default()
        },
    };
    for (src, base) in pieces {
        sp.p = Parser::new(src, base);
        sp.parse();
    }
    sp.finish();
    if sp.diags.is_empty() {
        Ok(sp.spec)
    } else {
        sp.diags.sort_by_key(|d| d.span.start);
        Err(sp.diags)
    }
}
