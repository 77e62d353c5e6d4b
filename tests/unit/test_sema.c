/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests for sema: name resolution, type inference, specialisation and
 * lowering to KIR, through the compile pipeline's stages of KIR (src/ir/pipeline.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/parser.h"
#include "ir/kir.h"
#include "ir/pipeline.h"
#include "ir/types.h"
#include "runtime/array.h"
#include "runtime/npy.h"

#include <unistd.h>

typedef struct {
    kj_arena arena;
    kj_diags diags;
    kj_source src;
    kir_module *kir;
    char *ir; /* printed KIR, malloc'd */
} result;

static void analyze(result *r, const char *text)
{
    memset(r, 0, sizeof *r);
    kj_arena_init(&r->arena);
    r->src.path = "t.k";
    r->src.text = text;
    r->src.len = strlen(text);
    /* the compile pipeline's stages of KIR, for the cpu (src/ir/pipeline.h) */
    static const kj_sema_options opt = {.boundscheck = -1, .npy_info = kj_npy_header_info};
    kj_ir_unit u = {.a = &r->arena, .types = kj_types_new(&r->arena), .src = &r->src, .sopt = &opt,
                    .target = KJ_RUN_CPU};
    if (kj_ir_stages(&u, KJ_STAGE_PARSE, KJ_STAGE_END, &r->diags)) r->kir = u.kir;
    if (r->kir) {
        kj_buf b = {0};
        kir_print_module(r->kir, &b);
        r->ir = kj_buf_take(&b);
        for (uint32_t i = 0; i < r->kir->nfuncs; i++) {
            const char *why = kir_verify(&r->arena, r->kir->funcs[i]);
            if (why) fail_msg("KIR of %s does not verify: %s\n%s", r->kir->funcs[i]->mangled, why, r->ir);
        }
    }
}

static void done(result *r)
{
    free(r->ir);
    kj_diags_free(&r->diags);
    kj_arena_free(&r->arena);
}

/* Expect exactly one error, at line:col, whose message contains `msg`. */
static void expect_error(const char *text, uint32_t line, uint32_t col, const char *msg)
{
    result r;
    analyze(&r, text);
    if (r.diags.nerrors == 0) fail_msg("expected error '%s', got none; IR:\n%s", msg, r.ir ? r.ir : "");
    const kj_diag *d = &r.diags.v[0];
    if (!strstr(d->msg, msg) || d->span.line != line || d->span.col != col)
        fail_msg("expected %u:%u '%s', got %u:%u '%s'", line, col, msg, d->span.line, d->span.col,
                 d->msg);
    done(&r);
}

static void expect_ok(result *r, const char *text)
{
    analyze(r, text);
    if (r->diags.n) {
        kj_diags_print(&r->diags, stderr, KJ_DIAG_SHORT);
        fail_msg("unexpected errors");
    }
    assert_non_null(r->kir);
}

static const kir_func *find_fn(const result *r, const char *mangled)
{
    for (uint32_t i = 0; i < r->kir->nfuncs; i++)
        if (!strcmp(r->kir->funcs[i]->mangled, mangled)) return r->kir->funcs[i];
    fail_msg("no function %s in:\n%s", mangled, r->ir);
    return NULL;
}

#define HDR "from numba import cuda, jit, vectorize, float32\nimport numpy as np\nimport math\n"

static void test_kernel_launch_specialises(void **state)
{
    (void)state;
    result r;
    expect_ok(&r, HDR
              "@cuda.jit\n"
              "def add(a, b, out):\n"
              "    i = cuda.grid(1)\n"
              "    if i < out.size:\n"
              "        out[i] = a[i] + b[i]\n"
              "def main(n=1024):\n"
              "    a = np.ones(n, dtype=np.float32)\n"
              "    out = np.zeros_like(a)\n"
              "    add[(n + 255) // 256, 256](a, a, out)\n");
    const kir_func *k = find_fn(&r, "add[array(float32, 1d, C), array(float32, 1d, C), array(float32, 1d, C)]");
    assert_int_equal(k->kind, KIR_FN_KERNEL);
    const kir_func *m = find_fn(&r, "main[int]");
    assert_int_equal(m->kind, KIR_FN_MAIN);
    assert_ptr_equal(r.kir->main, m);
    assert_int_equal(r.kir->nfuncs, 2);
    done(&r);
}

/* NEP 50: a float literal takes the float32 operand's type. */
static void test_weak_literal_stays_float32(void **state)
{
    (void)state;
    result r;
    expect_ok(&r, HDR
              "@jit\n"
              "def scale(x):\n"
              "    return x * 2.0 + 1\n"
              "def main():\n"
              "    y = scale(np.float32(3))\n");
    const kir_func *f = find_fn(&r, "scale[float32]");
    assert_string_equal(kj_type_str(f->ret), "float32");
    for (uint32_t i = 1; i < f->ninsts; i++)
        if (f->insts[i].type && !strcmp(kj_type_str(f->insts[i].type), "float64"))
            fail_msg("float64 value in scale[float32]:\n%s", r.ir);
    done(&r);
}

static void test_promotion_and_division(void **state)
{
    (void)state;
    result r;
    expect_ok(&r, HDR
              "@jit\n"
              "def f(a, b):\n"
              "    c = a + b\n"
              "    d = a / b\n"
              "    e = a // b\n"
              "    return c, d, e\n"
              "def main():\n"
              "    t = f(np.int32(7), 2)\n"
              "    u = f(np.int32(7), np.int64(2))\n");
    const kir_func *f = find_fn(&r, "f[int32, int64]");
    assert_string_equal(kj_type_str(f->ret), "(int64, float64, int64)");
    done(&r);
}

static void test_recursion_fib(void **state)
{
    (void)state;
    result r;
    expect_ok(&r, HDR
              "@jit\n"
              "def fib(n):\n"
              "    if n < 2:\n"
              "        return n\n"
              "    return fib(n - 1) + fib(n - 2)\n"
              "def main():\n"
              "    print(fib(10))\n");
    const kir_func *f = find_fn(&r, "fib[int]");
    assert_string_equal(kj_type_str(f->ret), "int64");
    done(&r);
}

static void test_variable_widens_in_loop(void **state)
{
    (void)state;
    result r;
    expect_ok(&r, HDR
              "def main(n=10):\n"
              "    s = 0\n"
              "    x = np.zeros(n, dtype=np.float32)\n"
              "    for i in range(n):\n"
              "        s += x[i]\n"
              "    print(s)\n");
    const kir_func *m = find_fn(&r, "main[int]");
    bool found = false;
    for (uint32_t i = 0; i < m->nlocals; i++)
        if (m->locals[i].name && !strcmp(m->locals[i].name, "s")) {
            assert_string_equal(kj_type_str(m->locals[i].type), "float32");
            found = true;
        }
    assert_true(found);
    done(&r);
}

static void test_explicit_signatures_are_eager(void **state)
{
    (void)state;
    result r;
    expect_ok(&r, HDR
              "@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])\n"
              "def f(a, b):\n"
              "    return a * b + math.sin(a)\n"
              "@cuda.jit\n"
              "def lazy(x):\n"
              "    x[0] = 1\n");
    find_fn(&r, "f[float32, float32]");
    find_fn(&r, "f[float64, float64]");
    assert_int_equal(r.kir->nfuncs, 2); /* lazy kernel never launched: not compiled */
    assert_null(r.kir->main);
    done(&r);
}

static void test_shared_memory_matmul(void **state)
{
    (void)state;
    result r;
    expect_ok(&r, HDR
              "TPB = 16\n"
              "@cuda.jit('void(float32[:, ::1], float32[:, ::1], float32[:, ::1])')\n"
              "def mm(A, B, C):\n"
              "    sA = cuda.shared.array((TPB, TPB), float32)\n"
              "    x, y = cuda.grid(2)\n"
              "    tx = cuda.threadIdx.x\n"
              "    tmp = float32(0.)\n"
              "    for i in range(cuda.gridDim.x):\n"
              "        sA[tx, 0] = A[y, tx + i * TPB]\n"
              "        cuda.syncthreads()\n"
              "        for j in range(TPB):\n"
              "            tmp += sA[tx, j] * B[j, x]\n"
              "    C[y, x] = tmp\n");
    const kir_func *k = find_fn(&r, "mm[array(float32, 2d, C), array(float32, 2d, C), array(float32, 2d, C)]");
    assert_int_equal(k->kind, KIR_FN_KERNEL);
    done(&r);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error(HDR "def main():\n    x = foo + 1\n", 5, 9, "unknown name 'foo'");
    expect_error(HDR "@cuda.jit\ndef k(a):\n    cuda.syncthread()\ndef main():\n"
                     "    a = np.zeros(4)\n    k[1, 4](a)\n", 6, 10, "no attribute 'syncthread'");
    expect_error(HDR "@cuda.jit\ndef k(a):\n    return 1\ndef main():\n"
                     "    a = np.zeros(4)\n    k[1, 4](a)\n", 6, 5, "kernels cannot return a value");
    expect_error(HDR "@cuda.jit\ndef k(a, n):\n    s = cuda.shared.array(n, float32)\ndef main():\n"
                     "    a = np.zeros(4)\n    k[1, 4](a, 3)\n", 6, 27, "shape must be a constant");
    expect_error(HDR "@cuda.jit\ndef k(a):\n    a[0] = 1\ndef main():\n"
                     "    a = np.zeros(4)\n    k[1, 4](a, a)\n", 9, 5, "takes 1 argument but 2 were given");
    expect_error(HDR "def main():\n    a = np.zeros(4)\n    b = a + (1, 2)\n", 6, 9,
                 "unsupported operand types for +");
    expect_error(HDR "def main():\n    a = np.zeros(4)\n    b = a[1.5]\n", 6, 11,
                 "array index must be an integer, not float");
    expect_error(HDR "@cuda.jit\ndef k(a):\n    a[0] = 1\ndef main():\n"
                     "    a = np.zeros(4)\n    k(a)\n", 9, 5, "must be launched with a configuration");
    expect_error(HDR "@jit\ndef f(a):\n    return a\ndef main():\n"
                     "    a = np.zeros(4)\n    f[1, 4](a)\n", 9, 5, "is not a @cuda.jit kernel");
    expect_error(HDR "def main():\n    a, b = (1, 2, 3)\n", 5, 5, "cannot unpack 3 values into 2");
    /* Two bindings whose live ranges meet (a loop carries x) must unify;
     * `x = 1` then `x = np.zeros(3)` alone are two variables (versions.c). */
    expect_error(HDR "def main():\n    x = 1\n    for i in range(2):\n        x = np.zeros(3)\n"
                     "    print(x)\n", 7, 9, "cannot unify int and array(float64, 1d, C) for 'x'");
    expect_error(HDR "def main():\n    break\n", 5, 5, "'break' outside loop");
    expect_error("import scipy\n", 1, 8, "module 'scipy' is not supported");
    expect_error(HDR "@cuda.jit(fastmth=True)\ndef k(a):\n    a[0] = 1\n", 4, 11, "unknown option 'fastmth'");
    expect_error(HDR "@jit(cabhe=True)\ndef f(a):\n    return a\n", 4, 6, "unknown option 'cabhe' for @jit");
    expect_error(HDR "@vectorize(identiy=0)\ndef f(a):\n    return a\n", 4, 12, "unknown option 'identiy'");
    expect_error(HDR "@cuda.jit('void(flaot32[:])')\ndef k(a):\n    a[0] = 1\n", 4, 17, "unknown type 'flaot32'");
    expect_error(HDR "def main():\n    for i in range(1.5):\n        pass\n", 5, 20, "range");
    expect_error(HDR "def main():\n    x = np.zeroes(3)\n", 5, 12, "no attribute 'zeroes'");
    expect_error(HDR "def main(n):\n    pass\n", 4, 10, "needs a default value");
    expect_error(HDR "def main():\n    z += 32\n", 5, 5, "used before any value is assigned");
    /* Functions nothing calls are still checked for names. */
    expect_error(HDR "@cuda.jit\ndef k(a):\n    cuda.syncthread()\n", 6, 10, "no attribute 'syncthread'");
    expect_error(HDR "@jit\ndef f(a):\n    b = a\n    return b + c\n", 7, 16, "unknown name 'c'");
    expect_error(HDR "@cuda.jit\ndef k(a):\n    a[0] = 1\ndef main():\n    k[1, 8]\n", 8, 5,
                 "launch configuration without a call");
    /* (falling off the end of a function that returns a number returns None: Optional, run/optional_return.k) */
    expect_error(HDR "@jit\ndef f(x):\n    if x > 0:\n        return np.float32\ndef main():\n    f(1)\n", 5, 1,
                 "falls off the end");
    expect_error(HDR "@cuda.jit\ndef k(a):\n    a[0] = 1\n@cuda.jit\ndef k2(a):\n    k[1, 1](a)\n"
                     "def main():\n    a = np.zeros(4)\n    k2[1, 1](a)\n", 9, 5,
                 "kernels cannot be launched from device code");
    expect_error(HDR "def h(x):\n    return x\n@cuda.jit\ndef k(a):\n    a[0] = h(1)\n"
                     "def main():\n    a = np.zeros(4)\n    k[1, 1](a)\n", 8, 12,
                 "host function 'h' cannot be called from device code");
    expect_error(HDR "@cuda.jit\ndef k(a):\n    b = np.zeros(3)\n"
                     "def main():\n    a = np.zeros(4)\n    k[1, 1](a)\n", 6, 9, "only available in host code");
}

static void test_unknown_name_hint(void **state)
{
    (void)state;
    result r;
    analyze(&r, HDR "def main():\n    total = 1\n    print(totl)\n");
    assert_true(r.diags.nerrors >= 1);
    assert_non_null(r.diags.v[0].hint);
    assert_non_null(strstr(r.diags.v[0].hint, "total"));
    done(&r);
}

/* The pipeline's INLINE stage runs for a target named cpu or parallel only:
 * its refusal of recursion through a device function with warp operations
 * comes for those, not for cuda (functions with intrinsics there) nor for
 * none named (kjit check without --target). Stages [PARSE, END) as the
 * unit tests run them. */
static void test_pipeline_inline_per_target(void **state)
{
    (void)state;
    const char *text = "from numba import cuda\n"
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
    static const kj_sema_options opt = {.boundscheck = -1, .npy_info = kj_npy_header_info};
    const kj_run_target targets[] = {KJ_RUN_DEFAULT, KJ_RUN_CPU, KJ_RUN_PARALLEL, KJ_RUN_CUDA};
    for (unsigned k = 0; k < 4; k++) {
        kj_arena a;
        kj_arena_init(&a);
        kj_diags d = {0};
        kj_source src = {.path = "t.k", .text = text, .len = strlen(text)};
        kj_ir_unit u = {.a = &a, .types = kj_types_new(&a), .src = &src, .sopt = &opt, .target = targets[k]};
        bool inlines = targets[k] == KJ_RUN_CPU || targets[k] == KJ_RUN_PARALLEL;
        assert_int_equal(kj_ir_stages(&u, KJ_STAGE_PARSE, KJ_STAGE_END, &d), !inlines);
        if (inlines) assert_non_null(strstr(d.v[0].msg, "recursion through device function 'tree'"));
        else assert_int_equal(d.nerrors, 0);
        kj_diags_free(&d);
        kj_arena_free(&a);
    }
}

/* The C API specialises @jit functions for argument types known at run time. */
static void test_runtime_specialisation(void **state)
{
    (void)state;
    kj_arena a;
    kj_arena_init(&a);
    kj_diags d = {0};
    kj_source src = {.path = "t.k",
                     .text = HDR "@jit\ndef sq(x):\n    return x * x + 1\n"
                                 "@jit\ndef bad(x):\n    return x + (1, 2)\n"};
    src.len = strlen(src.text);
    kj_module *m = kj_parse(&src, &a, &d);
    kj_types *T = kj_types_new(&a);
    kj_sema_options opt = {.boundscheck = -1, .npy_info = kj_npy_header_info};
    kj_sema *s = kj_sema_new(m, &opt, T, &a);
    kir_module *km = kj_sema_run(s, &d);
    assert_non_null(km);
    assert_int_equal(km->nfuncs, 0); /* nothing reachable yet */
    const kj_type *f32 = kj_t_float(T, 32);
    kir_func *f = kj_sema_specialize(s, "sq", &f32, 1, &d);
    assert_non_null(f);
    assert_string_equal(f->mangled, "sq[float32]");
    assert_string_equal(kj_type_str(f->ret), "float32");
    assert_null(kir_verify(&a, f));
    assert_ptr_equal(kj_sema_specialize(s, "sq", &f32, 1, &d), f); /* cached */
    const kj_type *i64 = kj_t_int(T, 64, true);
    kir_func *g = kj_sema_specialize(s, "sq", &i64, 1, &d);
    assert_non_null(g);
    assert_int_equal(km->nfuncs, 2);
    assert_false(kj_has_errors(&d));
    /* Errors come back as diagnostics, and the failure sticks. */
    assert_null(kj_sema_specialize(s, "bad", &f32, 1, &d));
    assert_true(d.nerrors >= 1);
    assert_non_null(strstr(d.v[0].msg, "unsupported operand types"));
    assert_null(kj_sema_specialize(s, "bad", &f32, 1, &d));
    assert_null(kj_sema_specialize(s, "nosuch", &f32, 1, &d));
    assert_null(kj_sema_specialize(s, "sq", NULL, 0, &d));
    assert_int_equal(km->nfuncs, 2);
    kj_diags_free(&d);
    kj_arena_free(&a);
}

/* np.load with a constant path is typed from the file's header. */
static void test_np_load_types_from_header(void **state)
{
    (void)state;
    char dir[] = "/tmp/kjit-sema-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/m.npy", dir);
    int64_t shape[2] = {3, 4};
    kj_array *arr = kj_array_empty(KJ_DT_INT32, 2, shape, NULL);
    assert_non_null(arr);
    assert_true(kj_npy_save(path, arr, NULL));
    kj_array_release(arr);
    char text[512];
    snprintf(text, sizeof text, HDR "P = '%s'\ndef main():\n    a = np.load(P)\n    print(a.sum())\n", path);
    result r;
    expect_ok(&r, text);
    const kir_func *m = find_fn(&r, "main[]");
    bool found = false;
    for (uint32_t i = 0; i < m->nlocals; i++)
        if (m->locals[i].name && !strcmp(m->locals[i].name, "a")) {
            assert_string_equal(kj_type_str(m->locals[i].type), "array(int32, 2d, C)");
            found = true;
        }
    assert_true(found);
    done(&r);
    snprintf(text, sizeof text, HDR "def main():\n    a = np.load('%s/none.npy')\n", dir);
    expect_error(text, 5, 17, "No such file");
    expect_error(HDR "def main(p='x.npy'):\n    a = np.load(p)\n", 5, 17, "needs a constant path");
    remove(path);
    rmdir(dir);
}

/* Ufunc loops are chosen as NumPy does: the first signature the inputs
 * cast to safely (int32 → float64, not float32). */
static void test_ufunc_signature_selection(void **state)
{
    (void)state;
    result r;
    expect_ok(&r, HDR
              "@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])\n"
              "def f(a, b):\n"
              "    return a * b\n"
              "def main():\n"
              "    a = np.arange(4, dtype=np.int32)\n"
              "    c = f(a, a)\n"
              "    d = f(a.astype(np.float32), 2.5)\n");
    const kir_func *m = find_fn(&r, "main[]");
    for (uint32_t i = 0; i < m->nlocals; i++) {
        const char *n = m->locals[i].name;
        if (n && !strcmp(n, "c")) assert_string_equal(kj_type_str(m->locals[i].type), "array(float64, 1d, C)");
        if (n && !strcmp(n, "d")) assert_string_equal(kj_type_str(m->locals[i].type), "array(float32, 1d, C)");
    }
    done(&r);
    expect_error(HDR "@vectorize(['float32(float32)'])\ndef g(a):\n    return a\n"
                     "def main():\n    x = g(np.zeros(3))\n", 8, 9, "not supported for the input types");
}

static void test_more_inference(void **state)
{
    (void)state;
    result r;
    /* Recursion through a conditional expression. */
    expect_ok(&r, HDR "@jit\ndef fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\n"
                      "def main():\n    print(fact(10), np.uint64(18446744073709551615))\n");
    assert_string_equal(kj_type_str(find_fn(&r, "fact[int]")->ret), "int64");
    done(&r);
    /* NumPy's bool arrays: + stays bool, - is an error. */
    expect_ok(&r, HDR "def main():\n    b = np.arange(3) > 0\n    c = b + b\n");
    const kir_func *m = find_fn(&r, "main[]");
    for (uint32_t i = 0; i < m->nlocals; i++)
        if (m->locals[i].name && !strcmp(m->locals[i].name, "c"))
            assert_string_equal(kj_type_str(m->locals[i].type), "array(bool, 1d, C)");
    done(&r);
    expect_error(HDR "def main():\n    b = np.arange(3) > 0\n    c = b - b\n", 6, 9, "boolean subtract");
}

/* Python's error model (float / // % by zero raise) in host code and @jit,
 * unless error_model='numpy'; kernels, ufuncs and device specialisations
 * keep NumPy's. Each function follows its own decorator. */
static void test_error_model(void **state)
{
    (void)state;
    result r;
    expect_ok(&r, HDR
              "@jit\ndef q(a, b):\n    return a / b\n"
              "@jit(error_model='numpy')\ndef qn(a, b):\n    return q(a, b) + a % b\n"
              "@jit(error_model='python', fastmath=True)\ndef qp(a, b):\n    return a // b\n"
              "def helper(a, b):\n    return a % b\n"
              "@vectorize(['float64(float64, float64)'])\ndef vq(a, b):\n    return a / b\n"
              "@cuda.jit\ndef kq(a, out):\n    i = cuda.grid(1)\n    out[i] = q(a[i], 0.0)\n"
              "def main():\n    a = np.ones(4)\n    out = np.zeros(4)\n    kq[1, 4](a, out)\n"
              "    print(qn(1.0, 0.0), qp(1.0, 2.0), helper(1.0, 2.0), vq(a, 0.0), 1.0 / 0.0)\n");
    assert_true(find_fn(&r, "main[]")->py_errors);
    assert_true(find_fn(&r, "q[float, float]")->py_errors);
    assert_true(find_fn(&r, "qp[float, float]")->py_errors);
    assert_true(find_fn(&r, "helper[float, float]")->py_errors);
    assert_false(find_fn(&r, "qn[float, float]")->py_errors);
    assert_false(find_fn(&r, "q[float64, float]@device")->py_errors);
    assert_false(find_fn(&r, "vq[float64, float64]")->py_errors);
    assert_false(find_fn(&r, "kq[array(float64, 1d, C), array(float64, 1d, C)]")->py_errors);
    done(&r);
    expect_error(HDR "@jit(error_model='numpi')\ndef f(a):\n    return a\n", 4, 18,
                 "unknown error_model 'numpi'");
    expect_error(HDR "@jit(error_model=True)\ndef f(a):\n    return a\n", 4, 18,
                 "option 'error_model' must be a string");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_launch_specialises),
        cmocka_unit_test(test_weak_literal_stays_float32),
        cmocka_unit_test(test_promotion_and_division),
        cmocka_unit_test(test_recursion_fib),
        cmocka_unit_test(test_variable_widens_in_loop),
        cmocka_unit_test(test_explicit_signatures_are_eager),
        cmocka_unit_test(test_shared_memory_matmul),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_unknown_name_hint),
        cmocka_unit_test(test_runtime_specialisation),
        cmocka_unit_test(test_np_load_types_from_header),
        cmocka_unit_test(test_ufunc_signature_selection),
        cmocka_unit_test(test_more_inference),
        cmocka_unit_test(test_error_model),
        cmocka_unit_test(test_pipeline_inline_per_target),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
