/* y = a*x + y with one defect: `int i` cannot count to the `long n` of N = 3000000000 (issue 15 F10) */
void VecAXPY(long n, float a, const float *x, float *y) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [16, 64];
            param UI[] = [1, 2];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = [1000, 3000000000]; }
        def input_vars {
            decl long n = N;
            decl float a = random;
            decl static float x[N] = random;
            decl static float y[N] = random;
        }
        def performance_counter { arg repetitions = 2; arg timeout = '3s'; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, unrollInner=UI)
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    /*@ end @*/
    /*@ end @*/
}
