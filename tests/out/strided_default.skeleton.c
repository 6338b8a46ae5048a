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
 * build_ms, kernel_ms (one per timed repetition, from profiling events), transfer_ms (the host<->device
 * copies one call of the tuned code makes, every array in and the written ones out, timed once when
 * the worker starts), max_error, h2d_bytes and d2h_bytes (what answering this request copied between
 * host and device), message. Exits on end of input.
 * Data movement: every array is uploaded once, at start-up; a device copy of each written array (the
 * pristine copy) restores it before every run (device-to-device); the first run of each variant is
 * validated on the device against the reference outputs, uploaded once (skeleton_validate.c.tera), so
 * only the largest error, the first mismatching index and that element come back. */
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
#include <unistd.h>

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

/* The reference outputs once per skeleton binary, not once per worker (issue 24): with
 * ORCL_REFERENCE=PATH (set by orcl), read from PATH when it holds them (exactly the outputs' size),
 * else computed here and written there (under a temporary name, renamed into place). orcl computes
 * them in a process of their own (`SKELETON --reference`) while the workers set up their devices,
 * holding an exclusive flock(2) on ORCL_REFERENCE_LOCK until PATH is written: a worker waits for it
 * (a shared lock), then reads PATH; where that process failed, the worker computes them itself. */
#include <fcntl.h>
#include <sys/file.h>
static void orcl_reference_wait(void) {
    const char *lock = getenv("ORCL_REFERENCE_LOCK");
    int fd = (lock && *lock) ? open(lock, O_RDONLY) : -1;
    if (fd < 0) return;
    /* a signal may interrupt the wait (EINTR): wait again (errno.h's macro would take a user's name) */
    for (int tries = 0; tries < 64 && flock(fd, LOCK_SH) != 0; tries++) {}
    close(fd);
}
static void orcl_reference_once(void) {
    const char *path = getenv("ORCL_REFERENCE");
    orcl_reference_wait();
    long want = 0 + (long)((size_t)1000 * sizeof(double)) + (long)((size_t)1000 * sizeof(double));
    FILE *f = (path && *path) ? fopen(path, "rb") : NULL;
    if (f && fseek(f, 0, SEEK_END) == 0 && ftell(f) == want && fseek(f, 0, SEEK_SET) == 0) {
        int ok = 1;
        ok = ok && fread(orcl_v_y, sizeof(double), (size_t)1000, f) == (size_t)1000;
        ok = ok && fread(orcl_v_z, sizeof(double), (size_t)1000, f) == (size_t)1000;
        fclose(f);
        if (!ok) { printf("{\"ready\":false,\"error\":\"cannot read the reference outputs\"}\n"); exit(3); }
        return;
    }
    if (f) fclose(f);
    orcl_reference();
    if (!path || !*path) return;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *w = fopen(tmp, "wb");
    if (!w) return;
    int ok = 1;
    ok = ok && fwrite(orcl_v_y, sizeof(double), (size_t)1000, w) == (size_t)1000;
    ok = ok && fwrite(orcl_v_z, sizeof(double), (size_t)1000, w) == (size_t)1000;
    ok = (fclose(w) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) remove(tmp);
}

static long orcl_trip_count(void) {
    const int n = orcl_v_n;
    (void)n;
    const double a = orcl_v_a;
    (void)a;
    return (n) > (3) ? ((long)(n) - (long)(3) + 1) / 2 : 0;
}

/* iterations of loop orcl_nd of the perfect nest (0 = the parallel loop), for multi-dimensional NDRanges */
__attribute__((unused)) static long orcl_nest_trip(int orcl_nd) {
    const int n = orcl_v_n;
    (void)n;
    const double a = orcl_v_a;
    (void)a;
    switch (orcl_nd) {
    case 0: return (n) > (3) ? ((long)(n) - (long)(3) + 1) / 2 : 0;
    default: return 0;
    }
}

/* ---- OpenCL state ---- */
static cl_context ctx;
static cl_command_queue queue;
static cl_device_id device;
static cl_mem orcl_buf_x;
static cl_mem orcl_buf_y;
static cl_mem orcl_pristine_y; /* device copy of the initial values: resets are device-to-device copies */
static cl_mem orcl_buf_z;
static cl_mem orcl_pristine_z; /* device copy of the initial values: resets are device-to-device copies */
static cl_mem orcl_dref_y; /* the reference outputs, uploaded once (validation on the device) */
static cl_kernel orcl_cmpk_y;
static cl_mem orcl_dref_z; /* the reference outputs, uploaded once (validation on the device) */
static cl_kernel orcl_cmpk_z;
__attribute__((unused)) static cl_kernel cmp_finish;
__attribute__((unused)) static cl_mem cmp_err, cmp_idx, cmp_res_err, cmp_res_idx; /* per-work-group partials, one result per output */
__attribute__((unused)) static size_t cmp_l; /* work-group size of the comparison kernels */
static int cmp_ok;        /* 1: outputs are validated on the device */
static char cmp_why[512]; /* why not, when not */
static double setup_transfer_ms; /* the copies of one call (every array in, the outputs out), ms, timed at start-up */
static unsigned long long setup_h2d, setup_d2h; /* bytes copied at start-up */
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

#include <poll.h>
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

/* Bytes copied host-to-device and device-to-host while answering the current request (reset per
 * request; reported by reply() as h2d_bytes and d2h_bytes). */
static unsigned long long orcl_h2d_bytes, orcl_d2h_bytes;

static void reply(long id, const char *status, double build_ms, const double *ms, int nms, double transfer_ms, double max_error, const char *msg) {
    printf("{\"id\":%ld,\"status\":\"%s\",\"build_ms\":%.6f,\"kernel_ms\":[", id, status, build_ms);
    for (int i = 0; i < nms; i++) printf("%s%.6f", i ? "," : "", ms[i]);
    printf("],\"transfer_ms\":%.6f,\"max_error\":", transfer_ms);
    if (isfinite(max_error)) printf("%.6e", max_error); else printf("null");
    printf(",\"h2d_bytes\":%llu,\"d2h_bytes\":%llu,\"message\":", orcl_h2d_bytes, orcl_d2h_bytes);
    json_str(msg, 4000);
    printf("}\n");
    fflush(stdout);
}

/* An energy window (an NRG line before the request): set by NRG, taken by the next request. */
static int orcl_energy_next;
/* The energy window's timed calls after the minimum, and the monotonic times (ms) at the minimum
 * and at the end of the last call. */
static long orcl_energy_extra;
static double orcl_energy_t_min, orcl_energy_t_end;

/* Says that the energy window begins (after the warm-ups, device idle) or ends (after STOP),
 * then waits for orcl's GO: orcl reads the device's energy counter at its next update in between
 * (docs/ENERGY.md). `calls`: the timed calls made (the end). */
static void orcl_energy_mark(long id, const char *what, long calls) {
    char go[16];
    printf("{\"energy\":\"%s\",\"id\":%ld,\"calls\":%ld,\"extra\":%ld,\"t_min\":%.6f,\"t_end\":%.6f}\n",
           what, id, calls, orcl_energy_extra, orcl_energy_t_min, orcl_energy_t_end);
    fflush(stdout);
    if (!fgets(go, sizeof go, stdin)) exit(0);
}

/* The timed calls of an energy window to make, `done` made: the minimum `min` first; then it
 * says `min` (with the time) and goes on until orcl's STOP (sent at the energy counter's next
 * update), so that the device is busy up to that update. */
static long orcl_energy_reps(long id, long done, long min, long reps) {
    if (done < min) return reps;
    orcl_energy_t_end = now_ms();
    if (done == min) {
        orcl_energy_extra = 0;
        orcl_energy_t_min = orcl_energy_t_end;
        printf("{\"energy\":\"min\",\"id\":%ld,\"calls\":%ld}\n", id, done);
        fflush(stdout);
        return done + 1;
    }
    orcl_energy_extra = done - min;
    struct pollfd p = {0, POLLIN, 0};
    if (poll(&p, 1, 0) > 0) {
        char stop[16];
        if (!fgets(stop, sizeof stop, stdin)) exit(0);
        return done;
    }
    return done + 1;
}

/* Sent once the kernel of request `id` is built (or loaded, or found in the cache: build_ms 0),
 * before it runs: orcl times the build and the run separately, and the per-variant timeout
 * starts at this line (issue 25, G18). */
static void orcl_built(long id, double build_ms) {
    printf("{\"id\":%ld,\"built_ms\":%.6f}\n", id, build_ms);
    fflush(stdout);
}

static uint64_t fnv1a(const char *a, const char *b) {
    uint64_t h = 1469598103934665603ULL;
    for (; *a; a++) h = (h ^ (unsigned char)*a) * 1099511628211ULL;
    h = (h ^ 0xff) * 1099511628211ULL;
    for (; *b; b++) h = (h ^ (unsigned char)*b) * 1099511628211ULL;
    return h;
}

#ifndef ORCL_SM90A_RETARGET
#define ORCL_SM90A_RETARGET
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* orcl: `wgmma` kernels in NVIDIA's OpenCL (built with -D ORCL_SM90A_PTX; docs/GEMM.md, "wgmma in
 * NVIDIA's OpenCL"). NVIDIA's OpenCL compiler targets sm_90, whose ptxas rejects wgmma, so such a
 * kernel writes each wgmma instruction behind the PTX comment marker "//orcl_sm90a ". The program
 * binary NVIDIA's OpenCL returns is PTX: orcl_sm90a_ptx copies it with ".target sm_90" made
 * ".target sm_90a", the markers and the kernel's entry guard ("trap; //orcl_sm90a_guard", which makes
 * a build that was not retargeted fail at launch) removed (orcl_out: at least strlen(orcl_in) + strlen(orcl_in) / 13 + 1 bytes;
 * returns the length written), and orcl_sm90a_program builds that PTX from binary in place of *orcl_p.
 * A program whose binary holds no marker (another device, another kernel) is left as it is.
 * Returns CL_SUCCESS or the OpenCL error (orcl_log, if not NULL, then holds the build log). */
static size_t orcl_sm90a_ptx(const char *orcl_in, char *orcl_out) {
    size_t orcl_n = 0;
    while (*orcl_in) {
        if (!strncmp(orcl_in, ".target sm_90", 13) && (orcl_in[13] == ',' || orcl_in[13] == '\n' || orcl_in[13] == ' ' || orcl_in[13] == '\r')) {
            memcpy(orcl_out + orcl_n, ".target sm_90a", 14);
            orcl_n += 14;
            orcl_in += 13;
        } else if (!strncmp(orcl_in, "//orcl_sm90a ", 13)) {
            orcl_in += 13;
        } else if (!strncmp(orcl_in, "trap; //orcl_sm90a_guard", 24)) {
            orcl_in += 24;
        } else {
            orcl_out[orcl_n++] = *orcl_in++;
        }
    }
    orcl_out[orcl_n] = 0;
    return orcl_n;
}

static cl_int orcl_sm90a_program(cl_context orcl_ctx, cl_device_id orcl_dev, const char *orcl_opts, cl_program *orcl_p, char *orcl_log, size_t orcl_logsize) {
    size_t orcl_size = 0, orcl_n;
    cl_int orcl_err, orcl_st = CL_SUCCESS;
    char *orcl_bin, *orcl_ptx;
    unsigned char *orcl_bins[1];
    const unsigned char *orcl_text[1];
    cl_program orcl_q;
    if (!orcl_opts || !strstr(orcl_opts, "ORCL_SM90A_PTX")) return CL_SUCCESS;
    if ((orcl_err = clGetProgramInfo(*orcl_p, CL_PROGRAM_BINARY_SIZES, sizeof orcl_size, &orcl_size, NULL)) != CL_SUCCESS) return orcl_err;
    orcl_bin = (char *)malloc(orcl_size + 1);
    orcl_ptx = (char *)malloc(orcl_size + orcl_size / 13 + 2);
    if (!orcl_bin || !orcl_ptx) { free(orcl_bin); free(orcl_ptx); return CL_OUT_OF_HOST_MEMORY; }
    orcl_bins[0] = (unsigned char *)orcl_bin;
    orcl_err = clGetProgramInfo(*orcl_p, CL_PROGRAM_BINARIES, sizeof orcl_bins, orcl_bins, NULL);
    orcl_bin[orcl_size] = 0;
    if (orcl_err != CL_SUCCESS || !strstr(orcl_bin, "//orcl_sm90a ")) { free(orcl_bin); free(orcl_ptx); return orcl_err; }
    orcl_n = orcl_sm90a_ptx(orcl_bin, orcl_ptx);
    orcl_text[0] = (const unsigned char *)orcl_ptx;
    orcl_q = clCreateProgramWithBinary(orcl_ctx, 1, &orcl_dev, &orcl_n, orcl_text, &orcl_st, &orcl_err);
    if (orcl_err == CL_SUCCESS) orcl_err = clBuildProgram(orcl_q, 1, &orcl_dev, orcl_opts, NULL, NULL);
    if (orcl_err != CL_SUCCESS && orcl_log && orcl_logsize > 1) {
        int orcl_w = snprintf(orcl_log, orcl_logsize, "sm_90a retarget of the wgmma PTX: OpenCL error %d (binary status %d)\n", orcl_err, orcl_st);
        if (orcl_q && orcl_w > 0 && (size_t)orcl_w < orcl_logsize) clGetProgramBuildInfo(orcl_q, orcl_dev, CL_PROGRAM_BUILD_LOG, orcl_logsize - (size_t)orcl_w - 1, orcl_log + orcl_w, NULL);
        orcl_log[orcl_logsize - 1] = 0;
    }
    free(orcl_bin);
    free(orcl_ptx);
    if (orcl_err != CL_SUCCESS) {
        if (orcl_q) clReleaseProgram(orcl_q);
        return orcl_err;
    }
    clReleaseProgram(*orcl_p);
    *orcl_p = orcl_q;
    return CL_SUCCESS;
}
#endif

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
    snprintf(log, logsize, "sm_90a retarget of the wgmma PTX failed");
    if (orcl_sm90a_program(ctx, device, opts, &p, log, logsize) != CL_SUCCESS) {
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
    snprintf(log, logsize, "sm_90a retarget of the wgmma PTX failed");
    if (orcl_sm90a_program(ctx, device, opts, &p, log, logsize) != CL_SUCCESS) {
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

#define ORCL_CMP_PRELUDE \
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" \
    "#define ORCL_KERNEL __kernel\n" \
    "#define ORCL_GLOBAL __global\n" \
    "#define ORCL_LOCAL __local\n" \
    "#define ORCL_LID ((long)get_local_id(0))\n" \
    "#define ORCL_GID ((long)get_global_id(0))\n" \
    "#define ORCL_GSIZE ((long)get_global_size(0))\n" \
    "#define ORCL_GROUP ((long)get_group_id(0))\n" \
    "#define ORCL_BARRIER barrier(CLK_LOCAL_MEM_FENCE)\n"
/* ---- validation: the outputs against the reference loop's ----
 * Rule: relative error |got - ref| / max(|ref|, 1e-3 * max|ref|, DBL_MIN), max|ref| over the finite
 * reference values; a NaN or an infinity must match exactly; integers must match exactly (tolerance 0).
 * On the device (the comparison kernels below, one per output array, compiled once per worker): each
 * work-group folds its share of the array into the largest error and the first index over the
 * tolerance, orcl_cmp_finish folds the work-groups' partials into one (error, index) per output, and
 * only those bytes come back, plus the one mismatching element for the message. Where the comparison
 * kernels cannot build or their buffers do not fit, the outputs are read back and compared here on
 * the host (validate_host), by the same rule. Reductions are finished and compared on the host from
 * their per-work-group partials (one value per work-group). */
static double orcl_floor_y; /* 1e-3 * max|reference of y|, at least DBL_MIN */
static double orcl_floor_z; /* 1e-3 * max|reference of z|, at least DBL_MIN */

/* Once, after the reference run: the floors of the relative error. */
static void validation_setup(void) {
    {
        double scale = 0.0;
        for (size_t k = 0; k < (size_t)1000; k++) { double r = fabs((double)orcl_ref_y[k]); if (isfinite(r) && r > scale) scale = r; }
        orcl_floor_y = scale * 1e-3 > DBL_MIN ? scale * 1e-3 : DBL_MIN;
    }
    {
        double scale = 0.0;
        for (size_t k = 0; k < (size_t)1000; k++) { double r = fabs((double)orcl_ref_z[k]); if (isfinite(r) && r > scale) scale = r; }
        orcl_floor_z = scale * 1e-3 > DBL_MIN ? scale * 1e-3 : DBL_MIN;
    }
}

__attribute__((unused)) static double rel_error(double g, double r, double floor_) {
    if (isnan(g) || isnan(r)) return INFINITY;
    if (isinf(g) || isinf(r)) return g == r ? 0.0 : INFINITY;
    return fabs(g - r) / (fabs(r) > floor_ ? fabs(r) : floor_);
}

/* The reductions (finished on the host from the partials): largest error into *worst; the first
 * mismatch sets *bad and the message unless one is already set. */
static void validate_reductions(double *worst, int *bad, char *msg, size_t msgsize) {
    (void)worst; (void)bad; (void)msg; (void)msgsize;
}

/* Compare the outputs read back into orcl_v_* with the reference on the host. Returns the largest
 * relative error; sets *bad and a message at the first mismatch (first output, lowest index). */
__attribute__((unused)) static double validate_host(int *bad, char *msg, size_t msgsize) {
    double worst = 0.0;
    *bad = 0;
    for (size_t k = 0; k < (size_t)1000; k++) {
        double g = (double)orcl_v_y[k], r = (double)orcl_ref_y[k];
        double e = rel_error(g, r, orcl_floor_y);
        if (!(e <= 1e-9) && !*bad) {
            *bad = 1;
            snprintf(msg, msgsize, "y[%zu] = %.17g, expected %.17g (relative error %.3g > tolerance 1e-9)", k, g, r, e);
        }
        if (!(e <= worst)) worst = e;
    }
    for (size_t k = 0; k < (size_t)1000; k++) {
        double g = (double)orcl_v_z[k], r = (double)orcl_ref_z[k];
        double e = rel_error(g, r, orcl_floor_z);
        if (!(e <= 1e-9) && !*bad) {
            *bad = 1;
            snprintf(msg, msgsize, "z[%zu] = %.17g, expected %.17g (relative error %.3g > tolerance 1e-9)", k, g, r, e);
        }
        if (!(e <= worst)) worst = e;
    }
    validate_reductions(&worst, bad, msg, msgsize);
    return worst;
}

/* Element k of output o (in `outputs` order) read back from the device into *g; 0 on success. */
__attribute__((unused)) static int fetch_output(int o, long k, double *g);

/* Validation from the comparison kernels' results: err[o], the largest error of output o, and idx[o],
 * its first index over the tolerance (its element count if none). The first mismatching element is
 * read back (fetch_output) for the message, which reads as validate_host's. */
__attribute__((unused)) static double validate_device(const double *err, const long *idx, int *bad, char *msg, size_t msgsize) {
    double worst = 0.0;
    int o = 0;
    *bad = 0;
    (void)err; (void)idx; (void)o;
    if (!(err[o] <= worst)) worst = err[o];
    if (idx[o] < (long)1000 && !*bad) {
        long k = idx[o];
        double g = NAN, r = (double)orcl_ref_y[k];
        *bad = 1;
        if (fetch_output(o, k, &g) != 0)
            snprintf(msg, msgsize, "y[%ld] differs from the reference %.17g by more than tolerance 1e-9 (the element could not be read back)", k, r);
        else
            snprintf(msg, msgsize, "y[%ld] = %.17g, expected %.17g (relative error %.3g > tolerance 1e-9)", k, g, r, rel_error(g, r, orcl_floor_y));
    }
    o++;
    if (!(err[o] <= worst)) worst = err[o];
    if (idx[o] < (long)1000 && !*bad) {
        long k = idx[o];
        double g = NAN, r = (double)orcl_ref_z[k];
        *bad = 1;
        if (fetch_output(o, k, &g) != 0)
            snprintf(msg, msgsize, "z[%ld] differs from the reference %.17g by more than tolerance 1e-9 (the element could not be read back)", k, r);
        else
            snprintf(msg, msgsize, "z[%ld] = %.17g, expected %.17g (relative error %.3g > tolerance 1e-9)", k, g, r, rel_error(g, r, orcl_floor_z));
    }
    o++;
    validate_reductions(&worst, bad, msg, msgsize);
    return worst;
}

/* The comparison kernels' source (OpenCL C or CUDA C++ through ORCL_CMP_PRELUDE; ORCL_CMP_L, the
 * work-group size, a power of two, is given when it is compiled). orcl_cmp_NAME(got, ref, n, floor,
 * inf, err, idx): per work-group, the largest relative error and the first index over the tolerance
 * (n if none) into err[group], idx[group]; orcl_cmp_finish folds `groups` partials into res_*[slot]
 * (one work-group). Arithmetic as in rel_error(), without library calls. */
__attribute__((unused)) static const char orcl_cmp_source[] = ORCL_CMP_PRELUDE
    "ORCL_KERNEL void orcl_cmp_y(ORCL_GLOBAL const double *got, ORCL_GLOBAL const double *ref, long n, double floor_, double inf,\n"
    "                                      ORCL_GLOBAL double *err, ORCL_GLOBAL long *idx) {\n"
    "    ORCL_LOCAL double le[ORCL_CMP_L];\n"
    "    ORCL_LOCAL long li[ORCL_CMP_L];\n"
    "    long lid = ORCL_LID, first = n;\n"
    "    double worst = 0.0;\n"
    "    for (long k = ORCL_GID; k < n; k += ORCL_GSIZE) {\n"
    "        double g = (double)got[k], r = (double)ref[k], e;\n"
    "        if (g != g || r != r) e = inf;\n"
    "        else if (g == inf || g == -inf || r == inf || r == -inf) e = g == r ? 0.0 : inf;\n"
    "        else { double a = r < 0.0 ? -r : r, d = g - r; e = (d < 0.0 ? -d : d) / (a > floor_ ? a : floor_); }\n"
    "        if (!(e <= 1e-9) && first == n) first = k;\n"
    "        if (!(e <= worst)) worst = e;\n"
    "    }\n"
    "    le[lid] = worst;\n"
    "    li[lid] = first;\n"
    "    ORCL_BARRIER;\n"
    "    for (long w = ORCL_CMP_L / 2; w > 0; w /= 2) {\n"
    "        if (lid < w) {\n"
    "            if (!(le[lid + w] <= le[lid])) le[lid] = le[lid + w];\n"
    "            if (li[lid + w] < li[lid]) li[lid] = li[lid + w];\n"
    "        }\n"
    "        ORCL_BARRIER;\n"
    "    }\n"
    "    if (lid == 0) { err[ORCL_GROUP] = le[0]; idx[ORCL_GROUP] = li[0]; }\n"
    "}\n"
    "ORCL_KERNEL void orcl_cmp_z(ORCL_GLOBAL const double *got, ORCL_GLOBAL const double *ref, long n, double floor_, double inf,\n"
    "                                      ORCL_GLOBAL double *err, ORCL_GLOBAL long *idx) {\n"
    "    ORCL_LOCAL double le[ORCL_CMP_L];\n"
    "    ORCL_LOCAL long li[ORCL_CMP_L];\n"
    "    long lid = ORCL_LID, first = n;\n"
    "    double worst = 0.0;\n"
    "    for (long k = ORCL_GID; k < n; k += ORCL_GSIZE) {\n"
    "        double g = (double)got[k], r = (double)ref[k], e;\n"
    "        if (g != g || r != r) e = inf;\n"
    "        else if (g == inf || g == -inf || r == inf || r == -inf) e = g == r ? 0.0 : inf;\n"
    "        else { double a = r < 0.0 ? -r : r, d = g - r; e = (d < 0.0 ? -d : d) / (a > floor_ ? a : floor_); }\n"
    "        if (!(e <= 1e-9) && first == n) first = k;\n"
    "        if (!(e <= worst)) worst = e;\n"
    "    }\n"
    "    le[lid] = worst;\n"
    "    li[lid] = first;\n"
    "    ORCL_BARRIER;\n"
    "    for (long w = ORCL_CMP_L / 2; w > 0; w /= 2) {\n"
    "        if (lid < w) {\n"
    "            if (!(le[lid + w] <= le[lid])) le[lid] = le[lid + w];\n"
    "            if (li[lid + w] < li[lid]) li[lid] = li[lid + w];\n"
    "        }\n"
    "        ORCL_BARRIER;\n"
    "    }\n"
    "    if (lid == 0) { err[ORCL_GROUP] = le[0]; idx[ORCL_GROUP] = li[0]; }\n"
    "}\n"
    "ORCL_KERNEL void orcl_cmp_finish(ORCL_GLOBAL const double *err, ORCL_GLOBAL const long *idx, long groups,\n"
    "                                 ORCL_GLOBAL double *res_err, ORCL_GLOBAL long *res_idx, long slot) {\n"
    "    ORCL_LOCAL double le[ORCL_CMP_L];\n"
    "    ORCL_LOCAL long li[ORCL_CMP_L];\n"
    "    long lid = ORCL_LID, first = idx[0];\n"
    "    double worst = 0.0;\n"
    "    for (long g = lid; g < groups; g += ORCL_CMP_L) {\n"
    "        if (!(err[g] <= worst)) worst = err[g];\n"
    "        if (idx[g] < first) first = idx[g];\n"
    "    }\n"
    "    le[lid] = worst;\n"
    "    li[lid] = first;\n"
    "    ORCL_BARRIER;\n"
    "    for (long w = ORCL_CMP_L / 2; w > 0; w /= 2) {\n"
    "        if (lid < w) {\n"
    "            if (!(le[lid + w] <= le[lid])) le[lid] = le[lid + w];\n"
    "            if (li[lid + w] < li[lid]) li[lid] = li[lid + w];\n"
    "        }\n"
    "        ORCL_BARRIER;\n"
    "    }\n"
    "    if (lid == 0) { res_err[slot] = le[0]; res_idx[slot] = li[0]; }\n"
    "}\n";

/* Work-groups of a comparison kernel over n elements with work-groups of l: enough for the device
 * to stream the arrays, at most ORCL_CMP_GROUPS (the partial buffers' length). */
#define ORCL_CMP_GROUPS 1024
__attribute__((unused)) static size_t cmp_groups(size_t n, size_t l) {
    size_t g = (n + l - 1) / l;
    return g < 1 ? 1 : g > ORCL_CMP_GROUPS ? ORCL_CMP_GROUPS : g;
}

static int fetch_output(int o, long k, double *g) {
    (void)k;
    (void)g;
    switch (o) {
    case 0: {
        double v;
        if (clEnqueueReadBuffer(queue, orcl_buf_y, CL_TRUE, (size_t)k * sizeof v, sizeof v, &v, 0, NULL, NULL) != CL_SUCCESS) return -1;
        orcl_d2h_bytes += sizeof v;
        *g = (double)v;
        return 0;
    }
    case 1: {
        double v;
        if (clEnqueueReadBuffer(queue, orcl_buf_z, CL_TRUE, (size_t)k * sizeof v, sizeof v, &v, 0, NULL, NULL) != CL_SUCCESS) return -1;
        orcl_d2h_bytes += sizeof v;
        *g = (double)v;
        return 0;
    }
    default: return -1;
    }
}

/* Build the comparison kernels and upload the reference outputs (once). On failure cmp_ok stays 0,
 * cmp_why says why, and validation reads the outputs back to the host instead. */
static void cmp_setup(void) {
    cl_int err;
    size_t maxwg = 0, kwg = 0;
    char opts[64];
    clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxwg, &maxwg, NULL);
    for (cmp_l = 256; cmp_l > 1 && cmp_l > maxwg; cmp_l /= 2) { }
    snprintf(opts, sizeof opts, "-DORCL_CMP_L=%zu", cmp_l);
    const char *src = orcl_cmp_source;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (err != CL_SUCCESS) { snprintf(cmp_why, sizeof cmp_why, "comparison kernels: clCreateProgramWithSource: %s (%d)", cl_error_name(err), err); return; }
    if ((err = clBuildProgram(p, 1, &device, opts, NULL, NULL)) != CL_SUCCESS) {
        int w = snprintf(cmp_why, sizeof cmp_why, "comparison kernels: clBuildProgram: %s (%d): ", cl_error_name(err), err);
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof cmp_why - (size_t)w - 1, cmp_why + w, NULL);
        cmp_why[sizeof cmp_why - 1] = 0;
        return;
    }
    orcl_cmpk_y = clCreateKernel(p, "orcl_cmp_y", &err);
    if (err != CL_SUCCESS) { snprintf(cmp_why, sizeof cmp_why, "comparison kernels: clCreateKernel: %s (%d)", cl_error_name(err), err); return; }
    if (clGetKernelWorkGroupInfo(orcl_cmpk_y, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg, NULL) == CL_SUCCESS && kwg < cmp_l) { snprintf(cmp_why, sizeof cmp_why, "comparison kernels: work-groups of %zu work-items, the device allows %zu", cmp_l, kwg); return; }
    orcl_cmpk_z = clCreateKernel(p, "orcl_cmp_z", &err);
    if (err != CL_SUCCESS) { snprintf(cmp_why, sizeof cmp_why, "comparison kernels: clCreateKernel: %s (%d)", cl_error_name(err), err); return; }
    if (clGetKernelWorkGroupInfo(orcl_cmpk_z, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg, NULL) == CL_SUCCESS && kwg < cmp_l) { snprintf(cmp_why, sizeof cmp_why, "comparison kernels: work-groups of %zu work-items, the device allows %zu", cmp_l, kwg); return; }
    cmp_finish = clCreateKernel(p, "orcl_cmp_finish", &err);
    if (err != CL_SUCCESS) { snprintf(cmp_why, sizeof cmp_why, "comparison kernels: clCreateKernel: %s (%d)", cl_error_name(err), err); return; }
    if (clGetKernelWorkGroupInfo(cmp_finish, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg, NULL) == CL_SUCCESS && kwg < cmp_l) { snprintf(cmp_why, sizeof cmp_why, "comparison kernels: work-groups of %zu work-items, the device allows %zu", cmp_l, kwg); return; }
    cmp_err = clCreateBuffer(ctx, CL_MEM_READ_WRITE, ORCL_CMP_GROUPS * sizeof(cl_double), NULL, &err);
    if (err == CL_SUCCESS) cmp_idx = clCreateBuffer(ctx, CL_MEM_READ_WRITE, ORCL_CMP_GROUPS * sizeof(cl_long), NULL, &err);
    if (err == CL_SUCCESS) cmp_res_err = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * sizeof(cl_double), NULL, &err);
    if (err == CL_SUCCESS) cmp_res_idx = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * sizeof(cl_long), NULL, &err);
    if (err != CL_SUCCESS) { snprintf(cmp_why, sizeof cmp_why, "comparison kernels: clCreateBuffer: %s (%d)", cl_error_name(err), err); return; }
    orcl_dref_y = clCreateBuffer(ctx, CL_MEM_READ_ONLY, (size_t)1000 * sizeof(double), NULL, &err);
    if (err == CL_SUCCESS) err = clEnqueueWriteBuffer(queue, orcl_dref_y, CL_TRUE, 0, (size_t)1000 * sizeof(double), orcl_ref_y, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        snprintf(cmp_why, sizeof cmp_why, "no room on the device for the reference copy of y: %s (%d)", cl_error_name(err), err);
        if (orcl_dref_y) { clReleaseMemObject(orcl_dref_y); orcl_dref_y = NULL; }
        if (orcl_dref_z) { clReleaseMemObject(orcl_dref_z); orcl_dref_z = NULL; }
        return;
    }
    setup_h2d += (size_t)1000 * sizeof(double);
    orcl_dref_z = clCreateBuffer(ctx, CL_MEM_READ_ONLY, (size_t)1000 * sizeof(double), NULL, &err);
    if (err == CL_SUCCESS) err = clEnqueueWriteBuffer(queue, orcl_dref_z, CL_TRUE, 0, (size_t)1000 * sizeof(double), orcl_ref_z, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        snprintf(cmp_why, sizeof cmp_why, "no room on the device for the reference copy of z: %s (%d)", cl_error_name(err), err);
        if (orcl_dref_y) { clReleaseMemObject(orcl_dref_y); orcl_dref_y = NULL; }
        if (orcl_dref_z) { clReleaseMemObject(orcl_dref_z); orcl_dref_z = NULL; }
        return;
    }
    setup_h2d += (size_t)1000 * sizeof(double);
    cmp_ok = 1;
}

/* Upload every array (and the pristine copies) from the host again: after a wrong result, in case an
 * earlier variant overwrote an array it only reads (out of bounds). */
static cl_int restore_inputs(void) {
    cl_int err = CL_SUCCESS;
    if (err == CL_SUCCESS) { err = clEnqueueWriteBuffer(queue, orcl_buf_x, CL_TRUE, 0, (size_t)1000 * sizeof(double), orcl_init_x, 0, NULL, NULL); orcl_h2d_bytes += (size_t)1000 * sizeof(double); }
    if (err == CL_SUCCESS) { err = clEnqueueWriteBuffer(queue, orcl_buf_y, CL_TRUE, 0, (size_t)1000 * sizeof(double), orcl_init_y, 0, NULL, NULL); orcl_h2d_bytes += (size_t)1000 * sizeof(double); }
    if (err == CL_SUCCESS && orcl_pristine_y) { err = clEnqueueWriteBuffer(queue, orcl_pristine_y, CL_TRUE, 0, (size_t)1000 * sizeof(double), orcl_init_y, 0, NULL, NULL); orcl_h2d_bytes += (size_t)1000 * sizeof(double); }
    if (err == CL_SUCCESS) { err = clEnqueueWriteBuffer(queue, orcl_buf_z, CL_TRUE, 0, (size_t)1000 * sizeof(double), orcl_init_z, 0, NULL, NULL); orcl_h2d_bytes += (size_t)1000 * sizeof(double); }
    if (err == CL_SUCCESS && orcl_pristine_z) { err = clEnqueueWriteBuffer(queue, orcl_pristine_z, CL_TRUE, 0, (size_t)1000 * sizeof(double), orcl_init_z, 0, NULL, NULL); orcl_h2d_bytes += (size_t)1000 * sizeof(double); }
    return err;
}

int main(int argc, char **argv) {
    cl_uint pi = argc > 1 ? (cl_uint)atoi(argv[1]) : 0, di = argc > 2 ? (cl_uint)atoi(argv[2]) : 0;
    cl_platform_id platforms[16];
    cl_device_id devices[64];
    cl_uint np = 0, nd = 0;
    cl_int err;
    char name[256] = "", pname[256] = "";

    orcl_init();
    /* `SKELETON --reference`: only the reference outputs, written to ORCL_REFERENCE (orcl runs this
       while the workers set up their devices) */
    if (argc > 1 && !strcmp(argv[1], "--reference")) { orcl_reference_once(); return 0; }

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
    /* Every array once, host-to-device (timed: the copies in of one call); a pristine device copy of
       each written array (device-to-device; where it does not fit, resets come from the host). */
    double t_in = 0.0, t_out = 0.0;
    orcl_buf_x = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)1000 * sizeof(double), NULL, &err);
    if (err != CL_SUCCESS) { printf("{\"ready\":false,\"error\":\"clCreateBuffer(x): %s\"}\n", cl_error_name(err)); return 3; }
    {
        cl_event ev = NULL;
        err = clEnqueueWriteBuffer(queue, orcl_buf_x, CL_TRUE, 0, (size_t)1000 * sizeof(double), orcl_init_x, 0, NULL, &ev);
        if (err != CL_SUCCESS) { printf("{\"ready\":false,\"error\":\"uploading x: %s\"}\n", cl_error_name(err)); return 3; }
        t_in += event_ms(ev);
        clReleaseEvent(ev);
        setup_h2d += (size_t)1000 * sizeof(double);
    }
    orcl_buf_y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)1000 * sizeof(double), NULL, &err);
    if (err != CL_SUCCESS) { printf("{\"ready\":false,\"error\":\"clCreateBuffer(y): %s\"}\n", cl_error_name(err)); return 3; }
    {
        cl_event ev = NULL;
        err = clEnqueueWriteBuffer(queue, orcl_buf_y, CL_TRUE, 0, (size_t)1000 * sizeof(double), orcl_init_y, 0, NULL, &ev);
        if (err != CL_SUCCESS) { printf("{\"ready\":false,\"error\":\"uploading y: %s\"}\n", cl_error_name(err)); return 3; }
        t_in += event_ms(ev);
        clReleaseEvent(ev);
        setup_h2d += (size_t)1000 * sizeof(double);
    }
    orcl_pristine_y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)1000 * sizeof(double), NULL, &err);
    if (err != CL_SUCCESS) orcl_pristine_y = NULL;
    else if (clEnqueueCopyBuffer(queue, orcl_buf_y, orcl_pristine_y, 0, 0, (size_t)1000 * sizeof(double), 0, NULL, NULL) != CL_SUCCESS || clFinish(queue) != CL_SUCCESS) {
        clReleaseMemObject(orcl_pristine_y);
        orcl_pristine_y = NULL; /* no room: reset from the host instead */
    }
    orcl_buf_z = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)1000 * sizeof(double), NULL, &err);
    if (err != CL_SUCCESS) { printf("{\"ready\":false,\"error\":\"clCreateBuffer(z): %s\"}\n", cl_error_name(err)); return 3; }
    {
        cl_event ev = NULL;
        err = clEnqueueWriteBuffer(queue, orcl_buf_z, CL_TRUE, 0, (size_t)1000 * sizeof(double), orcl_init_z, 0, NULL, &ev);
        if (err != CL_SUCCESS) { printf("{\"ready\":false,\"error\":\"uploading z: %s\"}\n", cl_error_name(err)); return 3; }
        t_in += event_ms(ev);
        clReleaseEvent(ev);
        setup_h2d += (size_t)1000 * sizeof(double);
    }
    orcl_pristine_z = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)1000 * sizeof(double), NULL, &err);
    if (err != CL_SUCCESS) orcl_pristine_z = NULL;
    else if (clEnqueueCopyBuffer(queue, orcl_buf_z, orcl_pristine_z, 0, 0, (size_t)1000 * sizeof(double), 0, NULL, NULL) != CL_SUCCESS || clFinish(queue) != CL_SUCCESS) {
        clReleaseMemObject(orcl_pristine_z);
        orcl_pristine_z = NULL; /* no room: reset from the host instead */
    }
    /* the copies out of one call, timed once: every written array device-to-host */
    {
        cl_event ev = NULL;
        if (clEnqueueReadBuffer(queue, orcl_buf_y, CL_TRUE, 0, (size_t)1000 * sizeof(double), orcl_v_y, 0, NULL, &ev) == CL_SUCCESS) {
            t_out += event_ms(ev);
            clReleaseEvent(ev);
            setup_d2h += (size_t)1000 * sizeof(double);
        }
    }
    {
        cl_event ev = NULL;
        if (clEnqueueReadBuffer(queue, orcl_buf_z, CL_TRUE, 0, (size_t)1000 * sizeof(double), orcl_v_z, 0, NULL, &ev) == CL_SUCCESS) {
            t_out += event_ms(ev);
            clReleaseEvent(ev);
            setup_d2h += (size_t)1000 * sizeof(double);
        }
    }
    setup_transfer_ms = t_in + t_out;
    /* The reference outputs, after the device set-up (it overlaps orcl's reference process): from
       the initial values of the outputs (the read-back above left the device's copy there). */
    memcpy(orcl_v_y, orcl_init_y, (size_t)1000 * sizeof(double));
    memcpy(orcl_v_z, orcl_init_z, (size_t)1000 * sizeof(double));
    orcl_reference_once();
    memcpy(orcl_ref_y, orcl_v_y, (size_t)1000 * sizeof(double));
    memcpy(orcl_ref_z, orcl_v_z, (size_t)1000 * sizeof(double));
    validation_setup();
    /* ORCL_HOST_VALIDATION=1: compare on the host, as where the comparison kernels cannot run (tests, diagnosis) */
    if (getenv("ORCL_HOST_VALIDATION") && *getenv("ORCL_HOST_VALIDATION") && strcmp(getenv("ORCL_HOST_VALIDATION"), "0"))
        snprintf(cmp_why, sizeof cmp_why, "ORCL_HOST_VALIDATION is set");
    else
        cmp_setup();
    printf("{\"ready\":true,\"platform\":");
    json_str(pname, 255);
    printf(",\"device\":");
    json_str(name, 255);
    printf(",\"trip\":%ld,\"validation\":\"%s\",\"validation_note\":", orcl_trip_count(), cmp_ok ? "device" : "host");
    json_str(cmp_why, sizeof cmp_why);
    printf(",\"setup_h2d_bytes\":%llu,\"setup_d2h_bytes\":%llu,\"transfer_ms\":%.6f}\n", setup_h2d, setup_d2h, setup_transfer_ms);
    fflush(stdout);

    char line[512];
    static char log[16384];
    while (fgets(line, sizeof line, stdin)) {
        long id = 0, gx = 0, lx = 0, srclen = 0, binlen = 0, optlen = 0, warmups = 0, reps = 0;
        long nd = 0, g[9] = {0, 1, 1, 0, 1, 1, 0, 1, 1};
        if (!strncmp(line, "QUIT", 4)) break;
        /* NRG: the next request's timed repetitions are an energy window (orcl reads the device's energy counter at its ends) */
        if (!strncmp(line, "NRG", 3)) { orcl_energy_next = 1; continue; }
        /* an energy window's STOP or GO that came after its variant failed */
        if (!strncmp(line, "STOP", 4) || !strncmp(line, "GO", 2)) continue;
        int orcl_energy = orcl_energy_next;
        orcl_energy_next = 0;
        orcl_h2d_bytes = orcl_d2h_bytes = 0;
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
        orcl_built(id, build_ms);
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
        if (err == CL_SUCCESS) err = clSetKernelArg(k, argi++, sizeof(cl_mem), &orcl_buf_x);
        if (err == CL_SUCCESS) err = clSetKernelArg(k, argi++, sizeof(cl_mem), &orcl_buf_y);
        if (err == CL_SUCCESS) err = clSetKernelArg(k, argi++, sizeof(double), &orcl_v_a);
        if (err == CL_SUCCESS) err = clSetKernelArg(k, argi++, sizeof(cl_mem), &orcl_buf_z);
        if (err != CL_SUCCESS) { snprintf(log, sizeof log, "clSetKernelArg: %s (%d)", cl_error_name(err), err); reply(id, "launch_error", build_ms, NULL, 0, 0.0, NAN, log); continue; }

        double *ms = malloc(sizeof(double) * (size_t)reps);
        double max_error = 0.0;
        double res_err[2 + 1] = {0};
        long res_idx[2 + 1] = {0};
        int nms = 0, failed = 0, retried = 0;
        long orcl_reps0 = reps; /* an energy window may make more timed calls; the first reps are timed */
        for (long r = 0; r < warmups + reps && !failed; r++) {
            cl_event ev_k = NULL;
            if (orcl_energy && r == warmups) orcl_energy_mark(id, "begin", 0);
            int host_check = !cmp_ok;
            /* reset the written arrays: device-to-device from the pristine copies (from the host where none fitted) */
            if (orcl_pristine_y) err = clEnqueueCopyBuffer(queue, orcl_pristine_y, orcl_buf_y, 0, 0, (size_t)1000 * sizeof(double), 0, NULL, NULL);
            else {
                err = clEnqueueWriteBuffer(queue, orcl_buf_y, CL_FALSE, 0, (size_t)1000 * sizeof(double), orcl_init_y, 0, NULL, NULL);
                orcl_h2d_bytes += (size_t)1000 * sizeof(double);
            }
            if (err != CL_SUCCESS) { failed = 1; snprintf(log, sizeof log, "resetting y: %s (%d)", cl_error_name(err), err); break; }
            if (orcl_pristine_z) err = clEnqueueCopyBuffer(queue, orcl_pristine_z, orcl_buf_z, 0, 0, (size_t)1000 * sizeof(double), 0, NULL, NULL);
            else {
                err = clEnqueueWriteBuffer(queue, orcl_buf_z, CL_FALSE, 0, (size_t)1000 * sizeof(double), orcl_init_z, 0, NULL, NULL);
                orcl_h2d_bytes += (size_t)1000 * sizeof(double);
            }
            if (err != CL_SUCCESS) { failed = 1; snprintf(log, sizeof log, "resetting z: %s (%d)", cl_error_name(err), err); break; }
            err = clEnqueueNDRangeKernel(queue, k, work_dim, NULL, gws, lws, 0, NULL, &ev_k);
            if (err != CL_SUCCESS) { failed = 1; snprintf(log, sizeof log, "clEnqueueNDRangeKernel(global=%zux%zux%zu, local=%zux%zux%zu): %s (%d)", gws[0], gws[1], gws[2], lws[0], lws[1], lws[2], cl_error_name(err), err); }
            if (!failed && r == 0) {
                /* the validation run: the reductions' partials come back; the outputs are compared on the device */
                if (!failed && !host_check) {
                    cl_long slot_c = 0;
                    cl_double inf = INFINITY;
                    {
                        cl_long n = (cl_long)1000, ng = (cl_long)cmp_groups((size_t)1000, cmp_l);
                        cl_double floor_ = orcl_floor_y;
                        size_t gl = (size_t)ng * cmp_l;
                        cl_int e2 = clSetKernelArg(orcl_cmpk_y, 0, sizeof(cl_mem), &orcl_buf_y);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(orcl_cmpk_y, 1, sizeof(cl_mem), &orcl_dref_y);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(orcl_cmpk_y, 2, sizeof n, &n);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(orcl_cmpk_y, 3, sizeof floor_, &floor_);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(orcl_cmpk_y, 4, sizeof inf, &inf);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(orcl_cmpk_y, 5, sizeof(cl_mem), &cmp_err);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(orcl_cmpk_y, 6, sizeof(cl_mem), &cmp_idx);
                        if (e2 == CL_SUCCESS) e2 = clEnqueueNDRangeKernel(queue, orcl_cmpk_y, 1, NULL, &gl, &cmp_l, 0, NULL, NULL);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(cmp_finish, 0, sizeof(cl_mem), &cmp_err);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(cmp_finish, 1, sizeof(cl_mem), &cmp_idx);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(cmp_finish, 2, sizeof ng, &ng);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(cmp_finish, 3, sizeof(cl_mem), &cmp_res_err);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(cmp_finish, 4, sizeof(cl_mem), &cmp_res_idx);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(cmp_finish, 5, sizeof slot_c, &slot_c);
                        if (e2 == CL_SUCCESS) e2 = clEnqueueNDRangeKernel(queue, cmp_finish, 1, NULL, &cmp_l, &cmp_l, 0, NULL, NULL);
                        if (e2 != CL_SUCCESS) host_check = 1; /* compare on the host this time */
                        slot_c++;
                    }
                    {
                        cl_long n = (cl_long)1000, ng = (cl_long)cmp_groups((size_t)1000, cmp_l);
                        cl_double floor_ = orcl_floor_z;
                        size_t gl = (size_t)ng * cmp_l;
                        cl_int e2 = clSetKernelArg(orcl_cmpk_z, 0, sizeof(cl_mem), &orcl_buf_z);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(orcl_cmpk_z, 1, sizeof(cl_mem), &orcl_dref_z);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(orcl_cmpk_z, 2, sizeof n, &n);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(orcl_cmpk_z, 3, sizeof floor_, &floor_);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(orcl_cmpk_z, 4, sizeof inf, &inf);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(orcl_cmpk_z, 5, sizeof(cl_mem), &cmp_err);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(orcl_cmpk_z, 6, sizeof(cl_mem), &cmp_idx);
                        if (e2 == CL_SUCCESS) e2 = clEnqueueNDRangeKernel(queue, orcl_cmpk_z, 1, NULL, &gl, &cmp_l, 0, NULL, NULL);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(cmp_finish, 0, sizeof(cl_mem), &cmp_err);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(cmp_finish, 1, sizeof(cl_mem), &cmp_idx);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(cmp_finish, 2, sizeof ng, &ng);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(cmp_finish, 3, sizeof(cl_mem), &cmp_res_err);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(cmp_finish, 4, sizeof(cl_mem), &cmp_res_idx);
                        if (e2 == CL_SUCCESS) e2 = clSetKernelArg(cmp_finish, 5, sizeof slot_c, &slot_c);
                        if (e2 == CL_SUCCESS) e2 = clEnqueueNDRangeKernel(queue, cmp_finish, 1, NULL, &cmp_l, &cmp_l, 0, NULL, NULL);
                        if (e2 != CL_SUCCESS) host_check = 1; /* compare on the host this time */
                        slot_c++;
                    }
                    if (!host_check
                        && (clEnqueueReadBuffer(queue, cmp_res_err, CL_FALSE, 0, 2 * sizeof(cl_double), res_err, 0, NULL, NULL) != CL_SUCCESS
                            || clEnqueueReadBuffer(queue, cmp_res_idx, CL_FALSE, 0, 2 * sizeof(cl_long), res_idx, 0, NULL, NULL) != CL_SUCCESS))
                        host_check = 1;
                    if (!host_check) orcl_d2h_bytes += 2 * (sizeof(cl_double) + sizeof(cl_long));
                }
                if (!failed && host_check) {
                    /* no comparison kernels: the outputs come back whole */
                    if (!failed) {
                        err = clEnqueueReadBuffer(queue, orcl_buf_y, CL_FALSE, 0, (size_t)1000 * sizeof(double), orcl_v_y, 0, NULL, NULL);
                        if (err != CL_SUCCESS) { failed = 1; snprintf(log, sizeof log, "clEnqueueReadBuffer(y): %s (%d)", cl_error_name(err), err); } else orcl_d2h_bytes += (size_t)1000 * sizeof(double);
                    }
                    if (!failed) {
                        err = clEnqueueReadBuffer(queue, orcl_buf_z, CL_FALSE, 0, (size_t)1000 * sizeof(double), orcl_v_z, 0, NULL, NULL);
                        if (err != CL_SUCCESS) { failed = 1; snprintf(log, sizeof log, "clEnqueueReadBuffer(z): %s (%d)", cl_error_name(err), err); } else orcl_d2h_bytes += (size_t)1000 * sizeof(double);
                    }
                }
            }
            if (clFinish(queue) != CL_SUCCESS && !failed) { failed = 1; snprintf(log, sizeof log, "clFinish failed"); }
            if (!failed && ev_k) {
                cl_int st = CL_COMPLETE;
                clGetEventInfo(ev_k, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
                if (st < 0) { failed = 1; snprintf(log, sizeof log, "kernel failed: %s (%d)", cl_error_name(st), st); }
            }
            if (!failed && r >= warmups && nms < orcl_reps0) ms[nms++] = event_ms(ev_k);
            if (ev_k) clReleaseEvent(ev_k);
            if (!failed && r == 0) {
                int bad = 0;

                max_error = host_check ? validate_host(&bad, log, sizeof log) : validate_device(res_err, res_idx, &bad, log, sizeof log);
                if (bad && !retried) {
                    /* once: every array uploaded again, in case an earlier variant wrote into one it only reads */
                    retried = 1;
                    nms = 0;
                    if ((err = restore_inputs()) != CL_SUCCESS) { failed = 1; snprintf(log, sizeof log, "uploading the inputs again: %s (%d)", cl_error_name(err), err); break; }
                    r = -1;
                    continue;
                }
                if (bad) {
                    reply(id, "wrong_result", build_ms, NULL, 0, setup_transfer_ms, max_error, log);
                    failed = 2;
                }
            }
            if (orcl_energy && !failed && r >= warmups) reps = orcl_energy_reps(id, r + 1 - warmups, orcl_reps0, reps);
        }
        if (orcl_energy && !failed) orcl_energy_mark(id, "end", reps);
        if (failed == 1) reply(id, "launch_error", build_ms, NULL, 0, 0.0, NAN, log);
        else if (!failed) reply(id, "ok", build_ms, ms, nms, setup_transfer_ms, max_error, "");
        free(ms);
    }
    return 0;
}
