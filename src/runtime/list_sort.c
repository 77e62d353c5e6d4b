/* SPDX-License-Identifier: BSD-2-Clause */
/* List comparisons (==, !=, <, <=, >, >=: CPython's list_richcompare) and
 * lst.sort() and sorted() (rtfns.def LIST_CMP, LIST_SORT): CPython's list sort over
 * elements compared only with `<`, as listobject.c does, so that equal
 * elements keep their order (stable) and reverse=True is "reverse, sort,
 * reverse" (equal elements still in their first order). Runs are found
 * and extended to minrun with CPython's count_run and binarysort, so a
 * list under 64 elements is sorted exactly as CPython sorts it, NaNs
 * included (a NaN is never `<` anything). Longer runs are merged by a
 * plain stable merge instead of CPython's galloping one: the same result
 * for any elements `<` orders totally, and for floats with NaNs possibly
 * another of the orders an inconsistent `<` allows. */
#include "list.h"

#include "rt.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FIELDS = 64 };

typedef struct {
    int32_t kind; /* 0 signed int, 1 unsigned int (and bool), 2 float, 3 string (a char *) */
    int64_t size, off; /* bytes, and the offset in the element */
} field;

typedef struct {
    field f[MAX_FIELDS]; /* a number or string: one field; a tuple: its elements, compared in order */
    int32_t n;
    int64_t size; /* bytes per element */
} sorter;

/* The element description code generation passes (llvm_list.c):
 * "KIND,SIZE,OFFSET;" per field. */
static void parse(sorter *s, const char *desc, int64_t size)
{
    s->n = 0;
    s->size = size;
    while (*desc && s->n < MAX_FIELDS) {
        field *f = &s->f[s->n++];
        char *end;
        f->kind = (int32_t)strtol(desc, &end, 10);
        f->size = strtoll(end + 1, &end, 10);
        f->off = strtoll(end + 1, &end, 10);
        desc = *end ? end + 1 : end;
    }
}

/* a op b of one field (op 0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >=, as kj_cmpop),
 * as Python compares the values (NaN unordered). */
static bool field_op(const field *f, const char *a, const char *b, int32_t op)
{
    a += f->off, b += f->off;
    int c = 0; /* three-way, for the totally ordered kinds */
    switch (f->kind) {
    case 0: {
        int64_t x, y;
        if (f->size == 8) memcpy(&x, a, 8), memcpy(&y, b, 8);
        else if (f->size == 4) { int32_t u, v; memcpy(&u, a, 4), memcpy(&v, b, 4); x = u, y = v; }
        else if (f->size == 2) { int16_t u, v; memcpy(&u, a, 2), memcpy(&v, b, 2); x = u, y = v; }
        else x = (int8_t)*a, y = (int8_t)*b;
        c = x < y ? -1 : x > y;
        break;
    }
    case 1: {
        uint64_t x = 0, y = 0; /* little-endian: the low bytes of a zeroed uint64 */
        memcpy(&x, a, (size_t)f->size), memcpy(&y, b, (size_t)f->size);
        c = x < y ? -1 : x > y;
        break;
    }
    case 2: {
        double x, y;
        if (f->size == 4) {
            float u, v;
            memcpy(&u, a, 4), memcpy(&v, b, 4);
            x = u, y = v;
        } else {
            memcpy(&x, a, 8), memcpy(&y, b, 8);
        }
        switch (op) {
        case 0: return x == y;
        case 1: return x != y;
        case 2: return x < y;
        case 3: return x <= y;
        case 4: return x > y;
        default: return x >= y;
        }
    }
    default: {
        const char *x, *y; /* UTF-8 byte order is code point order, Python's str order */
        memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
        c = strcmp(x, y);
        break;
    }
    }
    switch (op) {
    case 0: return c == 0;
    case 1: return c != 0;
    case 2: return c < 0;
    case 3: return c <= 0;
    case 4: return c > 0;
    default: return c >= 0;
    }
}

/* a op b of two elements: a tuple as CPython's tuple comparison (the first
 * fields that are not == decide; all equal: as equal values). */
static bool elem_op(const sorter *s, const char *a, const char *b, int32_t op)
{
    if (s->n == 1) return field_op(&s->f[0], a, b, op);
    for (int32_t k = 0; k < s->n; k++)
        if (!field_op(&s->f[k], a, b, 0)) return op == 0 ? false : op == 1 ? true : field_op(&s->f[k], a, b, op);
    return op == 0 || op == 3 || op == 5;
}

static bool lt(const sorter *s, const char *a, const char *b) { return elem_op(s, a, b, 2); }

static char *at(char *d, int64_t size, int64_t i) { return d + i * size; }

/* The element order for other runtime code (heapq.c): parsed once. */
void *kj_list_order_new(const char *desc, int64_t size)
{
    sorter *s = malloc(sizeof *s);
    if (!s) abort(); /* out of memory: the one failure that is not a value */
    parse(s, desc, size);
    return s;
}

bool kj_list_order_lt(const void *order, const void *a, const void *b) { return lt(order, a, b); }

static void reverse(char *d, int64_t size, int64_t lo, int64_t hi, char *tmp)
{
    for (int64_t i = lo, j = hi - 1; i < j; i++, j--) {
        memcpy(tmp, at(d, size, i), (size_t)size);
        memcpy(at(d, size, i), at(d, size, j), (size_t)size);
        memcpy(at(d, size, j), tmp, (size_t)size);
    }
}

/* CPython's merge_compute_minrun */
static int64_t minrun(int64_t n)
{
    int64_t r = 0;
    while (n >= 64) r |= n & 1, n >>= 1;
    return n + r;
}

/* CPython's count_run: the run at lo (< hi), a strictly descending one reversed. */
static int64_t count_run(const sorter *s, char *d, int64_t lo, int64_t hi, char *tmp)
{
    if (lo + 1 == hi) return 1;
    int64_t n = 2, z = s->size;
    if (lt(s, at(d, z, lo + 1), at(d, z, lo))) {
        for (int64_t p = lo + 2; p < hi && lt(s, at(d, z, p), at(d, z, p - 1)); p++) n++;
        reverse(d, z, lo, lo + n, tmp);
    } else {
        for (int64_t p = lo + 2; p < hi && !lt(s, at(d, z, p), at(d, z, p - 1)); p++) n++;
    }
    return n;
}

/* CPython's binarysort: [lo, start) is sorted; insert start .. hi - 1. */
static void binarysort(const sorter *s, char *d, int64_t lo, int64_t hi, int64_t start, char *tmp)
{
    int64_t z = s->size;
    for (; start < hi; start++) {
        memcpy(tmp, at(d, z, start), (size_t)z);
        int64_t l = lo, r = start;
        while (l < r) {
            int64_t p = l + ((r - l) >> 1);
            if (lt(s, tmp, at(d, z, p))) r = p;
            else l = p + 1;
        }
        memmove(at(d, z, l + 1), at(d, z, l), (size_t)((start - l) * z));
        memcpy(at(d, z, l), tmp, (size_t)z);
    }
}

/* Stable merge of the sorted [lo, mid) and [mid, hi) through buf. */
static void merge(const sorter *s, char *d, int64_t lo, int64_t mid, int64_t hi, char *buf)
{
    int64_t z = s->size, i = lo, j = mid, k = 0;
    while (i < mid && j < hi) {
        if (lt(s, at(d, z, j), at(d, z, i))) memcpy(at(buf, z, k++), at(d, z, j++), (size_t)z);
        else memcpy(at(buf, z, k++), at(d, z, i++), (size_t)z);
    }
    while (i < mid) memcpy(at(buf, z, k++), at(d, z, i++), (size_t)z);
    while (j < hi) memcpy(at(buf, z, k++), at(d, z, j++), (size_t)z);
    memcpy(at(d, z, lo), buf, (size_t)(k * z));
}

static void sort(const sorter *s, char *d, int64_t n, char *tmp)
{
    if (n < 2) return;
    int64_t mr = minrun(n), nruns = 0;
    int64_t *runs = malloc((size_t)(n + 1) * sizeof *runs); /* run starts, then n */
    if (!runs) abort();
    for (int64_t lo = 0; lo < n;) {
        int64_t k = count_run(s, d, lo, n, tmp);
        if (k < mr) {
            int64_t force = n - lo <= mr ? n - lo : mr;
            binarysort(s, d, lo, lo + force, lo + k, tmp);
            k = force;
        }
        runs[nruns++] = lo;
        lo += k;
    }
    runs[nruns] = n;
    char *buf = nruns > 1 ? malloc((size_t)(n * s->size)) : NULL;
    if (nruns > 1 && !buf) abort();
    while (nruns > 1) { /* merge neighbours pairwise until one run is left */
        int64_t w = 0;
        for (int64_t r = 0; r < nruns; r += 2) {
            if (r + 1 < nruns) merge(s, d, runs[r], runs[r + 1], runs[r + 2], buf);
            runs[w++] = runs[r];
        }
        runs[w] = n;
        nruns = w;
    }
    free(buf);
    free(runs);
}

void kj_rt_list_sort(kj_rt *rt, void *list, const char *desc, int32_t reverse_)
{
    (void)rt;
    kj_list *l = list;
    sorter s;
    parse(&s, desc, l->itemsize);
    if (reverse_) reverse(l->data, l->itemsize, 0, l->len, l->tmp);
    sort(&s, l->data, l->len, l->tmp);
    if (reverse_) reverse(l->data, l->itemsize, 0, l->len, l->tmp);
}

int32_t kj_rt_list_cmp(kj_rt *rt, void *a, void *b, const char *desc, int32_t op)
{
    (void)rt;
    const kj_list *x = a, *y = b;
    if ((op == 0 || op == 1) && x->len != y->len) return op == 1;
    sorter s;
    parse(&s, desc, x->itemsize);
    int64_t n = x->len < y->len ? x->len : y->len, i = 0;
    while (i < n && elem_op(&s, at(x->data, s.size, i), at(y->data, s.size, i), 0)) i++;
    if (i < n) { /* the first elements that differ decide, as CPython's list_richcompare */
        if (op == 0 || op == 1) return op == 1;
        return elem_op(&s, at(x->data, s.size, i), at(y->data, s.size, i), op);
    }
    int64_t p = x->len, q = y->len; /* one is a prefix of the other: the lengths decide */
    switch (op) {
    case 0: return p == q;
    case 1: return p != q;
    case 2: return p < q;
    case 3: return p <= q;
    case 4: return p > q;
    default: return p >= q;
    }
}
