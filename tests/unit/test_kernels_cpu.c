/* SPDX-License-Identifier: BSD-2-Clause */
/* Kernels on the cpu target (src/codegen/llvm_kernel.c, rt_launch.c):
 * programs compiled through the compile pipeline's stages of KIR → kj_codegen_host, main()
 * run with its print() output captured and compared with what the same
 * program prints under Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1), and
 * the errors of launches CUDA rejects and of unsupported constructs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "codegen/codegen.h"
#include "frontend/parser.h"
#include "ir/sema.h"
#include "runtime/rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FX_OPT_LEVEL 3
#include "jit_fixture.h"

/* Launches CUDA rejects, and divergent barriers, raise RuntimeError. */
static void expect_runtime_error(fx *x, const char *text, const char *want)
{
    expect_error(x, text, KJ_RT_RUNTIME, want);
}

static kj_jit *compile(fx *x, const char *text, bool keep_ir)
{
    kj_codegen_opts o = {.opt_level = 3, .verify = true, .keep_ir = keep_ir};
    return compile_as(x, "prog.k", text, &o);
}

/* The first diagnostic's message. */
static const char *first_error(fx *x)
{
    assert_true(x->d.n > 0);
    return x->d.v[0].msg;
}

/* Threads that return before a barrier are left out of it and of every
 * later region. */
static const char prog_early_return[] =
    "from numba import cuda\n"
    "import numpy as np\n"
    "\n"
    "@cuda.jit\n"
    "def early(x, out):\n"
    "    buf = cuda.shared.array(32, np.float64)\n"
    "    t = cuda.threadIdx.x\n"
    "    if t >= 24:\n"
    "        return\n"
    "    buf[t] = x[t]\n"
    "    cuda.syncthreads()\n"
    "    if t == 0:\n"
    "        s = 0.0\n"
    "        for k in range(24):\n"
    "            s += buf[k]\n"
    "        out[0] = s\n"
    "\n"
    "def main():\n"
    "    x = np.arange(32).astype(np.float64)\n"
    "    out = np.zeros(1)\n"
    "    early[1, 32](x, out)\n"
    "    print(out[0])\n";

static void test_early_return(void **state) { expect_output(*state, prog_early_return, 
    "276.0\n"); }

/* A barrier inside an if whose condition is the same in the whole block
 * (blockIdx); a 2-D block; a 2-D shared array; local arrays per thread. */
static const char prog_block_if[] =
    "from numba import cuda\n"
    "import numpy as np\n"
    "\n"
    "@cuda.jit\n"
    "def blockif(out):\n"
    "    sh = cuda.shared.array((4, 8), np.int32)\n"
    "    tx = cuda.threadIdx.x\n"
    "    ty = cuda.threadIdx.y\n"
    "    loc = cuda.local.array(2, np.int32)\n"
    "    loc[0] = tx\n"
    "    loc[1] = ty\n"
    "    if cuda.blockIdx.x % 2 == 0:\n"
    "        sh[ty, tx] = tx + 10 * ty\n"
    "        cuda.syncthreads()\n"
    "        out[cuda.blockIdx.x, ty, tx] = sh[3 - ty, 7 - tx] + loc[0] * 0\n"
    "    else:\n"
    "        sh[ty, tx] = -1\n"
    "        cuda.syncthreads()\n"
    "        out[cuda.blockIdx.x, ty, tx] = sh[ty, tx] * loc[1]\n"
    "\n"
    "def main():\n"
    "    out = np.zeros((2, 4, 8), dtype=np.int32)\n"
    "    blockif[2, (8, 4)](out)\n"
    "    print(out[0])\n"
    "    print(out[1])\n";

static void test_block_if(void **state) { expect_output(*state, prog_block_if, 
    "[[37 36 35 34 33 32 31 30]\n"
    " [27 26 25 24 23 22 21 20]\n"
    " [17 16 15 14 13 12 11 10]\n"
    " [ 7  6  5  4  3  2  1  0]]\n"
    "[[ 0  0  0  0  0  0  0  0]\n"
    " [-1 -1 -1 -1 -1 -1 -1 -1]\n"
    " [-2 -2 -2 -2 -2 -2 -2 -2]\n"
    " [-3 -3 -3 -3 -3 -3 -3 -3]]\n"); }

/* print in a kernel, laneid, warpsize, popc, gridsize. */
static const char prog_lane[] =
    "from numba import cuda\n"
    "import numpy as np\n"
    "\n"
    "@cuda.jit\n"
    "def k(a):\n"
    "    i = cuda.grid(1)\n"
    "    if i == 0:\n"
    "        print(\"gridsize\", cuda.gridsize(1), \"warp\", cuda.warpsize)\n"
    "    if i < a.size:\n"
    "        a[i] = cuda.laneid + cuda.popc(i) * 100\n"
    "\n"
    "def main():\n"
    "    a = np.zeros(40, dtype=np.int64)\n"
    "    k[2, 40](a)\n"
    "    print(a[30:])\n";

static void test_lane_print(void **state) { expect_output(*state, prog_lane, 
    "gridsize 80 warp 32\n"
    "[430 531 100 201 202 303 204 305 306 407]\n"); }

#define KERNEL_FILL                                                                                \
    "from numba import cuda\n"                                                                     \
    "import numpy as np\n"                                                                         \
    "@cuda.jit\n"                                                                                  \
    "def fill(a):\n"                                                                               \
    "    i = cuda.grid(1)\n"                                                                       \
    "    if i < a.size:\n"                                                                         \
    "        a[i] = 1.0\n"

static void test_launch_zero_block(void **state)
{
    expect_runtime_error(*state,
                 KERNEL_FILL "def main():\n"
                             "    a = np.zeros(4)\n"
                             "    fill[2, 0](a)\n",
                 "prog.k:10:5: RuntimeError: CUDA_ERROR_INVALID_VALUE: kernel 'fill' launched with block (0, 1, "
                 "1): every dimension must be at least 1");
}

static void test_launch_too_many_threads(void **state)
{
    expect_runtime_error(*state,
                 KERNEL_FILL "def main():\n"
                             "    a = np.zeros(4)\n"
                             "    fill[(1, 1), (64, 32)](a)\n",
                 "prog.k:10:5: RuntimeError: CUDA_ERROR_INVALID_VALUE: kernel 'fill' launched with block (64, 32, "
                 "1): a block has at most 1024 threads");
}

static void test_launch_zero_grid(void **state)
{
    expect_runtime_error(*state,
                 KERNEL_FILL "def main():\n"
                             "    a = np.zeros(4)\n"
                             "    fill[(1, 0), 4](a)\n",
                 "prog.k:10:5: RuntimeError: CUDA_ERROR_INVALID_VALUE: kernel 'fill' launched with grid (1, 0, "
                 "1): every dimension must be at least 1");
}

/* A while loop around a barrier whose exit differs between threads. */
static void test_divergent_break(void **state)
{
    expect_runtime_error(*state,
                 "from numba import cuda\n"
                 "import numpy as np\n"
                 "@cuda.jit\n"
                 "def k(a):\n"
                 "    t = cuda.threadIdx.x\n"
                 "    n = 0\n"
                 "    while True:\n"
                 "        if n > t:\n"
                 "            break\n"
                 "        cuda.syncthreads()\n"
                 "        n += 1\n"
                 "    a[t] = n\n"
                 "def main():\n"
                 "    a = np.zeros(4)\n"
                 "    k[1, 1](a)\n"
                 "    print(a[0])\n"
                 "    k[1, 4](a)\n",
                 "prog.k:8:9: RuntimeError: threads of a block disagree on a condition around "
                 "cuda.syncthreads() (on the cpu target every thread of a block must reach the same barriers)");
}

/* A uniform while loop with break around barriers runs to completion. */
static void test_uniform_while(void **state)
{
    expect_output(*state,
                  "from numba import cuda\n"
                  "import numpy as np\n"
                  "@cuda.jit\n"
                  "def k(a):\n"
                  "    sh = cuda.shared.array(8, np.int64)\n"
                  "    t = cuda.threadIdx.x\n"
                  "    sh[t] = t\n"
                  "    n = 0\n"
                  "    while True:\n"
                  "        cuda.syncthreads()\n"
                  "        v = sh[(t + 1) % 8]\n"
                  "        cuda.syncthreads()\n"
                  "        sh[t] = v\n"
                  "        n += 1\n"
                  "        if n == 3:\n"
                  "            break\n"
                  "    a[t] = sh[t]\n"
                  "def main():\n"
                  "    a = np.zeros(8, dtype=np.int64)\n"
                  "    k[1, 8](a)\n"
                  "    print(a)\n",
                  "[3 4 5 6 7 0 1 2]\n");
}

/* Warp operations in a block of 48 threads (the second warp has 16 lanes):
 * a shuffle from a lane the block does not have gives the thread its own
 * value (64-bit values shuffle whole), activemask() names the lanes there
 * are. Worked by hand: lanes 0..23 of warp 0 get t + 8, lanes 24..31
 * their own t; in warp 1 lanes 0..7 get t + 8, lanes 8..15 their own. */
static void test_warp_partial_block(void **state)
{
    expect_output(*state,
                  "from numba import cuda\n"
                  "import numpy as np\n"
                  "@cuda.jit\n"
                  "def k(out, m):\n"
                  "    t = cuda.threadIdx.x\n"
                  "    out[t] = cuda.shfl_down_sync(0xFFFFFFFF, np.int64(t) * 8589934592, 8) // 8589934592\n"
                  "    m[t] = cuda.activemask()\n"
                  "def main():\n"
                  "    out = np.zeros(48, dtype=np.int64)\n"
                  "    m = np.zeros(48, dtype=np.int64)\n"
                  "    k[1, 48](out, m)\n"
                  "    print(out[20:28], out[32:48])\n"
                  "    print(m[0], m[47])\n",
                  "[28 29 30 31 24 25 26 27] [40 41 42 43 44 45 46 47 40 41 42 43 44 45 46 47]\n"
                  "4294967295 65535\n");
}

/* A device function with warp operations is inlined into its kernel
 * (kir_inline.c): an early return, a return inside a loop, a call inside
 * another inlined device function. Worked by hand: lane 0 broadcasts 3.0;
 * the ballot of a[t] > 5 (threads 6..31) has its lowest bit at lane 6. */
static void test_warp_op_in_device_fn(void **state)
{
    expect_output(*state,
                  "from numba import cuda\n"
                  "import numpy as np\n"
                  "@cuda.jit(device=True)\n"
                  "def first(v):\n"
                  "    return cuda.shfl_sync(0xffffffff, v, 0)\n"
                  "@cuda.jit(device=True)\n"
                  "def lowest(p):\n"
                  "    b = cuda.ballot_sync(0xffffffff, p)\n"
                  "    if b == 0:\n"
                  "        return -1\n"
                  "    for k in range(32):\n"
                  "        if (b >> k) & 1:\n"
                  "            return k\n"
                  "    return -2\n"
                  "@cuda.jit(device=True)\n"
                  "def both(v):\n"
                  "    return first(v) * 100.0 + lowest(v > 5.0)\n"
                  "@cuda.jit\n"
                  "def k(a, out):\n"
                  "    t = cuda.threadIdx.x\n"
                  "    out[t] = both(a[t])\n"
                  "def main():\n"
                  "    a = np.arange(32).astype(np.float64)\n"
                  "    a[0] = 3.0\n"
                  "    out = np.zeros(32)\n"
                  "    k[1, 32](a, out)\n"
                  "    print(out[0], out[31])\n",
                  "306.0 306.0\n");
}

/* Recursion through a device function that is inlined cannot be. */
static void test_warp_device_recursion(void **state)
{
    fx *x = *state;
    const char *p = "from numba import cuda\n"
                    "import numpy as np\n"
                    "@cuda.jit(device=True)\n"
                    "def tree(v, d):\n"
                    "    if d == 0:\n"
                    "        return v\n"
                    "    return tree(v + cuda.shfl_xor_sync(0xffffffff, v, d), d // 2)\n"
                    "@cuda.jit\n"
                    "def k(a):\n"
                    "    a[0] = tree(a[1], 16)\n"
                    "def main():\n"
                    "    a = np.zeros(4)\n"
                    "    k[1, 32](a)\n";
    assert_null(compile(x, p, false));
    assert_string_equal(first_error(x),
                        "recursion through device function 'tree', which uses barriers, warp operations or shared "
                        "arrays, is not supported on the cpu target (such device functions are inlined into "
                        "kernel 'k')");
}

/* A device function's shared array is one array per block on a GPU
 * however often it is called; inlined twice it would be two. */
static void test_shared_in_device_fn_twice(void **state)
{
    fx *x = *state;
    const char *p = "from numba import cuda, float64\n"
                    "import numpy as np\n"
                    "@cuda.jit(device=True)\n"
                    "def stage(v):\n"
                    "    buf = cuda.shared.array(32, float64)\n"
                    "    buf[cuda.threadIdx.x] = v\n"
                    "    cuda.syncthreads()\n"
                    "    return buf[31 - cuda.threadIdx.x]\n"
                    "@cuda.jit\n"
                    "def k(a):\n"
                    "    i = cuda.threadIdx.x\n"
                    "    a[i] = stage(stage(a[i]))\n"
                    "def main():\n"
                    "    a = np.zeros(32)\n"
                    "    k[1, 32](a)\n";
    assert_null(compile(x, p, false));
    assert_string_equal(first_error(x),
                        "device function 'stage' makes a cuda.shared.array and is called more than once in "
                        "kernel 'k': not supported on the cpu target yet (on a GPU every call shares one array)");
}

/* A statement with warp operations runs warp by warp; a break out of it to
 * a loop around syncthreads() (which runs for the whole block) is refused. */
static void test_warp_break_to_block_loop(void **state)
{
    fx *x = *state;
    const char *p = "from numba import cuda\n"
                    "import numpy as np\n"
                    "@cuda.jit\n"
                    "def k(a):\n"
                    "    t = cuda.threadIdx.x\n"
                    "    for j in range(3):\n"
                    "        cuda.syncthreads()\n"
                    "        if t < 64:\n"
                    "            v = cuda.shfl_sync(0xffffffff, t, 0)\n"
                    "            if v > 100:\n"
                    "                break\n"
                    "    a[t] = 1.0\n"
                    "def main():\n"
                    "    a = np.zeros(64)\n"
                    "    k[1, 64](a)\n";
    assert_null(compile(x, p, false));
    assert_string_equal(first_error(x), "'break' out of a statement with warp operations to a loop around "
                                        "cuda.syncthreads() is not supported on the cpu target yet");
}

/* syncthreads and a shared array in a device function (inlined): the
 * block's sum. Worked by hand: 0 + 1 + ... + 63 = 2016. */
static void test_barrier_in_device_fn(void **state)
{
    expect_output(*state,
                  "from numba import cuda, int64\n"
                  "import numpy as np\n"
                  "@cuda.jit(device=True)\n"
                  "def block_sum(v):\n"
                  "    buf = cuda.shared.array(64, int64)\n"
                  "    buf[cuda.threadIdx.x] = v\n"
                  "    cuda.syncthreads()\n"
                  "    s = 0\n"
                  "    for k in range(64):\n"
                  "        s += buf[k]\n"
                  "    return s\n"
                  "@cuda.jit\n"
                  "def k(a):\n"
                  "    t = cuda.threadIdx.x\n"
                  "    a[t] = block_sum(a[t])\n"
                  "def main():\n"
                  "    a = np.arange(64)\n"
                  "    k[1, 64](a)\n"
                  "    print(a[0], a[63])\n",
                  "2016 2016\n");
}

/* A loop with warp operations whose condition is the same in every lane
 * (`d = 1; while d < 32: ...; d *= 2`: kj_kn_find_uniform) runs as a
 * block-level loop; one whose condition depends on the lane (here only in
 * form: every lane stops at d = 32) keeps per-lane state (div.left: the
 * lanes that left by break). Both scan correctly. */
static void warp_loop_case(fx *x, const char *cond, bool per_lane)
{
    char p[1024];
    snprintf(p, sizeof p,
             "from numba import cuda\n"
             "import numpy as np\n"
             "@cuda.jit\n"
             "def scan(x):\n"
             "    lane = cuda.laneid\n"
             "    v = x[cuda.threadIdx.x]\n"
             "    d = 1\n"
             "    while %s:\n"
             "        u = cuda.shfl_up_sync(cuda.activemask(), v, d)\n"
             "        if lane >= d:\n"
             "            v += u\n"
             "        d *= 2\n"
             "    x[cuda.threadIdx.x] = v\n"
             "def main():\n"
             "    x = np.ones(64, dtype=np.int64)\n"
             "    scan[1, 64](x)\n"
             "    print(x[0], x[5], x[31], x[63])\n",
             cond);
    assert_non_null(compile(x, p, true));
    const char *ir = kj_jit_ir(x->jit);
    assert_non_null(ir);
    if (per_lane) assert_non_null(strstr(ir, "div.left"));
    else assert_null(strstr(ir, "div.left"));
    kj_jit_free(x->jit);
    x->jit = NULL;
    expect_output(x, p, "1 6 32 32\n");
}

static void test_warp_uniform_loop(void **state) { warp_loop_case(*state, "d < 32", false); }
static void test_warp_per_lane_loop(void **state) { warp_loop_case(*state, "d < 32 and d < lane + 32", true); }

/* A loop that can only wait for another thread (it reads memory and
 * changes nothing but atomically) counts its iterations and asks the
 * runtime (kj_rt_spin_check), which stops a spin on a thread of the same
 * block: the threads of a block run one after the other (issue 22, point
 * 18). A loop that does work has none of it: ordinary kernels pay nothing. */
static void spin_case(fx *x, const char *body, bool waits, const char *out)
{
    char p[1024];
    snprintf(p, sizeof p,
             "from numba import cuda\n"
             "import numpy as np\n"
             "@cuda.jit\n"
             "def k(flag, a, out):\n"
             "    t = cuda.threadIdx.x\n"
             "    i = 0\n"
             "    s = 0.0\n"
             "%s"
             "    out[t] = s + i\n"
             "def main():\n"
             "    flag = np.zeros(1, dtype=np.int32)\n"
             "    a = np.ones(10)\n"
             "    out = np.zeros(4)\n"
             "    k[1, 4](flag, a, out)\n"
             "    print(out[0], out[3])\n",
             body);
    assert_non_null(compile(x, p, true));
    const char *ir = kj_jit_ir(x->jit);
    assert_non_null(ir);
    if (waits) assert_non_null(strstr(ir, "kj_rt_spin_check"));
    else assert_null(strstr(ir, "kj_rt_spin_check"));
    kj_jit_free(x->jit);
    x->jit = NULL;
    expect_output(x, p, out);
    kj_jit_free(x->jit); /* the case after this one compiles again */
    x->jit = NULL;
}

static void test_spin_checked(void **state)
{
    fx *x = *state;
    /* threads 1..3 wait for thread 0, which has already run */
    spin_case(x,
              "    if t == 0:\n"
              "        cuda.atomic.exch(flag, 0, 1)\n"
              "    while cuda.atomic.add(flag, 0, 0) == 0:\n"
              "        cuda.threadfence()\n",
              true, "0.0 0.0\n");
    spin_case(x, "    while flag[0] != 0:\n        pass\n", true, "0.0 0.0\n");
    /* work: a sum, a search (a local changes) */
    spin_case(x, "    while i < a.size:\n        s += a[i]\n        i += 1\n", false, "20.0 20.0\n");
    spin_case(x, "    while a[i] > 0 and i < 9:\n        i += 1\n", false, "9.0 9.0\n");
}

/* A barrier-free kernel's thread loop is a plain loop that LLVM
 * vectorises (the per-thread function is inlined into K.block). */
static void test_thread_loop_vectorises(void **state)
{
    fx *x = *state;
    const char *p = "from numba import cuda\n"
                    "import numpy as np\n"
                    "@cuda.jit\n"
                    "def axpy(a, x, y):\n"
                    "    i = cuda.grid(1)\n"
                    "    y[i] = a * x[i] + y[i]\n"
                    "def main():\n"
                    "    x = np.ones(256, dtype=np.float32)\n"
                    "    y = np.ones(256, dtype=np.float32)\n"
                    "    axpy[2, 128](np.float32(2.0), x, y)\n"
                    "    print(y[0], y[255])\n";
    assert_non_null(compile(x, p, true));
    const char *ir = kj_jit_ir(x->jit);
    assert_non_null(ir);
    assert_non_null(strstr(ir, "x float>"));
    kj_jit_free(x->jit);
    x->jit = NULL;
    expect_output(x, p, "3.0 3.0\n");
}

/* A 1-D kernel's bounds test `if i < n:` is taken out of the thread loop
 * (IRCE before O3, llvm_pipeline.c): the loop vectorises without masked
 * loads and stores, as the @jit loop does. */
static void test_bounds_test_unmasked(void **state)
{
    fx *x = *state;
    const char *p = "from numba import cuda\n"
                    "import numpy as np\n"
                    "@cuda.jit\n"
                    "def saxpy(a, x, y, out):\n"
                    "    i = cuda.grid(1)\n"
                    "    if i < x.size:\n"
                    "        out[i] = a * x[i] + y[i]\n"
                    "def main():\n"
                    "    x = np.ones(1000, dtype=np.float32)\n"
                    "    y = np.ones(1000, dtype=np.float32)\n"
                    "    out = np.zeros(1000, dtype=np.float32)\n"
                    "    saxpy[4, 256](np.float32(2.0), x, y, out)\n"
                    "    print(out[0], out[999], out.sum())\n";
    assert_non_null(compile(x, p, true));
    const char *ir = kj_jit_ir(x->jit);
    assert_non_null(ir);
    assert_non_null(strstr(ir, "x float>"));
    assert_null(strstr(ir, "llvm.masked"));
    kj_jit_free(x->jit);
    x->jit = NULL;
    expect_output(x, p, "3.0 3.0 3000.0\n");
}

/* A grid-stride loop runs in lockstep over the block's threads: thread t's
 * i is base + t + k * stride, contiguous across threads, so the loads are
 * vector loads (no gathers, no scalar loop per thread walking the whole
 * array). 1000 elements over 3 x 64 threads: some threads have 6 trips,
 * others 5. */
static void test_grid_stride_lockstep(void **state)
{
    fx *x = *state;
    const char *p = "from numba import cuda\n"
                    "import numpy as np\n"
                    "@cuda.jit\n"
                    "def saxpy(a, x, y, out):\n"
                    "    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):\n"
                    "        out[i] = a * x[i] + y[i]\n"
                    "def main():\n"
                    "    x = np.arange(1000, dtype=np.float32)\n"
                    "    y = np.ones(1000, dtype=np.float32)\n"
                    "    out = np.zeros(1000, dtype=np.float32)\n"
                    "    saxpy[3, 64](np.float32(2.0), x, y, out)\n"
                    "    print(out[0], out[999], out.sum())\n";
    assert_non_null(compile(x, p, true));
    const char *ir = kj_jit_ir(x->jit);
    assert_non_null(ir);
    assert_non_null(strstr(ir, "x float>"));
    assert_null(strstr(ir, "gather"));
    assert_null(strstr(ir, "scatter"));
    kj_jit_free(x->jit);
    x->jit = NULL;
    expect_output(x, p, "1.0 1999.0 1000000.0\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_early_return, setup, teardown),
        cmocka_unit_test_setup_teardown(test_block_if, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lane_print, setup, teardown),
        cmocka_unit_test_setup_teardown(test_launch_zero_block, setup, teardown),
        cmocka_unit_test_setup_teardown(test_launch_too_many_threads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_launch_zero_grid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_divergent_break, setup, teardown),
        cmocka_unit_test_setup_teardown(test_uniform_while, setup, teardown),
        cmocka_unit_test_setup_teardown(test_warp_partial_block, setup, teardown),
        cmocka_unit_test_setup_teardown(test_warp_op_in_device_fn, setup, teardown),
        cmocka_unit_test_setup_teardown(test_warp_device_recursion, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shared_in_device_fn_twice, setup, teardown),
        cmocka_unit_test_setup_teardown(test_warp_break_to_block_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_barrier_in_device_fn, setup, teardown),
        cmocka_unit_test_setup_teardown(test_warp_uniform_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_warp_per_lane_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_thread_loop_vectorises, setup, teardown),
        cmocka_unit_test_setup_teardown(test_spin_checked, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bounds_test_unmasked, setup, teardown),
        cmocka_unit_test_setup_teardown(test_grid_stride_lockstep, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
