//! The readers of the transformation arguments whose values are words (`incrementType`,
//! `tf32Convert`, `asyncCache`, `mathMode`, `mmaInstruction`), split from `args` for size.

use super::MathMode;
use orcl_frontend::diag::Diagnostic;
use orcl_frontend::expr::{KeywordArg, Value};

/// `incrementType` (ViennaCL study §2): `'global'` → `false` (stride by the global size),
/// `'local'` → `true` (one contiguous chunk per work-group). Errors: any other value, located.
pub(super) fn increment_type_arg(v: &Value, a: &KeywordArg) -> Result<bool, Diagnostic> {
    match v.as_str() {
        Some("global") => Ok(false),
        Some("local") => Ok(true),
        _ => Err(Diagnostic::new(
            a.expr.span,
            format!("`incrementType` must be 'global' or 'local', found {v}"),
        )),
    }
}

/// `tf32Convert`: `'fragment'` → 0, `'stage'` → 1, `'truncate'` → 2 (see
/// [`super::NestArgs::tf32_stage`], [`super::NestArgs::tf32_truncate`]). Errors: any other value,
/// located.
pub(super) fn tf32_convert_arg(v: &Value, a: &KeywordArg) -> Result<i64, Diagnostic> {
    match v.as_str() {
        Some("fragment") => Ok(0),
        Some("stage") => Ok(1),
        Some("truncate") => Ok(2),
        _ => Err(Diagnostic::new(
            a.expr.span,
            format!("`tf32Convert` must be 'fragment', 'stage' or 'truncate', found {v}"),
        )
        .with_help("'stage' rounds each element to TF32 once when its slab is staged; 'fragment' (default) each fragment register after its read; 'truncate' rounds nothing (the tensor cores ignore the low 13 mantissa bits)")),
    }
}

/// `asyncCache`: `'cg'` (false) or `'ca'` (true). Errors: any other value, located.
pub(super) fn async_cache_arg(v: &Value, a: &KeywordArg) -> Result<bool, Diagnostic> {
    match v.as_str() {
        Some("cg") => Ok(false),
        Some("ca") => Ok(true),
        _ => Err(Diagnostic::new(
            a.expr.span,
            format!("`asyncCache` must be 'cg' or 'ca', found {v}"),
        )
        .with_help("the cache operator of 16-byte cp.async copies: 'cg' (default) caches in L2 only, 'ca' in L1 and L2")),
    }
}

/// `mathMode`: `'fp32'`, `'tf32'`, `'fp16'` or `'bf16'`. Errors: any other value, located.
pub(super) fn math_mode_arg(v: &Value, a: &KeywordArg) -> Result<MathMode, Diagnostic> {
    match v.as_str() {
        Some("fp32") => Ok(MathMode::Fp32),
        Some("tf32") => Ok(MathMode::Tf32),
        Some("fp16") => Ok(MathMode::Fp16),
        Some("bf16") => Ok(MathMode::Bf16),
        _ => Err(Diagnostic::new(
            a.expr.span,
            format!("`mathMode` must be 'fp32', 'tf32', 'fp16' or 'bf16', found {v}"),
        )
        .with_help("'tf32' runs a float matrix product on TF32 tensor cores, 'fp16' / 'bf16' one of _Float16 / __bf16 arrays on FP16 / BF16 tensor cores (FP32 accumulation); 'fp32' (default) on FP32 multiply-adds")),
    }
}

/// `mmaInstruction`: `'mma.sync'` → `false` (warp-level `mma.sync`, the default) or `'wgmma'` →
/// `true` (warpgroup-level `wgmma.mma_async`, sm_90a). Errors: any other value, located.
pub(super) fn mma_instruction_arg(v: &Value, a: &KeywordArg) -> Result<bool, Diagnostic> {
    match v.as_str() {
        Some("mma.sync") => Ok(false),
        Some("wgmma") => Ok(true),
        _ => Err(Diagnostic::new(
            a.expr.span,
            format!("`mmaInstruction` must be 'mma.sync' or 'wgmma', found {v}"),
        )
        .with_help("'wgmma' issues wgmma.mma_async (warpgroups of 4 warps, operands read from shared memory; sm_90a: H100/H200 in CUDA and in NVIDIA's OpenCL; FP16/BF16 or TF32); 'mma.sync' (default) one mma.sync per 16 x 8 block of each warp")),
    }
}

/// `tf32Convert`: where the tensor-core form (`mathMode='tf32'`) turns its float inputs into TF32
/// (docs/GEMM.md, "TF32 rounding").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Tf32Convert {
    /// `'fragment'` (default): `cvt.rna.tf32.f32` on each fragment register after its read.
    #[default]
    Fragment,
    /// `'stage'`: rounded once per staged element, when its slab is staged.
    Stage,
    /// `'truncate'`: nothing converted; `mma.sync` reads the FP32 bits as `.tf32` operands,
    /// ignoring their low 13 mantissa bits (validated at the truncation's tolerance).
    Truncate,
}

impl Tf32Convert {
    /// The value as written in a transform (`'fragment'`, `'stage'`, `'truncate'`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Fragment => "fragment",
            Self::Stage => "stage",
            Self::Truncate => "truncate",
        }
    }
}
