/* SGEMM from the naive triple loop, BLAS style: C = alpha*A*B + beta*C, A m x k, B k x n, C m x n,
 * row-major 1-D arrays. `tile` maps the i and j loops onto a 2-D NDRange (TI x TJ outputs of C per
 * work-group) and gives the reduction loop l its k-slab TK; `regTile` gives each work-item
 * RI x RJ outputs summed in registers; `cacheBlocks` stages the work-group's slabs of A (stored
 * transposed, k-major) and B in local memory per k-slab; `vecWidth` reads VW adjacent values of
 * a tile as one vector; `padLocal` pads the tile rows. Sizes that the tiles do not divide are
 * guarded at the edges (here 33 x 17 x 9). See docs/GEMM.md for the parameters' CLBlast names. */
void Sgemm(int m, int n, int k, float alpha, const float *A, const float *B, float beta,
           float *C) {
    int i, j, l;
    /*@ begin PerfTuning(
        def performance_params {
            param TI[] = [16, 32];
            param TJ[] = [32];
            param TK[] = [8];
            param RI[] = [2, 4];
            param RJ[] = [4];
            param CB[] = [False, True];
            param VW[] = [1, 2];
            param PAD[] = [0];
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
    /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ),('l',TK)], regTile=[('i',RI),('j',RJ)],
                                    cacheBlocks=CB, vecWidth=VW, padLocal=PAD, device=0, platform=0)
                   transform CUDA(tile=[('i',TI),('j',TJ),('l',TK)], regTile=[('i',RI),('j',RJ)],
                                  cacheBlocks=CB, vecWidth=VW, padLocal=PAD, device=0)
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
