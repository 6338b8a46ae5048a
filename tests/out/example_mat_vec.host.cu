/* ---- host code ---- */
/* orcl: CUDA kernels and host code for the tuned loop of MatVec() (examples/matVec.c:11).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] M=60 N=50: WI=16 WG=4 CB=False IT=1
 * Returns 0 on success; non-zero if CUDA fails (the caller then runs the original loop). */
extern "C" __global__ void orcl_MatVec_region0_k0(const int m, const int n, const double *A, const double *x, double *y)
{
    /* iterations of `for (i = 0; i <= m - 1; i++)` */
    const long orcl_trip = (m - 1) >= 0 ? (long)(m - 1) + 1 : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)orcl_k;
        double t = 0.0;
        #pragma unroll 4
        for (int j = 0; j <= n - 1; j++) {
            t += A[i * n + j] * x[j];
        }
        y[i] = t;
    }
}

static int orcl_MatVec_region0(int m, int n, const double *A, const double *x, double *y)
{
    /* threads per block; blocks (0 = one thread per iteration) */
    static const unsigned int orcl_block[1] = { 16 };
    static const unsigned long long orcl_threads[1] = { 64 };
    /* multi-dimensional grid: {dimensions, then per dimension (x, y, z): nest loop, iterations and threads per block} */
    static const long orcl_griddims[1][10] = { {0, 0, 1, 1, 0, 1, 1, 0, 1, 1} };
    static const int orcl_device[1] = { 0 };
    int orcl_v = 0;

    const long orcl_trip = (m - 1) >= 0 ? (long)(m - 1) + 1 : 0;
    if (orcl_trip <= 0) return 0;
    if (cudaSetDevice(orcl_device[orcl_v]) != cudaSuccess) return -1;
    const unsigned long long orcl_grid_ll = orcl_threads[orcl_v] ? orcl_threads[orcl_v] / orcl_block[orcl_v] : ((unsigned long long)orcl_trip + orcl_block[orcl_v] - 1) / orcl_block[orcl_v];
    const unsigned int orcl_grid = orcl_grid_ll > 0 ? (unsigned int)orcl_grid_ll : 1u;
    const long orcl_nest_trip[] = { (m - 1) >= 0 ? (long)(m - 1) + 1 : 0 };
    dim3 orcl_gdim(orcl_grid, 1, 1), orcl_bdim(orcl_block[orcl_v], 1, 1);
    (void)orcl_nest_trip;
    for (long orcl_d = 0; orcl_d < orcl_griddims[orcl_v][0]; orcl_d++) {
        long orcl_t = orcl_nest_trip[orcl_griddims[orcl_v][1 + 3 * orcl_d]], orcl_per = orcl_griddims[orcl_v][2 + 3 * orcl_d];
        unsigned int orcl_n = (unsigned int)(orcl_t > 0 ? (orcl_t + orcl_per - 1) / orcl_per : 1);
        unsigned int orcl_b = (unsigned int)orcl_griddims[orcl_v][3 + 3 * orcl_d];
        if (orcl_d == 0) { orcl_gdim.x = orcl_n; orcl_bdim.x = orcl_b; } else if (orcl_d == 1) { orcl_gdim.y = orcl_n; orcl_bdim.y = orcl_b; } else { orcl_gdim.z = orcl_n; orcl_bdim.z = orcl_b; }
    }
    double *orcl_d_A = NULL;
    double *orcl_d_x = NULL;
    double *orcl_d_y = NULL;
    int orcl_rc = -1;
    cudaError_t orcl_err = cudaSuccess;
    orcl_err = cudaMalloc((void **)&orcl_d_A, ((size_t)(m*n) > 0 ? (size_t)(m*n) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(m*n) > 0) orcl_err = cudaMemcpy(orcl_d_A, A, (size_t)(m*n) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMalloc((void **)&orcl_d_x, ((size_t)(n) > 0 ? (size_t)(n) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(n) > 0) orcl_err = cudaMemcpy(orcl_d_x, x, (size_t)(n) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMalloc((void **)&orcl_d_y, ((size_t)(m) > 0 ? (size_t)(m) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(m) > 0) orcl_err = cudaMemcpy(orcl_d_y, y, (size_t)(m) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    switch (orcl_v) {
    case 0:
        orcl_MatVec_region0_k0<<<orcl_gdim, orcl_bdim>>>(m, n, orcl_d_A, orcl_d_x, orcl_d_y);
        break;
    }
    orcl_err = cudaGetLastError();
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(m) > 0) orcl_err = cudaMemcpy(y, orcl_d_y, (size_t)(m) * sizeof(double), cudaMemcpyDeviceToHost);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_rc = cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
orcl_done:
    if (orcl_d_A) cudaFree(orcl_d_A);
    if (orcl_d_x) cudaFree(orcl_d_x);
    if (orcl_d_y) cudaFree(orcl_d_y);
    return orcl_rc;
}
