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
        // 16-bit arrays are only read (`lower::half` rejects writes): never atomically added.
        ScalarType::Half | ScalarType::BFloat16 => return String::new(),
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

#[cfg(test)]
mod tests {
    use crate::schedule::LinearSchedule;
    use crate::target::Backend;
    use orcl_frontend::ir::Kernel;

    /// atax's second nest: `y[j]` summed across the parallel loop `i`.
    fn atax() -> Kernel {
        let code = "for (i = 0; i < m; i++) { tmp[i] = 0.0; for (j = 0; j < n; j++) tmp[i] = tmp[i] + A[i][j] * x[j]; for (j = 0; j < n; j++) y[j] = y[j] + A[i][j] * tmp[i]; }";
        let text = format!(
            "void f(int m, int n, double A[m][n], double *x, double *y, double *tmp) {{\n    int i, j;\n    /*@ begin PerfTuning (\n def performance_params {{ param WI[] = [32]; }}\n def input_params {{ param M[] = [8]; param N[] = [8]; }}\n def input_vars {{ decl int m = M; decl int n = N; decl static double A[M][N] = random; decl static double x[N] = random; decl static double y[N] = 0; decl static double tmp[M] = 0; }}\n ) @*/\n    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)\n {code}\n ) @*/\n {code}\n /*@ end @*/\n /*@ end @*/\n}}\n"
        );
        let regions = orcl_frontend::parse(&text).expect("parses");
        orcl_frontend::lower::lower(&regions[0].raw, &regions[0].spec, &text).expect("lowers")
    }

    fn one_d(vec_width: u32, lanes: u64) -> LinearSchedule {
        LinearSchedule {
            groups: None,
            chunked: false,
            lanes,
            cache_blocks: true,
            vec_width,
            vec_hint: 0,
            passes: None,
            vector: None,
        }
    }

    /// The sum becomes a call of the type's helper, defined once per translation unit: a CAS loop
    /// on the bit pattern in OpenCL (64-bit atomics enabled), `atomicAdd` in CUDA.
    #[test]
    fn sums_into_shared_elements_are_atomic_adds() {
        let k = atax();
        for b in [Backend::OpenCl, Backend::Cuda] {
            let s = crate::schedule::linear(&k, one_d(1, 1), 32, 1, false, b).expect("schedules");
            let src = super::super::write(&super::super::linear::lower(&k, &s, None).kernel, b);
            assert!(
                src.contains("orcl_atomic_add_double(&y[j], A[i * n + j] * tmp[i]);")
                    && src.contains("tmp[i] = tmp[i] + A[i * n + j] * x[j];")
                    && src.contains(
                        "#ifndef ORCL_ATOMIC_ADD_DOUBLE\n#define ORCL_ATOMIC_ADD_DOUBLE\n"
                    ),
                "{src}"
            );
            if b == Backend::OpenCl {
                assert!(src.contains("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable") && src.contains("atom_cmpxchg(orcl_q, orcl_old, as_ulong(as_double(orcl_old) + orcl_v))"), "{src}");
            } else {
                assert!(src.contains("atomicAdd(orcl_p, orcl_v);"), "{src}");
            }
        }
    }

    /// vecWidth and innerThreads do not apply to such a loop.
    #[test]
    fn vectors_and_lanes_are_refused() {
        let k = atax();
        for (vw, lanes) in [(2, 1), (1, 4)] {
            let e = crate::schedule::linear(&k, one_d(vw, lanes), 32, 1, false, Backend::OpenCl)
                .expect_err("refused");
            assert!(
                e.message.contains("sum into shared elements of `y`"),
                "{}",
                e.message
            );
        }
    }
}
