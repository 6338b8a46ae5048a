/* configuration: VW=4 INC='local' WI=32 */
/* input: N=1000 */
/* NDRange: global size 1024 work-items, local size 32 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void orcl_kernel(const int n, __global double *w, __global const double *y, const double a, __global const double *x)
{
    /* iterations of `for (i = 0; i <= n - 1; i++)` */
    const long orcl_trip = (n - 1) >= 0 ? (long)(n - 1) + 1 : 0;
    /* vecWidth 4: each work-item takes 4 consecutive iterations at a time (double4 loads and stores);
       the last orcl_trip % 4 iterations run one per work-item */
    const long orcl_nvec = orcl_trip / 4;
    /* incrementType 'local': each work-group owns one contiguous chunk of vectors */
    const long orcl_chunk = (orcl_nvec + (long)get_num_groups(0) - 1) / (long)get_num_groups(0);
    const long orcl_begin = (long)get_group_id(0) * orcl_chunk;
    const long orcl_end = orcl_begin + orcl_chunk < orcl_nvec ? orcl_begin + orcl_chunk : orcl_nvec;
    for (long orcl_v = orcl_begin + get_local_id(0); orcl_v < orcl_end; orcl_v += (long)get_local_size(0)) {
        const long orcl_k = orcl_v * 4;
        const int i = (int)orcl_k;
        vstore4(vload4(0, y + i) + (double4)(a) * vload4(0, x + i), 0, w + i);
    }
    for (long orcl_k = orcl_nvec * 4 + (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {
        const int i = (int)orcl_k;
        w[i] = y[i] + a * x[i];
    }
}
