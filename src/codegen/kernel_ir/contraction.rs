//! Kernel IR of a contraction (the matrix product's shape, `analysis::Contraction`): register
//! tiles of sums per work-item, the reduction loop in k-slabs, the summand's operands staged per
//! slab in local tiles stored k-major (`tile[kk][t]`, A transposed when it is row-major), read
//! into registers (as vectors with `vecWidth`), and the result stored through the loop's own
//! statements. The layout follows CLBlast's Xgemm kernel (Nugteren, *CLBlast: A Tuned OpenCL BLAS
//! Library*, IWOCL 2018, section 3) with its STRM/STRN = 1 strided outputs: work-item `l` of a
//! dimension owns outputs `(l + q·items)·V + v`, so local reads and global stores coalesce.
//!
//! Every work-item reaches every barrier: the slab loop's bounds are uniform across the
//! work-group; loads outside the iteration space store 0 and their sums are never stored (any m,
//! n, k); the last, partial slab runs a loop of the remaining length.

mod groups;
mod mma;
mod tiles;

use tiles::local_tiles;

use super::{KExpr, KStmt, KernelFn, VecDst};
use crate::schedule::{ContractionSchedule, Schedule};
use orcl_frontend::analysis::{contraction, perfect_nest, Contraction, ContractionForm, Nest};
use orcl_frontend::ir::c::{c_expr, StmtWriter};
use orcl_frontend::ir::{Expr, ExprKind, Kernel, ScalarType};

/// Where [`Cx::loads`] puts each loaded element.
#[derive(Clone, Copy)]
enum Load<'b> {
    /// Into the (single-buffered) local tile.
    ToTile,
    /// Into the prefetch registers `orcl_p{n}` (`doubleBuffer`).
    ToRegs,
    /// From the prefetch registers into local buffer `buf` (C text).
    RegsToTile(&'b str),
    /// Straight into local buffer `buf` (C text) by asynchronous copies (`stages`; plain loads
    /// where `ORCL_MMA_SYNC` is 0).
    Async(&'b str),
}

/// How a work-group walks one staged operand's slab, in groups of `vecLoad` elements along its
/// contiguous dimension.
struct LoadPlan {
    /// `loadItems`: work-items side by side along the contiguous dimension (`None`: the whole
    /// slab linearised, consecutive work-items on consecutive groups).
    items: Option<u64>,
    /// Blocks of `items` groups along the contiguous dimension.
    blocks_c: u64,
    /// Loads per work-item (the unrolled `orcl_q` loop's trip count).
    iterations: u64,
    /// Whether the last block of rows reaches past the slab (then guarded).
    guard: bool,
}

/// Names and texts shared by the parts of one contraction kernel.
struct Cx<'a> {
    k: &'a Kernel,
    s: &'a Schedule,
    c: &'a ContractionSchedule,
    /// Per NDRange dimension: the loop's upper bound test and its variable.
    upper: Vec<(String, bool)>,
}

impl Cx<'_> {
    fn ity(&self, v: &str) -> &'static str {
        self.k
            .symbols
            .get(v)
            .map_or(ScalarType::Int, |s| s.ty)
            .c_name()
    }
    /// Whether loop-variable value `v` (C text) of dimension `d` is inside the loop's range.
    fn in_range(&self, d: usize, v: &str) -> String {
        let (u, incl) = &self.upper[d];
        format!("{v} {} {u}", if *incl { "<=" } else { "<" })
    }
    /// Position within the work-group's tile of output `r` (C text) of this work-item along `d`.
    fn pos(&self, d: usize, r: &str) -> String {
        let items = self.s.dims[d].items;
        match self.c.vec {
            1 => format!("orcl_l{d} + {r} * {items}"),
            v => format!("(orcl_l{d} + ({r} / {v}) * {items}) * {v} + {r} % {v}"),
        }
    }
    /// `const T var = (T)(value);` for a loop variable.
    fn var(&self, name: &str, value: String) -> KStmt {
        let ty = self.ity(name);
        KStmt::Let {
            ty,
            name: name.to_string(),
            value: KExpr::Text(format!("({ty})({value})")),
        }
    }
    /// The loop variables of output (orcl_r1, orcl_r0) of this work-item.
    fn output_vars(&self) -> Vec<KStmt> {
        (0..2)
            .map(|d| {
                self.var(
                    &self.s.dims[d].var,
                    format!("orcl_base{d} + {}", self.pos(d, &format!("orcl_r{d}"))),
                )
            })
            .collect()
    }
    /// `for (orcl_rD = 0; orcl_rD < extent; ...)`, fully unrolled.
    fn each(var: &str, extent: u64, body: Vec<KStmt>) -> KStmt {
        KStmt::For {
            var: var.to_string(),
            start: "0".into(),
            end: extent.to_string().into(),
            step: "1".into(),
            unroll: Some(0),
            body,
        }
    }
    /// Both output loops of the register tile around `body`.
    fn each_output(&self, body: Vec<KStmt>) -> KStmt {
        Self::each(
            "orcl_r1",
            self.s.dims[1].per_item,
            vec![Self::each("orcl_r0", self.s.dims[0].per_item, body)],
        )
    }
    /// The reduction loop's variable at step `orcl_kk` of the slab starting at offset `k0` (C text).
    fn red_var_at(&self, k0: &str) -> KStmt {
        self.var(&self.c.red_var, format!("orcl_klo + {k0} + orcl_kk"))
    }
    /// The local tile of staged operand `n` (with `doubleBuffer`, buffer `buf`, C text).
    fn tile(&self, n: usize, buf: &str) -> String {
        if self.c.buffers() > 1 {
            format!("orcl_tile{n}[{buf}]")
        } else {
            format!("orcl_tile{n}")
        }
    }

    /// The cooperative loads of the staged operands for the slab starting at reduction offset
    /// `k0` (C text). The slab of an operand is cut into groups of `vecLoad` (`W`) elements
    /// adjacent along its contiguous dimension (the reduction loop's for a row-major A, the tile's
    /// otherwise); each work-item takes groups `orcl_lin + q·(local size)`, so consecutive
    /// work-items read consecutive addresses. A value (0 outside the iteration space, or past
    /// `bound` reduction steps when given; with `k_guard`, past the reduction loop's end) goes
    /// where `mode` says. With `W > 1` a group whose elements are all inside and whose address is
    /// aligned to the vector is read as one vector, any other element by element.
    ///
    /// The tensor-core form checks once per slab whether every group is inside and aligned
    /// ([`Cx::fast_loads`]); then the groups are read without their guards.
    fn loads(&self, k0: &str, bound: Option<&str>, k_guard: bool, mode: Load) -> Vec<KStmt> {
        if self.c.mma.is_none() || bound.is_some() || matches!(mode, Load::RegsToTile(_)) {
            return self.group_loads(k0, bound, k_guard, mode, false);
        }
        self.fast_loads(k0, k_guard, mode)
    }

    /// [`Cx::loads`]; `fast`: every group is known to be inside and aligned (no guards).
    fn group_loads(
        &self,
        k0: &str,
        bound: Option<&str>,
        k_guard: bool,
        mode: Load,
        fast: bool,
    ) -> Vec<KStmt> {
        let (c, s) = (self.c, self.s);
        let w = c.load_vec;
        let mut out = Vec::new();
        let nt = s.local_size();
        for (n, o) in c
            .operands
            .iter()
            .enumerate()
            .filter(|(_, o)| self.takes(o, mode))
        {
            let d = o.dim.expect("staged operands have a dimension");
            let p = s.dims[d].per_group;
            let groups = c.tk * p / w;
            let plan = self.load_plan(o);
            let (kk, t) = self.slab_position(o, &plan, p);
            let mut body = vec![Self::long("orcl_kk", kk), Self::long("orcl_t", t)];
            if let (Load::RegsToTile(buf), r @ 2..) = (mode, self.chunk_rows(o)) {
                out.push(self.chunk_stores(n, buf, r, plan.iterations, body));
                continue;
            }
            // The register of element `v` (C text) of the group.
            let reg = |v: &str| match w {
                1 => "orcl_q".to_string(),
                _ => format!("orcl_q * {w} + {v}"),
            };
            // Element `v` of the group: its tile row and column (C text).
            let at = |v: &str| match (w, o.red_fast) {
                (1, _) => ("orcl_kk".to_string(), "orcl_t".to_string()),
                (_, true) => (format!("orcl_kk + {v}"), "orcl_t".to_string()),
                (_, false) => ("orcl_kk".to_string(), format!("orcl_t + {v}")),
            };
            let lvalue = |v: &str| -> String {
                let (kk, t) = at(v);
                match mode {
                    Load::ToTile => format!("orcl_tile{n}{}", Self::cell(o, &kk, &t)),
                    Load::ToRegs => format!("orcl_p{n}[{}]", reg(v)),
                    Load::Async(buf) => format!("{}{}", self.tile(n, buf), Self::cell(o, &kk, &t)),
                    Load::RegsToTile(_) => unreachable!("stores read registers"),
                }
            };
            // The loop variables of element `v` and its guard.
            let element = |v: &str, out: &mut Vec<KStmt>| -> String {
                let (kk, t) = at(v);
                out.push(self.var(&s.dims[d].var, format!("orcl_base{d} + {t}")));
                out.push(self.var(&c.red_var, format!("orcl_klo + {k0} + {kk}")));
                let mut cond = vec![self.in_range(d, &s.dims[d].var)];
                if let Some(b) = bound {
                    cond.insert(0, format!("{kk} < {b}"));
                }
                if k_guard {
                    cond.insert(0, format!("{k0} + {kk} < orcl_kn"));
                }
                if fast {
                    return "1".into();
                }
                cond.join(" && ")
            };
            let value = c_expr(&o.expr, &|_| None);
            match mode {
                Load::RegsToTile(buf) => body.push(self.regs_to_tile(n, buf, &at, &reg)),
                Load::Async(_) if w == 1 => {
                    let cond = element("0", &mut body);
                    body.push(KStmt::IfElse {
                        cond: cond.into(),
                        then: vec![self.async_copy(&lvalue("0"), &value, o.ty, 1)],
                        otherwise: vec![KStmt::Store {
                            target: lvalue("0").into(),
                            value: "0".into(),
                        }],
                    });
                }
                _ if w == 1 => {
                    let cond = element("0", &mut body);
                    body.push(KStmt::Store {
                        target: lvalue("0").into(),
                        value: format!("({cond}) ? {value} : 0").into(),
                    });
                }
                _ => {
                    // The first element's variables; the group's guard is the last element's.
                    let last = format!("{}", w - 1);
                    let (vk, _) = at(&last);
                    body.push(self.var(&s.dims[d].var, format!("orcl_base{d} + orcl_t")));
                    body.push(self.var(&c.red_var, format!("orcl_klo + {k0} + orcl_kk")));
                    let cond = match fast {
                        true => "1".to_string(),
                        false => self.vector_guard(o, &last, &vk, k0, bound, k_guard, &value),
                    };
                    let vector = self.vector_group(o, p, mode, &lvalue, &value);
                    let mut each = Vec::new();
                    let cond_w = element("orcl_w", &mut each);
                    each.push(KStmt::Store {
                        target: lvalue("orcl_w").into(),
                        value: format!("({cond_w}) ? {value} : 0").into(),
                    });
                    body.push(KStmt::IfElse {
                        cond: cond.into(),
                        then: vec![vector],
                        otherwise: vec![Self::each("orcl_w", w, each)],
                    });
                }
            }
            body = Self::guarded_group(o, &plan, p, c.tk, groups, nt, body);
            out.push(Self::each("orcl_q", plan.iterations, body));
        }
        out
    }

    /// Whether loads in `mode` concern operand `o`: every staged operand, except where TF32
    /// `wgmma` transposes one ([`Cx::transposed`]): then that one goes through the registers
    /// (`ToRegs`, `RegsToTile`) and the others by `Async` copies.
    fn takes(&self, o: &crate::schedule::Operand, mode: Load) -> bool {
        if !o.staged {
            return false;
        }
        if !self.wgmma_issue_first() {
            return true;
        }
        self.transposed(o) == matches!(mode, Load::ToRegs | Load::RegsToTile(_))
    }

    /// The subscripts of element (`kk` along the reduction loop, `t` along the tile) of staged
    /// operand `o`'s local tile: `[kk][t]`, or `[t][kk]` for a k-inner tile.
    /// With a swizzle (`fragLoad` > 1, [`crate::schedule::Swizzle`]) the column is XOR-ed with a
    /// function of the row; loads, stores and fragment reads all go through here.
    fn cell(o: &crate::schedule::Operand, kk: &str, t: &str) -> String {
        use crate::schedule::Swizzle;
        match (o.k_inner_pad, o.swizzle) {
            (Some(_), Swizzle::KInner) => format!("[{t}][({kk}) ^ ((({t}) & 1) << 4)]"),
            (Some(_), Swizzle::Gmma { .. }) => {
                // 16-byte chunks of 8 (16-bit) or 4 (TF32) elements.
                let shift = (16 / o.ty.size_bytes()).trailing_zeros();
                format!("[{t}][({kk}) ^ ((({t}) & 7) << {shift})]")
            }
            (None, Swizzle::Gmma { tk }) => {
                format!("[({t}) / 64 * {tk} + ({kk})][(({t}) % 64) ^ ((({kk}) & 7) << 3)]")
            }
            (Some(_), _) => format!("[{t}][{kk}]"),
            (None, Swizzle::KMajor { v }) => {
                format!("[{kk}][({t}) ^ (((({kk}) / {v}) & 3) << 3)]")
            }
            (None, _) => format!("[{kk}][{t}]"),
        }
    }

    /// The asynchronous copy of `width` elements of type `ty` from global element `src` to local
    /// element `dst` (C lvalues): `cp.async` (PTX ISA §9.7.9.25; 16 bytes `.cg`, past L1, unless
    /// `asyncCache='ca'`; fewer bytes `.ca`, the only operator they take), or where
    /// `ORCL_MMA_SYNC` is 0 one plain element copy (`width` 1 only: wider groups give their own
    /// plain form).
    fn async_copy(&self, dst: &str, src: &str, ty: ScalarType, width: u64) -> KStmt {
        let bytes = width * ty.size_bytes() as u64;
        let ca = self.c.mma.as_ref().is_some_and(|m| m.async_ca);
        let cache = if bytes == 16 && !ca { "cg" } else { "ca" };
        let asm = KStmt::Lines(format!(
            "asm volatile(\"cp.async.{cache}.shared.global [%0], [%1], {bytes};\" :: \"r\"(orcl_smem(&{dst})), \"l\"((size_t)&{src}) : \"memory\");"
        ));
        if width > 1 {
            return asm;
        }
        KStmt::Mma {
            hardware: vec![asm],
            emulated: vec![KStmt::Store {
                target: dst.to_string().into(),
                value: src.to_string().into(),
            }],
        }
    }

    /// `long NAME = VALUE;`
    fn long(name: &str, value: String) -> KStmt {
        KStmt::Let {
            ty: "long",
            name: name.into(),
            value: KExpr::Text(value),
        }
    }

    /// Whether a load group of staged operand `o` is read as one vector (C text): its last
    /// element (`last`, at reduction row `vk`) inside the iteration space, the slab (`bound`)
    /// and with `k_guard` the reduction loop, and the address of `value` aligned to the vector.
    #[allow(clippy::too_many_arguments)]
    fn vector_guard(
        &self,
        o: &crate::schedule::Operand,
        last: &str,
        vk: &str,
        k0: &str,
        bound: Option<&str>,
        k_guard: bool,
        value: &str,
    ) -> String {
        let w = self.c.load_vec;
        let d = o.dim.expect("staged operands have a dimension");
        let var = &self.s.dims[d].var;
        let mut cond = vec![if o.red_fast {
            self.in_range(d, var)
        } else {
            self.in_range(d, &format!("{var} + {last}"))
        }];
        if let Some(b) = bound {
            cond.push(format!("{vk} < {b}"));
        }
        if k_guard {
            cond.push(format!("{k0} + {vk} < orcl_kn"));
        }
        cond.push(format!(
            "(size_t)&{value} % {} == 0",
            w * o.ty.size_bytes() as u64
        ));
        cond.join(" && ")
    }

    /// Where element group `orcl_e` (or, with `loadItems`, work-item `orcl_lin`'s group `orcl_q`)
    /// of staged operand `o`'s slab lies: (row along the reduction loop `orcl_kk`, column along
    /// the tile `orcl_t`), as C text; `p` is the tile's extent.
    fn slab_position(
        &self,
        o: &crate::schedule::Operand,
        plan: &LoadPlan,
        p: u64,
    ) -> (String, String) {
        let (c, s) = (self.c, self.s);
        let w = c.load_vec;
        let nt = s.local_size();
        let (kk, t) = match (o.red_fast, w) {
            (true, 1) => (format!("orcl_e % {}", c.tk), format!("orcl_e / {}", c.tk)),
            (false, 1) => (format!("orcl_e / {p}"), format!("orcl_e % {p}")),
            (true, _) => (
                format!("(orcl_e % {}) * {w}", c.tk / w),
                format!("orcl_e / {}", c.tk / w),
            ),
            (false, _) => (
                format!("orcl_e / {}", p / w),
                format!("(orcl_e % {}) * {w}", p / w),
            ),
        };
        // `loadItems`: `a` work-items side by side along the contiguous dimension, the
        // work-group a block of `a` × (local size / a) groups, blocks contiguous-first.
        let (kk, t) = match plan.items {
            None if self.chunk_rows(o) > 1 => self.block_position(o),
            None => (kk, t),
            Some(a) => {
                let cg = format!("(orcl_lin % {a} + (orcl_q % {}) * {a})", plan.blocks_c);
                let cg = if w == 1 { cg } else { format!("{cg} * {w}") };
                let r = format!("orcl_lin / {a} + (orcl_q / {}) * {}", plan.blocks_c, nt / a);
                if o.red_fast {
                    (cg, r)
                } else {
                    (r, cg)
                }
            }
        };
        (kk, t)
    }

    /// One load group's statements `body` guarded: past the slab's `groups` groups (the slab
    /// linearised over `nt` work-items, each taking `orcl_e`), or, with `loadItems`, the rows of
    /// the last block past the slab's other extent.
    fn guarded_group(
        o: &crate::schedule::Operand,
        plan: &LoadPlan,
        p: u64,
        tk: u64,
        groups: u64,
        nt: u64,
        mut body: Vec<KStmt>,
    ) -> Vec<KStmt> {
        match plan.items {
            None => {
                if groups % nt != 0 {
                    body = vec![KStmt::If {
                        cond: format!("orcl_e < {groups}").into(),
                        then: body,
                    }];
                }
                body.insert(
                    0,
                    KStmt::Let {
                        ty: "long",
                        name: "orcl_e".into(),
                        value: KExpr::Text(format!("orcl_lin + orcl_q * {nt}")),
                    },
                );
            }
            Some(_) if plan.guard => {
                // The rows of the last block past the slab's other extent.
                let (row, extent) = if o.red_fast {
                    ("orcl_t", p)
                } else {
                    ("orcl_kk", tk)
                };
                let (lets, rest) = body.split_at(2);
                body = [
                    lets.to_vec(),
                    vec![KStmt::If {
                        cond: format!("{row} < {extent}").into(),
                        then: rest.to_vec(),
                    }],
                ]
                .concat();
            }
            Some(_) => {}
        }
        body
    }

    /// How the work-group walks the slab of staged operand `o` (see [`LoadPlan`]).
    fn load_plan(&self, o: &crate::schedule::Operand) -> LoadPlan {
        let (c, s) = (self.c, self.s);
        let w = c.load_vec;
        let nt = s.local_size();
        let d = o.dim.expect("staged operands have a dimension");
        let p = s.dims[d].per_group;
        // Groups of `w` along the contiguous dimension, and rows across it.
        let (cols, rows) = if o.red_fast {
            (c.tk / w, p)
        } else {
            (p / w, c.tk)
        };
        match o.load_items {
            Some(a) => {
                let per_block = nt / a;
                LoadPlan {
                    items: Some(a),
                    blocks_c: cols / a,
                    iterations: cols / a * rows.div_ceil(per_block),
                    guard: rows % per_block != 0,
                }
            }
            None => LoadPlan {
                items: None,
                blocks_c: 1,
                iterations: (cols * rows).div_ceil(nt),
                guard: false,
            },
        }
    }

    /// Registers `orcl_p{n}[q]` for one slab's loads of each staged operand (`doubleBuffer`; TF32
    /// `wgmma`: of the transposed one).
    fn prefetch_regs(&self) -> Vec<KStmt> {
        let c = self.c;
        c.operands
            .iter()
            .enumerate()
            .filter(|(_, o)| self.takes(o, Load::ToRegs))
            .map(|(n, o)| KStmt::PrivateArray {
                ty: o.ty,
                name: format!("orcl_p{n}"),
                dims: vec![self.load_plan(o).iterations * c.load_vec],
            })
            .collect()
    }

    /// One k-slab: the cooperative loads of the staged operands, then `bound` reduction steps
    /// (`None`: the whole slab, a constant trip count).
    fn slab(&self, term: &Expr, bound: Option<&str>) -> Vec<KStmt> {
        let c = self.c;
        let mut out = self.loads("orcl_k0", bound, false, Load::ToTile);
        if c.mma.is_some() {
            out.extend(self.convert_in_place(""));
        }
        let staged = c.operands.iter().any(|o| o.staged);
        if staged {
            out.push(KStmt::Barrier);
        }
        out.extend(self.compute(term, bound, ""));
        if staged {
            out.push(KStmt::Barrier);
        }
        out
    }

    /// The slab loop with `doubleBuffer`: slab 0 is loaded into buffer 0; then per slab, the
    /// next slab's loads are issued into registers, the current buffer is computed (all `TK`
    /// steps, or the remaining ones in the last, partial slab), the registers are stored into the
    /// other buffer, and one barrier ends the slab. A work-item writes buffer `b ^ 1` only after
    /// the barrier that ended every work-item's reads of it, so one barrier per slab suffices.
    fn double_buffered(&self, term: &Expr) -> Vec<KStmt> {
        let tk = self.c.tk;
        let mut out = self.prefetch_regs();
        out.extend(self.loads("0", None, true, Load::ToRegs));
        out.extend(self.loads("0", None, false, Load::RegsToTile("0")));
        out.push(KStmt::Barrier);
        let mut slab = vec![
            KStmt::Let {
                ty: "int",
                name: "orcl_buf".into(),
                value: KExpr::Text(format!("(int)((orcl_k0 / {tk}) & 1)")),
            },
            KStmt::Let {
                ty: "int",
                name: "orcl_next".into(),
                value: KExpr::Text(format!("orcl_k0 + {tk} < orcl_kn")),
            },
            KStmt::If {
                cond: "orcl_next".into(),
                then: self.loads(&format!("orcl_k0 + {tk}"), None, true, Load::ToRegs),
            },
        ];
        if self.c.mma.is_some() {
            // The tensor-core form computes whole slabs (the loads zero-fill past the end): one copy.
            slab.push(KStmt::Block(self.compute(term, None, "orcl_buf")));
        } else {
            slab.push(KStmt::If {
                cond: format!("orcl_k0 + {tk} <= orcl_kn").into(),
                then: self.compute(term, None, "orcl_buf"),
            });
            slab.push(KStmt::If {
                cond: format!("orcl_k0 + {tk} > orcl_kn").into(),
                then: self.compute(term, Some("orcl_kn - orcl_k0"), "orcl_buf"),
            });
        }
        slab.extend([
            KStmt::If {
                cond: "orcl_next".into(),
                then: self.loads("orcl_k0", None, false, Load::RegsToTile("orcl_buf ^ 1")),
            },
            KStmt::Barrier,
        ]);
        out.push(KStmt::For {
            var: "orcl_k0".into(),
            start: "0".into(),
            end: "orcl_kn".into(),
            step: tk.to_string().into(),
            unroll: None,
            body: slab,
        });
        out
    }

    /// `bound` (`None`: `TK`) reduction steps over the staged tiles (buffer `buf`).
    fn compute(&self, term: &Expr, bound: Option<&str>, buf: &str) -> Vec<KStmt> {
        if self.c.mma.is_some() {
            return self.mma_compute(buf);
        }
        let (c, s) = (self.c, self.s);
        let mut out = Vec::new();
        // One reduction step: the operands' register fragments, then every output's sum.
        let mut step = vec![self.red_var_at("orcl_k0")];
        for (n, o) in c.operands.iter().enumerate() {
            let Some(d) = o.dim else { continue };
            let r = s.dims[d].per_item;
            let frag = format!("orcl_f{n}");
            step.push(KStmt::PrivateArray {
                ty: o.ty,
                name: frag.clone(),
                dims: vec![r],
            });
            if o.staged && c.vec > 1 {
                let v = c.vec;
                step.push(Self::each(
                    "orcl_q",
                    r / v,
                    vec![KStmt::VecLoad {
                        ty: o.ty,
                        width: v,
                        src: format!(
                            "{}[orcl_kk][(orcl_l{d} + orcl_q * {}) * {v}]",
                            self.tile(n, buf),
                            s.dims[d].items
                        ),
                        global: false,
                        dst: VecDst::Elements(
                            (0..v)
                                .map(|c| format!("{frag}[orcl_q * {v} + {c}]"))
                                .collect(),
                        ),
                    }],
                ));
            } else if o.staged {
                step.push(Self::each(
                    "orcl_r",
                    r,
                    vec![KStmt::Store {
                        target: format!("{frag}[orcl_r]").into(),
                        value: format!("{}[orcl_kk][{}]", self.tile(n, buf), self.pos(d, "orcl_r"))
                            .into(),
                    }],
                ));
            } else {
                let var = &s.dims[d].var;
                step.push(Self::each(
                    "orcl_r",
                    r,
                    vec![
                        self.var(var, format!("orcl_base{d} + {}", self.pos(d, "orcl_r"))),
                        KStmt::Store {
                            target: format!("{frag}[orcl_r]").into(),
                            value: format!(
                                "({}) ? {} : 0",
                                self.in_range(d, var),
                                c_expr(&o.expr, &|_| None)
                            )
                            .into(),
                        },
                    ],
                ));
            }
        }
        let frag_of = |e: &Expr| -> Option<String> {
            if !matches!(e.kind, ExprKind::Index { .. }) {
                return None;
            }
            let (n, o) = c
                .operands
                .iter()
                .enumerate()
                .find(|(_, o)| o.expr.same_as(e))?;
            o.dim.map(|d| format!("orcl_f{n}[orcl_r{d}]"))
        };
        let sum = KStmt::Store {
            target: "orcl_acc[orcl_r1][orcl_r0]".into(),
            value: format!("orcl_acc[orcl_r1][orcl_r0] + ({})", c_expr(term, &frag_of)).into(),
        };
        let mut inner = self.output_vars();
        if c.operands.iter().any(|o| o.dim.is_none()) {
            // A reference read in place: only inside the iteration space.
            inner.push(KStmt::If {
                cond: format!(
                    "{} && {}",
                    self.in_range(0, &s.dims[0].var),
                    self.in_range(1, &s.dims[1].var)
                )
                .into(),
                then: vec![sum],
            });
        } else {
            inner.push(sum);
        }
        step.push(self.each_output(inner));
        let unroll = match (bound, s.unroll) {
            (_, u) if u > 1 => Some(u),
            (None, _) => Some(0),
            (Some(_), _) => None,
        };
        out.push(KStmt::For {
            var: "orcl_kk".into(),
            start: "0".into(),
            end: bound.map_or(c.tk.to_string(), str::to_string).into(),
            step: "1".into(),
            unroll,
            body: step,
        });
        out
    }
}

/// Lower a contraction's schedule (see the module docs).
pub(super) fn lower(k: &Kernel, s: &Schedule, c: &ContractionSchedule) -> KernelFn {
    let con = contraction(k).expect("the schedule was made for a contraction");
    let nest = perfect_nest(k);
    let upper = s
        .dims
        .iter()
        .map(|d| {
            let l = nest.loops[d.depth];
            (c_expr(&l.upper, &|_| None), l.inclusive)
        })
        .collect();
    let cx = Cx { k, s, c, upper };
    if let Some(m) = &c.mma {
        return KernelFn {
            body: mma::body(&cx, &con, &nest),
            index32: m.index32,
            ..KernelFn::nest(k, s)
        };
    }
    let mut body = work_item_ids(s, c, &nest);
    body.extend(super::triangle::empty_tile_exit(s, &con, &nest));
    body.extend(local_tiles(s, c));
    body.extend(accumulators(&cx, &con));
    body.extend(reduction_bounds(con.red));
    body.extend(slabs(&cx, &con));
    body.push(results(&cx, &con));
    KernelFn {
        body,
        ..KernelFn::nest(k, s)
    }
}

/// The work-item's ids: group and local ids and tile bases per NDRange dimension, and the
/// linear id (`warpTile`: the hardware linear id cut into blocks of the work-item grid).
fn work_item_ids(s: &Schedule, c: &ContractionSchedule, nest: &Nest<'_>) -> Vec<KStmt> {
    let mut body = Vec::new();
    for (d, dim) in s.dims.iter().enumerate() {
        let l = nest.loops[dim.depth];
        body.push(KStmt::Let {
            ty: "long",
            name: format!("orcl_g{d}"),
            value: KExpr::GroupId(d),
        });
        body.push(KStmt::Let {
            ty: "long",
            name: format!("orcl_{}{d}", if c.warp.is_some() { "h" } else { "l" }),
            value: KExpr::LocalId(d),
        });
        body.push(KStmt::Let {
            ty: "long",
            name: format!("orcl_base{d}"),
            value: KExpr::Text(format!(
                "(long)({}) + orcl_g{d} * {}",
                c_expr(&l.lower, &|_| None),
                dim.per_group
            )),
        });
    }
    let items0 = s.dims[0].items;
    match c.warp {
        None => body.push(KStmt::Let {
            ty: "long",
            name: "orcl_lin".into(),
            value: KExpr::Text(format!("orcl_l0 + {items0} * orcl_l1")),
        }),
        Some((wi, wj)) => {
            // `warpTile`: the hardware linear id (the slab loads keep it, so they coalesce) cut
            // into runs of wi·wj work-items, each run a wi × wj block of the work-item grid.
            let g = wi * wj;
            let across = items0 / wj;
            for (name, value) in [
                ("orcl_lin", format!("orcl_h0 + {items0} * orcl_h1")),
                ("orcl_lane", format!("orcl_lin % {g}")),
                ("orcl_run", format!("orcl_lin / {g}")),
                (
                    "orcl_l0",
                    format!("(orcl_run % {across}) * {wj} + orcl_lane % {wj}"),
                ),
                (
                    "orcl_l1",
                    format!("(orcl_run / {across}) * {wi} + orcl_lane / {wj}"),
                ),
            ] {
                body.push(KStmt::Let {
                    ty: "long",
                    name: name.into(),
                    value: KExpr::Text(value),
                });
            }
        }
    }
    body
}

/// The private accumulators of the work-item's outputs, initialised (a scalar form's initial
/// value, else 0).
fn accumulators(cx: &Cx<'_>, con: &Contraction<'_>) -> Vec<KStmt> {
    let (k, s) = (cx.k, cx.s);
    let mut body = Vec::new();
    let (acc_ty, init) = match &con.form {
        ContractionForm::Scalar { ty, init, .. } => (*ty, c_expr(init, &|_| None)),
        ContractionForm::Element { target } => {
            let ExprKind::Index { array, .. } = &target.kind else {
                unreachable!("an element target is an array reference")
            };
            let ty = k
                .args
                .iter()
                .find(|a| &a.name == array)
                .map_or(ScalarType::Double, |a| a.ty);
            (ty, "0".to_string())
        }
    };
    body.push(KStmt::PrivateArray {
        ty: acc_ty,
        name: "orcl_acc".into(),
        dims: vec![s.dims[1].per_item, s.dims[0].per_item],
    });
    let mut init_body = cx.output_vars();
    init_body.push(KStmt::Store {
        target: "orcl_acc[orcl_r1][orcl_r0]".into(),
        value: init.into(),
    });
    body.push(cx.each_output(init_body));
    body
}

/// The reduction loop's bounds: `orcl_klo`, `orcl_kend` and its trip `orcl_kn`.
fn reduction_bounds(red: &orcl_frontend::ir::Loop) -> Vec<KStmt> {
    let mut body = Vec::new();
    body.push(KStmt::Let {
        ty: "long",
        name: "orcl_klo".into(),
        value: KExpr::Text(format!("(long)({})", c_expr(&red.lower, &|_| None))),
    });
    body.push(KStmt::Let {
        ty: "long",
        name: "orcl_kend".into(),
        value: KExpr::Text(format!(
            "(long)({}){}",
            c_expr(&red.upper, &|_| None),
            if red.inclusive { " + 1" } else { "" }
        )),
    });
    body.push(KStmt::Let {
        ty: "long",
        name: "orcl_kn".into(),
        value: KExpr::Text("orcl_kend > orcl_klo ? orcl_kend - orcl_klo : 0".into()),
    });
    body
}

/// The k-slabs: double-buffered, or whole slabs then the partial one (uniform across the
/// work-group: barriers are safe).
fn slabs(cx: &Cx<'_>, con: &Contraction<'_>) -> Vec<KStmt> {
    let c = cx.c;
    let mut body = Vec::new();
    if c.stages > 1 {
        body.extend(cx.pipelined(con));
    } else if c.double_buffer {
        body.extend(cx.double_buffered(con.term));
    } else {
        // Whole slabs, then the partial one (uniform across the work-group: barriers are safe).
        body.push(KStmt::For {
            var: "orcl_k0".into(),
            start: "0".into(),
            end: match c.tk {
                1 => "orcl_kn".into(),
                t => format!("orcl_kn - {}", t - 1).into(),
            },
            step: c.tk.to_string().into(),
            unroll: None,
            body: cx.slab(con.term, None),
        });
        let mut tail = vec![KStmt::Let {
            ty: "long",
            name: "orcl_k0".into(),
            value: KExpr::Text(format!("(orcl_kn / {0}) * {0}", c.tk)),
        }];
        tail.push(KStmt::If {
            cond: "orcl_k0 < orcl_kn".into(),
            then: cx.slab(con.term, Some("orcl_kn - orcl_k0")),
        });
        body.push(KStmt::If {
            cond: "1".into(),
            then: tail,
        });
    }
    body
}

/// The loop's own statements after the sum (C text), the sum being `acc` (C text).
fn result_lines(con: &Contraction<'_>, acc: &str) -> String {
    let mut w = StmtWriter {
        out: String::new(),
        indent: 0,
        unroll: None,
        subst: &|_| None,
    };
    match &con.form {
        ContractionForm::Scalar {
            name,
            ty,
            after,
            guard,
            ..
        } => {
            w.out = format!("{} {name} = {acc};\n", ty.c_name());
            w.write_stmts(after);
            w.out = super::triangle::guarded(*guard, std::mem::take(&mut w.out));
        }
        ContractionForm::Element { target } => {
            let t = c_expr(target, &|_| None);
            w.out = format!("{t} = {t} + {acc};\n");
        }
    }
    w.out
}

/// The results, through the loop's own statements, for each output in range.
fn results(cx: &Cx<'_>, con: &Contraction<'_>) -> KStmt {
    let s = cx.s;
    let mut out_body = cx.output_vars();
    out_body.push(KStmt::If {
        cond: format!(
            "{} && {}",
            cx.in_range(0, &s.dims[0].var),
            cx.in_range(1, &s.dims[1].var)
        )
        .into(),
        then: vec![KStmt::Lines(result_lines(
            con,
            "orcl_acc[orcl_r1][orcl_r0]",
        ))],
    });
    cx.each_output(out_body)
}
