/* heat-3d: the kernel of PolyBench/C 4.2.1's stencils/heat-3d/heat-3d.c (Louis-Noel Pouchet, Tomofumi Yuki;
 * The Ohio State University), whose licence permits redistribution with this notice. Its loops as
 * written; PolyBench's macros expanded by hand (TSTEPS -> tsteps, _PB_N -> n, SCALAR_VAL(x) -> x, DATA_TYPE -> double). One region holds the whole time loop:
 * orcl keeps `t` on the host and runs each nest of its body as a kernel per step, with the arrays
 * on the device from the first step to the last. One work-item per (i, j) pair of each nest, its k loop in the work-item. */
void kernel_heat_3d(int tsteps, int n, double A[n][n][n], double B[n][n][n])
{
  int t, i, j, k;
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
    for (t = 1; t <= tsteps; t++) {
        for (i = 1; i < n-1; i++) {
            for (j = 1; j < n-1; j++) {
                for (k = 1; k < n-1; k++) {
                    B[i][j][k] =   0.125 * (A[i+1][j][k] - 2.0 * A[i][j][k] + A[i-1][j][k])
                                 + 0.125 * (A[i][j+1][k] - 2.0 * A[i][j][k] + A[i][j-1][k])
                                 + 0.125 * (A[i][j][k+1] - 2.0 * A[i][j][k] + A[i][j][k-1])
                                 + A[i][j][k];
                }
            }
        }
        for (i = 1; i < n-1; i++) {
           for (j = 1; j < n-1; j++) {
               for (k = 1; k < n-1; k++) {
                   A[i][j][k] =   0.125 * (B[i+1][j][k] - 2.0 * B[i][j][k] + B[i-1][j][k])
                                + 0.125 * (B[i][j+1][k] - 2.0 * B[i][j][k] + B[i][j-1][k])
                                + 0.125 * (B[i][j][k+1] - 2.0 * B[i][j][k] + B[i][j][k-1])
                                + B[i][j][k];
               }
           }
       }
    }
  ) @*/
    for (t = 1; t <= tsteps; t++) {
        for (i = 1; i < n-1; i++) {
            for (j = 1; j < n-1; j++) {
                for (k = 1; k < n-1; k++) {
                    B[i][j][k] =   0.125 * (A[i+1][j][k] - 2.0 * A[i][j][k] + A[i-1][j][k])
                                 + 0.125 * (A[i][j+1][k] - 2.0 * A[i][j][k] + A[i][j-1][k])
                                 + 0.125 * (A[i][j][k+1] - 2.0 * A[i][j][k] + A[i][j][k-1])
                                 + A[i][j][k];
                }
            }
        }
        for (i = 1; i < n-1; i++) {
           for (j = 1; j < n-1; j++) {
               for (k = 1; k < n-1; k++) {
                   A[i][j][k] =   0.125 * (B[i+1][j][k] - 2.0 * B[i][j][k] + B[i-1][j][k])
                                + 0.125 * (B[i][j+1][k] - 2.0 * B[i][j][k] + B[i][j-1][k])
                                + 0.125 * (B[i][j][k+1] - 2.0 * B[i][j][k] + B[i][j][k-1])
                                + B[i][j][k];
               }
           }
       }
    }
  /*@ end @*/
  /*@ end @*/
}
