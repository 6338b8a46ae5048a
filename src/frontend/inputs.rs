//! Input sizes: what the arrays of `input_vars` hold at one input size (element counts, C
//! literals of spec values) and the host and device memory a timing skeleton needs for them.

use crate::diag::Diagnostic;
use crate::expr::Value;
use crate::ir::{Kernel, ScalarType};
use crate::spec::{TuningSpec, VarInit};
use std::collections::BTreeMap;

/// A C literal for a spec value (numbers and booleans only).
pub fn c_literal(v: &Value) -> Option<String> {
    match v {
        Value::Bool(b) => Some(if *b { "1".into() } else { "0".into() }),
        Value::Int(i) => Some(format!("{i}L")),
        Value::Float(f) if f.is_finite() => Some(format!("{f:?}")),
        _ => None,
    }
}

/// Element counts of every array of `input_vars` at this input size.
pub fn array_elems(
    spec: &TuningSpec,
    env: &dyn Fn(&str) -> Option<Value>,
) -> Result<BTreeMap<String, u64>, Diagnostic> {
    let mut out = BTreeMap::new();
    for v in spec.input_vars.iter().filter(|v| !v.dims.is_empty()) {
        let mut n: u64 = 1;
        for d in &v.dims {
            let x = d.eval(env)?;
            let k = x.as_i64().filter(|k| *k > 0).ok_or_else(|| {
                Diagnostic::new(
                    d.span,
                    format!("array dimension must be a positive integer, found {x}"),
                )
            })?;
            n = n
                .checked_mul(k as u64)
                .filter(|n| *n <= 1 << 40)
                .ok_or_else(|| Diagnostic::new(d.span, "array too large"))?;
        }
        if let VarInit::List(items, span) = &v.init {
            if items.len() as u64 != n {
                return Err(Diagnostic::new(
                    *span,
                    format!(
                        "`{}` is declared with {n} element(s) at this input size but its brace initialiser lists {}",
                        v.name,
                        items.len()
                    ),
                )
                .with_help("give one value per element, or change the declared length"));
            }
        }
        out.insert(v.name.clone(), n);
    }
    Ok(out)
}

/// What the timing skeleton allocates for the arrays of `input_vars` at one input size (bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryNeed {
    /// Host memory: three copies of every array (the inputs, their initial values, the reference
    /// run's results), bytes.
    pub host_bytes: u64,
    /// Device memory: one buffer per array the kernel uses, plus (OpenCL) a pristine copy of
    /// each array it writes, bytes. Not counted: the device copy of the reference outputs that
    /// validation on the device uses; the skeleton allocates it when it fits and otherwise
    /// validates on the host.
    pub device_bytes: u64,
    /// The largest single device buffer: (array, bytes, span of its declaration).
    pub largest: Option<(String, u64, crate::diag::Span)>,
}

/// The memory the skeleton of `kernel` needs at input size `input` (an estimate from the array
/// sizes; scalars, reduction partials and the OpenCL runtime's own memory are not counted).
/// `pristine`: the backend keeps a device copy of every written array (OpenCL).
pub fn memory_need(
    kernel: &Kernel,
    spec: &TuningSpec,
    input: &BTreeMap<String, Value>,
    pristine: bool,
) -> Result<MemoryNeed, Diagnostic> {
    let env = spec.input_env(input);
    let elems = array_elems(spec, &env)?;
    let mut need = MemoryNeed {
        host_bytes: 0,
        device_bytes: 0,
        largest: None,
    };
    for v in spec.input_vars.iter().filter(|v| !v.dims.is_empty()) {
        let Some(ty) = ScalarType::from_c(&v.ty) else {
            continue;
        };
        let bytes = elems
            .get(&v.name)
            .copied()
            .unwrap_or(0)
            .saturating_mul(ty.size_bytes() as u64);
        need.host_bytes = need.host_bytes.saturating_add(bytes.saturating_mul(3));
        let Some(a) = kernel.args.iter().find(|a| a.name == v.name && a.is_array) else {
            continue;
        };
        let copies = if pristine && a.written { 2 } else { 1 };
        need.device_bytes = need
            .device_bytes
            .saturating_add(bytes.saturating_mul(copies));
        if need.largest.as_ref().is_none_or(|(_, b, _)| bytes > *b) {
            need.largest = Some((v.name.clone(), bytes, v.span));
        }
    }
    Ok(need)
}

/// The host's available memory (`MemAvailable` of `/proc/meminfo`), bytes; `None` where it
/// cannot be read.
pub fn host_available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// `bytes` in GiB (or MiB below 1 GiB) with one decimal, for messages.
pub fn human_bytes(bytes: u64) -> String {
    const GIB: f64 = (1u64 << 30) as f64;
    const MIB: f64 = (1u64 << 20) as f64;
    if bytes as f64 >= GIB {
        format!("{:.1} GiB", bytes as f64 / GIB)
    } else {
        format!("{:.1} MiB", bytes as f64 / MIB)
    }
}
