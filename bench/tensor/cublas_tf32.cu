// cuBLAS TF32 GEMM reference for bench/tensor.sh, measured in the same run as orcl's variants and
// with the same method as bench/gemm/cublas_gemm.cu (CUDA events around one call, median of 20
// after 3 warm-ups; random data in [0, 1)): cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32 (float
// operands rounded to TF32 on the tensor cores, FP32 accumulation), row-major
// C = alpha*op(A)*op(B) + beta*C expressed to column-major cuBLAS as C^T = op(B)^T op(A)^T.
// Build and run: nvcc -O2 -o cublas_tf32 cublas_tf32.cu -lcublas
//   ./cublas_tf32 NN|NT|TN|TT M N K [tf32|fp16|bf16]   ->  one JSON line {"ms":..,"tflops":..}
// fp16 / bf16: A and B of CUDA_R_16F / CUDA_R_16BF, C float, CUBLAS_COMPUTE_32F (HGEMM / BF16
// GEMM with FP32 accumulation, the tensor cores' mma with FP32 accumulators).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cstring>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// n random 16-bit values in [0, 1) (FP16 or BF16) on the device.
static void *rnd16(size_t n, bool bf) {
    std::vector<unsigned short> h(n);
    for (auto &x : h) {
        float f = (float)(rand() / (double)RAND_MAX);
        if (bf) { __nv_bfloat16 v = __float2bfloat16(f); memcpy(&x, &v, 2); }
        else { __half v = __float2half(f); memcpy(&x, &v, 2); }
    }
    void *d;
    if (cudaMalloc(&d, n * 2) != cudaSuccess) { fprintf(stderr, "cudaMalloc failed\n"); exit(1); }
    cudaMemcpy(d, h.data(), n * 2, cudaMemcpyHostToDevice);
    return d;
}

static float *rnd(size_t n) {
    std::vector<float> h(n);
    for (auto &x : h) x = (float)(rand() / (double)RAND_MAX);
    float *d;
    if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) { fprintf(stderr, "cudaMalloc failed\n"); exit(1); }
    cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    return d;
}

int main(int argc, char **argv) {
    if (argc != 5 && argc != 6) { fprintf(stderr, "usage: %s NN|NT|TN|TT M N K [tf32|fp16|bf16]\n", argv[0]); return 2; }
    const char *prec = argc == 6 ? argv[5] : "tf32";
    bool half = strcmp(prec, "tf32") != 0, bf = strcmp(prec, "bf16") == 0;
    cudaDataType_t ty = !half ? CUDA_R_32F : bf ? CUDA_R_16BF : CUDA_R_16F;
    cublasComputeType_t ct = half ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_32F_FAST_TF32;
    bool ta = argv[1][0] == 'T', tb = argv[1][1] == 'T';
    int m = atoi(argv[2]), n = atoi(argv[3]), k = atoi(argv[4]);
    cublasHandle_t h;
    cublasCreate(&h);
    void *A = half ? rnd16((size_t)m * k, bf) : (void *)rnd((size_t)m * k);
    void *B = half ? rnd16((size_t)k * n, bf) : (void *)rnd((size_t)k * n);
    float *C = rnd((size_t)m * n);
    float alpha = 0.7f, beta = 0.3f;
    int lda = ta ? m : k, ldb = tb ? k : n;
    cublasOperation_t oa = ta ? CUBLAS_OP_T : CUBLAS_OP_N, ob = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
    auto call = [&] {
        cublasStatus_t s = cublasGemmEx(h, ob, oa, n, m, k, &alpha, B, ty, ldb, A, ty, lda, &beta, C,
                                        CUDA_R_32F, n, ct, CUBLAS_GEMM_DEFAULT);
        if (s != CUBLAS_STATUS_SUCCESS) { fprintf(stderr, "cublasGemmEx failed: %d\n", (int)s); exit(1); }
    };
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int i = 0; i < 3; i++) call();
    cudaDeviceSynchronize();
    std::vector<float> t;
    for (int i = 0; i < 20; i++) {
        float ms;
        cudaEventRecord(a);
        call();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        cudaEventElapsedTime(&ms, a, b);
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    double ms = 0.5 * (t[9] + t[10]);
    printf("{\"ms\":%.5f,\"tflops\":%.3f}\n", ms, 2.0 * m * n * k / (ms * 1e-3) / 1e12);
    return 0;
}
