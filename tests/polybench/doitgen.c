/* doitgen from PolyBench/C 4.2.1 (linear-algebra/kernels/doitgen/doitgen.c), Copyright (c) 2010-2016 Ohio State University,
 * redistributed under its licence (PolyBench/C's LICENSE.txt permits redistribution with this
 * notice). The kernel function with its loop nests as written, one annotated region per nest;
 * PolyBench's macros kept
 * (their definitions from utilities/polybench.h and doitgen.h with POLYBENCH_USE_C99_PROTO are
 * below, so the file stands alone; orcl expands them as `cc -E` would). sum[p] is written before it is read in every iteration of r: each work-item gets its own copy. */
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_NR POLYBENCH_LOOP_BOUND(NR, nr)
#define _PB_NQ POLYBENCH_LOOP_BOUND(NQ, nq)
#define _PB_NP POLYBENCH_LOOP_BOUND(NP, np)
#define POLYBENCH_1D(var, dim1, ddim1) var[ddim1]
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[ddim1][ddim2]
#define POLYBENCH_3D(var, dim1, dim2, dim3, ddim1, ddim2, ddim3) var[ddim1][ddim2][ddim3]
void kernel_doitgen(int nr, int nq, int np,
		    DATA_TYPE POLYBENCH_3D(A,NR,NQ,NP,nr,nq,np),
		    DATA_TYPE POLYBENCH_2D(C4,NP,NP,np,np),
		    DATA_TYPE POLYBENCH_1D(sum,NP,np))
{
  int r, q, p, s;

#pragma scop
  /*@ begin PerfTuning(
      def performance_params { param WI[] = [16, 64]; }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param NR[] = [5, 9]; param NQ[] = [6, 4]; param NP[] = [7, 11];
          constraint trio = ((NR == 5 and NQ == 6 and NP == 7) or (NR == 9 and NQ == 4 and NP == 11));
      }
      def input_vars {
          decl int nr = NR;
          decl int nq = NQ;
          decl int np = NP;
          decl static double A[NR][NQ][NP] = random;
          decl static double C4[NP][NP] = random;
          decl static double sum[NP] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, device=0, platform=0)
  for (r = 0; r < _PB_NR; r++)
    for (q = 0; q < _PB_NQ; q++)  {
      for (p = 0; p < _PB_NP; p++)  {
	sum[p] = SCALAR_VAL(0.0);
	for (s = 0; s < _PB_NP; s++)
	  sum[p] += A[r][q][s] * C4[s][p];
      }
      for (p = 0; p < _PB_NP; p++)
	A[r][q][p] = sum[p];
    }
  ) @*/
  for (r = 0; r < _PB_NR; r++)
    for (q = 0; q < _PB_NQ; q++)  {
      for (p = 0; p < _PB_NP; p++)  {
	sum[p] = SCALAR_VAL(0.0);
	for (s = 0; s < _PB_NP; s++)
	  sum[p] += A[r][q][s] * C4[s][p];
      }
      for (p = 0; p < _PB_NP; p++)
	A[r][q][p] = sum[p];
    }
  /*@ end @*/
  /*@ end @*/
#pragma endscop

}
