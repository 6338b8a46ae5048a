/* w = y + a*x with OpenCL vector types: the ViennaCL portability study's kernel parameters
 * (Rupp, Tillet, Rudolf, Weinbub, Selberherr, Grasser, Jungel: "Performance Portability Study
 * of Linear Algebra Kernels in OpenCL", IWOCL 2014, section 2) on PETSc's VecWAXPY: vector width
 * (each work-item loads and stores VW consecutive elements through double2/4/8 with vload/vstore;
 * the last n % VW elements run scalar), increment type (work-items stride by the global size, or
 * each work-group owns one contiguous chunk) and local size, with a fixed number of work-groups.
 * 4 x 2 x 2 = 16 configurations, tuned for two vector lengths (the tuned file dispatches on n). */
void VecWAXPYVec(int n, double a, const double *x, const double *y, double *w) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param VW[] = [1, 2, 4, 8];
            param INC[] = ['global', 'local'];
            param WI[] = [32, 128];
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
    /*@ begin Loop(transform OpenCL(workGroups=32, workItemsPerGroup=WI, vecWidth=VW,
                                    incrementType=INC, device=0, platform=0)
    for (i=0; i<=n-1; i++)
        w[i] = y[i] + a*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        w[i] = y[i] + a*x[i];
    /*@ end @*/
    /*@ end @*/
}
