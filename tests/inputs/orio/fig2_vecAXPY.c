/* The OrCL paper's Figure 2 (Chaimov, Norris, Malony: "Toward Multi-target Autotuning for
 * Accelerators", ICPADS 2014), as Orio's testsuite/sandbox/opencl/vecAXPY.c writes it: `int n=N;`
 * between the PerfTuning header and the Loop. The search space is cut to 4 configurations and the
 * TAU build section and device=1 are left out, so that the test is small; the statements and the
 * loop are the paper's. */
void VecAXPY(int n, double a, double *x, double *y) {

  register int i;
  /*@ begin PerfTuning(
        def performance_params {
          param WI[] = [32,64];
          param WG[] = [4,8];
        }
        def input_params {
          param N[] = [1000,30000];
        }
        def input_vars {
          decl double a = random;
          decl static double x[N] = random;
          decl static double y[N] = 0;
        }
        def performance_counter {
          arg method = 'basic timer';
          arg repetitions = 3;
        }
  ) @*/

  int n=N;

  /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI)

  for (i=0; i<=n-1; i++)
    y[i]+=a*x[i];

  ) @*/

  for (i=0; i<=n-1; i++)
    y[i]+=a*x[i];

  /*@ end @*/
  /*@ end @*/
}
