/* bench/transpose.sh: the 5-point Jacobi sweep of examples/jacobi2d_tile.c at 8192 x 8192 doubles
 * over a 2-D tile / regTile / cacheBlocks (staged halo) space. */
void Jacobi2DTile(int m, int n, const double A[m][n], double B[m][n]) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param TI[] = [4, 8, 16, 32];
            param TJ[] = [32, 64, 128];
            param RI[] = [1, 2, 4];
            param CB[] = [False, True];
            constraint wg = (TI % RI == 0 and (TI / RI) * TJ <= 1024);
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param M[] = [8192]; param N[] = [8192]; }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl static double A[M][N] = random;
            decl static double B[M][N] = 0;
        }
        def performance_counter { arg repetitions = 10; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ)], regTile=[('i',RI)], cacheBlocks=CB)
                   transform CUDA(tile=[('i',TI),('j',TJ)], regTile=[('i',RI)], cacheBlocks=CB)
    for (i=1; i<=m-2; i++)
        for (j=1; j<=n-2; j++)
            B[i][j] = 0.2*(A[i][j] + A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]);
    ) @*/
    for (i=1; i<=m-2; i++)
        for (j=1; j<=n-2; j++)
            B[i][j] = 0.2*(A[i][j] + A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]);
    /*@ end @*/
    /*@ end @*/
}
