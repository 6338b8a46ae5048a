/* configuration: WI=32 WG=8 CB=False UI=1 CL='' */
/* input: N=1000 */
/* grid: 8 blocks, 32 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
extern "C" __global__ void orcl_kernel(const int n, const double *x, double *y, const double a, double *z)
{
    /* iterations of `for (i = 3; i < n; i += 2)` */
    const long orcl_trip = (n) > (3) ? ((long)(n) - (long)(3) + 1) / 2 : 0;
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)((3) + orcl_k * 2);
        if (x[i] > 0.5) {
            y[i] = a * sqrt(x[i]) + pow(x[i], 2.0);
        } else {
            y[i] = fmax(a - exp(x[i]), -1.0);
            z[i] = fabs(x[i]) * (double)i;
        }
    }
}
