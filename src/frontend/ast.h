/* SPDX-License-Identifier: BSD-2-Clause */
/* The AST: tagged unions with the common fields first; kinds from X-macros.
 * Every node carries its span. Expressions carry an `id`, unique within the
 * enclosing function (or within the module's top level), so that each
 * specialisation of a function can keep its own per-expression tables
 * (types, resolutions) indexed by id without touching the shared tree. */
#ifndef KJ_AST_H
#define KJ_AST_H

#include "../util/diag.h"

#include <stdbool.h>
#include <stdint.h>

#define KJ_EXPR_KINDS(X)                                                                   \
    X(INT) X(FLOAT) X(STR) X(BOOL) X(NONE) X(NAME) X(ATTR) X(CALL) X(SUBSCRIPT) X(SLICE)   \
    X(TUPLE) X(LIST) X(BINOP) X(UNARY) X(BOOLOP) X(COMPARE) X(IFEXP) X(IMAG)        \
    X(DICT) X(SET)

typedef enum {
#define X(n) KJ_E_##n,
    KJ_EXPR_KINDS(X)
#undef X
        KJ_E__COUNT
} kj_expr_kind;

/* X(name, python spelling) */
#define KJ_BINOPS(X)                                                                       \
    X(ADD, "+") X(SUB, "-") X(MUL, "*") X(DIV, "/") X(FLOORDIV, "//") X(MOD, "%")          \
    X(POW, "**") X(MATMUL, "@") X(LSHIFT, "<<") X(RSHIFT, ">>") X(BITAND, "&")             \
    X(BITOR, "|") X(BITXOR, "^")
typedef enum {
#define X(n, s) KJ_OP_##n,
    KJ_BINOPS(X)
#undef X
        KJ_OP__COUNT
} kj_binop;

#define KJ_UNOPS(X) X(NEG, "-") X(POS, "+") X(NOT, "not") X(INVERT, "~")
typedef enum {
#define X(n, s) KJ_UOP_##n,
    KJ_UNOPS(X)
#undef X
        KJ_UOP__COUNT
} kj_unop;

#define KJ_CMPOPS(X)                                                                       \
    X(EQ, "==") X(NE, "!=") X(LT, "<") X(LE, "<=") X(GT, ">") X(GE, ">=") X(IS, "is")      \
    X(ISNOT, "is not") X(IN, "in") X(NOTIN, "not in")
typedef enum {
#define X(n, s) KJ_CMP_##n,
    KJ_CMPOPS(X)
#undef X
        KJ_CMP__COUNT
} kj_cmpop;

typedef enum { KJ_BOOL_AND, KJ_BOOL_OR } kj_boolop;

typedef struct kj_expr kj_expr;
typedef struct kj_stmt kj_stmt;
typedef struct kj_funcdef kj_funcdef;

typedef struct kj_keyword {
    const char *name; /* arena string */
    kj_span span;     /* of the name */
    kj_expr *value;
} kj_keyword;

struct kj_expr {
    kj_expr_kind kind;
    kj_span span; /* the whole expression */
    uint32_t id;
    union {
        struct { uint64_t value; bool big; } int_;     /* INT: big = over 64 bits */
        double float_;                                 /* FLOAT; IMAG: the imaginary part */
        struct { const char *s; uint32_t len; bool fstr, bytes; } str; /* STR: adjacent literals joined;
                                                  fstr: the format of an f-string (parser_fstring.c) */
        bool bool_;                                    /* BOOL */
        const char *name;                              /* NAME (arena string) */
        struct { kj_expr *obj; const char *name; kj_span name_span; } attr;   /* ATTR */
        struct {                                                             /* CALL */
            kj_expr *fn;
            kj_expr **args;
            uint32_t nargs;
            kj_keyword *kw;
            uint32_t nkw;
        } call;
        struct { kj_expr *obj; kj_expr *index; } sub;  /* SUBSCRIPT: a[i, j] → index is TUPLE */
        struct { kj_expr *lo, *hi, *step; } slice;     /* SLICE: any part may be NULL */
        struct { kj_expr **v; uint32_t n; } seq;       /* TUPLE, LIST, SET; DICT: k0, v0, k1, v1, ... */
        struct { kj_binop op; kj_expr *l, *r; } bin;   /* BINOP */
        struct { kj_unop op; kj_expr *x; } un;         /* UNARY */
        struct { kj_boolop op; kj_expr *l, *r; } boolop; /* BOOLOP: a and b and c nests left */
        struct {                                       /* COMPARE: a < b <= c */
            kj_expr **operands; /* n */
            kj_cmpop *ops;      /* n - 1 */
            uint32_t n;
        } cmp;
        struct { kj_expr *cond, *then, *els; } ifexp;  /* IFEXP: then if cond else els */
    };
};

#define KJ_STMT_KINDS(X)                                                                   \
    X(EXPR) X(ASSIGN) X(AUGASSIGN) X(IF) X(WHILE) X(FOR) X(BREAK) X(CONTINUE) X(RETURN)    \
    X(PASS) X(ASSERT) X(DEF) X(IMPORT) X(FROM_IMPORT) X(WITH) X(RAISE) X(TRY)    \
    X(EXCEPT) X(GLOBAL) X(YIELD)

typedef enum {
#define X(n) KJ_S_##n,
    KJ_STMT_KINDS(X)
#undef X
        KJ_S__COUNT
} kj_stmt_kind;

typedef enum { KJ_EXCEPT_HANDLER, KJ_EXCEPT_ELSE, KJ_EXCEPT_FINALLY } kj_except_kind;

typedef struct kj_block {
    kj_stmt **v;
    uint32_t n;
} kj_block;

/* `import numpy as np` / `from numba import cuda as c`: one alias each. */
typedef struct kj_alias {
    const char *name;   /* dotted module path for IMPORT, plain name for FROM_IMPORT */
    const char *asname; /* NULL when absent */
    kj_span span;
} kj_alias;

struct kj_stmt {
    kj_stmt_kind kind;
    kj_span span; /* the statement's first line, from its first token */
    union {
        kj_expr *expr; /* EXPR */
        struct {       /* ASSIGN: t0 = t1 = value  (targets may be TUPLE for unpacking) */
            kj_expr **targets;
            uint32_t ntargets;
            kj_expr *value;
        } assign;
        struct { kj_binop op; kj_expr *target; kj_expr *value; } aug; /* AUGASSIGN */
        struct { kj_expr *cond; kj_block then, els; } if_; /* IF: elif is an IF alone in els */
        struct { kj_expr *cond; kj_block body; } while_;   /* WHILE */
        struct { kj_expr *ctx, *target; kj_block body; } with; /* WITH: one item; target: `as` (or NULL) */
        struct { kj_expr *target; kj_expr *iter; kj_block body; } for_; /* FOR */
        struct { kj_expr *value; } ret;                    /* RETURN, YIELD: value may be NULL */
        struct { kj_expr *cond, *msg; } assert_;           /* ASSERT: msg may be NULL */
        struct { kj_expr *exc, *cause; } raise; /* RAISE: a class, a call of one or an exception (ir/raise.c);
                                                     exc NULL: a bare `raise`; cause: `from` */
        /* TRY: its clauses, in source order, are EXCEPT statements: the
         * handlers, then the else and finally clauses when present */
        struct { kj_block body, clauses; } try_;
        struct {                        /* EXCEPT: one clause of a TRY */
            kj_expr *type;              /* `except TYPE`: a class or a tuple; NULL: bare, else, finally */
            const char *name;           /* `as NAME`, or NULL */
            kj_span name_span;
            kj_expr *target;            /* `as NAME` as a NAME expression (host code binds it), or NULL */
            kj_block body;
            kj_except_kind clause;
        } except;
        kj_funcdef *def;                                   /* DEF */
        struct {                                           /* IMPORT, FROM_IMPORT, GLOBAL (names) */
            const char *module; /* FROM_IMPORT: the dotted module; IMPORT: NULL */
            kj_alias *names;
            uint32_t n;
        } import;
    };
};

typedef struct kj_param {
    const char *name;
    kj_span span;
    kj_expr *def; /* default value or NULL (a module-level expression id) */
} kj_param;

struct kj_funcdef {
    const char *name;
    kj_span span;      /* the `def` line: from `def` to the name */
    kj_span name_span;
    kj_expr **decorators; /* module-level expression ids */
    uint32_t ndecorators;
    kj_param *params;
    uint32_t nparams;
    bool vararg; /* the last parameter is *NAME: the tuple of the extra positional arguments (infer_call.c) */
    kj_block body;
    uint32_t nexprs; /* expression ids in the body are 0 .. nexprs-1 */
    const kj_funcdef *encl; /* a lambda written in a function: that function (parser_lambda.c), else NULL */
};

typedef struct kj_module {
    const kj_source *src;
    kj_block body;   /* top-level statements in order (imports, constants, defs, if-main) */
    uint32_t nexprs; /* ids of top-level expressions (incl. decorators, defaults) */
} kj_module;

/* The walkers over a function's statements (which names it binds, how
 * often, ...) go through these two, so that a new compound statement is a
 * case here rather than one in every walker. */

/* The targets statement st binds directly (ASSIGN's, AUGASSIGN's, FOR's, WITH's `as`),
 * in source order, at *out; their count (0 for any other statement). */
static inline uint32_t kj_stmt_targets(const kj_stmt *st, kj_expr *const **out)
{
    switch (st->kind) {
    case KJ_S_ASSIGN: *out = st->assign.targets; return st->assign.ntargets;
    case KJ_S_AUGASSIGN: *out = &st->aug.target; return 1;
    case KJ_S_FOR: *out = &st->for_.target; return 1;
    case KJ_S_WITH: *out = &st->with.target; return st->with.target ? 1 : 0;
    default: return 0;
    }
}

/* The blocks nested in compound statement st (FOR, IF, WHILE, WITH, TRY and
 * its EXCEPT clauses; not a nested def), in source order, into out; their count. */
static inline uint32_t kj_stmt_blocks(const kj_stmt *st, const kj_block *out[2])
{
    switch (st->kind) {
    case KJ_S_FOR: out[0] = &st->for_.body; return 1;
    case KJ_S_IF: out[0] = &st->if_.then, out[1] = &st->if_.els; return 2;
    case KJ_S_WHILE: out[0] = &st->while_.body; return 1;
    case KJ_S_WITH: out[0] = &st->with.body; return 1;
    case KJ_S_TRY: out[0] = &st->try_.body, out[1] = &st->try_.clauses; return 2;
    case KJ_S_EXCEPT: out[0] = &st->except.body; return 1;
    default: return 0;
    }
}

const char *kj_binop_str(kj_binop op);
const char *kj_unop_str(kj_unop op);
const char *kj_cmpop_str(kj_cmpop op);

#endif
