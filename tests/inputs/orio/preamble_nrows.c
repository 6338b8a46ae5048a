/* Orio's preamble style (testsuite/sandbox/opencl/ex14FF.c): sizes bound by `int m = M;` before
 * the Loop, a derived size `int nrows = m*n;` as the loop bound, and mesh scalars computed from
 * the sizes (`double hx = 1.0/(m-1);`, `double sc = hx*hy*lambda;`) read by the loop. */
void Stencil2D(double lambda, int m, int n, const double *x, double *f) {
  register int i;
  /*@ begin PerfTuning(
        def performance_params {
          param WI[] = [32,64];
          param WG[] = [4,8];
        }
        def input_params {
          param lambda = 6;
          param M[] = [20,60];
          param N[] = [30,50];
          constraint c1 = (M*2 == N+10) or (M*3 == N+130);
        }
        def input_vars {
          decl static double x[M*N] = random;
          decl static double f[M*N] = 0;
        }
  ) @*/
  int m     = M;
  int n     = N;
  int nrows = m*n;
  double hx = 1.0/(m-1);
  double hy = 1.0/(n-1);
  double sc = hx*hy*lambda;
  double hxdhy = hx/hy, hydhx = hy/hx;

  /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI)
  for (i=0; i<=nrows-1; i++) {
    if (i<m || i>=nrows-m || i%m==0 || i%m==m-1) {
      f[i] = x[i];
    } else {
      f[i] = (2*x[i] - x[i-1] - x[i+1])*hydhx + (2*x[i] - x[i-m] - x[i+m])*hxdhy - sc*exp(x[i]);
    }
  }
  ) @*/
  for (i=0; i<=nrows-1; i++) {
    if (i<m || i>=nrows-m || i%m==0 || i%m==m-1) {
      f[i] = x[i];
    } else {
      f[i] = (2*x[i] - x[i-1] - x[i+1])*hydhx + (2*x[i] - x[i-m] - x[i+m])*hxdhy - sc*exp(x[i]);
    }
  }
  /*@ end @*/
  /*@ end @*/
}
