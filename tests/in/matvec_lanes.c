/* y[i] += over an inner loop with a non-zero lower bound, a `<=` bound and two offsets of x:
 * golden input for innerThreads (lanes accumulate privately, lane 0 adds to y[i]) and
 * cacheBlocks (tiles of x[j-1] and x[j+1]); tests/golden.rs. */
void MatVecLanes(int m, int n, const double *A, const double *x, double *y) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [48];
            param IT[] = [1, 16];
            param CB[] = [False, True];
            param INC[] = ['global', 'local'];
        }
        def input_params { param M[] = [301]; param N[] = [199]; }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl static double A[M*(N+2)] = random;
            decl static double x[N+2] = random;
            decl static double y[M] = random;
        }
        def performance_counter { arg repetitions = 2; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, innerThreads=IT, cacheBlocks=CB,
                                    incrementType=INC)
    for (i=0; i<m; i++)
        for (j=1; j<=n; j++)
            y[i] += A[i*(n+2)+j] * (x[j-1] + x[j+1]);
    ) @*/
    for (i=0; i<m; i++)
        for (j=1; j<=n; j++)
            y[i] += A[i*(n+2)+j] * (x[j-1] + x[j+1]);
    /*@ end @*/
    /*@ end @*/
}
