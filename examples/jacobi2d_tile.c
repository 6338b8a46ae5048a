/* The 5-point Jacobi sweep of examples/jacobi2d.c as a 2-D NDRange: `tile` maps the row loop i and
 * the column loop j onto NDRange dimensions 1 and 0 (TI x TJ interior points per work-group),
 * `regTile` gives each work-item RI rows, and `cacheBlocks` stages the work-group's block of A
 * with its one-point halo, (TI+2) x (TJ+2) elements, in local memory: each element of A is read
 * from global memory once per work-group instead of five times. Grids that the tiles do not
 * divide are guarded at the edges. */
void Jacobi2DTile(int m, int n, const double A[m][n], double B[m][n]) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param TI[] = [4, 16];
            param TJ[] = [8, 32];
            param RI[] = [1, 2];
            param CB[] = [False, True];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params {
            param M[] = [37];
            param N[] = [45];
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
    /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ)], regTile=[('i',RI)], cacheBlocks=CB,
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
