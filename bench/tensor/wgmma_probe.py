#!/usr/bin/env python3
"""Writes wgmma_probe.cu: a hand-written sm_90a GEMM with `wgmma.mma_async` (issue 23, phase 1
step 2) to pin the shared-memory layouts and matrix descriptors before orcl emits them.

C[M][N] = alpha * A[M][K] * B[K][N] + beta * C (row-major NN, FP16 or BF16 operands, FP32
accumulation). A block of WGM warpgroups (128 threads each) computes a (64*WGM) x BN tile; each
warpgroup 64 x BN with `wgmma.mma_async.sync.aligned.m64n{BN}k16.f32.{f16,bf16}`, A and B read
from shared memory through descriptors (PTX ISA 8.x, section 9.7.15.5.1, 128-byte swizzle):
  A (K-major): row r of the 64-wide k-slab is 128 bytes at r*128, its 16-byte chunk c stored at
    chunk c ^ (r % 8); descriptor start + 32 bytes per k16 step, SBO 1024 (8-row groups).
  B (row-major = N-major, `imm-trans-b` 1): 64-column blocks of 64 k-rows x 128 bytes, chunk c of
    k-row r at c ^ (r % 8); LBO = the 64-column block stride (64*128 bytes), SBO 1024 (8 k-rows);
    start + 2048 bytes per k16 step.
Staged by 16-byte cp.async (ST stages, lookahead ST-1 with wgmma.wait_group 0 per slab, or ST-2
with wait_group 1), fence.proxy.async before the slab's barrier. No edges: M % (64 WGM), N % BN,
K % 64 must be 0.
  python3 wgmma_probe.py > p.cu && nvcc -O3 -std=c++17 -arch=sm_90a -o p p.cu -Xptxas -v && ./p
"""
import sys

CONFIGS = [(2, 128, 4, 0), (2, 128, 4, 1), (2, 256, 3, 0), (2, 256, 4, 1), (2, 256, 4, 0), (1, 256, 4, 1)]


def wgmma(bn, ty):
    n = bn // 2
    regs = ", ".join(f"%{i}" for i in range(n))
    outs = ", ".join(f'"+f"(d[{i}])' for i in range(n))
    return f'''
__device__ __forceinline__ void wgmma_{ty}_{bn}(float (&d)[{n}], unsigned long long da, unsigned long long db) {{
    asm volatile("{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{n+2}, 0;\\n"
                 "wgmma.mma_async.sync.aligned.m64n{bn}k16.f32.{ty}.{ty} {{{regs}}}, %{n}, %{n+1}, p, 1, 1, 0, 1;\\n}}\\n"
                 : {outs}
                 : "l"(da), "l"(db), "r"(1));
}}
'''


HEAD = r'''
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
typedef unsigned short u16;
__device__ __forceinline__ void cp16(unsigned s, const void *g) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(s), "l"(g));
}
__device__ __forceinline__ unsigned long long desc(unsigned addr, unsigned lbo, unsigned sbo) {
    return (unsigned long long)((addr & 0x3FFFF) >> 4) | ((unsigned long long)(lbo >> 4) << 16)
         | ((unsigned long long)(sbo >> 4) << 32) | (1ull << 62);
}
'''

KERNEL = r'''
template <int WGM, int BN, int ST, int WGW, int BF>
__global__ void __launch_bounds__(128 * WGM) gemm(int M, int N, int K, const u16 *A, const u16 *B, float *C, float alpha, float beta, unsigned lboB, unsigned sboB) {
    extern __shared__ unsigned char smem_raw[];
    constexpr int BM = 64 * WGM, NT = 128 * WGM, L = WGW ? ST - 2 : ST - 1;
    constexpr unsigned AB = BM * 128, BB = BN * 128, STAGE = AB + BB;
    unsigned base = (unsigned)__cvta_generic_to_shared(smem_raw);
    base = (base + 1023) & ~1023u;
    const int tid = threadIdx.x, wg = tid / 128;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    const int nk = K / 64;
    auto load = [&](int slab) {
        if (slab < nk) {
            unsigned sa = base + (slab % ST) * STAGE, sb = sa + AB;
            int k0 = slab * 64;
#pragma unroll
            for (int c = tid; c < BM * 8; c += NT) {
                int r = c >> 3, ch = c & 7;
                cp16(sa + r * 128 + ((ch ^ (r & 7)) << 4), A + (size_t)(m0 + r) * K + k0 + ch * 8);
            }
#pragma unroll
            for (int c = tid; c < 64 * (BN / 8); c += NT) {
                int kr = c / (BN / 8), cn = c % (BN / 8), nb = cn >> 3, ch = cn & 7;
                cp16(sb + nb * 8192 + kr * 128 + ((ch ^ (kr & 7)) << 4), B + (size_t)(k0 + kr) * N + n0 + cn * 8);
            }
        }
        asm volatile("cp.async.commit_group;\n");
    };
    float d[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; i++) d[i] = 0.f;
    for (int s = 0; s < L; s++) load(s);
    for (int s = 0; s < nk; s++) {
        asm volatile("cp.async.wait_group %0;\n" :: "n"(L - 1));
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        __syncthreads();
        load(s + L);
        unsigned sa = base + (s % ST) * STAGE, sb = sa + AB;
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int kk = 0; kk < 4; kk++) {
            unsigned long long da = desc(sa + wg * 64 * 128 + kk * 32, 16, 1024);
            unsigned long long db = desc(sb + kk * 2048, lboB, sboB);
            if (BF) WG_BF16(d, da, db); else WG_F16(d, da, db);
        }
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(WGW) : "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    const int w = (tid % 128) / 32, lane = tid % 32, g = lane / 4, q = lane % 4;
#pragma unroll
    for (int j = 0; j < BN / 8; j++)
#pragma unroll
        for (int v = 0; v < 4; v++) {
            int row = m0 + wg * 64 + w * 16 + g + 8 * (v / 2), col = n0 + 8 * j + 2 * q + (v % 2);
            float *c = C + (size_t)row * N + col;
            *c = alpha * d[4 * j + v] + beta * *c;
        }
}
'''

MAIN = r'''
static double h2d(u16 h, int bf) {
    if (bf) { unsigned u = (unsigned)h << 16; float f; memcpy(&f, &u, 4); return f; }
    int e = (h >> 10) & 31, m = h & 1023; double v = e ? (1.0 + m / 1024.0) * ldexp(1.0, e - 15) : m * ldexp(1.0, -24);
    return (h & 0x8000) ? -v : v;
}
static u16 d2h(double x, int bf) {  // exact for the small integers and [0.5, 1) grid values used here
    if (bf) { float f = (float)x; unsigned u; memcpy(&u, &f, 4); return (u16)(u >> 16); }
    if (x == 0) return 0;
    u16 s = x < 0 ? 0x8000 : 0; x = fabs(x); int e; double m = frexp(x, &e);  // x = m 2^e, m in [0.5,1)
    return s | (u16)((e - 1 + 15) << 10) | (u16)((m * 2 - 1) * 1024);
}
typedef void (*kfn)(int, int, int, const u16 *, const u16 *, float *, float, float, unsigned, unsigned);
struct Cfg { kfn f; int wgm, bn, st, wgw, bf; };
static size_t smem_of(const Cfg &c) { return (size_t)c.st * (64 * c.wgm * 128 + c.bn * 128) + 1024; }
// Runs cfg on M x N x K; exact: integer inputs in [-2, 2] checked against the CPU on every output;
// else [0.5, 1) inputs, timing (median of 20 after 3) and 64 sampled outputs within 1e-3.
static int run(const Cfg &c, int M, int N, int K, bool exact, unsigned lbo, unsigned sbo) {
    std::vector<u16> a((size_t)M * K), b((size_t)K * N);
    srand(7);
    for (auto &x : a) x = exact ? d2h((rand() % 5) - 2, c.bf) : d2h(0.5 + (rand() & 1023) / 2048.0, c.bf);
    for (auto &x : b) x = exact ? d2h((rand() % 5) - 2, c.bf) : d2h(0.5 + (rand() & 1023) / 2048.0, c.bf);
    std::vector<float> c0((size_t)M * N);
    for (auto &x : c0) x = exact ? (float)((rand() % 7) - 3) : 0.f;
    u16 *dA, *dB; float *dC;
    CK(cudaMalloc(&dA, a.size() * 2)); CK(cudaMalloc(&dB, b.size() * 2)); CK(cudaMalloc(&dC, c0.size() * 4));
    CK(cudaMemcpy(dA, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, b.data(), b.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dC, c0.data(), c0.size() * 4, cudaMemcpyHostToDevice));
    size_t sm = smem_of(c);
    CK(cudaFuncSetAttribute(c.f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm));
    dim3 grid(N / c.bn, M / (64 * c.wgm)), block(128 * c.wgm);
    float alpha = exact ? 2.f : 1.f, beta = exact ? 1.f : 0.f;
    char label[96];
    snprintf(label, sizeof label, "%s WGM=%d BN=%d ST=%d WGW=%d lbo=%u sbo=%u", c.bf ? "bf16" : "fp16", c.wgm, c.bn, c.st, c.wgw, lbo, sbo);
    int bad = 0;
    if (exact) {
        c.f<<<grid, block, sm>>>(M, N, K, dA, dB, dC, alpha, beta, lbo, sbo);
        CK(cudaDeviceSynchronize());
        std::vector<float> r(c0.size());
        CK(cudaMemcpy(r.data(), dC, r.size() * 4, cudaMemcpyDeviceToHost));
        for (int i = 0; i < M; i++) for (int j = 0; j < N; j++) {
            double s = 0;
            for (int l = 0; l < K; l++) s += h2d(a[(size_t)i * K + l], c.bf) * h2d(b[(size_t)l * N + j], c.bf);
            double want = alpha * s + beta * c0[(size_t)i * N + j];
            if (r[(size_t)i * N + j] != want && bad++ < 3) printf("  %s: C[%d][%d] = %g, want %g\n", label, i, j, r[(size_t)i * N + j], want);
        }
        printf("exact %s %dx%dx%d: %s (%d wrong)\n", label, M, N, K, bad ? "WRONG" : "ok", bad);
    } else {
        cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
        std::vector<float> ms;
        for (int r = 0; r < 23; r++) {
            cudaEventRecord(e0);
            c.f<<<grid, block, sm>>>(M, N, K, dA, dB, dC, alpha, beta, lbo, sbo);
            cudaEventRecord(e1); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
            float t; cudaEventElapsedTime(&t, e0, e1); if (r >= 3) ms.push_back(t);
        }
        std::sort(ms.begin(), ms.end());
        std::vector<float> r((size_t)M * N);
        CK(cudaMemcpy(r.data(), dC, r.size() * 4, cudaMemcpyDeviceToHost));
        double worst = 0;
        for (int s = 0; s < 64; s++) {
            int i = (s * 977) % M, j = (s * 1231 + 7) % N; double ref = 0;
            for (int l = 0; l < K; l++) ref += h2d(a[(size_t)i * K + l], c.bf) * h2d(b[(size_t)l * N + j], c.bf);
            worst = std::max(worst, fabs(r[(size_t)i * N + j] - ref) / fabs(ref));
        }
        double med = 0.5 * (ms[9] + ms[10]);
        printf("time %s %dx%dx%d: median %.4f ms %.1f TFLOP/s max rel err %.2e\n", label, M, N, K, med, 2.0 * M * N * K / (med * 1e-3) / 1e12, worst);
        bad = worst > 1e-3;
    }
    cudaFree(dA); cudaFree(dB); cudaFree(dC);
    return bad;
}
int main(int argc, char **argv) {
    int size = argc > 1 ? atoi(argv[1]) : 4096;
    Cfg cfgs[] = { CFGS };
    int n = sizeof cfgs / sizeof cfgs[0], bad = 0;
    // Layout first, on the first configuration of each type: the descriptor's B strides as derived
    // (LBO = 64-column block stride 8192, SBO = 1024), then swapped, to tell which one the hardware reads.
    for (int i = 0; i < n; i++) {
        if (cfgs[i].bn != 256 || cfgs[i].wgm != 2 || cfgs[i].st != 3) continue;
        run(cfgs[i], 256, 512, 320, true, 8192, 1024);
        run(cfgs[i], 256, 512, 320, true, 1024, 8192);
    }
    for (int i = 0; i < n; i++) bad |= run(cfgs[i], 128 * 2, 512, 192, true, 8192, 1024);
    for (int i = 0; i < n; i++) bad |= run(cfgs[i], size, size, size, false, 8192, 1024);
    return bad;
}
'''


def main():
    out = [HEAD]
    for bn in (128, 256):
        for ty in ("f16", "bf16"):
            out.append(wgmma(bn, ty))
    out.append("#define WG_F16(d, a, b) wg_f16(d, a, b)\n#define WG_BF16(d, a, b) wg_bf16(d, a, b)\n")
    # Overloads by accumulator size.
    for ty in ("f16", "bf16"):
        for bn in (128, 256):
            out.append(f"__device__ __forceinline__ void wg_{ty}(float (&d)[{bn // 2}], unsigned long long a, unsigned long long b) {{ wgmma_{ty}_{bn}(d, a, b); }}\n")
    out.append(KERNEL)
    cf = []
    for bf in (0, 1):
        for (wgm, bn, st, wgw) in CONFIGS:
            cf.append(f"{{gemm<{wgm},{bn},{st},{wgw},{bf}>, {wgm}, {bn}, {st}, {wgw}, {bf}}}")
    out.append(MAIN.replace("CFGS", ", ".join(cf)))
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
