/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy's .npy files (np.load / np.save).
 *
 * Reads format versions 1.0, 2.0 and 3.0 with little- or big-endian (byte-
 * swapped on load) bool/int/uint/float dtypes, C or Fortran order, any
 * number of dimensions up to KJ_MAX_DIMS. Writes version 1.0 (2.0 when the
 * header needs it) byte-identical to what np.save writes. */
#ifndef KJ_NPY_H
#define KJ_NPY_H

#include "array.h"

/* np.load(path): a new C- or F-ordered array, or NULL with an error naming
 * the path and the reason (missing file, not an .npy file, truncated data,
 * unsupported dtype). */
kj_array *kj_npy_load(const char *path, kj_rt_error *err);

/* The same from the bytes of a whole .npy file in memory (tests, fuzzing,
 * embedders holding the file already); errors name no path. */
kj_array *kj_npy_load_mem(const void *data, size_t size, kj_rt_error *err);

/* np.save(path, a): ".npy" is appended when the path lacks it (as np.save
 * does). The data goes to a temporary file in the same directory, renamed
 * over `path` once complete, so a failed save never leaves a partial file. */
bool kj_npy_save(const char *path, const kj_array *a, kj_rt_error *err);

/* The dtype, order and shape of an .npy file, from its header only (the
 * compiler types np.load with a constant path this way). */
bool kj_npy_read_info(const char *path, kj_dtype *dt, bool *fortran, int *ndim, int64_t *shape,
                      kj_rt_error *err);
/* The same with NumPy's dtype name and a plain message: the compiler's
 * kj_npy_info_fn (src/ir/sema.h), which the C API passes to sema. */
bool kj_npy_header_info(const char *path, const char **dtype, bool *fortran, int *ndim, int64_t shape[8],
                        char *err, size_t cap);

/* Parse the header dictionary of an .npy file ("{'descr': '<f8', ...}").
 * Exposed for tests and fuzzing. `byteswap` is set for big-endian data. */
bool kj_npy_parse_header(const char *hdr, size_t len, kj_dtype *dt, bool *byteswap,
                         bool *fortran, int *ndim, int64_t *shape, kj_rt_error *err);

#endif
