/* configuration: WI=64 WG=16 CB=True UI=2 CL='-cl-mad-enable' */
/* input: N=1000 */
/* NDRange: global size 1024 work-items, local size 64 work-items; build options: "-cl-mad-enable" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define ORCL_TILE 64
__kernel void orcl_kernel(const int n, __global const double *x, __global double *y, const double a, __global double *z)
{
    /* iterations of `for (i = 3; i < n; i += 2)` */
    const long orcl_trip = (n) > (3) ? ((long)(n) - (long)(3) + 1) / 2 : 0;
    __local double orcl_tile_x[ORCL_TILE];
    /* each work-group stages ORCL_TILE consecutive iterations' inputs through local memory */
    #pragma unroll 2
    for (long orcl_base = (long)get_group_id(0) * ORCL_TILE; orcl_base < orcl_trip; orcl_base += (long)get_global_size(0)) {
        const long orcl_k = orcl_base + get_local_id(0);
        if (orcl_k < orcl_trip) {
            const int i = (int)((3) + orcl_k * 2);
            orcl_tile_x[get_local_id(0)] = x[i];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (orcl_k < orcl_trip) {
            const int i = (int)((3) + orcl_k * 2);
            if (orcl_tile_x[get_local_id(0)] > 0.5) {
                y[i] = a * sqrt(orcl_tile_x[get_local_id(0)]) + pow(orcl_tile_x[get_local_id(0)], 2.0);
            } else {
                y[i] = fmax(a - exp(orcl_tile_x[get_local_id(0)]), -1.0);
                z[i] = fabs(orcl_tile_x[get_local_id(0)]) * (double)i;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
