//! The kernels' exact widening of 16-bit float patterns (`_Float16`, `__bf16` arrays; see the
//! frontend's `lower::half`).

/// The exact widenings of 16-bit patterns to float that every read of a `_Float16` / `__bf16`
/// array goes through (`lower::half`), once per translation unit: `orcl_bf2f` (the pattern is
/// FP32's high half) and `orcl_h2f` (IEEE binary16: normal, infinite and NaN patterns rebias the
/// exponent by 127 - 15 = 112; subnormals are m·2⁻²⁴, exact in float). CUDA gets `ushort`, the
/// element type both use (`ScalarType::c_name`); a repeated identical typedef is valid C++.
pub(super) fn widen16(opencl: bool) -> String {
    let (pre, bits, ty) = if opencl {
        ("", "as_float", "")
    } else {
        (
            "__device__ __forceinline__ ",
            "__uint_as_float",
            "typedef unsigned short ushort;\ntypedef unsigned int uint;\n",
        )
    };
    format!(
        "#ifndef ORCL_WIDEN16
#define ORCL_WIDEN16
{ty}#define orcl_bf2f(x) {bits}((uint)(x) << 16)
{pre}float orcl_h2f(ushort orcl_h) {{
    uint orcl_e = (orcl_h >> 10) & 0x1fu, orcl_m = orcl_h & 0x3ffu;
    float orcl_f = orcl_e == 0u ? (float)orcl_m * 5.9604644775390625e-8f
        : {bits}(((uint)(orcl_h & 0x8000u) << 16) | (orcl_e == 31u ? 0x7f800000u : (orcl_e + 112u) << 23) | (orcl_m << 13));
    return orcl_e == 0u && (orcl_h & 0x8000u) ? -orcl_f : orcl_f;
}}
#endif
"
    )
}
