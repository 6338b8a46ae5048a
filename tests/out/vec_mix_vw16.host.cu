/* ---- host code ---- */
/* orcl: CUDA kernels and host code for the tuned loop of Mix() (tests/in/vec_mix.c:7).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] N=1009: WI=24 WG=3 VW=16 INC='global'
 * Returns 0 on success; non-zero if CUDA fails (the caller then runs the original loop). */
#ifndef INT_MIN
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define LONG_MIN (-9223372036854775807L - 1)
#define LONG_MAX 9223372036854775807L
#endif
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#define ORCL_WG 24
extern "C" __global__ void orcl_Mix_region0_k0(const int n, const float a, const float *x, float *z, const float *y, float *orcl_partial_s, float *orcl_partial_mx)
{
    /* iterations of `for (i = 1; i < n - 1; i++)` */
    const long orcl_trip = (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0;
    float orcl_acc_s = 0;
    __shared__ float orcl_red_s[ORCL_WG];
    float orcl_acc_mx = -INFINITY;
    __shared__ float orcl_red_mx[ORCL_WG];
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)((1) + orcl_k);
        float t = a * x[i + 1] - x[i - 1];
        z[i] = t > 0.5f ? t : y[i] * 2.0;
        z[i] += -t / 3;
        orcl_acc_s += fabs(t) + 1;
        orcl_acc_mx = fmax(orcl_acc_mx, y[i]);
    }
    /* reduction: tree over the work-group in local memory (barriers, no lock-step assumption),
       one partial result per work-group, combined on the host */
    {
        const unsigned int orcl_lid = threadIdx.x;
        orcl_red_s[orcl_lid] = orcl_acc_s;
        orcl_red_mx[orcl_lid] = orcl_acc_mx;
        __syncthreads();
        for (unsigned int orcl_w = 32 / 2; orcl_w > 0; orcl_w >>= 1) {
            if (orcl_lid < orcl_w && orcl_lid + orcl_w < ORCL_WG) {
                orcl_red_s[orcl_lid] = orcl_red_s[orcl_lid] + orcl_red_s[orcl_lid + orcl_w];
                orcl_red_mx[orcl_lid] = fmax(orcl_red_mx[orcl_lid], orcl_red_mx[orcl_lid + orcl_w]);
            }
            __syncthreads();
        }
        if (orcl_lid == 0) {
            orcl_partial_s[(long)blockIdx.x] = orcl_red_s[0];
            orcl_partial_mx[(long)blockIdx.x] = orcl_red_mx[0];
        }
    }
}
#undef ORCL_WG

static int orcl_Mix_region0(int n, float a, const float *x, float *z, const float *y, float *s, float *mx)
{
    /* threads per block; blocks (0 = one thread per iteration) */
    static const unsigned int orcl_block[1] = { 24 };
    static const unsigned long long orcl_threads[1] = { 72 };
    /* multi-dimensional grid: {dimensions, then per dimension (x, y, z): nest loop, iterations and threads per block} */
    static const long orcl_griddims[1][10] = { {0, 0, 1, 1, 0, 1, 1, 0, 1, 1} };
    static const int orcl_device[1] = { 0 };
    int orcl_v = 0;

    const long orcl_trip = (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0;
    if (orcl_trip <= 0) return 0;
    if (cudaSetDevice(orcl_device[orcl_v]) != cudaSuccess) return -1;
    const unsigned long long orcl_grid_ll = orcl_threads[orcl_v] ? orcl_threads[orcl_v] / orcl_block[orcl_v] : ((unsigned long long)orcl_trip + orcl_block[orcl_v] - 1) / orcl_block[orcl_v];
    const unsigned int orcl_grid = orcl_grid_ll > 0 ? (unsigned int)orcl_grid_ll : 1u;
    const long orcl_nest_trip[] = { (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0 };
    dim3 orcl_gdim(orcl_grid, 1, 1), orcl_bdim(orcl_block[orcl_v], 1, 1);
    (void)orcl_nest_trip;
    for (long orcl_d = 0; orcl_d < orcl_griddims[orcl_v][0]; orcl_d++) {
        long orcl_t = orcl_nest_trip[orcl_griddims[orcl_v][1 + 3 * orcl_d]], orcl_per = orcl_griddims[orcl_v][2 + 3 * orcl_d];
        unsigned int orcl_n = (unsigned int)(orcl_t > 0 ? (orcl_t + orcl_per - 1) / orcl_per : 1);
        unsigned int orcl_b = (unsigned int)orcl_griddims[orcl_v][3 + 3 * orcl_d];
        if (orcl_d == 0) { orcl_gdim.x = orcl_n; orcl_bdim.x = orcl_b; } else if (orcl_d == 1) { orcl_gdim.y = orcl_n; orcl_bdim.y = orcl_b; } else { orcl_gdim.z = orcl_n; orcl_bdim.z = orcl_b; }
    }
    float *orcl_d_x = NULL;
    float *orcl_d_z = NULL;
    float *orcl_d_y = NULL;
    float *orcl_d_orcl_partial_s = NULL;
    float *orcl_host_orcl_partial_s = NULL;
    float *orcl_d_orcl_partial_mx = NULL;
    float *orcl_host_orcl_partial_mx = NULL;
    int orcl_rc = -1;
    cudaError_t orcl_err = cudaSuccess;
    orcl_err = cudaMalloc((void **)&orcl_d_x, ((size_t)(n) > 0 ? (size_t)(n) : 1) * sizeof(float));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(n) > 0) orcl_err = cudaMemcpy(orcl_d_x, x, (size_t)(n) * sizeof(float), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMalloc((void **)&orcl_d_z, ((size_t)(n) > 0 ? (size_t)(n) : 1) * sizeof(float));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(n) > 0) orcl_err = cudaMemcpy(orcl_d_z, z, (size_t)(n) * sizeof(float), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMalloc((void **)&orcl_d_y, ((size_t)(n) > 0 ? (size_t)(n) : 1) * sizeof(float));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(n) > 0) orcl_err = cudaMemcpy(orcl_d_y, y, (size_t)(n) * sizeof(float), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    /* one partial result per thread block */
    orcl_err = cudaMalloc((void **)&orcl_d_orcl_partial_s, orcl_grid * sizeof(float));
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_host_orcl_partial_s = (float *)malloc(orcl_grid * sizeof(float));
    if (!orcl_host_orcl_partial_s) goto orcl_done;
    /* one partial result per thread block */
    orcl_err = cudaMalloc((void **)&orcl_d_orcl_partial_mx, orcl_grid * sizeof(float));
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_host_orcl_partial_mx = (float *)malloc(orcl_grid * sizeof(float));
    if (!orcl_host_orcl_partial_mx) goto orcl_done;
    switch (orcl_v) {
    case 0:
        orcl_Mix_region0_k0<<<orcl_gdim, orcl_bdim>>>(n, a, orcl_d_x, orcl_d_z, orcl_d_y, orcl_d_orcl_partial_s, orcl_d_orcl_partial_mx);
        break;
    }
    orcl_err = cudaGetLastError();
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(n) > 0) orcl_err = cudaMemcpy(z, orcl_d_z, (size_t)(n) * sizeof(float), cudaMemcpyDeviceToHost);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMemcpy(orcl_host_orcl_partial_s, orcl_d_orcl_partial_s, orcl_grid * sizeof(float), cudaMemcpyDeviceToHost);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMemcpy(orcl_host_orcl_partial_mx, orcl_d_orcl_partial_mx, orcl_grid * sizeof(float), cudaMemcpyDeviceToHost);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_rc = cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
    if (orcl_rc == 0) {
        /* finish the reduction: the initial value combined with every block's partial */
        float orcl_a = *s;
        for (unsigned int orcl_g = 0; orcl_g < orcl_grid; orcl_g++) {
            float orcl_b = orcl_host_orcl_partial_s[orcl_g];
            orcl_a = orcl_a + orcl_b;
        }
        *s = orcl_a;
    }
    if (orcl_rc == 0) {
        /* finish the reduction: the initial value combined with every block's partial */
        float orcl_a = *mx;
        for (unsigned int orcl_g = 0; orcl_g < orcl_grid; orcl_g++) {
            float orcl_b = orcl_host_orcl_partial_mx[orcl_g];
            orcl_a = fmax(orcl_a, orcl_b);
        }
        *mx = orcl_a;
    }
orcl_done:
    if (orcl_d_x) cudaFree(orcl_d_x);
    if (orcl_d_z) cudaFree(orcl_d_z);
    if (orcl_d_y) cudaFree(orcl_d_y);
    if (orcl_d_orcl_partial_s) cudaFree(orcl_d_orcl_partial_s);
    free(orcl_host_orcl_partial_s);
    if (orcl_d_orcl_partial_mx) cudaFree(orcl_d_orcl_partial_mx);
    free(orcl_host_orcl_partial_mx);
    return orcl_rc;
}
