/* correlation from PolyBench/C 4.2.1 (datamining/correlation/correlation.c), Copyright (c) 2010-2016 Ohio State University,
 * redistributed under its licence (PolyBench/C's LICENSE.txt permits redistribution with this
 * notice). The kernel function with its loop nests as written, one annotated region per nest;
 * macros expanded by hand until orcl reads them: _PB_X -> x, SCALAR_VAL(v) -> v,
 * DATA_TYPE -> double, SQRT_FUN -> sqrt. The last nest is triangular (j from i+1) and writes corr[i][j] and corr[j][i]; PolyBench's
 * statement after it, corr[m-1][m-1] = 1.0, stays outside the regions. */
void kernel_correlation(int m, int n,
			double float_n,
			double data[n][m],
			double corr[m][m],
			double mean[m],
			double stddev[m])
{
  int i, j, k;

  double eps = 0.1;

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
          decl double eps = 0.1;
          decl static double data[N][M] = random;
          decl static double corr[M][M] = random;
          decl static double mean[M] = random;
          decl static double stddev[M] = random;
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
          decl double eps = 0.1;
          decl static double data[N][M] = random;
          decl static double corr[M][M] = random;
          decl static double mean[M] = random;
          decl static double stddev[M] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, device=0, platform=0)
  for (j = 0; j < m; j++)
   {
     stddev[j] = 0.0;
     for (i = 0; i < n; i++)
       stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
     stddev[j] /= float_n;
     stddev[j] = sqrt(stddev[j]);
     stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
   }
  ) @*/
  for (j = 0; j < m; j++)
   {
     stddev[j] = 0.0;
     for (i = 0; i < n; i++)
       stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
     stddev[j] /= float_n;
     stddev[j] = sqrt(stddev[j]);
     stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
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
          decl double eps = 0.1;
          decl static double data[N][M] = random;
          decl static double corr[M][M] = random;
          decl static double mean[M] = random;
          decl static double stddev[M] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, device=0, platform=0)
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      {
        data[i][j] -= mean[j];
        data[i][j] /= sqrt(float_n) * stddev[j];
      }
  ) @*/
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      {
        data[i][j] -= mean[j];
        data[i][j] /= sqrt(float_n) * stddev[j];
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
          decl double eps = 0.1;
          decl static double data[N][M] = random;
          decl static double corr[M][M] = random;
          decl static double mean[M] = random;
          decl static double stddev[M] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, device=0, platform=0)
  for (i = 0; i < m-1; i++)
    {
      corr[i][i] = 1.0;
      for (j = i+1; j < m; j++)
        {
          corr[i][j] = 0.0;
          for (k = 0; k < n; k++)
            corr[i][j] += (data[k][i] * data[k][j]);
          corr[j][i] = corr[i][j];
        }
    }
  ) @*/
  for (i = 0; i < m-1; i++)
    {
      corr[i][i] = 1.0;
      for (j = i+1; j < m; j++)
        {
          corr[i][j] = 0.0;
          for (k = 0; k < n; k++)
            corr[i][j] += (data[k][i] * data[k][j]);
          corr[j][i] = corr[i][j];
        }
    }
  /*@ end @*/
  /*@ end @*/
  corr[m-1][m-1] = 1.0;
}
