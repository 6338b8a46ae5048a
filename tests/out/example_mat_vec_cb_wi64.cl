/* configuration: WI=64 WG=4 CB=True IT=1 */
/* input: M=60 N=50 */
/* NDRange: global size 256 work-items, local size 64 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define ORCL_TILE 64
__kernel void orcl_kernel(const int m, const int n, __global const double *A, __global const double *x, __global double *y)
{
    /* iterations of `for (i = 0; i <= m - 1; i++)` */
    const long orcl_trip = (m - 1) >= 0 ? (long)(m - 1) + 1 : 0;
    /* group-uniform passes: every work-item of the work-group takes part in every pass and barrier;
       64 iteration(s) per work-group and pass */
    const unsigned int orcl_tid = get_local_id(0);
    const unsigned int orcl_slot = orcl_tid;
    __local double orcl_tile_x_j[ORCL_TILE];
    for (long orcl_base = (long)get_group_id(0) * 64; orcl_base < orcl_trip; orcl_base += (long)get_num_groups(0) * 64) {
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
                barrier(CLK_LOCAL_MEM_FENCE);
                if (orcl_active) {
                    const long orcl_n = orcl_trip_j - orcl_jb < ORCL_TILE ? orcl_trip_j - orcl_jb : ORCL_TILE;
                    #pragma unroll 4
                    for (long orcl_q = 0; orcl_q < orcl_n; orcl_q += 1) {
                        const int j = (int)(orcl_jb + orcl_q);
                        t += A[i * n + j] * orcl_tile_x_j[orcl_q];
                    }
                }
                barrier(CLK_LOCAL_MEM_FENCE);
            }
        }
        if (orcl_active) {
            y[i] = t;
        }
    }
}
