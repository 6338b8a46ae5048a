//! The stage log (issue 24): `tracing` events of orcl's crates, written to stderr with UTC
//! timestamps and thread names when `-v`/`--verbose` is given or `ORCL_LOG` is set; nothing
//! otherwise (standard output and error unchanged). `ORCL_LOG` takes `tracing-subscriber`'s
//! `EnvFilter` syntax, like `RUST_LOG`: `debug`, `info`, `orcl_measure=debug,orcl=info`.
//! README "Reading a slow or stuck run" explains the lines.

/// The filter of `-v` without `ORCL_LOG`: stages, worker starts, every build, measurement and
/// database write of orcl's own crates.
const VERBOSE: &str = "orcl=debug,orcl_measure=debug";

/// Installs the stderr subscriber when `verbose` or `ORCL_LOG` asks for it. An invalid
/// `ORCL_LOG` is reported on stderr (one warning) and `-v`'s filter used instead.
pub(super) fn init(verbose: bool) {
    let env = std::env::var("ORCL_LOG")
        .ok()
        .filter(|s| !s.trim().is_empty());
    if !verbose && env.is_none() {
        return;
    }
    let filter = match env.as_deref().map(tracing_subscriber::EnvFilter::try_new) {
        Some(Ok(f)) => f,
        Some(Err(e)) => {
            orcl_frontend::errln!(
                "warning: ORCL_LOG is not a valid filter ({e}); using `{VERBOSE}`"
            );
            tracing_subscriber::EnvFilter::new(VERBOSE)
        }
        None => tracing_subscriber::EnvFilter::new(VERBOSE),
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_thread_names(true)
        .with_ansi(false)
        .try_init();
}
