//! Energy of a variant: a device energy counter read around a timed window of repeated calls
//! (docs/ENERGY.md). NVIDIA GPUs: NVML's total-energy counter through `nvml-wrapper`, which loads
//! `libnvidia-ml.so.1` at run time (a build, and a run on PoCL, need no NVIDIA library).
//!
//! The window: the worker runs the kernel `calls` times (≥ [`MIN_WINDOW`] of kernel time,
//! [`calls_for_window`]); orcl reads the counter when the worker says the window begins (after
//! the warm-up, device idle) and again when it ends (after the last call finished), each time
//! before the worker goes on. Energy per call = (counter after − counter before) / calls.

use std::time::Duration;

/// The shortest window of kernel time the counter is read around: NVML's energy counter moves
/// in steps of its power sampling period (tens of ms on recent GPUs), so a window of 100 ms keeps
/// the resolution error below about a tenth (docs/ENERGY.md).
pub const MIN_WINDOW: Duration = Duration::from_millis(100);

/// The most calls one energy window makes (a kernel of a few µs: 100 ms / 2 µs = 50,000).
pub const MAX_CALLS: u32 = 200_000;

/// Calls of a kernel of median time `median_ms` (ms) that fill at least `window` of kernel time;
/// at least `min_calls`, at most [`MAX_CALLS`].
pub fn calls_for_window(median_ms: f64, window: Duration, min_calls: u32) -> u32 {
    let want = window.as_secs_f64() * 1e3 / median_ms.max(1e-6);
    (want.ceil().min(MAX_CALLS as f64) as u32).clamp(min_calls.max(1), MAX_CALLS)
}

/// A counter of the energy a device has used (mJ, monotonic while the process runs). Errors: why
/// it could not be read, one line.
pub trait EnergyCounter {
    fn millijoules(&mut self) -> Result<f64, String>;

    /// The counter read just after its next update (a counter updated in steps, as NVML's every
    /// ~100 ms on an H100, is exact there): polled until it changes, at most [`TICK_WAIT`];
    /// a counter that changes continuously returns at once.
    fn tick(&mut self) -> Result<f64, String> {
        let first = self.millijoules()?;
        let start = std::time::Instant::now();
        while start.elapsed() < TICK_WAIT {
            std::thread::sleep(Duration::from_micros(500));
            let now = self.millijoules()?;
            if now != first {
                return Ok(now);
            }
        }
        Ok(first)
    }
}

/// The longest wait for an energy counter's next update ([`EnergyCounter::tick`]).
pub const TICK_WAIT: Duration = Duration::from_millis(500);

/// CLOCK_MONOTONIC in ms, the clock of the skeleton's `now_ms()` (its energy-window times).
pub fn monotonic_ms() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t) };
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 * 1e-6
}

/// The energy of one variant, measured over one window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EnergyReading {
    /// Energy per call of the variant (J): the counter's difference over the window / calls.
    pub joules_per_call: f64,
    /// Average power over the window (W): the counter's difference / the window's wall time.
    pub watts: f64,
    /// The window's wall time between the two counter readings (ms).
    pub window_ms: f64,
    /// Calls of the variant in the window (the last one in part).
    pub calls: f64,
}

impl EnergyReading {
    /// The reading of `delta_mj` millijoules over `window_ms` (ms) and `calls` calls.
    pub fn of(delta_mj: f64, window_ms: f64, calls: f64) -> EnergyReading {
        EnergyReading {
            joules_per_call: delta_mj * 1e-3 / calls.max(1.0),
            watts: if window_ms > 0.0 {
                delta_mj / window_ms
            } else {
                0.0
            },
            window_ms,
            calls,
        }
    }
}

/// How an [`Nvml`] counter reads energy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NvmlMethod {
    /// `nvmlDeviceGetTotalEnergyConsumption` (mJ since the driver was loaded; Volta and later).
    TotalEnergy,
    /// Fallback: `nvmlDeviceGetPowerUsage` (mW) at each reading, integrated by the trapezoid rule
    /// between readings (two readings per window: the power at its ends).
    PowerSamples,
}

/// The NVML energy counter of one GPU, found by its PCI bus id.
pub struct Nvml {
    nvml: nvml_wrapper::Nvml,
    bus_id: String,
    pub method: NvmlMethod,
    /// Power samples: the last (time, mW) and the integral so far (mJ).
    last: Option<(std::time::Instant, f64)>,
    integral_mj: f64,
}

impl Nvml {
    /// Opens NVML (loading `libnvidia-ml.so.1`) and finds the GPU at `pci_bus_id`
    /// (`domain:bus:device.function`, hex, as [`crate::device::DeviceInfo::pci_bus_id`]).
    /// Errors: one line saying why (no NVML library, no such device, no energy or power reading).
    pub fn open(pci_bus_id: &str) -> Result<Nvml, String> {
        let nvml = nvml_wrapper::Nvml::init()
            .map_err(|e| format!("NVML could not be loaded (libnvidia-ml.so.1): {e}"))?;
        let bus_id = find_bus_id(&nvml, pci_bus_id)?;
        let method = {
            let d = nvml
                .device_by_pci_bus_id(bus_id.as_str())
                .map_err(|e| format!("NVML has no device at PCI bus id {bus_id}: {e}"))?;
            if d.total_energy_consumption().is_ok() {
                NvmlMethod::TotalEnergy
            } else if d.power_usage().is_ok() {
                NvmlMethod::PowerSamples
            } else {
                return Err(format!(
                    "the GPU at {pci_bus_id} reports neither its total energy nor its power through NVML"
                ));
            }
        };
        Ok(Nvml {
            nvml,
            bus_id,
            method,
            last: None,
            integral_mj: 0.0,
        })
    }
}

/// NVML's own bus id of the GPU at `pci_bus_id` (`domain:bus:device.function`): the device
/// found by it, else the one GPU on the same bus number (OpenCL gives no domain, and its slot
/// may be written otherwise). Errors: no NVML device matches.
fn find_bus_id(nvml: &nvml_wrapper::Nvml, pci_bus_id: &str) -> Result<String, String> {
    if let Ok(d) = nvml.device_by_pci_bus_id(pci_bus_id) {
        if let Ok(p) = d.pci_info() {
            return Ok(p.bus_id);
        }
    }
    let bus = pci_bus_id
        .split(':')
        .nth(1)
        .and_then(|b| u32::from_str_radix(b, 16).ok());
    let count = nvml.device_count().unwrap_or(0);
    let same_bus: Vec<String> = (0..count)
        .filter_map(|i| nvml.device_by_index(i).ok()?.pci_info().ok())
        .filter(|p| Some(p.bus) == bus)
        .map(|p| p.bus_id)
        .collect();
    match same_bus.as_slice() {
        [one] => Ok(one.clone()),
        _ => Err(format!(
            "NVML has no device at PCI bus id {pci_bus_id} ({count} NVML device(s))"
        )),
    }
}

impl EnergyCounter for Nvml {
    fn millijoules(&mut self) -> Result<f64, String> {
        let d = self
            .nvml
            .device_by_pci_bus_id(self.bus_id.as_str())
            .map_err(|e| format!("NVML: {e}"))?;
        match self.method {
            NvmlMethod::TotalEnergy => d
                .total_energy_consumption()
                .map(|mj| mj as f64)
                .map_err(|e| format!("nvmlDeviceGetTotalEnergyConsumption: {e}")),
            NvmlMethod::PowerSamples => {
                let mw = f64::from(
                    d.power_usage()
                        .map_err(|e| format!("nvmlDeviceGetPowerUsage: {e}"))?,
                );
                let now = std::time::Instant::now();
                if let Some((t, p)) = self.last {
                    self.integral_mj += (p + mw) / 2.0 * now.duration_since(t).as_secs_f64();
                }
                self.last = Some((now, mw));
                Ok(self.integral_mj)
            }
        }
    }
}

/// A counter for tests: reads `start`, then `start + step`, then `start + 2 step`, ... (mJ).
#[derive(Debug, Clone)]
pub struct Steps {
    pub next: f64,
    pub step: f64,
}

impl EnergyCounter for Steps {
    fn millijoules(&mut self) -> Result<f64, String> {
        let v = self.next;
        self.next += self.step;
        Ok(v)
    }

    fn tick(&mut self) -> Result<f64, String> {
        self.millijoules()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_calls_fill_100_ms_within_bounds() {
        assert_eq!(calls_for_window(1.0, MIN_WINDOW, 5), 100);
        assert_eq!(calls_for_window(0.3, MIN_WINDOW, 5), 334);
        assert_eq!(calls_for_window(50.0, MIN_WINDOW, 5), 5);
        assert_eq!(calls_for_window(1e-9, MIN_WINDOW, 5), MAX_CALLS);
    }

    #[test]
    fn reading_divides_by_calls_and_window() {
        let r = EnergyReading::of(30_000.0, 100.0, 1000.0);
        assert!((r.joules_per_call - 0.03).abs() < 1e-12);
        assert!((r.watts - 300.0).abs() < 1e-9);
    }

    /// On a machine without NVIDIA's library (CI, PoCL) opening fails with one line, no panic.
    #[test]
    fn nvml_absent_or_no_such_device_is_an_error_line() {
        match Nvml::open("ffff:ff:1f.0") {
            Err(e) => assert!(!e.contains('\n') && e.contains("NVML"), "{e}"),
            Ok(_) => panic!("a GPU at ffff:ff:1f.0"),
        }
    }
}
