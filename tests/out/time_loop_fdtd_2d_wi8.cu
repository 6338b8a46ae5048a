/* configuration: WI=8 */
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
extern "C" __global__ void orcl_kernel_1(const int nx, const int ny, double *ey, const double *hz)
{
    /* iterations of `for (i = 1; i < nx; i++)` */
    const long orcl_trip = (nx) > (1) ? ((long)(nx) - (long)(1) + 0) / 1 : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)((1) + orcl_k);
        for (int j = 0; j < ny; j++) {
            ey[i * ny + j] = ey[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
        }
    }
}
extern "C" __global__ void orcl_kernel_2(const int nx, const int ny, double *ex, const double *hz)
{
    /* iterations of `for (i = 0; i < nx; i++)` */
    const long orcl_trip = (nx) > 0 ? (long)(nx) : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)orcl_k;
        for (int j = 1; j < ny; j++) {
            ex[i * ny + j] = ex[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
        }
    }
}
extern "C" __global__ void orcl_kernel_3(const int nx, const int ny, double *hz, const double *ex, const double *ey)
{
    /* iterations of `for (i = 0; i < nx - 1; i++)` */
    const long orcl_trip = (nx - 1) > 0 ? (long)(nx - 1) : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)orcl_k;
        for (int j = 0; j < ny - 1; j++) {
            hz[i * ny + j] = hz[i * ny + j] - 0.7 * (ex[i * ny + (j + 1)] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
        }
    }
}
