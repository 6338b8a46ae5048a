/* atax's second nest (tests/polybench/atax.c), reduced, with one defect: the sum reads y[j+1]
 * and writes y[j], so it is no sum into one element and iterations of i race */
void Atax(int m, int n, double A[m][n], double *y, const double *tmp) {
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
            decl static double y[N] = random;
            decl static double tmp[M] = random;
        }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)
    for (i = 0; i < m; i++)
        for (j = 0; j < n - 1; j++)
            y[j] = y[j+1] + A[i][j] * tmp[i];
    ) @*/
    for (i = 0; i < m; i++)
        for (j = 0; j < n - 1; j++)
            y[j] = y[j+1] + A[i][j] * tmp[i];
    /*@ end @*/
    /*@ end @*/
}
