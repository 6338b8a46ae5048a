/* configuration: WI=48 IT=16 CB=True INC='local' */
/* input: M=301 N=199 */
/* NDRange: global size one work-item per iteration, local size 48 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define ORCL_TILE 48
#define ORCL_WG 48
__kernel void orcl_kernel(const int m, const int n, __global double *y, __global const double *A, __global const double *x)
{
    /* iterations of `for (i = 0; i < m; i++)` */
    const long orcl_trip = (m) > 0 ? (long)(m) : 0;
    /* incrementType 'local': each work-group owns one contiguous chunk of iterations */
    const long orcl_chunk = (orcl_trip + (long)get_num_groups(0) - 1) / (long)get_num_groups(0);
    const long orcl_begin = (long)get_group_id(0) * orcl_chunk;
    const long orcl_end = orcl_begin + orcl_chunk < orcl_trip ? orcl_begin + orcl_chunk : orcl_trip;
    /* group-uniform passes: every work-item of the work-group takes part in every pass and barrier;
       3 iteration(s) per work-group and pass, 16 lanes (work-items) each */
    const unsigned int orcl_tid = get_local_id(0);
    const unsigned int orcl_slot = orcl_tid / 16;
    const unsigned int orcl_lane = orcl_tid % 16;
    __local double orcl_tile_x_j_m1[ORCL_TILE];
    __local double orcl_tile_x_j_p1[ORCL_TILE];
    __local double orcl_part_y[ORCL_WG];
    for (long orcl_base = orcl_begin; orcl_base < orcl_end; orcl_base += 3) {
        const long orcl_k = orcl_base + orcl_slot;
        const int orcl_active = orcl_k < orcl_end;
        const int i = (int)orcl_k;
        double orcl_lacc_y;
        /* cacheBlocks: the work-group stages the shared operands of `for (j = 1; j <= n; j++)` through local memory,
           ORCL_TILE iterations at a time; the lanes split each tile, lane-strided */
        {
            if (orcl_active) {
                orcl_lacc_y = 0;
            }
            const long orcl_trip_j = (n) >= (1) ? ((long)(n) - (long)(1)) / 1 + 1 : 0;
            for (long orcl_jb = 0; orcl_jb < orcl_trip_j; orcl_jb += ORCL_TILE) {
                if (orcl_jb + orcl_tid < orcl_trip_j) {
                    const int j = (int)((1) + (orcl_jb + orcl_tid));
                    orcl_tile_x_j_m1[orcl_tid] = x[j - 1];
                    orcl_tile_x_j_p1[orcl_tid] = x[j + 1];
                }
                barrier(CLK_LOCAL_MEM_FENCE);
                if (orcl_active) {
                    const long orcl_n = orcl_trip_j - orcl_jb < ORCL_TILE ? orcl_trip_j - orcl_jb : ORCL_TILE;
                    for (long orcl_q = orcl_lane; orcl_q < orcl_n; orcl_q += 16) {
                        const int j = (int)((1) + (orcl_jb + orcl_q));
                        orcl_lacc_y += A[i * (n + 2) + j] * (orcl_tile_x_j_m1[orcl_q] + orcl_tile_x_j_p1[orcl_q]);
                    }
                }
                barrier(CLK_LOCAL_MEM_FENCE);
            }
        }
        /* innerThreads: combine the lanes' partial results in local memory (a tree with barriers; no lock-step assumption) */
        orcl_part_y[orcl_tid] = orcl_active ? orcl_lacc_y : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (unsigned int orcl_w = 16 / 2; orcl_w > 0; orcl_w >>= 1) {
            if (orcl_lane < orcl_w && orcl_lane + orcl_w < 16) {
                orcl_part_y[orcl_tid] = orcl_part_y[orcl_tid] + orcl_part_y[orcl_tid + orcl_w];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (orcl_active && orcl_lane == 0) {
            y[i] = y[i] + orcl_part_y[orcl_tid];
        }
    }
}
