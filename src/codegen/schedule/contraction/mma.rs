//! The tensor-core form of a contraction (`mathMode='tf32'`, see [`crate::schedule::MmaTiles`]):
//! warp tiles of `mma.sync.aligned.m16n8k8` over k-major staged slabs of both operands. Every
//! reason a configuration cannot take this form is decided here, once, as a one-line reason
//! (`tune` records it as a device-limit outcome, never built).

use super::{assign_load_items, check_vec_load, operands};
use crate::args::{MathMode, Tf32Convert};
use crate::schedule::{
    ContractionSchedule, Dim, Form, MmaTiles, NestArgs, Schedule, Swizzle, WARP,
};
use orcl_frontend::analysis::{Contraction, ContractionForm};
use orcl_frontend::ir::{BinaryOp, Expr, ExprKind, Kernel, ScalarType};

/// An operand read: `A[..]`, or a 16-bit one widened (`orcl_h2f(A[..])`, see the frontend's
/// `lower::half`), either under a `(float)` cast.
fn read(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Index { .. } => true,
        ExprKind::Cast(ScalarType::Float, x) => read(x),
        ExprKind::Call(f, a) if f.starts_with("orcl_") && a.len() == 1 => {
            matches!(a[0].kind, ExprKind::Index { .. })
        }
        _ => false,
    }
}

/// Padding of a k-contiguous operand's local tile rows (floats) with `fragLoad=1`.
const K_INNER_PAD: u64 = 4;

/// The same for 16-bit operands (elements): a lane (g, q) reads the 32-bit word of k = 2q, 2q + 1
/// of row g, word bank S·g + q with S = (TK + 8) / 2 ≡ 4 (mod 8) for TK a multiple of 16: 32
/// distinct banks; rows stay 16-byte aligned.
const K_INNER_PAD_16: u64 = 8;

/// The local-tile layout of a staged operand with `fragLoad` `frag` (V), k-slab `tk` and tile
/// extent `p`: (`k_inner_pad`, swizzle). Bank arithmetic (32 banks of 4 bytes; a 64-bit read is
/// served per half-warp, a 128-bit read per quarter-warp): lane (g, q) reads row g of a
/// k-contiguous tile at k = V·q, so
/// - V = 1: rows padded by 4 floats: bank (TK + 4)·g + q, 32 distinct;
/// - V = 2: row stride S ≡ 8 (mod 16) (pad 0 or 8): 2·q + S·g, 16 lanes on 32 distinct banks;
/// - V = 4: S ≡ 16 (mod 32) (TK ≡ 16: pad 0), else (TK ≡ 0 mod 32) no pad and 16-byte chunks
///   XOR-ed with 4·(row % 2) (k XOR 16·(row % 2), [`Swizzle::KInner`]): rows 2j and 2j + 1 of a quarter-warp take
///   disjoint halves of the banks.
///
/// A k-major tile `[kk][t]` is read at rows V·q + j, column g (+ 8·block): for V > 1, columns
/// XOR-ed with 8·((kk / V) % 4) ([`Swizzle::KMajor`]) spread the four q over the banks (tile
/// extent a multiple of 32; `padLocal` 0 or 8 keeps it conflict-free); V = 1 keeps `padLocal`
/// (8: bank 8·q + g).
fn layout(red_fast: bool, frag: u64, tk: u64, p: u64) -> (Option<u64>, Swizzle) {
    match (red_fast, frag) {
        (true, 1) => (Some(K_INNER_PAD), Swizzle::None),
        (true, 2) => (Some(if tk % 16 == 8 { 0 } else { 8 }), Swizzle::None),
        (true, _) if tk % 32 == 16 => (Some(0), Swizzle::None),
        (true, _) => (Some(0), Swizzle::KInner),
        (false, 1) => (None, Swizzle::None),
        (false, v) if p % 32 == 0 => (None, Swizzle::KMajor { v }),
        (false, _) => (None, Swizzle::None),
    }
}

/// The tensor-core schedule of contraction `c` over NDRange dimensions `dims` (dimension 0 the
/// columns, N; dimension 1 the rows, M) with k-slabs of `tk`.
///
/// Errors (one line each): a summand that is not the product of a float operand varying with
/// each dimension, a float accumulator missing, a k-slab not a multiple of 8, a warp tile not a
/// multiple of 16 × 8 or not dividing the tile, `vecLoad`/`loadItems` that do not fit.
pub(super) fn schedule(
    k: &Kernel,
    a: &NestArgs,
    c: &Contraction<'_>,
    mut dims: Vec<Dim>,
    tk: u64,
) -> Result<Schedule, String> {
    let vars = [
        dims[0].var.as_str(),
        dims[1].var.as_str(),
        c.red.var.as_str(),
    ];
    // Both operands are staged: the fragments are read from the local tiles.
    let forced = NestArgs {
        cache_blocks: true,
        ..a.clone()
    };
    let mut ops = operands(k, &forced, c, &vars);
    let input = match a.math_mode {
        MathMode::Fp16 => ScalarType::Half,
        MathMode::Bf16 => ScalarType::BFloat16,
        _ => ScalarType::Float,
    };
    let (ia, ib, scale) = roles(k, c, &ops, a.math_mode, input)?;
    let (mode, shape) = (a.math_mode.name(), if input.is_16bit() { 16 } else { 8 });
    if tk % shape != 0 {
        return Err(format!(
            "mathMode='{mode}' needs a k-slab that is a multiple of {shape} (mma.sync m16n8k{shape}), found {tk} along `{}`",
            c.red.var
        ));
    }
    check_16bit(a, input, tk, mode)?;
    if a.index_bits == 32 {
        check_index32(k, &vars)?;
    }
    let frag_buffers = u64::from(a.frag_buffers.max(1));
    if frag_buffers > 1 && !(input.is_16bit() && a.frag_load == crate::args::FRAG_LDMATRIX) {
        return Err(format!(
            "fragBuffers={frag_buffers} double-buffers the ldmatrix fragments of mathMode='fp16'/'bf16': it needs one of those with fragLoad='ldmatrix' (found mathMode='{mode}')"
        ));
    }
    let ldmatrix = a.frag_load == crate::args::FRAG_LDMATRIX;
    let frag = if ldmatrix {
        1
    } else {
        u64::from(a.frag_load.max(1))
    };
    if frag == 4 && tk % 16 != 0 {
        return Err(format!(
            "fragLoad=4 reads the fragments of two mma k-steps at once: it needs a k-slab that is a multiple of 16, found {tk} along `{}`",
            c.red.var
        ));
    }
    tile_layouts(&mut ops, &dims, a.wgmma, input, frag, tk);
    if ldmatrix && input.is_16bit() {
        check_ldmatrix_rows(&ops, &dims, tk, a.pad_local)?;
    }
    let (wm, wn, warps_m, warps_n) = match a.wgmma {
        true => wgmma_tiles(a, &dims)?,
        false => warp_tiles(a, &dims)?,
    };
    dims[0].items = WARP * warps_n;
    dims[1].items = warps_m;
    for d in dims.iter_mut() {
        d.per_item = 1;
    }
    check_staging(a)?;
    let load_vec = u64::from(a.vec_load.max(1));
    check_vec_load(&ops, &dims, tk, load_vec, &c.red.var)?;
    assign_load_items(&mut ops, a, &dims, tk, load_vec)?;
    let transpose_rows = transpose_rows(a, &mut ops, &dims, tk, load_vec)?;
    Ok(Schedule {
        dims,
        staged: Vec::new(),
        unroll: a.unroll,
        size_hint: a.size_hint,
        form: Form::Contraction(ContractionSchedule {
            red_var: c.red.var.clone(),
            tk,
            vec: 1,
            pad: a.pad_local,
            double_buffer: a.double_buffer,
            stages: u64::from(a.stages.max(1)),
            load_vec,
            warp: None,
            operands: ops,
            mma: Some(MmaTiles {
                wm,
                wn,
                warps_m,
                warps_n,
                a: ia,
                b: ib,
                wrong_fragments: false,
                frag,
                convert: a.tf32_convert,
                ldmatrix,
                frag_buffers,
                input,
                swizzle: u64::from(a.block_swizzle.max(1)),
                async_ca: a.async_ca,
                index32: a.index_bits == 32,
                prefetch_result: u64::from(a.prefetch_result),
                wgmma: a.wgmma,
                transpose_rows,
                scale,
            }),
        }),
    })
}

/// Each staged operand's local-tile layout ([`layout`]; rows of 16-bit k-contiguous tiles padded
/// by [`K_INNER_PAD_16`]). `wgmma`: 16-bit operands keep their layout (K- or MN-major); TF32 ones
/// are all K-major, an operand contiguous along its tile transposed on its way into the tile.
fn tile_layouts(
    ops: &mut [crate::schedule::Operand],
    dims: &[Dim],
    wgmma: bool,
    input: ScalarType,
    frag: u64,
    tk: u64,
) {
    for o in ops.iter_mut() {
        let d = o.dim.map_or(0, |d| dims[d].per_group);
        (o.k_inner_pad, o.swizzle) = layout(o.red_fast, frag, tk, d);
        if input.is_16bit() && o.red_fast {
            o.k_inner_pad = Some(K_INNER_PAD_16);
        }
        if wgmma {
            let k_major = o.red_fast || !input.is_16bit();
            (o.swizzle, o.k_inner_pad) = (Swizzle::Gmma { tk }, k_major.then_some(0));
        }
    }
}

/// What `mmaInstruction='wgmma'` cannot take (one line each): a k-slab other than one 128-byte
/// swizzled row (64 16-bit or 32 TF32 elements), fewer than 3 stages (one slab in the tensor
/// cores, one landing, one being filled: [`crate::kernel_ir`]'s wgmma main loop waits on the
/// previous slab's wgmma before refilling its buffer), `vecLoad` other than one 16-byte chunk (8
/// or 4 elements: whole swizzle chunks), `tf32Convert='stage'` (the tiles arrive by `cp.async`
/// and the tensor cores read them as they lie: TF32 truncation, validated at its own tolerance),
/// and the knobs of `mma.sync`'s fragment reads or of padded tiles.
fn check_wgmma(a: &NestArgs, input: ScalarType, tk: u64, mode: &str) -> Result<(), String> {
    let size = input.size_bytes() as u64;
    let (row, chunk) = (128 / size, 16 / size);
    if tk != row {
        return Err(format!("mmaInstruction='wgmma' with mathMode='{mode}' reads 128-byte swizzled rows of {row} elements: it needs a k-slab of {row}, found {tk}"));
    }
    if a.stages < 3 {
        return Err(format!("mmaInstruction='wgmma' keeps one slab in the tensor cores while the next ones land: it needs stages >= 3, found stages={}", a.stages.max(1)));
    }
    if u64::from(a.vec_load) != chunk {
        return Err(format!("mmaInstruction='wgmma' copies whole 16-byte chunks of the swizzled tiles: with mathMode='{mode}' it needs vecLoad={chunk}, found vecLoad={}", a.vec_load.max(1)));
    }
    if a.tf32_convert == Tf32Convert::Stage {
        return Err("tf32Convert='stage' rounds staged elements in place; with mmaInstruction='wgmma' the tensor cores read the cp.async tiles as they lie (TF32 truncation): leave tf32Convert at 'fragment'".into());
    }
    if a.frag_load > 1 || a.frag_buffers > 1 {
        return Err("fragLoad and fragBuffers choose how mma.sync reads its fragments; wgmma reads its operands from shared memory itself: leave them at 1".into());
    }
    if a.pad_local != 0 {
        return Err(format!("mmaInstruction='wgmma' reads unpadded 128-byte rows (swizzled, not padded): it needs padLocal=0, found {}", a.pad_local));
    }
    Ok(())
}

/// The tiles of `mmaInstruction='wgmma'`: (`wm` = 16, `wn`, warps along dimension 1, warpgroups
/// along dimension 0; see [`MmaTiles::wgmma`]) from `warpTile=[(i, 64), (j, WN)]` (default the
/// whole tile). Errors: a warpgroup tile other than 64 rows, WN not a multiple of 64 up to 256
/// (B's 64-column swizzle blocks; wgmma's N is at most 256), tiles they do not divide, more than
/// 8 warpgroups (1024 work-items).
fn wgmma_tiles(a: &NestArgs, dims: &[Dim]) -> Result<(u64, u64, u64, u64), String> {
    let warp_of = |d: usize| {
        a.warp_tile
            .iter()
            .find(|w| w.0 == dims[d].var)
            .map_or(dims[d].per_group, |w| w.1)
    };
    let (wm, wn) = (warp_of(1), warp_of(0));
    if wm != 64 || wn % 64 != 0 || wn > 256 {
        return Err(format!(
            "mmaInstruction='wgmma' computes 64 x N per warpgroup (N a multiple of 64 up to 256): warpTile {wm} x {wn} (along `{}` x `{}`) is not one",
            dims[1].var, dims[0].var
        ));
    }
    for (d, w) in [(1, wm), (0, wn)] {
        if dims[d].per_group % w != 0 {
            return Err(format!(
                "warpTile {w} along `{}` does not divide its tile {}",
                dims[d].var, dims[d].per_group
            ));
        }
    }
    let (groups_m, groups_n) = (dims[1].per_group / 64, dims[0].per_group / wn);
    if groups_m * groups_n > 8 {
        return Err(format!(
            "{} warpgroups per work-group ({groups_m} x {groups_n}) exceed the 1024 work-items of any device",
            groups_m * groups_n
        ));
    }
    Ok((16, wn, 4 * groups_m, groups_n))
}

/// `transposeRows` R ([`MmaTiles::transpose_rows`]). R > 1 needs TF32 `wgmma` with an operand
/// transposed into its K-major tile (contiguous along its tile) whose blocks fit ([`misfit`]);
/// that operand's `loadItems` is then dropped (the blocks place its work-items). Not given: the
/// largest of 4 and 2 that fits, else 1 (H100, NN 4096³: 2 and 4 beat 1 on 7 of the 8 tiles ×
/// stages of space `wtt`, the best by 21%; docs/GEMM.md, "Register transpose").
fn transpose_rows(
    a: &NestArgs,
    ops: &mut [crate::schedule::Operand],
    dims: &[Dim],
    tk: u64,
    load_vec: u64,
) -> Result<u64, String> {
    let nt: u64 = dims.iter().map(|d| d.items).product();
    let transposed =
        |o: &&mut crate::schedule::Operand| o.staged && o.k_inner_pad.is_some() && !o.red_fast;
    let mut targets: Vec<_> = ops.iter_mut().filter(transposed).collect();
    let tensor = a.wgmma && a.math_mode == MathMode::Tf32 && !targets.is_empty();
    let misfit = |rows: u64| {
        targets.iter().find_map(|o| {
            let d = o.dim.expect("staged operands have a dimension");
            misfit(rows, tk, dims[d].per_group / load_vec, nt, &dims[d].var)
        })
    };
    let rows = match u64::from(a.transpose_rows) {
        0 if tensor => [4, 2].into_iter().find(|&r| misfit(r).is_none()).unwrap_or(1),
        0 | 1 => 1,
        r if !tensor => return Err(format!("transposeRows={r} blocks the loads of an operand transposed into its tile by mmaInstruction='wgmma' with mathMode='tf32' (B of NN/TN, A of TN/TT): this configuration has none")),
        r => match misfit(r) {
            Some(why) => return Err(why),
            None => r,
        },
    };
    if rows > 1 {
        targets.iter_mut().for_each(|o| o.load_items = None);
    }
    Ok(rows)
}

/// Why blocks of `rows` k-rows do not fit a transposed slab of `tk` k-rows × `cols` `vecLoad`
/// groups along `var` over `nt` work-items (`None`: they fit): the groups must be a multiple of
/// `nt` × `rows` (whole blocks per work-item), `cols` of 4 and `tk` / `rows` of 8 (the units of
/// `kernel_ir`'s `block_position`, which keep a quarter- or half-warp's chunk stores on distinct
/// banks).
fn misfit(rows: u64, tk: u64, cols: u64, nt: u64, var: &str) -> Option<String> {
    let fits = (tk * cols) % (nt * rows) == 0 && cols % 4 == 0 && (tk / rows) % 8 == 0;
    (!fits).then(|| format!("transposeRows={rows}: the slab of {tk} x {cols} vecLoad groups along `{var}` does not split into blocks of {rows} k-rows for each of the {nt} work-items (with groups per row a multiple of 4 and k-rows a multiple of 8 blocks)"))
}

/// `stages` and `doubleBuffer` are not both given, and `prefetchResult` comes with stages.
fn check_staging(a: &NestArgs) -> Result<(), String> {
    if a.stages > 1 && a.double_buffer {
        return Err(format!(
            "stages={} and doubleBuffer are two ways of staging the next k-slab: give one",
            a.stages
        ));
    }
    if a.prefetch_result > 0 && a.stages < 2 {
        return Err(format!(
            "prefetchResult={} prefetches the result's lines during the multistage main loop: it needs stages > 1, found stages={}",
            a.prefetch_result,
            a.stages.max(1)
        ));
    }
    Ok(())
}

/// `indexBits=32`: the nest's loop variables (`vars`) must be `int` (then every id, tile offset and
/// slab counter of the kernel lies within their range plus one tile).
fn check_index32(k: &Kernel, vars: &[&str]) -> Result<(), String> {
    for v in vars {
        if let Some(sym) = k.symbols.get(*v).filter(|s| s.ty != ScalarType::Int) {
            return Err(format!(
                "indexBits=32 computes the kernel's ids and offsets in int: it needs int loop variables, and `{v}` is {}",
                sym.ty.user_name()
            ));
        }
    }
    Ok(())
}

/// `ldmatrix` reads 16-byte rows: with 16-bit operands every local tile row (k-contiguous: TK + 8
/// elements; k-major: the tile extent + `padLocal`) must be a multiple of 8 elements.
fn check_ldmatrix_rows(
    ops: &[crate::schedule::Operand],
    dims: &[Dim],
    tk: u64,
    pad: u64,
) -> Result<(), String> {
    for o in ops.iter().filter(|o| o.staged) {
        let d = o.dim.map_or(0, |d| dims[d].per_group);
        let (_, len) = o.tile_shape(tk, d, pad);
        if len % 8 != 0 {
            return Err(format!(
                "fragLoad='ldmatrix' reads 16-byte rows: the local tile of `{}` has rows of {len} 16-bit elements (tile {d} + padLocal {pad}), not a multiple of 8",
                orcl_frontend::ir::c::c_expr(&o.expr, &|_| None)
            ));
        }
    }
    Ok(())
}

/// The warp tile (WarpShape `wm` × `wn`, from `warpTile`, default the whole tile) and the warps
/// per work-group along dimensions 1 and 0. Errors: a warp tile not a multiple of the 16 × 8
/// mma tile or not dividing its tile, more than 32 warps.
fn warp_tiles(a: &NestArgs, dims: &[Dim]) -> Result<(u64, u64, u64, u64), String> {
    let warp_of = |d: usize| {
        a.warp_tile
            .iter()
            .find(|w| w.0 == dims[d].var)
            .map_or(dims[d].per_group, |w| w.1)
    };
    let (wm, wn) = (warp_of(1), warp_of(0));
    if wm % 16 != 0 || wn % 8 != 0 {
        return Err(format!(
            "warpTile {wm} x {wn} (along `{}` x `{}`) is not a multiple of the 16 x 8 mma.sync tile",
            dims[1].var, dims[0].var
        ));
    }
    for (d, w) in [(1, wm), (0, wn)] {
        if dims[d].per_group % w != 0 {
            return Err(format!(
                "warpTile {w} along `{}` does not divide its tile {}",
                dims[d].var, dims[d].per_group
            ));
        }
    }
    let (warps_m, warps_n) = (dims[1].per_group / wm, dims[0].per_group / wn);
    if warps_m * warps_n > 32 {
        return Err(format!(
            "{} warps per work-group ({warps_m} x {warps_n}) exceed the 1024 work-items of any device",
            warps_m * warps_n
        ));
    }
    Ok((wm, wn, warps_m, warps_n))
}

/// What the 16-bit forms (`mode` 'fp16' or 'bf16') cannot take (and `mmaInstruction='wgmma'`,
/// [`check_wgmma`]): `fragLoad` 2 or 4 (TF32's vector
/// fragment reads; `'ldmatrix'` is taken), `stages` with single-element copies (`cp.async`
/// copies 4, 8 or 16 bytes).
fn check_16bit(a: &NestArgs, input: ScalarType, tk: u64, mode: &str) -> Result<(), String> {
    if a.wgmma {
        check_wgmma(a, input, tk, mode)?;
    }
    if !input.is_16bit() {
        return Ok(());
    }
    if a.tf32_convert != Tf32Convert::Fragment {
        let how = a.tf32_convert.name();
        return Err(format!("tf32Convert='{how}' applies to mathMode='tf32'; '{mode}' operands are widened exactly, with no rounding to convert"));
    }
    if a.frag_load > 1 && a.frag_load != crate::args::FRAG_LDMATRIX {
        return Err(format!("fragLoad={} applies to mathMode='tf32'; '{mode}' reads each 32-bit fragment register (two 16-bit values) once", a.frag_load));
    }
    if a.stages > 1 && a.vec_load < 2 {
        return Err(format!("stages={} with mathMode='{mode}' needs vecLoad 2, 4 or 8 (cp.async copies 4, 8 or 16 bytes, not one 2-byte element)", a.stages));
    }
    Ok(())
}

/// The factors of a summand's product tree (`alpha * A[..] * B[..]` → alpha, A[..], B[..]);
/// a summand that is no product is its own single factor.
fn factors(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Binary(BinaryOp::Mul, x, y) => {
            let mut out = factors(x);
            out.extend(factors(y));
            out
        }
        _ => vec![e],
    }
}

/// The scale of a summand `A[..] * B[..]` possibly times factors that read no array and do not
/// vary with the reduction loop `red` (`alpha * A[i][k] * B[k][j]`): those factors (empty for
/// `A * B`), or `None` when the summand has another shape.
fn summand_scale(term: &Expr, red: &str) -> Option<Vec<Expr>> {
    let (reads, rest): (Vec<&Expr>, Vec<&Expr>) = factors(term).into_iter().partition(|f| read(f));
    let invariant = |f: &&Expr| !f.reads_array() && !f.mentions(red);
    (reads.len() == 2 && rest.iter().all(invariant)).then(|| rest.into_iter().cloned().collect())
}

/// The operands' roles: (index of A, varying with dimension 1; index of B, with dimension 0;
/// the summand's loop-invariant factors, [`MmaTiles::scale`]).
///
/// Errors: a summand other than `A[..] * B[..]` (times loop-invariant scalars) of two float
/// operands staged along different dimensions (an operand read in place), or an accumulator
/// that is not `float`.
fn roles(
    k: &Kernel,
    c: &Contraction<'_>,
    ops: &[crate::schedule::Operand],
    mode: MathMode,
    input: ScalarType,
) -> Result<(usize, usize, Vec<Expr>), String> {
    let scale = summand_scale(c.term, &c.red.var);
    let find = |d: usize| ops.iter().position(|o| o.dim == Some(d));
    let (Some(ia), Some(ib), Some(scale), 2) = (find(1), find(0), scale, ops.len()) else {
        return Err(
            "a tensor-core mathMode needs a summand A[..]*B[..] (times scalars that do not vary with the reduction loop) of two arrays, one varying with each tiled loop and the reduction loop"
                .into(),
        );
    };
    if ops.iter().any(|o| o.ty != input) {
        return Err(format!(
            "mathMode='{}' needs {} operands (found {})",
            mode.name(),
            input.user_name(),
            ops.iter()
                .map(|o| o.ty.user_name())
                .collect::<Vec<_>>()
                .join(" and ")
        ));
    }
    let acc = match &c.form {
        ContractionForm::Scalar { ty, .. } => *ty,
        ContractionForm::Element { target } => match &target.kind {
            ExprKind::Index { array, .. } => k
                .args
                .iter()
                .find(|x| &x.name == array)
                .map_or(ScalarType::Double, |x| x.ty),
            _ => ScalarType::Double,
        },
    };
    if acc != ScalarType::Float {
        return Err(format!(
            "mathMode='{}' accumulates in float (mma.sync's FP32 accumulators), the loop sums into a {}",
            mode.name(),
            acc.c_name()
        ));
    }
    Ok((ia, ib, scale))
}
