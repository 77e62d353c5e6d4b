/* SPDX-License-Identifier: BSD-2-Clause */
/* The fixture the code-generation tests share: compile a kjit source
 * (the stages of KIR of the compile pipeline, src/ir/pipeline.h, for the cpu
 * target → kj_codegen_host), call an entry point with its
 * print() output captured, and check what main prints or raises.
 * Included by one test file each (static functions). A file may define
 * FX_OPT_LEVEL before including it (default -O2). */
#ifndef KJ_TEST_JIT_FIXTURE_H
#define KJ_TEST_JIT_FIXTURE_H

#include "codegen/codegen.h"
#include "frontend/parser.h"
#include "ir/pipeline.h"
#include "runtime/npy.h"
#include "runtime/rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FX_OPT_LEVEL
#define FX_OPT_LEVEL 2
#endif

typedef struct fx {
    kj_arena a;
    kj_types *t;
    kj_diags d;
    kj_source src;
    kir_module *m;
    kj_jit *jit;
    char *text;
} fx;

static int setup(void **state)
{
    fx *x = calloc(1, sizeof *x);
    kj_arena_init(&x->a);
    x->t = kj_types_new(&x->a);
    *state = x;
    return 0;
}

static int teardown(void **state)
{
    fx *x = *state;
    kj_jit_free(x->jit);
    kj_diags_free(&x->d);
    kj_arena_free(&x->a);
    free(x->text);
    free(x);
    return 0;
}

/* x->src's KIR for the cpu target (NULL after reporting to x->d): every
 * stage of KIR that kjit_compile runs, in its order, with the runtime's
 * operators unfused (fuse_all false, as $KJIT_NO_FUSE=1: these tests call
 * them). *ast gets the program's AST. */
static kir_module *fx_pipeline(fx *x, kj_module **ast)
{
    static const kj_sema_options so = {.boundscheck = -1, .npy_info = kj_npy_header_info};
    kj_ir_unit u = {.a = &x->a, .types = x->t, .src = &x->src, .sopt = &so, .target = KJ_RUN_CPU};
    bool ok = kj_ir_stages(&u, KJ_STAGE_PARSE, KJ_STAGE_END, &x->d);
    if (ast) *ast = u.ast;
    return ok ? u.kir : NULL;
}

/* Compile `text` (file name `path`); NULL with the diagnostics printed
 * when it does not compile. */
static kj_jit *compile_as(fx *x, const char *path, const char *text, const kj_codegen_opts *opts)
{
    x->src = (kj_source){.path = path, .text = text, .len = strlen(text)};
    x->m = fx_pipeline(x, NULL);
    kj_codegen_opts def = {.opt_level = FX_OPT_LEVEL, .verify = true};
    x->jit = x->m ? kj_codegen_host(x->m, opts ? opts : &def, &x->d) : NULL;
    if (!x->jit) kj_diags_print(&x->d, stderr, KJ_DIAG_SHORT);
    return x->jit;
}

static const kir_func *func_named(fx *x, const char *name)
{
    for (uint32_t k = 0; k < x->m->nfuncs; k++)
        if (!strcmp(x->m->funcs[k]->name, name)) return x->m->funcs[k];
    fail_msg("no function %s", name);
    return NULL;
}

/* The result of running main: its printed output (malloc'd) and error. */
typedef struct run {
    kj_rt_kind kind;
    char *out;
    char err[700];
    size_t peak, left; /* registered arrays: most at once, and after the run */
    size_t peak_gens;  /* generator frames that scopes may free: most at once */
} run;

/* Call `fn` with args, print() captured. */
static run call_captured(fx *x, const char *name, void **args, void *ret)
{
    run r = {0};
    kj_entry_fn fn = kj_jit_lookup(x->jit, func_named(x, name)->mangled);
    assert_non_null(fn);
    size_t n = 0;
    kj_rt rt;
    kj_rt_init(&rt, x->src.path);
    rt.out = open_memstream(&r.out, &n);
    r.kind = kj_rt_call_entry(&rt, fn, args, ret);
    if (r.kind) kj_rt_format_error(&rt, r.err, sizeof r.err);
    r.peak = rt.peak_arrays;
    r.left = rt.narrays;
    r.peak_gens = rt.peak_gens;
    fclose(rt.out);
    kj_rt_dispose(&rt);
    return r;
}

/* Compile and run main() of a program; fails the test if it does not
 * compile. */
static run run_main(fx *x, const char *text)
{
    if (!compile_as(x, "prog.k", text, NULL)) fail_msg("the program does not compile");
    return call_captured(x, "main", NULL, NULL);
}

/* main() prints exactly `want`. */
static void expect_output(fx *x, const char *text, const char *want)
{
    run r = run_main(x, text);
    if (r.kind) fail_msg("run-time error: %s", r.err);
    assert_string_equal(r.out, want);
    assert_int_equal(r.left, 0); /* every array released */
    free(r.out);
}

/* main() raises; its error reads `want` (file:line:col: Kind: message). */
static void expect_error(fx *x, const char *text, kj_rt_kind kind, const char *want)
{
    run r = run_main(x, text);
    assert_int_equal(r.kind, kind);
    assert_string_equal(r.err, want);
    assert_int_equal(r.left, 0);
    free(r.out);
}

#endif
