//! Values: Python names of types, truthiness, equality and ordering, `repr` and `str`.

use super::Value;

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

impl Value {
    /// A list value owning `items` (shared from here on: see [`Value::List`]).
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(std::sync::Arc::new(items))
    }

    /// Python's name of the type: `bool`, `int`, `float`, `str`, `list`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::List(_) => "list",
        }
    }
    /// The integer, for `Int` only.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(v) => Some(*v),
            _ => None,
        }
    }
    /// The number, for `Int` and `Float`.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(v) => Some(*v as f64),
            Value::Float(v) => Some(*v),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    /// Python truthiness: `False`, `0`, `0.0`, `''`, `[]` are false.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Bool(b) => *b,
            Value::Int(v) => *v != 0,
            Value::Float(v) => *v != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(l) => !l.is_empty(),
        }
    }
    /// Python `==`: numbers (and bools) compare by value across types, lists element-wise.
    pub fn py_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::List(a), Value::List(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.py_eq(y))
            }
            _ => match (num(self), num(other)) {
                (Some(Num::I(a)), Some(Num::I(b))) => a == b,
                (Some(a), Some(b)) => a.f() == b.f(),
                _ => false,
            },
        }
    }
    /// `(elements, depth)`: the number of values inside (itself included, a string counting
    /// its bytes) and the list nesting depth (0 for a scalar). Iterative, so any value is safe.
    pub(crate) fn weight(&self) -> (u64, usize) {
        let mut elements = 0u64;
        let mut depth = 0usize;
        let mut todo = vec![(self, 0usize)];
        while let Some((v, d)) = todo.pop() {
            depth = depth.max(d);
            elements += 1;
            match v {
                Value::Str(s) => elements += s.len() as u64,
                Value::List(l) => todo.extend(l.iter().map(|x| (x, d + 1))),
                _ => {}
            }
        }
        (elements, depth)
    }
    /// A string identifying the value up to [`Value::py_eq`] (for duplicate detection).
    pub(crate) fn eq_key(&self) -> String {
        let mut s = String::new();
        self.eq_key_into(&mut s);
        s
    }
    fn eq_key_into(&self, out: &mut String) {
        match self {
            Value::Bool(b) => out.push_str(if *b { "1" } else { "0" }),
            Value::Int(v) => out.push_str(&v.to_string()),
            Value::Float(f) => {
                if f.fract() == 0.0 && f.abs() < 9.0e15 {
                    out.push_str(&(*f as i64).to_string())
                } else {
                    out.push_str(&fmt_float(*f))
                }
            }
            Value::Str(s) => out.push_str(&repr_str(s)),
            Value::List(l) => {
                out.push('[');
                for v in l.iter() {
                    v.eq_key_into(out);
                    out.push(',');
                }
                out.push(']');
            }
        }
    }
    /// Python `str()`: strings without quotes, everything else as `repr`.
    pub fn to_py_str(&self) -> String {
        match self {
            Value::Str(s) => s.clone(),
            v => v.to_string(),
        }
    }
}

/// Python `repr` of a float: always has a `.` or an exponent (`1.0`, `2.5`, `1e-09`, `1e+16`).
pub(super) fn fmt_float(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let s = format!("{f:?}");
    match s.find('e') {
        Some(k) => {
            let (mant, exp) = (&s[..k], &s[k + 1..]);
            let (sign, digits) = match exp.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', exp),
            };
            format!("{mant}e{sign}{digits:0>2}")
        }
        None => s,
    }
}

/// Python `repr` of a string.
fn repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c)
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

impl std::fmt::Display for Value {
    /// Python `repr`: `True`, `3`, `2.5`, `'abc'`, `[1, 2]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            Value::Int(v) => write!(f, "{v}"),
            Value::Float(v) => f.write_str(&fmt_float(*v)),
            Value::Str(s) => f.write_str(&repr_str(s)),
            Value::List(l) => {
                f.write_str("[")?;
                for (k, v) in l.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
        }
    }
}

#[derive(Clone, Copy)]
pub(super) enum Num {
    I(i64),
    F(f64),
}

impl Num {
    pub(super) fn f(self) -> f64 {
        match self {
            Num::I(v) => v as f64,
            Num::F(v) => v,
        }
    }
}

pub(super) fn num(v: &Value) -> Option<Num> {
    match v {
        Value::Bool(b) => Some(Num::I(i64::from(*b))),
        Value::Int(i) => Some(Num::I(*i)),
        Value::Float(f) => Some(Num::F(*f)),
        _ => None,
    }
}

/// Python ordering: `Err(())` when the types cannot be ordered, `Ok(None)` for NaN.
pub(super) fn py_cmp(a: &Value, b: &Value) -> Result<Option<std::cmp::Ordering>, ()> {
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => Ok(Some(x.cmp(y))),
        (Value::List(x), Value::List(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                if !p.py_eq(q) {
                    return py_cmp(p, q);
                }
            }
            Ok(Some(x.len().cmp(&y.len())))
        }
        _ => match (num(a), num(b)) {
            (Some(Num::I(x)), Some(Num::I(y))) => Ok(Some(x.cmp(&y))),
            (Some(x), Some(y)) => Ok(x.f().partial_cmp(&y.f())),
            _ => Err(()),
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------------
