//! The tensor-core form's results: the accumulators' initial values, the value the loop's sum
//! has for the result statements (a scaled summand's factors applied, [`crate::schedule::MmaTiles::scale`]) and
//! the L2 prefetch of what those statements read (`prefetchResult`).

use crate::kernel_ir::contraction::Cx;
use crate::kernel_ir::KStmt;
use orcl_frontend::analysis::{Contraction, ContractionForm};
use orcl_frontend::ir::c::c_expr;

impl Cx<'_> {
    /// `prefetchResult` R > 0 ([`crate::schedule::MmaTiles::prefetch_result`]): in slab `orcl_kpre` (R - 1 slabs
    /// before the last, or the first), `prefetch.global.L2` of each global element the result
    /// statements read, for the accumulators in range whose lane holds column 0 (mod 128 bytes
    /// of the array's elements) of the warp tile: one prefetch per 128-byte line of a row-major
    /// result whose rows are 128-byte aligned (PTX ISA, "prefetch, prefetchu"; CUTLASS's
    /// epilogues read C through the same L2). A hint only: the results do not depend on it, and
    /// where `ORCL_MMA_SYNC` is 0 nothing is emitted. Empty where R = 0 or nothing is read.
    pub(super) fn prefetch_result(&self, con: &Contraction<'_>) -> Vec<KStmt> {
        let m = self.mma();
        if m.prefetch_result == 0 {
            return Vec::new();
        }
        let reads: Vec<&orcl_frontend::ir::Expr> = match &con.form {
            ContractionForm::Scalar { after, .. } => {
                orcl_frontend::analysis::accesses(self.k, after, &[])
                    .into_iter()
                    .filter(|a| !a.write)
                    .map(|a| a.expr)
                    .collect()
            }
            ContractionForm::Element { target } => vec![target],
        };
        let mut lines: Vec<(String, u64)> = Vec::new();
        for e in reads {
            let orcl_frontend::ir::ExprKind::Index { array, .. } = &e.kind else {
                continue;
            };
            let Some(arg) = self.k.args.iter().find(|a| &a.name == array && a.is_array) else {
                continue;
            };
            let text = c_expr(e, &|_| None);
            let per_line = (128 / arg.ty.size_bytes().max(1) as u64 / 8).clamp(1, m.wn / 8);
            if !lines.iter().any(|(t, _)| *t == text) {
                lines.push((text, per_line));
            }
        }
        if lines.is_empty() {
            return Vec::new();
        }
        let mut body = self.mma_output_vars();
        for (text, per_line) in lines {
            body.push(KStmt::If {
                cond: format!(
                    "orcl_tig == 0 && orcl_q % 2 == 0 && orcl_ni % {per_line} == 0 && {}",
                    self.mma_in_range()
                )
                .into(),
                then: vec![KStmt::Mma {
                    hardware: vec![KStmt::Lines(format!(
                        "asm volatile(\"prefetch.global.L2 [%0];\" :: \"l\"((size_t)&{text}));"
                    ))],
                    emulated: Vec::new(),
                }],
            });
        }
        vec![KStmt::If {
            cond: "orcl_k0 == orcl_kpre".into(),
            then: vec![self.each_accumulator(body)],
        }]
    }
}

/// The accumulators `orcl_acc[wm/16][wn/8][4]`, initialised (a scalar form's initial value
/// inside the iteration space, else 0).
pub(super) fn accumulators(cx: &Cx<'_>, con: &Contraction<'_>) -> Vec<KStmt> {
    let m = cx.mma();
    let init = match &con.form {
        ContractionForm::Scalar { .. } if !m.scale.is_empty() => "0.0f".into(),
        ContractionForm::Scalar { init, .. } => {
            format!(
                "({}) ? ({}) : 0.0f",
                cx.mma_in_range(),
                c_expr(init, &|_| None)
            )
        }
        ContractionForm::Element { .. } => "0.0f".into(),
    };
    let mut body = cx.mma_output_vars();
    body.push(KStmt::Store {
        target: "orcl_acc[orcl_mi][orcl_ni][orcl_q]".into(),
        value: init.into(),
    });
    vec![
        KStmt::PrivateArray {
            ty: orcl_frontend::ir::ScalarType::Float,
            name: "orcl_acc".into(),
            dims: vec![m.wm / 16, m.wn / 8, 4],
        },
        cx.each_accumulator(body),
    ]
}

/// The value the loop's sum has, for the result statements: the accumulator, or with a scaled
/// summand ([`crate::schedule::MmaTiles::scale`]) its factors times it, plus a scalar form's initial value (the
/// accumulators then start at 0).
pub(super) fn scaled_sum(cx: &Cx<'_>, con: &Contraction<'_>) -> String {
    const ACC: &str = "orcl_acc[orcl_mi][orcl_ni][orcl_q]";
    let scale = &cx.mma().scale;
    if scale.is_empty() {
        return ACC.into();
    }
    let factors: Vec<String> = scale
        .iter()
        .map(|f| format!("({})", c_expr(f, &|_| None)))
        .collect();
    let product = format!("{} * {ACC}", factors.join(" * "));
    match &con.form {
        ContractionForm::Scalar { init, .. } => {
            format!("({}) + {product}", c_expr(init, &|_| None))
        }
        ContractionForm::Element { .. } => product,
    }
}
