/* configuration: MM='bf16' TI=32 TJ=32 TK=32 WI=16 WJ=8 PAD=8 VL=4 */
/* input: K=9 M=33 N=17 */
/* 2-D NDRange (grid): dimension 0 (nest loop 1) 32 iterations and 128 work-items per work-group; dimension 1 (nest loop 0) 32 iterations and 2 work-items per work-group */
/* NDRange: global size one work-group per tile, local size 256 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#ifndef ORCL_WIDEN16
#define ORCL_WIDEN16
#define orcl_bf2f(x) as_float((uint)(x) << 16)
float orcl_h2f(ushort orcl_h) {
    uint orcl_e = (orcl_h >> 10) & 0x1fu, orcl_m = orcl_h & 0x3ffu;
    float orcl_f = orcl_e == 0u ? (float)orcl_m * 5.9604644775390625e-8f
        : as_float(((uint)(orcl_h & 0x8000u) << 16) | (orcl_e == 31u ? 0x7f800000u : (orcl_e + 112u) << 23) | (orcl_m << 13));
    return orcl_e == 0u && (orcl_h & 0x8000u) ? -orcl_f : orcl_f;
}
#endif
__kernel void orcl_kernel(const int m, const int n, const int k, __global const ushort *restrict A, __global const ushort *restrict B, __global float *restrict C, const float alpha, const float beta)
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
    const long orcl_g0 = (long)get_group_id(0);
    const long orcl_h0 = (long)get_local_id(0);
    const long orcl_base0 = (long)(0) + orcl_g0 * 32;
    const long orcl_g1 = (long)get_group_id(1);
    const long orcl_h1 = (long)get_local_id(1);
    const long orcl_base1 = (long)(0) + orcl_g1 * 32;
    const long orcl_lin = orcl_h0 + 128 * orcl_h1;
    const long orcl_warp = orcl_lin / 32;
    const long orcl_lane = orcl_lin % 32;
    const long orcl_gid = orcl_lane / 4;
    const long orcl_tig = orcl_lane % 4;
    const long orcl_wm0 = (orcl_warp / 4) * 16;
    const long orcl_wn0 = (orcl_warp % 4) * 8;
    __local ushort orcl_tile0[32][40] __attribute__((aligned(8)));
    __local ushort orcl_tile1[32][40] __attribute__((aligned(8)));
    float orcl_acc[1][1][4];
    #pragma unroll
    for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {
        #pragma unroll
        for (long orcl_ni = 0; orcl_ni < 1; orcl_ni += 1) {
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
    for (long orcl_k0 = 0; orcl_k0 < orcl_kn - 31; orcl_k0 += 32) {
        {
            int orcl_fast = orcl_base1 + 31 <= m - 1 && orcl_base0 + 31 <= n - 1;
            {
                const int i = (int)(orcl_base1 + 0);
                const int l = (int)(orcl_klo + orcl_k0 + 0);
                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 8 == 0;
            }
            {
                const int i = (int)(orcl_base1 + 0);
                const int l = (int)(orcl_klo + orcl_k0 + 4);
                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 8 == 0;
            }
            {
                const int i = (int)(orcl_base1 + 1);
                const int l = (int)(orcl_klo + orcl_k0 + 0);
                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 8 == 0;
            }
            {
                const int j = (int)(orcl_base0 + 0);
                const int l = (int)(orcl_klo + orcl_k0 + 0);
                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 8 == 0;
            }
            {
                const int j = (int)(orcl_base0 + 4);
                const int l = (int)(orcl_klo + orcl_k0 + 0);
                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 8 == 0;
            }
            {
                const int j = (int)(orcl_base0 + 0);
                const int l = (int)(orcl_klo + orcl_k0 + 1);
                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 8 == 0;
            }
            if (orcl_fast) {
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 256;
                    const long orcl_kk = (orcl_e % 8) * 4;
                    const long orcl_t = orcl_e / 8;
                    const int i = (int)(orcl_base1 + orcl_t);
                    const int l = (int)(orcl_klo + orcl_k0 + orcl_kk);
                    if (1) {
                        {
                            const ushort4 orcl_v = *(__global const ushort4 *)&A[i * k + l];
                            *(__local ushort4 *)&orcl_tile0[orcl_t][orcl_kk + 0] = orcl_v;
                        }
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int i = (int)(orcl_base1 + orcl_t);
                            const int l = (int)(orcl_klo + orcl_k0 + orcl_kk + orcl_w);
                            orcl_tile0[orcl_t][orcl_kk + orcl_w] = (1) ? A[i * k + l] : 0;
                        }
                    }
                }
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 256;
                    const long orcl_kk = orcl_e / 8;
                    const long orcl_t = (orcl_e % 8) * 4;
                    const int j = (int)(orcl_base0 + orcl_t);
                    const int l = (int)(orcl_klo + orcl_k0 + orcl_kk);
                    if (1) {
                        {
                            const ushort4 orcl_v = *(__global const ushort4 *)&B[l * n + j];
                            *(__local ushort4 *)&orcl_tile1[orcl_kk][orcl_t + 0] = orcl_v;
                        }
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int j = (int)(orcl_base0 + orcl_t + orcl_w);
                            const int l = (int)(orcl_klo + orcl_k0 + orcl_kk);
                            orcl_tile1[orcl_kk][orcl_t + orcl_w] = (1) ? B[l * n + j] : 0;
                        }
                    }
                }
            } else {
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 256;
                    const long orcl_kk = (orcl_e % 8) * 4;
                    const long orcl_t = orcl_e / 8;
                    const int i = (int)(orcl_base1 + orcl_t);
                    const int l = (int)(orcl_klo + orcl_k0 + orcl_kk);
                    if (i <= m - 1 && (size_t)&A[i * k + l] % 8 == 0) {
                        {
                            const ushort4 orcl_v = *(__global const ushort4 *)&A[i * k + l];
                            *(__local ushort4 *)&orcl_tile0[orcl_t][orcl_kk + 0] = orcl_v;
                        }
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int i = (int)(orcl_base1 + orcl_t);
                            const int l = (int)(orcl_klo + orcl_k0 + orcl_kk + orcl_w);
                            orcl_tile0[orcl_t][orcl_kk + orcl_w] = (i <= m - 1) ? A[i * k + l] : 0;
                        }
                    }
                }
                #pragma unroll
                for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {
                    const long orcl_e = orcl_lin + orcl_q * 256;
                    const long orcl_kk = orcl_e / 8;
                    const long orcl_t = (orcl_e % 8) * 4;
                    const int j = (int)(orcl_base0 + orcl_t);
                    const int l = (int)(orcl_klo + orcl_k0 + orcl_kk);
                    if (j + 3 <= n - 1 && (size_t)&B[l * n + j] % 8 == 0) {
                        {
                            const ushort4 orcl_v = *(__global const ushort4 *)&B[l * n + j];
                            *(__local ushort4 *)&orcl_tile1[orcl_kk][orcl_t + 0] = orcl_v;
                        }
                    } else {
                        #pragma unroll
                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                            const int j = (int)(orcl_base0 + orcl_t + orcl_w);
                            const int l = (int)(orcl_klo + orcl_k0 + orcl_kk);
                            orcl_tile1[orcl_kk][orcl_t + orcl_w] = (j <= n - 1) ? B[l * n + j] : 0;
                        }
                    }
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        #pragma unroll
        for (long orcl_ks = 0; orcl_ks < 32; orcl_ks += 16) {
#if ORCL_MMA_SYNC
            ushort orcl_a0_0_lo;
            ushort orcl_a0_0_hi;
            {
                const ushort2 orcl_v = *(__local const ushort2 *)&orcl_tile0[orcl_wm0 + 0 * 16 + orcl_gid][orcl_ks + 2 * (orcl_tig)];
                orcl_a0_0_lo = orcl_v.x;
                orcl_a0_0_hi = orcl_v.y;
            }
            unsigned int orcl_a0_0 = (unsigned int)orcl_a0_0_lo | ((unsigned int)orcl_a0_0_hi << 16);
            ushort orcl_a0_1_lo;
            ushort orcl_a0_1_hi;
            {
                const ushort2 orcl_v = *(__local const ushort2 *)&orcl_tile0[orcl_wm0 + 0 * 16 + orcl_gid + 8][orcl_ks + 2 * (orcl_tig)];
                orcl_a0_1_lo = orcl_v.x;
                orcl_a0_1_hi = orcl_v.y;
            }
            unsigned int orcl_a0_1 = (unsigned int)orcl_a0_1_lo | ((unsigned int)orcl_a0_1_hi << 16);
            ushort orcl_a0_2_lo;
            ushort orcl_a0_2_hi;
            {
                const ushort2 orcl_v = *(__local const ushort2 *)&orcl_tile0[orcl_wm0 + 0 * 16 + orcl_gid][orcl_ks + 2 * (orcl_tig) + 8];
                orcl_a0_2_lo = orcl_v.x;
                orcl_a0_2_hi = orcl_v.y;
            }
            unsigned int orcl_a0_2 = (unsigned int)orcl_a0_2_lo | ((unsigned int)orcl_a0_2_hi << 16);
            ushort orcl_a0_3_lo;
            ushort orcl_a0_3_hi;
            {
                const ushort2 orcl_v = *(__local const ushort2 *)&orcl_tile0[orcl_wm0 + 0 * 16 + orcl_gid + 8][orcl_ks + 2 * (orcl_tig) + 8];
                orcl_a0_3_lo = orcl_v.x;
                orcl_a0_3_hi = orcl_v.y;
            }
            unsigned int orcl_a0_3 = (unsigned int)orcl_a0_3_lo | ((unsigned int)orcl_a0_3_hi << 16);
            ushort orcl_b0_0_lo = orcl_tile1[orcl_ks + 2 * (orcl_tig)][orcl_wn0 + 0 * 8 + orcl_gid];
            ushort orcl_b0_0_hi = orcl_tile1[orcl_ks + 2 * (orcl_tig) + 1][orcl_wn0 + 0 * 8 + orcl_gid];
            unsigned int orcl_b0_0 = (unsigned int)orcl_b0_0_lo | ((unsigned int)orcl_b0_0_hi << 16);
            ushort orcl_b0_1_lo = orcl_tile1[orcl_ks + 2 * (orcl_tig) + 8][orcl_wn0 + 0 * 8 + orcl_gid];
            ushort orcl_b0_1_hi = orcl_tile1[orcl_ks + 2 * (orcl_tig) + 8 + 1][orcl_wn0 + 0 * 8 + orcl_gid];
            unsigned int orcl_b0_1 = (unsigned int)orcl_b0_1_lo | ((unsigned int)orcl_b0_1_hi << 16);
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                : "+f"(orcl_acc[0][0][0]), "+f"(orcl_acc[0][0][1]), "+f"(orcl_acc[0][0][2]), "+f"(orcl_acc[0][0][3])
                : "r"(orcl_a0_0), "r"(orcl_a0_1), "r"(orcl_a0_2), "r"(orcl_a0_3), "r"(orcl_b0_0), "r"(orcl_b0_1));
#else
            #pragma unroll
            for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {
                #pragma unroll
                for (long orcl_ni = 0; orcl_ni < 1; orcl_ni += 1) {
                    #pragma unroll
                    for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                        const long orcl_r = orcl_gid + 8 * (orcl_q / 2);
                        const long orcl_c = 2 * orcl_tig + orcl_q % 2;
                        float orcl_d = orcl_acc[orcl_mi][orcl_ni][orcl_q];
                        #pragma unroll
                        for (long orcl_kk = 0; orcl_kk < 16; orcl_kk += 1) {
                            const long orcl_la = (orcl_r % 8) * 4 + (orcl_kk % 8) / 2;
                            const long orcl_xa = orcl_r / 8 + 2 * (orcl_kk / 8);
                            const long orcl_lb = orcl_c * 4 + (orcl_kk % 8) / 2;
                            const long orcl_xb = orcl_kk / 8;
                            orcl_d = orcl_d + orcl_bf2f(orcl_tile0[orcl_wm0 + orcl_mi * 16 + orcl_la / 4 + 8 * ((orcl_xa) % 2)][orcl_ks + 2 * (orcl_la % 4) + 8 * ((orcl_xa) / 2) + orcl_kk % 2]) * orcl_bf2f(orcl_tile1[orcl_ks + 2 * (orcl_lb % 4) + 8 * ((orcl_xb) / 1) + orcl_kk % 2][orcl_wn0 + orcl_ni * 8 + orcl_lb / 4]);
                        }
                        orcl_acc[orcl_mi][orcl_ni][orcl_q] = orcl_d;
                    }
                }
            }
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (1) {
        const long orcl_k0 = (orcl_kn / 32) * 32;
        if (orcl_k0 < orcl_kn) {
            #pragma unroll
            for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {
                const long orcl_e = orcl_lin + orcl_q * 256;
                const long orcl_kk = (orcl_e % 8) * 4;
                const long orcl_t = orcl_e / 8;
                const int i = (int)(orcl_base1 + orcl_t);
                const int l = (int)(orcl_klo + orcl_k0 + orcl_kk);
                if (i <= m - 1 && orcl_kk + 3 < orcl_kn - orcl_k0 && (size_t)&A[i * k + l] % 8 == 0) {
                    {
                        const ushort4 orcl_v = *(__global const ushort4 *)&A[i * k + l];
                        *(__local ushort4 *)&orcl_tile0[orcl_t][orcl_kk + 0] = orcl_v;
                    }
                } else {
                    #pragma unroll
                    for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                        const int i = (int)(orcl_base1 + orcl_t);
                        const int l = (int)(orcl_klo + orcl_k0 + orcl_kk + orcl_w);
                        orcl_tile0[orcl_t][orcl_kk + orcl_w] = (orcl_kk + orcl_w < orcl_kn - orcl_k0 && i <= m - 1) ? A[i * k + l] : 0;
                    }
                }
            }
            #pragma unroll
            for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {
                const long orcl_e = orcl_lin + orcl_q * 256;
                const long orcl_kk = orcl_e / 8;
                const long orcl_t = (orcl_e % 8) * 4;
                const int j = (int)(orcl_base0 + orcl_t);
                const int l = (int)(orcl_klo + orcl_k0 + orcl_kk);
                if (j + 3 <= n - 1 && orcl_kk < orcl_kn - orcl_k0 && (size_t)&B[l * n + j] % 8 == 0) {
                    {
                        const ushort4 orcl_v = *(__global const ushort4 *)&B[l * n + j];
                        *(__local ushort4 *)&orcl_tile1[orcl_kk][orcl_t + 0] = orcl_v;
                    }
                } else {
                    #pragma unroll
                    for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {
                        const int j = (int)(orcl_base0 + orcl_t + orcl_w);
                        const int l = (int)(orcl_klo + orcl_k0 + orcl_kk);
                        orcl_tile1[orcl_kk][orcl_t + orcl_w] = (orcl_kk < orcl_kn - orcl_k0 && j <= n - 1) ? B[l * n + j] : 0;
                    }
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            #pragma unroll
            for (long orcl_ks = 0; orcl_ks < 32; orcl_ks += 16) {
#if ORCL_MMA_SYNC
                ushort orcl_a0_0_lo;
                ushort orcl_a0_0_hi;
                {
                    const ushort2 orcl_v = *(__local const ushort2 *)&orcl_tile0[orcl_wm0 + 0 * 16 + orcl_gid][orcl_ks + 2 * (orcl_tig)];
                    orcl_a0_0_lo = orcl_v.x;
                    orcl_a0_0_hi = orcl_v.y;
                }
                unsigned int orcl_a0_0 = (unsigned int)orcl_a0_0_lo | ((unsigned int)orcl_a0_0_hi << 16);
                ushort orcl_a0_1_lo;
                ushort orcl_a0_1_hi;
                {
                    const ushort2 orcl_v = *(__local const ushort2 *)&orcl_tile0[orcl_wm0 + 0 * 16 + orcl_gid + 8][orcl_ks + 2 * (orcl_tig)];
                    orcl_a0_1_lo = orcl_v.x;
                    orcl_a0_1_hi = orcl_v.y;
                }
                unsigned int orcl_a0_1 = (unsigned int)orcl_a0_1_lo | ((unsigned int)orcl_a0_1_hi << 16);
                ushort orcl_a0_2_lo;
                ushort orcl_a0_2_hi;
                {
                    const ushort2 orcl_v = *(__local const ushort2 *)&orcl_tile0[orcl_wm0 + 0 * 16 + orcl_gid][orcl_ks + 2 * (orcl_tig) + 8];
                    orcl_a0_2_lo = orcl_v.x;
                    orcl_a0_2_hi = orcl_v.y;
                }
                unsigned int orcl_a0_2 = (unsigned int)orcl_a0_2_lo | ((unsigned int)orcl_a0_2_hi << 16);
                ushort orcl_a0_3_lo;
                ushort orcl_a0_3_hi;
                {
                    const ushort2 orcl_v = *(__local const ushort2 *)&orcl_tile0[orcl_wm0 + 0 * 16 + orcl_gid + 8][orcl_ks + 2 * (orcl_tig) + 8];
                    orcl_a0_3_lo = orcl_v.x;
                    orcl_a0_3_hi = orcl_v.y;
                }
                unsigned int orcl_a0_3 = (unsigned int)orcl_a0_3_lo | ((unsigned int)orcl_a0_3_hi << 16);
                ushort orcl_b0_0_lo = orcl_tile1[orcl_ks + 2 * (orcl_tig)][orcl_wn0 + 0 * 8 + orcl_gid];
                ushort orcl_b0_0_hi = orcl_tile1[orcl_ks + 2 * (orcl_tig) + 1][orcl_wn0 + 0 * 8 + orcl_gid];
                unsigned int orcl_b0_0 = (unsigned int)orcl_b0_0_lo | ((unsigned int)orcl_b0_0_hi << 16);
                ushort orcl_b0_1_lo = orcl_tile1[orcl_ks + 2 * (orcl_tig) + 8][orcl_wn0 + 0 * 8 + orcl_gid];
                ushort orcl_b0_1_hi = orcl_tile1[orcl_ks + 2 * (orcl_tig) + 8 + 1][orcl_wn0 + 0 * 8 + orcl_gid];
                unsigned int orcl_b0_1 = (unsigned int)orcl_b0_1_lo | ((unsigned int)orcl_b0_1_hi << 16);
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                    : "+f"(orcl_acc[0][0][0]), "+f"(orcl_acc[0][0][1]), "+f"(orcl_acc[0][0][2]), "+f"(orcl_acc[0][0][3])
                    : "r"(orcl_a0_0), "r"(orcl_a0_1), "r"(orcl_a0_2), "r"(orcl_a0_3), "r"(orcl_b0_0), "r"(orcl_b0_1));
#else
                #pragma unroll
                for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {
                    #pragma unroll
                    for (long orcl_ni = 0; orcl_ni < 1; orcl_ni += 1) {
                        #pragma unroll
                        for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {
                            const long orcl_r = orcl_gid + 8 * (orcl_q / 2);
                            const long orcl_c = 2 * orcl_tig + orcl_q % 2;
                            float orcl_d = orcl_acc[orcl_mi][orcl_ni][orcl_q];
                            #pragma unroll
                            for (long orcl_kk = 0; orcl_kk < 16; orcl_kk += 1) {
                                const long orcl_la = (orcl_r % 8) * 4 + (orcl_kk % 8) / 2;
                                const long orcl_xa = orcl_r / 8 + 2 * (orcl_kk / 8);
                                const long orcl_lb = orcl_c * 4 + (orcl_kk % 8) / 2;
                                const long orcl_xb = orcl_kk / 8;
                                orcl_d = orcl_d + orcl_bf2f(orcl_tile0[orcl_wm0 + orcl_mi * 16 + orcl_la / 4 + 8 * ((orcl_xa) % 2)][orcl_ks + 2 * (orcl_la % 4) + 8 * ((orcl_xa) / 2) + orcl_kk % 2]) * orcl_bf2f(orcl_tile1[orcl_ks + 2 * (orcl_lb % 4) + 8 * ((orcl_xb) / 1) + orcl_kk % 2][orcl_wn0 + orcl_ni * 8 + orcl_lb / 4]);
                            }
                            orcl_acc[orcl_mi][orcl_ni][orcl_q] = orcl_d;
                        }
                    }
                }
#endif
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    #pragma unroll
    for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {
        #pragma unroll
        for (long orcl_ni = 0; orcl_ni < 1; orcl_ni += 1) {
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
