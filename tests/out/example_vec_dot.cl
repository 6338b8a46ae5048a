/* configuration: WI=32 WG=8 UI=1 CL='' */
/* input: N=100000 */
/* NDRange: global size 256 work-items, local size 32 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define ORCL_WG 32
__kernel void orcl_kernel(const int n, __global double *orcl_partial_s, __global const double *x, __global const double *y)
{
    /* iterations of `for (i = 0; i <= n - 1; i++)` */
    const long orcl_trip = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
    double orcl_acc_s = 0;
    __local double orcl_red_s[ORCL_WG];
    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {
        const int i = (int)orcl_k;
        orcl_acc_s += x[i] * y[i];
    }
    /* reduction: tree over the work-group in local memory (barriers, no lock-step assumption),
       one partial result per work-group, combined on the host */
    {
        const unsigned int orcl_lid = get_local_id(0);
        orcl_red_s[orcl_lid] = orcl_acc_s;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (unsigned int orcl_w = 32 / 2; orcl_w > 0; orcl_w >>= 1) {
            if (orcl_lid < orcl_w && orcl_lid + orcl_w < ORCL_WG) {
                orcl_red_s[orcl_lid] = orcl_red_s[orcl_lid] + orcl_red_s[orcl_lid + orcl_w];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (orcl_lid == 0) {
            orcl_partial_s[(long)get_group_id(0)] = orcl_red_s[0];
        }
    }
}
