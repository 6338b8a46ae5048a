/* ---- host code ---- */
/* orcl: CUDA kernels and host code for the tuned loop of VecSum() (examples/vecSum.c:5).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] N=100000: WI=64 WG=16 CL=''
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
#define ORCL_WG 64
extern "C" __global__ void orcl_VecSum_region0_k0(const int n, double *orcl_partial_s, const double *x)
{
    /* iterations of `for (i = 0; i < n; i++)` */
    const long orcl_trip = (n) > 0 ? (long)(n) : 0;
    double orcl_acc_s = 0;
    __shared__ double orcl_red_s[ORCL_WG];
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)orcl_k;
        orcl_acc_s += x[i];
    }
    /* reduction: tree over the work-group in local memory (barriers, no lock-step assumption),
       one partial result per work-group, combined on the host */
    {
        const unsigned int orcl_lid = threadIdx.x;
        orcl_red_s[orcl_lid] = orcl_acc_s;
        __syncthreads();
        for (unsigned int orcl_w = 64 / 2; orcl_w > 0; orcl_w >>= 1) {
            if (orcl_lid < orcl_w && orcl_lid + orcl_w < ORCL_WG) {
                orcl_red_s[orcl_lid] = orcl_red_s[orcl_lid] + orcl_red_s[orcl_lid + orcl_w];
            }
            __syncthreads();
        }
        if (orcl_lid == 0) {
            orcl_partial_s[(long)blockIdx.x] = orcl_red_s[0];
        }
    }
}
#undef ORCL_WG

static int orcl_VecSum_region0(int n, double *s, const double *x)
{
    /* threads per block; blocks (0 = one thread per iteration) */
    static const unsigned int orcl_block[1] = { 64 };
    static const unsigned long long orcl_threads[1] = { 1024 };
    /* multi-dimensional grid: {dimensions, then per dimension (x, y, z): nest loop, iterations and threads per block} */
    static const long orcl_griddims[1][10] = { {0, 0, 1, 1, 0, 1, 1, 0, 1, 1} };
    static const int orcl_device[1] = { 0 };
    int orcl_v = 0;

    const long orcl_trip = (n) > 0 ? (long)(n) : 0;
    if (orcl_trip <= 0) return 0;
    if (cudaSetDevice(orcl_device[orcl_v]) != cudaSuccess) return -1;
    const unsigned long long orcl_grid_ll = orcl_threads[orcl_v] ? orcl_threads[orcl_v] / orcl_block[orcl_v] : ((unsigned long long)orcl_trip + orcl_block[orcl_v] - 1) / orcl_block[orcl_v];
    const unsigned int orcl_grid = orcl_grid_ll > 0 ? (unsigned int)orcl_grid_ll : 1u;
    const long orcl_nest_trip[] = { (n) > 0 ? (long)(n) : 0 };
    dim3 orcl_gdim(orcl_grid, 1, 1), orcl_bdim(orcl_block[orcl_v], 1, 1);
    (void)orcl_nest_trip;
    for (long orcl_d = 0; orcl_d < orcl_griddims[orcl_v][0]; orcl_d++) {
        long orcl_t = orcl_nest_trip[orcl_griddims[orcl_v][1 + 3 * orcl_d]], orcl_per = orcl_griddims[orcl_v][2 + 3 * orcl_d];
        unsigned int orcl_n = (unsigned int)(orcl_t > 0 ? (orcl_t + orcl_per - 1) / orcl_per : 1);
        unsigned int orcl_b = (unsigned int)orcl_griddims[orcl_v][3 + 3 * orcl_d];
        if (orcl_d == 0) { orcl_gdim.x = orcl_n; orcl_bdim.x = orcl_b; } else if (orcl_d == 1) { orcl_gdim.y = orcl_n; orcl_bdim.y = orcl_b; } else { orcl_gdim.z = orcl_n; orcl_bdim.z = orcl_b; }
    }
    double *orcl_d_x = NULL;
    double *orcl_d_orcl_partial_s = NULL;
    double *orcl_host_orcl_partial_s = NULL;
    int orcl_rc = -1;
    cudaError_t orcl_err = cudaSuccess;
    orcl_err = cudaMalloc((void **)&orcl_d_x, ((size_t)(n) > 0 ? (size_t)(n) : 1) * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    if ((size_t)(n) > 0) orcl_err = cudaMemcpy(orcl_d_x, x, (size_t)(n) * sizeof(double), cudaMemcpyHostToDevice);
    if (orcl_err != cudaSuccess) goto orcl_done;
    /* one partial result per thread block */
    orcl_err = cudaMalloc((void **)&orcl_d_orcl_partial_s, orcl_grid * sizeof(double));
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_host_orcl_partial_s = (double *)malloc(orcl_grid * sizeof(double));
    if (!orcl_host_orcl_partial_s) goto orcl_done;
    switch (orcl_v) {
    case 0:
        orcl_VecSum_region0_k0<<<orcl_gdim, orcl_bdim>>>(n, orcl_d_orcl_partial_s, orcl_d_x);
        break;
    }
    orcl_err = cudaGetLastError();
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_err = cudaMemcpy(orcl_host_orcl_partial_s, orcl_d_orcl_partial_s, orcl_grid * sizeof(double), cudaMemcpyDeviceToHost);
    if (orcl_err != cudaSuccess) goto orcl_done;
    orcl_rc = cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
    if (orcl_rc == 0) {
        /* finish the reduction: the initial value combined with every block's partial */
        double orcl_a = *s;
        for (unsigned int orcl_g = 0; orcl_g < orcl_grid; orcl_g++) {
            double orcl_b = orcl_host_orcl_partial_s[orcl_g];
            orcl_a = orcl_a + orcl_b;
        }
        *s = orcl_a;
    }
orcl_done:
    if (orcl_d_x) cudaFree(orcl_d_x);
    if (orcl_d_orcl_partial_s) cudaFree(orcl_d_orcl_partial_s);
    free(orcl_host_orcl_partial_s);
    return orcl_rc;
}
