//! C macros in the text orcl analyses: a table of `#define`s (as `cc -dM -E` prints them, or as
//! written in the file) and the file's text with every macro use expanded, keeping a map from
//! the expanded text back to the original, so that diagnostics point at the macro use and the
//! tuned file keeps the user's macros where they were.
//!
//! Expansion follows C11 §6.10.3 (object- and function-like macros, `#`, `##`, `__VA_ARGS__`,
//! rescanning with a per-token hide set as in Prosser's algorithm, ANSI X3J11/86-196). It runs on
//! C code outside comments, string literals and directive lines, and on the code of each `Loop`
//! annotation (which is inside a comment). Outside the Loop code, an object-like macro whose body
//! is an integer constant (`#define NC 23`) stays as written, so an array's row length sized by it
//! is still passed to the kernel at run time and the tuned file follows a later `-DNC=...`. Each expansion keeps the number of newlines of the use
//! it replaces, so line numbers are the same in both texts. Running the preprocessor is the
//! caller's business (this crate never starts a process).

use crate::diag::{Diagnostic, InputError, Span};
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};

/// One `#define`.
#[derive(Debug, Clone, PartialEq)]
pub struct Macro {
    pub name: String,
    /// `None`: object-like. `Some(params)`: function-like (`...` is the last, as `__VA_ARGS__`).
    pub params: Option<Vec<String>>,
    pub body: String,
}

/// The macros visible to the file's regions, by name.
#[derive(Debug, Clone, Default)]
pub struct MacroTable {
    pub macros: BTreeMap<String, Macro>,
}

impl MacroTable {
    /// Read `#define NAME[(params)] body` lines (`cc -dM -E` output, or a file's own directives;
    /// `\`-continued lines joined); `#undef NAME` removes. Other lines are ignored.
    pub fn parse(text: &str) -> MacroTable {
        let mut t = MacroTable::default();
        let joined = text.replace("\\\r\n", " ").replace("\\\n", " ");
        for line in joined.lines() {
            let l = line.trim_start();
            let Some(rest) = l.strip_prefix('#') else {
                continue;
            };
            let rest = rest.trim_start();
            if let Some(u) = rest.strip_prefix("undef") {
                t.macros.remove(u.trim());
                continue;
            }
            let Some(def) = rest.strip_prefix("define") else {
                continue;
            };
            if !def.starts_with([' ', '\t']) {
                continue;
            }
            if let Some(m) = parse_define(def.trim_start()) {
                t.macros.insert(m.name.clone(), m);
            }
        }
        t
    }

    /// Add `-D NAME[=VALUE]` (`NAME` alone is `1`, as cc does) and `-D NAME(a)=BODY`.
    pub fn define(&mut self, d: &str) {
        let (head, body) = d.split_once('=').unwrap_or((d, "1"));
        if let Some(m) = parse_define(&format!("{head} {body}")) {
            self.macros.insert(m.name.clone(), m);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.macros.is_empty()
    }
}

/// `NAME body` or `NAME(a, b) body` (no space before `(`).
fn parse_define(def: &str) -> Option<Macro> {
    let end = def
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(def.len());
    let name = &def[..end];
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let rest = &def[end..];
    if let Some(p) = rest.strip_prefix('(') {
        let close = p.find(')')?;
        let params: Vec<String> = p[..close]
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        return Some(Macro {
            name: name.to_string(),
            params: Some(params),
            body: p[close + 1..].trim().to_string(),
        });
    }
    Some(Macro {
        name: name.to_string(),
        params: None,
        body: rest.trim().to_string(),
    })
}

/// A preprocessing token: its text, whether white space preceded it, and the macros it may no
/// longer expand (its hide set).
#[derive(Debug, Clone, PartialEq)]
struct Tok {
    text: String,
    space: bool,
    hide: BTreeSet<HideName>,
}

/// A macro name in a hide set: shared, so copying a hide set onto each token of an expansion
/// copies pointers, not strings (a deep chain copies millions of names, [`MAX_HIDE_WORK`]).
type HideName = std::rc::Rc<str>;

impl Tok {
    fn is_ident(&self) -> bool {
        self.text
            .starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
    }
}

const PUNCT3: &[&str] = &["<<=", ">>=", "..."];
const PUNCT2: &[&str] = &[
    "##", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=",
    "%=", "&=", "|=", "^=",
];

/// Split C text into preprocessing tokens (C11 §6.4: identifiers, pp-numbers, character and
/// string literals, punctuators).
fn lex(s: &str) -> Vec<Tok> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut space = false;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            space = true;
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i += 1;
            while i < b.len() {
                let d = b[i];
                let sign =
                    (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                if !(sign || d.is_ascii_alphanumeric() || d == b'_' || d == b'.') {
                    break;
                }
                i += 1;
            }
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            // An escape before a multi-byte character must not leave `i` inside it.
            while !s.is_char_boundary(i) {
                i += 1;
            }
        } else if let Some(p) = PUNCT3
            .iter()
            .chain(PUNCT2)
            .find(|p| s[i..].starts_with(**p))
        {
            i += p.len();
        } else {
            i += s[i..].chars().next().map_or(1, char::len_utf8);
        }
        out.push(Tok {
            text: s[start..i].to_string(),
            space,
            hide: BTreeSet::new(),
        });
        space = false;
    }
    out
}

/// Why a macro use could not be expanded.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpandError {
    pub name: String,
    pub message: String,
}

/// Guard against runaway expansions (each use may produce at most this many tokens).
const MAX_TOKENS: usize = 1 << 16;

/// The hide-set names the uses of one file may copy onto the tokens of their expansions, all
/// together (issue 25, G6). Each nesting level of a macro chain adds a name to the hide set of
/// every token it makes (Prosser's algorithm, as implemented here with explicit sets), so a chain
/// of depth d costs about d²: 20,000 function-like macros each calling the previous took minutes.
/// Real uses copy a few thousand; the use that goes past this budget is a located error, and the
/// file's later uses are not expanded. (A budget per use let each of many deep uses take 2 s:
/// found by `make fuzz-long`.)
pub const MAX_HIDE_WORK: u64 = 10_000_000;

impl MacroTable {
    /// Expand every macro use of `toks` (C11 §6.10.3.4 rescanning).
    /// `work` counts the hide-set names copied, against [`MAX_HIDE_WORK`].
    fn expand(&self, mut input: Vec<Tok>, work: &Cell<u64>) -> Result<Vec<Tok>, ExpandError> {
        input.reverse(); // a stack: the next token is the last
        let mut out = Vec::new();
        while let Some(t) = input.pop() {
            if out.len() + input.len() > MAX_TOKENS {
                return Err(ExpandError {
                    name: t.text.clone(),
                    message: "expands to more than 65536 tokens".into(),
                });
            }
            let m = match self.macros.get(&t.text) {
                Some(m) if t.is_ident() && !t.hide.contains(t.text.as_str()) => m,
                _ => {
                    out.push(t);
                    continue;
                }
            };
            let mut hide = t.hide.clone();
            hide.insert(HideName::from(m.name.as_str()));
            let body = match &m.params {
                None => self.substitute(m, &[], &hide, work)?,
                Some(_) => {
                    if input.last().is_none_or(|n| n.text != "(") {
                        out.push(t);
                        continue;
                    }
                    input.pop();
                    let args = take_args(&mut input, &m.name)?;
                    self.substitute(m, &args, &hide, work)?
                }
            };
            let mut body = body;
            if let Some(first) = body.first_mut() {
                first.space = t.space;
            }
            input.extend(body.into_iter().rev());
        }
        Ok(out)
    }

    /// The body of `m` with its parameters replaced by `args` (fully expanded unless next to
    /// `#`/`##`), `#` stringified and `##` pasted; every token gets `hide`.
    fn substitute(
        &self,
        m: &Macro,
        args: &[Vec<Tok>],
        hide: &BTreeSet<HideName>,
        work: &Cell<u64>,
    ) -> Result<Vec<Tok>, ExpandError> {
        let params = m.params.clone().unwrap_or_default();
        let variadic = params.last().is_some_and(|p| p == "...");
        let fixed = params.len() - usize::from(variadic);
        let given = if args.len() == 1 && args[0].is_empty() && fixed == 0 {
            0
        } else {
            args.len()
        };
        if m.params.is_some() && (given < fixed || (!variadic && given > fixed)) {
            return Err(ExpandError {
                name: m.name.clone(),
                message: format!(
                    "macro `{}` takes {fixed} argument{}, {given} given",
                    m.name,
                    if fixed == 1 { "" } else { "s" }
                ),
            });
        }
        let arg_of = |name: &str| -> Option<Vec<Tok>> {
            if variadic && name == "__VA_ARGS__" {
                let mut v = Vec::new();
                for (k, a) in args.iter().enumerate().skip(fixed) {
                    if k > fixed {
                        v.push(Tok {
                            text: ",".into(),
                            space: false,
                            hide: BTreeSet::new(),
                        });
                    }
                    v.extend(a.iter().cloned());
                }
                return Some(v);
            }
            let k = params[..fixed].iter().position(|p| p == name)?;
            Some(args.get(k).cloned().unwrap_or_default())
        };
        let body = lex(&m.body);
        let mut out: Vec<Tok> = Vec::new();
        let mut k = 0;
        while k < body.len() {
            let t = &body[k];
            let pasted_before = out
                .last()
                .is_some_and(|_| k > 0 && body[k - 1].text == "##");
            let paste_after = body.get(k + 1).is_some_and(|n| n.text == "##");
            if t.text == "#" && m.params.is_some() {
                if let Some(a) = body.get(k + 1).and_then(|n| arg_of(&n.text)) {
                    out.push(Tok {
                        text: stringify(&a),
                        space: t.space,
                        hide: BTreeSet::new(),
                    });
                    k += 2;
                    continue;
                }
            }
            if t.text == "##" {
                k += 1;
                continue;
            }
            let mut piece = match arg_of(&t.text) {
                Some(a) if pasted_before || paste_after => a,
                Some(a) => self.expand(a, work)?,
                None => vec![t.clone()],
            };
            if let Some(f) = piece.first_mut() {
                f.space = t.space;
            }
            if pasted_before && !piece.is_empty() {
                if let Some(prev) = out.last_mut() {
                    let first = piece.remove(0);
                    prev.text.push_str(&first.text);
                }
            }
            out.extend(piece);
            k += 1;
        }
        work.set(work.get() + (out.len() * hide.len()) as u64);
        if work.get() > MAX_HIDE_WORK {
            return Err(ExpandError {
                name: m.name.clone(),
                message: format!(
                    "too large to expand: its macros nest {} deep, and the file's macro expansions copied more than {MAX_HIDE_WORK} hide-set names (C11 §6.10.3.4 rescanning)",
                    hide.len()
                ),
            });
        }
        for t in &mut out {
            if t.hide.is_empty() {
                // A body token: a copy of the set (no comparisons), not a union.
                t.hide = hide.clone();
            } else {
                t.hide.extend(hide.iter().cloned());
            }
        }
        Ok(out)
    }
}

/// The arguments of a function-like macro use, after its `(`: split at top-level commas, up to
/// the matching `)` (consumed).
fn take_args(input: &mut Vec<Tok>, name: &str) -> Result<Vec<Vec<Tok>>, ExpandError> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    while let Some(t) = input.pop() {
        match t.text.as_str() {
            ")" if depth == 0 => return Ok(args),
            "," if depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            "(" => depth += 1,
            ")" => depth -= 1,
            _ => {}
        }
        args.last_mut().expect("one").push(t);
    }
    Err(ExpandError {
        name: name.to_string(),
        message: format!("unterminated argument list of macro `{name}`: no `)`"),
    })
}

/// `#arg`: the argument's spelling as a string literal (C11 §6.10.3.2).
fn stringify(a: &[Tok]) -> String {
    let mut s = String::new();
    for (k, t) in a.iter().enumerate() {
        if k > 0 && t.space {
            s.push(' ');
        }
        s.push_str(&t.text.replace('\\', "\\\\").replace('"', "\\\""));
    }
    format!("\"{s}\"")
}

/// Tokens back to text: a space where the source had one, or where two tokens would otherwise
/// lex as one.
fn spell(toks: &[Tok]) -> String {
    let mut s = String::new();
    for t in toks {
        let glue = s.chars().last().is_some_and(|p| joins(p, &t.text));
        if !s.is_empty() && (t.space || glue) {
            s.push(' ');
        }
        s.push_str(&t.text);
    }
    s
}

/// Would `prev` followed by `next` lex differently than apart?
fn joins(prev: char, next: &str) -> bool {
    let Some(n) = next.chars().next() else {
        return false;
    };
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    (word(prev) && word(n)) || ("+-*/%&|^<>=!#:.".contains(prev) && "+-*/&|<>=#:.".contains(n))
}

/// One macro use replaced in the expanded text.
#[derive(Debug, Clone, PartialEq)]
struct Piece {
    /// The use in the original text (name to closing `)`).
    orig: Span,
    /// Its expansion in the expanded text.
    exp: Span,
    name: String,
}

/// A file's text as written and as orcl analyses it (macros expanded), with the map between.
#[derive(Debug, Clone, Default)]
pub struct Source {
    /// The file as written (the tuned file is this text, edited).
    pub original: String,
    /// With every macro use expanded (what the front end parses).
    pub text: String,
    pieces: Vec<Piece>,
}

impl Source {
    /// A file without macros: both texts the same.
    pub fn plain(text: &str) -> Source {
        Source {
            original: text.to_string(),
            text: text.to_string(),
            pieces: Vec::new(),
        }
    }

    /// Expand the macros of `table` in `text`: in code outside comments, string literals and
    /// directive lines, and inside `code_ranges` (the Loop annotations' code, which is in
    /// comments). Errors: a use that cannot be expanded, located at the use, naming the macro.
    pub fn expand(
        text: &str,
        table: &MacroTable,
        code_ranges: &[Span],
    ) -> Result<Source, Vec<Diagnostic>> {
        let mut src = Source::plain(text);
        if table.is_empty() {
            return Ok(src);
        }
        let uses = find_uses(text, table, code_ranges);
        let mut out = String::with_capacity(text.len());
        let mut diags = Vec::new();
        let mut at = 0;
        let work = Cell::new(0);
        for u in uses {
            if work.get() > MAX_HIDE_WORK {
                break; // the use that spent the budget is reported; the rest are not expanded
            }
            let use_text = &text[u.start..u.end];
            let name_end = use_text
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(use_text.len());
            let name = &use_text[..name_end];
            match table.expand(lex(use_text), &work) {
                Ok(toks) => {
                    out.push_str(&text[at..u.start]);
                    let mut exp = spell(&toks);
                    if out.chars().last().is_some_and(|p| joins(p, &exp)) {
                        out.push(' ');
                    }
                    if text[u.end..].chars().next().is_some_and(|n| {
                        exp.chars()
                            .last()
                            .is_some_and(|p| joins(p, &n.to_string()))
                    }) {
                        exp.push(' ');
                    }
                    exp.push_str(&"\n".repeat(use_text.matches('\n').count()));
                    let start = out.len();
                    out.push_str(&exp);
                    src.pieces.push(Piece {
                        orig: u,
                        exp: Span::new(start, out.len()),
                        name: name.to_string(),
                    });
                    at = u.end;
                }
                Err(e) => diags.push(
                    Diagnostic::new(
                        u,
                        format!("macro `{name}` does not expand: {}", e.message),
                    )
                    .with_help(format!(
                        "check the definition and this use of `{}` (orcl expands the file's macros as `cc -E` would)",
                        e.name
                    )),
                ),
            }
        }
        if !diags.is_empty() {
            return Err(diags);
        }
        out.push_str(&text[at..]);
        src.text = out;
        Ok(src)
    }

    /// The original span of `span` of the expanded text: a span inside an expansion becomes the
    /// whole macro use.
    pub fn to_original(&self, span: Span) -> Span {
        Span::new(self.map(span.start, false), self.map(span.end, true))
    }

    /// The original text of an expanded span.
    pub fn original_of(&self, span: Span) -> &str {
        let s = self.to_original(span);
        self.original.get(s.start..s.end).unwrap_or("")
    }

    fn map(&self, pos: usize, end: bool) -> usize {
        let mut delta: isize = 0;
        for p in &self.pieces {
            if end {
                if pos <= p.exp.start {
                    break;
                }
                if pos <= p.exp.end {
                    return p.orig.end;
                }
            } else {
                if pos < p.exp.start {
                    break;
                }
                if pos < p.exp.end {
                    return p.orig.start;
                }
            }
            delta = p.orig.end as isize - p.exp.end as isize;
        }
        (pos as isize + delta).max(0) as usize
    }

    /// The macro whose expansion holds `span`, if one does.
    fn macro_at(&self, span: Span) -> Option<&str> {
        self.pieces
            .iter()
            .find(|p| span.start >= p.exp.start && span.start < p.exp.end.max(p.exp.start + 1))
            .map(|p| p.name.as_str())
    }

    /// `d` located in the original text; inside a macro expansion it points at the use and says
    /// which macro.
    pub fn diagnostic(&self, mut d: Diagnostic) -> Diagnostic {
        if let Some(m) = self.macro_at(d.span) {
            d.message = format!("{} (in the expansion of macro `{m}`)", d.message);
        }
        d.span = self.to_original(d.span);
        d
    }

    /// An error about the expanded text as one about the original file.
    pub fn remap(&self, mut e: InputError) -> InputError {
        if self.pieces.is_empty() || e.source != self.text {
            return e;
        }
        e.diagnostics = e
            .diagnostics
            .into_iter()
            .map(|d| self.diagnostic(d))
            .collect();
        e.source = self.original.clone();
        e
    }

    /// The macros used in `span` of the expanded text that expanded to an integer constant, as
    /// (name, expansion), each once, in order: values baked into a kernel.
    pub fn constants_in(&self, span: Span) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for p in &self.pieces {
            let exp = self.text[p.exp.start..p.exp.end].trim();
            if p.exp.start >= span.start
                && p.exp.end <= span.end
                && is_number(exp)
                && !out.iter().any(|(n, _)| *n == p.name)
            {
                out.push((p.name.clone(), exp.to_string()));
            }
        }
        out
    }

    /// Did any macro expand?
    pub fn expanded(&self) -> bool {
        !self.pieces.is_empty()
    }
}

/// The spans of the macro uses of `text` in code (outside comments, literals and directive
/// lines) and in `code_ranges`: an object-like macro's name, or a function-like macro's name
/// with its parenthesised arguments.
fn find_uses(text: &str, table: &MacroTable, code_ranges: &[Span]) -> Vec<Span> {
    let b = text.as_bytes();
    let mut uses = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    let in_code = |p: usize| code_ranges.iter().any(|r| p >= r.start && p < r.end);
    while i < b.len() {
        let c = b[i];
        let code = in_code(i);
        if !code {
            if c == b'/' && b.get(i + 1) == Some(&b'*') {
                // Skip to the comment's end, stopping at a Loop code range inside it.
                let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 4 + e);
                let next_code = code_ranges
                    .iter()
                    .filter(|r| r.start > i && r.start < end)
                    .map(|r| r.start)
                    .min();
                i = next_code.unwrap_or(end);
                line_start = false;
                continue;
            }
            if c == b'/' && b.get(i + 1) == Some(&b'/') {
                i = text[i..].find('\n').map_or(b.len(), |e| i + e);
                continue;
            }
            if line_start && c == b'#' {
                // A directive line, with its continuations.
                while i < b.len() && !(b[i] == b'\n' && b[i - 1] != b'\\') {
                    i += 1;
                }
                continue;
            }
        }
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        line_start = false;
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            continue;
        }
        if !(c.is_ascii_alphabetic() || c == b'_') {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        let Some(m) = table.macros.get(&text[start..i]) else {
            continue;
        };
        if m.params.is_none() && !code && is_number(&m.body) {
            // Outside the Loop code a constant stays as written: an array's row length `NC`
            // is passed to the kernel at run time, so the tuned file follows `-DNC=...`.
            continue;
        }
        if m.params.is_none() {
            uses.push(Span::new(start, i));
            continue;
        }
        let limit = code_ranges
            .iter()
            .find(|r| start >= r.start && start < r.end)
            .map_or(b.len(), |r| r.end);
        let mut j = i;
        while j < limit && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if j >= limit || b[j] != b'(' {
            continue;
        }
        match close_paren(text, j, limit) {
            Some(e) => {
                uses.push(Span::new(start, e));
                i = e;
            }
            None => uses.push(Span::new(start, limit)),
        }
    }
    uses
}

/// Is `body` an integer constant (digits, `uUlL` suffixes, parentheses, `+ - * / %`)?
fn is_number(body: &str) -> bool {
    !body.trim().is_empty()
        && body.chars().any(|c| c.is_ascii_digit())
        && body
            .chars()
            .all(|c| c.is_ascii_digit() || c.is_ascii_whitespace() || "()+-*/%uUlLxX".contains(c))
}

/// The end (after the `)`) of the parenthesised list opening at `open`, before `limit`.
fn close_paren(text: &str, open: usize, limit: usize) -> Option<usize> {
    let mut depth = 0;
    for (k, c) in text[open..limit].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + k + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Is `name` spelled like a macro (capitals, digits and `_`, with a capital or a leading `_`)?
pub fn looks_like_macro(name: &str) -> bool {
    name.chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && (name.starts_with('_') || name.chars().any(|c| c.is_ascii_uppercase()))
}

/// The help for an unknown name spelled like a macro.
pub fn undefined_help(name: &str) -> String {
    format!("if `{name}` is a macro, it is not defined where orcl looked: orcl expands the macros of the file and of the headers it includes (`cc -E`); pass the header's directory with `-I DIR`, or define it with `-D {name}=VALUE`")
}

#[cfg(test)]
mod tests;
