/* configuration: WI=24 WG=3 VW=16 INC='global' */
/* input: N=1009 */
/* NDRange: global size 72 work-items, local size 24 work-items; build options: "" */
/* ---- OpenCL kernel ---- */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define ORCL_WG 24
__kernel void orcl_kernel(const int n, const float a, __global const float *x, __global float *z, __global const float *y, __global float *orcl_partial_s, __global float *orcl_partial_mx)
{
    /* iterations of `for (i = 1; i < n - 1; i++)` */
    const long orcl_trip = (n - 1) > (1) ? ((long)(n - 1) - (long)(1) + 0) / 1 : 0;
    float orcl_acc_s = 0;
    __local float orcl_red_s[ORCL_WG];
    float orcl_acc_mx = -INFINITY;
    __local float orcl_red_mx[ORCL_WG];
    /* vecWidth 16: each work-item takes 16 consecutive iterations at a time (float16 loads and stores);
       the last orcl_trip % 16 iterations run one per work-item */
    const long orcl_nvec = orcl_trip / 16;
    float16 orcl_vacc_s = (float16)(0);
    float16 orcl_vacc_mx = (float16)(-INFINITY);
    for (long orcl_v = (long)get_global_id(0); orcl_v < orcl_nvec; orcl_v += (long)get_global_size(0)) {
        const long orcl_k = orcl_v * 16;
        const int i = (int)((1) + orcl_k);
        float16 t = (float16)(a) * vload16(0, x + (i + 1)) - vload16(0, x + (i - 1));
        vstore16(t > (float16)(0.5f) ? t : vload16(0, y + i) * (float16)(2.0), 0, z + i);
        vstore16(vload16(0, z + i) + -t / (float16)(3), 0, z + i);
        orcl_vacc_s += fabs(t) + (float16)(1);
        orcl_vacc_mx = fmax(orcl_vacc_mx, vload16(0, y + i));
    }
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s0;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s1;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s2;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s3;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s4;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s5;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s6;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s7;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s8;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.s9;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.sa;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.sb;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.sc;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.sd;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.se;
    orcl_acc_s = orcl_acc_s + orcl_vacc_s.sf;
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s0);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s1);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s2);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s3);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s4);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s5);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s6);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s7);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s8);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.s9);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.sa);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.sb);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.sc);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.sd);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.se);
    orcl_acc_mx = fmax(orcl_acc_mx, orcl_vacc_mx.sf);
    for (long orcl_k = orcl_nvec * 16 + (long)get_global_id(0); orcl_k < orcl_trip; orcl_k += (long)get_global_size(0)) {
        const int i = (int)((1) + orcl_k);
        float t = a * x[i + 1] - x[i - 1];
        z[i] = t > 0.5f ? t : y[i] * 2.0;
        z[i] += -t / 3;
        orcl_acc_s += fabs(t) + 1;
        orcl_acc_mx = fmax(orcl_acc_mx, y[i]);
    }
    /* reduction: tree over the work-group in local memory (barriers, no lock-step assumption),
       one partial result per work-group, combined on the host */
    {
        const unsigned int orcl_lid = get_local_id(0);
        orcl_red_s[orcl_lid] = orcl_acc_s;
        orcl_red_mx[orcl_lid] = orcl_acc_mx;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (unsigned int orcl_w = 32 / 2; orcl_w > 0; orcl_w >>= 1) {
            if (orcl_lid < orcl_w && orcl_lid + orcl_w < ORCL_WG) {
                orcl_red_s[orcl_lid] = orcl_red_s[orcl_lid] + orcl_red_s[orcl_lid + orcl_w];
                orcl_red_mx[orcl_lid] = fmax(orcl_red_mx[orcl_lid], orcl_red_mx[orcl_lid + orcl_w]);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (orcl_lid == 0) {
            orcl_partial_s[(long)get_group_id(0)] = orcl_red_s[0];
            orcl_partial_mx[(long)get_group_id(0)] = orcl_red_mx[0];
        }
    }
}
