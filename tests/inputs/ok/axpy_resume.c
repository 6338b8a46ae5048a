/* tests/e2e.rs: 24 configurations, killed with SIGKILL mid-tune and resumed. */
void VecAXPY(int n, double a, const double *x, double *y) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [8, 16, 32, 64];
            param CB[] = [True, False];
            param UI[] = [1, 2, 4];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = [100000]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter { arg repetitions = 3; arg timeout = '3s'; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, cacheBlocks=CB, unrollInner=UI)
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    /*@ end @*/
    /*@ end @*/
}
