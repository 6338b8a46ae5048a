/* configuration: WI=64 WG=64 CB=True UI=4 CL='' */
/* input: N=1000000 */
/* grid: 64 blocks, 64 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
#define ORCL_TILE 64
extern "C" __global__ void orcl_kernel(const int n, double *y, const double a, const double *x)
{
    /* iterations of `for (i = 0; i <= n - 1; i++)` */
    const long orcl_trip = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
    __shared__ double orcl_tile_x[ORCL_TILE];
    /* each work-group stages ORCL_TILE consecutive iterations' inputs through local memory */
    #pragma unroll 4
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
