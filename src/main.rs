//! The `orcl` command line: thin glue over the library (`orcl::cli`).

fn main() {
    orcl::interrupt::guard_process_exit();
    let code = std::panic::catch_unwind(orcl::cli::main).unwrap_or(101);
    orcl::interrupt::exiting_normally();
    std::process::exit(code);
}
