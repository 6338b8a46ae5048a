/* ---- host code ---- */
/* orcl: CUDA kernels and host code for the tuned time loop of kernel_fdtd_2d() (tests/polybench/fdtd-2d.c:29).
 * The time loop `t` runs here, on the host; each step launches 4 kernel(s) in order
 * on the default stream, and the arrays stay on the device for the whole loop (one copy in, one copy out).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] NX=13 NY=21 T=5: WI=8 TI=4 TJ=16
 * Returns 0 on success; non-zero if CUDA fails (the caller then runs the original loop). */
extern "C" __global__ void orcl_kernel_fdtd_2d_region0_k0_0(const int ny, double *ey, const double *_fict_, const int t)
{
    /* iterations of `for (j = 0; j < ny; j++)` */
    const long orcl_trip = (ny) > 0 ? (long)(ny) : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int j = (int)orcl_k;
        ey[j] = _fict_[t];
    }
}
extern "C" __global__ void orcl_kernel_fdtd_2d_region0_k0_1(const int nx, const int ny, double *__restrict__ ey, const double *__restrict__ hz)
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
extern "C" __global__ void orcl_kernel_fdtd_2d_region0_k0_2(const int nx, const int ny, double *__restrict__ ex, const double *__restrict__ hz)
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
extern "C" __global__ void orcl_kernel_fdtd_2d_region0_k0_3(const int nx, const int ny, double *__restrict__ hz, const double *__restrict__ ex, const double *__restrict__ ey)
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

static int orcl_kernel_fdtd_2d_region0(int tmax, int ny, double *ey, const double *_fict_, int nx, double *hz, double *ex)
{
    /* per variant and kernel: threads per block; threads (0 = one per iteration); multi-dimensional grid
       {dimensions, then per dimension (x, y, z): nest loop, iterations and threads per block} */
    static const unsigned int orcl_block[1][4] = { { 8, 64, 64, 64 } };
    static const unsigned long long orcl_threads[1][4] = { { 0, 0, 0, 0 } };
    static const long orcl_griddims[1][4][10] = { { {0, 0, 1, 1, 0, 1, 1, 0, 1, 1}, {2, 1, 16, 16, 0, 4, 4, 0, 1, 1}, {2, 1, 16, 16, 0, 4, 4, 0, 1, 1}, {2, 1, 16, 16, 0, 4, 4, 0, 1, 1} } };
    static const int orcl_device[1] = { 0 };
    int orcl_v = 0;

    /* steps of the time loop, and each kernel's iterations (its parallel loop, its perfect nest's loops) */
    const long orcl_steps = (tmax) > 0 ? (long)(tmax) : 0;
    const long orcl_part_trip[4] = { (ny) > 0 ? (long)(ny) : 0, (nx) > (1) ? ((long)(nx) - (long)(1) + 0) / 1 : 0, (nx) > 0 ? (long)(nx) : 0, (nx - 1) > 0 ? (long)(nx - 1) : 0 };
    const long orcl_nest_trip[4][2] = { { (ny) > 0 ? (long)(ny) : 0, 0 }, { (nx) > (1) ? ((long)(nx) - (long)(1) + 0) / 1 : 0, (ny) > 0 ? (long)(ny) : 0 }, { (nx) > 0 ? (long)(nx) : 0, (ny) > (1) ? ((long)(ny) - (long)(1) + 0) / 1 : 0 }, { (nx - 1) > 0 ? (long)(nx - 1) : 0, (ny - 1) > 0 ? (long)(ny - 1) : 0 } };
    dim3 orcl_gdim[4], orcl_bdim[4];
    int orcl_step = 0;
    if (orcl_steps <= 0) return 0;
    if (cudaSetDevice(orcl_device[orcl_v]) != cudaSuccess) return -1;
    for (int orcl_q = 0; orcl_q < 4; orcl_q++) {
        const unsigned int orcl_b = orcl_block[orcl_v][orcl_q];
        const unsigned long long orcl_n = orcl_threads[orcl_v][orcl_q] ? orcl_threads[orcl_v][orcl_q] / orcl_b : ((unsigned long long)(orcl_part_trip[orcl_q] > 0 ? orcl_part_trip[orcl_q] : 0) + orcl_b - 1) / orcl_b;
        const long *orcl_gr = orcl_griddims[orcl_v][orcl_q];
        orcl_gdim[orcl_q] = dim3(orcl_n > 0 ? (unsigned int)orcl_n : 1u, 1, 1);
        orcl_bdim[orcl_q] = dim3(orcl_b, 1, 1);
        for (long orcl_d = 0; orcl_d < orcl_gr[0]; orcl_d++) {
            long orcl_t = orcl_nest_trip[orcl_q][orcl_gr[1 + 3 * orcl_d]], orcl_per = orcl_gr[2 + 3 * orcl_d];
            unsigned int orcl_g = (unsigned int)(orcl_t > 0 ? (orcl_t + orcl_per - 1) / orcl_per : 1);
            unsigned int orcl_l = (unsigned int)orcl_gr[3 + 3 * orcl_d];
            if (orcl_d == 0) { orcl_gdim[orcl_q].x = orcl_g; orcl_bdim[orcl_q].x = orcl_l; }
            else if (orcl_d == 1) { orcl_gdim[orcl_q].y = orcl_g; orcl_bdim[orcl_q].y = orcl_l; }
            else { orcl_gdim[orcl_q].z = orcl_g; orcl_bdim[orcl_q].z = orcl_l; }
        }
    }
    double *orcl_d_ey = NULL;
    double *orcl_d__fict_ = NULL;
    double *orcl_d_hz = NULL;
    double *orcl_d_ex = NULL;
    int orcl_rc = -1;
    cudaError_t orcl_err = cudaSuccess;
    orcl_err = cudaMalloc((void **)&orcl_d_ey, ((size_t)((long)nx * ny) > 0 ? (size_t)((long)nx * ny) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)((long)nx * ny) > 0) orcl_err = cudaMemcpy(orcl_d_ey, ey, (size_t)((long)nx * ny) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMalloc((void **)&orcl_d__fict_, ((size_t)(tmax) > 0 ? (size_t)(tmax) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(tmax) > 0) orcl_err = cudaMemcpy(orcl_d__fict_, _fict_, (size_t)(tmax) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMalloc((void **)&orcl_d_hz, ((size_t)((long)nx * ny) > 0 ? (size_t)((long)nx * ny) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)((long)nx * ny) > 0) orcl_err = cudaMemcpy(orcl_d_hz, hz, (size_t)((long)nx * ny) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMalloc((void **)&orcl_d_ex, ((size_t)((long)nx * ny) > 0 ? (size_t)((long)nx * ny) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)((long)nx * ny) > 0) orcl_err = cudaMemcpy(orcl_d_ex, ex, (size_t)((long)nx * ny) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    for (long orcl_s = 0; orcl_s < orcl_steps; orcl_s++) {
        orcl_step = (int)((0) + orcl_s * 1);
        switch (orcl_v) {
        case 0:
            orcl_kernel_fdtd_2d_region0_k0_0<<<orcl_gdim[0], orcl_bdim[0]>>>(ny, orcl_d_ey, orcl_d__fict_, orcl_step);
            orcl_kernel_fdtd_2d_region0_k0_1<<<orcl_gdim[1], orcl_bdim[1]>>>(nx, ny, orcl_d_ey, orcl_d_hz);
            orcl_kernel_fdtd_2d_region0_k0_2<<<orcl_gdim[2], orcl_bdim[2]>>>(nx, ny, orcl_d_ex, orcl_d_hz);
            orcl_kernel_fdtd_2d_region0_k0_3<<<orcl_gdim[3], orcl_bdim[3]>>>(nx, ny, orcl_d_hz, orcl_d_ex, orcl_d_ey);
            break;
        }
        orcl_err = cudaGetLastError();
        if (orcl_err != cudaSuccess) goto orcl_done;
    }
    if ((size_t)((long)nx * ny) > 0) orcl_err = cudaMemcpy(ey, orcl_d_ey, (size_t)((long)nx * ny) * sizeof(double), cudaMemcpyDeviceToHost);
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)((long)nx * ny) > 0) orcl_err = cudaMemcpy(hz, orcl_d_hz, (size_t)((long)nx * ny) * sizeof(double), cudaMemcpyDeviceToHost);
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)((long)nx * ny) > 0) orcl_err = cudaMemcpy(ex, orcl_d_ex, (size_t)((long)nx * ny) * sizeof(double), cudaMemcpyDeviceToHost);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_rc = cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
orcl_done:
    if (orcl_d_ey) cudaFree(orcl_d_ey);
    if (orcl_d__fict_) cudaFree(orcl_d__fict_);
    if (orcl_d_hz) cudaFree(orcl_d_hz);
    if (orcl_d_ex) cudaFree(orcl_d_ex);
    return orcl_rc;
}
