/* vecDot: s = x . y (a reduction; PETSc VecDot, the OrCL paper's Table I). */
double VecDot(int n, const double *x, const double *y) {
    int i;
    double s = 0.0;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [32, 256];
            param WG[] = [8, 64];
            param UI[] = [1, 4];
            param CL[] = ['', '-cl-mad-enable'];
        }
        def input_params { param N[] = [100000, 1000000]; }
        def input_vars {
            decl int n = N;
            decl double s = 0;
            decl static double x[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter { arg repetitions = 3; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, unrollInner=UI,
                                    clFlags=CL, device=0, platform=0)
    for (i=0; i<=n-1; i++)
        s += x[i]*y[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        s += x[i]*y[i];
    /*@ end @*/
    /*@ end @*/
    return s;
}
