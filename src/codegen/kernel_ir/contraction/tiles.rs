//! The local tiles of a contraction's staged operands: static `__local`/`__shared__` arrays, or
//! in CUDA past 48 KiB views of the dynamic shared memory.

use crate::kernel_ir::KStmt;
use crate::schedule::{ContractionSchedule, Schedule};

/// The local tiles of the staged operands (two per operand with `doubleBuffer`), aligned for
/// vector reads.
///
/// Past [`crate::schedule::STATIC_LOCAL_LIMIT`] bytes in all, the tiles are views of the dynamic
/// shared memory in CUDA (each at an offset rounded up to 16 bytes).
pub(super) fn local_tiles(s: &Schedule, c: &ContractionSchedule) -> Vec<KStmt> {
    let mut body = Vec::new();
    let dynamic = s.dynamic_local();
    // wgmma: the 128-byte swizzle repeats every 1024 bytes of the shared window.
    let align = match c.mma.as_ref().is_some_and(|m| m.wgmma) {
        true => 1024,
        false => 16,
    };
    if dynamic {
        body.push(KStmt::DynamicShared { align });
    }
    let mut offset = 0;
    for (n, o) in c.operands.iter().enumerate().filter(|(_, o)| o.staged) {
        let d = o.dim.expect("staged operands have a dimension");
        let (rows, len) = o.tile_shape(c.tk, s.dims[d].per_group, c.pad);
        let dims = match c.buffers() {
            1 => vec![rows, len],
            b => vec![b, rows, len],
        };
        if dynamic {
            let bytes = dims.iter().product::<u64>() * o.ty.size_bytes() as u64;
            body.push(KStmt::SharedView {
                ty: o.ty,
                name: format!("orcl_tile{n}"),
                dims,
                offset,
                align,
            });
            offset += bytes.div_ceil(16) * 16;
            continue;
        }
        body.push(KStmt::LocalArray {
            ty: o.ty,
            name: format!("orcl_tile{n}"),
            dims,
            align: match c.vec.max(c.load_vec).max(c.mma.as_ref().map_or(1, |m| {
                if m.ldmatrix {
                    16 / o.ty.size_bytes() as u64
                } else {
                    m.frag
                }
            })) {
                1 => 0,
                v => v * o.ty.size_bytes() as u64,
            },
        });
    }
    body
}
