/* syrk from PolyBench/C 4.2.1 (linear-algebra/blas/syrk/syrk.c), Copyright (c) 2010-2016 Ohio State University,
 * redistributed under its licence (PolyBench/C's LICENSE.txt permits redistribution with this
 * notice). The kernel function with its loop nests as written, one annotated region per nest;
 * PolyBench's macros kept
 * (their definitions from utilities/polybench.h and syrk.h with POLYBENCH_USE_C99_PROTO are
 * below, so the file stands alone; orcl expands them as `cc -E` would). A triangular nest (j <= i), tiled
 * over its bounding square (TI > 0) or one work-item per row (TI = 0). */
#define DATA_TYPE double
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[ddim1][ddim2]
void kernel_syrk(int n, int m,
		 DATA_TYPE alpha,
		 DATA_TYPE beta,
		 DATA_TYPE POLYBENCH_2D(C,N,N,n,n),
		 DATA_TYPE POLYBENCH_2D(A,N,M,n,m))
{
  int i, j, k;

//BLAS PARAMS
//TRANS = 'N'
//UPLO  = 'L'
// =>  Form  C := alpha*A*A**T + beta*C.
//A is NxM
//C is NxN
#pragma scop
  /*@ begin PerfTuning(
      def performance_params { param WI[] = [16]; param TI[] = [8, 0]; param TJ[] = [8]; param TK[] = [4]; }
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
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, tile=([('i',TI),('j',TJ),('k',TK)] if TI > 0 else []), device=0, platform=0)
  for (i = 0; i < _PB_N; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < _PB_M; k++) {
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
    }
  }
  ) @*/
  for (i = 0; i < _PB_N; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < _PB_M; k++) {
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
    }
  }
  /*@ end @*/
  /*@ end @*/
#pragma endscop

}
