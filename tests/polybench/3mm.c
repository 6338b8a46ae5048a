/* 3mm from PolyBench/C 4.2.1 (linear-algebra/kernels/3mm/3mm.c), Copyright (c) 2010-2016 Ohio State University,
 * redistributed under its licence (PolyBench/C's LICENSE.txt permits redistribution with this
 * notice). The kernel function with its loop nests as written, one annotated region per nest;
 * macros expanded by hand until orcl reads them: _PB_X -> x, SCALAR_VAL(v) -> v,
 * DATA_TYPE -> double. Three matrix products whose element is set before the k loop. */
void kernel_3mm(int ni, int nj, int nk, int nl, int nm,
		double E[ni][nj],
		double A[ni][nk],
		double B[nk][nj],
		double F[nj][nl],
		double C[nj][nm],
		double D[nm][nl],
		double G[ni][nl])
{
  int i, j, k;

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
    for (i = 0; i < ni; i++)
      for (j = 0; j < nj; j++)
        {
  	E[i][j] = 0.0;
  	for (k = 0; k < nk; ++k)
  	  E[i][j] += A[i][k] * B[k][j];
        }
  ) @*/
    for (i = 0; i < ni; i++)
      for (j = 0; j < nj; j++)
        {
  	E[i][j] = 0.0;
  	for (k = 0; k < nk; ++k)
  	  E[i][j] += A[i][k] * B[k][j];
        }
  /*@ end @*/
  /*@ end @*/
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
    for (i = 0; i < nj; i++)
      for (j = 0; j < nl; j++)
        {
  	F[i][j] = 0.0;
  	for (k = 0; k < nm; ++k)
  	  F[i][j] += C[i][k] * D[k][j];
        }
  ) @*/
    for (i = 0; i < nj; i++)
      for (j = 0; j < nl; j++)
        {
  	F[i][j] = 0.0;
  	for (k = 0; k < nm; ++k)
  	  F[i][j] += C[i][k] * D[k][j];
        }
  /*@ end @*/
  /*@ end @*/
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
    for (i = 0; i < ni; i++)
      for (j = 0; j < nl; j++)
        {
  	G[i][j] = 0.0;
  	for (k = 0; k < nj; ++k)
  	  G[i][j] += E[i][k] * F[k][j];
        }
  ) @*/
    for (i = 0; i < ni; i++)
      for (j = 0; j < nl; j++)
        {
  	G[i][j] = 0.0;
  	for (k = 0; k < nj; ++k)
  	  G[i][j] += E[i][k] * F[k][j];
        }
  /*@ end @*/
  /*@ end @*/
}
