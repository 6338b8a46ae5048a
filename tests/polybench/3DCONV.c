/* 3DCONV: a 3-D convolution. The CPU reference `conv3D` of PolyBench/GPU 1.0
 * (CUDA/3DCONV/3DConvolution.cu; Scott Grauer-Gray, Will Killian, Louis-Noel Pouchet; University of
 * Delaware; Grauer-Gray et al., "Auto-tuning a high-level language targeted to GPU codes", InPar
 * 2012), its loop nest as written, quoted with attribution (the repository ships no licence file
 * of its own; it derives from PolyBench/C, whose licence permits redistribution with this notice).
 * The macros are PolyBench/GPU's (common/polybench.h and 3DConvolution.cuh, with
 * POLYBENCH_USE_C99_PROTO), defined here so the file stands alone; DATA_TYPE is float as there.
 * The coefficients c11..c33 are locals assigned before the nest, as written. One work-item per
 * (i, j) pair, its k loop in the work-item. */
#define DATA_TYPE float
#define POLYBENCH_LOOP_BOUND(x, y) y
#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)
#define POLYBENCH_3D(var, dim1, dim2, dim3, ddim1, ddim2, ddim3) var[ddim1][ddim2][ddim3]

void conv3D(int ni, int nj, int nk, DATA_TYPE POLYBENCH_3D(A, NI, NJ, NK, ni, nj, nk), DATA_TYPE POLYBENCH_3D(B, NI, NJ, NK, ni, nj, nk))
{
	int i, j, k;
	DATA_TYPE c11, c12, c13, c21, c22, c23, c31, c32, c33;

	c11 = +2;  c21 = +5;  c31 = -8;
	c12 = -3;  c22 = +6;  c32 = -9;
	c13 = +4;  c23 = +7;  c33 = +10;

	/*@ begin PerfTuning(
	    def performance_params {
	        param TI[] = [4, 8];
	        param TJ[] = [8];
	    }
	    def build { arg build_command = 'cc -O2'; }
	    def input_params {
	        param NI[] = [11, 20];
	        param NJ[] = [13, 9];
	        param NK[] = [17, 21];
	        constraint trio = ((NI == 11 and NJ == 13 and NK == 17) or (NI == 20 and NJ == 9 and NK == 21));
	    }
	    def input_vars {
	        decl int ni = NI;
	        decl int nj = NJ;
	        decl int nk = NK;
	        decl static float A[NI][NJ][NK] = random;
	        decl static float B[NI][NJ][NK] = random;
	    }
	    def performance_counter { arg repetitions = 2; }
	    def search { arg algorithm = 'Exhaustive'; }
	) @*/
	/*@ begin Loop(transform OpenCL(tile=[('i',TI),('j',TJ)])
	for (i = 1; i < _PB_NI - 1; ++i) // 0
	{
		for (j = 1; j < _PB_NJ - 1; ++j) // 1
		{
			for (k = 1; k < _PB_NK -1; ++k) // 2
			{
				B[i][j][k] = c11 * A[(i - 1)][(j - 1)][(k - 1)]  +  c13 * A[(i + 1)][(j - 1)][(k - 1)]
					     +   c21 * A[(i - 1)][(j - 1)][(k - 1)]  +  c23 * A[(i + 1)][(j - 1)][(k - 1)]
					     +   c31 * A[(i - 1)][(j - 1)][(k - 1)]  +  c33 * A[(i + 1)][(j - 1)][(k - 1)]
					     +   c12 * A[(i + 0)][(j - 1)][(k + 0)]  +  c22 * A[(i + 0)][(j + 0)][(k + 0)]   
					     +   c32 * A[(i + 0)][(j + 1)][(k + 0)]  +  c11 * A[(i - 1)][(j - 1)][(k + 1)]  
					     +   c13 * A[(i + 1)][(j - 1)][(k + 1)]  +  c21 * A[(i - 1)][(j + 0)][(k + 1)]  
					     +   c23 * A[(i + 1)][(j + 0)][(k + 1)]  +  c31 * A[(i - 1)][(j + 1)][(k + 1)]  
					     +   c33 * A[(i + 1)][(j + 1)][(k + 1)];
			}
		}
	}
	) @*/
	for (i = 1; i < _PB_NI - 1; ++i) // 0
	{
		for (j = 1; j < _PB_NJ - 1; ++j) // 1
		{
			for (k = 1; k < _PB_NK -1; ++k) // 2
			{
				B[i][j][k] = c11 * A[(i - 1)][(j - 1)][(k - 1)]  +  c13 * A[(i + 1)][(j - 1)][(k - 1)]
					     +   c21 * A[(i - 1)][(j - 1)][(k - 1)]  +  c23 * A[(i + 1)][(j - 1)][(k - 1)]
					     +   c31 * A[(i - 1)][(j - 1)][(k - 1)]  +  c33 * A[(i + 1)][(j - 1)][(k - 1)]
					     +   c12 * A[(i + 0)][(j - 1)][(k + 0)]  +  c22 * A[(i + 0)][(j + 0)][(k + 0)]   
					     +   c32 * A[(i + 0)][(j + 1)][(k + 0)]  +  c11 * A[(i - 1)][(j - 1)][(k + 1)]  
					     +   c13 * A[(i + 1)][(j - 1)][(k + 1)]  +  c21 * A[(i - 1)][(j + 0)][(k + 1)]  
					     +   c23 * A[(i + 1)][(j + 0)][(k + 1)]  +  c31 * A[(i - 1)][(j + 1)][(k + 1)]  
					     +   c33 * A[(i + 1)][(j + 1)][(k + 1)];
			}
		}
	}
	/*@ end @*/
	/*@ end @*/
}
