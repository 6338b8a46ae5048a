//! Array reductions across the parallel loop (`KernelArg::atomic_sum`: atax's
//! `y[j] = y[j] + A[i][j]*tmp[i]` in the loop over `i`): every sum into such an array is written
//! as a call of `orcl_atomic_add_T(&y[j], term)`, whose definition [`super::write`] prints per
//! backend before the kernel: OpenCL 1.2 has no floating atomics, so a compare-and-swap loop on
//! the value's bit pattern (`atomic_cmpxchg` on `uint` for `float`, `atom_cmpxchg` of
//! `cl_khr_int64_base_atomics` on `ulong` for `double`); CUDA's `atomicAdd`. The order of the
//! additions into one element changes from run to run: the result is that of a reordered sum,
//! validated with the type's tolerance like a scalar reduction's.

use orcl_frontend::ir::c::{c_expr, StmtWriter};
use orcl_frontend::ir::{AssignOp, BinaryOp, Expr, ExprKind, Kernel, ScalarType, Stmt, StmtKind};

/// Name of the atomic-add helper of element type `ty`.
pub fn helper_name(ty: ScalarType) -> String {
    format!("orcl_atomic_add_{}", ty.c_name())
}

/// The element types of `k`'s atomically summed arrays, each once.
pub fn types(k: &Kernel) -> Vec<ScalarType> {
    let mut out: Vec<ScalarType> = k
        .args
        .iter()
        .filter(|a| a.atomic_sum)
        .map(|a| a.ty)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The OpenCL C definition of the atomic add of `ty` (see the module docs).
pub fn opencl_helper(ty: ScalarType) -> String {
    let name = helper_name(ty);
    let (t, bits, as_bits, as_val, cas) = match ty {
        ScalarType::Double => ("double", "ulong", "as_ulong", "as_double", "atom_cmpxchg"),
        ScalarType::Float => ("float", "uint", "as_uint", "as_float", "atomic_cmpxchg"),
        ScalarType::Long => {
            return format!(
                "void {name}(volatile __global long *orcl_p, const long orcl_v) {{ atom_add(orcl_p, orcl_v); }}\n"
            )
        }
        ScalarType::Int => {
            return format!(
                "void {name}(volatile __global int *orcl_p, const int orcl_v) {{ atomic_add(orcl_p, orcl_v); }}\n"
            )
        }
    };
    format!(
        "void {name}(volatile __global {t} *orcl_p, const {t} orcl_v) {{
    /* compare-and-swap on the bit pattern until no other work-item changed the element between */
    volatile __global {bits} *orcl_q = (volatile __global {bits} *)orcl_p;
    {bits} orcl_old = *orcl_q, orcl_seen;
    while ((orcl_seen = {cas}(orcl_q, orcl_old, {as_bits}({as_val}(orcl_old) + orcl_v))) != orcl_old)
        orcl_old = orcl_seen;
}}
"
    )
}

/// The CUDA definition of the atomic add of `ty` (`atomicAdd`; `double` needs sm_60 or later).
pub fn cuda_helper(ty: ScalarType) -> String {
    let name = helper_name(ty);
    match ty {
        ScalarType::Long => format!(
            "__device__ inline void {name}(long *orcl_p, const long orcl_v) {{ atomicAdd((unsigned long long *)orcl_p, (unsigned long long)orcl_v); }}\n"
        ),
        t => format!(
            "__device__ inline void {name}({0} *orcl_p, const {0} orcl_v) {{ atomicAdd(orcl_p, orcl_v); }}\n",
            t.c_name()
        ),
    }
}

/// The array and the added term (negated for `-=`) when `s` sums into an element of one of
/// `arrays`.
fn sum_into<'s>(
    s: &'s Stmt,
    arrays: &[(&str, ScalarType)],
) -> Option<(&'s Expr, ScalarType, bool, &'s Expr)> {
    let StmtKind::Assign { target, op, value } = &s.kind else {
        return None;
    };
    let ExprKind::Index { array, .. } = &target.kind else {
        return None;
    };
    let ty = arrays.iter().find(|(a, _)| a == array)?.1;
    let (_, term) = orcl_frontend::ir::accumulation(&|e| e.same_as(target), *op, value)?;
    let negate = *op == AssignOp::Sub
        || (*op == AssignOp::Set
            && matches!(&value.kind, ExprKind::Binary(BinaryOp::Sub, a, _) if a.same_as(target)));
    Some((target, ty, negate, term))
}

/// Whether `s` (or a statement inside it) sums into one of `arrays`.
fn has_sum(s: &Stmt, arrays: &[(&str, ScalarType)]) -> bool {
    if sum_into(s, arrays).is_some() {
        return true;
    }
    match &s.kind {
        StmtKind::If { then, other, .. } => {
            then.iter().any(|x| has_sum(x, arrays))
                || other.iter().flatten().any(|x| has_sum(x, arrays))
        }
        StmtKind::For(l) => l.body.iter().any(|x| has_sum(x, arrays)),
        StmtKind::Block(b) => b.iter().any(|x| has_sum(x, arrays)),
        _ => false,
    }
}

/// Write `stmts` as `w` does, every sum into one of `k`'s atomically summed arrays as an
/// atomic add.
pub fn write_stmts(w: &mut StmtWriter, k: &Kernel, stmts: &[Stmt]) {
    let arrays: Vec<(&str, ScalarType)> = k
        .args
        .iter()
        .filter(|a| a.atomic_sum)
        .map(|a| (a.name.as_str(), a.ty))
        .collect();
    write(w, &arrays, stmts);
}

fn line(w: &mut StmtWriter, text: &str) {
    for _ in 0..w.indent {
        w.out.push_str("    ");
    }
    w.out.push_str(text);
    w.out.push('\n');
}

fn block(w: &mut StmtWriter, arrays: &[(&str, ScalarType)], stmts: &[Stmt]) {
    w.indent += 1;
    write(w, arrays, stmts);
    w.indent -= 1;
}

fn write(w: &mut StmtWriter, arrays: &[(&str, ScalarType)], stmts: &[Stmt]) {
    for s in stmts {
        if !has_sum(s, arrays) {
            w.write_stmt(s);
            continue;
        }
        if let Some((target, ty, negate, term)) = sum_into(s, arrays) {
            let t = c_expr(term, w.subst);
            let t = if negate { format!("-({t})") } else { t };
            let text = format!("{}(&{}, {t});", helper_name(ty), c_expr(target, w.subst));
            line(w, &text);
            continue;
        }
        match &s.kind {
            StmtKind::If { cond, then, other } => {
                line(w, &format!("if ({}) {{", c_expr(cond, w.subst)));
                block(w, arrays, then);
                if let Some(o) = other {
                    line(w, "} else {");
                    block(w, arrays, o);
                }
                line(w, "}");
            }
            StmtKind::For(l) => {
                if let Some(u) = w.unroll.filter(|_| !l.has_inner_loops()) {
                    line(w, &format!("#pragma unroll {u}"));
                }
                let step = if l.step == 1 {
                    format!("{}++", l.var)
                } else {
                    format!("{} += {}", l.var, l.step)
                };
                let head = format!(
                    "for (int {v} = {}; {v} {} {}; {step}) {{",
                    c_expr(&l.lower, w.subst),
                    if l.inclusive { "<=" } else { "<" },
                    c_expr(&l.upper, w.subst),
                    v = l.var
                );
                line(w, &head);
                block(w, arrays, &l.body);
                line(w, "}");
            }
            StmtKind::Block(b) => {
                line(w, "{");
                block(w, arrays, b);
                line(w, "}");
            }
            _ => w.write_stmt(s),
        }
    }
}
