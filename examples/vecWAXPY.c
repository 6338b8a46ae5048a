/* w = y + a*x: vecWAXPY of the OrCL paper's Table I (Chaimov, Norris, Malony: "Toward
 * Multi-target Autotuning for Accelerators", ICPADS 2014), PETSc's VecWAXPY. A small search
 * space (2 x 2 x 2 x 2 = 16 configurations; the global size covers the loop) tuned for two
 * vector lengths, so that the tuned file dispatches on n. */
void VecWAXPY(int n, double a, const double *x, const double *y, double *w) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [32, 128];
            param CB[] = [True, False];
            param UI[] = [1, 4];
            param CL[] = ['', '-cl-fast-relaxed-math'];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = [1000, 30000]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = random;
            decl static double w[N] = 0;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, cacheBlocks=CB, unrollInner=UI,
                                    clFlags=CL, device=0, platform=0)
    for (i=0; i<=n-1; i++)
        w[i] = y[i] + a*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        w[i] = y[i] + a*x[i];
    /*@ end @*/
    /*@ end @*/
}
