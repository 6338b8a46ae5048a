/* A 3-D array: the C99 variable-length parameters `U[p][q][r]` and `V[p][q][r]`, a difference
 * along the innermost dimension, one work-item per plane i; orcl flattens U[i][j][k] to
 * U[(i*q + j)*r + k]. */
void Grid(int p, int q, int r, const double U[p][q][r], double V[p][q][r]) {
    int i, j, k;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [4, 16];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params {
            param P[] = [9];
            param Q[] = [7];
            param R[] = [5];
        }
        def input_vars {
            decl int p = P;
            decl int q = Q;
            decl int r = R;
            decl static double U[P][Q][R] = random;
            decl static double V[P][Q][R] = 0;
        }
        def performance_counter { arg repetitions = 2; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI)
    for (i=0; i<p; i++)
        for (j=0; j<q; j++)
            for (k=1; k<r; k++)
                V[i][j][k] = U[i][j][k] - U[i][j][k-1] + V[i][j][k-1];
    ) @*/
    for (i=0; i<p; i++)
        for (j=0; j<q; j++)
            for (k=1; k<r; k++)
                V[i][j][k] = U[i][j][k] - U[i][j][k-1] + V[i][j][k-1];
    /*@ end @*/
    /*@ end @*/
}
