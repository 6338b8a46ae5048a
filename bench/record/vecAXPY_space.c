/* Recorded search space for orcl replay (issue 5; docs/BENCHMARKS.md): y = a*x + y at N = 2^24
 * with NVIDIA OpenCL, 6 x 8 x 4 x 2 x 3 = 1152 configurations, every one valid. Few work-groups
 * leave the GPU idle and the vector width and increment type change the memory access pattern,
 * so unlike the paper's Figure 2 space (flat on this GPU) it is not flat. */
void VecAXPY(int n, double a, const double *x, double *y) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [32, 64, 128, 256, 512, 1024];
            param WG[] = [8, 33, 66, 132, 264, 528, 1056, 4224];
            param VW[] = [1, 2, 4, 8];
            param IT[] = ['global', 'local'];
            param UI[] = [1, 2, 4];
        }
        def input_params { param N[] = [16777216]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter { arg repetitions = 7; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, vecWidth=VW,
                                    incrementType=IT, unrollInner=UI, device=0, platform=1)
    for (i=0; i<n; i++)
        y[i] = y[i] + a*x[i];
    ) @*/
    for (i=0; i<n; i++)
        y[i] = y[i] + a*x[i];
    /*@ end @*/
    /*@ end @*/
}
