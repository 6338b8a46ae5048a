/* After Orio's testsuite/sandbox/cuda/MMMult.c (brnorris03/Orio): C is M x P but written at
 * C[i*n+j] with j < p, so for n < p iterations i and i+1 write the same elements */
void MatMatMult(double* A, double* B, double* C, int m, int n, int p) {
  int i, j, k;
  /*@ begin PerfTuning (
        def performance_params { param WI[] = [16, 32]; }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param M[] = [4]; param N[] = [4]; param P[] = [8]; }
        def input_vars {
          decl int m = M; decl int n = N; decl int p = P;
          decl static double A[M*N] = random;
          decl static double B[N*P] = random;
          decl static double C[M*P] = 0;
        }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)
  for(i=0; i<=m-1; i++)
    for(j=0; j<=p-1; j++){
      double s = 0.0;
      for(k=0; k<=n-1; k++)
        s += A[i*n+k]*B[k*p+j];
      C[i*n+j]=s;
    }
  ) @*/
  /*@ end @*/
  /*@ end @*/
}
