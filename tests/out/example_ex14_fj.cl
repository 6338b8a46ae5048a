/* configuration: WI=32 CB=False UI=1 CL='' */
/* input: MX=8 MY=8 MZ=8 */
/* NDRange: global size one work-item per iteration, local size 32 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void orcl_kernel(const int nrows, const int mx, const int my, const int mz, __global double *dia, const double hyhzdhx, const double hxhzdhy, const double hxhydhz, const double sc, __global const double *x)
{
    /* iterations of `for (i = 0; i <= nrows - 1; i++)` */
    const long orcl_trip = (nrows - 1) >= 0 ? (long)(nrows - 1) + 1 : 0;
    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {
        const int i = (int)orcl_k;
        int xi = i % mx;
        int yj = i / mx % my;
        int zk = i / (mx * my);
        if (xi == 0 || yj == 0 || zk == 0 || xi == mx - 1 || yj == my - 1 || zk == mz - 1) {
            dia[i] = 1.0;
        } else {
            dia[i] = 2.0 * (hyhzdhx + hxhzdhy + hxhydhz) - sc * exp(x[i]);
            dia[i + nrows] = -hxhydhz;
            dia[i + 2 * nrows] = -hxhzdhy;
            dia[i + 3 * nrows] = -hyhzdhx;
            dia[i + 4 * nrows] = -hyhzdhx;
            dia[i + 5 * nrows] = -hxhzdhy;
            dia[i + 6 * nrows] = -hxhydhz;
        }
    }
}
