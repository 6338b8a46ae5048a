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
/// `orcl tune f.c | true`) is ignored, so the work and the files it writes go on (issue 15 F2).
#[macro_export]
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

/// `print!` that never panics (see [`outln!`]).
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($t)*);
    }};
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
