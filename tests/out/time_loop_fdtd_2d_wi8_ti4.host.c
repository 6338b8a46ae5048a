/* ---- host code ---- */
/* orcl: OpenCL host code for the tuned time loop of kernel_fdtd_2d() (tests/polybench/fdtd-2d.c:29).
 * The time loop `t` runs here, on the host; each step launches 4 kernel(s) in order
 * on one in-order queue, and the arrays stay on the device for the whole loop (one copy in, one copy out).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] NX=13 NY=21 T=5: WI=8 TI=4 TJ=16
 * Returns 0 on success; non-zero if OpenCL fails (the caller then runs the original loop). */
static int orcl_kernel_fdtd_2d_region0(int tmax, int ny, double *ey, const double *_fict_, int nx, double *hz, double *ex)
{
    static const char *const orcl_source_0 =
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "__kernel void orcl_kernel_0(const int ny, __global double *ey, __global const double *_fict_, const int t)\n"
        "{\n"
        "    /* iterations of `for (j = 0; j < ny; j++)` */\n"
        "    const long orcl_trip = (ny) > 0 ? (long)(ny) : 0;\n"
        "    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {\n"
        "        const int j = (int)orcl_k;\n"
        "        ey[j] = _fict_[t];\n"
        "    }\n"
        "}\n"
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "__kernel void orcl_kernel_1(const int nx, const int ny, __global double *restrict ey, __global const double *restrict hz)\n"
        "{\n"
        "    const long orcl_g0 = (long)get_group_id(0);\n"
        "    const long orcl_l0 = (long)get_local_id(0);\n"
        "    const long orcl_base0 = orcl_g0 * 16;\n"
        "    const long orcl_g1 = (long)get_group_id(1);\n"
        "    const long orcl_l1 = (long)get_local_id(1);\n"
        "    const long orcl_base1 = (long)(1) + orcl_g1 * 4;\n"
        "    #pragma unroll\n"
        "    for (long orcl_r1 = 0; orcl_r1 < 1; orcl_r1 += 1) {\n"
        "        const long orcl_t1 = orcl_l1 + orcl_r1 * 4;\n"
        "        #pragma unroll\n"
        "        for (long orcl_r0 = 0; orcl_r0 < 1; orcl_r0 += 1) {\n"
        "            const long orcl_t0 = orcl_l0 + orcl_r0 * 16;\n"
        "            const int j = (int)(orcl_base0 + orcl_t0);\n"
        "            const int i = (int)(orcl_base1 + orcl_t1);\n"
        "            if (j < ny && i < nx) {\n"
        "                ey[i * ny + j] = ey[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);\n"
        "            }\n"
        "        }\n"
        "    }\n"
        "}\n"
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "__kernel void orcl_kernel_2(const int nx, const int ny, __global double *restrict ex, __global const double *restrict hz)\n"
        "{\n"
        "    const long orcl_g0 = (long)get_group_id(0);\n"
        "    const long orcl_l0 = (long)get_local_id(0);\n"
        "    const long orcl_base0 = (long)(1) + orcl_g0 * 16;\n"
        "    const long orcl_g1 = (long)get_group_id(1);\n"
        "    const long orcl_l1 = (long)get_local_id(1);\n"
        "    const long orcl_base1 = orcl_g1 * 4;\n"
        "    #pragma unroll\n"
        "    for (long orcl_r1 = 0; orcl_r1 < 1; orcl_r1 += 1) {\n"
        "        const long orcl_t1 = orcl_l1 + orcl_r1 * 4;\n"
        "        #pragma unroll\n"
        "        for (long orcl_r0 = 0; orcl_r0 < 1; orcl_r0 += 1) {\n"
        "            const long orcl_t0 = orcl_l0 + orcl_r0 * 16;\n"
        "            const int j = (int)(orcl_base0 + orcl_t0);\n"
        "            const int i = (int)(orcl_base1 + orcl_t1);\n"
        "            if (j < ny && i < nx) {\n"
        "                ex[i * ny + j] = ex[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[i * ny + (j - 1)]);\n"
        "            }\n"
        "        }\n"
        "    }\n"
        "}\n"
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "__kernel void orcl_kernel_3(const int nx, const int ny, __global double *restrict hz, __global const double *restrict ex, __global const double *restrict ey)\n"
        "{\n"
        "    const long orcl_g0 = (long)get_group_id(0);\n"
        "    const long orcl_l0 = (long)get_local_id(0);\n"
        "    const long orcl_base0 = orcl_g0 * 16;\n"
        "    const long orcl_g1 = (long)get_group_id(1);\n"
        "    const long orcl_l1 = (long)get_local_id(1);\n"
        "    const long orcl_base1 = orcl_g1 * 4;\n"
        "    #pragma unroll\n"
        "    for (long orcl_r1 = 0; orcl_r1 < 1; orcl_r1 += 1) {\n"
        "        const long orcl_t1 = orcl_l1 + orcl_r1 * 4;\n"
        "        #pragma unroll\n"
        "        for (long orcl_r0 = 0; orcl_r0 < 1; orcl_r0 += 1) {\n"
        "            const long orcl_t0 = orcl_l0 + orcl_r0 * 16;\n"
        "            const int j = (int)(orcl_base0 + orcl_t0);\n"
        "            const int i = (int)(orcl_base1 + orcl_t1);\n"
        "            if (j < ny - 1 && i < nx - 1) {\n"
        "                hz[i * ny + j] = hz[i * ny + j] - 0.7 * (ex[i * ny + (j + 1)] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);\n"
        "            }\n"
        "        }\n"
        "    }\n"
        "}\n";
    static const char *orcl_sources[1] = { orcl_source_0 };
    static const char *const orcl_options[1] = { "" };
    static const char *const orcl_kernel_names[4] = { "orcl_kernel_0", "orcl_kernel_1", "orcl_kernel_2", "orcl_kernel_3" };
    /* per variant and kernel: work-items per work-group; work-items (0 = one per iteration, rounded up to a
       multiple of the local size); multi-dimensional NDRange {dimensions, then per dimension: nest loop,
       iterations and work-items per work-group} */
    static const size_t orcl_local[1][4] = { { 8, 64, 64, 64 } };
    static const size_t orcl_global[1][4] = { { 0, 0, 0, 0 } };
    static const long orcl_grid[1][4][10] = { { {0, 0, 1, 1, 0, 1, 1, 0, 1, 1}, {2, 1, 16, 16, 0, 4, 4, 0, 1, 1}, {2, 1, 16, 16, 0, 4, 4, 0, 1, 1}, {2, 1, 16, 16, 0, 4, 4, 0, 1, 1} } };
    static const cl_uint orcl_platform[1] = { 0 };
    static const cl_uint orcl_device[1] = { 0 };
    static cl_context orcl_ctx[1];
    static cl_command_queue orcl_queue[1];
    static cl_kernel orcl_kernel[1][4];
    static int orcl_failed[1]; /* its OpenCL set-up failed once: not retried, the caller runs the original loop */
    cl_int orcl_err = CL_SUCCESS;
    int orcl_v = 0;

    if (!orcl_kernel[orcl_v][0]) {
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
        for (int orcl_q = 0; orcl_q < 4; orcl_q++) {
            orcl_kernel[orcl_v][orcl_q] = clCreateKernel(orcl_program, orcl_kernel_names[orcl_q], &orcl_err);
            if (orcl_err != CL_SUCCESS) {
                while (orcl_q-- > 0) { clReleaseKernel(orcl_kernel[orcl_v][orcl_q]); orcl_kernel[orcl_v][orcl_q] = NULL; }
                clReleaseProgram(orcl_program);
                return -1;
            }
        }
        clReleaseProgram(orcl_program);
        orcl_failed[orcl_v] = 0;
    }
    {
        /* steps of the time loop, and each kernel's iterations (its parallel loop, its perfect nest's loops) */
        const long orcl_steps = (tmax) > 0 ? (long)(tmax) : 0;
        const long orcl_part_trip[4] = { (ny) > 0 ? (long)(ny) : 0, (nx) > (1) ? ((long)(nx) - (long)(1) + 0) / 1 : 0, (nx) > 0 ? (long)(nx) : 0, (nx - 1) > 0 ? (long)(nx - 1) : 0 };
        const long orcl_nest_trip[4][2] = { { (ny) > 0 ? (long)(ny) : 0, 0 }, { (nx) > (1) ? ((long)(nx) - (long)(1) + 0) / 1 : 0, (ny) > 0 ? (long)(ny) : 0 }, { (nx) > 0 ? (long)(nx) : 0, (ny) > (1) ? ((long)(ny) - (long)(1) + 0) / 1 : 0 }, { (nx - 1) > 0 ? (long)(nx - 1) : 0, (ny - 1) > 0 ? (long)(ny - 1) : 0 } };
        cl_uint orcl_dim[4];
        size_t orcl_gws[4][3], orcl_lws[4][3];
        cl_kernel *orcl_k = orcl_kernel[orcl_v];
        int orcl_step = 0;
        cl_mem orcl_buf_ey = NULL;
        cl_mem orcl_buf__fict_ = NULL;
        cl_mem orcl_buf_hz = NULL;
        cl_mem orcl_buf_ex = NULL;
        int orcl_rc = -1;
        if (orcl_steps <= 0) return 0;
        for (int orcl_q = 0; orcl_q < 4; orcl_q++) {
            size_t orcl_l = orcl_local[orcl_v][orcl_q];
            size_t orcl_g = orcl_global[orcl_v][orcl_q] ? orcl_global[orcl_v][orcl_q] : (size_t)((orcl_part_trip[orcl_q] + (long)orcl_l - 1) / (long)orcl_l) * orcl_l;
            const long *orcl_gr = orcl_grid[orcl_v][orcl_q];
            orcl_dim[orcl_q] = 1;
            orcl_gws[orcl_q][0] = orcl_g ? orcl_g : orcl_l;
            orcl_lws[orcl_q][0] = orcl_l;
            orcl_gws[orcl_q][1] = orcl_gws[orcl_q][2] = orcl_lws[orcl_q][1] = orcl_lws[orcl_q][2] = 1;
            if (orcl_gr[0] > 0) {
                orcl_dim[orcl_q] = (cl_uint)orcl_gr[0];
                for (long orcl_d = 0; orcl_d < orcl_gr[0]; orcl_d++) {
                    long orcl_t = orcl_nest_trip[orcl_q][orcl_gr[1 + 3 * orcl_d]], orcl_per = orcl_gr[2 + 3 * orcl_d];
                    orcl_lws[orcl_q][orcl_d] = (size_t)orcl_gr[3 + 3 * orcl_d];
                    orcl_gws[orcl_q][orcl_d] = (size_t)(orcl_t > 0 ? (orcl_t + orcl_per - 1) / orcl_per : 1) * orcl_lws[orcl_q][orcl_d];
                }
            }
        }
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_ey = (size_t)((long)nx * ny) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)((long)nx * ny) * sizeof(double), (void *)ey, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(double), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf__fict_ = (size_t)(tmax) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(tmax) * sizeof(double), (void *)_fict_, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(double), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_hz = (size_t)((long)nx * ny) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)((long)nx * ny) * sizeof(double), (void *)hz, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(double), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_ex = (size_t)((long)nx * ny) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)((long)nx * ny) * sizeof(double), (void *)ex, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(double), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[0], 0, sizeof(int), &ny);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[0], 1, sizeof(cl_mem), &orcl_buf_ey);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[0], 2, sizeof(cl_mem), &orcl_buf__fict_);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[0], 3, sizeof(int), &orcl_step);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[1], 0, sizeof(int), &nx);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[1], 1, sizeof(int), &ny);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[1], 2, sizeof(cl_mem), &orcl_buf_ey);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[1], 3, sizeof(cl_mem), &orcl_buf_hz);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[2], 0, sizeof(int), &nx);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[2], 1, sizeof(int), &ny);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[2], 2, sizeof(cl_mem), &orcl_buf_ex);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[2], 3, sizeof(cl_mem), &orcl_buf_hz);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[3], 0, sizeof(int), &nx);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[3], 1, sizeof(int), &ny);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[3], 2, sizeof(cl_mem), &orcl_buf_hz);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[3], 3, sizeof(cl_mem), &orcl_buf_ex);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_k[3], 4, sizeof(cl_mem), &orcl_buf_ey);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        for (long orcl_s = 0; orcl_s < orcl_steps; orcl_s++) {
            orcl_step = (int)((0) + orcl_s * 1);
            orcl_err = clSetKernelArg(orcl_k[0], 3, sizeof orcl_step, &orcl_step);
            if (orcl_err != CL_SUCCESS) goto orcl_done;
            orcl_err = clEnqueueNDRangeKernel(orcl_queue[orcl_v], orcl_k[0], orcl_dim[0], NULL, orcl_gws[0], orcl_lws[0], 0, NULL, NULL);
            if (orcl_err != CL_SUCCESS) goto orcl_done;
            orcl_err = clEnqueueNDRangeKernel(orcl_queue[orcl_v], orcl_k[1], orcl_dim[1], NULL, orcl_gws[1], orcl_lws[1], 0, NULL, NULL);
            if (orcl_err != CL_SUCCESS) goto orcl_done;
            orcl_err = clEnqueueNDRangeKernel(orcl_queue[orcl_v], orcl_k[2], orcl_dim[2], NULL, orcl_gws[2], orcl_lws[2], 0, NULL, NULL);
            if (orcl_err != CL_SUCCESS) goto orcl_done;
            orcl_err = clEnqueueNDRangeKernel(orcl_queue[orcl_v], orcl_k[3], orcl_dim[3], NULL, orcl_gws[3], orcl_lws[3], 0, NULL, NULL);
            if (orcl_err != CL_SUCCESS) goto orcl_done;
        }
        if ((size_t)((long)nx * ny) > 0) orcl_err = clEnqueueReadBuffer(orcl_queue[orcl_v], orcl_buf_ey, CL_TRUE, 0, (size_t)((long)nx * ny) * sizeof(double), ey, 0, NULL, NULL);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        if ((size_t)((long)nx * ny) > 0) orcl_err = clEnqueueReadBuffer(orcl_queue[orcl_v], orcl_buf_hz, CL_TRUE, 0, (size_t)((long)nx * ny) * sizeof(double), hz, 0, NULL, NULL);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        if ((size_t)((long)nx * ny) > 0) orcl_err = clEnqueueReadBuffer(orcl_queue[orcl_v], orcl_buf_ex, CL_TRUE, 0, (size_t)((long)nx * ny) * sizeof(double), ex, 0, NULL, NULL);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_rc = clFinish(orcl_queue[orcl_v]) == CL_SUCCESS ? 0 : -1;
    orcl_done:
        if (orcl_buf_ey) clReleaseMemObject(orcl_buf_ey);
        if (orcl_buf__fict_) clReleaseMemObject(orcl_buf__fict_);
        if (orcl_buf_hz) clReleaseMemObject(orcl_buf_hz);
        if (orcl_buf_ex) clReleaseMemObject(orcl_buf_ex);
        return orcl_rc;
    }
}
