/* y = c*x, with c a local assigned twice before the region: no one expression gives its value */
void VecScale(int n, const double *x, double *y) {
    int i;
    double c;
    c = 2.0;
    c = c * 1.5;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [16, 64];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = [1000]; }
        def input_vars {
            decl int n = N;
            decl static double x[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter { arg repetitions = 5; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)
    for (i=0; i<=n-1; i++)
        y[i] = c*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        y[i] = c*x[i];
    /*@ end @*/
    /*@ end @*/
}
