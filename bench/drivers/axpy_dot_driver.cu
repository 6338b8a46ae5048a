// Calls the tuned VecAXPY (from _axpy_compare.cu) and VecDot (from _vecDot.cu), built by nvcc,
// on fresh random data of several sizes and compares them with the original loops.
// nvcc -O2 -o check bench/drivers/axpy_dot_driver.cu _axpy_compare.cu _vecDot.cu
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
void VecAXPY(int n, double a, const double *x, double *y);
double VecDot(int n, const double *x, const double *y);
int main() {
    int bad = 0;
    for (int n : {1, 7, 1009, 100000, 1000003}) {
        std::vector<double> x(n), y(n), r(n);
        for (int i = 0; i < n; i++) { x[i] = rand() / (double)RAND_MAX; y[i] = rand() / (double)RAND_MAX; }
        double a = 0.37, dot = 0.0;
        for (int i = 0; i < n; i++) { r[i] = y[i] + a * x[i]; dot += x[i] * r[i]; }
        VecAXPY(n, a, x.data(), y.data());
        double e = 0.0;
        for (int i = 0; i < n; i++) e = fmax(e, fabs(y[i] - r[i]) / fmax(fabs(r[i]), 1e-300));
        double d = VecDot(n, x.data(), y.data());
        double ed = fabs(d - dot) / fabs(dot);
        printf("n=%d axpy max rel err %.2e, dot rel err %.2e\n", n, e, ed);
        bad |= !(e <= 1e-12) || !(ed <= 1e-9);
    }
    printf(bad ? "FAILED\n" : "tuned CUDA output matches the original loops\n");
    return bad;
}
