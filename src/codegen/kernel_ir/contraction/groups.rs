//! The stores of one slab-load group of a contraction's staged operand (split from the
//! contraction's kernel IR for size): a vector group into its tile cells or as one local vector
//! (`cp.async`), a transposed group element by element, a register-staged group, and a transposed
//! operand's register-staged blocks of k-rows as K-major chunks (`transposeRows`).

use super::{Cx, Load};
use crate::kernel_ir::{KExpr, KStmt, VecDst};
use orcl_frontend::ir::ScalarType;

impl Cx<'_> {
    /// One load group of `vecLoad` elements of staged operand `o` (tile extent `p`) read as one
    /// vector from global element `value` (C text): into element 0's cell and on as one local
    /// vector when the group is whole and aligned in the local tile (one `cp.async` with
    /// [`Load::Async`]), else into each element's cell (`lvalue(v)`: the C lvalue of element `v`,
    /// C text). A transposed group ([`Cx::transposed_group`]) is stored in a rotated order.
    pub(super) fn vector_group(
        &self,
        o: &crate::schedule::Operand,
        p: u64,
        mode: Load,
        lvalue: &dyn Fn(&str) -> String,
        value: &str,
    ) -> KStmt {
        let (c, w) = (self.c, self.c.load_vec);
        if o.k_inner_pad.is_some() && !o.red_fast && !matches!(mode, Load::ToRegs) {
            return Self::transposed_group(o.ty, w, lvalue, value);
        }
        let first = lvalue("0");
        let elements = (0..w).map(|v| lvalue(&v.to_string())).collect();
        // A k-contiguous tile of an operand contiguous along its tile (TF32 `wgmma`: K-major,
        // transposed on the way) takes the group element by element.
        let whole = matches!(mode, Load::ToTile | Load::Async(_))
            && match o.k_inner_pad {
                Some(kp) => o.red_fast && (c.tk + kp) % w == 0,
                None => !o.red_fast && (p + c.pad) % w == 0,
            };
        let vector = KStmt::VecLoad {
            ty: o.ty,
            width: w,
            src: value.to_string(),
            global: true,
            dst: if whole {
                VecDst::Local(first.clone())
            } else {
                VecDst::Elements(elements)
            },
        };
        if whole && matches!(mode, Load::Async(_)) {
            // One copy of the whole group; plain loads where there is no cp.async.
            return KStmt::Mma {
                hardware: vec![self.async_copy(&first, value, o.ty, w)],
                emulated: vec![vector],
            };
        }
        vector
    }

    /// A load group of an operand contiguous along its tile into a k-contiguous tile (TF32
    /// `wgmma`, whose tiles are all K-major): the vector read into registers `orcl_tv0..`, then
    /// element `x` = (`v` + r) mod W stored at step `v` into its own tile row, r = (`orcl_t` / 8)
    /// mod W. The swizzle places element x of the group at column `kk ^ 4·((t + x) % 8)`: with
    /// every lane storing the same x, lanes 8 columns apart collide (the rows' 32-bank offsets are
    /// equal), and at most 2 of the 8 values of (t + x) % 8 occur among the lanes of a row; the
    /// rotation gives lanes of groups 8 apart different x, so that all 8 occur (4 work-items
    /// along the row × 8 k-rows, or 8 × 4 with `loadItems`, store to 32 distinct banks).
    fn transposed_group(
        ty: ScalarType,
        w: u64,
        lvalue: &dyn Fn(&str) -> String,
        value: &str,
    ) -> KStmt {
        let regs: Vec<String> = (0..w).map(|v| format!("orcl_tv{v}")).collect();
        let mut out: Vec<KStmt> = regs
            .iter()
            .map(|r| KStmt::Var {
                ty: ty.c_name().into(),
                name: r.clone(),
                value: None,
            })
            .collect();
        out.push(KStmt::VecLoad {
            ty,
            width: w,
            src: value.to_string(),
            global: true,
            dst: VecDst::Elements(regs.clone()),
        });
        out.extend(Self::rotated_stores(w, lvalue, &regs));
        KStmt::Block(out)
    }

    /// The `w` stores of a transposed group from registers `regs` (C texts) in the rotated order
    /// of [`Cx::transposed_group`]: at step `v`, element x = (`v` + `orcl_t` / 8) mod `w` into
    /// `lvalue("orcl_x")`, its register picked by comparisons (a constant index: the registers
    /// stay registers).
    fn rotated_stores(w: u64, lvalue: &dyn Fn(&str) -> String, regs: &[String]) -> Vec<KStmt> {
        let pick = (1..w).rev().fold(regs[0].clone(), |rest, x| {
            format!("orcl_x == {x} ? {} : {rest}", regs[x as usize])
        });
        (0..w)
            .map(|v| {
                KStmt::Block(vec![
                    KStmt::Let {
                        ty: "int",
                        name: "orcl_x".into(),
                        value: KExpr::Text(format!("(int)(({v} + orcl_t / 8) % {w})")),
                    },
                    KStmt::Store {
                        target: lvalue("orcl_x").into(),
                        value: pick.clone().into(),
                    },
                ])
            })
            .collect()
    }

    /// Where group `orcl_q` of work-item `orcl_lin` lies in the slab of an operand transposed in
    /// blocks of R = [`Cx::chunk_rows`] k-rows (`transposeRows`): (`orcl_kk`, `orcl_t`), C text.
    /// Block e = `orcl_lin` + (`orcl_q` / R)·(local size) holds k-rows R·kb .. R·kb + R − 1 of
    /// group column g (group `orcl_q` its k-row `orcl_q` mod R), e's bits read low to high as
    /// g mod 2 (1 bit), kb mod 8 (3), g / 2 mod 2 (1), kb / 8 (the rest of TK / R), g / 4. Column
    /// x of the block goes into tile row 4·g + x as one chunk of R floats at float column
    /// R·kb ^ 4·((4·g + x) mod 8): with R = 4 the 8 work-items of a quarter-warp (kb 0..3 × g mod
    /// 2) meet the 8 16-byte chunks of a 128-byte bank row, with R = 2 the 16 of a half-warp (kb
    /// 0..7 × g mod 2) its 16 8-byte halves: no bank conflicts (a `st.shared.v4` is served a
    /// quarter-warp per pass, `.v2` a half-warp; CUDA C++ Programming Guide, "Shared Memory" of
    /// compute capability 5.x+; enumerated by bench/tensor/transpose_banks.py). A warp's loads of
    /// one k-row are 4 groups (64 contiguous bytes) for 8 k-rows.
    pub(super) fn block_position(&self, o: &crate::schedule::Operand) -> (String, String) {
        let (r, w, nt) = (self.chunk_rows(o), self.c.load_vec, self.s.local_size());
        let kb = self.c.tk / r;
        let e = format!("(orcl_lin + (orcl_q / {r}) * {nt})");
        let kb_hi = match kb / 8 {
            1 => String::new(),
            h => format!("{e} / 32 % {h} * 8 + "),
        };
        (
            format!("({kb_hi}{e} / 2 % 8) * {r} + orcl_q % {r}"),
            format!("({e} / {} * 4 + {e} / 16 % 2 * 2 + {e} % 2) * {w}", 4 * kb),
        )
    }

    /// The stores of transposed operand `n`'s prefetch registers into local buffer `buf` in
    /// blocks of `r` k-rows ([`Cx::block_position`]; `lets`: its `orcl_kk`, `orcl_t` of group
    /// `orcl_q`, the block's first): per block `orcl_b` of the `groups` / `r`, each of the `W`
    /// columns as one `st.shared.v{r}.f32` of registers `orcl_p{n}[(orcl_q + i)·W + x]`, i < `r`
    /// (consecutive k of one tile row, contiguous under the swizzle as `orcl_kk` is a multiple of
    /// `r` ≤ 4 and the swizzle XORs multiples of 4); emulated: element by element.
    pub(super) fn chunk_stores(
        &self,
        n: usize,
        buf: &str,
        r: u64,
        groups: u64,
        lets: Vec<KStmt>,
    ) -> KStmt {
        let (o, w) = (&self.c.operands[n], self.c.load_vec);
        let mut body = vec![KStmt::Let {
            ty: "long",
            name: "orcl_q".into(),
            value: KExpr::Text(format!("orcl_b * {r}")),
        }];
        body.extend(lets);
        for x in 0..w {
            let cell = |i: u64| {
                let kk = match i {
                    0 => "orcl_kk".to_string(),
                    _ => format!("orcl_kk + {i}"),
                };
                format!(
                    "{}{}",
                    self.tile(n, buf),
                    Self::cell(o, &kk, &format!("orcl_t + {x}"))
                )
            };
            let reg = |i: u64| format!("orcl_p{n}[(orcl_q + {i}) * {w} + {x}]");
            let slots: Vec<String> = (0..r).map(|i| format!("%{}", i + 1)).collect();
            let values: Vec<String> = (0..r).map(|i| format!("\"f\"({})", reg(i))).collect();
            let asm = format!(
                "asm volatile(\"st.shared.v{r}.f32 [%0], {{{}}};\" :: \"r\"(orcl_smem(&{})), {} : \"memory\");",
                slots.join(", "),
                cell(0),
                values.join(", ")
            );
            let emulated = (0..r)
                .map(|i| KStmt::Store {
                    target: cell(i).into(),
                    value: reg(i).into(),
                })
                .collect();
            body.push(KStmt::Mma {
                hardware: vec![KStmt::Lines(asm)],
                emulated,
            });
        }
        Self::each("orcl_b", groups / r, body)
    }

    /// The stores of one load group of staged operand `n` from its prefetch registers (`reg`:
    /// element `v`'s register) into local buffer `buf`, element `v` at tile cell `at(v)`.
    pub(super) fn regs_to_tile(
        &self,
        n: usize,
        buf: &str,
        at: &dyn Fn(&str) -> (String, String),
        reg: &dyn Fn(&str) -> String,
    ) -> KStmt {
        let o = &self.c.operands[n];
        let stage = self
            .c
            .mma
            .as_ref()
            .is_some_and(|m| m.convert == crate::args::Tf32Convert::Stage);
        let lvalue = |v: &str| {
            let (kk, t) = at(v);
            format!("{}{}", self.tile(n, buf), Self::cell(o, &kk, &t))
        };
        let store = |v: &str| {
            let target = lvalue(v);
            let value = format!("orcl_p{n}[{}]", reg(v));
            match stage {
                // `tf32Convert='stage'`: rounded on the way from the registers to the tile.
                true => Self::round_store(&target, &value),
                false => KStmt::Store {
                    target: target.into(),
                    value: value.into(),
                },
            }
        };
        match self.c.load_vec {
            1 => store("0"),
            // TF32 `wgmma`'s transposed operand: the rotated order of [`Cx::transposed_group`].
            w if self.transposed(o) => {
                let regs: Vec<String> = (0..w)
                    .map(|v| format!("orcl_p{n}[{}]", reg(&v.to_string())))
                    .collect();
                KStmt::Block(Self::rotated_stores(w, &lvalue, &regs))
            }
            w => Self::each("orcl_w", w, vec![store("orcl_w")]),
        }
    }
}
