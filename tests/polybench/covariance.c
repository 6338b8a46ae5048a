/* covariance from PolyBench/C 4.2.1 (datamining/covariance/covariance.c), Copyright (c) 2010-2016 Ohio State University,
 * redistributed under its licence (PolyBench/C's LICENSE.txt permits redistribution with this
 * notice). The kernel function with its loop nests as written, one annotated region per nest;
 * macros expanded by hand until orcl reads them: _PB_X -> x, SCALAR_VAL(v) -> v,
 * DATA_TYPE -> double. The last nest is triangular (j from i) and writes cov[i][j] and cov[j][i]. */
void kernel_covariance(int m, int n,
		       double float_n,
		       double data[n][m],
		       double cov[m][m],
		       double mean[m])
{
  int i, j, k;

  /*@ begin PerfTuning(
      def performance_params { param WI[] = [16, 64]; }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param M[] = [13, 30]; param N[] = [17, 21];
          constraint pair = ((M == 13 and N == 17) or (M == 30 and N == 21));
      }
      def input_vars {
          decl int m = M;
          decl int n = N;
          decl double float_n = N;
          decl static double data[N][M] = random;
          decl static double cov[M][M] = random;
          decl static double mean[M] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, device=0, platform=0)
  for (j = 0; j < m; j++)
    {
      mean[j] = 0.0;
      for (i = 0; i < n; i++)
        mean[j] += data[i][j];
      mean[j] /= float_n;
    }
  ) @*/
  for (j = 0; j < m; j++)
    {
      mean[j] = 0.0;
      for (i = 0; i < n; i++)
        mean[j] += data[i][j];
      mean[j] /= float_n;
    }
  /*@ end @*/
  /*@ end @*/
  /*@ begin PerfTuning(
      def performance_params { param WI[] = [16, 64]; }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param M[] = [13, 30]; param N[] = [17, 21];
          constraint pair = ((M == 13 and N == 17) or (M == 30 and N == 21));
      }
      def input_vars {
          decl int m = M;
          decl int n = N;
          decl double float_n = N;
          decl static double data[N][M] = random;
          decl static double cov[M][M] = random;
          decl static double mean[M] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, device=0, platform=0)
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      data[i][j] -= mean[j];
  ) @*/
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      data[i][j] -= mean[j];
  /*@ end @*/
  /*@ end @*/
  /*@ begin PerfTuning(
      def performance_params { param WI[] = [16, 64]; }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param M[] = [13, 30]; param N[] = [17, 21];
          constraint pair = ((M == 13 and N == 17) or (M == 30 and N == 21));
      }
      def input_vars {
          decl int m = M;
          decl int n = N;
          decl double float_n = N;
          decl static double data[N][M] = random;
          decl static double cov[M][M] = random;
          decl static double mean[M] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, device=0, platform=0)
    for (i = 0; i < m; i++)
      for (j = i; j < m; j++)
        {
          cov[i][j] = 0.0;
          for (k = 0; k < n; k++)
  	  cov[i][j] += data[k][i] * data[k][j];
          cov[i][j] /= (float_n - 1.0);
          cov[j][i] = cov[i][j];
        }
  ) @*/
    for (i = 0; i < m; i++)
      for (j = i; j < m; j++)
        {
          cov[i][j] = 0.0;
          for (k = 0; k < n; k++)
  	  cov[i][j] += data[k][i] * data[k][j];
          cov[i][j] /= (float_n - 1.0);
          cov[j][i] = cov[i][j];
        }
  /*@ end @*/
  /*@ end @*/
}
