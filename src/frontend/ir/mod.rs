//! The loop IR: a typed tree of the C-subset loop (statements and expressions with spans) plus
//! the kernel-level facts codegen needs (parallel loop, symbols, kernel arguments in
//! first-appearance order). Produced by `lower::lower`, consumed by `codegen`.

pub mod c;

use crate::diag::Span;
use serde::Serialize;
use std::collections::BTreeMap;

/// Element types of the loop language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, PartialOrd, Ord)]
pub enum ScalarType {
    Int,
    Long,
    /// IEEE binary16 (`_Float16`): array elements only, read as float (see [`ScalarType::is_16bit`]).
    Half,
    /// bfloat16 (`__bf16`: FP32's 8 exponent bits, 7 mantissa bits): array elements only.
    BFloat16,
    Float,
    Double,
}

impl ScalarType {
    /// The C / OpenCL C spelling (`long` is 64-bit in OpenCL; the C side uses `long` too, which is
    /// 64-bit on the LP64 targets orcl supports). A 16-bit float type is stored as its bit
    /// pattern, `ushort` (OpenCL C's name; the C skeletons and CUDA define it as `unsigned
    /// short`), and every read of it is converted to float exactly (`orcl_h2f`, `orcl_bf2f`):
    /// no compiler needs `_Float16` or `__bf16` arithmetic (GCC < 13 has no `__bf16`).
    pub fn c_name(self) -> &'static str {
        match self {
            ScalarType::Int => "int",
            ScalarType::Long => "long",
            ScalarType::Half | ScalarType::BFloat16 => "ushort",
            ScalarType::Float => "float",
            ScalarType::Double => "double",
        }
    }
    /// The type as the user's C spells it (for messages).
    pub fn user_name(self) -> &'static str {
        match self {
            ScalarType::Half => "_Float16",
            ScalarType::BFloat16 => "__bf16",
            t => t.c_name(),
        }
    }
    /// A 16-bit float type (`_Float16`, `__bf16`): allowed as the element type of arrays the
    /// loop only reads; each read is the exact float value of its bits (`lower::half`).
    pub fn is_16bit(self) -> bool {
        matches!(self, ScalarType::Half | ScalarType::BFloat16)
    }
    /// The C function of the generated code that widens the 16-bit pattern to float, exactly.
    pub fn widen_fn(self) -> Option<&'static str> {
        match self {
            ScalarType::Half => Some("orcl_h2f"),
            ScalarType::BFloat16 => Some("orcl_bf2f"),
            _ => None,
        }
    }
    /// Size in bytes.
    pub fn size_bytes(self) -> usize {
        match self {
            ScalarType::Half | ScalarType::BFloat16 => 2,
            ScalarType::Int | ScalarType::Float => 4,
            ScalarType::Long | ScalarType::Double => 8,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(
            self,
            ScalarType::Float | ScalarType::Double | ScalarType::Half | ScalarType::BFloat16
        )
    }
    pub fn from_c(name: &str) -> Option<Self> {
        match name {
            "int" => Some(ScalarType::Int),
            "long" => Some(ScalarType::Long),
            "float" => Some(ScalarType::Float),
            "double" => Some(ScalarType::Double),
            "_Float16" => Some(ScalarType::Half),
            "__bf16" => Some(ScalarType::BFloat16),
            _ => None,
        }
    }
    /// The usual arithmetic conversion of two operand types.
    pub fn promote(a: Self, b: Self) -> Self {
        a.max(b)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

impl BinaryOp {
    pub fn c_op(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
        }
    }
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge
                | BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::And
                | BinaryOp::Or
        )
    }
}

/// Compound-assignment operators (`=` is `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
    Mul,
    Div,
}

impl AssignOp {
    pub fn c_op(self) -> &'static str {
        match self {
            AssignOp::Set => "=",
            AssignOp::Add => "+=",
            AssignOp::Sub => "-=",
            AssignOp::Mul => "*=",
            AssignOp::Div => "/=",
        }
    }
}

/// Math functions allowed in a tuned loop (C99 `<math.h>` names; OpenCL C has the same).
pub const MATH_FUNCTIONS: &[(&str, usize)] = &[
    ("exp", 1),
    ("log", 1),
    ("sqrt", 1),
    ("fabs", 1),
    ("sin", 1),
    ("cos", 1),
    ("tan", 1),
    ("pow", 2),
    ("fmin", 2),
    ("fmax", 2),
    ("floor", 1),
    ("ceil", 1),
];

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum ExprKind {
    Int(i64),
    /// A floating literal as written (`2.0`, `1e-3`, `0.5f`), and whether it has an `f` suffix.
    Float {
        text: String,
        single: bool,
    },
    Var(String),
    /// `a[i][j]`: indices outermost first.
    Index {
        array: String,
        indices: Vec<Expr>,
    },
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    Call(String, Vec<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Cast(ScalarType, Box<Expr>),
}

impl Expr {
    /// Structural equality ignoring spans and redundant parentheses (used by dependence tests).
    pub fn same_as(&self, other: &Expr) -> bool {
        use ExprKind::*;
        match (&self.kind, &other.kind) {
            (Int(a), Int(b)) => a == b,
            (Float { text: a, .. }, Float { text: b, .. }) => a == b,
            (Var(a), Var(b)) => a == b,
            (
                Index {
                    array: a,
                    indices: x,
                },
                Index {
                    array: b,
                    indices: y,
                },
            ) => a == b && x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.same_as(q)),
            (Unary(o, a), Unary(p, b)) => o == p && a.same_as(b),
            (Binary(o, a, b), Binary(p, c, d)) => o == p && a.same_as(c) && b.same_as(d),
            (Call(f, a), Call(g, b)) => {
                f == g && a.len() == b.len() && a.iter().zip(b).all(|(p, q)| p.same_as(q))
            }
            (Cond(a, b, c), Cond(d, e, f)) => a.same_as(d) && b.same_as(e) && c.same_as(f),
            (Cast(t, a), Cast(u, b)) => t == u && a.same_as(b),
            _ => false,
        }
    }

    /// Calls `f` on this expression and every sub-expression, pre-order.
    pub fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Index { indices, .. } => indices.iter().for_each(|e| e.visit(f)),
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => a.visit(f),
            ExprKind::Binary(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|e| e.visit(f)),
            ExprKind::Cond(a, b, c) => {
                a.visit(f);
                b.visit(f);
                c.visit(f);
            }
            _ => {}
        }
    }

    /// Whether the expression reads an array element (an `Index` anywhere in it).
    pub fn reads_array(&self) -> bool {
        let mut r = false;
        self.visit(&mut |x| r |= matches!(x.kind, ExprKind::Index { .. }));
        r
    }

    /// Whether the expression mentions variable `name` (as a scalar or an array).
    pub fn mentions(&self, name: &str) -> bool {
        let mut found = false;
        self.visit(&mut |e| match &e.kind {
            ExprKind::Var(v) if v == name => found = true,
            ExprKind::Index { array, .. } if array == name => found = true,
            _ => {}
        });
        found
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum StmtKind {
    /// `target op value;` where target is a `Var` or an `Index` expression.
    Assign {
        target: Expr,
        op: AssignOp,
        value: Expr,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        other: Option<Vec<Stmt>>,
    },
    /// A scalar temporary: `double t = e;` (declared inside the loop body).
    Decl {
        ty: ScalarType,
        name: String,
        init: Option<Expr>,
    },
    For(Loop),
    Block(Vec<Stmt>),
}

/// `for (var = lower; var < upper | var <= upper; var += step) body` with a positive constant step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Loop {
    pub var: String,
    pub var_span: Span,
    pub lower: Expr,
    pub upper: Expr,
    /// `<=` (true) or `<` (false).
    pub inclusive: bool,
    pub step: i64,
    pub body: Vec<Stmt>,
    pub span: Span,
}

impl Loop {
    /// Innermost loops of the body (loops that contain no further loop); empty when the body has none.
    pub fn has_inner_loops(&self) -> bool {
        fn any(stmts: &[Stmt]) -> bool {
            stmts.iter().any(|s| match &s.kind {
                StmtKind::For(_) => true,
                StmtKind::If { then, other, .. } => any(then) || other.as_deref().is_some_and(any),
                StmtKind::Block(b) => any(b),
                _ => false,
            })
        }
        any(&self.body)
    }
}

/// How a variable is used by the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SymbolKind {
    /// A scalar input (read only).
    Scalar,
    /// An array with `rank` dimensions (a pointer counts as rank 1). In `Kernel::parallel`,
    /// references to arrays of rank > 1 are flattened to one row-major subscript
    /// (`A[i][j]` → `A[i * n + j]`, see `lower`); the symbol keeps the declared rank.
    Array { rank: usize },
    /// The index variable of a loop (the parallel one or an inner one).
    LoopVar,
    /// A scalar temporary declared inside the loop body.
    Local,
}

/// One variable of the loop with its resolved type.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Symbol {
    pub name: String,
    pub ty: ScalarType,
    pub kind: SymbolKind,
    pub read: bool,
    pub written: bool,
}

/// A kernel argument, in first-appearance order in the loop text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KernelArg {
    pub name: String,
    pub ty: ScalarType,
    pub is_array: bool,
    /// Array that the loop writes (copied back after the kernel).
    pub written: bool,
    /// Array that the loop reads.
    pub read: bool,
    /// Array extents as C expressions over input params (e.g. `["N"]`), outermost first.
    pub dims: Vec<String>,
    /// A scalar accumulated across iterations: passed to the kernel as a buffer of per-work-group
    /// partial results, combined with the scalar's initial value on the host.
    pub reduction: Option<ReduceOp>,
    /// An array of rank > 1: its extents 1..rank (row lengths) as the kernel computes them (the
    /// flattened subscripts use them); empty otherwise.
    pub extents: Vec<Expr>,
    /// An array extent passed as a `long` argument (`orcl_A_dim1`): the row length of a
    /// multi-dimensional array that is no expression of the loop's scalars (a macro, a variable
    /// outside `input_vars`). `None` for every other argument.
    pub extent: Option<ExtentArg>,
    /// An array that iterations of the parallel loop accumulate into at shared elements (atax's
    /// `y[j] = y[j] + A[i][j]*tmp[i]` in the loop over `i`): every reference to it is a sum into
    /// one element, which the kernel does as an atomic add (see `lower::dependence`).
    pub atomic_sum: bool,
}

/// Where the value of an extent argument comes from: extent `dim` (0 = outermost) of `array`.
/// The timing skeleton passes the `input_vars` extent at the input size; the tuned file passes
/// `c_text` (or, when the array has no C declaration, the `input_vars` extent in the size
/// variables).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExtentArg {
    pub array: String,
    pub dim: usize,
    /// The extent as written in the C declaration (`N` in `double A[M][N]`), valid where the
    /// tuned loop is.
    pub c_text: Option<String>,
}

/// Name of the kernel argument carrying extent `dim` of `array`.
pub fn extent_arg_name(array: &str, dim: usize) -> String {
    format!("orcl_{array}_dim{dim}")
}

/// How a reduction scalar accumulates: `s += e` / `s = s + e` / `s -= e` (Sum), `s *= e` /
/// `s = s * e` (Product), `s = fmax(s, e)` (Max), `s = fmin(s, e)` (Min).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ReduceOp {
    Sum,
    Product,
    Max,
    Min,
}

impl ReduceOp {
    /// The identity element as an OpenCL C / C literal for type `ty`.
    pub fn identity(self, ty: ScalarType) -> &'static str {
        match (self, ty) {
            (ReduceOp::Sum, _) => "0",
            (ReduceOp::Product, _) => "1",
            (ReduceOp::Max, ScalarType::Int) => "INT_MIN",
            (ReduceOp::Max, ScalarType::Long) => "LONG_MIN",
            (ReduceOp::Max, _) => "-INFINITY",
            (ReduceOp::Min, ScalarType::Int) => "INT_MAX",
            (ReduceOp::Min, ScalarType::Long) => "LONG_MAX",
            (ReduceOp::Min, _) => "INFINITY",
        }
    }
    /// C expression combining partial results `a` and `b` of type `ty`.
    pub fn combine(self, ty: ScalarType, a: &str, b: &str) -> String {
        match (self, ty.is_float()) {
            (ReduceOp::Sum, _) => format!("{a} + {b}"),
            (ReduceOp::Product, _) => format!("{a} * {b}"),
            (ReduceOp::Max, true) => format!("fmax({a}, {b})"),
            (ReduceOp::Min, true) => format!("fmin({a}, {b})"),
            (ReduceOp::Max, false) => format!("({a}) > ({b}) ? ({a}) : ({b})"),
            (ReduceOp::Min, false) => format!("({a}) < ({b}) ? ({a}) : ({b})"),
        }
    }
}

/// One variable of the preamble with an initializer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PreVar {
    pub name: String,
    /// Its C type (`int`, `long`, `float`, `double`).
    #[serde(skip)]
    pub ty: ScalarType,
    /// `ty.c_name()`, for the skeleton template.
    pub c_ty: &'static str,
    /// The initializer's C text, as written.
    pub init: String,
    /// Not written in the file: a function parameter `m` the loop uses, bound to the input param
    /// `M` of the same name in upper case (Orio's MMMult.c); the span of its C declaration.
    pub implicit: Option<Span>,
}

/// A scalar declared outside the Loop (`double s;` before it, `int col;` at function scope) that
/// every iteration assigns before any use: each work-item gets its own copy.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrivateVar {
    pub name: String,
    #[serde(skip)]
    pub ty: ScalarType,
    /// `ty.c_name()`.
    pub c_ty: &'static str,
    /// Its C declaration (for the warning).
    pub decl_span: Span,
}

/// An array that every iteration of the parallel loop writes before reading (doitgen's
/// `sum[p]`): each work-item has its own copy of `len` elements, declared in the kernel; it is
/// no kernel argument (see `lower::private`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrivateArray {
    pub name: String,
    pub ty: ScalarType,
    /// Elements of the copy: the largest `input_vars` extent over the tuned input sizes.
    pub len: u64,
    /// C conditions over the loop's scalars under which every subscript stays in `[0, len)`; the
    /// tuned code runs the original loop when one fails.
    pub guard: Vec<String>,
    /// The first reference (for the warning).
    pub span: Span,
}

/// Statements after the parallel loop inside a `Loop` annotation (Orio's vecNorm2:
/// `r=sqrt(r);` after the reduction), in order; each runs once, after the loop.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct After {
    pub stmts: Vec<Stmt>,
    /// Their C text (from the first to the end of the last), and its span in the file.
    pub text: String,
    pub span: Span,
}

/// The accumulation that an assignment `target op= value` performs, and its operand `e`, where
/// `is_target` recognises the target (a scalar, or an array element) inside `value`:
/// `t += e`, `t -= e`, `t = t + e`, `t = e + t`, `t = t - e` (Sum); `t *= e`, `t = t * e`,
/// `t = e * t` (Product); `t = fmax(t, e)`, `t = fmax(e, t)` (Max); `fmin` (Min). The one
/// reduction matcher of orcl: `lower` uses it for the parallel loop's scalars,
/// `schedule::passes` for the loops `innerThreads` lanes split, `summand` for the sums of
/// contractions and row reductions.
pub fn accumulation<'e>(
    is_v: &dyn Fn(&Expr) -> bool,
    op: AssignOp,
    value: &'e Expr,
) -> Option<(ReduceOp, &'e Expr)> {
    let (r, e) = match (op, &value.kind) {
        (AssignOp::Add | AssignOp::Sub, _) => (ReduceOp::Sum, value),
        (AssignOp::Mul, _) => (ReduceOp::Product, value),
        (AssignOp::Set, ExprKind::Binary(BinaryOp::Add, a, b)) if is_v(a) => (ReduceOp::Sum, &**b),
        (AssignOp::Set, ExprKind::Binary(BinaryOp::Add, a, b)) if is_v(b) => (ReduceOp::Sum, &**a),
        (AssignOp::Set, ExprKind::Binary(BinaryOp::Sub, a, b)) if is_v(a) => (ReduceOp::Sum, &**b),
        (AssignOp::Set, ExprKind::Binary(BinaryOp::Mul, a, b)) if is_v(a) => {
            (ReduceOp::Product, &**b)
        }
        (AssignOp::Set, ExprKind::Binary(BinaryOp::Mul, a, b)) if is_v(b) => {
            (ReduceOp::Product, &**a)
        }
        (AssignOp::Set, ExprKind::Call(f, args))
            if (f == "fmax" || f == "fmin") && args.len() == 2 =>
        {
            let r = if f == "fmax" {
                ReduceOp::Max
            } else {
                ReduceOp::Min
            };
            if is_v(&args[0]) {
                (r, &args[1])
            } else if is_v(&args[1]) {
                (r, &args[0])
            } else {
                return None;
            }
        }
        _ => return None,
    };
    Some((r, e))
}

/// Calls `f` on every expression of `stmts`, inner loops' bounds and bodies included (the IR's
/// visitor of statements).
pub fn for_each_expr(stmts: &[Stmt], f: &mut dyn FnMut(&Expr)) {
    use StmtKind::*;
    for s in stmts {
        match &s.kind {
            Assign { target, value, .. } => {
                target.visit(f);
                value.visit(f);
            }
            If { cond, then, other } => {
                cond.visit(f);
                for_each_expr(then, f);
                if let Some(o) = other {
                    for_each_expr(o, f);
                }
            }
            Decl { init, .. } => {
                if let Some(i) = init {
                    i.visit(f);
                }
            }
            For(l) => {
                l.lower.visit(f);
                l.upper.visit(f);
                for_each_expr(&l.body, f);
            }
            Block(b) => for_each_expr(b, f),
        }
    }
}

/// A lowered, validated tuned loop: the parallel loop plus everything codegen needs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Kernel {
    /// The outermost (parallel) loop. Every array reference in it has one subscript: references
    /// to multi-dimensional arrays are flattened to row-major offsets over a 1-D buffer, whose
    /// row lengths are kernel arguments (scalars of the loop, or `extent` arguments) or constants.
    pub parallel: Loop,
    /// Every variable the loop mentions, by name.
    pub symbols: BTreeMap<String, Symbol>,
    /// Kernel arguments in first-appearance order.
    pub args: Vec<KernelArg>,
    /// The loop's original C text, compiled as plain C into the skeleton for reference outputs.
    pub source: String,
    /// The region's declarations before the `Loop` annotation (`int n = N;`), evaluated in the
    /// skeleton before the loop; those the loop reads are scalar arguments (see `preamble`).
    pub preamble: Vec<PreVar>,
    /// Scalars declared outside the Loop that every iteration assigns before use: temporaries of
    /// the loop body (declared in the skeleton's reference loop too; see `preamble::privatize`).
    pub privates: Vec<PrivateVar>,
    /// Arrays private to each work-item (see [`PrivateArray`]).
    pub private_arrays: Vec<PrivateArray>,
    /// Statements after the parallel loop inside the annotation (`r = sqrt(r);`): assignments to
    /// the loop's reduction scalars, run once after the reduction is finished (see `lower`).
    pub after: Option<After>,
    /// A region whose loop is a sequential time loop over several parallel nests (PolyBench's
    /// stencils): `parallel` is then that time loop, which runs on the host, and `args` the
    /// arrays and scalars of the whole region; the kernels of its body are in [`Steps`]. `None`
    /// for a region of one kernel (the usual case).
    pub steps: Option<Box<Steps>>,
    /// The nest's second loop was a triangle (`for (j = 0; j <= i; j++)` under the parallel `i`)
    /// made its bounding rectangle, its body the only statement of an `if` (the triangle's
    /// bounds) that `lower::triangle` added: an operand of the body that varies with one of the
    /// two loops may be read outside the guard (see `analysis::contraction`).
    pub triangle: bool,
}

/// The body of a time loop (`for (t = 0; t < tsteps; t++) { nest1; nest2; ... }`): each nest
/// is a kernel of its own, lowered and checked for dependences as a one-kernel region would be,
/// and launched in order once per step; the time loop stays on the host and the arrays stay on
/// the device for the whole region (one upload, one download). The time loop's variable is a
/// scalar argument (`int t`) of every kernel that reads it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Steps {
    /// The kernels of one step, in launch order (the nests of the time loop's body, in order).
    pub kernels: Vec<Kernel>,
}

impl Kernel {
    /// The widest floating type among the arguments (`vec_type_hint` base), or `int`.
    pub fn element_type(&self) -> ScalarType {
        self.args
            .iter()
            .map(|a| a.ty)
            .filter(|t| t.is_float())
            .max()
            .unwrap_or(ScalarType::Int)
    }
    /// The kernels the region launches: those of its time loop's step ([`Steps`]), or itself.
    pub fn kernels(&self) -> Vec<&Kernel> {
        match &self.steps {
            Some(s) => s.kernels.iter().collect(),
            None => vec![self],
        }
    }
    /// The reduction arguments.
    pub fn reductions(&self) -> impl Iterator<Item = &KernelArg> {
        self.args.iter().filter(|a| a.reduction.is_some())
    }
    /// Whether any argument or temporary is `double` (needs `cl_khr_fp64`).
    pub fn uses_double(&self) -> bool {
        self.symbols.values().any(|s| s.ty == ScalarType::Double)
    }
    /// The declared rank of array `name` (0 for scalars and unknown names).
    pub fn rank(&self, name: &str) -> usize {
        match self.symbols.get(name).map(|s| s.kind) {
            Some(SymbolKind::Array { rank }) => rank,
            _ => 0,
        }
    }
    /// Loop index variables (parallel and inner), for the skeleton's reference function.
    pub fn loop_vars(&self) -> Vec<&Symbol> {
        self.symbols
            .values()
            .filter(|s| s.kind == SymbolKind::LoopVar)
            .collect()
    }
}
