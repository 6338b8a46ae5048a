/* bench/transpose.sh: the out-of-place transpose of examples/transpose.c at 8192 x 8192 floats,
 * over a 2-D tile / regTile / cacheBlocks space (the classic 32 x 8 work-items over a 32 x 32
 * padded local tile is TI=32 TJ=32 RJ=4 CB=True). */
void Transpose(int m, int n, const float A[m][n], float B[n][m]) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param TI[] = [32, 64];
            param TJ[] = [16, 32, 64];
            param RI[] = [1, 2];
            param RJ[] = [1, 2, 4, 8];
            param CB[] = [False, True];
            constraint wg = ((TI / RI) * (TJ / RJ) <= 1024 and (TI / RI) * (TJ / RJ) >= 64);
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param M[] = [8192]; param N[] = [8192]; }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl static float A[M][N] = random;
            decl static float B[N][M] = 0;
        }
        def performance_counter { arg repetitions = 10; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ)], regTile=[('i',RI),('j',RJ)], cacheBlocks=CB)
                   transform CUDA(tile=[('i',TI),('j',TJ)], regTile=[('i',RI),('j',RJ)], cacheBlocks=CB)
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++)
            B[j][i] = A[i][j];
    ) @*/
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++)
            B[j][i] = A[i][j];
    /*@ end @*/
    /*@ end @*/
}
