//! Reading what every subcommand shares: the input file (with `--max-input-size`), durations,
//! `--backend`, `NAME=VALUE` assignments and `--size` selections; writing to standard output.

use super::failure::Failure;
use crate::prepare::{Prepared, PreparedFile};
use orcl_codegen::Backend;
use orcl_frontend::diag::InputError;
use orcl_frontend::expr::{parse_expr, ExprKind, Value};
use orcl_frontend::macros::Source;
use orcl_frontend::spec::parse_duration;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// The C preprocessor's options, shared by `check`, `emit`, `tune` and `compare`.
#[derive(clap::Args, Debug, Clone, Default)]
pub(super) struct CppArgs {
    /// Define a macro for the file's regions, as `cc -D` (repeatable): `-D N=4000`, `-D FAST`.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// Search DIR for the file's `#include`d headers, as `cc -I` (repeatable).
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<std::path::PathBuf>,
}

/// An input file read and prepared.
pub(super) struct Loaded {
    /// FILE as shown in messages.
    pub path: String,
    /// Its text as written and as analysed (macros expanded).
    pub src: Source,
    /// The regions ready to tune.
    pub prepared: Vec<Prepared>,
    /// The refused regions' located errors, in file order (index, error).
    pub refused: Vec<(usize, InputError)>,
}

impl Loaded {
    /// Print each refused region's errors on stderr (after the others' results).
    pub(super) fn report_refused(&self) {
        for (index, e) in &self.refused {
            orcl_frontend::errout!("{e}");
            orcl_frontend::errln!(
                "note: region {index} of {} is refused and left as written; the other regions go on (exit {})",
                orcl_frontend::diag::escape_controls(&self.path),
                super::failure::EXIT_REFUSED
            );
        }
    }
}

/// Read FILE (at most `max_input_size` bytes), expand its macros and prepare its regions.
pub(super) fn load(file: &Path, max_input_size: u64, cpp: &CppArgs) -> Result<Loaded, Failure> {
    let text = orcl_frontend::read_source(file, max_input_size).map_err(|e| match e {
        orcl_frontend::ReadError::Encoding(i) => Failure::Input(i),
        io => Failure::Usage(io.to_string()),
    })?;
    let path = file.display().to_string();
    let opts = crate::prepare::cpp::CppOptions {
        defines: cpp.define.clone(),
        includes: cpp.include.clone(),
    };
    let (src, found) = crate::prepare::cpp::preprocess_found(file, &path, &text, &opts)?;
    let PreparedFile { regions, refused } = crate::prepare::prepare_found(&path, &src, found)?;
    Ok(Loaded {
        path,
        src,
        prepared: regions,
        refused,
    })
}

pub(super) fn duration(s: &str, bare_unit: f64, what: &str) -> Result<Duration, Failure> {
    let v = s
        .parse::<f64>()
        .map(Value::Float)
        .unwrap_or_else(|_| Value::Str(s.to_string()));
    parse_duration(&v, bare_unit)
        .ok_or_else(|| Failure::Usage(format!("invalid {what} `{s}`: use e.g. 90s, 5m, 3m10s, 1h")))
}

pub(super) fn parse_backend(s: &str) -> Result<Backend, Failure> {
    Backend::parse(s)
        .ok_or_else(|| Failure::Usage(format!("unknown backend `{s}`: use `opencl` or `cuda`")))
}

/// The `--size NAME=VALUE` selections, parsed and checked against the file's input sizes.
pub(super) fn sizes(
    size: &[String],
    prepared: &[Prepared],
) -> Result<Vec<(String, Value)>, Failure> {
    let sizes: Vec<(String, Value)> = size
        .iter()
        .map(|s| assignment(s))
        .collect::<Result<_, _>>()?;
    check_sizes(prepared, &sizes)?;
    Ok(sizes)
}

/// `--size NAME=VALUE` must name an input parameter and select at least one input size of the
/// spec (a value outside `param NAME[] = [...]` used to tune nothing and report "no correct
/// variant"). Errors: [`Failure::Usage`] (exit 2) listing the values there are.
fn check_sizes(prepared: &[Prepared], sizes: &[(String, Value)]) -> Result<(), Failure> {
    if sizes.is_empty() {
        return Ok(());
    }
    let inputs: Vec<&BTreeMap<String, Value>> = prepared.iter().flat_map(|p| &p.inputs).collect();
    let same = |x: &Value, v: &Value| x == v || x.as_f64().is_some_and(|a| v.as_f64() == Some(a));
    for (k, _) in sizes {
        if !inputs.iter().any(|i| i.contains_key(k)) {
            let mut names: Vec<&String> = inputs.iter().flat_map(|i| i.keys()).collect();
            names.sort();
            names.dedup();
            let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            return Err(Failure::Usage(format!(
                "--size {k}=...: `{k}` is not an input parameter of this file (its input parameters: {})",
                if names.is_empty() { "none".to_string() } else { names.join(", ") }
            )));
        }
    }
    let selected = inputs.iter().any(|i| {
        sizes
            .iter()
            .all(|(k, v)| i.get(k).is_none_or(|x| same(x, v)))
    });
    if selected {
        return Ok(());
    }
    let (k, v) = sizes
        .iter()
        .find(|(k, v)| !inputs.iter().any(|i| i.get(k).is_some_and(|x| same(x, v))))
        .unwrap_or(&sizes[0]);
    let mut values: Vec<&Value> = inputs.iter().filter_map(|i| i.get(k)).collect();
    values.sort_by(|a, b| {
        a.as_f64()
            .partial_cmp(&b.as_f64())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    values.dedup();
    let values: Vec<String> = values.iter().map(|x| x.to_string()).collect();
    Err(Failure::Usage(format!(
        "--size {k}={v} selects no input size of this file: `{k}` takes {} in `input_params` (with its constraints); add {v} to `param {k}[]` there to tune at it",
        values.join(", ")
    )))
}

/// Parse `NAME=VALUE` with VALUE in the spec's expression language (a bare word is a string).
pub(super) fn assignment(s: &str) -> Result<(String, Value), Failure> {
    let (n, v) = s
        .split_once('=')
        .ok_or_else(|| Failure::Usage(format!("`{s}`: expected NAME=VALUE")))?;
    let value = match parse_expr(v, 0) {
        Ok(e) if !matches!(e.kind, ExprKind::Name(_)) => e
            .eval(&|_| None)
            .unwrap_or_else(|_| Value::Str(v.to_string())),
        Ok(e) => match &e.kind {
            ExprKind::Name(w) if w == "True" => Value::Bool(true),
            ExprKind::Name(w) if w == "False" => Value::Bool(false),
            _ => Value::Str(v.to_string()),
        },
        Err(_) => Value::Str(v.to_string()),
    };
    Ok((n.trim().to_string(), value))
}

/// Write `text` to stdout; a closed pipe (`orcl emit f.c | head`) is not an error. Returns the exit
/// code.
pub(super) fn write_stdout(text: &str) -> i32 {
    use std::io::Write;
    let mut so = std::io::stdout().lock();
    match so.write_all(text.as_bytes()).and_then(|_| so.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            orcl_frontend::errln!("error: cannot write to standard output: {e}");
            // The file system failed, not the input (issue 25 G17).
            super::EXIT_ENVIRONMENT
        }
    }
}
