/* tests/reductions.rs: a float sum and a float product-free norm (sum of squares) over prime lengths. */
float SumSq(int n, const float *x) {
    int i;
    float s = 0.0f;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [32, 48];
            param UI[] = [1, 4];
        }
        def input_params { param N[] = [1009, 10007]; }
        def input_vars {
            decl int n = N;
            decl float s = 0;
            decl static float x[N] = random;
        }
        def performance_counter { arg repetitions = 2; arg timeout = '20s'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, unrollInner=UI)
    for (i=0; i<=n-1; i++)
        s = s + x[i]*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        s = s + x[i]*x[i];
    /*@ end @*/
    /*@ end @*/
    return s;
}
