//! The `wgmma` form of the tensor-core schedule (`mmaInstruction='wgmma'`, see
//! [`crate::schedule::MmaTiles::wgmma`]): per k-slab of one 128-byte row (64 16-bit or 32 TF32
//! elements), each warpgroup issues four
//! `wgmma.mma_async.sync.aligned.m64n{WN}k16.f32.{f16,bf16}.{f16,bf16}` (A 64 × 16, B 16 × WN)
//! or `m64n{WN}k8.f32.tf32.tf32` (A 64 × 8, B 8 × WN), read by the tensor cores from the local
//! tiles through shared-memory matrix descriptors (PTX ISA §9.7.15.5.1, 128-byte swizzle;
//! CUTLASS's SM90 GMMA with `GMMA::Layout_K_SW128_Atom` / `Layout_MN_SW128_Atom`). TF32 reads
//! both operands K-major (no transpose for 32-bit types: an operand contiguous along its tile is
//! transposed while staged, `Cx::transposed_group`) and uses the low 13 mantissa bits of
//! neither (the tiles arrive unrounded: truncation, which the emulated form reproduces and
//! validation allows for, `skeleton::tf32_truncated_tolerance`).
//!
//! The tiles ([`crate::schedule::Swizzle::Gmma`]) are 1024-byte aligned rows of 128 bytes whose
//! 16-byte chunks are XOR-ed with the row's index mod 8, the pattern the hardware applies to
//! address bits 4–6 from bits 7–9. A descriptor gives the block's start (its first row and the
//! k-step's first element, unswizzled), the leading byte offset (LBO) and the stride byte
//! offset (SBO): K-major (a k-contiguous tile) — rows of one k-step (16 or 8 elements) are 32
//! bytes of a 128-byte row, 8-row groups SBO = 1024 apart (LBO unused, 16); MN-major (a k-major tile, `imm-trans`
//! 1, allowed for 16-bit types) — 64 elements of M or N in a 128-byte row, k-rows 128 bytes
//! apart, 8-k-row groups SBO = 1024 apart, 64-element blocks LBO = TK·128 apart. Checked
//! exactly on the H100 with the probe `bench/tensor/wgmma_probe.py` (the swapped LBO/SBO fails).
//!
//! The emulated form decodes the same descriptors: element (mn, k) of a block is read at the
//! byte offset the hardware computes from the block's start, LBO and SBO, swizzled by
//! `orcl_gx`, so PoCL checks that the tiles' cell function, the swizzle and the descriptors'
//! strides agree (a wrong descriptor fails there too); the accumulators are those of
//! m16n8 per warp (warp w of the warpgroup: rows 16·w..).

use crate::kernel_ir::contraction::Cx;
use crate::kernel_ir::{KExpr, KStmt};
use crate::schedule::Operand;
use orcl_frontend::ir::ScalarType;

/// The stride byte offset of every descriptor: 8 rows of 128 bytes.
const SBO: u64 = 1024;

impl Cx<'_> {
    /// Bytes per element of the operands (2, or 4 for TF32).
    fn gmma_size(&self) -> u64 {
        self.mma().input.size_bytes() as u64
    }

    /// Whether operand `n`'s tile is K-major (k-contiguous).
    fn gmma_k_major(&self, n: usize) -> bool {
        self.c.operands[n].k_inner_pad.is_some()
    }

    /// Operand `n`'s leading byte offset and transpose flag: K-major (16: unused, 0), MN-major
    /// (the stride of its 64-element blocks, 1).
    fn gmma_lbo(&self, n: usize) -> (u64, u64) {
        match self.gmma_k_major(n) {
            true => (16, 0),
            false => (self.c.tk * 128, 1),
        }
    }

    /// The byte offset (C text), from its buffer's first element, of the block of operand `n`
    /// that the warpgroup reads at k-step `ks` (C text): its first row (A: `orcl_wgm0`) or column
    /// (B: `orcl_wn0`) and k = `ks`. The test fault (`wrong_fragments`) advances A by half a
    /// k-step per step, a wrong descriptor that validation must catch.
    fn gmma_origin(&self, n: usize, ks: &str) -> String {
        let m = self.mma();
        let wrong = m.wrong_fragments && n == m.a;
        let t0 = if n == m.a { "orcl_wgm0" } else { "orcl_wn0" };
        let size = self.gmma_size();
        match self.gmma_k_major(n) {
            true => format!(
                "{t0} * 128 + ({ks}) * {}",
                if wrong { size / 2 } else { size }
            ),
            false => format!(
                "{t0} / 64 * {} + ({ks}) * {}",
                self.c.tk * 128,
                if wrong { 64 } else { 128 }
            ),
        }
    }

    /// The byte offset within its block (C text, before the swizzle) of element (`mn` along M or
    /// N, `k`) of operand `n`, as the hardware computes it from the descriptor.
    fn gmma_decode(&self, n: usize, mn: &str, k: &str) -> String {
        let (lbo, _) = self.gmma_lbo(n);
        match self.gmma_k_major(n) {
            true => format!(
                "({mn}) / 8 * {SBO} + ({mn}) % 8 * 128 + ({k}) * {}",
                self.gmma_size()
            ),
            false => format!(
                "({mn}) / 64 * {lbo} + ({k}) / 8 * {SBO} + ({k}) % 8 * 128 + ({mn}) % 64 * 2"
            ),
        }
    }

    /// The asm statement of one `wgmma.mma_async` (descriptors `orcl_da`, `orcl_db`; accumulators
    /// `orcl_acc[0][j][q]` as D's registers 4·j + q). TF32 takes no transpose operands.
    fn gmma_asm(&self) -> String {
        let m = self.mma();
        let ty = match m.input {
            ScalarType::BFloat16 => "bf16",
            ScalarType::Float => "tf32",
            _ => "f16",
        };
        let n = m.wn / 2;
        let regs: Vec<String> = (0..n).map(|i| format!("%{i}")).collect();
        let outs: Vec<String> = (0..m.wn / 8)
            .flat_map(|j| (0..4).map(move |q| format!("\"+f\"(orcl_acc[0][{j}][{q}])")))
            .collect();
        let (ta, tb) = (self.gmma_lbo(m.a).1, self.gmma_lbo(m.b).1);
        let trans = match m.input {
            ScalarType::Float => String::new(),
            _ => format!(", {ta}, {tb}"),
        };
        format!(
            "asm volatile(\"{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{}, 0;\\n\" ORCL_GMMA \"wgmma.mma_async.sync.aligned.m64n{}k{}.f32.{ty}.{ty} {{{}}}, %{n}, %{}, p, 1, 1{trans};\\n}}\\n\"\n    : {}\n    : \"l\"(orcl_da), \"l\"(orcl_db), \"r\"(1));",
            n + 2,
            m.wn,
            m.k_step(),
            regs.join(","),
            n + 1,
            outs.join(", ")
        )
    }

    /// The k-slab in local buffer `buf` with `wgmma` (hardware: `wgmma.fence`, one
    /// `wgmma.mma_async` per k-step of 16 or 8 (TF32), `commit_group`, then `wait_group 1`: the previous
    /// slab's group has finished reading its buffer, which the next slab's copies refill), or
    /// emulated: each accumulator's sums of the products decoded from the same descriptors.
    pub(in crate::kernel_ir::contraction) fn wgmma_slab(&self, buf: &str) -> Vec<KStmt> {
        let m = self.mma();
        let mut hw = vec![gmma_ptx("wgmma.fence.sync.aligned;")];
        let base = |n: usize| format!("orcl_smem(&{}[0][0])", self.tile(n, buf));
        for ks in (0..self.c.tk).step_by(m.k_step() as usize) {
            let ks = ks.to_string();
            let desc = |name: &str, n: usize| KStmt::Var {
                ty: "orcl_u64".into(),
                name: name.into(),
                value: Some(
                    format!(
                        "orcl_gdesc({} + {}, {}, {SBO})",
                        base(n),
                        self.gmma_origin(n, &ks),
                        self.gmma_lbo(n).0
                    )
                    .into(),
                ),
            };
            hw.push(KStmt::Block(vec![
                desc("orcl_da", m.a),
                desc("orcl_db", m.b),
                KStmt::Lines(self.gmma_asm()),
            ]));
        }
        hw.push(gmma_ptx("wgmma.commit_group.sync.aligned;"));
        if !self.wgmma_issue_first() {
            hw.push(gmma_ptx("wgmma.wait_group.sync.aligned 1;"));
        }
        vec![KStmt::Mma {
            hardware: hw,
            emulated: self.wgmma_emulated(buf),
        }]
    }

    /// Whether the slab's `wgmma` group is issued before the slab's loads, its `wait_group 1`
    /// after them: where an operand is transposed into its tile ([`Cx::transposed_group`]), whose
    /// loads wait in registers for global memory; the tensor cores then have this slab's group
    /// and the previous one to work on meanwhile. The buffer refilled is still slab `t - 2`'s,
    /// whose group completed at the previous slab's `wait_group 1`.
    pub(in crate::kernel_ir::contraction) fn wgmma_issue_first(&self) -> bool {
        self.c.operands.iter().any(|o| self.transposed(o))
    }

    /// Whether staged operand `o` is transposed on its way into its tile (TF32 `wgmma`: K-major
    /// tiles, `o` contiguous along its tile). Such an operand is register-staged in the
    /// multistage loop ([`Cx::pipelined`]): its slab `t + S - 1` is loaded into the registers
    /// `orcl_p{n}` while slab `t` is issued, and stored (transposed) into slab `t + S - 2`'s
    /// buffer at slab `t + 1`; the other operand's slabs are copied by `cp.async`.
    pub(in crate::kernel_ir::contraction) fn transposed(&self, o: &Operand) -> bool {
        self.c.mma.as_ref().is_some_and(|m| m.wgmma)
            && o.staged
            && o.k_inner_pad.is_some()
            && !o.red_fast
    }

    /// The k-rows of one work-item block of staged operand `o` ([`MmaTiles::transpose_rows`]
    /// where `o` is [`Cx::transposed`], else 1).
    pub(in crate::kernel_ir::contraction) fn chunk_rows(&self, o: &Operand) -> u64 {
        match self.transposed(o) {
            true => self.mma().transpose_rows,
            false => 1,
        }
    }

    /// [`Cx::wgmma_slab`] emulated: each work-item's accumulators (row `orcl_r` of the
    /// warpgroup's 64, column `orcl_c` of its `wn`) sum the slab's products of elements read at
    /// the descriptors' decoded, swizzled offsets: 16-bit elements widened exactly, TF32 ones
    /// truncated to their high 19 bits, as the tensor cores read them.
    fn wgmma_emulated(&self, buf: &str) -> Vec<KStmt> {
        let m = self.mma();
        let (size, step) = (self.gmma_size(), m.k_step());
        let row = 128 / size;
        let read = |x: String| match m.input.widen_fn() {
            Some(f) => format!("{f}({x})"),
            None => format!("orcl_u2f(orcl_f2u({x}) & 0xffffe000u)"),
        };
        let long = |name: &str, value: String| KStmt::Let {
            ty: "long",
            name: name.into(),
            value: KExpr::Text(value),
        };
        let at = |n: usize, mn: &str| {
            format!(
                "orcl_gx({} + {}) / {size}",
                self.gmma_origin(n, "orcl_ks"),
                self.gmma_decode(n, mn, "orcl_kk")
            )
        };
        let (ta, tb) = (self.tile(m.a, buf), self.tile(m.b, buf));
        let (ea, eb) = (
            read(format!("{ta}[orcl_ea / {row}][orcl_ea % {row}]")),
            read(format!("{tb}[orcl_eb / {row}][orcl_eb % {row}]")),
        );
        let body_k = vec![
            long("orcl_ea", at(m.a, "orcl_r")),
            long("orcl_eb", at(m.b, "orcl_c")),
            KStmt::Store {
                target: "orcl_d".into(),
                value: format!("orcl_d + {ea} * {eb}").into(),
            },
        ];
        let body = vec![
            long(
                "orcl_r",
                "(orcl_warp % 4) * 16 + orcl_gid + 8 * (orcl_q / 2)".into(),
            ),
            long("orcl_c", "orcl_ni * 8 + 2 * orcl_tig + orcl_q % 2".into()),
            KStmt::Var {
                ty: "float".into(),
                name: "orcl_d".into(),
                value: Some("orcl_acc[orcl_mi][orcl_ni][orcl_q]".into()),
            },
            KStmt::For {
                var: "orcl_ks".into(),
                start: "0".into(),
                end: self.c.tk.to_string().into(),
                step: step.to_string().into(),
                unroll: Some(0),
                body: vec![Self::each("orcl_kk", step, body_k)],
            },
            KStmt::Store {
                target: "orcl_acc[orcl_mi][orcl_ni][orcl_q]".into(),
                value: "orcl_d".into(),
            },
        ];
        vec![self.each_accumulator(body)]
    }

    /// After the wgmma main loop: `wgmma.wait_group 0` (every group has written its
    /// accumulators) and each accumulator fenced as an asm operand, so the compiler reads none
    /// of them before the wait (CUTLASS's `warpgroup_fence_operand`). Nothing emulated.
    pub(in crate::kernel_ir::contraction) fn wgmma_drain(&self) -> Vec<KStmt> {
        let m = self.mma();
        let mut hw = vec![gmma_ptx("wgmma.wait_group.sync.aligned 0;")];
        for j in 0..m.wn / 8 {
            let ops: Vec<String> = (0..4)
                .map(|q| format!("\"+f\"(orcl_acc[0][{j}][{q}])"))
                .collect();
            hw.push(KStmt::Lines(format!(
                "asm volatile(\"\" : {} :: \"memory\");",
                ops.join(", ")
            )));
        }
        vec![KStmt::Mma {
            hardware: hw,
            emulated: Vec::new(),
        }]
    }
}

/// One `wgmma` control instruction (`text`, e.g. `wgmma.fence.sync.aligned;`) as an asm statement,
/// behind the [`ORCL_GMMA`](crate::kernel_ir) prefix: empty in CUDA, a PTX comment marker in OpenCL,
/// whose compiler targets sm_90 (the host removes the marker and retargets the program's PTX to
/// sm_90a, docs/GEMM.md "wgmma in NVIDIA's OpenCL").
pub(in crate::kernel_ir::contraction) fn gmma_ptx(text: &str) -> KStmt {
    KStmt::Lines(format!(
        "asm volatile(ORCL_GMMA \"{text}\" ::: \"memory\");"
    ))
}
