/* ---- host code ---- */
/* orcl: OpenCL host code for the tuned loop of SgemmTf32() (tests/in/sgemm_tf32_truncate.c:17).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] K=9 M=33 N=17: MM='tf32' TI=32 TJ=32 TK=16 WI=16 WJ=16 PAD=8 VL=4
 * Returns 0 on success; non-zero if OpenCL fails (the caller then runs the original loop). */
static int orcl_SgemmTf32_region0(int m, int n, int k, const float *A, const float *B, float *C, float alpha, float beta)
{
    static const char *const orcl_source_0 =
        "__kernel void orcl_kernel(const int m, const int n, const int k, __global const float *restrict A, __global const float *restrict B, __global float *restrict C, const float alpha, const float beta)\n"
        "{\n"
        "#if defined(__NV_CL_C_VERSION) && !defined(ORCL_EMULATE_MMA)\n"
        "#define ORCL_MMA_SYNC 1\n"
        "#define orcl_smem(p) ((uint)(size_t)(p))\n"
        "#else\n"
        "#define ORCL_MMA_SYNC 0\n"
        "#endif\n"
        "#define orcl_tf32(x) (((as_uint(x) & 0x7f800000u) == 0x7f800000u) ? (x) : as_float((as_uint(x) + 0x1000u) & 0xffffe000u))\n"
        "#define orcl_f2u(x) as_uint(x)\n"
        "#define orcl_u2f(x) as_float(x)\n"
        "    const long orcl_nx = (long)get_num_groups(0);\n"
        "    const long orcl_ny = (long)get_num_groups(1);\n"
        "    const long orcl_bx = (long)get_group_id(0);\n"
        "    const long orcl_by = (long)get_group_id(1);\n"
        "    const long orcl_blin = orcl_by * orcl_nx + orcl_bx;\n"
        "    const long orcl_bfirst = (orcl_blin / (8 * orcl_nx)) * 8;\n"
        "    const long orcl_brows = orcl_ny - orcl_bfirst < 8 ? orcl_ny - orcl_bfirst : 8;\n"
        "    const long orcl_bw = orcl_blin % (8 * orcl_nx);\n"
        "    const long orcl_sw1 = orcl_bfirst + orcl_bw % orcl_brows;\n"
        "    const long orcl_sw0 = orcl_bw / orcl_brows;\n"
        "    const long orcl_g0 = orcl_sw0;\n"
        "    const long orcl_h0 = (long)get_local_id(0);\n"
        "    const long orcl_base0 = (long)(0) + orcl_g0 * 32;\n"
        "    const long orcl_g1 = orcl_sw1;\n"
        "    const long orcl_h1 = (long)get_local_id(1);\n"
        "    const long orcl_base1 = (long)(0) + orcl_g1 * 32;\n"
        "    const long orcl_lin = orcl_h0 + 64 * orcl_h1;\n"
        "    const long orcl_warp = orcl_lin / 32;\n"
        "    const long orcl_lane = orcl_lin % 32;\n"
        "    const long orcl_gid = orcl_lane / 4;\n"
        "    const long orcl_tig = orcl_lane % 4;\n"
        "    const long orcl_wm0 = (orcl_warp / 2) * 16;\n"
        "    const long orcl_wn0 = (orcl_warp % 2) * 16;\n"
        "    __local float orcl_tile0[2][32][20] __attribute__((aligned(16)));\n"
        "    __local float orcl_tile1[2][16][40] __attribute__((aligned(16)));\n"
        "    float orcl_acc[1][2][4];\n"
        "    #pragma unroll\n"
        "    for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {\n"
        "        #pragma unroll\n"
        "        for (long orcl_ni = 0; orcl_ni < 2; orcl_ni += 1) {\n"
        "            #pragma unroll\n"
        "            for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {\n"
        "                const int i = (int)(orcl_base1 + orcl_wm0 + orcl_mi * 16 + orcl_gid + 8 * (orcl_q / 2));\n"
        "                const int j = (int)(orcl_base0 + orcl_wn0 + orcl_ni * 8 + 2 * orcl_tig + orcl_q % 2);\n"
        "                orcl_acc[orcl_mi][orcl_ni][orcl_q] = (j <= n - 1 && i <= m - 1) ? (0.0f) : 0.0f;\n"
        "            }\n"
        "        }\n"
        "    }\n"
        "    const long orcl_klo = (long)(0);\n"
        "    const long orcl_kend = (long)(k - 1) + 1;\n"
        "    const long orcl_kn = orcl_kend > orcl_klo ? orcl_kend - orcl_klo : 0;\n"
        "    if (0 < orcl_kn) {\n"
        "        {\n"
        "            int orcl_fast = 0 + 16 <= orcl_kn && orcl_base1 + 31 <= m - 1 && orcl_base0 + 31 <= n - 1;\n"
        "            {\n"
        "                const int i = (int)(orcl_base1 + 0);\n"
        "                const int l = (int)(orcl_klo + 0 + 0);\n"
        "                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 16 == 0;\n"
        "            }\n"
        "            {\n"
        "                const int i = (int)(orcl_base1 + 0);\n"
        "                const int l = (int)(orcl_klo + 0 + 4);\n"
        "                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 16 == 0;\n"
        "            }\n"
        "            {\n"
        "                const int i = (int)(orcl_base1 + 1);\n"
        "                const int l = (int)(orcl_klo + 0 + 0);\n"
        "                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 16 == 0;\n"
        "            }\n"
        "            {\n"
        "                const int j = (int)(orcl_base0 + 0);\n"
        "                const int l = (int)(orcl_klo + 0 + 0);\n"
        "                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 16 == 0;\n"
        "            }\n"
        "            {\n"
        "                const int j = (int)(orcl_base0 + 4);\n"
        "                const int l = (int)(orcl_klo + 0 + 0);\n"
        "                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 16 == 0;\n"
        "            }\n"
        "            {\n"
        "                const int j = (int)(orcl_base0 + 0);\n"
        "                const int l = (int)(orcl_klo + 0 + 1);\n"
        "                orcl_fast = orcl_fast && (size_t)&B[l * n + j] % 16 == 0;\n"
        "            }\n"
        "            if (orcl_fast) {\n"
        "                #pragma unroll\n"
        "                for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {\n"
        "                    const long orcl_e = orcl_lin + orcl_q * 128;\n"
        "                    const long orcl_kk = (orcl_e % 4) * 4;\n"
        "                    const long orcl_t = orcl_e / 4;\n"
        "                    const int i = (int)(orcl_base1 + orcl_t);\n"
        "                    const int l = (int)(orcl_klo + 0 + orcl_kk);\n"
        "                    if (1) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                        asm volatile(\"cp.async.ca.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile0[0][orcl_t][orcl_kk + 0])), \"l\"((size_t)&A[i * k + l]) : \"memory\");\n"
        "#else\n"
        "                        {\n"
        "                            const float4 orcl_v = *(__global const float4 *)&A[i * k + l];\n"
        "                            *(__local float4 *)&orcl_tile0[0][orcl_t][orcl_kk + 0] = orcl_v;\n"
        "                        }\n"
        "#endif\n"
        "                    } else {\n"
        "                        #pragma unroll\n"
        "                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {\n"
        "                            const int i = (int)(orcl_base1 + orcl_t);\n"
        "                            const int l = (int)(orcl_klo + 0 + orcl_kk + orcl_w);\n"
        "                            orcl_tile0[0][orcl_t][orcl_kk + orcl_w] = (1) ? A[i * k + l] : 0;\n"
        "                        }\n"
        "                    }\n"
        "                }\n"
        "                #pragma unroll\n"
        "                for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {\n"
        "                    const long orcl_e = orcl_lin + orcl_q * 128;\n"
        "                    const long orcl_kk = orcl_e / 8;\n"
        "                    const long orcl_t = (orcl_e % 8) * 4;\n"
        "                    const int j = (int)(orcl_base0 + orcl_t);\n"
        "                    const int l = (int)(orcl_klo + 0 + orcl_kk);\n"
        "                    if (1) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                        asm volatile(\"cp.async.ca.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile1[0][orcl_kk][orcl_t + 0])), \"l\"((size_t)&B[l * n + j]) : \"memory\");\n"
        "#else\n"
        "                        {\n"
        "                            const float4 orcl_v = *(__global const float4 *)&B[l * n + j];\n"
        "                            *(__local float4 *)&orcl_tile1[0][orcl_kk][orcl_t + 0] = orcl_v;\n"
        "                        }\n"
        "#endif\n"
        "                    } else {\n"
        "                        #pragma unroll\n"
        "                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {\n"
        "                            const int j = (int)(orcl_base0 + orcl_t + orcl_w);\n"
        "                            const int l = (int)(orcl_klo + 0 + orcl_kk);\n"
        "                            orcl_tile1[0][orcl_kk][orcl_t + orcl_w] = (1) ? B[l * n + j] : 0;\n"
        "                        }\n"
        "                    }\n"
        "                }\n"
        "            } else {\n"
        "                #pragma unroll\n"
        "                for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {\n"
        "                    const long orcl_e = orcl_lin + orcl_q * 128;\n"
        "                    const long orcl_kk = (orcl_e % 4) * 4;\n"
        "                    const long orcl_t = orcl_e / 4;\n"
        "                    const int i = (int)(orcl_base1 + orcl_t);\n"
        "                    const int l = (int)(orcl_klo + 0 + orcl_kk);\n"
        "                    if (i <= m - 1 && 0 + orcl_kk + 3 < orcl_kn && (size_t)&A[i * k + l] % 16 == 0) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                        asm volatile(\"cp.async.ca.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile0[0][orcl_t][orcl_kk + 0])), \"l\"((size_t)&A[i * k + l]) : \"memory\");\n"
        "#else\n"
        "                        {\n"
        "                            const float4 orcl_v = *(__global const float4 *)&A[i * k + l];\n"
        "                            *(__local float4 *)&orcl_tile0[0][orcl_t][orcl_kk + 0] = orcl_v;\n"
        "                        }\n"
        "#endif\n"
        "                    } else {\n"
        "                        #pragma unroll\n"
        "                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {\n"
        "                            const int i = (int)(orcl_base1 + orcl_t);\n"
        "                            const int l = (int)(orcl_klo + 0 + orcl_kk + orcl_w);\n"
        "                            orcl_tile0[0][orcl_t][orcl_kk + orcl_w] = (0 + orcl_kk + orcl_w < orcl_kn && i <= m - 1) ? A[i * k + l] : 0;\n"
        "                        }\n"
        "                    }\n"
        "                }\n"
        "                #pragma unroll\n"
        "                for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {\n"
        "                    const long orcl_e = orcl_lin + orcl_q * 128;\n"
        "                    const long orcl_kk = orcl_e / 8;\n"
        "                    const long orcl_t = (orcl_e % 8) * 4;\n"
        "                    const int j = (int)(orcl_base0 + orcl_t);\n"
        "                    const int l = (int)(orcl_klo + 0 + orcl_kk);\n"
        "                    if (j + 3 <= n - 1 && 0 + orcl_kk < orcl_kn && (size_t)&B[l * n + j] % 16 == 0) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                        asm volatile(\"cp.async.ca.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile1[0][orcl_kk][orcl_t + 0])), \"l\"((size_t)&B[l * n + j]) : \"memory\");\n"
        "#else\n"
        "                        {\n"
        "                            const float4 orcl_v = *(__global const float4 *)&B[l * n + j];\n"
        "                            *(__local float4 *)&orcl_tile1[0][orcl_kk][orcl_t + 0] = orcl_v;\n"
        "                        }\n"
        "#endif\n"
        "                    } else {\n"
        "                        #pragma unroll\n"
        "                        for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {\n"
        "                            const int j = (int)(orcl_base0 + orcl_t + orcl_w);\n"
        "                            const int l = (int)(orcl_klo + 0 + orcl_kk);\n"
        "                            orcl_tile1[0][orcl_kk][orcl_t + orcl_w] = (0 + orcl_kk < orcl_kn && j <= n - 1) ? B[l * n + j] : 0;\n"
        "                        }\n"
        "                    }\n"
        "                }\n"
        "            }\n"
        "        }\n"
        "    }\n"
        "#if ORCL_MMA_SYNC\n"
        "    asm volatile(\"cp.async.commit_group;\" ::: \"memory\");\n"
        "#else\n"
        "#endif\n"
        "    int orcl_fast0 = orcl_base1 + 31 <= m - 1 && orcl_base0 + 31 <= n - 1;\n"
        "    {\n"
        "        const int i = (int)(orcl_base1 + 0);\n"
        "        const int l = (int)(orcl_klo + 0 + 0);\n"
        "        orcl_fast0 = orcl_fast0 && (size_t)&A[i * k + l] % 16 == 0;\n"
        "    }\n"
        "    {\n"
        "        const int i = (int)(orcl_base1 + 0);\n"
        "        const int l = (int)(orcl_klo + 0 + 4);\n"
        "        orcl_fast0 = orcl_fast0 && (size_t)&A[i * k + l] % 16 == 0;\n"
        "    }\n"
        "    {\n"
        "        const int i = (int)(orcl_base1 + 1);\n"
        "        const int l = (int)(orcl_klo + 0 + 0);\n"
        "        orcl_fast0 = orcl_fast0 && (size_t)&A[i * k + l] % 16 == 0;\n"
        "    }\n"
        "    {\n"
        "        const int j = (int)(orcl_base0 + 0);\n"
        "        const int l = (int)(orcl_klo + 0 + 0);\n"
        "        orcl_fast0 = orcl_fast0 && (size_t)&B[l * n + j] % 16 == 0;\n"
        "    }\n"
        "    {\n"
        "        const int j = (int)(orcl_base0 + 4);\n"
        "        const int l = (int)(orcl_klo + 0 + 0);\n"
        "        orcl_fast0 = orcl_fast0 && (size_t)&B[l * n + j] % 16 == 0;\n"
        "    }\n"
        "    {\n"
        "        const int j = (int)(orcl_base0 + 0);\n"
        "        const int l = (int)(orcl_klo + 0 + 1);\n"
        "        orcl_fast0 = orcl_fast0 && (size_t)&B[l * n + j] % 16 == 0;\n"
        "    }\n"
        "    for (long orcl_k0 = 0; orcl_k0 < orcl_kn; orcl_k0 += 16) {\n"
        "        const int orcl_buf = (int)((orcl_k0 / 16) % 2);\n"
        "        const int orcl_fill = (orcl_buf + 1) % 2;\n"
        "#if ORCL_MMA_SYNC\n"
        "        asm volatile(\"cp.async.wait_group 0;\" ::: \"memory\");\n"
        "#else\n"
        "#endif\n"
        "        {\n"
        "        }\n"
        "        {\n"
        "        }\n"
        "        barrier(CLK_LOCAL_MEM_FENCE);\n"
        "        if (orcl_k0 + 16 < orcl_kn) {\n"
        "            {\n"
        "                int orcl_fast = orcl_k0 + 16 + 16 <= orcl_kn && orcl_fast0;\n"
        "                if (orcl_fast) {\n"
        "                    #pragma unroll\n"
        "                    for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {\n"
        "                        const long orcl_e = orcl_lin + orcl_q * 128;\n"
        "                        const long orcl_kk = (orcl_e % 4) * 4;\n"
        "                        const long orcl_t = orcl_e / 4;\n"
        "                        const int i = (int)(orcl_base1 + orcl_t);\n"
        "                        const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk);\n"
        "                        if (1) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                            asm volatile(\"cp.async.ca.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile0[orcl_fill][orcl_t][orcl_kk + 0])), \"l\"((size_t)&A[i * k + l]) : \"memory\");\n"
        "#else\n"
        "                            {\n"
        "                                const float4 orcl_v = *(__global const float4 *)&A[i * k + l];\n"
        "                                *(__local float4 *)&orcl_tile0[orcl_fill][orcl_t][orcl_kk + 0] = orcl_v;\n"
        "                            }\n"
        "#endif\n"
        "                        } else {\n"
        "                            #pragma unroll\n"
        "                            for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {\n"
        "                                const int i = (int)(orcl_base1 + orcl_t);\n"
        "                                const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk + orcl_w);\n"
        "                                orcl_tile0[orcl_fill][orcl_t][orcl_kk + orcl_w] = (1) ? A[i * k + l] : 0;\n"
        "                            }\n"
        "                        }\n"
        "                    }\n"
        "                    #pragma unroll\n"
        "                    for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {\n"
        "                        const long orcl_e = orcl_lin + orcl_q * 128;\n"
        "                        const long orcl_kk = orcl_e / 8;\n"
        "                        const long orcl_t = (orcl_e % 8) * 4;\n"
        "                        const int j = (int)(orcl_base0 + orcl_t);\n"
        "                        const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk);\n"
        "                        if (1) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                            asm volatile(\"cp.async.ca.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile1[orcl_fill][orcl_kk][orcl_t + 0])), \"l\"((size_t)&B[l * n + j]) : \"memory\");\n"
        "#else\n"
        "                            {\n"
        "                                const float4 orcl_v = *(__global const float4 *)&B[l * n + j];\n"
        "                                *(__local float4 *)&orcl_tile1[orcl_fill][orcl_kk][orcl_t + 0] = orcl_v;\n"
        "                            }\n"
        "#endif\n"
        "                        } else {\n"
        "                            #pragma unroll\n"
        "                            for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {\n"
        "                                const int j = (int)(orcl_base0 + orcl_t + orcl_w);\n"
        "                                const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk);\n"
        "                                orcl_tile1[orcl_fill][orcl_kk][orcl_t + orcl_w] = (1) ? B[l * n + j] : 0;\n"
        "                            }\n"
        "                        }\n"
        "                    }\n"
        "                } else {\n"
        "                    #pragma unroll\n"
        "                    for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {\n"
        "                        const long orcl_e = orcl_lin + orcl_q * 128;\n"
        "                        const long orcl_kk = (orcl_e % 4) * 4;\n"
        "                        const long orcl_t = orcl_e / 4;\n"
        "                        const int i = (int)(orcl_base1 + orcl_t);\n"
        "                        const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk);\n"
        "                        if (i <= m - 1 && orcl_k0 + 16 + orcl_kk + 3 < orcl_kn && (size_t)&A[i * k + l] % 16 == 0) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                            asm volatile(\"cp.async.ca.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile0[orcl_fill][orcl_t][orcl_kk + 0])), \"l\"((size_t)&A[i * k + l]) : \"memory\");\n"
        "#else\n"
        "                            {\n"
        "                                const float4 orcl_v = *(__global const float4 *)&A[i * k + l];\n"
        "                                *(__local float4 *)&orcl_tile0[orcl_fill][orcl_t][orcl_kk + 0] = orcl_v;\n"
        "                            }\n"
        "#endif\n"
        "                        } else {\n"
        "                            #pragma unroll\n"
        "                            for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {\n"
        "                                const int i = (int)(orcl_base1 + orcl_t);\n"
        "                                const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk + orcl_w);\n"
        "                                orcl_tile0[orcl_fill][orcl_t][orcl_kk + orcl_w] = (orcl_k0 + 16 + orcl_kk + orcl_w < orcl_kn && i <= m - 1) ? A[i * k + l] : 0;\n"
        "                            }\n"
        "                        }\n"
        "                    }\n"
        "                    #pragma unroll\n"
        "                    for (long orcl_q = 0; orcl_q < 1; orcl_q += 1) {\n"
        "                        const long orcl_e = orcl_lin + orcl_q * 128;\n"
        "                        const long orcl_kk = orcl_e / 8;\n"
        "                        const long orcl_t = (orcl_e % 8) * 4;\n"
        "                        const int j = (int)(orcl_base0 + orcl_t);\n"
        "                        const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk);\n"
        "                        if (j + 3 <= n - 1 && orcl_k0 + 16 + orcl_kk < orcl_kn && (size_t)&B[l * n + j] % 16 == 0) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                            asm volatile(\"cp.async.ca.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile1[orcl_fill][orcl_kk][orcl_t + 0])), \"l\"((size_t)&B[l * n + j]) : \"memory\");\n"
        "#else\n"
        "                            {\n"
        "                                const float4 orcl_v = *(__global const float4 *)&B[l * n + j];\n"
        "                                *(__local float4 *)&orcl_tile1[orcl_fill][orcl_kk][orcl_t + 0] = orcl_v;\n"
        "                            }\n"
        "#endif\n"
        "                        } else {\n"
        "                            #pragma unroll\n"
        "                            for (long orcl_w = 0; orcl_w < 4; orcl_w += 1) {\n"
        "                                const int j = (int)(orcl_base0 + orcl_t + orcl_w);\n"
        "                                const int l = (int)(orcl_klo + orcl_k0 + 16 + orcl_kk);\n"
        "                                orcl_tile1[orcl_fill][orcl_kk][orcl_t + orcl_w] = (orcl_k0 + 16 + orcl_kk < orcl_kn && j <= n - 1) ? B[l * n + j] : 0;\n"
        "                            }\n"
        "                        }\n"
        "                    }\n"
        "                }\n"
        "            }\n"
        "        }\n"
        "#if ORCL_MMA_SYNC\n"
        "        asm volatile(\"cp.async.commit_group;\" ::: \"memory\");\n"
        "#else\n"
        "#endif\n"
        "        {\n"
        "        }\n"
        "        {\n"
        "            #pragma unroll\n"
        "            for (long orcl_ks = 0; orcl_ks < 16; orcl_ks += 8) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                unsigned int orcl_ma0_0;\n"
        "                unsigned int orcl_ma0_1;\n"
        "                unsigned int orcl_ma0_2;\n"
        "                unsigned int orcl_ma0_3;\n"
        "                asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\" : \"=r\"(orcl_ma0_0), \"=r\"(orcl_ma0_1), \"=r\"(orcl_ma0_2), \"=r\"(orcl_ma0_3) : \"r\"(orcl_smem(&orcl_tile0[orcl_buf][orcl_wm0 + 0 * 16 + (orcl_lane % 8) + 8 * ((orcl_lane / 8) % 2)][orcl_ks + 0 + 4 * ((orcl_lane / 8) / 2)])));\n"
        "                unsigned int orcl_a0_0 = orcl_f2u(orcl_u2f(orcl_ma0_0));\n"
        "                unsigned int orcl_a0_1 = orcl_f2u(orcl_u2f(orcl_ma0_1));\n"
        "                unsigned int orcl_a0_2 = orcl_f2u(orcl_u2f(orcl_ma0_2));\n"
        "                unsigned int orcl_a0_3 = orcl_f2u(orcl_u2f(orcl_ma0_3));\n"
        "                unsigned int orcl_b0_0 = orcl_f2u(orcl_tile1[orcl_buf][orcl_ks + orcl_tig][orcl_wn0 + 0 * 8 + orcl_gid]);\n"
        "                unsigned int orcl_b0_1 = orcl_f2u(orcl_tile1[orcl_buf][orcl_ks + orcl_tig + 4][orcl_wn0 + 0 * 8 + orcl_gid]);\n"
        "                unsigned int orcl_b1_0 = orcl_f2u(orcl_tile1[orcl_buf][orcl_ks + orcl_tig][orcl_wn0 + 1 * 8 + orcl_gid]);\n"
        "                unsigned int orcl_b1_1 = orcl_f2u(orcl_tile1[orcl_buf][orcl_ks + orcl_tig + 4][orcl_wn0 + 1 * 8 + orcl_gid]);\n"
        "                asm volatile(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\"\n"
        "                    : \"+f\"(orcl_acc[0][0][0]), \"+f\"(orcl_acc[0][0][1]), \"+f\"(orcl_acc[0][0][2]), \"+f\"(orcl_acc[0][0][3])\n"
        "                    : \"r\"(orcl_a0_0), \"r\"(orcl_a0_1), \"r\"(orcl_a0_2), \"r\"(orcl_a0_3), \"r\"(orcl_b0_0), \"r\"(orcl_b0_1));\n"
        "                asm volatile(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\"\n"
        "                    : \"+f\"(orcl_acc[0][1][0]), \"+f\"(orcl_acc[0][1][1]), \"+f\"(orcl_acc[0][1][2]), \"+f\"(orcl_acc[0][1][3])\n"
        "                    : \"r\"(orcl_a0_0), \"r\"(orcl_a0_1), \"r\"(orcl_a0_2), \"r\"(orcl_a0_3), \"r\"(orcl_b1_0), \"r\"(orcl_b1_1));\n"
        "#else\n"
        "                #pragma unroll\n"
        "                for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {\n"
        "                    #pragma unroll\n"
        "                    for (long orcl_ni = 0; orcl_ni < 2; orcl_ni += 1) {\n"
        "                        #pragma unroll\n"
        "                        for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {\n"
        "                            const long orcl_r = orcl_gid + 8 * (orcl_q / 2);\n"
        "                            const long orcl_c = 2 * orcl_tig + orcl_q % 2;\n"
        "                            float orcl_d = orcl_acc[orcl_mi][orcl_ni][orcl_q];\n"
        "                            #pragma unroll\n"
        "                            for (long orcl_kk = 0; orcl_kk < 8; orcl_kk += 1) {\n"
        "                                const long orcl_la = (orcl_r % 8) * 4 + orcl_kk % 4;\n"
        "                                const long orcl_xa = orcl_r / 8 + 2 * (orcl_kk / 4);\n"
        "                                const long orcl_lb = orcl_c * 4 + orcl_kk % 4;\n"
        "                                const long orcl_xb = orcl_kk / 4;\n"
        "                                orcl_d = orcl_d + orcl_u2f(orcl_f2u(orcl_tile0[orcl_buf][orcl_wm0 + orcl_mi * 16 + orcl_la / 4 + 8 * ((orcl_xa) % 2)][orcl_ks + orcl_la % 4 + 4 * ((orcl_xa) / 2)]) & 0xffffe000u) * orcl_u2f(orcl_f2u(orcl_tile1[orcl_buf][orcl_ks + orcl_lb % 4 + 4 * ((orcl_xb) / 1)][orcl_wn0 + orcl_ni * 8 + orcl_lb / 4]) & 0xffffe000u);\n"
        "                            }\n"
        "                            orcl_acc[orcl_mi][orcl_ni][orcl_q] = orcl_d;\n"
        "                        }\n"
        "                    }\n"
        "                }\n"
        "#endif\n"
        "            }\n"
        "        }\n"
        "    }\n"
        "    #pragma unroll\n"
        "    for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {\n"
        "        #pragma unroll\n"
        "        for (long orcl_ni = 0; orcl_ni < 2; orcl_ni += 1) {\n"
        "            #pragma unroll\n"
        "            for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {\n"
        "                const int i = (int)(orcl_base1 + orcl_wm0 + orcl_mi * 16 + orcl_gid + 8 * (orcl_q / 2));\n"
        "                const int j = (int)(orcl_base0 + orcl_wn0 + orcl_ni * 8 + 2 * orcl_tig + orcl_q % 2);\n"
        "                if (j <= n - 1 && i <= m - 1) {\n"
        "                    float s = orcl_acc[orcl_mi][orcl_ni][orcl_q];\n"
        "                    C[i * n + j] = alpha * s + beta * C[i * n + j];\n"
        "                }\n"
        "            }\n"
        "        }\n"
        "    }\n"
        "}\n";
    static const char *orcl_sources[1] = { orcl_source_0 };
    static const char *const orcl_options[1] = { "" };
    static const size_t orcl_local[1] = { 128 };
    /* work-items; 0 = one per iteration, rounded up to a multiple of the local size */
    static const size_t orcl_global[1] = { 0 };
    /* multi-dimensional NDRange: {dimensions, then per dimension: nest loop, iterations and work-items per work-group} */
    static const long orcl_grid[1][10] = { {2, 1, 32, 64, 0, 32, 2, 0, 1, 1} };
    static const cl_uint orcl_platform[1] = { 0 };
    static const cl_uint orcl_device[1] = { 0 };
    static cl_context orcl_ctx[1];
    static cl_command_queue orcl_queue[1];
    static cl_kernel orcl_kernel[1];
    static int orcl_failed[1]; /* its OpenCL set-up failed once: not retried, the caller runs the original loop */
    cl_int orcl_err = CL_SUCCESS;
    int orcl_v = 0;

    if (!orcl_kernel[orcl_v]) {
        if (orcl_failed[orcl_v]) return -1;
        orcl_failed[orcl_v] = 1;
        cl_platform_id orcl_platforms[16];
        cl_uint orcl_nplatforms = 0;
        cl_device_id orcl_devices[64];
        cl_uint orcl_ndevices = 0;
        cl_program orcl_program;
        if (clGetPlatformIDs(16, orcl_platforms, &orcl_nplatforms) != CL_SUCCESS || orcl_platform[orcl_v] >= orcl_nplatforms) return -1;
        if (clGetDeviceIDs(orcl_platforms[orcl_platform[orcl_v]], CL_DEVICE_TYPE_ALL, 64, orcl_devices, &orcl_ndevices) != CL_SUCCESS || orcl_device[orcl_v] >= orcl_ndevices) return -1;
        orcl_ctx[orcl_v] = clCreateContext(NULL, 1, &orcl_devices[orcl_device[orcl_v]], NULL, NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) return -1;
        orcl_queue[orcl_v] = clCreateCommandQueue(orcl_ctx[orcl_v], orcl_devices[orcl_device[orcl_v]], 0, &orcl_err);
        if (orcl_err != CL_SUCCESS) return -1;
        orcl_program = clCreateProgramWithSource(orcl_ctx[orcl_v], 1, &orcl_sources[orcl_v], NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) return -1;
        if (clBuildProgram(orcl_program, 1, &orcl_devices[orcl_device[orcl_v]], orcl_options[orcl_v], NULL, NULL) != CL_SUCCESS) {
            clReleaseProgram(orcl_program);
            return -1;
        }
        orcl_kernel[orcl_v] = clCreateKernel(orcl_program, "orcl_kernel", &orcl_err);
        clReleaseProgram(orcl_program);
        if (orcl_err != CL_SUCCESS) { orcl_kernel[orcl_v] = NULL; return -1; }
        orcl_failed[orcl_v] = 0;
    }
    {
        const long orcl_trip = (m - 1) >= 0 ? (long)(m - 1) + 1 : 0;
        size_t orcl_lsize = orcl_local[orcl_v];
        size_t orcl_gsize = orcl_global[orcl_v] ? orcl_global[orcl_v] : (size_t)((orcl_trip + (long)orcl_lsize - 1) / (long)orcl_lsize) * orcl_lsize;
        const long orcl_nest_trip[] = { (m - 1) >= 0 ? (long)(m - 1) + 1 : 0, (n - 1) >= 0 ? (long)(n - 1) + 1 : 0 };
        cl_uint orcl_work_dim = 1;
        size_t orcl_gws[3] = {orcl_gsize, 1, 1}, orcl_lws[3] = {orcl_lsize, 1, 1};
        (void)orcl_nest_trip;
        if (orcl_grid[orcl_v][0] > 0) {
            orcl_work_dim = (cl_uint)orcl_grid[orcl_v][0];
            for (long orcl_d = 0; orcl_d < orcl_grid[orcl_v][0]; orcl_d++) {
                long orcl_t = orcl_nest_trip[orcl_grid[orcl_v][1 + 3 * orcl_d]], orcl_per = orcl_grid[orcl_v][2 + 3 * orcl_d];
                orcl_lws[orcl_d] = (size_t)orcl_grid[orcl_v][3 + 3 * orcl_d];
                orcl_gws[orcl_d] = (size_t)(orcl_t > 0 ? (orcl_t + orcl_per - 1) / orcl_per : 1) * orcl_lws[orcl_d];
            }
        }
        cl_mem orcl_buf_A = NULL;
        cl_mem orcl_buf_B = NULL;
        cl_mem orcl_buf_C = NULL;
        int orcl_rc = -1;
        if (orcl_trip <= 0) return 0;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_A = (size_t)(m*k) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(m*k) * sizeof(float), (void *)A, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(float), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_B = (size_t)(k*n) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(k*n) * sizeof(float), (void *)B, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(float), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_C = (size_t)(m*n) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(m*n) * sizeof(float), (void *)C, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(float), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 0, sizeof(int), &m);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 1, sizeof(int), &n);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 2, sizeof(int), &k);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 3, sizeof(cl_mem), &orcl_buf_A);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 4, sizeof(cl_mem), &orcl_buf_B);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 5, sizeof(cl_mem), &orcl_buf_C);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 6, sizeof(float), &alpha);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 7, sizeof(float), &beta);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clEnqueueNDRangeKernel(orcl_queue[orcl_v], orcl_kernel[orcl_v], orcl_work_dim, NULL, orcl_gws, orcl_lws, 0, NULL, NULL);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        if ((size_t)(m*n) > 0) orcl_err = clEnqueueReadBuffer(orcl_queue[orcl_v], orcl_buf_C, CL_TRUE, 0, (size_t)(m*n) * sizeof(float), C, 0, NULL, NULL);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_rc = clFinish(orcl_queue[orcl_v]) == CL_SUCCESS ? 0 : -1;
    orcl_done:
        if (orcl_buf_A) clReleaseMemObject(orcl_buf_A);
        if (orcl_buf_B) clReleaseMemObject(orcl_buf_B);
        if (orcl_buf_C) clReleaseMemObject(orcl_buf_C);
        return orcl_rc;
    }
}
