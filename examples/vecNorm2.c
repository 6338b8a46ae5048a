/* vecNorm2: ||x||_2 = sqrt(sum x_i^2) (a reduction, then sqrt outside the tuned loop; PETSc VecNorm
 * with NORM_2, the OrCL paper's Table I). */
#include <math.h>

double VecNorm2(int n, const double *x) {
    int i;
    double s = 0.0;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [64, 256];
            param WG[] = [16, 128];
            param CB[] = [False, True];
            param UI[] = [1, 2];
        }
        def input_params { param N[] = [100000, 1000000]; }
        def input_vars {
            decl int n = N;
            decl double s = 0;
            decl static double x[N] = random;
        }
        def performance_counter { arg repetitions = 3; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, cacheBlocks=CB,
                                    unrollInner=UI, device=0, platform=0)
    for (i=0; i<=n-1; i++)
        s = s + x[i]*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        s = s + x[i]*x[i];
    /*@ end @*/
    /*@ end @*/
    return sqrt(s);
}
