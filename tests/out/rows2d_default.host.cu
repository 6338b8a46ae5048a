/* ---- host code ---- */
/* orcl: CUDA kernels and host code for the tuned loop of Rows() (tests/inputs/ok/rows2d.c:9).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] M=50 N=17: WI=8 WG=2
 * Returns 0 on success; non-zero if CUDA fails (the caller then runs the original loop). */
extern "C" __global__ void orcl_Rows_region0_k0(const int m, double *C, const int n, const double *A, const long orcl_A_dim1, const int nc, double *B, const long orcl_B_dim1)
{
    /* iterations of `for (i = 2; i <= m - 1; i++)` */
    const long orcl_trip = (m - 1) >= (2) ? ((long)(m - 1) - (long)(2)) / 1 + 1 : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)((2) + orcl_k);
        C[i * n] = A[(i - 2) * orcl_A_dim1];
        for (int j = 1; j <= n - 1; j++) {
            C[i * n + j] = C[i * n + (j - 1)] + A[(i - 2) * orcl_A_dim1 + j] * A[i * orcl_A_dim1 + j];
        }
        for (int j = 0; j < nc; j++) {
            B[i * orcl_B_dim1 + j] = 0.5 * B[i * orcl_B_dim1 + j] + C[i * n + j % n];
        }
    }
}

static int orcl_Rows_region0(int m, double *C, int n, const double *A, long orcl_A_dim1, int nc, double *B, long orcl_B_dim1)
{
    /* threads per block; blocks (0 = one thread per iteration) */
    static const unsigned int orcl_block[1] = { 8 };
    static const unsigned long long orcl_threads[1] = { 16 };
    /* multi-dimensional grid: {dimensions, then per dimension (x, y, z): nest loop, iterations and threads per block} */
    static const long orcl_griddims[1][10] = { {0, 0, 1, 1, 0, 1, 1, 0, 1, 1} };
    static const int orcl_device[1] = { 0 };
    int orcl_v = 0;

    const long orcl_trip = (m - 1) >= (2) ? ((long)(m - 1) - (long)(2)) / 1 + 1 : 0;
    if (orcl_trip <= 0) return 0;
    if (cudaSetDevice(orcl_device[orcl_v]) != cudaSuccess) return -1;
    const unsigned long long orcl_grid_ll = orcl_threads[orcl_v] ? orcl_threads[orcl_v] / orcl_block[orcl_v] : ((unsigned long long)orcl_trip + orcl_block[orcl_v] - 1) / orcl_block[orcl_v];
    const unsigned int orcl_grid = orcl_grid_ll > 0 ? (unsigned int)orcl_grid_ll : 1u;
    const long orcl_nest_trip[] = { (m - 1) >= (2) ? ((long)(m - 1) - (long)(2)) / 1 + 1 : 0 };
    dim3 orcl_gdim(orcl_grid, 1, 1), orcl_bdim(orcl_block[orcl_v], 1, 1);
    (void)orcl_nest_trip;
    for (long orcl_d = 0; orcl_d < orcl_griddims[orcl_v][0]; orcl_d++) {
        long orcl_t = orcl_nest_trip[orcl_griddims[orcl_v][1 + 3 * orcl_d]], orcl_per = orcl_griddims[orcl_v][2 + 3 * orcl_d];
        unsigned int orcl_n = (unsigned int)(orcl_t > 0 ? (orcl_t + orcl_per - 1) / orcl_per : 1);
        unsigned int orcl_b = (unsigned int)orcl_griddims[orcl_v][3 + 3 * orcl_d];
        if (orcl_d == 0) { orcl_gdim.x = orcl_n; orcl_bdim.x = orcl_b; } else if (orcl_d == 1) { orcl_gdim.y = orcl_n; orcl_bdim.y = orcl_b; } else { orcl_gdim.z = orcl_n; orcl_bdim.z = orcl_b; }
    }
    double *orcl_d_C = NULL;
    double *orcl_d_A = NULL;
    double *orcl_d_B = NULL;
    int orcl_rc = -1;
    cudaError_t orcl_err = cudaSuccess;
    orcl_err = cudaMalloc((void **)&orcl_d_C, ((size_t)((long)m * n) > 0 ? (size_t)((long)m * n) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)((long)m * n) > 0) orcl_err = cudaMemcpy(orcl_d_C, C, (size_t)((long)m * n) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMalloc((void **)&orcl_d_A, ((size_t)((long)m * orcl_A_dim1) > 0 ? (size_t)((long)m * orcl_A_dim1) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)((long)m * orcl_A_dim1) > 0) orcl_err = cudaMemcpy(orcl_d_A, A, (size_t)((long)m * orcl_A_dim1) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMalloc((void **)&orcl_d_B, ((size_t)((long)m * orcl_B_dim1) > 0 ? (size_t)((long)m * orcl_B_dim1) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)((long)m * orcl_B_dim1) > 0) orcl_err = cudaMemcpy(orcl_d_B, B, (size_t)((long)m * orcl_B_dim1) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    switch (orcl_v) {
    case 0:
        orcl_Rows_region0_k0<<<orcl_gdim, orcl_bdim>>>(m, orcl_d_C, n, orcl_d_A, orcl_A_dim1, nc, orcl_d_B, orcl_B_dim1);
        break;
    }
    orcl_err = cudaGetLastError();
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)((long)m * n) > 0) orcl_err = cudaMemcpy(C, orcl_d_C, (size_t)((long)m * n) * sizeof(double), cudaMemcpyDeviceToHost);
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)((long)m * orcl_B_dim1) > 0) orcl_err = cudaMemcpy(B, orcl_d_B, (size_t)((long)m * orcl_B_dim1) * sizeof(double), cudaMemcpyDeviceToHost);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_rc = cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
orcl_done:
    if (orcl_d_C) cudaFree(orcl_d_C);
    if (orcl_d_A) cudaFree(orcl_d_A);
    if (orcl_d_B) cudaFree(orcl_d_B);
    return orcl_rc;
}
