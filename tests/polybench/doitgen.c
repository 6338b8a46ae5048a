/* doitgen from PolyBench/C 4.2.1 (linear-algebra/kernels/doitgen/doitgen.c), Copyright (c) 2010-2016 Ohio State University,
 * redistributed under its licence (PolyBench/C's LICENSE.txt permits redistribution with this
 * notice). The kernel function with its loop nests as written, one annotated region per nest;
 * macros expanded by hand until orcl reads them: _PB_X -> x, SCALAR_VAL(v) -> v,
 * DATA_TYPE -> double. sum[p] is written before it is read in every iteration of r: each work-item gets its own copy. */
void kernel_doitgen(int nr, int nq, int np,
		    double A[nr][nq][np],
		    double C4[np][np],
		    double sum[np])
{
  int r, q, p, s;

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
    for (r = 0; r < nr; r++)
      for (q = 0; q < nq; q++)  {
        for (p = 0; p < np; p++)  {
  	sum[p] = 0.0;
  	for (s = 0; s < np; s++)
  	  sum[p] += A[r][q][s] * C4[s][p];
        }
        for (p = 0; p < np; p++)
  	A[r][q][p] = sum[p];
      }
  ) @*/
    for (r = 0; r < nr; r++)
      for (q = 0; q < nq; q++)  {
        for (p = 0; p < np; p++)  {
  	sum[p] = 0.0;
  	for (s = 0; s < np; s++)
  	  sum[p] += A[r][q][s] * C4[s][p];
        }
        for (p = 0; p < np; p++)
  	A[r][q][p] = sum[p];
      }
  /*@ end @*/
  /*@ end @*/
}
