/* configuration: WI=16 WG=4 CB=False IT=1 */
/* input: M=60 N=50 */
/* NDRange: global size 64 work-items, local size 16 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void orcl_kernel(const int m, const int n, __global const double *A, __global const double *x, __global double *y)
{
    /* iterations of `for (i = 0; i <= m - 1; i++)` */
    const long orcl_trip = (m - 1) >= 0 ? (long)(m - 1) + 1 : 0;
    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {
        const int i = (int)orcl_k;
        double t = 0.0;
        #pragma unroll 4
        for (int j = 0; j <= n - 1; j++) {
            t += A[i * n + j] * x[j];
        }
        y[i] = t;
    }
}
