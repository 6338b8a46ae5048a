//! The entry points of orcl's own child processes: `orcl worker` (a measuring worker that
//! `orcl tune --slurm` starts through srun) and `orcl build-server` (a build process of the
//! kernel build pool).

use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub(super) struct WorkerArgs {
    /// The timing skeleton binary (on a filesystem shared with the controller).
    #[arg(long)]
    skeleton: PathBuf,
    /// OpenCL platform index (ignored by CUDA skeletons).
    #[arg(long, default_value_t = 0)]
    platform: usize,
    /// OpenCL device index within the platform, or CUDA device ordinal.
    #[arg(long, default_value_t = 0)]
    device: usize,
}

#[derive(clap::Args, Debug)]
pub(super) struct BuildServerArgs {
    /// OpenCL platform index.
    #[arg(long, default_value_t = 0)]
    platform: usize,
    /// OpenCL device index within the platform.
    #[arg(long, default_value_t = 0)]
    device: usize,
    /// Compile CUDA with NVRTC to CUBINs (options one per line) instead of OpenCL.
    #[arg(long)]
    cuda: bool,
}

/// Runs the timing skeleton; returns its exit code.
pub(super) fn worker(a: WorkerArgs) -> i32 {
    orcl_measure::slurm::worker_main(&a.skeleton, a.platform, a.device)
}

/// Serves builds until stdin closes; returns the exit code.
pub(super) fn build_server(a: BuildServerArgs) -> i32 {
    if a.cuda {
        orcl_measure::build_server::serve_cuda()
    } else {
        orcl_measure::build_server::serve(a.platform, a.device)
    }
}
