//! Command-line interface: `orcl tune | compare | check | emit | devices | db | plot | replay`
//! (and `orcl worker`, which `orcl tune --slurm` starts on the compute nodes). Exit codes
//! (docs/RELIABILITY.md): 0 tuned, 1 no valid variant, 2 usage or input error, 3 environment
//! failure (database, device, compiler, file system), 4 some regions refused (the others
//! tuned), 130/143 interrupted by SIGINT/SIGTERM.
//!
//! Arguments and presentation only: this module holds the clap definitions and the dispatch;
//! each subcommand's arguments and output are in its own file, the work in the library.

mod args;
mod check;
mod compare;
mod db;
mod devices;
mod emit;
mod failure;
mod json;
mod log;
mod plot;
mod replay;
mod tune;
mod width;
mod worker;

use clap::{Parser, Subcommand};
use failure::Failure;
use std::path::PathBuf;

pub use failure::EXIT_ENVIRONMENT;

/// The exit codes, in `--help`'s footer (docs/RELIABILITY.md).
const EXIT_CODES: &str =
    "Exit codes: 0 done, 1 no valid variant, 2 usage or input error (located; every region \
refused), 3 environment failure (database, device, compiler, file system), 4 some regions \
refused (the others tuned or checked), 130/143 interrupted (SIGINT/SIGTERM).";

#[derive(Parser, Debug)]
#[command(
    name = "orcl",
    version,
    about = "Annotation-driven source-to-source autotuner for OpenCL and CUDA loops",
    after_help = EXIT_CODES
)]
struct Cli {
    /// Log each stage with timestamps on stderr (device discovery, skeleton build, worker
    /// start, each build and measurement, finalists, database writes); `ORCL_LOG=FILTER`
    /// (e.g. `debug`, `orcl_measure=debug`) chooses the lines. See README "Reading a slow or
    /// stuck run".
    #[arg(short, long, global = true)]
    verbose: bool,
    #[command(subcommand)]
    command: Command,
}

// Parsed once per run: the size of `Tune`'s many options does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Tune every annotated region of FILE and write the tuned file (`_FILE` beside it).
    Tune(tune::TuneArgs),
    /// A measuring worker on a compute node (started by `orcl tune --slurm` through srun; not for
    /// users): prints where it runs, then runs the timing skeleton, which talks to the controller
    /// over stdin/stdout.
    #[command(hide = true)]
    Worker(worker::WorkerArgs),
    /// An OpenCL build process of the kernel build pool (started by `orcl tune`; not for users):
    /// builds the programs it reads on stdin and writes their binaries to stdout.
    #[command(hide = true)]
    BuildServer(worker::BuildServerArgs),
    /// Tune FILE's loops for OpenCL and for CUDA on the same device and compare the best
    /// variants: time, achieved bandwidth (bytes read + written once), CUDA/OpenCL speedup.
    Compare(compare::CompareArgs),
    /// Parse and validate FILE without building anything; print each region's search space.
    Check(check::CheckArgs),
    /// Print the generated kernel and host code of one configuration (needs no device).
    Emit(emit::EmitArgs),
    /// List the OpenCL and CUDA devices and their limits (`--json`: every property, in bytes).
    Devices {
        /// Print JSON (every property, sizes in bytes) instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Query, export and import the tuning database.
    Db {
        /// The tuning database file.
        #[arg(long, default_value = "orcl.db", global = true)]
        db: PathBuf,
        #[command(subcommand)]
        command: db::DbCommand,
    },
    /// Plot an experiment's objective: sorted over all variants, or per value of one parameter.
    Plot(plot::PlotArgs),
    /// Replay a search strategy against a recorded exhaustive experiment, with no device.
    Replay(replay::ReplayArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell), e.g.
    /// `orcl completions bash > ~/.local/share/bash-completion/completions/orcl`.
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
    /// Print orcl's manual page (roff), e.g. `orcl man > ~/.local/share/man/man1/orcl.1`.
    Man,
}

/// Run the command line; returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let code = run(cli).unwrap_or_else(Failure::report);
    // Output that could not be written (`> /dev/full`) is a file-system failure: exit 3, not a
    // silent success (issue 25 G17). A reader that closed the pipe (`| head`) is not.
    match orcl_frontend::stdout_error() {
        Some(e) if code == 0 || code == failure::EXIT_REFUSED => {
            orcl_frontend::errln!("error: cannot write to standard output: {e}");
            EXIT_ENVIRONMENT
        }
        _ => code,
    }
}

fn run(cli: Cli) -> Result<i32, Failure> {
    // `orcl worker` and `orcl build-server` write to a pipe their parent reads: no log there.
    if !matches!(cli.command, Command::Worker(_) | Command::BuildServer(_)) {
        log::init(cli.verbose);
    }
    match cli.command {
        Command::Check(a) => check::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Emit(a) => emit::run(a),
        Command::Devices { json } => devices::run(json),
        Command::Db { db, command } => db::run(&db, command),
        Command::Plot(a) => plot::run(a),
        Command::Worker(a) => Ok(worker::worker(a)),
        Command::BuildServer(a) => Ok(worker::build_server(a)),
        Command::Replay(a) => replay::run(a),
        Command::Tune(a) => tune::run(a),
        Command::Completions { shell } => completions(shell),
        Command::Man => manual(),
    }
}

/// `orcl completions SHELL`: the completion script, generated from the clap definitions.
fn completions(shell: clap_complete::Shell) -> Result<i32, Failure> {
    orcl_frontend::out!("{}", String::from_utf8_lossy(&completion_script(shell)));
    Ok(0)
}

fn completion_script(shell: clap_complete::Shell) -> Vec<u8> {
    use clap::CommandFactory;
    let mut text = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "orcl", &mut text);
    text
}

/// `orcl man`: the manual page (roff, clap_mangen), generated from the clap definitions.
fn manual() -> Result<i32, Failure> {
    let page =
        manual_page().map_err(|e| Failure::Env(format!("cannot render the manual page: {e}")))?;
    orcl_frontend::out!("{}", String::from_utf8_lossy(&page));
    Ok(0)
}

/// The manual page: orcl's own sections, one section per visible subcommand with its options,
/// and the exit status.
fn manual_page() -> std::io::Result<Vec<u8>> {
    use clap::CommandFactory;
    use std::io::Write;
    let cmd = Cli::command();
    let mut text = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut text)?;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        writeln!(text, ".SH \"ORCL {}\"", sub.get_name().to_uppercase())?;
        writeln!(text, "{}", about.replace('\\', "\\\\"))?;
        clap_mangen::Man::new(sub.clone()).render_options_section(&mut text)?;
    }
    writeln!(text, ".SH \"EXIT STATUS\"\n{EXIT_CODES}")?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// Every argument of every subcommand has a help line (issue 26: `<FILE>`, `--seed`, `--json`
    /// had none), and the internal subcommands are hidden.
    #[test]
    fn every_argument_has_help_and_internals_are_hidden() {
        let cli = Cli::command();
        let mut missing = Vec::new();
        let mut visible = Vec::new();
        collect(&cli, "orcl", &mut missing, &mut visible);
        assert!(missing.is_empty(), "arguments without help: {missing:?}");
        for internal in ["orcl worker", "orcl build-server"] {
            assert!(
                !visible.contains(&internal.to_string()),
                "{internal} is listed"
            );
        }
        assert!(visible.contains(&"orcl db show".to_string()), "{visible:?}");
    }

    fn collect(
        cmd: &clap::Command,
        path: &str,
        missing: &mut Vec<String>,
        visible: &mut Vec<String>,
    ) {
        for arg in cmd.get_arguments() {
            let id = arg.get_id().as_str();
            if matches!(id, "help" | "version") || arg.is_hide_set() {
                continue;
            }
            if arg
                .get_help()
                .is_none_or(|h| h.to_string().trim().is_empty())
            {
                missing.push(format!("{path} {id}"));
            }
        }
        for sub in cmd.get_subcommands() {
            let p = format!("{path} {}", sub.get_name());
            if !sub.is_hide_set() {
                visible.push(p.clone());
                collect(sub, &p, missing, visible);
            }
        }
    }
}
