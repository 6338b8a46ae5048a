/* fdtd-2d: the kernel of PolyBench/C 4.2.1's stencils/fdtd-2d/fdtd-2d.c (Louis-Noel Pouchet, Tomofumi Yuki;
 * The Ohio State University), whose licence permits redistribution with this notice. Its loops as
 * written; PolyBench's macros kept
 * (their definitions from utilities/polybench.h and fdtd-2d.h with POLYBENCH_USE_C99_PROTO are
 * below, so the file stands alone; orcl expands them as `cc -E` would). One region holds the whole time loop:
 * orcl keeps `t` on the host and runs each nest of its body as a kernel per step, with the arrays
 * on the device from the first step to the last. Four kernels per step (the first a row of ey set from _fict_[t]: the step's value is a kernel argument);
 * `tile` maps the three 2-D nests, the 1-D first one is the 1-D map of workItemsPerGroup. */
#define DATA_TYPE double
#define SCALAR_VAL(x) x
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_TMAX POLYBENCH_LOOP_BOUND(TMAX, tmax)
#define _PB_NY POLYBENCH_LOOP_BOUND(NY, ny)
#define _PB_NX POLYBENCH_LOOP_BOUND(NX, nx)
#define POLYBENCH_1D(var, dim1, ddim1) var[ddim1]
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[ddim1][ddim2]
void kernel_fdtd_2d(int tmax,
		    int nx,
		    int ny,
		    DATA_TYPE POLYBENCH_2D(ex,NX,NY,nx,ny),
		    DATA_TYPE POLYBENCH_2D(ey,NX,NY,nx,ny),
		    DATA_TYPE POLYBENCH_2D(hz,NX,NY,nx,ny),
		    DATA_TYPE POLYBENCH_1D(_fict_,TMAX,tmax))
{
  int t, i, j;

#pragma scop

  /*@ begin PerfTuning(
      def performance_params {
          param WI[] = [8]; param TI[] = [4, 8]; param TJ[] = [16];
      }
      def build { arg build_command = 'cc -O2'; }
      def input_params {
          param T[] = [5];
          param NX[] = [13, 30];
          param NY[] = [21];
      }
      def input_vars {
          decl int tmax = T;
          decl int nx = NX;
          decl int ny = NY;
          decl static double ex[NX][NY] = random;
          decl static double ey[NX][NY] = random;
          decl static double hz[NX][NY] = random;
          decl static double _fict_[T] = random;
      }
      def performance_counter { arg repetitions = 2; }
      def search { arg algorithm = 'Exhaustive'; }
  ) @*/
  /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, tile=[('i',TI),('j',TJ)])
  for(t = 0; t < _PB_TMAX; t++)
    {
      for (j = 0; j < _PB_NY; j++)
	ey[0][j] = _fict_[t];
      for (i = 1; i < _PB_NX; i++)
	for (j = 0; j < _PB_NY; j++)
	  ey[i][j] = ey[i][j] - SCALAR_VAL(0.5)*(hz[i][j]-hz[i-1][j]);
      for (i = 0; i < _PB_NX; i++)
	for (j = 1; j < _PB_NY; j++)
	  ex[i][j] = ex[i][j] - SCALAR_VAL(0.5)*(hz[i][j]-hz[i][j-1]);
      for (i = 0; i < _PB_NX - 1; i++)
	for (j = 0; j < _PB_NY - 1; j++)
	  hz[i][j] = hz[i][j] - SCALAR_VAL(0.7)*  (ex[i][j+1] - ex[i][j] +
				       ey[i+1][j] - ey[i][j]);
    }
  ) @*/
  for(t = 0; t < _PB_TMAX; t++)
    {
      for (j = 0; j < _PB_NY; j++)
	ey[0][j] = _fict_[t];
      for (i = 1; i < _PB_NX; i++)
	for (j = 0; j < _PB_NY; j++)
	  ey[i][j] = ey[i][j] - SCALAR_VAL(0.5)*(hz[i][j]-hz[i-1][j]);
      for (i = 0; i < _PB_NX; i++)
	for (j = 1; j < _PB_NY; j++)
	  ex[i][j] = ex[i][j] - SCALAR_VAL(0.5)*(hz[i][j]-hz[i][j-1]);
      for (i = 0; i < _PB_NX - 1; i++)
	for (j = 0; j < _PB_NY - 1; j++)
	  hz[i][j] = hz[i][j] - SCALAR_VAL(0.7)*  (ex[i][j+1] - ex[i][j] +
				       ey[i+1][j] - ey[i][j]);
    }
  /*@ end @*/
  /*@ end @*/

#pragma endscop
}
