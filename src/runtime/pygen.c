/* SPDX-License-Identifier: BSD-2-Clause */
/* Generators' coroutine frames (src/codegen/llvm_pygen.c): the memory LLVM's
 * coroutine lowering asks for (the live locals, the resume index, the last
 * yielded value), zeroed. A frame is held as the data of a one-element
 * byte list in the run's list registry, so that it lives, as a generator
 * passed around may need, until the run's end frees every list. */
#include "list.h"
#include "rt.h"

void *kj_rt_gen_frame(kj_rt *rt, int64_t size)
{
    kj_list *l = kj_rt_list_new(rt, size > 0 ? size : 1, 1, -1);
    return l->data;
}
