//! Privatisation of arrays (PolyBench's doitgen: `sum[p]` written, then read, within each
//! iteration of the parallel loop `r`): an array every element of which that an iteration reads
//! was written earlier in the same iteration carries no value between iterations, so each
//! work-item gets its own copy (Padua & Wolfe, *Advanced compiler optimizations for
//! supercomputers*, CACM 1986, §"privatization"; the test here is the syntactic coverage of
//! reads by earlier unconditional writes, Tu & Padua, *Automatic array privatization*, LCPC 1993,
//! restricted to two cases):
//! - the write is in the same iteration of every loop around the read, with the same subscript
//!   (`sum[p] = 0.0;` then `sum[p] += ...` in an inner loop);
//! - the write is in an earlier loop with the same bounds as the read's loop, step 1, one write
//!   per iteration with the same subscript in that loop's variable (`for p: sum[p] = ...;` then
//!   `for p: A[r][q][p] = sum[p];`).
//!
//! The copy has a compile-time length: the largest extent of the array in `input_vars` over the
//! spec's input sizes (at most [`MAX_ELEMS`]); the tuned code checks at run time that every
//! subscript stays below it (the loops' bounds are the loop's scalars) and runs the original
//! loop otherwise.

use super::exact::{Names, Ref};
use super::show;
use crate::diag::Diagnostic;
use crate::ir::{Loop, PrivateArray, Symbol, SymbolKind};
use crate::spec::TuningSpec;
use std::collections::{BTreeMap, BTreeSet};

/// The largest private copy, in elements: private memory is registers, spilled to (slow)
/// per-work-item memory beyond them; a copy larger than this would be no gain.
pub const MAX_ELEMS: i64 = 1024;

/// Whether read `r` is covered by the earlier unconditional write `w` (see the module docs).
fn covered(n: &Names, w: &Ref, r: &Ref) -> bool {
    let prefix = |a: &[&Loop], b: &[&Loop]| {
        a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| std::ptr::eq(*x, *y))
    };
    if prefix(&w.loops, &r.loops) && w.indices[0].same_as(&r.indices[0]) {
        return true;
    }
    let Some((lw, outer)) = w.loops.split_last() else {
        return false;
    };
    let d = outer.len();
    if r.loops.len() <= d || !prefix(outer, &r.loops) {
        return false;
    }
    let lr = r.loops[d];
    let same_bounds = !std::ptr::eq(*lw, lr)
        && lw.step == 1
        && lw.lower.same_as(&lr.lower)
        && lw.upper.same_as(&lr.upper)
        && lw.inclusive == lr.inclusive;
    let renamed = |e, l: &Loop| {
        let mut a = n.aff(e)?;
        let c = a.coefs.remove(&format!("{}#1", l.var))?;
        a.coefs.insert("#x".into(), c);
        Some(a)
    };
    same_bounds && renamed(&w.indices[0], lw).is_some_and(|a| Some(a) == renamed(&r.indices[0], lr))
}

/// Whether `array` (rank 1) may be private to each iteration of the parallel loop: it is read,
/// and every read of it (`refs`: all references of the body, in order) is covered by an earlier
/// unconditional write. (An array that is only written is an output.)
pub(super) fn privatisable(symbols: &BTreeMap<String, Symbol>, array: &str, refs: &[Ref]) -> bool {
    if !matches!(
        symbols.get(array).map(|s| s.kind),
        Some(SymbolKind::Array { rank: 1 })
    ) {
        return false;
    }
    let n = Names { symbols, copy: "1" };
    let mine: Vec<&Ref> = refs.iter().filter(|r| r.array == array).collect();
    // An array the loop only writes is its output, never a temporary.
    mine.iter().any(|r| !r.write)
        && mine.iter().enumerate().all(|(k, r)| {
            r.write
                || mine[..k]
                    .iter()
                    .any(|w| w.write && !w.guarded && covered(&n, w, r))
        })
}

/// The run-time conditions under which every subscript of `array` stays in `[0, len)`: each
/// subscript is `v + c` of an enclosing loop `v` whose bounds read only the loop's scalars
/// (`(lower) + c >= 0`, `(upper) + c <= len`), or a constant in range; `None` otherwise.
fn guard(
    symbols: &BTreeMap<String, Symbol>,
    array: &str,
    refs: &[Ref],
    len: i64,
) -> Option<Vec<String>> {
    let n = Names { symbols, copy: "1" };
    let mut out: Vec<String> = Vec::new();
    for r in refs.iter().filter(|r| r.array == array) {
        let a = n.aff(&r.indices[0])?;
        let k = i64::try_from(a.konst).ok()?;
        let conds = match a.coefs.iter().collect::<Vec<_>>().as_slice() {
            [] => {
                if !(0..len).contains(&k) {
                    return None;
                }
                Vec::new()
            }
            [(v, 1)] => {
                let l = r.loops.iter().find(|l| **v == format!("{}#1", l.var))?;
                let fixed = |e| {
                    n.aff(e)
                        .is_some_and(|b| b.coefs.keys().all(|x| !x.contains('#')))
                };
                if !fixed(&l.lower) || !fixed(&l.upper) {
                    return None;
                }
                let end = if l.inclusive { k + 1 } else { k };
                let plus = |x: i64| match x {
                    0 => String::new(),
                    x if x < 0 => format!(" - {}", -x),
                    x => format!(" + {x}"),
                };
                let mut c = Vec::new();
                // A literal lower bound needs no run-time check.
                match &l.lower.kind {
                    crate::ir::ExprKind::Int(lo) if lo + k >= 0 => {}
                    crate::ir::ExprKind::Int(_) => return None,
                    _ => c.push(format!("({}){} >= 0", show(&l.lower), plus(k))),
                }
                c.push(format!("({}){} <= {len}", show(&l.upper), plus(end)));
                c
            }
            _ => return None,
        };
        for c in conds {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    Some(out)
}

/// The private copies of `names` (arrays [`privatisable`] accepted): length and run-time guard.
///
/// Errors (located at the first reference): no `input_vars` extent to size the copy, a copy
/// larger than [`MAX_ELEMS`] at an input size, subscripts whose range the tuned code cannot
/// check (not `v + c` of a loop with bounds in the loop's scalars).
pub(super) fn arrays(
    par: &Loop,
    symbols: &BTreeMap<String, Symbol>,
    names: &BTreeSet<String>,
    spec: &TuningSpec,
) -> Result<Vec<PrivateArray>, Diagnostic> {
    let refs = super::exact::refs(&par.body);
    let mut out = Vec::new();
    for name in names {
        let first = refs
            .iter()
            .find(|r| r.array == name)
            .map_or(par.span, |r| r.expr.span);
        let what = format!(
            "every iteration of the parallel loop writes the elements of `{name}` it reads before reading them, so each work-item needs its own copy of `{name}`"
        );
        let decl = spec
            .input_vars
            .iter()
            .find(|v| &v.name == name && v.dims.len() == 1)
            .ok_or_else(|| {
                Diagnostic::new(first, format!("{what}, but its length is unknown"))
                    .with_help(format!("declare `{name}` with its length in `input_vars` (`decl static double {name}[N] = 0;`)"))
            })?;
        let mut len = 0;
        for input in crate::space::input_combinations(spec)? {
            let env = spec.input_env(&input);
            let v = decl.dims[0].eval(&env)?.as_i64().unwrap_or(i64::MAX);
            if v > MAX_ELEMS {
                return Err(Diagnostic::new(
                    decl.dims[0].span,
                    format!("{what}, and at an input size it has {v} elements: orcl keeps a private copy to at most {MAX_ELEMS} elements per work-item (registers and private memory)"),
                )
                .with_help(format!("tune input sizes at which `{name}` has at most {MAX_ELEMS} elements, or give each iteration its own part of a larger array (`{name}[{}][...]`)", par.var)));
            }
            len = len.max(v);
        }
        let guard = guard(symbols, name, &refs, len).ok_or_else(|| {
            Diagnostic::new(first, format!("{what}, but orcl cannot check at run time that its subscripts stay below its length {len}"))
                .with_help("index the array with a loop variable plus a constant, in a loop whose bounds are the loop's scalars")
        })?;
        let ty = symbols
            .get(name)
            .map_or(crate::ir::ScalarType::Double, |s| s.ty);
        out.push(PrivateArray {
            name: name.clone(),
            ty,
            len: len as u64,
            guard,
            span: first,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// Lower `code` with `t` (length T) as the candidate private array.
    fn lower(code: &str) -> Result<crate::ir::Kernel, crate::diag::Diagnostic> {
        let text = format!(
            "void f(int m, int n, double *A, double *t, const double *x) {{\n    int i, j;\n    /*@ begin PerfTuning (\n def performance_params {{ param WI[] = [32]; }}\n def input_params {{ param M[] = [8]; param N[] = [6, 9]; }}\n def input_vars {{ decl int m = M; decl int n = N; decl static double A[M*N] = random; decl static double t[N] = 0; decl static double x[N] = random; }}\n ) @*/\n    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)\n {code}\n ) @*/\n {code}\n /*@ end @*/\n /*@ end @*/\n}}\n"
        );
        let regions = crate::region::parse(&text).expect("parses");
        crate::lower::lower(&regions[0].raw, &regions[0].spec, &text)
    }

    #[test]
    fn written_before_read_is_private() {
        for code in [
            "for (i = 0; i < m; i++) { for (j = 0; j < n; j++) t[j] = x[j] * i; for (j = 0; j < n; j++) A[i*n+j] = t[j]; }",
            "for (i = 0; i < m; i++) for (j = 0; j < n; j++) { t[j] = x[j]; t[j] += 1.0; A[i*n+j] = t[j]; }",
        ] {
            let k = lower(code).unwrap_or_else(|d| panic!("{code}: {}", d.message));
            let p = &k.private_arrays;
            assert_eq!(p.len(), 1, "{code}");
            assert_eq!((p[0].name.as_str(), p[0].len), ("t", 9), "{code}");
            assert_eq!(p[0].guard, vec!["(n) <= 9".to_string()], "{code}");
            assert!(k.args.iter().all(|a| a.name != "t"), "{code}");
        }
    }

    /// Read before written, written under a condition, written over other bounds: not private
    /// (and then a race).
    #[test]
    fn uncovered_reads_are_not_private() {
        for code in [
            "for (i = 0; i < m; i++) for (j = 0; j < n; j++) { A[i*n+j] = t[j]; t[j] = x[j]; }",
            "for (i = 0; i < m; i++) { for (j = 0; j < n; j++) if (x[j] > 0.0) t[j] = x[j]; for (j = 0; j < n; j++) A[i*n+j] = t[j]; }",
            "for (i = 0; i < m; i++) { for (j = 1; j < n; j++) t[j] = x[j]; for (j = 0; j < n; j++) A[i*n+j] = t[j]; }",
        ] {
            assert!(lower(code).is_err(), "{code}");
        }
    }
}
