//! The text of [`super::KStmt::MmaMacros`] (split from `kernel_ir` for size).

/// The tensor-core macros of [`super::KStmt::MmaMacros`] in OpenCL C (`as_uint`) or CUDA C
/// (`__float_as_uint`).
pub(super) fn mma_macros(opencl: bool, sm90a: bool) -> String {
    let (target, bits, float, smem) = if opencl {
        (
            if sm90a {
                "defined(__NV_CL_C_VERSION) && defined(ORCL_SM90A_PTX)"
            } else {
                "defined(__NV_CL_C_VERSION)"
            },
            "as_uint",
            "as_float",
            "((uint)(size_t)(p))",
        )
    } else {
        (
            if sm90a {
                "defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && defined(__CUDA_ARCH_FEAT_SM90_ALL)"
            } else {
                "defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800"
            },
            "__float_as_uint",
            "__uint_as_float",
            "((unsigned int)__cvta_generic_to_shared(p))",
        )
    };
    format!(
        "#if {target} && !defined(ORCL_EMULATE_MMA)
#define ORCL_MMA_SYNC 1
#define orcl_smem(p) {smem}
#else
#define ORCL_MMA_SYNC 0
#endif
#define orcl_tf32(x) ((({bits}(x) & 0x7f800000u) == 0x7f800000u) ? (x) : {float}(({bits}(x) + 0x1000u) & 0xffffe000u))
#define orcl_f2u(x) {bits}(x)
#define orcl_u2f(x) {float}(x)
{}",
        match (sm90a, opencl) {
            (true, false) => [GMMA_CUDA, GMMA_MACROS, GMMA_WARNING].concat(),
            (true, true) => [GMMA_OPENCL, GMMA_MACROS].concat(),
            _ => String::new(),
        }
    )
}

/// [`super::KStmt::MmaMacros`]'s wgmma macros (PTX ISA §9.7.15.5.1: start address, leading and stride
/// byte offsets in 16-byte units at bits 0, 16 and 32; swizzle mode 1, 128 bytes, at bit 62).
const GMMA_MACROS: &str = "#define orcl_gdesc(a, lbo, sbo) ((orcl_u64)(((a) & 0x3FFFF) >> 4) | ((orcl_u64)((lbo) >> 4) << 16) | ((orcl_u64)((sbo) >> 4) << 32) | ((orcl_u64)1 << 62))
#define orcl_gx(o) ((o) ^ ((((o) >> 7) & 7) << 4))
";

/// CUDA: the descriptors' 64-bit type, and no prefix before a `wgmma` instruction.
const GMMA_CUDA: &str = "#define orcl_u64 unsigned long long
#define ORCL_GMMA \"\"
";

/// OpenCL: `ulong` (OpenCL C reserves `long long`, and NVIDIA's OpenCL compiler crashes on a
/// `long long` asm operand), and each `wgmma` instruction behind a PTX comment marker: NVIDIA's
/// OpenCL compiler targets sm_90, whose ptxas rejects `wgmma`; the host (`opencl_sm90a.c.tera`,
/// with `-D ORCL_SM90A_PTX` among the build options) removes the marker from the program's PTX,
/// retargets it to sm_90a and builds it again from that binary (docs/GEMM.md).
///
/// The hardware form starts with a `trap` the retarget removes (`trap; //orcl_sm90a_guard`): a
/// host that builds it with `-D ORCL_SM90A_PTX` but does not retarget the PTX gets a launch error,
/// never a kernel whose `wgmma` are comments.
const GMMA_OPENCL: &str = "#define orcl_u64 ulong
#define ORCL_GMMA \"//orcl_sm90a \"
#if ORCL_MMA_SYNC
    asm volatile(\"trap; //orcl_sm90a_guard\");
#endif
";

/// CUDA: a device pass built without sm_90a's features (`nvcc -arch=sm_90` of `_file.cu`) warns
/// that the kernel runs its emulated form.
const GMMA_WARNING: &str = "#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL) && !defined(ORCL_EMULATE_MMA)
#warning \"orcl: this kernel issues wgmma (sm_90a); built for another architecture it runs its emulated form: build with -arch=sm_90a\"
#endif
";
