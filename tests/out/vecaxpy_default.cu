/* configuration: WI=32 WG=4 CB=True SH=True UI=1 VH=0 CL='' */
/* input: N=100000 */
/* grid: 4 blocks, 32 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
#define ORCL_TILE 32
extern "C" __global__ void __launch_bounds__(32) orcl_kernel(const int n, double *y, const double a, const double *x)
{
    /* iterations of `for (i = 0; i <= n - 1; i++)` */
    const long orcl_trip = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
    __shared__ double orcl_tile_x[ORCL_TILE];
    /* each work-group stages ORCL_TILE consecutive iterations' inputs through local memory */
    for (long orcl_base = (long)blockIdx.x * ORCL_TILE; orcl_base < orcl_trip; orcl_base += ((long)gridDim.x * blockDim.x)) {
        const long orcl_k = orcl_base + threadIdx.x;
        if (orcl_k < orcl_trip) {
            const int i = (int)orcl_k;
            orcl_tile_x[threadIdx.x] = x[i];
        }
        __syncthreads();
        if (orcl_k < orcl_trip) {
            const int i = (int)orcl_k;
            y[i] += a * orcl_tile_x[threadIdx.x];
        }
        __syncthreads();
    }
}
