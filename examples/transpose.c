/* Out-of-place transpose of an m x n float matrix, B = A^T, from the naive loop nest. `tile` maps
 * both loops onto a 2-D NDRange (TI x TJ iterations per work-group), `regTile` gives each
 * work-item RI rows of its tile, and `cacheBlocks` stages A's tile in local memory (padded by one
 * element against bank conflicts), so that both the loads of A and the stores of B are coalesced.
 * Sizes that the tiles do not divide are guarded at the edges. */
void Transpose(int m, int n, const float A[m][n], float B[n][m]) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param TI[] = [8, 32];
            param TJ[] = [16, 32];
            param RI[] = [1, 4];
            param CB[] = [False, True];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params {
            param M[] = [67];
            param N[] = [45];
        }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl static float A[M][N] = random;
            decl static float B[N][M] = 0;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ)], regTile=[('i',RI)], cacheBlocks=CB,
                                    device=0, platform=0)
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
