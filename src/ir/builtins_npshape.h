/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's array attributes, methods and manipulation as Numba supports them
 * (issue 25; numpysupported.rst "Attributes", "Calculation", "Other
 * functions"): rows of KJ_BUILTINS (builtins.h). Typed by
 * builtins_npshape.c, lowered by llvm_npshape.c (most to one kj_rt_npshape
 * call, rt_npshape.c); the iterator objects (a.flat, np.ndindex,
 * np.ndenumerate, np.nditer) and a.flags are namedtuple-like wrappers
 * (kj_npshape_wrapper) that for loops, indexing and attribute reads take
 * apart (lower_npshape.c). ARR_FLAGS comes first and NP_SLIDING_WINDOW_VIEW
 * last: kj_builtin_npshape tells the family by its range. */
#ifndef KJ_BUILTINS_NPSHAPE_H
#define KJ_BUILTINS_NPSHAPE_H

#define KJ_BUILTINS_NPSHAPE(X)                                                                           \
    X(ARR_FLAGS, "array.flags", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_SHAPE, "")                 \
    X(ARR_FLAT, "array.flat", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_VIEW, "")                    \
    X(ARR_REAL, "array.real", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_VIEW, "")                    \
    X(ARR_IMAG, "array.imag", KJ_BF_HOST | KJ_BF_ATTR | KJ_BF_METHOD | KJ_BF_VIEW, "")                    \
    X(ARR_CLIP, "array.clip", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "a_min, a_max")                   \
    X(ARR_CONJ, "array.conj", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "")                               \
    X(ARR_CONJUGATE, "array.conjugate", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "")                     \
    X(ARR_DOT, "array.dot", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "b")                                \
    X(ARR_ITEM, "array.item", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "*args")                          \
    X(ARR_ITEMSET, "array.itemset", KJ_BF_HOST | KJ_BF_METHOD, "*args")                                  \
    X(ARR_PTP, "array.ptp", KJ_BF_HOST | KJ_BF_METHOD | KJ_BF_READS, "")                                 \
    X(ARR_CONTAINS, "array.<in>", KJ_BF_HOST | KJ_BF_READS, "x")                                         \
    X(CPX_ITEM, "complex.item", KJ_BF_HOST | KJ_BF_METHOD, "") /* a NumPy scalar's (np.nditer's values) */ \
    X(NP_ASFORTRANARRAY, "np.asfortranarray", KJ_BF_HOST | KJ_BF_READS, "a")                             \
    X(NP_DIAGFLAT, "np.diagflat", KJ_BF_HOST | KJ_BF_READS, "v, k=")                                     \
    X(NP_GEOMSPACE, "np.geomspace", KJ_BF_HOST, "start, stop, num=")                                     \
    X(NP_LOGSPACE, "np.logspace", KJ_BF_HOST, "start, stop, num=")                                       \
    X(NP_INDICES, "np.indices", KJ_BF_HOST, "dimensions")                                                \
    X(NP_RESIZE, "np.resize", KJ_BF_HOST | KJ_BF_READS, "a, new_shape")                                  \
    X(NP_INSERT, "np.insert", KJ_BF_HOST | KJ_BF_READS, "arr, obj, values")                              \
    X(NP_TAKE_ALONG_AXIS, "np.take_along_axis", KJ_BF_HOST | KJ_BF_READS, "arr, indices, axis")          \
    X(NP_BROADCAST_SHAPES, "np.broadcast_shapes", KJ_BF_HOST, "*args")                                   \
    X(NP_BROADCAST_ARRAYS, "np.broadcast_arrays", KJ_BF_HOST | KJ_BF_VIEW, "*args")                      \
    X(NP_HSPLIT, "np.hsplit", KJ_BF_HOST | KJ_BF_VIEW, "ary, indices_or_sections")                       \
    X(NP_VSPLIT, "np.vsplit", KJ_BF_HOST | KJ_BF_VIEW, "ary, indices_or_sections")                       \
    X(NP_DSPLIT, "np.dsplit", KJ_BF_HOST | KJ_BF_VIEW, "ary, indices_or_sections")                       \
    X(NP_NDINDEX, "np.ndindex", KJ_BF_HOST, "*shape")                                                    \
    X(NP_NDENUMERATE, "np.ndenumerate", KJ_BF_HOST | KJ_BF_VIEW, "arr")                                  \
    X(NP_NDITER, "np.nditer", KJ_BF_HOST | KJ_BF_VIEW, "op")                                             \
    X(NP_AS_STRIDED, "np.lib.stride_tricks.as_strided", KJ_BF_HOST | KJ_BF_VIEW, "x, shape=, strides=")  \
    X(NP_SLIDING_WINDOW_VIEW, "np.lib.stride_tricks.sliding_window_view", KJ_BF_HOST | KJ_BF_VIEW,         \
      "x, window_shape, axis=")

/* The wrappers of this family: tuples of a class of their own (kj_ntclass),
 * so that they travel as values (a.flags's three bools, a.flat's array,
 * np.ndindex's shape) and the passes that take them apart tell them by it. */
typedef enum { KJ_NPW_NONE, KJ_NPW_FLAGS, KJ_NPW_FLAT, KJ_NPW_NDINDEX, KJ_NPW_NDENUMERATE, KJ_NPW_NDITER } kj_npw;

enum { KJ_NPSHAPE_MAXDIM = 8 };

#endif
