/* y = alpha*A*x + beta*y (BLAS gemv) with a scalar accumulator declared outside the loop and a
 * 2-D mapping: `tile=[('i',TI),('j',TJ)]` puts TI rows in each work-group and TJ lanes on each
 * row, which split the j loop strided (coalesced loads of A's row) and combine their partial sums
 * in local memory; lane 0 computes s = 0 + sum and then y[i] = alpha*s + beta*y[i] as the loop
 * does. A is a 2-D array (A[i][j]). */
void Gemv2D(int m, int n, double alpha, double beta, const double A[m][n], const double *x,
            double *y) {
    int i, j;
    double s;
    /*@ begin PerfTuning(
        def performance_params {
            param TI[] = [2, 8];
            param TJ[] = [4, 16, 64];
            param HINT[] = [False, True];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params {
            param M[] = [37];
            param N[] = [29];
        }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl double alpha = 1.5;
            decl double beta = -0.5;
            decl static double A[M][N] = random;
            decl static double x[N] = random;
            decl static double y[M] = random;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ)], sizeHint=HINT, device=0, platform=0)
    for (i=0; i<=m-1; i++) {
        s = 0.0;
        for (j=0; j<=n-1; j++)
            s += A[i][j]*x[j];
        y[i] = alpha*s + beta*y[i];
    }
    ) @*/
    for (i=0; i<=m-1; i++) {
        s = 0.0;
        for (j=0; j<=n-1; j++)
            s += A[i][j]*x[j];
        y[i] = alpha*s + beta*y[i];
    }
    /*@ end @*/
    /*@ end @*/
}
