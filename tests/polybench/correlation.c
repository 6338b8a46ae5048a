/* correlation from PolyBench/C 4.2.1 (datamining/correlation/correlation.c), Copyright (c) 2010-2016 Ohio State University,
 * redistributed under its licence (PolyBench/C's LICENSE.txt permits redistribution with this
 * notice). The kernel function with its loop nests as written, one annotated region per nest;
 * PolyBench's macros kept
 * (their definitions from utilities/polybench.h and correlation.h with POLYBENCH_USE_C99_PROTO are
 * below, so the file stands alone; orcl expands them as `cc -E` would). The last nest is triangular (j from i+1) and writes corr[i][j] and corr[j][i]; PolyBench's
 * statement after it, corr[m-1][m-1] = 1.0, stays outside the regions. */
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define SQRT_FUN(x) sqrt(x)
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
#define POLYBENCH_1D(var, dim1, ddim1) var[ddim1]
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[ddim1][ddim2]
void kernel_correlation(int m, int n,
			DATA_TYPE float_n,
			DATA_TYPE POLYBENCH_2D(data,N,M,n,m),
			DATA_TYPE POLYBENCH_2D(corr,M,M,m,m),
			DATA_TYPE POLYBENCH_1D(mean,M,m),
			DATA_TYPE POLYBENCH_1D(stddev,M,m))
{
  int i, j, k;

  DATA_TYPE eps = SCALAR_VAL(0.1);


#pragma scop
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
  for (j = 0; j < _PB_M; j++)
    {
      mean[j] = SCALAR_VAL(0.0);
      for (i = 0; i < _PB_N; i++)
	mean[j] += data[i][j];
      mean[j] /= float_n;
    }
  ) @*/
  for (j = 0; j < _PB_M; j++)
    {
      mean[j] = SCALAR_VAL(0.0);
      for (i = 0; i < _PB_N; i++)
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
   for (j = 0; j < _PB_M; j++)
    {
      stddev[j] = SCALAR_VAL(0.0);
      for (i = 0; i < _PB_N; i++)
        stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
      stddev[j] /= float_n;
      stddev[j] = SQRT_FUN(stddev[j]);
      stddev[j] = stddev[j] <= eps ? SCALAR_VAL(1.0) : stddev[j];
    }
   ) @*/
   for (j = 0; j < _PB_M; j++)
    {
      stddev[j] = SCALAR_VAL(0.0);
      for (i = 0; i < _PB_N; i++)
        stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
      stddev[j] /= float_n;
      stddev[j] = SQRT_FUN(stddev[j]);
      /* The following in an inelegant but usual way to handle
         near-zero std. dev. values, which below would cause a zero-
         divide. */
      stddev[j] = stddev[j] <= eps ? SCALAR_VAL(1.0) : stddev[j];
    }
   /*@ end @*/
   /*@ end @*/

  /* Center and reduce the column vectors. */
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
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_M; j++)
      {
        data[i][j] -= mean[j];
        data[i][j] /= SQRT_FUN(float_n) * stddev[j];
      }
  ) @*/
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_M; j++)
      {
        data[i][j] -= mean[j];
        data[i][j] /= SQRT_FUN(float_n) * stddev[j];
      }
  /*@ end @*/
  /*@ end @*/

  /* Calculate the m * m correlation matrix. */
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
  for (i = 0; i < _PB_M-1; i++)
    {
      corr[i][i] = SCALAR_VAL(1.0);
      for (j = i+1; j < _PB_M; j++)
        {
          corr[i][j] = SCALAR_VAL(0.0);
          for (k = 0; k < _PB_N; k++)
            corr[i][j] += (data[k][i] * data[k][j]);
          corr[j][i] = corr[i][j];
        }
    }
  ) @*/
  for (i = 0; i < _PB_M-1; i++)
    {
      corr[i][i] = SCALAR_VAL(1.0);
      for (j = i+1; j < _PB_M; j++)
        {
          corr[i][j] = SCALAR_VAL(0.0);
          for (k = 0; k < _PB_N; k++)
            corr[i][j] += (data[k][i] * data[k][j]);
          corr[j][i] = corr[i][j];
        }
    }
  /*@ end @*/
  /*@ end @*/
  corr[_PB_M-1][_PB_M-1] = SCALAR_VAL(1.0);
#pragma endscop

}
