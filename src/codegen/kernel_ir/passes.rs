//! Kernel IR of the group-uniform passes of a 1-D map (planned in `schedule::passes`):
//! `cacheBlocks` tiles of an inner loop's shared operand loaded by the whole work-group between
//! barriers, `innerThreads` lanes splitting an inner reduction loop lane-strided and combining
//! their partial results with a tree in local memory. Every work-item of a work-group takes part
//! in every pass, tile load and barrier; inactive ones (past the end of the loop) only skip the
//! statements.

use super::{cat, KExpr, KStmt};
use crate::schedule::passes::{offset_of, Acc, Plan, Split, Stage};
use orcl_frontend::ir::c::{c_expr, StmtWriter, Subst};
use orcl_frontend::ir::c::{loop_index, loop_trip};
use orcl_frontend::ir::{AssignOp, Expr, ExprKind, Kernel, Loop, ScalarType, Stmt, StmtKind};

/// A local-memory array of the passes (`ORCL_TILE` or `ORCL_WG` elements).
struct LocalArray {
    ty: ScalarType,
    name: String,
}

/// The per-lane partial results of one accumulator, combined after the split loop.
struct Partial {
    name: String,
    var: String,
    identity: &'static str,
    combine: String,
}

struct Load {
    tile: String,
    source: String,
}

/// One piece of the parallel loop's body in a pass.
struct Segment {
    /// `code`: statements run by the work-items for which `guard` holds; `loop`: an inner loop
    /// (split over lanes and/or staged in tiles).
    kind: &'static str,
    guard: String,
    body: String,
    header: String,
    var: String,
    var_type: &'static str,
    trip: String,
    load_index: String,
    index: String,
    loads: Vec<Load>,
    split: bool,
    resets: Vec<String>,
    pragma: Option<u32>,
    combine: Vec<Partial>,
}

impl Segment {
    fn code(guard: &str, body: String) -> Self {
        Segment {
            kind: "code",
            guard: guard.to_string(),
            body,
            header: String::new(),
            var: String::new(),
            var_type: "int",
            trip: String::new(),
            load_index: String::new(),
            index: String::new(),
            loads: Vec::new(),
            split: false,
            resets: Vec::new(),
            pragma: None,
            combine: Vec::new(),
        }
    }
}

/// A group-uniform kernel's passes, before they become kernel IR ([`Nested::lower`]).
pub(super) struct Nested {
    threads: u64,
    /// Iterations of the parallel loop per work-group and pass (local size / lanes).
    rows: u64,
    /// The local size is not a multiple of the lanes: the last `local % lanes` work-items idle.
    idle: bool,
    pow2: u64,
    tiles: Vec<LocalArray>,
    partials: Vec<LocalArray>,
    hoisted: Vec<String>,
    segments: Vec<Segment>,
    /// Statements (test faults) run once per active iteration at the end of the pass.
    tail_guard: String,
}

impl Nested {
    pub fn has_tiles(&self) -> bool {
        !self.tiles.is_empty()
    }
    pub fn has_partials(&self) -> bool {
        !self.partials.is_empty()
    }
}

/// Builds the segments of a pass, statement by statement of the parallel loop's body.
struct Builder<'a> {
    k: &'a Kernel,
    plan: &'a Plan,
    unroll: Option<i64>,
    subst: Subst<'a>,
    hoisted: Vec<String>,
    segments: Vec<Segment>,
    tiles: Vec<LocalArray>,
    partials: Vec<LocalArray>,
    /// The guard of the statements collected in `pending`.
    guard: &'static str,
    pending: Vec<Stmt>,
    /// Lines before `pending` (lane 0 finishing the lanes' accumulators).
    lead: Vec<String>,
}

const ALL_GUARD: &str = "orcl_active";
const LANE0_GUARD: &str = "orcl_active && orcl_lane == 0";

impl Builder<'_> {
    fn write(&self, stmts: &[Stmt], subst: Subst) -> String {
        let mut w = StmtWriter {
            out: String::new(),
            indent: 0,
            unroll: self.unroll,
            subst,
        };
        w.write_stmts(stmts);
        w.out
    }

    /// The statements collected so far as one guarded code segment.
    fn flush(&mut self) {
        if self.pending.is_empty() && self.lead.is_empty() {
            return;
        }
        let mut text: String = self.lead.iter().map(|l| format!("{l}\n")).collect();
        text.push_str(&self.write(&self.pending, self.subst));
        self.segments.push(Segment::code(self.guard, text));
        self.pending.clear();
        self.lead.clear();
    }

    /// A statement that is not a split or staged loop: collected under the current guard;
    /// top-level temporaries live for the whole pass (declared by every work-item, set by the
    /// active ones).
    fn statement(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Decl { ty, name, init } => {
                self.hoisted.push(format!("{} {name};", ty.c_name()));
                if let Some(i) = init {
                    self.pending.push(Stmt {
                        kind: StmtKind::Assign {
                            target: Expr {
                                kind: ExprKind::Var(name.clone()),
                                span: s.span,
                            },
                            op: AssignOp::Set,
                            value: i.clone(),
                        },
                        span: s.span,
                    });
                }
            }
            _ => self.pending.push(s.clone()),
        }
    }

    /// The lanes' accumulators of split loop `sp`: what each lane resets before the loop, the
    /// partial results to combine after it (and lane 0's finishing lines in `lead`).
    fn lanes(&mut self, sp: &Split) -> (Vec<String>, Vec<Partial>) {
        let mut resets = Vec::new();
        let mut combine = Vec::new();
        for a in &sp.accs {
            let identity = a.op.identity(a.ty);
            let part = format!("orcl_part_{}", a.name);
            let lanes = format!("{part}[orcl_tid]");
            if a.is_array {
                // Lanes accumulate privately; lane 0 adds the total to the element.
                let element = c_expr(&a.target, self.subst);
                self.hoisted
                    .push(format!("{} {};", a.ty.c_name(), a.lane_var));
                resets.push(format!("{} = {identity};", a.lane_var));
                self.lead.push(format!(
                    "{element} = {};",
                    a.op.combine(a.ty, &element, &lanes)
                ));
            } else if a.starts_at_identity {
                self.lead.push(format!("{} = {lanes};", a.name));
            } else {
                let init = format!("orcl_init_{}", a.name);
                self.hoisted.push(format!("{} {init};", a.ty.c_name()));
                resets.push(format!("{init} = {};", a.name));
                resets.push(format!("{} = {identity};", a.name));
                self.lead.push(format!(
                    "{} = {};",
                    a.name,
                    a.op.combine(a.ty, &init, &lanes)
                ));
            }
            self.partials.push(LocalArray {
                ty: a.ty,
                name: part.clone(),
            });
            combine.push(Partial {
                name: part.clone(),
                var: a.lane_var.clone(),
                identity,
                combine: a.op.combine(
                    a.ty,
                    &format!("{part}[orcl_tid]"),
                    &format!("{part}[orcl_tid + orcl_w]"),
                ),
            });
        }
        (resets, combine)
    }

    /// Inner loop `l`, split over the lanes (`split`) and/or with its shared operands staged.
    fn inner_loop(&mut self, l: &Loop, split: Option<&Split>, stages: &[Stage]) {
        self.flush();
        self.guard = ALL_GUARD;
        let var_ty = self
            .k
            .symbols
            .get(&l.var)
            .map(|s| s.ty)
            .unwrap_or(ScalarType::Int);
        let lane_accs: Vec<&Acc> = split
            .map(|sp| sp.accs.iter().filter(|a| a.is_array).collect())
            .unwrap_or_default();
        let subst = self.subst;
        let staged_subst = |e: &Expr| -> Option<String> {
            if let Some(a) = lane_accs.iter().find(|a| e.same_as(&a.target)) {
                return Some(a.lane_var.clone());
            }
            if let ExprKind::Index { array, indices } = &e.kind {
                let c = (indices.len() == 1)
                    .then(|| offset_of(&indices[0], &l.var))
                    .flatten();
                if let Some(st) = stages
                    .iter()
                    .find(|st| &st.array == array && Some(st.offset) == c)
                {
                    return Some(format!("{}[orcl_q]", st.tile));
                }
            }
            subst(e)
        };
        let staged = !stages.is_empty();
        let loop_body = self.write(&l.body, &staged_subst);
        for st in stages {
            self.tiles.push(LocalArray {
                ty: st.ty,
                name: st.tile.clone(),
            });
        }
        let (resets, combine) = match split {
            Some(sp) => {
                let r = self.lanes(sp);
                self.guard = LANE0_GUARD;
                r
            }
            None => (Vec::new(), Vec::new()),
        };
        let q = if staged { "orcl_jb + orcl_q" } else { "orcl_q" };
        self.segments.push(Segment {
            kind: "loop",
            guard: String::new(),
            body: loop_body,
            header: super::linear::loop_header(l),
            var: l.var.clone(),
            var_type: var_ty.c_name(),
            trip: loop_trip(l, subst),
            load_index: loop_index(l, var_ty, "orcl_jb + orcl_tid", subst),
            index: loop_index(l, var_ty, q, subst),
            loads: stages
                .iter()
                .map(|st| Load {
                    tile: st.tile.clone(),
                    source: c_expr(&st.source, &|_| None),
                })
                .collect(),
            split: split.is_some(),
            resets,
            pragma: self
                .unroll
                .filter(|_| !l.has_inner_loops())
                .map(|u| u as u32),
            combine,
        });
    }
}

/// Render the parallel loop's body as pass segments. `subst` handles reductions and tiles of the
/// parallel variable; `unroll` is `unrollInner`.
pub(super) fn render(
    k: &Kernel,
    plan: &Plan,
    local_size: u64,
    unroll: Option<i64>,
    subst: Subst,
) -> Nested {
    let t = plan.threads;
    let mut b = Builder {
        k,
        plan,
        unroll,
        subst,
        hoisted: Vec::new(),
        segments: Vec::new(),
        tiles: Vec::new(),
        partials: Vec::new(),
        guard: ALL_GUARD,
        pending: Vec::new(),
        lead: Vec::new(),
    };
    for (index, s) in k.parallel.body.iter().enumerate() {
        if let Some(sp) = b.plan.split.as_ref().filter(|sp| index < sp.index) {
            let want = if sp.lane0.contains(&index) {
                LANE0_GUARD
            } else {
                ALL_GUARD
            };
            if want != b.guard {
                b.flush();
                b.guard = want;
            }
        }
        let split = b.plan.split.as_ref().filter(|sp| sp.index == index);
        let stages = b.plan.staged.get(&index);
        match &s.kind {
            StmtKind::For(l) if split.is_some() || stages.is_some() => {
                b.inner_loop(l, split, stages.map_or(&[][..], |v| &v[..]))
            }
            StmtKind::For(_) => b.pending.push(s.clone()),
            _ => b.statement(s),
        }
    }
    b.flush();
    let rows = (local_size / t).max(1);
    Nested {
        threads: t,
        rows,
        idle: local_size % t != 0,
        pow2: t.next_power_of_two(),
        tiles: b.tiles,
        partials: b.partials,
        hoisted: b.hoisted,
        segments: b.segments,
        tail_guard: b.guard.to_string(),
    }
}

/// What the 1-D kernel around the passes gives them: the parallel loop's variable and how it is
/// computed from the iteration number `orcl_k`, the 1-D tiles of arrays read at exactly the
/// parallel index, and the test fault's statement.
pub(super) struct Frame<'a> {
    pub chunked: bool,
    pub var: &'a str,
    pub var_type: &'static str,
    /// The variable's value at iteration `orcl_k` (C text).
    pub index: String,
    pub tiles: &'a [super::linear::Tile],
    /// `ORCL_TEST_FAULT=wrong`: the lvalue incremented once.
    pub fault_wrong: Option<String>,
}

fn barrier_after(mut v: Vec<KStmt>) -> Vec<KStmt> {
    v.push(KStmt::Barrier);
    v
}

fn lines(text: &str) -> KStmt {
    KStmt::Lines(text.to_string())
}

impl Nested {
    /// The passes as kernel IR: every work-item of a work-group takes part in every pass, tile
    /// load and barrier; `orcl_active` says whether its iteration is inside the loop.
    pub(super) fn lower(&self, f: &Frame) -> Vec<KStmt> {
        let (t, rows) = (self.threads, self.rows);
        let lanes = if t > 1 {
            format!(", {t} lanes (work-items) each")
        } else {
            String::new()
        };
        let mut out = vec![
            KStmt::Comment(format!("group-uniform passes: every work-item of the work-group takes part in every pass and barrier;\n{rows} iteration(s) per work-group and pass{lanes}")),
            KStmt::Let {
                ty: "unsigned int",
                name: "orcl_tid".into(),
                value: KExpr::LocalIndex(0),
            },
        ];
        let uint = |name: &str, value: String| KStmt::Let {
            ty: "unsigned int",
            name: name.into(),
            value: value.into(),
        };
        if t > 1 {
            out.push(uint("orcl_slot", format!("orcl_tid / {t}")));
            out.push(uint("orcl_lane", format!("orcl_tid % {t}")));
        } else {
            out.push(uint("orcl_slot", "orcl_tid".into()));
        }
        let buffer = |ty: ScalarType, name: &str, size| KStmt::LocalBuffer {
            ty,
            name: name.into(),
            size,
        };
        for x in f.tiles {
            out.push(buffer(x.ty, &x.tile, "ORCL_TILE"));
        }
        for x in &self.tiles {
            out.push(buffer(x.ty, &x.name, "ORCL_TILE"));
        }
        for x in &self.partials {
            out.push(buffer(x.ty, &x.name, "ORCL_WG"));
        }
        let end = if f.chunked { "orcl_end" } else { "orcl_trip" };
        let (init, cond, next) = if f.chunked {
            (
                "long orcl_base = orcl_begin".into(),
                "orcl_base < orcl_end",
                format!("orcl_base += {rows}").into(),
            )
        } else {
            (
                cat([
                    "long orcl_base = ".into(),
                    KExpr::GroupId(0),
                    format!(" * {rows}").into(),
                ]),
                "orcl_base < orcl_trip",
                cat([
                    "orcl_base += ".into(),
                    KExpr::NumGroups(0),
                    format!(" * {rows}").into(),
                ]),
            )
        };
        out.push(KStmt::Loop {
            init,
            cond: cond.into(),
            next,
            unroll: None,
            body: self.pass(f, end),
        });
        out
    }

    /// One pass: `rows` iterations of the parallel loop per work-group.
    fn pass(&self, f: &Frame, end: &str) -> Vec<KStmt> {
        let (t, rows) = (self.threads, self.rows);
        let idle = if self.idle {
            format!("orcl_slot < {rows} && ")
        } else {
            String::new()
        };
        let mut body = vec![
            KStmt::Let {
                ty: "long",
                name: "orcl_k".into(),
                value: "orcl_base + orcl_slot".into(),
            },
            KStmt::Let {
                ty: "int",
                name: "orcl_active".into(),
                value: format!("{idle}orcl_k < {end}").into(),
            },
            KStmt::Let {
                ty: f.var_type,
                name: f.var.into(),
                value: f.index.clone().into(),
            },
        ];
        if !f.tiles.is_empty() {
            let lane0 = if t > 1 { " && orcl_lane == 0" } else { "" };
            body.push(KStmt::If {
                cond: format!("orcl_active{lane0}").into(),
                then: f
                    .tiles
                    .iter()
                    .map(|x| KStmt::Store {
                        target: format!("{}[orcl_slot]", x.tile).into(),
                        value: x.source.clone().into(),
                    })
                    .collect(),
            });
            body.push(KStmt::Barrier);
        }
        for h in &self.hoisted {
            body.push(lines(h));
        }
        for s in &self.segments {
            self.segment(s, &mut body);
        }
        if let Some(w) = &f.fault_wrong {
            body.push(KStmt::Line(
                format!(
                    "if ({} && orcl_k == 0) {{ {w} += 1; }} /* test fault: wrong result */",
                    self.tail_guard
                )
                .into(),
            ));
        }
        if !f.tiles.is_empty() {
            body.push(KStmt::Barrier);
        }
        body
    }

    fn segment(&self, s: &Segment, out: &mut Vec<KStmt>) {
        let t = self.threads;
        if s.kind == "code" {
            out.push(KStmt::If {
                cond: s.guard.clone().into(),
                then: vec![lines(&s.body)],
            });
        } else {
            let var = &s.var;
            let trip = KStmt::Let {
                ty: "long",
                name: format!("orcl_trip_{var}"),
                value: s.trip.clone().into(),
            };
            let resets: Vec<KStmt> = s.resets.iter().map(|r| lines(r)).collect();
            let split = s.split && s.loads.is_empty();
            let inner = |start: &str, end: &str, step: String| KStmt::For {
                var: "orcl_q".into(),
                start: start.into(),
                end: end.into(),
                step: step.into(),
                unroll: s.pragma,
                body: vec![
                    KStmt::Let {
                        ty: s.var_type,
                        name: var.clone(),
                        value: s.index.clone().into(),
                    },
                    lines(&s.body),
                ],
            };
            if split {
                out.push(KStmt::Comment(format!("innerThreads: the lanes split `for ({})`, lane-strided (consecutive lanes, consecutive iterations)", s.header)));
                let mut then = resets;
                then.push(trip);
                then.push(inner(
                    "orcl_lane",
                    &format!("orcl_trip_{var}"),
                    t.to_string(),
                ));
                out.push(KStmt::If {
                    cond: "orcl_active".into(),
                    then,
                });
            } else {
                let lanes = if s.split {
                    "; the lanes split each tile, lane-strided"
                } else {
                    ""
                };
                out.push(KStmt::Comment(format!("cacheBlocks: the work-group stages the shared operands of `for ({})` through local memory,\nORCL_TILE iterations at a time{lanes}", s.header)));
                let mut block = Vec::new();
                if !resets.is_empty() {
                    block.push(KStmt::If {
                        cond: "orcl_active".into(),
                        then: resets,
                    });
                }
                block.push(trip);
                let mut load = vec![KStmt::Let {
                    ty: s.var_type,
                    name: var.clone(),
                    value: s.load_index.clone().into(),
                }];
                for x in &s.loads {
                    load.push(KStmt::Store {
                        target: format!("{}[orcl_tid]", x.tile).into(),
                        value: x.source.clone().into(),
                    });
                }
                let n = format!("orcl_trip_{var} - orcl_jb");
                let (start, step) = if s.split {
                    ("orcl_lane", t.to_string())
                } else {
                    ("0", "1".to_string())
                };
                let tile = vec![
                    KStmt::If {
                        cond: format!("orcl_jb + orcl_tid < orcl_trip_{var}").into(),
                        then: load,
                    },
                    KStmt::Barrier,
                    KStmt::If {
                        cond: "orcl_active".into(),
                        then: vec![
                            KStmt::Let {
                                ty: "long",
                                name: "orcl_n".into(),
                                value: format!("{n} < ORCL_TILE ? {n} : ORCL_TILE").into(),
                            },
                            inner(start, "orcl_n", step),
                        ],
                    },
                    KStmt::Barrier,
                ];
                block.push(KStmt::For {
                    var: "orcl_jb".into(),
                    start: "0".into(),
                    end: format!("orcl_trip_{var}").into(),
                    step: "ORCL_TILE".into(),
                    unroll: None,
                    body: tile,
                });
                out.push(KStmt::Block(block));
            }
        }
        if !s.combine.is_empty() {
            self.combine(s, out);
        }
    }

    /// The lanes' partial results combined in local memory (a tree with barriers).
    fn combine(&self, s: &Segment, out: &mut Vec<KStmt>) {
        let (t, rows) = (self.threads, self.rows);
        out.push(KStmt::Comment("innerThreads: combine the lanes' partial results in local memory (a tree with barriers; no lock-step assumption)".into()));
        for p in &s.combine {
            out.push(KStmt::Store {
                target: format!("{}[orcl_tid]", p.name).into(),
                value: format!("orcl_active ? {} : {}", p.var, p.identity).into(),
            });
        }
        out.push(KStmt::Barrier);
        let idle = if self.idle {
            format!(" && orcl_slot < {rows}")
        } else {
            String::new()
        };
        let step = KStmt::If {
            cond: format!("orcl_lane < orcl_w && orcl_lane + orcl_w < {t}{idle}").into(),
            then: s
                .combine
                .iter()
                .map(|p| KStmt::Store {
                    target: format!("{}[orcl_tid]", p.name).into(),
                    value: p.combine.clone().into(),
                })
                .collect(),
        };
        out.push(KStmt::Loop {
            init: format!("unsigned int orcl_w = {} / 2", self.pow2).into(),
            cond: "orcl_w > 0".into(),
            next: "orcl_w >>= 1".into(),
            unroll: None,
            body: barrier_after(vec![step]),
        });
    }
}
