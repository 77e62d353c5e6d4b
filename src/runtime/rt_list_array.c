/* SPDX-License-Identifier: BSD-2-Clause */
/* np.array(lst) / np.asarray(lst) of a list of numbers (Numba's reflected
 * list; pysupported.rst "list", numpysupported.rst np.array): a new 1-d array
 * of the list's elements converted to the dtype, as NumPy's (the array
 * comprehension np.array([f(i) for i in range(n)]) is its common use). */
#include "rt_host.h"

#include "list.h"

void kj_rt_list_array(kj_rt *rt, const void *list, int32_t src, int32_t dst, void *out, int32_t line, int32_t col)
{
    const kj_list *l = list;
    kj_rt_error err = {0};
    int64_t n = l->len;
    if (!n) { /* an empty list may have no memory at all */
        kj_rt_result(rt, kj_array_empty((kj_dtype)dst, 1, &n, &err), &err, out, 1, line, col);
        return;
    }
    kj_array *h = kj_array_wrap(l->data, (kj_dtype)src, 1, &n, NULL, &err); /* the list's memory, read once */
    kj_array *a = h ? kj_array_astype(h, (kj_dtype)dst, &err) : NULL;
    if (h) kj_array_release(h);
    kj_rt_result(rt, a, &err, out, 1, line, col);
}

/* np.array(lst) of a list of k-tuples of one number type: the list's
 * elements are structs of k members without padding, read as a (len, k)
 * array; an empty list gives (0, k). */
void kj_rt_list_array2(kj_rt *rt, const void *list, int32_t src, int32_t dst, int32_t k, void *out, int32_t line,
                       int32_t col)
{
    const kj_list *l = list;
    kj_rt_error err = {0};
    int64_t shape[2] = {l->len, k};
    if (!l->len) {
        kj_rt_result(rt, kj_array_empty((kj_dtype)dst, 2, shape, &err), &err, out, 2, line, col);
        return;
    }
    int64_t strides[2] = {l->itemsize, l->itemsize / k};
    kj_array *h = kj_array_wrap(l->data, (kj_dtype)src, 2, shape, strides, &err);
    kj_array *a = h ? kj_array_astype(h, (kj_dtype)dst, &err) : NULL;
    if (h) kj_array_release(h);
    kj_rt_result(rt, a, &err, out, 2, line, col);
}
