// cuBLAS reference figures on the lent GPU (same method as ../shared/gpu/anchors.py: CUDA events,
// median of 50 after 5 warm-ups, random data; bandwidth counts bytes read + written once).
// Build and run: nvcc -O2 -o cublas_ref bench/cublas_ref.cu -lcublas && ./cublas_ref
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cublas_v2.h>
#include <cuda_runtime.h>

template <class F> static double bench(F f) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int i = 0; i < 5; i++) f();
    cudaDeviceSynchronize();
    std::vector<float> t;
    for (int i = 0; i < 50; i++) {
        float ms;
        cudaEventRecord(a);
        f();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        cudaEventElapsedTime(&ms, a, b);
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return 0.5 * (t[24] + t[25]);
}

static double *rnd(size_t n) {
    std::vector<double> h(n);
    for (auto &x : h) x = rand() / (double)RAND_MAX;
    double *d;
    cudaMalloc(&d, n * sizeof(double));
    cudaMemcpy(d, h.data(), n * sizeof(double), cudaMemcpyHostToDevice);
    return d;
}

int main() {
    cublasHandle_t h;
    cublasCreate(&h);
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("{\"device\":\"%s\"", p.name);
    for (size_t n : {(size_t)1000000, (size_t)1 << 26}) {
        double *x = rnd(n), *y = rnd(n), a = 0.5, r;
        double t = bench([&] { cublasDaxpy(h, (int)n, &a, x, 1, y, 1); });
        printf(",\"daxpy_%zu\":{\"ms\":%.5f,\"GBs\":%.0f}", n, t, 24.0 * n / t / 1e6);
        cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
        double *dr;
        cudaMalloc(&dr, sizeof(double));
        t = bench([&] { cublasDdot(h, (int)n, x, 1, y, 1, dr); });
        printf(",\"ddot_%zu\":{\"ms\":%.5f,\"GBs\":%.0f}", n, t, 16.0 * n / t / 1e6);
        t = bench([&] { cublasDnrm2(h, (int)n, x, 1, dr); });
        printf(",\"dnrm2_%zu\":{\"ms\":%.5f,\"GBs\":%.0f}", n, t, 8.0 * n / t / 1e6);
        t = bench([&] { cublasDasum(h, (int)n, x, 1, dr); });
        printf(",\"dasum_%zu\":{\"ms\":%.5f,\"GBs\":%.0f}", n, t, 8.0 * n / t / 1e6);
        cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
        t = bench([&] { cublasDscal(h, (int)n, &a, x, 1); });
        printf(",\"dscal_%zu\":{\"ms\":%.5f,\"GBs\":%.0f}", n, t, 16.0 * n / t / 1e6);
        t = bench([&] { cudaMemcpy(y, x, n * 8, cudaMemcpyDeviceToDevice); });
        printf(",\"copy_%zu\":{\"ms\":%.5f,\"GBs\":%.0f}", n, t, 16.0 * n / t / 1e6);
        (void)r;
        cudaFree(x);
        cudaFree(y);
        cudaFree(dr);
    }
    for (int n : {2048, 8192}) {
        double *A = rnd((size_t)n * n), *x = rnd(n), *y = rnd(n), one = 1.0, zero = 0.0;
        // Row-major y = A x is column-major y = A^T x.
        double t = bench([&] { cublasDgemv(h, CUBLAS_OP_T, n, n, &one, A, n, x, 1, &zero, y, 1); });
        printf(",\"dgemv_%d\":{\"ms\":%.5f,\"GBs\":%.0f}", n, t, 8.0 * ((double)n * n + 2.0 * n) / t / 1e6);
        cudaFree(A);
        cudaFree(x);
        cudaFree(y);
    }
    printf("}\n");
    return 0;
}
