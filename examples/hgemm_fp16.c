/* HGEMM on FP16 tensor cores from the naive triple loop: C = alpha*A*B + beta*C with A (m x k)
 * and B (k x n) arrays of _Float16, C float, row-major 1-D arrays. The loop reads the halves as
 * floats (`(float)A[..]`) and sums in float; `mathMode='fp16'` turns the tiled contraction into
 * warp tiles of mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (FP32 accumulation): `tile`
 * is the work-group's tile (the k-slab TK a multiple of 16), `warpTile` each warp's outputs
 * (multiples of 16 x 8). orcl stores the halves as their 16-bit patterns and widens each read
 * exactly, so neither the kernels nor the timing skeleton need a C compiler with _Float16
 * arithmetic. Without tensor cores (PoCL, a GPU below sm_80) the same kernel runs its emulated
 * form. Validation: the products of halves are exact in float, so outputs differ from the loop's
 * only by the order of the FP32 sums: relative 2*k*2^-24 (never below 1e-4; docs/GEMM.md).
 * Sizes are odd on purpose (33 x 17 x 9): edges are guarded. */
void HgemmFp16(int m, int n, int k, float alpha, const _Float16 *A, const _Float16 *B, float beta,
               float *C) {
    int i, j, l;
    /*@ begin PerfTuning(
        def performance_params {
            param MM[] = ['fp16'];
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
            decl static _Float16 A[M*K] = random;
            decl static _Float16 B[K*N] = random;
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
