/* y = a*x + y with both an OpenCL and a CUDA transform over the same tuning parameters, for
 * `orcl compare` (the OrCL paper's point: one loop specification, two targets, Figures 6 and 7).
 * The CUDA transform adds CUDA-only arguments: nvcc-style flags (translated for NVRTC),
 * the L1/shared split, and streams, which only the 'total' objective sees. */
void VecAXPY(int n, double a, const double *x, double *y) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [64, 256];
            param WG[] = [8, 64];
            param UI[] = [1, 4];
            param CF[] = ['', '-use_fast_math -Xptxas -dlcm=cg'];
        }
        def input_params { param N[] = [100000]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter { arg repetitions = 3; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, unrollInner=UI,
                                    device=0, platform=0)
                   transform CUDA(blockCount=WG, threadCount=WI, unrollInner=UI, cudaFlags=CF,
                                  preferL1Size=48, launchBounds=True, device=0)
    for (i=0; i<=n-1; i++)
        y[i] = y[i] + a*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        y[i] = y[i] + a*x[i];
    /*@ end @*/
    /*@ end @*/
}
