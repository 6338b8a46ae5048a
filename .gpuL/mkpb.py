"""PolyBench/C 4.2.1 gemm as written (tests/polybench/gemm.c), DATA_TYPE float, NI=NJ=NK=N,
with the performance parameters and transforms of a bench/tensor/make_case.py space (its loop
variable l renamed k): the tensor-core forms on a loop nobody on the team wrote."""
import re, subprocess, sys
space, n, backend = sys.argv[1], int(sys.argv[2]), sys.argv[3]
case = subprocess.run([sys.executable, "bench/tensor/make_case.py", "NN", str(n), str(n), str(n), space],
                      check=True, capture_output=True, text=True).stdout
params = re.search(r"(def performance_params \{.*?\n        \})", case, re.S).group(1)
tr = re.search(r"(transform OpenCL\(.*?\))\n\s*(transform CUDA\(.*?\))\n", case, re.S)
transform = (tr.group(1) if backend == "opencl" else tr.group(2)).replace("('l',TK)", "('k',TK)")
if len(sys.argv) > 4:  # fixed values: NAME=V,...
    for kv in sys.argv[4].split(","):
        k, v = kv.split("=")
        params = re.sub(rf"param {k}\[\] = \[.*?\];", f"param {k}[] = [{v}];", params)
src = open("tests/polybench/gemm.c").read()
src = src.replace("#define DATA_TYPE double", "#define DATA_TYPE float")
src = re.sub(r"def performance_params \{.*?\}", lambda m: params, src, count=1, flags=re.S)
src = re.sub(r"def input_params \{.*?\n      \}", f"def input_params {{ param NI[] = [{n}]; param NJ[] = [{n}]; param NK[] = [{n}]; }}", src, count=1, flags=re.S)
src = src.replace("decl double", "decl float").replace("decl static double", "decl static float")
src = src.replace("arg repetitions = 2;", "arg repetitions = 5;")
src = re.sub(r"transform OpenCL\(tile=.*?device=0, platform=0\)", lambda m: transform, src, count=1)
print(src)
