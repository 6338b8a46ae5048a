// Runs the tuned file of a bench/tensor.sh case (`_NAME-BACKEND.c`: Gemm(m, n, k, alpha, A, B, beta,
// C), C = alpha*op(A)*op(B) + beta*C, float) at one size and checks it: 4096 sampled outputs (the last
// rows and columns among them) against a double-precision CPU sum; prints the largest relative error
// and "ok" below the truncated-TF32 tolerance 2^-9 * sqrt(k) (docs/GEMM.md, Accuracy), and the wall time of
// a first and a second call (the second tells the device path, milliseconds at 4096^3, from the host
// file's fallback to the original CPU loop, minutes).
//   gcc -O2 -o tuned _NAME-opencl.c bench/tensor/tuned_driver.c -lOpenCL -lm && ./tuned NN|NT M N K
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
void Gemm(int m, int n, int k, float alpha, const float *A, const float *B, float beta, float *C);
int main(int argc, char **argv) {
  if (argc < 5) { fprintf(stderr, "usage: tuned NN|NT M N K\n"); return 2; }
  int nt = argv[1][1] == 'T', m = atoi(argv[2]), n = atoi(argv[3]), k = atoi(argv[4]);
  float *A = malloc(sizeof(float) * m * k), *B = malloc(sizeof(float) * k * n);
  float *C = malloc(sizeof(float) * m * n), *C0 = malloc(sizeof(float) * m * n);
  srand(7);
  for (long i = 0; i < (long)m * k; i++) A[i] = rand() / (float)RAND_MAX - 0.25f;
  for (long i = 0; i < (long)k * n; i++) B[i] = rand() / (float)RAND_MAX;
  for (long i = 0; i < (long)m * n; i++) C[i] = C0[i] = rand() / (float)RAND_MAX;
  float alpha = 1.5f, beta = 0.5f;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  Gemm(m, n, k, alpha, A, B, beta, C);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double first = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6;
  float *C2 = malloc(sizeof(float) * m * n);
  for (long i = 0; i < (long)m * n; i++) C2[i] = C0[i];
  clock_gettime(CLOCK_MONOTONIC, &t0);
  Gemm(m, n, k, alpha, A, B, beta, C2); /* the second call: no build (the CPU loop would take as long as the first) */
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double second = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6;
  double worst = 0;
  for (int s = 0; s < 4096; s++) {
    int i = (int)((long)s * 7919 % m), j = (int)((long)s * 104729 % n);
    if (s < 64) { i = m - 1 - s % 3; j = n - 1 - s / 3 % 21; }
    double acc = 0, mag = 0;
    for (int t = 0; t < k; t++) {
      double p = (double)A[(long)i * k + t] * (nt ? B[(long)j * k + t] : B[(long)t * n + j]);
      acc += p; mag += fabs(p);
    }
    double ref = alpha * acc + beta * C0[(long)i * n + j];
    double rel = fabs(C[(long)i * n + j] - ref) / (fabs(alpha) * mag + fabs(beta * C0[(long)i * n + j]));
    if (rel > worst) worst = rel;
  }
  double tol = pow(2, -9) * sqrt((double)k);
  printf("%s %dx%dx%d max relative error %.2e (tolerance %.2e) %s; first call %.1f ms (build included), second %.2f ms\n",
         argv[1], m, n, k, worst, tol, worst < tol ? "ok" : "WRONG", first, second);
  return worst < tol ? 0 : 1;
}
