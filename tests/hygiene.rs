//! Hygiene of generated code (issue 22 item 9): every identifier orcl declares in the tuned file's
//! host code and in the timing skeletons is in orcl's namespace (`orcl_`), so a user's variable
//! can be named like any of them. The names are collected from the templates themselves (host
//! code and skeletons), so the test follows them: a file whose arrays and scalars carry those
//! names is tuned on the local OpenCL device (PoCL in CI; every variant validated against the
//! original loop) and the tuned file compiles.
//!
//! Left out: C keywords and library names (functions, types, macros, `stdout`), which a user's
//! code cannot redeclare either, and OpenCL C's address-space keywords `global`, `local`,
//! `constant`, `private`, `kernel`, which cannot name a kernel argument.

mod common;
use common::{run, statuses, Run};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const ORCL: &str = env!("CARGO_BIN_EXE_orcl");

fn orcl(dir: &Path, args: &[&str]) -> Run {
    let mut c = Command::new(ORCL);
    c.args(args)
        .env("ORCL_CACHE_DIR", dir.join("cache"))
        .env_remove("ORCL_TEST_FAULT");
    c.current_dir(dir);
    run(c, Duration::from_secs(300))
}

const C_WORDS: &[&str] = &[
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "main", "define", "undef", "ifdef", "ifndef",
    "endif", "stdout", "stderr", "stdin", "timespec", "dim3", "global", "local", "constant",
    "private", "kernel",
];

/// Identifiers of the C text of the host-code and skeleton templates that are not orcl's, not
/// a C word and not a library name (called, a type `*_t`, a macro, `cl*`/`cu*`/`nvrtc*`).
fn template_identifiers() -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src/codegen/templates", "skeletons"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "tera") {
                files.push(p);
            }
        }
    }
    assert!(files.len() >= 4, "{files:?}");
    let strip = [
        (r"(?s)\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " 0 "),
        (r"(?s)/\*.*?\*/", " "),
        (r#""(\\.|[^"\\\n])*""#, "0"),
        (r"'(\\.|[^'\\\n])*'", "0"),
        (r"//[^\n]*", " "),
        (
            r"#\s*(include|define|undef|ifdef|ifndef|endif|if|else|elif|pragma|error)[^\n]*",
            " ",
        ),
    ];
    let ident = regex::Regex::new(r"([A-Za-z_][A-Za-z0-9_]*)(\s*\()?").unwrap();
    let mut out = BTreeSet::new();
    for f in files {
        let mut s = std::fs::read_to_string(&f).unwrap();
        for (re, with) in strip {
            s = regex::Regex::new(re)
                .unwrap()
                .replace_all(&s, with)
                .into_owned();
        }
        for m in ident.captures_iter(&s) {
            let whole = m.get(0).unwrap();
            let before = s[..whole.start()].chars().last();
            if before.is_some_and(|c| c == '.' || c == '>' || c.is_ascii_alphanumeric()) {
                continue; // a member, or the tail of a number
            }
            let n = &m[1];
            let library = m.get(2).is_some()
                || n.ends_with("_t")
                || n.starts_with(|c: char| c.is_ascii_uppercase())
                || ["cl", "cu", "nvrtc", "_"].iter().any(|p| n.starts_with(p));
            if !library && !n.starts_with("orcl") && !C_WORDS.contains(&n) {
                out.insert(n.to_string());
            }
        }
    }
    out
}

/// One region over `names`: the first is the loop variable, the second the size, the third the
/// output array, the next few input arrays, the rest double scalars.
fn region(function: &str, names: &[&str]) -> String {
    let (iv, n, out) = (names[0], names[1], names[2]);
    let arrays: Vec<&str> = names[3..].iter().take(4).copied().collect();
    let scalars: Vec<&str> = names[3 + arrays.len()..].to_vec();
    let mut params = vec![format!("int {n}"), format!("double *{out}")];
    params.extend(arrays.iter().map(|a| format!("const double *{a}")));
    params.extend(scalars.iter().map(|s| format!("double {s}")));
    let mut decls = vec![
        format!("decl int {n} = N;"),
        format!("decl static double {out}[N] = 0;"),
    ];
    decls.extend(
        arrays
            .iter()
            .map(|a| format!("decl static double {a}[N] = random;")),
    );
    decls.extend(scalars.iter().map(|s| format!("decl double {s} = random;")));
    let mut terms: Vec<String> = arrays.iter().map(|a| format!("{a}[{iv}]")).collect();
    terms.extend(scalars.iter().map(|s| s.to_string()));
    let body = format!(
        "for ({iv} = 0; {iv} < {n}; {iv}++)\n        {out}[{iv}] = {};",
        terms.join(" + ")
    );
    format!(
        r#"void {function}({params}) {{
    int {iv};
    /*@ begin PerfTuning(
        def performance_params {{ param WI[] = [16]; }}
        def build {{ arg build_command = 'cc -O2'; }}
        def input_params {{ param N[] = [45]; }}
        def input_vars {{
            {decls}
        }}
        def performance_counter {{ arg repetitions = 1; }}
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)
    {body}
    ) @*/
    {body}
    /*@ end @*/
    /*@ end @*/
}}
"#,
        params = params.join(", "),
        decls = decls.join("\n            "),
    )
}

#[test]
fn user_names_never_collide_with_generated_ones() {
    let names = template_identifiers();
    // The templates' own variables are among them (a guard against a parser that finds nothing).
    for sure in ["err", "n", "program", "queue", "reps", "trip"] {
        assert!(
            names.contains(sure),
            "`{sure}` not found in the templates: {names:?}"
        );
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut file = String::new();
    let chunks: Vec<&[&str]> = names.chunks(24).collect();
    for (k, chunk) in chunks.iter().enumerate() {
        let mut c = chunk.to_vec();
        // Too short a last chunk borrows from the first.
        while c.len() < 5 {
            c.push(names[c.len()]);
        }
        file.push_str(&region(&format!("region_{k}"), &c));
    }
    let tmp = tempfile::Builder::new()
        .prefix("orcl-hygiene-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("names.c"), &file).unwrap();
    let t = orcl(dir, &["tune", "names.c", "--db", "t.db"]);
    t.assert_code(0);
    let rows = statuses(&dir.join("t.db"));
    assert_eq!(rows.len(), chunks.len(), "{rows:?}\n{}", t.dump());
    for (key, status) in &rows {
        assert_eq!(status, "ok", "{key}\n{}", t.dump());
    }
    let mut cc = Command::new("cc");
    cc.args(["-Wall", "-Werror=shadow", "-c", "_names.c", "-o", "names.o"])
        .current_dir(dir);
    let c = run(cc, Duration::from_secs(60));
    assert_eq!(c.code(), Some(0), "{}\n{file}", c.dump());
}

/// A loop variable named like an OpenCL C keyword or type cannot be a kernel argument (orcl does
/// not rename the loop's variables yet): a located error at its declaration, not a build failure
/// of every variant.
#[test]
fn opencl_keywords_as_names_are_located_errors() {
    let tmp = tempfile::Builder::new()
        .prefix("orcl-hygiene-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    for word in ["half", "global", "float4"] {
        let file = region("f", &["i", "n", "y", "x", word]);
        std::fs::write(dir.join("k.c"), &file).unwrap();
        let r = orcl(dir, &["check", "k.c"]);
        r.assert_code(2);
        assert!(
            r.stderr
                .contains(&format!("`{word}` is a keyword or type of OpenCL C")),
            "{}",
            r.stderr
        );
        let col = file
            .lines()
            .next()
            .unwrap()
            .find(&format!("*{word}"))
            .unwrap()
            + 2;
        assert!(r.stderr.contains(&format!("k.c:1:{col}")), "{}", r.stderr);
    }
}
