/* configuration: WI=4 */
/* input: P=9 Q=7 R=5 */
/* NDRange: global size one work-item per iteration, local size 4 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void orcl_kernel(const int p, const int q, const int r, __global double *V, __global const double *U)
{
    /* iterations of `for (i = 0; i < p; i++)` */
    const long orcl_trip = (p) > 0 ? (long)(p) : 0;
    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {
        const int i = (int)orcl_k;
        for (int j = 0; j < q; j++) {
            for (int k = 1; k < r; k++) {
                V[(i * q + j) * r + k] = U[(i * q + j) * r + k] - U[(i * q + j) * r + (k - 1)] + V[(i * q + j) * r + (k - 1)];
            }
        }
    }
}
