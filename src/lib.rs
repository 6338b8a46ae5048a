//! orcl: an annotation-driven source-to-source autotuner for OpenCL (and CUDA) loops.
//!
//! Pipeline (see ARCHITECTURE.md): `frontend::parse` → `lower::lower` → `codegen::generate`
//! → `measure::Runner::measure` → `db` → `rewrite::rewrite`, driven by a `search::Strategy`.

pub mod analysis;
pub mod bounds;
pub mod cli;
pub mod codegen;
pub mod compare;
pub mod compat;
pub mod db;
pub mod dbcli;
pub mod device;
pub mod diag;
pub mod frontend;
pub mod inputs;
pub mod interchange;
pub mod interrupt;
pub mod ir;
pub mod lower;
pub mod measure;
pub mod outfile;
pub mod plot;
pub mod preamble;
pub mod prepare;
pub mod replay;
pub mod rewrite;
pub mod schedule;
pub mod search;
pub mod space;
pub mod tune;

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
