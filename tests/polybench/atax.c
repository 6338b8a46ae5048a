/* atax from PolyBench/C 4.2.1 (linear-algebra/kernels/atax/atax.c), Copyright (c) 2010-2016 Ohio State University,
 * redistributed under its licence (PolyBench/C's LICENSE.txt permits redistribution with this
 * notice). The kernel function with its loop nests as written, one annotated region per nest;
 * PolyBench's macros kept
 * (their definitions from utilities/polybench.h and atax.h with POLYBENCH_USE_C99_PROTO are
 * below, so the file stands alone; orcl expands them as `cc -E` would). The second nest sums y[j] across its parallel loop i (an array reduction). */
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define POLYBENCH_1D(var, dim1, ddim1) var[ddim1]
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[ddim1][ddim2]
void kernel_atax(int m, int n,
		 DATA_TYPE POLYBENCH_2D(A,M,N,m,n),
		 DATA_TYPE POLYBENCH_1D(x,N,n),
		 DATA_TYPE POLYBENCH_1D(y,N,n),
		 DATA_TYPE POLYBENCH_1D(tmp,M,m))
{
  int i, j;

#pragma scop
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
  for (i = 0; i < _PB_N; i++)
    y[i] = 0;
  ) @*/
  for (i = 0; i < _PB_N; i++)
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
  for (i = 0; i < _PB_M; i++)
    {
      tmp[i] = SCALAR_VAL(0.0);
      for (j = 0; j < _PB_N; j++)
	tmp[i] = tmp[i] + A[i][j] * x[j];
      for (j = 0; j < _PB_N; j++)
	y[j] = y[j] + A[i][j] * tmp[i];
    }
  ) @*/
  for (i = 0; i < _PB_M; i++)
    {
      tmp[i] = SCALAR_VAL(0.0);
      for (j = 0; j < _PB_N; j++)
	tmp[i] = tmp[i] + A[i][j] * x[j];
      for (j = 0; j < _PB_N; j++)
	y[j] = y[j] + A[i][j] * tmp[i];
    }
  /*@ end @*/
  /*@ end @*/
#pragma endscop

}
