/* Test input (tests/golden.rs): examples/hgemm_fp16.c with mmaInstruction='wgmma' (issue 23,
 * sm_90a): one warpgroup along i and two along j (64 x 128 tile, warpgroup tiles 64 x 64),
 * k-slab 64 in 3 stages of 16-byte cp.async copies into 128-byte-swizzled tiles, read by
 * wgmma.mma_async through shared-memory descriptors (the emulated form decodes the same
 * descriptors). Sizes no tile divides: 130 x 77 x 200. */
void HgemmFp16(int m, int n, int k, float alpha, const _Float16 *A, const _Float16 *B, float beta,
               float *C) {
    int i, j, l;
    /*@ begin PerfTuning(
        def performance_params {
            param MM[] = ['fp16'];
            param TI[] = [64];
            param TJ[] = [128];
            param TK[] = [64];
            param WI[] = [64];
            param WJ[] = [64];
            param PAD[] = [0];
            param VL[] = [8];
            param ST[] = [3];
            param MI[] = ['wgmma'];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params {
            param M[] = [130];
            param N[] = [77];
            param K[] = [200];
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
                                    warpTile=[('i',WI),('j',WJ)], padLocal=PAD, vecLoad=VL, stages=ST, mmaInstruction=MI,
                                    device=0, platform=0)
                   transform CUDA(mathMode=MM, tile=[('i',TI),('j',TJ),('l',TK)],
                                  warpTile=[('i',WI),('j',WJ)], padLocal=PAD, vecLoad=VL, stages=ST, mmaInstruction=MI,
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
