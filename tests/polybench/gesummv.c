/* gesummv: y = alpha*A*x + beta*B*x. The kernel function of PolyBench/C 4.2.1
 * (linear-algebra/blas/gesummv/gesummv.c; Louis-Noel Pouchet, The Ohio State University; its licence
 * permits redistribution with this notice), its loop nests as written, its one nest one tuned region.
 * The macros are PolyBench's (utilities/polybench.h and gesummv.h, with POLYBENCH_USE_C99_PROTO),
 * defined here so the file stands alone; orcl expands them as `cc -E` would. */
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
#define POLYBENCH_1D(var, dim1, ddim1) var[ddim1]
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[ddim1][ddim2]

void kernel_gesummv(int n,
		    DATA_TYPE alpha,
		    DATA_TYPE beta,
		    DATA_TYPE POLYBENCH_2D(A,N,N,n,n),
		    DATA_TYPE POLYBENCH_2D(B,N,N,n,n),
		    DATA_TYPE POLYBENCH_1D(tmp,N,n),
		    DATA_TYPE POLYBENCH_1D(x,N,n),
		    DATA_TYPE POLYBENCH_1D(y,N,n))
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
          decl static double B[N][N] = random;
          decl static double tmp[N] = 0;
          decl static double x[N] = random;
          decl static double y[N] = 0;
      }
      def performance_counter { arg repetitions = 2; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI)
  for (i = 0; i < _PB_N; i++)
    {
      tmp[i] = SCALAR_VAL(0.0);
      y[i] = SCALAR_VAL(0.0);
      for (j = 0; j < _PB_N; j++)
  	{
  	  tmp[i] = A[i][j] * x[j] + tmp[i];
  	  y[i] = B[i][j] * x[j] + y[i];
  	}
      y[i] = alpha * tmp[i] + beta * y[i];
    }
  ) @*/
  for (i = 0; i < _PB_N; i++)
    {
      tmp[i] = SCALAR_VAL(0.0);
      y[i] = SCALAR_VAL(0.0);
      for (j = 0; j < _PB_N; j++)
  	{
  	  tmp[i] = A[i][j] * x[j] + tmp[i];
  	  y[i] = B[i][j] * x[j] + y[i];
  	}
      y[i] = alpha * tmp[i] + beta * y[i];
    }
  /*@ end @*/
  /*@ end @*/
#pragma endscop

}
