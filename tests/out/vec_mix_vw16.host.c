/* ---- host code ---- */
/* orcl: OpenCL host code for the tuned loop of Mix() (tests/in/vec_mix.c:7).
 * Variants (one per tuned input size), chosen at run time on the size variable:
 *   [0] N=1009: WI=24 WG=3 VW=16 INC='global'
 * Returns 0 on success; non-zero if OpenCL fails (the caller then runs the original loop). */
static int orcl_Mix_region0(int n, float a, const float *x, float *z, const float *y, float *s, float *mx)
{
    static const char *const orcl_source_0 =
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "#define ORCL_WG 24\n"
        "__kernel void orcl_kernel(const int n, const float a, __global const float *x, __global float *z, __global const float *y, __global float *orcl_partial_s, __global float *orcl_partial_mx)\n"
        "{\n"
        "    /* iterations of `for (i = 1; i < n - 1; i++)` */\n"
        "    const long orcl_trip = (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0;\n"
        "    float orcl_acc_s = 0;\n"
        "    __local float orcl_red_s[ORCL_WG];\n"
        "    float orcl_acc_mx = -INFINITY;\n"
        "    __local float orcl_red_mx[ORCL_WG];\n"
        "    /* vecWidth 16: each work-item takes 16 consecutive iterations at a time (float16 loads and stores);\n"
        "       the last orcl_trip % 16 iterations run one per work-item */\n"
        "    const long orcl_nvec = orcl_trip / 16;\n"
        "    float16 orcl_vacc_s = (float16)(0);\n"
        "    float16 orcl_vacc_mx = (float16)(-INFINITY);\n"
        "    for (long orcl_v = (long)get_global_id(0); orcl_v < orcl_nvec; orcl_v += (long)get_global_size(0)) {\n"
        "        const long orcl_k = orcl_v * 16;\n"
        "        const int i = (int)((1) + orcl_k);\n"
        "        float16 t = (float16)(a) * vload16(0, x + (i + 1)) - vload16(0, x + (i - 1));\n"
        "        vstore16(t > (float16)(0.5f) ? t : vload16(0, y + i) * (float16)(2.0), 0, z + i);\n"
        "        vstore16(vload16(0, z + i) + -t / (float16)(3), 0, z + i);\n"
        "        orcl_vacc_s += fabs(t) + (float16)(1);\n"
        "        orcl_vacc_mx = fmax(orcl_vacc_mx, vload16(0, y + i));\n"
        "    }\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s0;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s1;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s2;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s3;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s4;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s5;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s6;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s7;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s8;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s9;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.sa;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.sb;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.sc;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.sd;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.se;\n"
        "    orcl_acc_s = orcl_acc_s + orcl_vacc_s.sf;\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s0);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s1);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s2);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s3);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s4);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s5);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s6);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s7);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s8);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s9);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.sa);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.sb);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.sc);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.sd);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.se);\n"
        "    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.sf);\n"
        "    for (long orcl_k = orcl_nvec * 16 + (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {\n"
        "        const int i = (int)((1) + orcl_k);\n"
        "        float t = a * x[i + 1] - x[i - 1];\n"
        "        z[i] = t > 0.5f ? t : y[i] * 2.0;\n"
        "        z[i] += -t / 3;\n"
        "        orcl_acc_s += fabs(t) + 1;\n"
        "        orcl_acc_mx = fmax(orcl_acc_mx, y[i]);\n"
        "    }\n"
        "    /* reduction: tree over the work-group in local memory (barriers, no lock-step assumption),\n"
        "       one partial result per work-group, combined on the host */\n"
        "    {\n"
        "        const unsigned int orcl_lid = get_local_id(0);\n"
        "        orcl_red_s[orcl_lid] = orcl_acc_s;\n"
        "        orcl_red_mx[orcl_lid] = orcl_acc_mx;\n"
        "        barrier(CLK_LOCAL_MEM_FENCE);\n"
        "        for (unsigned int orcl_w = 32 / 2; orcl_w > 0; orcl_w >>= 1) {\n"
        "            if (orcl_lid < orcl_w && orcl_lid + orcl_w < ORCL_WG) {\n"
        "                orcl_red_s[orcl_lid] = orcl_red_s[orcl_lid] + orcl_red_s[orcl_lid + orcl_w];\n"
        "                orcl_red_mx[orcl_lid] = fmax(orcl_red_mx[orcl_lid], orcl_red_mx[orcl_lid + orcl_w]);\n"
        "            }\n"
        "            barrier(CLK_LOCAL_MEM_FENCE);\n"
        "        }\n"
        "        if (orcl_lid == 0) {\n"
        "            orcl_partial_s[(long)get_group_id(0)] = orcl_red_s[0];\n"
        "            orcl_partial_mx[(long)get_group_id(0)] = orcl_red_mx[0];\n"
        "        }\n"
        "    }\n"
        "}\n";
    static const char *orcl_sources[1] = { orcl_source_0 };
    static const char *const orcl_options[1] = { "" };
    static const size_t orcl_local[1] = { 24 };
    /* work-items; 0 = one per iteration, rounded up to a multiple of the local size */
    static const size_t orcl_global[1] = { 72 };
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
        const long orcl_trip = (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0;
        size_t orcl_lsize = orcl_local[orcl_v];
        size_t orcl_gsize = orcl_global[orcl_v] ? orcl_global[orcl_v] : (size_t)((orcl_trip + (long)orcl_lsize - 1) / (long)orcl_lsize) * orcl_lsize;
        const long orcl_nest_trip[] = { (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0 };
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
        const size_t orcl_groups = orcl_gsize / orcl_lsize;
        cl_mem orcl_buf_x = NULL;
        cl_mem orcl_buf_z = NULL;
        cl_mem orcl_buf_y = NULL;
        cl_mem orcl_buf_orcl_partial_s = NULL;
        float *orcl_host_orcl_partial_s = NULL;
        cl_mem orcl_buf_orcl_partial_mx = NULL;
        float *orcl_host_orcl_partial_mx = NULL;
        int orcl_rc = -1;
        if (orcl_trip <= 0) return 0;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_x = (size_t)(n) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(n) * sizeof(float), (void *)x, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(float), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_z = (size_t)(n) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(n) * sizeof(float), (void *)z, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(float), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* an empty array still needs a (never accessed) buffer: OpenCL refuses size 0 */
        orcl_buf_y = (size_t)(n) > 0
            ? clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)(n) * sizeof(float), (void *)y, &orcl_err)
            : clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, sizeof(float), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        /* one partial result per work-group */
        orcl_buf_orcl_partial_s = clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, orcl_groups * sizeof(float), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_host_orcl_partial_s = (float *)malloc(orcl_groups * sizeof(float));
        if (!orcl_host_orcl_partial_s) goto orcl_done;
        /* one partial result per work-group */
        orcl_buf_orcl_partial_mx = clCreateBuffer(orcl_ctx[orcl_v], CL_MEM_READ_WRITE, orcl_groups * sizeof(float), NULL, &orcl_err);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_host_orcl_partial_mx = (float *)malloc(orcl_groups * sizeof(float));
        if (!orcl_host_orcl_partial_mx) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 0, sizeof(int), &n);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 1, sizeof(float), &a);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 2, sizeof(cl_mem), &orcl_buf_x);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 3, sizeof(cl_mem), &orcl_buf_z);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 4, sizeof(cl_mem), &orcl_buf_y);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 5, sizeof(cl_mem), &orcl_buf_orcl_partial_s);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clSetKernelArg(orcl_kernel[orcl_v], 6, sizeof(cl_mem), &orcl_buf_orcl_partial_mx);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clEnqueueNDRangeKernel(orcl_queue[orcl_v], orcl_kernel[orcl_v], orcl_work_dim, NULL, orcl_gws, orcl_lws, 0, NULL, NULL);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        if ((size_t)(n) > 0) orcl_err = clEnqueueReadBuffer(orcl_queue[orcl_v], orcl_buf_z, CL_TRUE, 0, (size_t)(n) * sizeof(float), z, 0, NULL, NULL);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clEnqueueReadBuffer(orcl_queue[orcl_v], orcl_buf_orcl_partial_s, CL_TRUE, 0, orcl_groups * sizeof(float), orcl_host_orcl_partial_s, 0, NULL, NULL);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_err = clEnqueueReadBuffer(orcl_queue[orcl_v], orcl_buf_orcl_partial_mx, CL_TRUE, 0, orcl_groups * sizeof(float), orcl_host_orcl_partial_mx, 0, NULL, NULL);
        if (orcl_err != CL_SUCCESS) goto orcl_done;
        orcl_rc = clFinish(orcl_queue[orcl_v]) == CL_SUCCESS ? 0 : -1;
        if (orcl_rc == 0) {
            /* finish the reduction: the initial value combined with every work-group's partial */
            float orcl_a = *s;
            for (size_t orcl_g = 0; orcl_g < orcl_groups; orcl_g++) {
                float orcl_b = orcl_host_orcl_partial_s[orcl_g];
                orcl_a = orcl_a + orcl_b;
            }
            *s = orcl_a;
        }
        if (orcl_rc == 0) {
            /* finish the reduction: the initial value combined with every work-group's partial */
            float orcl_a = *mx;
            for (size_t orcl_g = 0; orcl_g < orcl_groups; orcl_g++) {
                float orcl_b = orcl_host_orcl_partial_mx[orcl_g];
                orcl_a = fmax(orcl_a, orcl_b);
            }
            *mx = orcl_a;
        }
    orcl_done:
        if (orcl_buf_x) clReleaseMemObject(orcl_buf_x);
        if (orcl_buf_z) clReleaseMemObject(orcl_buf_z);
        if (orcl_buf_y) clReleaseMemObject(orcl_buf_y);
        if (orcl_buf_orcl_partial_s) clReleaseMemObject(orcl_buf_orcl_partial_s);
        free(orcl_host_orcl_partial_s);
        if (orcl_buf_orcl_partial_mx) clReleaseMemObject(orcl_buf_orcl_partial_mx);
        free(orcl_host_orcl_partial_mx);
        return orcl_rc;
    }
}
