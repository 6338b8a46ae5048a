/* ---- host code ---- */
/* orcl: OpenCL host code for the tuned loop of FormJacobian() (examples/ex14FJ.c:19).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] MX=8 MY=8 MZ=8: WI=32 CB=False UI=1 CL=''
 * Returns 0 on success; non-zero if OpenCL fails (the caller then runs the original loop). */
static int orcl_FormJacobian_region0(int nrows, int mx, int my, int mz, double *dia, double hyhzdhx, double hxhzdhy, double hxhydhz, double sc, const double *x)
{
    static const char *const orcl_source_0 =
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "__kernel void orcl_kernel(const int nrows, const int mx, const int my, const int mz, __global double *dia, const double hyhzdhx, const double hxhzdhy, const double hxhydhz, const double sc, __global const double *x)\n"
        "{\n"
        "    /* iterations of `for (i = 0; i <= nrows - 1; i++)` */\n"
        "    const long orcl_trip = (nrows - 1) >= 0 ? (long)(nrows - 1) + 1 : 0;\n"
        "    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {\n"
        "        const int i = (int)orcl_k;\n"
        "        int xi = i % mx;\n"
        "        int yj = i / mx % my;\n"
        "        int zk = i / (mx * my);\n"
        "        if (xi == 0 || yj == 0 || zk == 0 || xi == mx - 1 || yj == my - 1 || zk == mz - 1) {\n"
        "            dia[i] = 1.0;\n"
        "        } else {\n"
        "            dia[i] = 2.0 * (hyhzdhx + hxhzdhy + hxhydhz) - sc * exp(x[i]);\n"
        "            dia[i + nrows] = -hxhydhz;\n"
        "            dia[i + 2 * nrows] = -hxhzdhy;\n"
        "            dia[i + 3 * nrows] = -hyhzdhx;\n"
        "            dia[i + 4 * nrows] = -hyhzdhx;\n"
        "            dia[i + 5 * nrows] = -hxhzdhy;\n"
        "            dia[i + 6 * nrows] = -hxhydhz;\n"
        "        }\n"
        "    }\n"
        "}\n";
    static const char *orcl_sources[1] = { orcl_source_0 };
    static const char *const orcl_options[1] = { "" };
    static const size_t orcl_local[1] = { 32 };
    /* work-items; 0 = one per iteration, rounded up to a multiple of the local size */
    static const size_t orcl_global[1] = { 0 };
    /* multi-dimensional NDRange: {dimensions, then per dimension: nest loop, iterations and work-items per work-group} */
    static const long orcl_grid[1][10] = { {0, 0, 1, 1, 0, 1, 1, 0, 1, 1} };
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
        const long orcl_trip = (nrows - 1) >= 0 ? (long)(nrows - 1) + 1 : 0;
        size_t local = orcl_local[v];
        size_t global = orcl_global[v] ? orcl_global[v] : (size_t)((orcl_trip + (long)local - 1) / (long)local) * local;
        const long orcl_nest_trip[] = { (nrows - 1) >= 0 ? (long)(nrows - 1) + 1 : 0 };
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
        cl_mem orcl_buf_dia = NULL;
        cl_mem orcl_buf_x = NULL;
        int rc = -1;
        if (orcl_trip <= 0) return 0;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_dia = (size_t)(7*mx*my*mz) > 0
            ? clCreateBuffer(orcl_ctx[v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(7*mx*my*mz) * sizeof(double), (void *)dia, &err)
            : clCreateBuffer(orcl_ctx[v], CL_MEM_READ_WRITE, sizeof(double), NULL, &err);
        if (err != CL_SUCCESS) goto done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_x = (size_t)(mx*my*mz) > 0
            ? clCreateBuffer(orcl_ctx[v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(mx*my*mz) * sizeof(double), (void *)x, &err)
            : clCreateBuffer(orcl_ctx[v], CL_MEM_READ_WRITE, sizeof(double), NULL, &err);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 0, sizeof(int), &nrows);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 1, sizeof(int), &mx);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 2, sizeof(int), &my);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 3, sizeof(int), &mz);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 4, sizeof(cl_mem), &orcl_buf_dia);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 5, sizeof(double), &hyhzdhx);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 6, sizeof(double), &hxhzdhy);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 7, sizeof(double), &hxhydhz);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 8, sizeof(double), &sc);
        if (err != CL_SUCCESS) goto done;
        err = clSetKernelArg(orcl_kernel[v], 9, sizeof(cl_mem), &orcl_buf_x);
        if (err != CL_SUCCESS) goto done;
        err = clEnqueueNDRangeKernel(orcl_queue[v], orcl_kernel[v], work_dim, NULL, gws, lws, 0, NULL, NULL);
        if (err != CL_SUCCESS) goto done;
        if ((size_t)(7*mx*my*mz) > 0) err = clEnqueueReadBuffer(orcl_queue[v], orcl_buf_dia, CL_TRUE, 0, (size_t)(7*mx*my*mz) * sizeof(double), dia, 0, NULL, NULL);
        if (err != CL_SUCCESS) goto done;
        rc = clFinish(orcl_queue[v]) == CL_SUCCESS ? 0 : -1;
    done:
        if (orcl_buf_dia) clReleaseMemObject(orcl_buf_dia);
        if (orcl_buf_x) clReleaseMemObject(orcl_buf_x);
        return rc;
    }
}
