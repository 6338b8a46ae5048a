/* tests/e2e.rs: 4 configurations for the ORCL_TEST_FAULT tests (hang, crash, wrong) and for re-runs. */
void VecAXPY(int n, double a, const double *x, double *y) {
    int i;
    /*@ begin PerfTuning(
        let L0 = [1];
let L1 = [L0];
let L2 = [L1];
let L3 = [L2];
let L4 = [L3];
let L5 = [L4];
let L6 = [L5];
let L7 = [L6];
let L8 = [L7];
let L9 = [L8];
let L10 = [L9];
let L11 = [L10];
let L12 = [L11];
let L13 = [L12];
let L14 = [L13];
let L15 = [L14];
let L16 = [L15];
let L17 = [L16];
let L18 = [L17];
let L19 = [L18];
let L20 = [L19];
let L21 = [L20];
let L22 = [L21];
let L23 = [L22];
let L24 = [L23];
let L25 = [L24];
let L26 = [L25];
let L27 = [L26];
let L28 = [L27];
let L29 = [L28];
let L30 = [L29];
let L31 = [L30];
let L32 = [L31];
let L33 = [L32];
let L34 = [L33];
let L35 = [L34];
let L36 = [L35];
let L37 = [L36];
let L38 = [L37];
let L39 = [L38];
let L40 = [L39];
let L41 = [L40];
let L42 = [L41];
let L43 = [L42];
let L44 = [L43];
let L45 = [L44];
let L46 = [L45];
let L47 = [L46];
let L48 = [L47];
let L49 = [L48];
let L50 = [L49];
let L51 = [L50];
let L52 = [L51];
let L53 = [L52];
let L54 = [L53];
let L55 = [L54];
let L56 = [L55];
let L57 = [L56];
let L58 = [L57];
let L59 = [L58];
let L60 = [L59];
let L61 = [L60];
let L62 = [L61];
let L63 = [L62];
let L64 = [L63];
let L65 = [L64];
let L66 = [L65];
let L67 = [L66];
let L68 = [L67];
let L69 = [L68];
let L70 = [L69];
let L71 = [L70];
let L72 = [L71];
let L73 = [L72];
let L74 = [L73];
let L75 = [L74];
let L76 = [L75];
let L77 = [L76];
let L78 = [L77];
let L79 = [L78];
let L80 = [L79];
let L81 = [L80];
let L82 = [L81];
let L83 = [L82];
let L84 = [L83];
let L85 = [L84];
let L86 = [L85];
let L87 = [L86];
let L88 = [L87];
let L89 = [L88];
let L90 = [L89];
let L91 = [L90];
let L92 = [L91];
let L93 = [L92];
let L94 = [L93];
let L95 = [L94];
let L96 = [L95];
let L97 = [L96];
let L98 = [L97];
let L99 = [L98];
let L100 = [L99];
def performance_params {
            param WI[] = [16, 64];
            param UI[] = [1, 2];
        }
        def build { arg build_command = 'cc -O2'; }
        def input_params { param N[] = [1000]; }
        def input_vars {
            decl int n = N;
            decl double a = random;
            decl static double x[N] = random;
            decl static double y[N] = random;
        }
        def performance_counter { arg repetitions = 2; arg timeout = '3s'; }
        def search { arg algorithm = 'Exhaustive'; }
    ) @*/
    /*@ begin Loop(transform OpenCL(workItemsPerGroup=WI, unrollInner=UI)
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    ) @*/
    for (i=0; i<=n-1; i++)
        y[i] += a*x[i];
    /*@ end @*/
    /*@ end @*/
}
