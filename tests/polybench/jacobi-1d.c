/* jacobi-1d: the kernel of PolyBench/C 4.2.1's stencils/jacobi-1d/jacobi-1d.c (Louis-Noel Pouchet,
 * Tomofumi Yuki; The Ohio State University), whose licence permits redistribution with this notice.
 * Its loops as written; PolyBench's macros kept
 * (their definitions from utilities/polybench.h and jacobi-1d.h with POLYBENCH_USE_C99_PROTO are
 * below, so the file stands alone; orcl expands them as `cc -E` would). One region holds the whole time loop: orcl keeps `t` on the host and runs
 * each of the two nests as a kernel per step, with A and B on the device from the first step to the
 * last. Sizes the work-groups do not divide. */
#define DATA_TYPE double
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS, tsteps)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
#define POLYBENCH_1D(var, dim1, ddim1) var[ddim1]
void kernel_jacobi_1d(int tsteps,
			    int n,
			    DATA_TYPE POLYBENCH_1D(A,N,n),
			    DATA_TYPE POLYBENCH_1D(B,N,n))
{
  int t, i;

#pragma scop
  /*@ begin PerfTuning(
      def performance_params {
          param WI[] = [4, 16];
      }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param T[] = [5];
          param N[] = [37, 130];
      }
      def input_vars {
          decl int tsteps = T;
          decl int n = N;
          decl static double A[N] = random;
          decl static double B[N] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)
  for (t = 0; t < _PB_TSTEPS; t++)
    {
      for (i = 1; i < _PB_N - 1; i++)
	B[i] = 0.33333 * (A[i-1] + A[i] + A[i + 1]);
      for (i = 1; i < _PB_N - 1; i++)
	A[i] = 0.33333 * (B[i-1] + B[i] + B[i + 1]);
    }
  ) @*/
  for (t = 0; t < _PB_TSTEPS; t++)
    {
      for (i = 1; i < _PB_N - 1; i++)
	B[i] = 0.33333 * (A[i-1] + A[i] + A[i + 1]);
      for (i = 1; i < _PB_N - 1; i++)
	A[i] = 0.33333 * (B[i-1] + B[i] + B[i + 1]);
    }
  /*@ end @*/
  /*@ end @*/
#pragma endscop

}
