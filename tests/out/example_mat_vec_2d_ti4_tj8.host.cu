/* ---- host code ---- */
/* orcl: CUDA kernels and host code for the tuned loop of MatVec2D() (examples/matVec_2d.c:9).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] M=37 N=29: TI=4 TJ=8 UI=4
 * Returns 0 on success; non-zero if CUDA fails (the caller then runs the original loop). */
extern "C" __global__ void orcl_MatVec2D_region0_k0(const int m, const int n, float *__restrict__ y, const float *__restrict__ A, const float *__restrict__ x)
{
    const long orcl_g1 = (long)blockIdx.y;
    const long orcl_l0 = (long)threadIdx.x;
    const long orcl_l1 = (long)threadIdx.y;
    __shared__ float orcl_part[4][8];
    const int i = (int)(orcl_g1 * 4 + orcl_l1);
    float orcl_acc = (float)0;
    if (i <= m - 1) {
        #pragma unroll 4
        for (int j = (int)orcl_l0; j <= n - 1; j += 8) {
            orcl_acc += A[i * n + j] * x[j];
        }
    }
    orcl_part[orcl_l1][orcl_l0] = orcl_acc;
    __syncthreads();
    if (orcl_l0 < 4) {
        orcl_part[orcl_l1][orcl_l0] = orcl_part[orcl_l1][orcl_l0] + orcl_part[orcl_l1][orcl_l0 + 4];
    }
    __syncthreads();
    if (orcl_l0 < 2) {
        orcl_part[orcl_l1][orcl_l0] = orcl_part[orcl_l1][orcl_l0] + orcl_part[orcl_l1][orcl_l0 + 2];
    }
    __syncthreads();
    if (orcl_l0 < 1) {
        orcl_part[orcl_l1][orcl_l0] = orcl_part[orcl_l1][orcl_l0] + orcl_part[orcl_l1][orcl_l0 + 1];
    }
    if (orcl_l0 == 0 && i <= m - 1) {
        y[i] = y[i] + (orcl_part[orcl_l1][0]);
    }
}

static int orcl_MatVec2D_region0(int m, int n, float *y, const float *A, const float *x)
{
    /* threads per block; blocks (0 = one thread per iteration) */
    static const unsigned int orcl_block[1] = { 32 };
    static const unsigned long long orcl_threads[1] = { 0 };
    /* multi-dimensional grid: {dimensions, then per dimension (x, y, z): nest loop, iterations and threads per block} */
    static const long orcl_griddims[1][10] = { {2, 0, 4611686018427387904, 8, 0, 4, 4, 0, 1, 1} };
    static const int orcl_device[1] = { 0 };
    int orcl_v = 0;

    const long orcl_trip = (m - 1) >= 0 ? (long)(m - 1) + 1 : 0;
    if (orcl_trip <= 0) return 0;
    if (cudaSetDevice(orcl_device[orcl_v]) != cudaSuccess) return -1;
    const unsigned long long orcl_grid_ll = orcl_threads[orcl_v] ? orcl_threads[orcl_v] / orcl_block[orcl_v] : ((unsigned long long)orcl_trip + orcl_block[orcl_v] - 1) / orcl_block[orcl_v];
    const unsigned int orcl_grid = orcl_grid_ll > 0 ? (unsigned int)orcl_grid_ll : 1u;
    const long orcl_nest_trip[] = { (m - 1) >= 0 ? (long)(m - 1) + 1 : 0, (n - 1) >= 0 ? (long)(n - 1) + 1 : 0 };
    dim3 orcl_gdim(orcl_grid, 1, 1), orcl_bdim(orcl_block[orcl_v], 1, 1);
    (void)orcl_nest_trip;
    for (long orcl_d = 0; orcl_d < orcl_griddims[orcl_v][0]; orcl_d++) {
        long orcl_t = orcl_nest_trip[orcl_griddims[orcl_v][1 + 3 * orcl_d]], orcl_per = orcl_griddims[orcl_v][2 + 3 * orcl_d];
        unsigned int orcl_n = (unsigned int)(orcl_t > 0 ? (orcl_t + orcl_per - 1) / orcl_per : 1);
        unsigned int orcl_b = (unsigned int)orcl_griddims[orcl_v][3 + 3 * orcl_d];
        if (orcl_d == 0) { orcl_gdim.x = orcl_n; orcl_bdim.x = orcl_b; } else if (orcl_d == 1) { orcl_gdim.y = orcl_n; orcl_bdim.y = orcl_b; } else { orcl_gdim.z = orcl_n; orcl_bdim.z = orcl_b; }
    }
    float *orcl_d_y = NULL;
    float *orcl_d_A = NULL;
    float *orcl_d_x = NULL;
    int orcl_rc = -1;
    cudaError_t orcl_err = cudaSuccess;
    orcl_err = cudaMalloc((void **)&orcl_d_y, ((size_t)(m) > 0 ? (size_t)(m) : 1) * sizeof(float));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(m) > 0) orcl_err = cudaMemcpy(orcl_d_y, y, (size_t)(m) * sizeof(float), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMalloc((void **)&orcl_d_A, ((size_t)(m*n) > 0 ? (size_t)(m*n) : 1) * sizeof(float));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(m*n) > 0) orcl_err = cudaMemcpy(orcl_d_A, A, (size_t)(m*n) * sizeof(float), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMalloc((void **)&orcl_d_x, ((size_t)(n) > 0 ? (size_t)(n) : 1) * sizeof(float));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(n) > 0) orcl_err = cudaMemcpy(orcl_d_x, x, (size_t)(n) * sizeof(float), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    switch (orcl_v) {
    case 0:
        orcl_MatVec2D_region0_k0<<<orcl_gdim, orcl_bdim>>>(m, n, orcl_d_y, orcl_d_A, orcl_d_x);
        break;
    }
    orcl_err = cudaGetLastError();
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(m) > 0) orcl_err = cudaMemcpy(y, orcl_d_y, (size_t)(m) * sizeof(float), cudaMemcpyDeviceToHost);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_rc = cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
orcl_done:
    if (orcl_d_y) cudaFree(orcl_d_y);
    if (orcl_d_A) cudaFree(orcl_d_A);
    if (orcl_d_x) cudaFree(orcl_d_x);
    return orcl_rc;
}
