/* y = A*x in single precision, A an m x n row-major matrix stored as a 1-D array (A[i*n+j]):
 * matVec of the OrCL paper's Table I (Chaimov, Norris, Malony: "Toward Multi-target Autotuning
 * for Accelerators", ICPADS 2014) on float data. The inner loop accumulates into a float temporary
 * (float literals carry the f suffix), run by one work-item per row (IT=1) or split over 8
 * work-items per row (innerThreads) whose partial sums are added in local memory; cacheBlocks
 * stages x through local memory in tiles. 2 x 2 x 2 x 2 = 16 configurations, two (m, n) shapes
 * paired by an input constraint. */
void MatVecFloat(int m, int n, const float *A, const float *x, float *y) {
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
            decl static float A[M*N] = random;
            decl static float x[N] = random;
            decl static float y[M] = 0;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, cacheBlocks=CB,
                                    innerThreads=IT, unrollInner=4, device=0, platform=0)
    for (i=0; i<=m-1; i++) {
        float t = 0.0f;
        for (j=0; j<=n-1; j++)
            t += A[i*n+j]*x[j];
        y[i] = t;
    }
    ) @*/
    for (i=0; i<=m-1; i++) {
        float t = 0.0f;
        for (j=0; j<=n-1; j++)
            t += A[i*n+j]*x[j];
        y[i] = t;
    }
    /*@ end @*/
    /*@ end @*/
}
