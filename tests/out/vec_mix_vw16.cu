/* configuration: WI=24 WG=3 VW=16 INC='global' */
/* input: N=1009 */
/* grid: 3 blocks, 24 threads per block; NVRTC options and launch tokens: "" */
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
#define ORCL_WG 24
extern "C" __global__ void orcl_kernel(const int n, const float a, const float *x, float *z, const float *y, float *orcl_partial_s, float *orcl_partial_mx)
{
    /* iterations of `for (i = 1; i < n - 1; i++)` */
    const long orcl_trip = (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0;
    float orcl_acc_s = 0;
    __shared__ float orcl_red_s[ORCL_WG];
    float orcl_acc_mx = -INFINITY;
    __shared__ float orcl_red_mx[ORCL_WG];
    for (long orcl_k = ((long)blockIdx.x * blockDim.x + threadIdx.x); orcl_k < orcl_trip; orcl_k += ((long)gridDim.x * blockDim.x)) {
        const int i = (int)((1) + orcl_k);
        float t = a * x[i + 1] - x[i - 1];
        z[i] = t > 0.5f ? t : y[i] * 2.0;
        z[i] += -t / 3;
        orcl_acc_s += fabs(t) + 1;
        orcl_acc_mx = fmax(orcl_acc_mx, y[i]);
    }
    /* reduction: tree over the work-group in local memory (barriers, no lock-step assumption),
       one partial result per work-group, combined on the host */
    {
        const unsigned int orcl_lid = threadIdx.x;
        orcl_red_s[orcl_lid] = orcl_acc_s;
        orcl_red_mx[orcl_lid] = orcl_acc_mx;
        __syncthreads();
        for (unsigned int orcl_w = 32 / 2; orcl_w > 0; orcl_w >>= 1) {
            if (orcl_lid < orcl_w && orcl_lid + orcl_w < ORCL_WG) {
                orcl_red_s[orcl_lid] = orcl_red_s[orcl_lid] + orcl_red_s[orcl_lid + orcl_w];
                orcl_red_mx[orcl_lid] = fmax(orcl_red_mx[orcl_lid], orcl_red_mx[orcl_lid + orcl_w]);
            }
            __syncthreads();
        }
        if (orcl_lid == 0) {
            orcl_partial_s[(long)blockIdx.x] = orcl_red_s[0];
            orcl_partial_mx[(long)blockIdx.x] = orcl_red_mx[0];
        }
    }
}
