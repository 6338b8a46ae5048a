/* Orio's vecNorm2 form (testsuite/sandbox/cuda/vecNorm2.c): the reduction's result is finished by
 * a statement after the loop inside the Loop annotation, `r=sqrt(r);`, which runs once. */
#include <math.h>
double VecNorm2(int n, double *x) {
  register int i;
  double r = 0.0;
  /*@ begin PerfTuning(
        def performance_params {
          param WI[] = [32,64];
          param WG[] = [4,8];
        }
        def input_params {
          param N[] = [1000,30000];
        }
        def input_vars {
          decl static double x[N] = random;
          decl double r = 0;
        }
  ) @*/
  int n=N;
  /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI)
  for (i=0; i<=n-1; i++)
    r+=x[i]*x[i];
  r=sqrt(r);
  ) @*/
  for (i=0; i<=n-1; i++)
    r+=x[i]*x[i];
  r=sqrt(r);
  /*@ end @*/
  /*@ end @*/
  return r;
}
