/* 2DCONV: a 3x3 convolution. The CPU reference `conv2D` of PolyBench/GPU 1.0
 * (CUDA/2DCONV/2DConvolution.cu; Scott Grauer-Gray, Will Killian, Louis-Noel Pouchet; University of
 * Delaware; Grauer-Gray et al., "Auto-tuning a high-level language targeted to GPU codes", InPar
 * 2012), its loop nest as written, quoted with attribution (the repository ships no licence file
 * of its own; it derives from PolyBench/C, whose licence permits redistribution with this notice).
 * The macros are PolyBench/GPU's (common/polybench.h and 2DConvolution.cuh, with
 * POLYBENCH_USE_C99_PROTO), defined here so the file stands alone; DATA_TYPE is float as there.
 * The coefficients c11..c33 are locals assigned before the nest, as written. */
#define DATA_TYPE float
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[ddim1][ddim2]

void conv2D(int ni, int nj, DATA_TYPE POLYBENCH_2D(A, NI, NJ, ni, nj), DATA_TYPE POLYBENCH_2D(B, NI, NJ, ni, nj))
{
	int i, j;
	DATA_TYPE c11, c12, c13, c21, c22, c23, c31, c32, c33;

	c11 = +0.2;  c21 = +0.5;  c31 = -0.8;
	c12 = -0.3;  c22 = +0.6;  c32 = -0.9;
	c13 = +0.4;  c23 = +0.7;  c33 = +0.10;


	/*@ begin PerfTuning(
	    def performance_params {
	        param TI[] = [4, 8];
	        param TJ[] = [16];
	    }
	    def build { arg build_command = 'cc -O2'; }
	    def input_params {
	        param NI[] = [23, 40];
	        param NJ[] = [37, 19];
	        constraint pair = ((NI == 23 and NJ == 37) or (NI == 40 and NJ == 19));
	    }
	    def input_vars {
	        decl int ni = NI;
	        decl int nj = NJ;
	        decl static float A[NI][NJ] = random;
	        decl static float B[NI][NJ] = random;
	    }
	    def performance_counter { arg repetitions = 2; }
	    def search { arg algorithm = 'Exhaustive'; }
	) @*/
	/*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ)])
	for (i = 1; i < _PB_NI - 1; ++i) // 0
	{
		for (j = 1; j < _PB_NJ - 1; ++j) // 1
		{
			B[i][j] = c11 * A[(i - 1)][(j - 1)]  +  c12 * A[(i + 0)][(j - 1)]  +  c13 * A[(i + 1)][(j - 1)]
				+ c21 * A[(i - 1)][(j + 0)]  +  c22 * A[(i + 0)][(j + 0)]  +  c23 * A[(i + 1)][(j + 0)] 
				+ c31 * A[(i - 1)][(j + 1)]  +  c32 * A[(i + 0)][(j + 1)]  +  c33 * A[(i + 1)][(j + 1)];
		}
	}
	) @*/
	for (i = 1; i < _PB_NI - 1; ++i) // 0
	{
		for (j = 1; j < _PB_NJ - 1; ++j) // 1
		{
			B[i][j] = c11 * A[(i - 1)][(j - 1)]  +  c12 * A[(i + 0)][(j - 1)]  +  c13 * A[(i + 1)][(j - 1)]
				+ c21 * A[(i - 1)][(j + 0)]  +  c22 * A[(i + 0)][(j + 0)]  +  c23 * A[(i + 1)][(j + 0)] 
				+ c31 * A[(i - 1)][(j + 1)]  +  c32 * A[(i + 0)][(j + 1)]  +  c33 * A[(i + 1)][(j + 1)];
		}
	}
	/*@ end @*/
	/*@ end @*/
}
