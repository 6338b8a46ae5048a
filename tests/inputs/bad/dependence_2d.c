/* examples/jacobi2d.c, reduced, with one defect: the sweep updates A in place, so row i reads
 * row i-1, which another iteration of the parallel loop writes */
void Jacobi2D(int m, int n, double A[m][n]) {
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
        }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)
    for (i=1; i<=m-2; i++)
        for (j=1; j<=n-2; j++)
            A[i][j] = 0.25*(A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]);
    ) @*/
    for (i=1; i<=m-2; i++)
        for (j=1; j<=n-2; j++)
            A[i][j] = 0.25*(A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]);
    /*@ end @*/
    /*@ end @*/
}
