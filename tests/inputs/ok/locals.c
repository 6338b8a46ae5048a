/* Locals declared before the region with computable initializers: the loop reads them with no
 * `input_vars` entry (issue 22 item 10). */
void scale(int n, double a, const double *x, double *y) {
    int i;
    int nh = n / 2;
    double twice = 2.0 * a;
    /*@ begin PerfTuning(
        def performance_params { param WI[] = [16, 32]; }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = [61]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = 0;
        }
        def performance_counter { arg repetitions = 1; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)
    for (i = 0; i < nh; i++)
        y[i] = twice * x[i];
    ) @*/
    for (i = 0; i < nh; i++)
        y[i] = twice * x[i];
    /*@ end @*/
    /*@ end @*/
}
