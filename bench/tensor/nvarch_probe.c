// Probe: can NVIDIA's OpenCL issue sm_90a instructions (`wgmma`)? Builds a kernel whose inline PTX is
// `wgmma.fence` / `commit_group` / `wait_group` with several build options (`-cl-nv-arch ...`), prints
// each build's result and log; prints the `.target` of a plain build's PTX; then tries the program-binary
// route (the plain build's PTX with `.target sm_90a` and the placeholder `membar.cta;` replaced by
// `wgmma.fence.sync.aligned;`), and a launch with 64 KiB / 100 KiB of dynamic local memory (a `__local`
// kernel argument) against CL_DEVICE_LOCAL_MEM_SIZE.
//   gcc -O2 -o nvp bench/tensor/nvarch_probe.c -lOpenCL && ./nvp [FILE.cl [OPTIONS]]
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *WG =
    "__kernel void k(__global float *o) {\n"
    "  asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");\n"
    "  asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");\n"
    "  asm volatile(\"wgmma.wait_group.sync.aligned 0;\" ::: \"memory\");\n"
    "  o[get_global_id(0)] = 1.0f;\n}\n";
static const char *PLAIN =
    "__kernel void k(__global float *o) {\n"
    "  asm volatile(\"membar.cta;\" ::: \"memory\");\n"
    "  o[get_global_id(0)] = 2.0f;\n}\n";
static const char *DYN =
    "__kernel void k(__global float *o, __local float *t, int n) {\n"
    "  for (int i = get_local_id(0); i < n; i += get_local_size(0)) t[i] = i;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  o[get_global_id(0)] = t[n - 1 - get_local_id(0)];\n}\n";

static cl_context ctx;
static cl_device_id d;

static char *log_of(cl_program p) {
  size_t n = 0;
  clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, 0, &n);
  char *s = malloc(n + 1);
  clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, s, 0);
  s[n] = 0;
  return s;
}

static cl_program build(const char *src, const char *opts) {
  cl_int e;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, 0, &e);
  e = clBuildProgram(p, 1, &d, opts, 0, 0);
  printf("== build opts '%s': %d\n%s\n", opts, e, log_of(p));
  return e ? 0 : p;
}

static char *ptx_of(cl_program p) {
  size_t n;
  clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof n, &n, 0);
  unsigned char *b = malloc(n + 256);
  clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof b, &b, 0);
  b[n] = 0;
  return (char *)b;
}

static void run(cl_program p, const char *what, size_t local_bytes) {
  cl_int e;
  cl_kernel k = clCreateKernel(p, "k", &e);
  if (e) { printf("%s: kernel %d\n", what, e); return; }
  cl_mem o = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 128 * 4, 0, &e);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, 0, &e);
  clSetKernelArg(k, 0, sizeof o, &o);
  if (local_bytes) {
    int n = (int)(local_bytes / 4);
    printf("%s: setarg local %zu -> %d\n", what, local_bytes, clSetKernelArg(k, 1, local_bytes, 0));
    clSetKernelArg(k, 2, 4, &n);
  }
  size_t g = 128, l = 128;
  e = clEnqueueNDRangeKernel(q, k, 1, 0, &g, &l, 0, 0, 0);
  cl_int f = clFinish(q);
  float r[2] = {0, 0};
  clEnqueueReadBuffer(q, o, CL_TRUE, 0, 8, r, 0, 0, 0);
  printf("%s: launch %d finish %d out %g %g\n", what, e, f, r[0], r[1]);
}

static void replace(char *s, const char *from, const char *to) {
  char *at = strstr(s, from);
  if (!at) { printf("no '%s' in PTX\n", from); return; }
  size_t lf = strlen(from), lt = strlen(to);
  memmove(at + lt, at + lf, strlen(at + lf) + 1);
  memcpy(at, to, lt);
}

int main(int argc, char **argv) {
  setvbuf(stdout, 0, _IONBF, 0);
  cl_uint np;
  cl_platform_id ps[8], pl = 0;
  clGetPlatformIDs(8, ps, &np);
  char name[256];
  for (cl_uint i = 0; i < np; i++) {
    clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, 256, name, 0);
    if (strstr(name, "NVIDIA")) pl = ps[i];
  }
  if (!pl) { printf("no NVIDIA platform\n"); return 1; }
  clGetDeviceIDs(pl, CL_DEVICE_TYPE_GPU, 1, &d, 0);
  cl_int e;
  ctx = clCreateContext(0, 1, &d, 0, 0, &e);
  cl_ulong lm;
  clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lm, &lm, 0);
  char ver[256];
  clGetDeviceInfo(d, CL_DRIVER_VERSION, 256, ver, 0);
  printf("driver %s, CL_DEVICE_LOCAL_MEM_SIZE %lu\n", ver, (unsigned long)lm);
  if (argc > 1) { // ./nvp FILE.cl: only build FILE (a crash of the compiler shows as the exit status)
    FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long len = ftell(f); rewind(f);
    char *src = malloc(len + 1); if (fread(src, 1, len, f) != (size_t)len) return 2; src[len] = 0;
    return build(src, argc > 2 ? argv[2] : "") ? 0 : 1;
  }
  const char *opts[] = {"", "-cl-nv-arch sm_90a", "-cl-nv-arch=sm_90a", "-cl-nv-arch compute_90a",
                        "-cl-nv-arch sm_90", "-cl-nv-arch sm_100"};
  for (unsigned i = 0; i < sizeof opts / sizeof *opts; i++) {
    cl_program p = build(WG, opts[i]);
    if (p) run(p, opts[i], 0);
  }
  cl_program p = build(PLAIN, "");
  if (!p) return 1;
  char *ptx = ptx_of(p);
  char *t = strstr(ptx, ".target");
  printf("plain PTX: %.40s\n", t ? t : "(no .target)");
  run(p, "plain", 0);
  replace(ptx, ".target sm_90", ".target sm_90a");
  replace(ptx, "membar.cta;", "wgmma.fence.sync.aligned;");
  size_t n = strlen(ptx);
  cl_int bs;
  cl_program pb = clCreateProgramWithBinary(ctx, 1, &d, &n, (const unsigned char **)&ptx, &bs, &e);
  printf("== binary sm_90a: create %d status %d\n", e, bs);
  if (!e) {
    e = clBuildProgram(pb, 1, &d, "", 0, 0);
    printf("binary build %d\n%s\n", e, log_of(pb));
    if (!e) run(pb, "binary sm_90a", 0);
  }
  cl_program pd = build(DYN, "");
  if (pd) {
    run(pd, "dynamic local 40 KiB", 40 << 10);
    run(pd, "dynamic local 64 KiB", 64 << 10);
    run(pd, "dynamic local 100 KiB", 100 << 10);
  }
  return 0;
}
