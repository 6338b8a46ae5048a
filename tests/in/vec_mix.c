/* A float loop for vecWidth: offsets, a temporary, `?:` on a comparison, a double literal, two
 * reductions (sum, max), a non-zero lower bound and a `<` bound; golden input (tests/golden.rs). */
float Mix(int n, float a, const float *x, const float *y, float *z) {
    int i;
    float s = 0.0f;
    float mx = -1000.0f;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [24];
            param WG[] = [3];
            param VW[] = [1, 4, 16];
            param INC[] = ['global', 'local'];
        }
        def input_params { param N[] = [1009]; }
        def input_vars {
            decl int n = N;
            decl float a = random;
            decl float s = 0;
            decl float mx = 0;
            decl static float x[N] = random;
            decl static float y[N] = random;
            decl static float z[N] = 0;
        }
        def performance_counter { arg repetitions = 2; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, vecWidth=VW,
                                    incrementType=INC)
    for (i=1; i<n-1; i++) {
        float t = a*x[i+1] - x[i-1];
        z[i] = t > 0.5f ? t : y[i]*2.0;
        z[i] += -t / 3;
        s += fabs(t) + 1;
        mx = fmax(mx, y[i]);
    }
    ) @*/
    for (i=1; i<n-1; i++) {
        float t = a*x[i+1] - x[i-1];
        z[i] = t > 0.5f ? t : y[i]*2.0;
        z[i] += -t / 3;
        s += fabs(t) + 1;
        mx = fmax(mx, y[i]);
    }
    /*@ end @*/
    /*@ end @*/
    return s + mx;
}
