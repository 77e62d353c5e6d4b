/* Semantic analysis: the three stages in order. */
#include "sema_int.h"

kir_module *kj_analyze(const kj_module *m, const kj_sema_options *opt, kj_types *types,
                       kj_arena *a, kj_diags *d)
{
    kj_sema s = {.mod = m, .src = m->src, .types = types, .a = a, .d = d, .opt = opt};
    s.mod_ei = KJ_NEWN(a, kj_einfo, m->nexprs + 1);
    if (!kj_resolve(&s)) return NULL;
    if (!kj_infer_all(&s)) return NULL;
    kir_module *km = kir_module_new(a, m->src);
    if (!kj_lower_all(&s, km)) return NULL;
    return km;
}
