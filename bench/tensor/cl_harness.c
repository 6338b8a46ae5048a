// Stand-alone timing of one OpenCL kernel text emitted by orcl (the `__kernel` part of `orcl emit FILE
// --backend opencl`: orcl_kernel(m, n, k, A, B, C, alpha, beta), C = alpha*op(A)*op(B) + beta*C), for A/B
// experiments on the text itself (an edited copy, e.g. bench/tensor/swizzle_probe.py), outside orcl's
// tuner: built by the first NVIDIA platform (else the first platform) with BUILDOPTS (e.g.
// -cl-nv-verbose: registers in the build log on stderr); random floats in [0, 1); one launch checked on
// 4096 sampled outputs (the last rows and columns among them) against a double-precision CPU sum; then
// the median and best of 20 launches after 3 warm-ups (profiling events). PTX=FILE writes the program
// binary (PTX). Figures from it are labelled "harness" in docs/BENCHMARKS.md.
//   gcc -O2 -o clh bench/tensor/cl_harness.c -lOpenCL -lm
//   ./clh KERNEL.cl NN|NT M N K GLOBAL0 GLOBAL1 LOCAL0 LOCAL1 [BUILDOPTS]
// (GLOBAL/LOCAL: the NDRange `orcl emit` prints in its header, e.g. 2048 64 64 2 for 128x128 tiles of
// 2x2 warps at 4096^3; "ok" where the largest relative error is below 2^-10 * sqrt(4096) = 0.0625).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s:%d err %d\n", __FILE__, __LINE__, e_); exit(1);} } while (0)
static int cmpf(const void *a, const void *b) { float x = *(float *)a, y = *(float *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv) {
  if (argc < 10) { fprintf(stderr, "usage\n"); return 2; }
  FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long len = ftell(f); rewind(f);
  char *src = malloc(len + 1); if (fread(src, 1, len, f) != (size_t)len) return 2; src[len] = 0; fclose(f);
  int nt = argv[2][1] == 'T';
  int m = atoi(argv[3]), n = atoi(argv[4]), k = atoi(argv[5]);
  size_t g[2] = {atol(argv[6]), atol(argv[7])}, l[2] = {atol(argv[8]), atol(argv[9])};
  const char *opts = argc > 10 ? argv[10] : "";
  cl_uint np; cl_platform_id ps[8]; CK(clGetPlatformIDs(8, ps, &np));
  cl_platform_id p = ps[0]; char name[256];
  for (cl_uint i = 0; i < np; i++) { clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, 256, name, 0); if (strstr(name, "NVIDIA")) p = ps[i]; }
  cl_device_id d; CK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, 0));
  cl_int e; cl_context ctx = clCreateContext(0, 1, &d, 0, 0, &e); CK(e);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, (cl_queue_properties[]){CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0}, &e); CK(e);
  cl_program pr = clCreateProgramWithSource(ctx, 1, (const char **)&src, 0, &e); CK(e);
  e = clBuildProgram(pr, 1, &d, opts, 0, 0);
  size_t ll; clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, 0, 0, &ll);
  char *log = malloc(ll + 1); clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, ll, log, 0); log[ll] = 0;
  fprintf(stderr, "build log: %s\n", log);
  CK(e);
  if (getenv("RETARGET")) { // bench/tensor/wgmma_cl_probe.py: the PTX to sm_90a, `//ORCL90A ` markers removed
    size_t bs; clGetProgramInfo(pr, CL_PROGRAM_BINARY_SIZES, sizeof bs, &bs, 0);
    char *b = malloc(bs + 1), *o = malloc(bs + 256), *w = o; clGetProgramInfo(pr, CL_PROGRAM_BINARIES, sizeof b, &b, 0); b[bs] = 0;
    for (char *r = b; *r;) {
      if (!strncmp(r, ".target sm_90", 13) && r[13] != 'a') { memcpy(w, ".target sm_90a", 14); w += 14; r += 13; }
      else if (!strncmp(r, "//ORCL90A ", 10)) r += 10;
      else if (!strncmp(r, "//orcl_sm90a ", 13)) r += 13; // orcl's own marker and guard (skeletons/opencl_sm90a.c.tera)
      else if (!strncmp(r, "trap; //orcl_sm90a_guard", 24)) r += 24;
      else if (getenv("SMEMSCALE") && !strncmp(r, ".shared .align", 14)) { // a declared [1][..] tile array -> [S][..]
        char *lb = strchr(r, '['), *nl = strchr(r, '\n'); long sz = atol(lb + 1);
        w += sprintf(w, "%.*s[%ld];", (int)(lb - r), r, sz * atol(getenv("SMEMSCALE"))); r = nl;
      }
      else *w++ = *r++;
    }
    *w = 0; size_t on = strlen(o); cl_int bst;
    if (getenv("PTX")) { FILE *pf = fopen(getenv("PTX"), "wb"); fwrite(o, 1, on, pf); fclose(pf); }
    pr = clCreateProgramWithBinary(ctx, 1, &d, &on, (const unsigned char **)&o, &bst, &e); CK(e);
    e = clBuildProgram(pr, 1, &d, opts, 0, 0);
    clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, 0, 0, &ll); log = malloc(ll + 1);
    clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, ll, log, 0); log[ll] = 0;
    fprintf(stderr, "retargeted build log: %s\n", log); CK(e);
  } else if (getenv("PTX")) { size_t bs; clGetProgramInfo(pr, CL_PROGRAM_BINARY_SIZES, sizeof bs, &bs, 0); unsigned char *b = malloc(bs);
    clGetProgramInfo(pr, CL_PROGRAM_BINARIES, sizeof b, &b, 0); FILE *o = fopen(getenv("PTX"), "wb"); fwrite(b, 1, bs, o); fclose(o); }
  cl_kernel kr = clCreateKernel(pr, "orcl_kernel", &e); CK(e);
  float *A = malloc(sizeof(float) * m * k), *B = malloc(sizeof(float) * k * n), *C = malloc(sizeof(float) * m * n), *C0 = malloc(sizeof(float) * m * n);
  srand(1);
  for (long i = 0; i < (long)m * k; i++) A[i] = rand() / (float)RAND_MAX;
  for (long i = 0; i < (long)k * n; i++) B[i] = rand() / (float)RAND_MAX;
  for (long i = 0; i < (long)m * n; i++) C0[i] = rand() / (float)RAND_MAX;
  float alpha = 1.5f, beta = 0.5f;
  cl_mem dA = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * m * k, A, &e); CK(e);
  cl_mem dB = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * k * n, B, &e); CK(e);
  cl_mem dC = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(float) * m * n, C0, &e); CK(e);
  CK(clSetKernelArg(kr, 0, 4, &m)); CK(clSetKernelArg(kr, 1, 4, &n)); CK(clSetKernelArg(kr, 2, 4, &k));
  CK(clSetKernelArg(kr, 3, sizeof dA, &dA)); CK(clSetKernelArg(kr, 4, sizeof dB, &dB)); CK(clSetKernelArg(kr, 5, sizeof dC, &dC));
  CK(clSetKernelArg(kr, 6, 4, &alpha)); CK(clSetKernelArg(kr, 7, 4, &beta));
  // correctness: one run from C0
  CK(clEnqueueNDRangeKernel(q, kr, 2, 0, g, l, 0, 0, 0)); CK(clFinish(q));
  CK(clEnqueueReadBuffer(q, dC, CL_TRUE, 0, sizeof(float) * m * n, C, 0, 0, 0));
  double maxrel = 0;
  for (int s = 0; s < 4096; s++) {
    int i = (int)((long)s * 7919 % m), j = (int)((long)s * 104729 % n);
    if (s < 64) { i = m - 1 - s % 3; j = n - 1 - s / 3 % 21; }
    double acc = 0;
    for (int t = 0; t < k; t++) acc += (double)A[(long)i * k + t] * (nt ? B[(long)j * k + t] : B[(long)t * n + j]);
    double ref = alpha * acc + beta * C0[(long)i * n + j];
    double rel = fabs(C[(long)i * n + j] - ref) / fabs(ref);
    if (rel > maxrel) maxrel = rel;
  }
  float ts[20];
  for (int r = 0; r < 23; r++) {
    cl_event ev; CK(clEnqueueNDRangeKernel(q, kr, 2, 0, g, l, 0, 0, &ev)); CK(clWaitForEvents(1, &ev));
    cl_ulong a, b; clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &a, 0); clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &b, 0);
    if (r >= 3) ts[r - 3] = (b - a) * 1e-6f;
    clReleaseEvent(ev);
  }
  qsort(ts, 20, sizeof(float), cmpf);
  double tf = 2.0 * m * n * k / (ts[10] * 1e-3) / 1e12;
  printf("%s\t%s\t%dx%dx%d\tmedian_ms %.4f\tbest_ms %.4f\tTFLOPs %.1f\tbest_TFLOPs %.1f\tmax_rel %.2e\t%s\n", argv[1], argv[2], m, n, k, ts[10], ts[0], tf, 2.0 * m * n * k / (ts[0] * 1e-3) / 1e12, maxrel, maxrel < 0.0625 ? "ok" : "WRONG");
  return 0;
}
