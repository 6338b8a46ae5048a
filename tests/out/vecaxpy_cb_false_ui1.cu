/* configuration: WI=32 WG=4 CB=False SH=True UI=1 VH=0 CL='' */
/* input: N=100000 */
/* grid: 4 blocks, 32 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
extern "C" __global__ void __launch_bounds__(32) orcl_kernel(const int n, double *y, const double a, const double *x)
{
    /* iterations of `for (i = 0; i <= n - 1; i++)` */
    const long orcl_trip = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)orcl_k;
        y[i] += a * x[i];
    }
}
