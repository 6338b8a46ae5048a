//! orcl's language, the first crate of the pipeline: diagnostics, the tuning spec and its
//! expressions, the annotated regions of a C file, the loop-nest IR and its C printer, the loop
//! language (tree-sitter-c → IR), search spaces, Orio's preamble, lowering, analysis, input sizes
//! and their bounds checks. It never names a device, a backend or a process (ARCHITECTURE.md).
//!
//! Modules in pipeline order; a module uses only those above it (tests/layers.rs checks it).

pub mod diag;
pub mod macros;
pub mod ir;
pub mod expr;
pub mod spec;
pub mod annotation;
pub mod region;
pub mod loop_lang;
pub mod space;
pub mod preamble;
pub mod lower;
pub mod analysis;
pub mod inputs;
pub mod bounds;

pub use region::{parse, read_source, ReadError, Region, DEFAULT_MAX_INPUT_SIZE};

/// `println!` that never panics: a closed or full standard output (`orcl check f.c | head -1`,
/// `orcl tune f.c | true`) stops nothing, so the work and the files it writes go on (issue 15
/// F2). A failure other than a closed pipe (`> /dev/full`) is kept ([`stdout_failed`]) for the
/// command's exit status (issue 25 G17).
#[macro_export]
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout().lock(), $($t)*) {
            $crate::stdout_failed(e);
        }
    }};
}

/// `print!` that never panics (see [`outln!`]).
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout().lock(), $($t)*) {
            $crate::stdout_failed(e);
        }
    }};
}

static STDOUT_ERROR: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Record a failed write to standard output (the first one), unless the pipe was closed by its
/// reader (`| head`), which is not a failure.
pub fn stdout_failed(e: std::io::Error) {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return;
    }
    let mut first = STDOUT_ERROR.lock().unwrap_or_else(|p| p.into_inner());
    first.get_or_insert_with(|| e.to_string());
}

/// The first failed write to standard output recorded by [`outln!`] or [`out!`], after
/// flushing what is buffered; `None` when every write succeeded or the reader closed the pipe.
pub fn stdout_error() -> Option<String> {
    use std::io::Write as _;
    if let Err(e) = std::io::stdout().lock().flush() {
        stdout_failed(e);
    }
    STDOUT_ERROR
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone()
}

/// `eprintln!` that never panics on a closed standard error (see [`outln!`]).
#[macro_export]
macro_rules! errln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($t)*);
    }};
}

/// `eprint!` that never panics on a closed standard error (see [`outln!`]).
#[macro_export]
macro_rules! errout {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr().lock(), $($t)*);
    }};
}
