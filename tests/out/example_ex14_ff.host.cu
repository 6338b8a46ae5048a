/* ---- host code ---- */
/* orcl: CUDA kernels and host code for the tuned loop of FormFunction() (examples/ex14FF.c:17).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] MX=8 MY=8 MZ=8: WI=32 WG=8 UI=1 CL=''
 * Returns 0 on success; non-zero if CUDA fails (the caller then runs the original loop). */
extern "C" __global__ void orcl_FormFunction_region0_k0(const int mx, const int my, const int mz, double *f, const double *x, const double hyhzdhx, const double hxhzdhy, const double hxhydhz, const double sc)
{
    /* iterations of `for (i = 0; i <= mx * my * mz - 1; i++)` */
    const long orcl_trip = (mx * my * mz - 1) >= 0 ? (long)(mx * my * mz - 1) + 1 : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)orcl_k;
        int xi = i % mx;
        int yj = i / mx % my;
        int zk = i / (mx * my);
        if (xi == 0 || yj == 0 || zk == 0 || xi == mx - 1 || yj == my - 1 || zk == mz - 1) {
            f[i] = x[i];
        } else {
            double u = x[i];
            f[i] = (2.0 * u - x[i - 1] - x[i + 1]) * hyhzdhx + (2.0 * u - x[i - mx] - x[i + mx]) * hxhzdhy + (2.0 * u - x[i - mx * my] - x[i + mx * my]) * hxhydhz - sc * exp(u);
        }
    }
}

static int orcl_FormFunction_region0(int mx, int my, int mz, double *f, const double *x, double hyhzdhx, double hxhzdhy, double hxhydhz, double sc)
{
    /* threads per block; blocks (0 = one thread per iteration) */
    static const unsigned int orcl_block[1] = { 32 };
    static const unsigned long long orcl_threads[1] = { 256 };
    /* multi-dimensional grid: {dimensions, then per dimension (x, y, z): nest loop, iterations and threads per block} */
    static const long orcl_griddims[1][10] = { {0, 0, 1, 1, 0, 1, 1, 0, 1, 1} };
    static const int orcl_device[1] = { 0 };
    int orcl_v = 0;

    const long orcl_trip = (mx * my * mz - 1) >= 0 ? (long)(mx * my * mz - 1) + 1 : 0;
    if (orcl_trip <= 0) return 0;
    if (cudaSetDevice(orcl_device[orcl_v]) != cudaSuccess) return -1;
    const unsigned long long orcl_grid_ll = orcl_threads[orcl_v] ? orcl_threads[orcl_v] / orcl_block[orcl_v] : ((unsigned long long)orcl_trip + orcl_block[orcl_v] - 1) / orcl_block[orcl_v];
    const unsigned int orcl_grid = orcl_grid_ll > 0 ? (unsigned int)orcl_grid_ll : 1u;
    const long orcl_nest_trip[] = { (mx * my * mz - 1) >= 0 ? (long)(mx * my * mz - 1) + 1 : 0 };
    dim3 orcl_gdim(orcl_grid, 1, 1), orcl_bdim(orcl_block[orcl_v], 1, 1);
    (void)orcl_nest_trip;
    for (long orcl_d = 0; orcl_d < orcl_griddims[orcl_v][0]; orcl_d++) {
        long orcl_t = orcl_nest_trip[orcl_griddims[orcl_v][1 + 3 * orcl_d]], orcl_per = orcl_griddims[orcl_v][2 + 3 * orcl_d];
        unsigned int orcl_n = (unsigned int)(orcl_t > 0 ? (orcl_t + orcl_per - 1) / orcl_per : 1);
        unsigned int orcl_b = (unsigned int)orcl_griddims[orcl_v][3 + 3 * orcl_d];
        if (orcl_d == 0) { orcl_gdim.x = orcl_n; orcl_bdim.x = orcl_b; } else if (orcl_d == 1) { orcl_gdim.y = orcl_n; orcl_bdim.y = orcl_b; } else { orcl_gdim.z = orcl_n; orcl_bdim.z = orcl_b; }
    }
    double *orcl_d_f = NULL;
    double *orcl_d_x = NULL;
    int orcl_rc = -1;
    cudaError_t orcl_err = cudaSuccess;
    orcl_err = cudaMalloc((void **)&orcl_d_f, ((size_t)(mx*my*mz) > 0 ? (size_t)(mx*my*mz) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(mx*my*mz) > 0) orcl_err = cudaMemcpy(orcl_d_f, f, (size_t)(mx*my*mz) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMalloc((void **)&orcl_d_x, ((size_t)(mx*my*mz) > 0 ? (size_t)(mx*my*mz) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(mx*my*mz) > 0) orcl_err = cudaMemcpy(orcl_d_x, x, (size_t)(mx*my*mz) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    switch (orcl_v) {
    case 0:
        orcl_FormFunction_region0_k0<<<orcl_gdim, orcl_bdim>>>(mx, my, mz, orcl_d_f, orcl_d_x, hyhzdhx, hxhzdhy, hxhydhz, sc);
        break;
    }
    orcl_err = cudaGetLastError();
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(mx*my*mz) > 0) orcl_err = cudaMemcpy(f, orcl_d_f, (size_t)(mx*my*mz) * sizeof(double), cudaMemcpyDeviceToHost);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_rc = cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
orcl_done:
    if (orcl_d_f) cudaFree(orcl_d_f);
    if (orcl_d_x) cudaFree(orcl_d_x);
    return orcl_rc;
}
