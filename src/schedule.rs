//! Schedules as data: one configuration's `tile` / `regTile` / `cacheBlocks` / `unrollInner` /
//! `sizeHint` turned, once, into a [`Schedule`] (which nest loop maps to which NDRange
//! dimension, work-group and per-work-item extents, which arrays are staged in local memory with
//! which tile and padding). Validity is decided here: [`check`] gives located errors for what no
//! value can fix, [`for_config`] the reason a configuration's values cannot work (pruned by
//! `tune` as a device-limit outcome, never built). Models: Halide's `Func::gpu_tile` and TVM's
//! `split`/`bind` schedule primitives (Ragan-Kelley et al., PLDI 2013; Chen et al., OSDI 2018).

use crate::analysis::{accesses, classify, perfect_nest, LoopKind};
use crate::diag::{Diagnostic, Span};
use crate::ir::{Expr, Kernel, ScalarType};

/// The loop-nest transformation arguments of one configuration (both transforms take them).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NestArgs {
    /// `tile=[('i',TI),('j',TJ)]`: iterations per work-group along each named loop, with the
    /// span of the loop's name.
    pub tile: Vec<(String, u64, Span)>,
    /// `regTile=[('i',RI),('j',RJ)]`: iterations per work-item along each named loop.
    pub reg_tile: Vec<(String, u64, Span)>,
    /// `cacheBlocks`: stage the read-only arrays whose references are affine in the tiled loops.
    pub cache_blocks: bool,
    /// `unrollInner`: `#pragma unroll` factor of the loops inside the body (1 = none).
    pub unroll: u32,
    /// `sizeHint` (OpenCL) / `launchBounds` (CUDA): declare the work-group extents.
    pub size_hint: bool,
}

/// One NDRange dimension of a schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dim {
    /// Nest depth of the loop (0 = the parallel loop) and its index variable.
    pub depth: usize,
    pub var: String,
    /// Iterations per work-group (the tile extent), per work-item (the register tile), and
    /// work-items per work-group (`per_group / per_item`).
    pub per_group: u64,
    pub per_item: u64,
    pub items: u64,
}

/// An array staged in local (shared) memory: one tile per work-group, loaded cooperatively.
#[derive(Debug, Clone, PartialEq)]
pub struct Staged {
    pub array: String,
    pub ty: ScalarType,
    /// For each array dimension (outermost first): the index into `Schedule::dims` of its loop.
    pub dims: Vec<usize>,
    /// Smallest index offset of the references along each array dimension (`-1` for `A[i-1][j]`).
    pub lo: Vec<i64>,
    /// Tile extent along each array dimension: the work-group's iterations plus the halo.
    pub extent: Vec<u64>,
    /// Elements added to each tile row against local-memory bank conflicts (a transpose reads its
    /// tile along columns).
    pub pad: u64,
    /// One reference to the array and its offsets: the global address of tile elements.
    pub reference: Expr,
    pub offsets: Vec<i64>,
    /// The offsets of every reference (for the halo's load guard).
    pub all_offsets: Vec<Vec<i64>>,
}

impl Staged {
    /// Elements of the padded tile.
    pub fn elems(&self) -> u64 {
        let mut n = 1;
        for (k, e) in self.extent.iter().enumerate() {
            n *= if k + 1 == self.extent.len() {
                e + self.pad
            } else {
                *e
            };
        }
        n
    }
}

/// The schedule of one configuration of a loop nest (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    /// NDRange dimensions, dimension 0 (the fastest-varying work-item index) first.
    pub dims: Vec<Dim>,
    pub staged: Vec<Staged>,
    pub unroll: u32,
    pub size_hint: bool,
}

impl Schedule {
    /// Work-items per work-group.
    pub fn local_size(&self) -> u64 {
        self.dims.iter().map(|d| d.items).product()
    }
    /// Bytes of local memory of the staged tiles.
    pub fn local_mem_bytes(&self) -> u64 {
        self.staged
            .iter()
            .map(|s| s.elems() * s.ty.size_bytes() as u64)
            .sum()
    }
    /// The launch geometry.
    pub fn grid(&self) -> crate::codegen::Grid {
        crate::codegen::Grid {
            loops: self.dims.iter().map(|d| d.depth).collect(),
            per_group: self.dims.iter().map(|d| d.per_group).collect(),
            local: self.dims.iter().map(|d| d.items).collect(),
        }
    }
}

/// Check what no value of the tile sizes can fix: the named loops exist in the perfect nest, are
/// parallel, unit-step, with loop-invariant bounds, and form its outermost loops; at most 3; no
/// scalar reduction of the whole loop; `regTile` names tiled loops only.
///
/// Errors: located at the loop's name in the argument (or at the loop).
pub fn check(k: &Kernel, a: &NestArgs) -> Result<(), Diagnostic> {
    let nest = perfect_nest(k);
    let kinds = classify(k, &nest);
    let trips = crate::analysis::nest_trips(k).len();
    let names: Vec<&str> = nest.loops.iter().map(|l| l.var.as_str()).collect();
    if a.tile.len() > 3 {
        return Err(Diagnostic::new(
            a.tile[3].2,
            "`tile` maps at most 3 loops (an NDRange has 3 dimensions)",
        ));
    }
    for (n, (name, _, span)) in a.tile.iter().enumerate() {
        let Some(d) = names.iter().position(|x| x == name) else {
            return Err(Diagnostic::new(
                *span,
                format!("`tile` names loop `{name}`, which is not a loop of the perfect nest"),
            )
            .with_help(format!(
                "the perfectly nested loops are {}",
                names.join(", ")
            )));
        };
        if a.tile[..n].iter().any(|(x, _, _)| x == name) {
            return Err(Diagnostic::new(
                *span,
                format!("`tile` names loop `{name}` twice"),
            ));
        }
        if kinds[d] != LoopKind::Parallel {
            return Err(Diagnostic::new(
                *span,
                format!(
                    "loop `{name}` is not parallel ({:?}): its iterations cannot map onto an NDRange dimension",
                    kinds[d]
                ),
            ));
        }
        if nest.loops[d].step != 1 || d >= trips {
            return Err(Diagnostic::new(
                *span,
                format!("loop `{name}` must have step 1 and bounds that do not depend on an enclosing loop to be tiled"),
            ));
        }
    }
    if let Some(r) = k.reductions().next() {
        return Err(Diagnostic::new(
            a.tile.first().map(|t| t.2).unwrap_or(k.parallel.span),
            format!(
                "`tile` does not map loops that reduce into `{}` yet",
                r.name
            ),
        ));
    }
    let mut depths: Vec<usize> = a
        .tile
        .iter()
        .map(|(n, _, _)| names.iter().position(|x| x == n).expect("checked"))
        .collect();
    depths.sort();
    if depths.iter().enumerate().any(|(k, d)| k != *d) {
        return Err(Diagnostic::new(
            a.tile[0].2,
            format!(
                "`tile` must name the outermost loops of the nest ({})",
                names[..a.tile.len()].join(", ")
            ),
        ));
    }
    for (name, _, span) in &a.reg_tile {
        if !a.tile.iter().any(|(t, _, _)| t == name) {
            return Err(Diagnostic::new(
                *span,
                format!("`regTile` names loop `{name}`, which `tile` does not name"),
            ));
        }
    }
    Ok(())
}

/// The schedule of one configuration (`a` already passed [`check`]).
///
/// Errors: why the values cannot work (a register tile that does not divide its tile, ...), as
/// one line; `tune` records it as a device-limit outcome without building.
pub fn for_config(k: &Kernel, a: &NestArgs) -> Result<Schedule, String> {
    let nest = perfect_nest(k);
    let names: Vec<&str> = nest.loops.iter().map(|l| l.var.as_str()).collect();
    let mut dims: Vec<Dim> = Vec::new();
    for (name, tile, _) in &a.tile {
        let depth = names.iter().position(|x| x == name).expect("checked");
        let reg = a
            .reg_tile
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|r| r.1)
            .unwrap_or(1);
        if reg == 0 || tile % reg != 0 {
            return Err(format!(
                "regTile {reg} along `{name}` does not divide its tile {tile}"
            ));
        }
        dims.push(Dim {
            depth,
            var: name.clone(),
            per_group: *tile,
            per_item: reg,
            items: tile / reg,
        });
    }
    let acc = accesses(k, nest.body, &names);
    // NDRange dimension 0 (consecutive work-items) goes to the loop along which the first
    // written array is contiguous, so that its stores coalesce; otherwise the innermost.
    let fast = acc
        .iter()
        .find(|x| x.write)
        .and_then(|w| w.dims.as_ref()?.last()?.unit().map(|(v, _)| v.to_string()))
        .and_then(|v| dims.iter().position(|d| d.var == v))
        .unwrap_or_else(|| (0..dims.len()).max_by_key(|&x| dims[x].depth).unwrap_or(0));
    if !dims.is_empty() {
        let d = dims.remove(fast);
        dims.insert(0, d);
        let rest: Vec<Dim> = {
            let mut r = dims.split_off(1);
            r.sort_by_key(|d| std::cmp::Reverse(d.depth));
            r
        };
        dims.extend(rest);
    }
    let mut staged = Vec::new();
    if a.cache_blocks {
        'arrays: for arg in k.args.iter().filter(|x| x.is_array && !x.written) {
            let mine: Vec<_> = acc.iter().filter(|x| x.array == arg.name).collect();
            if mine.is_empty() {
                continue;
            }
            let mut loops: Option<Vec<usize>> = None;
            let mut all_offsets = Vec::new();
            for x in &mine {
                let Some(ds) = &x.dims else { continue 'arrays };
                let mut l = Vec::new();
                let mut offs = Vec::new();
                for i in ds {
                    let Some((v, off)) = i.unit() else {
                        continue 'arrays;
                    };
                    let Some(p) = dims.iter().position(|d| d.var == v) else {
                        continue 'arrays;
                    };
                    l.push(p);
                    offs.push(off);
                }
                let mut sorted = l.clone();
                sorted.sort();
                sorted.dedup();
                if sorted.len() != l.len() || loops.as_ref().is_some_and(|x| *x != l) {
                    continue 'arrays;
                }
                loops = Some(l);
                all_offsets.push(offs);
            }
            let loops = loops.expect("non-empty");
            let n = loops.len();
            let lo: Vec<i64> = (0..n)
                .map(|d| all_offsets.iter().map(|o| o[d]).min().unwrap_or(0))
                .collect();
            let hi: Vec<i64> = (0..n)
                .map(|d| all_offsets.iter().map(|o| o[d]).max().unwrap_or(0))
                .collect();
            let extent: Vec<u64> = (0..n)
                .map(|d| dims[loops[d]].per_group + (hi[d] - lo[d]) as u64)
                .collect();
            // Consecutive work-items (dimension 0) walk the tile's last dimension, or else
            // down a column: then pad each row by one element so they hit different banks.
            let pad = u64::from(loops.last() != Some(&0));
            staged.push(Staged {
                array: arg.name.clone(),
                ty: arg.ty,
                dims: loops,
                lo,
                extent,
                pad,
                reference: mine[0].expr.clone(),
                offsets: all_offsets[0].clone(),
                all_offsets,
            });
        }
    }
    let s = Schedule {
        dims,
        staged,
        unroll: a.unroll,
        size_hint: a.size_hint,
    };
    if s.local_size() == 0 {
        return Err("a tile of 0 work-items".into());
    }
    Ok(s)
}

/// The value of `tile=[('i',32),('j',8)]` / `regTile=...`: (loop name, extent ≥ 1) pairs, each
/// located at the argument's expression.
///
/// Errors: anything but a list of (string, positive integer) pairs, located.
pub fn loop_list(
    v: &crate::frontend::expr::Value,
    a: &crate::frontend::expr::KeywordArg,
) -> Result<Vec<(String, u64, Span)>, Diagnostic> {
    use crate::frontend::expr::Value;
    let bad = || {
        Diagnostic::new(
            a.expr.span,
            format!(
                "`{}` must be a list of (loop, size) pairs such as [('i',16),('j',16)], found {v}",
                a.name
            ),
        )
    };
    let Value::List(items) = v else {
        return Err(bad());
    };
    items
        .iter()
        .map(|it| match it {
            Value::List(p) => match &p[..] {
                [Value::Str(n), Value::Int(x)] if *x >= 1 => {
                    Ok((n.clone(), *x as u64, a.expr.span))
                }
                _ => Err(bad()),
            },
            _ => Err(bad()),
        })
        .collect()
}
