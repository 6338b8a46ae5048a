/* One sweep of the 5-point Jacobi stencil (2-D heat equation) on an m x n grid held in C99
 * variable-length 2-D arrays: B[i][j] is the average of A[i][j] and its four neighbours, for every
 * interior point. One work-item per row: the parallel loop runs over the interior rows i, the
 * inner loop over the columns j is sequential. orcl flattens A[i][j] to A[i*n + j] over one
 * row-major buffer, and the row length n is a kernel argument. 2 x 2 x 2 = 8 configurations per
 * grid; two grids, paired by an input constraint; the tuned file dispatches on m and n. */
void Jacobi2D(int m, int n, const double A[m][n], double B[m][n]) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [16, 64];
            param WG[] = [4, 32];
            param UI[] = [1, 4];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params {
            param M[] = [40, 300];
            param N[] = [30, 200];
            constraint shape = (M == 40 and N == 30) or (M == 300 and N == 200);
        }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl static double A[M][N] = random;
            decl static double B[M][N] = 0;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, unrollInner=UI,
                                    device=0, platform=0)
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
