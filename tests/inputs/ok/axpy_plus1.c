/* tests/e2e.rs: arrays of N+1 elements and an inclusive bound `i<=n`: the host code must size the
 * buffers (n+1)*sizeof(double). */
void VecAXPY(int n, double a, const double *x, double *y) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [16, 64];
            param UI[] = [1, 2];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = [1000, 5000]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N+1] = random;
            decl static double y[N+1] = random;
        }
        def performance_counter { arg repetitions = 2; arg timeout = '3s'; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, unrollInner=UI)
    for (i=0; i<=n; i++)
        y[i] += a*x[i];
    ) @*/
    for (i=0; i<=n; i++)
        y[i] += a*x[i];
    /*@ end @*/
    /*@ end @*/
}
