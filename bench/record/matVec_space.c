/* Recorded search space for orcl replay (issue 5; docs/BENCHMARKS.md): matVec 4096 x 4096 with
 * NVIDIA OpenCL, 6 x 6 x 6 x 4 x 2 = 1728 configurations, every one valid. Work-items per row
 * (innerThreads) decide coalescing, so the space is far from flat. */
void MatVec(int m, int n, const double *A, const double *x, double *y) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [32, 64, 128, 256, 512, 1024];
            param WG[] = [66, 132, 264, 528, 1056, 2112];
            param T[] = [1, 2, 4, 8, 16, 32];
            param UI[] = [1, 2, 4, 8];
            param CB[] = [False, True];
        }
        def input_params {
            param M[] = [4096];
            param N[] = [4096];
        }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl static double A[M*N] = random;
            decl static double x[N] = random;
            decl static double y[M] = 0;
        }
        def performance_counter { arg repetitions = 7; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, innerThreads=T,
                                    unrollInner=UI, cacheBlocks=CB, device=0, platform=1)
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
