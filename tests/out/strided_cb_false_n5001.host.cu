/* ---- host code ---- */
/* orcl: CUDA kernels and host code for the tuned loop of Strided() (tests/in/strided.c:7).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] N=5001: WI=32 WG=8 CB=False UI=1 CL=''
 * Returns 0 on success; non-zero if CUDA fails (the caller then runs the original loop). */
extern "C" __global__ void orcl_Strided_region0_k0(const int n, const double *x, double *y, const double a, double *z)
{
    /* iterations of `for (i = 3; i < n; i += 2)` */
    const long orcl_trip = (n) > (3) ? ((long)(n) - (long)(3) + 1) / 2 : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)((3) + orcl_k * 2);
        if (x[i] > 0.5) {
            y[i] = a * sqrt(x[i]) + pow(x[i], 2.0);
        } else {
            y[i] = fmax(a - exp(x[i]), -1.0);
            z[i] = fabs(x[i]) * (double)i;
        }
    }
}

static int orcl_Strided_region0(int n, const double *x, double *y, double a, double *z)
{
    /* threads per block; blocks (0 = one thread per iteration) */
    static const unsigned int orcl_block[1] = { 32 };
    static const unsigned long long orcl_threads[1] = { 256 };
    /* multi-dimensional grid: {dimensions, then per dimension (x, y, z): nest loop, iterations and threads per block} */
    static const long orcl_griddims[1][10] = { {0, 0, 1, 1, 0, 1, 1, 0, 1, 1} };
    static const int orcl_device[1] = { 0 };
    int v = 0;

    const long orcl_trip = (n) > (3) ? ((long)(n) - (long)(3) + 1) / 2 : 0;
    if (orcl_trip <= 0) return 0;
    if (cudaSetDevice(orcl_device[v]) != cudaSuccess) return -1;
    const unsigned long long orcl_grid_ll = orcl_threads[v] ? orcl_threads[v] / orcl_block[v] : ((unsigned long long)orcl_trip + orcl_block[v] - 1) / orcl_block[v];
    const unsigned int orcl_grid = orcl_grid_ll > 0 ? (unsigned int)orcl_grid_ll : 1u;
    const long orcl_nest_trip[] = { (n) > (3) ? ((long)(n) - (long)(3) + 1) / 2 : 0 };
    dim3 orcl_gdim(orcl_grid, 1, 1), orcl_bdim(orcl_block[v], 1, 1);
    (void)orcl_nest_trip;
    for (long d = 0; d < orcl_griddims[v][0]; d++) {
        long t = orcl_nest_trip[orcl_griddims[v][1 + 3 * d]], per = orcl_griddims[v][2 + 3 * d];
        unsigned int n = (unsigned int)(t > 0 ? (t + per - 1) / per : 1);
        unsigned int b = (unsigned int)orcl_griddims[v][3 + 3 * d];
        if (d == 0) { orcl_gdim.x = n; orcl_bdim.x = b; } else if (d == 1) { orcl_gdim.y = n; orcl_bdim.y = b; } else { orcl_gdim.z = n; orcl_bdim.z = b; }
    }
    double *orcl_d_x = NULL;
    double *orcl_d_y = NULL;
    double *orcl_d_z = NULL;
    int rc = -1;
    cudaError_t err = cudaSuccess;
    err = cudaMalloc((void **)&orcl_d_x, ((size_t)(n) > 0 ? (size_t)(n) : 1) * sizeof(double));
    if (err != cudaSuccess) goto done;
    if ((size_t)(n) > 0) err = cudaMemcpy(orcl_d_x, x, (size_t)(n) * sizeof(double), cudaMemcpyHostToDevice);
    if (err != cudaSuccess) goto done;
    err = cudaMalloc((void **)&orcl_d_y, ((size_t)(n) > 0 ? (size_t)(n) : 1) * sizeof(double));
    if (err != cudaSuccess) goto done;
    if ((size_t)(n) > 0) err = cudaMemcpy(orcl_d_y, y, (size_t)(n) * sizeof(double), cudaMemcpyHostToDevice);
    if (err != cudaSuccess) goto done;
    err = cudaMalloc((void **)&orcl_d_z, ((size_t)(n) > 0 ? (size_t)(n) : 1) * sizeof(double));
    if (err != cudaSuccess) goto done;
    if ((size_t)(n) > 0) err = cudaMemcpy(orcl_d_z, z, (size_t)(n) * sizeof(double), cudaMemcpyHostToDevice);
    if (err != cudaSuccess) goto done;
    switch (v) {
    case 0:
        orcl_Strided_region0_k0<<<orcl_gdim, orcl_bdim>>>(n, orcl_d_x, orcl_d_y, a, orcl_d_z);
        break;
    }
    err = cudaGetLastError();
    if (err != cudaSuccess) goto done;
    if ((size_t)(n) > 0) err = cudaMemcpy(y, orcl_d_y, (size_t)(n) * sizeof(double), cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) goto done;
    if ((size_t)(n) > 0) err = cudaMemcpy(z, orcl_d_z, (size_t)(n) * sizeof(double), cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) goto done;
    rc = cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
done:
    if (orcl_d_x) cudaFree(orcl_d_x);
    if (orcl_d_y) cudaFree(orcl_d_y);
    if (orcl_d_z) cudaFree(orcl_d_z);
    return rc;
}
