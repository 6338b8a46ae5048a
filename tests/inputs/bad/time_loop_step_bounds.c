/* A time loop (tests/polybench/jacobi-1d.c's region) whose body is not a sequence of parallel nests: a nest's bounds read the step */
void kernel_jacobi_1d(int tsteps, int n, double A[n], double B[n])
{
  int t, i;
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
  for (t = 0; t < tsteps; t++)
    {
      for (i = 1; i < n - 1 - t; i++)
	B[i] = 0.33333 * (A[i-1] + A[i] + A[i + 1]);
      for (i = 1; i < n - 1; i++)
	A[i] = 0.33333 * (B[i-1] + B[i] + B[i + 1]);
    }
  ) @*/
  for (t = 0; t < tsteps; t++)
    {
      for (i = 1; i < n - 1 - t; i++)
	B[i] = 0.33333 * (A[i-1] + A[i] + A[i + 1]);
      for (i = 1; i < n - 1; i++)
	A[i] = 0.33333 * (B[i-1] + B[i] + B[i + 1]);
    }
  /*@ end @*/
  /*@ end @*/
}
