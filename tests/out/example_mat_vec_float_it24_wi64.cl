/* configuration: WI=64 WG=4 CB=False IT=24 */
/* input: M=60 N=50 */
/* NDRange: global size 256 work-items, local size 64 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#define ORCL_WG 64
__kernel void orcl_kernel(const int m, const int n, __global const float *A, __global const float *x, __global float *y)
{
    /* iterations of `for (i = 0; i <= m - 1; i++)` */
    const long orcl_trip = (m - 1) >= 0 ? (long)(m - 1) + 1 : 0;
    /* group-uniform passes: every work-item of the work-group takes part in every pass and barrier;
       2 iteration(s) per work-group and pass, 24 lanes (work-items) each */
    const unsigned int orcl_tid = get_local_id(0);
    const unsigned int orcl_slot = orcl_tid / 24;
    const unsigned int orcl_lane = orcl_tid % 24;
    __local float orcl_part_t[ORCL_WG];
    for (long orcl_base = (long)get_group_id(0) * 2; orcl_base < orcl_trip; orcl_base += (long)get_num_groups(0) * 2) {
        const long orcl_k = orcl_base + orcl_slot;
        const int orcl_active = orcl_slot < 2 && orcl_k < orcl_trip;
        const int i = (int)orcl_k;
        float t;
        if (orcl_active) {
            t = 0.0f;
        }
        /* innerThreads: the lanes split `for (j = 0; j <= n - 1; j++)`, lane-strided (consecutive lanes, consecutive iterations) */
        if (orcl_active) {
            const long orcl_trip_j = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
            #pragma unroll 4
            for (long orcl_q = orcl_lane; orcl_q < orcl_trip_j; orcl_q += 24) {
                const int j = (int)orcl_q;
                t += A[i * n + j] * x[j];
            }
        }
        /* innerThreads: combine the lanes' partial results in local memory (a tree with barriers; no lock-step assumption) */
        orcl_part_t[orcl_tid] = orcl_active ? t : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (unsigned int orcl_w = 32 / 2; orcl_w > 0; orcl_w >>= 1) {
            if (orcl_lane < orcl_w && orcl_lane + orcl_w < 24 && orcl_slot < 2) {
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
