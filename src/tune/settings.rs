//! Settings of one tune: the command line's overrides over the spec's search and counter
//! sections, the backend, and the device (or `--devices` list) the experiment runs on.

use super::{located, Devices, TuneError, TuneOptions};
use crate::prepare::Prepared;
use orcl_codegen::Backend;
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::expr::Value;
use orcl_frontend::spec::TuningSpec as Spec;
use orcl_measure::device::{self, DeviceInfo};
use orcl_measure::TimeoutPolicy;
use orcl_search::{make_strategy, Strategy};
use std::collections::BTreeMap;
use std::time::Duration;

/// The search and measurement settings of one region: `--search`, `--seed`, `--total-runs`,
/// `--time-limit`, `--repetitions`, `--timeout` over the spec's `def search` and
/// `def performance_counter`.
#[derive(Debug, Clone)]
pub(super) struct Settings {
    /// Search algorithm name (default: [`Settings::choose_default`]).
    pub algorithm: String,
    /// Whether `--search` or the spec named the algorithm.
    pub algorithm_given: bool,
    pub seed: u64,
    /// Budget: configurations measured.
    pub total_runs: Option<u64>,
    /// Budget: wall time per input size.
    pub time_limit: Option<Duration>,
    /// Timed repetitions per variant (default 5).
    pub reps: u32,
    /// Untimed warm-up runs per variant (default 1).
    pub warmups: u32,
    pub policy: TimeoutPolicy,
}

impl Settings {
    pub fn resolve(spec: &Spec, opts: &TuneOptions) -> Settings {
        Settings {
            algorithm_given: opts.algorithm.is_some() || spec.search.algorithm.is_some(),
            algorithm: opts
                .algorithm
                .clone()
                .or_else(|| spec.search.algorithm.as_ref().map(|a| a.value.clone()))
                .unwrap_or_else(|| "Exhaustive".into()),
            seed: opts
                .seed
                .or_else(|| spec.search.seed.as_ref().map(|s| s.value))
                .unwrap_or(0),
            total_runs: opts
                .total_runs
                .or_else(|| spec.search.total_runs.as_ref().map(|t| t.value as u64)),
            time_limit: opts
                .time_limit
                .or_else(|| spec.search.time_limit.as_ref().map(|t| t.value)),
            reps: opts
                .repetitions
                .or_else(|| spec.counter.repetitions.as_ref().map(|r| r.value as u32))
                .unwrap_or(5),
            warmups: opts
                .warmups
                .or_else(|| spec.counter.warmups.as_ref().map(|r| r.value as u32))
                .unwrap_or(1),
            policy: match opts
                .timeout
                .or_else(|| spec.counter.timeout.as_ref().map(|t| t.value))
            {
                Some(d) => TimeoutPolicy::Fixed(d),
                None => TimeoutPolicy::Adaptive,
            },
        }
    }

    /// With no algorithm named, the default for a space of `space_size` configurations
    /// ([`orcl_search::default_algorithm`]: Exhaustive only when the space fits the budget;
    /// otherwise the best strategy held out over the recorded spaces, as exhaustive order would
    /// measure only a corner of the space — issue 26: 0.013 of the optimum at 5%; issue 27).
    /// Returns the one line that says so when it is not Exhaustive, `None` otherwise.
    pub fn choose_default(&mut self, space_size: u64) -> Option<String> {
        if self.algorithm_given {
            return None;
        }
        let choice =
            orcl_search::default_algorithm(space_size, self.total_runs, self.time_limit.is_some());
        self.algorithm = choice.name.to_string();
        (choice.name != "Exhaustive").then(|| {
            format!(
                "no search algorithm named and {} (seed {}); name one with `--search` or `arg algorithm` in `def search`",
                choice.reason, self.seed
            )
        })
    }

    /// A fresh strategy of the chosen algorithm. Errors: an unknown `--search` name (usage), or
    /// an option of the spec's search the strategy does not take (located).
    pub fn strategy(
        &self,
        spec: &Spec,
        opts: &TuneOptions,
        text: &str,
        path: &str,
    ) -> Result<Box<dyn Strategy>, TuneError> {
        match make_strategy(&self.algorithm, &spec.search.options, self.seed) {
            Ok(s) => Ok(s),
            // `prepare` checked the spec's algorithm: this is the command line's.
            Err(d)
                if opts.algorithm.is_some() && d.span == orcl_frontend::diag::Span::default() =>
            {
                Err(TuneError::Usage(format!(
                    "--search: {}{}",
                    d.message,
                    d.help.map(|h| format!("; {h}")).unwrap_or_default()
                )))
            }
            Err(d) => Err(located(
                text,
                path,
                crate::prepare::locate_search_error(spec, d),
            )),
        }
    }
}

/// Whether input size `input` is one `--size` selects (all are when none is given).
pub(super) fn selected(opts: &TuneOptions, input: &BTreeMap<String, Value>) -> bool {
    opts.sizes.iter().all(|(k, v)| {
        input
            .get(k)
            .is_none_or(|x| x == v || x.as_f64().is_some_and(|a| v.as_f64() == Some(a)))
    })
}

/// The backend `opts` selects for `p`: `--backend`, else the annotation's first transform.
pub fn backend_of(p: &Prepared, opts: &TuneOptions) -> Backend {
    opts.backend
        .or_else(|| p.backends().first().copied())
        .unwrap_or(Backend::OpenCl)
}

/// Whether the spec's objective is `'total'` (kernel + host↔device transfers) rather than the
/// kernel time alone.
pub fn objective_is_total(p: &Prepared) -> bool {
    p.region
        .spec
        .counter
        .objective
        .as_ref()
        .is_some_and(|o| o.value == "total")
}

/// The device indices `sel` names on OpenCL platform `platform` (CUDA: ordinals), checked to
/// exist. Errors: a device that does not exist ([`device::DeviceError`]), `all` finding none.
fn device_indices(
    sel: &Devices,
    backend: Backend,
    platform: usize,
) -> Result<Vec<usize>, TuneError> {
    let list = match sel {
        Devices::List(l) => l.clone(),
        Devices::All => match backend {
            Backend::OpenCl => device::opencl_devices()?
                .iter()
                .filter(|d| d.platform_index == platform)
                .map(|d| d.device_index)
                .collect(),
            Backend::Cuda => device::cuda_devices()?
                .iter()
                .map(|d| d.device_index)
                .collect(),
        },
    };
    if list.is_empty() {
        return Err(TuneError::Usage(format!(
            "--devices all: no device found on {}",
            match backend {
                Backend::OpenCl => format!("OpenCL platform {platform}"),
                Backend::Cuda => "CUDA".into(),
            }
        )));
    }
    Ok(list)
}

/// Where an experiment runs: its device, the options with the device it resolved to, and the
/// `--devices` list (empty without `--devices`; the first entry is `device`).
pub(super) struct Target {
    pub device: DeviceInfo,
    pub opts: TuneOptions,
    pub device_list: Vec<usize>,
}

/// Resolves the device of an experiment whose first variant targets (`platform`, `device`).
///
/// With `--devices`, every listed device must exist and share the first one's fingerprint
/// (identical devices pool into one experiment; errors otherwise, as a usage message). Without,
/// a `device=`/`platform=` of the transform that this machine does not have (Orio's files name
/// `device=1` for their second GPU) falls back to device 0 of that platform with a warning, and
/// that device goes into the tuned file; a `--device`/`--platform` that does not exist stays an
/// error.
pub(super) fn select_target(
    p: &Prepared,
    opts: &TuneOptions,
    backend: Backend,
    platform: usize,
    dev_index: usize,
    text: &str,
    path: &str,
) -> Result<Target, TuneError> {
    let lookup = |pl: usize, d: usize| match backend {
        Backend::OpenCl => device::opencl_device(pl, d),
        Backend::Cuda => device::cuda_device(d),
    };
    if let Some(sel) = &opts.devices {
        let list = device_indices(sel, backend, platform)?;
        let first = lookup(platform, list[0])?;
        for &other in &list[1..] {
            let d = lookup(platform, other)?;
            if d.fingerprint() != first.fingerprint() {
                return Err(TuneError::Usage(format!(
                    "--devices: device {other} `{}` ({}, driver {}) is not identical to device {} `{}` ({}, driver {}); only identical devices pool into one experiment: tune each with --device N and compare the experiments (`orcl db list`, `orcl db best`)",
                    d.name, d.platform, d.driver_version, list[0], first.name, first.platform, first.driver_version
                )));
            }
        }
        return Ok(Target {
            device: first,
            opts: TuneOptions {
                device: Some(list[0]),
                ..opts.clone()
            },
            device_list: list,
        });
    }
    match lookup(platform, dev_index) {
        Ok(d) => Ok(Target {
            device: d,
            opts: opts.clone(),
            device_list: Vec::new(),
        }),
        Err(
            e @ (device::DeviceError::NoSuchDevice { .. }
            | device::DeviceError::NoSuchPlatform { .. }
            | device::DeviceError::NoCudaDevice { .. }),
        ) if opts.device.is_none() && opts.platform.is_none() => {
            let pl = match e {
                device::DeviceError::NoSuchDevice { platform, .. } => platform,
                _ => 0,
            };
            let d = lookup(pl, 0)?;
            let args = p.transform_args(backend);
            let at = args
                .iter()
                .find(|a| a.name == "device" || a.name == "platform")
                .map(|a| a.expr.span)
                .unwrap_or(p.region.raw.loop_ann.begin_span);
            eprintln!(
                "{}",
                orcl_frontend::diag::render_warning(
                    path,
                    text,
                    &Diagnostic::new(
                        at,
                        format!(
                            "{e}; tuning on {} device 0 `{}` instead (choose with --platform/--device)",
                            match backend {
                                Backend::OpenCl => format!("platform {pl}"),
                                Backend::Cuda => "CUDA".to_string(),
                            },
                            d.name
                        )
                    )
                )
            );
            Ok(Target {
                device: d,
                opts: TuneOptions {
                    platform: (backend == Backend::OpenCl).then_some(pl),
                    device: Some(0),
                    ..opts.clone()
                },
                device_list: Vec::new(),
            })
        }
        Err(e) => Err(e.into()),
    }
}
