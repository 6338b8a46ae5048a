/* configuration: WI=16 WG=4 CB=True IT=8 */
/* input: M=60 N=50 */
/* NDRange: global size 64 work-items, local size 16 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define ORCL_TILE 16
#define ORCL_WG 16
__kernel void orcl_kernel(const int m, const int n, __global const double *A, __global const double *x, __global double *y)
{
    /* iterations of `for (i = 0; i <= m - 1; i++)` */
    const long orcl_trip = (m - 1) >= 0 ? (long)(m - 1) + 1 : 0;
    /* group-uniform passes: every work-item of the work-group takes part in every pass and barrier;
       2 iteration(s) per work-group and pass, 8 lanes (work-items) each */
    const unsigned int orcl_tid = get_local_id(0);
    const unsigned int orcl_slot = orcl_tid / 8;
    const unsigned int orcl_lane = orcl_tid % 8;
    __local double orcl_tile_x_j[ORCL_TILE];
    __local double orcl_part_t[ORCL_WG];
    for (long orcl_base = (long)get_group_id(0) * 2; orcl_base < orcl_trip; orcl_base += (long)get_num_groups(0) * 2) {
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
                barrier(CLK_LOCAL_MEM_FENCE);
                if (orcl_active) {
                    const long orcl_n = orcl_trip_j - orcl_jb < ORCL_TILE ? orcl_trip_j - orcl_jb : ORCL_TILE;
                    #pragma unroll 4
                    for (long orcl_q = orcl_lane; orcl_q < orcl_n; orcl_q += 8) {
                        const int j = (int)(orcl_jb + orcl_q);
                        t += A[i * n + j] * orcl_tile_x_j[orcl_q];
                    }
                }
                barrier(CLK_LOCAL_MEM_FENCE);
            }
        }
        /* innerThreads: combine the lanes' partial results in local memory (a tree with barriers; no lock-step assumption) */
        orcl_part_t[orcl_tid] = orcl_active ? t : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (unsigned int orcl_w = 8 / 2; orcl_w > 0; orcl_w >>= 1) {
            if (orcl_lane < orcl_w && orcl_lane + orcl_w < 8) {
                orcl_part_t[orcl_tid] = orcl_part_t[orcl_tid] + orcl_part_t[orcl_tid + orcl_w];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (orcl_active && orcl_lane == 0) {
            t = orcl_part_t[orcl_tid];
            y[i] = t;
        }
    }
}
