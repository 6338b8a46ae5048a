//! Generator of the G5/G6 shapes of issue 25 (legal but large inputs): huge value lists, input
//! size combinations, `#define` floods, comment floods, deep macro chains, long and expensive
//! constraints. Each input is `examples/axpy_quick.c` with one to three shapes composed into it,
//! every size drawn log-uniformly (so that most inputs sit near the limits orcl enforces:
//! 10^5 values, 10^4 size combinations, 3·10^7 spec elements, 10^7 hide-set names, 16 MiB) and
//! the whole input bounded by [`MAX_INPUT`].
//!
//! The property these inputs are held to is the goal for them: `orcl check` of any input
//! of at most 16 MiB finishes within 5 s of CPU and 1 GiB of resident memory (or stops with a
//! located error); see `shapes` in tests/fuzz.rs.

use proptest::prelude::*;

/// Largest input generated: orcl's input cap (`--max-input-size`, 16 MiB) less the base file.
pub const MAX_INPUT: usize = (16 << 20) - 4096;

/// `m · 10^e` for e in `lo..=hi`, m in 1..10: log-uniform over the decades.
fn decades(lo: u32, hi: u32) -> impl Strategy<Value = u64> {
    (lo..=hi, 1u64..10).prop_map(|(e, m)| m * 10u64.pow(e))
}

/// One shape; the numbers are its size (values, combinations, lines, bytes, depth, terms).
#[derive(Debug, Clone)]
pub enum Shape {
    /// A performance parameter with about `n` values, written in form `form`.
    Values { form: u8, n: u64 },
    /// Input parameters `N` (and `M`) with these numbers of values.
    Sizes { n: u64, m: Option<u64> },
    /// `lines` preprocessor directives of form `form`, at `at`.
    Defines { form: u8, lines: u64, at: u8 },
    /// About `bytes` of comments of form `form`, at `at`.
    Comments { form: u8, bytes: u64, at: u8 },
    /// A chain of `depth` macros, each using the previous, used once or not.
    MacroChain {
        depth: u64,
        function_like: bool,
        used: bool,
    },
    /// A constraint of form `form` whose cost or length grows with `k`.
    Constraint { form: u8, k: u64 },
    /// `n` performance parameters of `values` values each (the cost of building a
    /// configuration grows with the parameters: 46 × 5,000 sizes took 15 s before the step
    /// budgets charged it; 5,000 × 10,000 sizes 7 s before the spaces shared their parameters).
    Params { n: u64, values: u8 },
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0u8..6, decades(2, 8)).prop_map(|(form, n)| Shape::Values { form, n }),
        (decades(1, 6), proptest::option::of(decades(0, 4)))
            .prop_map(|(n, m)| Shape::Sizes { n, m }),
        (0u8..5, decades(2, 5), 0u8..3).prop_map(|(form, lines, at)| Shape::Defines {
            form,
            lines,
            at
        }),
        (0u8..5, decades(3, 7), 0u8..3).prop_map(|(form, bytes, at)| Shape::Comments {
            form,
            bytes,
            at
        }),
        (decades(1, 4), any::<bool>(), any::<bool>()).prop_map(|(depth, f, used)| {
            Shape::MacroChain {
                depth,
                function_like: f,
                used,
            }
        }),
        (0u8..8, decades(1, 9)).prop_map(|(form, k)| Shape::Constraint { form, k }),
        (decades(1, 4), 1u8..4).prop_map(|(n, values)| Shape::Params { n, values }),
    ]
}

/// An input: the quick example with 1 to 3 shapes.
pub fn shaped_file(base: String) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(shape(), 1..4).prop_map(move |shapes| render(&base, &shapes))
}

/// Where text goes in the base file.
#[derive(Default)]
struct Parts {
    /// Before the file.
    head: String,
    /// Inside the function, before the annotations.
    body: String,
    /// Lines of `performance_params`.
    params: String,
    /// Replaces `param N[] = [100000, 1000000];` when set.
    inputs: Option<String>,
    /// After the file.
    tail: String,
}

/// Text of `n` bytes or fewer made of `unit` repeated (at least once).
fn flood(unit: &str, bytes: u64, budget: usize) -> String {
    let n = (bytes as usize).min(budget) / unit.len().max(1);
    unit.repeat(n.max(1))
}

fn values(form: u8, n: u64, budget: usize) -> String {
    match form {
        0 => format!("param P[] = range(0, {n});"),
        1 => format!("param P[] = [1]*{n};"),
        2 => format!("param P[] = [x for x in range({n})];"),
        3 => format!("param P[] = range(0, {}, 7);", n.saturating_mul(7)),
        4 => format!("param P[] = [x for x in range({n}) if x % 2 == 0];"),
        _ => {
            // An explicit list literal of up to n numbers, within the byte budget.
            let mut s = String::from("param P[] = [");
            for k in 0..n {
                if s.len() + 24 > budget {
                    break;
                }
                s.push_str(&format!("{k}, "));
            }
            s + "0];"
        }
    }
}

/// `n` parameters `Q{i}_{k}` of `values` values each, within `budget` bytes.
fn params(i: usize, n: u64, values: u8, budget: usize) -> String {
    let list: Vec<String> = (1..=u64::from(values)).map(|v| v.to_string()).collect();
    let mut out = String::new();
    for k in 0..n {
        let line = format!("param Q{i}_{k}[] = [{}]; ", list.join(", "));
        if out.len() + line.len() > budget {
            break;
        }
        out += &line;
    }
    out
}

fn defines(form: u8, lines: u64, budget: usize) -> String {
    let mut s = String::new();
    for k in 0..lines {
        let line = match form {
            0 => "#define X(\n".to_string(),
            1 => format!("#define ORCL_FZ{k}(a) a\n"),
            2 => "#define ORCL_FZ 1\n".to_string(),
            3 => format!("#define ORCL_FZ{k} (ORCL_FZ{} + 1)\n", k.saturating_sub(1)),
            _ => format!("#ifdef ORCL_FZ{k}\n#endif\n"),
        };
        if s.len() + line.len() > budget {
            break;
        }
        s.push_str(&line);
    }
    s
}

fn comments(form: u8, bytes: u64, budget: usize) -> String {
    match form {
        0 => flood("/**/", bytes, budget),
        1 => flood("// c\n", bytes, budget),
        2 => format!("/*{}*/\n", "x".repeat((bytes as usize).min(budget))),
        3 => flood("/* @ */ ", bytes, budget),
        _ => flood("/*\n*/", bytes, budget),
    }
}

fn macro_chain(depth: u64, function_like: bool, used: bool, budget: usize) -> String {
    let mut s = String::new();
    let mut last = 0;
    for k in 0..depth {
        let line = match (function_like, k) {
            (true, 0) => "#define ORCL_MC0(a) a\n".to_string(),
            (true, _) => format!("#define ORCL_MC{k}(a) ORCL_MC{}(a)\n", k - 1),
            (false, 0) => "#define ORCL_MC0 1\n".to_string(),
            (false, _) => format!("#define ORCL_MC{k} ORCL_MC{}\n", k - 1),
        };
        if s.len() + line.len() + 64 > budget {
            break;
        }
        s.push_str(&line);
        last = k;
    }
    if used {
        let args = if function_like { "(1)" } else { "" };
        s.push_str(&format!("int orcl_mc_use = ORCL_MC{last}{args};\n"));
    }
    s
}

fn constraint(form: u8, k: u64, budget: usize) -> String {
    let e = (k as f64).log10().round() as u64;
    let body = match form {
        0 => format!("len([1]*10**{e}) > 0"),
        1 => format!("max(range({k})) >= 0"),
        2 => format!("len([x for x in range({k}) if x % 3 == 0]) >= 0"),
        3 => format!("len('ab' * {k}) > 0"),
        4 => format!("len([[x, x] for x in range({k})]) > 0"),
        5 => format!("WI in range({k})"),
        6 => {
            // A long conjunction of cheap terms, within the byte budget.
            let mut s = String::from("WI*WG <= 4096");
            for j in 0..k {
                if s.len() + 40 > budget {
                    break;
                }
                s.push_str(&format!(" and WI + {j} > {j}"));
            }
            s
        }
        _ => {
            return format!("let ORCL_L = [1]*{k};\n            constraint c9 = len(ORCL_L) > 0;");
        }
    };
    format!("constraint c9 = ({body});")
}

/// The base file with `shapes` composed into it, at most [`MAX_INPUT`] bytes.
pub fn render(base: &str, shapes: &[Shape]) -> Vec<u8> {
    let budget = MAX_INPUT / shapes.len().max(1);
    let mut p = Parts::default();
    for (i, s) in shapes.iter().enumerate() {
        match *s {
            Shape::Values { form, n } => {
                p.params += &values(form, n, budget).replace("P[]", &format!("P{i}[]"));
            }
            Shape::Sizes { n, m } => {
                let mut s = format!("param N[] = range(1000, {});", 1000 + n);
                if let Some(m) = m {
                    s += &format!(" param M[] = range(1, {});", 1 + m);
                }
                p.inputs = Some(s);
            }
            Shape::Defines { form, lines, at } => {
                let d = defines(form, lines, budget);
                place(&mut p, at, d);
            }
            Shape::Comments { form, bytes, at } => {
                let c = comments(form, bytes, budget);
                place(&mut p, at, c);
            }
            Shape::MacroChain {
                depth,
                function_like,
                used,
            } => {
                p.head += &macro_chain(depth, function_like, used, budget);
            }
            Shape::Constraint { form, k } => {
                p.params += &constraint(form, k, budget).replace("c9", &format!("c9_{i}"));
            }
            Shape::Params { n, values } => p.params += &params(i, n, values, budget),
        }
        p.params += "\n            ";
    }
    let mut text = base.replacen(
        "            constraint c1",
        &format!("            {}constraint c1", p.params),
        1,
    );
    if let Some(inputs) = &p.inputs {
        text = text.replacen("param N[] = [100000, 1000000];", inputs, 1);
    }
    text = text.replacen("    int i;\n", &format!("    int i;\n{}\n", p.body), 1);
    let mut out = p.head;
    out.push_str(&text);
    out.push_str(&p.tail);
    out.into_bytes()
}

/// Put `text` before the file (0), inside the function (1) or after it (2). Directives inside
/// the function keep their own lines.
fn place(p: &mut Parts, at: u8, text: String) {
    match at {
        0 => p.head += &text,
        1 => p.body += &text,
        _ => p.tail += &text,
    }
}
