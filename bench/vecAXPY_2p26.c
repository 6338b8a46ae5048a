/* vecAXPY at N = 2^26 doubles (1.5 GiB moved per call: x read, y read and written), the size at
 * which an H100 is bandwidth-bound (docs/BENCHMARKS.md compares it with cuBLAS daxpy). */
void VecAXPY(int n, double a, double *x, double *y) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [64, 128, 256, 512, 1024];
            param WG[] = [132, 264, 528, 1056, 2112, 4224, 16896];
            param CB[] = [False, True];
            param UI[] = [1, 4];
            param CL[] = ['', '-cl-mad-enable'];
        }
        def input_params { param N[] = [67108864]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter { arg repetitions = 10; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, cacheBlocks=CB,
                                    unrollInner=UI, clFlags=CL, device=0, platform=0)
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    /*@ end @*/
    /*@ end @*/
}
