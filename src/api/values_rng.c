/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy Generator arguments (KJIT_VALUE_RNG): the caller's kjit_rng is the
 * compiled Generator's PCG64 state itself (runtime/pcg64.h), so compiled
 * code advances it in place and draws after the call continue NumPy's
 * stream, as Numba's Generator argument does (it is passed by reference).
 * The type is Numba's NumPyRandomGeneratorType, named as the compiler names
 * the Generator that np.random.default_rng makes. */
#include "api_int.h"

#include "runtime/pcg64.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* kjit_rng spells kj_pcg64 out without __int128: the same bytes on the
 * little-endian hosts kjit supports. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "kjit_rng assumes a little-endian host");
_Static_assert(sizeof(kjit_rng) == sizeof(kj_pcg64) && _Alignof(kjit_rng) == _Alignof(kj_pcg64),
               "kjit_rng and kj_pcg64 differ");
_Static_assert(offsetof(kjit_rng, inc_lo) == offsetof(kj_pcg64, inc) &&
                   offsetof(kjit_rng, has_uint32) == offsetof(kj_pcg64, has_uint32) &&
                   offsetof(kjit_rng, uinteger) == offsetof(kj_pcg64, uinteger),
               "kjit_rng and kj_pcg64 differ");

int kj_api_rng_check(const kjit_value *v, int k, kjit_error *err)
{
    if (!v->v.rng) return kj_api_usage(err, "argument %d: Generator state is NULL", k + 1);
    if ((uintptr_t)v->v.rng % _Alignof(kjit_rng))
        return kj_api_usage(err, "argument %d: a kjit_rng must be %zu-byte aligned", k + 1, _Alignof(kjit_rng));
    return KJIT_OK;
}

const kj_type *kj_api_rng_type(kj_types *t) { return kj_t_opaque(t, "Generator"); }

bool kj_api_is_rng_type(const kj_type *t)
{
    return t && t->kind == KJ_T_OPAQUE && !t->ref && !strcmp(t->name, "Generator");
}

int kj_api_rng_to_mem(const kj_type *t, const kjit_value *v, void *out)
{
    if (!kj_api_is_rng_type(t)) return 0;
    kjit_rng *g = v->v.rng;
    memcpy(out, &g, sizeof g); /* the compiled Generator is a pointer to its state */
    return 1;
}
