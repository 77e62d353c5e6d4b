/* SPDX-License-Identifier: BSD-2-Clause */
/* The one declaration of each run-time function (src/abi/rtfns.def): the
 * signature letter of every parameter and result agrees with its C type;
 * the code generator's LLVM declaration of every row has the C
 * prototype's shape (as many parameters, each of the C type's size,
 * pointers as pointers, noreturn where the row says so); every row is in
 * the JIT's symbol table at the function's address. That a definition the
 * row disagrees with does not compile is tests/abi/rtfns_mismatch.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "codegen/codegen.h"

/* The letter a C type must have ('?': a type no letter stands for). */
#define C_LETTER(type)                                                                        \
    _Generic((type *)0, void *: 'v', int32_t *: 'i', int64_t *: 'l', float *: 'f', double *: 'd', \
             char *: '?', signed char *: '?', unsigned char *: '?', short *: '?',                \
             unsigned short *: '?', unsigned *: '?', unsigned long *: '?', long long *: '?',      \
             unsigned long long *: '?', long double *: '?', _Bool *: '?', default: 'p')
#define C_SIZE(type) _Generic((type *)0, void *: (size_t)0, default: sizeof(type))

typedef struct {
    char letter; /* as the row writes it (0: no parameters) */
    char c_letter;
    size_t size;
} arg;

typedef struct {
    const char *name;
    kj_rtfn id;
    unsigned flags;
    void (*addr)(void);
    arg ret;
    arg params[KJ_RTSIG_MAX];
} row;

#define KJ_UNPAREN(...) __VA_ARGS__
#define KJ_RTARG(letter, type, name) {letter, C_LETTER(type), C_SIZE(type)}
static const row rows[] = {
#define KJ_RTFN(id, fn, flags, ret, params) \
    {#fn, KJ_RTF_##id, KJ_RTF_##flags, (void (*)(void))(fn), ret, {KJ_UNPAREN params}},
#include "abi/rtfns.def"
};
#undef KJ_RTARG
enum { NROWS = sizeof rows / sizeof rows[0] };

static unsigned nparams(const row *r)
{
    unsigned n = 0;
    while (n < KJ_RTSIG_MAX && r->params[n].letter) n++;
    return n;
}

static void test_one_row_per_function(void **state)
{
    (void)state;
    assert_int_equal(NROWS, KJ_RTF__COUNT);
    for (unsigned i = 0; i < NROWS; i++) assert_int_equal(rows[i].id, i);
}

static void test_letters_agree_with_c_types(void **state)
{
    (void)state;
    for (unsigned i = 0; i < NROWS; i++) {
        const row *r = &rows[i];
        const arg *ret = &r->ret;
        if (ret->letter != ret->c_letter)
            fail_msg("%s: result is '%c' for a C '%c'", r->name, ret->letter, ret->c_letter);
        for (unsigned k = 0; k < nparams(r); k++) {
            const arg *a = &r->params[k];
            if (a->letter != a->c_letter)
                fail_msg("%s: parameter %u is '%c' for a C '%c'", r->name, k, a->letter, a->c_letter);
        }
    }
}

static void check_type(const char *name, unsigned k, LLVMTargetDataRef td, LLVMTypeRef t, const arg *a)
{
    if (a->c_letter == 'v') {
        if (LLVMGetTypeKind(t) != LLVMVoidTypeKind) fail_msg("%s: %u is not void in LLVM", name, k);
        return;
    }
    bool ptr = LLVMGetTypeKind(t) == LLVMPointerTypeKind;
    if (ptr != (a->c_letter == 'p')) fail_msg("%s: %u is %sa pointer in LLVM only", name, k, ptr ? "" : "not ");
    if (LLVMABISizeOfType(td, t) != a->size)
        fail_msg("%s: %u has %llu bytes in LLVM, %zu in C", name, k, LLVMABISizeOfType(td, t), a->size);
}

static void test_llvm_declarations_have_the_c_shape(void **state)
{
    (void)state;
    char *err = NULL;
    LLVMTargetMachineRef tm = kj_llvm_host_tm(0, &err);
    assert_non_null(tm);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("rtfns", ctx);
    kj_cg cg;
    kj_cg_init(&cg, ctx, mod, NULL, NULL, NULL);
    unsigned noreturn = LLVMGetEnumAttributeKindForName("noreturn", 8);
    for (unsigned i = 0; i < NROWS; i++) {
        const row *r = &rows[i];
        LLVMValueRef f = kj_cg_rtfn_decl(&cg, r->id);
        size_t len;
        assert_string_equal(LLVMGetValueName2(f, &len), r->name);
        LLVMTypeRef fty = LLVMGlobalGetValueType(f);
        unsigned n = LLVMCountParamTypes(fty);
        if (n != nparams(r)) fail_msg("%s: %u parameters in LLVM, %u in C", r->name, n, nparams(r));
        LLVMTypeRef ps[KJ_RTSIG_MAX];
        LLVMGetParamTypes(fty, ps);
        check_type(r->name, 0, td, LLVMGetReturnType(fty), &r->ret);
        for (unsigned k = 0; k < n; k++) check_type(r->name, k + 1, td, ps[k], &r->params[k]);
        bool nr = LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noreturn) != NULL;
        assert_int_equal(nr, (r->flags & KJ_RTF_NORETURN) != 0);
    }
    kj_cg_dispose(&cg);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
    LLVMDisposeTargetData(td);
    LLVMDisposeTargetMachine(tm);
}

static void test_every_row_is_a_jit_symbol(void **state)
{
    (void)state;
    size_t n;
    const kj_jit_symbol *syms = kj_jit_symbols(&n);
    for (unsigned i = 0; i < NROWS; i++) {
        size_t k = 0;
        while (k < n && strcmp(syms[k].name, rows[i].name)) k++;
        if (k == n) fail_msg("%s is not a JIT symbol", rows[i].name);
        assert_ptr_equal(syms[k].addr, rows[i].addr);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_row_per_function),
        cmocka_unit_test(test_letters_agree_with_c_types),
        cmocka_unit_test(test_llvm_declarations_have_the_c_shape),
        cmocka_unit_test(test_every_row_is_a_jit_symbol),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
