/* y = a*x + y in single precision: vecAXPY of the OrCL paper's Table I (Chaimov, Norris, Malony:
 * "Toward Multi-target Autotuning for Accelerators", ICPADS 2014) on float data (the kernel needs
 * no cl_khr_fp64). 2 x 2 x 2 x 2 = 16 configurations with a fixed number of work-groups WG, two
 * vector lengths; validated with the default float tolerance. */
void VecAXPYFloat(int n, float a, const float *x, float *y) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [32, 128];
            param WG[] = [8, 64];
            param CB[] = [True, False];
            param UI[] = [1, 4];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = [1000, 30000]; }
        def input_vars {
            decl int n = N;
            decl float a = random;
            decl static float x[N] = random;
            decl static float y[N] = random;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, cacheBlocks=CB,
                                    unrollInner=UI, device=0, platform=0)
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    /*@ end @*/
    /*@ end @*/
}
