/* 2-D arrays whose row length is a macro (NC): the parameters `const double A[][NC]` and
 * `double (*B)[NC]`, and the C99 variable-length parameter `double C[m][n]`. The parallel loop
 * starts at 2 and ends at `<= m-1`; inner loops over j are sequential and C[i][j] depends on
 * C[i][j-1] (the same row, the same work-item). The extents NC are no variable, so the kernel
 * receives them as the arguments orcl_A_dim1 and orcl_B_dim1; C's row length is the scalar n. */
#define NC 23
void Rows(int m, int n, const double A[][NC], double (*B)[NC], double C[m][n]) {
    int i, j, nc = NC;
    /*@ begin PerfTuning(
        let NC = 23;
        def performance_params {
            param WI[] = [8, 32];
            param WG[] = [2, 8];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params {
            param M[] = [50, 129];
            param N[] = [17];
        }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl int nc = NC;
            decl static double A[M][NC] = random;
            decl static double B[M][NC] = random;
            decl static double C[M][N] = random;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI)
    for (i=2; i<=m-1; i++) {
        C[i][0] = A[i-2][0];
        for (j=1; j<=n-1; j++)
            C[i][j] = C[i][j-1] + A[i-2][j] * A[i][j];
        for (j=0; j<nc; j++)
            B[i][j] = 0.5 * B[i][j] + C[i][j % n];
    }
    ) @*/
    for (i=2; i<=m-1; i++) {
        C[i][0] = A[i-2][0];
        for (j=1; j<=n-1; j++)
            C[i][j] = C[i][j-1] + A[i-2][j] * A[i][j];
        for (j=0; j<nc; j++)
            B[i][j] = 0.5 * B[i][j] + C[i][j % n];
    }
    /*@ end @*/
    /*@ end @*/
}
