/* tests/reductions.rs: four accumulators in one loop (sum of products, max, min, integer count) over
 * prime lengths, with both increment types. */
void Stats(int n, const double *x, const double *y, const int *k, double *out, long *count) {
    int i;
    double s = 0.0, m = -1e300, q = 1e300;
    long c = 0;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [16, 100];
            param WG[] = [4, 32];
            param CB[] = [False, True];
            param IT[] = ['global', 'local'];
        }
        def input_params { param N[] = [1009, 30011]; }
        def input_vars {
            decl int n = N;
            decl double s = 0;
            decl double m = -1e300;
            decl double q = 1e300;
            decl long c = 0;
            decl static double x[N] = random;
            decl static double y[N] = random;
            decl static int k[N] = random;
        }
        def performance_counter { arg repetitions = 2; arg timeout = '20s'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, cacheBlocks=CB,
                                    incrementType=IT)
    for (i=0; i<n; i++) {
        s += x[i]*y[i];
        m = fmax(m, x[i] - y[i]);
        q = fmin(y[i], q);
        c = c + k[i];
    }
    ) @*/
    for (i=0; i<n; i++) {
        s += x[i]*y[i];
        m = fmax(m, x[i] - y[i]);
        q = fmin(y[i], q);
        c = c + k[i];
    }
    /*@ end @*/
    /*@ end @*/
    out[0] = s;
    out[1] = m;
    out[2] = q;
    *count = c;
}
