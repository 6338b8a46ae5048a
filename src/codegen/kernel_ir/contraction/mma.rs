//! Kernel IR of the tensor-core form of a contraction (`mathMode='tf32'`, see
//! [`crate::schedule::MmaTiles`]): each warp (32 consecutive work-items of the work-group) owns a
//! `wm` × `wn` tile of outputs as (`wm`/16) × (`wn`/8) accumulators of
//! `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`; per k-step of 8 it reads its A and B
//! fragments from the k-major local tiles the contraction's cooperative loads fill (zero outside
//! the iteration space) and issues the instructions.
//!
//! Fragment layouts: PTX ISA, §9.7.13.4.x "Matrix Fragments for mma.m16n8k8" (.tf32): with
//! groupID = lane / 4 and threadID_in_group = lane % 4, A (16 × 8, row) register `x` of a lane
//! holds row groupID + 8·(x % 2), column threadID_in_group + 4·(x / 2); B (8 × 8, col)
//! register `x` holds row (k) threadID_in_group + 4·x, column groupID; accumulator `q` holds row
//! groupID + 8·(q / 2), column 2·threadID_in_group + q % 2.
//!
//! One kernel text serves every device: `#if ORCL_MMA_SYNC` (set by the writer's prelude: NVIDIA
//! OpenCL, `__NV_CL_C_VERSION`; CUDA, `__CUDA_ARCH__ >= 800`; `-D ORCL_EMULATE_MMA` forces the
//! emulation) selects the inline PTX (`cvt.rna.tf32.f32`, `mma.sync`), else the emulated form:
//! each work-item computes its own accumulators by scalar multiply-adds of TF32-rounded inputs,
//! reading every A and B element through the same fragment address function with the lane and
//! register that hold it in hardware (so the fragment mapping is exercised on any device).

mod k16;
mod ldm16;
mod result;
mod wgmma;

use super::Cx;
use crate::args::Tf32Convert;
use crate::kernel_ir::{KExpr, KStmt, VecDst};
use crate::schedule::MmaTiles;
use orcl_frontend::analysis::{Contraction, Nest};
use orcl_frontend::ir::c::c_expr;

/// The mma instruction's asm text, operands %0–%3 the accumulators (read and written).
const MMA: &str = "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};";

/// A fragment register index: a constant (the hardware form, unrolled here) or C text.
#[derive(Clone, Copy)]
enum Reg<'a> {
    Const(u64),
    Text(&'a str),
}

impl Reg<'_> {
    /// `m · (x / 2)` or `m · (x % 2)` (`half`: the `/ 2` part) as C text, `None` when 0.
    fn part(self, m: u64, div: u64, rem: bool) -> Option<String> {
        match self {
            Reg::Const(x) => {
                let v = if rem { x % div } else { x / div };
                (v != 0).then(|| (m * v).to_string())
            }
            Reg::Text(t) => Some(format!(
                "{m} * (({t}) {} {div})",
                if rem { "%" } else { "/" }
            )),
        }
    }
}

/// `a + b + ...` of the parts that are present.
fn sum(parts: &[Option<String>]) -> String {
    let p: Vec<&str> = parts.iter().flatten().map(String::as_str).collect();
    p.join(" + ")
}

impl Cx<'_> {
    fn mma(&self) -> &MmaTiles {
        self.c.mma.as_ref().expect("the tensor-core form")
    }

    /// The k-steps of 8 whose fragments one group of reads fills: 2 with `fragLoad=4`, else 1.
    fn steps(&self) -> u64 {
        (self.mma().frag / 2).max(1)
    }

    /// The k index (C text) of register half `h` (C text part, already scaled: `4·h` with
    /// `fragLoad=1`, else `h`) of the lane with threadID_in_group `t` at step `s` of the group:
    /// `t + 4·h` with `fragLoad=1` (the PTX layout), else `V·t + 2·s + h` (the permuted k order
    /// of [`MmaTiles::frag`]).
    fn frag_k(&self, t: &str, h: Option<String>, s: Reg) -> String {
        let v = self.mma().frag;
        if v == 1 {
            return sum(&[Some("orcl_ks".into()), Some(t.into()), h]);
        }
        sum(&[
            Some("orcl_ks".into()),
            Some(format!("{v} * ({t})")),
            s.part(2, 1, false),
            h,
        ])
    }

    /// Element of A's fragment register `x` of the lane with groupID `g` and threadID_in_group
    /// `t` (C text) for the 16-row block `mi` of the warp tile and k-step `s` of the group, in
    /// local buffer `buf`.
    fn frag_a(&self, buf: &str, mi: &str, g: &str, t: &str, x: Reg, s: Reg) -> String {
        let m = self.mma();
        // The wrong mapping (test only) swaps registers 1 and 2: row 8·(x / 2), column 4·(x % 2).
        let hs = if m.frag == 1 { 4 } else { 1 };
        let (h, mx) = if m.wrong_fragments {
            (x.part(hs, 2, true), x.part(8, 2, false))
        } else {
            (x.part(hs, 2, false), x.part(8, 2, true))
        };
        let k = self.frag_k(t, h, s);
        let row = sum(&[
            Some("orcl_wm0".into()),
            Some(format!("{mi} * 16")),
            Some(g.into()),
            mx,
        ]);
        let o = &self.c.operands[m.a];
        format!("{}{}", self.tile(m.a, buf), Self::cell(o, &k, &row))
    }

    /// Element of B's fragment register `x` (as [`Cx::frag_a`]) for the 8-column block `ni`.
    fn frag_b(&self, buf: &str, ni: &str, g: &str, t: &str, x: Reg, s: Reg) -> String {
        let m = self.mma();
        let k = self.frag_k(t, x.part(if m.frag == 1 { 4 } else { 1 }, 1, false), s);
        let col = sum(&[
            Some("orcl_wn0".into()),
            Some(format!("{ni} * 8")),
            Some(g.into()),
        ]);
        let o = &self.c.operands[m.b];
        format!("{}{}", self.tile(m.b, buf), Self::cell(o, &k, &col))
    }

    /// Whether operand `n`'s fragments are read by `ldmatrix` (`fragLoad='ldmatrix'`, a
    /// k-contiguous tile).
    fn frag_ldmatrix(&self, n: usize) -> bool {
        self.mma().ldmatrix && self.c.operands[n].k_inner_pad.is_some()
    }

    /// `ldmatrix.sync.aligned.m8n8.x{count}.shared.b16` into `{name}_0..` (unsigned int): each
    /// 8 × 8 matrix of 16-bit pairs is 8 rows of four 32-bit elements (4 consecutive k of a
    /// k-contiguous tile), and lane l receives element l % 4 of row l / 4 of matrix x in its
    /// register x, which is the TF32 fragment layout (PTX ISA §9.7.13.4.15, "ldmatrix"; CUTLASS
    /// reads its TF32 `TensorOpMultiplicandCrosswise` tiles so). `row` (C lvalue) is the row this
    /// lane addresses: 16-byte aligned (rows of TK + 4 floats).
    fn ldmatrix(name: &str, count: u64, row: &str) -> Vec<KStmt> {
        let regs: Vec<String> = (0..count).map(|x| format!("{name}_{x}")).collect();
        let mut out: Vec<KStmt> = regs
            .iter()
            .map(|r| KStmt::Var {
                ty: "unsigned int".into(),
                name: r.clone(),
                value: None,
            })
            .collect();
        let slots: Vec<String> = (0..count).map(|x| format!("%{x}")).collect();
        let outs: Vec<String> = regs.iter().map(|r| format!("\"=r\"({r})")).collect();
        out.push(KStmt::Lines(format!(
            "asm volatile(\"ldmatrix.sync.aligned.m8n8.x{count}.shared.b16 {{{}}}, [%{count}];\" : {} : \"r\"(orcl_smem(&{row})));",
            slots.join(","),
            outs.join(", ")
        )));
        out
    }

    /// Whether operand `n`'s fragments are read as vectors of `fragLoad` (a k-contiguous tile).
    fn frag_vector(&self, n: usize) -> bool {
        let m = self.mma();
        m.frag > 1 && !m.wrong_fragments && self.c.operands[n].k_inner_pad.is_some()
    }

    /// Fragment register `name` (unsigned int) from float `src` (C text): `cvt.rna.tf32.f32`, or
    /// with `tf32Convert='stage'` (rounded when staged) or `'truncate'` (`mma.sync` ignores the
    /// low 13 mantissa bits) the bits as they lie.
    fn to_tf32(&self, name: String, src: String, out: &mut Vec<KStmt>) {
        if self.mma().convert != Tf32Convert::Fragment {
            out.push(KStmt::Var {
                ty: "unsigned int".into(),
                name,
                value: Some(format!("orcl_f2u({src})").into()),
            });
            return;
        }
        out.push(KStmt::Var {
            ty: "unsigned int".into(),
            name: name.clone(),
            value: None,
        });
        out.push(KStmt::Lines(format!(
            "asm(\"cvt.rna.tf32.f32 %0, %1;\" : \"=r\"({name}) : \"f\"({src}));"
        )));
    }

    /// A's fragment registers `orcl_a{mi}_0..3` of the 16-row block `mi` by one `ldmatrix.x4`:
    /// lane l gives the row of matrix l / 8 (= register x) at row l % 8 (= groupID).
    fn ldmatrix_a(&self, buf: &str, mi: u64) -> Vec<KStmt> {
        let row = self.frag_a(
            buf,
            &mi.to_string(),
            "(orcl_lane % 8)",
            "0",
            Reg::Text("orcl_lane / 8"),
            Reg::Const(0),
        );
        let mut out = Self::ldmatrix(&format!("orcl_ma{mi}"), 4, &row);
        for x in 0..4 {
            let raw = format!("orcl_u2f(orcl_ma{mi}_{x})");
            self.to_tf32(format!("orcl_a{mi}_{x}"), raw, &mut out);
        }
        out
    }

    /// B's fragment registers `orcl_b{ni}_0..1` of the 8-column block `ni` by one `ldmatrix.x2`:
    /// lanes 0-15 give the rows (columns of B) of matrices 0 and 1 (= register x).
    fn ldmatrix_b(&self, buf: &str, ni: u64) -> Vec<KStmt> {
        let row = self.frag_b(
            buf,
            &ni.to_string(),
            "(orcl_lane % 8)",
            "0",
            Reg::Text("(orcl_lane / 8) % 2"),
            Reg::Const(0),
        );
        let mut out = Self::ldmatrix(&format!("orcl_mb{ni}"), 2, &row);
        for x in 0..2 {
            let raw = format!("orcl_u2f(orcl_mb{ni}_{x})");
            self.to_tf32(format!("orcl_b{ni}_{x}"), raw, &mut out);
        }
        out
    }

    /// The fragment registers of one k-step group as TF32 bits (`cvt.rna.tf32.f32`): A's
    /// `orcl_a{mi}[_{s}]_{x}`, B's `orcl_b{ni}[_{s}]_{x}` (`_{s}` with `fragLoad=4`). A
    /// k-contiguous tile with `fragLoad` V > 1 is read V elements at a time (A: rows g and g + 8;
    /// B: column g), element `2·s + h` being register half h of step s; else one read per register.
    fn fragments(&self, buf: &str) -> Vec<KStmt> {
        let m = self.mma();
        let (v, steps) = (m.frag, self.steps());
        let mut out = Vec::new();
        let reg = |p: &str, i: u64, s: u64, x: u64| match steps {
            1 => format!("orcl_{p}{i}_{x}"),
            _ => format!("orcl_{p}{i}_{s}_{x}"),
        };
        let cvt = |name: String, src: String, out: &mut Vec<KStmt>| self.to_tf32(name, src, out);
        let vector = |name: &str, src: String, out: &mut Vec<KStmt>| {
            let elements: Vec<String> = (0..v).map(|e| format!("{name}_{e}")).collect();
            for e in &elements {
                out.push(KStmt::Var {
                    ty: "float".into(),
                    name: e.clone(),
                    value: None,
                });
            }
            out.push(KStmt::VecLoad {
                ty: orcl_frontend::ir::ScalarType::Float,
                width: v,
                src,
                global: false,
                dst: VecDst::Elements(elements),
            });
        };
        let (gid, tig) = ("orcl_gid", "orcl_tig");
        for mi in 0..m.wm / 16 {
            let i = mi.to_string();
            if self.frag_ldmatrix(m.a) {
                out.extend(self.ldmatrix_a(buf, mi));
                continue;
            }
            if self.frag_vector(m.a) {
                for rh in 0..2 {
                    let src = self.frag_a(buf, &i, gid, tig, Reg::Const(rh), Reg::Const(0));
                    vector(&format!("orcl_fa{mi}_{rh}"), src, &mut out);
                }
            }
            for s in 0..steps {
                for x in 0..4 {
                    let src = match self.frag_vector(m.a) {
                        true => format!("orcl_fa{mi}_{}_{}", x % 2, 2 * s + x / 2),
                        false => self.frag_a(buf, &i, gid, tig, Reg::Const(x), Reg::Const(s)),
                    };
                    cvt(reg("a", mi, s, x), src, &mut out);
                }
            }
        }
        for ni in 0..m.wn / 8 {
            let i = ni.to_string();
            if self.frag_ldmatrix(m.b) {
                out.extend(self.ldmatrix_b(buf, ni));
                continue;
            }
            if self.frag_vector(m.b) {
                let src = self.frag_b(buf, &i, gid, tig, Reg::Const(0), Reg::Const(0));
                vector(&format!("orcl_fb{ni}"), src, &mut out);
            }
            for s in 0..steps {
                for x in 0..2 {
                    let src = match self.frag_vector(m.b) {
                        true => format!("orcl_fb{ni}_{}", 2 * s + x),
                        false => self.frag_b(buf, &i, gid, tig, Reg::Const(x), Reg::Const(s)),
                    };
                    cvt(reg("b", ni, s, x), src, &mut out);
                }
            }
        }
        out
    }

    /// One k-step group (8, or 16 with `fragLoad=4`) with the hardware instruction: the
    /// fragments ([`Cx::fragments`]), then one `mma.sync` per 16 × 8 block and step, all
    /// unrolled here.
    fn mma_hardware(&self, buf: &str) -> Vec<KStmt> {
        let m = self.mma();
        let steps = self.steps();
        let mut out = self.fragments(buf);
        let reg = |p: &str, i: u64, s: u64, x: u64| match steps {
            1 => format!("orcl_{p}{i}_{x}"),
            _ => format!("orcl_{p}{i}_{s}_{x}"),
        };
        for s in 0..steps {
            for mi in 0..m.wm / 16 {
                for ni in 0..m.wn / 8 {
                    let acc: Vec<String> = (0..4)
                        .map(|q| format!("\"+f\"(orcl_acc[{mi}][{ni}][{q}])"))
                        .collect();
                    let a: Vec<String> = (0..4)
                        .map(|x| format!("\"r\"({})", reg("a", mi, s, x)))
                        .collect();
                    let b: Vec<String> = (0..2)
                        .map(|x| format!("\"r\"({})", reg("b", ni, s, x)))
                        .collect();
                    out.push(KStmt::Lines(format!(
                        "asm volatile(\"{MMA}\"\n    : {}\n    : {}, {});",
                        acc.join(", "),
                        a.join(", "),
                        b.join(", ")
                    )));
                }
            }
        }
        out
    }

    /// One k-step group emulated: for each step of 8, each work-item sums its own accumulators'
    /// 8 products of TF32-rounded inputs, reading A(r, kk) as register r / 8 + 2·(kk / 4) of lane
    /// (r % 8)·4 + kk % 4, and B(kk, c) as register kk / 4 of lane c·4 + kk % 4 (the inverse of
    /// the fragment layouts), through the fragment address functions.
    fn mma_emulated(&self, buf: &str) -> Vec<KStmt> {
        let m = self.mma();
        let long = |name: &str, value: &str| KStmt::Let {
            ty: "long",
            name: name.into(),
            value: KExpr::Text(value.into()),
        };
        let s = match self.steps() {
            1 => Reg::Const(0),
            _ => Reg::Text("orcl_s"),
        };
        let a = self.frag_a(
            buf,
            "orcl_mi",
            "orcl_la / 4",
            "orcl_la % 4",
            Reg::Text("orcl_xa"),
            s,
        );
        let b = self.frag_b(
            buf,
            "orcl_ni",
            "orcl_lb / 4",
            "orcl_lb % 4",
            Reg::Text("orcl_xb"),
            s,
        );
        let step = vec![
            long("orcl_la", "(orcl_r % 8) * 4 + orcl_kk % 4"),
            long("orcl_xa", "orcl_r / 8 + 2 * (orcl_kk / 4)"),
            long("orcl_lb", "orcl_c * 4 + orcl_kk % 4"),
            long("orcl_xb", "orcl_kk / 4"),
            KStmt::Store {
                target: "orcl_d".into(),
                value: match m.convert {
                    // Rounded when staged (`round_store`), as the hardware form's tiles.
                    Tf32Convert::Stage => format!("orcl_d + ({a}) * ({b})"),
                    // Truncated: the low 13 mantissa bits cleared, as the tensor cores read them.
                    Tf32Convert::Truncate => format!(
                        "orcl_d + orcl_u2f(orcl_f2u({a}) & 0xffffe000u) * orcl_u2f(orcl_f2u({b}) & 0xffffe000u)"
                    ),
                    Tf32Convert::Fragment => format!("orcl_d + orcl_tf32({a}) * orcl_tf32({b})"),
                }
                .into(),
            },
        ];
        let mut k_loop = Self::each("orcl_kk", 8, step);
        if self.steps() > 1 {
            k_loop = Self::each("orcl_s", self.steps(), vec![k_loop]);
        }
        let body = vec![
            long("orcl_r", "orcl_gid + 8 * (orcl_q / 2)"),
            long("orcl_c", "2 * orcl_tig + orcl_q % 2"),
            KStmt::Var {
                ty: "float".into(),
                name: "orcl_d".into(),
                value: Some("orcl_acc[orcl_mi][orcl_ni][orcl_q]".into()),
            },
            k_loop,
            KStmt::Store {
                target: "orcl_acc[orcl_mi][orcl_ni][orcl_q]".into(),
                value: "orcl_d".into(),
            },
        ];
        vec![Self::each(
            "orcl_mi",
            m.wm / 16,
            vec![Self::each(
                "orcl_ni",
                m.wn / 8,
                vec![Self::each("orcl_q", 4, body)],
            )],
        )]
    }

    /// The whole k-slab (`TK` steps; the loads zero-fill past the reduction loop's end, so a
    /// partial slab runs them too) in local buffer `buf`.
    pub(super) fn mma_compute(&self, buf: &str) -> Vec<KStmt> {
        if self.mma().frag_buffers > 1 {
            // Hardware: the k-steps unrolled over two fragment sets; emulated: as below.
            return vec![KStmt::Mma {
                hardware: self.ldm16_pipelined(buf),
                emulated: vec![KStmt::For {
                    var: "orcl_ks".into(),
                    start: "0".into(),
                    end: self.c.tk.to_string().into(),
                    step: "16".into(),
                    unroll: Some(0),
                    body: self.mma16_emulated(buf),
                }],
            }];
        }
        vec![KStmt::For {
            var: "orcl_ks".into(),
            start: "0".into(),
            end: self.c.tk.to_string().into(),
            step: (self.mma().k_step() * self.steps()).to_string().into(),
            unroll: Some(0),
            body: vec![match self.mma().input.is_16bit() {
                true => KStmt::Mma {
                    hardware: self.mma16_hardware(buf),
                    emulated: self.mma16_emulated(buf),
                },
                false => KStmt::Mma {
                    hardware: self.mma_hardware(buf),
                    emulated: self.mma_emulated(buf),
                },
            }],
        }]
    }

    /// The slab loop with `stages` = S > 1 (CUTLASS's multistage main loop): slabs 0..S-2 are
    /// copied asynchronously into buffers 0..S-2, one `cp.async` group each; per slab `t`, the
    /// work-item waits until at most S-2 of its groups are pending (slab `t` has landed), a
    /// barrier makes every work-item's copies visible and ends every read of slab `t - 1`'s
    /// buffer, slab `t + S - 1` is issued into that buffer, and slab `t` is computed. One barrier
    /// per slab; past the end the copies are skipped (their groups empty), and the loads
    /// zero-fill past the reduction loop. Where `ORCL_MMA_SYNC` is 0 the copies are plain loads
    /// and the waits nothing. With `wgmma` ([`MmaTiles::wgmma`]) S - 2 slabs are in flight: the
    /// wait leaves S - 3 groups pending, `fence.proxy.async` precedes the barrier, slab
    /// `t + S - 2` goes into slab `t - 2`'s buffer (its wgmma group completed at slab `t - 1`'s
    /// `wgmma.wait_group 1`), and `wgmma.wait_group 0` follows the loop. An operand TF32
    /// `wgmma` transposes into its tile ([`Cx::transposed`]) is register-staged (as CUTLASS's
    /// `MmaPipelined` stages its tiles, `gemm/threadblock/mma_pipelined.h`, here around
    /// `wgmma`): after slab `t`'s `wgmma` are issued,
    /// its registers (slab `t + S - 2`, loaded during slab `t - 1`) are stored transposed into
    /// the buffer being filled, then slab `t + S - 1` is loaded into them; the loads' latency
    /// passes while the tensor cores work and the warps wait at `wait_group` and the barrier
    /// (H100, NN 4096³: 0.72 ms instead of 1.03–1.16 ms with synchronous transposed loads,
    /// docs/GEMM.md).
    pub(super) fn pipelined(&self, con: &Contraction<'_>) -> Vec<KStmt> {
        let (tk, st) = (self.c.tk, self.c.stages);
        // Slabs in flight: S - 1, or with wgmma S - 2 (slab t's group may still read its buffer
        // while slab t + 1 is computed; buffer t's refill waits for slab t + 2's barrier).
        let wg = self.mma().wgmma;
        let ahead = if wg { st - 2 } else { st - 1 };
        let ptx = |text: &str| KStmt::Mma {
            hardware: vec![KStmt::Lines(format!(
                "asm volatile(\"{text}\" ::: \"memory\");"
            ))],
            emulated: Vec::new(),
        };
        let commit = || ptx("cp.async.commit_group;");
        let first = self.wgmma_issue_first();
        let mut out = Vec::new();
        if first {
            out.extend(self.prefetch_regs());
        }
        for s in 0..ahead {
            let k0 = (s * tk).to_string();
            let buf = s.to_string();
            let mut then = self.loads(&k0, None, true, super::Load::Async(&buf));
            if first {
                then.extend(self.loads(&k0, None, true, super::Load::ToRegs));
                then.extend(self.loads(&k0, None, false, super::Load::RegsToTile(&buf)));
            }
            out.push(KStmt::If {
                cond: format!("{k0} < orcl_kn").into(),
                then,
            });
            out.push(commit());
        }
        if first {
            // The transposed operand's slab `ahead` into the registers: stored at slab 0.
            let k0 = (ahead * tk).to_string();
            out.push(KStmt::If {
                cond: format!("{k0} < orcl_kn").into(),
                then: self.loads(&k0, None, true, super::Load::ToRegs),
            });
        }
        let int = |name: &str, value: String| KStmt::Let {
            ty: "int",
            name: name.into(),
            value: KExpr::Text(value),
        };
        let compute = KStmt::Block(match wg {
            true => self.wgmma_slab("orcl_buf"),
            false => self.mma_compute("orcl_buf"),
        });
        let mut slab = vec![
            int("orcl_buf", format!("(int)((orcl_k0 / {tk}) % {st})")),
            int("orcl_fill", format!("(orcl_buf + {ahead}) % {st}")),
            ptx(&format!("cp.async.wait_group {};", ahead - 1)),
            // wgmma reads the tiles through the async proxy: the copies are ordered before it.
            KStmt::Block(match wg {
                true => vec![ptx("fence.proxy.async.shared::cta;")],
                false => Vec::new(),
            }),
            KStmt::Block(self.convert_in_place("orcl_buf")),
            KStmt::Barrier,
        ];
        if first {
            slab.push(compute.clone());
        }
        let k_fill = format!("orcl_k0 + {}", ahead * tk);
        let mut fill =
            self.fast_loads_hoisted(&k_fill, "orcl_fast0", super::Load::Async("orcl_fill"));
        if first {
            fill.extend(self.loads(&k_fill, None, false, super::Load::RegsToTile("orcl_fill")));
        }
        slab.extend([
            KStmt::If {
                cond: format!("{k_fill} < orcl_kn").into(),
                then: fill,
            },
            commit(),
        ]);
        if first {
            // The registers are free again: the transposed operand's next slab into them.
            let k_next = format!("orcl_k0 + {}", (ahead + 1) * tk);
            slab.push(KStmt::If {
                cond: format!("{k_next} < orcl_kn").into(),
                then: self.fast_loads_hoisted(&k_next, "orcl_fast0", super::Load::ToRegs),
            });
        }
        slab.push(KStmt::Block(self.prefetch_result(con)));
        slab.push(match first {
            true => KStmt::Mma {
                hardware: vec![wgmma::gmma_ptx("wgmma.wait_group.sync.aligned 1;")],
                emulated: Vec::new(),
            },
            false => compute,
        });
        out.extend(self.fast_tile_flag("orcl_fast0"));
        let r = self.mma().prefetch_result;
        if r > 0 {
            out.push(KStmt::Let {
                ty: "long",
                name: "orcl_kpre".into(),
                value: KExpr::Text(format!(
                    "(orcl_kn - 1) / {tk} >= {0} ? ((orcl_kn - 1) / {tk} - {0}) * {tk} : 0",
                    r - 1
                )),
            });
        }
        out.push(KStmt::For {
            var: "orcl_k0".into(),
            start: "0".into(),
            end: "orcl_kn".into(),
            step: tk.to_string().into(),
            unroll: None,
            body: slab,
        });
        if wg {
            out.extend(self.wgmma_drain());
        }
        out
    }

    /// `target = value` rounded to TF32 (C lvalue and value): `cvt.rna.tf32.f32` where
    /// `ORCL_MMA_SYNC`, else `orcl_tf32` (the same rounding: nearest, ties away from zero).
    pub(super) fn round_store(target: &str, value: &str) -> KStmt {
        KStmt::Mma {
            hardware: vec![KStmt::Block(vec![
                KStmt::Var {
                    ty: "unsigned int".into(),
                    name: "orcl_r".into(),
                    value: None,
                },
                KStmt::Lines(format!(
                    "asm(\"cvt.rna.tf32.f32 %0, %1;\" : \"=r\"(orcl_r) : \"f\"({value}));"
                )),
                KStmt::Store {
                    target: target.to_string().into(),
                    value: "orcl_u2f(orcl_r)".into(),
                },
            ])],
            emulated: vec![KStmt::Store {
                target: target.to_string().into(),
                value: format!("orcl_tf32({value})").into(),
            }],
        }
    }

    /// With `tf32Convert='stage'`, the elements this work-item loaded into local buffer `buf`
    /// (C text) rounded to TF32 in place: the groups of [`Cx::loads`] (every cell of the slab
    /// belongs to one work-item's group, zero-filled or not), after that work-item's copies have
    /// landed (its own `cp.async.wait_group` or plain stores) and before the barrier that shows
    /// them to the others. Nothing without `'stage'`.
    pub(super) fn convert_in_place(&self, buf: &str) -> Vec<KStmt> {
        let (c, s) = (self.c, self.s);
        if self.mma().convert != Tf32Convert::Stage {
            return Vec::new();
        }
        let w = c.load_vec;
        let nt = s.local_size();
        let mut out = Vec::new();
        for (n, o) in c.operands.iter().enumerate().filter(|(_, o)| o.staged) {
            let d = o.dim.expect("staged operands have a dimension");
            let p = s.dims[d].per_group;
            let plan = self.load_plan(o);
            let (kk, t) = self.slab_position(o, &plan, p);
            let (ck, ct) = match (w, o.red_fast) {
                (1, _) => ("orcl_kk".to_string(), "orcl_t".to_string()),
                (_, true) => ("orcl_kk + orcl_w".to_string(), "orcl_t".to_string()),
                (_, false) => ("orcl_kk".to_string(), "orcl_t + orcl_w".to_string()),
            };
            let cell = format!("{}{}", self.tile(n, buf), Self::cell(o, &ck, &ct));
            let body = vec![
                Self::long("orcl_kk", kk),
                Self::long("orcl_t", t),
                Self::each("orcl_w", w, vec![Self::round_store(&cell, &cell)]),
            ];
            let body = Self::guarded_group(o, &plan, p, c.tk, c.tk * p / w, nt, body);
            out.push(Self::each("orcl_q", plan.iterations, body));
        }
        out
    }

    /// The slab loads starting at reduction offset `k0` (C text; `k_guard`: the slab may reach
    /// past the reduction loop) with a uniform fast path: `orcl_fast` holds when the whole tile
    /// of every staged operand is inside the iteration space, the slab inside the reduction loop,
    /// and (vector groups) the first group's address, the next group's along the contiguous
    /// dimension and the next row's are aligned to the vector; the subscripts being affine,
    /// every group's address is then aligned. The groups are then read without guards, else
    /// each is guarded (H100, 4096³: the guards cost 12% of the kernel's time).
    pub(super) fn fast_loads(&self, k0: &str, k_guard: bool, mode: super::Load) -> Vec<KStmt> {
        let (mut cond, checks) = self.fast_terms(k0, "orcl_fast");
        if k_guard {
            cond.insert(0, format!("{k0} + {} <= orcl_kn", self.c.tk));
        }
        self.fast_branch(cond, checks, k0, k_guard, mode)
    }

    /// [`Cx::fast_loads`] with the tile and alignment part of the test hoisted out of the slab
    /// loop into `flag` (set by [`Cx::fast_tile_flag`]): only the slab's own bound is tested per
    /// slab. The same test: the subscripts are affine in the reduction variable and every slab
    /// start is a multiple of the k-slab, itself a multiple of the vector, so the checks at slab
    /// 0 hold at every slab (the argument of [`Cx::fast_loads`]).
    pub(super) fn fast_loads_hoisted(&self, k0: &str, flag: &str, mode: super::Load) -> Vec<KStmt> {
        let cond = vec![format!("{k0} + {} <= orcl_kn", self.c.tk), flag.to_string()];
        self.fast_branch(cond, Vec::new(), k0, true, mode)
    }

    /// `int flag`: [`Cx::fast_loads`]'s tile and alignment test at slab 0, once per kernel.
    pub(super) fn fast_tile_flag(&self, flag: &str) -> Vec<KStmt> {
        let (cond, checks) = self.fast_terms("0", flag);
        flag_with_checks(flag, &cond, checks)
    }

    /// The fast path's terms at slab `k0`: every staged tile inside the iteration space (C
    /// text), and the alignment checks that clear `flag`.
    fn fast_terms(&self, k0: &str, flag: &str) -> (Vec<String>, Vec<KStmt>) {
        let (c, s) = (self.c, self.s);
        let w = c.load_vec;
        let mut cond = Vec::new();
        let mut checks = Vec::new();
        for o in c.operands.iter().filter(|o| o.staged) {
            let d = o.dim.expect("staged operands have a dimension");
            let p = s.dims[d].per_group;
            cond.push(self.in_range(d, &format!("orcl_base{d} + {}", p - 1)));
            if w == 1 {
                continue;
            }
            let value = c_expr(&o.expr, &|_| None);
            let steps = if o.red_fast {
                [(0, 0), (w, 0), (0, 1)]
            } else {
                [(0, 0), (0, w), (1, 0)]
            };
            for (kk, t) in steps {
                checks.push(KStmt::Block(vec![
                    self.var(&s.dims[d].var, format!("orcl_base{d} + {t}")),
                    self.var(&c.red_var, format!("orcl_klo + {k0} + {kk}")),
                    KStmt::Store {
                        target: flag.into(),
                        value: format!(
                            "{flag} && (size_t)&{value} % {} == 0",
                            w * o.ty.size_bytes() as u64
                        )
                        .into(),
                    },
                ]));
            }
        }
        (cond, checks)
    }

    /// `int orcl_fast = cond` (C texts, joined by &&), the `checks`, and the slab's loads
    /// without guards where `orcl_fast` holds, else guarded.
    fn fast_branch(
        &self,
        cond: Vec<String>,
        checks: Vec<KStmt>,
        k0: &str,
        k_guard: bool,
        mode: super::Load,
    ) -> Vec<KStmt> {
        let mut body = flag_with_checks("orcl_fast", &cond, checks);
        body.push(KStmt::IfElse {
            cond: "orcl_fast".into(),
            then: self.group_loads(k0, None, k_guard, mode, true),
            otherwise: self.group_loads(k0, None, k_guard, mode, false),
        });
        vec![KStmt::Block(body)]
    }

    /// The loop variables of accumulator `orcl_acc[orcl_mi][orcl_ni][orcl_q]`.
    fn mma_output_vars(&self) -> Vec<KStmt> {
        let s = self.s;
        vec![
            self.var(
                &s.dims[1].var,
                "orcl_base1 + orcl_wm0 + orcl_mi * 16 + orcl_gid + 8 * (orcl_q / 2)".into(),
            ),
            self.var(
                &s.dims[0].var,
                "orcl_base0 + orcl_wn0 + orcl_ni * 8 + 2 * orcl_tig + orcl_q % 2".into(),
            ),
        ]
    }

    /// Every accumulator of the work-item around `body`, fully unrolled.
    fn each_accumulator(&self, body: Vec<KStmt>) -> KStmt {
        let m = self.mma();
        Self::each(
            "orcl_mi",
            m.wm / 16,
            vec![Self::each(
                "orcl_ni",
                m.wn / 8,
                vec![Self::each("orcl_q", 4, body)],
            )],
        )
    }

    /// Whether the current accumulator's output is inside the iteration space (C text).
    fn mma_in_range(&self) -> String {
        let s = self.s;
        format!(
            "{} && {}",
            self.in_range(0, &s.dims[0].var),
            self.in_range(1, &s.dims[1].var)
        )
    }
}

/// The work-item's ids: group ids and tile bases, the hardware linear id `orcl_lin` (the slab
/// loads use it), its warp and lane, the lane's groupID and threadID_in_group, and the warp
/// tile's first row and column within the work-group's tile.
fn ids(cx: &Cx<'_>, nest: &Nest<'_>) -> Vec<KStmt> {
    let (s, m) = (cx.s, cx.mma());
    let mut body = vec![KStmt::MmaMacros { sm90a: m.wgmma }];
    let long = |name: &str, value: KExpr| KStmt::Let {
        ty: "long",
        name: name.into(),
        value,
    };
    let swizzled = m.swizzle > 1 && s.dims.len() == 2;
    if swizzled {
        body.extend(swizzle(m.swizzle));
    }
    for (d, dim) in s.dims.iter().enumerate() {
        let l = nest.loops[dim.depth];
        let group = match swizzled {
            true => KExpr::Text(format!("orcl_sw{d}")),
            false => KExpr::GroupId(d),
        };
        body.push(long(&format!("orcl_g{d}"), group));
        body.push(long(&format!("orcl_h{d}"), KExpr::LocalId(d)));
        body.push(long(
            &format!("orcl_base{d}"),
            KExpr::Text(format!(
                "(long)({}) + orcl_g{d} * {}",
                c_expr(&l.lower, &|_| None),
                dim.per_group
            )),
        ));
    }
    let w = crate::schedule::WARP;
    for (name, value) in [
        (
            "orcl_lin",
            format!("orcl_h0 + {} * orcl_h1", s.dims[0].items),
        ),
        ("orcl_warp", format!("orcl_lin / {w}")),
        ("orcl_lane", format!("orcl_lin % {w}")),
        ("orcl_gid", "orcl_lane / 4".to_string()),
        ("orcl_tig", "orcl_lane % 4".to_string()),
    ] {
        body.push(long(name, KExpr::Text(value)));
    }
    // wgmma: warpgroup g = warp / 4 owns rows 64·(g / warps_n).. and columns wn·(g % warps_n)..;
    // its warp w = warp % 4 holds rows 16·w.. of them.
    let (wm0, wn0) = match m.wgmma {
        true => {
            let g = format!("(orcl_warp / 4 / {0}) * 64", m.warps_n);
            body.push(long("orcl_wgm0", KExpr::Text(g)));
            (
                "orcl_wgm0 + (orcl_warp % 4) * 16".to_string(),
                format!("(orcl_warp / 4 % {}) * {}", m.warps_n, m.wn),
            )
        }
        false => (
            format!("(orcl_warp / {}) * {}", m.warps_n, m.wm),
            format!("(orcl_warp % {}) * {}", m.warps_n, m.wn),
        ),
    };
    body.push(long("orcl_wm0", KExpr::Text(wm0)));
    body.push(long("orcl_wn0", KExpr::Text(wn0)));
    body
}

/// `blockSwizzle` S ([`crate::schedule::MmaTiles::swizzle`]): the work-group's tile column
/// `orcl_sw0` and row `orcl_sw1` from its position in launch order, walking groups of S tile rows.
fn swizzle(s: u64) -> Vec<KStmt> {
    let long = |name: &str, value: KExpr| KStmt::Let {
        ty: "long",
        name: name.into(),
        value,
    };
    let mut out = vec![
        long("orcl_nx", KExpr::NumGroups(0)),
        long("orcl_ny", KExpr::NumGroups(1)),
        long("orcl_bx", KExpr::GroupId(0)),
        long("orcl_by", KExpr::GroupId(1)),
    ];
    for (name, value) in [
        ("orcl_blin", "orcl_by * orcl_nx + orcl_bx".to_string()),
        (
            "orcl_bfirst",
            format!("(orcl_blin / ({s} * orcl_nx)) * {s}"),
        ),
        (
            "orcl_brows",
            format!("orcl_ny - orcl_bfirst < {s} ? orcl_ny - orcl_bfirst : {s}"),
        ),
        ("orcl_bw", format!("orcl_blin % ({s} * orcl_nx)")),
        ("orcl_sw1", "orcl_bfirst + orcl_bw % orcl_brows".into()),
        ("orcl_sw0", "orcl_bw / orcl_brows".into()),
    ] {
        out.push(long(name, KExpr::Text(value)));
    }
    out
}

/// The kernel body of the tensor-core form.
pub(super) fn body(cx: &Cx<'_>, con: &Contraction<'_>, nest: &Nest<'_>) -> Vec<KStmt> {
    let mut body = ids(cx, nest);
    body.extend(super::local_tiles(cx.s, cx.c));
    body.extend(result::accumulators(cx, con));
    body.extend(super::reduction_bounds(con.red));
    body.extend(super::slabs(cx, con));
    let mut out = cx.mma_output_vars();
    out.push(KStmt::If {
        cond: cx.mma_in_range().into(),
        then: vec![KStmt::Lines(super::result_lines(
            con,
            &result::scaled_sum(cx, con),
        ))],
    });
    body.push(cx.each_accumulator(out));
    body
}

/// `int flag = cond` (C texts joined by `&&`; 1 when there are none), then the `checks` that
/// may clear it: the fast path's test, per slab or once per kernel.
fn flag_with_checks(flag: &str, cond: &[String], checks: Vec<KStmt>) -> Vec<KStmt> {
    let value = if cond.is_empty() {
        "1".to_string()
    } else {
        cond.join(" && ")
    };
    let mut out = vec![KStmt::Var {
        ty: "int".into(),
        name: flag.into(),
        value: Some(value.into()),
    }];
    out.extend(checks);
    out
}
