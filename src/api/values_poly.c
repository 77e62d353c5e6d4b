/* SPDX-License-Identifier: BSD-2-Clause */
/* numpy.polynomial.Polynomial across the C API (since 0.5): a tuple value
 * whose dtype is KJIT_TUPLE_POLYNOMIAL, items coef, domain and window, typed
 * as the compiler's Polynomial (a namedtuple of its own class,
 * builtins_polynomial.c), as Numba's typeof gives PolynomialType(coef,
 * domain, window) from the object's three arrays. Its memory form is the
 * tuple's; a Polynomial result is a tuple value carrying the tag back. */
#include "api_int.h"

#include "ir/builtins.h"

int kj_api_poly_check(const kjit_value *v, int k, kjit_error *err)
{
    if (v->kind != KJIT_VALUE_TUPLE || v->dtype != (kjit_dtype)KJIT_TUPLE_POLYNOMIAL) return -1;
    const kjit_tuple *t = v->v.t;
    if (!t || t->n != 3 || !t->items)
        return kj_api_usage(err, "argument %d: a Polynomial is a tuple of coef, domain and window", k + 1);
    for (int i = 0; i < 3; i++)
        if (t->items[i].kind != KJIT_VALUE_ARRAY || !t->items[i].v.a || kjit_array_ndim(t->items[i].v.a) != 1)
            return kj_api_usage(err, "argument %d: a Polynomial's coef, domain and window are 1-d arrays", k + 1);
    return -1; /* the items' own checks follow */
}

const kj_type *kj_api_poly_type(kj_types *t, const kjit_value *v, const kj_type *const *items)
{
    return v->dtype == (kjit_dtype)KJIT_TUPLE_POLYNOMIAL ? kj_t_polynomial(t, items) : NULL;
}

void kj_api_poly_tag(const kj_type *t, kjit_value *r)
{
    if (kj_is_polynomial(t)) r->dtype = (kjit_dtype)KJIT_TUPLE_POLYNOMIAL;
}
