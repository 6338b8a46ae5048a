//! The writer of [`KStmt::VecLoad`] (split from the kernel IR writer for size): one vector read of
//! `WIDTH` elements, its components stored one by one or as one local vector.

use super::{KStmt, VecDst};
use std::fmt::Write;

/// `s` (a [`KStmt::VecLoad`]) at indent `pad`, for OpenCL C (`opencl`) or CUDA C.
pub(super) fn write(out: &mut String, pad: &str, opencl: bool, s: &KStmt) {
    let KStmt::VecLoad {
        ty,
        width,
        src,
        global,
        dst,
    } = s
    else {
        return;
    };
    // Eight 16-bit elements (16 bytes) travel as a `uint4` in both backends (CUDA has no
    // `ushort8`): element e is half e % 2 (the low half first: little-endian, as every device
    // orcl targets) of word e / 2.
    let packed = *width == 8 && ty.size_bytes() == 2;
    let vty = match packed {
        true => "uint4".to_string(),
        false => format!("{}{width}", ty.c_name()),
    };
    let q = match (opencl, global) {
        (true, true) => "__global const ",
        (true, false) => "__local const ",
        (false, _) => "const ",
    };
    let _ = writeln!(out, "{pad}{{");
    let _ = writeln!(out, "{pad}    const {vty} orcl_v = *({q}{vty} *)&{src};");
    match dst {
        VecDst::Elements(lvalues) if packed => {
            let t = ty.c_name();
            for (e, l) in lvalues.iter().enumerate() {
                let f = ["x", "y", "z", "w"][e / 2];
                let shift = if e % 2 == 1 { " >> 16" } else { "" };
                let _ = writeln!(out, "{pad}    {l} = ({t})(orcl_v.{f}{shift});");
            }
        }
        VecDst::Elements(lvalues) => {
            for (l, f) in lvalues.iter().zip(["x", "y", "z", "w"]) {
                let _ = writeln!(out, "{pad}    {l} = orcl_v.{f};");
            }
        }
        VecDst::Local(first) => {
            let q = if opencl { "__local " } else { "" };
            let _ = writeln!(out, "{pad}    *({q}{vty} *)&{first} = orcl_v;");
        }
    }
    let _ = writeln!(out, "{pad}}}");
}
