/* ---- host code ---- */
#ifndef ORCL_SM90A_RETARGET
#define ORCL_SM90A_RETARGET
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* orcl: `wgmma` kernels in NVIDIA's OpenCL (built with -D ORCL_SM90A_PTX; docs/GEMM.md, "wgmma in
 * NVIDIA's OpenCL"). NVIDIA's OpenCL compiler targets sm_90, whose ptxas rejects wgmma, so such a
 * kernel writes each wgmma instruction behind the PTX comment marker "//orcl_sm90a ". The program
 * binary NVIDIA's OpenCL returns is PTX: orcl_sm90a_ptx copies it with ".target sm_90" made
 * ".target sm_90a", the markers and the kernel's entry guard ("trap; //orcl_sm90a_guard", which makes
 * a build that was not retargeted fail at launch) removed (orcl_out: at least strlen(orcl_in) + strlen(orcl_in) / 13 + 1 bytes;
 * returns the length written), and orcl_sm90a_program builds that PTX from binary in place of *orcl_p.
 * A program whose binary holds no marker (another device, another kernel) is left as it is.
 * Returns CL_SUCCESS or the OpenCL error (orcl_log, if not NULL, then holds the build log). */
static size_t orcl_sm90a_ptx(const char *orcl_in, char *orcl_out) {
    size_t orcl_n = 0;
    while (*orcl_in) {
        if (!strncmp(orcl_in, ".target sm_90", 13) && (orcl_in[13] == ',' || orcl_in[13] == '\n' || orcl_in[13] == ' ' || orcl_in[13] == '\r')) {
            memcpy(orcl_out + orcl_n, ".target sm_90a", 14);
            orcl_n += 14;
            orcl_in += 13;
        } else if (!strncmp(orcl_in, "//orcl_sm90a ", 13)) {
            orcl_in += 13;
        } else if (!strncmp(orcl_in, "trap; //orcl_sm90a_guard", 24)) {
            orcl_in += 24;
        } else {
            orcl_out[orcl_n++] = *orcl_in++;
        }
    }
    orcl_out[orcl_n] = 0;
    return orcl_n;
}

static cl_int orcl_sm90a_program(cl_context orcl_ctx, cl_device_id orcl_dev, const char *orcl_opts, cl_program *orcl_p, char *orcl_log, size_t orcl_logsize) {
    size_t orcl_size = 0, orcl_n;
    cl_int orcl_err, orcl_st = CL_SUCCESS;
    char *orcl_bin, *orcl_ptx;
    unsigned char *orcl_bins[1];
    const unsigned char *orcl_text[1];
    cl_program orcl_q;
    if (!orcl_opts || !strstr(orcl_opts, "ORCL_SM90A_PTX")) return CL_SUCCESS;
    if ((orcl_err = clGetProgramInfo(*orcl_p, CL_PROGRAM_BINARY_SIZES, sizeof orcl_size, &orcl_size, NULL)) != CL_SUCCESS) return orcl_err;
    orcl_bin = (char *)malloc(orcl_size + 1);
    orcl_ptx = (char *)malloc(orcl_size + orcl_size / 13 + 2);
    if (!orcl_bin || !orcl_ptx) { free(orcl_bin); free(orcl_ptx); return CL_OUT_OF_HOST_MEMORY; }
    orcl_bins[0] = (unsigned char *)orcl_bin;
    orcl_err = clGetProgramInfo(*orcl_p, CL_PROGRAM_BINARIES, sizeof orcl_bins, orcl_bins, NULL);
    orcl_bin[orcl_size] = 0;
    if (orcl_err != CL_SUCCESS || !strstr(orcl_bin, "//orcl_sm90a ")) { free(orcl_bin); free(orcl_ptx); return orcl_err; }
    orcl_n = orcl_sm90a_ptx(orcl_bin, orcl_ptx);
    orcl_text[0] = (const unsigned char *)orcl_ptx;
    orcl_q = clCreateProgramWithBinary(orcl_ctx, 1, &orcl_dev, &orcl_n, orcl_text, &orcl_st, &orcl_err);
    if (orcl_err == CL_SUCCESS) orcl_err = clBuildProgram(orcl_q, 1, &orcl_dev, orcl_opts, NULL, NULL);
    if (orcl_err != CL_SUCCESS && orcl_log && orcl_logsize > 1) {
        int orcl_w = snprintf(orcl_log, orcl_logsize, "sm_90a retarget of the wgmma PTX: OpenCL error %d (binary status %d)\n", orcl_err, orcl_st);
        if (orcl_q && orcl_w > 0 && (size_t)orcl_w < orcl_logsize) clGetProgramBuildInfo(orcl_q, orcl_dev, CL_PROGRAM_BUILD_LOG, orcl_logsize - (size_t)orcl_w - 1, orcl_log + orcl_w, NULL);
        orcl_log[orcl_logsize - 1] = 0;
    }
    free(orcl_bin);
    free(orcl_ptx);
    if (orcl_err != CL_SUCCESS) {
        if (orcl_q) clReleaseProgram(orcl_q);
        return orcl_err;
    }
    clReleaseProgram(*orcl_p);
    *orcl_p = orcl_q;
    return CL_SUCCESS;
}
#endif

/* orcl: OpenCL host code for the tuned loop of HgemmFp16() (tests/in/hgemm_wgmma.c:9).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] K=200 M=130 N=77: MM='fp16' TI=64 TJ=128 TK=64 WI=64 WJ=64 PAD=0 VL=8 ST=3 MI='wgmma'
 * Returns 0 on success; non-zero if OpenCL fails (the caller then runs the original loop). */
static int orcl_HgemmFp16_region0(int m, int n, int k, const void *A, const void *B, float *C, float alpha, float beta)
{
    static const char *const orcl_source_0 =
        "#ifndef ORCL_WIDEN16\n"
        "#define ORCL_WIDEN16\n"
        "#define orcl_bf2f(x) as_float((uint)(x) << 16)\n"
        "float orcl_h2f(ushort orcl_h) {\n"
        "    uint orcl_e = (orcl_h >> 10) & 0x1fu, orcl_m = orcl_h & 0x3ffu;\n"
        "    float orcl_f = orcl_e == 0u ? (float)orcl_m * 5.9604644775390625e-8f\n"
        "        : as_float(((uint)(orcl_h & 0x8000u) << 16) | (orcl_e == 31u ? 0x7f800000u : (orcl_e + 112u) << 23) | (orcl_m << 13));\n"
        "    return orcl_e == 0u && (orcl_h & 0x8000u) ? -orcl_f : orcl_f;\n"
        "}\n"
        "#endif\n"
        "__kernel void orcl_kernel(const int m, const int n, const int k, __global const ushort *restrict A, __global const ushort *restrict B, __global float *restrict C, const float alpha, const float beta)\n"
        "{\n"
        "#if defined(__NV_CL_C_VERSION) && defined(ORCL_SM90A_PTX) && !defined(ORCL_EMULATE_MMA)\n"
        "#define ORCL_MMA_SYNC 1\n"
        "#define orcl_smem(p) ((uint)(size_t)(p))\n"
        "#else\n"
        "#define ORCL_MMA_SYNC 0\n"
        "#endif\n"
        "#define orcl_tf32(x) (((as_uint(x) & 0x7f800000u) == 0x7f800000u) ? (x) : as_float((as_uint(x) + 0x1000u) & 0xffffe000u))\n"
        "#define orcl_f2u(x) as_uint(x)\n"
        "#define orcl_u2f(x) as_float(x)\n"
        "#define orcl_u64 ulong\n"
        "#define ORCL_GMMA \"//orcl_sm90a \"\n"
        "#if ORCL_MMA_SYNC\n"
        "    asm volatile(\"trap; //orcl_sm90a_guard\");\n"
        "#endif\n"
        "#define orcl_gdesc(a, lbo, sbo) ((orcl_u64)(((a) & 0x3FFFF) >> 4) | ((orcl_u64)((lbo) >> 4) << 16) | ((orcl_u64)((sbo) >> 4) << 32) | ((orcl_u64)1 << 62))\n"
        "#define orcl_gx(o) ((o) ^ ((((o) >> 7) & 7) << 4))\n"
        "    const long orcl_g0 = (long)get_group_id(0);\n"
        "    const long orcl_h0 = (long)get_local_id(0);\n"
        "    const long orcl_base0 = (long)(0) + orcl_g0 * 128;\n"
        "    const long orcl_g1 = (long)get_group_id(1);\n"
        "    const long orcl_h1 = (long)get_local_id(1);\n"
        "    const long orcl_base1 = (long)(0) + orcl_g1 * 64;\n"
        "    const long orcl_lin = orcl_h0 + 64 * orcl_h1;\n"
        "    const long orcl_warp = orcl_lin / 32;\n"
        "    const long orcl_lane = orcl_lin % 32;\n"
        "    const long orcl_gid = orcl_lane / 4;\n"
        "    const long orcl_tig = orcl_lane % 4;\n"
        "    const long orcl_wgm0 = (orcl_warp / 4 / 2) * 64;\n"
        "    const long orcl_wm0 = orcl_wgm0 + (orcl_warp % 4) * 16;\n"
        "    const long orcl_wn0 = (orcl_warp / 4 % 2) * 64;\n"
        "    __local ushort orcl_tile0[3][64][64] __attribute__((aligned(1024)));\n"
        "    __local ushort orcl_tile1[3][128][64] __attribute__((aligned(1024)));\n"
        "    float orcl_acc[1][8][4];\n"
        "    #pragma unroll\n"
        "    for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {\n"
        "        #pragma unroll\n"
        "        for (long orcl_ni = 0; orcl_ni < 8; orcl_ni += 1) {\n"
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
        "            int orcl_fast = 0 + 64 <= orcl_kn && orcl_base1 + 63 <= m - 1 && orcl_base0 + 127 <= n - 1;\n"
        "            {\n"
        "                const int i = (int)(orcl_base1 + 0);\n"
        "                const int l = (int)(orcl_klo + 0 + 0);\n"
        "                orcl_fast = orcl_fast && (size_t)&A[i * k + l] % 16 == 0;\n"
        "            }\n"
        "            {\n"
        "                const int i = (int)(orcl_base1 + 0);\n"
        "                const int l = (int)(orcl_klo + 0 + 8);\n"
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
        "                const int j = (int)(orcl_base0 + 8);\n"
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
        "                for (long orcl_q = 0; orcl_q < 2; orcl_q += 1) {\n"
        "                    const long orcl_e = orcl_lin + orcl_q * 256;\n"
        "                    const long orcl_kk = (orcl_e % 8) * 8;\n"
        "                    const long orcl_t = orcl_e / 8;\n"
        "                    const int i = (int)(orcl_base1 + orcl_t);\n"
        "                    const int l = (int)(orcl_klo + 0 + orcl_kk);\n"
        "                    if (1) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                        asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile0[0][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 3)])), \"l\"((size_t)&A[i * k + l]) : \"memory\");\n"
        "#else\n"
        "                        {\n"
        "                            const uint4 orcl_v = *(__global const uint4 *)&A[i * k + l];\n"
        "                            *(__local uint4 *)&orcl_tile0[0][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 3)] = orcl_v;\n"
        "                        }\n"
        "#endif\n"
        "                    } else {\n"
        "                        #pragma unroll\n"
        "                        for (long orcl_w = 0; orcl_w < 8; orcl_w += 1) {\n"
        "                            const int i = (int)(orcl_base1 + orcl_t);\n"
        "                            const int l = (int)(orcl_klo + 0 + orcl_kk + orcl_w);\n"
        "                            orcl_tile0[0][orcl_t][(orcl_kk + orcl_w) ^ (((orcl_t) & 7) << 3)] = (1) ? A[i * k + l] : 0;\n"
        "                        }\n"
        "                    }\n"
        "                }\n"
        "                #pragma unroll\n"
        "                for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {\n"
        "                    const long orcl_e = orcl_lin + orcl_q * 256;\n"
        "                    const long orcl_kk = orcl_e / 16;\n"
        "                    const long orcl_t = (orcl_e % 16) * 8;\n"
        "                    const int j = (int)(orcl_base0 + orcl_t);\n"
        "                    const int l = (int)(orcl_klo + 0 + orcl_kk);\n"
        "                    if (1) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                        asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile1[0][(orcl_t + 0) / 64 * 64 + (orcl_kk)][((orcl_t + 0) % 64) ^ (((orcl_kk) & 7) << 3)])), \"l\"((size_t)&B[l * n + j]) : \"memory\");\n"
        "#else\n"
        "                        {\n"
        "                            const uint4 orcl_v = *(__global const uint4 *)&B[l * n + j];\n"
        "                            *(__local uint4 *)&orcl_tile1[0][(orcl_t + 0) / 64 * 64 + (orcl_kk)][((orcl_t + 0) % 64) ^ (((orcl_kk) & 7) << 3)] = orcl_v;\n"
        "                        }\n"
        "#endif\n"
        "                    } else {\n"
        "                        #pragma unroll\n"
        "                        for (long orcl_w = 0; orcl_w < 8; orcl_w += 1) {\n"
        "                            const int j = (int)(orcl_base0 + orcl_t + orcl_w);\n"
        "                            const int l = (int)(orcl_klo + 0 + orcl_kk);\n"
        "                            orcl_tile1[0][(orcl_t + orcl_w) / 64 * 64 + (orcl_kk)][((orcl_t + orcl_w) % 64) ^ (((orcl_kk) & 7) << 3)] = (1) ? B[l * n + j] : 0;\n"
        "                        }\n"
        "                    }\n"
        "                }\n"
        "            } else {\n"
        "                #pragma unroll\n"
        "                for (long orcl_q = 0; orcl_q < 2; orcl_q += 1) {\n"
        "                    const long orcl_e = orcl_lin + orcl_q * 256;\n"
        "                    const long orcl_kk = (orcl_e % 8) * 8;\n"
        "                    const long orcl_t = orcl_e / 8;\n"
        "                    const int i = (int)(orcl_base1 + orcl_t);\n"
        "                    const int l = (int)(orcl_klo + 0 + orcl_kk);\n"
        "                    if (i <= m - 1 && 0 + orcl_kk + 7 < orcl_kn && (size_t)&A[i * k + l] % 16 == 0) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                        asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile0[0][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 3)])), \"l\"((size_t)&A[i * k + l]) : \"memory\");\n"
        "#else\n"
        "                        {\n"
        "                            const uint4 orcl_v = *(__global const uint4 *)&A[i * k + l];\n"
        "                            *(__local uint4 *)&orcl_tile0[0][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 3)] = orcl_v;\n"
        "                        }\n"
        "#endif\n"
        "                    } else {\n"
        "                        #pragma unroll\n"
        "                        for (long orcl_w = 0; orcl_w < 8; orcl_w += 1) {\n"
        "                            const int i = (int)(orcl_base1 + orcl_t);\n"
        "                            const int l = (int)(orcl_klo + 0 + orcl_kk + orcl_w);\n"
        "                            orcl_tile0[0][orcl_t][(orcl_kk + orcl_w) ^ (((orcl_t) & 7) << 3)] = (0 + orcl_kk + orcl_w < orcl_kn && i <= m - 1) ? A[i * k + l] : 0;\n"
        "                        }\n"
        "                    }\n"
        "                }\n"
        "                #pragma unroll\n"
        "                for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {\n"
        "                    const long orcl_e = orcl_lin + orcl_q * 256;\n"
        "                    const long orcl_kk = orcl_e / 16;\n"
        "                    const long orcl_t = (orcl_e % 16) * 8;\n"
        "                    const int j = (int)(orcl_base0 + orcl_t);\n"
        "                    const int l = (int)(orcl_klo + 0 + orcl_kk);\n"
        "                    if (j + 7 <= n - 1 && 0 + orcl_kk < orcl_kn && (size_t)&B[l * n + j] % 16 == 0) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                        asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile1[0][(orcl_t + 0) / 64 * 64 + (orcl_kk)][((orcl_t + 0) % 64) ^ (((orcl_kk) & 7) << 3)])), \"l\"((size_t)&B[l * n + j]) : \"memory\");\n"
        "#else\n"
        "                        {\n"
        "                            const uint4 orcl_v = *(__global const uint4 *)&B[l * n + j];\n"
        "                            *(__local uint4 *)&orcl_tile1[0][(orcl_t + 0) / 64 * 64 + (orcl_kk)][((orcl_t + 0) % 64) ^ (((orcl_kk) & 7) << 3)] = orcl_v;\n"
        "                        }\n"
        "#endif\n"
        "                    } else {\n"
        "                        #pragma unroll\n"
        "                        for (long orcl_w = 0; orcl_w < 8; orcl_w += 1) {\n"
        "                            const int j = (int)(orcl_base0 + orcl_t + orcl_w);\n"
        "                            const int l = (int)(orcl_klo + 0 + orcl_kk);\n"
        "                            orcl_tile1[0][(orcl_t + orcl_w) / 64 * 64 + (orcl_kk)][((orcl_t + orcl_w) % 64) ^ (((orcl_kk) & 7) << 3)] = (0 + orcl_kk < orcl_kn && j <= n - 1) ? B[l * n + j] : 0;\n"
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
        "    int orcl_fast0 = orcl_base1 + 63 <= m - 1 && orcl_base0 + 127 <= n - 1;\n"
        "    {\n"
        "        const int i = (int)(orcl_base1 + 0);\n"
        "        const int l = (int)(orcl_klo + 0 + 0);\n"
        "        orcl_fast0 = orcl_fast0 && (size_t)&A[i * k + l] % 16 == 0;\n"
        "    }\n"
        "    {\n"
        "        const int i = (int)(orcl_base1 + 0);\n"
        "        const int l = (int)(orcl_klo + 0 + 8);\n"
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
        "        const int j = (int)(orcl_base0 + 8);\n"
        "        const int l = (int)(orcl_klo + 0 + 0);\n"
        "        orcl_fast0 = orcl_fast0 && (size_t)&B[l * n + j] % 16 == 0;\n"
        "    }\n"
        "    {\n"
        "        const int j = (int)(orcl_base0 + 0);\n"
        "        const int l = (int)(orcl_klo + 0 + 1);\n"
        "        orcl_fast0 = orcl_fast0 && (size_t)&B[l * n + j] % 16 == 0;\n"
        "    }\n"
        "    for (long orcl_k0 = 0; orcl_k0 < orcl_kn; orcl_k0 += 64) {\n"
        "        const int orcl_buf = (int)((orcl_k0 / 64) % 3);\n"
        "        const int orcl_fill = (orcl_buf + 1) % 3;\n"
        "#if ORCL_MMA_SYNC\n"
        "        asm volatile(\"cp.async.wait_group 0;\" ::: \"memory\");\n"
        "#else\n"
        "#endif\n"
        "        {\n"
        "#if ORCL_MMA_SYNC\n"
        "            asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\");\n"
        "#else\n"
        "#endif\n"
        "        }\n"
        "        {\n"
        "        }\n"
        "        barrier(CLK_LOCAL_MEM_FENCE);\n"
        "        if (orcl_k0 + 64 < orcl_kn) {\n"
        "            {\n"
        "                int orcl_fast = orcl_k0 + 64 + 64 <= orcl_kn && orcl_fast0;\n"
        "                if (orcl_fast) {\n"
        "                    #pragma unroll\n"
        "                    for (long orcl_q = 0; orcl_q < 2; orcl_q += 1) {\n"
        "                        const long orcl_e = orcl_lin + orcl_q * 256;\n"
        "                        const long orcl_kk = (orcl_e % 8) * 8;\n"
        "                        const long orcl_t = orcl_e / 8;\n"
        "                        const int i = (int)(orcl_base1 + orcl_t);\n"
        "                        const int l = (int)(orcl_klo + orcl_k0 + 64 + orcl_kk);\n"
        "                        if (1) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                            asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile0[orcl_fill][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 3)])), \"l\"((size_t)&A[i * k + l]) : \"memory\");\n"
        "#else\n"
        "                            {\n"
        "                                const uint4 orcl_v = *(__global const uint4 *)&A[i * k + l];\n"
        "                                *(__local uint4 *)&orcl_tile0[orcl_fill][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 3)] = orcl_v;\n"
        "                            }\n"
        "#endif\n"
        "                        } else {\n"
        "                            #pragma unroll\n"
        "                            for (long orcl_w = 0; orcl_w < 8; orcl_w += 1) {\n"
        "                                const int i = (int)(orcl_base1 + orcl_t);\n"
        "                                const int l = (int)(orcl_klo + orcl_k0 + 64 + orcl_kk + orcl_w);\n"
        "                                orcl_tile0[orcl_fill][orcl_t][(orcl_kk + orcl_w) ^ (((orcl_t) & 7) << 3)] = (1) ? A[i * k + l] : 0;\n"
        "                            }\n"
        "                        }\n"
        "                    }\n"
        "                    #pragma unroll\n"
        "                    for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {\n"
        "                        const long orcl_e = orcl_lin + orcl_q * 256;\n"
        "                        const long orcl_kk = orcl_e / 16;\n"
        "                        const long orcl_t = (orcl_e % 16) * 8;\n"
        "                        const int j = (int)(orcl_base0 + orcl_t);\n"
        "                        const int l = (int)(orcl_klo + orcl_k0 + 64 + orcl_kk);\n"
        "                        if (1) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                            asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile1[orcl_fill][(orcl_t + 0) / 64 * 64 + (orcl_kk)][((orcl_t + 0) % 64) ^ (((orcl_kk) & 7) << 3)])), \"l\"((size_t)&B[l * n + j]) : \"memory\");\n"
        "#else\n"
        "                            {\n"
        "                                const uint4 orcl_v = *(__global const uint4 *)&B[l * n + j];\n"
        "                                *(__local uint4 *)&orcl_tile1[orcl_fill][(orcl_t + 0) / 64 * 64 + (orcl_kk)][((orcl_t + 0) % 64) ^ (((orcl_kk) & 7) << 3)] = orcl_v;\n"
        "                            }\n"
        "#endif\n"
        "                        } else {\n"
        "                            #pragma unroll\n"
        "                            for (long orcl_w = 0; orcl_w < 8; orcl_w += 1) {\n"
        "                                const int j = (int)(orcl_base0 + orcl_t + orcl_w);\n"
        "                                const int l = (int)(orcl_klo + orcl_k0 + 64 + orcl_kk);\n"
        "                                orcl_tile1[orcl_fill][(orcl_t + orcl_w) / 64 * 64 + (orcl_kk)][((orcl_t + orcl_w) % 64) ^ (((orcl_kk) & 7) << 3)] = (1) ? B[l * n + j] : 0;\n"
        "                            }\n"
        "                        }\n"
        "                    }\n"
        "                } else {\n"
        "                    #pragma unroll\n"
        "                    for (long orcl_q = 0; orcl_q < 2; orcl_q += 1) {\n"
        "                        const long orcl_e = orcl_lin + orcl_q * 256;\n"
        "                        const long orcl_kk = (orcl_e % 8) * 8;\n"
        "                        const long orcl_t = orcl_e / 8;\n"
        "                        const int i = (int)(orcl_base1 + orcl_t);\n"
        "                        const int l = (int)(orcl_klo + orcl_k0 + 64 + orcl_kk);\n"
        "                        if (i <= m - 1 && orcl_k0 + 64 + orcl_kk + 7 < orcl_kn && (size_t)&A[i * k + l] % 16 == 0) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                            asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile0[orcl_fill][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 3)])), \"l\"((size_t)&A[i * k + l]) : \"memory\");\n"
        "#else\n"
        "                            {\n"
        "                                const uint4 orcl_v = *(__global const uint4 *)&A[i * k + l];\n"
        "                                *(__local uint4 *)&orcl_tile0[orcl_fill][orcl_t][(orcl_kk + 0) ^ (((orcl_t) & 7) << 3)] = orcl_v;\n"
        "                            }\n"
        "#endif\n"
        "                        } else {\n"
        "                            #pragma unroll\n"
        "                            for (long orcl_w = 0; orcl_w < 8; orcl_w += 1) {\n"
        "                                const int i = (int)(orcl_base1 + orcl_t);\n"
        "                                const int l = (int)(orcl_klo + orcl_k0 + 64 + orcl_kk + orcl_w);\n"
        "                                orcl_tile0[orcl_fill][orcl_t][(orcl_kk + orcl_w) ^ (((orcl_t) & 7) << 3)] = (orcl_k0 + 64 + orcl_kk + orcl_w < orcl_kn && i <= m - 1) ? A[i * k + l] : 0;\n"
        "                            }\n"
        "                        }\n"
        "                    }\n"
        "                    #pragma unroll\n"
        "                    for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {\n"
        "                        const long orcl_e = orcl_lin + orcl_q * 256;\n"
        "                        const long orcl_kk = orcl_e / 16;\n"
        "                        const long orcl_t = (orcl_e % 16) * 8;\n"
        "                        const int j = (int)(orcl_base0 + orcl_t);\n"
        "                        const int l = (int)(orcl_klo + orcl_k0 + 64 + orcl_kk);\n"
        "                        if (j + 7 <= n - 1 && orcl_k0 + 64 + orcl_kk < orcl_kn && (size_t)&B[l * n + j] % 16 == 0) {\n"
        "#if ORCL_MMA_SYNC\n"
        "                            asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\" :: \"r\"(orcl_smem(&orcl_tile1[orcl_fill][(orcl_t + 0) / 64 * 64 + (orcl_kk)][((orcl_t + 0) % 64) ^ (((orcl_kk) & 7) << 3)])), \"l\"((size_t)&B[l * n + j]) : \"memory\");\n"
        "#else\n"
        "                            {\n"
        "                                const uint4 orcl_v = *(__global const uint4 *)&B[l * n + j];\n"
        "                                *(__local uint4 *)&orcl_tile1[orcl_fill][(orcl_t + 0) / 64 * 64 + (orcl_kk)][((orcl_t + 0) % 64) ^ (((orcl_kk) & 7) << 3)] = orcl_v;\n"
        "                            }\n"
        "#endif\n"
        "                        } else {\n"
        "                            #pragma unroll\n"
        "                            for (long orcl_w = 0; orcl_w < 8; orcl_w += 1) {\n"
        "                                const int j = (int)(orcl_base0 + orcl_t + orcl_w);\n"
        "                                const int l = (int)(orcl_klo + orcl_k0 + 64 + orcl_kk);\n"
        "                                orcl_tile1[orcl_fill][(orcl_t + orcl_w) / 64 * 64 + (orcl_kk)][((orcl_t + orcl_w) % 64) ^ (((orcl_kk) & 7) << 3)] = (orcl_k0 + 64 + orcl_kk < orcl_kn && j <= n - 1) ? B[l * n + j] : 0;\n"
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
        "#if ORCL_MMA_SYNC\n"
        "            asm volatile(ORCL_GMMA \"wgmma.fence.sync.aligned;\" ::: \"memory\");\n"
        "            {\n"
        "                orcl_u64 orcl_da = orcl_gdesc(orcl_smem(&orcl_tile0[orcl_buf][0][0]) + orcl_wgm0 * 128 + (0) * 2, 16, 1024);\n"
        "                orcl_u64 orcl_db = orcl_gdesc(orcl_smem(&orcl_tile1[orcl_buf][0][0]) + orcl_wn0 / 64 * 8192 + (0) * 128, 8192, 1024);\n"
        "                asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %34, 0;\\n\" ORCL_GMMA \"wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1, 0, 1;\\n}\\n\"\n"
        "                    : \"+f\"(orcl_acc[0][0][0]), \"+f\"(orcl_acc[0][0][1]), \"+f\"(orcl_acc[0][0][2]), \"+f\"(orcl_acc[0][0][3]), \"+f\"(orcl_acc[0][1][0]), \"+f\"(orcl_acc[0][1][1]), \"+f\"(orcl_acc[0][1][2]), \"+f\"(orcl_acc[0][1][3]), \"+f\"(orcl_acc[0][2][0]), \"+f\"(orcl_acc[0][2][1]), \"+f\"(orcl_acc[0][2][2]), \"+f\"(orcl_acc[0][2][3]), \"+f\"(orcl_acc[0][3][0]), \"+f\"(orcl_acc[0][3][1]), \"+f\"(orcl_acc[0][3][2]), \"+f\"(orcl_acc[0][3][3]), \"+f\"(orcl_acc[0][4][0]), \"+f\"(orcl_acc[0][4][1]), \"+f\"(orcl_acc[0][4][2]), \"+f\"(orcl_acc[0][4][3]), \"+f\"(orcl_acc[0][5][0]), \"+f\"(orcl_acc[0][5][1]), \"+f\"(orcl_acc[0][5][2]), \"+f\"(orcl_acc[0][5][3]), \"+f\"(orcl_acc[0][6][0]), \"+f\"(orcl_acc[0][6][1]), \"+f\"(orcl_acc[0][6][2]), \"+f\"(orcl_acc[0][6][3]), \"+f\"(orcl_acc[0][7][0]), \"+f\"(orcl_acc[0][7][1]), \"+f\"(orcl_acc[0][7][2]), \"+f\"(orcl_acc[0][7][3])\n"
        "                    : \"l\"(orcl_da), \"l\"(orcl_db), \"r\"(1));\n"
        "            }\n"
        "            {\n"
        "                orcl_u64 orcl_da = orcl_gdesc(orcl_smem(&orcl_tile0[orcl_buf][0][0]) + orcl_wgm0 * 128 + (16) * 2, 16, 1024);\n"
        "                orcl_u64 orcl_db = orcl_gdesc(orcl_smem(&orcl_tile1[orcl_buf][0][0]) + orcl_wn0 / 64 * 8192 + (16) * 128, 8192, 1024);\n"
        "                asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %34, 0;\\n\" ORCL_GMMA \"wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1, 0, 1;\\n}\\n\"\n"
        "                    : \"+f\"(orcl_acc[0][0][0]), \"+f\"(orcl_acc[0][0][1]), \"+f\"(orcl_acc[0][0][2]), \"+f\"(orcl_acc[0][0][3]), \"+f\"(orcl_acc[0][1][0]), \"+f\"(orcl_acc[0][1][1]), \"+f\"(orcl_acc[0][1][2]), \"+f\"(orcl_acc[0][1][3]), \"+f\"(orcl_acc[0][2][0]), \"+f\"(orcl_acc[0][2][1]), \"+f\"(orcl_acc[0][2][2]), \"+f\"(orcl_acc[0][2][3]), \"+f\"(orcl_acc[0][3][0]), \"+f\"(orcl_acc[0][3][1]), \"+f\"(orcl_acc[0][3][2]), \"+f\"(orcl_acc[0][3][3]), \"+f\"(orcl_acc[0][4][0]), \"+f\"(orcl_acc[0][4][1]), \"+f\"(orcl_acc[0][4][2]), \"+f\"(orcl_acc[0][4][3]), \"+f\"(orcl_acc[0][5][0]), \"+f\"(orcl_acc[0][5][1]), \"+f\"(orcl_acc[0][5][2]), \"+f\"(orcl_acc[0][5][3]), \"+f\"(orcl_acc[0][6][0]), \"+f\"(orcl_acc[0][6][1]), \"+f\"(orcl_acc[0][6][2]), \"+f\"(orcl_acc[0][6][3]), \"+f\"(orcl_acc[0][7][0]), \"+f\"(orcl_acc[0][7][1]), \"+f\"(orcl_acc[0][7][2]), \"+f\"(orcl_acc[0][7][3])\n"
        "                    : \"l\"(orcl_da), \"l\"(orcl_db), \"r\"(1));\n"
        "            }\n"
        "            {\n"
        "                orcl_u64 orcl_da = orcl_gdesc(orcl_smem(&orcl_tile0[orcl_buf][0][0]) + orcl_wgm0 * 128 + (32) * 2, 16, 1024);\n"
        "                orcl_u64 orcl_db = orcl_gdesc(orcl_smem(&orcl_tile1[orcl_buf][0][0]) + orcl_wn0 / 64 * 8192 + (32) * 128, 8192, 1024);\n"
        "                asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %34, 0;\\n\" ORCL_GMMA \"wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1, 0, 1;\\n}\\n\"\n"
        "                    : \"+f\"(orcl_acc[0][0][0]), \"+f\"(orcl_acc[0][0][1]), \"+f\"(orcl_acc[0][0][2]), \"+f\"(orcl_acc[0][0][3]), \"+f\"(orcl_acc[0][1][0]), \"+f\"(orcl_acc[0][1][1]), \"+f\"(orcl_acc[0][1][2]), \"+f\"(orcl_acc[0][1][3]), \"+f\"(orcl_acc[0][2][0]), \"+f\"(orcl_acc[0][2][1]), \"+f\"(orcl_acc[0][2][2]), \"+f\"(orcl_acc[0][2][3]), \"+f\"(orcl_acc[0][3][0]), \"+f\"(orcl_acc[0][3][1]), \"+f\"(orcl_acc[0][3][2]), \"+f\"(orcl_acc[0][3][3]), \"+f\"(orcl_acc[0][4][0]), \"+f\"(orcl_acc[0][4][1]), \"+f\"(orcl_acc[0][4][2]), \"+f\"(orcl_acc[0][4][3]), \"+f\"(orcl_acc[0][5][0]), \"+f\"(orcl_acc[0][5][1]), \"+f\"(orcl_acc[0][5][2]), \"+f\"(orcl_acc[0][5][3]), \"+f\"(orcl_acc[0][6][0]), \"+f\"(orcl_acc[0][6][1]), \"+f\"(orcl_acc[0][6][2]), \"+f\"(orcl_acc[0][6][3]), \"+f\"(orcl_acc[0][7][0]), \"+f\"(orcl_acc[0][7][1]), \"+f\"(orcl_acc[0][7][2]), \"+f\"(orcl_acc[0][7][3])\n"
        "                    : \"l\"(orcl_da), \"l\"(orcl_db), \"r\"(1));\n"
        "            }\n"
        "            {\n"
        "                orcl_u64 orcl_da = orcl_gdesc(orcl_smem(&orcl_tile0[orcl_buf][0][0]) + orcl_wgm0 * 128 + (48) * 2, 16, 1024);\n"
        "                orcl_u64 orcl_db = orcl_gdesc(orcl_smem(&orcl_tile1[orcl_buf][0][0]) + orcl_wn0 / 64 * 8192 + (48) * 128, 8192, 1024);\n"
        "                asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %34, 0;\\n\" ORCL_GMMA \"wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1, 0, 1;\\n}\\n\"\n"
        "                    : \"+f\"(orcl_acc[0][0][0]), \"+f\"(orcl_acc[0][0][1]), \"+f\"(orcl_acc[0][0][2]), \"+f\"(orcl_acc[0][0][3]), \"+f\"(orcl_acc[0][1][0]), \"+f\"(orcl_acc[0][1][1]), \"+f\"(orcl_acc[0][1][2]), \"+f\"(orcl_acc[0][1][3]), \"+f\"(orcl_acc[0][2][0]), \"+f\"(orcl_acc[0][2][1]), \"+f\"(orcl_acc[0][2][2]), \"+f\"(orcl_acc[0][2][3]), \"+f\"(orcl_acc[0][3][0]), \"+f\"(orcl_acc[0][3][1]), \"+f\"(orcl_acc[0][3][2]), \"+f\"(orcl_acc[0][3][3]), \"+f\"(orcl_acc[0][4][0]), \"+f\"(orcl_acc[0][4][1]), \"+f\"(orcl_acc[0][4][2]), \"+f\"(orcl_acc[0][4][3]), \"+f\"(orcl_acc[0][5][0]), \"+f\"(orcl_acc[0][5][1]), \"+f\"(orcl_acc[0][5][2]), \"+f\"(orcl_acc[0][5][3]), \"+f\"(orcl_acc[0][6][0]), \"+f\"(orcl_acc[0][6][1]), \"+f\"(orcl_acc[0][6][2]), \"+f\"(orcl_acc[0][6][3]), \"+f\"(orcl_acc[0][7][0]), \"+f\"(orcl_acc[0][7][1]), \"+f\"(orcl_acc[0][7][2]), \"+f\"(orcl_acc[0][7][3])\n"
        "                    : \"l\"(orcl_da), \"l\"(orcl_db), \"r\"(1));\n"
        "            }\n"
        "            asm volatile(ORCL_GMMA \"wgmma.commit_group.sync.aligned;\" ::: \"memory\");\n"
        "            asm volatile(ORCL_GMMA \"wgmma.wait_group.sync.aligned 1;\" ::: \"memory\");\n"
        "#else\n"
        "            #pragma unroll\n"
        "            for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {\n"
        "                #pragma unroll\n"
        "                for (long orcl_ni = 0; orcl_ni < 8; orcl_ni += 1) {\n"
        "                    #pragma unroll\n"
        "                    for (long orcl_q = 0; orcl_q < 4; orcl_q += 1) {\n"
        "                        const long orcl_r = (orcl_warp % 4) * 16 + orcl_gid + 8 * (orcl_q / 2);\n"
        "                        const long orcl_c = orcl_ni * 8 + 2 * orcl_tig + orcl_q % 2;\n"
        "                        float orcl_d = orcl_acc[orcl_mi][orcl_ni][orcl_q];\n"
        "                        #pragma unroll\n"
        "                        for (long orcl_ks = 0; orcl_ks < 64; orcl_ks += 16) {\n"
        "                            #pragma unroll\n"
        "                            for (long orcl_kk = 0; orcl_kk < 16; orcl_kk += 1) {\n"
        "                                const long orcl_ea = orcl_gx(orcl_wgm0 * 128 + (orcl_ks) * 2 + (orcl_r) / 8 * 1024 + (orcl_r) % 8 * 128 + (orcl_kk) * 2) / 2;\n"
        "                                const long orcl_eb = orcl_gx(orcl_wn0 / 64 * 8192 + (orcl_ks) * 128 + (orcl_c) / 64 * 8192 + (orcl_kk) / 8 * 1024 + (orcl_kk) % 8 * 128 + (orcl_c) % 64 * 2) / 2;\n"
        "                                orcl_d = orcl_d + orcl_h2f(orcl_tile0[orcl_buf][orcl_ea / 64][orcl_ea % 64]) * orcl_h2f(orcl_tile1[orcl_buf][orcl_eb / 64][orcl_eb % 64]);\n"
        "                            }\n"
        "                        }\n"
        "                        orcl_acc[orcl_mi][orcl_ni][orcl_q] = orcl_d;\n"
        "                    }\n"
        "                }\n"
        "            }\n"
        "#endif\n"
        "        }\n"
        "    }\n"
        "#if ORCL_MMA_SYNC\n"
        "    asm volatile(ORCL_GMMA \"wgmma.wait_group.sync.aligned 0;\" ::: \"memory\");\n"
        "    asm volatile(\"\" : \"+f\"(orcl_acc[0][0][0]), \"+f\"(orcl_acc[0][0][1]), \"+f\"(orcl_acc[0][0][2]), \"+f\"(orcl_acc[0][0][3]) :: \"memory\");\n"
        "    asm volatile(\"\" : \"+f\"(orcl_acc[0][1][0]), \"+f\"(orcl_acc[0][1][1]), \"+f\"(orcl_acc[0][1][2]), \"+f\"(orcl_acc[0][1][3]) :: \"memory\");\n"
        "    asm volatile(\"\" : \"+f\"(orcl_acc[0][2][0]), \"+f\"(orcl_acc[0][2][1]), \"+f\"(orcl_acc[0][2][2]), \"+f\"(orcl_acc[0][2][3]) :: \"memory\");\n"
        "    asm volatile(\"\" : \"+f\"(orcl_acc[0][3][0]), \"+f\"(orcl_acc[0][3][1]), \"+f\"(orcl_acc[0][3][2]), \"+f\"(orcl_acc[0][3][3]) :: \"memory\");\n"
        "    asm volatile(\"\" : \"+f\"(orcl_acc[0][4][0]), \"+f\"(orcl_acc[0][4][1]), \"+f\"(orcl_acc[0][4][2]), \"+f\"(orcl_acc[0][4][3]) :: \"memory\");\n"
        "    asm volatile(\"\" : \"+f\"(orcl_acc[0][5][0]), \"+f\"(orcl_acc[0][5][1]), \"+f\"(orcl_acc[0][5][2]), \"+f\"(orcl_acc[0][5][3]) :: \"memory\");\n"
        "    asm volatile(\"\" : \"+f\"(orcl_acc[0][6][0]), \"+f\"(orcl_acc[0][6][1]), \"+f\"(orcl_acc[0][6][2]), \"+f\"(orcl_acc[0][6][3]) :: \"memory\");\n"
        "    asm volatile(\"\" : \"+f\"(orcl_acc[0][7][0]), \"+f\"(orcl_acc[0][7][1]), \"+f\"(orcl_acc[0][7][2]), \"+f\"(orcl_acc[0][7][3]) :: \"memory\");\n"
        "#else\n"
        "#endif\n"
        "    #pragma unroll\n"
        "    for (long orcl_mi = 0; orcl_mi < 1; orcl_mi += 1) {\n"
        "        #pragma unroll\n"
        "        for (long orcl_ni = 0; orcl_ni < 8; orcl_ni += 1) {\n"
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
    static const char *const orcl_options[1] = { "-D ORCL_SM90A_PTX" };
    static const size_t orcl_local[1] = { 256 };
    /* work-items; 0 = one per iteration, rounded up to a multiple of the local size */
    static const size_t orcl_global[1] = { 0 };
    /* multi-dimensional NDRange: {dimensions, then per dimension: nest loop, iterations and work-items per work-group} */
    static const long orcl_grid[1][10] = { {2, 1, 128, 64, 0, 64, 4, 0, 1, 1} };
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
        if (orcl_sm90a_program(orcl_ctx[orcl_v], orcl_devices[orcl_device[orcl_v]], orcl_options[orcl_v], &orcl_program, NULL, 0) != CL_SUCCESS) {
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
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(m*k) * sizeof(unsigned short), (void *)A, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(unsigned short), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_B = (size_t)(k*n) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(k*n) * sizeof(unsigned short), (void *)B, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(unsigned short), NULL, &orcl_err);
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
