/* configuration: WI=32 WG=8 UI=1 CL='' */
/* input: N=100000 */
/* grid: 8 blocks, 32 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
#ifndef INT_MIN
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define LONG_MIN (-9223372036854775807L - 1)
#define LONG_MAX 9223372036854775807L
#endif
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#define ORCL_WG 32
extern "C" __global__ void orcl_kernel(const int n, double *orcl_partial_s, const double *x, const double *y)
{
    /* iterations of `for (i = 0; i <= n - 1; i++)` */
    const long orcl_trip = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
    double orcl_acc_s = 0;
    __shared__ double orcl_red_s[ORCL_WG];
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)orcl_k;
        orcl_acc_s += x[i] * y[i];
    }
    /* reduction: tree over the work-group in local memory (barriers, no lock-step assumption),
       one partial result per work-group, combined on the host */
    {
        const unsigned int orcl_lid = threadIdx.x;
        orcl_red_s[orcl_lid] = orcl_acc_s;
        __syncthreads();
        for (unsigned int orcl_w = 32 / 2; orcl_w > 0; orcl_w >>= 1) {
            if (orcl_lid < orcl_w && orcl_lid + orcl_w < ORCL_WG) {
                orcl_red_s[orcl_lid] = orcl_red_s[orcl_lid] + orcl_red_s[orcl_lid + orcl_w];
            }
            __syncthreads();
        }
        if (orcl_lid == 0) {
            orcl_partial_s[(long)blockIdx.x] = orcl_red_s[0];
        }
    }
}
