/* y = y + a0*x0 + a1*x1 + a2*x2 + a3*x3: vecMAXPY of the OrCL paper's Table I (Chaimov, Norris,
 * Malony: "Toward Multi-target Autotuning for Accelerators", ICPADS 2014), PETSc's VecMAXPY with
 * four vectors, written as one statement in the loop. 2 x 2 x 2 x 2 = 16 configurations with a
 * fixed number of work-groups (WG; each work-item strides over the rest of the loop), tuned for
 * two vector lengths. */
void VecMAXPY(int n, double a0, double a1, double a2, double a3, const double *x0,
              const double *x1, const double *x2, const double *x3, double *y) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [32, 128];
            param WG[] = [8, 64];
            param CB[] = [False, True];
            param UI[] = [1, 2];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = [2000, 40000]; }
        def input_vars {
            decl int n = N;
            decl double a0 = random;
            decl double a1 = random;
            decl double a2 = random;
            decl double a3 = random;
            decl static double x0[N] = random;
            decl static double x1[N] = random;
            decl static double x2[N] = random;
            decl static double x3[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, cacheBlocks=CB,
                                    unrollInner=UI, device=0, platform=0)
    for (i=0; i<=n-1; i++)
        y[i] += a0*x0[i] + a1*x1[i] + a2*x2[i] + a3*x3[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        y[i] += a0*x0[i] + a1*x1[i] + a2*x2[i] + a3*x3[i];
    /*@ end @*/
    /*@ end @*/
}
