//! Writes the tuned file (`_file.c`): each tuned region's loop replaced by a call to a generated
//! OpenCL host function (with the original loop kept as the fallback when OpenCL fails), a comment
//! block with the tuning results, and a run-time dispatch on the size variable.

use crate::prepare::Prepared;
use crate::tune::{InputResult, RegionResult};
use orcl_codegen::host::{function_name, params, render_host_function, HostVariant};
use orcl_codegen::Variant;
use orcl_frontend::diag::Span;
use orcl_frontend::expr::Value;
use orcl_frontend::inputs::c_literal;
use orcl_frontend::ir::ScalarType;
use orcl_frontend::macros::Source;
use std::collections::BTreeMap;

/// Replace whole-word identifiers of `text` found in `map`.
fn subst_identifiers(text: &str, map: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for ch in text.chars().chain(std::iter::once('\0')) {
        if ch.is_ascii_alphanumeric() || ch == '_' {
            word.push(ch);
            continue;
        }
        if !word.is_empty() {
            let starts_digit = word.starts_with(|c: char| c.is_ascii_digit());
            match map.get(&word) {
                Some(r) if !starts_digit => out.push_str(&paren(r)),
                _ => out.push_str(&word),
            }
            word.clear();
        }
        if ch != '\0' {
            out.push(ch);
        }
    }
    out
}

/// `e` in parentheses unless it is a single identifier or number.
fn paren(e: &str) -> String {
    if e.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    {
        e.to_string()
    } else {
        format!("({e})")
    }
}

fn plain(v: &Value) -> String {
    c_literal(v)
        .map(|s| s.trim_end_matches('L').to_string())
        .unwrap_or_else(|| v.to_string())
}

/// Input params and lets as C text of the host function's variables: a param becomes its bound
/// variable (`decl int n = N;`), or its value at `input`.
fn size_map(p: &Prepared, input: &BTreeMap<String, Value>) -> BTreeMap<String, String> {
    let mut map: BTreeMap<String, String> = p
        .region
        .spec
        .lets
        .iter()
        .map(|b| (b.name.clone(), plain(&b.value)))
        .collect();
    for (pname, val) in input {
        let bound = p
            .bindings
            .iter()
            .find(|(_, prm)| prm == pname)
            .map(|(var, _)| var.clone());
        map.insert(pname.clone(), bound.unwrap_or_else(|| plain(val)));
    }
    map
}

/// Element count of each array argument of the kernel as a C expression of the host function's
/// variables (input params replaced by their bound variables, or by their values), in `args` order.
/// A multi-dimensional array counts its rows (the first `input_vars` extent) times the row
/// lengths the kernel indexes with (`ir::KernelArg::extents`: scalars of the loop or extent
/// arguments, all parameters of the host function), so that the buffer holds what the kernel
/// addresses.
pub fn element_counts(p: &Prepared, input: &BTreeMap<String, Value>) -> Vec<Option<String>> {
    let map = size_map(p, input);
    p.kernel
        .args
        .iter()
        .map(|a| {
            a.is_array.then(|| match a.dims.as_slice() {
                [rows, ..] if !a.extents.is_empty() => format!(
                    "(long){}",
                    std::iter::once(paren(&subst_identifiers(rows, &map)))
                        .chain(
                            a.extents
                                .iter()
                                .map(|e| paren(&orcl_frontend::lower::show(e)))
                        )
                        .collect::<Vec<_>>()
                        .join(" * ")
                ),
                [one] => subst_identifiers(one, &map),
                // In `long`: the product of two `int` extents may not fit in an `int`.
                dims => format!(
                    "(long){}",
                    dims.iter()
                        .map(|d| paren(&subst_identifiers(d, &map)))
                        .collect::<Vec<_>>()
                        .join(" * ")
                ),
            })
        })
        .collect()
}

/// What the tuned loop's place passes for host-function parameter `name`: a reduction scalar by
/// address; a multi-dimensional array as its first element (`&A[0][0]`: the flat row-major
/// storage); an extent argument as the C declaration's extent (or, without a C declaration, the
/// `input_vars` extent over the size variables at `input`); anything else as itself.
fn call_arg(p: &Prepared, name: &str, input: Option<&BTreeMap<String, Value>>) -> String {
    let Some(a) = p.kernel.args.iter().find(|a| a.name == name) else {
        return name.to_string();
    };
    if a.reduction.is_some() {
        return format!("&{name}");
    }
    let rank = p.kernel.rank(name);
    if a.is_array && rank > 1 {
        return format!("&{name}{}", "[0]".repeat(rank));
    }
    if let Some(ext) = &a.extent {
        let text = match &ext.c_text {
            Some(t) => t.clone(),
            None => {
                let map = input.map(|i| size_map(p, i)).unwrap_or_default();
                p.kernel
                    .args
                    .iter()
                    .find(|x| x.name == ext.array)
                    .and_then(|x| x.dims.get(ext.dim))
                    .map(|t| subst_identifiers(t, &map))
                    .unwrap_or_else(|| "0".into())
            }
        };
        return format!("(long){}", paren(&text));
    }
    name.to_string()
}

/// The tuned file's text: `src`'s text as written, with the tuned regions replaced (spans of the
/// expanded text mapped back, so the file keeps its macros; the fallback loop is the one written).
/// `db_path` is named in the comment blocks.
pub fn rewrite(src: &Source, path: &str, db_path: &str, results: &[RegionResult]) -> String {
    // The backend every region was tuned for (`orcl tune --backend`): OpenCL `_file.c` or CUDA
    // `_file.cu`.
    let cuda = results
        .iter()
        .flat_map(|r| &r.inputs)
        .find_map(|i| i.best.as_ref())
        .is_some_and(|(_, v)| v.backend == orcl_codegen::Backend::Cuda);
    let api = if cuda { "CUDA" } else { "OpenCL" };
    // (position, remove-until, replacement), applied back to front.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut inserts: BTreeMap<usize, String> = BTreeMap::new();
    for r in results {
        region_edits(r, src, path, db_path, api, &mut edits, &mut inserts);
    }
    for (at, s) in inserts {
        edits.push((at, at, s));
    }
    let mut edits: Vec<(usize, usize, String)> = edits
        .into_iter()
        .map(|(start, end, rep)| {
            let o = src.to_original(Span::new(start, end));
            if start == end {
                (o.start, o.start, rep)
            } else {
                (o.start, o.end, rep)
            }
        })
        .collect();
    edits.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut out = src.original.clone();
    for (start, end, rep) in edits {
        out.replace_range(start..end, &rep);
    }
    if cuda {
        return format!(
            "/* Tuned by orcl {} from {path}: the tuned regions call CUDA (compile with nvcc). */\n#include <cuda_runtime.h>\n#include <math.h>\n#include <stddef.h>\n#include <stdlib.h>\n{out}",
            env!("CARGO_PKG_VERSION")
        );
    }
    format!(
        "/* Tuned by orcl {} from {path}: the tuned regions call OpenCL (link with -lOpenCL). */\n#define CL_TARGET_OPENCL_VERSION 120\n#define CL_USE_DEPRECATED_OPENCL_1_2_APIS\n#include <CL/cl.h>\n#include <math.h>\n#include <stddef.h>\n#include <stdlib.h>\n{out}",
        env!("CARGO_PKG_VERSION")
    )
}

/// One region's edits: the results comment in place of the `begin PerfTuning` annotation, the
/// preamble made valid C, and (when some input size has a correct variant) the host function
/// inserted before the enclosing function and the loop replaced by its call; otherwise only the
/// annotations are removed.
fn region_edits(
    r: &RegionResult,
    src: &Source,
    path: &str,
    db_path: &str,
    api: &str,
    edits: &mut Vec<(usize, usize, String)>,
    inserts: &mut BTreeMap<usize, String>,
) {
    let text = src.text.as_str();
    let p = &r.prepared;
    let raw = &p.region.raw;
    let mut block = results_comment(r, api, db_path);
    let (arrays, array_reads) = input_array_decls(p, text);
    block.push_str(&arrays);
    edits.push((raw.begin_span.start, raw.begin_span.end, block));
    preamble_edits(p, text, &array_reads, edits, inserts);
    edits.push((raw.end_span.start, raw.end_span.end, String::new()));
    let tuned = dispatched_inputs(r);
    if tuned.is_empty() {
        edits.push((
            raw.loop_ann.begin_span.start,
            raw.loop_ann.begin_span.end,
            String::new(),
        ));
        edits.push((
            raw.loop_ann.end_span.start,
            raw.loop_ann.end_span.end,
            String::new(),
        ));
        return;
    }
    let host = host_code(p, text, path, &dispatch_variants(p, &tuned));
    let guards = constant_guards(src, p);
    let at = raw
        .function
        .as_ref()
        .map(|f| f.span.start)
        .unwrap_or(raw.span.start);
    inserts
        .entry(at)
        .or_default()
        .push_str(&format!("{guards}{}\n", host.text));
    let fallback_input = tuned.last().map(|i| &i.input);
    let call = call_site(p, src, api, &host, fallback_input);
    edits.push((raw.loop_ann.span.start, raw.loop_ann.span.end, call));
}

/// Macros of the Loop code that expanded to constants are baked into the kernel: the tuned file
/// stops at compile time (`#error`) if it is compiled with other values (`-DNX=...`).
fn constant_guards(src: &Source, p: &Prepared) -> String {
    let code = p.region.raw.loop_ann.code_span;
    src.constants_in(code)
        .iter()
        .map(|(name, value)| {
            format!(
                "#if ({name}) != ({value})\n#error \"orcl: region {} was tuned with {name} = {value}; tune it again with -D {name}=VALUE for another value\"\n#endif\n",
                p.region.index
            )
        })
        .collect()
}

/// The comment block that replaces `begin PerfTuning`: each input size's winner (or that the
/// original loop is kept), where the results are.
fn results_comment(r: &RegionResult, api: &str, db_path: &str) -> String {
    let mut block = format!(
        "/* orcl {}: tuned with {api}, results in {db_path}\n",
        env!("CARGO_PKG_VERSION")
    );
    for i in &r.inputs {
        let sizes: Vec<String> = i.input.iter().map(|(k, v)| format!("{k}={v}")).collect();
        match &i.best {
            Some((b, _)) => {
                let e = &i.evaluations[*b];
                let median = i
                    .winner_ms
                    .or_else(|| e.outcome.median_ms())
                    .unwrap_or(f64::NAN);
                let how = if i.winner_ms.is_some() {
                    "re-measured median"
                } else {
                    "median"
                };
                block.push_str(&format!(
                    " *   {}: best {} — {how} {median:.4} ms on {} ({}), experiment {}\n",
                    sizes.join(" "),
                    e.config.display(),
                    i.device.name,
                    i.device.platform,
                    i.experiment_id
                ));
            }
            None => block.push_str(&format!(
                " *   {}: no correct variant; the original loop is kept, experiment {}\n",
                sizes.join(" "),
                i.experiment_id
            )),
        }
    }
    block.push_str(" */");
    block.replace("*/\n", "* /\n")
}

/// The input sizes with a correct variant in dispatch order: sorted by the bound size variables
/// so that `var <= value` tests dispatch in order; without bound variables only the largest.
fn dispatched_inputs(r: &RegionResult) -> Vec<&InputResult> {
    let p = &r.prepared;
    let mut tuned: Vec<&InputResult> = r.inputs.iter().filter(|i| i.best.is_some()).collect();
    tuned.sort_by(|a, b| {
        let key = |i: &InputResult| {
            p.bindings
                .iter()
                .map(|(_, prm)| i.input.get(prm).and_then(|v| v.as_f64()).unwrap_or(0.0))
                .collect::<Vec<f64>>()
        };
        key(a)
            .partial_cmp(&key(b))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    if p.bindings.is_empty() && tuned.len() > 1 {
        tuned = vec![tuned[tuned.len() - 1]];
    }
    tuned
}

/// The winners of `tuned` (in dispatch order) as host variants: each but the last guarded by
/// `var <= value` over the bound size variables.
fn dispatch_variants(p: &Prepared, tuned: &[&InputResult]) -> Vec<HostVariant> {
    let n = tuned.len();
    tuned
        .iter()
        .enumerate()
        .map(|(k, i)| {
            let (b, v) = i.best.as_ref().expect("filtered");
            let condition = (k + 1 < n).then(|| {
                p.bindings
                    .iter()
                    .filter_map(|(var, prm)| {
                        i.input
                            .get(prm)
                            .map(|val| format!("{var} <= {}", plain(val)))
                    })
                    .collect::<Vec<_>>()
                    .join(" && ")
            });
            host_variant(
                p,
                &i.input,
                v.clone(),
                i.evaluations[*b].config.display(),
                condition.filter(|c| !c.is_empty()),
            )
        })
        .collect()
}

/// One variant of a host function: `variant` (configuration `config`) for input size `input`,
/// taken when `condition` holds (`None`: the last, unconditional one).
pub fn host_variant(
    p: &Prepared,
    input: &BTreeMap<String, Value>,
    variant: Variant,
    config: String,
    condition: Option<String>,
) -> HostVariant {
    HostVariant {
        variant,
        label: input
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" "),
        config,
        condition,
        elems: element_counts(p, input),
    }
}

/// A region's host function, as the tuned file holds it and `orcl emit` prints it.
pub struct HostCode {
    /// The function's name (`orcl_<function>_<region>`).
    pub name: String,
    /// Its parameters, (C type, name): the kernel's arguments, then the bound size variables.
    pub params: Vec<(String, String)>,
    /// The function's C text.
    pub text: String,
}

/// The host function of region `p` of the file `path` (text `text`) over `variants`: the one
/// host-code path of the tuned file and of `orcl emit`. The bound size variables become
/// parameters of their declared type (`input_vars`, else the C declaration; `int` when neither
/// names one).
pub fn host_code(p: &Prepared, text: &str, path: &str, variants: &[HostVariant]) -> HostCode {
    let raw = &p.region.raw;
    let fname = raw
        .function
        .as_ref()
        .map(|f| f.name.clone())
        .unwrap_or_else(|| "file".into());
    let name = function_name(&fname, p.region.index);
    let (line, _) = orcl_frontend::diag::line_col(text, raw.span.start);
    let extra: Vec<(String, &'static str)> = p
        .bindings
        .iter()
        .map(|(var, _)| {
            let ty = p
                .region
                .spec
                .input_vars
                .iter()
                .find(|v| &v.name == var)
                .and_then(|v| ScalarType::from_c(&v.ty))
                .or_else(|| raw.decls.get(var).and_then(|d| ScalarType::from_c(&d.ty)))
                .unwrap_or(ScalarType::Int);
            (var.clone(), ty.c_name())
        })
        .collect();
    let params = params(&p.kernel, &extra);
    let text = render_host_function(&name, &fname, path, line, &p.kernel, variants, &params);
    HostCode { name, params, text }
}

/// What replaces the tuned loop: the host function's call, with the original loop as the
/// fallback when it fails, then the statements after the loop.
fn call_site(
    p: &Prepared,
    src: &Source,
    api: &str,
    host: &HostCode,
    fallback_input: Option<&BTreeMap<String, Value>>,
) -> String {
    let call_args: Vec<String> = host
        .params
        .iter()
        .map(|(_, n)| call_arg(p, n, fallback_input))
        .collect();
    // The loop as written (macros kept): the expanded loop's span mapped back.
    let ann = &p.region.raw.loop_ann;
    let lo = ann.begin_span.end;
    let written = |a: usize, b: usize| src.original_of(Span::new(a, b));
    let end = lo + ann.original.trim_end().len();
    // Statements after the loop (`r = sqrt(r);`) run once, after the tuned loop or its fallback.
    let (original, after) = match &p.kernel.after {
        Some(a) => {
            let cut = end - a.text.trim().len();
            (
                written(lo, cut).trim_matches('\n'),
                format!("\n    {}", written(cut, end).trim()),
            )
        }
        None => (written(lo, end).trim_matches('\n'), String::new()),
    };
    format!(
        "/* orcl: {api} variant; the original loop runs if {api} is unavailable or fails */\n    if ({}({}) != 0) {{\n{}\n    }}{after}",
        host.name,
        call_args.join(", "),
        original.trim_end()
    )
}

/// Orio's files use arrays that exist only in `input_vars` (matVec2D's
/// `decl static int offsets[NOS] = {-M*DOF,-DOF,0,DOF,M*DOF};`: the function has no `offsets`, Orio's
/// skeleton declared it). For each such array with a brace initialiser that the loop reads and
/// that is declared neither in the enclosing function nor at file scope, the tuned file declares
/// it before the region, `int offsets[] = {-M*DOF, -DOF, 0, DOF, M*DOF};`, so the tuned call and
/// the fallback loop compile and read the values the skeleton validated. The list is copied as
/// written when it is plain C arithmetic (names, numbers, `+ - * / %`, parentheses); otherwise
/// its values at the largest tuned input are written. Returns the declarations (each on its own
/// line, to append to the region's comment block) and the input params they read, which get
/// `#ifndef` defaults like the preamble's.
fn input_array_decls(p: &Prepared, text: &str) -> (String, Vec<String>) {
    let raw = &p.region.raw;
    let mut out = String::new();
    let mut reads = Vec::new();
    for v in &p.region.spec.input_vars {
        let orcl_frontend::spec::VarInit::List(items, span) = &v.init else {
            continue;
        };
        if raw.decls.contains_key(&v.name) || !p.kernel.args.iter().any(|a| a.name == v.name) {
            continue;
        }
        let written = &text[span.start..span.end];
        let plain_c = written.chars().all(|c| {
            c.is_ascii_alphanumeric() || c.is_ascii_whitespace() || "_+-*/%(),{}.".contains(c)
        }) && !written.contains("**")
            && !written.contains("//");
        let list = if plain_c {
            for e in items {
                for (name, _) in e.free_names() {
                    if !reads.contains(&name) {
                        reads.push(name);
                    }
                }
            }
            written.to_string()
        } else {
            let largest = p.inputs.last().cloned().unwrap_or_default();
            let env = |n: &str| largest.get(n).cloned();
            let vals: Vec<String> = items
                .iter()
                .map(|e| {
                    e.eval(&env)
                        .map(|x| plain(&x))
                        .unwrap_or_else(|_| "0".into())
                })
                .collect();
            format!("{{{}}}", vals.join(", "))
        };
        out.push_str(&format!(
            "\n  {} {}[] = {list}; /* orcl: declared in input_vars only (Orio's skeleton declared it); its values as tuned */",
            v.ty, v.name
        ));
    }
    (out, reads)
}

/// The region's declarations before the Loop stay where they were, made valid C: a statement that
/// redeclares a parameter of the enclosing function (`int n=N;` in `VecAXPY(int n, ...)`, which C
/// rejects) becomes a comment, since the parameter already holds the size; an input param the
/// kept statements read (`int nz = N;`) gets a `#ifndef` default before the function, the value it
/// was tuned at (several values: the largest, with a comment listing them; compile with `-DN=...`
/// for another), as Orio's skeleton defined it.
fn preamble_edits(
    p: &Prepared,
    text: &str,
    extra_reads: &[String],
    edits: &mut Vec<(usize, usize, String)>,
    inserts: &mut BTreeMap<usize, String>,
) {
    let raw = &p.region.raw;
    let Some(f) = &raw.function else { return };
    let body = text[f.span.start..f.span.end]
        .find('{')
        .map(|k| f.span.start + k)
        .unwrap_or(f.span.end);
    let is_param = |name: &str| {
        raw.decls
            .get(name)
            .is_some_and(|d| d.span.start >= f.span.start && d.span.start < body)
    };
    let mut dropped = Vec::new();
    for d in &raw.preamble {
        if is_param(&d.name) && !dropped.contains(&d.stmt_span) {
            dropped.push(d.stmt_span);
            let stmt = text[d.stmt_span.start..d.stmt_span.end].replace("*/", "* /");
            edits.push((
                d.stmt_span.start,
                d.stmt_span.end,
                format!("/* orcl: `{stmt}` redeclares the parameter `{}`, which holds the size (Orio's skeleton ran it with the input params as #defines) */", d.name),
            ));
        }
    }
    let mut defines = String::new();
    let mut seen = Vec::new();
    let reads: Vec<&String> = raw
        .preamble
        .iter()
        .filter(|d| !dropped.contains(&d.stmt_span))
        .flat_map(|d| d.reads.iter().map(|(r, _)| r))
        .chain(extra_reads)
        .collect();
    {
        for r in reads {
            let Some(param) = p.region.spec.input_params.iter().find(|ip| &ip.name == r) else {
                continue;
            };
            if seen.contains(r) || is_param(r) || raw.decls.contains_key(r) {
                continue;
            }
            seen.push(r.clone());
            let mut values: Vec<Value> = p
                .inputs
                .iter()
                .filter_map(|i| i.get(&param.name).cloned())
                .collect();
            values.dedup();
            values.sort_by(|a, b| {
                a.as_f64()
                    .partial_cmp(&b.as_f64())
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
            let Some(last) = values.last() else { continue };
            let all: Vec<String> = values.iter().map(plain).collect();
            defines.push_str(&format!(
                "#ifndef {r} /* orcl: input param of the region below, tuned at {r} = {}; compile with -D{r}=... for another */\n#define {r} {}\n#endif\n",
                all.join(", "),
                plain(last)
            ));
        }
    }
    if !defines.is_empty() {
        inserts
            .entry(f.span.start)
            .or_default()
            .insert_str(0, &defines);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitutes_whole_words_only() {
        let map: BTreeMap<String, String> = [("N".to_string(), "n".to_string())].into();
        assert_eq!(subst_identifiers("N*NN+N2+2N", &map), "n*NN+N2+2N");
        let map: BTreeMap<String, String> = [("N".to_string(), "n+1".to_string())].into();
        assert_eq!(subst_identifiers("2*N", &map), "2*(n+1)");
    }
}
