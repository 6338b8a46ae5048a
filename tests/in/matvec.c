/* y = A*x with an inner sequential loop (one work-item per row): golden input for
 * tests/golden.rs. */
void MatVec(int m, int n, const float *A, const float *x, float *y) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [32, 64];
            param UI[] = [1, 4];
        }
        def input_params { param M[] = [300]; param N[] = [200]; }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl static float A[M*N] = random;
            decl static float x[N] = random;
            decl static float y[M] = 0;
        }
        def performance_counter { arg repetitions = 2; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, unrollInner=UI)
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++)
            y[i] += A[i*n+j] * x[j];
    ) @*/
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++)
            y[i] += A[i*n+j] * x[j];
    /*@ end @*/
    /*@ end @*/
}
