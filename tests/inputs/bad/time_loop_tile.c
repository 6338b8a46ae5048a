/* fdtd-2d (tests/polybench/fdtd-2d.c) tiled over i, j and t: no nest has all three (t is the time loop). */
/* fdtd-2d: the kernel of PolyBench/C 4.2.1's stencils/fdtd-2d/fdtd-2d.c (Louis-Noel Pouchet, Tomofumi Yuki;
 * The Ohio State University), whose licence permits redistribution with this notice. Its loops as
 * written; PolyBench's macros expanded by hand (_PB_TMAX -> tmax, _PB_NX -> nx, _PB_NY -> ny, SCALAR_VAL(x) -> x, DATA_TYPE -> double). One region holds the whole time loop:
 * orcl keeps `t` on the host and runs each nest of its body as a kernel per step, with the arrays
 * on the device from the first step to the last. Four kernels per step (the first a row of ey set from _fict_[t]: the step's value is a kernel argument). */
void kernel_fdtd_2d(int tmax, int nx, int ny, double ex[nx][ny], double ey[nx][ny], double hz[nx][ny], double _fict_[tmax])
{
  int t, i, j;
  /*@ begin PerfTuning(
      def performance_params {
          param WI[] = [8, 32];
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
  /*@ begin Loop(transform OpenCL(tile=[('i',WI),('j',16),('t',2)])
  for(t = 0; t < tmax; t++)
    {
      for (j = 0; j < ny; j++)
	ey[0][j] = _fict_[t];
      for (i = 1; i < nx; i++)
	for (j = 0; j < ny; j++)
	  ey[i][j] = ey[i][j] - 0.5*(hz[i][j]-hz[i-1][j]);
      for (i = 0; i < nx; i++)
	for (j = 1; j < ny; j++)
	  ex[i][j] = ex[i][j] - 0.5*(hz[i][j]-hz[i][j-1]);
      for (i = 0; i < nx - 1; i++)
	for (j = 0; j < ny - 1; j++)
	  hz[i][j] = hz[i][j] - 0.7*  (ex[i][j+1] - ex[i][j] +
				       ey[i+1][j] - ey[i][j]);
    }
  ) @*/
  for(t = 0; t < tmax; t++)
    {
      for (j = 0; j < ny; j++)
	ey[0][j] = _fict_[t];
      for (i = 1; i < nx; i++)
	for (j = 0; j < ny; j++)
	  ey[i][j] = ey[i][j] - 0.5*(hz[i][j]-hz[i-1][j]);
      for (i = 0; i < nx; i++)
	for (j = 1; j < ny; j++)
	  ex[i][j] = ex[i][j] - 0.5*(hz[i][j]-hz[i][j-1]);
      for (i = 0; i < nx - 1; i++)
	for (j = 0; j < ny - 1; j++)
	  hz[i][j] = hz[i][j] - 0.7*  (ex[i][j+1] - ex[i][j] +
				       ey[i+1][j] - ey[i][j]);
    }
  /*@ end @*/
  /*@ end @*/
}
