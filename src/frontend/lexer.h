/* SPDX-License-Identifier: BSD-2-Clause */
/* Lexer: source bytes → tokens, with CPython's layout rules (INDENT/DEDENT
 * from a stack of indentation widths, no NEWLINE inside brackets, backslash
 * continuation). The whole file is tokenised up front into one array. */
#ifndef KJ_LEXER_H
#define KJ_LEXER_H

#include "../util/arena.h"
#include "../util/diag.h"

/* X(name, spelling) — spelling is what diagnostics print. */
#define KJ_TOKENS(X)                                                                       \
    X(EOF, "end of file") X(NEWLINE, "newline") X(INDENT, "indent") X(DEDENT, "dedent")    \
    X(NAME, "name") X(INT, "integer literal") X(FLOAT, "float literal")                    \
    X(STRING, "string literal") X(IMAG, "imaginary literal")                               \
    X(LPAREN, "(") X(RPAREN, ")") X(LBRACK, "[") X(RBRACK, "]") X(LBRACE, "{")             \
    X(RBRACE, "}") X(COMMA, ",") X(COLON, ":") X(DOT, ".") X(SEMI, ";") X(AT, "@")         \
    X(ARROW, "->") X(ASSIGN, "=") X(WALRUS, ":=") X(ELLIPSIS, "...")                       \
    X(PLUS, "+") X(MINUS, "-") X(STAR, "*") X(SLASH, "/") X(DSLASH, "//")                  \
    X(PERCENT, "%") X(DSTAR, "**") X(AMP, "&") X(PIPE, "|") X(CARET, "^") X(TILDE, "~")    \
    X(SHL, "<<") X(SHR, ">>") X(LT, "<") X(GT, ">") X(LE, "<=") X(GE, ">=") X(EQ, "==")    \
    X(NE, "!=") X(PLUSEQ, "+=") X(MINUSEQ, "-=") X(STAREQ, "*=") X(SLASHEQ, "/=")          \
    X(DSLASHEQ, "//=") X(PERCENTEQ, "%=") X(DSTAREQ, "**=") X(AMPEQ, "&=") X(PIPEEQ, "|=") \
    X(CARETEQ, "^=") X(SHLEQ, "<<=") X(SHREQ, ">>=") X(ATEQ, "@=")                         \
    X(KW_FALSE, "False") X(KW_NONE, "None") X(KW_TRUE, "True") X(KW_AND, "and")            \
    X(KW_AS, "as") X(KW_ASSERT, "assert") X(KW_ASYNC, "async") X(KW_AWAIT, "await")        \
    X(KW_BREAK, "break") X(KW_CLASS, "class") X(KW_CONTINUE, "continue") X(KW_DEF, "def")  \
    X(KW_DEL, "del") X(KW_ELIF, "elif") X(KW_ELSE, "else") X(KW_EXCEPT, "except")          \
    X(KW_FINALLY, "finally") X(KW_FOR, "for") X(KW_FROM, "from") X(KW_GLOBAL, "global")    \
    X(KW_IF, "if") X(KW_IMPORT, "import") X(KW_IN, "in") X(KW_IS, "is")                    \
    X(KW_LAMBDA, "lambda") X(KW_NONLOCAL, "nonlocal") X(KW_NOT, "not") X(KW_OR, "or")      \
    X(KW_PASS, "pass") X(KW_RAISE, "raise") X(KW_RETURN, "return") X(KW_TRY, "try")        \
    X(KW_WHILE, "while") X(KW_WITH, "with") X(KW_YIELD, "yield")

typedef enum {
#define X(name, spelling) KJ_TOK_##name,
    KJ_TOKENS(X)
#undef X
        KJ_TOK__COUNT
} kj_tok_kind;

typedef struct kj_token {
    kj_tok_kind kind;
    kj_span span; /* INDENT/DEDENT/NEWLINE/EOF have len 0 at a sensible place */
    union {
        uint64_t i; /* INT: the value; `big` set when it does not fit in 64 bits */
        double f;   /* FLOAT; IMAG: the imaginary part of 2.5j */
        struct {    /* STRING: decoded contents (escapes processed), arena-owned */
            const char *s;
            uint32_t n;
        } str;
    } v;
    bool big;
    bool fstr; /* STRING: an f-string (f"..."); v.str is its text with the {fields} as written */
    bool bytes; /* STRING: a bytes literal (b"..."); v.str holds its bytes (\x00 included) */
} kj_token;

typedef struct kj_tokens {
    kj_token *v;
    uint32_t n; /* v[n-1] is always KJ_TOK_EOF */
} kj_tokens;

/* Tokenise a whole source. Errors go to `d`; the result is always a usable
 * token array ending in EOF (with INDENT/DEDENT balanced), so the parser can
 * run and report more errors. */
kj_tokens kj_lex(const kj_source *src, kj_arena *a, kj_diags *d);

/* The contents of the string-literal text [b, e) of src, escapes decoded
 * (none when raw), as an arena string; for the literal parts of f-strings.
 * Errors are not reported again (kj_lex did). */
char *kj_lex_decode(const kj_source *src, kj_arena *a, uint32_t b, uint32_t e, bool raw, uint32_t *len);

const char *kj_tok_spelling(kj_tok_kind k);

/* What the lexer tells the parser beyond the tokens, so that one fault is
 * reported once: after an unclosed bracket, inside brackets nested too
 * deep, after indentation nested too deep, the token stream is partly
 * synthetic and whatever the parser finds there repeats the lexer's error. */
typedef struct kj_lex_info {
    uint32_t quiet_from, quiet_to; /* no parser errors at offsets in [from, to) */
} kj_lex_info;

/* kj_lex, also filling `info` (may be NULL), but the token array is
 * malloc-owned by the caller, who frees it with free(toks.v): the parser
 * drops its tokens when done, sparing the arena a copy of them. Strings
 * stay in the arena. */
kj_tokens kj_lex_ex(const kj_source *src, kj_arena *a, kj_diags *d, kj_lex_info *info);

#endif
