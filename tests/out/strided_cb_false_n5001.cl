/* configuration: WI=32 WG=8 CB=False UI=1 CL='' */
/* input: N=5001 */
/* NDRange: global size 256 work-items, local size 32 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void orcl_kernel(const int n, __global const double *x, __global double *y, const double a, __global double *z)
{
    /* iterations of `for (i = 3; i < n; i += 2)` */
    const long orcl_trip = (n) > (3) ? ((long)(n) - (long)(3) + 1) / 2 : 0;
    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {
        const int i = (int)((3) + orcl_k * 2);
        if (x[i] > 0.5) {
            y[i] = a * sqrt(x[i]) + pow(x[i], 2.0);
        } else {
            y[i] = fmax(a - exp(x[i]), -1.0);
            z[i] = fabs(x[i]) * (double)i;
        }
    }
}
