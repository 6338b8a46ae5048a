/* orcl timing skeleton (OpenCL) — generated from skeletons/opencl_skeleton.c.tera.
 * Region: tests/in/strided.c region 0; input: N=1000.
 *
 * Usage: skeleton PLATFORM DEVICE. Prints one JSON "hello" line, then reads requests on stdin:
 *   RUN <id> <global work-items, 0 = cover the loop> <local work-items> <source bytes> <option bytes> <warm-ups> <repetitions>\n
 *   followed by the kernel source and the build options (raw bytes); or
 *   BIN <id> <global> <local> <key bytes> <binary bytes> <option bytes> <warm-ups> <repetitions>\n
 *   followed by a cache key, a program binary built by orcl's build pool, and the build options;
 *   or QUIT\n.
 * Answers one JSON line per request: id, status (ok | compile_error | launch_error | wrong_result),
 * build_ms, kernel_ms (one per timed repetition, from profiling events), transfer_ms (host<->device
 * copies of the validation run), max_error, message. Exits on end of input.
 * Written arrays are reset before every run: from the host for the first (validation) run, then by a
 * device-to-device copy from a pristine buffer. */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- input variables (orcl_v_NAME; the reference loop sees them under their own names) ---- */
static int orcl_v_n;
static double orcl_v_a;
static double *orcl_v_x, *orcl_init_x, *orcl_ref_x;
static double *orcl_v_y, *orcl_init_y, *orcl_ref_y;
static double *orcl_v_z, *orcl_init_z, *orcl_ref_z;

static uint64_t orcl_rng_state;
static uint64_t orcl_rng(void) {
    /* splitmix64 */
    uint64_t z = (orcl_rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static double orcl_rand01(void) { return (double)(orcl_rng() >> 11) * 0x1.0p-53; }

static void *orcl_alloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    if (!p) { printf("{\"ready\":false,\"error\":\"out of host memory\"}\n"); exit(3); }
    return p;
}

static void orcl_init(void) {
    orcl_rng_state = 12638194897137039473ULL;
    orcl_v_n = (int)(1000L);
    orcl_rng_state = 12638187200555641996ULL;
    orcl_v_a = (double)orcl_rand01();
    orcl_rng_state = 12638214688346347271ULL;
    orcl_v_x = (double *)orcl_alloc(1000, sizeof(double));
    orcl_init_x = (double *)orcl_alloc(1000, sizeof(double));
    orcl_ref_x = (double *)orcl_alloc(1000, sizeof(double));
    for (size_t k = 0; k < (size_t)1000; k++) orcl_init_x[k] = (double)orcl_rand01();
    memcpy(orcl_v_x, orcl_init_x, (size_t)1000 * sizeof(double));
    orcl_rng_state = 12638213588834719060ULL;
    orcl_v_y = (double *)orcl_alloc(1000, sizeof(double));
    orcl_init_y = (double *)orcl_alloc(1000, sizeof(double));
    orcl_ref_y = (double *)orcl_alloc(1000, sizeof(double));
    for (size_t k = 0; k < (size_t)1000; k++) orcl_init_y[k] = (double)(0L);
    memcpy(orcl_v_y, orcl_init_y, (size_t)1000 * sizeof(double));
    orcl_rng_state = 12638216887369603693ULL;
    orcl_v_z = (double *)orcl_alloc(1000, sizeof(double));
    orcl_init_z = (double *)orcl_alloc(1000, sizeof(double));
    orcl_ref_z = (double *)orcl_alloc(1000, sizeof(double));
    for (size_t k = 0; k < (size_t)1000; k++) orcl_init_z[k] = (double)(0L);
    memcpy(orcl_v_z, orcl_init_z, (size_t)1000 * sizeof(double));
}

/* ---- the original loop, compiled as plain C: the reference outputs ---- */
#define N 1000L
#define n orcl_v_n
#define a orcl_v_a
#define x orcl_v_x
#define y orcl_v_y
#define z orcl_v_z
static void orcl_reference(void) {
    int i;
    /* the outermost loop is proven parallel (orcl's dependence test): all host cores */
#ifdef _OPENMP
#pragma omp parallel for private(i)
#endif

    for (i=3; i<n; i+=2) {
            if (x[i] > 0.5) {
                y[i] = a * sqrt(x[i]) + pow(x[i], 2.0);
            } else {
                y[i] = fmax(a - exp(x[i]), -1.0);
                z[i] = fabs(x[i]) * (double)i;
            }
        }
    (void)i;
}
#undef n
#undef a
#undef x
#undef y
#undef z
#undef N

static long orcl_trip_count(void) {
    const int n = orcl_v_n;
    (void)n;
    const double a = orcl_v_a;
    (void)a;
    return (n) > (3) ? ((long)(n) - (long)(3) + 1) / 2 : 0;
}

/* iterations of loop d of the perfect nest (0 = the parallel loop), for multi-dimensional NDRanges */
__attribute__((unused)) static long orcl_nest_trip(int d) {
    const int n = orcl_v_n;
    (void)n;
    const double a = orcl_v_a;
    (void)a;
    switch (d) {
    case 0: return (n) > (3) ? ((long)(n) - (long)(3) + 1) / 2 : 0;
    default: return 0;
    }
}

/* ---- OpenCL state ---- */
static cl_context ctx;
static cl_command_queue queue;
static cl_device_id device;
static cl_mem buf_x;
static cl_mem buf_y;
static cl_mem pristine_y; /* device copy of the initial values: resets are device-to-device copies */
static cl_mem buf_z;
static cl_mem pristine_z; /* device copy of the initial values: resets are device-to-device copies */

#define ORCL_CACHE 256
static struct { uint64_t hash; char *src; char *opts; cl_program program; cl_kernel kernel; double build_ms; } cache[ORCL_CACHE];
static int ncache;

static const char *cl_error_name(cl_int e) {
    switch (e) {
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
    case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
    default: return "CL error";
    }
}

static double event_ms(cl_event e) {
    cl_ulong a = 0, b = 0;
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL);
    return b > a ? (double)(b - a) * 1e-6 : 0.0;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static void json_str(const char *s, size_t max) {
    putchar('"');
    for (size_t i = 0; s && s[i] && i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') { putchar('\\'); putchar(c); }
        else if (c == '\n') fputs("\\n", stdout);
        else if (c == '\t') fputs("\\t", stdout);
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

static void reply(long id, const char *status, double build_ms, const double *ms, int nms, double transfer_ms, double max_error, const char *msg) {
    printf("{\"id\":%ld,\"status\":\"%s\",\"build_ms\":%.6f,\"kernel_ms\":[", id, status, build_ms);
    for (int i = 0; i < nms; i++) printf("%s%.6f", i ? "," : "", ms[i]);
    printf("],\"transfer_ms\":%.6f,\"max_error\":", transfer_ms);
    if (isfinite(max_error)) printf("%.6e", max_error); else printf("null");
    printf(",\"message\":");
    json_str(msg, 4000);
    printf("}\n");
    fflush(stdout);
}

static uint64_t fnv1a(const char *a, const char *b) {
    uint64_t h = 1469598103934665603ULL;
    for (; *a; a++) h = (h ^ (unsigned char)*a) * 1099511628211ULL;
    h = (h ^ 0xff) * 1099511628211ULL;
    for (; *b; b++) h = (h ^ (unsigned char)*b) * 1099511628211ULL;
    return h;
}

/* Build (or find in the cache) the program for (src, opts). Returns the cache slot or -1 with `log` set. */
static int get_kernel(const char *src, const char *opts, char *log, size_t logsize, int *fresh) {
    uint64_t h = fnv1a(src, opts);
    *fresh = 0;
    for (int i = 0; i < ncache; i++)
        if (cache[i].hash == h && !strcmp(cache[i].src, src) && !strcmp(cache[i].opts, opts)) return i;
    cl_int err;
    double t0 = now_ms();
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (err != CL_SUCCESS) { snprintf(log, logsize, "clCreateProgramWithSource: %s (%d)", cl_error_name(err), err); return -1; }
    err = clBuildProgram(p, 1, &device, opts, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t n = 0;
        int w = snprintf(log, logsize, "clBuildProgram: %s (%d)\n", cl_error_name(err), err);
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, logsize - (size_t)w - 1, log + w, &n);
        log[logsize - 1] = 0;
        clReleaseProgram(p);
        return -1;
    }
    cl_kernel k = clCreateKernel(p, "orcl_kernel", &err);
    if (err != CL_SUCCESS) { snprintf(log, logsize, "clCreateKernel: %s (%d)", cl_error_name(err), err); clReleaseProgram(p); return -1; }
    int slot = ncache < ORCL_CACHE ? ncache++ : (int)(h % ORCL_CACHE);
    if (cache[slot].program) {
        clReleaseKernel(cache[slot].kernel);
        clReleaseProgram(cache[slot].program);
        free(cache[slot].src);
        free(cache[slot].opts);
    }
    cache[slot].hash = h;
    cache[slot].src = strdup(src);
    cache[slot].opts = strdup(opts);
    cache[slot].program = p;
    cache[slot].kernel = k;
    cache[slot].build_ms = now_ms() - t0;
    *fresh = 1;
    return slot;
}

/* Load (or find in the cache) a program binary built by orcl's build pool, cached under its key. */
static int get_kernel_bin(const char *key, const unsigned char *bin, size_t binlen, const char *opts, char *log, size_t logsize, int *fresh) {
    uint64_t h = fnv1a(key, opts);
    *fresh = 0;
    for (int i = 0; i < ncache; i++)
        if (cache[i].hash == h && !strcmp(cache[i].src, key) && !strcmp(cache[i].opts, opts)) return i;
    cl_int err, st = CL_SUCCESS;
    double t0 = now_ms();
    cl_program p = clCreateProgramWithBinary(ctx, 1, &device, &binlen, &bin, &st, &err);
    if (err != CL_SUCCESS) { snprintf(log, logsize, "clCreateProgramWithBinary: %s (%d, binary status %d)", cl_error_name(err), err, st); return -1; }
    err = clBuildProgram(p, 1, &device, opts, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t n = 0;
        int w = snprintf(log, logsize, "clBuildProgram (binary): %s (%d)\n", cl_error_name(err), err);
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, logsize - (size_t)w - 1, log + w, &n);
        log[logsize - 1] = 0;
        clReleaseProgram(p);
        return -1;
    }
    cl_kernel k = clCreateKernel(p, "orcl_kernel", &err);
    if (err != CL_SUCCESS) { snprintf(log, logsize, "clCreateKernel: %s (%d)", cl_error_name(err), err); clReleaseProgram(p); return -1; }
    int slot = ncache < ORCL_CACHE ? ncache++ : (int)(h % ORCL_CACHE);
    if (cache[slot].program) {
        clReleaseKernel(cache[slot].kernel);
        clReleaseProgram(cache[slot].program);
        free(cache[slot].src);
        free(cache[slot].opts);
    }
    cache[slot].hash = h;
    cache[slot].src = strdup(key);
    cache[slot].opts = strdup(opts);
    cache[slot].program = p;
    cache[slot].kernel = k;
    cache[slot].build_ms = now_ms() - t0;
    *fresh = 1;
    return slot;
}

/* Compare the outputs with the reference. Returns the largest relative error; sets *bad and a message
 * on a NaN/Inf mismatch or an error over the tolerance. Relative error is |got - ref| / max(|ref|,
 * 1e-3 * max|ref|, DBL_MIN); integers must match exactly. */
static double validate(int *bad, char *msg, size_t msgsize) {
    double worst = 0.0;
    *bad = 0;
    {
        const size_t n = (size_t)1000;
        double scale = 0.0;
        for (size_t k = 0; k < n; k++) { double r = fabs((double)orcl_ref_y[k]); if (isfinite(r) && r > scale) scale = r; }
        double floor_ = scale * 1e-3 > DBL_MIN ? scale * 1e-3 : DBL_MIN;
        for (size_t k = 0; k < n; k++) {
            double g = (double)orcl_v_y[k], r = (double)orcl_ref_y[k];
            double e;
            if (isnan(g) || isnan(r)) e = INFINITY;
            else if (isinf(g) || isinf(r)) e = g == r ? 0.0 : INFINITY;
            else e = fabs(g - r) / (fabs(r) > floor_ ? fabs(r) : floor_);
            if (!(e <= 1e-9) && !*bad) {
                *bad = 1;
                snprintf(msg, msgsize, "y[%zu] = %.17g, expected %.17g (relative error %.3g > tolerance 1e-9)", k, g, r, e);
            }
            if (!(e <= worst)) worst = e;
        }
    }
    {
        const size_t n = (size_t)1000;
        double scale = 0.0;
        for (size_t k = 0; k < n; k++) { double r = fabs((double)orcl_ref_z[k]); if (isfinite(r) && r > scale) scale = r; }
        double floor_ = scale * 1e-3 > DBL_MIN ? scale * 1e-3 : DBL_MIN;
        for (size_t k = 0; k < n; k++) {
            double g = (double)orcl_v_z[k], r = (double)orcl_ref_z[k];
            double e;
            if (isnan(g) || isnan(r)) e = INFINITY;
            else if (isinf(g) || isinf(r)) e = g == r ? 0.0 : INFINITY;
            else e = fabs(g - r) / (fabs(r) > floor_ ? fabs(r) : floor_);
            if (!(e <= 1e-9) && !*bad) {
                *bad = 1;
                snprintf(msg, msgsize, "z[%zu] = %.17g, expected %.17g (relative error %.3g > tolerance 1e-9)", k, g, r, e);
            }
            if (!(e <= worst)) worst = e;
        }
    }
    return worst;
}

int main(int argc, char **argv) {
    cl_uint pi = argc > 1 ? (cl_uint)atoi(argv[1]) : 0, di = argc > 2 ? (cl_uint)atoi(argv[2]) : 0;
    cl_platform_id platforms[16];
    cl_device_id devices[64];
    cl_uint np = 0, nd = 0;
    cl_int err;
    char name[256] = "", pname[256] = "";

    orcl_init();
    orcl_reference();
    memcpy(orcl_ref_y, orcl_v_y, (size_t)1000 * sizeof(double));
    memcpy(orcl_ref_z, orcl_v_z, (size_t)1000 * sizeof(double));

    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS || np == 0) { printf("{\"ready\":false,\"error\":\"no OpenCL platform\"}\n"); return 3; }
    if (pi >= np) { printf("{\"ready\":false,\"error\":\"platform %u does not exist (%u found)\"}\n", pi, np); return 3; }
    if (clGetDeviceIDs(platforms[pi], CL_DEVICE_TYPE_ALL, 64, devices, &nd) != CL_SUCCESS || di >= nd) {
        printf("{\"ready\":false,\"error\":\"device %u does not exist on platform %u (%u found)\"}\n", di, pi, nd);
        return 3;
    }
    device = devices[di];
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetPlatformInfo(platforms[pi], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS) { printf("{\"ready\":false,\"error\":\"clCreateContext: %s\"}\n", cl_error_name(err)); return 3; }
    queue = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) { printf("{\"ready\":false,\"error\":\"clCreateCommandQueue: %s\"}\n", cl_error_name(err)); return 3; }
    buf_x = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)1000 * sizeof(double), NULL, &err);
    if (err != CL_SUCCESS) { printf("{\"ready\":false,\"error\":\"clCreateBuffer(x): %s\"}\n", cl_error_name(err)); return 3; }
    buf_y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)1000 * sizeof(double), NULL, &err);
    if (err != CL_SUCCESS) { printf("{\"ready\":false,\"error\":\"clCreateBuffer(y): %s\"}\n", cl_error_name(err)); return 3; }
    pristine_y = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)1000 * sizeof(double), orcl_init_y, &err);
    if (err != CL_SUCCESS) pristine_y = NULL; /* no room: reset from the host instead */
    buf_z = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)1000 * sizeof(double), NULL, &err);
    if (err != CL_SUCCESS) { printf("{\"ready\":false,\"error\":\"clCreateBuffer(z): %s\"}\n", cl_error_name(err)); return 3; }
    pristine_z = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)1000 * sizeof(double), orcl_init_z, &err);
    if (err != CL_SUCCESS) pristine_z = NULL; /* no room: reset from the host instead */

    printf("{\"ready\":true,\"platform\":");
    json_str(pname, 255);
    printf(",\"device\":");
    json_str(name, 255);
    printf(",\"trip\":%ld}\n", orcl_trip_count());
    fflush(stdout);

    char line[512];
    static char log[16384];
    while (fgets(line, sizeof line, stdin)) {
        long id = 0, gx = 0, lx = 0, srclen = 0, binlen = 0, optlen = 0, warmups = 0, reps = 0;
        long nd = 0, g[9] = {0, 1, 1, 0, 1, 1, 0, 1, 1};
        if (!strncmp(line, "QUIT", 4)) break;
        /* BIN: a program binary from orcl's build pool (key, binary, options) instead of the source;
           both may end with a multi-dimensional NDRange: dimensions, then (nest loop, iterations, work-items) per dimension */
        int is_bin = !strncmp(line, "BIN ", 4);
        int nf = is_bin
            ? sscanf(line, "BIN %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld", &id, &gx, &lx, &srclen, &binlen, &optlen, &warmups, &reps, &nd, &g[0], &g[1], &g[2], &g[3], &g[4], &g[5], &g[6], &g[7], &g[8]) - 1
            : sscanf(line, "RUN %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld", &id, &gx, &lx, &srclen, &optlen, &warmups, &reps, &nd, &g[0], &g[1], &g[2], &g[3], &g[4], &g[5], &g[6], &g[7], &g[8]);
        if ((nf != 7 && nf != 17) || srclen < 0 || binlen < 0 || optlen < 0 || reps < 1 || warmups < 0 || lx < 1 || nd < 0 || nd > 3) {
            fprintf(stderr, "orcl skeleton: bad request: %s", line);
            return 4;
        }
        char *src = malloc((size_t)srclen + 1), *opts = malloc((size_t)optlen + 1);
        unsigned char *bin = malloc((size_t)binlen + 1);
        if (!src || !opts || !bin || fread(src, 1, (size_t)srclen, stdin) != (size_t)srclen
            || fread(bin, 1, (size_t)binlen, stdin) != (size_t)binlen
            || fread(opts, 1, (size_t)optlen, stdin) != (size_t)optlen) return 4;
        src[srclen] = 0;
        opts[optlen] = 0;

        int fresh = 0;
        log[0] = 0;
        int slot = is_bin ? get_kernel_bin(src, bin, (size_t)binlen, opts, log, sizeof log, &fresh)
                          : get_kernel(src, opts, log, sizeof log, &fresh);
        free(src);
        free(bin);
        free(opts);
        if (slot < 0) { reply(id, is_bin ? "launch_error" : "compile_error", 0.0, NULL, 0, 0.0, NAN, log); continue; }
        double build_ms = fresh ? cache[slot].build_ms : 0.0;
        cl_kernel k = cache[slot].kernel;
        long trip = orcl_trip_count();
        size_t local = (size_t)lx;
        size_t global = gx > 0 ? (size_t)gx : (size_t)((trip + lx - 1) / lx) * local;
        if (global == 0) global = local;
        size_t groups = global / local;
        /* a multi-dimensional NDRange: dimension d covers nest loop g[3d] with g[3d+1] iterations and g[3d+2] work-items per work-group */
        cl_uint work_dim = 1;
        size_t gws[3] = {global, 1, 1}, lws[3] = {local, 1, 1};
        if (nd > 0) {
            work_dim = (cl_uint)nd;
            groups = 1;
            for (long d = 0; d < nd; d++) {
                long t = orcl_nest_trip((int)g[3 * d]), per = g[3 * d + 1] > 0 ? g[3 * d + 1] : 1;
                size_t n = t > 0 ? (size_t)((t + per - 1) / per) : 1;
                lws[d] = (size_t)g[3 * d + 2];
                gws[d] = n * lws[d];
                groups *= n;
            }
        }
        int argi = 0;
        (void)groups;
        err = CL_SUCCESS;
        if (err == CL_SUCCESS) err = clSetKernelArg(k, argi++, sizeof(int), &orcl_v_n);
        if (err == CL_SUCCESS) err = clSetKernelArg(k, argi++, sizeof(cl_mem), &buf_x);
        if (err == CL_SUCCESS) err = clSetKernelArg(k, argi++, sizeof(cl_mem), &buf_y);
        if (err == CL_SUCCESS) err = clSetKernelArg(k, argi++, sizeof(double), &orcl_v_a);
        if (err == CL_SUCCESS) err = clSetKernelArg(k, argi++, sizeof(cl_mem), &buf_z);
        if (err != CL_SUCCESS) { snprintf(log, sizeof log, "clSetKernelArg: %s (%d)", cl_error_name(err), err); reply(id, "launch_error", build_ms, NULL, 0, 0.0, NAN, log); continue; }

        double *ms = malloc(sizeof(double) * (size_t)reps);
        double transfer_ms = 0.0, max_error = 0.0;
        int nms = 0, failed = 0;
        for (long r = 0; r < warmups + reps && !failed; r++) {
            cl_event ev_in[4], ev_k = NULL, ev_out[4];
            int nin = 0, nout = 0;
            /* reset: the first run copies every array in (timed as transfers); later runs reset the written ones */
            if (r == 0) {
                err = clEnqueueWriteBuffer(queue, buf_x, CL_FALSE, 0, (size_t)1000 * sizeof(double), orcl_init_x, 0, NULL, &ev_in[nin]);
                if (err != CL_SUCCESS) { failed = 1; snprintf(log, sizeof log, "clEnqueueWriteBuffer(x): %s (%d)", cl_error_name(err), err); break; }
                nin++;
            }
            if (r == 0) {
                err = clEnqueueWriteBuffer(queue, buf_y, CL_FALSE, 0, (size_t)1000 * sizeof(double), orcl_init_y, 0, NULL, &ev_in[nin]);
                if (err != CL_SUCCESS) { failed = 1; snprintf(log, sizeof log, "clEnqueueWriteBuffer(y): %s (%d)", cl_error_name(err), err); break; }
                nin++;
            } else {
                err = pristine_y
                    ? clEnqueueCopyBuffer(queue, pristine_y, buf_y, 0, 0, (size_t)1000 * sizeof(double), 0, NULL, NULL)
                    : clEnqueueWriteBuffer(queue, buf_y, CL_FALSE, 0, (size_t)1000 * sizeof(double), orcl_init_y, 0, NULL, NULL);
                if (err != CL_SUCCESS) { failed = 1; snprintf(log, sizeof log, "resetting y: %s (%d)", cl_error_name(err), err); break; }
            }
            if (r == 0) {
                err = clEnqueueWriteBuffer(queue, buf_z, CL_FALSE, 0, (size_t)1000 * sizeof(double), orcl_init_z, 0, NULL, &ev_in[nin]);
                if (err != CL_SUCCESS) { failed = 1; snprintf(log, sizeof log, "clEnqueueWriteBuffer(z): %s (%d)", cl_error_name(err), err); break; }
                nin++;
            } else {
                err = pristine_z
                    ? clEnqueueCopyBuffer(queue, pristine_z, buf_z, 0, 0, (size_t)1000 * sizeof(double), 0, NULL, NULL)
                    : clEnqueueWriteBuffer(queue, buf_z, CL_FALSE, 0, (size_t)1000 * sizeof(double), orcl_init_z, 0, NULL, NULL);
                if (err != CL_SUCCESS) { failed = 1; snprintf(log, sizeof log, "resetting z: %s (%d)", cl_error_name(err), err); break; }
            }
            err = clEnqueueNDRangeKernel(queue, k, work_dim, NULL, gws, lws, 0, NULL, &ev_k);
            if (err != CL_SUCCESS) { failed = 1; snprintf(log, sizeof log, "clEnqueueNDRangeKernel(global=%zux%zux%zu, local=%zux%zux%zu): %s (%d)", gws[0], gws[1], gws[2], lws[0], lws[1], lws[2], cl_error_name(err), err); }
            if (!failed && r == 0) {
                if (!failed) {
                    err = clEnqueueReadBuffer(queue, buf_y, CL_FALSE, 0, (size_t)1000 * sizeof(double), orcl_v_y, 0, NULL, &ev_out[nout]);
                    if (err != CL_SUCCESS) { failed = 1; snprintf(log, sizeof log, "clEnqueueReadBuffer(y): %s (%d)", cl_error_name(err), err); } else nout++;
                }
                if (!failed) {
                    err = clEnqueueReadBuffer(queue, buf_z, CL_FALSE, 0, (size_t)1000 * sizeof(double), orcl_v_z, 0, NULL, &ev_out[nout]);
                    if (err != CL_SUCCESS) { failed = 1; snprintf(log, sizeof log, "clEnqueueReadBuffer(z): %s (%d)", cl_error_name(err), err); } else nout++;
                }
            }
            if (clFinish(queue) != CL_SUCCESS && !failed) { failed = 1; snprintf(log, sizeof log, "clFinish failed"); }
            if (!failed && ev_k) {
                cl_int st = CL_COMPLETE;
                clGetEventInfo(ev_k, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
                if (st < 0) { failed = 1; snprintf(log, sizeof log, "kernel failed: %s (%d)", cl_error_name(st), st); }
            }
            if (!failed) {
                if (r == 0) {
                    for (int i = 0; i < nin; i++) transfer_ms += event_ms(ev_in[i]);
                    for (int i = 0; i < nout; i++) transfer_ms += event_ms(ev_out[i]);
                }
                if (r >= warmups) ms[nms++] = event_ms(ev_k);
            }
            for (int i = 0; i < nin; i++) clReleaseEvent(ev_in[i]);
            for (int i = 0; i < nout; i++) clReleaseEvent(ev_out[i]);
            if (ev_k) clReleaseEvent(ev_k);
            if (!failed && r == 0) {
                int bad = 0;

                max_error = validate(&bad, log, sizeof log);
                if (bad) {
                    reply(id, "wrong_result", build_ms, NULL, 0, transfer_ms, max_error, log);
                    failed = 2;
                }
            }
        }
        if (failed == 1) reply(id, "launch_error", build_ms, NULL, 0, 0.0, NAN, log);
        else if (!failed) reply(id, "ok", build_ms, ms, nms, transfer_ms, max_error, "");
        free(ms);
    }
    return 0;
}
