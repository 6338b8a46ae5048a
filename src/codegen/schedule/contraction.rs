//! The k-slab schedule of a contraction (a matrix product, see `analysis::Contraction`): which
//! references of the summand are staged, and whether the values fit (`vecWidth`, `vecLoad`,
//! `loadItems`, `warpTile`).

mod mma;

use super::{ContractionSchedule, Dim, Form, NestArgs, Operand, Schedule};
use crate::args::Tf32Convert;
use orcl_frontend::ir::{Kernel, ScalarType};

/// The schedule of a contraction over NDRange dimensions `dims` (its two parallel loops) with
/// k-slabs of `tk` reduction iterations: which references of the summand are staged, and whether
/// the values fit (`vecWidth` dividing each register tile, a local tile row a whole number of
/// vectors).
pub(super) fn schedule(
    k: &Kernel,
    a: &NestArgs,
    c: &orcl_frontend::analysis::Contraction,
    dims: Vec<Dim>,
    tk: u64,
) -> Result<Schedule, String> {
    if a.math_mode.tensor() {
        return mma::schedule(k, a, c, dims, tk);
    }
    let vars = [
        dims[0].var.as_str(),
        dims[1].var.as_str(),
        c.red.var.as_str(),
    ];
    if a.stages > 1 {
        return Err(format!(
            "stages={} (asynchronous copies) needs mathMode='tf32' (the tensor-core form)",
            a.stages
        ));
    }
    if a.frag_load > 1 {
        let v = match a.frag_load {
            crate::args::FRAG_LDMATRIX => "'ldmatrix'".to_string(),
            v => v.to_string(),
        };
        return Err(format!(
            "fragLoad={v} (fragment reads) needs mathMode='tf32' (the tensor-core form)"
        ));
    }
    if a.tf32_convert == Tf32Convert::Stage {
        return Err(
            "tf32Convert='stage' (TF32 rounding when staging) needs mathMode='tf32' (the tensor-core form)"
                .into(),
        );
    }
    if a.tf32_convert == Tf32Convert::Truncate {
        return Err(
            "tf32Convert='truncate' (TF32 by truncation) needs mathMode='tf32' (the tensor-core form)"
                .into(),
        );
    }
    if a.transpose_rows > 1 {
        return Err(format!(
            "transposeRows={} (blocks of a transposed operand's loads) needs mathMode='tf32' with mmaInstruction='wgmma'",
            a.transpose_rows
        ));
    }
    if a.index_bits == 32 {
        return Err(
            "indexBits=32 (int ids and offsets) needs mathMode='tf32', 'fp16' or 'bf16' (the tensor-core form)"
                .into(),
        );
    }
    if a.block_swizzle > 1 {
        return Err(format!(
            "blockSwizzle={} (work-group rasterization) needs mathMode='tf32', 'fp16' or 'bf16' (the tensor-core form)",
            a.block_swizzle
        ));
    }
    if a.frag_buffers > 1 {
        return Err(format!(
            "fragBuffers={} (double-buffered warp fragments) needs mathMode='fp16' or 'bf16' (the tensor-core form)",
            a.frag_buffers
        ));
    }
    let vec = vector_width(a, &dims)?;
    let mut operands = operands(k, a, c, &vars);
    let load_vec = u64::from(a.vec_load.max(1));
    check_vec_load(&operands, &dims, tk, load_vec, &c.red.var)?;
    assign_load_items(&mut operands, a, &dims, tk, load_vec)?;
    let warp = warp_layout(a, &dims)?;
    let s = Schedule {
        dims,
        staged: Vec::new(),
        unroll: a.unroll,
        size_hint: a.size_hint,
        form: Form::Contraction(ContractionSchedule {
            red_var: c.red.var.clone(),
            tk,
            vec,
            pad: a.pad_local,
            double_buffer: a.double_buffer
                && !operands.is_empty()
                && operands.iter().all(|o| o.staged),
            stages: 1,
            load_vec,
            warp,
            operands,
            mma: None,
        }),
    };
    if s.local_size() == 0 {
        return Err("a tile of 0 work-items".into());
    }
    Ok(s)
}

/// A contraction's `vecWidth`: at most 4, dividing each register tile, a local tile row (with
/// `padLocal`) a whole number of vectors.
fn vector_width(a: &NestArgs, dims: &[Dim]) -> Result<u64, String> {
    let vec = u64::from(a.vec_width.max(1));
    if vec > 4 {
        return Err(format!(
            "vecWidth {vec} > 4 (a contraction reads vectors of 2 or 4 from its local tiles)"
        ));
    }
    for d in dims {
        if d.per_item % vec != 0 {
            return Err(format!(
                "vecWidth {vec} does not divide regTile {} along `{}`",
                d.per_item, d.var
            ));
        }
        if (d.per_group + a.pad_local) % vec != 0 {
            return Err(format!(
                "a local tile row of {} + padLocal {} elements is not a whole number of vectors of {vec}",
                d.per_group, a.pad_local
            ));
        }
    }
    Ok(vec)
}

/// The distinct array references of a contraction's summand, each with the NDRange dimension
/// it varies with (one loop index plus a constant per subscript dimension, the loops distinct,
/// one of them an NDRange dimension's), staged with `cacheBlocks`.
fn operands(
    k: &Kernel,
    a: &NestArgs,
    c: &orcl_frontend::analysis::Contraction,
    vars: &[&str; 3],
) -> Vec<Operand> {
    let mut operands: Vec<Operand> = Vec::new();
    let mut refs = Vec::new();
    c.term.visit(&mut |e| {
        if matches!(e.kind, orcl_frontend::ir::ExprKind::Index { .. }) {
            refs.push(e.clone());
        }
    });
    for e in refs {
        if operands.iter().any(|o| o.expr.same_as(&e)) {
            continue;
        }
        let orcl_frontend::ir::ExprKind::Index { array, indices } = &e.kind else {
            unreachable!("collected Index expressions only")
        };
        let ty = k
            .args
            .iter()
            .find(|x| &x.name == array)
            .map_or(ScalarType::Double, |x| x.ty);
        let idx = if indices.len() == 1 {
            orcl_frontend::analysis::delinearise(k, &indices[0], vars)
        } else {
            None
        };
        // Each subscript dimension one loop index plus a constant, the loops distinct, and one
        // of them an NDRange dimension's (the other the reduction loop's, or none).
        let units: Option<Vec<&str>> = idx
            .as_ref()
            .and_then(|d| d.iter().map(|i| i.unit().map(|u| u.0)).collect());
        let dim = units.as_ref().and_then(|u| {
            let mut seen = u.clone();
            seen.sort();
            seen.dedup();
            if seen.len() != u.len() {
                return None;
            }
            let on: Vec<usize> = (0..2).filter(|&d| u.contains(&vars[d])).collect();
            match on[..] {
                [d] => Some(d),
                _ => None,
            }
        });
        let red_fast = units.as_ref().is_some_and(|u| u.last() == Some(&vars[2]));
        operands.push(Operand {
            expr: e.clone(),
            ty,
            dim,
            staged: a.cache_blocks && dim.is_some(),
            red_fast,
            load_items: None,
            k_inner_pad: None,
            swizzle: super::Swizzle::None,
        });
    }
    operands
}

/// `vecLoad` on a contraction's staged operands: at most 16 bytes, dividing each one's
/// contiguous extent (the k-slab of `red_var` or the tile).
fn check_vec_load(
    operands: &[Operand],
    dims: &[Dim],
    tk: u64,
    load_vec: u64,
    red_var: &str,
) -> Result<(), String> {
    if load_vec > 1 {
        for o in operands.iter().filter(|o| o.staged) {
            let bytes = load_vec * o.ty.size_bytes() as u64;
            if bytes > 16 {
                return Err(format!(
                    "vecLoad {load_vec} of {} is {bytes} bytes (a vector load reads at most 16)",
                    o.ty.c_name()
                ));
            }
            let d = o.dim.expect("staged operands have a dimension");
            let (extent, what) = if o.red_fast {
                (tk, format!("the k-slab of `{red_var}`"))
            } else {
                (
                    dims[d].per_group,
                    format!("the tile along `{}`", dims[d].var),
                )
            };
            if extent % load_vec != 0 {
                return Err(format!(
                    "vecLoad {load_vec} does not divide {what} ({extent}), the contiguous dimension of a staged operand"
                ));
            }
        }
    }
    Ok(())
}

/// `loadItems` of the staged operands: dividing a slab row's vectors (or elements) and the
/// work-group; the whole row side by side is the linearised slab (`None`).
fn assign_load_items(
    operands: &mut [Operand],
    a: &NestArgs,
    dims: &[Dim],
    tk: u64,
    load_vec: u64,
) -> Result<(), String> {
    let nt: u64 = dims.iter().map(|d| d.items).product();
    for o in operands.iter_mut().filter(|o| o.staged) {
        let d = o.dim.expect("staged operands have a dimension");
        let Some(&(_, items, _)) = a.load_items.iter().find(|l| l.0 == dims[d].var) else {
            continue;
        };
        let extent = if o.red_fast { tk } else { dims[d].per_group };
        let groups = extent / load_vec;
        if groups % items != 0 {
            return Err(format!(
                "loadItems {items} along `{}` does not divide the {groups} {} of a slab row",
                dims[d].var,
                if load_vec > 1 { "vectors" } else { "elements" }
            ));
        }
        if nt % items != 0 {
            return Err(format!(
                "loadItems {items} along `{}` does not divide the work-group's {nt} work-items",
                dims[d].var
            ));
        }
        // The whole row side by side is the linearised slab: the same kernel.
        o.load_items = (items != groups).then_some(items);
    }
    Ok(())
}

/// `warpTile`: (work-items along dimension 1, along dimension 0) of each block of consecutive
/// work-items, each dividing the work-items along its dimension; `None`: the hardware layout.
fn warp_layout(a: &NestArgs, dims: &[Dim]) -> Result<Option<(u64, u64)>, String> {
    let warp_of = |d: usize| {
        a.warp_tile
            .iter()
            .find(|w| w.0 == dims[d].var)
            .map_or(1, |w| w.1)
    };
    let (wi, wj) = (warp_of(1), warp_of(0));
    for (d, w) in [(0, wj), (1, wi)] {
        if dims[d].items % w != 0 {
            return Err(format!(
                "warpTile {w} along `{}` does not divide the work-group's {} work-items along it",
                dims[d].var, dims[d].items
            ));
        }
    }
    // A block as wide as the work-group, or of one work-item, is the hardware layout.
    Ok((wj != dims[0].items && wi * wj > 1).then_some((wi, wj)))
}
