/* SPDX-License-Identifier: BSD-2-Clause */
/* Typing of the complex-number built-ins: Python's complex(re, im), a
 * complex's .real/.imag/.conjugate(), abs and the predicates of a complex,
 * and the cmath module (Numba's reference/pysupported.rst, "cmath"). Every
 * other built-in refuses a complex argument here, with Python's message
 * where Python has one (int(z), float(z)), so that no complex value is ever
 * converted to a real one behind the user's back. Their code is
 * llvm_complex.c's. */
#include "builtins_mctx.h"

#include <string.h>

static kj_span arg_span(const mctx *c, uint32_t i) { return i < c->nargs && c->args[i].type ? c->args[i].span : c->call; }

static const kj_type *c128(const mctx *c) { return kj_t_complex(c->t, 128); }

/* A real (bool, int, float) scalar argument. */
static bool is_real(const kj_type *x) { return kj_is_scalar(x) && !kj_is_complex(x); }

static const kj_type *bad(const mctx *c, uint32_t i, const char *what)
{
    kj_error(c->d, c->src, arg_span(c, i), "%s() argument must be %s, not %s", kj_builtin_get(c->id)->path, what,
             kj_type_str(ty(c, i)));
    return NULL;
}

/* z of a cmath function: a complex keeps its type, a real number becomes
 * complex128 (cmath.sqrt(4.0) is 2+0j). */
static const kj_type *z_arg(const mctx *c, uint32_t i)
{
    const kj_type *z = ty(c, i);
    if (kj_is_complex(z)) return z;
    if (!is_real(z)) return bad(c, i, "a number");
    conv_arg(c, i, c128(c));
    return c128(c);
}

/* complex(), complex(re), complex(re, im): complex128 from real numbers
 * (complex(z) of a complex is z as complex128). */
static const kj_type *type_complex(const mctx *c)
{
    const kj_type *re = ty(c, 0), *im = ty(c, 1);
    if (re && kj_is_complex(re) && !im) {
        conv_arg(c, 0, c128(c));
        return c128(c);
    }
    if (re && !is_real(re)) return bad(c, 0, "a real number");
    if (im && !is_real(im)) return bad(c, 1, "a real number");
    conv_arg(c, 0, kj_t_float(c->t, 64));
    conv_arg(c, 1, kj_t_float(c->t, 64));
    return c128(c);
}

static const kj_type *type_cmath(const mctx *c)
{
    if (c->id == KJ_B_CMATH_RECT) {
        for (uint32_t i = 0; i < 2; i++) {
            if (!is_real(ty(c, i))) return bad(c, i, "a real number");
            conv_arg(c, i, kj_t_float(c->t, 64));
        }
        return c128(c);
    }
    const kj_type *z = z_arg(c, 0);
    if (!z) return NULL;
    if (c->id == KJ_B_CMATH_LOG && ty(c, 1)) {
        const kj_type *b = ty(c, 1);
        if (!kj_is_scalar(b)) return bad(c, 1, "a number");
        conv_arg(c, 1, z);
    }
    const kj_type *part = kj_complex_part(c->t, z);
    switch (c->id) {
    case KJ_B_CMATH_PHASE: return part;
    case KJ_B_CMATH_POLAR: {
        const kj_type *el[2] = {part, part};
        return kj_t_tuple(c->t, el, 2);
    }
    case KJ_B_CMATH_ISNAN: case KJ_B_CMATH_ISINF: case KJ_B_CMATH_ISFINITE: return kj_t_bool(c->t);
    default: return z;
    }
}

/* np.real/np.imag/np.conj/np.angle of a scalar: of a complex its part, its
 * conjugate, its phase; of a real number the number, 0, itself, 0 or pi (as
 * float64 from an int, as NumPy). Arrays: not yet. */
static const kj_type *type_np_part(const mctx *c)
{
    const kj_type *x = ty(c, 0);
    if (c->id == KJ_B_NP_CONJ && x && x->kind == KJ_T_ARRAY && kj_is_scalar(x->elem) && !kj_is_complex(x->elem))
        return kj_t_array(c->t, x->elem->kind == KJ_T_BOOL ? kj_t_int(c->t, 8, true) : x->elem, x->ndim,
                          KJ_LAYOUT_C); /* a copy (bool: NumPy's int8 loop), by a fused loop (kir_fuse.c) */
    if (x && x->kind == KJ_T_ARRAY && kj_is_complex(x->elem) && (c->id == KJ_B_NP_CONJ || c->id == KJ_B_NP_ANGLE))
        return kj_t_array(c->t, c->id == KJ_B_NP_CONJ ? x->elem : kj_complex_part(c->t, x->elem), x->ndim,
                          KJ_LAYOUT_C); /* elementwise, by a fused loop (kir_fuse.c) */
    if (!kj_is_scalar(x)) return bad(c, 0, "a number (complex arrays are not supported yet)");
    if (kj_is_complex(x)) return c->id == KJ_B_NP_CONJ ? x : kj_complex_part(c->t, x);
    const kj_type *f = x->kind == KJ_T_FLOAT && !x->weak ? x : kj_t_float(c->t, 64);
    if (c->id == KJ_B_NP_ANGLE) {
        conv_arg(c, 0, f);
        return f;
    }
    return kj_strong(c->t, x);
}

static bool own_builtin(kj_builtin id) { return id >= KJ_B_COMPLEX && id <= KJ_B_CMATH_ISFINITE; }

/* A built-in that is not complex-aware, given a complex scalar argument. */
static const kj_type *refuse(const mctx *c, uint32_t i)
{
    const char *name = kj_builtin_get(c->id)->path;
    const char *got = kj_type_str(ty(c, i));
    if (c->id == KJ_B_INT) {
        kj_error(c->d, c->src, arg_span(c, i),
                 "int() argument must be a string, a bytes-like object or a real number, not '%s'", got);
        return NULL;
    }
    if (c->id == KJ_B_FLOAT) {
        kj_error(c->d, c->src, arg_span(c, i), "float() argument must be a string or a real number, not '%s'", got);
        return NULL;
    }
    kj_diag *dg = kj_error(c->d, c->src, arg_span(c, i), "%s() does not accept a complex argument (%s)",
                           c->id == KJ_B_CONVERT ? "conversion to a real type" : name, got);
    if (!strncmp(name, "math.", 5)) kj_diag_hint(dg, "cmath.%s works on complex numbers", name + 5);
    else if (c->id == KJ_B_CONVERT) kj_diag_hint(dg, "take z.real or abs(z)");
    return NULL;
}

/* An int or a float: Python's numbers have .real, .imag and .conjugate()
 * too (Numba's pysupported.rst, "int, float": x.real and x.conjugate() are x,
 * x.imag is 0 of x's type). */
static bool real_number(const kj_type *x) { return x && (x->kind == KJ_T_INT || x->kind == KJ_T_FLOAT); }

bool kj_complex_builtin_type(kj_types *t, kj_builtin id, const kj_type *target, const kj_barg *args, uint32_t nargs,
                             kj_span call, const kj_source *src, kj_diags *d, const kj_type **conv,
                             const kj_type **out)
{
    mctx c = {.t = t, .id = id, .name = kj_builtin_get(id)->path, .args = args, .nargs = nargs, .call = call, .src = src, .d = d, .conv = conv};
    if (own_builtin(id)) {
        switch (id) {
        case KJ_B_COMPLEX: *out = type_complex(&c); break;
        case KJ_B_CPX_REAL: case KJ_B_CPX_IMAG:
            *out = kj_is_complex(ty(&c, 0)) ? kj_complex_part(t, ty(&c, 0))
                   : real_number(ty(&c, 0)) ? ty(&c, 0) /* int/float .real, .imag: the same type */
                                                : bad(&c, 0, "complex");
            break;
        case KJ_B_CPX_CONJ:
            *out = kj_is_complex(ty(&c, 0)) || real_number(ty(&c, 0)) ? ty(&c, 0) : bad(&c, 0, "complex");
            break;
        case KJ_B_NP_REAL: case KJ_B_NP_IMAG: case KJ_B_NP_CONJ: case KJ_B_NP_ANGLE: *out = type_np_part(&c); break;
        default: *out = type_cmath(&c); break;
        }
        return true;
    }
    int32_t zi = -1;
    for (uint32_t i = 0; i < nargs && zi < 0; i++)
        if (kj_is_complex(args[i].type)) zi = (int32_t)i;
    if (zi < 0) return false;
    if (target && target->kind == KJ_T_DTYPE) target = target->elem;
    switch (id) {
    case KJ_B_ABS: *out = nargs == 1 ? kj_complex_part(t, args[0].type) : NULL; return nargs == 1;
    case KJ_B_ISNAN: case KJ_B_ISINF: case KJ_B_ISFINITE: *out = kj_t_bool(t); return nargs == 1;
    case KJ_B_PRINT: case KJ_B_BOOL: case KJ_B_HASH: return false; /* every scalar prints, is truthy, hashes */
    case KJ_B_NP_ISCOMPLEX: case KJ_B_NP_ISREAL: case KJ_B_NP_ISCOMPLEXOBJ: case KJ_B_NP_ISREALOBJ:
    case KJ_B_NP_ISSCALAR: case KJ_B_NP_SHAPE: return false; /* builtins_npother.c takes them */
    case KJ_B_NP_FULL: case KJ_B_NP_FULL_LIKE: case KJ_B_ARR_FILL: return false; /* a complex fill value */
    case KJ_B_CONVERT:
        if (kj_is_complex(target) || (target && target->kind == KJ_T_BOOL)) return false;
        break;
    default: break;
    }
    *out = refuse(&c, (uint32_t)zi);
    return true;
}

static bool complex_array(const kj_type *t) { return t && t->kind == KJ_T_ARRAY && kj_is_complex(t->elem); }

bool kj_complex_arrays_ok(kj_builtin id, const kj_barg *args, uint32_t nargs, const kj_type *result, kj_span call,
                          const kj_source *src, kj_diags *d)
{
    switch (id) {
    case KJ_B_NP_ZEROS: case KJ_B_NP_EMPTY: case KJ_B_NP_ZEROS_LIKE: case KJ_B_NP_EMPTY_LIKE: case KJ_B_LEN:
    case KJ_B_ARR_SHAPE: case KJ_B_ARR_SIZE: case KJ_B_ARR_NBYTES: case KJ_B_ARR_NDIM: case KJ_B_ARR_DTYPE: case KJ_B_ARR_T:
    case KJ_B_ARR_TRANSPOSE: case KJ_B_NP_TRANSPOSE: case KJ_B_CUDA_TO_DEVICE: case KJ_B_CUDA_DEVICE_ARRAY:
    case KJ_B_CUDA_DEVICE_ARRAY_LIKE: case KJ_B_ARR_COPY_TO_HOST: case KJ_B_SHARED_ARRAY: case KJ_B_LOCAL_ARRAY:
    case KJ_B_CUDA_SYNCHRONIZE: case KJ_B_PRINT:
    /* constructors and copies that move whole elements (issue 24 point 7) */
    case KJ_B_NP_ARRAY: case KJ_B_NP_ASARRAY: case KJ_B_NP_ASCONTIGUOUSARRAY: case KJ_B_NP_ONES: case KJ_B_NP_FULL:
    case KJ_B_NP_ONES_LIKE: case KJ_B_NP_FULL_LIKE: case KJ_B_ARR_FILL: case KJ_B_ARR_COPY: case KJ_B_NP_COPY:
    case KJ_B_ARR_RESHAPE: case KJ_B_ARR_RAVEL: case KJ_B_NP_RAVEL: case KJ_B_ARR_FLATTEN: case KJ_B_NP_CONCATENATE:
    case KJ_B_NP_WHERE: case KJ_B_NP_FLIP: case KJ_B_NP_CONJ: case KJ_B_NP_ANGLE: case KJ_B_ABS:
    case KJ_B_NP_ARANGE: /* real bounds, a complex dtype: kj_rt_arange_* */
        return true;
    case KJ_B_EXP: case KJ_B_LOG: case KJ_B_LOG10: case KJ_B_SQRT: case KJ_B_SIN: case KJ_B_COS: case KJ_B_TAN:
    case KJ_B_SINH: case KJ_B_COSH: case KJ_B_TANH: case KJ_B_ASIN: case KJ_B_ACOS: case KJ_B_ATAN:
    case KJ_B_ASINH: case KJ_B_ACOSH: case KJ_B_ATANH: case KJ_B_POW: case KJ_B_NP_RECIPROCAL:
    case KJ_B_ISNAN: case KJ_B_ISINF: case KJ_B_ISFINITE: case KJ_B_NP_NEGATIVE: case KJ_B_NP_SQUARE: case KJ_B_NP_AROUND:
        return true; /* NumPy's complex loops in fused loops (builtins_cpxarr.c, llvm_cpxufunc.c) */
    case KJ_B_NP_SUM: case KJ_B_ARR_SUM: case KJ_B_NP_PROD: case KJ_B_ARR_PROD: case KJ_B_NP_MEAN: case KJ_B_ARR_MEAN:
    case KJ_B_NP_VAR: case KJ_B_ARR_VAR: case KJ_B_NP_STD: case KJ_B_ARR_STD:
        return true; /* array_cpx.c, along an axis array_cpx_axis.c */
    case KJ_B_NP_CUMSUM: case KJ_B_ARR_CUMSUM: case KJ_B_NP_CUMPROD: case KJ_B_ARR_CUMPROD:
    case KJ_B_NP_SORT: case KJ_B_ARR_SORT: case KJ_B_NP_ARGSORT: case KJ_B_ARR_ARGSORT: case KJ_B_NP_UNIQUE:
        return true; /* NumPy's complex order: array_sort_cpx.c */
    case KJ_B_NP_NANSUM: case KJ_B_NP_NANPROD: case KJ_B_NP_NANMEAN:
        return true; /* array_cpx_axis.c */
    case KJ_B_ARR_ASTYPE: /* between complex types; a complex to a real type drops the imaginary part */
        if (complex_array(result)) return true;
        break;
    default:
        if (kj_builtin_get(id)->flags & KJ_BF_LINALG) return true; /* BLAS/LAPACK's c/z routines: rt_linalg_cpx.c */
        break;
    }
    bool cx = complex_array(result);
    kj_span sp = call;
    for (uint32_t i = 0; i < nargs && !cx; i++)
        if (complex_array(args[i].type)) {
            cx = true;
            sp = args[i].span;
        }
    if (!cx) return true;
    kj_diag *dg = kj_error(d, src, sp, "%s() of a complex array is not supported yet", kj_builtin_get(id)->path);
    kj_diag_hint(dg, "complex arrays have constructors, copies, elementwise ufuncs, sum/prod/mean/var/std, "
                     "cumsum/cumprod, sort/argsort/unique and linear algebra; write a loop for the rest");
    return false;
}
