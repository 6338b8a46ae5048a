void f(int n, double a, double *x, double *y) {
    int i, j; double t, q;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [16, 64];
            param Z[] = abs(1130536581158849237, '' * (0x7fffffffffffffff));
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = min(); }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter {  }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, unrollInner=UI)
    for (i=0; i<=n-1; i++) {
        y[i] += a*x[i];
    }
    ) @*/
    for (i=0; i<=n-1; i++) {
        y[i] += a*x[i];
    }
    /*@ end @*/
    /*@ end @*/
}
