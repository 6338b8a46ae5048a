/* matVec (y = A*x, A row-major 8192 x 8192) of the OrCL paper's Table I for `orcl compare` on the
 * GPU (docs/BENCHMARKS.md), against cuBLAS dgemv. One work-item per row reads A with a stride
 * of n (uncoalesced); innerThreads = T lets T work-items share a row, reading it coalesced and
 * combining their partial sums in local (shared) memory. */
void MatVec(int m, int n, const double *A, const double *x, double *y) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [128, 256, 512, 1024];
            param WG[] = [264, 528, 1056, 2112];
            param T[] = [1, 4, 8, 16, 32];
            param UI[] = [1, 4];
            param CB[] = [False, True];
        }
        def input_params {
            param M[] = [8192];
            param N[] = [8192];
        }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl static double A[M*N] = random;
            decl static double x[N] = random;
            decl static double y[M] = 0;
        }
        def performance_counter { arg repetitions = 10; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, innerThreads=T,
                                    unrollInner=UI, cacheBlocks=CB, device=0, platform=1)
                   transform CUDA(blockCount=WG, threadCount=WI, innerThreads=T,
                                  unrollInner=UI, cacheBlocks=CB, device=0)
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
