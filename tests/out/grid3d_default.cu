/* configuration: WI=4 */
/* input: P=9 Q=7 R=5 */
/* grid: one thread per iteration, 4 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
extern "C" __global__ void orcl_kernel(const int p, const int q, const int r, double *V, const double *U)
{
    /* iterations of `for (i = 0; i < p; i++)` */
    const long orcl_trip = (p) > 0 ? (long)(p) : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)orcl_k;
        for (int j = 0; j < q; j++) {
            for (int k = 1; k < r; k++) {
                V[(i * q + j) * r + k] = U[(i * q + j) * r + k] - U[(i * q + j) * r + (k - 1)] + V[(i * q + j) * r + (k - 1)];
            }
        }
    }
}
