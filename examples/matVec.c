/* y = A*x with A an m x n row-major matrix stored as a 1-D array (A[i*n+j]): matVec of the OrCL
 * paper's Table I (Chaimov, Norris, Malony: "Toward Multi-target Autotuning for Accelerators",
 * ICPADS 2014). The inner loop over j accumulates into a scalar temporary declared in the
 * parallel loop's body: one work-item per row (IT=1), or 8 work-items per row splitting the inner
 * loop lane-strided (innerThreads=8: consecutive work-items read consecutive elements of A) and
 * adding their partial sums in local memory; cacheBlocks stages x (shared by every row) through
 * local memory in tiles of the work-group size. 2 x 2 x 2 x 2 = 16 configurations, two (m, n)
 * shapes paired by an input constraint; the tuned file dispatches on m and n. */
void MatVec(int m, int n, const double *A, const double *x, double *y) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [16, 64];
            param WG[] = [4, 32];
            param CB[] = [False, True];
            param IT[] = [1, 8];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params {
            param M[] = [60, 400];
            param N[] = [50, 300];
            constraint shape = (M == 60 and N == 50) or (M == 400 and N == 300);
        }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl static double A[M*N] = random;
            decl static double x[N] = random;
            decl static double y[M] = 0;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, cacheBlocks=CB,
                                    innerThreads=IT, unrollInner=4, device=0, platform=0)
    for (i=0; i<=m-1; i++) {
        double t = 0.0;
        for (j=0; j<=n-1; j++)
            t += A[i*n+j]*x[j];
        y[i] = t;
    }
    ) @*/
    for (i=0; i<=m-1; i++) {
        double t = 0.0;
        for (j=0; j<=n-1; j++)
            t += A[i*n+j]*x[j];
        y[i] = t;
    }
    /*@ end @*/
    /*@ end @*/
}
