//! `fragLoad='ldmatrix'` for the 16-bit forms (`mathMode='fp16'`, `'bf16'`): every fragment
//! register of m16n8k16 read by `ldmatrix.sync.aligned.m8n8.x{2,4}[.trans].shared.b16`, four
//! registers per instruction, from either tile layout: a k-contiguous tile (`tile[t][kk]`, A of
//! NN, B of NT) without `.trans`, a k-major one (`tile[kk][t]`, B of NN, A of TN) with `.trans`
//! (PTX ISA §9.7.13.4.15 "ldmatrix"; CUTLASS's `LdMatrix` / `ldsm` iterators for
//! `RowMajorTensorOpMultiplicandCrosswise` and `...Congruous` tiles).
//!
//! Each 8 × 8 matrix is 8 rows of 16 bytes (8 elements along the tile's contiguous axis); lane
//! `L'` of the instruction gives the address of row `L' % 8` of matrix `L' / 8`. Without
//! `.trans` lane L receives, in register x, elements 2·(L % 4) + {0, 1} of row L / 4 of matrix
//! x; with `.trans`, element L / 4 of rows 2·(L % 4) + {0, 1}. Matrix x of A's block `mi` is
//! (rows 8·(x % 2) .. + 7, k 8·(x / 2) .. + 7) — register x of the m16n8k16 A fragment; of B's
//! block `ni`, (k 8·x .. + 7, columns 8·`ni` .. + 7).
//!
//! The emulated form reads every element through the same row-address function: element
//! A(r, kk), half h = kk % 2 of register xa of lane la (the PTX fragment layout, see `k16`), is
//! at the row address of lane 8·xa + la / 4 plus 2·(la % 4) + h (no `.trans`) or of lane
//! 8·xa + 2·(la % 4) + h plus la / 4 (`.trans`), and B's likewise — so PoCL runs the address
//! arithmetic the hardware form hands to `ldmatrix`.

use super::sum;
use crate::kernel_ir::contraction::Cx;
use crate::kernel_ir::KStmt;

impl Cx<'_> {
    /// Whether operand `n`'s tile is read with `.trans` (k-major: the tile's contiguous axis is
    /// the output's, not k).
    fn ldm16_trans(&self, n: usize) -> bool {
        self.c.operands[n].k_inner_pad.is_none()
    }

    /// The row address (C lvalue of the row's first element, plus `off` elements along the
    /// tile's contiguous axis) that lane `lane` (C text, 0–31) hands to `ldmatrix` for operand
    /// `n` (A when `a`) of block `blk` (`mi` of A, `ni` of B; C text) at the k-step starting at
    /// `ks` (C text) of the slab in local buffer `buf`.
    fn ldm16_row(&self, a: bool, at: (&str, &str), blk: &str, lane: &str, off: &str) -> String {
        let (buf, ks) = at;
        let m = self.mma();
        let n = if a { m.a } else { m.b };
        let (q, r) = (format!("({lane}) / 8"), format!("({lane}) % 8"));
        // The matrix's first output row/column and k within the warp's k-step.
        let (t0, k0) = match a {
            true => (
                sum(&[
                    Some("orcl_wm0".into()),
                    Some(format!("({blk}) * 16")),
                    Some(format!("8 * (({q}) % 2)")),
                ]),
                format!("{ks} + 8 * (({q}) / 2)"),
            ),
            false => (
                format!("orcl_wn0 + ({blk}) * 8"),
                format!("{ks} + 8 * ({q})"),
            ),
        };
        let off = (off != "0").then(|| off.to_string());
        let (k, t) = match self.ldm16_trans(n) {
            false => (sum(&[Some(k0), off]), sum(&[Some(t0), Some(r)])),
            true => (sum(&[Some(k0), Some(r)]), sum(&[Some(t0), off])),
        };
        let o = &self.c.operands[n];
        format!("{}{}", self.tile(n, buf), Self::cell(o, &k, &t))
    }

    /// `ldmatrix.sync.aligned.m8n8.x{regs.len()}[.trans].shared.b16` into `regs` (unsigned int,
    /// declared here when `declare`) from the row address `row` (C lvalue) of this lane.
    fn ldm16_issue(regs: &[String], trans: bool, row: &str, declare: bool) -> Vec<KStmt> {
        let mut out: Vec<KStmt> = regs
            .iter()
            .filter(|_| declare)
            .map(|r| KStmt::Var {
                ty: "unsigned int".into(),
                name: r.clone(),
                value: None,
            })
            .collect();
        let count = regs.len();
        let slots: Vec<String> = (0..count).map(|x| format!("%{x}")).collect();
        let outs: Vec<String> = regs.iter().map(|r| format!("\"=r\"({r})")).collect();
        out.push(KStmt::Lines(format!(
            "asm volatile(\"ldmatrix.sync.aligned.m8n8.x{count}{}.shared.b16 {{{}}}, [%{count}];\" : {} : \"r\"(orcl_smem(&{row})));",
            if trans { ".trans" } else { "" },
            slots.join(","),
            outs.join(", ")
        )));
        out
    }

    /// The fragment registers of the k-step of 16 at `ks` (C text) by `ldmatrix`: A's
    /// `orcl_a{mi}_{x}{sfx}` one `.x4` per block (the wrong mapping of the tests swaps registers
    /// 1 and 2), B's `orcl_b{ni}_{x}{sfx}` one `.x4` per pair of blocks (`.x2` for an odd last
    /// one); declared here when `declare`.
    pub(super) fn ldm16_fragments(&self, at: (&str, &str), sfx: &str, declare: bool) -> Vec<KStmt> {
        let m = self.mma();
        let mut out = Vec::new();
        for mi in 0..m.wm / 16 {
            let mut regs: Vec<String> = (0..4).map(|x| format!("orcl_a{mi}_{x}{sfx}")).collect();
            if m.wrong_fragments {
                regs.swap(1, 2);
            }
            let row = self.ldm16_row(true, at, &mi.to_string(), "orcl_lane", "0");
            out.extend(Self::ldm16_issue(
                &regs,
                self.ldm16_trans(m.a),
                &row,
                declare,
            ));
        }
        let blocks = m.wn / 8;
        for ni in (0..blocks).step_by(2) {
            let pair = ni + 1 < blocks;
            let (regs, blk, lane) = match pair {
                true => (
                    vec![
                        format!("orcl_b{ni}_0{sfx}"),
                        format!("orcl_b{ni}_1{sfx}"),
                        format!("orcl_b{}_0{sfx}", ni + 1),
                        format!("orcl_b{}_1{sfx}", ni + 1),
                    ],
                    format!("{ni} + orcl_lane / 16"),
                    "orcl_lane % 16",
                ),
                false => (
                    vec![format!("orcl_b{ni}_0{sfx}"), format!("orcl_b{ni}_1{sfx}")],
                    ni.to_string(),
                    "orcl_lane % 16",
                ),
            };
            let row = self.ldm16_row(false, at, &blk, lane, "0");
            out.extend(Self::ldm16_issue(
                &regs,
                self.ldm16_trans(m.b),
                &row,
                declare,
            ));
        }
        out
    }

    /// The emulated reads of A(r, kk) and B(kk, c) (C text) for the lanes, registers and halves
    /// of the emulated m16n8k16 (`orcl_la`, `orcl_xa`, `orcl_lb`, `orcl_xb`, half `orcl_kk % 2`)
    /// through [`Cx::ldm16_row`] (see the module docs).
    pub(super) fn ldm16_emulated_reads(&self, buf: &str) -> (String, String) {
        let m = self.mma();
        let h = "orcl_kk % 2";
        let xa = match m.wrong_fragments {
            true => "(orcl_xa == 1 ? 2 : orcl_xa == 2 ? 1 : orcl_xa)",
            false => "orcl_xa",
        };
        let read = |a: bool, blk: &str, l: &str, x: &str| {
            let trans = self.ldm16_trans(if a { m.a } else { m.b });
            let (lane, off) = match trans {
                false => (
                    format!("8 * ({x}) + ({l}) / 4"),
                    format!("2 * (({l}) % 4) + {h}"),
                ),
                true => (
                    format!("8 * ({x}) + 2 * (({l}) % 4) + {h}"),
                    format!("({l}) / 4"),
                ),
            };
            self.ldm16_row(a, (buf, "orcl_ks"), blk, &lane, &off)
        };
        (
            read(true, "orcl_mi", "orcl_la", xa),
            read(false, "orcl_ni", "orcl_lb", "orcl_xb"),
        )
    }

    /// The whole slab in local buffer `buf` with `fragBuffers=2` (hardware form): the k-steps
    /// unrolled over two register sets (`_p0`, `_p1`, declared first); step 0's fragments are
    /// read, then for each step s the fragments of step s + 1 are read into the other set before
    /// step s's `mma.sync` are issued (CUTLASS `MmaMultistage`'s warp-fragment double buffer).
    pub(super) fn ldm16_pipelined(&self, buf: &str) -> Vec<KStmt> {
        let m = self.mma();
        let steps = self.c.tk / 16;
        let mut out = Vec::new();
        for p in 0..2 {
            for mi in 0..m.wm / 16 {
                for x in 0..4 {
                    out.push(Self::frag_reg(format!("orcl_a{mi}_{x}_p{p}")));
                }
            }
            for ni in 0..m.wn / 8 {
                for x in 0..2 {
                    out.push(Self::frag_reg(format!("orcl_b{ni}_{x}_p{p}")));
                }
            }
        }
        out.extend(self.ldm16_fragments((buf, "0"), "_p0", false));
        for s in 0..steps {
            if s + 1 < steps {
                let ks = ((s + 1) * 16).to_string();
                let sfx = format!("_p{}", (s + 1) % 2);
                out.extend(self.ldm16_fragments((buf, &ks), &sfx, false));
            }
            out.extend(self.mma16_issue(&format!("_p{}", s % 2)));
        }
        out
    }

    /// `unsigned int name;`
    fn frag_reg(name: String) -> KStmt {
        KStmt::Var {
            ty: "unsigned int".into(),
            name,
            value: None,
        }
    }
}
