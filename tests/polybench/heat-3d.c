/* heat-3d: the kernel of PolyBench/C 4.2.1's stencils/heat-3d/heat-3d.c (Louis-Noel Pouchet, Tomofumi Yuki;
 * The Ohio State University), whose licence permits redistribution with this notice. Its loops as
 * written; PolyBench's macros kept
 * (their definitions from utilities/polybench.h and heat-3d.h with POLYBENCH_USE_C99_PROTO are
 * below, so the file stands alone; orcl expands them as `cc -E` would). One region holds the whole time loop:
 * orcl keeps `t` on the host and runs each nest of its body as a kernel per step, with the arrays
 * on the device from the first step to the last. One work-item per (i, j) pair of each nest, its k loop in the work-item. */
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#ifndef TSTEPS
# define TSTEPS 20 /* heat-3d.h's MINI dataset; PolyBench's loop runs TSTEPS steps, not tsteps */
#endif
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
#define POLYBENCH_3D(var, dim1, dim2, dim3, ddim1, ddim2, ddim3) var[ddim1][ddim2][ddim3]
void kernel_heat_3d(int tsteps,
		      int n,
		      DATA_TYPE POLYBENCH_3D(A,N,N,N,n,n,n),
		      DATA_TYPE POLYBENCH_3D(B,N,N,N,n,n,n))
{
  int t, i, j, k;

#pragma scop
  /*@ begin PerfTuning(
      def performance_params {
          param TI[] = [2, 4];
          param TJ[] = [8];
      }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param T[] = [3];
          param N[] = [10, 17];
      }
      def input_vars {
          decl int tsteps = T;
          decl int n = N;
          decl static double A[N][N][N] = random;
          decl static double B[N][N][N] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ)])
    for (t = 1; t <= TSTEPS; t++) {
        for (i = 1; i < _PB_N-1; i++) {
            for (j = 1; j < _PB_N-1; j++) {
                for (k = 1; k < _PB_N-1; k++) {
                    B[i][j][k] =   SCALAR_VAL(0.125) * (A[i+1][j][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i-1][j][k])
                                 + SCALAR_VAL(0.125) * (A[i][j+1][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j-1][k])
                                 + SCALAR_VAL(0.125) * (A[i][j][k+1] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j][k-1])
                                 + A[i][j][k];
                }
            }
        }
        for (i = 1; i < _PB_N-1; i++) {
           for (j = 1; j < _PB_N-1; j++) {
               for (k = 1; k < _PB_N-1; k++) {
                   A[i][j][k] =   SCALAR_VAL(0.125) * (B[i+1][j][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i-1][j][k])
                                + SCALAR_VAL(0.125) * (B[i][j+1][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j-1][k])
                                + SCALAR_VAL(0.125) * (B[i][j][k+1] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j][k-1])
                                + B[i][j][k];
               }
           }
       }
    }
    ) @*/
    for (t = 1; t <= TSTEPS; t++) {
        for (i = 1; i < _PB_N-1; i++) {
            for (j = 1; j < _PB_N-1; j++) {
                for (k = 1; k < _PB_N-1; k++) {
                    B[i][j][k] =   SCALAR_VAL(0.125) * (A[i+1][j][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i-1][j][k])
                                 + SCALAR_VAL(0.125) * (A[i][j+1][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j-1][k])
                                 + SCALAR_VAL(0.125) * (A[i][j][k+1] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j][k-1])
                                 + A[i][j][k];
                }
            }
        }
        for (i = 1; i < _PB_N-1; i++) {
           for (j = 1; j < _PB_N-1; j++) {
               for (k = 1; k < _PB_N-1; k++) {
                   A[i][j][k] =   SCALAR_VAL(0.125) * (B[i+1][j][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i-1][j][k])
                                + SCALAR_VAL(0.125) * (B[i][j+1][k] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j-1][k])
                                + SCALAR_VAL(0.125) * (B[i][j][k+1] - SCALAR_VAL(2.0) * B[i][j][k] + B[i][j][k-1])
                                + B[i][j][k];
               }
           }
       }
    }
    /*@ end @*/
    /*@ end @*/
#pragma endscop

}
