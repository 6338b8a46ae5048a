/* ---- host code ---- */
/* orcl: CUDA kernels and host code for the tuned time loop of kernel_heat_3d() (tests/polybench/heat-3d.c:24).
 * The time loop `t` runs here, on the host; each step launches 2 kernel(s) in order
 * on the default stream, and the arrays stay on the device for the whole loop (one copy in, one copy out).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] N=10 T=3: TI=4 TJ=8
 * Returns 0 on success; non-zero if CUDA fails (the caller then runs the original loop). */
extern "C" __global__ void orcl_kernel_heat_3d_region0_k0_0(const int n, double *__restrict__ B, const double *__restrict__ A)
{
    const long orcl_g0 = (long)blockIdx.x;
    const long orcl_l0 = (long)threadIdx.x;
    const long orcl_base0 = (long)(1) + orcl_g0 * 8;
    const long orcl_g1 = (long)blockIdx.y;
    const long orcl_l1 = (long)threadIdx.y;
    const long orcl_base1 = (long)(1) + orcl_g1 * 4;
    #pragma unroll
    for (long orcl_r1 = 0; orcl_r1 < 1; orcl_r1 += 1) {
        const long orcl_t1 = orcl_l1 + orcl_r1 * 4;
        #pragma unroll
        for (long orcl_r0 = 0; orcl_r0 < 1; orcl_r0 += 1) {
            const long orcl_t0 = orcl_l0 + orcl_r0 * 8;
            const int j = (int)(orcl_base0 + orcl_t0);
            const int i = (int)(orcl_base1 + orcl_t1);
            if (j < n - 1 && i < n - 1) {
                for (int k = 1; k < n - 1; k++) {
                    B[(i * n + j) * n + k] = 0.125 * (A[((i + 1) * n + j) * n + k] - 2.0 * A[(i * n + j) * n + k] + A[((i - 1) * n + j) * n + k]) + 0.125 * (A[(i * n + (j + 1)) * n + k] - 2.0 * A[(i * n + j) * n + k] + A[(i * n + (j - 1)) * n + k]) + 0.125 * (A[(i * n + j) * n + (k + 1)] - 2.0 * A[(i * n + j) * n + k] + A[(i * n + j) * n + (k - 1)]) + A[(i * n + j) * n + k];
                }
            }
        }
    }
}
extern "C" __global__ void orcl_kernel_heat_3d_region0_k0_1(const int n, double *__restrict__ A, const double *__restrict__ B)
{
    const long orcl_g0 = (long)blockIdx.x;
    const long orcl_l0 = (long)threadIdx.x;
    const long orcl_base0 = (long)(1) + orcl_g0 * 8;
    const long orcl_g1 = (long)blockIdx.y;
    const long orcl_l1 = (long)threadIdx.y;
    const long orcl_base1 = (long)(1) + orcl_g1 * 4;
    #pragma unroll
    for (long orcl_r1 = 0; orcl_r1 < 1; orcl_r1 += 1) {
        const long orcl_t1 = orcl_l1 + orcl_r1 * 4;
        #pragma unroll
        for (long orcl_r0 = 0; orcl_r0 < 1; orcl_r0 += 1) {
            const long orcl_t0 = orcl_l0 + orcl_r0 * 8;
            const int j = (int)(orcl_base0 + orcl_t0);
            const int i = (int)(orcl_base1 + orcl_t1);
            if (j < n - 1 && i < n - 1) {
                for (int k = 1; k < n - 1; k++) {
                    A[(i * n + j) * n + k] = 0.125 * (B[((i + 1) * n + j) * n + k] - 2.0 * B[(i * n + j) * n + k] + B[((i - 1) * n + j) * n + k]) + 0.125 * (B[(i * n + (j + 1)) * n + k] - 2.0 * B[(i * n + j) * n + k] + B[(i * n + (j - 1)) * n + k]) + 0.125 * (B[(i * n + j) * n + (k + 1)] - 2.0 * B[(i * n + j) * n + k] + B[(i * n + j) * n + (k - 1)]) + B[(i * n + j) * n + k];
                }
            }
        }
    }
}

static int orcl_kernel_heat_3d_region0(int n, double *B, double *A, int tsteps)
{
    /* per variant and kernel: threads per block; threads (0 = one per iteration); multi-dimensional grid
       {dimensions, then per dimension (x, y, z): nest loop, iterations and threads per block} */
    static const unsigned int orcl_block[1][2] = { { 32, 32 } };
    static const unsigned long long orcl_threads[1][2] = { { 0, 0 } };
    static const long orcl_griddims[1][2][10] = { { {2, 1, 8, 8, 0, 4, 4, 0, 1, 1}, {2, 1, 8, 8, 0, 4, 4, 0, 1, 1} } };
    static const int orcl_device[1] = { 0 };
    int orcl_v = 0;

    /* steps of the time loop, and each kernel's iterations (its parallel loop, its perfect nest's loops) */
    const long orcl_steps = (20) >= (1) ? ((long)(20) - (long)(1)) / 1 + 1 : 0;
    const long orcl_part_trip[2] = { (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0, (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0 };
    const long orcl_nest_trip[2][3] = { { (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0, (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0, (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0 }, { (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0, (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0, (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0 } };
    dim3 orcl_gdim[2], orcl_bdim[2];
    int orcl_step = 0;
    if (orcl_steps <= 0) return 0;
    if (cudaSetDevice(orcl_device[orcl_v]) != cudaSuccess) return -1;
    for (int orcl_q = 0; orcl_q < 2; orcl_q++) {
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
    double *orcl_d_B = NULL;
    double *orcl_d_A = NULL;
    int orcl_rc = -1;
    cudaError_t orcl_err = cudaSuccess;
    orcl_err = cudaMalloc((void **)&orcl_d_B, ((size_t)((long)n * n * n) > 0 ? (size_t)((long)n * n * n) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)((long)n * n * n) > 0) orcl_err = cudaMemcpy(orcl_d_B, B, (size_t)((long)n * n * n) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMalloc((void **)&orcl_d_A, ((size_t)((long)n * n * n) > 0 ? (size_t)((long)n * n * n) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)((long)n * n * n) > 0) orcl_err = cudaMemcpy(orcl_d_A, A, (size_t)((long)n * n * n) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    for (long orcl_s = 0; orcl_s < orcl_steps; orcl_s++) {
        orcl_step = (int)((1) + orcl_s * 1);
        switch (orcl_v) {
        case 0:
            orcl_kernel_heat_3d_region0_k0_0<<<orcl_gdim[0], orcl_bdim[0]>>>(n, orcl_d_B, orcl_d_A);
            orcl_kernel_heat_3d_region0_k0_1<<<orcl_gdim[1], orcl_bdim[1]>>>(n, orcl_d_A, orcl_d_B);
            break;
        }
        orcl_err = cudaGetLastError();
        if (orcl_err != cudaSuccess) goto orcl_done;
    }
    if ((size_t)((long)n * n * n) > 0) orcl_err = cudaMemcpy(B, orcl_d_B, (size_t)((long)n * n * n) * sizeof(double), cudaMemcpyDeviceToHost);
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)((long)n * n * n) > 0) orcl_err = cudaMemcpy(A, orcl_d_A, (size_t)((long)n * n * n) * sizeof(double), cudaMemcpyDeviceToHost);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_rc = cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
orcl_done:
    if (orcl_d_B) cudaFree(orcl_d_B);
    if (orcl_d_A) cudaFree(orcl_d_A);
    return orcl_rc;
}
