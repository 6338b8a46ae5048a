/* w = a*w: vecScale of the OrCL paper's Table I (Chaimov, Norris, Malony: "Toward Multi-target
 * Autotuning for Accelerators", ICPADS 2014), PETSc's VecScale (in place: the one array is both
 * read and written, with the same subscript, so there is nothing to stage for cacheBlocks).
 * 2 x 2 x 2 x 2 = 16 configurations with a fixed number of work-groups WG, two vector lengths. */
void VecScale(int n, double a, double *w) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [64, 256];
            param WG[] = [8, 64];
            param UI[] = [1, 4];
            param CL[] = ['', '-cl-mad-enable'];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = [1000, 50000]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double w[N] = random;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, unrollInner=UI,
                                    clFlags=CL, device=0, platform=0)
    for (i=0; i<=n-1; i++)
        w[i] = a*w[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        w[i] = a*w[i];
    /*@ end @*/
    /*@ end @*/
}
