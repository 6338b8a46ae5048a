/* configuration: WI=32 WG=8 UI=1 CL='' */
/* input: MX=8 MY=8 MZ=8 */
/* NDRange: global size 256 work-items, local size 32 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void orcl_kernel(const int mx, const int my, const int mz, __global double *f, __global const double *x, const double hyhzdhx, const double hxhzdhy, const double hxhydhz, const double sc)
{
    /* iterations of `for (i = 0; i <= mx * my * mz - 1; i++)` */
    const long orcl_trip = (mx * my * mz - 1) >= 0 ? (long)(mx * my * mz - 1) + 1 : 0;
    for (long orcl_k = (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {
        const int i = (int)orcl_k;
        int xi = i % mx;
        int yj = i / mx % my;
        int zk = i / (mx * my);
        if (xi == 0 || yj == 0 || zk == 0 || xi == mx - 1 || yj == my - 1 || zk == mz - 1) {
            f[i] = x[i];
        } else {
            double u = x[i];
            f[i] = (2.0 * u - x[i - 1] - x[i + 1]) * hyhzdhx + (2.0 * u - x[i - mx] - x[i + mx]) * hxhzdhy + (2.0 * u - x[i - mx * my] - x[i + mx * my]) * hxhydhz - sc * exp(u);
        }
    }
}
