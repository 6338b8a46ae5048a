/* ---- host code ---- */
/* orcl: OpenCL host code for the tuned loop of Rows() (tests/inputs/ok/rows2d.c:9).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] M=50 N=17: WI=8 WG=2
 * Returns 0 on success; non-zero if OpenCL fails (the caller then runs the original loop). */
static int orcl_Rows_region0(int m, double *C, int n, const double *A, long orcl_A_dim1, int nc, double *B, long orcl_B_dim1)
{
    static const char *const orcl_source_0 =
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "__kernel void orcl_kernel(const int m, __global double *C, const int n, __global const double *A, const long orcl_A_dim1, const int nc, __global double *B, const long orcl_B_dim1)\n"
        "{\n"
        "    /* iterations of `for (i = 2; i <= m - 1; i++)` */\n"
        "    const long orcl_trip = (m - 1) >= (2) ? ((long)(m - 1) - (long)(2)) / 1 + 1 : 0;\n"
        "    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {\n"
        "        const int i = (int)((2) + orcl_k);\n"
        "        C[i * n] = A[(i - 2) * orcl_A_dim1];\n"
        "        for (int j = 1; j <= n - 1; j++) {\n"
        "            C[i * n + j] = C[i * n + (j - 1)] + A[(i - 2) * orcl_A_dim1 + j] * A[i * orcl_A_dim1 + j];\n"
        "        }\n"
        "        for (int j = 0; j < nc; j++) {\n"
        "            B[i * orcl_B_dim1 + j] = 0.5 * B[i * orcl_B_dim1 + j] + C[i * n + j % n];\n"
        "        }\n"
        "    }\n"
        "}\n";
    static const char *orcl_sources[1] = { orcl_source_0 };
    static const char *const orcl_options[1] = { "" };
    static const size_t orcl_local[1] = { 8 };
    /* work-items; 0 = one per iteration, rounded up to a multiple of the local size */
    static const size_t orcl_global[1] = { 16 };
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
        const long orcl_trip = (m - 1) >= (2) ? ((long)(m - 1) - (long)(2)) / 1 + 1 : 0;
        size_t orcl_lsize = orcl_local[orcl_v];
        size_t orcl_gsize = orcl_global[orcl_v] ? orcl_global[orcl_v] : (size_t)((orcl_trip + (long)orcl_lsize - 1) / (long)orcl_lsize) * orcl_lsize;
        const long orcl_nest_trip[] = { (m - 1) >= (2) ? ((long)(m - 1) - (long)(2)) / 1 + 1 : 0 };
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
        cl_mem orcl_buf_C = NULL;
        cl_mem orcl_buf_A = NULL;
        cl_mem orcl_buf_B = NULL;
        int orcl_rc = -1;
        if (orcl_trip <= 0) return 0;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_C = (size_t)((long)m * n) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)((long)m * n) * sizeof(double), (void *)C, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(double), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_A = (size_t)((long)m * orcl_A_dim1) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)((long)m * orcl_A_dim1) * sizeof(double), (void *)A, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(double), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_B = (size_t)((long)m * orcl_B_dim1) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)((long)m * orcl_B_dim1) * sizeof(double), (void *)B, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(double), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 0, sizeof(int), &m);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 1, sizeof(cl_mem), &orcl_buf_C);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 2, sizeof(int), &n);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 3, sizeof(cl_mem), &orcl_buf_A);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 4, sizeof(long), &orcl_A_dim1);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 5, sizeof(int), &nc);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 6, sizeof(cl_mem), &orcl_buf_B);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 7, sizeof(long), &orcl_B_dim1);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clEnqueueNDRangeKernel(orcl_queue[orcl_v], orcl_kernel[orcl_v], orcl_work_dim, NULL, orcl_gws, orcl_lws, 0, NULL, NULL);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        if ((size_t)((long)m * n) > 0) orcl_err = clEnqueueReadBuffer(orcl_queue[orcl_v], orcl_buf_C, CL_TRUE, 0, (size_t)((long)m * n) * sizeof(double), C, 0, NULL, NULL);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        if ((size_t)((long)m * orcl_B_dim1) > 0) orcl_err = clEnqueueReadBuffer(orcl_queue[orcl_v], orcl_buf_B, CL_TRUE, 0, (size_t)((long)m * orcl_B_dim1) * sizeof(double), B, 0, NULL, NULL);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_rc = clFinish(orcl_queue[orcl_v]) == CL_SUCCESS ? 0 : -1;
    orcl_done:
        if (orcl_buf_C) clReleaseMemObject(orcl_buf_C);
        if (orcl_buf_A) clReleaseMemObject(orcl_buf_A);
        if (orcl_buf_B) clReleaseMemObject(orcl_buf_B);
        return orcl_rc;
    }
}
