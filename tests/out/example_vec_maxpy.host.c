/* ---- host code ---- */
/* orcl: OpenCL host code for the tuned loop of VecMAXPY() (examples/vecMAXPY.c:9).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] N=2000: WI=32 WG=8 CB=False UI=1
 * Returns 0 on success; non-zero if OpenCL fails (the caller then runs the original loop). */
static int orcl_VecMAXPY_region0(int n, double *y, double a0, const double *x0, double a1, const double *x1, double a2, const double *x2, double a3, const double *x3)
{
    static const char *const orcl_source_0 =
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "__kernel void orcl_kernel(const int n, __global double *y, const double a0, __global const double *x0, const double a1, __global const double *x1, const double a2, __global const double *x2, const double a3, __global const double *x3)\n"
        "{\n"
        "    /* iterations of `for (i = 0; i <= n - 1; i++)` */\n"
        "    const long orcl_trip = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;\n"
        "    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {\n"
        "        const int i = (int)orcl_k;\n"
        "        y[i] += a0 * x0[i] + a1 * x1[i] + a2 * x2[i] + a3 * x3[i];\n"
        "    }\n"
        "}\n";
    static const char *orcl_sources[1] = { orcl_source_0 };
    static const char *const orcl_options[1] = { "" };
    static const size_t orcl_local[1] = { 32 };
    /* work-items; 0 = one per iteration, rounded up to a multiple of the local size */
    static const size_t orcl_global[1] = { 256 };
    /* multi-dimensional NDRange: {dimensions, then per dimension: nest loop, iterations and work-items per work-group} */
    static const long orcl_grid[1][10] = { {0, 0, 1, 1, 0, 1, 1, 0, 1, 1} };
    static const cl_uint orcl_platform[1] = { 0 };
    static const cl_uint orcl_device[1] = { 0 };
    static cl_context orcl_ctx[1];
    static cl_command_queue orcl_queue[1];
    static cl_kernel orcl_kernel[1];
    static int orcl_failed[1]; /* its OpenCL set-up failed once: not retried, the caller runs the original loop */
    cl_int orcl_err = CL_SUCCESS;
    int orcl_v = 0;

    if (!orcl_kernel[orcl_v]) {
        if (orcl_failed[orcl_v]) return -1;
        orcl_failed[orcl_v] = 1;
        cl_platform_id orcl_platforms[16];
        cl_uint orcl_nplatforms = 0;
        cl_device_id orcl_devices[64];
        cl_uint orcl_ndevices = 0;
        cl_program orcl_program;
        if (clGetPlatformIDs(16, orcl_platforms, &orcl_nplatforms) != CL_SUCCESS || orcl_platform[orcl_v] >= orcl_nplatforms) return -1;
        if (clGetDeviceIDs(orcl_platforms[orcl_platform[orcl_v]], CL_DEVICE_TYPE_ALL, 64, orcl_devices, &orcl_ndevices) != CL_SUCCESS || orcl_device[orcl_v] >= orcl_ndevices) return -1;
        orcl_ctx[orcl_v] = clCreateContext(NULL, 1, &orcl_devices[orcl_device[orcl_v]], NULL, NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) return -1;
        orcl_queue[orcl_v] = clCreateCommandQueue(orcl_ctx[orcl_v], orcl_devices[orcl_device[orcl_v]], 0, &orcl_err);
        if (orcl_err != CL_SUCCESS) return -1;
        orcl_program = clCreateProgramWithSource(orcl_ctx[orcl_v], 1, &orcl_sources[orcl_v], NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) return -1;
        if (clBuildProgram(orcl_program, 1, &orcl_devices[orcl_device[orcl_v]], orcl_options[orcl_v], NULL, NULL) != CL_SUCCESS) {
            clReleaseProgram(orcl_program);
            return -1;
        }
        orcl_kernel[orcl_v] = clCreateKernel(orcl_program, "orcl_kernel", &orcl_err);
        clReleaseProgram(orcl_program);
        if (orcl_err != CL_SUCCESS) { orcl_kernel[orcl_v] = NULL; return -1; }
        orcl_failed[orcl_v] = 0;
    }
    {
        const long orcl_trip = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
        size_t orcl_lsize = orcl_local[orcl_v];
        size_t orcl_gsize = orcl_global[orcl_v] ? orcl_global[orcl_v] : (size_t)((orcl_trip + (long)orcl_lsize - 1) / (long)orcl_lsize) * orcl_lsize;
        const long orcl_nest_trip[] = { (n - 1) >= 0 ? (long)(n - 1) + 1 : 0 };
        cl_uint orcl_work_dim = 1;
        size_t orcl_gws[3] = {orcl_gsize, 1, 1}, orcl_lws[3] = {orcl_lsize, 1, 1};
        (void)orcl_nest_trip;
        if (orcl_grid[orcl_v][0] > 0) {
            orcl_work_dim = (cl_uint)orcl_grid[orcl_v][0];
            for (long orcl_d = 0; orcl_d < orcl_grid[orcl_v][0]; orcl_d++) {
                long orcl_t = orcl_nest_trip[orcl_grid[orcl_v][1 + 3 * orcl_d]], orcl_per = orcl_grid[orcl_v][2 + 3 * orcl_d];
                orcl_lws[orcl_d] = (size_t)orcl_grid[orcl_v][3 + 3 * orcl_d];
                orcl_gws[orcl_d] = (size_t)(orcl_t > 0 ? (orcl_t + orcl_per - 1) / orcl_per : 1) * orcl_lws[orcl_d];
            }
        }
        cl_mem orcl_buf_y = NULL;
        cl_mem orcl_buf_x0 = NULL;
        cl_mem orcl_buf_x1 = NULL;
        cl_mem orcl_buf_x2 = NULL;
        cl_mem orcl_buf_x3 = NULL;
        int orcl_rc = -1;
        if (orcl_trip <= 0) return 0;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_y = (size_t)(n) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(n) * sizeof(double), (void *)y, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(double), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_x0 = (size_t)(n) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(n) * sizeof(double), (void *)x0, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(double), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_x1 = (size_t)(n) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(n) * sizeof(double), (void *)x1, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(double), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_x2 = (size_t)(n) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(n) * sizeof(double), (void *)x2, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(double), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_x3 = (size_t)(n) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(n) * sizeof(double), (void *)x3, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(double), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 0, sizeof(int), &n);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 1, sizeof(cl_mem), &orcl_buf_y);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 2, sizeof(double), &a0);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 3, sizeof(cl_mem), &orcl_buf_x0);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 4, sizeof(double), &a1);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 5, sizeof(cl_mem), &orcl_buf_x1);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 6, sizeof(double), &a2);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 7, sizeof(cl_mem), &orcl_buf_x2);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 8, sizeof(double), &a3);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 9, sizeof(cl_mem), &orcl_buf_x3);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clEnqueueNDRangeKernel(orcl_queue[orcl_v], orcl_kernel[orcl_v], orcl_work_dim, NULL, orcl_gws, orcl_lws, 0, NULL, NULL);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        if ((size_t)(n) > 0) orcl_err = clEnqueueReadBuffer(orcl_queue[orcl_v], orcl_buf_y, CL_TRUE, 0, (size_t)(n) * sizeof(double), y, 0, NULL, NULL);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_rc = clFinish(orcl_queue[orcl_v]) == CL_SUCCESS ? 0 : -1;
    orcl_done:
        if (orcl_buf_y) clReleaseMemObject(orcl_buf_y);
        if (orcl_buf_x0) clReleaseMemObject(orcl_buf_x0);
        if (orcl_buf_x1) clReleaseMemObject(orcl_buf_x1);
        if (orcl_buf_x2) clReleaseMemObject(orcl_buf_x2);
        if (orcl_buf_x3) clReleaseMemObject(orcl_buf_x3);
        return orcl_rc;
    }
}
