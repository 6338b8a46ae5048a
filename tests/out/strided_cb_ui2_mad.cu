/* configuration: WI=64 WG=16 CB=True UI=2 CL='-cl-mad-enable' */
/* input: N=1000 */
/* grid: 16 blocks, 64 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
#define ORCL_TILE 64
extern "C" __global__ void orcl_kernel(const int n, const double *x, double *y, const double a, double *z)
{
    /* iterations of `for (i = 3; i < n; i += 2)` */
    const long orcl_trip = (n) > (3) ? ((long)(n) - (long)(3) + 1) / 2 : 0;
    __shared__ double orcl_tile_x[ORCL_TILE];
    /* each work-group stages ORCL_TILE consecutive iterations' inputs through local memory */
    #pragma unroll 2
    for (long orcl_base = (long)blockIdx.x * ORCL_TILE; orcl_base < orcl_trip; orcl_base += ((long)gridDim.x * blockDim.x)) {
        const long orcl_k = orcl_base + threadIdx.x;
        if (orcl_k < orcl_trip) {
            const int i = (int)((3) + orcl_k * 2);
            orcl_tile_x[threadIdx.x] = x[i];
        }
        __syncthreads();
        if (orcl_k < orcl_trip) {
            const int i = (int)((3) + orcl_k * 2);
            if (orcl_tile_x[threadIdx.x] > 0.5) {
                y[i] = a * sqrt(orcl_tile_x[threadIdx.x]) + pow(orcl_tile_x[threadIdx.x], 2.0);
            } else {
                y[i] = fmax(a - exp(orcl_tile_x[threadIdx.x]), -1.0);
                z[i] = fabs(orcl_tile_x[threadIdx.x]) * (double)i;
            }
        }
        __syncthreads();
    }
}
