/* configuration: MM='tf32' TI=64 TJ=128 TK=32 WI=64 WJ=64 PAD=0 VL=4 ST=3 MI='wgmma' */
/* input: K=200 M=130 N=77 */
/* 2-D NDRange (grid): dimension 0 (nest loop 1) 128 iterations and 64 work-items per work-group; dimension 1 (nest loop 0) 64 iterations and 4 work-items per work-group */
/* grid: one block per tile, 256 threads per block; NVRTC options and launch tokens: "-orcl-arch=a -orcl-smem=74784" */
/* ---- CUDA kernel ---- */
extern "C" __global__ void __launch_bounds__(256) orcl_kernel(const int m, const int n, const int k, const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, const float alpha, const float beta)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && defined(__CUDA_ARCH_FEAT_SM90_ALL) && !defined(ORCL_EMULATE_MMA)
#define ORCL_MMA_SYNC 1
#define orcl_smem(p) ((unsigned int)__cvta_generic_to_shared(p))
#else
#define ORCL_MMA_SYNC 0
#endif
#define orcl_tf32(x) (((__float_as_uint(x) & 0x7f800000u) == 0x7f800000u) ? (x) : __uint_as_float((__float_as_uint(x) + 0x1000u) & 0xffffe000u))
#define orcl_f2u(x) __float_as_uint(x)
#define orcl_u2f(x) __uint_as_float(x)
#define orcl_u64 unsigned long long
#define ORCL_GMMA ""
#define orcl_gdesc(a, lbo, sbo) ((orcl_u64)(((a) & 0x3FFFF) >> 4) | ((orcl_u64)((lbo) >> 4) << 16) | ((orcl_u64)((sbo) >> 4) << 32) | ((orcl_u64)1 << 62))
#define orcl_gx(o) ((o) ^ ((((o) >> 7) & 7) << 4))
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL) && !defined(ORCL_EMULATE_MMA)
#warning "orcl: this kernel issues wgmma (sm_90a); built for another architecture it runs its emulated form: build with -arch=sm_90a"
#endif
    const long orcl_g0 = (long)blockIdx.x;
    const long orcl_h0 = (long)threadIdx.x;
    const long orcl_base0 = (long)(0) + orcl_g0 * 128;
    const long orcl_g1 = (long)blockIdx.y;
    const long orcl_h1 = (long)threadIdx.y;
    const long orcl_base1 = (long)(0) + orcl_g1 * 64;
    const long orcl_lin = orcl_h0 + 64 * orcl_h1;
    const long orcl_warp = orcl_lin / 32;
    const long orcl_lane = orcl_lin % 32;
    const long orcl_gid = orcl_lane / 4;
    const long orcl_tig = orcl_lane % 4;
    const long orcl_wgm0 = (orcl_warp / 4 / 2) * 64;
    const long orcl_wm0 = orcl_wgm0 + (orcl_warp % 4) * 16;
    const long orcl_wn0 = (orcl_warp / 4 % 2) * 64;
    extern __shared__ __align__(1024) unsigned char orcl_dsmem0[];
    unsigned char *orcl_dsmem = orcl_dsmem0 + ((1024u - ((unsigned int)__cvta_generic_to_shared(orcl_dsmem0) & 1023u)) & 1023u);
    float (*orcl_tile0)[64][32] = (float (*)[64][32])(orcl_dsmem + 0);
    float (*orcl_tile1)[128][32] = (float (*)[128][32])(orcl_dsmem + 24576);
    float orcl_acc[1][8][4];
    #pragma unroll
    for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {
        #pragma unroll
        for (long orcl_ni = 0; orcl_ni < 8; orcl_ni += 1) {
            #pragma unroll
            for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                const int i = (int)(orcl_base1 + orcl_wm0 + orcl_mi * 16 + orcl_gid + 8 * (orcl_q / 2));
                const int j = (int)(orcl_base0 + orcl_wn0 + orcl_ni * 8 + 2 * orcl_tig + orcl_q % 2);
                orcl_acc[orcl_mi][orcl_ni][orcl_q] = (j <= n - 1 && i <= m - 1) ? (0.0f) : 0.0f;
            }
        }
    }
    const long orcl_klo = (long)(0);
    const long orcl_kend = (long)(k - 1) + 1;
    const long orcl_kn = orcl_kend > orcl_klo ? orcl_kend - orcl_klo : 0;
    float orcl_p1[16];
    if (0 < orcl_kn) {
        {
            int orcl_fast = 0 + 32 <= orcl_kn && orcl_base1 + 63 <= m - 1 && orcl_base0 + 127 <= n - 1;
            {
                const int i = (int)(orcl_base1 + 0);
                const int l = (int)(orcl_klo + 0 + 0);
                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 16 == 0;
            }
            {
                const int i = (int)(orcl_base1 + 0);
                const int l = (int)(orcl_klo + 0 + 4);
                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 16 == 0;
            }
            {
                const int i = (int)(orcl_base1 + 1);
                const int l = (int)(orcl_klo + 0 + 0);
                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 16 == 0;
            }
            {
                const int j = (int)(orcl_base0 + 0);
                const int l = (int)(orcl_klo + 0 + 0);
                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 16 == 0;
            }
            {
                const int j = (int)(orcl_base0 + 4);
                const int l = (int)(orcl_klo + 0 + 0);
                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 16 == 0;
            }
            {
                const int j = (int)(orcl_base0 + 0);
                const int l = (int)(orcl_klo + 0 + 1);
                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 16 == 0;
            }
            if (orcl_fast) {
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 2; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 256;
                    const long orcl_kk = (orcl_e % 8) * 4;
                    const long orcl_t = orcl_e / 8;
                    const int i = (int)(orcl_base1 + orcl_t);
                    const int l = (int)(orcl_klo + 0 + orcl_kk);
                    if (1) {
#if ORCL_MMA_SYNC
                        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile0[0][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)])), "l"((size_t)&A[i * k + l]) : "memory");
#else
                        {
                            const float4 orcl_v = *(const float4 *)&A[i * k + l];
                            *(float4 *)&orcl_tile0[0][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)] = orcl_v;
                        }
#endif
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int i = (int)(orcl_base1 + orcl_t);
                            const int l = (int)(orcl_klo + 0 + orcl_kk + orcl_w);
                            orcl_tile0[0][orcl_t][(orcl_kk + orcl_w) ^ (((orcl_t) & 7) << 2)] = (1) ? A[i * k + l] : 0;
                        }
                    }
                }
            } else {
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 2; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 256;
                    const long orcl_kk = (orcl_e % 8) * 4;
                    const long orcl_t = orcl_e / 8;
                    const int i = (int)(orcl_base1 + orcl_t);
                    const int l = (int)(orcl_klo + 0 + orcl_kk);
                    if (i <= m - 1 && 0 + orcl_kk + 3 < orcl_kn && (size_t)&A[i * k + l] % 16 == 0) {
#if ORCL_MMA_SYNC
                        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile0[0][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)])), "l"((size_t)&A[i * k + l]) : "memory");
#else
                        {
                            const float4 orcl_v = *(const float4 *)&A[i * k + l];
                            *(float4 *)&orcl_tile0[0][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)] = orcl_v;
                        }
#endif
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int i = (int)(orcl_base1 + orcl_t);
                            const int l = (int)(orcl_klo + 0 + orcl_kk + orcl_w);
                            orcl_tile0[0][orcl_t][(orcl_kk + orcl_w) ^ (((orcl_t) & 7) << 2)] = (0 + orcl_kk + orcl_w < orcl_kn && i <= m - 1) ? A[i * k + l] : 0;
                        }
                    }
                }
            }
        }
        {
            int orcl_fast = 0 + 32 <= orcl_kn && orcl_base1 + 63 <= m - 1 && orcl_base0 + 127 <= n - 1;
            {
                const int i = (int)(orcl_base1 + 0);
                const int l = (int)(orcl_klo + 0 + 0);
                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 16 == 0;
            }
            {
                const int i = (int)(orcl_base1 + 0);
                const int l = (int)(orcl_klo + 0 + 4);
                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 16 == 0;
            }
            {
                const int i = (int)(orcl_base1 + 1);
                const int l = (int)(orcl_klo + 0 + 0);
                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 16 == 0;
            }
            {
                const int j = (int)(orcl_base0 + 0);
                const int l = (int)(orcl_klo + 0 + 0);
                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 16 == 0;
            }
            {
                const int j = (int)(orcl_base0 + 4);
                const int l = (int)(orcl_klo + 0 + 0);
                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 16 == 0;
            }
            {
                const int j = (int)(orcl_base0 + 0);
                const int l = (int)(orcl_klo + 0 + 1);
                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 16 == 0;
            }
            if (orcl_fast) {
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 256;
                    const long orcl_kk = ((orcl_lin + (orcl_q / 4) * 256) / 2 % 8) * 4 + orcl_q % 4;
                    const long orcl_t = ((orcl_lin + (orcl_q / 4) * 256) / 32 * 4 + (orcl_lin + (orcl_q / 4) * 256) / 16 % 2 * 2 + (orcl_lin + (orcl_q / 4) * 256) % 2) * 4;
                    const int j = (int)(orcl_base0 + orcl_t);
                    const int l = (int)(orcl_klo + 0 + orcl_kk);
                    if (1) {
                        {
                            const float4 orcl_v = *(const float4 *)&B[l * n + j];
                            orcl_p1[orcl_q * 4 + 0] = orcl_v.x;
                            orcl_p1[orcl_q * 4 + 1] = orcl_v.y;
                            orcl_p1[orcl_q * 4 + 2] = orcl_v.z;
                            orcl_p1[orcl_q * 4 + 3] = orcl_v.w;
                        }
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int j = (int)(orcl_base0 + orcl_t + orcl_w);
                            const int l = (int)(orcl_klo + 0 + orcl_kk);
                            orcl_p1[orcl_q * 4 + orcl_w] = (1) ? B[l * n + j] : 0;
                        }
                    }
                }
            } else {
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 256;
                    const long orcl_kk = ((orcl_lin + (orcl_q / 4) * 256) / 2 % 8) * 4 + orcl_q % 4;
                    const long orcl_t = ((orcl_lin + (orcl_q / 4) * 256) / 32 * 4 + (orcl_lin + (orcl_q / 4) * 256) / 16 % 2 * 2 + (orcl_lin + (orcl_q / 4) * 256) % 2) * 4;
                    const int j = (int)(orcl_base0 + orcl_t);
                    const int l = (int)(orcl_klo + 0 + orcl_kk);
                    if (j + 3 <= n - 1 && 0 + orcl_kk < orcl_kn && (size_t)&B[l * n + j] % 16 == 0) {
                        {
                            const float4 orcl_v = *(const float4 *)&B[l * n + j];
                            orcl_p1[orcl_q * 4 + 0] = orcl_v.x;
                            orcl_p1[orcl_q * 4 + 1] = orcl_v.y;
                            orcl_p1[orcl_q * 4 + 2] = orcl_v.z;
                            orcl_p1[orcl_q * 4 + 3] = orcl_v.w;
                        }
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int j = (int)(orcl_base0 + orcl_t + orcl_w);
                            const int l = (int)(orcl_klo + 0 + orcl_kk);
                            orcl_p1[orcl_q * 4 + orcl_w] = (0 + orcl_kk < orcl_kn && j <= n - 1) ? B[l * n + j] : 0;
                        }
                    }
                }
            }
        }
        #pragma unroll
        for (long orcl_b = 0; orcl_b < 1; orcl_b += 1) {
            const long orcl_q = orcl_b * 4;
            const long orcl_kk = ((orcl_lin + (orcl_q / 4) * 256) / 2 % 8) * 4 + orcl_q % 4;
            const long orcl_t = ((orcl_lin + (orcl_q / 4) * 256) / 32 * 4 + (orcl_lin + (orcl_q / 4) * 256) / 16 % 2 * 2 + (orcl_lin + (orcl_q / 4) * 256) % 2) * 4;
#if ORCL_MMA_SYNC
            asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" :: "r"(orcl_smem(&orcl_tile1[0][orcl_t + 0][(orcl_kk) ^ (((orcl_t + 0) & 7) << 2)])), "f"(orcl_p1[(orcl_q + 0) * 4 + 0]), "f"(orcl_p1[(orcl_q + 1) * 4 + 0]), "f"(orcl_p1[(orcl_q + 2) * 4 + 0]), "f"(orcl_p1[(orcl_q + 3) * 4 + 0]) : "memory");
#else
            orcl_tile1[0][orcl_t + 0][(orcl_kk) ^ (((orcl_t + 0) & 7) << 2)] = orcl_p1[(orcl_q + 0) * 4 + 0];
            orcl_tile1[0][orcl_t + 0][(orcl_kk + 1) ^ (((orcl_t + 0) & 7) << 2)] = orcl_p1[(orcl_q + 1) * 4 + 0];
            orcl_tile1[0][orcl_t + 0][(orcl_kk + 2) ^ (((orcl_t + 0) & 7) << 2)] = orcl_p1[(orcl_q + 2) * 4 + 0];
            orcl_tile1[0][orcl_t + 0][(orcl_kk + 3) ^ (((orcl_t + 0) & 7) << 2)] = orcl_p1[(orcl_q + 3) * 4 + 0];
#endif
#if ORCL_MMA_SYNC
            asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" :: "r"(orcl_smem(&orcl_tile1[0][orcl_t + 1][(orcl_kk) ^ (((orcl_t + 1) & 7) << 2)])), "f"(orcl_p1[(orcl_q + 0) * 4 + 1]), "f"(orcl_p1[(orcl_q + 1) * 4 + 1]), "f"(orcl_p1[(orcl_q + 2) * 4 + 1]), "f"(orcl_p1[(orcl_q + 3) * 4 + 1]) : "memory");
#else
            orcl_tile1[0][orcl_t + 1][(orcl_kk) ^ (((orcl_t + 1) & 7) << 2)] = orcl_p1[(orcl_q + 0) * 4 + 1];
            orcl_tile1[0][orcl_t + 1][(orcl_kk + 1) ^ (((orcl_t + 1) & 7) << 2)] = orcl_p1[(orcl_q + 1) * 4 + 1];
            orcl_tile1[0][orcl_t + 1][(orcl_kk + 2) ^ (((orcl_t + 1) & 7) << 2)] = orcl_p1[(orcl_q + 2) * 4 + 1];
            orcl_tile1[0][orcl_t + 1][(orcl_kk + 3) ^ (((orcl_t + 1) & 7) << 2)] = orcl_p1[(orcl_q + 3) * 4 + 1];
#endif
#if ORCL_MMA_SYNC
            asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" :: "r"(orcl_smem(&orcl_tile1[0][orcl_t + 2][(orcl_kk) ^ (((orcl_t + 2) & 7) << 2)])), "f"(orcl_p1[(orcl_q + 0) * 4 + 2]), "f"(orcl_p1[(orcl_q + 1) * 4 + 2]), "f"(orcl_p1[(orcl_q + 2) * 4 + 2]), "f"(orcl_p1[(orcl_q + 3) * 4 + 2]) : "memory");
#else
            orcl_tile1[0][orcl_t + 2][(orcl_kk) ^ (((orcl_t + 2) & 7) << 2)] = orcl_p1[(orcl_q + 0) * 4 + 2];
            orcl_tile1[0][orcl_t + 2][(orcl_kk + 1) ^ (((orcl_t + 2) & 7) << 2)] = orcl_p1[(orcl_q + 1) * 4 + 2];
            orcl_tile1[0][orcl_t + 2][(orcl_kk + 2) ^ (((orcl_t + 2) & 7) << 2)] = orcl_p1[(orcl_q + 2) * 4 + 2];
            orcl_tile1[0][orcl_t + 2][(orcl_kk + 3) ^ (((orcl_t + 2) & 7) << 2)] = orcl_p1[(orcl_q + 3) * 4 + 2];
#endif
#if ORCL_MMA_SYNC
            asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" :: "r"(orcl_smem(&orcl_tile1[0][orcl_t + 3][(orcl_kk) ^ (((orcl_t + 3) & 7) << 2)])), "f"(orcl_p1[(orcl_q + 0) * 4 + 3]), "f"(orcl_p1[(orcl_q + 1) * 4 + 3]), "f"(orcl_p1[(orcl_q + 2) * 4 + 3]), "f"(orcl_p1[(orcl_q + 3) * 4 + 3]) : "memory");
#else
            orcl_tile1[0][orcl_t + 3][(orcl_kk) ^ (((orcl_t + 3) & 7) << 2)] = orcl_p1[(orcl_q + 0) * 4 + 3];
            orcl_tile1[0][orcl_t + 3][(orcl_kk + 1) ^ (((orcl_t + 3) & 7) << 2)] = orcl_p1[(orcl_q + 1) * 4 + 3];
            orcl_tile1[0][orcl_t + 3][(orcl_kk + 2) ^ (((orcl_t + 3) & 7) << 2)] = orcl_p1[(orcl_q + 2) * 4 + 3];
            orcl_tile1[0][orcl_t + 3][(orcl_kk + 3) ^ (((orcl_t + 3) & 7) << 2)] = orcl_p1[(orcl_q + 3) * 4 + 3];
#endif
        }
    }
#if ORCL_MMA_SYNC
    asm volatile("cp.async.commit_group;" ::: "memory");
#else
#endif
    if (32 < orcl_kn) {
        {
            int orcl_fast = 32 + 32 <= orcl_kn && orcl_base1 + 63 <= m - 1 && orcl_base0 + 127 <= n - 1;
            {
                const int i = (int)(orcl_base1 + 0);
                const int l = (int)(orcl_klo + 32 + 0);
                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 16 == 0;
            }
            {
                const int i = (int)(orcl_base1 + 0);
                const int l = (int)(orcl_klo + 32 + 4);
                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 16 == 0;
            }
            {
                const int i = (int)(orcl_base1 + 1);
                const int l = (int)(orcl_klo + 32 + 0);
                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 16 == 0;
            }
            {
                const int j = (int)(orcl_base0 + 0);
                const int l = (int)(orcl_klo + 32 + 0);
                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 16 == 0;
            }
            {
                const int j = (int)(orcl_base0 + 4);
                const int l = (int)(orcl_klo + 32 + 0);
                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 16 == 0;
            }
            {
                const int j = (int)(orcl_base0 + 0);
                const int l = (int)(orcl_klo + 32 + 1);
                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 16 == 0;
            }
            if (orcl_fast) {
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 256;
                    const long orcl_kk = ((orcl_lin + (orcl_q / 4) * 256) / 2 % 8) * 4 + orcl_q % 4;
                    const long orcl_t = ((orcl_lin + (orcl_q / 4) * 256) / 32 * 4 + (orcl_lin + (orcl_q / 4) * 256) / 16 % 2 * 2 + (orcl_lin + (orcl_q / 4) * 256) % 2) * 4;
                    const int j = (int)(orcl_base0 + orcl_t);
                    const int l = (int)(orcl_klo + 32 + orcl_kk);
                    if (1) {
                        {
                            const float4 orcl_v = *(const float4 *)&B[l * n + j];
                            orcl_p1[orcl_q * 4 + 0] = orcl_v.x;
                            orcl_p1[orcl_q * 4 + 1] = orcl_v.y;
                            orcl_p1[orcl_q * 4 + 2] = orcl_v.z;
                            orcl_p1[orcl_q * 4 + 3] = orcl_v.w;
                        }
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int j = (int)(orcl_base0 + orcl_t + orcl_w);
                            const int l = (int)(orcl_klo + 32 + orcl_kk);
                            orcl_p1[orcl_q * 4 + orcl_w] = (1) ? B[l * n + j] : 0;
                        }
                    }
                }
            } else {
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 256;
                    const long orcl_kk = ((orcl_lin + (orcl_q / 4) * 256) / 2 % 8) * 4 + orcl_q % 4;
                    const long orcl_t = ((orcl_lin + (orcl_q / 4) * 256) / 32 * 4 + (orcl_lin + (orcl_q / 4) * 256) / 16 % 2 * 2 + (orcl_lin + (orcl_q / 4) * 256) % 2) * 4;
                    const int j = (int)(orcl_base0 + orcl_t);
                    const int l = (int)(orcl_klo + 32 + orcl_kk);
                    if (j + 3 <= n - 1 && 32 + orcl_kk < orcl_kn && (size_t)&B[l * n + j] % 16 == 0) {
                        {
                            const float4 orcl_v = *(const float4 *)&B[l * n + j];
                            orcl_p1[orcl_q * 4 + 0] = orcl_v.x;
                            orcl_p1[orcl_q * 4 + 1] = orcl_v.y;
                            orcl_p1[orcl_q * 4 + 2] = orcl_v.z;
                            orcl_p1[orcl_q * 4 + 3] = orcl_v.w;
                        }
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int j = (int)(orcl_base0 + orcl_t + orcl_w);
                            const int l = (int)(orcl_klo + 32 + orcl_kk);
                            orcl_p1[orcl_q * 4 + orcl_w] = (32 + orcl_kk < orcl_kn && j <= n - 1) ? B[l * n + j] : 0;
                        }
                    }
                }
            }
        }
    }
    int orcl_fast0 = orcl_base1 + 63 <= m - 1 && orcl_base0 + 127 <= n - 1;
    {
        const int i = (int)(orcl_base1 + 0);
        const int l = (int)(orcl_klo + 0 + 0);
        orcl_fast0 = orcl_fast0 && (size_t)&A[i * k + l] % 16 == 0;
    }
    {
        const int i = (int)(orcl_base1 + 0);
        const int l = (int)(orcl_klo + 0 + 4);
        orcl_fast0 = orcl_fast0 && (size_t)&A[i * k + l] % 16 == 0;
    }
    {
        const int i = (int)(orcl_base1 + 1);
        const int l = (int)(orcl_klo + 0 + 0);
        orcl_fast0 = orcl_fast0 && (size_t)&A[i * k + l] % 16 == 0;
    }
    {
        const int j = (int)(orcl_base0 + 0);
        const int l = (int)(orcl_klo + 0 + 0);
        orcl_fast0 = orcl_fast0 && (size_t)&B[l * n + j] % 16 == 0;
    }
    {
        const int j = (int)(orcl_base0 + 4);
        const int l = (int)(orcl_klo + 0 + 0);
        orcl_fast0 = orcl_fast0 && (size_t)&B[l * n + j] % 16 == 0;
    }
    {
        const int j = (int)(orcl_base0 + 0);
        const int l = (int)(orcl_klo + 0 + 1);
        orcl_fast0 = orcl_fast0 && (size_t)&B[l * n + j] % 16 == 0;
    }
    for (long orcl_k0 = 0; orcl_k0 < orcl_kn; orcl_k0 += 32) {
        const int orcl_buf = (int)((orcl_k0 / 32) % 3);
        const int orcl_fill = (orcl_buf + 1) % 3;
#if ORCL_MMA_SYNC
        asm volatile("cp.async.wait_group 0;" ::: "memory");
#else
#endif
        {
#if ORCL_MMA_SYNC
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#else
#endif
        }
        {
        }
        __syncthreads();
        {
#if ORCL_MMA_SYNC
            asm volatile(ORCL_GMMA "wgmma.fence.sync.aligned;" ::: "memory");
            {
                orcl_u64 orcl_da = orcl_gdesc(orcl_smem(&orcl_tile0[orcl_buf][0][0]) + orcl_wgm0 * 128 + (0) * 4, 16, 1024);
                orcl_u64 orcl_db = orcl_gdesc(orcl_smem(&orcl_tile1[orcl_buf][0][0]) + orcl_wn0 * 128 + (0) * 4, 16, 1024);
                asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n" ORCL_GMMA "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1;\n}\n"
                    : "+f"(orcl_acc[0][0][0]), "+f"(orcl_acc[0][0][1]), "+f"(orcl_acc[0][0][2]), "+f"(orcl_acc[0][0][3]), "+f"(orcl_acc[0][1][0]), "+f"(orcl_acc[0][1][1]), "+f"(orcl_acc[0][1][2]), "+f"(orcl_acc[0][1][3]), "+f"(orcl_acc[0][2][0]), "+f"(orcl_acc[0][2][1]), "+f"(orcl_acc[0][2][2]), "+f"(orcl_acc[0][2][3]), "+f"(orcl_acc[0][3][0]), "+f"(orcl_acc[0][3][1]), "+f"(orcl_acc[0][3][2]), "+f"(orcl_acc[0][3][3]), "+f"(orcl_acc[0][4][0]), "+f"(orcl_acc[0][4][1]), "+f"(orcl_acc[0][4][2]), "+f"(orcl_acc[0][4][3]), "+f"(orcl_acc[0][5][0]), "+f"(orcl_acc[0][5][1]), "+f"(orcl_acc[0][5][2]), "+f"(orcl_acc[0][5][3]), "+f"(orcl_acc[0][6][0]), "+f"(orcl_acc[0][6][1]), "+f"(orcl_acc[0][6][2]), "+f"(orcl_acc[0][6][3]), "+f"(orcl_acc[0][7][0]), "+f"(orcl_acc[0][7][1]), "+f"(orcl_acc[0][7][2]), "+f"(orcl_acc[0][7][3])
                    : "l"(orcl_da), "l"(orcl_db), "r"(1));
            }
            {
                orcl_u64 orcl_da = orcl_gdesc(orcl_smem(&orcl_tile0[orcl_buf][0][0]) + orcl_wgm0 * 128 + (8) * 4, 16, 1024);
                orcl_u64 orcl_db = orcl_gdesc(orcl_smem(&orcl_tile1[orcl_buf][0][0]) + orcl_wn0 * 128 + (8) * 4, 16, 1024);
                asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n" ORCL_GMMA "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1;\n}\n"
                    : "+f"(orcl_acc[0][0][0]), "+f"(orcl_acc[0][0][1]), "+f"(orcl_acc[0][0][2]), "+f"(orcl_acc[0][0][3]), "+f"(orcl_acc[0][1][0]), "+f"(orcl_acc[0][1][1]), "+f"(orcl_acc[0][1][2]), "+f"(orcl_acc[0][1][3]), "+f"(orcl_acc[0][2][0]), "+f"(orcl_acc[0][2][1]), "+f"(orcl_acc[0][2][2]), "+f"(orcl_acc[0][2][3]), "+f"(orcl_acc[0][3][0]), "+f"(orcl_acc[0][3][1]), "+f"(orcl_acc[0][3][2]), "+f"(orcl_acc[0][3][3]), "+f"(orcl_acc[0][4][0]), "+f"(orcl_acc[0][4][1]), "+f"(orcl_acc[0][4][2]), "+f"(orcl_acc[0][4][3]), "+f"(orcl_acc[0][5][0]), "+f"(orcl_acc[0][5][1]), "+f"(orcl_acc[0][5][2]), "+f"(orcl_acc[0][5][3]), "+f"(orcl_acc[0][6][0]), "+f"(orcl_acc[0][6][1]), "+f"(orcl_acc[0][6][2]), "+f"(orcl_acc[0][6][3]), "+f"(orcl_acc[0][7][0]), "+f"(orcl_acc[0][7][1]), "+f"(orcl_acc[0][7][2]), "+f"(orcl_acc[0][7][3])
                    : "l"(orcl_da), "l"(orcl_db), "r"(1));
            }
            {
                orcl_u64 orcl_da = orcl_gdesc(orcl_smem(&orcl_tile0[orcl_buf][0][0]) + orcl_wgm0 * 128 + (16) * 4, 16, 1024);
                orcl_u64 orcl_db = orcl_gdesc(orcl_smem(&orcl_tile1[orcl_buf][0][0]) + orcl_wn0 * 128 + (16) * 4, 16, 1024);
                asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n" ORCL_GMMA "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1;\n}\n"
                    : "+f"(orcl_acc[0][0][0]), "+f"(orcl_acc[0][0][1]), "+f"(orcl_acc[0][0][2]), "+f"(orcl_acc[0][0][3]), "+f"(orcl_acc[0][1][0]), "+f"(orcl_acc[0][1][1]), "+f"(orcl_acc[0][1][2]), "+f"(orcl_acc[0][1][3]), "+f"(orcl_acc[0][2][0]), "+f"(orcl_acc[0][2][1]), "+f"(orcl_acc[0][2][2]), "+f"(orcl_acc[0][2][3]), "+f"(orcl_acc[0][3][0]), "+f"(orcl_acc[0][3][1]), "+f"(orcl_acc[0][3][2]), "+f"(orcl_acc[0][3][3]), "+f"(orcl_acc[0][4][0]), "+f"(orcl_acc[0][4][1]), "+f"(orcl_acc[0][4][2]), "+f"(orcl_acc[0][4][3]), "+f"(orcl_acc[0][5][0]), "+f"(orcl_acc[0][5][1]), "+f"(orcl_acc[0][5][2]), "+f"(orcl_acc[0][5][3]), "+f"(orcl_acc[0][6][0]), "+f"(orcl_acc[0][6][1]), "+f"(orcl_acc[0][6][2]), "+f"(orcl_acc[0][6][3]), "+f"(orcl_acc[0][7][0]), "+f"(orcl_acc[0][7][1]), "+f"(orcl_acc[0][7][2]), "+f"(orcl_acc[0][7][3])
                    : "l"(orcl_da), "l"(orcl_db), "r"(1));
            }
            {
                orcl_u64 orcl_da = orcl_gdesc(orcl_smem(&orcl_tile0[orcl_buf][0][0]) + orcl_wgm0 * 128 + (24) * 4, 16, 1024);
                orcl_u64 orcl_db = orcl_gdesc(orcl_smem(&orcl_tile1[orcl_buf][0][0]) + orcl_wn0 * 128 + (24) * 4, 16, 1024);
                asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n" ORCL_GMMA "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1;\n}\n"
                    : "+f"(orcl_acc[0][0][0]), "+f"(orcl_acc[0][0][1]), "+f"(orcl_acc[0][0][2]), "+f"(orcl_acc[0][0][3]), "+f"(orcl_acc[0][1][0]), "+f"(orcl_acc[0][1][1]), "+f"(orcl_acc[0][1][2]), "+f"(orcl_acc[0][1][3]), "+f"(orcl_acc[0][2][0]), "+f"(orcl_acc[0][2][1]), "+f"(orcl_acc[0][2][2]), "+f"(orcl_acc[0][2][3]), "+f"(orcl_acc[0][3][0]), "+f"(orcl_acc[0][3][1]), "+f"(orcl_acc[0][3][2]), "+f"(orcl_acc[0][3][3]), "+f"(orcl_acc[0][4][0]), "+f"(orcl_acc[0][4][1]), "+f"(orcl_acc[0][4][2]), "+f"(orcl_acc[0][4][3]), "+f"(orcl_acc[0][5][0]), "+f"(orcl_acc[0][5][1]), "+f"(orcl_acc[0][5][2]), "+f"(orcl_acc[0][5][3]), "+f"(orcl_acc[0][6][0]), "+f"(orcl_acc[0][6][1]), "+f"(orcl_acc[0][6][2]), "+f"(orcl_acc[0][6][3]), "+f"(orcl_acc[0][7][0]), "+f"(orcl_acc[0][7][1]), "+f"(orcl_acc[0][7][2]), "+f"(orcl_acc[0][7][3])
                    : "l"(orcl_da), "l"(orcl_db), "r"(1));
            }
            asm volatile(ORCL_GMMA "wgmma.commit_group.sync.aligned;" ::: "memory");
#else
            #pragma unroll
            for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {
                #pragma unroll
                for (long orcl_ni = 0; orcl_ni < 8; orcl_ni += 1) {
                    #pragma unroll
                    for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                        const long orcl_r = (orcl_warp % 4) * 16 + orcl_gid + 8 * (orcl_q / 2);
                        const long orcl_c = orcl_ni * 8 + 2 * orcl_tig + orcl_q % 2;
                        float orcl_d = orcl_acc[orcl_mi][orcl_ni][orcl_q];
                        #pragma unroll
                        for (long orcl_ks = 0; orcl_ks < 32; orcl_ks += 8) {
                            #pragma unroll
                            for (long orcl_kk = 0; orcl_kk < 8; orcl_kk += 1) {
                                const long orcl_ea = orcl_gx(orcl_wgm0 * 128 + (orcl_ks) * 4 + (orcl_r) / 8 * 1024 + (orcl_r) % 8 * 128 + (orcl_kk) * 4) / 4;
                                const long orcl_eb = orcl_gx(orcl_wn0 * 128 + (orcl_ks) * 4 + (orcl_c) / 8 * 1024 + (orcl_c) % 8 * 128 + (orcl_kk) * 4) / 4;
                                orcl_d = orcl_d + orcl_u2f(orcl_f2u(orcl_tile0[orcl_buf][orcl_ea / 32][orcl_ea % 32]) & 0xffffe000u) * orcl_u2f(orcl_f2u(orcl_tile1[orcl_buf][orcl_eb / 32][orcl_eb % 32]) & 0xffffe000u);
                            }
                        }
                        orcl_acc[orcl_mi][orcl_ni][orcl_q] = orcl_d;
                    }
                }
            }
#endif
        }
        if (orcl_k0 + 32 < orcl_kn) {
            {
                int orcl_fast = orcl_k0 + 32 + 32 <= orcl_kn && orcl_fast0;
                if (orcl_fast) {
                    #pragma unroll
                    for (long orcl_q = 0; orcl_q < 2; orcl_q += 1) {
                        const long orcl_e = orcl_lin + orcl_q * 256;
                        const long orcl_kk = (orcl_e % 8) * 4;
                        const long orcl_t = orcl_e / 8;
                        const int i = (int)(orcl_base1 + orcl_t);
                        const int l = (int)(orcl_klo + orcl_k0 + 32 + orcl_kk);
                        if (1) {
#if ORCL_MMA_SYNC
                            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile0[orcl_fill][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)])), "l"((size_t)&A[i * k + l]) : "memory");
#else
                            {
                                const float4 orcl_v = *(const float4 *)&A[i * k + l];
                                *(float4 *)&orcl_tile0[orcl_fill][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)] = orcl_v;
                            }
#endif
                        } else {
                            #pragma unroll
                            for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                                const int i = (int)(orcl_base1 + orcl_t);
                                const int l = (int)(orcl_klo + orcl_k0 + 32 + orcl_kk + orcl_w);
                                orcl_tile0[orcl_fill][orcl_t][(orcl_kk + orcl_w) ^ (((orcl_t) & 7) << 2)] = (1) ? A[i * k + l] : 0;
                            }
                        }
                    }
                } else {
                    #pragma unroll
                    for (long orcl_q = 0; orcl_q < 2; orcl_q += 1) {
                        const long orcl_e = orcl_lin + orcl_q * 256;
                        const long orcl_kk = (orcl_e % 8) * 4;
                        const long orcl_t = orcl_e / 8;
                        const int i = (int)(orcl_base1 + orcl_t);
                        const int l = (int)(orcl_klo + orcl_k0 + 32 + orcl_kk);
                        if (i <= m - 1 && orcl_k0 + 32 + orcl_kk + 3 < orcl_kn && (size_t)&A[i * k + l] % 16 == 0) {
#if ORCL_MMA_SYNC
                            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile0[orcl_fill][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)])), "l"((size_t)&A[i * k + l]) : "memory");
#else
                            {
                                const float4 orcl_v = *(const float4 *)&A[i * k + l];
                                *(float4 *)&orcl_tile0[orcl_fill][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)] = orcl_v;
                            }
#endif
                        } else {
                            #pragma unroll
                            for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                                const int i = (int)(orcl_base1 + orcl_t);
                                const int l = (int)(orcl_klo + orcl_k0 + 32 + orcl_kk + orcl_w);
                                orcl_tile0[orcl_fill][orcl_t][(orcl_kk + orcl_w) ^ (((orcl_t) & 7) << 2)] = (orcl_k0 + 32 + orcl_kk + orcl_w < orcl_kn && i <= m - 1) ? A[i * k + l] : 0;
                            }
                        }
                    }
                }
            }
            #pragma unroll
            for (long orcl_b = 0; orcl_b < 1; orcl_b += 1) {
                const long orcl_q = orcl_b * 4;
                const long orcl_kk = ((orcl_lin + (orcl_q / 4) * 256) / 2 % 8) * 4 + orcl_q % 4;
                const long orcl_t = ((orcl_lin + (orcl_q / 4) * 256) / 32 * 4 + (orcl_lin + (orcl_q / 4) * 256) / 16 % 2 * 2 + (orcl_lin + (orcl_q / 4) * 256) % 2) * 4;
#if ORCL_MMA_SYNC
                asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" :: "r"(orcl_smem(&orcl_tile1[orcl_fill][orcl_t + 0][(orcl_kk) ^ (((orcl_t + 0) & 7) << 2)])), "f"(orcl_p1[(orcl_q + 0) * 4 + 0]), "f"(orcl_p1[(orcl_q + 1) * 4 + 0]), "f"(orcl_p1[(orcl_q + 2) * 4 + 0]), "f"(orcl_p1[(orcl_q + 3) * 4 + 0]) : "memory");
#else
                orcl_tile1[orcl_fill][orcl_t + 0][(orcl_kk) ^ (((orcl_t + 0) & 7) << 2)] = orcl_p1[(orcl_q + 0) * 4 + 0];
                orcl_tile1[orcl_fill][orcl_t + 0][(orcl_kk + 1) ^ (((orcl_t + 0) & 7) << 2)] = orcl_p1[(orcl_q + 1) * 4 + 0];
                orcl_tile1[orcl_fill][orcl_t + 0][(orcl_kk + 2) ^ (((orcl_t + 0) & 7) << 2)] = orcl_p1[(orcl_q + 2) * 4 + 0];
                orcl_tile1[orcl_fill][orcl_t + 0][(orcl_kk + 3) ^ (((orcl_t + 0) & 7) << 2)] = orcl_p1[(orcl_q + 3) * 4 + 0];
#endif
#if ORCL_MMA_SYNC
                asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" :: "r"(orcl_smem(&orcl_tile1[orcl_fill][orcl_t + 1][(orcl_kk) ^ (((orcl_t + 1) & 7) << 2)])), "f"(orcl_p1[(orcl_q + 0) * 4 + 1]), "f"(orcl_p1[(orcl_q + 1) * 4 + 1]), "f"(orcl_p1[(orcl_q + 2) * 4 + 1]), "f"(orcl_p1[(orcl_q + 3) * 4 + 1]) : "memory");
#else
                orcl_tile1[orcl_fill][orcl_t + 1][(orcl_kk) ^ (((orcl_t + 1) & 7) << 2)] = orcl_p1[(orcl_q + 0) * 4 + 1];
                orcl_tile1[orcl_fill][orcl_t + 1][(orcl_kk + 1) ^ (((orcl_t + 1) & 7) << 2)] = orcl_p1[(orcl_q + 1) * 4 + 1];
                orcl_tile1[orcl_fill][orcl_t + 1][(orcl_kk + 2) ^ (((orcl_t + 1) & 7) << 2)] = orcl_p1[(orcl_q + 2) * 4 + 1];
                orcl_tile1[orcl_fill][orcl_t + 1][(orcl_kk + 3) ^ (((orcl_t + 1) & 7) << 2)] = orcl_p1[(orcl_q + 3) * 4 + 1];
#endif
#if ORCL_MMA_SYNC
                asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" :: "r"(orcl_smem(&orcl_tile1[orcl_fill][orcl_t + 2][(orcl_kk) ^ (((orcl_t + 2) & 7) << 2)])), "f"(orcl_p1[(orcl_q + 0) * 4 + 2]), "f"(orcl_p1[(orcl_q + 1) * 4 + 2]), "f"(orcl_p1[(orcl_q + 2) * 4 + 2]), "f"(orcl_p1[(orcl_q + 3) * 4 + 2]) : "memory");
#else
                orcl_tile1[orcl_fill][orcl_t + 2][(orcl_kk) ^ (((orcl_t + 2) & 7) << 2)] = orcl_p1[(orcl_q + 0) * 4 + 2];
                orcl_tile1[orcl_fill][orcl_t + 2][(orcl_kk + 1) ^ (((orcl_t + 2) & 7) << 2)] = orcl_p1[(orcl_q + 1) * 4 + 2];
                orcl_tile1[orcl_fill][orcl_t + 2][(orcl_kk + 2) ^ (((orcl_t + 2) & 7) << 2)] = orcl_p1[(orcl_q + 2) * 4 + 2];
                orcl_tile1[orcl_fill][orcl_t + 2][(orcl_kk + 3) ^ (((orcl_t + 2) & 7) << 2)] = orcl_p1[(orcl_q + 3) * 4 + 2];
#endif
#if ORCL_MMA_SYNC
                asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" :: "r"(orcl_smem(&orcl_tile1[orcl_fill][orcl_t + 3][(orcl_kk) ^ (((orcl_t + 3) & 7) << 2)])), "f"(orcl_p1[(orcl_q + 0) * 4 + 3]), "f"(orcl_p1[(orcl_q + 1) * 4 + 3]), "f"(orcl_p1[(orcl_q + 2) * 4 + 3]), "f"(orcl_p1[(orcl_q + 3) * 4 + 3]) : "memory");
#else
                orcl_tile1[orcl_fill][orcl_t + 3][(orcl_kk) ^ (((orcl_t + 3) & 7) << 2)] = orcl_p1[(orcl_q + 0) * 4 + 3];
                orcl_tile1[orcl_fill][orcl_t + 3][(orcl_kk + 1) ^ (((orcl_t + 3) & 7) << 2)] = orcl_p1[(orcl_q + 1) * 4 + 3];
                orcl_tile1[orcl_fill][orcl_t + 3][(orcl_kk + 2) ^ (((orcl_t + 3) & 7) << 2)] = orcl_p1[(orcl_q + 2) * 4 + 3];
                orcl_tile1[orcl_fill][orcl_t + 3][(orcl_kk + 3) ^ (((orcl_t + 3) & 7) << 2)] = orcl_p1[(orcl_q + 3) * 4 + 3];
#endif
            }
        }
#if ORCL_MMA_SYNC
        asm volatile("cp.async.commit_group;" ::: "memory");
#else
#endif
        if (orcl_k0 + 64 < orcl_kn) {
            {
                int orcl_fast = orcl_k0 + 64 + 32 <= orcl_kn && orcl_fast0;
                if (orcl_fast) {
                    #pragma unroll
                    for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                        const long orcl_e = orcl_lin + orcl_q * 256;
                        const long orcl_kk = ((orcl_lin + (orcl_q / 4) * 256) / 2 % 8) * 4 + orcl_q % 4;
                        const long orcl_t = ((orcl_lin + (orcl_q / 4) * 256) / 32 * 4 + (orcl_lin + (orcl_q / 4) * 256) / 16 % 2 * 2 + (orcl_lin + (orcl_q / 4) * 256) % 2) * 4;
                        const int j = (int)(orcl_base0 + orcl_t);
                        const int l = (int)(orcl_klo + orcl_k0 + 64 + orcl_kk);
                        if (1) {
                            {
                                const float4 orcl_v = *(const float4 *)&B[l * n + j];
                                orcl_p1[orcl_q * 4 + 0] = orcl_v.x;
                                orcl_p1[orcl_q * 4 + 1] = orcl_v.y;
                                orcl_p1[orcl_q * 4 + 2] = orcl_v.z;
                                orcl_p1[orcl_q * 4 + 3] = orcl_v.w;
                            }
                        } else {
                            #pragma unroll
                            for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                                const int j = (int)(orcl_base0 + orcl_t + orcl_w);
                                const int l = (int)(orcl_klo + orcl_k0 + 64 + orcl_kk);
                                orcl_p1[orcl_q * 4 + orcl_w] = (1) ? B[l * n + j] : 0;
                            }
                        }
                    }
                } else {
                    #pragma unroll
                    for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                        const long orcl_e = orcl_lin + orcl_q * 256;
                        const long orcl_kk = ((orcl_lin + (orcl_q / 4) * 256) / 2 % 8) * 4 + orcl_q % 4;
                        const long orcl_t = ((orcl_lin + (orcl_q / 4) * 256) / 32 * 4 + (orcl_lin + (orcl_q / 4) * 256) / 16 % 2 * 2 + (orcl_lin + (orcl_q / 4) * 256) % 2) * 4;
                        const int j = (int)(orcl_base0 + orcl_t);
                        const int l = (int)(orcl_klo + orcl_k0 + 64 + orcl_kk);
                        if (j + 3 <= n - 1 && orcl_k0 + 64 + orcl_kk < orcl_kn && (size_t)&B[l * n + j] % 16 == 0) {
                            {
                                const float4 orcl_v = *(const float4 *)&B[l * n + j];
                                orcl_p1[orcl_q * 4 + 0] = orcl_v.x;
                                orcl_p1[orcl_q * 4 + 1] = orcl_v.y;
                                orcl_p1[orcl_q * 4 + 2] = orcl_v.z;
                                orcl_p1[orcl_q * 4 + 3] = orcl_v.w;
                            }
                        } else {
                            #pragma unroll
                            for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                                const int j = (int)(orcl_base0 + orcl_t + orcl_w);
                                const int l = (int)(orcl_klo + orcl_k0 + 64 + orcl_kk);
                                orcl_p1[orcl_q * 4 + orcl_w] = (orcl_k0 + 64 + orcl_kk < orcl_kn && j <= n - 1) ? B[l * n + j] : 0;
                            }
                        }
                    }
                }
            }
        }
        {
        }
#if ORCL_MMA_SYNC
        asm volatile(ORCL_GMMA "wgmma.wait_group.sync.aligned 1;" ::: "memory");
#else
#endif
    }
#if ORCL_MMA_SYNC
    asm volatile(ORCL_GMMA "wgmma.wait_group.sync.aligned 0;" ::: "memory");
    asm volatile("" : "+f"(orcl_acc[0][0][0]), "+f"(orcl_acc[0][0][1]), "+f"(orcl_acc[0][0][2]), "+f"(orcl_acc[0][0][3]) :: "memory");
    asm volatile("" : "+f"(orcl_acc[0][1][0]), "+f"(orcl_acc[0][1][1]), "+f"(orcl_acc[0][1][2]), "+f"(orcl_acc[0][1][3]) :: "memory");
    asm volatile("" : "+f"(orcl_acc[0][2][0]), "+f"(orcl_acc[0][2][1]), "+f"(orcl_acc[0][2][2]), "+f"(orcl_acc[0][2][3]) :: "memory");
    asm volatile("" : "+f"(orcl_acc[0][3][0]), "+f"(orcl_acc[0][3][1]), "+f"(orcl_acc[0][3][2]), "+f"(orcl_acc[0][3][3]) :: "memory");
    asm volatile("" : "+f"(orcl_acc[0][4][0]), "+f"(orcl_acc[0][4][1]), "+f"(orcl_acc[0][4][2]), "+f"(orcl_acc[0][4][3]) :: "memory");
    asm volatile("" : "+f"(orcl_acc[0][5][0]), "+f"(orcl_acc[0][5][1]), "+f"(orcl_acc[0][5][2]), "+f"(orcl_acc[0][5][3]) :: "memory");
    asm volatile("" : "+f"(orcl_acc[0][6][0]), "+f"(orcl_acc[0][6][1]), "+f"(orcl_acc[0][6][2]), "+f"(orcl_acc[0][6][3]) :: "memory");
    asm volatile("" : "+f"(orcl_acc[0][7][0]), "+f"(orcl_acc[0][7][1]), "+f"(orcl_acc[0][7][2]), "+f"(orcl_acc[0][7][3]) :: "memory");
#else
#endif
    #pragma unroll
    for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {
        #pragma unroll
        for (long orcl_ni = 0; orcl_ni < 8; orcl_ni += 1) {
            #pragma unroll
            for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                const int i = (int)(orcl_base1 + orcl_wm0 + orcl_mi * 16 + orcl_gid + 8 * (orcl_q / 2));
                const int j = (int)(orcl_base0 + orcl_wn0 + orcl_ni * 8 + 2 * orcl_tig + orcl_q % 2);
                if (j <= n - 1 && i <= m - 1) {
                    float s = orcl_acc[orcl_mi][orcl_ni][orcl_q];
                    C[i * n + j] = alpha * s + beta * C[i * n + j];
                }
            }
        }
    }
}
