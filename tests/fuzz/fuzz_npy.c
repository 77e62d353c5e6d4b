/* libFuzzer target for the .npy reader (src/runtime/npy.c): arbitrary bytes
 * as a whole .npy file, header and payload, through kj_npy_load_mem.
 *
 * Any input must give either an array or an error, never a crash, a
 * sanitizer report, a leak or an allocation the file cannot back. An array
 * that loads is saved with kj_npy_save and loaded again: the round trip must
 * give the same dtype, shape and bytes, or the target aborts (a finding).
 * Built and run by tests/fuzz/build.sh and scripts/test-all.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Same dtype, shape and contents. Both are contiguous with their elements
 * in the same memory order (np.save keeps a Fortran-only array in Fortran
 * order), so the bytes compare; strides may differ only on axes of length 1. */
static int same_array(const kj_array *a, const kj_array *b)
{
    if (a->dtype != b->dtype || a->ndim != b->ndim) return 0;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i]) return 0;
    size_t n = (size_t)kj_array_size(a) * kj_array_itemsize(a);
    return n == 0 || !memcmp(a->data, b->data, n);
}

static void round_trip(const kj_array *a)
{
    /* one file per process, in the scratch directory run.sh works in */
    char path[64];
    snprintf(path, sizeof path, "fuzz_npy_%ld.npy", (long)getpid());
    kj_rt_error err = {0};
    if (!kj_npy_save(path, a, &err)) {
        fprintf(stderr, "fuzz_npy: saving a loaded array failed: %s\n", err.message);
        abort();
    }
    kj_array *b = kj_npy_load(path, &err);
    unlink(path);
    if (!b || !same_array(a, b)) {
        fprintf(stderr, "fuzz_npy: the saved array does not load back the same: %s\n",
                b ? "different dtype, shape or data" : err.message);
        abort();
    }
    kj_array_release(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kj_rt_error err = {0};
    kj_array *a = kj_npy_load_mem(data, size, &err);
    if (!a) {
        if (!err.message[0]) abort(); /* every failure says why */
        return 0;
    }
    round_trip(a);
    kj_array_release(a);
    return 0;
}
