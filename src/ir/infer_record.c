/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy structured dtypes as Numba supports them (numpysupported.rst, "structured scalars" and record
 * arrays; Numba's types.Record): a dtype made at module level,
 *     dt = np.dtype([('x', np.float64), ('y', np.int32)])
 *     dt = np.dtype({'names': ['x', 'y'], 'formats': [np.float64, np.int32]}, align=True)
 * with NumPy's field offsets and itemsize (packed, or C's alignment with align=True); arrays of it
 * from np.zeros / np.empty / cuda.device_array; a record a[i] (a reference to the element's bytes,
 * as Numba's), its fields read and written as r.x and r['x']; a['x'] a strided view of one field.
 * The type is kj_t_record (types.c); lowering is lower_record.c, code generation llvm_record.c. */
#include "sema_int.h"

enum { MAX_FIELDS = 64 };

static uint32_t scalar_size(const kj_type *t)
{
    return t->kind == KJ_T_BOOL ? 1 : t->kind == KJ_T_COMPLEX ? t->bits / 8 : t->bits / 8;
}

/* The field type a dtype expression names: np.float64, 'f8', 'int32'. NULL (reported) otherwise. */
static const kj_type *field_type(kj_sema *s, const kj_expr *e)
{
    kj_einfo ref;
    if (e->kind == KJ_E_STR) {
        const kj_type *t = kj_dtype_by_str(s->types, kj_arena_strndup(s->a, e->str.s, e->str.len));
        if (t && !(t->kind == KJ_T_FLOAT && t->bits == 16) && t->kind != KJ_T_COMPLEX) return t;
        if (t) goto refused;
        kj_error(s->d, s->src, e->span, "data type '%.*s' not understood", (int)e->str.len, e->str.s);
        return NULL;
    }
    if (kj_static_ref(s, e, &ref, false) && ref.kind == EI_DTYPE && kj_is_scalar(ref.dtype) &&
        !(ref.dtype->kind == KJ_T_FLOAT && ref.dtype->bits == 16) && ref.dtype->kind != KJ_T_COMPLEX)
        return kj_strong(s->types, ref.dtype);
refused:;
    kj_diag *dg = kj_error(s->d, s->src, e->span, "kjit cannot lay out this field of a structured dtype");
    kj_diag_hint(dg, "record fields are NumPy's real scalars (np.float64, np.int32, np.bool_, 'f8', ...); "
                     "Numba has no object fields, and kjit no nested arrays, sub-records, complex or float16 fields");
    return NULL;
}

static bool add_field(kj_sema *s, kj_recdesc *d, const kj_expr *name, const kj_expr *type)
{
    if (name->kind != KJ_E_STR || !name->str.len) {
        kj_error(s->d, s->src, name->span, "a field name of a structured dtype is a non-empty string literal");
        return false;
    }
    const char *n = kj_arena_strndup(s->a, name->str.s, name->str.len);
    for (uint32_t i = 0; i < d->n; i++)
        if (!strcmp(d->names[i], n)) {
            kj_error(s->d, s->src, name->span, "ValueError: field '%s' occurs more than once", n);
            return false;
        }
    if (d->n == MAX_FIELDS) {
        kj_error(s->d, s->src, name->span, "a structured dtype has at most %d fields in kjit", MAX_FIELDS);
        return false;
    }
    const kj_type *t = field_type(s, type);
    if (!t) return false;
    d->names[d->n] = n;
    d->types[d->n++] = t;
    return true;
}

/* [('x', np.float64), ('y', 'i4')] */
static bool fields_of_list(kj_sema *s, kj_recdesc *d, const kj_expr *e)
{
    for (uint32_t i = 0; i < e->seq.n; i++) {
        const kj_expr *f = e->seq.v[i];
        if (f->kind != KJ_E_TUPLE || f->seq.n != 2) {
            kj_diag *dg = kj_error(s->d, s->src, f->span, "a field of a structured dtype is written (name, type)");
            if (f->kind == KJ_E_TUPLE && f->seq.n == 3)
                kj_diag_hint(dg, "nested arrays in records (name, type, shape) are not supported by kjit yet");
            return false;
        }
        if (!add_field(s, d, f->seq.v[0], f->seq.v[1])) return false;
    }
    return true;
}

static const kj_expr *dict_value(const kj_expr *e, const char *key)
{
    for (uint32_t i = 0; i + 1 < e->seq.n; i += 2) {
        const kj_expr *k = e->seq.v[i];
        if (k->kind == KJ_E_STR && strlen(key) == k->str.len && !memcmp(k->str.s, key, k->str.len))
            return e->seq.v[i + 1];
    }
    return NULL;
}

/* {'names': [...], 'formats': [...]} */
static bool fields_of_dict(kj_sema *s, kj_recdesc *d, const kj_expr *e)
{
    const kj_expr *names = dict_value(e, "names"), *formats = dict_value(e, "formats");
    if (!names || !formats || e->seq.n != 4 || (names->kind != KJ_E_LIST && names->kind != KJ_E_TUPLE) ||
        (formats->kind != KJ_E_LIST && formats->kind != KJ_E_TUPLE) || names->seq.n != formats->seq.n) {
        kj_error(s->d, s->src, e->span, "a structured dtype's dict holds 'names' and 'formats', lists of one length");
        return false;
    }
    for (uint32_t i = 0; i < names->seq.n; i++)
        if (!add_field(s, d, names->seq.v[i], formats->seq.v[i])) return false;
    return true;
}

/* NumPy's offsets: packed, or each field at a multiple of its alignment and the size a multiple of
 * the largest (align=True, as a C struct). */
static void lay_out(kj_recdesc *d)
{
    uint32_t off = 0, maxal = 1;
    for (uint32_t i = 0; i < d->n; i++) {
        uint32_t size = scalar_size(d->types[i]);
        uint32_t al = d->types[i]->kind == KJ_T_COMPLEX ? size / 2 : size;
        if (d->aligned) {
            off = (off + al - 1) / al * al;
            if (al > maxal) maxal = al;
        }
        d->offsets[i] = off;
        off += size;
    }
    d->size = d->aligned ? (off + maxal - 1) / maxal * maxal : off;
}

static bool align_kw(kj_sema *s, const kj_expr *call, bool *aligned)
{
    for (uint32_t k = 0; k < call->call.nkw; k++) {
        const kj_keyword *kw = &call->call.kw[k];
        kj_cval v;
        if (strcmp(kw->name, "align") || !kj_const_eval(s, kw->value, &v) || !v.type ||
            (v.type->kind != KJ_T_BOOL && v.type->kind != KJ_T_INT)) {
            kj_error(s->d, s->src, kw->span, "np.dtype() of fields takes one keyword here: align=True or False");
            return false;
        }
        *aligned = v.i != 0;
    }
    return true;
}

/* The record type of a list or dict display of fields (NULL, reported, when it is not one). */
static const kj_type *record_of_display(kj_sema *s, const kj_expr *a, bool aligned)
{
    kj_recdesc *d = KJ_NEW(s->a, kj_recdesc);
    d->names = KJ_NEWN(s->a, const char *, MAX_FIELDS);
    d->types = KJ_NEWN(s->a, const kj_type *, MAX_FIELDS);
    d->offsets = KJ_NEWN(s->a, uint32_t, MAX_FIELDS);
    d->aligned = aligned;
    if (!(a->kind == KJ_E_LIST ? fields_of_list(s, d, a) : fields_of_dict(s, d, a))) return NULL;
    if (!d->n) {
        kj_error(s->d, s->src, a->span, "a structured dtype without fields is not supported by kjit");
        return NULL;
    }
    lay_out(d);
    return kj_t_record(s->types, d);
}

bool kj_resolve_record_dtype(kj_sema *s, const kj_stmt *st, const kj_type **out)
{
    *out = NULL;
    const kj_expr *v = st->assign.value;
    kj_einfo ref;
    if (v->kind != KJ_E_CALL || !kj_static_ref(s, v->call.fn, &ref, false) || ref.kind != EI_DTYPE_FN ||
        v->call.nargs != 1 || (v->call.args[0]->kind != KJ_E_LIST && v->call.args[0]->kind != KJ_E_DICT))
        return false;
    bool aligned = false;
    if (align_kw(s, v, &aligned)) *out = record_of_display(s, v->call.args[0], aligned);
    return true;
}

const kj_type *kj_record_dtype_display(kj_sema *s, const kj_expr *a)
{
    return record_of_display(s, a, false);
}

/* ---- typing -------------------------------------------------------------- */

int kj_record_field(const kj_type *rec, const char *name)
{
    const kj_recdesc *d = kj_record_of(rec);
    for (uint32_t i = 0; d && i < d->n; i++)
        if (!strcmp(d->names[i], name)) return (int)i;
    return -1;
}

/* Numba's NumbaKeyError: Field 'z' was not found in record with fields ('x', 'y') */
static void field_error(kj_ictx *ic, kj_span sp, const kj_type *rec, const char *name)
{
    const kj_recdesc *d = kj_record_of(rec);
    kj_buf b = {0};
    for (uint32_t i = 0; i < d->n; i++) kj_buf_printf(&b, "%s'%s'", i ? ", " : "", d->names[i]);
    kj_error(ic->d, ic->s->src, sp, "Field '%s' was not found in record with fields (%s%s)", name, b.s,
             d->n == 1 ? "," : "");
    kj_buf_free(&b);
}

/* The field index r.NAME or r['NAME'] names, -1 (reported) if none. */
static int field_index(kj_ictx *ic, kj_span sp, const kj_type *rec, const char *name)
{
    int f = kj_record_field(rec, name);
    if (f < 0) field_error(ic, sp, rec, name);
    return f;
}

const kj_type *kj_record_attr_type(kj_ictx *ic, const kj_expr *e, const kj_type *rec)
{
    if (kj_record_field(rec, e->attr.name) < 0 && !strcmp(e->attr.name, "dtype")) /* a DeviceRecord's dtype */
        return kj_t_dtype(ic->s->types, rec);
    int f = field_index(ic, e->attr.name_span, rec, e->attr.name);
    return f < 0 ? NULL : kj_record_of(rec)->types[f];
}

/* The constant string of a subscript's index, NULL (reported) when it is not one. */
static const char *const_key(kj_ictx *ic, const kj_expr *e)
{
    kj_einfo *ix = kj_type_expr(ic, e->sub.index);
    if (ix->kind == EI_VALUE && ix->is_const && ix->cval.type && ix->cval.type->kind == KJ_T_STR) return ix->cval.s;
    const char *s;
    if (ix->kind == EI_VALUE && ix->type && ix->type->kind == KJ_T_STR && kj_local_const_str(ic, e->sub.index, &s)) {
        ix->is_const = true; /* that use of the name is the constant (lowering emits it) */
        ix->cval = (kj_cval){.type = ix->type, .s = s};
        return s;
    }
    if (ix->kind == EI_VALUE && ix->type)
        kj_error(ic->d, ic->s->src, e->sub.index->span,
                 "a record's field is named by a constant string, r['x'] (Numba's static_getitem)");
    return NULL;
}

bool kj_is_record_subscript(const kj_spec *sp, const kj_expr *e)
{
    const kj_type *t = sp->ei[e->sub.obj->id].type;
    const kj_einfo *ix = &sp->ei[e->sub.index->id];
    return kj_record_of(t) || (t && t->kind == KJ_T_ARRAY && kj_record_of(t->elem) && ix->is_const &&
                               ix->cval.type && ix->cval.type->kind == KJ_T_STR);
}

/* r['x']: the field; a['x'] of an array of records: a view of the field (layout A), as Numba's
 * StaticGetItemArray. NULL when e is neither (array_subscript types it). */
kj_einfo *kj_type_record_subscript(kj_ictx *ic, const kj_expr *e, const kj_type *t, kj_einfo *ei)
{
    bool arr = t->kind == KJ_T_ARRAY;
    if (arr) {
        if (e->sub.index->kind == KJ_E_SLICE || e->sub.index->kind == KJ_E_TUPLE) return NULL;
        kj_einfo *ix = kj_type_expr(ic, e->sub.index);
        if (!ix->is_const || !ix->cval.type || ix->cval.type->kind != KJ_T_STR) return NULL;
    }
    const kj_type *rec = arr ? t->elem : t;
    const char *key = const_key(ic, e);
    int f = key ? field_index(ic, e->sub.index->span, rec, key) : -1;
    if (f < 0) return ei_value(ei, NULL);
    const kj_type *ft = kj_record_of(rec)->types[f];
    return ei_value(ei, arr ? kj_t_array(ic->s->types, ft, t->ndim, KJ_LAYOUT_A) : ft);
}

/* r.x = v, r['x'] = v: v must convert to the field's type (Numba's can_convert). */
bool kj_record_store_check(kj_ictx *ic, const kj_expr *target, const kj_type *v)
{
    const kj_expr *obj = target->kind == KJ_E_ATTR ? target->attr.obj : target->sub.obj;
    const kj_type *rec = kj_value_type(ic, obj);
    if (!kj_record_of(rec)) {
        if (rec && rec->kind == KJ_T_ARRAY && kj_record_of(rec->elem) && target->kind == KJ_E_SUBSCRIPT &&
            (kj_type_expr(ic, target->sub.index)->cval.type && kj_type_expr(ic, target->sub.index)->cval.type->kind == KJ_T_STR)) {
            kj_error(ic->d, ic->s->src, target->span, "assigning to a whole field a['x'] of a record array is not "
                     "supported by kjit; write a loop of a[i].x = ...");
            return true;
        }
        return false;
    }
    int f;
    if (target->kind == KJ_E_ATTR) {
        f = field_index(ic, target->attr.name_span, rec, target->attr.name);
    } else {
        const char *key = const_key(ic, target);
        f = key ? field_index(ic, target->sub.index->span, rec, key) : -1;
    }
    if (f < 0 || !v) return true;
    const kj_type *ft = kj_record_of(rec)->types[f];
    /* Numba converts any number into a numeric field (unsafely, as a[i] = v), but no complex into a real */
    if (!kj_is_scalar(v) || (kj_is_complex(v) && !kj_is_complex(ft)))
        kj_error(ic->d, ic->s->src, target->span, "cannot store %s into field '%s' of %s (of type %s)",
                 kj_type_str(v), kj_record_of(rec)->names[f], kj_type_str(rec), kj_type_str(ft));
    return true;
}
