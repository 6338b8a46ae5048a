/* configuration: WI=32 WG=8 CB=False UI=1 */
/* input: N=2000 */
/* NDRange: global size 256 work-items, local size 32 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void orcl_kernel(const int n, __global double *y, const double a0, __global const double *x0, const double a1, __global const double *x1, const double a2, __global const double *x2, const double a3, __global const double *x3)
{
    /* iterations of `for (i = 0; i <= n - 1; i++)` */
    const long orcl_trip = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {
        const int i = (int)orcl_k;
        y[i] += a0 * x0[i] + a1 * x1[i] + a2 * x2[i] + a3 * x3[i];
    }
}
