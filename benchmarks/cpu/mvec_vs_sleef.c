/* How kjit chose its vector math library (src/runtime/mvec.c): glibc's
 * libmvec against SLEEF 3.5 (Debian's libsleef-dev), the 8-lane AVX2 and
 * 16-lane AVX-512 float32 forms of sin, cos, exp and log over 16M inputs
 * in [LO, HI]: best of three passes, and the largest error in ULP against
 * libm's double function rounded to float. Needs libsleef-dev (not a
 * dependency of kjit) and an AVX-512 CPU:
 *
 *   cc -O2 -mavx512f -mavx2 -mfma benchmarks/cpu/mvec_vs_sleef.c -lsleef -lmvec -lm -o /tmp/mvs
 *   /tmp/mvs -100 100; /tmp/mvs 0 1
 *
 * Figures in docs/performance.md ("Vector math"). */
#include <immintrin.h>
#include <math.h>
#include <sleef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
__m256 _ZGVdN8v_sinf(__m256); __m256 _ZGVdN8v_cosf(__m256); __m256 _ZGVdN8v_expf(__m256); __m256 _ZGVdN8v_logf(__m256);
__m512 _ZGVeN16v_sinf(__m512); __m512 _ZGVeN16v_cosf(__m512);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static double ulp(float got, double want){ float w=(float)want; if (isnan(got)&&isnan(want)) return 0; double u = nextafterf(fabsf(w), INFINITY) - fabsf(w); if (w==0) u = 1.4e-45; return fabs(got-want)/u; }
#define N (1<<24)
typedef __m256 (*f8)(__m256); typedef __m512 (*f16)(__m512);
static void run8(const char*name, f8 f, double(*ref)(double), float*a, float*o){
  double best=1e9; for(int r=0;r<3;r++){double t=now(); for(int i=0;i<N;i+=8)_mm256_storeu_ps(o+i,f(_mm256_loadu_ps(a+i))); t=now()-t; if(t<best)best=t;}
  double mu=0; for(int i=0;i<N;i++){double u=ulp(o[i],ref(a[i])); if(u>mu)mu=u;}
  printf("%-22s %7.2f ms  max ulp %.2f\n",name,best*1e3,mu);}
static void run16(const char*name, f16 f, double(*ref)(double), float*a, float*o){
  double best=1e9; for(int r=0;r<3;r++){double t=now(); for(int i=0;i<N;i+=16)_mm512_storeu_ps(o+i,f(_mm512_loadu_ps(a+i))); t=now()-t; if(t<best)best=t;}
  double mu=0; for(int i=0;i<N;i++){double u=ulp(o[i],ref(a[i])); if(u>mu)mu=u;}
  printf("%-22s %7.2f ms  max ulp %.2f\n",name,best*1e3,mu);}
int main(int argc,char**argv){ float lo=argc>1?atof(argv[1]):-100, hi=argc>2?atof(argv[2]):100;
  float*a=aligned_alloc(64,N*4),*o=aligned_alloc(64,N*4); srand(1); for(int i=0;i<N;i++) a[i]=lo+(hi-lo)*(rand()/(float)RAND_MAX);
  double best=1e9; for(int r=0;r<3;r++){double t=now(); for(int i=0;i<N;i++)o[i]=sinf(a[i]); t=now()-t; if(t<best)best=t;} printf("%-22s %7.2f ms\n","scalar sinf",best*1e3);
  run8("libmvec sinf8", _ZGVdN8v_sinf, sin, a, o);
  run8("sleef sinf8_u10", Sleef_sinf8_u10avx2, sin, a, o);
  run8("sleef sinf8_u35", Sleef_sinf8_u35avx2, sin, a, o);
  run8("libmvec cosf8", _ZGVdN8v_cosf, cos, a, o);
  run8("sleef cosf8_u10", Sleef_cosf8_u10avx2, cos, a, o);
  run16("libmvec sinf16", _ZGVeN16v_sinf, sin, a, o);
  run16("sleef sinf16_u10", Sleef_sinf16_u10avx512f, sin, a, o);
  run16("libmvec cosf16", _ZGVeN16v_cosf, cos, a, o);
  run16("sleef cosf16_u10", Sleef_cosf16_u10avx512f, cos, a, o);
  for(int i=0;i<N;i++) a[i]=fabsf(a[i])*0.5f+1e-3f;
  run8("libmvec expf8 ", _ZGVdN8v_expf, exp, a, o);
  run8("sleef expf8_u10", Sleef_expf8_u10avx2, exp, a, o);
  run8("libmvec logf8", _ZGVdN8v_logf, log, a, o);
  run8("sleef logf8_u10", Sleef_logf8_u10avx2, log, a, o);
}
