//! The 16-bit tensor-core forms (`mathMode='fp16'`, `'bf16'`): per k-step of 16 one
//! `mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32` per 16 × 8 block, FP32
//! accumulators as for TF32.
//!
//! Fragment layouts: PTX ISA, §9.7.13.4.x "Matrix Fragments for mma.m16n8k16 with
//! floating point type": with groupID g = lane / 4 and threadID_in_group t = lane % 4, each
//! 32-bit register holds two 16-bit elements, the lower k in the low half. A (16 × 16, row)
//! register x holds row g + 8·(x % 2), k = 2·t + 8·(x / 2) + {0, 1}; B (16 × 8, col) register x
//! holds k = 2·t + 8·x + {0, 1}, column g; the accumulators as m16n8k8's (row g + 8·(q / 2),
//! column 2·t + q % 2).
//!
//! The hardware form packs each register from the local tiles (one 32-bit read where the tile
//! is k-contiguous: the pair is adjacent and aligned); the emulated form sums, for each of the
//! work-item's accumulators, the 16 products of the widened inputs (exact in float), reading
//! A(r, kk) as half kk % 2 of register r / 8 + 2·(kk / 8) of lane (r % 8)·4 + (kk % 8) / 2 and
//! B(kk, c) as half kk % 2 of register kk / 8 of lane 4·c + (kk % 8) / 2 — the inverse of the
//! layouts, through the same address functions as the hardware form (with `fragLoad='ldmatrix'`
//! those of `ldm16`).

use super::{sum, Reg};
use crate::kernel_ir::contraction::Cx;
use crate::kernel_ir::{KExpr, KStmt, VecDst};
use orcl_frontend::ir::ScalarType;

impl Cx<'_> {
    /// The instruction's asm text, operands %0–%3 the accumulators (read and written).
    fn mma16_text(&self) -> String {
        let t = match self.mma().input {
            ScalarType::BFloat16 => "bf16",
            _ => "f16",
        };
        format!("mma.sync.aligned.m16n8k16.row.col.f32.{t}.{t}.f32 {{%0,%1,%2,%3}}, {{%4,%5,%6,%7}}, {{%8,%9}}, {{%0,%1,%2,%3}};")
    }

    /// Element `e` (0: low half, 1: high; C text) of A's register `x` of the lane (`g`, `t`) for
    /// the 16-row block `mi`, in local buffer `buf`. The wrong mapping (test only) swaps
    /// registers 1 and 2.
    fn frag16_a(&self, buf: &str, mi: &str, g: &str, t: &str, x: Reg, e: &str) -> String {
        let m = self.mma();
        let (kx, rx) = if m.wrong_fragments {
            (x.part(8, 2, true), x.part(8, 2, false))
        } else {
            (x.part(8, 2, false), x.part(8, 2, true))
        };
        let k = sum(&[
            Some("orcl_ks".into()),
            Some(format!("2 * ({t})")),
            kx,
            (e != "0").then(|| e.to_string()),
        ]);
        let row = sum(&[
            Some("orcl_wm0".into()),
            Some(format!("{mi} * 16")),
            Some(g.into()),
            rx,
        ]);
        let o = &self.c.operands[m.a];
        format!("{}{}", self.tile(m.a, buf), Self::cell(o, &k, &row))
    }

    /// Element `e` of B's register `x` (as [`Cx::frag16_a`]) for the 8-column block `ni`.
    fn frag16_b(&self, buf: &str, ni: &str, g: &str, t: &str, x: Reg, e: &str) -> String {
        let m = self.mma();
        let k = sum(&[
            Some("orcl_ks".into()),
            Some(format!("2 * ({t})")),
            x.part(8, 1, false),
            (e != "0").then(|| e.to_string()),
        ]);
        let col = sum(&[
            Some("orcl_wn0".into()),
            Some(format!("{ni} * 8")),
            Some(g.into()),
        ]);
        let o = &self.c.operands[m.b];
        format!("{}{}", self.tile(m.b, buf), Self::cell(o, &k, &col))
    }

    /// Fragment register `name` from its two elements (`src(e)`): one 32-bit read of a
    /// k-contiguous tile (the pair adjacent, the word aligned: k even, rows of even length),
    /// else two reads.
    fn pack16(&self, name: &str, operand: usize, src: &dyn Fn(&str) -> String) -> Vec<KStmt> {
        let ty = self.c.operands[operand].ty;
        let (lo, hi) = (format!("{name}_lo"), format!("{name}_hi"));
        let mut out = Vec::new();
        let contiguous = self.c.operands[operand].k_inner_pad.is_some();
        if contiguous && !self.mma().wrong_fragments {
            for v in [&lo, &hi] {
                out.push(KStmt::Var {
                    ty: "ushort".into(),
                    name: v.clone(),
                    value: None,
                });
            }
            out.push(KStmt::VecLoad {
                ty,
                width: 2,
                src: src("0"),
                global: false,
                dst: VecDst::Elements(vec![lo.clone(), hi.clone()]),
            });
        } else {
            for (v, e) in [(&lo, "0"), (&hi, "1")] {
                out.push(KStmt::Var {
                    ty: "ushort".into(),
                    name: v.clone(),
                    value: Some(src(e).into()),
                });
            }
        }
        out.push(KStmt::Var {
            ty: "unsigned int".into(),
            name: name.into(),
            value: Some(format!("(unsigned int){lo} | ((unsigned int){hi} << 16)").into()),
        });
        out
    }

    /// One k-step of 16 with the hardware instruction: the fragments, then one `mma.sync` per
    /// 16 × 8 block, unrolled.
    pub(super) fn mma16_hardware(&self, buf: &str) -> Vec<KStmt> {
        let m = self.mma();
        let (gid, tig) = ("orcl_gid", "orcl_tig");
        let mut out = Vec::new();
        if m.ldmatrix {
            out.extend(self.ldm16_fragments((buf, "orcl_ks"), "", true));
        }
        for mi in (0..m.wm / 16).filter(|_| !m.ldmatrix) {
            let i = mi.to_string();
            for x in 0..4 {
                let src = |e: &str| self.frag16_a(buf, &i, gid, tig, Reg::Const(x), e);
                out.extend(self.pack16(&format!("orcl_a{mi}_{x}"), m.a, &src));
            }
        }
        for ni in (0..m.wn / 8).filter(|_| !m.ldmatrix) {
            let i = ni.to_string();
            for x in 0..2 {
                let src = |e: &str| self.frag16_b(buf, &i, gid, tig, Reg::Const(x), e);
                out.extend(self.pack16(&format!("orcl_b{ni}_{x}"), m.b, &src));
            }
        }
        out.extend(self.mma16_issue(""));
        out
    }

    /// One `mma.sync` per 16 × 8 block of the warp tile, from fragment registers
    /// `orcl_a{mi}_{x}{sfx}` and `orcl_b{ni}_{x}{sfx}`.
    pub(super) fn mma16_issue(&self, sfx: &str) -> Vec<KStmt> {
        let m = self.mma();
        let mut out = Vec::new();
        let text = self.mma16_text();
        for mi in 0..m.wm / 16 {
            for ni in 0..m.wn / 8 {
                let acc: Vec<String> = (0..4)
                    .map(|q| format!("\"+f\"(orcl_acc[{mi}][{ni}][{q}])"))
                    .collect();
                let a: Vec<String> = (0..4)
                    .map(|x| format!("\"r\"(orcl_a{mi}_{x}{sfx})"))
                    .collect();
                let b: Vec<String> = (0..2)
                    .map(|x| format!("\"r\"(orcl_b{ni}_{x}{sfx})"))
                    .collect();
                out.push(KStmt::Lines(format!(
                    "asm volatile(\"{text}\"\n    : {}\n    : {}, {});",
                    acc.join(", "),
                    a.join(", "),
                    b.join(", ")
                )));
            }
        }
        out
    }

    /// One k-step of 16 emulated (see the module docs): each work-item sums its accumulators'
    /// 16 products of exactly widened inputs, read through the fragment address functions.
    pub(super) fn mma16_emulated(&self, buf: &str) -> Vec<KStmt> {
        let widen = self.mma().input.widen_fn().unwrap_or("(float)");
        let long = |name: &str, value: &str| KStmt::Let {
            ty: "long",
            name: name.into(),
            value: KExpr::Text(value.into()),
        };
        let a = self.frag16_a(
            buf,
            "orcl_mi",
            "orcl_la / 4",
            "orcl_la % 4",
            Reg::Text("orcl_xa"),
            "orcl_kk % 2",
        );
        let b = self.frag16_b(
            buf,
            "orcl_ni",
            "orcl_lb / 4",
            "orcl_lb % 4",
            Reg::Text("orcl_xb"),
            "orcl_kk % 2",
        );
        let (a, b) = match self.mma().ldmatrix {
            true => self.ldm16_emulated_reads(buf),
            false => (a, b),
        };
        let step = vec![
            long("orcl_la", "(orcl_r % 8) * 4 + (orcl_kk % 8) / 2"),
            long("orcl_xa", "orcl_r / 8 + 2 * (orcl_kk / 8)"),
            long("orcl_lb", "orcl_c * 4 + (orcl_kk % 8) / 2"),
            long("orcl_xb", "orcl_kk / 8"),
            KStmt::Store {
                target: "orcl_d".into(),
                value: format!("orcl_d + {widen}({a}) * {widen}({b})").into(),
            },
        ];
        let body = vec![
            long("orcl_r", "orcl_gid + 8 * (orcl_q / 2)"),
            long("orcl_c", "2 * orcl_tig + orcl_q % 2"),
            KStmt::Var {
                ty: "float".into(),
                name: "orcl_d".into(),
                value: Some("orcl_acc[orcl_mi][orcl_ni][orcl_q]".into()),
            },
            Self::each("orcl_kk", 16, step),
            KStmt::Store {
                target: "orcl_acc[orcl_mi][orcl_ni][orcl_q]".into(),
                value: "orcl_d".into(),
            },
        ];
        vec![self.each_accumulator(body)]
    }
}
