/* SPDX-License-Identifier: BSD-2-Clause */
/* Parser: tokens → AST (recursive descent, Python's grammar and precedence).
 * Unsupported Python constructs are parsed far enough to name them in an
 * error ("classes are not supported"); recovery skips to the next statement. */
#ifndef KJ_PARSER_H
#define KJ_PARSER_H

#include "../util/arena.h"
#include "../util/buf.h"
#include "ast.h"

/* Size limits, reported as located errors (docs/sema.md, "Limits"). Each
 * element of a tuple or list display becomes a member of one LLVM value,
 * and each argument a member of one call: LLVM's code generation grows
 * faster than linearly with both (a 4000-element constant tuple took 1 GB, a
 * call with 2000 arguments 5 s), so kjit refuses sizes no real program needs.
 * 255 arguments was Python's own limit before 3.7. */
enum { KJ_MAX_ELEMS = 1000, KJ_MAX_ARGS = 255 };

/* Lex and parse a whole source. Always returns a module (possibly partial)
 * allocated in `a`; errors go to `d`. */
kj_module *kj_parse(const kj_source *src, kj_arena *a, kj_diags *d);

/* S-expression dump of a module, for tests: (module (def f (params a b) ...)) */
void kj_ast_dump(const kj_module *m, kj_buf *out);

#endif
