/* configuration: WI=8 WG=2 */
/* input: M=50 N=17 */
/* NDRange: global size 16 work-items, local size 8 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void orcl_kernel(const int m, __global double *C, const int n, __global const double *A, const long orcl_A_dim1, const int nc, __global double *B, const long orcl_B_dim1)
{
    /* iterations of `for (i = 2; i <= m - 1; i++)` */
    const long orcl_trip = (m - 1) >= (2) ? ((long)(m - 1) - (long)(2)) / 1 + 1 : 0;
    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {
        const int i = (int)((2) + orcl_k);
        C[i * n] = A[(i - 2) * orcl_A_dim1];
        for (int j = 1; j <= n - 1; j++) {
            C[i * n + j] = C[i * n + (j - 1)] + A[(i - 2) * orcl_A_dim1 + j] * A[i * orcl_A_dim1 + j];
        }
        for (int j = 0; j < nc; j++) {
            B[i * orcl_B_dim1 + j] = 0.5 * B[i * orcl_B_dim1 + j] + C[i * n + j % n];
        }
    }
}
