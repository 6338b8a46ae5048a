//! Kernel IR of a row reduction (a matrix-vector product, `schedule::RowReductionSchedule`):
//! NDRange dimension 1 holds the work-group's rows, dimension 0 the lanes of each row. Lane `l`
//! sums the reduction iterations `lower + l·step, lower + (l + lanes)·step, ...` privately
//! (consecutive lanes read consecutive elements of the row), the partial sums meet in a local
//! array `[rows][lanes]` and combine in a tree of log2(lanes) halving steps with barriers
//! (every work-item, in range or not, reaches each barrier), and lane 0 finishes the row as the
//! loop does: `y[i] = y[i] + sum` / `y[i] += sum`, or `T s = init + sum;` followed by the
//! statements after the loop (`y[i] = alpha*s + beta*y[i];`).

use super::{c_expr, KExpr, KStmt, KernelFn};
use crate::schedule::{RowReductionSchedule, Schedule};
use orcl_frontend::analysis::{ContractionForm, RowReduction};
use orcl_frontend::ir::c::StmtWriter;
use orcl_frontend::ir::{Expr, ExprKind, Kernel, ScalarType};

/// Name of the local array of partial sums.
const PARTIAL: &str = "orcl_part";

/// Lower a row reduction (see the module docs).
pub fn lower(k: &Kernel, s: &Schedule, rs: &RowReductionSchedule) -> KernelFn {
    let r = orcl_frontend::analysis::row_reduction(k).expect("scheduled as a row reduction");
    let rows = &k.parallel;
    let (lanes, ti) = (rs.lanes, s.dims[1].items);
    let ty = rs.ty.c_name();
    let ity = |v: &str| k.symbols.get(v).map(|s| s.ty).unwrap_or(ScalarType::Int);
    let none = |_: &Expr| None;
    let mut body = vec![
        KStmt::Let {
            ty: "long",
            name: "orcl_g1".into(),
            value: KExpr::GroupId(1),
        },
        KStmt::Let {
            ty: "long",
            name: "orcl_l0".into(),
            value: KExpr::LocalId(0),
        },
        KStmt::Let {
            ty: "long",
            name: "orcl_l1".into(),
            value: KExpr::LocalId(1),
        },
    ];
    if lanes > 1 {
        body.push(KStmt::LocalArray {
            ty: rs.ty,
            name: PARTIAL.into(),
            dims: vec![ti, lanes],
            align: 0,
        });
    }
    let row = match &rows.lower.kind {
        ExprKind::Int(0) => format!("orcl_g1 * {ti} + orcl_l1"),
        _ => format!(
            "(long)({}) + orcl_g1 * {ti} + orcl_l1",
            c_expr(&rows.lower, &none)
        ),
    };
    let ity_rows = ity(&rows.var).c_name();
    body.push(KStmt::Let {
        ty: ity_rows,
        name: rows.var.clone(),
        value: KExpr::Text(format!("({ity_rows})({row})")),
    });
    let in_range = format!(
        "{} {} {}",
        rows.var,
        if rows.inclusive { "<=" } else { "<" },
        c_expr(&rows.upper, &none)
    );
    body.push(KStmt::Lines(format!("{ty} orcl_acc = ({ty})0;")));
    // This lane's share of the reduction loop.
    let red = r.red;
    let rty = ity(&red.var).c_name();
    let lane_first = match red.step {
        1 => format!("({rty})orcl_l0"),
        step => format!("({rty})orcl_l0 * {step}"),
    };
    let start = match &red.lower.kind {
        ExprKind::Int(0) => lane_first,
        _ => format!("({}) + {lane_first}", c_expr(&red.lower, &none)),
    };
    let mut lane = String::new();
    if s.unroll > 1 {
        lane.push_str(&format!("#pragma unroll {}\n", s.unroll));
    }
    lane.push_str(&format!(
        "for ({rty} {v} = {start}; {v} {cmp} {upper}; {v} += {stride}) {{\n    orcl_acc += {term};\n}}",
        v = red.var,
        cmp = if red.inclusive { "<=" } else { "<" },
        upper = c_expr(&red.upper, &none),
        stride = lanes as i64 * red.step,
        term = c_expr(r.term, &none),
    ));
    body.push(KStmt::If {
        cond: in_range.clone().into(),
        then: vec![KStmt::Lines(lane)],
    });
    let sum = if lanes > 1 {
        let at = |l: &str| format!("{PARTIAL}[orcl_l1][{l}]");
        body.push(KStmt::Store {
            target: at("orcl_l0").into(),
            value: "orcl_acc".into(),
        });
        body.push(KStmt::Barrier);
        let mut half = lanes / 2;
        while half > 0 {
            body.push(KStmt::If {
                cond: format!("orcl_l0 < {half}").into(),
                then: vec![KStmt::Store {
                    target: at("orcl_l0").into(),
                    value: format!("{} + {}", at("orcl_l0"), at(&format!("orcl_l0 + {half}")))
                        .into(),
                }],
            });
            if half > 1 {
                body.push(KStmt::Barrier);
            }
            half /= 2;
        }
        at("0")
    } else {
        "orcl_acc".to_string()
    };
    body.push(KStmt::If {
        cond: format!("orcl_l0 == 0 && {in_range}").into(),
        then: vec![KStmt::Lines(finish(&r, &sum, ty))],
    });
    KernelFn {
        body,
        ..KernelFn::nest(k, s)
    }
}

/// Lane 0's statements that finish a row whose reduction loop summed to `sum` (C text).
fn finish(r: &RowReduction, sum: &str, ty: &str) -> String {
    let term = r.term;
    let subst = |e: &Expr| std::ptr::eq(e, term).then(|| format!("({sum})"));
    let mut w = StmtWriter {
        out: String::new(),
        indent: 0,
        unroll: None,
        subst: &subst,
    };
    match &r.form {
        // The accumulating statement with its term replaced by the row's sum.
        ContractionForm::Element { .. } => w.write_stmt(r.stmt),
        ContractionForm::Scalar {
            name, init, after, ..
        } => {
            w.out = format!(
                "{ty} {name} = ({}) + {sum};\n",
                c_expr(init, &|_: &Expr| None)
            );
            w.write_stmts(after);
        }
    }
    w.out
}
