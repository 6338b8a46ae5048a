/* syr2k from PolyBench/C 4.2.1 (linear-algebra/blas/syr2k/syr2k.c), Copyright (c) 2010-2016 Ohio State University,
 * redistributed under its licence (PolyBench/C's LICENSE.txt permits redistribution with this
 * notice). The kernel function with its loop nests as written, one annotated region per nest;
 * macros expanded by hand until orcl reads them: _PB_X -> x, SCALAR_VAL(v) -> v,
 * DATA_TYPE -> double. A triangular nest (j <= i). */
void kernel_syr2k(int n, int m,
		  double alpha,
		  double beta,
		  double C[n][n],
		  double A[n][m],
		  double B[n][m])
{
  int i, j, k;

  /*@ begin PerfTuning(
      def performance_params { param WI[] = [16, 64]; }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param N[] = [13, 30]; param M[] = [17, 9];
          constraint pair = ((N == 13 and M == 17) or (N == 30 and M == 9));
      }
      def input_vars {
          decl int n = N;
          decl int m = M;
          decl double alpha = 1.5;
          decl double beta = 1.2;
          decl static double C[N][N] = random;
          decl static double A[N][M] = random;
          decl static double B[N][M] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, device=0, platform=0)
    for (i = 0; i < n; i++) {
      for (j = 0; j <= i; j++)
        C[i][j] *= beta;
      for (k = 0; k < m; k++)
        for (j = 0; j <= i; j++)
  	{
  	  C[i][j] += A[j][k]*alpha*B[i][k] + B[j][k]*alpha*A[i][k];
  	}
    }
  ) @*/
    for (i = 0; i < n; i++) {
      for (j = 0; j <= i; j++)
        C[i][j] *= beta;
      for (k = 0; k < m; k++)
        for (j = 0; j <= i; j++)
  	{
  	  C[i][j] += A[j][k]*alpha*B[i][k] + B[j][k]*alpha*A[i][k];
  	}
    }
  /*@ end @*/
  /*@ end @*/
}
