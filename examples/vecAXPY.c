/* vecAXPY with the full search space of the OrCL paper's Figure 2 (Chaimov, Norris, Malony:
 * "Toward Multi-target Autotuning for Accelerators", ICPADS 2014): 4 x 6 x 2 x 2 x 3 x 3 x 2 =
 * 1728 configurations. The TAU skeleton of the paper is left out; device=0, platform=0. */
void VecAXPY(int n, double a, double *x, double *y) {
    register int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [32,64,128,256];
            param WG[] = [4,8,16,32,64,128];
            param CB[] = [True, False];
            param SH[] = [True, False];
            param UI[] = range(1,4);
            param VH[] = [0,2,4];
            param CL[] = ['', '-cl-fast-relaxed-math'];
        }
        def build {
            arg build_command = 'cc -O3';
        }
        def input_params {
            param N[] = [100000,1000000];
        }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = 0;
        }
        def performance_counter {
            arg method = 'basic timer';
            arg repetitions = 5;
        }
    ) @*/

    /*@ begin Loop(transform OpenCL(workGroups=WG,
        workItemsPerGroup=WI, sizeHint=SH, vecHint=VH,
        cacheBlocks=CB, unrollInner=UI, clFlags=CL, device
        =0, platform=0)

    for (i=0; i<=n-1; i++)
        y[i]+=a*x[i];

    ) @*/

    for (i=0; i<=n-1; i++)
        y[i]+=a*x[i];

    /*@ end @*/
    /*@ end @*/
}
