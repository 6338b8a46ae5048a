//! Kernel IR of the 1-D map (`schedule::LinearSchedule`, configurations without `tile`): one
//! work-item per iteration of the parallel loop, striding by the global size or one contiguous
//! chunk per work-group (ViennaCL study §2); reductions as a private accumulator, a local-memory
//! tree with barriers and one partial result per work-group; `cacheBlocks` tiles; `unrollInner`
//! pragmas; the OpenCL attributes / CUDA launch bounds.
//!
//! Four forms of the loop, chosen from the schedule and the loop:
//! - plain: a grid-stride (or chunked) loop over the iterations;
//! - tiles (`cacheBlocks`, 1-D): arrays read at exactly the parallel index staged per work-group;
//! - group-uniform passes ([`super::passes`]): when `cacheBlocks` stages an inner loop's shared
//!   operand (`x[j + c]`, read-only, with bounds that are the same in every work-item) in tiles of
//!   the local size, or `innerThreads` = T > 1 lanes split each iteration's inner reduction loop
//!   (lane-strided; partials combined by a tree in local memory; statements after the loop on
//!   lane 0). Every work-item takes part in every pass, tile load and barrier. T may be any value
//!   from 1 to the local size L: each work-group runs L / T iterations per pass, and when T does
//!   not divide L the last L mod T work-items idle (guarded);
//! - vectorised (`vecWidth` = W > 1, OpenCL only, [`super::vector`]): W iterations per work-item
//!   through `vloadW`/`vstoreW` and a scalar tail; reductions into a vector folded at the end.
//!   With `vecWidth`, `cacheBlocks` has nothing to stage (every element is loaded once).

use super::passes::{self, Frame};
use super::{cat, KExpr, KParam, KStmt, KernelFn};
use crate::schedule::vector;
pub use crate::schedule::{accumulator_name, partial_name};
use crate::schedule::{LinearSchedule, Schedule};
use orcl_frontend::ir::c::{c_expr, StmtWriter};
use orcl_frontend::ir::c::{loop_index, loop_trip};
use orcl_frontend::ir::for_each_expr;
use orcl_frontend::ir::{Expr, ExprKind, Kernel, ScalarType};
use serde::Serialize;

/// A deliberately broken variant, for testing that failures are caught (never used by a user's
/// tune unless `ORCL_TEST_FAULT` is set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Fault {
    Hang,
    Crash,
    Wrong,
}

/// C text of the parallel loop's trip count (iterations), over the kernel's scalar arguments.
pub fn trip_expr(k: &Kernel) -> String {
    loop_trip(&k.parallel, &|_| None)
}

/// Stands for the work-item's local index (`get_local_id(0)` / `threadIdx.x`) in the body's C
/// text, until [`with_local_index`] makes it a [`KExpr::LocalIndex`].
const LOCAL_INDEX: &str = "\u{1}orcl_local_index\u{1}";

/// C text in which [`LOCAL_INDEX`] stands for the local index, as kernel IR.
fn with_local_index(text: &str) -> KExpr {
    let mut parts = Vec::new();
    for (n, piece) in text.split(LOCAL_INDEX).enumerate() {
        if n > 0 {
            parts.push(KExpr::LocalIndex(0));
        }
        parts.push(KExpr::Text(piece.to_string()));
    }
    cat(parts)
}

/// An array read at exactly the parallel index, staged in a local tile of `ORCL_TILE` elements.
pub(super) struct Tile {
    pub array: String,
    pub ty: ScalarType,
    pub tile: String,
    /// The global element (`x[i]`).
    pub source: String,
}

/// The arrays read only at exactly the parallel index (`x[i]`), read-only: with `cacheBlocks`
/// each work-group stages its iterations' elements through local memory.
fn tiles(k: &Kernel) -> Vec<Tile> {
    let l = &k.parallel;
    let var = &l.var;
    let mut tiles = Vec::new();
    for a in k.args.iter().filter(|a| a.is_array && !a.written) {
        let mut all_exact = true;
        let mut any = false;
        for_each_expr(&l.body, &mut |e: &Expr| {
            if let ExprKind::Index { array, indices } = &e.kind {
                if array == &a.name {
                    any = true;
                    all_exact &= indices.len() == 1
                        && matches!(&indices[0].kind, ExprKind::Var(v) if v == var);
                }
            }
        });
        if any && all_exact {
            tiles.push(Tile {
                array: a.name.clone(),
                ty: a.ty,
                tile: format!("orcl_tile_{}", a.name),
                source: format!("{}[{var}]", a.name),
            });
        }
    }
    tiles
}

/// A reduction of the parallel loop: private accumulator, local tree, per-work-group partial.
struct Reduction {
    ty: ScalarType,
    acc: String,
    local: String,
    partial: String,
    identity: &'static str,
    /// Combines `local[orcl_lid]` and `local[orcl_lid + orcl_w]`.
    combine: String,
}

fn reductions(k: &Kernel) -> Vec<Reduction> {
    k.reductions()
        .map(|a| {
            let op = a.reduction.expect("filtered");
            Reduction {
                ty: a.ty,
                acc: accumulator_name(&a.name),
                local: format!("orcl_red_{}", a.name),
                partial: partial_name(&a.name),
                identity: op.identity(a.ty),
                combine: op.combine(
                    a.ty,
                    &format!("orcl_red_{}[orcl_lid]", a.name),
                    &format!("orcl_red_{}[orcl_lid + orcl_w]", a.name),
                ),
            }
        })
        .collect()
}

/// The kernel's parameters: scalars by value, arrays in global memory, and for each reduction
/// the array of its per-work-group partial results.
fn params(k: &Kernel) -> Vec<KParam> {
    k.args
        .iter()
        .map(|a| match a.reduction {
            Some(_) => KParam {
                name: partial_name(&a.name),
                ty: a.ty,
                array: Some(true),
            },
            None => KParam {
                name: a.name.clone(),
                ty: a.ty,
                array: a.is_array.then_some(a.written),
            },
        })
        .collect()
}

/// The pieces every form of the loop uses.
struct Cx<'a> {
    k: &'a Kernel,
    ls: &'a LinearSchedule,
    var_ty: &'static str,
    /// The parallel variable at iteration `orcl_k`.
    index: String,
    /// The parallel loop's body written as C (reductions into their accumulators, tiles).
    body: String,
    /// Pragma of the iteration loop (`unrollInner` on a loop without inner loops).
    unroll: Option<u32>,
    fault_wrong: Option<String>,
}

impl Cx<'_> {
    fn var_let(&self) -> KStmt {
        KStmt::Let {
            ty: self.var_ty,
            name: self.k.parallel.var.clone(),
            value: self.index.clone().into(),
        }
    }

    /// The statements of one iteration: the variable, the body, the test fault.
    fn iteration(&self, body: &str) -> Vec<KStmt> {
        let mut v = vec![self.var_let(), KStmt::Code(with_local_index(body))];
        if let Some(w) = &self.fault_wrong {
            v.push(KStmt::Line(
                format!("if (orcl_k == 0) {{ {w} += 1; }} /* test fault: wrong result */").into(),
            ));
        }
        v
    }

    /// `orcl_chunk`, `orcl_begin`, `orcl_end`: this work-group's chunk of `n` items.
    fn chunk(&self, what: &str, n: &str) -> Vec<KStmt> {
        let long = |name: &str, value: KExpr| KStmt::Let {
            ty: "long",
            name: name.into(),
            value,
        };
        vec![
            KStmt::Comment(format!(
                "incrementType 'local': each work-group owns one contiguous chunk of {what}"
            )),
            long(
                "orcl_chunk",
                cat([
                    format!("({n} + ").into(),
                    KExpr::NumGroups(0),
                    " - 1) / ".into(),
                    KExpr::NumGroups(0),
                ]),
            ),
            long(
                "orcl_begin",
                cat([KExpr::GroupId(0), " * orcl_chunk".into()]),
            ),
            long(
                "orcl_end",
                format!("orcl_begin + orcl_chunk < {n} ? orcl_begin + orcl_chunk : {n}").into(),
            ),
        ]
    }

    /// `for (long V = first work-item; V < END; V += stride)`: chunked or grid-stride.
    fn stride(&self, var: &str, end: &str, body: Vec<KStmt>) -> KStmt {
        let (start, end, step) = if self.ls.chunked {
            (
                cat(["orcl_begin + ".into(), KExpr::LocalIndex(0)]),
                "orcl_end".into(),
                KExpr::LocalSize(0),
            )
        } else {
            (KExpr::GlobalId(0), end.into(), KExpr::GlobalSize(0))
        };
        KStmt::For {
            var: var.into(),
            start,
            end,
            step,
            unroll: self.unroll,
            body,
        }
    }

    fn plain(&self) -> Vec<KStmt> {
        vec![self.stride("orcl_k", "orcl_trip", self.iteration(&self.body))]
    }

    /// Each work-group stages `ORCL_TILE` consecutive iterations' inputs, then computes them.
    fn staged(&self, tiles: &[Tile]) -> Vec<KStmt> {
        let mut out: Vec<KStmt> = tiles
            .iter()
            .map(|t| KStmt::LocalBuffer {
                ty: t.ty,
                name: t.tile.clone(),
                size: "ORCL_TILE",
            })
            .collect();
        out.push(KStmt::Comment(
            "each work-group stages ORCL_TILE consecutive iterations' inputs through local memory"
                .into(),
        ));
        let end = if self.ls.chunked {
            "orcl_end"
        } else {
            "orcl_trip"
        };
        let mut load = vec![self.var_let()];
        for t in tiles {
            load.push(KStmt::Store {
                target: cat([
                    format!("{}[", t.tile).into(),
                    KExpr::LocalIndex(0),
                    "]".into(),
                ]),
                value: t.source.clone().into(),
            });
        }
        let inside = format!("orcl_k < {end}");
        let body = vec![
            KStmt::Let {
                ty: "long",
                name: "orcl_k".into(),
                value: cat(["orcl_base + ".into(), KExpr::LocalIndex(0)]),
            },
            KStmt::If {
                cond: inside.clone().into(),
                then: load,
            },
            KStmt::Barrier,
            KStmt::If {
                cond: inside.into(),
                then: self.iteration(&self.body),
            },
            KStmt::Barrier,
        ];
        let (init, cond, next) = if self.ls.chunked {
            (
                "long orcl_base = orcl_begin".into(),
                "orcl_base < orcl_end",
                "orcl_base += ORCL_TILE".into(),
            )
        } else {
            (
                cat([
                    "long orcl_base = ".into(),
                    KExpr::GroupId(0),
                    " * ORCL_TILE".into(),
                ]),
                "orcl_base < orcl_trip",
                cat(["orcl_base += ".into(), KExpr::GlobalSize(0)]),
            )
        };
        out.push(KStmt::Loop {
            init,
            cond: cond.into(),
            next,
            unroll: self.unroll,
            body,
        });
        out
    }

    /// W iterations per work-item through vector types, then the scalar tail.
    fn vectorised(&self, v: &vector::Vectorised) -> Vec<KStmt> {
        let w = v.width;
        let mut out = vec![
            KStmt::Comment(format!(
                "vecWidth {w}: each work-item takes {w} consecutive iterations at a time ({} loads and stores);\nthe last orcl_trip % {w} iterations run one per work-item",
                v.vty
            )),
            KStmt::Let {
                ty: "long",
                name: "orcl_nvec".into(),
                value: format!("orcl_trip / {w}").into(),
            },
        ];
        for a in &v.accs {
            out.push(KStmt::Var {
                ty: a.vty.clone(),
                name: a.vacc.clone(),
                value: Some(format!("({})({})", a.vty, a.identity).into()),
            });
        }
        if self.ls.chunked {
            out.extend(self.chunk("vectors", "orcl_nvec"));
        }
        let mut body = vec![KStmt::Let {
            ty: "long",
            name: "orcl_k".into(),
            value: format!("orcl_v * {w}").into(),
        }];
        body.extend(self.iteration(&v.body));
        out.push(self.stride("orcl_v", "orcl_nvec", body));
        for a in &v.accs {
            for f in &a.fold {
                out.push(KStmt::Lines(f.clone()));
            }
        }
        out.push(KStmt::For {
            var: "orcl_k".into(),
            start: cat([format!("orcl_nvec * {w} + ").into(), KExpr::GlobalId(0)]),
            end: "orcl_trip".into(),
            step: KExpr::GlobalSize(0),
            unroll: None,
            body: self.iteration(&self.body),
        });
        out
    }
}

/// The work-group's tree over the reductions' private accumulators, one partial result per
/// work-group (combined on the host).
fn reduction_tree(reds: &[Reduction], local: u64) -> Vec<KStmt> {
    let each = |f: &dyn Fn(&Reduction) -> KStmt| reds.iter().map(f).collect::<Vec<_>>();
    let mut block = vec![KStmt::Let {
        ty: "unsigned int",
        name: "orcl_lid".into(),
        value: KExpr::LocalIndex(0),
    }];
    block.extend(each(&|r| KStmt::Store {
        target: format!("{}[orcl_lid]", r.local).into(),
        value: r.acc.clone().into(),
    }));
    block.push(KStmt::Barrier);
    block.push(KStmt::Loop {
        init: format!("unsigned int orcl_w = {} / 2", local.next_power_of_two()).into(),
        cond: "orcl_w > 0".into(),
        next: "orcl_w >>= 1".into(),
        unroll: None,
        body: vec![
            KStmt::If {
                cond: "orcl_lid < orcl_w && orcl_lid + orcl_w < ORCL_WG".into(),
                then: each(&|r| KStmt::Store {
                    target: format!("{}[orcl_lid]", r.local).into(),
                    value: r.combine.clone().into(),
                }),
            },
            KStmt::Barrier,
        ],
    });
    block.push(KStmt::If {
        cond: "orcl_lid == 0".into(),
        then: each(&|r| KStmt::Store {
            target: cat([
                format!("{}[", r.partial).into(),
                KExpr::GroupId(0),
                "]".into(),
            ]),
            value: format!("{}[0]", r.local).into(),
        }),
    });
    vec![
        KStmt::Comment("reduction: tree over the work-group in local memory (barriers, no lock-step assumption),\none partial result per work-group, combined on the host".into()),
        KStmt::Block(block),
    ]
}

/// The test faults `hang` and `crash`: work-item 0 spins or writes to address 0.
fn faults(fault: Option<Fault>) -> Vec<KStmt> {
    let gid = KExpr::GlobalId(0);
    match fault {
        Some(Fault::Hang) => vec![KStmt::Line(cat([
            "if (".into(),
            gid,
            " == 0) { volatile int orcl_spin = 1; while (orcl_spin) { } } /* test fault: hang */"
                .into(),
        ]))],
        Some(Fault::Crash) => vec![KStmt::Line(cat([
            "if (".into(),
            gid,
            " == 0) { *(".into(),
            KExpr::GlobalSpace,
            "volatile int *)0 = 1; } /* test fault: crash */".into(),
        ]))],
        _ => Vec::new(),
    }
}

/// A 1-D kernel and its static local memory in bytes.
pub struct Lowered {
    pub kernel: KernelFn,
    pub local_mem_bytes: u64,
}

/// How the body's references are printed: reductions into their private accumulators, staged
/// arrays from their tiles.
struct Names<'a> {
    reduced: Vec<&'a str>,
    tiles: &'a [Tile],
    /// Group-uniform passes: a tile holds one element per iteration of the pass (`orcl_slot`);
    /// otherwise one per work-item (the local index).
    passes: bool,
}

impl Names<'_> {
    fn subst(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Var(v) if self.reduced.contains(&v.as_str()) => Some(accumulator_name(v)),
            ExprKind::Index { array, .. } => {
                let t = self.tiles.iter().find(|t| t.array == *array)?;
                let slot = if self.passes {
                    "orcl_slot"
                } else {
                    LOCAL_INDEX
                };
                Some(format!("{}[{slot}]", t.tile))
            }
            _ => None,
        }
    }
}

/// The form of the loop the schedule asks for (see the module docs).
enum Form {
    Vector(vector::Vectorised),
    Passes(passes::Nested),
    Staged,
    Plain,
}

/// Lower the 1-D map of `s` (which must be a [`LinearSchedule`]) to kernel IR (a `vecWidth` body
/// as `schedule::linear` planned it); `fault` for tests.
pub fn lower(k: &Kernel, s: &Schedule, fault: Option<Fault>) -> Lowered {
    let ls = s.linear().expect("a 1-D schedule");
    let local = s.dims[0].items;
    let l = &k.parallel;
    let vectorised = ls.vector.clone();
    let plan = &ls.passes;
    // With vecWidth every element is loaded once, as part of a vector: nothing to stage.
    let tiles = if ls.cache_blocks && vectorised.is_none() {
        tiles(k)
    } else {
        Vec::new()
    };
    let reds = reductions(k);
    let names = Names {
        reduced: k.reductions().map(|a| a.name.as_str()).collect(),
        tiles: &tiles,
        passes: plan.is_some(),
    };
    let subst = |e: &Expr| names.subst(e);
    let has_inner = l.has_inner_loops();
    let unroll = (s.unroll > 1).then_some(i64::from(s.unroll));
    let form = match (vectorised, &plan) {
        (Some(v), _) => Form::Vector(v),
        (None, Some(p)) => Form::Passes(passes::render(k, p, local, unroll, &subst)),
        (None, None) if !tiles.is_empty() => Form::Staged,
        (None, None) => Form::Plain,
    };
    let mut w = StmtWriter {
        out: String::new(),
        indent: 0,
        unroll: if has_inner { unroll } else { None },
        subst: &subst,
    };
    if k.args.iter().any(|a| a.atomic_sum) {
        super::atomic::write_stmts(&mut w, k, &l.body);
    } else {
        w.write_stmts(&l.body);
    }
    let var_ty = k
        .symbols
        .get(&l.var)
        .map(|s| s.ty)
        .unwrap_or(ScalarType::Int);
    let cx = Cx {
        k,
        ls,
        var_ty: var_ty.c_name(),
        index: loop_index(l, var_ty, "orcl_k", &|_| None),
        body: w.out,
        unroll: (s.unroll > 1 && !has_inner).then_some(s.unroll),
        fault_wrong: match fault {
            Some(Fault::Wrong) => first_write(&l.body)
                .map(|t| c_expr(t, &subst))
                .or_else(|| names.reduced.first().map(|v| accumulator_name(v))),
            _ => None,
        },
    };
    let body = cx.body(&form, &tiles, &reds, fault, local);
    let per_item: u64 = tiles
        .iter()
        .map(|t| t.ty)
        .chain(reds.iter().map(|r| r.ty))
        .map(|t| t.size_bytes() as u64)
        .sum::<u64>()
        + plan.as_ref().map_or(0, |p| p.local_bytes_per_item());
    let limits = !reds.is_empty() || plan.as_ref().is_some_and(|p| p.uses_limits());
    Lowered {
        kernel: frame(
            k,
            s,
            ls,
            defines(&form, !tiles.is_empty(), !reds.is_empty(), local),
            limits,
            body,
        ),
        local_mem_bytes: per_item * local,
    }
}

impl Cx<'_> {
    /// The kernel's body: the trip count, the chunk, the accumulators, the loop in its form,
    /// the reductions' tree.
    fn body(
        &self,
        form: &Form,
        tiles: &[Tile],
        reds: &[Reduction],
        fault: Option<Fault>,
        local: u64,
    ) -> Vec<KStmt> {
        let (k, ls) = (self.k, self.ls);
        let mut body = vec![
            KStmt::Comment(format!(
                "iterations of `for ({})`",
                loop_header(&k.parallel)
            )),
            KStmt::Let {
                ty: "long",
                name: "orcl_trip".into(),
                value: trip_expr(k).into(),
            },
        ];
        if ls.chunked && !matches!(form, Form::Vector(_)) {
            body.extend(self.chunk("iterations", "orcl_trip"));
        }
        body.extend(super::private_arrays(k));
        for r in reds {
            body.push(KStmt::Var {
                ty: r.ty.c_name().into(),
                name: r.acc.clone(),
                value: Some(r.identity.into()),
            });
            body.push(KStmt::LocalBuffer {
                ty: r.ty,
                name: r.local.clone(),
                size: "ORCL_WG",
            });
        }
        body.extend(faults(fault));
        body.extend(match form {
            Form::Vector(v) => self.vectorised(v),
            Form::Passes(n) => n.lower(&Frame {
                chunked: ls.chunked,
                var: &k.parallel.var,
                var_type: self.var_ty,
                index: self.index.clone(),
                tiles,
                fault_wrong: self.fault_wrong.clone(),
            }),
            Form::Staged => self.staged(tiles),
            Form::Plain => self.plain(),
        });
        if !reds.is_empty() {
            body.extend(reduction_tree(reds, local));
        }
        body
    }
}

/// The `ORCL_TILE` / `ORCL_WG` defines (both the local size) the form uses: tiles (`staged`:
/// arrays staged per iteration), the reductions' trees (`reduces`), the lanes' partials.
fn defines(form: &Form, staged: bool, reduces: bool, local: u64) -> Vec<(&'static str, u64)> {
    let (tiles, partials) = match form {
        Form::Passes(n) => (staged || n.has_tiles(), n.has_partials()),
        Form::Staged => (true, false),
        _ => (false, false),
    };
    let mut d = Vec::new();
    if tiles {
        d.push(("ORCL_TILE", local));
    }
    if reduces || partials {
        d.push(("ORCL_WG", local));
    }
    d
}

/// The kernel around `body`: parameters, `defines`, fp64, CUDA's limits (`limits`), attributes.
fn frame(
    k: &Kernel,
    s: &Schedule,
    ls: &LinearSchedule,
    defines: Vec<(&'static str, u64)>,
    limits: bool,
    body: Vec<KStmt>,
) -> KernelFn {
    let local = s.dims[0].items;
    let elem = k.element_type().c_name();
    KernelFn {
        fp64: k.uses_double() || has_double_literal(&k.parallel.body),
        limits,
        defines,
        restrict: false,
        params: params(k),
        declared_local: s.size_hint.then(|| vec![local]),
        size_hint: true,
        min_blocks: 0,
        index32: false,
        vec_type_hint: match ls.vec_hint {
            0 => None,
            1 => Some(elem.to_string()),
            n => Some(format!("{elem}{n}")),
        },
        atomics: super::atomic::types(k),
        body,
    }
}

/// `i = 0; i < n; i++`: the loop's header as written.
pub(super) fn loop_header(l: &orcl_frontend::ir::Loop) -> String {
    let none = |_: &Expr| None;
    let var = &l.var;
    format!(
        "{var} = {}; {var} {} {}; {}",
        c_expr(&l.lower, &none),
        if l.inclusive { "<=" } else { "<" },
        c_expr(&l.upper, &none),
        if l.step == 1 {
            format!("{var}++")
        } else {
            format!("{var} += {}", l.step)
        }
    )
}

fn has_double_literal(stmts: &[orcl_frontend::ir::Stmt]) -> bool {
    let mut found = false;
    for_each_expr(stmts, &mut |e| {
        if matches!(&e.kind, ExprKind::Float { single: false, .. }) {
            found = true;
        }
    });
    found
}

fn first_write(stmts: &[orcl_frontend::ir::Stmt]) -> Option<&Expr> {
    use orcl_frontend::ir::StmtKind::*;
    stmts.iter().find_map(|s| match &s.kind {
        Assign { target, .. } if matches!(target.kind, ExprKind::Index { .. }) => Some(target),
        Block(b) => first_write(b),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::Backend;

    /// The kernel of `code` in a function with the usual matVec / vector arguments.
    fn kernel(code: &str) -> Kernel {
        let text = format!(
            "double f(int m, int n, double a, const double *A, const double *x, double *y, double *w) {{\n    int i, j;\n    double s = 0.0;\n    /*@ begin PerfTuning (\n def performance_params {{ param WI[] = [32]; }}\n def input_params {{ param M[] = [8]; param N[] = [8]; }}\n def input_vars {{ decl int m = M; decl int n = N; decl double a = 2; decl double s = 0; decl static double A[M*N] = random; decl static double x[N] = random; decl static double y[M] = 0; decl static double w[N] = 0; }}\n ) @*/\n    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)\n {code}\n ) @*/\n {code}\n /*@ end @*/\n /*@ end @*/\n    return s;\n}}\n"
        );
        let regions = orcl_frontend::parse(&text).expect("parses");
        orcl_frontend::lower::lower(&regions[0].raw, &regions[0].spec, &text).expect("lowers")
    }

    const MATVEC: &str = "for (i=0; i<m; i++) { double t = 0.0; for (j=0; j<n; j++) t += A[i*n+j]*x[j]; y[i] = t; s += t; }";

    use crate::schedule::{ArgError, LinearArg};

    /// A 1-D map of `local` work-items per group with cacheBlocks, innerThreads and vecWidth.
    fn one_d(local: u64, cb: bool, lanes: u64, vw: u32) -> (u64, LinearSchedule) {
        let l = LinearSchedule {
            groups: None,
            chunked: false,
            lanes,
            cache_blocks: cb,
            vec_width: vw,
            vec_hint: 0,
            passes: None,
            vector: None,
        };
        (local, l)
    }

    struct KernelSource {
        source: String,
        local_mem_bytes: u64,
    }

    /// The schedule of `o` for `k`, lowered and written for `b`.
    fn render_kernel(
        k: &Kernel,
        o: &(u64, LinearSchedule),
        b: Backend,
        fault: Option<Fault>,
    ) -> Result<KernelSource, ArgError> {
        let s = crate::schedule::linear(k, o.1.clone(), o.0, 1, false, b)?;
        let low = lower(k, &s, fault);
        Ok(KernelSource {
            source: super::super::write(&low.kernel, b),
            local_mem_bytes: low.local_mem_bytes,
        })
    }

    fn check_schedule(k: &Kernel, o: &(u64, LinearSchedule), b: Backend) -> Result<(), ArgError> {
        render_kernel(k, o, b, None).map(|_| ())
    }

    /// Staged tiles and lanes render in CUDA with CUDA's words only, and count their local memory.
    #[test]
    fn lanes_and_tiles_render_in_both_dialects() {
        let k = kernel(MATVEC);
        let o = one_d(64, true, 8, 1);
        let cl = render_kernel(&k, &o, Backend::OpenCl, None).unwrap();
        let cu = render_kernel(&k, &o, Backend::Cuda, None).unwrap();
        for (src, words, foreign) in [
            (
                &cl.source,
                &[
                    "__local double orcl_tile_x_j",
                    "barrier(CLK_LOCAL_MEM_FENCE)",
                    "get_local_id(0)",
                ][..],
                &["__shared__", "__syncthreads", "threadIdx"][..],
            ),
            (
                &cu.source,
                &[
                    "__shared__ double orcl_tile_x_j",
                    "__syncthreads()",
                    "threadIdx.x",
                    "#define INFINITY",
                ][..],
                &[
                    "__local",
                    "barrier(",
                    "get_local_id",
                    "get_group_id",
                    "__global ",
                    "__kernel",
                ][..],
            ),
        ] {
            for w in words {
                assert!(src.contains(w), "no `{w}` in\n{src}");
            }
            for w in foreign {
                assert!(!src.contains(w), "`{w}` in\n{src}");
            }
            assert!(src.contains("orcl_q += 8"), "{src}");
            assert!(src.contains("orcl_part_t[orcl_tid + orcl_w]"), "{src}");
        }
        // A tile of x, the lanes' partials of t and the reduction tree of s: 3 doubles per item.
        assert_eq!(cl.local_mem_bytes, 3 * 8 * 64);
        assert_eq!(cu.local_mem_bytes, cl.local_mem_bytes);
    }

    /// `innerThreads=1` and `cacheBlocks=False` leave the one-work-item-per-iteration kernel.
    #[test]
    fn one_lane_is_the_identity() {
        let k = kernel(MATVEC);
        let plain = render_kernel(&k, &one_d(32, false, 1, 1), Backend::OpenCl, None).unwrap();
        assert!(!plain.source.contains("orcl_lane") && !plain.source.contains("orcl_active"));
        assert_eq!(plain.local_mem_bytes, 8 * 32);
    }

    /// Lanes that do not divide the local size leave the last work-items idle (guarded).
    #[test]
    fn idle_lanes_are_guarded() {
        let k = kernel(MATVEC);
        let src = render_kernel(&k, &one_d(20, false, 8, 1), Backend::Cuda, None)
            .unwrap()
            .source;
        assert!(src.contains("orcl_slot < 2 && orcl_k < orcl_trip"), "{src}");
        assert!(
            src.contains("orcl_lane + orcl_w < 8 && orcl_slot < 2"),
            "{src}"
        );
    }

    #[test]
    fn schedule_errors_name_the_argument() {
        let k = kernel(MATVEC);
        let e = check_schedule(&k, &one_d(4, false, 8, 1), Backend::Cuda).unwrap_err();
        assert_eq!(e.arg, LinearArg::InnerThreads);
        assert!(
            e.message.contains("more than the local size (4)"),
            "{}",
            e.message
        );
        let e = check_schedule(&k, &one_d(32, false, 1, 4), Backend::OpenCl).unwrap_err();
        assert_eq!(e.arg, LinearArg::VecWidth);
        let axpy = kernel("for (i=0; i<n; i++) w[i] = a*x[i] + w[i];");
        let e = check_schedule(&axpy, &one_d(32, false, 2, 1), Backend::OpenCl).unwrap_err();
        assert!(
            e.message.contains("needs a sequential inner loop"),
            "{}",
            e.message
        );
        let e = check_schedule(&axpy, &one_d(32, false, 1, 4), Backend::Cuda).unwrap_err();
        assert!(e.message.contains("OpenCL only"), "{}", e.message);
    }

    /// vecWidth: vector body, scalar tail, vector accumulator folded component by component.
    #[test]
    fn vector_width_loads_stores_and_folds() {
        let k = kernel("for (i=1; i<n-1; i++) { w[i] = a*x[i+1] - x[i-1]; s += w[i]; }");
        let src = render_kernel(&k, &one_d(32, true, 1, 4), Backend::OpenCl, None)
            .unwrap()
            .source;
        for want in [
            "const long orcl_nvec = orcl_trip / 4;",
            "vstore4((double4)(a) * vload4(0, x + (i + 1)) - vload4(0, x + (i - 1)), 0, w + i);",
            "orcl_vacc_s += vload4(0, w + i);",
            "orcl_acc_s = orcl_acc_s + orcl_vacc_s.s3;",
            "for (long orcl_k = orcl_nvec * 4 + (long)get_global_id(0); orcl_k < orcl_trip;",
            "w[i] = a * x[i + 1] - x[i - 1];",
        ] {
            assert!(src.contains(want), "no `{want}` in\n{src}");
        }
        // cacheBlocks has nothing to stage in a vectorised loop.
        assert!(!src.contains("__local double orcl_tile"), "{src}");
    }

    /// A configuration without `tile` is a schedule of one NDRange dimension (the parallel
    /// loop, the local size as its work-group extent) whose passes are planned once, there.
    #[test]
    fn the_one_dimension_schedule_holds_the_plan() {
        let k = kernel(MATVEC);
        let (local, l) = one_d(64, true, 8, 1);
        let s = crate::schedule::linear(&k, l, local, 4, true, Backend::OpenCl).unwrap();
        assert_eq!(s.dims.len(), 1);
        assert_eq!((s.dims[0].var.as_str(), s.dims[0].items), ("i", 64));
        let plan = s.linear().and_then(|l| l.passes.as_ref()).unwrap();
        assert_eq!(plan.threads, 8);
        // Without lanes or staged inner loops there are no passes.
        let (local, l) = one_d(64, false, 1, 1);
        let s = crate::schedule::linear(&k, l, local, 1, false, Backend::Cuda).unwrap();
        assert!(s.linear().unwrap().passes.is_none());
    }

    /// The writer alone spells the work-item queries of each backend.
    #[test]
    fn queries_are_spelled_by_the_writer() {
        let q = cat([
            KExpr::GlobalId(0),
            " ".into(),
            KExpr::GlobalSize(0),
            " ".into(),
            KExpr::NumGroups(0),
            " ".into(),
            KExpr::LocalSize(0),
            " ".into(),
            KExpr::LocalIndex(0),
            " ".into(),
            KExpr::GlobalSpace,
        ]);
        let f = KernelFn {
            fp64: false,
            limits: true,
            defines: vec![("ORCL_WG", 32)],
            restrict: false,
            params: Vec::new(),
            declared_local: Some(vec![32]),
            size_hint: true,
            min_blocks: 0,
            index32: false,
            vec_type_hint: Some("float4".into()),
            atomics: Vec::new(),
            body: vec![KStmt::Line(q)],
        };
        let cl = super::super::write(&f, Backend::OpenCl);
        assert!(cl.contains("(long)get_global_id(0) (long)get_global_size(0) (long)get_num_groups(0) (long)get_local_size(0) get_local_id(0) __global \n"), "{cl}");
        assert!(cl.contains("__kernel __attribute__((vec_type_hint(float4)))\n__attribute__((work_group_size_hint(32, 1, 1)))\n__attribute__((reqd_work_group_size(32, 1, 1)))\nvoid orcl_kernel()"), "{cl}");
        assert!(!cl.contains("INFINITY"), "{cl}");
        let cu = super::super::write(&f, Backend::Cuda);
        assert!(cu.contains("((long)blockIdx.x * blockDim.x + threadIdx.x) ((long)gridDim.x * blockDim.x) (long)gridDim.x (long)blockDim.x threadIdx.x \n"), "{cu}");
        assert!(cu.contains("#define INFINITY") && cu.contains("#define ORCL_WG 32\nextern \"C\" __global__ void __launch_bounds__(32) orcl_kernel()"), "{cu}");
    }
}
