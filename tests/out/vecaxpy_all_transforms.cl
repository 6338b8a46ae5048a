/* configuration: WI=64 WG=128 CB=True SH=True UI=3 VH=2 CL='-cl-fast-relaxed-math' */
/* input: N=100000 */
/* NDRange: global size 8192 work-items, local size 64 work-items; build options: "-cl-fast-relaxed-math" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define ORCL_TILE 64
__kernel __attribute__((vec_type_hint(double2)))
__attribute__((work_group_size_hint(64, 1, 1)))
__attribute__((reqd_work_group_size(64, 1, 1)))
void orcl_kernel(const int n, __global double *y, const double a, __global const double *x)
{
    /* iterations of `for (i = 0; i <= n - 1; i++)` */
    const long orcl_trip = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
    __local double orcl_tile_x[ORCL_TILE];
    /* each work-group stages ORCL_TILE consecutive iterations' inputs through local memory */
    #pragma unroll 3
    for (long orcl_base = (long)get_group_id(0) * ORCL_TILE; orcl_base < orcl_trip; orcl_base += (long)get_global_size(0)) {
        const long orcl_k = orcl_base + get_local_id(0);
        if (orcl_k < orcl_trip) {
            const int i = (int)orcl_k;
            orcl_tile_x[get_local_id(0)] = x[i];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (orcl_k < orcl_trip) {
            const int i = (int)orcl_k;
            y[i] += a * orcl_tile_x[get_local_id(0)];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
