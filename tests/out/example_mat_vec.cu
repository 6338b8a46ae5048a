/* configuration: WI=16 WG=4 CB=False IT=1 */
/* input: M=60 N=50 */
/* grid: 4 blocks, 16 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
extern "C" __global__ void orcl_kernel(const int m, const int n, const double *A, const double *x, double *y)
{
    /* iterations of `for (i = 0; i <= m - 1; i++)` */
    const long orcl_trip = (m - 1) >= 0 ? (long)(m - 1) + 1 : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)orcl_k;
        double t = 0.0;
        #pragma unroll 4
        for (int j = 0; j <= n - 1; j++) {
            t += A[i * n + j] * x[j];
        }
        y[i] = t;
    }
}
