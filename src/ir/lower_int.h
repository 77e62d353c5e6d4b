/* SPDX-License-Identifier: BSD-2-Clause */
/* What lower.c shares with the lowering files beside it (lower_iter.c,
 * lower_list.c, lower_try.c, ...): its context and the helpers they build on. */
#ifndef KJ_LOWER_INT_H
#define KJ_LOWER_INT_H

#include "sema_int.h"

typedef struct lctx {
    kj_sema *s;
    kj_spec *sp;
    kir_func *f;
    kir_blkid cur;   /* the block being appended to */
    int32_t *local;  /* var index → KIR local, -1 for untyped variables */
    bool boundscheck;
    KJ_VEC(kir_ref) tries; /* the TRYs whose bodies enclose the statement (lower_try.c) */
    KJ_VEC(kir_ref) handlers; /* the TRYs whose except clauses enclose it (a bare raise: lower_exc.c) */
} lctx;

/* lower.c's helpers: an instruction at the end of the current block, an
 * expression (as type t), a conversion, an int64 constant, temporaries and
 * locals, an assignment to a target (names, tuples, subscripts), a block. */
kir_ref kj_lw_emit(lctx *lc, kir_op op, const kj_type *t, kj_span sp);
kir_ref kj_lw_expr(lctx *lc, const kj_expr *e);
kir_ref kj_lw_as(lctx *lc, const kj_expr *e, const kj_type *t);
kir_ref kj_lw_cast(lctx *lc, kir_ref v, const kj_type *t, kj_span sp);
kir_ref kj_lw_i64(lctx *lc, int64_t v, kj_span sp);
kir_ref kj_lw_num(lctx *lc, const kj_type *t, int v, kj_span sp); /* 0, 1 or -1 of scalar type t */
kir_ref kj_lw_emit2(lctx *lc, kir_op op, const kj_type *t, kj_span sp, kir_ref a, kir_ref b);
kir_ref kj_lw_emit_args(lctx *lc, kir_op op, const kj_type *t, kj_span sp, const kir_ref *args, uint32_t n);
/* lower_optional.c: Numba's Optional values (infer_optional.c): e as its Optional (its einfo's
 * opt_type), e used as its value (checked: TypeError when None), a conversion to or from an
 * Optional, `x is None` (kj_opt_compare_side), `if x:` in host code. */
kir_ref kj_lower_opt_raw(lctx *lc, const kj_expr *e);
kir_ref kj_lower_opt_use(lctx *lc, const kj_expr *e);
kir_ref kj_lower_opt_cast(lctx *lc, kir_ref v, const kj_type *to, kj_span sp);
kir_ref kj_lower_opt_compare(lctx *lc, const kj_expr *e);
kir_ref kj_lower_opt_truth(lctx *lc, const kj_expr *e);
/* lower_pybuiltin.c: chr, ord, repr, hash, divmod */
kir_ref kj_lower_pybuiltin(lctx *lc, int b, const kj_type *t, const kir_ref *args, uint32_t n, kj_span sp);
bool kj_lower_str_augassign(lctx *lc, const kj_stmt *st); /* s += t, s *= n */
bool kj_lower_list_iadd(lctx *lc, const kj_stmt *st);     /* lst += other (lower_list.c) */
/* a call's arguments for the callee's parameters, defaults filled, from index `extra` on */
kir_ref *kj_lw_user_args(lctx *lc, const kj_expr *e, kj_einfo *ei, kj_spec *callee, uint32_t extra);
/* lower_launch.c: kernel[...](args), kernel.forall(n)(args); a cuda.reduce function called */
kir_ref kj_lower_launch(lctx *lc, const kj_expr *e, kj_einfo *ei);
kir_ref kj_lower_cuda_reduce(lctx *lc, const kj_expr *e, kj_einfo *ei);
uint32_t kj_lw_temp(lctx *lc, const kj_type *t);
kir_ref kj_lw_get(lctx *lc, uint32_t l, kj_span sp);
void kj_lw_set(lctx *lc, uint32_t l, kir_ref v, kj_span sp);
void kj_lw_store(lctx *lc, const kj_expr *t, kir_ref v, kj_span sp);
void kj_lw_block(lctx *lc, const kj_block *b);
enum { KJ_MAX_INDEX_DIMS = 4 }; /* arrays have at most 4 dimensions: index operands a[...] takes */
kir_ref kj_lw_const_as(lctx *lc, const kj_cval *cv, const kj_type *t, kj_span sp); /* a constant as type t */
/* lower_subscript.c: a[...] read; for assignments and atomics: index v of
 * axis `dim` wrapped and checked, an index expression of axis `dim`, the
 * parts of a[...] (element indices or a view), whether a[...] takes index
 * arrays and their arguments (a view, then an index per axis or 0) */
kir_ref kj_lower_subscript(lctx *lc, const kj_expr *e);
kir_ref kj_lower_checked_index(lctx *lc, kir_ref arr, kir_ref v, bool nonneg, bool is_unsigned, kj_span sp,
                               uint32_t dim);
kir_ref kj_lower_index(lctx *lc, kir_ref arr, const kj_expr *ix, uint32_t dim);
kir_ref kj_lower_subscript_parts(lctx *lc, const kj_expr *e, kir_ref arr, kir_ref *idx, uint32_t *nidx,
                                 bool *is_view);
bool kj_lower_is_index_array(lctx *lc, const kj_expr *e);
uint32_t kj_lower_index_arrays(lctx *lc, const kj_expr *e, kir_ref arr, kir_ref *args);
/* resolve_modslot.c: after <module>'s `name = value`, the slot of a name functions read */
void kj_lower_modslot_set(lctx *lc, const kj_stmt *st);
bool kj_lower_modslot_store(lctx *lc, const kj_expr *t, kir_ref v, kj_span sp); /* global NAME in host code */
kir_ref kj_lower_modslot_shared(lctx *lc, const kj_expr *e, uint32_t local);      /* <module>'s read of one */

/* lower_kernel_query.c: kernel.max_cooperative_grid_blocks(blockdim,
 * dynsmemsize) of call e (args[0] the kernel) for its one specialisation. */
kir_ref kj_lower_kernel_query(lctx *lc, const kj_expr *e, const kj_type *t, kir_ref *args, uint32_t n);
/* lower_with.c: what `with CTX:` does before its body (returns what `as`
 * binds, 0 for nothing) and after it. */
kir_ref kj_lower_with_enter(lctx *lc, const kj_stmt *st);
void kj_lower_with_exit(lctx *lc, const kj_stmt *st, kir_ref entered);
kir_ref kj_lower_gpus_item(lctx *lc, const kj_expr *ctx); /* cuda.gpus[i] */
/* lower_exc.c: exception objects (infer_exc.c): a raise of an object or a
 * bare one (true when st was one), type(e) is C, isinstance(e, C) (0: e is
 * not such an expression) */
bool kj_lower_raise_obj(lctx *lc, const kj_stmt *st);
/* what `raise EXC` (a class of kind `kind` or a call of one) says of its arguments: exc_obj.h's forms */
int kj_raise_form(lctx *lc, const kj_expr *exc, int kind);
kir_ref kj_lower_exc_expr(lctx *lc, const kj_expr *e);
kir_ref kj_lower_gpus_at(lctx *lc, kir_ref i, kj_span sp);  /* device i, as cuda.gpus[i] */

/* lower_npshape.c: a.flat, np.ndindex, np.ndenumerate, np.nditer in for loops
 * (w the wrapper's type), a.flat[i] read (v 0) or written, `x in a`. */
kir_ref kj_lower_npiter_len(lctx *lc, const kj_type *w, kir_ref v, kj_span sp);
kir_ref kj_lower_npiter_get(lctx *lc, const kj_type *w, kir_ref v, kir_ref i, kj_span sp);
kir_ref kj_lower_flat_item(lctx *lc, const kj_expr *e, kir_ref v, kj_span sp);
kir_ref kj_lower_array_in(lctx *lc, const kj_expr *e, bool not_in, kir_ref x, kir_ref a);
/* lower_iter.c: a for loop over an array, a range value, enumerate() or
 * zip() (what infer_iter.c typed); false for any other loop. */
bool kj_lower_for_iter(lctx *lc, const kj_stmt *st);
/* range(...) as a value (b = KJ_B_RANGE, of type t, from its n arguments)
 * or len() of one (b = KJ_B_LEN, args[0] the range). */
kir_ref kj_lower_range_builtin(lctx *lc, int b, const kj_type *t, const kir_ref *args, uint32_t n, kj_span sp);
kir_ref kj_lower_range_len(lctx *lc, const kj_type *it, kir_ref start, kir_ref stop, kir_ref step, kj_span sp);
/* lower_range.c: a range value's attribute, item and `in`; print(r)'s args as strings */
kir_ref kj_lower_range_attr(lctx *lc, const kj_expr *e);
kir_ref kj_lower_range_item(lctx *lc, const kj_expr *e);
kir_ref kj_lower_range_in(lctx *lc, kj_span sp, bool negate, kir_ref x, kir_ref r);
void kj_lower_range_print_args(lctx *lc, kir_ref *args, uint32_t n, kj_span sp);

/* lower_list.c: a list display as a list value; lst[i] (v 0) or lst[i] = v
 * of the subscript e. */
kir_ref kj_lower_list_literal(lctx *lc, const kj_expr *e);
/* lower_devarr.c: d.split(section), a list of views */
kir_ref kj_lower_devarr_split(lctx *lc, const kj_type *t, kir_ref d, kir_ref section, kj_span sp);
/* cuda_compile.c: cuda.compile_ptx(f, sig, ...) and its relatives: (code, resty) */
kir_ref kj_lower_cuda_compile(lctx *lc, const kj_expr *e, kj_einfo *ei);
kir_ref kj_lower_list_of(lctx *lc, const kj_type *t, const kir_ref *el, uint32_t n, kj_span sp);
kir_ref kj_lower_typed_call(lctx *lc, const kj_expr *e, const kj_type *t, int b); /* lower_typed.c */
kir_ref kj_lower_list_item(lctx *lc, const kj_expr *e, kir_ref v, kj_span sp);
kir_ref kj_lower_list_del(lctx *lc, const kj_expr *e);
kir_ref kj_lower_list_compare(lctx *lc, kj_cmpop op, kir_ref l, kir_ref r, kj_span sp);
kir_ref kj_lower_sorted(lctx *lc, int builtin, const kj_type *t, const kir_ref *args, uint32_t nargs, kj_span sp);
/* lower_sortkey.c: sorted(x, key=f) / lst.sort(key=f) (0 when no key is given) */
kir_ref kj_lower_sort_key(lctx *lc, const kj_expr *e, const kj_einfo *ei, int builtin, const kj_type *t,
                          const kir_ref *args);
/* x in lst (not_in: x not in lst) of the comparison e: a scan for an equal element. */
kir_ref kj_lower_list_in(lctx *lc, const kj_expr *e, bool not_in, kir_ref x, kir_ref l);
kir_ref kj_lower_list_search(lctx *lc, int builtin, const kir_ref *args, kj_span sp);
kir_ref kj_lower_list_binop(lctx *lc, const kj_expr *e); /* lst + lst, lst * n */
kir_ref kj_lower_list_len(lctx *lc, kir_ref l, kj_span sp);
/* lower_dict.c: a dict or set display; d[k] (v 0) or d[k] = v of the
 * subscript e; k in d / x in s; the list of keys iteration walks. */
kir_ref kj_lower_dict_literal(lctx *lc, const kj_expr *e);
kir_ref kj_lower_dict_item(lctx *lc, const kj_expr *e, kir_ref v, kj_span sp);
kir_ref kj_lower_item_load(lctx *lc, const kj_expr *t, kir_ref *obj, kir_ref *key);
void kj_lower_item_store(lctx *lc, const kj_expr *t, kir_ref obj, kir_ref key, kir_ref v, kj_span sp);
kir_ref kj_lower_dict_in(lctx *lc, const kj_expr *e, bool not_in, kir_ref x, kir_ref d);
kir_ref kj_lower_dict_keys(lctx *lc, kir_ref d, kj_span sp);
kir_ref kj_lower_list_get(lctx *lc, kir_ref l, kir_ref i, kj_span sp);
/* strings (lower_str.c) */
kir_ref kj_lower_bytes_literal(lctx *lc, const kj_expr *e, const kj_type *t); /* lower_bytes.c: b'...' */
kir_ref kj_lower_lsd_display(lctx *lc, const kj_expr *e, const kj_type *t); /* lower_lsd.c */
kir_ref kj_lower_lsd_item(lctx *lc, const kj_expr *e);
kir_ref kj_lower_varargs(lctx *lc, const kj_expr *call, uint32_t from, const kj_type *t); /* lower_varargs.c: *args */
kir_ref kj_lower_str_binop(lctx *lc, const kj_expr *e);
kir_ref kj_lower_str_compare(lctx *lc, const kj_expr *e, kj_cmpop op, kir_ref l, kir_ref r);
kir_ref kj_lower_str_item(lctx *lc, const kj_expr *e);
kir_ref kj_lower_str_format(lctx *lc, const kj_expr *call); /* "...".format(...) */
kir_ref kj_lower_str_len(lctx *lc, kir_ref s, kj_span sp);
kir_ref kj_lower_str_get(lctx *lc, kir_ref s, kir_ref i, kj_span sp);

/* IF cond { then } else { els }: the caller fills the blocks (lc->cur) */
/* np.isclose(a, b, ...) (lower_isclose.c): a scalar function, called or
 * applied as a ufunc over the arrays */
kir_ref kj_lower_isclose(lctx *lc, const kj_expr *e, kj_einfo *ei);
/* f.accumulate / f.outer (lower_ufunc_meth.c): a UFUNC_REDUCE with a method flag */
kir_ref kj_lower_ufunc_meth(lctx *lc, const kj_expr *e, kj_einfo *ei, int meth);
kir_ref kj_lower_if(lctx *lc, kir_ref cond, kj_span sp, kir_blkid *then, kir_blkid *els);

/* lower_namedtuple.c: Point(1, y=2), the call of a namedtuple class; p.x. */
kir_ref kj_lower_nt_call(lctx *lc, const kj_expr *e);
kir_ref kj_lower_nt_attr(lctx *lc, const kj_expr *e);
/* lower_record.c: r.x, r['x'], a['x'] of records; r.x = v (false when t is no record field) */
kir_ref kj_lower_record_attr(lctx *lc, const kj_expr *e);
kir_ref kj_lower_record_item(lctx *lc, const kj_expr *e);
bool kj_lower_record_store(lctx *lc, const kj_expr *t, kir_ref v, kj_span sp);
kir_ref kj_lower_record_array(lctx *lc, const kj_type *t, kir_ref seq, kj_span sp);

/* lower_operator.c: operator.add(a, b), ... (builtins_operator.h) */
kir_ref kj_lower_pyoperator(lctx *lc, const kj_expr *e, const kj_einfo *ei, const kj_opufunc *o);
/* lower_ufunc_out.c: a NumPy ufunc call with its output (ei->ufout), the
 * call itself lowered by `lower_call` */
kir_ref kj_lower_ufunc_out(lctx *lc, const kj_expr *e, kj_einfo *ei,
                           kir_ref (*lower_call)(lctx *, const kj_expr *, kj_einfo *));

/* lower_tuple_ops.c: t1 op t2 (comparison), t1 + t2, t[a:b], t.index(x) */
kir_ref kj_lower_tuple_compare(lctx *lc, const kj_expr *e, kj_cmpop op, kir_ref l, kir_ref r);
kir_ref kj_lower_tuple_concat(lctx *lc, const kj_expr *e, const kj_expr *le, const kj_expr *re);
kir_ref kj_lower_tuple_slice(lctx *lc, const kj_expr *e);
kir_ref kj_lower_tuple_find(lctx *lc, const kj_expr *e, kir_ref t, kir_ref x);

/* lower_set.c: set(iterable) (b KJ_B_SET) and the methods of builtins_set.h */
kir_ref kj_lower_set_builtin(lctx *lc, int b, const kj_type *t, const kir_ref *args, kj_span sp);

/* pyops_dict.c: del d[k] (the call d.<del>(k)); [1] == [1.0], both lists
 * made lists of the promoted element type */
kir_ref kj_lower_dict_del(lctx *lc, const kj_expr *e);
void kj_lower_list_promote(lctx *lc, kir_ref *l, kir_ref *r, kj_span sp);

/* lower_try.c */
void kj_lower_raise(lctx *lc, const kj_stmt *st);
/* lower_tuple.c: t[i] over a homogeneous tuple, i a run-time index */
kir_ref kj_lower_tuple_index(lctx *lc, const kj_expr *e, kir_ref t, const kj_type *tt);
void kj_lower_try(lctx *lc, const kj_stmt *st);
/* Before a return: leave the bodies of the enclosing try statements. */
void kj_lower_leave_tries(lctx *lc, kj_span sp);

/* lower_datetime.c: datetime64 / timedelta64 operators and built-ins (kj_lower_dt_builtin: 0 when the
 * call has no datetime argument) */
kir_ref kj_lower_dt_binop(lctx *lc, const kj_expr *e, kj_binop op, const kj_expr *l, const kj_expr *r);
kir_ref kj_lower_dt_compare(lctx *lc, const kj_expr *e, kj_cmpop op, kir_ref l, const kj_expr *le,
                            const kj_expr *re, kir_ref *r_out);
kir_ref kj_lower_dt_unary(lctx *lc, const kj_expr *e);
kir_ref kj_lower_dt_const(lctx *lc, const kj_cval *cv, const kj_type *t, kj_span sp); /* a date string, a count */
kir_ref kj_lower_dt_from_str(lctx *lc, const kj_expr *e, const kj_type *t); /* np.array(['2020-01-01'], dtype=...) */
kir_ref kj_lower_dt_builtin(lctx *lc, const kj_expr *e, kj_einfo *ei, const kj_type *t);

#endif
