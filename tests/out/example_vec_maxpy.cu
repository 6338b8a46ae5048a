/* configuration: WI=32 WG=8 CB=False UI=1 */
/* input: N=2000 */
/* grid: 8 blocks, 32 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
extern "C" __global__ void orcl_kernel(const int n, double *y, const double a0, const double *x0, const double a1, const double *x1, const double a2, const double *x2, const double a3, const double *x3)
{
    /* iterations of `for (i = 0; i <= n - 1; i++)` */
    const long orcl_trip = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)orcl_k;
        y[i] += a0 * x0[i] + a1 * x1[i] + a2 * x2[i] + a3 * x3[i];
    }
}
