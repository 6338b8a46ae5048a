/* configuration: WI=16 WG=4 UI=1 */
/* input: M=40 N=30 */
/* grid: 4 blocks, 16 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
extern "C" __global__ void orcl_kernel(const int m, const int n, double *B, const double *A)
{
    /* iterations of `for (i = 1; i <= m - 2; i++)` */
    const long orcl_trip = (m - 2) >= (1) ? ((long)(m - 2) - (long)(1)) / 1 + 1 : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)((1) + orcl_k);
        for (int j = 1; j <= n - 2; j++) {
            B[i * n + j] = 0.2 * (A[i * n + j] + A[(i - 1) * n + j] + A[(i + 1) * n + j] + A[i * n + (j - 1)] + A[i * n + (j + 1)]);
        }
    }
}
