/* configuration: WI=8 TI=4 TJ=16 */
/* input: NX=13 NY=21 T=5 */
/* NDRange: global size one work-item per iteration, local size 8 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void orcl_kernel_0(const int ny, __global double *ey, __global const double *_fict_, const int t)
{
    /* iterations of `for (j = 0; j < ny; j++)` */
    const long orcl_trip = (ny) > 0 ? (long)(ny) : 0;
    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {
        const int j = (int)orcl_k;
        ey[j] = _fict_[t];
    }
}
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void orcl_kernel_1(const int nx, const int ny, __global double *restrict ey, __global const double *restrict hz)
{
    const long orcl_g0 = (long)get_group_id(0);
    const long orcl_l0 = (long)get_local_id(0);
    const long orcl_base0 = orcl_g0 * 16;
    const long orcl_g1 = (long)get_group_id(1);
    const long orcl_l1 = (long)get_local_id(1);
    const long orcl_base1 = (long)(1) + orcl_g1 * 4;
    #pragma unroll
    for (long orcl_r1 = 0; orcl_r1 < 1; orcl_r1 += 1) {
        const long orcl_t1 = orcl_l1 + orcl_r1 * 4;
        #pragma unroll
        for (long orcl_r0 = 0; orcl_r0 < 1; orcl_r0 += 1) {
            const long orcl_t0 = orcl_l0 + orcl_r0 * 16;
            const int j = (int)(orcl_base0 + orcl_t0);
            const int i = (int)(orcl_base1 + orcl_t1);
            if (j < ny && i < nx) {
                ey[i * ny + j] = ey[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
            }
        }
    }
}
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void orcl_kernel_2(const int nx, const int ny, __global double *restrict ex, __global const double *restrict hz)
{
    const long orcl_g0 = (long)get_group_id(0);
    const long orcl_l0 = (long)get_local_id(0);
    const long orcl_base0 = (long)(1) + orcl_g0 * 16;
    const long orcl_g1 = (long)get_group_id(1);
    const long orcl_l1 = (long)get_local_id(1);
    const long orcl_base1 = orcl_g1 * 4;
    #pragma unroll
    for (long orcl_r1 = 0; orcl_r1 < 1; orcl_r1 += 1) {
        const long orcl_t1 = orcl_l1 + orcl_r1 * 4;
        #pragma unroll
        for (long orcl_r0 = 0; orcl_r0 < 1; orcl_r0 += 1) {
            const long orcl_t0 = orcl_l0 + orcl_r0 * 16;
            const int j = (int)(orcl_base0 + orcl_t0);
            const int i = (int)(orcl_base1 + orcl_t1);
            if (j < ny && i < nx) {
                ex[i * ny + j] = ex[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
            }
        }
    }
}
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void orcl_kernel_3(const int nx, const int ny, __global double *restrict hz, __global const double *restrict ex, __global const double *restrict ey)
{
    const long orcl_g0 = (long)get_group_id(0);
    const long orcl_l0 = (long)get_local_id(0);
    const long orcl_base0 = orcl_g0 * 16;
    const long orcl_g1 = (long)get_group_id(1);
    const long orcl_l1 = (long)get_local_id(1);
    const long orcl_base1 = orcl_g1 * 4;
    #pragma unroll
    for (long orcl_r1 = 0; orcl_r1 < 1; orcl_r1 += 1) {
        const long orcl_t1 = orcl_l1 + orcl_r1 * 4;
        #pragma unroll
        for (long orcl_r0 = 0; orcl_r0 < 1; orcl_r0 += 1) {
            const long orcl_t0 = orcl_l0 + orcl_r0 * 16;
            const int j = (int)(orcl_base0 + orcl_t0);
            const int i = (int)(orcl_base1 + orcl_t1);
            if (j < ny - 1 && i < nx - 1) {
                hz[i * ny + j] = hz[i * ny + j] - 0.7 * (ex[i * ny + (j + 1)] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
            }
        }
    }
}
