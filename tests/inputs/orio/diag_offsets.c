/* In the style of Orio's testsuite/sandbox/cuda/matVec2D.c (brnorris03/Orio): a DIA-format
 * matrix-vector product whose diagonal offsets exist only in input_vars (Orio's skeleton declared
 * them; the function does not), and NOS, DOF input params that are not function parameters. */
void DiagMV(double* A, double* x, double* y, int M, int N) {

  register int i,j;
  int col;
  /*@ begin PerfTuning (
        def performance_params {
          param WI[]  = [16,64];
          param UIF[] = [1,2];
        }
        def input_params {
          param M[] = [8,33];
          param N[] = [8,33];
          param NOS = 5;
          param DOF = 1;
          constraint c1 = (M==N);
        }
        def input_vars {
          decl static double A[M*N*NOS*DOF] = random;
          decl static double x[M*N*DOF]     = random;
          decl static double y[M*N*DOF]     = 0;
          decl static int offsets[NOS]      = {-M*DOF,-DOF,0,DOF,M*DOF};
        }
  ) @*/

  int nrows=M*N;
  int ndiags=NOS;

  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, unrollInner=UIF)

  for(i=0; i<=nrows-1; i++) {
    for(j=0; j<=ndiags-1; j++){
      col = i+offsets[j];
      if(col>=0&&col<nrows)
        y[i] += A[i+j*nrows] * x[col];
    }
  }

  ) @*/

  for(i=0; i<=nrows-1; i++) {
    for(j=0; j<=ndiags-1; j++){
      col = i+offsets[j];
      if(col>=0&&col<nrows)
        y[i] += A[i+j*nrows] * x[col];
    }
  }
  /*@ end @*/
  /*@ end @*/
}
