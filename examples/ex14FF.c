/* The nonlinear function F(u) of the 3-D solid fuel ignition (Bratu) problem
 *     -laplace(u) - lambda*exp(u) = 0 in the unit cube, u = 0 on the boundary,
 * discretised with the 7-point stencil: PETSc SNES ex14's FormFunction, the "ex14FF" of the OrCL
 * paper (Chaimov, Norris, Malony: "Toward Multi-target Autotuning for Accelerators", ICPADS
 * 2014, Figure 8). On an mx x my x mz grid stored x-fastest as a 1-D array,
 *     F = u                                                          on the boundary,
 *     F = (2u - uW - uE)*hyhzdhx + (2u - uS - uN)*hxhzdhy + (2u - uD - uU)*hxhydhz - sc*exp(u)
 * inside, with the neighbours at i-1/i+1 (x), i-mx/i+mx (y), i-mx*my/i+mx*my (z). The paper's
 * loop tests the boundary on i directly; here the grid coordinates are computed with % and /.
 * sc = hx*hy*hz*lambda and hyhzdhx = hy*hz/hx etc. are the caller's. 2 x 2 x 2 x 2 = 16
 * configurations, two grids (8^3 and 24 x 20 x 16, paired by an input constraint). */
#include <math.h>

void FormFunction(int mx, int my, int mz, double sc, double hyhzdhx, double hxhzdhy,
                  double hxhydhz, const double *x, double *f) {
    int i;
    /*@ begin PerfTuning(
        def performance_params {
            param WI[] = [32, 128];
            param WG[] = [8, 32];
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
            decl static double f[MX*MY*MZ] = 0;
        }
        def performance_counter { arg repetitions = 2; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workGroups=WG, workItemsPerGroup=WI, unrollInner=UI,
                                    clFlags=CL, device=0, platform=0)
    for (i=0; i<=mx*my*mz-1; i++) {
        int xi = i % mx;
        int yj = (i / mx) % my;
        int zk = i / (mx*my);
        if (xi == 0 || yj == 0 || zk == 0 || xi == mx-1 || yj == my-1 || zk == mz-1) {
            f[i] = x[i];
        } else {
            double u = x[i];
            f[i] = (2.0*u - x[i-1] - x[i+1])*hyhzdhx
                 + (2.0*u - x[i-mx] - x[i+mx])*hxhzdhy
                 + (2.0*u - x[i-mx*my] - x[i+mx*my])*hxhydhz
                 - sc*exp(u);
        }
    }
    ) @*/
    for (i=0; i<=mx*my*mz-1; i++) {
        int xi = i % mx;
        int yj = (i / mx) % my;
        int zk = i / (mx*my);
        if (xi == 0 || yj == 0 || zk == 0 || xi == mx-1 || yj == my-1 || zk == mz-1) {
            f[i] = x[i];
        } else {
            double u = x[i];
            f[i] = (2.0*u - x[i-1] - x[i+1])*hyhzdhx
                 + (2.0*u - x[i-mx] - x[i+mx])*hxhzdhy
                 + (2.0*u - x[i-mx*my] - x[i+mx*my])*hxhydhz
                 - sc*exp(u);
        }
    }
    /*@ end @*/
    /*@ end @*/
}
