//! The objective a tune minimises — kernel time, kernel + transfers, energy per call, or the
//! energy-delay product — and the energy counter it reads (docs/ENERGY.md).

use super::{TuneError, TuneOptions};
use crate::prepare::Prepared;
use orcl_codegen::Variant;
use orcl_frontend::space::Configuration;
use orcl_measure::device::DeviceInfo;
use orcl_measure::energy::{self, EnergyCounter, Steps};
use orcl_measure::{Outcome, Runner};

/// The test-only energy source (docs/ENERGY.md): `ORCL_TEST_ENERGY=PARAM` makes every energy
/// reading `1e-3 × (1 + i) / median_ms` J per call, `i` the position of the configuration's
/// value of `PARAM` in its value list, through the same worker window as NVML's counter: a device
/// whose energy falls as its time rises, so the fastest configuration is never the most
/// efficient one where two configurations share a value of `PARAM`.
pub const TEST_ENERGY_ENV: &str = "ORCL_TEST_ENERGY";

/// What the search and the winner minimise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Objective {
    /// Median kernel time (ms); the spec's `'kernel'` or `'time'`.
    Kernel,
    /// Median kernel + host↔device copies (ms); the spec's `'total'`.
    Total,
    /// Energy per call (J), NVML's counter around a window of ≥ 100 ms of calls.
    Energy,
    /// Energy-delay product: energy per call (J) × median time (ms), J·ms.
    Edp,
}

impl Objective {
    /// `--objective` (`time`, `energy`, `edp`) over the spec's `arg objective`, default kernel
    /// time. `--objective time` keeps the spec's `'total'`.
    pub fn of(p: &Prepared, opts: &TuneOptions) -> Objective {
        let spec = p
            .region
            .spec
            .counter
            .objective
            .as_ref()
            .map(|o| o.value.as_str());
        match (opts.objective.as_deref(), spec) {
            (Some("energy"), _) | (None, Some("energy")) => Objective::Energy,
            (Some("edp"), _) | (None, Some("edp")) => Objective::Edp,
            _ if super::settings::objective_is_total(p) => Objective::Total,
            _ => Objective::Kernel,
        }
    }

    /// Whether it needs an energy reading per variant.
    pub fn needs_energy(self) -> bool {
        matches!(self, Objective::Energy | Objective::Edp)
    }

    /// The name stored as metadata `objective` and shown.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Kernel => "kernel",
            Objective::Total => "total",
            Objective::Energy => "energy",
            Objective::Edp => "edp",
        }
    }

    /// The value of an outcome (smaller is better): ms, J or J·ms; `None` unless `Ok` and (energy,
    /// EDP) its energy was measured.
    pub fn value(self, o: &Outcome) -> Option<f64> {
        let ms = o.median_ms()?;
        match self {
            Objective::Kernel | Objective::Total => Some(ms),
            Objective::Energy => o.energy_j,
            Objective::Edp => o.energy_j.map(|j| j * ms),
        }
    }
}

/// Where energy readings come from: NVML's counter of the experiment's GPU, or the test source.
pub enum Meter {
    /// Boxed: NVML's function table is some 12 KB.
    Nvml(Box<energy::Nvml>),
    /// [`TEST_ENERGY_ENV`]: the parameter's value list.
    Injected {
        param: String,
        values: Vec<orcl_frontend::expr::Value>,
    },
}

impl Meter {
    /// The meter of `dev` for an objective that needs energy; `None` for one that does not.
    /// Errors (exit 2, one line): no NVML or no such GPU (PoCL, another vendor), `--devices` or
    /// `--slurm` (one counter per experiment), or a [`TEST_ENERGY_ENV`] naming no parameter.
    pub fn open(
        objective: Objective,
        p: &Prepared,
        opts: &TuneOptions,
        dev: &DeviceInfo,
    ) -> Result<Option<Meter>, TuneError> {
        if !objective.needs_energy() {
            return Ok(None);
        }
        let refuse = |why: String| {
            TuneError::Usage(format!(
                "objective `{}` needs the device's energy: {why}; use objective `time`",
                objective.name()
            ))
        };
        if opts.devices.is_some() || opts.slurm.is_some() {
            return Err(refuse(
                "it is measured on one local device (not with --devices or --slurm)".into(),
            ));
        }
        if let Ok(param) = std::env::var(TEST_ENERGY_ENV) {
            let Some(pp) = p
                .region
                .spec
                .performance_params
                .iter()
                .find(|pp| pp.name == param)
            else {
                return Err(refuse(format!(
                    "{TEST_ENERGY_ENV}={param} names no performance parameter"
                )));
            };
            return Ok(Some(Meter::Injected {
                param,
                values: pp.values.to_vec(),
            }));
        }
        let Some(bus) = dev.pci_bus_id.as_deref() else {
            return Err(refuse(format!(
                "`{}` has no PCI bus id to find it in NVML (NVIDIA GPUs only)",
                dev.name
            )));
        };
        energy::Nvml::open(bus)
            .map(|m| Some(Meter::Nvml(Box::new(m))))
            .map_err(refuse)
    }

    /// Records `objective` and [`Meter::describe`] in experiment `id`'s metadata
    /// (`objective`, `energy_method`). Errors: the database's.
    pub fn record(
        &self,
        db: &crate::db::Db,
        id: i64,
        objective: Objective,
    ) -> Result<(), TuneError> {
        db.set_metadata(id, "objective", objective.name())?;
        db.set_metadata(id, "energy_method", &self.describe())?;
        Ok(())
    }

    /// One line saying how energy is read, for metadata `energy_method`.
    pub fn describe(&self) -> String {
        match self {
            Meter::Nvml(m) => match m.method {
                energy::NvmlMethod::TotalEnergy => {
                    "NVML nvmlDeviceGetTotalEnergyConsumption".into()
                }
                energy::NvmlMethod::PowerSamples => {
                    "NVML nvmlDeviceGetPowerUsage (trapezoid)".into()
                }
            },
            Meter::Injected { param, .. } => format!("test source {TEST_ENERGY_ENV}={param}"),
        }
    }

    /// Measures the energy of `v` (configuration `cfg`, measured into `o` just before) over a
    /// window of ≥ [`energy::MIN_WINDOW`] of calls and records it in `o`. A failed reading
    /// leaves `o` without energy and says why in its message (an energy objective then has no
    /// value for it: the search and the winner rank it nowhere).
    pub fn measure(
        &mut self,
        runner: &mut Runner,
        v: &Variant,
        cfg: &Configuration,
        o: &mut Outcome,
    ) {
        let Some(ms) = o.median_ms() else {
            return;
        };
        let calls = energy::calls_for_window(ms, energy::MIN_WINDOW, runner.repetitions);
        let reading = match self {
            Meter::Nvml(m) => runner.measure_energy(v, calls, m.as_mut()),
            Meter::Injected { param, values } => {
                let i = cfg
                    .get(param)
                    .and_then(|x| values.iter().position(|y| y == x))
                    .unwrap_or(0);
                let per_call_mj = (1 + i) as f64 / ms;
                let mut steps = Steps {
                    next: 0.0,
                    step: per_call_mj * f64::from(calls),
                };
                // Through the worker's window as NVML's counter, then exactly the formula (the
                // window's call count has a part-call of its own).
                runner
                    .measure_energy(v, calls, &mut steps as &mut dyn EnergyCounter)
                    .map(|r| energy::EnergyReading {
                        joules_per_call: per_call_mj * 1e-3,
                        watts: per_call_mj * r.calls / r.window_ms.max(1e-9),
                        ..r
                    })
            }
        };
        match reading {
            Ok(r) => {
                o.energy_j = Some(r.joules_per_call);
                o.power_w = Some(r.watts);
            }
            Err(e) => {
                let note = format!("no energy reading: {e}");
                o.message = Some(match o.message.take() {
                    Some(m) => format!("{m}; {note}"),
                    None => note,
                });
            }
        }
    }
}
