/* SPDX-License-Identifier: BSD-2-Clause */
/* The heapq module's operations (heapq.c; rtfns.def HEAPQ): the codes
 * generated code passes (llvm_heapq.c). */
#ifndef KJ_HEAPQ_H
#define KJ_HEAPQ_H

typedef enum {
    KJ_HQ_HEAPIFY,     /* heapify(list) */
    KJ_HQ_HEAPPUSH,    /* heappush(list, item) */
    KJ_HQ_HEAPPOP,     /* heappop(list): the element */
    KJ_HQ_HEAPREPLACE, /* heapreplace(list, item): the element popped */
    KJ_HQ_HEAPPUSHPOP, /* heappushpop(list, item): the element popped */
    KJ_HQ_NSMALLEST,   /* nsmallest(n, list): a new list */
    KJ_HQ_NLARGEST,    /* nlargest(n, list): a new list */
} kj_heapq_op;

#endif
