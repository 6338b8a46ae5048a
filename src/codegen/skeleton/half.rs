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
/* Branch-free, so GCC vectorizes the reference loop across j (5x faster than a branchy form at
 * 4096^3, where the reference took over a minute): the magnitude's bits shifted into a float's
 * exponent and mantissa, times 2^112 (rebias 15 -> 127, exact, subnormal halves included);
 * exponent 31 (inf, NaN) forced to 255 by a mask. */
static float orcl_h2f(ushort h) {
    uint32_t a = (uint32_t)(h & 0x7fffu) << 13, s = (uint32_t)(h & 0x8000u) << 16;
    uint32_t f = orcl_f_bits(orcl_bits_f(a) * 0x1p112f);
    uint32_t big = 0u - (uint32_t)((h & 0x7c00u) == 0x7c00u);
    return orcl_bits_f(s | (f & ~big) | ((0x7f800000u | a) & big));
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

    /// `orcl_h2f` (branch-free) against the C compiler's own `_Float16` widening, on all 65,536
    /// patterns (NaNs compared as NaNs); `orcl_f2h` round-trips every non-NaN pattern. Skipped
    /// (with a line) where `cc` has no `_Float16`.
    #[test]
    fn h2f_matches_the_compilers_float16_on_every_pattern() {
        let dir = std::env::temp_dir().join(format!("orcl-h2f-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let main = r#"
int main(void) {
    unsigned bad = 0;
    for (uint32_t h = 0; h < 65536u; h++) {
        _Float16 x; ushort u = (ushort)h; memcpy(&x, &u, 2);
        float want = (float)x, got = orcl_h2f(u);
        if (want != want ? got == got : orcl_f_bits(want) != orcl_f_bits(got)) bad++;
        if (want == want && orcl_f2h(got) != u) bad++;
    }
    printf("%u\n", bad);
    return 0;
}
"#;
        let src = format!(
            "#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n{}{}",
            super::C_HELPERS,
            main
        );
        std::fs::write(dir.join("h.c"), src).unwrap();
        let built = std::process::Command::new("cc")
            .args(["-O2", "-o", "h", "h.c"])
            .current_dir(&dir)
            .output()
            .unwrap();
        if !built.status.success() {
            eprintln!(
                "skipped: cc has no _Float16: {}",
                String::from_utf8_lossy(&built.stderr)
            );
            return;
        }
        let out = std::process::Command::new(dir.join("h")).output().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "0");
    }
}
