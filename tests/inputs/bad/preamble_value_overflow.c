/* y = a*x + y (examples/axpy_quick.c, reduced) with one defect: a declaration before the Loop, `int nn = N;`, cannot hold the input size 2147483648 (issue 15 F10) */
void VecAXPY(int n, double a, const double *x, double *y) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [16, 64];
            param WG[] = [4, 16];
            param CB[] = [True, False];
            constraint c1 = (WI*WG <= 4096);
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = [1000, 2147483648]; }
        def input_vars {
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter { arg repetitions = 5; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    int nn = N;
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, cacheBlocks=CB)
    for (i=0; i<=nn-1; i++)
        y[i] += a*x[i];
    ) @*/
    for (i=0; i<=nn-1; i++)
        y[i] += a*x[i];
    /*@ end @*/
    /*@ end @*/
}
