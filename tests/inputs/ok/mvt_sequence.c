/* mvt: the kernel of PolyBench/C 4.2.1's linear-algebra/kernels/mvt/mvt.c (Louis-Noel Pouchet,
 * Tomofumi Yuki; The Ohio State University), whose licence permits redistribution with this notice.
 * Its loops as written (_PB_N -> n, DATA_TYPE -> double). One region holds both nests, a sequence
 * without a time loop: two kernels of one program, launched in order, the arrays copied in and out
 * once (tests/polybench_time.rs). */
void kernel_mvt(int n, double x1[n], double x2[n], double y_1[n], double y_2[n], double A[n][n])
{
  int i, j;
  /*@ begin PerfTuning(
      def performance_params {
          param WI[] = [4, 32];
      }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param N[] = [29, 70];
      }
      def input_vars {
          decl int n = N;
          decl static double x1[N] = random;
          decl static double x2[N] = random;
          decl static double y_1[N] = random;
          decl static double y_2[N] = random;
          decl static double A[N][N] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x1[i] = x1[i] + A[i][j] * y_1[j];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x2[i] = x2[i] + A[j][i] * y_2[j];
  ) @*/
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x1[i] = x1[i] + A[i][j] * y_1[j];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x2[i] = x2[i] + A[j][i] * y_2[j];
  /*@ end @*/
  /*@ end @*/
}
