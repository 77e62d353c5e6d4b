/* SPDX-License-Identifier: BSD-2-Clause */
/* The built-in functions, methods and attributes of the language, one table.
 *
 * X(ID, "path", FLAGS, "params")
 *   path   — canonical dotted name: numpy is always "np", numba's cuda
 *            "cuda"; array methods are "array.NAME"; values read without a
 *            call (math.pi, cuda.threadIdx.x) have KJ_BF_ATTR.
 *   FLAGS  — where it may be used: KJ_BF_ANY (every function), KJ_BF_HOST
 *            (host code only: main, helpers, @jit on host), KJ_BF_DEV (kernels
 *            and device functions only), plus KJ_BF_ATTR / KJ_BF_METHOD; and
 *            the properties the passes ask (kj_builtin_has) instead of
 *            listing built-ins, below.
 *   params — Python-style parameter list used to bind positional and keyword
 *            arguments: "a, b=, *args, sep=, end=". A name ending in '=' is
 *            optional. For methods the receiver is the implicit first argument
 *            and is not listed. */
#ifndef KJ_BUILTINS_H
#define KJ_BUILTINS_H

#include "types.h"
#include "builtins_npsort.h"
#include "builtins_npother.h"
#include "builtins_npshape.h"
#include "builtins_npmath.h"
#include "builtins_nppoly.h"
#include "builtins_operator.h"
#include "builtins_set.h"
#include "builtins_exc.h"
#include "builtins_datetime.h"
#include "builtins_cuda_dev.h"
#include "builtins_cuda_host.h"
#include "builtins_cuda_compile.h"
#include "builtins_libdevice.h"

enum {
    KJ_BF_ANY = 0,
    KJ_BF_HOST = 1 << 0,
    KJ_BF_DEV = 1 << 1,
    KJ_BF_ATTR = 1 << 2,
    KJ_BF_METHOD = 1 << 3,
    /* Properties. A new built-in that has one says so here, and every pass
     * that cares follows. */
    KJ_BF_BARRIER = 1 << 4, /* a barrier of the block (cuda.syncthreads*): the cpu's kernels split into
                               regions there (llvm_kernel.c), device functions with one are inlined
                               (kir_inline.c), targets lower it through their `barrier` hook */
    KJ_BF_WARP = 1 << 5,    /* a warp operation (shuffles, votes, activemask, syncwarp): the same, of
                               the warp (its `warp` hook; llvm_kernel_warp.c on the cpu) */
    KJ_BF_UNIFORM = 1 << 6, /* the same value in every thread of a block (llvm_kernel_div.c) */
    KJ_BF_SHAPE = 1 << 7,   /* reads an array's descriptor only, never its data (kir.c's read-only
                               parameters; no coherence check with kernels on the GPU, llvm_launch.c) */
    KJ_BF_VIEW = 1 << 8,    /* a view of its array argument (no coherence check either) */
    KJ_BF_READS = 1 << 9,   /* host code that may read its arrays' data and writes none: the
                               coherence check before it is a read (llvm_launch.c) */
    KJ_BF_MPI = 1 << 10,    /* scale-out (cuda.gpus, MPI): lowered by llvm_mpi.c; the runtime
                               handles its buffers' coherence (rt_mpi.c) */
    KJ_BF_FMATH = 1 << 11,  /* a float function computed the same way on scalars and, elementwise,
                               on arrays, in its float result type: fused (kir_fuse.c) */
    KJ_BF_NONNEG = 1 << 12, /* its integer result (each element of a tuple) is never negative:
                               indexing with it needs no wraparound (infer_call.c) */
    KJ_BF_LINALG = 1 << 13, /* linear algebra through BLAS/LAPACK: typed by builtins_linalg.c,
                               lowered by llvm_linalg.c to one kj_rt_linalg call */
    KJ_BF_FP16 = 1 << 14,   /* cuda.fp16.*: typed by builtins_fp16.c, lowered by llvm_fp16.c */
};

#define KJ_BUILTINS(X)                                                                                   \
    /* Python built-ins */                                                                               \
    X(RANGE, "range", KJ_BF_ANY, "*args")                                                                \
    X(PRANGE, "prange", KJ_BF_ANY, "*args")                                                              \
    X(ENUMERATE, "enumerate", KJ_BF_ANY, "iterable, start=")  /* for loops only: infer_iter.c */          \
    X(ZIP, "zip", KJ_BF_ANY, "*args")                         /* for loops only: infer_iter.c */          \
    X(REVERSED, "reversed", KJ_BF_ANY, "seq")                 /* for loops only: infer_iter.c */          \
    /* reflected lists (infer_list.c, lower_list.c, llvm_list.c); the first three are lowering's own */  \
    X(LIST_NEW, "list.<new>", KJ_BF_HOST, "*args")                                                       \
    X(LIST_GET, "list.<get>", KJ_BF_HOST, "i")                                                          \
    X(LIST_SET, "list.<set>", KJ_BF_HOST, "i, x")                                                       \
    X(LIST_APPEND, "list.append", KJ_BF_HOST | KJ_BF_METHOD, "x")                                       \
    X(LIST_POP, "list.pop", KJ_BF_HOST | KJ_BF_METHOD, "index=")                                        \
    X(LIST_INSERT, "list.insert", KJ_BF_HOST | KJ_BF_METHOD, "index, x")                                \
    X(LIST_EXTEND, "list.extend", KJ_BF_HOST | KJ_BF_METHOD, "other")                                   \
    X(LIST_CLEAR, "list.clear", KJ_BF_HOST | KJ_BF_METHOD, "")                                          \
    X(LIST_COPY, "list.copy", KJ_BF_HOST | KJ_BF_METHOD, "")                                            \
    X(LIST_REVERSE, "list.reverse", KJ_BF_HOST | KJ_BF_METHOD, "")                                      \
    X(LIST_SLICE, "list.<slice>", KJ_BF_HOST, "start, stop, step, has")                                  \
    X(LIST_SETSLICE, "list.<setslice>", KJ_BF_HOST, "start, stop, step, has, other")                     \
    X(LIST_DEL, "list.<del>", KJ_BF_HOST, "i")                                                           \
    X(LIST_SORT, "list.sort", KJ_BF_HOST | KJ_BF_METHOD, "key=, reverse=")                              \
    X(LIST_CMP, "list.<cmp>", KJ_BF_HOST, "other, op")                                                  \
    X(LIST_REPEAT, "list.<repeat>", KJ_BF_HOST, "n")                                                    \
    X(LIST_COUNT, "list.count", KJ_BF_HOST | KJ_BF_METHOD, "x")                                             \
    X(LIST_INDEX, "list.index", KJ_BF_HOST | KJ_BF_METHOD, "x, start=, stop=")                              \
    X(LIST_REMOVE, "list.remove", KJ_BF_HOST | KJ_BF_METHOD, "x")                                           \
    /* dicts and sets (infer_dict.c, builtins_dict.c, lower_dict.c, llvm_dict.c); <...>: lowering's */   \
    X(DICT_NEW, "dict.<new>", KJ_BF_HOST, "*args")                                                       \
    X(DICT_GETITEM, "dict.<get>", KJ_BF_HOST, "key")                                                     \
    X(DICT_SETITEM, "dict.<set>", KJ_BF_HOST, "key, value")                                              \
    X(DICT_CONTAINS, "dict.<in>", KJ_BF_HOST, "key")                                                     \
    X(DICT_GET, "dict.get", KJ_BF_HOST | KJ_BF_METHOD, "key, default=")                                 \
    X(DICT_SETDEFAULT, "dict.setdefault", KJ_BF_HOST | KJ_BF_METHOD, "key, default=")                   \
    X(DICT_POP, "dict.pop", KJ_BF_HOST | KJ_BF_METHOD, "key, default=")                                 \
    X(DICT_KEYS, "dict.keys", KJ_BF_HOST | KJ_BF_METHOD, "")                                            \
    X(DICT_VALUES, "dict.values", KJ_BF_HOST | KJ_BF_METHOD, "")                                        \
    X(DICT_ITEMS, "dict.items", KJ_BF_HOST | KJ_BF_METHOD, "")                                          \
    X(TUPLE_INDEX, "tuple.index", KJ_BF_ANY | KJ_BF_METHOD, "x") /* infer_tuple.c, lower_tuple_ops.c */  \
    X(SET_NEW, "set.<new>", KJ_BF_HOST, "*args")                                                         \
    X(SET_ADD, "set.add", KJ_BF_HOST | KJ_BF_METHOD, "x")                                               \
    X(SET_DISCARD, "set.discard", KJ_BF_HOST | KJ_BF_METHOD, "x")                                       \
    X(SET_REMOVE, "set.remove", KJ_BF_HOST | KJ_BF_METHOD, "x")                                         \
    X(SET_UNION, "set.union", KJ_BF_HOST | KJ_BF_METHOD, "other")                                       \
    X(SET_INTERSECTION, "set.intersection", KJ_BF_HOST | KJ_BF_METHOD, "other")                         \
    X(SET_DIFFERENCE, "set.difference", KJ_BF_HOST | KJ_BF_METHOD, "other")                             \
    X(DICT, "dict", KJ_BF_HOST, "")                                                                      \
    X(SET, "set", KJ_BF_HOST, "iterable=")                                                               \
    /* numba.typed.List / Dict (infer_typed.c, lower_typed.c): constructors over the lists and dicts above */ \
    X(TYPED_LIST, "typed.List", KJ_BF_HOST, "iterable=")                                                \
    X(TYPED_LIST_EMPTY, "typed.List.empty_list", KJ_BF_HOST, "item_type, allocated=")                  \
    X(TYPED_DICT, "typed.Dict", KJ_BF_HOST, "")                                                         \
    X(TYPED_DICT_EMPTY, "typed.Dict.empty", KJ_BF_HOST, "key_type, value_type, n_keys=")               \
    /* bytes, bytearray, memoryview (builtins_bytes.c, llvm_bytes.c); bytes.<lit> is b'...' */         \
    X(BYTES_LIT, "bytes.<lit>", KJ_BF_HOST, "hex")                                                      \
    X(BYTEARRAY, "bytearray", KJ_BF_HOST | KJ_BF_READS, "source")                                       \
    X(MEMORYVIEW, "memoryview", KJ_BF_HOST | KJ_BF_VIEW, "object")                                      \
    X(NP_FROMBUFFER, "np.frombuffer", KJ_BF_HOST | KJ_BF_VIEW, "buffer, dtype=")                        \
    X(ARR_TOBYTES, "array.tobytes", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "")                        \
    X(MV_CONTIGUOUS, "array.contiguous", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_SHAPE, "")      \
    X(MV_C_CONTIGUOUS, "array.c_contiguous", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_SHAPE, "")  \
    X(MV_F_CONTIGUOUS, "array.f_contiguous", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_SHAPE, "")  \
    X(MV_READONLY, "array.readonly", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_SHAPE, "")          \
    /* strings (infer_str.c, lower_str.c, llvm_str.c); <...> are lowering's own */                     \
    X(STR, "str", KJ_BF_HOST, "x")                                                                      \
    X(STR_CAT, "str.<cat>", KJ_BF_HOST, "b")                                                            \
    X(STR_REPEAT, "str.<repeat>", KJ_BF_HOST, "n")                                                      \
    X(STR_CMP, "str.<cmp>", KJ_BF_HOST, "b")                                                            \
    X(STR_GET, "str.<get>", KJ_BF_HOST, "i")                                                            \
    X(STR_SLICE, "str.<slice>", KJ_BF_HOST, "start, stop, step")                                        \
    X(STR_FIND, "str.find", KJ_BF_HOST | KJ_BF_METHOD, "sub")                                           \
    X(STR_RFIND, "str.rfind", KJ_BF_HOST | KJ_BF_METHOD, "sub")                                         \
    X(STR_COUNT, "str.count", KJ_BF_HOST | KJ_BF_METHOD, "sub")                                         \
    X(STR_IN, "str.<in>", KJ_BF_HOST, "sub")                                                            \
    X(STR_STARTSWITH, "str.startswith", KJ_BF_HOST | KJ_BF_METHOD, "prefix")                            \
    X(STR_ENDSWITH, "str.endswith", KJ_BF_HOST | KJ_BF_METHOD, "suffix")                                \
    X(STR_UPPER, "str.upper", KJ_BF_HOST | KJ_BF_METHOD, "")                                            \
    X(STR_LOWER, "str.lower", KJ_BF_HOST | KJ_BF_METHOD, "")                                            \
    X(STR_STRIP, "str.strip", KJ_BF_HOST | KJ_BF_METHOD, "chars=")                                      \
    X(STR_LSTRIP, "str.lstrip", KJ_BF_HOST | KJ_BF_METHOD, "chars=")                                    \
    X(STR_RSTRIP, "str.rstrip", KJ_BF_HOST | KJ_BF_METHOD, "chars=")                                    \
    X(STR_ISDIGIT, "str.isdigit", KJ_BF_HOST | KJ_BF_METHOD, "")                                        \
    X(STR_ISALPHA, "str.isalpha", KJ_BF_HOST | KJ_BF_METHOD, "")                                        \
    X(STR_ISSPACE, "str.isspace", KJ_BF_HOST | KJ_BF_METHOD, "")                                        \
    X(STR_REPLACE, "str.replace", KJ_BF_HOST | KJ_BF_METHOD, "old, new")                                \
    X(STR_ZFILL, "str.zfill", KJ_BF_HOST | KJ_BF_METHOD, "width")                                       \
    X(STR_CENTER, "str.center", KJ_BF_HOST | KJ_BF_METHOD, "width, fillchar=")                          \
    X(STR_LJUST, "str.ljust", KJ_BF_HOST | KJ_BF_METHOD, "width, fillchar=")                            \
    X(STR_RJUST, "str.rjust", KJ_BF_HOST | KJ_BF_METHOD, "width, fillchar=")                            \
    X(STR_FORMAT, "str.format", KJ_BF_HOST | KJ_BF_METHOD, "*args")                                     \
    X(STR_FMT1, "str.<fmt1>", KJ_BF_HOST, "x, spec")                                                    \
    X(STR_SPLIT, "str.split", KJ_BF_HOST | KJ_BF_METHOD, "sep=, maxsplit=") /* builtins_str.c */        \
    X(STR_RSPLIT, "str.rsplit", KJ_BF_HOST | KJ_BF_METHOD, "sep=, maxsplit=")                           \
    X(STR_SPLITLINES, "str.splitlines", KJ_BF_HOST | KJ_BF_METHOD, "keepends=")                         \
    X(STR_JOIN, "str.join", KJ_BF_HOST | KJ_BF_METHOD, "iterable")                                      \
    X(STR_PARTITION, "str.partition", KJ_BF_HOST | KJ_BF_METHOD, "sep")                                 \
    X(STR_RPARTITION, "str.rpartition", KJ_BF_HOST | KJ_BF_METHOD, "sep")                               \
    X(STR_EXPANDTABS, "str.expandtabs", KJ_BF_HOST | KJ_BF_METHOD, "tabsize=")                          \
    X(STR_RINDEX, "str.rindex", KJ_BF_HOST | KJ_BF_METHOD, "sub")                                       \
    X(STR_INDEX, "str.index", KJ_BF_HOST | KJ_BF_METHOD, "sub")                                         \
    X(STR_TITLE, "str.title", KJ_BF_HOST | KJ_BF_METHOD, "")                                            \
    X(STR_SWAPCASE, "str.swapcase", KJ_BF_HOST | KJ_BF_METHOD, "")                                      \
    X(STR_CAPITALIZE, "str.capitalize", KJ_BF_HOST | KJ_BF_METHOD, "")                                  \
    X(STR_CASEFOLD, "str.casefold", KJ_BF_HOST | KJ_BF_METHOD, "")                                      \
    X(STR_ISLOWER, "str.islower", KJ_BF_HOST | KJ_BF_METHOD, "")                                        \
    X(STR_ISUPPER, "str.isupper", KJ_BF_HOST | KJ_BF_METHOD, "")                                        \
    X(STR_ISTITLE, "str.istitle", KJ_BF_HOST | KJ_BF_METHOD, "")                                        \
    X(STR_ISALNUM, "str.isalnum", KJ_BF_HOST | KJ_BF_METHOD, "")                                        \
    X(STR_ISDECIMAL, "str.isdecimal", KJ_BF_HOST | KJ_BF_METHOD, "")                                    \
    X(STR_ISNUMERIC, "str.isnumeric", KJ_BF_HOST | KJ_BF_METHOD, "")                                    \
    X(STR_ISIDENTIFIER, "str.isidentifier", KJ_BF_HOST | KJ_BF_METHOD, "")                              \
    X(STR_ISPRINTABLE, "str.isprintable", KJ_BF_HOST | KJ_BF_METHOD, "")                                \
    X(NAMEDTUPLE, "collections.namedtuple", KJ_BF_HOST, "typename, field_names")                     \
    X(LEN, "len", KJ_BF_SHAPE | KJ_BF_NONNEG, "obj")                                                     \
    X(ABS, "abs", KJ_BF_ANY, "x")                                                                        \
    X(MIN, "min", KJ_BF_ANY, "*args")                                                                    \
    X(MAX, "max", KJ_BF_ANY, "*args")                                                                    \
    X(INT, "int", KJ_BF_ANY, "x")                                                                        \
    X(FLOAT, "float", KJ_BF_ANY, "x")                                                                    \
    X(BOOL, "bool", KJ_BF_ANY, "x")                                                                      \
    X(ROUND, "round", KJ_BF_ANY, "x, ndigits=")                                                          \
    X(LIST_OF, "list", KJ_BF_HOST, "iterable=")                                                          \
    X(SORTED, "sorted", KJ_BF_HOST, "iterable, key=, reverse=")                                         \
    X(SUM, "sum", KJ_BF_ANY, "iterable, start=")                                                         \
    X(ANY, "any", KJ_BF_ANY, "iterable") X(ALL, "all", KJ_BF_ANY, "iterable")                            \
    X(PRINT, "print", KJ_BF_READS, "*args, sep=, end=")                                                  \
    /* iter(x), next(it, default=): infer_pygen.c, lower_pygen.c */                                    \
    X(ITER, "iter", KJ_BF_ANY, "obj") X(NEXT, "next", KJ_BF_ANY, "iterator, default=")                  \
    /* with objmode(y='T'): and the conversion the parser appends: infer_objmode.c, parser_objmode.c */  \
    X(OBJMODE, "objmode", KJ_BF_HOST, "") X(OBJMODE_OUT, "$objmode_out", KJ_BF_HOST, "x, t")            \
    /* CHR..DIVMOD: builtins_pybuiltin.c, lower_pybuiltin.c, llvm_pybuiltin.c (pow(a, b) is a ** b: */   \
    /* parser_builtin.c, as are map, filter and getattr)                                           */   \
    X(CHR, "chr", KJ_BF_HOST, "i") X(ORD, "ord", KJ_BF_HOST, "c") X(REPR, "repr", KJ_BF_HOST, "obj")     \
    X(HASH, "hash", KJ_BF_ANY, "obj") X(DIVMOD, "divmod", KJ_BF_ANY, "a, b")                             \
    /* conversion to a scalar type: float32(x), np.int64(x); the target is the result type */            \
    X(CONVERT, "convert", KJ_BF_READS, "x")                                                              \
    /* complex numbers (builtins_complex.c, llvm_complex.c): Python's complex, its attributes and    */  \
    /* cmath; abs, isnan, isinf and isfinite of a complex are there too                             */  \
    X(COMPLEX, "complex", KJ_BF_ANY, "real=, imag=")                                                     \
    X(CPX_REAL, "complex.real", KJ_BF_ANY | KJ_BF_ATTR | KJ_BF_METHOD, "")                               \
    X(CPX_IMAG, "complex.imag", KJ_BF_ANY | KJ_BF_ATTR | KJ_BF_METHOD, "")                               \
    X(CPX_CONJ, "complex.conjugate", KJ_BF_ANY | KJ_BF_METHOD, "")                                       \
    X(NP_REAL, "np.real", KJ_BF_ANY, "val") X(NP_IMAG, "np.imag", KJ_BF_ANY, "val")                      \
    X(NP_CONJ, "np.conj", KJ_BF_ANY, "x") X(NP_ANGLE, "np.angle", KJ_BF_ANY, "z")                        \
    X(CMATH_SQRT, "cmath.sqrt", KJ_BF_ANY, "z") X(CMATH_EXP, "cmath.exp", KJ_BF_ANY, "z")                \
    X(CMATH_LOG, "cmath.log", KJ_BF_ANY, "z, base=") X(CMATH_LOG10, "cmath.log10", KJ_BF_ANY, "z")       \
    X(CMATH_SIN, "cmath.sin", KJ_BF_ANY, "z") X(CMATH_COS, "cmath.cos", KJ_BF_ANY, "z")                  \
    X(CMATH_SINH, "cmath.sinh", KJ_BF_ANY, "z") X(CMATH_COSH, "cmath.cosh", KJ_BF_ANY, "z")              \
    X(CMATH_PHASE, "cmath.phase", KJ_BF_ANY, "z") X(CMATH_POLAR, "cmath.polar", KJ_BF_ANY, "z")          \
    X(CMATH_RECT, "cmath.rect", KJ_BF_ANY, "r, phi")                                                     \
    /* CMATH_ACOS..CMATH_TANH: llvm_cmath_inv.c */                                                       \
    X(CMATH_ACOS, "cmath.acos", KJ_BF_ANY, "z") X(CMATH_ACOSH, "cmath.acosh", KJ_BF_ANY, "z")            \
    X(CMATH_ASIN, "cmath.asin", KJ_BF_ANY, "z") X(CMATH_ASINH, "cmath.asinh", KJ_BF_ANY, "z")            \
    X(CMATH_ATAN, "cmath.atan", KJ_BF_ANY, "z") X(CMATH_ATANH, "cmath.atanh", KJ_BF_ANY, "z")            \
    X(CMATH_TAN, "cmath.tan", KJ_BF_ANY, "z") X(CMATH_TANH, "cmath.tanh", KJ_BF_ANY, "z")                \
    X(CMATH_ISNAN, "cmath.isnan", KJ_BF_ANY, "z") X(CMATH_ISINF, "cmath.isinf", KJ_BF_ANY, "z")          \
    X(CMATH_ISFINITE, "cmath.isfinite", KJ_BF_ANY, "z")                                                  \
    /* math.* (np.* aliases are in KJ_BUILTIN_ALIASES); on the host np.* also map arrays */              \
    X(SIN, "math.sin", KJ_BF_FMATH, "x") X(COS, "math.cos", KJ_BF_FMATH, "x")                            \
    X(TAN, "math.tan", KJ_BF_FMATH, "x") X(ASIN, "math.asin", KJ_BF_FMATH, "x")                          \
    X(ACOS, "math.acos", KJ_BF_FMATH, "x") X(ATAN, "math.atan", KJ_BF_FMATH, "x")                        \
    X(ATAN2, "math.atan2", KJ_BF_FMATH, "y, x") X(SINH, "math.sinh", KJ_BF_FMATH, "x")                   \
    X(COSH, "math.cosh", KJ_BF_FMATH, "x") X(TANH, "math.tanh", KJ_BF_FMATH, "x")                        \
    X(ASINH, "math.asinh", KJ_BF_FMATH, "x") X(ACOSH, "math.acosh", KJ_BF_FMATH, "x")                    \
    X(ATANH, "math.atanh", KJ_BF_FMATH, "x") X(EXP, "math.exp", KJ_BF_FMATH, "x")                        \
    X(EXPM1, "math.expm1", KJ_BF_FMATH, "x") X(EXP2, "math.exp2", KJ_BF_FMATH, "x")                      \
    X(LOG, "math.log", KJ_BF_FMATH, "x") X(LOG1P, "math.log1p", KJ_BF_FMATH, "x")                        \
    X(LOG2, "math.log2", KJ_BF_FMATH, "x") X(LOG10, "math.log10", KJ_BF_FMATH, "x")                      \
    X(SQRT, "math.sqrt", KJ_BF_FMATH, "x") X(POW, "math.pow", KJ_BF_FMATH, "x, y")                       \
    X(FABS, "math.fabs", KJ_BF_FMATH, "x") X(FLOOR, "math.floor", KJ_BF_ANY, "x")                        \
    X(CEIL, "math.ceil", KJ_BF_ANY, "x") X(TRUNC, "math.trunc", KJ_BF_ANY, "x")                          \
    X(COPYSIGN, "math.copysign", KJ_BF_FMATH, "x, y") X(FMOD, "math.fmod", KJ_BF_ANY, "x, y")            \
    X(HYPOT, "math.hypot", KJ_BF_FMATH, "x, y") X(ERF, "math.erf", KJ_BF_FMATH, "x")                     \
    X(ERFC, "math.erfc", KJ_BF_FMATH, "x") X(GAMMA, "math.gamma", KJ_BF_FMATH, "x")                      \
    X(LGAMMA, "math.lgamma", KJ_BF_ANY, "x") X(ISNAN, "math.isnan", KJ_BF_ANY, "x")                      \
    X(ISINF, "math.isinf", KJ_BF_ANY, "x") X(ISFINITE, "math.isfinite", KJ_BF_ANY, "x")                  \
    /* MATH_DEGREES..MATH_GCD: computed in kjit's own IR (builtins_pymath.c, llvm_pymath.c) */ \
    X(MATH_DEGREES, "math.degrees", KJ_BF_ANY, "x")                                                      \
    X(MATH_RADIANS, "math.radians", KJ_BF_ANY, "x")                                                      \
    X(MATH_FREXP, "math.frexp", KJ_BF_ANY, "x")                                                          \
    X(MATH_LDEXP, "math.ldexp", KJ_BF_ANY, "x, i")                                                       \
    X(MATH_MODF, "math.modf", KJ_BF_ANY, "x")                                                            \
    X(MATH_NEXTAFTER, "math.nextafter", KJ_BF_ANY, "x, y")                                               \
    X(MATH_REMAINDER, "math.remainder", KJ_BF_ANY, "x, y")                                               \
    X(MATH_GCD, "math.gcd", KJ_BF_ANY, "a, b")                                                           \
    X(PI, "math.pi", KJ_BF_ATTR, "") X(E, "math.e", KJ_BF_ATTR, "")                                      \
    X(INF, "math.inf", KJ_BF_ATTR, "") X(NAN, "math.nan", KJ_BF_ATTR, "")                                \
    X(NP_MINIMUM, "np.minimum", KJ_BF_ANY, "x, y")                                                       \
    X(NP_FMOD, "np.fmod", KJ_BF_ANY, "x1, x2")                                                           \
    X(NP_MAXIMUM, "np.maximum", KJ_BF_ANY, "x, y")                                                       \
    X(NP_WHERE, "np.where", KJ_BF_ANY, "condition, x, y")                                                \
    X(NP_CLIP, "np.clip", KJ_BF_ANY, "a, a_min, a_max")                                                  \
    X(NP_SIGN, "np.sign", KJ_BF_ANY, "x") /* lowered to np.where (lower.c) */                            \
    /* NumPy's ufuncs that are Python operators (kj_builtin_operator) */                                 \
    X(NP_ADD, "np.add", KJ_BF_ANY, "x1, x2") X(NP_SUBTRACT, "np.subtract", KJ_BF_ANY, "x1, x2")          \
    X(NP_MULTIPLY, "np.multiply", KJ_BF_ANY, "x1, x2")                                                   \
    X(NP_DIVIDE, "np.divide", KJ_BF_ANY, "x1, x2")                                                       \
    X(NP_FLOOR_DIVIDE, "np.floor_divide", KJ_BF_ANY, "x1, x2")                                           \
    X(NP_REMAINDER, "np.remainder", KJ_BF_ANY, "x1, x2")                                                 \
    X(NP_LEFT_SHIFT, "np.left_shift", KJ_BF_ANY, "x1, x2")                                               \
    X(NP_RIGHT_SHIFT, "np.right_shift", KJ_BF_ANY, "x1, x2")                                             \
    X(NP_BITWISE_AND, "np.bitwise_and", KJ_BF_ANY, "x1, x2")                                             \
    X(NP_BITWISE_OR, "np.bitwise_or", KJ_BF_ANY, "x1, x2")                                               \
    X(NP_BITWISE_XOR, "np.bitwise_xor", KJ_BF_ANY, "x1, x2")                                             \
    X(NP_EQUAL, "np.equal", KJ_BF_ANY, "x1, x2") X(NP_NOT_EQUAL, "np.not_equal", KJ_BF_ANY, "x1, x2")    \
    X(NP_LESS, "np.less", KJ_BF_ANY, "x1, x2") X(NP_LESS_EQUAL, "np.less_equal", KJ_BF_ANY, "x1, x2")    \
    X(NP_GREATER, "np.greater", KJ_BF_ANY, "x1, x2")                                                     \
    X(NP_GREATER_EQUAL, "np.greater_equal", KJ_BF_ANY, "x1, x2")                                         \
    X(NP_NEGATIVE, "np.negative", KJ_BF_ANY, "x") X(NP_POSITIVE, "np.positive", KJ_BF_ANY, "x")          \
    X(NP_INVERT, "np.invert", KJ_BF_ANY, "x") X(NP_SQUARE, "np.square", KJ_BF_ANY, "x")                  \
    X(NP_LOGICAL_AND, "np.logical_and", KJ_BF_ANY, "x1, x2")                                             \
    X(NP_LOGICAL_OR, "np.logical_or", KJ_BF_ANY, "x1, x2")                                               \
    X(NP_LOGICAL_XOR, "np.logical_xor", KJ_BF_ANY, "x1, x2")                                             \
    X(NP_LOGICAL_NOT, "np.logical_not", KJ_BF_ANY, "x")                                                  \
    /* a[index array] and a[index array] = value: made by lowering only */                               \
    X(INDEX_GET, "a[array]", KJ_BF_HOST | KJ_BF_READS, "a, index")                                       \
    X(INDEX_SET, "a[array] = value", KJ_BF_HOST, "a, index, value")                                      \
    /* records' fields (r.x, r.x = v, a['x']): made by lowering only (lower_record.c, llvm_record.c) */   \
    X(REC_GET, "record.<get>", KJ_BF_ANY, "r, field")                                                    \
    X(REC_SET, "record.<set>", KJ_BF_ANY, "r, field, value")                                             \
    X(REC_VIEW, "record.<view>", KJ_BF_ANY | KJ_BF_VIEW, "a, field")                                     \
    /* host NumPy */                                                                                     \
    X(NP_ZEROS, "np.zeros", KJ_BF_HOST, "shape, dtype=")                                                 \
    X(NP_ONES, "np.ones", KJ_BF_HOST, "shape, dtype=")                                                   \
    X(NP_EMPTY, "np.empty", KJ_BF_HOST, "shape, dtype=")                                                 \
    X(NP_FULL, "np.full", KJ_BF_HOST, "shape, fill_value, dtype=")                                       \
    X(NP_ZEROS_LIKE, "np.zeros_like", KJ_BF_HOST | KJ_BF_READS, "a, dtype=")                             \
    X(NP_ONES_LIKE, "np.ones_like", KJ_BF_HOST | KJ_BF_READS, "a, dtype=")                               \
    X(NP_EMPTY_LIKE, "np.empty_like", KJ_BF_HOST | KJ_BF_READS, "a, dtype=")                             \
    X(NP_FULL_LIKE, "np.full_like", KJ_BF_HOST | KJ_BF_READS, "a, fill_value, dtype=")                   \
    X(NP_ARANGE, "np.arange", KJ_BF_HOST, "start, stop=, step=, dtype=")                                 \
    X(NP_LINSPACE, "np.linspace", KJ_BF_HOST, "start, stop, num=, endpoint=, dtype=")                    \
    X(NP_RANDOM_SEED, "np.random.seed", KJ_BF_HOST, "seed")                                              \
    X(NP_RANDOM_RAND, "np.random.rand", KJ_BF_HOST, "*args")                                             \
    X(NP_RANDOM_RANDOM, "np.random.random", KJ_BF_HOST, "size=")                                         \
    X(NP_RANDOM_RANDINT, "np.random.randint", KJ_BF_HOST, "low, high=, size=, dtype=")                   \
    /* np.random's legacy distributions (random_dist.c; typing: builtins.c type_rdist) */ \
    X(NP_RANDOM_RANDOM_SAMPLE, "np.random.random_sample", KJ_BF_HOST, "size=")                           \
    X(NP_RANDOM_RANDN, "np.random.randn", KJ_BF_HOST, "*args")                                           \
    X(NP_RANDOM_STANDARD_NORMAL, "np.random.standard_normal", KJ_BF_HOST, "size=")                       \
    X(NP_RANDOM_NORMAL, "np.random.normal", KJ_BF_HOST, "loc=, scale=, size=")                           \
    X(NP_RANDOM_UNIFORM, "np.random.uniform", KJ_BF_HOST, "low=, high=, size=")                          \
    X(NP_RANDOM_STANDARD_EXPONENTIAL, "np.random.standard_exponential", KJ_BF_HOST, "size=")             \
    X(NP_RANDOM_EXPONENTIAL, "np.random.exponential", KJ_BF_HOST, "scale=, size=")                       \
    X(NP_RANDOM_STANDARD_GAMMA, "np.random.standard_gamma", KJ_BF_HOST, "shape, size=")                  \
    X(NP_RANDOM_GAMMA, "np.random.gamma", KJ_BF_HOST, "shape, scale=, size=")                            \
    X(NP_RANDOM_BETA, "np.random.beta", KJ_BF_HOST, "a, b, size=")                                       \
    X(NP_RANDOM_CHISQUARE, "np.random.chisquare", KJ_BF_HOST, "df, size=")                               \
    X(NP_RANDOM_LOGNORMAL, "np.random.lognormal", KJ_BF_HOST, "mean=, sigma=, size=")                    \
    X(NP_RANDOM_LAPLACE, "np.random.laplace", KJ_BF_HOST, "loc=, scale=, size=")                         \
    X(NP_RANDOM_LOGISTIC, "np.random.logistic", KJ_BF_HOST, "loc=, scale=, size=")                       \
    X(NP_RANDOM_GUMBEL, "np.random.gumbel", KJ_BF_HOST, "loc=, scale=, size=")                           \
    X(NP_RANDOM_PARETO, "np.random.pareto", KJ_BF_HOST, "a, size=")                                      \
    X(NP_RANDOM_WEIBULL, "np.random.weibull", KJ_BF_HOST, "a, size=")                                    \
    X(NP_RANDOM_TRIANGULAR, "np.random.triangular", KJ_BF_HOST, "left, mode, right, size=")              \
    X(NP_RANDOM_STANDARD_T, "np.random.standard_t", KJ_BF_HOST, "df, size=")                             \
    X(NP_RANDOM_BINOMIAL, "np.random.binomial", KJ_BF_HOST, "n, p, size=")                               \
    X(NP_RANDOM_POISSON, "np.random.poisson", KJ_BF_HOST, "lam=, size=")                                 \
    X(NP_RANDOM_GEOMETRIC, "np.random.geometric", KJ_BF_HOST, "p, size=")                                \
    X(NP_RANDOM_STANDARD_CAUCHY, "np.random.standard_cauchy", KJ_BF_HOST, "size=") /* random_legacy.c */ \
    X(NP_RANDOM_RAYLEIGH, "np.random.rayleigh", KJ_BF_HOST, "scale=, size=")                             \
    X(NP_RANDOM_POWER, "np.random.power", KJ_BF_HOST, "a, size=")                                        \
    X(NP_RANDOM_WALD, "np.random.wald", KJ_BF_HOST, "mean, scale, size=")                                \
    X(NP_RANDOM_VONMISES, "np.random.vonmises", KJ_BF_HOST, "mu, kappa, size=")                          \
    X(NP_RANDOM_F, "np.random.f", KJ_BF_HOST, "dfnum, dfden, size=")                                     \
    X(NP_RANDOM_NONCENTRAL_CHISQUARE, "np.random.noncentral_chisquare", KJ_BF_HOST, "df, nonc, size=")   \
    X(NP_RANDOM_ZIPF, "np.random.zipf", KJ_BF_HOST, "a, size=")                                          \
    X(NP_RANDOM_LOGSERIES, "np.random.logseries", KJ_BF_HOST, "p, size=")                                \
    X(NP_RANDOM_NEGATIVE_BINOMIAL, "np.random.negative_binomial", KJ_BF_HOST, "n, p, size=")             \
    X(NP_RANDOM_HYPERGEOMETRIC, "np.random.hypergeometric", KJ_BF_HOST, "ngood, nbad, nsample, size=")   \
    X(NP_RANDOM_DIRICHLET, "np.random.dirichlet", KJ_BF_HOST | KJ_BF_READS, "alpha, size=")              \
    X(NP_RANDOM_RANF, "np.random.ranf", KJ_BF_HOST, "size=")                                             \
    X(NP_RANDOM_SAMPLE, "np.random.sample", KJ_BF_HOST, "size=")                                         \
    X(NP_RANDOM_SHUFFLE, "np.random.shuffle", KJ_BF_HOST, "x")                                           \
    X(NP_RANDOM_PERMUTATION, "np.random.permutation", KJ_BF_HOST | KJ_BF_READS, "x")                     \
    X(NP_RANDOM_CHOICE, "np.random.choice", KJ_BF_HOST | KJ_BF_READS, "a, size=, replace=, p=")          \
    X(NP_RANDOM_MULTINOMIAL, "np.random.multinomial", KJ_BF_HOST | KJ_BF_READS, "n, pvals, size=")       \
    X(NP_RANDOM_DEFAULT_RNG, "np.random.default_rng", KJ_BF_HOST, "seed")                                \
    X(GEN_RANDOM, "Generator.random", KJ_BF_HOST | KJ_BF_METHOD, "size=")                                \
    X(GEN_UNIFORM, "Generator.uniform", KJ_BF_HOST | KJ_BF_METHOD, "low=, high=, size=")                 \
    X(GEN_INTEGERS, "Generator.integers", KJ_BF_HOST | KJ_BF_METHOD, "low, high=, size=")                \
    X(GEN_SHUFFLE, "Generator.shuffle", KJ_BF_HOST | KJ_BF_METHOD, "x")                                  \
    X(GEN_PERMUTATION, "Generator.permutation", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "x")            \
    X(GEN_PERMUTED, "Generator.permuted", KJ_BF_HOST | KJ_BF_METHOD, "x, axis=, out=") /* writes out= */  \
    /* the Generator's distributions (builtins_random.c kj_gdist_spec_of, random_gen_dist.c) */ \
    X(GEN_NORMAL, "Generator.normal", KJ_BF_HOST | KJ_BF_METHOD, "loc=, scale=, size=")                  \
    X(GEN_STANDARD_NORMAL, "Generator.standard_normal", KJ_BF_HOST | KJ_BF_METHOD, "size=")              \
    X(GEN_EXPONENTIAL, "Generator.exponential", KJ_BF_HOST | KJ_BF_METHOD, "scale=, size=")              \
    X(GEN_STANDARD_EXPONENTIAL, "Generator.standard_exponential", KJ_BF_HOST | KJ_BF_METHOD, "size=")    \
    X(GEN_GAMMA, "Generator.gamma", KJ_BF_HOST | KJ_BF_METHOD, "shape, scale=, size=")                   \
    X(GEN_STANDARD_GAMMA, "Generator.standard_gamma", KJ_BF_HOST | KJ_BF_METHOD, "shape, size=")         \
    X(GEN_BETA, "Generator.beta", KJ_BF_HOST | KJ_BF_METHOD, "a, b, size=")                              \
    X(GEN_CHISQUARE, "Generator.chisquare", KJ_BF_HOST | KJ_BF_METHOD, "df, size=")                      \
    X(GEN_LOGNORMAL, "Generator.lognormal", KJ_BF_HOST | KJ_BF_METHOD, "mean=, sigma=, size=")           \
    X(GEN_LAPLACE, "Generator.laplace", KJ_BF_HOST | KJ_BF_METHOD, "loc=, scale=, size=")                \
    X(GEN_LOGISTIC, "Generator.logistic", KJ_BF_HOST | KJ_BF_METHOD, "loc=, scale=, size=")              \
    X(GEN_GUMBEL, "Generator.gumbel", KJ_BF_HOST | KJ_BF_METHOD, "loc=, scale=, size=")                  \
    X(GEN_PARETO, "Generator.pareto", KJ_BF_HOST | KJ_BF_METHOD, "a, size=")                             \
    X(GEN_WEIBULL, "Generator.weibull", KJ_BF_HOST | KJ_BF_METHOD, "a, size=")                           \
    X(GEN_POWER, "Generator.power", KJ_BF_HOST | KJ_BF_METHOD, "a, size=")                               \
    X(GEN_RAYLEIGH, "Generator.rayleigh", KJ_BF_HOST | KJ_BF_METHOD, "scale=, size=")                    \
    X(GEN_STANDARD_CAUCHY, "Generator.standard_cauchy", KJ_BF_HOST | KJ_BF_METHOD, "size=")              \
    X(GEN_STANDARD_T, "Generator.standard_t", KJ_BF_HOST | KJ_BF_METHOD, "df, size=")                    \
    X(GEN_TRIANGULAR, "Generator.triangular", KJ_BF_HOST | KJ_BF_METHOD, "left, mode, right, size=")     \
    X(GEN_WALD, "Generator.wald", KJ_BF_HOST | KJ_BF_METHOD, "mean, scale, size=")                       \
    X(GEN_F, "Generator.f", KJ_BF_HOST | KJ_BF_METHOD, "dfnum, dfden, size=")                            \
    X(GEN_NONCENTRAL_CHISQUARE, "Generator.noncentral_chisquare", KJ_BF_HOST | KJ_BF_METHOD, "df, nonc, size=")\
    X(GEN_NONCENTRAL_F, "Generator.noncentral_f", KJ_BF_HOST | KJ_BF_METHOD, "dfnum, dfden, nonc, size=")\
    X(GEN_POISSON, "Generator.poisson", KJ_BF_HOST | KJ_BF_METHOD, "lam=, size=")                        \
    X(GEN_BINOMIAL, "Generator.binomial", KJ_BF_HOST | KJ_BF_METHOD, "n, p, size=")                      \
    X(GEN_GEOMETRIC, "Generator.geometric", KJ_BF_HOST | KJ_BF_METHOD, "p, size=")                       \
    X(GEN_ZIPF, "Generator.zipf", KJ_BF_HOST | KJ_BF_METHOD, "a, size=")                                 \
    X(GEN_LOGSERIES, "Generator.logseries", KJ_BF_HOST | KJ_BF_METHOD, "p, size=")                       \
    X(GEN_NEGATIVE_BINOMIAL, "Generator.negative_binomial", KJ_BF_HOST | KJ_BF_METHOD, "n, p, size=")    \
    X(GEN_VONMISES, "Generator.vonmises", KJ_BF_HOST | KJ_BF_METHOD, "mu, kappa, size=")                  \
    X(GEN_HYPERGEOMETRIC, "Generator.hypergeometric", KJ_BF_HOST | KJ_BF_METHOD, "ngood, nbad, nsample, size=")\
    /* the Generator's choice, multinomial and dirichlet (builtins_generator.c, random_gen_pick.c) */     \
    X(GEN_CHOICE, "Generator.choice", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "a, size=, replace=, p=, axis=, shuffle=")\
    X(GEN_MULTINOMIAL, "Generator.multinomial", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "n, pvals, size=")\
    X(GEN_DIRICHLET, "Generator.dirichlet", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "alpha, size=")      \
    /* the `random` module, RANDOM_SEED..RANDOM_SHUFFLE (builtins_pyrandom.c, llvm_pyrandom.c) */ \
    X(RANDOM_SEED, "random.seed", KJ_BF_HOST, "a")                                                       \
    X(RANDOM_RANDOM, "random.random", KJ_BF_HOST, "")                                                    \
    X(RANDOM_UNIFORM, "random.uniform", KJ_BF_HOST, "a, b")                                              \
    X(RANDOM_RANDINT, "random.randint", KJ_BF_HOST, "a, b")                                              \
    X(RANDOM_RANDRANGE, "random.randrange", KJ_BF_HOST, "start, stop=, step=")                           \
    X(RANDOM_GAUSS, "random.gauss", KJ_BF_HOST, "mu, sigma")                                             \
    X(RANDOM_NORMALVARIATE, "random.normalvariate", KJ_BF_HOST, "mu, sigma")                             \
    X(RANDOM_EXPOVARIATE, "random.expovariate", KJ_BF_HOST, "lambd")                                     \
    X(RANDOM_GAMMAVARIATE, "random.gammavariate", KJ_BF_HOST, "alpha, beta")                             \
    X(RANDOM_BETAVARIATE, "random.betavariate", KJ_BF_HOST, "alpha, beta")                               \
    X(RANDOM_LOGNORMVARIATE, "random.lognormvariate", KJ_BF_HOST, "mu, sigma")                           \
    X(RANDOM_PARETOVARIATE, "random.paretovariate", KJ_BF_HOST, "alpha")                                 \
    X(RANDOM_WEIBULLVARIATE, "random.weibullvariate", KJ_BF_HOST, "alpha, beta")                         \
    X(RANDOM_VONMISESVARIATE, "random.vonmisesvariate", KJ_BF_HOST, "mu, kappa")                         \
    X(RANDOM_TRIANGULAR, "random.triangular", KJ_BF_HOST, "low=, high=, mode=")                          \
    X(RANDOM_GETRANDBITS, "random.getrandbits", KJ_BF_HOST, "k")                                         \
    X(RANDOM_SHUFFLE, "random.shuffle", KJ_BF_HOST, "x")                                                 \
    /* the heapq module over lists, HEAPQ_HEAPIFY..HEAPQ_NLARGEST (builtins_heapq.c, llvm_heapq.c) */ \
    X(HEAPQ_HEAPIFY, "heapq.heapify", KJ_BF_HOST, "x")                                                   \
    X(HEAPQ_HEAPPUSH, "heapq.heappush", KJ_BF_HOST, "heap, item")                                        \
    X(HEAPQ_HEAPPOP, "heapq.heappop", KJ_BF_HOST, "heap")                                                \
    X(HEAPQ_HEAPREPLACE, "heapq.heapreplace", KJ_BF_HOST, "heap, item")                                  \
    X(HEAPQ_HEAPPUSHPOP, "heapq.heappushpop", KJ_BF_HOST, "heap, item")                                  \
    X(HEAPQ_NSMALLEST, "heapq.nsmallest", KJ_BF_HOST, "n, iterable")                                     \
    X(HEAPQ_NLARGEST, "heapq.nlargest", KJ_BF_HOST, "n, iterable")                                       \
    X(NP_LOAD, "np.load", KJ_BF_HOST, "file")                                                            \
    X(NP_SAVE, "np.save", KJ_BF_HOST | KJ_BF_READS, "file, arr")                                         \
    X(NP_ALLCLOSE, "np.allclose", KJ_BF_HOST | KJ_BF_READS, "a, b, rtol=, atol=")                        \
    X(NP_ISCLOSE, "np.isclose", KJ_BF_HOST | KJ_BF_READS, "a, b, rtol=, atol=, equal_nan=")             \
    X(NP_ARRAY_EQUAL, "np.array_equal", KJ_BF_HOST | KJ_BF_READS, "a1, a2")                               \
    X(NP_SUM, "np.sum", KJ_BF_HOST | KJ_BF_READS, "a, axis=")                                            \
    X(NP_MIN, "np.min", KJ_BF_HOST | KJ_BF_READS, "a, axis=")                                            \
    X(NP_MAX, "np.max", KJ_BF_HOST | KJ_BF_READS, "a, axis=")                                            \
    X(NP_MEAN, "np.mean", KJ_BF_HOST | KJ_BF_READS, "a, axis=")                                          \
    X(NP_STD, "np.std", KJ_BF_HOST | KJ_BF_READS, "a, axis=, ddof=")                                     \
    X(NP_PROD, "np.prod", KJ_BF_HOST | KJ_BF_READS, "a, axis=")                                          \
    X(NP_VAR, "np.var", KJ_BF_HOST | KJ_BF_READS, "a, axis=, ddof=")                                     \
    X(NP_ARGMIN, "np.argmin", KJ_BF_HOST | KJ_BF_READS, "a, axis=")                                      \
    X(NP_ARGMAX, "np.argmax", KJ_BF_HOST | KJ_BF_READS, "a, axis=")                                      \
    /* truth reductions: lowered to a comparison with 0 and a sum (lower.c) */                           \
    X(NP_ANY, "np.any", KJ_BF_HOST, "a, axis=") X(NP_ALL, "np.all", KJ_BF_HOST, "a, axis=")              \
    X(NP_COUNT_NONZERO, "np.count_nonzero", KJ_BF_HOST, "a")                                             \
    X(ARR_ANY, "array.any", KJ_BF_HOST | KJ_BF_METHOD, "axis=")                                          \
    X(ARR_ALL, "array.all", KJ_BF_HOST | KJ_BF_METHOD, "axis=")                                          \
    /* copies and 1-d forms: lowered to copy and reshape (lower.c) */                                    \
    X(NP_COPY, "np.copy", KJ_BF_HOST, "a") X(NP_RAVEL, "np.ravel", KJ_BF_HOST, "a")                      \
    X(ARR_RAVEL, "array.ravel", KJ_BF_HOST | KJ_BF_METHOD, "")                                           \
    X(ARR_FLATTEN, "array.flatten", KJ_BF_HOST | KJ_BF_METHOD, "")                                       \
    X(NP_CUMSUM, "np.cumsum", KJ_BF_HOST, "a, axis=") X(NP_CUMPROD, "np.cumprod", KJ_BF_HOST, "a, axis=")  \
    X(ARR_CUMSUM, "array.cumsum", KJ_BF_HOST | KJ_BF_METHOD, "axis=")                                    \
    X(ARR_CUMPROD, "array.cumprod", KJ_BF_HOST | KJ_BF_METHOD, "axis=")                                  \
    X(ARR_ASTYPE, "array.astype", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "dtype")                      \
    X(ARR_COPY, "array.copy", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "")                               \
    X(ARR_RESHAPE, "array.reshape", KJ_BF_HOST | KJ_BF_METHOD, "*shape")                                 \
    X(ARR_SUM, "array.sum", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "axis=")                            \
    X(ARR_MIN, "array.min", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "axis=")                            \
    X(ARR_MAX, "array.max", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "axis=")                            \
    X(ARR_MEAN, "array.mean", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "axis=")                          \
    X(ARR_STD, "array.std", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "axis=, ddof=")                     \
    X(ARR_PROD, "array.prod", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "axis=")                          \
    X(ARR_VAR, "array.var", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "axis=, ddof=")                     \
    X(ARR_ARGMIN, "array.argmin", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "axis=")                      \
    X(ARR_ARGMAX, "array.argmax", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "axis=")                      \
    X(ARR_FILL, "array.fill", KJ_BF_HOST | KJ_BF_METHOD, "value")                                        \
    X(ARR_COPY_TO_HOST, "array.copy_to_host", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "ary=, stream=")  \
    /* device-array methods (numba-cuda memory.rst); on the host targets a device array is a host array */ \
    X(ARR_COPY_TO_DEVICE, "array.copy_to_device", KJ_BF_HOST | KJ_BF_METHOD, "ary, stream=")            \
    X(ARR_IS_C_CONTIGUOUS, "array.is_c_contiguous", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_SHAPE, "")         \
    X(ARR_IS_F_CONTIGUOUS, "array.is_f_contiguous", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_SHAPE, "")         \
    X(ARR_SPLIT, "array.split", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_VIEW, "section, stream=")            \
    X(ARR_VIEW, "array.view", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_VIEW, "dtype")                          \
    X(ARR_ITEMSIZE, "array.itemsize", KJ_BF_ANY | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_SHAPE | KJ_BF_NONNEG, "") \
    X(ARR_STRIDES, "array.strides", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_SHAPE, "")            \
    /* array attributes (receiver = the array) */                                                        \
    X(ARR_SHAPE, "array.shape", KJ_BF_ANY | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_SHAPE | KJ_BF_NONNEG, "")  \
    X(ARR_SIZE, "array.size", KJ_BF_ANY | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_SHAPE | KJ_BF_NONNEG, "")    \
    X(ARR_NBYTES, "array.nbytes", KJ_BF_ANY | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_NONNEG, "")               \
    X(ARR_NDIM, "array.ndim", KJ_BF_ANY | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_SHAPE, "")                   \
    X(ARR_DTYPE, "array.dtype", KJ_BF_ANY | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_SHAPE, "")                 \
    /* the transpose: a view with the axes reversed, or permuted by axes (host code) */                                    \
    X(ARR_T, "array.T", KJ_BF_ANY | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_VIEW, "")                          \
    X(ARR_TRANSPOSE, "array.transpose", KJ_BF_ANY | KJ_BF_METHOD | KJ_BF_VIEW, "*axes")                  \
    X(NP_TRANSPOSE, "np.transpose", KJ_BF_VIEW, "a, axes=")                                              \
    /* array creation from sequences, joining, flipping (builtins_np_manip.c) */                         \
    X(NP_ARRAY, "np.array", KJ_BF_HOST | KJ_BF_READS, "object, dtype=")                                  \
    X(NP_ASARRAY, "np.asarray", KJ_BF_HOST | KJ_BF_READS, "a, dtype=")                                   \
    X(NP_ASCONTIGUOUSARRAY, "np.ascontiguousarray", KJ_BF_HOST | KJ_BF_READS, "a, dtype=")               \
    X(NP_CONCATENATE, "np.concatenate", KJ_BF_HOST | KJ_BF_READS, "arrays, axis=")                       \
    X(NP_STACK, "np.stack", KJ_BF_HOST | KJ_BF_READS, "arrays, axis=")                                   \
    X(NP_HSTACK, "np.hstack", KJ_BF_HOST | KJ_BF_READS, "tup")                                           \
    X(NP_VSTACK, "np.vstack", KJ_BF_HOST | KJ_BF_READS, "tup")                                           \
    X(NP_DSTACK, "np.dstack", KJ_BF_HOST | KJ_BF_READS, "tup")                                           \
    X(NP_COLUMN_STACK, "np.column_stack", KJ_BF_HOST | KJ_BF_READS, "tup")                               \
    X(NP_FLIP, "np.flip", KJ_BF_HOST | KJ_BF_VIEW, "m, axis=")                                           \
    X(NP_FLIPLR, "np.fliplr", KJ_BF_HOST | KJ_BF_VIEW, "m")                                              \
    X(NP_FLIPUD, "np.flipud", KJ_BF_HOST | KJ_BF_VIEW, "m")                                              \
    X(NP_NONZERO, "np.nonzero", KJ_BF_HOST | KJ_BF_READS, "a")                                           \
    X(ARR_NONZERO, "array.nonzero", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "")                         \
    X(NP_FLATNONZERO, "np.flatnonzero", KJ_BF_HOST | KJ_BF_READS, "a")                                   \
    X(NP_ARGWHERE, "np.argwhere", KJ_BF_HOST | KJ_BF_READS, "a")                                         \
    X(NP_REPEAT, "np.repeat", KJ_BF_HOST | KJ_BF_READS, "a, repeats, axis=")                             \
    X(ARR_REPEAT, "array.repeat", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "repeats, axis=")             \
    X(NP_EYE, "np.eye", KJ_BF_HOST, "N, M=, k=, dtype=")                                                 \
    X(NP_IDENTITY, "np.identity", KJ_BF_HOST, "n, dtype=")                                               \
    X(NP_EXPAND_DIMS, "np.expand_dims", KJ_BF_HOST | KJ_BF_VIEW, "a, axis")                              \
    X(NP_SWAPAXES, "np.swapaxes", KJ_BF_HOST | KJ_BF_VIEW, "a, axis1, axis2")                            \
    X(ARR_SWAPAXES, "array.swapaxes", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_VIEW, "axis1, axis2")            \
    X(NP_MOVEAXIS, "np.moveaxis", KJ_BF_HOST | KJ_BF_VIEW, "a, source, destination")                     \
    X(NP_ATLEAST_1D, "np.atleast_1d", KJ_BF_HOST | KJ_BF_VIEW, "arys")                                   \
    X(NP_ATLEAST_2D, "np.atleast_2d", KJ_BF_HOST | KJ_BF_VIEW, "arys")                                   \
    X(NP_ATLEAST_3D, "np.atleast_3d", KJ_BF_HOST | KJ_BF_VIEW, "arys")                                   \
    X(NP_BROADCAST_TO, "np.broadcast_to", KJ_BF_HOST | KJ_BF_VIEW, "array, shape")                       \
    /* more creation and manipulation (builtins_np_manip2.c, llvm_np_manip2.c, array_manip2.c) */        \
    X(NP_ROLL, "np.roll", KJ_BF_HOST | KJ_BF_READS, "a, shift")                                          \
    X(NP_TRIL, "np.tril", KJ_BF_HOST | KJ_BF_READS, "m, k=")                                             \
    X(NP_TRIU, "np.triu", KJ_BF_HOST | KJ_BF_READS, "m, k=")                                             \
    X(NP_TRI, "np.tri", KJ_BF_HOST, "N, M=, k=, dtype=")                                                 \
    X(NP_DIAG, "np.diag", KJ_BF_HOST | KJ_BF_READS, "v, k=")                                             \
    X(NP_VANDER, "np.vander", KJ_BF_HOST | KJ_BF_READS, "x, N=, increasing=")                            \
    X(NP_TAKE, "np.take", KJ_BF_HOST | KJ_BF_READS, "a, indices")                                        \
    X(ARR_TAKE, "array.take", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "indices")                        \
    X(NP_EXTRACT, "np.extract", KJ_BF_HOST | KJ_BF_READS, "condition, arr")                              \
    X(NP_DELETE, "np.delete", KJ_BF_HOST | KJ_BF_READS, "arr, obj")                                      \
    X(NP_APPEND, "np.append", KJ_BF_HOST | KJ_BF_READS, "arr, values")                                   \
    X(NP_FILL_DIAGONAL, "np.fill_diagonal", KJ_BF_HOST, "a, val")                                        \
    X(NP_SPLIT, "np.split", KJ_BF_HOST | KJ_BF_VIEW, "ary, indices_or_sections, axis=")                  \
    X(NP_ARRAY_SPLIT, "np.array_split", KJ_BF_HOST | KJ_BF_VIEW, "ary, indices_or_sections, axis=")      \
    X(NP_TILE, "np.tile", KJ_BF_HOST | KJ_BF_READS, "A, reps")                                           \
    X(NP_ROT90, "np.rot90", KJ_BF_HOST | KJ_BF_VIEW, "m, k=, axes=")                                     \
    /* linear algebra (builtins_linalg.c, llvm_linalg.c, rt_linalg.c) */                                 \
    X(NP_DOT, "np.dot", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a, b")                                 \
    X(NP_MATMUL, "np.matmul", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a, b")                           \
    X(NP_VDOT, "np.vdot", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a, b")                               \
    X(NP_INNER, "np.inner", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a, b")                             \
    X(NP_OUTER, "np.outer", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a, b")                             \
    X(NP_KRON, "np.kron", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a, b")                               \
    X(NP_TRACE, "np.trace", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a")                                \
    X(LA_SOLVE, "np.linalg.solve", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a, b")                      \
    X(LA_INV, "np.linalg.inv", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a")                             \
    X(LA_DET, "np.linalg.det", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a")                             \
    X(LA_SLOGDET, "np.linalg.slogdet", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a")                     \
    X(LA_EIGH, "np.linalg.eigh", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a")                           \
    X(LA_EIGVALSH, "np.linalg.eigvalsh", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a")                   \
    X(LA_SVD, "np.linalg.svd", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a, full_matrices=")             \
    X(LA_NORM, "np.linalg.norm", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "x")                           \
    X(LA_CHOLESKY, "np.linalg.cholesky", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a")                   \
    X(LA_QR, "np.linalg.qr", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a")                               \
    X(LA_MATRIX_POWER, "np.linalg.matrix_power", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a, n")        \
    X(LA_EIG, "np.linalg.eig", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a")                             \
    X(LA_EIGVALS, "np.linalg.eigvals", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a")                     \
    X(LA_PINV, "np.linalg.pinv", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a, rcond=")                   \
    X(LA_COND, "np.linalg.cond", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "x")                           \
    X(LA_MATRIX_RANK, "np.linalg.matrix_rank", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a")             \
    X(LA_LSTSQ, "np.linalg.lstsq", KJ_BF_HOST | KJ_BF_READS | KJ_BF_LINALG, "a, b, rcond=")              \
    X(TIME_PERF_COUNTER, "time.perf_counter", KJ_BF_HOST, "")                                            \
    /* host side of numba.cuda */                                                                        \
    X(CUDA_TO_DEVICE, "cuda.to_device", KJ_BF_HOST | KJ_BF_READS, "obj, stream=")                        \
    X(CUDA_DEVICE_ARRAY, "cuda.device_array", KJ_BF_HOST, "shape, dtype=, strides=, order=, stream=")                      \
    X(CUDA_DEVICE_ARRAY_LIKE, "cuda.device_array_like", KJ_BF_HOST | KJ_BF_READS, "ary, stream=")        \
    X(CUDA_SYNCHRONIZE, "cuda.synchronize", KJ_BF_HOST, "")                                              \
    /* kjit's own (kir_reduce_np.c): is the array's data on the GPU only? */                             \
    X(KJIT_ON_DEVICE, "kjit.on_device", KJ_BF_HOST, "ary")                                               \
    /* kjit's own (kir_matmul_gpu.c): a @ b of two matrices on the GPU, through cuBLAS */                 \
    X(KJIT_GPU_MATMUL, "kjit.gpu_matmul", KJ_BF_HOST, "a, b")                                            \
    X(CUDA_STREAM, "cuda.stream", KJ_BF_HOST, "")                                                        \
    X(CUDA_EVENT, "cuda.event", KJ_BF_HOST, "timing=")                                                   \
    X(CUDA_EVENT_ELAPSED_TIME, "cuda.event_elapsed_time", KJ_BF_HOST, "evtstart, evtend")                \
    X(STREAM_SYNCHRONIZE, "stream.synchronize", KJ_BF_HOST | KJ_BF_METHOD, "")                           \
    X(EVENT_RECORD, "event.record", KJ_BF_HOST | KJ_BF_METHOD, "stream=")                                \
    X(EVENT_SYNCHRONIZE, "event.synchronize", KJ_BF_HOST | KJ_BF_METHOD, "")                             \
    X(EVENT_ELAPSED_TIME, "event.elapsed_time", KJ_BF_HOST | KJ_BF_METHOD, "evtend")                      \
    /* scale-out (docs/scale-out.md): a GPU per rank; mpi4py's MPI, communicators,     */                \
    /* requests                                                                        */                \
    X(CUDA_SELECT_DEVICE, "cuda.select_device", KJ_BF_HOST | KJ_BF_MPI, "device_id")                     \
    X(CUDA_GPUS, "cuda.gpus", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_MPI, "")                                   \
    X(MPI_COMM_WORLD, "MPI.COMM_WORLD", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_MPI, "")                         \
    X(MPI_SUM, "MPI.SUM", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_MPI, "")                                       \
    X(MPI_MAX, "MPI.MAX", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_MPI, "")                                       \
    X(MPI_MIN, "MPI.MIN", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_MPI, "")                                       \
    X(MPI_ANY_SOURCE, "MPI.ANY_SOURCE", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_MPI, "")                         \
    X(MPI_ANY_TAG, "MPI.ANY_TAG", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_MPI, "")                               \
    X(MPI_PROC_NULL, "MPI.PROC_NULL", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_MPI, "")                           \
    X(MPI_WTIME, "MPI.Wtime", KJ_BF_HOST | KJ_BF_MPI, "")                                                \
    X(MPI_WAITALL, "MPI.Request.Waitall", KJ_BF_HOST | KJ_BF_MPI, "requests")                            \
    X(COMM_GET_RANK, "comm.Get_rank", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_MPI, "")                         \
    X(COMM_GET_SIZE, "comm.Get_size", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_MPI, "")                         \
    X(COMM_RANK, "comm.rank", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_MPI, "")                    \
    X(COMM_SIZE, "comm.size", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_MPI, "")                    \
    X(COMM_BARRIER, "comm.Barrier", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_MPI, "")                           \
    X(COMM_SEND, "comm.Send", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_MPI, "buf, dest, tag=")                  \
    X(COMM_RECV, "comm.Recv", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_MPI, "buf, source=, tag=")               \
    X(COMM_ISEND, "comm.Isend", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_MPI, "buf, dest, tag=")                \
    X(COMM_IRECV, "comm.Irecv", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_MPI, "buf, source=, tag=")             \
    X(COMM_SENDRECV, "comm.Sendrecv", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_MPI,                             \
      "sendbuf, dest, sendtag=, recvbuf=, source=, recvtag=")                                            \
    X(COMM_BCAST, "comm.Bcast", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_MPI, "buf, root=")                     \
    X(COMM_ALLREDUCE, "comm.Allreduce", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_MPI, "sendbuf, recvbuf, op=")  \
    X(COMM_REDUCE, "comm.Reduce", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_MPI, "sendbuf, recvbuf, op=, root=") \
    X(COMM_ALLREDUCE_OBJ, "comm.allreduce", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_MPI, "sendobj, op=")       \
    X(COMM_BCAST_OBJ, "comm.bcast", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_MPI, "obj, root=")                 \
    X(REQUEST_WAIT, "request.Wait", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_MPI, "")                           \
    /* inside kernels */                                                                                 \
    X(CUDA_GRID, "cuda.grid", KJ_BF_DEV | KJ_BF_NONNEG, "ndim")                                          \
    X(CUDA_GRIDSIZE, "cuda.gridsize", KJ_BF_DEV | KJ_BF_NONNEG, "ndim")                                  \
    X(TID_X, "cuda.threadIdx.x", KJ_BF_DEV | KJ_BF_ATTR, "")                                             \
    X(TID_Y, "cuda.threadIdx.y", KJ_BF_DEV | KJ_BF_ATTR, "")                                             \
    X(TID_Z, "cuda.threadIdx.z", KJ_BF_DEV | KJ_BF_ATTR, "")                                             \
    X(BID_X, "cuda.blockIdx.x", KJ_BF_DEV | KJ_BF_ATTR | KJ_BF_UNIFORM, "")                              \
    X(BID_Y, "cuda.blockIdx.y", KJ_BF_DEV | KJ_BF_ATTR | KJ_BF_UNIFORM, "")                              \
    X(BID_Z, "cuda.blockIdx.z", KJ_BF_DEV | KJ_BF_ATTR | KJ_BF_UNIFORM, "")                              \
    X(BDIM_X, "cuda.blockDim.x", KJ_BF_DEV | KJ_BF_ATTR | KJ_BF_UNIFORM, "")                             \
    X(BDIM_Y, "cuda.blockDim.y", KJ_BF_DEV | KJ_BF_ATTR | KJ_BF_UNIFORM, "")                             \
    X(BDIM_Z, "cuda.blockDim.z", KJ_BF_DEV | KJ_BF_ATTR | KJ_BF_UNIFORM, "")                             \
    X(GDIM_X, "cuda.gridDim.x", KJ_BF_DEV | KJ_BF_ATTR | KJ_BF_UNIFORM, "")                              \
    X(GDIM_Y, "cuda.gridDim.y", KJ_BF_DEV | KJ_BF_ATTR | KJ_BF_UNIFORM, "")                              \
    X(GDIM_Z, "cuda.gridDim.z", KJ_BF_DEV | KJ_BF_ATTR | KJ_BF_UNIFORM, "")                              \
    X(LANEID, "cuda.laneid", KJ_BF_DEV | KJ_BF_ATTR | KJ_BF_NONNEG, "")                                  \
    X(WARPSIZE, "cuda.warpsize", KJ_BF_DEV | KJ_BF_ATTR | KJ_BF_UNIFORM, "")                             \
    X(SYNCTHREADS, "cuda.syncthreads", KJ_BF_DEV | KJ_BF_BARRIER, "")                                    \
    X(SYNCTHREADS_COUNT, "cuda.syncthreads_count", KJ_BF_DEV | KJ_BF_BARRIER, "predicate")               \
    X(SYNCTHREADS_AND, "cuda.syncthreads_and", KJ_BF_DEV | KJ_BF_BARRIER, "predicate")                   \
    X(SYNCTHREADS_OR, "cuda.syncthreads_or", KJ_BF_DEV | KJ_BF_BARRIER, "predicate")                     \
    X(SYNCWARP, "cuda.syncwarp", KJ_BF_DEV | KJ_BF_WARP, "mask=")                                        \
    X(THREADFENCE, "cuda.threadfence", KJ_BF_DEV, "")                                                    \
    X(THREADFENCE_BLOCK, "cuda.threadfence_block", KJ_BF_DEV, "")                                        \
    X(THREADFENCE_SYSTEM, "cuda.threadfence_system", KJ_BF_DEV, "")                                      \
    X(SHARED_ARRAY, "cuda.shared.array", KJ_BF_DEV, "shape, dtype")                                      \
    X(LOCAL_ARRAY, "cuda.local.array", KJ_BF_DEV, "shape, dtype")                                        \
    /* constant memory (llvm_cuda_const.c): the array itself, a frozen one in the GPU's constant bank */  \
    X(CONST_ARRAY_LIKE, "cuda.const.array_like", KJ_BF_DEV | KJ_BF_VIEW, "ndarray")                       \
    X(ATOMIC_ADD, "cuda.atomic.add", KJ_BF_DEV, "ary, idx, val")                                         \
    X(ATOMIC_SUB, "cuda.atomic.sub", KJ_BF_DEV, "ary, idx, val")                                         \
    X(ATOMIC_MAX, "cuda.atomic.max", KJ_BF_DEV, "ary, idx, val")                                         \
    X(ATOMIC_MIN, "cuda.atomic.min", KJ_BF_DEV, "ary, idx, val")                                         \
    X(ATOMIC_EXCH, "cuda.atomic.exch", KJ_BF_DEV, "ary, idx, val")                                       \
    X(ATOMIC_AND, "cuda.atomic.and_", KJ_BF_DEV, "ary, idx, val")                                        \
    X(ATOMIC_OR, "cuda.atomic.or_", KJ_BF_DEV, "ary, idx, val")                                          \
    X(ATOMIC_XOR, "cuda.atomic.xor", KJ_BF_DEV, "ary, idx, val")                                         \
    X(ATOMIC_CAS, "cuda.atomic.cas", KJ_BF_DEV, "ary, idx, old, val")                                    \
    X(ATOMIC_CAS2, "cuda.atomic.compare_and_swap", KJ_BF_DEV, "ary, old, val")                           \
    X(ATOMIC_INC, "cuda.atomic.inc", KJ_BF_DEV, "ary, idx, val")                                         \
    X(ATOMIC_DEC, "cuda.atomic.dec", KJ_BF_DEV, "ary, idx, val")                                         \
    X(ATOMIC_NANMAX, "cuda.atomic.nanmax", KJ_BF_DEV, "ary, idx, val")                                   \
    X(ATOMIC_NANMIN, "cuda.atomic.nanmin", KJ_BF_DEV, "ary, idx, val")                                   \
    X(SHFL_SYNC, "cuda.shfl_sync", KJ_BF_DEV | KJ_BF_WARP, "mask, value, src_lane")                      \
    X(SHFL_UP_SYNC, "cuda.shfl_up_sync", KJ_BF_DEV | KJ_BF_WARP, "mask, value, delta")                   \
    X(SHFL_DOWN_SYNC, "cuda.shfl_down_sync", KJ_BF_DEV | KJ_BF_WARP, "mask, value, delta")               \
    X(SHFL_XOR_SYNC, "cuda.shfl_xor_sync", KJ_BF_DEV | KJ_BF_WARP, "mask, value, lane_mask")             \
    X(ALL_SYNC, "cuda.all_sync", KJ_BF_DEV | KJ_BF_WARP, "mask, predicate")                              \
    X(ANY_SYNC, "cuda.any_sync", KJ_BF_DEV | KJ_BF_WARP, "mask, predicate")                              \
    X(BALLOT_SYNC, "cuda.ballot_sync", KJ_BF_DEV | KJ_BF_WARP, "mask, predicate")                        \
    X(ACTIVEMASK, "cuda.activemask", KJ_BF_DEV | KJ_BF_WARP, "")                                         \
    X(POPC, "cuda.popc", KJ_BF_DEV, "x")                                                                 \
    X(CLZ, "cuda.clz", KJ_BF_DEV, "x")                                                                   \
    X(FFS, "cuda.ffs", KJ_BF_DEV, "x")                                                                   \
    X(BREV, "cuda.brev", KJ_BF_DEV, "x")                                                                 \
    X(FMA, "cuda.fma", KJ_BF_DEV, "a, b, c")                                                             \
    X(CBRT, "cuda.cbrt", KJ_BF_DEV, "a")                                                                 \
    X(SELP, "cuda.selp", KJ_BF_DEV, "test, a, b")                                                        \
    X(NANOSLEEP, "cuda.nanosleep", KJ_BF_DEV, "ns")                                                      \
    X(LANEMASK_LT, "cuda.lanemask_lt", KJ_BF_DEV, "")                                                    \
    /* cuda.fp16 (numba-cuda's kernel.rst): float16 arguments (builtins_fp16.c, llvm_fp16.c) */          \
    X(FP16_HFMA, "cuda.fp16.hfma", KJ_BF_DEV | KJ_BF_FP16, "a, b, c")                                    \
    X(FP16_HADD, "cuda.fp16.hadd", KJ_BF_DEV | KJ_BF_FP16, "a, b")                                       \
    X(FP16_HSUB, "cuda.fp16.hsub", KJ_BF_DEV | KJ_BF_FP16, "a, b")                                       \
    X(FP16_HMUL, "cuda.fp16.hmul", KJ_BF_DEV | KJ_BF_FP16, "a, b")                                       \
    X(FP16_HDIV, "cuda.fp16.hdiv", KJ_BF_DEV | KJ_BF_FP16, "a, b")                                       \
    X(FP16_HEQ, "cuda.fp16.heq", KJ_BF_DEV | KJ_BF_FP16, "a, b")                                         \
    X(FP16_HNE, "cuda.fp16.hne", KJ_BF_DEV | KJ_BF_FP16, "a, b")                                         \
    X(FP16_HGT, "cuda.fp16.hgt", KJ_BF_DEV | KJ_BF_FP16, "a, b")                                         \
    X(FP16_HGE, "cuda.fp16.hge", KJ_BF_DEV | KJ_BF_FP16, "a, b")                                         \
    X(FP16_HLT, "cuda.fp16.hlt", KJ_BF_DEV | KJ_BF_FP16, "a, b")                                         \
    X(FP16_HLE, "cuda.fp16.hle", KJ_BF_DEV | KJ_BF_FP16, "a, b")                                         \
    X(FP16_HMAX, "cuda.fp16.hmax", KJ_BF_DEV | KJ_BF_FP16, "a, b")                                       \
    X(FP16_HMIN, "cuda.fp16.hmin", KJ_BF_DEV | KJ_BF_FP16, "a, b")                                       \
    X(FP16_HNEG, "cuda.fp16.hneg", KJ_BF_DEV | KJ_BF_FP16, "a")                                          \
    X(FP16_HABS, "cuda.fp16.habs", KJ_BF_DEV | KJ_BF_FP16, "a")                                          \
    X(FP16_HSQRT, "cuda.fp16.hsqrt", KJ_BF_DEV | KJ_BF_FP16, "a")                                        \
    X(FP16_HRSQRT, "cuda.fp16.hrsqrt", KJ_BF_DEV | KJ_BF_FP16, "a")                                      \
    X(FP16_HEXP, "cuda.fp16.hexp", KJ_BF_DEV | KJ_BF_FP16, "a")                                          \
    X(FP16_HEXP2, "cuda.fp16.hexp2", KJ_BF_DEV | KJ_BF_FP16, "a")                                        \
    X(FP16_HEXP10, "cuda.fp16.hexp10", KJ_BF_DEV | KJ_BF_FP16, "a")                                      \
    X(FP16_HLOG, "cuda.fp16.hlog", KJ_BF_DEV | KJ_BF_FP16, "a")                                          \
    X(FP16_HLOG2, "cuda.fp16.hlog2", KJ_BF_DEV | KJ_BF_FP16, "a")                                        \
    X(FP16_HLOG10, "cuda.fp16.hlog10", KJ_BF_DEV | KJ_BF_FP16, "a")                                      \
    X(FP16_HSIN, "cuda.fp16.hsin", KJ_BF_DEV | KJ_BF_FP16, "a")                                          \
    X(FP16_HCOS, "cuda.fp16.hcos", KJ_BF_DEV | KJ_BF_FP16, "a")                                          \
    X(FP16_HCEIL, "cuda.fp16.hceil", KJ_BF_DEV | KJ_BF_FP16, "a")                                        \
    X(FP16_HFLOOR, "cuda.fp16.hfloor", KJ_BF_DEV | KJ_BF_FP16, "a")                                      \
    X(FP16_HRINT, "cuda.fp16.hrint", KJ_BF_DEV | KJ_BF_FP16, "a")                                        \
    X(FP16_HTRUNC, "cuda.fp16.htrunc", KJ_BF_DEV | KJ_BF_FP16, "a")                                      \
    X(FP16_HRCP, "cuda.fp16.hrcp", KJ_BF_DEV | KJ_BF_FP16, "a")                                          \
    /* numba.cuda.random (cuda_random.c, llvm_cuda_random.c): states as (n, 2) uint64 arrays */           \
    X(XORO_CREATE, "cuda.random.create_xoroshiro128p_states", KJ_BF_HOST,                                 \
      "n, seed, subsequence_start=, stream=")                                                            \
    X(XORO_INIT, "cuda.random.init_xoroshiro128p_states", KJ_BF_HOST,                                     \
      "states, seed, subsequence_start=, stream=")                                                       \
    X(XORO_NEXT, "cuda.random.xoroshiro128p_next", KJ_BF_DEV, "states, index")                            \
    X(XORO_JUMP, "cuda.random.xoroshiro128p_jump", KJ_BF_DEV, "states, index")                            \
    X(XORO_UNIFORM32, "cuda.random.xoroshiro128p_uniform_float32", KJ_BF_DEV, "states, index")            \
    X(XORO_UNIFORM64, "cuda.random.xoroshiro128p_uniform_float64", KJ_BF_DEV, "states, index")            \
    X(XORO_NORMAL32, "cuda.random.xoroshiro128p_normal_float32", KJ_BF_DEV, "states, index")              \
    X(XORO_NORMAL64, "cuda.random.xoroshiro128p_normal_float64", KJ_BF_DEV, "states, index")                \
    /* cooperative groups (llvm_cuda_cg.c): the grid group and its barrier over every block */         \
    X(CG_THIS_GRID, "cuda.cg.this_grid", KJ_BF_DEV | KJ_BF_UNIFORM, "")                                  \
    X(GRID_SYNC, "grid_group.sync", KJ_BF_DEV | KJ_BF_METHOD | KJ_BF_BARRIER, "")                              \
    X(EQ_SYNC, "cuda.eq_sync", KJ_BF_DEV | KJ_BF_WARP, "mask, predicate") \
    X(MATCH_ANY_SYNC, "cuda.match_any_sync", KJ_BF_DEV | KJ_BF_WARP, "mask, value")                      \
    X(MATCH_ALL_SYNC, "cuda.match_all_sync", KJ_BF_DEV | KJ_BF_WARP, "mask, value")                      \
    /* Numba's thread-pool API, SET_NUM_THREADS..CONFIG_DEFAULT_NUM_THREADS (builtins_threads.c,         \
     * llvm_threads.c, runtime/rt_threads.c); parallel_chunksize(n) only as a `with` context */         \
    X(SET_NUM_THREADS, "set_num_threads", KJ_BF_HOST, "n")                                               \
    X(GET_NUM_THREADS, "get_num_threads", KJ_BF_HOST, "")                                                \
    X(GET_THREAD_ID, "get_thread_id", KJ_BF_HOST, "")                                                    \
    X(SET_PAR_CHUNKSIZE, "set_parallel_chunksize", KJ_BF_HOST, "n")                                      \
    X(GET_PAR_CHUNKSIZE, "get_parallel_chunksize", KJ_BF_HOST, "")                                       \
    X(PAR_CHUNKSIZE, "parallel_chunksize", KJ_BF_HOST, "chunksize")                                      \
    X(CONFIG_NUM_THREADS, "numba.config.NUMBA_NUM_THREADS", KJ_BF_HOST | KJ_BF_ATTR, "")                 \
    X(CONFIG_DEFAULT_NUM_THREADS, "numba.config.NUMBA_DEFAULT_NUM_THREADS", KJ_BF_HOST | KJ_BF_ATTR, "") \
    KJ_BUILTINS_NPSORT(X)                                                                                \
    KJ_BUILTINS_NPOTHER(X)                                                                               \
    KJ_BUILTINS_NPSHAPE(X)                                                                               \
    KJ_BUILTINS_NPMATH(X)                                                                                \
    KJ_BUILTINS_NPPOLY(X)                                                                                \
    KJ_BUILTINS_OPERATOR(X)                                                                              \
    KJ_BUILTINS_SETOPS(X)                                                                                \
    KJ_BUILTINS_EXC(X)                                                                                   \
    KJ_BUILTINS_DATETIME(X)                                                                              \
    KJ_BUILTINS_CUDA_DEV(X)                                                                              \
    KJ_BUILTINS_CUDA_HOST(X)                                                                             \
    KJ_BUILTINS_CUDA_COMPILE(X)                                                                          \
    KJ_LIBDEVICE(KJ_LD_BUILTIN, X)

/* numba.cuda.libdevice.NAME (builtins_libdevice.h): a device built-in each. */
#define KJ_LD_BUILTIN(X, name, sig, params, host) X(LD_##name, "cuda.libdevice." #name, KJ_BF_DEV, params)

/* Other spellings of the same built-in: X(path, ID). */
#define KJ_BUILTIN_ALIASES(X)                                                              \
    X("np.sin", SIN) X("np.cos", COS) X("np.tan", TAN) X("np.arcsin", ASIN)                \
    X("np.asin", ASIN) X("np.arccos", ACOS) X("np.acos", ACOS) X("np.arctan", ATAN)        \
    X("np.atan", ATAN) X("np.arctan2", ATAN2) X("np.atan2", ATAN2) X("np.sinh", SINH)      \
    X("np.cosh", COSH) X("np.tanh", TANH) X("np.arcsinh", ASINH) X("np.asinh", ASINH)      \
    X("np.arccosh", ACOSH) X("np.acosh", ACOSH) X("np.arctanh", ATANH)                     \
    X("np.atanh", ATANH) X("np.exp", EXP) X("np.expm1", EXPM1) X("np.exp2", EXP2)          \
    X("np.log", LOG) X("np.log1p", LOG1P) X("np.log2", LOG2) X("np.log10", LOG10)          \
    X("np.sqrt", SQRT) X("np.power", POW) X("np.pow", POW) X("np.fabs", FABS)              \
    X("np.abs", ABS) X("np.absolute", ABS) X("np.floor", FLOOR) X("np.ceil", CEIL)         \
    X("np.trunc", TRUNC) X("np.copysign", COPYSIGN) X("np.true_divide", NP_DIVIDE)         \
    X("np.mod", NP_REMAINDER) X("np.bitwise_not", NP_INVERT)                               \
    X("np.hypot", HYPOT) X("np.isnan", ISNAN) X("np.isinf", ISINF)                         \
    X("np.isfinite", ISFINITE) X("np.pi", PI) X("np.e", E) X("np.inf", INF)                \
    X("np.nan", NAN) X("np.amin", NP_MIN) X("np.amax", NP_MAX) X("numba.prange", PRANGE)   \
    X("numba.set_num_threads", SET_NUM_THREADS) X("numba.get_num_threads", GET_NUM_THREADS) \
    X("numba.get_thread_id", GET_THREAD_ID) X("numba.parallel_chunksize", PAR_CHUNKSIZE)  \
    X("numba.set_parallel_chunksize", SET_PAR_CHUNKSIZE)                                   \
    X("numba.get_parallel_chunksize", GET_PAR_CHUNKSIZE)                                   \
    X("cuda.atomic.compare_and_swap", ATOMIC_CAS2) X("cmath.pi", PI) X("cmath.e", E)      \
    X("cmath.inf", INF) X("cmath.nan", NAN) X("np.conjugate", NP_CONJ) \
    X("np.round", NP_AROUND) X("np.round_", NP_AROUND)                                     \
    X("np.polynomial.Polynomial", NP_POLYNOMIAL)                                           \
    X("np.degrees", NP_RAD2DEG) X("np.radians", NP_DEG2RAD)                                \
    X("np.trapezoid", NP_TRAPZ) /* NumPy 2's name of np.trapz */                             \
    X("np.row_stack", NP_VSTACK) X("np.reshape", ARR_RESHAPE)                            \
    /* host memory numba.cuda allocates (docs/cuda.md): kjit pins and maps itself */      \
    X("cuda.pinned_array", NP_EMPTY) X("cuda.mapped_array", NP_EMPTY)                     \
    X("cuda.managed_array", NP_EMPTY)                                                      \
    X("cuda.pinned_array_like", NP_EMPTY_LIKE) X("cuda.mapped_array_like", NP_EMPTY_LIKE)

typedef enum {
#define X(id, path, flags, params) KJ_B_##id,
    KJ_BUILTINS(X)
#undef X
        KJ_B__COUNT
} kj_builtin;

typedef struct kj_builtin_info {
    const char *path;
    unsigned flags;
    const char *params;
} kj_builtin_info;

const kj_builtin_info *kj_builtin_get(kj_builtin id);

/* Is `id` one of KJ_BUILTINS_NPSORT (typed and lowered by their own files)? */
/* The Python built-ins of builtins_pybuiltin.c. */
static inline bool kj_builtin_pybuiltin(unsigned id) { return id >= KJ_B_CHR && id <= KJ_B_DIVMOD; }
/* The math functions of builtins_pymath.c. */
static inline bool kj_builtin_pymath(unsigned id) { return id >= KJ_B_MATH_DEGREES && id <= KJ_B_MATH_GCD; }
/* The heapq module's functions (builtins_heapq.c). */
static inline bool kj_builtin_heapq(unsigned id) { return id >= KJ_B_HEAPQ_HEAPIFY && id <= KJ_B_HEAPQ_NLARGEST; }
/* Numba's thread-pool API (builtins_threads.c). */
static inline bool kj_builtin_threads(unsigned id)
{
    return id >= KJ_B_SET_NUM_THREADS && id <= KJ_B_CONFIG_DEFAULT_NUM_THREADS;
}
/* The `random` module's functions (builtins_pyrandom.c). */
static inline bool kj_builtin_pyrandom(unsigned id) { return id >= KJ_B_RANDOM_SEED && id <= KJ_B_RANDOM_SHUFFLE; }
static inline bool kj_builtin_npsort(unsigned id) { return id >= KJ_B_NP_SORT && id <= KJ_B_NP_HISTOGRAM_BIN_EDGES; }

/* Is `id` one of KJ_BUILTINS_NPOTHER (builtins_npother.h)? */
static inline bool kj_builtin_npother(unsigned id) { return id >= KJ_B_NP_BARTLETT && id <= KJ_B_NP_ISSCALAR; }
/* Is `id` one of KJ_BUILTINS_NPSHAPE (builtins_npshape.h)? Their typing rule;
 * the wrapper a type is (KJ_NPW_NONE for others); what a for loop over a
 * wrapper gives; the NumPy function a method stands for, or -1. */
static inline bool kj_builtin_npshape(unsigned id) { return id >= KJ_B_ARR_FLAGS && id <= KJ_B_NP_SLIDING_WINDOW_VIEW; }
kj_npw kj_npshape_wrapper(const kj_type *t);
const kj_type *kj_npshape_iter_elem(kj_types *t, const kj_type *w);
int kj_npshape_function_of(unsigned id);
/* Is `id` one of KJ_BUILTINS_NPMATH (builtins_npmath.h)? */
static inline bool kj_builtin_npmath(unsigned id) { return id >= KJ_B_NP_LOGADDEXP && id <= KJ_B_NP_SPACING; }
/* Is `id` one of KJ_BUILTINS_DATETIME (builtins_datetime.h)? Their typing (infer_datetime.c), also of
 * abs, np.isfinite and the ufuncs of datetime64/timedelta64 arguments: NULL with *handled false when
 * no argument is one. */
static inline bool kj_builtin_datetime(unsigned id) { return id >= KJ_B_DT_DATETIME64 && id <= KJ_B_DT_OP; }
/* Is `id` one of KJ_BUILTINS_NPPOLY (builtins_nppoly.h)? */
static inline bool kj_builtin_nppoly(unsigned id) { return id >= KJ_B_NP_POLYADD && id <= KJ_B_NP_ROOTS; }


/* Does built-in `id` have any of `flags` (KJ_BF_*)? False for an id that
 * is not a built-in. */
bool kj_builtin_has(unsigned id, unsigned flags);

/* Look a dotted path up ("np.sin", "cuda.atomic.add"), aliases included.
 * Returns -1 when unknown. */
int kj_builtin_lookup(const char *path);

/* Every known path (canonical and aliases) that starts with `prefix` followed
 * by a '.', as the next component only: prefix "cuda.atomic" gives "add",
 * "sub", ...; used for "did you mean" hints and to tell a module prefix
 * ("np.random") from an unknown name. Returns the count; names go to `out`
 * (at most `max`), as pointers into static storage or `a`. */
uint32_t kj_builtin_children(const char *prefix, const char **out, uint32_t max, kj_arena *a);

/* One argument of a call to a built-in, as the type checker sees it. */
typedef struct kj_barg kj_barg;
struct kj_barg {
    const kj_type *type; /* NULL: the optional parameter was not given */
    kj_span span;
    bool is_const;       /* a compile-time constant (literal, module constant, ...) */
    int64_t ival;        /* its value when is_const and integral */
    double fval;         /* its value when is_const and float */
    const char *sval;    /* its value when is_const and a string (kind=, side=) */
};

/* lower_pyiter.c: min/max of strings (compared code point by code point, as
 * CPython): the str type when the arguments are 2+ strings, one tuple of
 * strings or one list of strings, else NULL (builtins.c's type_minmax). */
const kj_type *kj_type_minmax_str(kj_types *ty, const kj_type *x, uint32_t nargs, const kj_barg *args);
/* infer_pygen.c: iter(x) and next(it, default=); the arguments of sum(g),
 * list(g), sorted(g), min(g), max(g), any(g), all(g) of a generator g with
 * g as a list of its yield type (buf: room for 8), else args. */
const kj_type *kj_btype_iter(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                             const kj_source *src, kj_diags *d, const kj_type **conv);
/* infer_objmode.c: objmode() called (an error) and $objmode_out(y, 'T') */
const kj_type *kj_btype_objmode(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                                const kj_source *src, kj_diags *d, const kj_type **conv);
const kj_barg *kj_gen_list_args(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_barg *buf);

/* builtins_complex.c: the complex built-ins (complex, .real, cmath.*, abs of a
 * complex), and the refusal of a complex argument by every other built-in.
 * True when it decided: *out is the result type, NULL after an error. */
bool kj_complex_builtin_type(kj_types *t, kj_builtin id, const kj_type *target, const kj_barg *args,
                             uint32_t nargs, kj_span call, const kj_source *src, kj_diags *d,
                             const kj_type **conv, const kj_type **out);
/* builtins_fp16.c: the cuda.fp16 built-ins (KJ_BF_FP16): float16 arguments,
 * a float16 result (a bool for the comparisons); NULL after an error. */
const kj_type *kj_fp16_builtin_type(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                                    kj_span call, const kj_source *src, kj_diags *d);
/* May built-in `id` take or make arrays of complex numbers (creation, shape,
 * transposes, GPU transfers; not yet the runtime's NumPy functions)? False
 * after reporting why not. */
/* builtins_cpxarr.c: the element type NumPy's (Numba's) loop of math ufunc id computes in for array
 * elements e (float32 for small ints, complex kept where NumPy has a complex loop; NULL: refused) */
const kj_type *kj_np_float_loop(kj_types *t, kj_builtin id, const kj_type *e, kj_span call, const kj_source *src,
                                kj_diags *d);
bool kj_complex_arrays_ok(kj_builtin id, const kj_barg *args, uint32_t nargs, const kj_type *result, kj_span call,
                          const kj_source *src, kj_diags *d);

/* Is `id` one of KJ_BUILTINS_CUDA_DEV (the device's host API)? */
static inline bool kj_builtin_cuda_dev(unsigned id)
{
    return id >= KJ_B_CUDA_IS_AVAILABLE && id <= KJ_B_DEV_MAX_BLOCKS_PER_MULTIPROCESSOR;
}

/* Is `id` one of KJ_BUILTINS_CUDA_HOST (streams, the profiler)? */
static inline bool kj_builtin_cuda_host(unsigned id)
{
    return id >= KJ_B_CUDA_DEFAULT_STREAM && id <= KJ_B_GPUS_CURRENT;
}
/* Is `id` one of KJ_BUILTINS_CUDA_COMPILE (cuda.compile_ptx, ...: cuda_compile.c)? */
static inline bool kj_builtin_cuda_compile(unsigned id)
{
    return id >= KJ_B_CUDA_COMPILE_PTX && id <= KJ_B_CUDA_COMPILE_ALL;
}
/* Their typing rule (builtins_cuda_host.c). */
const kj_type *kj_builtin_type_cuda_host(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                                         kj_span call_span, const kj_source *src, kj_diags *d);

/* Their typing rule (builtins_cuda_dev.c), with `recv` 1 for attributes and
 * methods. */
const kj_type *kj_builtin_type_cuda_dev(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                                        uint32_t recv, kj_span call_span, const kj_source *src, kj_diags *d);

/* Is `id` one of numba.cuda.libdevice's functions? */
static inline bool kj_builtin_libdevice(unsigned id) { return id >= KJ_LD_FIRST && id <= KJ_LD_LAST; }

/* Their typing rule (builtins_libdevice.c), as kj_builtin_type's. */
const kj_type *kj_builtin_type_libdevice(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                                         kj_span call_span, const kj_source *src, kj_diags *d,
                                         const kj_type **conv);

/* The row of libdevice function `id`: its signature letters (see
 * builtins_libdevice.h) and the cpu targets' equivalent. */
typedef struct {
    const char *name, *sig, *host;
} kj_libdevice_fn;
const kj_libdevice_fn *kj_libdevice_get(kj_builtin id);

/* The CU_DEVICE_ATTRIBUTE code of device.NAME and the value of the cpu
 * targets' emulated device; false for another built-in. */
bool kj_cuda_dev_attr(kj_builtin id, int *code, int64_t *cpu_value);

/* The typing rule of those (builtins_npsort.c), kj_builtin_type's
 * parameters with `recv` 1 for methods. */
/* The typing rule of KJ_BUILTINS_NPSHAPE (builtins_npshape.c). */
const kj_type *kj_builtin_type_npshape(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                                       kj_span call, const kj_source *src, kj_diags *d, const kj_type **conv);
/* print() of one of those wrappers: refused (true after the error). */
bool kj_npshape_unprintable(const kj_barg *args, uint32_t nargs, const kj_source *src, kj_diags *d);
/* print() of a numpy.polynomial Polynomial: refused (builtins_polynomial.c). */
bool kj_polynomial_unprintable(const kj_barg *args, uint32_t nargs, const kj_source *src, kj_diags *d);
bool kj_is_polynomial(const kj_type *t);
/* The Polynomial of (coef, domain, window) types: an argument's (api/values_poly.c). */
const kj_type *kj_t_polynomial(kj_types *t, const kj_type *const *el);
/* The typing rule of KJ_BUILTINS_NPOTHER (builtins_npother.c). */
const kj_type *kj_builtin_type_npother(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                                       kj_span call_span, const kj_source *src, kj_diags *d, const kj_type **conv);

const kj_type *kj_builtin_type_npsort(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                                      uint32_t recv, kj_span call_span, const kj_source *src, kj_diags *d,
                                      const kj_type **conv);

/* The typing rule of a KJ_BF_LINALG built-in (builtins_linalg.c), as
 * kj_builtin_type's. */
const kj_type *kj_linalg_type(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs,
                              kj_span call_span, const kj_source *src, kj_diags *d);

/* Bind call arguments to the parameters of built-in `id` (after the receiver
 * for methods): `pos` positional, then `kwnames`/`kw` keywords. On success
 * fills `out` (capacity `max_out`) with one kj_barg per parameter in the
 * table's order — missing optionals have type NULL, a *args parameter takes
 * all remaining positionals, each as its own entry — and returns the count;
 * on error reports (unexpected keyword, missing argument, too many
 * arguments) and returns -1. `argmap[i]` tells which call argument each
 * entry came from: k >= 0 the k-th positional, -1-k the k-th keyword,
 * INT32_MIN absent. */
int kj_builtin_bind(kj_builtin id, const kj_barg *pos, uint32_t npos, const char *const *kwnames,
                    const kj_barg *kw, uint32_t nkw, kj_span call_span, const kj_source *src,
                    kj_diags *d, kj_barg *out, int32_t *argmap, uint32_t max_out);

/* NumPy's ufuncs that are Python operators: np.add(x1, x2) is typed and
 * lowered as x1 + x2 (kind BINARY, op a kj_binop), np.less as < (COMPARE, a
 * kj_cmpop), np.negative and np.invert as unary - and ~ (UNARY, a kj_unop),
 * np.square(x) as x * x (SQUARE), np.logical_and/or/xor/not as & | ^ ~ of
 * the operands' truth (LOGICAL: op BITAND, BITOR, BITXOR or UOP_NOT).
 * False for other built-ins. */
typedef enum { KJ_OPU_BINARY, KJ_OPU_COMPARE, KJ_OPU_UNARY, KJ_OPU_SQUARE, KJ_OPU_LOGICAL } kj_opu_kind;
typedef struct {
    kj_opu_kind kind;
    int op;
} kj_opufunc;
bool kj_builtin_operator(kj_builtin id, kj_opufunc *out);
/* builtins_operator.c: the functions of Python's operator module as
 * operators (kj_builtin_operator asks it); is `id` one of the in-place
 * forms (operator.iadd, ...)? */
bool kj_builtin_pyoperator(kj_builtin id, kj_opufunc *out);
/* builtins_set.c: set(iterable) (KJ_B_SET with an argument) and the
 * methods of builtins_set.h */
static inline bool kj_builtin_setops(unsigned id) { return id >= KJ_B_SET_CLEAR && id <= KJ_B_SET_SYMDIFF; }
/* builtins_exc.c: exception objects (builtins_exc.h) */
static inline bool kj_builtin_exc(unsigned id) { return id >= KJ_B_EXC_ARGS && id <= KJ_B_EXC_RAISE; }
const kj_type *kj_type_exc(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                           const kj_source *src, kj_diags *d);
const kj_type *kj_type_set_of(kj_types *t, const kj_barg *args, uint32_t nargs, kj_span call, const kj_source *src,
                              kj_diags *d);
const kj_type *kj_type_setops(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                              const kj_source *src, kj_diags *d);
/* infer_tuple.c: t.index(x) (args[0] the tuple) */
const kj_type *kj_tuple_index_type(kj_types *T, const kj_barg *args, uint32_t nargs, kj_span sp,
                                   const kj_source *src, kj_diags *d);
static inline bool kj_builtin_pyop(unsigned id) { return id >= KJ_B_PYOP_ADD && id <= KJ_B_PYOP_IXOR; }
static inline bool kj_builtin_pyop_inplace(unsigned id) { return id >= KJ_B_PYOP_IADD && id <= KJ_B_PYOP_IXOR; }

/* Type a call to built-in `id` with bound arguments (receiver first for
 * methods; not the operator ufuncs, which inference types as operators). `target` is the result type for KJ_B_CONVERT; for KJ_B_NP_LOAD
 * the array type the caller knows the file to hold (NULL: unknown, an
 * error); ignored otherwise. Returns the result type (KJ_T_NONE for statements such as
 * syncthreads) or NULL after reporting an error to `d` that names the
 * built-in and the offending argument. `conv`, when not NULL, receives for
 * each bound argument the type it must be converted to before the call
 * (NULL: passed unchanged), e.g. math.sin(int) converts to float64. */
/* The typing of np.array/asarray, the joins and the flips (builtins_np_manip.c). */
/* builtins_str.c: the str methods KJ_B_STR_SPLIT..KJ_B_STR_ISPRINTABLE. */
const kj_type *kj_type_str_builtin(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                                   const kj_source *src, kj_diags *d, const kj_type **conv);
/* builtins_bytes.c: bytes, bytearray, memoryview (KJ_B_BYTES_LIT..KJ_B_MV_READONLY). */
static inline bool kj_builtin_bytes(unsigned id) { return id >= KJ_B_BYTES_LIT && id <= KJ_B_MV_READONLY; }
const kj_type *kj_type_bytes_builtin(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                                     const kj_source *src, kj_diags *d, const kj_type **conv);
/* builtins_dict.c: the dict and set built-ins (KJ_B_DICT_NEW..KJ_B_SET). */
const kj_type *kj_type_dict_builtin(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                                    const kj_source *src, kj_diags *d, const kj_type **conv);
const kj_type *kj_type_np_manip(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                                const kj_source *src, kj_diags *d, const kj_type **conv);
/* builtins_np_manip2.c: np.roll, np.tril/triu/tri, np.diag, np.vander,
 * np.take, np.extract, np.delete, np.append, np.fill_diagonal, np.split,
 * np.array_split, np.tile, np.rot90. */
const kj_type *kj_type_np_manip2(kj_types *t, kj_builtin id, const kj_barg *args, uint32_t nargs, kj_span call,
                                 const kj_source *src, kj_diags *d, const kj_type **conv);
#define KJ_B_NP_MANIP2_CASES                                                                                \
    case KJ_B_NP_ROLL: case KJ_B_NP_TRIL: case KJ_B_NP_TRIU: case KJ_B_NP_TRI: case KJ_B_NP_DIAG:           \
    case KJ_B_NP_VANDER: case KJ_B_NP_TAKE: case KJ_B_ARR_TAKE: case KJ_B_NP_EXTRACT: case KJ_B_NP_DELETE:  \
    case KJ_B_NP_APPEND: case KJ_B_NP_FILL_DIAGONAL: case KJ_B_NP_SPLIT: case KJ_B_NP_ARRAY_SPLIT:      \
    case KJ_B_NP_TILE: case KJ_B_NP_ROT90
const kj_type *kj_builtin_type(kj_types *t, kj_builtin id, const kj_type *target,
                               const kj_barg *args, uint32_t nargs, kj_span call_span,
                               const kj_source *src, kj_diags *d, const kj_type **conv);

/* An element that lists sort and compare (infer_list.c): a real number, a string, a tuple of real numbers. */
bool kj_list_orderable(const kj_type *t);

/* infer_datetime.c: see kj_builtin_datetime. */
const kj_type *kj_dt_builtin_type(kj_types *t, int id, const kj_barg *args, uint32_t nargs, kj_span call,
                                  const kj_source *src, kj_diags *d, const kj_type **conv, bool *handled);

#endif
