/* File-scope 2-D arrays sized by macros that are also the input parameters (Orio's habit): the
 * row length N is no variable, so the kernel receives it as the extent arguments orcl_A_dim1
 * and orcl_B_dim1, and the tuned file passes the macro. */
#define M 37
#define N 23
double A[M][N], B[M][N];

void Diff(void) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [8, 32];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params {
            param M[] = [37];
            param N[] = [23];
        }
        def input_vars {
            decl static double A[M][N] = random;
            decl static double B[M][N] = random;
        }
        def performance_counter { arg repetitions = 2; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)
    for (i=0; i<37; i++)
        for (j=1; j<23; j++)
            B[i][j] = A[i][j] - A[i][j-1] + 0.5 * B[i][j-1];
    ) @*/
    for (i=0; i<37; i++)
        for (j=1; j<23; j++)
            B[i][j] = A[i][j] - A[i][j-1] + 0.5 * B[i][j-1];
    /*@ end @*/
    /*@ end @*/
}
