/* SPDX-License-Identifier: BSD-2-Clause */
/* What the two halves of the kernel generator for the host share
 * (llvm_kernel.c: thread loops, regions, lockstep loops;
 * llvm_kernel_warp.c: warp operations; llvm_kernel_div.c: divergence
 * within a warp). Internal to src/codegen. */
#ifndef KJ_CODEGEN_KERNEL_INT_H
#define KJ_CODEGEN_KERNEL_INT_H

#include "codegen.h"

/* A counted loop k = 0 .. n-1 in the current function. */
typedef struct cloop {
    LLVMBasicBlockRef pre, head, body, latch, exit;
    LLVMValueRef k, start;
} cloop;

/* A FOR loop of a barrier-free kernel run in lockstep (emit_lockstep_loop):
 * each thread's first value, step and trip count, and the iteration. */
typedef struct lock_loop {
    const kir_inst *in;
    LLVMValueRef start, step, trips; /* per-thread arrays */
    LLVMValueRef k;                  /* the iteration being run */
    /* i1: every thread's start is base + its linear index, with the same
     * step and stop (the grid-stride loop): then thread t's i is
     * base + t + k * step, which LLVM vectorises across threads */
    LLVMValueRef affine, base, step0, stop0;
    bool breaks;                     /* the body has a break */
} lock_loop;

/* A thread's state byte (kj_cg_kern.state): it has returned, or it sits
 * out the branch or loop iteration of its warp being run (divergence
 * within a warp, llvm_kernel_warp.c). 0: the thread runs. */
enum { THREAD_EXITED = 1, THREAD_OFF = 2 };
enum { JUMP_NONE, JUMP_BREAK, JUMP_CONTINUE };

/* Per-thread state of an if / for / while run warp by warp with a
 * condition or bounds that may differ within the warp: each thread's
 * state byte before it (save), for loops whether the thread has left by
 * break or continue (left: a JUMP_ code), for FOR each thread's range. */
typedef struct kn_div {
    LLVMValueRef save, left;
    LLVMValueRef start, step, trips;
} kn_div;

typedef struct ref_use {
    uint32_t region;
    kir_ref ref;
} ref_use;

struct kj_cg_kern {
    const kir_func *kf;
    bool regions;         /* the kernel has barriers: generated in regions */
    int64_t *shoff;       /* per ref: byte offset of a static shared array; -1: dynamic */
    int64_t shared_bytes; /* static shared memory per block */
    bool dyn_shared;      /* some shared array is dynamic (shape 0) */
    LLVMValueRef tstore;  /* regions: the per-thread state in the block storage */
    int64_t tbytes;       /* its bytes per thread so far (offsets: times nthreads) */
    LLVMValueRef tbytes_g; /* the constant global that receives tbytes at the end */
    bool state_on_stack;  /* the scalar per-thread state is small: allocas (per_thread) */
    /* regions */
    uint32_t *region;     /* per ref: its region (0 = none) */
    bool *crossing;       /* per ref: read in another region than its own */
    ref_use *uses;        /* crossing values read per region */
    uint32_t nuses, cap_uses;
    LLVMValueRef *slot;   /* per crossing ref: per-thread storage */
    LLVMValueRef nthreads, tid; /* tid: the thread of the region being generated, else NULL */
    LLVMValueRef state, jmp;    /* per thread: i8 (THREAD_*, JUMP_*) */
    bool diverges;        /* some statement runs warp by warp: threads may sit out (THREAD_OFF) */
    kn_div *div;          /* per ref: a statement run warp by warp, its per-thread state */
    bool *wuniform;       /* per ref: a statement that cannot diverge within a warp (kj_kn_find_uniform) */
    LLVMBasicBlockRef next;     /* the current region's next-thread block */
    bool jumps;           /* the current region leaves to a block-level loop */
    bool returns;         /* the kernel may return early */
    kj_cg_loop *bloops;   /* block-level loops, innermost last */
    LLVMValueRef *bleft;  /* per block-level loop: kn_div.left of one run warp by warp, else NULL */
    uint32_t nbloops, cap_bloops;
    /* The threads [lo, hi) that block-level code loops over: the block, or
     * one warp while a statement with warp operations (and no
     * syncthreads) runs warp by warp (kj_kn_warp_scope). */
    LLVMValueRef lo, hi;
    bool in_warp;
    uint32_t warp_bloops;        /* nbloops when the warp scope began */
    LLVMBasicBlockRef warp_next; /* the warp loop's next-warp block */
    /* Barrier-free kernels with a grid-stride loop (lockstep loops) */
    bool *lockstep;              /* per ref: a top-level FOR run in lockstep */
    bool *uniform_local;         /* per local: the same in every thread (a parameter) */
    lock_loop *locks;            /* per lockstep ref: its state */
    lock_loop *lock;             /* the lockstep loop being generated, else NULL */
};

/* Loops over threads: k = start .. n-1; over the current scope [lo, hi). */
LLVMValueRef kj_kn_loop_from(kj_cg *cg, cloop *l, LLVMValueRef start, LLVMValueRef n, const char *name);
LLVMValueRef kj_kn_loop_begin(kj_cg *cg, cloop *l, LLVMValueRef n, const char *name);
void kj_kn_loop_end(kj_cg *cg, cloop *l);
LLVMValueRef kj_kn_scope_begin(kj_cg *cg, cloop *l, const char *name);
/* if (exited[t]) goto next (kernels that may return early) */
LLVMBasicBlockRef kj_kn_skip_exited(kj_cg *cg, LLVMValueRef t, LLVMBasicBlockRef next);
/* element t of per-thread storage base of type t */
LLVMValueRef kj_kn_at_thread(kj_cg *cg, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef tid);
/* Inside a loop over the threads, at thread th: FOR `in`'s start, stop and
 * step (1 when absent) of type ty into abc[0..2], range()'s ValueError for a
 * zero step, and the start and step kept in the per-thread arrays. */
void kj_kn_range_at(kj_cg *cg, const kir_inst *in, LLVMTypeRef ty, LLVMValueRef th, LLVMValueRef start,
                    LLVMValueRef step, LLVMValueRef abc[3]);
LLVMTypeRef kj_kn_ref_type(kj_cg *cg, kir_ref r);
/* value r, read at block level, as thread th has it */
LLVMValueRef kj_kn_ref_at(kj_cg *cg, kir_ref r, LLVMValueRef th);
/* a statement that contains a barrier, once per block (or warp) */
void kj_kn_block_stmt(kj_cg *cg, kir_ref r);
/* the statements of block b, split into regions */
void kj_kn_seq(kj_cg *cg, kir_blkid b);
/* a block-level loop: break / continue targets, kn_div.left or NULL */
void kj_kn_push_bloop(kj_cg *cg, LLVMBasicBlockRef brk, LLVMBasicBlockRef cont, LLVMValueRef left);
/* zeroed per-thread storage of one t per thread (allocated at entry) */
LLVMValueRef kj_kn_per_thread(kj_cg *cg, LLVMTypeRef t, const char *name);
/* thread th's state byte */
LLVMValueRef kj_kn_state_ptr(kj_cg *cg, LLVMValueRef th);

/* llvm_kernel_warp.c */
void kj_kn_warp_op(kj_cg *cg, kir_ref r, const kir_inst *in);
void kj_kn_warp_scope(kj_cg *cg, kir_ref r);

/* llvm_kernel_div.c: divergence within a warp */
void kj_kn_div_prepare(kj_cg *cg, kir_ref r);
void kj_kn_warp_if(kj_cg *cg, kir_ref r);
void kj_kn_warp_loop(kj_cg *cg, kir_ref r);
void kj_kn_warp_jump(kj_cg *cg, const kir_inst *in);
/* per ref: an if / for / while that cannot diverge within a warp */
bool *kj_kn_find_uniform(kj_cg *cg, const kir_func *f);

#endif
