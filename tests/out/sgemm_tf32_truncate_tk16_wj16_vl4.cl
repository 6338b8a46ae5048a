/* configuration: MM='tf32' TI=32 TJ=32 TK=16 WI=16 WJ=16 PAD=8 VL=4 */
/* input: K=9 M=33 N=17 */
/* 2-D NDRange (grid): dimension 0 (nest loop 1) 32 iterations and 64 work-items per work-group; dimension 1 (nest loop 0) 32 iterations and 2 work-items per work-group */
/* NDRange: global size one work-group per tile, local size 128 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
__kernel void orcl_kernel(const int m, const int n, const int k, __global const float *restrict A, __global const float *restrict B, __global float *restrict C, const float alpha, const float beta)
{
#if defined(__NV_CL_C_VERSION) && !defined(ORCL_EMULATE_MMA)
#define ORCL_MMA_SYNC 1
#define orcl_smem(p) ((uint)(size_t)(p))
#else
#define ORCL_MMA_SYNC 0
#endif
#define orcl_tf32(x) (((as_uint(x) & 0x7f800000u) == 0x7f800000u) ? (x) : as_float((as_uint(x) + 0x1000u) & 0xffffe000u))
#define orcl_f2u(x) as_uint(x)
#define orcl_u2f(x) as_float(x)
    const long orcl_nx = (long)get_num_groups(0);
    const long orcl_ny = (long)get_num_groups(1);
    const long orcl_bx = (long)get_group_id(0);
    const long orcl_by = (long)get_group_id(1);
    const long orcl_blin = orcl_by * orcl_nx + orcl_bx;
    const long orcl_bfirst = (orcl_blin / (8 * orcl_nx)) * 8;
    const long orcl_brows = orcl_ny - orcl_bfirst < 8 ? orcl_ny - orcl_bfirst : 8;
    const long orcl_bw = orcl_blin % (8 * orcl_nx);
    const long orcl_sw1 = orcl_bfirst + orcl_bw % orcl_brows;
    const long orcl_sw0 = orcl_bw / orcl_brows;
    const long orcl_g0 = orcl_sw0;
    const long orcl_h0 = (long)get_local_id(0);
    const long orcl_base0 = (long)(0) + orcl_g0 * 32;
    const long orcl_g1 = orcl_sw1;
    const long orcl_h1 = (long)get_local_id(1);
    const long orcl_base1 = (long)(0) + orcl_g1 * 32;
    const long orcl_lin = orcl_h0 + 64 * orcl_h1;
    const long orcl_warp = orcl_lin / 32;
    const long orcl_lane = orcl_lin % 32;
    const long orcl_gid = orcl_lane / 4;
    const long orcl_tig = orcl_lane % 4;
    const long orcl_wm0 = (orcl_warp / 2) * 16;
    const long orcl_wn0 = (orcl_warp % 2) * 16;
    __local float orcl_tile0[2][32][20] __attribute__((aligned(16)));
    __local float orcl_tile1[2][16][40] __attribute__((aligned(16)));
    float orcl_acc[1][2][4];
    #pragma unroll
    for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {
        #pragma unroll
        for (long orcl_ni = 0; orcl_ni < 2; orcl_ni += 1) {
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
            int orcl_fast = 0 + 16 <= orcl_kn && orcl_base1 + 31 <= m - 1 && orcl_base0 + 31 <= n - 1;
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
                for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 128;
                    const long orcl_kk = (orcl_e % 4) * 4;
                    const long orcl_t = orcl_e / 4;
                    const int i = (int)(orcl_base1 + orcl_t);
                    const int l = (int)(orcl_klo + 0 + orcl_kk);
                    if (1) {
#if ORCL_MMA_SYNC
                        asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile0[0][orcl_t][orcl_kk + 0])), "l"((size_t)&A[i * k + l]) : "memory");
#else
                        {
                            const float4 orcl_v = *(__global const float4 *)&A[i * k + l];
                            *(__local float4 *)&orcl_tile0[0][orcl_t][orcl_kk + 0] = orcl_v;
                        }
#endif
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int i = (int)(orcl_base1 + orcl_t);
                            const int l = (int)(orcl_klo + 0 + orcl_kk + orcl_w);
                            orcl_tile0[0][orcl_t][orcl_kk + orcl_w] = (1) ? A[i * k + l] : 0;
                        }
                    }
                }
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 128;
                    const long orcl_kk = orcl_e / 8;
                    const long orcl_t = (orcl_e % 8) * 4;
                    const int j = (int)(orcl_base0 + orcl_t);
                    const int l = (int)(orcl_klo + 0 + orcl_kk);
                    if (1) {
#if ORCL_MMA_SYNC
                        asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile1[0][orcl_kk][orcl_t + 0])), "l"((size_t)&B[l * n + j]) : "memory");
#else
                        {
                            const float4 orcl_v = *(__global const float4 *)&B[l * n + j];
                            *(__local float4 *)&orcl_tile1[0][orcl_kk][orcl_t + 0] = orcl_v;
                        }
#endif
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int j = (int)(orcl_base0 + orcl_t + orcl_w);
                            const int l = (int)(orcl_klo + 0 + orcl_kk);
                            orcl_tile1[0][orcl_kk][orcl_t + orcl_w] = (1) ? B[l * n + j] : 0;
                        }
                    }
                }
            } else {
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 128;
                    const long orcl_kk = (orcl_e % 4) * 4;
                    const long orcl_t = orcl_e / 4;
                    const int i = (int)(orcl_base1 + orcl_t);
                    const int l = (int)(orcl_klo + 0 + orcl_kk);
                    if (i <= m - 1 && 0 + orcl_kk + 3 < orcl_kn && (size_t)&A[i * k + l] % 16 == 0) {
#if ORCL_MMA_SYNC
                        asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile0[0][orcl_t][orcl_kk + 0])), "l"((size_t)&A[i * k + l]) : "memory");
#else
                        {
                            const float4 orcl_v = *(__global const float4 *)&A[i * k + l];
                            *(__local float4 *)&orcl_tile0[0][orcl_t][orcl_kk + 0] = orcl_v;
                        }
#endif
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int i = (int)(orcl_base1 + orcl_t);
                            const int l = (int)(orcl_klo + 0 + orcl_kk + orcl_w);
                            orcl_tile0[0][orcl_t][orcl_kk + orcl_w] = (0 + orcl_kk + orcl_w < orcl_kn && i <= m - 1) ? A[i * k + l] : 0;
                        }
                    }
                }
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 128;
                    const long orcl_kk = orcl_e / 8;
                    const long orcl_t = (orcl_e % 8) * 4;
                    const int j = (int)(orcl_base0 + orcl_t);
                    const int l = (int)(orcl_klo + 0 + orcl_kk);
                    if (j + 3 <= n - 1 && 0 + orcl_kk < orcl_kn && (size_t)&B[l * n + j] % 16 == 0) {
#if ORCL_MMA_SYNC
                        asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile1[0][orcl_kk][orcl_t + 0])), "l"((size_t)&B[l * n + j]) : "memory");
#else
                        {
                            const float4 orcl_v = *(__global const float4 *)&B[l * n + j];
                            *(__local float4 *)&orcl_tile1[0][orcl_kk][orcl_t + 0] = orcl_v;
                        }
#endif
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int j = (int)(orcl_base0 + orcl_t + orcl_w);
                            const int l = (int)(orcl_klo + 0 + orcl_kk);
                            orcl_tile1[0][orcl_kk][orcl_t + orcl_w] = (0 + orcl_kk < orcl_kn && j <= n - 1) ? B[l * n + j] : 0;
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
    int orcl_fast0 = orcl_base1 + 31 <= m - 1 && orcl_base0 + 31 <= n - 1;
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
    for (long orcl_k0 = 0; orcl_k0 < orcl_kn; orcl_k0 += 16) {
        const int orcl_buf = (int)((orcl_k0 / 16) % 2);
        const int orcl_fill = (orcl_buf + 1) % 2;
#if ORCL_MMA_SYNC
        asm volatile("cp.async.wait_group 0;" ::: "memory");
#else
#endif
        {
        }
        {
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (orcl_k0 + 16 < orcl_kn) {
            {
                int orcl_fast = orcl_k0 + 16 + 16 <= orcl_kn && orcl_fast0;
                if (orcl_fast) {
                    #pragma unroll
                    for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {
                        const long orcl_e = orcl_lin + orcl_q * 128;
                        const long orcl_kk = (orcl_e % 4) * 4;
                        const long orcl_t = orcl_e / 4;
                        const int i = (int)(orcl_base1 + orcl_t);
                        const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk);
                        if (1) {
#if ORCL_MMA_SYNC
                            asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile0[orcl_fill][orcl_t][orcl_kk + 0])), "l"((size_t)&A[i * k + l]) : "memory");
#else
                            {
                                const float4 orcl_v = *(__global const float4 *)&A[i * k + l];
                                *(__local float4 *)&orcl_tile0[orcl_fill][orcl_t][orcl_kk + 0] = orcl_v;
                            }
#endif
                        } else {
                            #pragma unroll
                            for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                                const int i = (int)(orcl_base1 + orcl_t);
                                const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk + orcl_w);
                                orcl_tile0[orcl_fill][orcl_t][orcl_kk + orcl_w] = (1) ? A[i * k + l] : 0;
                            }
                        }
                    }
                    #pragma unroll
                    for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {
                        const long orcl_e = orcl_lin + orcl_q * 128;
                        const long orcl_kk = orcl_e / 8;
                        const long orcl_t = (orcl_e % 8) * 4;
                        const int j = (int)(orcl_base0 + orcl_t);
                        const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk);
                        if (1) {
#if ORCL_MMA_SYNC
                            asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile1[orcl_fill][orcl_kk][orcl_t + 0])), "l"((size_t)&B[l * n + j]) : "memory");
#else
                            {
                                const float4 orcl_v = *(__global const float4 *)&B[l * n + j];
                                *(__local float4 *)&orcl_tile1[orcl_fill][orcl_kk][orcl_t + 0] = orcl_v;
                            }
#endif
                        } else {
                            #pragma unroll
                            for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                                const int j = (int)(orcl_base0 + orcl_t + orcl_w);
                                const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk);
                                orcl_tile1[orcl_fill][orcl_kk][orcl_t + orcl_w] = (1) ? B[l * n + j] : 0;
                            }
                        }
                    }
                } else {
                    #pragma unroll
                    for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {
                        const long orcl_e = orcl_lin + orcl_q * 128;
                        const long orcl_kk = (orcl_e % 4) * 4;
                        const long orcl_t = orcl_e / 4;
                        const int i = (int)(orcl_base1 + orcl_t);
                        const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk);
                        if (i <= m - 1 && orcl_k0 + 16 + orcl_kk + 3 < orcl_kn && (size_t)&A[i * k + l] % 16 == 0) {
#if ORCL_MMA_SYNC
                            asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile0[orcl_fill][orcl_t][orcl_kk + 0])), "l"((size_t)&A[i * k + l]) : "memory");
#else
                            {
                                const float4 orcl_v = *(__global const float4 *)&A[i * k + l];
                                *(__local float4 *)&orcl_tile0[orcl_fill][orcl_t][orcl_kk + 0] = orcl_v;
                            }
#endif
                        } else {
                            #pragma unroll
                            for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                                const int i = (int)(orcl_base1 + orcl_t);
                                const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk + orcl_w);
                                orcl_tile0[orcl_fill][orcl_t][orcl_kk + orcl_w] = (orcl_k0 + 16 + orcl_kk + orcl_w < orcl_kn && i <= m - 1) ? A[i * k + l] : 0;
                            }
                        }
                    }
                    #pragma unroll
                    for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {
                        const long orcl_e = orcl_lin + orcl_q * 128;
                        const long orcl_kk = orcl_e / 8;
                        const long orcl_t = (orcl_e % 8) * 4;
                        const int j = (int)(orcl_base0 + orcl_t);
                        const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk);
                        if (j + 3 <= n - 1 && orcl_k0 + 16 + orcl_kk < orcl_kn && (size_t)&B[l * n + j] % 16 == 0) {
#if ORCL_MMA_SYNC
                            asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(orcl_smem(&orcl_tile1[orcl_fill][orcl_kk][orcl_t + 0])), "l"((size_t)&B[l * n + j]) : "memory");
#else
                            {
                                const float4 orcl_v = *(__global const float4 *)&B[l * n + j];
                                *(__local float4 *)&orcl_tile1[orcl_fill][orcl_kk][orcl_t + 0] = orcl_v;
                            }
#endif
                        } else {
                            #pragma unroll
                            for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                                const int j = (int)(orcl_base0 + orcl_t + orcl_w);
                                const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk);
                                orcl_tile1[orcl_fill][orcl_kk][orcl_t + orcl_w] = (orcl_k0 + 16 + orcl_kk < orcl_kn && j <= n - 1) ? B[l * n + j] : 0;
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
            #pragma unroll
            for (long orcl_ks = 0; orcl_ks < 16; orcl_ks += 8) {
#if ORCL_MMA_SYNC
                unsigned int orcl_ma0_0;
                unsigned int orcl_ma0_1;
                unsigned int orcl_ma0_2;
                unsigned int orcl_ma0_3;
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(orcl_ma0_0), "=r"(orcl_ma0_1), "=r"(orcl_ma0_2), "=r"(orcl_ma0_3) : "r"(orcl_smem(&orcl_tile0[orcl_buf][orcl_wm0 + 0 * 16 + (orcl_lane % 8) + 8 * ((orcl_lane / 8) % 2)][orcl_ks + 0 + 4 * ((orcl_lane / 8) / 2)])));
                unsigned int orcl_a0_0 = orcl_f2u(orcl_u2f(orcl_ma0_0));
                unsigned int orcl_a0_1 = orcl_f2u(orcl_u2f(orcl_ma0_1));
                unsigned int orcl_a0_2 = orcl_f2u(orcl_u2f(orcl_ma0_2));
                unsigned int orcl_a0_3 = orcl_f2u(orcl_u2f(orcl_ma0_3));
                unsigned int orcl_b0_0 = orcl_f2u(orcl_tile1[orcl_buf][orcl_ks + orcl_tig][orcl_wn0 + 0 * 8 + orcl_gid]);
                unsigned int orcl_b0_1 = orcl_f2u(orcl_tile1[orcl_buf][orcl_ks + orcl_tig + 4][orcl_wn0 + 0 * 8 + orcl_gid]);
                unsigned int orcl_b1_0 = orcl_f2u(orcl_tile1[orcl_buf][orcl_ks + orcl_tig][orcl_wn0 + 1 * 8 + orcl_gid]);
                unsigned int orcl_b1_1 = orcl_f2u(orcl_tile1[orcl_buf][orcl_ks + orcl_tig + 4][orcl_wn0 + 1 * 8 + orcl_gid]);
                asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                    : "+f"(orcl_acc[0][0][0]), "+f"(orcl_acc[0][0][1]), "+f"(orcl_acc[0][0][2]), "+f"(orcl_acc[0][0][3])
                    : "r"(orcl_a0_0), "r"(orcl_a0_1), "r"(orcl_a0_2), "r"(orcl_a0_3), "r"(orcl_b0_0), "r"(orcl_b0_1));
                asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                    : "+f"(orcl_acc[0][1][0]), "+f"(orcl_acc[0][1][1]), "+f"(orcl_acc[0][1][2]), "+f"(orcl_acc[0][1][3])
                    : "r"(orcl_a0_0), "r"(orcl_a0_1), "r"(orcl_a0_2), "r"(orcl_a0_3), "r"(orcl_b1_0), "r"(orcl_b1_1));
#else
                #pragma unroll
                for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {
                    #pragma unroll
                    for (long orcl_ni = 0; orcl_ni < 2; orcl_ni += 1) {
                        #pragma unroll
                        for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                            const long orcl_r = orcl_gid + 8 * (orcl_q / 2);
                            const long orcl_c = 2 * orcl_tig + orcl_q % 2;
                            float orcl_d = orcl_acc[orcl_mi][orcl_ni][orcl_q];
                            #pragma unroll
                            for (long orcl_kk = 0; orcl_kk < 8; orcl_kk += 1) {
                                const long orcl_la = (orcl_r % 8) * 4 + orcl_kk % 4;
                                const long orcl_xa = orcl_r / 8 + 2 * (orcl_kk / 4);
                                const long orcl_lb = orcl_c * 4 + orcl_kk % 4;
                                const long orcl_xb = orcl_kk / 4;
                                orcl_d = orcl_d + orcl_u2f(orcl_f2u(orcl_tile0[orcl_buf][orcl_wm0 + orcl_mi * 16 + orcl_la / 4 + 8 * ((orcl_xa) % 2)][orcl_ks + orcl_la % 4 + 4 * ((orcl_xa) / 2)]) & 0xffffe000u) * orcl_u2f(orcl_f2u(orcl_tile1[orcl_buf][orcl_ks + orcl_lb % 4 + 4 * ((orcl_xb) / 1)][orcl_wn0 + orcl_ni * 8 + orcl_lb / 4]) & 0xffffe000u);
                            }
                            orcl_acc[orcl_mi][orcl_ni][orcl_q] = orcl_d;
                        }
                    }
                }
#endif
            }
        }
    }
    #pragma unroll
    for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {
        #pragma unroll
        for (long orcl_ni = 0; orcl_ni < 2; orcl_ni += 1) {
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
