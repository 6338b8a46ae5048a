//! The C skeletons' side of 16-bit float arrays (`_Float16`, `__bf16`; see the frontend's
//! `lower::half`): the arrays hold bit patterns (`ushort`), filled from random floats rounded to
//! the 16-bit format, and the reference loop reads each element through the same exact widening
//! as the kernels (`orcl_h2f`, `orcl_bf2f`), so no C compiler needs 16-bit arithmetic (GCC 12
//! has no `__bf16`) and the reference sees exactly the values the kernels see.

use orcl_frontend::ir::Kernel;

/// C definitions of the conversions: `orcl_h2f` / `orcl_bf2f` (exact widenings, as the kernels'
/// in `kernel_ir::widen16`) and `orcl_f2h` / `orcl_f2bf` (float to the nearest 16-bit value,
/// ties to even; only the inputs' initial values use them).
pub(super) const C_HELPERS: &str = r#"typedef unsigned short ushort;
static float orcl_bits_f(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static uint32_t orcl_f_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static float orcl_bf2f(ushort h) { return orcl_bits_f((uint32_t)h << 16); }
static float orcl_h2f(ushort h) {
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    float f = e == 0u ? (float)m * 0x1p-24f
        : orcl_bits_f(((uint32_t)(h & 0x8000u) << 16) | (e == 31u ? 0x7f800000u : (e + 112u) << 23) | (m << 13));
    return e == 0u && (h & 0x8000u) ? -f : f;
}
static ushort orcl_f2bf(float f) {
    uint32_t x = orcl_f_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (ushort)((x >> 16) | 0x40u);
    return (ushort)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
static ushort orcl_f2h(float f) {
    uint32_t x = orcl_f_bits(f), s = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
    if (a > 0x7f800000u) return (ushort)(s | 0x7e00u);
    if (a >= 0x477ff000u) return (ushort)(s | 0x7c00u); /* rounds past 65504 */
    if (a < 0x38800000u) { /* below 2^-14: a multiple of 2^-24, ties to even */
        float v = orcl_bits_f(a) * 0x1p24f;
        uint32_t q = (uint32_t)v;
        float r = v - (float)q;
        q += (r > 0.5f || (r == 0.5f && (q & 1u))) ? 1u : 0u;
        return (ushort)(s | q);
    }
    a += 0xfffu + ((a >> 13) & 1u);
    return (ushort)(s | ((a >> 13) - (112u << 10)));
}
"#;

/// The reference loop's C text: `kernel.source` with every 16-bit array reference `A[..]..[..]`
/// (a whole identifier followed by its subscripts) wrapped in its widening call. The arrays are
/// only read (`lower::half`), so every reference is a read.
pub(super) fn reference(kernel: &Kernel) -> String {
    let mut text = kernel.source.clone();
    for s in kernel.symbols.values() {
        if let Some(f) = s.ty.widen_fn() {
            text = wrap_reads(&text, &s.name, f);
        }
    }
    text
}

/// `text` with each `name[..]...[..]` (name a whole identifier) written `f(name[..]...[..])`.
fn wrap_reads(text: &str, name: &str, f: &str) -> String {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut i = 0;
    while let Some(p) = text[i..].find(name).map(|p| p + i) {
        let end = p + name.len();
        i = end;
        if (p > 0 && ident(b[p - 1])) || end >= b.len() || ident(b[end]) {
            continue;
        }
        let mut q = end;
        while q < b.len() && b[q].is_ascii_whitespace() {
            q += 1;
        }
        let mut close = None;
        while q < b.len() && b[q] == b'[' {
            let mut depth = 0;
            let mut r = q;
            while r < b.len() {
                match b[r] {
                    b'[' => depth += 1,
                    b']' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                r += 1;
            }
            if r >= b.len() {
                break;
            }
            close = Some(r + 1);
            q = r + 1;
            while q < b.len() && b[q].is_ascii_whitespace() && b.get(q + 1) == Some(&b'[') {
                q += 1;
            }
        }
        if let Some(c) = close {
            out.push_str(&text[at..p]);
            out.push_str(f);
            out.push('(');
            out.push_str(&text[p..c]);
            out.push(')');
            at = c;
            i = c;
        }
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::wrap_reads;

    #[test]
    fn wraps_whole_references_only() {
        assert_eq!(
            wrap_reads(
                "s += (float)A[i*k+l] * AB[l] + A [i][B[j]];",
                "A",
                "orcl_h2f"
            ),
            "s += (float)orcl_h2f(A[i*k+l]) * AB[l] + orcl_h2f(A [i][B[j]]);"
        );
        assert_eq!(wrap_reads("xA[1] + A_2[0]", "A", "f"), "xA[1] + A_2[0]");
    }
}
