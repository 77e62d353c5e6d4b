/* SPDX-License-Identifier: BSD-2-Clause */
/* KIR — kjit's typed, target-neutral IR.
 *
 * One kir_func per specialisation (function × argument types × where it
 * runs). Instructions live in one flat array per function and refer to each
 * other by index (kir_ref), LuaJIT/QBE style; there are no pointer graphs.
 * Control flow is *structured*: a block is an ordered list of instruction
 * refs, and IF / LOOP / FOR own sub-blocks. Structure is what the later
 * passes want: barrier regions for running kernels on the CPU, prange
 * splitting, and simple lowering to LLVM.
 *
 * Values: an instruction with a non-void type is a value, usable by any
 * instruction that comes after it in the same block or in a nested block.
 * Mutable variables are locals (LOCAL_GET / LOCAL_SET), left to LLVM's
 * mem2reg, so KIR needs no phis.
 *
 * Operand conventions per op are in the table: a, b, c are refs (0 = none;
 * ref 0 is a reserved NOP so that 0 can mean "absent"); `args` is a ref list;
 * `i`/`f`/`s` immediates; `aux` a small enum (builtin id, sreg, ...).
 *
 * Semantics that the op table alone does not say:
 * - Arithmetic, comparison, NEG/NOT/INVERT also apply to arrays (host code
 *   only): elementwise with NumPy broadcasting. The result type is the
 *   array type; an operand is then either an array (any ndim up to the
 *   result's) or a scalar already of the result's element type (for
 *   comparisons: of the promoted operand type).
 * - CAST converts scalars; between array types of equal element type and
 *   ndim it only changes the static layout (no run-time work).
 * - ARRAY_STORE with nargs == 0 assigns into the whole array `a` (a view
 *   made by ARRAY_VIEW): `b` is a scalar of the element type (fill) or an
 *   array broadcast into it (copy) — Python's a[1:-1] = b. With aux
 *   KIR_AUX_INPLACE it is an in-place operator (`a += x`): `b` is `a + x` of
 *   a's type, and a shape mismatch is NumPy's out= error (kir_fuse.c).
 * - ARRAY_VIEW args: one per leading dimension, either a SLICE value (parts
 *   0 = default, Python semantics incl. negatives and clamping) or an int64
 *   index already wrapped (the dimension is dropped).
 * - BUILTIN: arguments are in the order of the builtin's parameter list
 *   (builtins.h), receiver first for methods, 0 for an absent optional one;
 *   a dtype argument (np.float32 passed as dtype=) is a CONST_NONE whose type
 *   is dtype(T). The result type says everything codegen needs (e.g. the
 *   array type np.zeros creates).
 * - LAUNCH args: grid x, y, z, block x, y, z (int64), stream (0 = default),
 *   dynamic shared bytes (0 = none), then the kernel's arguments converted to
 *   its parameter types. `fn` is the kernel.
 * - UFUNC_CALL: `fn` is the scalar (@vectorize) or core (@guvectorize)
 *   function; args are the inputs (arrays, or scalars converted to the
 *   parameter type) followed by `aux` explicit output arrays (out=, or the
 *   gufunc's output arguments). The result type is the output (array, or a
 *   scalar when every input is a scalar), none when outputs were passed to a
 *   gufunc. The elementwise loop over broadcast shapes is the caller's.
 *   On the GPU `fn` is instead a kernel whose `applies` is the ufunc
 *   (kir_gpu_ufunc.h): the call launches it over the broadcast shape.
 * - ASSERT with aux KIR_ASSERT_VALUE raises ValueError with message s (the
 *   compiler's own checks, e.g. an empty reduction without identity); with
 *   aux KIR_ASSERT_RAISE + k the exception class of kind k (abi/exc.h): a
 *   `raise` statement, whose condition is the constant False.
 * - TRY starts a try statement: `IF TRY { body; TRY_END } else { handlers }`.
 *   The exception raised in the body, anywhere below it, makes the TRY
 *   return again, false; EXC_MATCH and RERAISE of the handlers name it by
 *   its TRY. Every way out of the body (its end, a return) passes a TRY_END.
 * - FLOORDIV/MOD on integers with aux KIR_AUX_NONZERO: the divisor is known
 *   not to be zero, and no ZeroDivisionError check is made (code the
 *   compiler writes itself, e.g. index arithmetic in kir_gpu_ufunc.c).
 * - UFUNC_REDUCE: NumPy's ufunc.reduce with the binary @vectorize function
 *   `fn` (specialised for a's element type twice) along axis aux - 1 of
 *   array a (aux 0: all of them, C order); from fn's identity when it has one, else
 *   from the first element. Host code only, and only until kir_reduce.c
 *   makes it a call of a function that loops (or launches) — codegen
 *   never sees it.
 *   With KIR_REDUCE_ACCUMULATE in aux it is fn.accumulate(a, axis=(aux &
 *   0xff) - 1) instead (an array of a's shape); with KIR_REDUCE_OUTER,
 *   fn.outer(a, b) (kir_ufunc_meth.c makes both loops); with KIR_REDUCE_AT,
 *   fn.at(a, b, c) (c = 0: a unary fn's fn.at(a, b)), of type None, which
 *   writes a in place.
 * - FOR/PFOR: the local `i` takes start, start+step, ... while < stop (or >
 *   stop for a negative step); assigning `i` in the body does not change the
 *   iteration (Python). Step 0 is a run-time error.
 * - A local is zero-initialised at function entry. */
#ifndef KJ_KIR_H
#define KJ_KIR_H

#include "../util/arena.h"
#include "../util/buf.h"
#include "../util/diag.h"
#include "target.h"
#include "types.h"

typedef uint32_t kir_ref;   /* index into kir_func.insts; 0 = none */
typedef uint32_t kir_blkid; /* index into kir_func.blocks */

/* X(NAME, "print name", operands) */
#define KIR_OPS(X)                                                                         \
    X(NOP, "nop", "")                                                                      \
    /* constants and parameters */                                                         \
    X(CONST_INT, "const", "i")          /* type int/bool: value in i */                    \
    X(CONST_FLOAT, "const", "f")        /* type float: value in f */                       \
    X(CONST_STR, "str", "s")            /* type str: s (arena, NUL-terminated) */          \
    X(CONST_NONE, "none", "")                                                              \
    X(CONST_ARRAY, "frozen", "")        /* a frozen module-level array: frozen (resolve_frozen.c) */ \
    X(MODULE_GET, "modget", "")         /* a script's module slot, read: frozen (resolve_modslot.c) */ \
    X(MODULE_SET, "modset", "a")        /* <module> binds the slot to a: frozen */ \
    X(PARAM, "param", "i")              /* i = parameter index */                          \
    /* locals (mutable variables) */                                                       \
    X(LOCAL_GET, "get", "i")            /* i = local index */                              \
    X(LOCAL_SET, "set", "i a")          /* local i := a */                                 \
    /* arithmetic: both operands already of the result type (lowering inserts CASTs) */   \
    X(ADD, "add", "a b") X(SUB, "sub", "a b") X(MUL, "mul", "a b")                         \
    X(DIV, "div", "a b")                /* float division */                               \
    X(FLOORDIV, "floordiv", "a b")      /* Python floor semantics, int and float */        \
    X(MOD, "mod", "a b")                /* Python: sign of the divisor */                  \
    X(POW, "pow", "a b")                /* int**int stays int; float**float */             \
    X(AND, "and", "a b") X(OR, "or", "a b") X(XOR, "xor", "a b")                           \
    X(SHL, "shl", "a b") X(SHR, "shr", "a b")                                              \
    X(NEG, "neg", "a") X(NOT, "not", "a") /* NOT: bool → bool */                           \
    X(INVERT, "invert", "a")            /* bitwise ~ on ints; on bool = not */             \
    /* comparisons: operands of one type, result bool */                                   \
    X(EQ, "eq", "a b") X(NE, "ne", "a b") X(LT, "lt", "a b") X(LE, "le", "a b")            \
    X(GT, "gt", "a b") X(GE, "ge", "a b")                                                  \
    X(CAST, "cast", "a")                /* scalar conversion to the inst's type */         \
    X(SELECT, "select", "a b c")        /* a ? b : c, both evaluated (pure values) */      \
    /* tuples */                                                                           \
    X(TUPLE, "tuple", "args")                                                              \
    X(TUPLE_GET, "tuple_get", "a i")                                                       \
    /* arrays: indices are already wrapped and in range (see WRAP_INDEX/BOUNDS_CHECK) */   \
    X(ARRAY_DIM, "dim", "a i")          /* extent of dimension i, int64 */                 \
    X(ARRAY_LOAD, "load", "a args")     /* a[args...], one int64 per dimension */          \
    X(ARRAY_STORE, "store", "a b args") /* a[args...] = b */                               \
    X(ARRAY_VIEW, "view", "a args")     /* slicing: args = per dim SLICE or index */       \
    X(SLICE, "slice", "a b c")          /* start, stop, step (0 = default), for VIEW */    \
    X(WRAP_INDEX, "wrap", "a b")        /* a < 0 ? a + b : a  (b = extent) */              \
    X(BOUNDS_CHECK, "boundscheck", "a b i") /* 0 <= a < b, i = dimension; traps with loc;  */\
                                            /* aux 1: the index was unsigned (shown so) */   \
    /* calls */                                                                            \
    X(CALL, "call", "fn args")          /* another specialisation (kir_func) */            \
    X(BUILTIN, "builtin", "aux args")   /* aux = kj_builtin; args bound in table order, */ \
                                        /* 0 = an absent optional argument */              \
    X(LAUNCH, "launch", "fn args")      /* kernel launch: args = grid3, block3,         */ \
                                        /* stream, shared_bytes, then kernel args        */ \
    X(UFUNC_CALL, "ufunc", "fn args")   /* apply a @vectorize/@guvectorize over arrays */  \
    X(UFUNC_REDUCE, "reduce", "fn a aux") /* fn.reduce(a, axis=aux-1); aux 0: every axis */ \
    /* statements */                                                                       \
    X(ASSERT, "assert", "a b s")        /* a = condition, s = message or NULL, b = a str   \
                                           value for it made at run time (host code) or 0 */ \
    X(RETURN, "return", "a")            /* a = value or 0 */                               \
    X(BREAK, "break", "")                                                                  \
    X(CONTINUE, "continue", "")                                                            \
    /* try statements (host code; kir.h's notes, lower_try.c) */                           \
    X(TRY, "try", "")                   /* bool: true into the body, false when caught */  \
    X(TRY_END, "try_end", "a")          /* a = TRY: its body is left without exception */  \
    X(EXC_MATCH, "exc_match", "a")      /* bool: a's exception is of class aux (exc.h) */  \
    X(RERAISE, "reraise", "a")          /* raise a's exception again */                    \
    X(EXC_VALUE, "exc_value", "a")      /* host code: a's exception, as its str() */       \
    /* structured control flow */                                                          \
    X(IF, "if", "a then else")          /* a = bool condition */                           \
    X(LOOP, "loop", "body")             /* loop { body } until BREAK (while loops) */     \
    X(FOR, "for", "i a b c body")       /* for local i in range(a, b, c) { body } */      \
    X(PFOR, "pfor", "i a b c body")     /* prange: iterations may run in parallel */ \
    /* generators (host code; llvm_pygen.c) */                                             \
    X(YIELD, "yield", "a")              /* a generator's body: a = value of its yield type */ \
    X(GEN_NEXT, "gen_next", "a")        /* bool: resume generator a; false when exhausted */ \
    X(GEN_VALUE, "gen_value", "a")      /* what generator a yielded last (after a true GEN_NEXT) */

enum { KIR_AUX_NONZERO = 1 }; /* FLOORDIV/MOD: the divisor is never zero */
enum { KIR_AUX_INPLACE = 1 };  /* whole ARRAY_STORE of `a op= b`: `b` is `a op b`, NumPy's op(a, b, out=a) */
/* ASSERT: aux 0 raises AssertionError; VALUE: ValueError; RAISE + k: the
 * class whose kind (abi/exc.h) is k, a `raise` statement's (ir/raise.c) */
enum { KIR_ASSERT_VALUE = 1, KIR_ASSERT_RAISE = 2 };
const char *kir_exc_name(int kind); /* the class of kind k (ir/raise.c) */

typedef enum {
#define X(name, str, operands) KIR_##name,
    KIR_OPS(X)
#undef X
        KIR__COUNT
} kir_op;

typedef struct kir_func kir_func;

/* A module-level NumPy array frozen into compiled code as Numba freezes
 * globals (resolve_frozen.c): its elements, row-major, as doubles (float
 * dtypes) or int64s (int and bool dtypes); the element type and shape are
 * the CONST_ARRAY's type and shape. */
typedef struct kir_frozen {
    const char *name; /* the module-level name, for the generated global */
    uint32_t ndim;
    int64_t shape[4];
    uint64_t n;       /* the element count */
    const double *f;  /* float elements, or NULL */
    const int64_t *i; /* int and bool elements, or NULL */
    /* A module slot instead (MODULE_GET/SET, resolve_modslot.c): a value
     * computed when the script runs, read from the run's slot `slot_index` */
    bool slot;
    uint32_t slot_index;
} kir_frozen;

typedef struct kir_inst {
    uint16_t op;  /* kir_op */
    uint16_t aux; /* kj_builtin for BUILTIN */
    const kj_type *type; /* result type; KJ_T_NONE for statements */
    kj_span span;        /* source location, for run-time errors and debug info */
    kir_ref a, b, c;
    union {
        int64_t i;
        double f;
        const char *s;
        kir_func *fn;      /* CALL, LAUNCH, UFUNC_CALL */
        const kir_frozen *frozen; /* CONST_ARRAY, MODULE_GET, MODULE_SET */
    };
    kir_ref *args;         /* TUPLE, ARRAY_*, CALL, BUILTIN, LAUNCH, UFUNC_CALL */
    uint32_t nargs;
    kir_blkid blk[2];      /* IF: then, else; LOOP/FOR/PFOR: body in blk[0] */
} kir_inst;

typedef struct kir_block {
    kir_ref *v;
    uint32_t n, cap;
} kir_block;

enum { KIR_REDUCE_ACCUMULATE = 0x100, KIR_REDUCE_OUTER = 0x200, KIR_REDUCE_AT = 0x400 }; /* UFUNC_REDUCE's aux: other methods */

/* A @vectorize function's identity= (what its reduce starts from). */
typedef struct kir_identity {
    bool has;         /* a value: 0, 1, -1, 2.5 ... (f holds it; i too when integral) */
    bool reorderable; /* may reduce over several axes at once (any value, or 'reorderable') */
    bool integral;    /* a whole number an int64 holds (i) */
    int64_t i;
    double f;
} kir_identity;

typedef struct kir_local {
    const char *name; /* source name, or NULL for a temporary */
    const kj_type *type;
} kir_local;

/* What a function is, which decides how it is called and compiled. */
typedef enum {
    KIR_FN_MAIN,    /* host entry point */
    KIR_FN_HOST,    /* undecorated helper or @jit specialised for the host */
    KIR_FN_KERNEL,  /* @cuda.jit grid kernel (returns none) */
    KIR_FN_DEVICE,  /* @cuda.jit(device=True), or @jit called from device code */
    KIR_FN_UFUNC,   /* @vectorize scalar kernel: the per-element function */
    KIR_FN_GUFUNC,  /* @guvectorize core function */
} kir_fn_kind;

struct kir_func {
    const char *name;    /* source name */
    const char *mangled; /* unique: name + argument types, e.g. add[float32,float32] */
    kir_fn_kind kind;
    kj_span span;
    const kj_type **params;
    const char **param_names;
    uint32_t nparams;
    const kj_type *ret;
    kir_inst *insts;
    uint32_t ninsts, cap_insts;
    kir_block *blocks; /* blocks[0] is the body */
    uint32_t nblocks, cap_blocks;
    kir_local *locals;
    uint32_t nlocals, cap_locals;
    /* Options from the decorator. */
    bool fastmath, boundscheck;
    bool generator; /* its body yields (YIELD): ret is generator(T), a coroutine (llvm_pygen.c) */
    bool lineinfo; /* lineinfo=True or debug=True: line tables in the PTX (llvm_lineinfo.c) */
    /* Python's error model (host code and @jit without error_model='numpy'):
     * float / // % by zero raise ZeroDivisionError instead of giving inf/nan. */
    bool py_errors;
    /* Host code (main, undecorated helpers): its dict displays are Python dicts, printed by repr
     * ({'a': 1}), where a @jit function's are numba.typed.Dicts ({a: 1}; llvm_dict.c). */
    bool pycode;
    const char *gu_layout;     /* GUFUNC: the layout string */
    kir_identity identity;     /* UFUNC: identity= */
    /* UFUNC made by kir_fuse.c: '!' then the expression in postfix (leaf
     * parameters 'a'.., '.' a constant, "2L:C;" an operator of 1-3
     * operands at line L, column C), for NumPy's broadcast error message
     * at the operator that fails; else NULL. */
    const char *fuse_tree;
    kj_run_target target;      /* decorator's target= (or parallel=True); DEFAULT: none */
    /* KERNEL written for ufunc calls on the GPU (kir_gpu_ufunc.c): the
     * @vectorize or @guvectorize function it applies, else NULL. */
    const kir_func *applies;
    /* KERNEL: the thread-layout permutation kir_layout.c chose (abi.h's
     * kj_abi_kernel.perm encoding; 0: none): threadIdx and blockDim of
     * logical dimension d are read from physical dimension
     * kj_abi_perm_dim(layout_perm, d), and its launches permute the block. */
    int32_t layout_perm;
    /* KERNEL: also compiled with 32-bit index arithmetic, a second GPU
     * entry launched when the arguments fit (kir_index32.h) */
    bool index32;
    /* KERNEL, cpu target: its blocks may be regrouped along the innermost
     * thread loop's dimension (kir_regroup.h) */
    bool regroup;
    /* HOST function whose array arguments only go to launches (kir_reduce.c's
     * GPU side): its callers need not bring them back to the host. */
    bool launches_only;
};

typedef struct kir_module {
    const kj_source *src;
    kir_func **funcs; /* in dependency order is not guaranteed; callees by pointer */
    uint32_t nfuncs, cap_funcs;
    kir_func *main;   /* NULL when the program has no main */
} kir_module;

/* ---- building ---- */
kir_module *kir_module_new(kj_arena *a, const kj_source *src);
kir_func *kir_func_new(kj_arena *a, kir_module *m, const char *name, const char *mangled,
                       kir_fn_kind kind);
kir_blkid kir_block_new(kj_arena *a, kir_func *f);
uint32_t kir_local_new(kj_arena *a, kir_func *f, const char *name, const kj_type *type);
/* Append a new instruction at the end of block `b`; returns its ref. The
 * caller fills operands through kir_at(). */
kir_ref kir_emit(kj_arena *a, kir_func *f, kir_blkid b, kir_op op, const kj_type *type, kj_span sp);
static inline kir_inst *kir_at(kir_func *f, kir_ref r) { return &f->insts[r]; }
kir_ref *kir_refs(kj_arena *a, const kir_ref *v, uint32_t n); /* copy a ref list */
/* The function of m with this mangled name, or NULL. */
kir_func *kir_module_find(const kir_module *m, const char *mangled);

/* Does f (a kernel or device function) never write through array
 * parameter k — no store, atomic or call that might, into it or a view of
 * it? Conservative: an array passed anywhere else counts as written. */
bool kir_param_read_only(const kir_func *f, uint32_t k);
bool kir_param_read_only_at(const kir_func *f, uint32_t k, int depth); /* calls followed to depth 8 */
/* Does f write array parameter k, as Numba's typing of a readonly array
 * would find it (a store, fill, sort, atomic or ufunc out into it or a view
 * of it, or a callee that writes it)? kir_readonly.c; src/api/writes.c. */
bool kj_kir_writes_param(const kir_func *f, uint32_t k);
/* The module slots f reads, itself or through what it calls, each once: a
 * MODULE_GET of each in *out (from a), and their number (kir_slots.c). */
uint32_t kir_slot_reads(const kir_func *f, kj_arena *a, const kir_inst ***out);

/* ---- checking and printing ---- */
/* Structural checks: operand refs defined before use and visible (same or
 * enclosing block), operand types as the op requires, blocks owned once.
 * Returns NULL when valid, else a description of the first problem (arena). */
const char *kir_verify(kj_arena *a, const kir_func *f);
void kir_print_func(const kir_func *f, kj_buf *out);
void kir_print_module(const kir_module *m, kj_buf *out);
const char *kir_op_name(kir_op op);

#endif
