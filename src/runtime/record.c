/* SPDX-License-Identifier: BSD-2-Clause */
/* NumPy structured dtypes (records) in the runtime: printing records and
 * arrays of records as NumPy prints them (format.c's StructuredVoidFormat).
 * Generated code keeps records itself (src/codegen/llvm_record.c): an array of
 * records is a descriptor of their bytes, a record a pointer to its bytes; the
 * runtime learns the layout from a spec string the compiler writes. */
#include "rt_host.h"

#include "../util/buf.h"
#include "format.h"
#include "list.h"

#include <stdlib.h>
#include <string.h>

/* "DT:OFF,DT:OFF,..." (kj_dtype numbers and byte offsets, llvm_record.c). */
static void parse_spec(const char *spec, kj_recfmt *rf)
{
    rf->n = 0;
    for (const char *p = spec; *p && rf->n < 64;) {
        char *end;
        rf->dt[rf->n] = (kj_dtype)strtol(p, &end, 10);
        rf->off[rf->n] = strtoll(end + 1, &end, 10);
        rf->n++;
        p = *end == ',' ? end + 1 : end;
    }
}

void kj_rt_print_records(kj_rt *rt, const void *a, int32_t ndim, const char *spec, const char *descr, int32_t repr)
{
    kj_recfmt rf = {.descr = descr};
    parse_spec(spec, &rf);
    kj_array h;
    kj_rt_header(&h, a, ndim, KJ_DT_UINT8);
    kj_buf b = {0};
    kj_fmt_records(&b, &h, &rf, repr != 0);
    kj_rt_print_str(rt, b.s ? b.s : "");
    kj_buf_free(&b);
}

/* cuda.to_device(record) (numba-cuda's DeviceRecord) and its copy_to_host() on the cpu targets: a
 * copy of the record's bytes that lives for the run, as lists do (a record is a bare pointer, which
 * no function's collection of arrays could see). */
void *kj_rt_record_copy(kj_rt *rt, const void *src, int64_t size)
{
    kj_list *l = kj_rt_list_new(rt, size, 1, -1);
    memcpy(l->data, src, (size_t)size);
    return l->data;
}
