//! The `orcl` command line: thin glue over the library (`orcl::cli`).

fn main() {
    // This executable answers `orcl build-server`, whatever its file is named.
    orcl::measure::build_server::serve_from_this_executable();
    orcl::interrupt::guard_process_exit();
    let code = std::panic::catch_unwind(orcl::cli::main).unwrap_or(101);
    orcl::interrupt::exiting_normally();
    std::process::exit(code);
}
