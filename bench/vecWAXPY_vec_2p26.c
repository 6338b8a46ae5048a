/* w = y + a*x on 2^26 doubles with NVIDIA OpenCL: vector width (double2/4/8 loads and stores),
 * increment type and work-groups (the ViennaCL study's parameters, section 2); compared with an
 * elementwise waxpy in docs/BENCHMARKS.md. 4 x 2 x 2 x 2 = 32 configurations. */
void VecWAXPYVec(int n, double a, const double *x, const double *y, double *w) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param VW[] = [1, 2, 4, 8];
            param INC[] = ['global', 'local'];
            param WI[] = [256, 1024];
            param WG[] = [1056, 16896];
        }
        def input_params { param N[] = [67108864]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = random;
            decl static double w[N] = 0;
        }
        def performance_counter { arg repetitions = 7; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, vecWidth=VW,
                                    incrementType=INC, device=0, platform=1)
    for (i=0; i<=n-1; i++)
        w[i] = y[i] + a*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        w[i] = y[i] + a*x[i];
    /*@ end @*/
    /*@ end @*/
}
