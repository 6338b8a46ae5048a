/* bench/transpose.sh: the device-copy baseline for the transpose, B = A over 8192 x 8192 floats as
 * a 2-D NDRange (same bytes moved as the transpose, both accesses contiguous). */
void Copy2D(int m, int n, const float A[m][n], float B[m][n]) {
    int i, j;
    /*@ begin PerfTuning(
        def performance_params {
            param TI[] = [1, 4, 8];
            param TJ[] = [128, 256, 512];
            param RI[] = [1, 4];
            constraint wg = (TI % RI == 0);
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param M[] = [8192]; param N[] = [8192]; }
        def input_vars {
            decl int m = M;
            decl int n = N;
            decl static float A[M][N] = random;
            decl static float B[M][N] = 0;
        }
        def performance_counter { arg repetitions = 10; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ)], regTile=[('i',RI)])
                   transform CUDA(tile=[('i',TI),('j',TJ)], regTile=[('i',RI)])
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++)
            B[i][j] = A[i][j];
    ) @*/
    for (i=0; i<=m-1; i++)
        for (j=0; j<=n-1; j++)
            B[i][j] = A[i][j];
    /*@ end @*/
    /*@ end @*/
}
