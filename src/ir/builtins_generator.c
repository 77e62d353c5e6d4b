/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of the Generator's distribution methods (rng.normal(...), ...;
 * builtins_random.h's kj_gdist_spec_of): argument 0 is the Generator, then
 * the float parameters (binomial's n an integer), then size=. */
#include "builtins_int.h"
#include "builtins_random.h"

const kj_type *kj_btype_gen_dist(bctx *c, const kj_rdist_spec *sp)
{
    for (int i = 0; i < sp->nparams; i++) {
        uint32_t k = (uint32_t)i + 1;
        if (given(c, k) && !(i == 0 && sp->int_first ? int_arg(c, k) : num_arg(c, k, f64(c)))) return NULL;
    }
    const kj_type *e = sp->int_result ? i64(c) : f64(c);
    uint32_t size = (uint32_t)sp->nparams + 1;
    if (!given(c, size)) return e;
    int nd = shape_arg(c, size);
    return nd ? arr(c, e, nd) : NULL;
}

/* Generator.choice(a, size=, replace=, p=, axis=, shuffle=) (axis= only 0,
 * the one axis of a 1-D `a`), multinomial(n, pvals, size=), dirichlet(alpha,
 * size=): np.random's typing with the arguments after the receiver. */
const kj_type *kj_btype_gen_pick(bctx *c)
{
    if (c->id == KJ_B_GEN_MULTINOMIAL) return kj_btype_multinomial(c, 1);
    if (c->id == KJ_B_GEN_DIRICHLET) return kj_btype_dirichlet(c, 1);
    if (given(c, 5)) {
        kj_error(c->d, c->src, span_of(c, 5), "%s() argument 'axis' is not supported (its `a` is 1-D)", c->name);
        return NULL;
    }
    if (given(c, 6) && !num_arg(c, 6, kj_t_bool(c->t))) return NULL;
    return kj_btype_choice(c, 1);
}
