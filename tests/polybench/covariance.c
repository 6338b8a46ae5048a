/* covariance from PolyBench/C 4.2.1 (datamining/covariance/covariance.c), Copyright (c) 2010-2016 Ohio State University,
 * redistributed under its licence (PolyBench/C's LICENSE.txt permits redistribution with this
 * notice). The kernel function with its loop nests as written, one annotated region per nest;
 * PolyBench's macros kept
 * (their definitions from utilities/polybench.h and covariance.h with POLYBENCH_USE_C99_PROTO are
 * below, so the file stands alone; orcl expands them as `cc -E` would). The last nest is triangular (j from i) and writes cov[i][j] and cov[j][i]. */
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
#define POLYBENCH_1D(var, dim1, ddim1) var[ddim1]
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[ddim1][ddim2]
void kernel_covariance(int m, int n,
		       DATA_TYPE float_n,
		       DATA_TYPE POLYBENCH_2D(data,N,M,n,m),
		       DATA_TYPE POLYBENCH_2D(cov,M,M,m,m),
		       DATA_TYPE POLYBENCH_1D(mean,M,m))
{
  int i, j, k;

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
          decl static double data[N][M] = random;
          decl static double cov[M][M] = random;
          decl static double mean[M] = random;
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
          decl static double data[N][M] = random;
          decl static double cov[M][M] = random;
          decl static double mean[M] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, device=0, platform=0)
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_M; j++)
      data[i][j] -= mean[j];
  ) @*/
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_M; j++)
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
  for (i = 0; i < _PB_M; i++)
    for (j = i; j < _PB_M; j++)
      {
        cov[i][j] = SCALAR_VAL(0.0);
        for (k = 0; k < _PB_N; k++)
	  cov[i][j] += data[k][i] * data[k][j];
        cov[i][j] /= (float_n - SCALAR_VAL(1.0));
        cov[j][i] = cov[i][j];
      }
  ) @*/
  for (i = 0; i < _PB_M; i++)
    for (j = i; j < _PB_M; j++)
      {
        cov[i][j] = SCALAR_VAL(0.0);
        for (k = 0; k < _PB_N; k++)
	  cov[i][j] += data[k][i] * data[k][j];
        cov[i][j] /= (float_n - SCALAR_VAL(1.0));
        cov[j][i] = cov[i][j];
      }
  /*@ end @*/
  /*@ end @*/
#pragma endscop

}
