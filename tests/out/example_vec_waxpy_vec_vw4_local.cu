/* configuration: VW=4 INC='local' WI=32 */
/* input: N=1000 */
/* grid: 32 blocks, 32 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
extern "C" __global__ void orcl_kernel(const int n, double *w, const double *y, const double a, const double *x)
{
    /* iterations of `for (i = 0; i <= n - 1; i++)` */
    const long orcl_trip = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
    /* incrementType 'local': each work-group owns one contiguous chunk of iterations */
    const long orcl_chunk = (orcl_trip + (long)gridDim.x - 1) / (long)gridDim.x;
    const long orcl_begin = (long)blockIdx.x * orcl_chunk;
    const long orcl_end = orcl_begin + orcl_chunk < orcl_trip ? orcl_begin + orcl_chunk : orcl_trip;
    for (long orcl_k = orcl_begin + threadIdx.x; orcl_k < orcl_end; orcl_k += (long)blockDim.x) {
        const int i = (int)orcl_k;
        w[i] = y[i] + a * x[i];
    }
}
