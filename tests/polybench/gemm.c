/* gemm from PolyBench/C 4.2.1 (linear-algebra/blas/gemm/gemm.c), Copyright (c) 2010-2016 Ohio State University,
 * redistributed under its licence (PolyBench/C's LICENSE.txt permits redistribution with this
 * notice). The kernel function with its loop nests as written, one annotated region per nest;
 * PolyBench's macros kept
 * (their definitions from utilities/polybench.h and gemm.h with POLYBENCH_USE_C99_PROTO are
 * below, so the file stands alone; orcl expands them as `cc -E` would). Tiled as a matrix product: the j loops are fused and C[i][j] summed in a register. */
#define DATA_TYPE double
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[ddim1][ddim2]
void kernel_gemm(int ni, int nj, int nk,
		 DATA_TYPE alpha,
		 DATA_TYPE beta,
		 DATA_TYPE POLYBENCH_2D(C,NI,NJ,ni,nj),
		 DATA_TYPE POLYBENCH_2D(A,NI,NK,ni,nk),
		 DATA_TYPE POLYBENCH_2D(B,NK,NJ,nk,nj))
{
  int i, j, k;

//BLAS PARAMS
//TRANSA = 'N'
//TRANSB = 'N'
// => Form C := alpha*A*B + beta*C,
//A is NIxNK
//B is NKxNJ
//C is NIxNJ
#pragma scop
  /*@ begin PerfTuning(
      def performance_params { param TI[] = [4, 8]; param TJ[] = [8]; param TK[] = [4]; }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param NI[] = [13, 33]; param NJ[] = [17, 18]; param NK[] = [9, 20];
          constraint trio = ((NI == 13 and NJ == 17 and NK == 9) or (NI == 33 and NJ == 18 and NK == 20));
      }
      def input_vars {
          decl int ni = NI;
          decl int nj = NJ;
          decl int nk = NK;
          decl double alpha = 1.5;
          decl double beta = 1.2;
          decl static double C[NI][NJ] = random;
          decl static double A[NI][NK] = random;
          decl static double B[NK][NJ] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ),('k',TK)], device=0, platform=0)
  for (i = 0; i < _PB_NI; i++) {
    for (j = 0; j < _PB_NJ; j++)
	C[i][j] *= beta;
    for (k = 0; k < _PB_NK; k++) {
       for (j = 0; j < _PB_NJ; j++)
	  C[i][j] += alpha * A[i][k] * B[k][j];
    }
  }
  ) @*/
  for (i = 0; i < _PB_NI; i++) {
    for (j = 0; j < _PB_NJ; j++)
	C[i][j] *= beta;
    for (k = 0; k < _PB_NK; k++) {
       for (j = 0; j < _PB_NJ; j++)
	  C[i][j] += alpha * A[i][k] * B[k][j];
    }
  }
  /*@ end @*/
  /*@ end @*/
#pragma endscop

}
