//! The layering of orcl, checked (issue 21). The pipeline is a workspace of crates in one order;
//! inside each crate, its top-level modules are in one order too. A crate may depend only on the
//! crates before it (Cargo makes the crate graph acyclic; this test keeps it in the written
//! order), and a module may use only itself and the modules before it in its crate: an import
//! from a later stage (`crate::later::...`, `super::later` at the top level, or an item of the
//! crate root used by a module) is an error naming the file and line. ARCHITECTURE.md must name
//! every crate and every top-level module.
//!
//! [`PIPELINE`] is the one place the order is written (ARCHITECTURE.md shows the same order).

use std::path::{Path, PathBuf};

/// The crates in pipeline order: (package name, directory, its top-level modules in order).
const PIPELINE: &[(&str, &str, &[&str])] = &[
    (
        "orcl-frontend",
        "src/frontend",
        &[
            "diag",
            "macros",
            "ir",
            "expr",
            "spec",
            "annotation",
            "region",
            "loop_lang",
            "space",
            "preamble",
            "lower",
            "analysis",
            "inputs",
            "bounds",
        ],
    ),
    (
        "orcl-codegen",
        "src/codegen",
        &[
            "target",
            "args",
            "templates",
            "schedule",
            "kernel_ir",
            "generate",
            "opencl",
            "cuda",
            "host",
            "skeleton",
        ],
    ),
    (
        "orcl-search",
        "src/search",
        &[
            "options",
            "strategy",
            "grid",
            "adaptive",
            "exhaustive",
            "random",
            "nelder_mead",
            "annealing",
            "genetic",
            "bayes",
            "invariants",
        ],
    ),
    (
        "orcl-measure",
        "src/measure",
        &[
            "interrupt",
            "device",
            "energy",
            "clbuild",
            "nvrtc",
            "build_server",
            "pool",
            "skeleton",
            "slurm",
            "worker",
        ],
    ),
    (
        "orcl",
        "src",
        &[
            "outfile",
            "db",
            "dbcli",
            "interchange",
            "plot",
            "replay",
            "compat",
            "prepare",
            "tune",
            "rewrite",
            "compare",
            "cli",
        ],
    ),
];

/// Names a module may take from its crate root: the `#[macro_export]` macros (they live at the
/// root by the language's rule) and the root's re-exports of earlier crates.
const ROOT_ALLOWED: &[&str] = &[
    "outln",
    "out",
    "errln",
    "errout",
    "frontend",
    "codegen",
    "measure",
    "search",
    "schedule",
    "analysis",
    "bounds",
    "diag",
    "inputs",
    "ir",
    "lower",
    "preamble",
    "space",
    "device",
    "interrupt",
];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Source text with comments, string and character literals blanked (lines kept).
fn strip(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let blank = |out: &mut String, s: &[u8]| {
        for &c in s {
            out.push(if c == b'\n' { '\n' } else { ' ' });
        }
    };
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(b"/*") {
            let end = src[i + 2..].find("*/").map_or(rest.len(), |e| e + 4);
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(b"r#\"") || rest.starts_with(b"r\"") {
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            let close = format!("\"{}", "#".repeat(hashes));
            let open = 2 + hashes;
            let end = src[i + open..]
                .find(&close)
                .map_or(rest.len(), |e| open + e + close.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'\'' && rest.len() > 2 && (rest[2] == b'\'' || rest[1] == b'\\') {
            // A character literal ('a', '\n', '\''); a lifetime ('a) is left as it is.
            let end = rest[1..]
                .iter()
                .skip(if rest[1] == b'\\' { 2 } else { 1 })
                .position(|&c| c == b'\'')
                .map_or(1, |p| p + 2 + usize::from(rest[1] == b'\\') + 1);
            blank(&mut out, &rest[..end.min(rest.len())]);
            i += end.min(rest.len());
        } else {
            let ch = src[i..].chars().next().expect("in bounds");
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// The module path of a source file inside its crate (`[]` for the crate root).
fn module_path(crate_dir: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(crate_dir).expect("file inside its crate");
    let mut parts: Vec<String> = rel
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        parts.clear();
    }
    parts
}

/// Every path a source names that starts at `crate::` or climbs with `super::`, resolved to
/// absolute module paths of the crate: (line, path segments). Inline modules (`mod tests { .. }`)
/// are followed, so `super::` inside them resolves from the inline module.
fn crate_paths(src: &str, file_module: &[String]) -> Vec<(usize, Vec<String>)> {
    let text = strip(src);
    let mut out = Vec::new();
    // Inline modules opened so far: (brace depth at which they close, name).
    let mut inline: Vec<(i64, String)> = Vec::new();
    let mut depth: i64 = 0;
    for (n, line) in text.lines().enumerate() {
        let mut here: Vec<String> = file_module.to_vec();
        here.extend(inline.iter().map(|(_, m)| m.clone()));
        collect_line(line, &here, n + 1, &mut out);
        let t = line.trim_start();
        let t = t.strip_prefix("pub ").unwrap_or(t);
        if let Some(rest) = t.strip_prefix("mod ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if rest[name.len()..].trim_start().starts_with('{') {
                inline.push((depth, name));
            }
        }
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if inline.last().is_some_and(|(d, _)| *d == depth) {
                        inline.pop();
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// The `crate::`/`super::` paths of one stripped line, with `use a::{b, c::d}` groups expanded to
/// their first segments.
fn collect_line(line: &str, here: &[String], n: usize, out: &mut Vec<(usize, Vec<String>)>) {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < line.len() {
        let at_word = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        let rest = &line[i..];
        let start = if !at_word || (i > 0 && bytes[i - 1] == b':') {
            None
        } else if rest.starts_with("crate::") {
            Some((Vec::new(), "crate::".len()))
        } else if rest.starts_with("super::") {
            let mut base = here.to_vec();
            let mut k = 0;
            while line[i + k..].starts_with("super::") {
                base.pop();
                k += "super::".len();
            }
            Some((base, k))
        } else {
            None
        };
        let Some((base, skip)) = start else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        i += skip;
        let tail = &line[i..];
        if tail.starts_with('{') {
            let inner = &tail[1..tail.find('}').unwrap_or(tail.len())];
            for item in inner.split(',') {
                let mut p = base.clone();
                p.extend(
                    item.trim()
                        .split("::")
                        .map(first_segment)
                        .take_while(|s| !s.is_empty()),
                );
                if p.len() > base.len() {
                    out.push((n, p));
                }
            }
        } else {
            let mut p = base;
            for seg in tail.split("::") {
                let s = first_segment(seg);
                if s.is_empty() {
                    break;
                }
                p.push(s.clone());
                if s.len() != seg.len() {
                    break;
                }
            }
            out.push((n, p));
        }
    }
}

fn first_segment(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The layering errors of one file of a crate whose modules are `order`.
fn file_violations(order: &[&str], module: &[String], src: &str, label: &str) -> Vec<String> {
    let rank = |m: &str| order.iter().position(|o| *o == m);
    let mut out = Vec::new();
    let Some(own) = module.first() else {
        return out; // the crate root declares and re-exports the modules
    };
    let own_rank = rank(own).unwrap_or(usize::MAX);
    for (line, path) in crate_paths(src, module) {
        let Some(first) = path.first() else { continue };
        if first == own || first == "self" || first == "*" || first.is_empty() {
            continue;
        }
        match rank(first) {
            Some(r) if r <= own_rank => {}
            Some(_) => out.push(format!(
                "{label}:{line}: `{own}` uses `{}`, a later stage of its crate",
                path.join("::")
            )),
            None if ROOT_ALLOWED.contains(&first.as_str()) => {}
            None => out.push(format!(
                "{label}:{line}: `{own}` uses `{}` from its crate root; give it a module in the order",
                path.join("::")
            )),
        }
    }
    out
}

fn rust_files(dir: &Path, skip: &[PathBuf], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if skip.contains(&p) {
            continue;
        }
        if p.is_dir() {
            rust_files(&p, skip, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level modules a crate root declares (`pub mod x;` / `mod x;`), in order.
fn declared_modules(root_src: &str) -> Vec<String> {
    strip(root_src)
        .lines()
        .filter_map(|l| {
            let t = l.trim();
            let t = t.strip_prefix("pub ").unwrap_or(t);
            let name = t.strip_prefix("mod ")?.strip_suffix(';')?;
            Some(name.trim().to_string())
        })
        .collect()
}

#[test]
fn crates_depend_only_on_earlier_crates() {
    let names: Vec<&str> = PIPELINE.iter().map(|c| c.0).collect();
    for (k, (name, dir, _)) in PIPELINE.iter().enumerate() {
        let manifest = if *dir == "src" {
            repo().join("Cargo.toml")
        } else {
            repo().join(dir).join("Cargo.toml")
        };
        let toml = std::fs::read_to_string(manifest).expect("Cargo.toml readable");
        let deps = dependency_section(&toml);
        for other in names.iter().filter(|o| **o != *name && **o != "orcl") {
            let pos = names.iter().position(|n| n == other).expect("listed");
            let uses = deps.iter().any(|d| d == other);
            assert!(
                !uses || pos < k,
                "{name} depends on {other}, which comes later in the pipeline"
            );
        }
    }
}

/// The package names under `[dependencies]` of a Cargo.toml.
fn dependency_section(toml: &str) -> Vec<String> {
    let mut on = false;
    let mut out = Vec::new();
    for l in toml.lines() {
        let t = l.trim();
        if t.starts_with('[') {
            on = t == "[dependencies]";
            continue;
        }
        if on {
            if let Some((k, _)) = t.split_once(['=', '.']) {
                out.push(k.trim().to_string());
            }
        }
    }
    out
}

#[test]
fn modules_use_only_earlier_modules_of_their_crate() {
    let mut errors = Vec::new();
    let crate_dirs: Vec<PathBuf> = PIPELINE
        .iter()
        .filter(|c| c.1 != "src")
        .map(|c| repo().join(c.1))
        .collect();
    for (name, dir, order) in PIPELINE {
        let dir = repo().join(dir);
        let root = dir.join("lib.rs");
        let declared = declared_modules(&std::fs::read_to_string(&root).expect("crate root"));
        assert_eq!(
            declared,
            order.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            "{name}: the modules its root declares, in order, must be the ones tests/layers.rs lists"
        );
        let skip: Vec<PathBuf> = if *name == "orcl" {
            crate_dirs.clone()
        } else {
            Vec::new()
        };
        let mut files = Vec::new();
        rust_files(&dir, &skip, &mut files);
        files.sort();
        for f in files {
            if f.file_name().is_some_and(|n| n == "main.rs") {
                continue;
            }
            let src = std::fs::read_to_string(&f).expect("source readable");
            let label = f.strip_prefix(repo()).unwrap_or(&f).display().to_string();
            errors.extend(file_violations(order, &module_path(&dir, &f), &src, &label));
        }
    }
    assert!(
        errors.is_empty(),
        "imports from a later stage:\n{}",
        errors.join("\n")
    );
}

#[test]
fn architecture_names_every_crate_and_module() {
    let doc = std::fs::read_to_string(repo().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut missing = Vec::new();
    for (name, _, order) in PIPELINE {
        if !doc.contains(&format!("`{name}`")) {
            missing.push(name.to_string());
        }
        for m in *order {
            if !doc.contains(&format!("`{m}`")) {
                missing.push(format!("{name}::{m}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not name: {}",
        missing.join(", ")
    );
}

/// The check itself can fail: an upward import planted in a module of the front end, an item of
/// a crate root used by a module, and `super::` climbing to a later module are each reported;
/// the same imports pointing downward are not.
#[test]
fn a_planted_upward_import_is_reported() {
    let order = PIPELINE[0].2;
    let ir = vec!["ir".to_string()];
    let planted = "use crate::lower::lower;\nfn f() { crate::analysis::perfect_nest(k); }\n";
    let v = file_violations(order, &ir, planted, "ir.rs");
    assert_eq!(v.len(), 2, "{v:?}");
    assert!(
        v[0].starts_with("ir.rs:1: `ir` uses `lower::lower`"),
        "{v:?}"
    );
    let grouped = "use crate::{diag::Span, bounds::check};\n";
    let v = file_violations(order, &ir, grouped, "ir.rs");
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(v[0].contains("bounds::check"), "{v:?}");
    let nested = vec!["ir".to_string(), "c".to_string()];
    let v = file_violations(order, &nested, "use super::super::lower::x;\n", "c.rs");
    assert_eq!(v.len(), 1, "{v:?}");
    let root_item = file_violations(order, &ir, "use super::parse;\n", "ir.rs");
    assert_eq!(root_item.len(), 1, "{root_item:?}");
    let fine = "use crate::diag::Span;\nuse super::ir::Loop;\nmod tests {\n    use super::helper;\n}\n// crate::lower in a comment\nconst S: &str = \"crate::bounds\";\n";
    assert!(file_violations(order, &ir, fine, "ir.rs").is_empty());
}
