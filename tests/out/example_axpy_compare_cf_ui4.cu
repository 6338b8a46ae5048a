/* configuration: WI=64 WG=8 UI=4 CF='-use_fast_math -Xptxas -dlcm=cg' */
/* input: N=100000 */
/* grid: 8 blocks, 64 threads per block; NVRTC options and launch tokens: "--use_fast_math -orcl-dlcm=cg -orcl-cache=l1" */
/* ---- CUDA kernel ---- */
extern "C" __global__ void __launch_bounds__(64) orcl_kernel(const int n, double *y, const double a, const double *x)
{
    /* iterations of `for (i = 0; i <= n - 1; i++)` */
    const long orcl_trip = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
    #pragma unroll 4
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)orcl_k;
        y[i] = y[i] + a * x[i];
    }
}
