/* configuration: WI=8 TI=4 TJ=16 */
/* input: NX=13 NY=21 T=5 */
/* grid: one thread per iteration, 8 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
extern "C" __global__ void orcl_kernel_0(const int ny, double *ey, const double *_fict_, const int t)
{
    /* iterations of `for (j = 0; j < ny; j++)` */
    const long orcl_trip = (ny) > 0 ? (long)(ny) : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int j = (int)orcl_k;
        ey[j] = _fict_[t];
    }
}
extern "C" __global__ void orcl_kernel_1(const int nx, const int ny, double *__restrict__ ey, const double *__restrict__ hz)
{
    const long orcl_g0 = (long)blockIdx.x;
    const long orcl_l0 = (long)threadIdx.x;
    const long orcl_base0 = orcl_g0 * 16;
    const long orcl_g1 = (long)blockIdx.y;
    const long orcl_l1 = (long)threadIdx.y;
    const long orcl_base1 = (long)(1) + orcl_g1 * 4;
    #pragma unroll
    for (long orcl_r1 = 0; orcl_r1 < 1; orcl_r1 += 1) {
        const long orcl_t1 = orcl_l1 + orcl_r1 * 4;
        #pragma unroll
        for (long orcl_r0 = 0; orcl_r0 < 1; orcl_r0 += 1) {
            const long orcl_t0 = orcl_l0 + orcl_r0 * 16;
            const int j = (int)(orcl_base0 + orcl_t0);
            const int i = (int)(orcl_base1 + orcl_t1);
            if (j < ny && i < nx) {
                ey[i * ny + j] = ey[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
            }
        }
    }
}
extern "C" __global__ void orcl_kernel_2(const int nx, const int ny, double *__restrict__ ex, const double *__restrict__ hz)
{
    const long orcl_g0 = (long)blockIdx.x;
    const long orcl_l0 = (long)threadIdx.x;
    const long orcl_base0 = (long)(1) + orcl_g0 * 16;
    const long orcl_g1 = (long)blockIdx.y;
    const long orcl_l1 = (long)threadIdx.y;
    const long orcl_base1 = orcl_g1 * 4;
    #pragma unroll
    for (long orcl_r1 = 0; orcl_r1 < 1; orcl_r1 += 1) {
        const long orcl_t1 = orcl_l1 + orcl_r1 * 4;
        #pragma unroll
        for (long orcl_r0 = 0; orcl_r0 < 1; orcl_r0 += 1) {
            const long orcl_t0 = orcl_l0 + orcl_r0 * 16;
            const int j = (int)(orcl_base0 + orcl_t0);
            const int i = (int)(orcl_base1 + orcl_t1);
            if (j < ny && i < nx) {
                ex[i * ny + j] = ex[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
            }
        }
    }
}
extern "C" __global__ void orcl_kernel_3(const int nx, const int ny, double *__restrict__ hz, const double *__restrict__ ex, const double *__restrict__ ey)
{
    const long orcl_g0 = (long)blockIdx.x;
    const long orcl_l0 = (long)threadIdx.x;
    const long orcl_base0 = orcl_g0 * 16;
    const long orcl_g1 = (long)blockIdx.y;
    const long orcl_l1 = (long)threadIdx.y;
    const long orcl_base1 = orcl_g1 * 4;
    #pragma unroll
    for (long orcl_r1 = 0; orcl_r1 < 1; orcl_r1 += 1) {
        const long orcl_t1 = orcl_l1 + orcl_r1 * 4;
        #pragma unroll
        for (long orcl_r0 = 0; orcl_r0 < 1; orcl_r0 += 1) {
            const long orcl_t0 = orcl_l0 + orcl_r0 * 16;
            const int j = (int)(orcl_base0 + orcl_t0);
            const int i = (int)(orcl_base1 + orcl_t1);
            if (j < ny - 1 && i < nx - 1) {
                hz[i * ny + j] = hz[i * ny + j] - 0.7 * (ex[i * ny + (j + 1)] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
            }
        }
    }
}
