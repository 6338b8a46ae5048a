/* configuration: MM='tf32' TI=64 TJ=128 TK=32 WI=64 WJ=64 PAD=0 VL=4 ST=3 MI='wgmma' */
/* input: K=200 M=130 N=77 */
/* 2-D NDRange (grid): dimension 0 (nest loop 1) 128 iterations and 64 work-items per work-group; dimension 1 (nest loop 0) 64 iterations and 4 work-items per work-group */
/* NDRange: global size one work-group per tile, local size 256 work-items; build options: "-D ORCL_SM90A_PTX" */
/* ---- OpenCL kernel ---- */
__kernel void orcl_kernel(const int m, const int n, const int k, __global const float *restrict A, __global const float *restrict B, __global float *restrict C, const float alpha, const float beta)
{
#if defined(__NV_CL_C_VERSION) && defined(ORCL_SM90A_PTX) && !defined(ORCL_EMULATE_MMA)
#define ORCL_MMA_SYNC 1
#define orcl_smem(p) ((uint)(size_t)(p))
#else
#define ORCL_MMA_SYNC 0
#endif
#define orcl_tf32(x) (((as_uint(x) & 0x7f800000u) == 0x7f800000u) ? (x) : as_float((as_uint(x) + 0x1000u) & 0xffffe000u))
#define orcl_f2u(x) as_uint(x)
#define orcl_u2f(x) as_float(x)
#define orcl_u64 ulong
#define ORCL_GMMA "//orcl_sm90a "
#if ORCL_MMA_SYNC
    asm volatile("trap; //orcl_sm90a_guard");
#endif
#define orcl_gdesc(a, lbo, sbo) ((orcl_u64)(((a) & 0x3FFFF) >> 4) | ((orcl_u64)((lbo) >> 4) << 16) | ((orcl_u64)((sbo) >> 4) << 32) | ((orcl_u64)1 << 62))
#define orcl_gx(o) ((o) ^ ((((o) >> 7) & 7) << 4))
    const long orcl_g0 = (long)get_group_id(0);
    const long orcl_h0 = (long)get_local_id(0);
    const long orcl_base0 = (long)(0) + orcl_g0 * 128;
    const long orcl_g1 = (long)get_group_id(1);
    const long orcl_h1 = (long)get_local_id(1);
    const long orcl_base1 = (long)(0) + orcl_g1 * 64;
    const long orcl_lin = orcl_h0 + 64 * orcl_h1;
    const long orcl_warp = orcl_lin / 32;
    const long orcl_lane = orcl_lin % 32;
    const long orcl_gid = orcl_lane / 4;
    const long orcl_tig = orcl_lane % 4;
    const long orcl_wgm0 = (orcl_warp / 4 / 2) * 64;
    const long orcl_wm0 = orcl_wgm0 + (orcl_warp % 4) * 16;
    const long orcl_wn0 = (orcl_warp / 4 % 2) * 64;
    __local float orcl_tile0[3][64][32] __attribute__((aligned(1024)));
    __local float orcl_tile1[3][128][32] __attribute__((aligned(1024)));
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
                orcl_fast = orcl_fast && (size_t)&B[j * k + l] % 16 == 0;
            }
            {
                const int j = (int)(orcl_base0 + 0);
                const int l = (int)(orcl_klo + 0 + 4);
                orcl_fast = orcl_fast && (size_t)&B[j * k + l] % 16 == 0;
            }
            {
                const int j = (int)(orcl_base0 + 1);
                const int l = (int)(orcl_klo + 0 + 0);
                orcl_fast = orcl_fast && (size_t)&B[j * k + l] % 16 == 0;
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
                            const float4 orcl_v = *(__global const float4 *)&A[i * k + l];
                            *(__local float4 *)&orcl_tile0[0][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)] = orcl_v;
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
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 256;
                    const long orcl_kk = (orcl_e % 8) * 4;
                    const long orcl_t = orcl_e / 8;
                    const int j = (int)(orcl_base0 + orcl_t);
                    const int l = (int)(orcl_klo + 0 + orcl_kk);
                    if (1) {
#if ORCL_MMA_SYNC
                        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile1[0][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)])), "l"((size_t)&B[j * k + l]) : "memory");
#else
                        {
                            const float4 orcl_v = *(__global const float4 *)&B[j * k + l];
                            *(__local float4 *)&orcl_tile1[0][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)] = orcl_v;
                        }
#endif
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int j = (int)(orcl_base0 + orcl_t);
                            const int l = (int)(orcl_klo + 0 + orcl_kk + orcl_w);
                            orcl_tile1[0][orcl_t][(orcl_kk + orcl_w) ^ (((orcl_t) & 7) << 2)] = (1) ? B[j * k + l] : 0;
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
                            const float4 orcl_v = *(__global const float4 *)&A[i * k + l];
                            *(__local float4 *)&orcl_tile0[0][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)] = orcl_v;
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
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 256;
                    const long orcl_kk = (orcl_e % 8) * 4;
                    const long orcl_t = orcl_e / 8;
                    const int j = (int)(orcl_base0 + orcl_t);
                    const int l = (int)(orcl_klo + 0 + orcl_kk);
                    if (j <= n - 1 && 0 + orcl_kk + 3 < orcl_kn && (size_t)&B[j * k + l] % 16 == 0) {
#if ORCL_MMA_SYNC
                        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile1[0][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)])), "l"((size_t)&B[j * k + l]) : "memory");
#else
                        {
                            const float4 orcl_v = *(__global const float4 *)&B[j * k + l];
                            *(__local float4 *)&orcl_tile1[0][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)] = orcl_v;
                        }
#endif
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int j = (int)(orcl_base0 + orcl_t);
                            const int l = (int)(orcl_klo + 0 + orcl_kk + orcl_w);
                            orcl_tile1[0][orcl_t][(orcl_kk + orcl_w) ^ (((orcl_t) & 7) << 2)] = (0 + orcl_kk + orcl_w < orcl_kn && j <= n - 1) ? B[j * k + l] : 0;
                        }
                    }
                }
            }
        }
    }
#if ORCL_MMA_SYNC
    asm volatile("cp.async.commit_group;" ::: "memory");
#else
#endif
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
        orcl_fast0 = orcl_fast0 && (size_t)&B[j * k + l] % 16 == 0;
    }
    {
        const int j = (int)(orcl_base0 + 0);
        const int l = (int)(orcl_klo + 0 + 4);
        orcl_fast0 = orcl_fast0 && (size_t)&B[j * k + l] % 16 == 0;
    }
    {
        const int j = (int)(orcl_base0 + 1);
        const int l = (int)(orcl_klo + 0 + 0);
        orcl_fast0 = orcl_fast0 && (size_t)&B[j * k + l] % 16 == 0;
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
        barrier(CLK_LOCAL_MEM_FENCE);
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
                                const float4 orcl_v = *(__global const float4 *)&A[i * k + l];
                                *(__local float4 *)&orcl_tile0[orcl_fill][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)] = orcl_v;
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
                    #pragma unroll
                    for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                        const long orcl_e = orcl_lin + orcl_q * 256;
                        const long orcl_kk = (orcl_e % 8) * 4;
                        const long orcl_t = orcl_e / 8;
                        const int j = (int)(orcl_base0 + orcl_t);
                        const int l = (int)(orcl_klo + orcl_k0 + 32 + orcl_kk);
                        if (1) {
#if ORCL_MMA_SYNC
                            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile1[orcl_fill][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)])), "l"((size_t)&B[j * k + l]) : "memory");
#else
                            {
                                const float4 orcl_v = *(__global const float4 *)&B[j * k + l];
                                *(__local float4 *)&orcl_tile1[orcl_fill][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)] = orcl_v;
                            }
#endif
                        } else {
                            #pragma unroll
                            for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                                const int j = (int)(orcl_base0 + orcl_t);
                                const int l = (int)(orcl_klo + orcl_k0 + 32 + orcl_kk + orcl_w);
                                orcl_tile1[orcl_fill][orcl_t][(orcl_kk + orcl_w) ^ (((orcl_t) & 7) << 2)] = (1) ? B[j * k + l] : 0;
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
                                const float4 orcl_v = *(__global const float4 *)&A[i * k + l];
                                *(__local float4 *)&orcl_tile0[orcl_fill][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)] = orcl_v;
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
                    #pragma unroll
                    for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                        const long orcl_e = orcl_lin + orcl_q * 256;
                        const long orcl_kk = (orcl_e % 8) * 4;
                        const long orcl_t = orcl_e / 8;
                        const int j = (int)(orcl_base0 + orcl_t);
                        const int l = (int)(orcl_klo + orcl_k0 + 32 + orcl_kk);
                        if (j <= n - 1 && orcl_k0 + 32 + orcl_kk + 3 < orcl_kn && (size_t)&B[j * k + l] % 16 == 0) {
#if ORCL_MMA_SYNC
                            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile1[orcl_fill][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)])), "l"((size_t)&B[j * k + l]) : "memory");
#else
                            {
                                const float4 orcl_v = *(__global const float4 *)&B[j * k + l];
                                *(__local float4 *)&orcl_tile1[orcl_fill][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 2)] = orcl_v;
                            }
#endif
                        } else {
                            #pragma unroll
                            for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                                const int j = (int)(orcl_base0 + orcl_t);
                                const int l = (int)(orcl_klo + orcl_k0 + 32 + orcl_kk + orcl_w);
                                orcl_tile1[orcl_fill][orcl_t][(orcl_kk + orcl_w) ^ (((orcl_t) & 7) << 2)] = (orcl_k0 + 32 + orcl_kk + orcl_w < orcl_kn && j <= n - 1) ? B[j * k + l] : 0;
                            }
                        }
                    }
                }
            }
        }
#if ORCL_MMA_SYNC
        asm volatile("cp.async.commit_group;" ::: "memory");
#else
#endif
        {
        }
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
            asm volatile(ORCL_GMMA "wgmma.wait_group.sync.aligned 1;" ::: "memory");
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
