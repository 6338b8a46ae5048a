use super::*;
use crate::diag::{Diagnostic, Span};

fn ev(src: &str) -> Result<Value, Diagnostic> {
    let env = |n: &str| match n {
        "N" => Some(Value::Int(1000)),
        "WI" => Some(Value::Int(32)),
        "CL" => Some(Value::Str("-O3".into())),
        _ => None,
    };
    parse_expr(src, 0)?.eval_with_names(&env, &["N", "WI", "CL"])
}

fn ok(src: &str) -> String {
    match ev(src) {
        Ok(v) => v.to_string(),
        Err(d) => panic!("{src}: {} at {:?}", d.message, d.span),
    }
}

fn err(src: &str) -> Diagnostic {
    match ev(src) {
        Ok(v) => panic!("{src}: expected an error, got {v}"),
        Err(d) => d,
    }
}

#[test]
fn literals_and_display() {
    assert_eq!(ok("42"), "42");
    assert_eq!(ok("0x1F"), "31");
    assert_eq!(ok("1_000"), "1000");
    assert_eq!(ok("1.5"), "1.5");
    assert_eq!(ok(".5"), "0.5");
    assert_eq!(ok("1e-9"), "1e-09");
    assert_eq!(ok("1e16"), "1e+16");
    assert_eq!(ok("2.0"), "2.0");
    assert_eq!(ok("True"), "True");
    assert_eq!(ok("False"), "False");
    assert_eq!(ok("'abc'"), "'abc'");
    assert_eq!(ok(r#""it's""#), r#""it's""#);
    assert_eq!(ok(r"'a\tb\n'"), r"'a\tb\n'");
    assert_eq!(ok("[1, 2.5, 'x', [True]]"), "[1, 2.5, 'x', [True]]");
    assert_eq!(ok("[]"), "[]");
    assert_eq!(ok("[1, 2,]"), "[1, 2]");
    assert_eq!(ok("  7  # a comment\n"), "7");
    assert_eq!(Value::Float(3.0).to_string(), "3.0");
    assert_eq!(Value::Float(f64::INFINITY).to_string(), "inf");
}

#[test]
fn range_and_comprehensions() {
    assert_eq!(ok("range(4)"), "[0, 1, 2, 3]");
    assert_eq!(ok("range(1,4)"), "[1, 2, 3]");
    assert_eq!(ok("range(10, 0, -3)"), "[10, 7, 4, 1]");
    assert_eq!(ok("range(0, 10, 4)"), "[0, 4, 8]");
    assert_eq!(ok("range(5, 1)"), "[]");
    assert_eq!(ok("[2**i for i in range(5) if i > 1]"), "[4, 8, 16]");
    assert_eq!(ok("[i*WI for i in range(1, 3)]"), "[32, 64]");
    assert_eq!(ok("[c for c in 'ab']"), "['a', 'b']");
    assert_eq!(ok("[x for x in [1,2,3,4] if x > 1 if x < 4]"), "[2, 3]");
    // The comprehension variable shadows an outer name and is not free.
    assert_eq!(ok("[N for N in [1, 2]]"), "[1, 2]");
    let e = parse_expr("[i * WI for i in range(N) if i > K]", 100).unwrap();
    let names: Vec<String> = e.free_names().into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["N", "WI", "K"]);
    let d = err("range(1, 5, 0)");
    assert_eq!(d.message, "range() step must not be zero");
    assert_eq!(d.span, Span::new(12, 13));
    let d = err("range(100000000)");
    assert!(d.message.contains("at most 10000000"), "{}", d.message);
    let d = err("range(1.5)");
    assert!(d.message.contains("must be integers"), "{}", d.message);
    assert!(err("[[j for j in range(9000000)] for i in range(9)]")
        .message
        .contains("too large"));
}

#[test]
fn arithmetic_semantics() {
    assert_eq!(ok("7 // 2"), "3");
    assert_eq!(ok("-7 // 2"), "-4");
    assert_eq!(ok("7 // -2"), "-4");
    assert_eq!(ok("-7 % 3"), "2");
    assert_eq!(ok("7 % -3"), "-2");
    assert_eq!(ok("7.5 // 2"), "3.0");
    assert_eq!(ok("-7.5 % 2"), "0.5");
    assert_eq!(ok("7 / 2"), "3.5");
    assert_eq!(ok("4 / 2"), "2.0");
    assert_eq!(ok("2 ** 10"), "1024");
    assert_eq!(ok("2 ** -1"), "0.5");
    assert_eq!(ok("2 ** 3 ** 2"), "512");
    assert_eq!(ok("-2 ** 2"), "-4");
    assert_eq!(ok("(-2) ** 2"), "4");
    assert_eq!(ok("2.0 ** 2"), "4.0");
    assert_eq!(ok("1 + 2 * 3 - 4"), "3");
    assert_eq!(ok("(1 + 2) * 3"), "9");
    assert_eq!(ok("1 + 2.5"), "3.5");
    assert_eq!(ok("True + 1"), "2");
    assert_eq!(ok("'a' + 'b' + CL"), "'ab-O3'");
    assert_eq!(ok("[1] + [2, 3]"), "[1, 2, 3]");
    assert_eq!(ok("'ab' * 2"), "'abab'");
    assert_eq!(ok("[0] * 3"), "[0, 0, 0]");
    assert_eq!(ok("- -3"), "3");
    assert_eq!(ok("len([1,2,3]) + len('ab')"), "5");
    assert_eq!(ok("min(3, 1, 2)"), "1");
    assert_eq!(ok("max([1, 5, 2])"), "5");
    assert_eq!(ok("abs(-3)"), "3");
    assert_eq!(ok("int(3.9)"), "3");
    assert_eq!(ok("int(-3.9)"), "-3");
    assert_eq!(ok("int('12')"), "12");
    assert_eq!(ok("float(2)"), "2.0");
    assert_eq!(ok("str(12) + str('a') + str(True)"), "'12aTrue'");
    assert_eq!(ok("9223372036854775807"), "9223372036854775807");
}

#[test]
fn logic_and_comparisons() {
    assert_eq!(ok("WI * 512 <= 16384"), "True");
    assert_eq!(ok("1 < 2 < 3"), "True");
    assert_eq!(ok("1 < 3 < 2"), "False");
    assert_eq!(ok("1 == 1.0"), "True");
    assert_eq!(ok("'a' != 'b'"), "True");
    assert_eq!(ok("'a' < 'b'"), "True");
    assert_eq!(ok("[1, 2] < [1, 3]"), "True");
    assert_eq!(ok("1 == 'a'"), "False");
    assert_eq!(ok("3 in [1, 2, 3]"), "True");
    assert_eq!(ok("4 not in [1, 2, 3]"), "True");
    assert_eq!(ok("'fast' in '-cl-fast-relaxed-math'"), "True");
    assert_eq!(ok("not 0"), "True");
    assert_eq!(ok("not WI > 64"), "True");
    assert_eq!(ok("1 and 2"), "True");
    assert_eq!(ok("0 or ''"), "False");
    // Short-circuit: the division is never evaluated.
    assert_eq!(ok("False and 1/0"), "False");
    assert_eq!(ok("True or 1/0"), "True");
    assert_eq!(ok("1 if WI > 16 else 2"), "1");
    assert_eq!(ok("1 if WI > 64 else 2 if N > 10 else 3"), "2");
    assert_eq!(ok("1 + 2 == 3 and not 2 > 3 or False"), "True");
}

#[test]
fn located_errors() {
    let d = err("1 + 10 // 0");
    assert_eq!(d.message, "integer division by zero");
    assert_eq!(d.span, Span::new(4, 11));
    let d = err("1 / 0.0");
    assert_eq!(d.message, "division by zero");
    let d = err("WI + 'a'");
    assert_eq!(d.message, "unsupported operand types for `+`: int and str");
    assert_eq!(d.span, Span::new(0, 8));
    let d = err("2 * WJ");
    assert_eq!(d.message, "unknown name `WJ`");
    assert_eq!(d.span, Span::new(4, 6));
    assert_eq!(d.help.as_deref(), Some("did you mean `WI`?"));
    let d = err("'a' < 1");
    assert!(
        d.message.contains("not supported between str and int"),
        "{}",
        d.message
    );
    let d = err("x = 'abc");
    assert!(d.message.starts_with("unexpected `=`"), "{}", d.message);
    let d = parse_expr("[1, 'abc", 10).unwrap_err();
    assert_eq!(d.message, "unterminated string literal");
    assert_eq!(d.span, Span::new(14, 15));
    let d = err("true");
    assert_eq!(d.help.as_deref(), Some("did you mean `True`?"));
    assert_eq!(d.span, Span::new(0, 4));
    let d = err("rang(3)");
    assert_eq!(d.message, "unknown function `rang`");
    assert_eq!(d.help.as_deref(), Some("did you mean `range`?"));
    let d = err("[1, 2");
    assert!(d.message.contains("expected `,` or `]`"), "{}", d.message);
    assert_eq!(d.span, Span::new(5, 5));
    let d = err("(1 + ");
    assert_eq!(d.message, "expected an expression, found end of input");
    assert!(err("9223372036854775807 + 1").message.contains("overflow"));
    assert!(err("2 ** 64").message.contains("overflow"));
    assert!(err("99999999999999999999").message.contains("does not fit"));
    assert!(err("-9223372036854775807 - 2").message.contains("overflow"));
    assert!(err("12abc").message.contains("invalid number literal"));
    assert!(err("1 && 2").help.as_deref() == Some("use `and`"));
    assert!(err("max([])").message.contains("empty"));
    assert!(err("len(3)").message.contains("len()"));
    assert!(err("[x for x in 3]").message.contains("iterate"));
    assert!(err("0 ** -1").message.contains("negative power"));
    assert!(err("é").message.contains("unexpected character"));
}

#[test]
fn no_panic_on_hostile_input() {
    let deep = "(".repeat(100_000) + "1" + &")".repeat(100_000);
    assert!(err(&deep).message.contains("nested too deeply"));
    let long_chain = "1".to_string() + &"+1".repeat(100_000);
    assert!(err(&long_chain).message.contains("too deeply nested"));
    let minus = "-".repeat(100_000) + "1";
    assert!(ev(&minus).is_err());
    let nots = "not ".repeat(100_000) + "1";
    assert!(ev(&nots).is_err());
    assert!(ev("'ab' * 100000000").is_err());
    // Repeating nothing a huge number of times is immediate (it used to loop 2^63 times).
    assert_eq!(ok("'' * 0x7fffffffffffffff"), "''");
    assert_eq!(ok("[] * 9223372036854775807"), "[]");
    for s in [
        "", "(", ")", "[", "]", "'", "\"", "\\", "1e", "0x", "1.e5", "[for]", "a if b", "@", "1 2",
    ] {
        let _ = ev(s);
    }
    // Non-ASCII and odd bases.
    let _ = parse_expr("'日本' + x", 1 << 40);
}

#[test]
fn keyword_args() {
    let src = "  (workGroups=WG, device=0,\n clFlags='-cl-mad-enable',) for (i=0;;) { 'x }";
    let (args, end) = parse_keyword_args(src, 100).unwrap();
    assert_eq!(&src[end..end + 4], " for");
    let names: Vec<&str> = args.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["workGroups", "device", "clFlags"]);
    assert_eq!(args[0].name_span, Span::new(103, 113));
    assert_eq!(
        args[2].expr.eval(&|_| None).unwrap(),
        Value::Str("-cl-mad-enable".into())
    );
    let (args, end) = parse_keyword_args("() rest", 0).unwrap();
    assert!(args.is_empty());
    assert_eq!(end, 2);
    let d = parse_keyword_args("(a=1 b=2)", 0).unwrap_err();
    assert!(
        d.message
            .contains("expected `,` or `)` after the value of `a`"),
        "{}",
        d.message
    );
    assert_eq!(d.span, Span::new(4, 4));
    let d = parse_keyword_args("(a=1, a=2)", 0).unwrap_err();
    assert_eq!(d.message, "duplicate keyword argument `a`");
    let d = parse_keyword_args("(a)", 0).unwrap_err();
    assert!(
        d.message.starts_with("expected `=` after `a`"),
        "{}",
        d.message
    );
    assert!(parse_keyword_args("x(a=1)", 0).is_err());
    assert!(parse_keyword_args("(a=1", 0).is_err());
}

/// Issue 25 G6 (`make fuzz-long` round nine): elements an evaluation produces within its free
/// allowance still cost time, so they are charged to the step count by which `check` and
/// `prepare` bound a command.
#[test]
fn free_elements_are_charged_as_steps() {
    let before = steps_evaluated();
    ok("5 in range(400)");
    let small = steps_evaluated() - before;
    let before = steps_evaluated();
    ok("5 in range(4)");
    let tiny = steps_evaluated() - before;
    assert!(
        small >= tiny + 396 / eval::ELEMENTS_PER_STEP,
        "{small} vs {tiny}"
    );
}
