// Stand-alone timing of one kernel text emitted by orcl (the CUDA kernel part of `orcl emit FILE
// --backend cuda`, included with -include): 4096^3 NN, random inputs in [0.5, 1) (halves, or floats
// with -DTF32), CUDA events, median of 20 launches after 3 warm-ups; 64 sampled outputs checked
// against a double-precision CPU sum (exit 1 past 1e-3). For A/B experiments on the text itself
// (an edited copy), outside orcl's tuner; figures from it are labelled "harness" in docs/GEMM.md.
//   nvcc -O3 -arch=sm_90 -std=c++17 [-DTF32] -include kernel.cu -o h bench/tensor/harness.cu -Xptxas -v
//   ./h TI TJ BLOCKDIM_X BLOCKDIM_Y DYNAMIC_SMEM_BYTES LABEL
// (TI, TJ: the tile; the block dims and the shared-memory bytes as `orcl emit` prints them in its
// header: "dimension 0 ... N work-items per work-group", "-orcl-smem=BYTES").
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
#ifdef TF32
typedef float elt;
static double h2d(float x) { return x; }
static float rnd() { return 0.5f + (rand() & 0xffff) / 131072.0f; }
#else
typedef unsigned short elt;
static unsigned short rnd() { return 0x3800 | (rand() & 0x3ff); }
#endif
static double h2d(unsigned short h) { int e = (h >> 10) & 31, m = h & 1023; return e ? (1.0 + m / 1024.0) * ldexp(1.0, e - 15) : m * ldexp(1.0, -24); }
int main(int argc, char **argv) {
    int ti = atoi(argv[1]), tj = atoi(argv[2]), bx = atoi(argv[3]), by = atoi(argv[4]), smem = atoi(argv[5]);
    const int M = 4096, N = 4096, K = 4096;
    std::vector<elt> a((size_t)M * K), b((size_t)K * N);
    srand(1);
    for (auto &x : a) x = rnd();
    for (auto &x : b) x = rnd();
    elt *A, *B; float *C;
    CK(cudaMalloc(&A, a.size() * sizeof(elt))); CK(cudaMalloc(&B, b.size() * sizeof(elt))); CK(cudaMalloc(&C, (size_t)M * N * 4));
    CK(cudaMemcpy(A, a.data(), a.size() * sizeof(elt), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, b.data(), b.size() * sizeof(elt), cudaMemcpyHostToDevice));
    CK(cudaMemset(C, 0, (size_t)M * N * 4));
    CK(cudaFuncSetAttribute(orcl_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    dim3 grid(N / tj, M / ti), block(bx, by);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    std::vector<float> ms;
    for (int r = 0; r < 23; r++) {
        cudaEventRecord(e0);
        orcl_kernel<<<grid, block, smem>>>(M, N, K, A, B, C, 1.0f, 0.0f);
        cudaEventRecord(e1); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
        float t; cudaEventElapsedTime(&t, e0, e1); if (r >= 3) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    std::vector<float> c((size_t)M * N);
    CK(cudaMemcpy(c.data(), C, c.size() * 4, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int s = 0; s < 64; s++) {
        int i = (s * 977) % M, j = (s * 1231 + 7) % N; double ref = 0;
        for (int l = 0; l < K; l++) ref += h2d(a[(size_t)i * K + l]) * h2d(b[(size_t)l * N + j]);
        worst = std::max(worst, fabs(c[(size_t)i * N + j] - ref) / fabs(ref));
    }
    printf("%s median %.4f ms  %.1f TFLOP/s  max rel err %.2e\n", argv[6], ms[10], 2.0 * M * N * K / (ms[10] * 1e-3) / 1e12, worst);
    return worst < 1e-3 ? 0 : 1;
}
