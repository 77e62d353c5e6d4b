/* SPDX-License-Identifier: BSD-2-Clause */
/* ORC LLJIT for the host pipeline (host.c): a kj_jit loads the object
 * files of a program (one, or the parts of a split program), resolves
 * the runtime's and libm's symbols from a table of addresses (kj_jit_symbols),
 * so they resolve even when libkjit.so was loaded with RTLD_LOCAL, plus a
 * process-symbol generator for anything else LLVM may emit a call to, and
 * keeps the bytes the compile cache stores (kj_jit_object). */
#include "host.h"
#include "../runtime/mvec.h"

#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kj_jit {
    LLVMOrcLLJITRef jit;
    char *ir, *asm_text;
    void *obj;
    size_t obj_size;
};

/* Consume an LLVMErrorRef into err; true when there was an error. */
static bool take_error(LLVMErrorRef e, char *err, size_t cap, const char *what)
{
    if (!e) return false;
    char *msg = LLVMGetErrorMessage(e);
    snprintf(err, cap, "%s: %s", what, msg);
    LLVMDisposeErrorMessage(msg);
    return true;
}

/* ORC reports some errors (failed lookups, unresolved symbols) to the
 * session as well as to the caller; the caller's copy is the one we use. */
static void ignore_session_error(void *ctx, LLVMErrorRef e)
{
    (void)ctx;
    LLVMConsumeError(e);
}

/* Runtime, libm and libmvec symbols at their addresses in this process
 * (libmvec's NULL ones, missing from this glibc, left out). */
static LLVMErrorRef define_symbols(LLVMOrcLLJITRef jit)
{
    size_t nrt, nvec, n = 0;
    const kj_jit_symbol *rt = kj_jit_symbols(&nrt);
    const kj_mvec *vec = kj_mvec_table(&nvec);
    LLVMOrcCSymbolMapPair *pairs = calloc(nrt + nvec, sizeof *pairs);
    if (!pairs) abort();
    for (size_t k = 0; k < nrt + nvec; k++) {
        const char *name = k < nrt ? rt[k].name : vec[k - nrt].sym;
        void (*addr)(void) = k < nrt ? rt[k].addr : vec[k - nrt].addr;
        if (!addr) continue;
        pairs[n].Name = LLVMOrcLLJITMangleAndIntern(jit, name);
        pairs[n].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)addr;
        pairs[n++].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
    }
    LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, n);
    free(pairs);
    return LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(jit), mu);
}

static kj_jit *jit_new(char *err, size_t cap)
{
    kj_llvm_init_once();
    kj_jit *j = calloc(1, sizeof *j);
    if (!j) abort();
    if (take_error(LLVMOrcCreateLLJIT(&j->jit, NULL), err, cap, "cannot create the JIT")) {
        free(j);
        return NULL;
    }
    LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(j->jit), ignore_session_error,
                                            NULL);
    LLVMOrcDefinitionGeneratorRef gen;
    if (take_error(define_symbols(j->jit), err, cap, "cannot define runtime symbols") ||
        take_error(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
                       &gen, LLVMOrcLLJITGetGlobalPrefix(j->jit), NULL, NULL),
                   err, cap, "cannot search process symbols")) {
        kj_jit_free(j);
        return NULL;
    }
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(j->jit), gen);
    return j;
}

/* Add an object file (the buffer is consumed). */
static bool add_object(kj_jit *j, LLVMMemoryBufferRef buf, char *err, size_t cap)
{
    return !take_error(LLVMOrcLLJITAddObjectFile(j->jit, LLVMOrcLLJITGetMainJITDylib(j->jit), buf), err, cap,
                       "cannot load the object file");
}

/* The bytes kj_jit_object gives (what the cache stores): the object file of
 * a program compiled as one module, or for one compiled in parts a bundle
 *   "KJOBJS1\0", u64 count, count x u64 size, the objects back to back
 * (native byte order: the cache key includes the host). */
static const char bundle_magic[8] = "KJOBJS1";

static bool add_copy(kj_jit *j, const char *obj, size_t size, char *err, size_t cap)
{
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, size, "kjit-object");
    return add_object(j, buf, err, cap);
}

static bool add_bundle(kj_jit *j, const char *b, size_t size, char *err, size_t cap)
{
    uint64_t n = 0;
    if (size >= 16) memcpy(&n, b + 8, 8);
    if (size < 16 || n == 0 || n > (size - 16) / 8) {
        snprintf(err, cap, "cannot load the object file: truncated bundle");
        return false;
    }
    size_t at = 16 + 8 * (size_t)n;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t len;
        memcpy(&len, b + 16 + 8 * k, 8);
        if (len > size - at) {
            snprintf(err, cap, "cannot load the object file: truncated bundle");
            return false;
        }
        if (!add_copy(j, b + at, (size_t)len, err, cap)) return false;
        at += (size_t)len;
    }
    return true;
}

kj_jit *kj_jit_from_object(const void *obj, size_t size, char *err, size_t cap)
{
    kj_jit *j = jit_new(err, cap);
    if (!j) return NULL;
    bool bundle = size >= sizeof bundle_magic && !memcmp(obj, bundle_magic, sizeof bundle_magic);
    if (!(bundle ? add_bundle(j, obj, size, err, cap) : add_copy(j, obj, size, err, cap))) {
        kj_jit_free(j);
        return NULL;
    }
    return j;
}

kj_jit *kj_jit_empty(void)
{
    kj_jit *j = calloc(1, sizeof *j);
    if (!j) abort();
    return j;
}

static void *lookup_symbol(kj_jit *j, const char *name, char *err, size_t cap)
{
    LLVMOrcExecutorAddress addr = 0;
    if (!j->jit) return NULL; /* kj_jit_empty's */
    LLVMErrorRef e = LLVMOrcLLJITLookup(j->jit, &addr, name);
    if (e) {
        if (err) take_error(e, err, cap, "cannot link the generated code");
        else LLVMConsumeError(e);
        return NULL;
    }
    return (void *)(uintptr_t)addr;
}

static void *lookup(kj_jit *j, const char *mangled, char *err, size_t cap)
{
    size_t n = strlen(mangled);
    char *name = malloc(n + 7);
    if (!name) abort();
    memcpy(name, mangled, n);
    memcpy(name + n, ".entry", 7);
    void *addr = lookup_symbol(j, name, err, cap);
    free(name);
    return addr;
}

kj_entry_fn kj_jit_lookup(kj_jit *j, const char *mangled)
{
    void *p = j ? lookup(j, mangled, NULL, 0) : NULL;
    kj_entry_fn fn;
    memcpy(&fn, &p, sizeof fn); /* object pointer → function pointer */
    return p ? fn : NULL;
}

void *kj_jit_address(kj_jit *j, const char *name) { return j ? lookup_symbol(j, name, NULL, 0) : NULL; }

const char *kj_jit_ir(const kj_jit *j) { return j ? j->ir : NULL; }
const char *kj_jit_asm(const kj_jit *j) { return j ? j->asm_text : NULL; }

const void *kj_jit_object(const kj_jit *j, size_t *size)
{
    *size = j ? j->obj_size : 0;
    return j ? j->obj : NULL;
}

void kj_jit_free(kj_jit *j)
{
    if (!j) return;
    if (j->jit) {
        LLVMErrorRef e = LLVMOrcDisposeLLJIT(j->jit);
        if (e) LLVMConsumeError(e);
    }
    free(j->ir);
    free(j->asm_text);
    free(j->obj);
    free(j);
}

/* The objects as kj_jit_object gives them: the object itself, or a bundle. */
static void keep_objects(kj_jit *j, char *const *objs, const size_t *sizes, unsigned n)
{
    if (n == 1) {
        j->obj = malloc(sizes[0]);
        if (!j->obj) abort();
        memcpy(j->obj, objs[0], sizes[0]);
        j->obj_size = sizes[0];
        return;
    }
    size_t size = 16 + 8 * (size_t)n;
    for (unsigned k = 0; k < n; k++) size += sizes[k];
    char *b = malloc(size);
    if (!b) abort();
    memcpy(b, bundle_magic, 8);
    uint64_t count = n;
    memcpy(b + 8, &count, 8);
    size_t at = 16 + 8 * (size_t)n;
    for (unsigned k = 0; k < n; k++) {
        uint64_t len = sizes[k];
        memcpy(b + 16 + 8 * k, &len, 8);
        memcpy(b + at, objs[k], len);
        at += len;
    }
    j->obj = b;
    j->obj_size = size;
}


kj_jit *kj_jit_load(char *const *objs, const size_t *sizes, const char *const *entries, unsigned n, bool keep,
                    char *err, size_t cap)
{
    kj_jit *j = jit_new(err, cap);
    if (!j) return NULL;
    bool ok = true;
    for (unsigned k = 0; ok && k < n; k++) ok = add_copy(j, objs[k], sizes[k], err, cap);
    /* looking up an entry of each object links it now: unresolved symbols
     * are compile errors rather than failures at call time */
    for (unsigned k = 0; ok && k < n; k++) ok = !entries[k] || lookup_symbol(j, entries[k], err, cap);
    if (!ok) {
        kj_jit_free(j);
        return NULL;
    }
    if (keep) keep_objects(j, objs, sizes, n);
    return j;
}

void kj_jit_keep_texts(kj_jit *j, char *ir, char *asm_text)
{
    j->ir = ir;
    j->asm_text = asm_text;
}
