/* mvt: x1 = x1 + A*y_1, x2 = x2 + A^T*y_2. The kernel function of PolyBench/C 4.2.1
 * (linear-algebra/kernels/mvt/mvt.c; Louis-Noel Pouchet, The Ohio State University; its licence
 * permits redistribution with this notice), its two loop nests as written, each one tuned region.
 * The macros are PolyBench's (utilities/polybench.h and mvt.h, with POLYBENCH_USE_C99_PROTO),
 * defined here so the file stands alone; orcl expands them as `cc -E` would. */
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
#define POLYBENCH_1D(var, dim1, ddim1) var[ddim1]
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[ddim1][ddim2]

void kernel_mvt(int n,
		DATA_TYPE POLYBENCH_1D(x1,N,n),
		DATA_TYPE POLYBENCH_1D(x2,N,n),
		DATA_TYPE POLYBENCH_1D(y_1,N,n),
		DATA_TYPE POLYBENCH_1D(y_2,N,n),
		DATA_TYPE POLYBENCH_2D(A,N,N,n,n))
{
  int i, j;

  /*@ begin PerfTuning(
      def performance_params {
          param WI[] = [16, 64];
          param WG[] = [2, 8];
      }
      def build { arg build_command = 'cc -O2'; }
      def input_params { param N[] = [37, 130]; }
      def input_vars {
          decl int n = N;
          decl static double x1[N] = random;
          decl static double x2[N] = random;
          decl static double y_1[N] = random;
          decl static double y_2[N] = random;
          decl static double A[N][N] = random;
      }
      def performance_counter { arg repetitions = 2; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI)
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      x1[i] = x1[i] + A[i][j] * y_1[j];
  ) @*/
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      x1[i] = x1[i] + A[i][j] * y_1[j];
  /*@ end @*/
  /*@ end @*/
  /*@ begin PerfTuning(use 0;  # region 0's spec: sizes, inputs, parameters
  ) @*/
  /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI)
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      x2[i] = x2[i] + A[j][i] * y_2[j];
  ) @*/
  for (i = 0; i < _PB_N; i++)
    for (j = 0; j < _PB_N; j++)
      x2[i] = x2[i] + A[j][i] * y_2[j];
  /*@ end @*/
  /*@ end @*/
}
