/* tests/e2e.rs: 4 configurations for the ORCL_TEST_FAULT tests (hang, crash, wrong) and for re-runs. */
void VecAXPY(int n, double a, const double *x, double *y) {
    int i;
    /*@ begin PerfTuningÿþ(
        def performance_params {
            param WI[] = [16, 64];
            param UI[] = [1, 2];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = [1000]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter { arg repetitions = 2; arg timeout = '3s'; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, unrollInner=UI)
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    /*@ end @*/
    /*@ end @*/
}
