/* ---- host code ---- */
/* orcl: OpenCL host code for the tuned loop of MatVec2D() (examples/matVec_2d.c:9).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] M=37 N=29: TI=4 TJ=8 UI=4
 * Returns 0 on success; non-zero if OpenCL fails (the caller then runs the original loop). */
static int orcl_MatVec2D_region0(int m, int n, float *y, const float *A, const float *x)
{
    static const char *const orcl_source_0 =
        "__kernel void orcl_kernel(const int m, const int n, __global float *restrict y, __global const float *restrict A, __global const float *restrict x)\n"
        "{\n"
        "    const long orcl_g1 = (long)get_group_id(1);\n"
        "    const long orcl_l0 = (long)get_local_id(0);\n"
        "    const long orcl_l1 = (long)get_local_id(1);\n"
        "    __local float orcl_part[4][8];\n"
        "    const int i = (int)(orcl_g1 * 4 + orcl_l1);\n"
        "    float orcl_acc = (float)0;\n"
        "    if (i <= m - 1) {\n"
        "        #pragma unroll 4\n"
        "        for (int j = (int)orcl_l0; j <= n - 1; j += 8) {\n"
        "            orcl_acc += A[i * n + j] * x[j];\n"
        "        }\n"
        "    }\n"
        "    orcl_part[orcl_l1][orcl_l0] = orcl_acc;\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    if (orcl_l0 < 4) {\n"
        "        orcl_part[orcl_l1][orcl_l0] = orcl_part[orcl_l1][orcl_l0] + orcl_part[orcl_l1][orcl_l0 + 4];\n"
        "    }\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    if (orcl_l0 < 2) {\n"
        "        orcl_part[orcl_l1][orcl_l0] = orcl_part[orcl_l1][orcl_l0] + orcl_part[orcl_l1][orcl_l0 + 2];\n"
        "    }\n"
        "    barrier(CLK_LOCAL_MEM_FENCE);\n"
        "    if (orcl_l0 < 1) {\n"
        "        orcl_part[orcl_l1][orcl_l0] = orcl_part[orcl_l1][orcl_l0] + orcl_part[orcl_l1][orcl_l0 + 1];\n"
        "    }\n"
        "    if (orcl_l0 == 0 && i <= m - 1) {\n"
        "        y[i] = y[i] + (orcl_part[orcl_l1][0]);\n"
        "    }\n"
        "}\n";
    static const char *orcl_sources[1] = { orcl_source_0 };
    static const char *const orcl_options[1] = { "" };
    static const size_t orcl_local[1] = { 32 };
    /* work-items; 0 = one per iteration, rounded up to a multiple of the local size */
    static const size_t orcl_global[1] = { 0 };
    /* multi-dimensional NDRange: {dimensions, then per dimension: nest loop, iterations and work-items per work-group} */
    static const long orcl_grid[1][10] = { {2, 0, 4611686018427387904, 8, 0, 4, 4, 0, 1, 1} };
    static const cl_uint orcl_platform[1] = { 0 };
    static const cl_uint orcl_device[1] = { 0 };
    static cl_context orcl_ctx[1];
    static cl_command_queue orcl_queue[1];
    static cl_kernel orcl_kernel[1];
    cl_int err = CL_SUCCESS;
    int v = 0;

    if (!orcl_kernel[v]) {
        cl_platform_id platforms[16];
        cl_uint nplatforms = 0;
        cl_device_id devices[64];
        cl_uint ndevices = 0;
        cl_program program;
        if (clGetPlatformIDs(16, platforms, &nplatforms) != CL_SUCCESS || orcl_platform[v] >= nplatforms) return -1;
        if (clGetDeviceIDs(platforms[orcl_platform[v]], CL_DEVICE_TYPE_ALL, 64, devices, &ndevices) != CL_SUCCESS || orcl_device[v] >= ndevices) return -1;
        orcl_ctx[v] = clCreateContext(NULL, 1, &devices[orcl_device[v]], NULL, NULL, &err);
        if (err != CL_SUCCESS) return -1;
        orcl_queue[v] = clCreateCommandQueue(orcl_ctx[v], devices[orcl_device[v]], 0, &err);
        if (err != CL_SUCCESS) return -1;
        program = clCreateProgramWithSource(orcl_ctx[v], 1, &orcl_sources[v], NULL, &err);
        if (err != CL_SUCCESS) return -1;
        if (clBuildProgram(program, 1, &devices[orcl_device[v]], orcl_options[v], NULL, NULL) != CL_SUCCESS) {
            clReleaseProgram(program);
            return -1;
        }
        orcl_kernel[v] = clCreateKernel(program, "orcl_kernel", &err);
        clReleaseProgram(program);
        if (err != CL_SUCCESS) { orcl_kernel[v] = NULL; return -1; }
    }
    {
        const long orcl_trip = (m - 1) >= 0 ? (long)(m - 1) + 1 : 0;
        size_t local = orcl_local[v];
        size_t global = orcl_global[v] ? orcl_global[v] : (size_t)((orcl_trip + (long)local - 1) / (long)local) * local;
        const long orcl_nest_trip[] = { (m - 1) >= 0 ? (long)(m - 1) + 1 : 0, (n - 1) >= 0 ? (long)(n - 1) + 1 : 0 };
        cl_uint work_dim = 1;
        size_t gws[3] = {global, 1, 1}, lws[3] = {local, 1, 1};
        (void)orcl_nest_trip;
        if (orcl_grid[v][0] > 0) {
            work_dim = (cl_uint)orcl_grid[v][0];
            for (long d = 0; d < orcl_grid[v][0]; d++) {
                long t = orcl_nest_trip[orcl_grid[v][1 + 3 * d]], per = orcl_grid[v][2 + 3 * d];
                lws[d] = (size_t)orcl_grid[v][3 + 3 * d];
                gws[d] = (size_t)(t > 0 ? (t + per - 1) / per : 1) * lws[d];
            }
        }
        cl_mem orcl_buf_y = NULL;
        cl_mem orcl_buf_A = NULL;
        cl_mem orcl_buf_x = NULL;
        int rc = -1;
        if (orcl_trip <= 0) return 0;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_y = (size_t)(m) > 0
            ? clCreateBuffer(orcl_ctx[v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(m) * sizeof(float), (void *)y, &err)
            : clCreateBuffer(orcl_ctx[v], CL_MEM_READ_WRITE, sizeof(float), NULL, &err);
        if (err != CL_SUCCESS) goto done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_A = (size_t)(m*n) > 0
            ? clCreateBuffer(orcl_ctx[v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(m*n) * sizeof(float), (void *)A, &err)
            : clCreateBuffer(orcl_ctx[v], CL_MEM_READ_WRITE, sizeof(float), NULL, &err);
        if (err != CL_SUCCESS) goto done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_x = (size_t)(n) > 0
            ? clCreateBuffer(orcl_ctx[v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(n) * sizeof(float), (void *)x, &err)
            : clCreateBuffer(orcl_ctx[v], CL_MEM_READ_WRITE, sizeof(float), NULL, &err);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 0, sizeof(int), &m);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 1, sizeof(int), &n);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 2, sizeof(cl_mem), &orcl_buf_y);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 3, sizeof(cl_mem), &orcl_buf_A);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 4, sizeof(cl_mem), &orcl_buf_x);
        if (err != CL_SUCCESS) goto done;
        err = clEnqueueNDRangeKernel(orcl_queue[v], orcl_kernel[v], work_dim, NULL, gws, lws, 0, NULL, NULL);
        if (err != CL_SUCCESS) goto done;
        if ((size_t)(m) > 0) err = clEnqueueReadBuffer(orcl_queue[v], orcl_buf_y, CL_TRUE, 0, (size_t)(m) * sizeof(float), y, 0, NULL, NULL);
        if (err != CL_SUCCESS) goto done;
        rc = clFinish(orcl_queue[v]) == CL_SUCCESS ? 0 : -1;
    done:
        if (orcl_buf_y) clReleaseMemObject(orcl_buf_y);
        if (orcl_buf_A) clReleaseMemObject(orcl_buf_A);
        if (orcl_buf_x) clReleaseMemObject(orcl_buf_x);
        return rc;
    }
}
