/* configuration: WI=16 WG=4 CB=True IT=8 */
/* input: M=60 N=50 */
/* grid: 4 blocks, 16 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
#define ORCL_TILE 16
#define ORCL_WG 16
extern "C" __global__ void orcl_kernel(const int m, const int n, const double *A, const double *x, double *y)
{
    /* iterations of `for (i = 0; i <= m - 1; i++)` */
    const long orcl_trip = (m - 1) >= 0 ? (long)(m - 1) + 1 : 0;
    /* group-uniform passes: every work-item of the work-group takes part in every pass and barrier;
       2 iteration(s) per work-group and pass, 8 lanes (work-items) each */
    const unsigned int orcl_tid = threadIdx.x;
    const unsigned int orcl_slot = orcl_tid / 8;
    const unsigned int orcl_lane = orcl_tid % 8;
    __shared__ double orcl_tile_x_j[ORCL_TILE];
    __shared__ double orcl_part_t[ORCL_WG];
    for (long orcl_base = (long)blockIdx.x * 2; orcl_base < orcl_trip; orcl_base += (long)gridDim.x * 2) {
        const long orcl_k = orcl_base + orcl_slot;
        const int orcl_active = orcl_k < orcl_trip;
        const int i = (int)orcl_k;
        double t;
        if (orcl_active) {
            t = 0.0;
        }
        /* cacheBlocks: the work-group stages the shared operands of `for (j = 0; j <= n - 1; j++)` through local memory,
           ORCL_TILE iterations at a time; the lanes split each tile, lane-strided */
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
                    for (long orcl_q = orcl_lane; orcl_q < orcl_n; orcl_q += 8) {
                        const int j = (int)(orcl_jb + orcl_q);
                        t += A[i * n + j] * orcl_tile_x_j[orcl_q];
                    }
                }
                __syncthreads();
            }
        }
        /* innerThreads: combine the lanes' partial results in local memory (a tree with barriers; no lock-step assumption) */
        orcl_part_t[orcl_tid] = orcl_active ? t : 0;
        __syncthreads();
        for (unsigned int orcl_w = 8 / 2; orcl_w > 0; orcl_w >>= 1) {
            if (orcl_lane < orcl_w && orcl_lane + orcl_w < 8) {
                orcl_part_t[orcl_tid] = orcl_part_t[orcl_tid] + orcl_part_t[orcl_tid + orcl_w];
            }
            __syncthreads();
        }
        if (orcl_active && orcl_lane == 0) {
            t = orcl_part_t[orcl_tid];
            y[i] = t;
        }
    }
}
