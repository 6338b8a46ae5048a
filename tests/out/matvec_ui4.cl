/* configuration: WI=32 UI=4 */
/* input: M=300 N=200 */
/* NDRange: global size one work-item per iteration, local size 32 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
__kernel void orcl_kernel(const int m, const int n, __global float *y, __global const float *A, __global const float *x)
{
    /* iterations of `for (i = 0; i <= m - 1; i++)` */
    const long orcl_trip = (m - 1) >= 0 ? (long)(m - 1) + 1 : 0;
    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {
        const int i = (int)orcl_k;
        #pragma unroll 4
        for (int j = 0; j <= n - 1; j++) {
            y[i] += A[i * n + j] * x[j];
        }
    }
}
