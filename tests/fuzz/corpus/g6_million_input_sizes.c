/* y = a*x + y, the OrCL paper's vecAXPY loop with a small search space: the quick demo of
 * `make tune` (orcl tune examples/axpy_quick.c on the PoCL CPU device). */
void VecAXPY(int n, double a, const double *x, double *y) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [16, 64, 256];
            param WG[] = [4, 16, 64];
            param CB[] = [True, False];
            param UI[] = [1, 4];
            param CL[] = ['', '-cl-fast-relaxed-math'];
            constraint c1 = (WI*WG <= 4096);
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = range(1000, 1001000); }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter { arg repetitions = 5; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI,
                                    cacheBlocks=CB, unrollInner=UI, clFlags=CL,
                                    device=0, platform=0)
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    /*@ end @*/
    /*@ end @*/
}
