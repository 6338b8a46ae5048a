/* The Jacobian of the 3-D solid fuel ignition (Bratu) function F(u) of examples/ex14FF.c
 * (-laplace(u) - lambda*exp(u) = 0, u = 0 on the boundary, 7-point stencil): PETSc SNES ex14's
 * FormJacobian, the "ex14FJ" of the OrCL paper (Chaimov, Norris, Malony: "Toward Multi-target
 * Autotuning for Accelerators", ICPADS 2014, Figure 8). For every point i of an mx x my x mz grid
 * (x fastest) the row of the Jacobian: on the boundary only the diagonal, 1; inside
 *     diag = 2*(hyhzdhx + hxhzdhy + hxhydhz) - sc*exp(u),
 * and the six off-diagonal entries (the columns i-mx*my, i-mx, i-1, i+1, i+mx, i+mx*my) are
 * -hxhydhz, -hxhzdhy, -hyhzdhx, -hyhzdhx, -hxhzdhy, -hxhydhz. As in the paper (and Orio's
 * testsuite/sandbox/opencl/ex14FJ.c) the seven values go into one array `dia` at i + k*nrows
 * (k = 0 the diagonal, then zm, ym, xm, xp, yp, zp), with `int nrows = mx*my*mz;` between the
 * PerfTuning header and the Loop; the off-diagonal entries are left untouched on boundary rows.
 * 2 x 2 x 2 x 2 = 16 configurations, two grids (8^3 and 24 x 20 x 16, paired by an input
 * constraint). */
#include <math.h>

void FormJacobian(int mx, int my, int mz, double sc, double hyhzdhx, double hxhzdhy,
                  double hxhydhz, const double *x, double *dia) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [32, 128];
            param CB[] = [False, True];
            param UI[] = [1, 2];
            param CL[] = ['', '-cl-fast-relaxed-math'];
        }
        def build { arg build_command = 'cc -O2 -lm'; }
        def input_params {
            param MX[] = [8, 24];
            param MY[] = [8, 20];
            param MZ[] = [8, 16];
            constraint grid = (MX == 8 and MY == 8 and MZ == 8) or (MX == 24 and MY == 20 and MZ == 16);
        }
        def input_vars {
            decl int mx = MX;
            decl int my = MY;
            decl int mz = MZ;
            decl double sc = random;
            decl double hyhzdhx = random;
            decl double hxhzdhy = random;
            decl double hxhydhz = random;
            decl static double x[MX*MY*MZ] = random;
            decl static double dia[7*MX*MY*MZ] = random;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    int nrows = mx*my*mz;
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, cacheBlocks=CB, unrollInner=UI,
                                    clFlags=CL, device=0, platform=0)
    for (i=0; i<=nrows-1; i++) {
        int xi = i % mx;
        int yj = (i / mx) % my;
        int zk = i / (mx*my);
        if (xi == 0 || yj == 0 || zk == 0 || xi == mx-1 || yj == my-1 || zk == mz-1) {
            dia[i] = 1.0;
        } else {
            dia[i]         = 2.0*(hyhzdhx + hxhzdhy + hxhydhz) - sc*exp(x[i]);
            dia[i+  nrows] = -hxhydhz;
            dia[i+2*nrows] = -hxhzdhy;
            dia[i+3*nrows] = -hyhzdhx;
            dia[i+4*nrows] = -hyhzdhx;
            dia[i+5*nrows] = -hxhzdhy;
            dia[i+6*nrows] = -hxhydhz;
        }
    }
    ) @*/
    for (i=0; i<=nrows-1; i++) {
        int xi = i % mx;
        int yj = (i / mx) % my;
        int zk = i / (mx*my);
        if (xi == 0 || yj == 0 || zk == 0 || xi == mx-1 || yj == my-1 || zk == mz-1) {
            dia[i] = 1.0;
        } else {
            dia[i]         = 2.0*(hyhzdhx + hxhzdhy + hxhydhz) - sc*exp(x[i]);
            dia[i+  nrows] = -hxhydhz;
            dia[i+2*nrows] = -hxhzdhy;
            dia[i+3*nrows] = -hyhzdhx;
            dia[i+4*nrows] = -hyhzdhx;
            dia[i+5*nrows] = -hxhzdhy;
            dia[i+6*nrows] = -hxhydhz;
        }
    }
    /*@ end @*/
    /*@ end @*/
}
