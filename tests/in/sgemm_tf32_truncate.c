/* Golden input (tests/golden.rs): examples/sgemm_tf32.c with tf32Convert='truncate' (no
 * conversion: mma.sync reads the float bits, ignoring the low 13 mantissa bits), 2 cp.async stages
 * (.ca), fragLoad='ldmatrix' (A's k-contiguous tile read by ldmatrix.x4) and blockSwizzle=8: the
 * form of NVIDIA OpenCL's best at 4096^3 (docs/GEMM.md). Validation allows truncation's error:
 * relative 2^-9 * sqrt(k). SGEMM on TF32 tensor cores from the naive triple loop: C = alpha*A*B + beta*C, A m x k, B k x n,
 * C m x n, row-major 1-D arrays, as examples/sgemm.c. `mathMode='tf32'` turns the tiled
 * contraction into warp tiles of mma.sync.aligned.m16n8k8 (TF32 inputs, FP32 accumulation):
 * `tile` is the work-group's tile (CUTLASS's ThreadblockShape, the k-slab TK a multiple of 8),
 * `warpTile` each warp's outputs (WarpShape, multiples of 16 x 8), `padLocal` pads the k-major
 * local tiles (8 makes the fragment reads conflict-free), `vecLoad` the global-to-local loads.
 * Without tensor cores (PoCL, a GPU below sm_80) the same kernel runs its emulated form.
 * Validation allows TF32's error: relative 2^-10 * sqrt(k) (docs/GEMM.md). Sizes are odd on
 * purpose (33 x 17 x 9): edges are guarded. */
void SgemmTf32(int m, int n, int k, float alpha, const float *A, const float *B, float beta,
               float *C) {
    int i, j, l;
    /*@ begin PerfTuning(
        def performance_params {
            param MM[] = ['tf32'];
            param TI[] = [32];
            param TJ[] = [16, 32];
            param TK[] = [8, 16];
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
            decl static float A[M*K] = random;
            decl static float B[K*N] = random;
            decl static float C[M*N] = random;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(mathMode=MM, tile=[('i',TI),('j',TJ),('l',TK)],
                                    warpTile=[('i',WI),('j',WJ)], padLocal=PAD, vecLoad=VL, stages=2, tf32Convert='truncate', fragLoad='ldmatrix', asyncCache='ca', blockSwizzle=8,
                                    device=0, platform=0)
                   transform CUDA(mathMode=MM, tile=[('i',TI),('j',TJ),('l',TK)],
                                  warpTile=[('i',WI),('j',WJ)], padLocal=PAD, vecLoad=VL, stages=2, tf32Convert='truncate', fragLoad='ldmatrix', asyncCache='ca', blockSwizzle=8,
                                  launchBounds=True, device=0)
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++) {
            float s = 0.0f;
            for (l=0; l<=k-1; l++)
                s += A[i*k+l]*B[l*n+j];
            C[i*n+j] = alpha*s + beta*C[i*n+j];
        }
    ) @*/
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++) {
            float s = 0.0f;
            for (l=0; l<=k-1; l++)
                s += A[i*k+l]*B[l*n+j];
            C[i*n+j] = alpha*s + beta*C[i*n+j];
        }
    /*@ end @*/
    /*@ end @*/
}
