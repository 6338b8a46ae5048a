use super::*;
use crate::ir::c::c_expr;
use crate::ir::{AssignOp, BinaryOp, ExprKind, StmtKind};

#[test]
fn prints_with_minimal_parentheses() {
    let l = parse_loop(
        "for (i=0;i<n;i++) y[i] = (a*(x[i]+b)) - (c - d) - -e + (double)(i%3);",
        0,
    )
    .unwrap();
    let StmtKind::Assign { value, .. } = &l.body[0].kind else {
        panic!()
    };
    assert_eq!(
        c_expr(value, &|_| None),
        "a * (x[i] + b) - (c - d) - -e + (double)(i % 3)"
    );
}

#[test]
fn parses_axpy() {
    let src = "for (i=0; i<=n-1; i++)\n    y[i]+=a*x[i];";
    let l = parse_loop(src, 100).unwrap();
    assert_eq!(l.var, "i");
    assert!(l.inclusive);
    assert_eq!(l.step, 1);
    assert_eq!(l.body.len(), 1);
    assert_eq!(l.var_span, Span::new(105, 106));
    match &l.body[0].kind {
        StmtKind::Assign { op, target, .. } => {
            assert_eq!(*op, AssignOp::Add);
            assert!(matches!(&target.kind, ExprKind::Index { array, .. } if array == "y"));
        }
        k => panic!("{k:?}"),
    }
}

#[test]
fn strides_and_bounds() {
    let l = parse_loop(
        "for (int k = 3; k < m; k += 2) { double t = b[k]; c[k] = t > 0 ? t : -t; }",
        0,
    )
    .unwrap();
    assert_eq!((l.step, l.inclusive), (2, false));
    assert_eq!(l.body.len(), 2);
    assert!(
        parse_loop("for (i = 0; i < n; i = i + 4) y[i] = 0;", 0)
            .unwrap()
            .step
            == 4
    );
}

#[test]
fn rejects_while_with_location() {
    let src = "for (i=0; i<n; i++) {\n  while (x[i] > 0) x[i] -= 1;\n}";
    let e = parse_loop(src, 10).unwrap_err();
    assert!(
        e.message.contains("`while` loop is not supported"),
        "{}",
        e.message
    );
    assert_eq!(e.span.start, 10 + src.find("while").unwrap());
}

#[test]
fn rejects_unknown_call_with_suggestion() {
    let e = parse_loop("for (i=0; i<n; i++) y[i] = sqr(x[i]);", 0).unwrap_err();
    assert!(e.message.contains("call to `sqr`"));
    assert_eq!(e.help.as_deref(), Some("did you mean `sqrt`?"));
}

#[test]
fn parses_an_extent_expression() {
    let e = parse_expr("n + 2", 40).unwrap();
    assert!(matches!(e.kind, ExprKind::Binary(BinaryOp::Add, _, _)));
    assert_eq!(e.span, Span::new(40, 45));
    assert!(parse_expr("f(n)", 0).is_err());
}

#[test]
fn declarator_layers_from_the_name_outwards() {
    let file = "#define N 8\nvoid f(int m, int n, double A[m][n], double (*B)[N], double **C, double *D[4], const double E[][N + 1]) {}\n";
    let at = |name: &str| {
        let p = file
            .find(&format!("{name}["))
            .or_else(|| file.find(&format!("{name})")))
            .or_else(|| file.find(&format!("{name},")))
            .unwrap();
        Span::new(p, p + 1)
    };
    let arr = |t: &str| {
        let p = file.rfind(&format!("[{t}]")).unwrap() + 1;
        DeclLayer::Array(Some((t.to_string(), Span::new(p, p + t.len()))))
    };
    let (a, span) = declarator_layers(file, at("A")).unwrap();
    assert_eq!(a, vec![arr("m"), arr("n")]);
    assert_eq!(&file[span.start..span.end], "A[m][n]");
    assert_eq!(
        declarator_layers(file, at("B")).unwrap().0,
        vec![DeclLayer::Pointer, arr("N")]
    );
    let (c, span) = declarator_layers(file, at("C")).unwrap();
    assert_eq!(c, vec![DeclLayer::Pointer, DeclLayer::Pointer]);
    assert_eq!(&file[span.start..span.end], "**C");
    assert_eq!(
        declarator_layers(file, at("D")).unwrap().0,
        vec![arr("4"), DeclLayer::Pointer]
    );
    assert_eq!(
        declarator_layers(file, at("E")).unwrap().0,
        vec![DeclLayer::Array(None), arr("N + 1")]
    );
}

#[test]
fn rejects_bad_increment_and_syntax() {
    assert!(parse_loop("for (i=0; i<n; i--) y[i] = 0;", 0)
        .unwrap_err()
        .message
        .contains("increment"));
    assert!(parse_loop("for (i=0; i<n; i++) y[i] = ;", 0)
        .unwrap_err()
        .message
        .contains("syntax error"));
    assert!(parse_loop("y[0] = 1;", 0)
        .unwrap_err()
        .message
        .contains("expected the parallel `for` loop"));
}
