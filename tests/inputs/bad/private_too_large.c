/* PolyBench's doitgen (tests/polybench/doitgen.c), reduced, with one defect: at the input size
 * NP = 2000 each work-item's private copy of sum would have 2000 elements */
void Doitgen(int nr, int nq, int np, double A[nr][nq][np], const double C4[np][np], double *sum) {
    int r, q, p, s;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [16, 64];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param NR[] = [4]; param NQ[] = [3]; param NP[] = [8, 2000]; }
        def input_vars {
            decl int nr = NR;
            decl int nq = NQ;
            decl int np = NP;
            decl static double A[NR][NQ][NP] = random;
            decl static double C4[NP][NP] = random;
            decl static double sum[NP] = 0;
        }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)
    for (r = 0; r < nr; r++)
        for (q = 0; q < nq; q++) {
            for (p = 0; p < np; p++) {
                sum[p] = 0.0;
                for (s = 0; s < np; s++)
                    sum[p] += A[r][q][s] * C4[s][p];
            }
            for (p = 0; p < np; p++)
                A[r][q][p] = sum[p];
        }
    ) @*/
    for (r = 0; r < nr; r++)
        for (q = 0; q < nq; q++) {
            for (p = 0; p < np; p++) {
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
