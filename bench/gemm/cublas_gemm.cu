// cuBLAS GEMM reference for bench/gemm.sh, measured in the same run as orcl's variants and with
// the same method as orcl's CUDA timing (CUDA events around one call, median of 20 after 3
// warm-ups; random data in [0, 1)). Row-major C = alpha*op(A)*op(B) + beta*C as the bench's C
// loop computes it, expressed to column-major cuBLAS as C^T = op(B)^T op(A)^T.
// Build and run: nvcc -O2 -o cublas_gemm cublas_gemm.cu -lcublas
//   ./cublas_gemm s|d NN|NT|TN|TT M N K   ->  one JSON line {"ms":..,"tflops":..}
// cuBLAS's default math mode: FP32 SGEMM without TF32 tensor cores (as ../shared/gpu/anchors.py,
// 50.9 TFLOP/s at 4096^3 on an H100); DGEMM uses the FP64 tensor cores cuBLAS picks by default.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cublas_v2.h>
#include <cuda_runtime.h>

template <class T> static T *rnd(size_t n) {
    std::vector<T> h(n);
    for (auto &x : h) x = (T)(rand() / (double)RAND_MAX);
    T *d;
    if (cudaMalloc(&d, n * sizeof(T)) != cudaSuccess) { fprintf(stderr, "cudaMalloc failed\n"); exit(1); }
    cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
    return d;
}

template <class T, class F> static double bench(F f) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int i = 0; i < 3; i++) f();
    cudaDeviceSynchronize();
    std::vector<float> t;
    for (int i = 0; i < 20; i++) {
        float ms;
        cudaEventRecord(a);
        f();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        cudaEventElapsedTime(&ms, a, b);
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return 0.5 * (t[9] + t[10]);
}

template <class T> static double run(cublasHandle_t h, bool ta, bool tb, int m, int n, int k) {
    T *A = rnd<T>((size_t)m * k), *B = rnd<T>((size_t)k * n), *C = rnd<T>((size_t)m * n);
    T alpha = (T)0.7, beta = (T)0.3;
    // Row-major A is m x k (or k x m when transposed): column-major it is op(A)^T with ld = its row length.
    int lda = ta ? m : k, ldb = tb ? k : n;
    cublasOperation_t oa = ta ? CUBLAS_OP_T : CUBLAS_OP_N, ob = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
    double ms = bench<T>([&] {
        if constexpr (sizeof(T) == 4)
            cublasSgemm(h, ob, oa, n, m, k, (const float *)&alpha, (const float *)B, ldb, (const float *)A, lda,
                        (const float *)&beta, (float *)C, n);
        else
            cublasDgemm(h, ob, oa, n, m, k, (const double *)&alpha, (const double *)B, ldb, (const double *)A, lda,
                        (const double *)&beta, (double *)C, n);
    });
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    return ms;
}

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: %s s|d NN|NT|TN|TT M N K\n", argv[0]); return 2; }
    bool dbl = argv[1][0] == 'd', ta = argv[2][0] == 'T', tb = argv[2][1] == 'T';
    int m = atoi(argv[3]), n = atoi(argv[4]), k = atoi(argv[5]);
    cublasHandle_t h;
    cublasCreate(&h);
    double ms = dbl ? run<double>(h, ta, tb, m, n, k) : run<float>(h, ta, tb, m, n, k);
    printf("{\"ms\":%.5f,\"tflops\":%.3f}\n", ms, 2.0 * m * n * k / (ms * 1e-3) / 1e12);
    return 0;
}
