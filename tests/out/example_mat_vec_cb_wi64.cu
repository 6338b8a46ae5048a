/* configuration: WI=64 WG=4 CB=True IT=1 */
/* input: M=60 N=50 */
/* grid: 4 blocks, 64 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
#define ORCL_TILE 64
extern "C" __global__ void orcl_kernel(const int m, const int n, const double *A, const double *x, double *y)
{
    /* iterations of `for (i = 0; i <= m - 1; i++)` */
    const long orcl_trip = (m - 1) >= 0 ? (long)(m - 1) + 1 : 0;
    /* group-uniform passes: every work-item of the work-group takes part in every pass and barrier;
       64 iteration(s) per work-group and pass */
    const unsigned int orcl_tid = threadIdx.x;
    const unsigned int orcl_slot = orcl_tid;
    __shared__ double orcl_tile_x_j[ORCL_TILE];
    for (long orcl_base = (long)blockIdx.x * 64; orcl_base < orcl_trip; orcl_base += (long)gridDim.x * 64) {
        const long orcl_k = orcl_base + orcl_slot;
        const int orcl_active = orcl_k < orcl_trip;
        const int i = (int)orcl_k;
        double t;
        if (orcl_active) {
            t = 0.0;
        }
        /* cacheBlocks: the work-group stages the shared operands of `for (j = 0; j <= n - 1; j++)` through local memory,
           ORCL_TILE iterations at a time */
        {
            const long orcl_trip_j = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
            for (long orcl_jb = 0; orcl_jb < orcl_trip_j; orcl_jb += ORCL_TILE) {
                if (orcl_jb + orcl_tid < orcl_trip_j) {
                    const int j = (int)(orcl_jb + orcl_tid);
                    orcl_tile_x_j[orcl_tid] = x[j];
                }
                __syncthreads();
                if (orcl_active) {
                    const long orcl_n = orcl_trip_j - orcl_jb < ORCL_TILE ? orcl_trip_j - orcl_jb : ORCL_TILE;
                    #pragma unroll 4
                    for (long orcl_q = 0; orcl_q < orcl_n; orcl_q += 1) {
                        const int j = (int)(orcl_jb + orcl_q);
                        t += A[i * n + j] * orcl_tile_x_j[orcl_q];
                    }
                }
                __syncthreads();
            }
        }
        if (orcl_active) {
            y[i] = t;
        }
    }
}
