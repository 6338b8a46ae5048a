/* jacobi-2d: the kernel of PolyBench/C 4.2.1's stencils/jacobi-2d/jacobi-2d.c (Louis-Noel Pouchet, Tomofumi Yuki;
 * The Ohio State University), whose licence permits redistribution with this notice. Its loops as
 * written; PolyBench's macros kept
 * (their definitions from utilities/polybench.h and jacobi-2d.h with POLYBENCH_USE_C99_PROTO are
 * below, so the file stands alone; orcl expands them as `cc -E` would). One region holds the whole time loop:
 * orcl keeps `t` on the host and runs each nest of its body as a kernel per step, with the arrays
 * on the device from the first step to the last. Both nests tiled as 2-D NDRanges whose tiles do not divide the grid. */
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS, tsteps)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[ddim1][ddim2]
void kernel_jacobi_2d(int tsteps,
			    int n,
			    DATA_TYPE POLYBENCH_2D(A,N,N,n,n),
			    DATA_TYPE POLYBENCH_2D(B,N,N,n,n))
{
  int t, i, j;

#pragma scop
  /*@ begin PerfTuning(
      def performance_params {
          param TI[] = [4, 8];
          param TJ[] = [16];
      }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param T[] = [4];
          param N[] = [23, 41];
      }
      def input_vars {
          decl int tsteps = T;
          decl int n = N;
          decl static double A[N][N] = random;
          decl static double B[N][N] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ)])
  for (t = 0; t < _PB_TSTEPS; t++)
    {
      for (i = 1; i < _PB_N - 1; i++)
	for (j = 1; j < _PB_N - 1; j++)
	  B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
      for (i = 1; i < _PB_N - 1; i++)
	for (j = 1; j < _PB_N - 1; j++)
	  A[i][j] = SCALAR_VAL(0.2) * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
    }
  ) @*/
  for (t = 0; t < _PB_TSTEPS; t++)
    {
      for (i = 1; i < _PB_N - 1; i++)
	for (j = 1; j < _PB_N - 1; j++)
	  B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
      for (i = 1; i < _PB_N - 1; i++)
	for (j = 1; j < _PB_N - 1; j++)
	  A[i][j] = SCALAR_VAL(0.2) * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
    }
  /*@ end @*/
  /*@ end @*/
#pragma endscop

}
