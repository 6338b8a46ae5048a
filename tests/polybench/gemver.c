/* gemver: A = A + u1*v1^T + u2*v2^T, x = x + beta*A^T*y + z, w = alpha*A*x. The kernel function of PolyBench/C 4.2.1
 * (linear-algebra/blas/gemver/gemver.c; Louis-Noel Pouchet, The Ohio State University; its licence
 * permits redistribution with this notice), its loop nests as written, each of its four nests one tuned region.
 * The macros are PolyBench's (utilities/polybench.h and gemver.h, with POLYBENCH_USE_C99_PROTO),
 * defined here so the file stands alone; orcl expands them as `cc -E` would. */
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
#define POLYBENCH_1D(var, dim1, ddim1) var[ddim1]
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[ddim1][ddim2]

void kernel_gemver(int n,
		   DATA_TYPE alpha,
		   DATA_TYPE beta,
		   DATA_TYPE POLYBENCH_2D(A,N,N,n,n),
		   DATA_TYPE POLYBENCH_1D(u1,N,n),
		   DATA_TYPE POLYBENCH_1D(v1,N,n),
		   DATA_TYPE POLYBENCH_1D(u2,N,n),
		   DATA_TYPE POLYBENCH_1D(v2,N,n),
		   DATA_TYPE POLYBENCH_1D(w,N,n),
		   DATA_TYPE POLYBENCH_1D(x,N,n),
		   DATA_TYPE POLYBENCH_1D(y,N,n),
		   DATA_TYPE POLYBENCH_1D(z,N,n))
{
  int i, j;

#pragma scop

  /*@ begin PerfTuning(
      def performance_params {
          param WI[] = [16, 64];
          param WG[] = [2, 8];
      }
      def build { arg build_command = 'cc -O2'; }
      def input_params { param N[] = [37, 130]; }
      def input_vars {
          decl int n = N;
          decl double alpha = random;
          decl double beta = random;
          decl static double A[N][N] = random;
          decl static double u1[N] = random;
          decl static double v1[N] = random;
          decl static double u2[N] = random;
          decl static double v2[N] = random;
          decl static double w[N] = random;
          decl static double x[N] = random;
          decl static double y[N] = random;
          decl static double z[N] = random;
      }
      def performance_counter { arg repetitions = 2; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI)
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
  ) @*/
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
  /*@ end @*/
  /*@ end @*/

  /*@ begin PerfTuning(use 0;  # region 0's spec: sizes, inputs, parameters
  ) @*/
  /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI)
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];
  ) @*/
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];
  /*@ end @*/
  /*@ end @*/

  /*@ begin PerfTuning(use 0;  # region 0's spec: sizes, inputs, parameters
  ) @*/
  /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI)
  for (i = 0; i < _PB_N; i++)
    x[i] = x[i] + z[i];
  ) @*/
  for (i = 0; i < _PB_N; i++)
    x[i] = x[i] + z[i];
  /*@ end @*/
  /*@ end @*/

  /*@ begin PerfTuning(use 0;  # region 0's spec: sizes, inputs, parameters
  ) @*/
  /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI)
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      w[i] = w[i] +  alpha * A[i][j] * x[j];
  ) @*/
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      w[i] = w[i] +  alpha * A[i][j] * x[j];
  /*@ end @*/
  /*@ end @*/

#pragma endscop
}
