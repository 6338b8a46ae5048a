/* configuration: WI=32 UI=4 */
/* input: M=300 N=200 */
/* grid: one thread per iteration, 32 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
extern "C" __global__ void orcl_kernel(const int m, const int n, float *y, const float *A, const float *x)
{
    /* iterations of `for (i = 0; i <= m - 1; i++)` */
    const long orcl_trip = (m - 1) >= 0 ? (long)(m - 1) + 1 : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)orcl_k;
        #pragma unroll 4
        for (int j = 0; j <= n - 1; j++) {
            y[i] += A[i * n + j] * x[j];
        }
    }
}
