/* configuration: TI=4 TJ=8 UI=4 */
/* input: M=37 N=29 */
/* 2-D NDRange (grid): dimension 0 one work-group of 8 work-items (lanes); dimension 1 (nest loop 0) 4 iterations and 4 work-items per work-group */
/* NDRange: global size one work-group per tile, local size 32 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
__kernel void orcl_kernel(const int m, const int n, __global float *restrict y, __global const float *restrict A, __global const float *restrict x)
{
    const long orcl_g1 = (long)get_group_id(1);
    const long orcl_l0 = (long)get_local_id(0);
    const long orcl_l1 = (long)get_local_id(1);
    __local float orcl_part[4][8];
    const int i = (int)(orcl_g1 * 4 + orcl_l1);
    float orcl_acc = (float)0;
    if (i <= m - 1) {
        #pragma unroll 4
        for (int j = (int)orcl_l0; j <= n - 1; j += 8) {
            orcl_acc += A[i * n + j] * x[j];
        }
    }
    orcl_part[orcl_l1][orcl_l0] = orcl_acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (orcl_l0 < 4) {
        orcl_part[orcl_l1][orcl_l0] = orcl_part[orcl_l1][orcl_l0] + orcl_part[orcl_l1][orcl_l0 + 4];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (orcl_l0 < 2) {
        orcl_part[orcl_l1][orcl_l0] = orcl_part[orcl_l1][orcl_l0] + orcl_part[orcl_l1][orcl_l0 + 2];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (orcl_l0 < 1) {
        orcl_part[orcl_l1][orcl_l0] = orcl_part[orcl_l1][orcl_l0] + orcl_part[orcl_l1][orcl_l0 + 1];
    }
    if (orcl_l0 == 0 && i <= m - 1) {
        y[i] = y[i] + (orcl_part[orcl_l1][0]);
    }
}
