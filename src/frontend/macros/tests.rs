use super::*;

const POLY: &str = "#define DATA_TYPE double\n#define SCALAR_VAL(x) x\n#define SCALAR_F(x) x##f\n#define POLYBENCH_LOOP_BOUND(x,y) y\n#define _PB_N POLYBENCH_LOOP_BOUND(N,n)\n#define N 400\n#define STR(x) #x\n#define NEG -x\n#define V(...) f(__VA_ARGS__)\n#define SELF SELF + 1\n";

fn exp(code: &str) -> String {
    let t = MacroTable::parse(POLY);
    Source::expand(code, &t, &[]).expect("expands").text
}

#[test]
fn object_and_function_like_macros_expand_as_cc_does() {
    assert_eq!(
        exp("for (i = 0; i < _PB_N; i++) y[i] = SCALAR_VAL(0.0);"),
        "for (i = 0; i < n; i++) y[i] = 0.0;"
    );
    assert_eq!(exp("DATA_TYPE a = SCALAR_F(1.5);"), "double a = 1.5f;");
    assert_eq!(exp("s = STR(a + b);"), "s = \"a + b\";");
    assert_eq!(exp("a-NEG;"), "a- -x;");
    assert_eq!(exp("V(1, 2);"), "f(1, 2);");
    // A macro does not expand inside its own expansion (C11 6.10.3.4p2).
    assert_eq!(exp("x = SELF;"), "x = SELF + 1;");
    // Not a call: a function-like macro's name alone stays.
    assert_eq!(exp("p = SCALAR_VAL;"), "p = SCALAR_VAL;");
}

#[test]
fn comments_strings_and_directives_are_left_alone_but_loop_code_is_expanded() {
    let text = "#define N 4\n/* N */ int a = N; char *s = \"N\";\n/*@ begin Loop( N ) @*/\n";
    let t = MacroTable::parse(text);
    let code = text.find("( N )").unwrap() + 2;
    let s = Source::expand(text, &t, &[Span::new(code, code + 1)]).unwrap();
    assert_eq!(
        s.text,
        "#define N 4\n/* N */ int a = N; char *s = \"N\";\n/*@ begin Loop( 4 ) @*/\n"
    );
}

#[test]
fn spans_map_back_to_the_macro_use_and_lines_are_kept() {
    let text = "x = SCALAR_VAL(\n 1.0) + _PB_N; y = q;";
    let t = MacroTable::parse(POLY);
    let s = Source::expand(text, &t, &[]).unwrap();
    assert_eq!(s.text.matches('\n').count(), 1, "{}", s.text);
    let q = s.text.find("q;").unwrap();
    assert_eq!(
        s.to_original(Span::new(q, q + 1)),
        Span::new(text.find("q;").unwrap(), text.find("q;").unwrap() + 1)
    );
    let n = s.text.find("n;").unwrap();
    let d = s.diagnostic(Diagnostic::new(
        Span::new(n, n + 1),
        "undeclared variable `n`",
    ));
    let use_at = text.find("_PB_N").unwrap();
    assert_eq!(d.span, Span::new(use_at, use_at + 5));
    assert!(d.message.contains("macro `_PB_N`"), "{}", d.message);
    let x = Span::new(0, s.text.len());
    assert_eq!(s.original_of(x), text);
}

#[test]
fn a_macro_that_does_not_expand_is_a_located_error_naming_it() {
    let t = MacroTable::parse(POLY);
    let text = "a = SCALAR_VAL(1, 2); b = SCALAR_VAL(3";
    let e = Source::expand(text, &t, &[]).unwrap_err();
    assert_eq!(e.len(), 2);
    assert_eq!(e[0].span.start, 4);
    assert!(
        e[0].message
            .contains("`SCALAR_VAL` takes 1 argument, 2 given"),
        "{}",
        e[0].message
    );
    assert!(e[1].message.contains("unterminated"), "{}", e[1].message);
}

#[test]
fn command_line_defines() {
    let mut t = MacroTable::default();
    t.define("N=64");
    t.define("FAST");
    t.define("SQ(x)=((x)*(x))");
    let code = [Span::new(0, 12)];
    assert_eq!(
        Source::expand("N FAST SQ(2)", &t, &code).unwrap().text,
        "64 1 ((2)*(2))"
    );
}

#[test]
fn non_ascii_in_arguments_and_bodies_never_panics() {
    let t = MacroTable::parse("#define S(x) #x\n#define E \"\\\u{e9}\"\n");
    let s = Source::expand("a = S(\"\\\u{e9}\"); b = E; c = S('\\\u{e9}');", &t, &[]).unwrap();
    assert!(s.text.contains("b = \"\\\u{e9}\";"), "{}", s.text);
}
