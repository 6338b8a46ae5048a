/* vecSum: s = sum of x_i (a reduction; PETSc VecSum, the OrCL paper's Table I). */
double VecSum(int n, const double *x) {
    int i;
    double s = 0.0;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [64, 128, 256, 512];
            param WG[] = [16, 64];
            param CL[] = ['', '-cl-fast-relaxed-math'];
        }
        def input_params { param N[] = [100000, 1000000]; }
        def input_vars {
            decl int n = N;
            decl double s = 0;
            decl static double x[N] = random;
        }
        def performance_counter { arg repetitions = 3; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, clFlags=CL,
                                    device=0, platform=0)
    for (i=0; i<n; i++)
        s += x[i];
    ) @*/
    for (i=0; i<n; i++)
        s += x[i];
    /*@ end @*/
    /*@ end @*/
    return s;
}
