/* y = a*x + y with no annotation at all: nothing to tune. */
void VecAXPY(int n, double a, const double *x, double *y) {
    int i;
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
}
