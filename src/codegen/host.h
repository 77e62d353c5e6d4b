/* SPDX-License-Identifier: BSD-2-Clause */
/* The host pipeline's files, for each other: host.c (the pipeline),
 * host_split.c (a program compiled as several modules), host_jit.c (ORC). */
#ifndef KJ_HOST_H
#define KJ_HOST_H

#include "codegen.h"

#include "../util/alloc.h"

/* The most modules a program is split into (threads compiling it). */
enum { KJ_HOST_MAX_PARTS = 64 };

/* One module on its way to an object file: the whole program, or one of the
 * parts of a split program. A part is used by one thread at a time. */
typedef struct part {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMTargetMachineRef tm;
    int opt_level;
    bool keep_ir, keep_asm, verify;
    LLVMMemoryBufferRef bitcode; /* parts 1..: the whole module (the pipeline's), parsed on their thread */
    const char **drop;           /* functions whose bodies go (the other parts'; names are the pipeline's) */
    uint32_t ndrop;
    char *ir, *asm_text; /* kept texts (malloc'd) */
    char *obj;           /* the object file (malloc'd), NULL when it failed */
    size_t obj_size;
    char *entry;         /* a NAME.entry it defines: looking it up links the part */
    char err[1024];      /* why it failed */
} part;

typedef struct pipeline {
    kj_codegen_opts o;
    kj_diags *d;
    const kir_module *km;
    LLVMTargetDataRef td;
    part *parts;     /* maxparts of them; nparts used */
    unsigned nparts, maxparts;
    LLVMMemoryBufferRef bitcode; /* a split program's whole module, read by parts 1.. */
    char **names;                /* a split program's function names (the parts' drop lists point here) */
    uint32_t nnames;
    LLVMValueRef main_fn;   /* main's LLVM function, or NULL */
    LLVMValueRef *outlined; /* @jit functions and helpers: main's calls of them stay calls */
    uint32_t noutlined;
} pipeline;

/* host.c: is fn one of the functions main's calls of stay calls? */
bool kj_host_is_outlined(const pipeline *p, LLVMValueRef fn);

/* host_split.c: divide p's module into up to p->maxparts parts when it
 * pays; a part's thread calls kj_host_divide to drop the other parts'
 * bodies. */
void kj_host_split(pipeline *p);
bool kj_host_divide(part *pt);

/* host_jit.c: a JIT over n object files (copied), linked by looking up
 * entries[k] of each (NULL: none); with keep, kj_jit_object gives their
 * bytes (one object, or a bundle of them). */
kj_jit *kj_jit_load(char *const *objs, const size_t *sizes, const char *const *entries, unsigned n, bool keep,
                    char *err, size_t cap);
/* j takes the kept texts (malloc'd, may be NULL). */
void kj_jit_keep_texts(kj_jit *j, char *ir, char *asm_text);
/* Code with nothing in it (a module whose code is all for the GPU). */
kj_jit *kj_jit_empty(void);

#endif
