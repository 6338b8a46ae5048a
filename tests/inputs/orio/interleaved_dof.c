/* Two degrees of freedom per grid point, interleaved in one array (Orio's ex5FF/ex50FF style):
 * each iteration writes F[2*i] and F[2*i+1], and a temporary `u` declared at function scope
 * (Orio's `col`, `vx`) is assigned before use in every iteration, so it is private to each
 * work-item. */
void Interleaved(int n, double a, const double *X, double *F) {
  register int i;
  double u;
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
          decl static double X[2*N] = random;
          decl static double F[2*N] = 0;
        }
  ) @*/
  int n=N;
  /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI)
  for (i=0; i<=n-1; i++) {
    u = X[2*i] - a*X[2*i+1];
    F[2*i]   = u*u;
    F[2*i+1] = u + X[2*i+1];
  }
  ) @*/
  for (i=0; i<=n-1; i++) {
    u = X[2*i] - a*X[2*i+1];
    F[2*i]   = u*u;
    F[2*i+1] = u + X[2*i+1];
  }
  /*@ end @*/
  /*@ end @*/
}
