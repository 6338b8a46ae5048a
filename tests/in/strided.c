/* A strided loop with a non-zero lower bound, an if/else and math calls: golden input for
 * tests/golden.rs (also checked as plain C). */
#include <math.h>

void Strided(int n, double a, const double *x, double *y, double *z) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [32, 64];
            param WG[] = [8, 16];
            param CB[] = [False, True];
            param UI[] = [1, 2];
            param CL[] = ['', '-cl-mad-enable'];
        }
        def build { arg build_command = 'cc -O2 -lm'; }
        def input_params { param N[] = [1000, 5001]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = 0;
            decl static double z[N] = 0;
        }
        def performance_counter { arg repetitions = 2; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, cacheBlocks=CB,
                                    unrollInner=UI, clFlags=CL)
    for (i=3; i<n; i+=2) {
        if (x[i] > 0.5) {
            y[i] = a * sqrt(x[i]) + pow(x[i], 2.0);
        } else {
            y[i] = fmax(a - exp(x[i]), -1.0);
            z[i] = fabs(x[i]) * (double)i;
        }
    }
    ) @*/
    for (i=3; i<n; i+=2) {
        if (x[i] > 0.5) {
            y[i] = a * sqrt(x[i]) + pow(x[i], 2.0);
        } else {
            y[i] = fmax(a - exp(x[i]), -1.0);
            z[i] = fabs(x[i]) * (double)i;
        }
    }
    /*@ end @*/
    /*@ end @*/
}
