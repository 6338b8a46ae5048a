/* vecDot of the OrCL paper's Table I for `orcl compare` on the GPU (docs/BENCHMARKS.md):
 * one annotation, an OpenCL and a CUDA transform over the same tuning parameters; 144
 * configurations per backend and input size, N = 10^6 (the paper's size, launch-bound on an
 * H100/H200) and N = 2^26 (bandwidth-bound). */
double VecDot(int n, const double *x, const double *y) {
    int i;
    double s = 0;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [128, 256, 512, 1024];
            param WG[] = [264, 528, 1056, 2112, 4224, 8448];
            param UI[] = [1, 2, 4];
            param IT[] = ['global', 'local'];
        }
        def input_params { param N[] = [1000000, 67108864]; }
        def input_vars {
            decl int n = N;
            decl double s = 0;
            decl static double x[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter { arg repetitions = 20; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, unrollInner=UI,
                                    incrementType=IT, device=0, platform=1)
                   transform CUDA(blockCount=WG, threadCount=WI, unrollInner=UI,
                                  incrementType=IT, device=0)
    for (i=0; i<n; i++)
        s += x[i]*y[i];
    ) @*/
    for (i=0; i<n; i++)
        s += x[i]*y[i];
    /*@ end @*/
    /*@ end @*/
    return s;
}
