/* BF16 GEMM on tensor cores from the naive triple loop: C = alpha*A*B + beta*C with A (m x k)
 * and B (k x n) arrays of __bf16, C float, row-major 1-D arrays; `mathMode='bf16'`:
 * mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 (FP32 accumulation), as
 * examples/hgemm_fp16.c. orcl reads each __bf16 as its 16-bit pattern widened to float (exact),
 * so tuning needs no compiler with __bf16 arithmetic; compiling the tuned file (which keeps the
 * original loop as its fallback) does: GCC >= 13 or clang >= 17. Validation as for FP16:
 * relative 2*k*2^-24 (never below 1e-4; docs/GEMM.md). */
void BgemmBf16(int m, int n, int k, float alpha, const __bf16 *A, const __bf16 *B, float beta,
               float *C) {
    int i, j, l;
    /*@ begin PerfTuning(
        def performance_params {
            param MM[] = ['bf16'];
            param TI[] = [32];
            param TJ[] = [16, 32];
            param TK[] = [16, 32];
            param WI[] = [16, 32];
            param WJ[] = [8, 16];
            param PAD[] = [8];
            param VL[] = [1, 4];
            constraint warps = (TI/WI) * (TJ/WJ) <= 8;
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params {
            param M[] = [33];
            param N[] = [17];
            param K[] = [9];
        }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl int k = K;
            decl float alpha = random;
            decl float beta = random;
            decl static __bf16 A[M*K] = random;
            decl static __bf16 B[K*N] = random;
            decl static float C[M*N] = random;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(mathMode=MM, tile=[('i',TI),('j',TJ),('l',TK)],
                                    warpTile=[('i',WI),('j',WJ)], padLocal=PAD, vecLoad=VL,
                                    device=0, platform=0)
                   transform CUDA(mathMode=MM, tile=[('i',TI),('j',TJ),('l',TK)],
                                  warpTile=[('i',WI),('j',WJ)], padLocal=PAD, vecLoad=VL,
                                  launchBounds=True, device=0)
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++) {
            float s = 0.0f;
            for (l=0; l<=k-1; l++)
                s += (float)A[i*k+l] * (float)B[l*n+j];
            C[i*n+j] = alpha*s + beta*C[i*n+j];
        }
    ) @*/
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++) {
            float s = 0.0f;
            for (l=0; l<=k-1; l++)
                s += (float)A[i*k+l] * (float)B[l*n+j];
            C[i*n+j] = alpha*s + beta*C[i*n+j];
        }
    /*@ end @*/
    /*@ end @*/
}
