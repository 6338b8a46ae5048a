/* examples/jacobi2d.c, reduced, with one defect: input_vars declares the 2-D array B with one
 * extent (M*N) */
void Jacobi2D(int m, int n, const double A[m][n], double B[m][n]) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [16, 64];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param M[] = [40]; param N[] = [30]; }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl static double A[M][N] = random;
            decl static double B[M*N] = 0;
        }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)
    for (i=1; i<=m-2; i++)
        for (j=1; j<=n-2; j++)
            B[i][j] = 0.25*(A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]);
    ) @*/
    for (i=1; i<=m-2; i++)
        for (j=1; j<=n-2; j++)
            B[i][j] = 0.25*(A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]);
    /*@ end @*/
    /*@ end @*/
}
