//! The tensor-core tiling of a contraction (`MmaTiles`), split from `schedule` for size.

/// The tensor-core form of a contraction (`mathMode='tf32'`, `'fp16'`, `'bf16'`), in CUTLASS's terms: the
/// work-group's tile (ThreadblockShape `dims[1].per_group` × `dims[0].per_group` × `tk`) is split
/// into `warps_m` × `warps_n` warp tiles (WarpShape `wm` × `wn`), each a grid of
/// (`wm`/16) × (`wn`/8) `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32` instructions
/// (InstructionShape 16 × 8 × 8), accumulators in registers; both operands are staged per k-slab
/// in local tiles stored k-major (`tile[kk][t]`). The work-group has 32 × `warps_m` × `warps_n`
/// work-items: NDRange dimension 0 has 32 × `warps_n`, dimension 1 `warps_m` (`per_item` is
/// not used).
#[derive(Debug, Clone, PartialEq)]
pub struct MmaTiles {
    /// Outputs per warp along dimension 1 (the rows of A, M; a multiple of 16) and along
    /// dimension 0 (the columns of B, N; a multiple of 8).
    pub wm: u64,
    pub wn: u64,
    /// Warps along dimension 1 and dimension 0.
    pub warps_m: u64,
    pub warps_n: u64,
    /// Index in `operands` of the row operand (A, varies with dimension 1) and the column
    /// operand (B, varies with dimension 0).
    pub a: usize,
    pub b: usize,
    /// Test only (`ORCL_TEST_FAULT=wrong:...`): A's fragment registers a1 and a2 swapped, a
    /// wrong fragment mapping that validation must catch.
    pub wrong_fragments: bool,
    /// `fragLoad` V: fragment registers per local read of a k-contiguous tile (1, 2 or 4). With
    /// V > 1 the k order within each mma is permuted (register h of threadID_in_group q at
    /// k = V·q + 2·s + h of the s-th 8-step of a 4V-wide group) so that a lane's registers of
    /// consecutive mma steps are adjacent in memory; A and B take the same permutation, so the
    /// sums are those of the loop.
    pub frag: u64,
    /// `tf32Convert`: `Stage`: every staged element is rounded to TF32 once, when its slab is
    /// staged (before the local store of a register-staged slab, in place after the loads of a
    /// `cp.async` or single-buffered slab), and the fragment registers are read as they lie;
    /// `Fragment`: each fragment register is rounded after its read; `Truncate`: nothing is
    /// converted; the fragment registers are the staged FP32 bits, whose low 13 mantissa bits
    /// `mma.sync` ignores (TF32 by truncation; the emulated form clears them).
    pub convert: crate::args::Tf32Convert,
    /// `fragLoad='ldmatrix'` (`frag` 1): the fragments of a k-contiguous tile are read by
    /// `ldmatrix.sync.aligned.m8n8` (A: `.x4`, four registers; B: `.x2`), the others as with
    /// `fragLoad=1`.
    pub ldmatrix: bool,
    /// `fragBuffers` (1 or 2; 16-bit `ldmatrix` form only): with 2, two register sets of warp
    /// fragments (CUTLASS's `warp_frag_A[2]`, `warp_frag_B[2]` of `MmaMultistage`): the k-steps of
    /// a slab are unrolled, and step s + 1's `ldmatrix` are issued before step s's `mma.sync`.
    pub frag_buffers: u64,
    /// The operands' element type, which picks the instruction: `Float` (`mathMode='tf32'`,
    /// m16n8k8 TF32), `Half` ('fp16') or `BFloat16` ('bf16'): m16n8k16, two 16-bit values per
    /// 32-bit fragment register.
    pub input: orcl_frontend::ir::ScalarType,
    /// `blockSwizzle` S (CUTLASS's `GemmIdentityThreadblockSwizzle<S>`): work-group `b` in
    /// launch order (row-major over the NDRange's groups) computes tile row `first + w % rows`,
    /// column `w / rows`, where `first` = S·(b / (S·columns)), `w` = b mod S·columns and `rows`
    /// = min(S, tile rows − first): a bijection; 1: the NDRange's own order.
    pub swizzle: u64,
    /// `asyncCache='ca'`: 16-byte `cp.async` copies allocate in L1 (`.ca`) instead of `.cg`.
    pub async_ca: bool,
    /// `indexBits=32`: the kernel's ids, tile offsets and loop counters are `int` (else `long`).
    pub index32: bool,
    /// `prefetchResult` R: 0, or the k-slab (1 = the last, 2 = the one before) at whose start the
    /// work-item issues `prefetch.global.L2` for each global element its result statements read.
    pub prefetch_result: u64,
    /// `mmaInstruction='wgmma'` (16-bit operands, or TF32 with both operands K-major; sm_90a):
    /// each warpgroup (4 consecutive warps) computes a 64 × `wn` block with
    /// `wgmma.mma_async.sync.aligned.m64n{wn}k16` (TF32: `k8`), A and B read
    /// by the tensor cores from the 128-byte-swizzled local tiles ([`crate::schedule::Swizzle::Gmma`])
    /// through matrix descriptors. Warp w of a warpgroup holds rows 16·w.. of its block: `wm`
    /// is then 16 and the accumulators keep the m16n8 layout per warp (PTX ISA §9.7.15.5.1,
    /// "Register Fragments": row 16·w + groupID + 8·(q / 2), column 8·j + 2·threadID_in_group +
    /// q % 2 of accumulator 4·j + q); `warps_m` counts warps (4 per warpgroup).
    pub wgmma: bool,
    /// `transposeRows` R (TF32 `wgmma`; 1, 2 or 4): each work-item's loads of an operand
    /// transposed into its K-major tile are blocks of R consecutive k-rows × one `vecLoad` group
    /// (R groups, R·4 registers), and each of the group's 4 columns goes into the tile as one
    /// R·4-byte chunk (`st.shared.v{R}`) instead of R scalar stores (a register transpose;
    /// docs/GEMM.md, "TF32"). 1: one k-row per group, 4 rotated scalar stores.
    pub transpose_rows: u64,
    /// Loop-invariant factors of the summand besides the two operands (`alpha` of
    /// `alpha * A[i][k] * B[k][j]`, PolyBench's gemm as written), empty when it is `A * B`: the
    /// tensor cores sum `A * B` and the result statements take their product times the sum
    /// (alpha·Σ a·b instead of Σ alpha·a·b: the same value up to FP32 rounding, far inside the
    /// TF32/16-bit tolerance).
    pub scale: Vec<orcl_frontend::ir::Expr>,
}

impl MmaTiles {
    /// The mma's k extent: 8 (TF32) or 16 (FP16, BF16).
    pub fn k_step(&self) -> u64 {
        if self.input.is_16bit() {
            16
        } else {
            8
        }
    }
}
