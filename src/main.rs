//! The `orcl` command line: thin glue over the library (`orcl::cli`).

fn main() {
    std::process::exit(orcl::cli::main());
}
