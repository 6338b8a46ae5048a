/* configuration: WI=8 WG=2 */
/* input: M=50 N=17 */
/* grid: 2 blocks, 8 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
extern "C" __global__ void orcl_kernel(const int m, double *C, const int n, const double *A, const long orcl_A_dim1, const int nc, double *B, const long orcl_B_dim1)
{
    /* iterations of `for (i = 2; i <= m - 1; i++)` */
    const long orcl_trip = (m - 1) >= (2) ? ((long)(m - 1) - (long)(2)) / 1 + 1 : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)((2) + orcl_k);
        C[i * n] = A[(i - 2) * orcl_A_dim1];
        for (int j = 1; j <= n - 1; j++) {
            C[i * n + j] = C[i * n + (j - 1)] + A[(i - 2) * orcl_A_dim1 + j] * A[i * orcl_A_dim1 + j];
        }
        for (int j = 0; j < nc; j++) {
            B[i * orcl_B_dim1 + j] = 0.5 * B[i * orcl_B_dim1 + j] + C[i * n + j % n];
        }
    }
}
