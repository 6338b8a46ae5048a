/* Test input (tests/golden.rs): examples/sgemm_tf32.c, B transposed (NT: both operands
 * k-contiguous, K-major, as TF32 wgmma needs), with mmaInstruction='wgmma' (issue 23, sm_90a):
 * one warpgroup along i and two along j (64 x 128 tile, warpgroup tiles 64 x 64), k-slab 32 (one
 * 128-byte row of floats) in 3 stages of 16-byte cp.async copies into 128-byte-swizzled tiles,
 * read by wgmma.mma_async m64n64k8 .tf32 through shared-memory descriptors (the emulated form
 * decodes the same descriptors and truncates to TF32 as the tensor cores do). Sizes no tile
 * divides: 130 x 77 x 200. */
void SgemmWgmma(int m, int n, int k, float alpha, const float *A, const float *B, float beta,
               float *C) {
    int i, j, l;
    /*@ begin PerfTuning(
        def performance_params {
            param MM[] = ['tf32'];
            param TI[] = [64];
            param TJ[] = [128];
            param TK[] = [32];
            param WI[] = [64];
            param WJ[] = [64];
            param PAD[] = [0];
            param VL[] = [4];
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
            decl static float A[M*K] = random;
            decl static float B[N*K] = random;
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
                s += A[i*k+l] * B[j*k+l];
            C[i*n+j] = alpha*s + beta*C[i*n+j];
        }
    ) @*/
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++) {
            float s = 0.0f;
            for (l=0; l<=k-1; l++)
                s += A[i*k+l] * B[j*k+l];
            C[i*n+j] = alpha*s + beta*C[i*n+j];
        }
    /*@ end @*/
    /*@ end @*/
}
