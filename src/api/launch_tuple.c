/* SPDX-License-Identifier: BSD-2-Clause */
/* Tuple arguments of kjit_launch (issue 27). Compiled kernels take a
 * tuple parameter as its leaves, in order (codegen/llvm_kargs.c): the
 * kernel's descriptor lists one kj_abi_param per leaf, and the launch
 * hands kj_rt_launch one memory form per leaf, which the kernel's entry
 * rebuilds into the tuple. Here: the leaves of a specialisation's
 * parameter types (for its descriptor, call.c describe) and the launch of
 * values that contain tuples, each leaf value marshalled as its leaf type.
 * Prepared launches (launch_plan.c) take no tuples: kjit_launch_prepare
 * refuses them, so such kernels always come here. */
#include "api_int.h"

#include "abi/abi.h"

#include <stdlib.h>
#include <string.h>

static void type_leaves(const kj_type *t, uint32_t owner, const kj_type **out, uint32_t *own, uint32_t *n)
{
    if (t->kind != KJ_T_TUPLE) {
        if (out) out[*n] = t, own[*n] = owner;
        ++*n;
        return;
    }
    for (uint32_t k = 0; k < t->n; k++) type_leaves(t->elems[k], owner, out, own, n);
}

uint32_t kj_api_kernel_leaves(kj_arena *a, const kir_func *kf, const kj_type ***leaf, uint32_t **owner)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < kf->nparams; k++) type_leaves(kf->params[k], k, NULL, NULL, &n);
    *leaf = KJ_NEWN(a, const kj_type *, n + 1);
    *owner = KJ_NEWN(a, uint32_t, n + 1);
    uint32_t m = 0;
    for (uint32_t k = 0; k < kf->nparams; k++) type_leaves(kf->params[k], k, *leaf, *owner, &m);
    return n;
}

bool kj_api_has_tuple_arg(const kjit_value *args, int nargs)
{
    for (int k = 0; k < nargs; k++)
        if (args[k].kind == KJIT_VALUE_TUPLE) return true;
    return false;
}

/* The leaf values of v (of type t, which sema typed from v: the same
 * shape), with their types, appended at *n (at most cap). */
static bool value_leaves(const kj_type *t, const kjit_value *v, const kjit_value **vals, const kj_type **types,
                         uint32_t *n, uint32_t cap)
{
    if (t->kind != KJ_T_TUPLE) {
        if (*n >= cap) return false;
        vals[*n] = v;
        types[(*n)++] = t;
        return true;
    }
    if (v->kind != KJIT_VALUE_TUPLE || (uint32_t)v->v.t->n != t->n) return false;
    for (uint32_t k = 0; k < t->n; k++)
        if (!value_leaves(t->elems[k], &v->v.t->items[k], vals, types, n, cap)) return false;
    return true;
}

/* Each leaf in its memory form, 16-byte aligned slots in one block. */
static int marshal_leaves(const kj_api_spec *sp, const kjit_value **vals, const kj_type **types, uint32_t n,
                          void **argv, char **mem, kjit_error *err)
{
    size_t bytes = 0;
    for (uint32_t j = 0; j < n; j++) bytes += (kj_api_mem_size(types[j]) + 16) & ~(size_t)15;
    *mem = aligned_alloc(16, bytes + 16);
    if (!*mem) abort();
    memset(*mem, 0, bytes + 16);
    size_t off = 0;
    for (uint32_t j = 0; j < n; j++) {
        argv[j] = *mem + off;
        off += (kj_api_mem_size(types[j]) + 16) & ~(size_t)15;
        if (!kj_api_to_mem(types[j], vals[j], argv[j])) {
            char buf[64];
            return kj_api_usage(err, "argument of '%s': cannot pass %s as %s (an item of a tuple)", sp->kf->name,
                                kjit_value_type_name(vals[j], buf, sizeof buf), kj_type_str(types[j]));
        }
    }
    return KJIT_OK;
}

int kj_api_launch_tuples(kjit_module *m, const kj_api_spec *sp, kjit_dim3 grid, kjit_dim3 block,
                         const kjit_value *args, kjit_error *err)
{
    uint32_t cap = (uint32_t)sp->kernel.nparams;
    const kjit_value **vals = calloc(cap + 1, sizeof *vals);
    const kj_type **types = calloc(cap + 1, sizeof *types);
    void **argv = calloc(cap + 1, sizeof *argv);
    if (!vals || !types || !argv) abort();
    uint32_t n = 0;
    int rc = KJIT_OK;
    char *mem = NULL;
    for (uint32_t k = 0; k < sp->nargs && !rc; k++)
        if (!value_leaves(sp->kf->params[k], &args[k], vals, types, &n, cap))
            rc = kj_api_usage(err, "argument %u of '%s': cannot pass it as %s", k + 1, sp->kf->name,
                              kj_type_str(sp->kf->params[k]));
    if (!rc && n != cap) rc = kj_api_usage(err, "'%s': %u tuple leaves for %u parameters", sp->kf->name, n, cap);
    if (!rc) rc = marshal_leaves(sp, vals, types, n, argv, &mem, err);
    if (!rc) rc = kj_api_launch_run(m, sp, grid, block, argv, err);
    free(mem);
    free(argv);
    free(types);
    free(vals);
    return rc;
}
