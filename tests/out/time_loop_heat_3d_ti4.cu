/* configuration: TI=4 TJ=8 */
/* input: N=10 T=3 */
/* 2-D NDRange (grid): dimension 0 (nest loop 1) 8 iterations and 8 work-items per work-group; dimension 1 (nest loop 0) 4 iterations and 4 work-items per work-group */
/* grid: one block per tile, 32 threads per block; NVRTC options and launch tokens: "" */
/* ---- CUDA kernel ---- */
extern "C" __global__ void orcl_kernel_0(const int n, double *__restrict__ B, const double *__restrict__ A)
{
    const long orcl_g0 = (long)blockIdx.x;
    const long orcl_l0 = (long)threadIdx.x;
    const long orcl_base0 = (long)(1) + orcl_g0 * 8;
    const long orcl_g1 = (long)blockIdx.y;
    const long orcl_l1 = (long)threadIdx.y;
    const long orcl_base1 = (long)(1) + orcl_g1 * 4;
    #pragma unroll
    for (long orcl_r1 = 0; orcl_r1 < 1; orcl_r1 += 1) {
        const long orcl_t1 = orcl_l1 + orcl_r1 * 4;
        #pragma unroll
        for (long orcl_r0 = 0; orcl_r0 < 1; orcl_r0 += 1) {
            const long orcl_t0 = orcl_l0 + orcl_r0 * 8;
            const int j = (int)(orcl_base0 + orcl_t0);
            const int i = (int)(orcl_base1 + orcl_t1);
            if (j < n - 1 && i < n - 1) {
                for (int k = 1; k < n - 1; k++) {
                    B[(i * n + j) * n + k] = 0.125 * (A[((i + 1) * n + j) * n + k] - 2.0 * A[(i * n + j) * n + k] + A[((i - 1) * n + j) * n + k]) + 0.125 * (A[(i * n + (j + 1)) * n + k] - 2.0 * A[(i * n + j) * n + k] + A[(i * n + (j - 1)) * n + k]) + 0.125 * (A[(i * n + j) * n + (k + 1)] - 2.0 * A[(i * n + j) * n + k] + A[(i * n + j) * n + (k - 1)]) + A[(i * n + j) * n + k];
                }
            }
        }
    }
}
extern "C" __global__ void orcl_kernel_1(const int n, double *__restrict__ A, const double *__restrict__ B)
{
    const long orcl_g0 = (long)blockIdx.x;
    const long orcl_l0 = (long)threadIdx.x;
    const long orcl_base0 = (long)(1) + orcl_g0 * 8;
    const long orcl_g1 = (long)blockIdx.y;
    const long orcl_l1 = (long)threadIdx.y;
    const long orcl_base1 = (long)(1) + orcl_g1 * 4;
    #pragma unroll
    for (long orcl_r1 = 0; orcl_r1 < 1; orcl_r1 += 1) {
        const long orcl_t1 = orcl_l1 + orcl_r1 * 4;
        #pragma unroll
        for (long orcl_r0 = 0; orcl_r0 < 1; orcl_r0 += 1) {
            const long orcl_t0 = orcl_l0 + orcl_r0 * 8;
            const int j = (int)(orcl_base0 + orcl_t0);
            const int i = (int)(orcl_base1 + orcl_t1);
            if (j < n - 1 && i < n - 1) {
                for (int k = 1; k < n - 1; k++) {
                    A[(i * n + j) * n + k] = 0.125 * (B[((i + 1) * n + j) * n + k] - 2.0 * B[(i * n + j) * n + k] + B[((i - 1) * n + j) * n + k]) + 0.125 * (B[(i * n + (j + 1)) * n + k] - 2.0 * B[(i * n + j) * n + k] + B[(i * n + (j - 1)) * n + k]) + 0.125 * (B[(i * n + j) * n + (k + 1)] - 2.0 * B[(i * n + j) * n + k] + B[(i * n + j) * n + (k - 1)]) + B[(i * n + j) * n + k];
                }
            }
        }
    }
}
