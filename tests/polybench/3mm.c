/* 3mm from PolyBench/C 4.2.1 (linear-algebra/kernels/3mm/3mm.c), Copyright (c) 2010-2016 Ohio State University,
 * redistributed under its licence (PolyBench/C's LICENSE.txt permits redistribution with this
 * notice). The kernel function with its loop nests as written, one annotated region per nest;
 * PolyBench's macros kept
 * (their definitions from utilities/polybench.h and 3mm.h with POLYBENCH_USE_C99_PROTO are
 * below, so the file stands alone; orcl expands them as `cc -E` would). Three matrix products whose element is set before the k loop. */
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)
#define _PB_NL POLYBENCH_LOOP_BOUND(NL, nl)
#define _PB_NM POLYBENCH_LOOP_BOUND(NM, nm)
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[ddim1][ddim2]
void kernel_3mm(int ni, int nj, int nk, int nl, int nm,
		DATA_TYPE POLYBENCH_2D(E,NI,NJ,ni,nj),
		DATA_TYPE POLYBENCH_2D(A,NI,NK,ni,nk),
		DATA_TYPE POLYBENCH_2D(B,NK,NJ,nk,nj),
		DATA_TYPE POLYBENCH_2D(F,NJ,NL,nj,nl),
		DATA_TYPE POLYBENCH_2D(C,NJ,NM,nj,nm),
		DATA_TYPE POLYBENCH_2D(D,NM,NL,nm,nl),
		DATA_TYPE POLYBENCH_2D(G,NI,NL,ni,nl))
{
  int i, j, k;

#pragma scop
  /* E := A*B */
  /*@ begin PerfTuning(
      def performance_params { param TI[] = [4, 8]; param TJ[] = [8]; param TK[] = [4]; }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param NI[] = [13, 33]; param NJ[] = [17, 18]; param NK[] = [9, 20]; param NL[] = [11, 31]; param NM[] = [10, 21];
          constraint five = ((NI == 13 and NJ == 17 and NK == 9 and NL == 11 and NM == 10) or (NI == 33 and NJ == 18 and NK == 20 and NL == 31 and NM == 21));
      }
      def input_vars {
          decl int ni = NI;
          decl int nj = NJ;
          decl int nk = NK;
          decl int nl = NL;
          decl int nm = NM;
          decl static double E[NI][NJ] = random;
          decl static double A[NI][NK] = random;
          decl static double B[NK][NJ] = random;
          decl static double F[NJ][NL] = random;
          decl static double C[NJ][NM] = random;
          decl static double D[NM][NL] = random;
          decl static double G[NI][NL] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ),('k',TK)], device=0, platform=0)
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NJ; j++)
      {
	E[i][j] = SCALAR_VAL(0.0);
	for (k = 0; k < _PB_NK; ++k)
	  E[i][j] += A[i][k] * B[k][j];
      }
  ) @*/
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NJ; j++)
      {
	E[i][j] = SCALAR_VAL(0.0);
	for (k = 0; k < _PB_NK; ++k)
	  E[i][j] += A[i][k] * B[k][j];
      }
  /*@ end @*/
  /*@ end @*/
  /* F := C*D */
  /*@ begin PerfTuning(
      def performance_params { param TI[] = [4, 8]; param TJ[] = [8]; param TK[] = [4]; }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param NI[] = [13, 33]; param NJ[] = [17, 18]; param NK[] = [9, 20]; param NL[] = [11, 31]; param NM[] = [10, 21];
          constraint five = ((NI == 13 and NJ == 17 and NK == 9 and NL == 11 and NM == 10) or (NI == 33 and NJ == 18 and NK == 20 and NL == 31 and NM == 21));
      }
      def input_vars {
          decl int ni = NI;
          decl int nj = NJ;
          decl int nk = NK;
          decl int nl = NL;
          decl int nm = NM;
          decl static double E[NI][NJ] = random;
          decl static double A[NI][NK] = random;
          decl static double B[NK][NJ] = random;
          decl static double F[NJ][NL] = random;
          decl static double C[NJ][NM] = random;
          decl static double D[NM][NL] = random;
          decl static double G[NI][NL] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ),('k',TK)], device=0, platform=0)
  for (i = 0; i < _PB_NJ; i++)
    for (j = 0; j < _PB_NL; j++)
      {
	F[i][j] = SCALAR_VAL(0.0);
	for (k = 0; k < _PB_NM; ++k)
	  F[i][j] += C[i][k] * D[k][j];
      }
  ) @*/
  for (i = 0; i < _PB_NJ; i++)
    for (j = 0; j < _PB_NL; j++)
      {
	F[i][j] = SCALAR_VAL(0.0);
	for (k = 0; k < _PB_NM; ++k)
	  F[i][j] += C[i][k] * D[k][j];
      }
  /*@ end @*/
  /*@ end @*/
  /* G := E*F */
  /*@ begin PerfTuning(
      def performance_params { param TI[] = [4, 8]; param TJ[] = [8]; param TK[] = [4]; }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param NI[] = [13, 33]; param NJ[] = [17, 18]; param NK[] = [9, 20]; param NL[] = [11, 31]; param NM[] = [10, 21];
          constraint five = ((NI == 13 and NJ == 17 and NK == 9 and NL == 11 and NM == 10) or (NI == 33 and NJ == 18 and NK == 20 and NL == 31 and NM == 21));
      }
      def input_vars {
          decl int ni = NI;
          decl int nj = NJ;
          decl int nk = NK;
          decl int nl = NL;
          decl int nm = NM;
          decl static double E[NI][NJ] = random;
          decl static double A[NI][NK] = random;
          decl static double B[NK][NJ] = random;
          decl static double F[NJ][NL] = random;
          decl static double C[NJ][NM] = random;
          decl static double D[NM][NL] = random;
          decl static double G[NI][NL] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ),('k',TK)], device=0, platform=0)
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NL; j++)
      {
	G[i][j] = SCALAR_VAL(0.0);
	for (k = 0; k < _PB_NJ; ++k)
	  G[i][j] += E[i][k] * F[k][j];
      }
  ) @*/
  for (i = 0; i < _PB_NI; i++)
    for (j = 0; j < _PB_NL; j++)
      {
	G[i][j] = SCALAR_VAL(0.0);
	for (k = 0; k < _PB_NJ; ++k)
	  G[i][j] += E[i][k] * F[k][j];
      }
  /*@ end @*/
  /*@ end @*/
#pragma endscop

}
