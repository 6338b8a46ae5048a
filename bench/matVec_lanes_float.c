/* matVec (float, row-major A[i*n+j], 2048^2 and 8192^2) with NVIDIA OpenCL: one work-item per row
 * (IT=1) against IT work-items per row splitting the inner loop lane-strided (innerThreads), with
 * and without cacheBlocks staging of x; compared with cuBLAS gemv in docs/BENCHMARKS.md.
 * 3 x 3 x 4 x 2 x 2 = 144 configurations per size. */
void MatVecLanes(int m, int n, const float *A, const float *x, float *y) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [128, 256, 512];
            param WG[] = [264, 1056, 4224];
            param IT[] = [1, 8, 16, 32];
            param CB[] = [False, True];
            param UI[] = [1, 4];
        }
        def input_params {
            param M[] = [2048, 8192];
            param N[] = [2048, 8192];
            constraint square = (M == N);
        }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl static float A[M*N] = random;
            decl static float x[N] = random;
            decl static float y[M] = 0;
        }
        def performance_counter { arg repetitions = 7; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, innerThreads=IT,
                                    cacheBlocks=CB, unrollInner=UI, device=0, platform=1)
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
