/* y = y + A*x in Orio's matVec form (y[i] = y[i] + A[i*n+j]*x[j]) with a 2-D mapping:
 * `tile=[('i',TI),('j',TJ)]` puts TI rows in each work-group (NDRange dimension 1) and TJ
 * work-items on each row (dimension 0) that split the j loop lane-strided, so consecutive
 * work-items read consecutive elements of A's row; their partial sums combine in local memory
 * (a tree with barriers) and lane 0 adds the row's sum to y[i]. TJ must be a power of two (3 is
 * pruned as invalid, never built). Rows and columns the tiles do not divide are guarded. */
void MatVec2D(int m, int n, const float *A, const float *x, float *y) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param TI[] = [1, 4];
            param TJ[] = [1, 3, 8, 32];
            param UI[] = [1, 4];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params {
            param M[] = [37];
            param N[] = [29];
        }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl static float A[M*N] = random;
            decl static float x[N] = random;
            decl static float y[M] = random;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ)], unrollInner=UI, device=0, platform=0)
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++)
            y[i] = y[i] + A[i*n+j]*x[j];
    ) @*/
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++)
            y[i] = y[i] + A[i*n+j]*x[j];
    /*@ end @*/
    /*@ end @*/
}
