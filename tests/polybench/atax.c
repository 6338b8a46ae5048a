/* atax from PolyBench/C 4.2.1 (linear-algebra/kernels/atax/atax.c), Copyright (c) 2010-2016 Ohio State University,
 * redistributed under its licence (PolyBench/C's LICENSE.txt permits redistribution with this
 * notice). The kernel function with its loop nests as written, one annotated region per nest;
 * macros expanded by hand until orcl reads them: _PB_X -> x, SCALAR_VAL(v) -> v,
 * DATA_TYPE -> double. The second nest sums y[j] across its parallel loop i (an array reduction). */
void kernel_atax(int m, int n,
		 double A[m][n],
		 double x[n],
		 double y[n],
		 double tmp[m])
{
  int i, j;

  /*@ begin PerfTuning(
      def performance_params { param WI[] = [16, 64]; }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param M[] = [13, 38]; param N[] = [17, 29];
          constraint pair = ((M == 13 and N == 17) or (M == 38 and N == 29));
      }
      def input_vars {
          decl int m = M;
          decl int n = N;
          decl static double A[M][N] = random;
          decl static double x[N] = random;
          decl static double y[N] = random;
          decl static double tmp[M] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, device=0, platform=0)
  for (i = 0; i < n; i++)
    y[i] = 0;
  ) @*/
  for (i = 0; i < n; i++)
    y[i] = 0;
  /*@ end @*/
  /*@ end @*/
  /*@ begin PerfTuning(
      def performance_params { param WI[] = [16, 64]; }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param M[] = [13, 38]; param N[] = [17, 29];
          constraint pair = ((M == 13 and N == 17) or (M == 38 and N == 29));
      }
      def input_vars {
          decl int m = M;
          decl int n = N;
          decl static double A[M][N] = random;
          decl static double x[N] = random;
          decl static double y[N] = random;
          decl static double tmp[M] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, device=0, platform=0)
    for (i = 0; i < m; i++)
      {
        tmp[i] = 0.0;
        for (j = 0; j < n; j++)
  	tmp[i] = tmp[i] + A[i][j] * x[j];
        for (j = 0; j < n; j++)
  	y[j] = y[j] + A[i][j] * tmp[i];
      }
  ) @*/
    for (i = 0; i < m; i++)
      {
        tmp[i] = 0.0;
        for (j = 0; j < n; j++)
  	tmp[i] = tmp[i] + A[i][j] * x[j];
        for (j = 0; j < n; j++)
  	y[j] = y[j] + A[i][j] * tmp[i];
      }
  /*@ end @*/
  /*@ end @*/
}
